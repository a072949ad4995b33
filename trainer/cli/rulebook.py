"""`rules`: a variant's full rules as plain text, for a host who wants them on paper."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(commands: Any) -> None:
    rules = commands.add_parser("rules", help="print the full rules of a variant")
    rules.add_argument("variant", nargs="?", default="base", help="a variant name")
    rules.add_argument("--players", type=int, default=None, help="player count for the set-up")
    rules.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 2, with the known names, for a variant or player count that does not exist."""
    from trainer.engine.variants import get_variant
    from trainer.rulebook.text import rules_text

    try:
        text = rules_text(get_variant(args.variant), args.players)
    except ValueError as e:
        print(f"rules: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0
