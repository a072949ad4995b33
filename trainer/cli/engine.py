"""`variants` and `fuzz`: the rule sets the engine knows, and long random runs that check it."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(commands: Any) -> None:
    fuzz = commands.add_parser("fuzz",
                               help="random legal play, checking invariants after every move")
    fuzz.add_argument("--games", type=int, default=10_000)
    fuzz.add_argument("--variant", default=None,
                      help="a rule set: a variant name, house rules switched with + and -, "
                           "table rules in brackets, e.g. 'base+pay_five(challengers=all)' "
                           "(default: every variant)")
    fuzz.add_argument("--mix", action="store_true",
                      help="every game under a random rule set: a variant, each house rule "
                           "switched on or off, each table rule at a random reading")
    fuzz.add_argument("--players", type=int, default=None,
                      help="player count (default: every count the variant allows)")
    fuzz.add_argument("--seed", type=int, default=0, help="seed of the first game")
    fuzz.add_argument("--quiet", action="store_true", help="no progress bar")
    fuzz.set_defaults(func=run_fuzz)

    variants = commands.add_parser("variants", help="list the variant names, one a line")
    variants.set_defaults(func=run_variants)


def run_variants(args: argparse.Namespace) -> int:
    """One name a line, so a shell loop can run a command for every variant."""
    from trainer.engine.variants import VARIANTS

    for name in VARIANTS:
        print(name)
    return 0


def run_fuzz(args: argparse.Namespace) -> int:
    """Exit status 2 for a variant and player count that cannot be played, 1 at the first
    violation or crash (with the command that replays that one game), 0 for a clean run."""
    from tqdm import tqdm

    from trainer.engine.fuzz import fuzz, schedule

    if args.mix and (args.variant or args.players):
        print("fuzz: --mix draws the rule set and the player count of every game; leave out "
              "--variant and --players", file=sys.stderr)
        return 2
    try:
        tables = [] if args.mix else schedule(args.variant, args.players)
    except ValueError as e:
        print(f"fuzz: {e}", file=sys.stderr)
        return 2
    with tqdm(total=args.games, desc="fuzz", unit="game", disable=args.quiet,
              file=sys.stderr) as bar:
        run = fuzz(tables, args.games, args.seed, progress=bar.update, mix=args.mix)
    if run.failure is not None:
        for line in run.failure.lines():
            print(line)
        return 1
    print(run.summary())
    return 0
