"""`rules`: a variant's full rules as plain text, for a host who wants them on paper."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(commands: Any) -> None:
    rules = commands.add_parser("rules", help="print the full rules of a rule set")
    rules.add_argument("variant", nargs="?", default="base",
                       help="a rule set's description: a variant name, house rules switched "
                            "on with + or off with -, table rules in brackets, e.g. "
                            "base+pay_five(challengers=all)")
    rules.add_argument("--players", type=int, default=None, help="player count for the set-up")
    rules.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 2, naming the part at fault, for a description or player count the rules
    refuse."""
    from trainer.engine.variants import parse_rules
    from trainer.rulebook.text import rules_text

    try:
        ruleset = parse_rules(args.variant)
        text = rules_text(ruleset.variant, args.players, ruleset.options)
    except ValueError as e:
        print(f"rules: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0
