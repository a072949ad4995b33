"""`endgame`: end-games solved exactly (`trainer.endgame`)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any


def register(commands: Any) -> None:
    endgame = commands.add_parser("endgame", help="end-games solved exactly")
    sub = endgame.add_subparsers(dest="endgame_command", required=True)
    race = sub.add_parser(
        "race", help="known roles: in how many coin pairs each card wins, acting first")
    race.add_argument("--lost", nargs=2, default=["Ambassador", "Ambassador"],
                      metavar=("CARD", "CARD"),
                      help="the card each player has lost (default: Ambassador Ambassador)")
    race.add_argument("--cards", nargs="+", default=None, metavar="CARD",
                      help="the cards held (default: the rule set's five)")
    race.add_argument("--coins", type=int, default=6, help="coins 0..N each (default 6)")
    race.add_argument("--variant", default="base", help="a rule set (default base)")
    race.set_defaults(func=run_race)
    build = sub.add_parser(
        "build", help="known roles: solve the base game's 15 pairs of lost cards into the "
                      "package's table file")
    build.add_argument("--out", default=None, metavar="PATH",
                       help="the table file (default: the package's "
                            "trainer/endgame/data/known-base.npz); finished pairs wait in "
                            "PATH.parts/ until all are done, so an interrupted build "
                            "continues where it stopped")
    build.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                       help="processes on this machine (default: one per core)")
    build.add_argument("--executor", choices=("auto", "ray", "local"), default="auto",
                       help="ray: Ray tasks; local: one pair after another in this process; "
                            "auto (default): Ray when installed and --processes > 1 or "
                            "--address")
    build.add_argument("--address", default=None,
                       help="a Ray cluster to run on (host:port, or 'auto'); default: start "
                            "Ray on this machine")
    build.set_defaults(func=run_build)


def run_race(args: argparse.Namespace) -> int:
    """A markdown table: rows the card of the player acting first, columns the other's."""
    from trainer.endgame.known import race
    from trainer.engine.cards import Character
    from trainer.engine.variants import get_variant

    try:
        v = get_variant(args.variant)
        lost = tuple(Character.parse(c) for c in args.lost)
        cards = tuple(Character.parse(c) for c in args.cards) if args.cards else v.characters
    except ValueError as e:
        print(f"endgame race: {e}", file=sys.stderr)
        return 2
    if not 0 <= args.coins <= 12:
        print(f"endgame race: --coins must be 0 to 12, got {args.coins}", file=sys.stderr)
        return 2
    start = time.monotonic()
    wins = race(cards, (lost[0], lost[1]), coins=args.coins, variant=v.name)
    per = (args.coins + 1) ** 2
    print(f"Known roles, {v.title}; lost cards {lost[0]} and {lost[1]}; coins 0-{args.coins} "
          f"each ({per} pairs); the row's card acts first. Wins for certain:\n")
    print("| acting first | " + " | ".join(f"vs {y}" for y in cards) + " | total |")
    print("|---|" + "--:|" * (len(cards) + 1))
    for x in cards:
        row = [wins.get((x, y)) for y in cards]
        total = sum(n for n in row if n is not None)
        dealt = sum(per for n in row if n is not None)
        cells = " | ".join("—" if n is None else str(n) for n in row)
        print(f"| {x} | {cells} | {total} of {dealt} |")
    print(f"\nsolved in {time.monotonic() - start:.0f} s")
    return 0


def run_build(args: argparse.Namespace) -> int:
    """Exit status 2 for a bad argument or an executor that cannot run here; 130 when
    interrupted, the finished pairs kept for the next run."""
    from pathlib import Path

    from tqdm import tqdm

    from trainer.batch import ExecutorError, choose
    from trainer.endgame.tables import DEFAULT_OUT, build, pairs, parts_dir

    if args.processes < 1:
        print(f"endgame build: --processes must be at least 1, got {args.processes}",
              file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else DEFAULT_OUT
    if out.suffix != ".npz":
        print(f"endgame build: --out must name a .npz file, got {str(out)!r}", file=sys.stderr)
        return 2
    if out.is_dir():
        print(f"endgame build: --out {str(out)!r} is a folder, not a file", file=sys.stderr)
        return 2
    try:
        executor = choose(args.executor, args.processes, args.address)
    except ExecutorError as e:
        print(f"endgame build: {e}", file=sys.stderr)
        return 2
    if args.executor == "auto" and executor == "local" and args.processes > 1:
        print("endgame build: Ray is not installed (pip install 'coup-trainer[batch]'): "
              "solving in this process, one pair after another", file=sys.stderr)
    where = args.address or f"{args.processes} processes on this machine"
    total = len(pairs())
    print(f"endgame build: {total} pairs of lost cards, "
          f"{'Ray, ' + where if executor == 'ray' else 'in this process'}; finished pairs "
          f"in {parts_dir(out)}", file=sys.stderr)
    with tqdm(total=total, unit="pair", desc="pairs", file=sys.stderr) as bar:
        first: list[int] = []

        def advance(done: int, total: int) -> None:
            if not first and done:
                bar.write(f"resumed: {done} of {total} pairs already solved", file=sys.stderr)
            first.append(done)
            bar.update(done - bar.n)

        try:
            built = build(out, executor=executor, processes=args.processes,
                          address=args.address, progress=advance)
        except KeyboardInterrupt:
            bar.close()
            print(f"endgame build: interrupted with {bar.n} of {total} pairs in "
                  f"{parts_dir(out)}; the same command continues from there", file=sys.stderr)
            return 130
    print(f"wrote {built.path}: {built.size / 1024:.1f} KiB, {built.solved} pairs solved"
          f"{f' and {built.resumed} resumed' if built.resumed else ''} in "
          f"{built.seconds:.0f} s")
    return 0
