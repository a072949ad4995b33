"""`check`: replay lesson files through the engine, one line per file, never a traceback."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(commands: Any) -> None:
    check = commands.add_parser("check", help="replay scenario files through the engine")
    check.add_argument("files", nargs="+", help="scenario YAML files")
    check.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print `OK file (N steps)` (`OK file (rule case, N checks)`) or one error line per file;
    exit status 1 if any failed."""
    from trainer.scenarios import ScenarioError, check_file

    failed = 0
    for name in args.files:
        try:
            result = check_file(name)
        except ScenarioError as e:
            failed += 1
            print(str(e), file=sys.stderr, flush=True)
            continue
        except Exception as e:  # never a traceback for a teacher: say what broke, in one line
            failed += 1
            print(f"{name}: internal error while checking ({type(e).__name__}: {e}); please "
                  f"report it", file=sys.stderr, flush=True)
            continue
        scenario = result.scenario
        checks = scenario.checks()
        size = (f"rule case, {checks} check{'s' if checks != 1 else ''}"
                if scenario.mode == "rule" else f"{len(result.steps)} steps")
        print(f"OK {name} ({size})", flush=True)
    return 1 if failed else 0
