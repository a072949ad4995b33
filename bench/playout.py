"""What one rollout playout costs: this checkout against an earlier commit, in CPU time.

Why this exists: option values (`trainer.estimates.rollouts.values`) are thousands of
playouts, each some 35 decisions of persona bots over an observation of the table, and the
review of a played game waits for them. This script keeps the per-playout figure honest the
way `bench/clone.py` does for a copy: it unpacks the earlier commit (by default the last one
before the cheaper playouts) into a temporary folder, compiles its engine as `make install`
compiles this checkout's, and measures both in turns, each in a fresh process, so a change in
machine load falls on both alike.

What one measurement is: base-game positions at 4, 5 and 6 players (seeds 1-3, after 0, 10
and 25 random moves), each played out `--playouts` times to the end by a table of the
personas (Rule bot, Bluffer, Skeptic, Honest, ...), watching player 0 as the rollouts do
(a playout stops once player 0 is out); CPU µs per playout. Both commits play the same
games from the same seeds: the winners' checksum of each run is printed, and a difference is
an error (the cheaper playout must choose the same moves with the same random numbers).

    python bench/playout.py [--before COMMIT] [--rounds 3] [--playouts 200]

Last line: `playout_us <after> playout_before_us <before> ratio <before/after>` (medians over
the rounds).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from clone import compare, import_tree  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "ddbe7e0"  # the last commit before the cheaper playouts
STOPS = (0, 10, 25)
PLAYERS = (4, 5, 6)
SEEDS = (1, 2, 3)
CAST = ("rule", "bluffer", "skeptic", "honest", "rule", "bluffer")


def measure(playouts: int) -> dict[str, Any]:
    """One measurement of the `trainer` importable now (see the module's docstring)."""
    import random

    from trainer.engine.build import engine_build
    from trainer.engine.chance import RandomChance
    from trainer.engine.game import Game
    from trainer.estimates.rollouts import play_out
    from trainer.policies.personas import personas

    table = personas()
    winners = hashlib.sha256()
    spent = 0.0
    count = 0
    for players in PLAYERS:
        for seed in SEEDS:
            for stop in STOPS:
                game = Game.new(players, seed=seed)
                choose = random.Random(seed * 100 + stop).choice
                for _ in range(stop):
                    if game.is_over:
                        break
                    game.apply(choose(game.legal_moves()))
                if game.is_over:
                    continue
                cast = [table[name] for name in CAST[:players]]
                start = time.process_time()
                for i in range(playouts):
                    for persona in cast:
                        persona.new_game(random.Random(i))
                    g = game.clone(RandomChance(random.Random(i)))
                    won = play_out(g, cast, random.Random(i), 0)
                    winners.update(str(won).encode())
                spent += time.process_time() - start
                count += playouts
    return {"build": engine_build(), "playout_us": 1e6 * spent / count, "playouts": count,
            "winners": winners.hexdigest()[:16]}


def _run(tree: Path, playouts: int) -> dict[str, Any]:
    """One measurement of the tree's code, in a fresh process that imports it first."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure",
                           str(tree), "--playouts", str(playouts)],
                          cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"measuring {tree} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE,
                        help=f"the commit to compare with (default {BEFORE})")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two")
    parser.add_argument("--playouts", type=int, default=200, help="playouts per position")
    parser.add_argument("--measure", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:  # the child: import the tree's code, not the installed one
        import_tree(args.measure)
        print(json.dumps(measure(args.playouts)))
        return 0
    runs = compare(args.before, args.rounds, lambda tree: _run(tree, args.playouts), "commit",
                   "coup-playout-")
    digests = {r["winners"] for rs in runs.values() for r in rs}
    if len(digests) != 1:
        raise SystemExit(f"the two commits played different games (winners {digests})")
    before = statistics.median(r["playout_us"] for r in runs["before"])
    after = statistics.median(r["playout_us"] for r in runs["after"])
    print(f"{runs['after'][0]['playouts']} playouts a run, the same games in both "
          f"(winners {digests.pop()})")
    print(f"playout_us {after:.0f} playout_before_us {before:.0f} ratio {before / after:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
