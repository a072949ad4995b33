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
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from trainer.play.assess import Valued
from trainer.play.record import GameRecord
from trainer.play.review import duel_indices, value_job, value_jobs

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
        the duel at the end first, as one job, then the rest from the first move on, a few
        consecutive decisions a job. Why this order: the duel's exact solve is the longest
        single piece of work and only one worker can do it, so it starts while the other
        workers play out the rest; sent as one job, it works out the court's values once
        (`value_jobs`); early decisions, with more players still in, take the longest
        playouts. Why a few a job: a job replays the game from the deal with the learner's
        belief, so consecutive decisions sent together replay it once; with at least
        `JOBS_PER_WORKER` jobs a worker, the last one to finish still leaves little to wait
        for."""
        with self._lock:
            todo = [k for k in indices if (record.game_id, k, rollouts) not in self._jobs]
        if self.workers <= 0:
            for k in todo:
                self.submit(record, k, rollouts)
            return
        duel = duel_indices(record, todo)
        if len(duel) > 1:
            self.submit_group(record, duel, rollouts)
        else:
            duel = []  # a lone duel decision goes with its neighbours
        rest = [k for k in todo if k not in duel]
        size = max(1, len(rest) // (JOBS_PER_WORKER * self.workers))
        for start in range(0, len(rest), size):
            self.submit_group(record, rest[start:start + size], rollouts)

    def submit_group(self, record: GameRecord, indices: list[int], rollouts: int) -> None:
        """One job valuing `indices` together, each decision's result under its own key."""
        with self._lock:
            pool = self._executor()
            if pool is None:
                return  # valued one by one, when asked
            indices = [k for k in indices if (record.game_id, k, rollouts) not in self._jobs]
            if not indices:
                return
            job = (record.model_copy(deep=True), indices, rollouts, self.fixed)
            try:
                group = pool.submit(value_jobs, job)
            except (BrokenProcessPool, RuntimeError):
                self._pool = None
                return  # valued one by one when asked for (`result`)
            parts: list[Future[Valued | None]] = []
            for k in indices:
                part: Future[Valued | None] = Future()
                self._jobs[(record.game_id, k, rollouts)] = part
                parts.append(part)

        def spread(done: Future[list[Valued | None]]) -> None:
            if done.cancelled():  # the workers were shut down before it started
                for part in parts:
                    part.cancel()
                return
            error = done.exception()
            for i, part in enumerate(parts):
                if error is not None:
                    part.set_exception(error)
                else:
                    part.set_result(done.result()[i])

        group.add_done_callback(spread)

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
        except BrokenProcessPool:
            with self._lock:
                self._pool = None
                self._jobs.pop(key, None)
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
