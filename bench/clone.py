"""What a copy of a game costs, and what perft and an end-game solve cost with it: this
checkout's engine against an earlier commit's, in CPU time.

Why this exists: `Game.clone()` is the inner loop of perft, the end-game solvers and the
rollouts. It once deep-copied the game's random generator (~200 µs a copy); it now copies the
generator's state and the game field by field. This script keeps the figure honest: it
unpacks the engine of an earlier commit (by default the last one before the cheap copy) into a
temporary folder, compiles it the way `make install` compiles this checkout's, and measures
both in turns, each in a fresh process, so a change in machine load falls on both alike.

What one measurement is:

* `clone`: positions of every rule set (4 players, 2 for the draft; after 0, 10 and 40 random
  moves), each copied many times; CPU µs per copy, for the seeded random chance that play uses
  and for the scripted chance of perft and the lessons.
* `perft`: every position of `tests/data/perft/base.perft` counted three plies deeper than the
  file records; CPU seconds.
* `endgame`: one hidden-role solve (Duke/Captain face up, coins 3-1, horizon 3), its public
  graph built from nothing; CPU seconds.

    python bench/clone.py [--before COMMIT] [--rounds 3]

Last line: `clone_us <after, random chance> clone_before_us <before> ratio <before/after>
clone_scripted_us <after> clone_scripted_before_us <before> perft_s <after> perft_before_s
<before> endgame_s <after> endgame_before_s <before>` (each the median over the rounds).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "18ff1b3"  # "docs/engine.md: the figures of the 200,000-game mixed fuzz run"
STOPS = (0, 10, 40)
PERFT_FILE = "tests/data/perft/base.perft"
PERFT_EXTRA = 3


def measure(copies: int) -> dict[str, Any]:
    """One measurement of the engine importable as `trainer` (see the module's docstring)."""
    import random

    from trainer.endgame import hidden
    from trainer.engine.build import engine_build
    from trainer.engine.cards import Character
    from trainer.engine.chance import ScriptedChance
    from trainer.engine.game import Game
    from trainer.engine.perft import perft_counts, read_perft
    from trainer.engine.variants import VARIANTS

    out: dict[str, Any] = {"build": engine_build(), "clone": {}, "clone_scripted": {}}
    for name, variant in VARIANTS.items():
        players = 2 if variant.max_players < 4 else 4
        for stop in STOPS:
            game = Game.new(players, seed=stop + 1, variant=variant)
            setup = next(e for e in game.log if e.kind == "setup")
            scripted = Game.from_snapshot(setup.data, ScriptedChance())
            choose = random.Random(stop).choice
            for _ in range(stop):
                if game.is_over or scripted.is_over:
                    break
                move = choose(game.legal_moves())
                if move not in scripted.legal_moves():
                    break  # the two deals have drawn apart: the position so far will do
                game.apply(move)
                scripted.apply(move)
            for key, position in (("clone", game), ("clone_scripted", scripted)):
                clone = position.clone
                start = time.process_time()
                for _ in range(copies):
                    clone()
                out[key][f"{name}@{stop}"] = 1e6 * (time.process_time() - start) / copies
    text = (ROOT / PERFT_FILE).read_text(encoding="utf-8")
    start = time.process_time()
    for position in read_perft(text):
        perft_counts(position.game(), len(position.counts) + PERFT_EXTRA)
    out["perft_s"] = time.process_time() - start
    start = time.process_time()
    hidden.solve((Character.DUKE, Character.CAPTAIN), (3, 1), 0, horizon=3)
    out["endgame_s"] = time.process_time() - start
    return out


def _unpack(commit: str, into: Path) -> None:
    """The commit's files (no git worktree: nothing is written into the repository)."""
    archive = into.with_suffix(".tar")
    with archive.open("wb") as f:
        subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, stdout=f,
                       check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    archive.unlink()


def _build(tree: Path) -> str:
    """Compile the tree's engine in place as `make install` would; which build it is."""
    if os.environ.get("COUP_TRAINER_PURE_PYTHON") == "1":
        return "pure Python"
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
                          cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"could not compile the engine of {tree}:\n{done.stderr[-2000:]}")
    return "compiled"


