"""How long a played game keeps a person waiting: the bots' moves, and the review at the end.

- `bot_move_ms`: the time a bot takes to choose and play one move (the page adds its own
  delay, 0.8 s by default, on top), over whole games in every rule set at 2 to 6 players with
  mixed tables, p95 and max.
- `review_s`: a game with about 40 decisions of the learner's (played for the learner by the
  Rule bot's policy), each decision sent to the valuing workers the moment it is made, as the
  page does; the bots move at the page's default pace (`--delay`). The figure is the time from
  the last move to a review ready to show (the rest valued, graded, summed up).
- `review_cold_s`: the same game reviewed from nothing (an imported log): every decision
  valued at the end, over the same workers.

Both reviews use the page's rollouts per option (`ROLLOUTS`) and the same workers
(`--workers`, default 2: this machine's cores).

    python bench/play.py [--delay 0.8] [--workers 2] [--games 3]

Last line: `bot_move_ms <p95> review_s <s> review_cold_s <s> decisions <n> rollouts <n>
bot_moves_over_pause <n>`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.bots.tournament import every_persona  # noqa: E402
from trainer.engine.variants import VARIANTS  # noqa: E402
from trainer.play.assess import ROLLOUTS  # noqa: E402
from trainer.play.match import Match  # noqa: E402
from trainer.play.record import GameRecord  # noqa: E402
from trainer.play.review import decision_indices, review  # noqa: E402
from trainer.play.setup import Setup, mixed_seats, sizes  # noqa: E402
from trainer.play.worker import Valuer  # noqa: E402


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


def review_cold(record: GameRecord, valuer: Valuer) -> float:
    t = time.perf_counter()
    indices = decision_indices(record)
    for k in indices:
        valuer.submit(record, k, ROLLOUTS)
    cache = {k: v for k in indices if (v := valuer.result(record, k, ROLLOUTS))}
    review(record, cache, rollouts=ROLLOUTS)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--delay", type=float, default=0.8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", type=int, default=2, help="games per rule set and size")
    args = ap.parse_args()

    times = sorted(bot_moves(args.games))
    p95 = 1000 * times[int(0.95 * (len(times) - 1))]
    over = sum(1 for t in times if t > args.delay)
    print(f"bot moves: {len(times)}, median {1000 * statistics.median(times):.1f} ms, "
          f"p95 {p95:.1f} ms, max {1000 * times[-1]:.0f} ms; {over} took longer than the "
          f"{args.delay:g} s pause")

    record = forty()
    n = len(decision_indices(record))
    print(f"review game: {len(record.seats)} players, {len(record.moves)} moves, {n} "
          f"decisions of the learner's")
    valuer = Valuer(args.workers)
    valuer.result(record, decision_indices(record)[0], 10)  # start the workers
    warm = review_warm(record, valuer, args.delay)
    print(f"review after a game at {args.delay:g} s a bot move: {warm:.2f} s")
    cold_valuer = Valuer(args.workers)
    cold_valuer.result(record, decision_indices(record)[0], 10)
    cold = review_cold(record, cold_valuer)
    print(f"review from nothing: {cold:.2f} s ({args.workers} workers)")
    valuer.shutdown()
    cold_valuer.shutdown()
    print(f"bot_move_ms {p95:.1f} review_s {warm:.2f} review_cold_s {cold:.2f} decisions {n} "
          f"rollouts {ROLLOUTS} bot_moves_over_pause {over}")


if __name__ == "__main__":
    main()
