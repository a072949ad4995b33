"""How long a played game keeps a person waiting: the bots' moves, and the review at the end.

- `bot_move_ms`: the time a bot takes to choose and play one move (the page adds its own
  delay, 0.8 s by default, on top), over whole games in every rule set at 2 to 6 players with
  mixed tables, p95 and max.
- `review_s`: a game with about 40 decisions of the learner's (played for the learner by the
  Rule bot's policy), each decision sent to the valuing workers the moment it is made, as the
  page does; the bots move at the page's default pace (`--delay`). The figure is the time from
  the last move to a review ready to show (the rest valued, graded, summed up).
- `review_cold_s`: the same game reviewed from nothing (an imported log): every decision
  valued at the end, over the same workers, sent as the page sends them
  (`trainer.play.worker.Valuer.submit_all`: the end-game duel's first decision first, its
  others once it has worked out the court's values, and a few consecutive decisions a job
  for the rest); `review_cold_cpu_s` the CPU seconds it took over
  this process and the workers (the wall time depends on what else the machine runs). Timed
  twice: `..._fixed200` at the former fixed 200 playouts per option, and with the page's
  sequential playouts (`trainer.estimates.rollouts.values`, at most `ROLLOUTS` per option).
- `grade_diff_200` / `grade_diff_seq`: on `--ref-seeds` four-player games × `--ref-decisions`
  decisions each, how many grades (the review's own grading: `trainer.play.review.step`,
  "trivial" counting as a grade) differ from the grade a `--ref-playouts` reference gives
  (5,000 fixed playouts per option, on worlds independent of the graded ones): first with
  200 fixed playouts per option (the former rule), then with the sequential playouts.
  The references are slow (minutes per decision under load), so they are kept in
  `bench/out/play_reference.json` (not committed) and a rerun only computes the missing ones.

    python bench/play.py [--delay 0.8] [--workers 2] [--games 3] [--skip-bots] [--skip-warm]
        [--ref-seeds 4] [--ref-decisions 11] [--ref-playouts 5000] [--ref-cached]
        [--cap 1024] [--log PATH]

`--log` reviews a saved game record (JSON) instead of finding a 40-decision game.
Last line: `bot_move_ms <p95> review_s <s> review_cold_s <s> review_cold_cpu_s <s>
review_cold_fixed200_s <s> review_cold_fixed200_cpu_s <s> decisions <n> rollouts <cap>
playouts_per_decision <n> grade_diff_200 <k>/<n> grade_diff_seq <k>/<n>
bot_moves_over_pause <n>` (a part skipped is left out).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import resource
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.bots.tournament import every_persona  # noqa: E402
from trainer.engine.variants import VARIANTS  # noqa: E402
from trainer.play.assess import ROLLOUTS, Valued, kind_of, value  # noqa: E402
from trainer.play.match import Match  # noqa: E402
from trainer.play.record import GameRecord  # noqa: E402
from trainer.play.review import (  # noqa: E402
    decision_indices,
    meta,
    positions,
    review,
    rollout_seed,
    step,
)
from trainer.play.setup import Setup, mixed_seats, sizes  # noqa: E402
from trainer.play.worker import Valuer  # noqa: E402
from trainer.quiz.bank import Item  # noqa: E402
from trainer.quiz.solved import Solved  # noqa: E402


def learner_plays(match: Match, seed: int) -> None:
    """Finish the game with the learner's moves chosen by the Rule bot's policy."""
    bot = every_persona()["rule"]
    rng = random.Random(seed)
    bot.new_game(rng)
    while not match.over:
        if match.learner_to_move:
            match.play(bot.choose(match.observation(), rng))
        else:
            match.bot_move()


def bot_moves(games: int) -> list[float]:
    """Seconds per bot move over `games` games per rule set and table size."""
    times: list[float] = []
    for name in VARIANTS:
        for players in sizes(name):
            for g in range(games):
                seed = 1000 * players + g
                match = Match.start(Setup(name, seed, mixed_seats(players, 0, seed)), "bench")
                learner = every_persona()["rule"]
                rng = random.Random(seed)
                learner.new_game(rng)
                while not match.over:
                    if match.learner_to_move:
                        match.play(learner.choose(match.observation(), rng))
                    else:
                        t = time.perf_counter()
                        match.bot_move()
                        times.append(time.perf_counter() - t)
    return times


def forty(target: int = 40) -> GameRecord:
    """A base-game record whose learner made about `target` real decisions."""
    best: tuple[int, GameRecord] | None = None
    for seed in range(200):
        players = 5 + seed % 2
        match = Match.start(Setup("base", seed, mixed_seats(players, 0, seed)), "bench")
        learner_plays(match, seed)
        n = len(decision_indices(match.record))
        if best is None or abs(n - target) < abs(best[0] - target):
            best = (n, match.record)
        if abs(n - target) <= 2:
            break
    assert best is not None
    return best[1]


def review_warm(record: GameRecord, valuer: Valuer, delay: float) -> float:
    """Replay `record` at the page's pace, valuing each decision as it is made; the seconds
    from the last move to the finished review."""
    wanted = set(decision_indices(record))
    moves = record.parsed()
    replay = Match.start(record.setup(), "bench")
    replay.record.game_id = record.game_id
    for k, move in enumerate(moves):
        if replay.learner_to_move:
            replay.play(move)
            if k in wanted:
                valuer.submit(replay.record, k, ROLLOUTS)
        else:
            time.sleep(delay)
            replay.bot_move()
        assert replay.record.moves[k] == record.moves[k], "the same seed and moves replay"
    t = time.perf_counter()
    cache = {}
    for k in sorted(wanted):
        v = valuer.result(replay.record, k, ROLLOUTS)
        if v is not None:
            cache[k] = v
    review(replay.record, cache, rollouts=ROLLOUTS)
    return time.perf_counter() - t


def review_cold(record: GameRecord, workers: int, cap: int) -> tuple[float, float, int]:
    """(wall s, CPU s over this process and the workers, playouts) of reviewing `record` from
    nothing with `cap` playouts per option (fixed 200 when `cap` is `FIXED_200`)."""
    valuer = Valuer(workers, fixed=cap == FIXED_200)
    rollouts = 200 if cap == FIXED_200 else cap
    valuer.result(record, decision_indices(record)[0], 10)  # start the workers
    cpu, children = time.process_time(), _children_cpu()
    t = time.perf_counter()
    indices = decision_indices(record)
    valuer.submit_all(record, indices, rollouts)  # as the page does
    cache = {k: v for k in indices if (v := valuer.result(record, k, rollouts))}
    review(record, cache, rollouts=rollouts)
    wall = time.perf_counter() - t
    valuer.shutdown(wait=True)
    used = time.process_time() - cpu + _children_cpu() - children
    playouts = sum(o.n or v.rollouts for v in cache.values() for o in v.item.options)
    return wall, used, playouts


FIXED_200 = -200  # the former rule: exactly 200 playouts per option


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# ------------------------------------------------------------------------ grade stability
OUT = Path(__file__).resolve().parent / "out"
REFERENCE = OUT / "play_reference.json"
REF_SEED_SHIFT = 7_919  # the reference's worlds are not the graded ones


def reference_games(seeds: Iterable[int]) -> list[GameRecord]:
    """A four-player base game per seed, the learner played by the Rule bot's policy."""
    out = []
    for seed in seeds:
        match = Match.start(Setup("base", seed, mixed_seats(4, 0, seed)), "bench")
        learner_plays(match, seed)
        out.append(match.record)
    return out


