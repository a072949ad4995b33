"""What the variants cost the base game: the engine of an earlier commit against this one.

Why this exists: the variants are hooks in the one engine, and the base game must not slow down
because they exist (the goal: under 10%). This script builds the engine of an earlier commit
(by default the last one before the variants) in a temporary git worktree, compiled the same
way as this checkout's, and races it against this checkout's engine with `bench/engine.py
--only trainer`: the base game, 4 players, game i dealt with seed S+i and played by
``random.Random(S + i).choice`` on both sides. The two take turns in rounds, each in a fresh
process, so a change in machine load falls on both alike.

The last line is ``change_pct <(after - before) / before in %>`` of decisions per second
(negative: slower).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
BEFORE_VARIANTS = "d3b359f"  # "Engine: say which fields are caches of others"
_RATE = re.compile(r"decisions/s=(\d+)")
_GAMES = re.compile(r"games/s=([\d.]+)")


def _build(tree: Path) -> str:
    """Compile tree's engine in place as `make install` would; return which build it is."""
    if os.environ.get("COUP_TRAINER_PURE_PYTHON") == "1":
        return "pure Python"
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
                          cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"could not compile the engine of {tree}:\n{done.stderr[-2000:]}")
    return "compiled"


def _run(tree: Path, games: int, seed: int) -> tuple[float, float]:
    """Decisions/s and games/s of tree's engine over `games` games from `seed`."""
    script = tree / "bench" / "engine.py"
    command = [sys.executable, str(script), "--only", "trainer", "--games", str(games),
               "--seed", str(seed), "--rounds", "1"]
    if "--table-rules" in script.read_text():
        # A bench that races every rule set under coupml's readings: the base game under the
        # rulebook's defaults, as the engines before it played.
        command += ["--variants", "base", "--table-rules", "official"]
    out = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("trainer ") and "decisions/s=" in x)
    rate, per_game = _RATE.search(line), _GAMES.search(line)
    assert rate and per_game, line
    return float(rate.group(1)), float(per_game.group(1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE_VARIANTS,
                        help=f"the commit to compare with (default {BEFORE_VARIANTS}, the last "
                             f"one before the variants)")
    parser.add_argument("--games", type=int, default=5000, help="games per engine")
    parser.add_argument("--rounds", type=int, default=6, help="alternations of the two")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="coup-before-") as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), args.before],
                       cwd=ROOT, check=True, capture_output=True)
        try:
            build = _build(old)
            mine = subprocess.run(
                [sys.executable, "-c", "from trainer.engine.build import engine_build; "
                 "print(engine_build())"], cwd=ROOT, capture_output=True, text=True).stdout
            if mine.strip() != build:
                raise SystemExit(f"this checkout's engine is {mine.strip()!r}, the other "
                                 f"{build!r}: run `make install` first")
            print(f"engine build: {build}; base game, 4 players, "
                  f"random.Random(seed).choice on both sides")
            totals = {"before": [0.0, 0.0], "after": [0.0, 0.0]}
            per_round = max(1, args.games // args.rounds)
            trees = {"before": old, "after": ROOT}
            with tqdm(total=2 * args.rounds, unit="run", file=sys.stderr, leave=False) as bar:
                for r in range(args.rounds):
                    order = ("before", "after") if r % 2 == 0 else ("after", "before")
                    for name in order:
                        rate, games_s = _run(trees[name], per_round,
                                             args.seed + r * per_round)
                        totals[name][0] += rate / args.rounds
                        totals[name][1] += games_s / args.rounds
                        bar.update()
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT,
                           capture_output=True)
    before, after = totals["before"], totals["after"]
    print(f"before ({args.before}) decisions/s={before[0]:.0f} games/s={before[1]:.1f}")
    print(f"after  (this checkout) decisions/s={after[0]:.0f} games/s={after[1]:.1f}")
    print(f"change_pct {100 * (after[0] - before[0]) / before[0]:+.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
