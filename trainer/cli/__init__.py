"""The command line: `python -m trainer COMMAND`.

Why a package of its own: the library returns data and raises errors; only this package parses
arguments, prints and chooses exit codes. Each module adds its commands to the parser with
`register(commands)` and points `func` at a function that takes the parsed arguments and
returns the exit status. Heavy imports happen inside those functions, so `--help` is quick.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from trainer.cli import (
    bank,
    bots,
    check,
    db,
    endgame,
    engine,
    estimates,
    golden,
    i18n,
    path,
    people,
    rulebook,
    schema,
    serve,
)

MODULES = (check, schema, path, engine, rulebook, bots, estimates, bank, golden, endgame, db,
           serve, people, i18n)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m trainer",
        description="Coup Trainer's command line: check lessons, fuzz the engine, print the "
                    "rules, run the bots, build question banks, serve the app.")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in MODULES:
        module.register(commands)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    status: int = args.func(args)
    return status
