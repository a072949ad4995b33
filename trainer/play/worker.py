"""Valuing the learner's decisions beside the game, in worker processes.

Why: a decision's rollouts take about a second, and a game has dozens of decisions. Valued one
by one after the last move, a review would keep the learner waiting for half a minute. Each
decision is therefore sent to a worker the moment the learner has made it (and the coach's
request at once), so the valuing runs while the game goes on; at the end the review only
waits for what is still running, spread over every worker.

Why processes and not threads: rollouts are pure Python, so a thread would hold the
interpreter lock and slow the page that must show the bots' moves on time. Workers are
started with `spawn` (forking a server that runs threads is unsafe) and live as long as the
server; each job carries the game's record, so a worker needs nothing else.

With `workers=0` every job runs in the caller's process when it is asked for: the tests' way,
and the fallback where processes cannot be started.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from trainer.play.assess import Valued
from trainer.play.record import GameRecord
from trainer.play.review import Courts, duel_indices, value_job, value_jobs, value_jobs_with_courts

WORKERS_ENV = "COUP_TRAINER_PLAY_WORKERS"


def default_workers() -> int:
    """$COUP_TRAINER_PLAY_WORKERS, else one per core up to two."""
    raw = os.environ.get(WORKERS_ENV, "").strip()
    if raw.isdigit():
        return int(raw)
    return max(1, min(2, os.cpu_count() or 1))


Key = tuple[str, int, int]  # (game id, move index, rollouts)
# A review from nothing is sent as at least this many jobs a worker (`Valuer.submit_all`).
JOBS_PER_WORKER = 4


class Valuer:
    """Jobs by (game, move, rollouts): submitted once, collected when done."""

    def __init__(self, workers: int | None = None, *, fixed: bool = False) -> None:
        """`fixed`: value at exactly the asked playouts per option instead of sequentially
        up to them (the benchmark's former rule)."""
        self.workers = default_workers() if workers is None else workers
        self.fixed = fixed
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: dict[Key, Future[Valued | None]] = {}
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.workers <= 0:
            return None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def submit(self, record: GameRecord, index: int, rollouts: int) -> None:
        """Start valuing the learner's decision before move `index` (no-op if started)."""
        key = (record.game_id, index, rollouts)
        with self._lock:
            if key in self._jobs:
                return
            pool = self._executor()
            job = (record.model_copy(deep=True), index, rollouts, self.fixed)
            if pool is None:
                future: Future[Valued | None] = Future()
                future.set_result(value_job(job))
            else:
                try:
                    future = pool.submit(value_job, job)
                except (BrokenProcessPool, RuntimeError):
                    self._pool = None  # a worker died: run this one here
                    future = Future()
                    future.set_result(value_job(job))
            self._jobs[key] = future

    def submit_all(self, record: GameRecord, indices: list[int], rollouts: int) -> None:
        """Start valuing every decision in `indices` not started yet (a review from nothing):
        the duel at the end first (`submit_duel`), then the rest from the first move on, a
        few consecutive decisions a job. Why this order: the duel's first exact solve is the
        longest single piece of work, so it starts while the other workers play out the
        rest; early decisions, with more players still in, take the longest playouts. Why
        a few a job: a job replays the game from the deal with the learner's belief, so
        consecutive decisions sent together replay it once; with at least `JOBS_PER_WORKER`
        jobs a worker, the last one to finish still leaves little to wait for."""
        with self._lock:
            todo = [k for k in indices if (record.game_id, k, rollouts) not in self._jobs]
        if self.workers <= 0:
            for k in todo:
                self.submit(record, k, rollouts)
            return
        duel = duel_indices(record, todo)
        if len(duel) > 1:
            self.submit_duel(record, duel, rollouts)
        else:
            duel = []  # a lone duel decision goes with its neighbours
        rest = [k for k in todo if k not in duel]
        size = max(1, len(rest) // (JOBS_PER_WORKER * self.workers))
        for start in range(0, len(rest), size):
            self.submit_group(record, rest[start:start + size], rollouts)

    def submit_duel(self, record: GameRecord, indices: list[int], rollouts: int) -> None:
        """The duel's decisions (`indices`, in order): the first as a job of its own, which
        also works out the values of the cards left in the court; once it is done, each of
        the others as a job of its own starting from those values. Why not one job: the
        court's values take seconds, each decision's solve about as long again, and one job
        would keep one worker busy with all of them while the others run out of work; sent
        one by one without the court's values, every job would work them out again."""
        with self._lock:
            pool = self._executor()
            indices = [k for k in indices if (record.game_id, k, rollouts) not in self._jobs]
            if pool is None or not indices:
                return
            parts = self._parts(record, indices, rollouts)
        first, later = indices[0], indices[1:]

        def then(courts: Courts) -> None:
            for k in later:
                self._send(value_jobs_with_courts, (record.model_copy(deep=True), [k],
                           rollouts, self.fixed, courts), {k: parts[k]})

        def started(done: Future[tuple[list[Valued | None], Courts]]) -> None:
            if done.cancelled() or done.exception() is not None:
                _spread(done, list(parts.values()))
                return
            valued, courts = done.result()
            parts[first].set_result(valued[0])
            # Not sent from here: a callback runs in the pool's own thread, which must not
            # wait on the pool's queue.
            threading.Thread(target=then, args=(courts,), daemon=True).start()

        self._send(value_jobs_with_courts, (record.model_copy(deep=True), [first], rollouts,
                   self.fixed, {}), parts, started)

    def _parts(self, record: GameRecord, indices: list[int], rollouts: int
               ) -> dict[int, Future[Valued | None]]:
        """A future for each decision, in the table of jobs at once (the caller holds the
        lock), so asking for one waits for its job rather than starting it again."""
        parts: dict[int, Future[Valued | None]] = {}
        for k in indices:
            parts[k] = self._jobs[(record.game_id, k, rollouts)] = Future()
        return parts

    def _send(self, fn: Callable[[Any], Any], job: tuple[Any, ...],
              parts: dict[int, Future[Valued | None]],
              done: Callable[[Future[Any]], None] | None = None) -> None:
        """Submit `fn(job)`: its list of results goes to `parts` in order (or the finished
        job to `done`). Where the pool cannot take it (shut down, or a worker died), the
        parts leave the table of jobs and are cancelled: asking for one again runs it
        (`result`)."""
        with self._lock:
            pool = self._executor()
            try:
                if pool is None:
                    raise RuntimeError("no workers")
                future = pool.submit(fn, job)
            except (BrokenProcessPool, RuntimeError):
                self._pool = None
                record, rollouts = job[0], job[2]
                for k, part in parts.items():
                    if self._jobs.get((record.game_id, k, rollouts)) is part:
                        del self._jobs[(record.game_id, k, rollouts)]
                    part.cancel()
                return
        future.add_done_callback(done or (lambda f: _spread(f, list(parts.values()))))

    def submit_group(self, record: GameRecord, indices: list[int], rollouts: int) -> None:
        """One job valuing `indices` together, each decision's result under its own key."""
        with self._lock:
            if self._executor() is None:
                return  # valued one by one, when asked
            indices = [k for k in indices if (record.game_id, k, rollouts) not in self._jobs]
            if not indices:
                return
            parts = self._parts(record, indices, rollouts)
        self._send(value_jobs, (record.model_copy(deep=True), indices, rollouts, self.fixed),
                   parts)

    def ready(self, record: GameRecord, index: int, rollouts: int) -> bool:
        future = self._jobs.get((record.game_id, index, rollouts))
        return future is not None and future.done()

    def result(self, record: GameRecord, index: int, rollouts: int,
               timeout: float | None = None) -> Valued | None:
        """The valued decision (waiting for it up to `timeout`); a job never submitted is
        submitted first. A job whose worker failed is run again here."""
        key = (record.game_id, index, rollouts)
        if key not in self._jobs:
            self.submit(record, index, rollouts)
        future = self._jobs[key]
        try:
            return future.result(timeout=timeout)
        except (BrokenProcessPool, CancelledError) as e:
            with self._lock:
                if isinstance(e, BrokenProcessPool):
                    self._pool = None
                if self._jobs.get(key) is future:
                    del self._jobs[key]
            return value_job((record, index, rollouts, self.fixed))

    def forget(self, game_id: str) -> None:
        """Drop a game's finished jobs (their results are saved with the game)."""
        with self._lock:
            for key in [k for k in self._jobs if k[0] == game_id and self._jobs[k].done()]:
                del self._jobs[key]

    def shutdown(self, wait: bool = False) -> None:
        """Stop the workers (`wait`: until they have exited, so their CPU time is counted)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None


def _spread(done: Future[Any], parts: list[Future[Valued | None]]) -> None:
    """A finished job's results (a list, or a pair whose first item is the list) handed to
    the futures of its decisions, in order: its error to each, or each cancelled if the job
    was (the workers were shut down before it started)."""
    if done.cancelled():
        for part in parts:
            part.cancel()
        return
    error = done.exception()
    if error is not None:
        for part in parts:
            part.set_exception(error)
        return
    results = done.result()
    if isinstance(results, tuple):
        results = results[0]
    for part, result in zip(parts, results, strict=True):
        part.set_result(result)
