"""`tournament`: the bot personas' win rates against each other."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(commands: Any) -> None:
    tour = commands.add_parser("tournament", help="win rates of bot personas against each other")
    tour.add_argument("--games", type=int, default=200, help="games per pairing and size")
    tour.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 6])
    tour.add_argument("--personas", nargs="+", default=None,
                      help="persona names (default: every persona)")
    tour.add_argument("--variant", default="base")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--out", default=None, help="write the table as CSV here")
    tour.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 2 for an unknown persona (named before the progress bar starts) or
    variant."""
    from tqdm import tqdm

    from trainer.bots.tournament import (
        check_names,
        every_persona,
        games_to_play,
        table_text,
        tournament,
    )

    names = list(args.personas or every_persona())
    try:
        check_names(names)
        with tqdm(total=games_to_play(names, args.players, args.games), unit="game",
                  file=sys.stderr, desc="tournament") as bar:
            frame = tournament(names, args.players, args.games, variant=args.variant,
                               seed=args.seed, progress=bar.update)
    except ValueError as e:
        print(f"tournament: {e}", file=sys.stderr)
        return 2
    print(table_text(frame))
    if args.out:
        frame.to_csv(args.out, index=False)
        print(f"written to {args.out}")
    return 0
