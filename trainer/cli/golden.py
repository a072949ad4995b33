"""`golden`: write the perft files and golden playthroughs in tests/data, or only compare.

Why a command: the files are the engine's own output, so they are never edited by hand; one
command writes them all after a deliberate rules change, and `--check` shows what would change.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    golden = commands.add_parser(
        "golden", help="write the perft files and golden playthroughs (tests/data)")
    golden.add_argument("--check", action="store_true",
                        help="write nothing: print the differences, exit 1 if there are any")
    golden.add_argument("--root", default=None,
                        help="the checkout to write into (default: the one running)")
    golden.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from trainer.engine.perft import PERFT_DIR, perft_files
    from trainer.engine.playthrough import PLAYTHROUGH_DIR, golden_diff, playthrough_files
    from trainer.paths import CHECKOUT

    root = Path(args.root) if args.root else CHECKOUT
    if root is None:
        print("golden: the files live in a source checkout; give one with --root",
              file=sys.stderr)
        return 2
    files = {**perft_files(), **playthrough_files()}
    changed = 0
    for rel, text in files.items():
        path = root / rel
        recorded = path.read_text() if path.exists() else ""
        if recorded == text:
            continue
        changed += 1
        if args.check:
            print(golden_diff(str(rel), recorded, text) if recorded else f"missing {rel}")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {rel}")
    wanted = {root / rel for rel in files}
    for folder in (PERFT_DIR, PLAYTHROUGH_DIR):
        stale = sorted(p for p in (root / folder).glob("*") if p.is_file() and p not in wanted)
        for path in stale:
            changed += 1
            rel_path = path.relative_to(root)
            if args.check:
                print(f"stale {rel_path} (no longer generated)")
            else:
                path.unlink()
                print(f"removed {rel_path} (no longer generated)")
    if args.check:
        print(f"{len(files)} golden files, {changed} differ" + (
            ": run `python -m trainer golden` only if the rules change was deliberate"
            if changed else ""))
        return 1 if changed else 0
    print(f"{len(files)} golden files, {changed} written or removed; review them with "
          f"`git diff tests/data` before committing")
    return 0
