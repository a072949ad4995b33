"""`schema`: write the scenario files' JSON schema, which editors use to check YAML as it is
typed. It is generated from the models, so it is rewritten after every change to them (a test
fails while the committed file is out of date)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    schema = commands.add_parser("schema", help="write the JSON schema of scenario files")
    schema.add_argument("path", nargs="?", default=None,
                        help="where to write it (default: docs/scenario.schema.json)")
    schema.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The default path comes from the models' module, not from here: `--help` stays quick
    without importing pydantic, and the committed file has one name."""
    from trainer.scenarios.schema import SCHEMA_PATH, schema_text

    path: str = args.path or SCHEMA_PATH
    Path(path).write_text(schema_text(), encoding="utf-8")
    print(f"wrote {path}")
    return 0