def spread(indices: list[int], count: int) -> list[int]:
    """`count` of `indices`, evenly spaced over the game."""
    if len(indices) <= count:
        return indices
    return [indices[round(i * (len(indices) - 1) / (count - 1))] for i in range(count)]


def valued_at(record: GameRecord, index: int, playouts: int, *, fixed: bool,
              shift: int = 0) -> Valued | None:
    """The learner's decision before move `index`, valued as the review does, with the
    review's rollout stream moved by `shift`."""
    for k, game, belief, _ in positions(record, index + 1):
        if k == index:
            kind = kind_of(game)
            if kind is None:
                return None
            return value(game, belief, record.learner_seat, kind=kind, rollouts=playouts,
                         seed=rollout_seed(record, index) + shift, game_seed=record.seed,
                         prefix=tuple(record.parsed()[:index]), meta=meta(record, index),
                         played=record.parsed()[index], fixed=fixed)
    return None


def grade(record: GameRecord, index: int, valued: Valued) -> str:
    """The review's grade of the learner's move at `index` ("trivial" when left out)."""
    for k, game, _, move in positions(record, index + 1):
        if k == index and move is not None:
            kind = kind_of(game)
            assert kind is not None
            return step(record, index, 1, game, kind, valued, move).grade or "trivial"
    raise ValueError(f"move {index} is not the learner's")