def _run(tree: Path, copies: int) -> dict[str, Any]:
    """One measurement of the tree's engine, in a fresh process that imports it first."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure",
                           str(tree), "--copies", str(copies)],
                          cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"measuring {tree} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def import_tree(tree: str) -> None:
    """In a measuring child: import `tree`'s trainer package, not the installed one."""
    sys.path.insert(0, tree)
    import trainer

    if not Path(trainer.__file__).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported {trainer.__file__}, not the code of {tree}")


def compare(before: str, rounds: int, run: Callable[[Path], dict[str, Any]], what: str,
            prefix: str) -> dict[str, list[dict[str, Any]]]:
    """The commit `before` unpacked and built as `make install` builds, then measured by
    `run` (a fresh process per measurement) in turn with this checkout, `rounds` times,
    alternating which goes first, so a change in machine load falls on both alike."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        old = Path(tmp) / "before"
        _unpack(before, old)
        build = _build(old)
        mine = run(ROOT)["build"]
        if mine != build:
            raise SystemExit(f"this checkout's engine is {mine!r}, the other {build!r}: run "
                             "`make install` first")
        print(f"engine build: {build}; CPU time; {rounds} rounds, each {what} in a fresh "
              f"process per round")
        runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
        trees = {"before": old, "after": ROOT}
        for r in range(rounds):
            for name in (("before", "after") if r % 2 == 0 else ("after", "before")):
                runs[name].append(run(trees[name]))
                print(f"round {r + 1}: {name} done", file=sys.stderr, flush=True)
    return runs


def _median(runs: list[dict[str, Any]], key: str) -> float:
    if isinstance(runs[0][key], dict):
        return statistics.median(statistics.mean(r[key].values()) for r in runs)
    return statistics.median(float(r[key]) for r in runs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE,
                        help=f"the commit to compare with (default {BEFORE}, the last one "
                             "before the cheap copy)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two")
    parser.add_argument("--copies", type=int, default=2000, help="copies per position")
    parser.add_argument("--measure", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:  # the child: import the tree's engine, not the installed one
        import_tree(args.measure)
        print(json.dumps(measure(args.copies)))
        return 0
    runs = compare(args.before, args.rounds, lambda tree: _run(tree, args.copies), "engine",
                   "coup-clone-")
    before, after = runs["before"], runs["after"]
    print("\n| position | random chance: before µs | after µs | ratio "
          "| scripted: before µs | after µs | ratio |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for key in after[0]["clone"]:
        b = statistics.median(r["clone"][key] for r in before)
        a = statistics.median(r["clone"][key] for r in after)
        bs = statistics.median(r["clone_scripted"][key] for r in before)
        a_s = statistics.median(r["clone_scripted"][key] for r in after)
        print(f"| {key} | {b:.1f} | {a:.1f} | {b / a:.1f} | {bs:.1f} | {a_s:.1f} "
              f"| {bs / a_s:.1f} |")
    figures = {
        "clone_us": _median(after, "clone"), "clone_before_us": _median(before, "clone"),
        "clone_scripted_us": _median(after, "clone_scripted"),
        "clone_scripted_before_us": _median(before, "clone_scripted"),
        "perft_s": _median(after, "perft_s"), "perft_before_s": _median(before, "perft_s"),
        "endgame_s": _median(after, "endgame_s"),
        "endgame_before_s": _median(before, "endgame_s"),
    }
    print(f"\nperft ({PERFT_FILE}, {PERFT_EXTRA} plies deeper than recorded): "
          f"{figures['perft_before_s']:.2f} s before, {figures['perft_s']:.2f} s after")
    print(f"end-game solve (Duke/Captain, 3-1, horizon 3, graph from nothing): "
          f"{figures['endgame_before_s']:.2f} s before, {figures['endgame_s']:.2f} s after")
    ratio = figures["clone_before_us"] / figures["clone_us"]
    print(f"clone_us {figures['clone_us']:.1f} clone_before_us {figures['clone_before_us']:.1f} "
          f"ratio {ratio:.1f} clone_scripted_us {figures['clone_scripted_us']:.1f} "
          f"clone_scripted_before_us {figures['clone_scripted_before_us']:.1f} "
          f"perft_s {figures['perft_s']:.2f} perft_before_s {figures['perft_before_s']:.2f} "
          f"endgame_s {figures['endgame_s']:.2f} "
          f"endgame_before_s {figures['endgame_before_s']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
