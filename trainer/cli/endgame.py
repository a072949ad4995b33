"""`endgame`: end-games solved exactly (`trainer.endgame`)."""

from __future__ import annotations

import argparse
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