def _reference_job(job: tuple[GameRecord, int, int]) -> tuple[str, dict[str, object] | None]:
    record, index, playouts = job
    v = valued_at(record, index, playouts, fixed=True, shift=REF_SEED_SHIFT)
    key = f"{record.seed}:{index}:{playouts}"
    if v is None:
        return key, None
    return key, {"item": v.item.to_data(),
                 "solved": None if v.solved is None else v.solved.to_data()}


def references(records: list[GameRecord], count: int, playouts: int, workers: int,
               cached_only: bool = False) -> dict[tuple[int, int], Valued]:
    """The reference valuation of `count` decisions per game, from the cache file where it
    holds them, else computed (over `workers` processes) and added to it (`cached_only`:
    only those already in the file)."""
    stored: dict[str, dict[str, object] | None] = {}
    if REFERENCE.exists():
        stored = json.loads(REFERENCE.read_text())
    jobs = [(r, k, playouts) for r in records for k in spread(decision_indices(r), count)
            if f"{r.seed}:{k}:{playouts}" not in stored]
    if jobs and not cached_only:
        print(f"computing {len(jobs)} references at {playouts} playouts per option "
              f"(cached in {REFERENCE})", flush=True)
        OUT.mkdir(exist_ok=True)
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(max(1, workers)) as pool:
            for key, data in pool.imap_unordered(_reference_job, jobs):
                stored[key] = data
                REFERENCE.write_text(json.dumps(stored))
                print(f"  reference {key} done", flush=True)
    out = {}
    for r in records:
        for k in spread(decision_indices(r), count):
            data = stored.get(f"{r.seed}:{k}:{playouts}")
            if data is not None:
                solved = data["solved"]
                out[(r.seed, k)] = Valued(Item.from_data(data["item"]),  # type: ignore[arg-type]
                                          None if solved is None else Solved.from_data(solved))
    return out


