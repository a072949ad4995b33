"""`i18n`: the catalogues of every word a visitor reads (docs/translating.md).

    python -m trainer i18n check            missing translations, broken fields, glossary
    python -m trainer i18n update           add the code's new messages to each catalogue
    python -m trainer i18n merge fil FILE   take a translator's translations into `fil`
    python -m trainer i18n stats            how much of each catalogue is translated
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    i18n = commands.add_parser("i18n", help="check and update the translation catalogues")
    sub = i18n.add_subparsers(dest="i18n_command", required=True, metavar="STEP")
    check = sub.add_parser("check", help="every message translated, fields and tags kept")
    check.add_argument("--limit", type=int, default=40, help="problems printed (default 40)")
    check.set_defaults(func=run_check)
    update = sub.add_parser("update", help="add new messages, drop ones no longer used")
    update.add_argument("--drop-obsolete", action="store_true",
                        help="also forget the translations of messages no longer in the code")
    update.set_defaults(func=run_update)
    todo = sub.add_parser("todo", help="write the untranslated messages of some files to a "
                                       ".po file for a translator")
    todo.add_argument("language")
    todo.add_argument("places", nargs="+", help="folders or files, e.g. trainer/views/quiz_text.py")
    todo.add_argument("--out", type=Path, required=True)
    todo.add_argument("--all", action="store_true", help="translated ones too")
    todo.set_defaults(func=run_todo)
    merge = sub.add_parser("merge", help="copy a translator's .po file into a catalogue")
    merge.add_argument("language")
    merge.add_argument("files", nargs="+", type=Path)
    merge.set_defaults(func=run_merge)
    stats = sub.add_parser("stats", help="translated share per catalogue and per folder")
    stats.set_defaults(func=run_stats)


def sources() -> dict[Any, Any]:
    """The code's messages and the lesson files' words: what every catalogue must cover."""
    from trainer.i18n.check import extract
    from trainer.scenarios.words import lesson_words

    return extract(extra=lesson_words())


def run_check(args: argparse.Namespace) -> int:
    from trainer.i18n.check import all_problems

    found = all_problems(sources())
    for problem in found[: args.limit]:
        print(problem)
    kinds = Counter(p.kind for p in found)
    print("i18n problems", len(found), " ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    return 1 if found else 0


def run_update(args: argparse.Namespace) -> int:
    from trainer.i18n import DEFAULT, LANGUAGES
    from trainer.i18n.check import update

    found = sources()
    for language in LANGUAGES:
        if language.code != DEFAULT:
            added, unused = update(language.code, found, args.drop_obsolete)
            print(f"{language.code}: {added} new messages, {unused} no longer used"
                  + (" (dropped)" if args.drop_obsolete else " (kept as obsolete)"))
    return 0


def run_todo(args: argparse.Namespace) -> int:
    from trainer.i18n.check import todo

    print(f"{todo(args.language, args.places, args.out, args.all)} messages written to "
          f"{args.out}")
    return 0


def run_merge(args: argparse.Namespace) -> int:
    from trainer.i18n.check import merge

    missing = [str(f) for f in args.files if not f.exists()]
    if missing:
        print("no such file:", ", ".join(missing))
        return 2
    print(f"{merge(args.language, args.files)} translations taken")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from trainer.i18n import DEFAULT, LANGUAGES
    from trainer.i18n.check import problems

    found = sources()
    for language in LANGUAGES:
        if language.code == DEFAULT:
            continue
        missing = [p for p in problems(language.code, found) if p.kind == "missing"]
        where: Counter[str] = Counter()
        total: Counter[str] = Counter()
        unmet = {p.message for p in missing}
        for key, source in found.items():
            folder = "/".join(source.places[0].split("/")[:2])
            total[folder] += 1
            where[folder] += key[1] in unmet
        done = len(found) - len(unmet)
        print(f"{language.code}: {done} of {len(found)} translated")
        for folder in sorted(total):
            print(f"  {folder:28} {total[folder] - where[folder]:5} of {total[folder]}")
    return 0
