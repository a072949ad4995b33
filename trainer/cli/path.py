"""`path`: the five-minute path's time model, screen by screen (what the README quotes).

Why a command: a teacher editing a path lesson sees at once whether a screen has grown past 60
words or the path past five minutes, with the words counted on each screen to check by eye.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(commands: Any) -> None:
    path = commands.add_parser("path", help="time the five-minute Learn path, screen by screen")
    path.add_argument("--folder", default=None,
                      help="the lesson folder (default: the app's, or COUP_TRAINER_SCENARIOS)")
    path.add_argument("--words", action="store_true", help="print the words counted too")
    path.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from trainer.paths import scenarios_dir
    from trainer.scenarios.lessons import load_library
    from trainer.views.path_model import path_model, summary

    library = load_library(args.folder or scenarios_dir())
    for broken in library.broken:
        print(f"broken: {broken.message}")
    model = path_model(library.five_minutes())
    print(f"{'lesson':<20} {'screen':<9} {'words':>5} {'clicks':>6} {'seconds':>7}")
    for s in model.screens:
        print(f"{s.lesson:<20} {s.screen:<9} {s.words:>5} {s.clicks:>6} {s.seconds:>7.1f}")
        if args.words:
            print(f"    {s.text}")
    print(summary(model))
    over = [s for s in model.screens if s.words > 60]
    late = model.seconds > 300 or len(model.screens) > 30
    return 1 if over or late or library.broken else 0