def grade_differences(records: list[GameRecord], refs: dict[tuple[int, int], Valued],
                      cap: int = ROLLOUTS) -> tuple[int, int, int, int]:
    """(differ at 200 fixed, differ sequential, decisions, sequential playouts)."""
    by_seed = {r.seed: r for r in records}
    d200 = dseq = played = 0
    for (seed, k), ref in sorted(refs.items()):
        record = by_seed[seed]
        want = grade(record, k, ref)
        old = valued_at(record, k, 200, fixed=True)
        new = valued_at(record, k, cap, fixed=False)
        assert old is not None and new is not None
        g200, gseq = grade(record, k, old), grade(record, k, new)
        used = sum(o.n for o in new.item.options)
        played += used
        d200 += g200 != want
        dseq += gseq != want
        print(f"  seed {seed} move {k}: reference {want}, 200 fixed {g200}, sequential "
              f"{gseq} ({used} playouts)", flush=True)
    return d200, dseq, len(refs), played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--delay", type=float, default=0.8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", type=int, default=2, help="games per rule set and size")
    ap.add_argument("--skip-bots", action="store_true", help="leave out the bot moves' times")
    ap.add_argument("--skip-warm", action="store_true", help="leave out the review at the "
                    "page's pace (it waits --delay per bot move)")
    ap.add_argument("--skip-cold", action="store_true", help="leave out the cold reviews")
    ap.add_argument("--ref-seeds", type=int, default=4, help="games for the grade figures "
                    "(0: none)")
    ap.add_argument("--ref-decisions", type=int, default=11, help="decisions per game")
    ap.add_argument("--ref-playouts", type=int, default=5000, help="reference playouts")
    ap.add_argument("--ref-cached", action="store_true",
                    help="grade only the decisions whose reference is already cached")
    ap.add_argument("--cap", type=int, default=ROLLOUTS,
                    help="playouts per option at most, for the sequential valuations")
    ap.add_argument("--log", type=Path, default=None,
                    help="a saved game record (JSON) to review instead of a found game")
    args = ap.parse_args()
    last: list[str] = []

    over = 0
    if not args.skip_bots:
        times = sorted(bot_moves(args.games))
        p95 = 1000 * times[int(0.95 * (len(times) - 1))]
        over = sum(1 for t in times if t > args.delay)
        print(f"bot moves: {len(times)}, median {1000 * statistics.median(times):.1f} ms, "
              f"p95 {p95:.1f} ms, max {1000 * times[-1]:.0f} ms; {over} took longer than the "
              f"{args.delay:g} s pause")
        last += [f"bot_move_ms {p95:.1f}"]

    if not (args.skip_warm and args.skip_cold):
        record = (GameRecord.model_validate_json(args.log.read_text()) if args.log
                  else forty())
        n = len(decision_indices(record))
        print(f"review game: {len(record.seats)} players, {len(record.moves)} moves, {n} "
              f"decisions of the learner's")
        if not args.skip_warm:
            valuer = Valuer(args.workers)
            valuer.result(record, decision_indices(record)[0], 10)  # start the workers
            warm = review_warm(record, valuer, args.delay)
            valuer.shutdown()
            print(f"review after a game at {args.delay:g} s a bot move: {warm:.2f} s")
            last += [f"review_s {warm:.2f}"]
        if not args.skip_cold:
            wall, cpu, playouts = review_cold(record, args.workers, args.cap)
            print(f"review from nothing, sequential (at most {args.cap} per option): "
                  f"{wall:.2f} s, {cpu:.1f} CPU s, {playouts} playouts ({args.workers} "
                  f"workers)", flush=True)
            wall0, cpu0, playouts0 = review_cold(record, args.workers, FIXED_200)
            print(f"review from nothing, 200 fixed: {wall0:.2f} s, {cpu0:.1f} CPU s, "
                  f"{playouts0} playouts", flush=True)
            last += [f"review_cold_s {wall:.2f}", f"review_cold_cpu_s {cpu:.1f}",
                     f"review_cold_fixed200_s {wall0:.2f}",
                     f"review_cold_fixed200_cpu_s {cpu0:.1f}", f"decisions {n}",
                     f"rollouts {args.cap}", f"playouts_per_decision {playouts / n:.0f}"]

    if args.ref_seeds > 0:
        records = reference_games(range(1, args.ref_seeds + 1))
        refs = references(records, args.ref_decisions, args.ref_playouts, args.workers,
                          args.ref_cached)
        d200, dseq, total, played = grade_differences(records, refs, args.cap)
        print(f"grades differing from the {args.ref_playouts}-playout reference: 200 fixed "
              f"{d200} of {total}, sequential {dseq} of {total} "
              f"({played / max(1, total):.0f} playouts per decision)")
        last += [f"grade_diff_200 {d200}/{total}", f"grade_diff_seq {dseq}/{total}"]
    if not args.skip_bots:
        last += [f"bot_moves_over_pause {over}"]
    print(" ".join(last))


if __name__ == "__main__":
    main()
