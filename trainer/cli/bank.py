"""`bank build` and `bank info`: make the quiz's question banks, and say what one holds."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(commands: Any) -> None:
    bank = commands.add_parser("bank", help="build or inspect a question bank for the quiz")
    bank_sub = bank.add_subparsers(dest="bank_command", required=True)
    build = bank_sub.add_parser("build", help="decision points from persona games, graded")
    build.add_argument("--items", type=int, default=200, help="items from persona games")
    build.add_argument("--seed", type=int, default=0)
    build.add_argument("--rollouts", type=int, default=800,
                       help="rollouts per option (noise of a grade ~ 1/sqrt of this)")
    build.add_argument("--jobs", type=int, default=1, help="processes to use")
    build.add_argument("--variants", nargs="+", default=None, metavar="NAME[=WEIGHT]",
                       help="variants of the persona games (default: mostly base)")
    build.add_argument("--kinds", nargs="+", default=None, metavar="KIND[=WEIGHT]",
                       help="decision kinds and their shares (challenge, block, bluff, lose, "
                            "keep; default: half challenges)")
    build.add_argument("--add-to", action="store_true",
                       help="add the new items to the bank file --out instead of replacing it")
    build.add_argument("--no-lessons", dest="lessons", action="store_false",
                       help="leave out the Learn lessons' questions")
    build.add_argument("--scenarios", default="scenarios", help="the lesson folder")
    build.add_argument("--out", default=None, help="bank file (default data/banks/...)")
    build.add_argument("--name", default=None, help="the bank's name (default: file name)")
    build.set_defaults(func=run_build)
    info = bank_sub.add_parser("info", help="what a bank holds")
    info.add_argument("file")
    info.set_defaults(func=run_info)


def run_info(args: argparse.Namespace) -> int:
    """Exit status 2, naming the file and line, for a file that is not a bank."""
    from trainer.quiz.bank import BankError, describe_bank, load_bank

    try:
        print(describe_bank(load_bank(args.file)))
    except BankError as e:
        print(f"bank: {e}", file=sys.stderr)
        return 2
    return 0


def run_build(args: argparse.Namespace) -> int:
    """Exit status 2 for shares or counts that cannot be built, or an --add-to file that is
    not a bank; a position that cannot be graded is only reported, the rest still make a
    bank."""
    import time
    from pathlib import Path

    from tqdm import tqdm

    from trainer.quiz.bank import (
        KIND_SHARE,
        KINDS,
        Bank,
        BankError,
        Item,
        describe_bank,
        load_bank,
    )
    from trainer.quiz.building import (
        DEFAULT_VARIANTS,
        build,
        extended,
        lesson_tasks,
        parse_shares,
        persona_tasks,
        recipe,
    )

    try:
        variants = parse_shares(args.variants, DEFAULT_VARIANTS)
        kinds = parse_shares(args.kinds, KIND_SHARE, KINDS)
    except (ValueError, KeyError) as e:
        print(f"bank: {e}", file=sys.stderr)
        return 2
    if args.items < 1:
        print("bank: --items must be at least 1", file=sys.stderr)
        return 2
    tasks = list(persona_tasks(args.items, seed=args.seed, variants=variants, kinds=kinds))
    if len(tasks) < args.items:
        print(f"bank: only {len(tasks)} decisions of the kinds asked for were found in "
              f"{100 * args.items + 100} games", file=sys.stderr)
    scenarios = Path(args.scenarios)
    if args.lessons:
        tasks += lesson_tasks(scenarios, seed=args.seed)
    start = time.perf_counter()
    problems: list[str] = []
    with tqdm(total=len(tasks), unit="item", desc="items", file=sys.stderr) as bar:

        def advance(done: int, item: Item | None) -> None:
            bar.update()

        items = build(tasks, rollouts=args.rollouts, jobs=args.jobs, scenarios=scenarios,
                      problems=problems, progress=advance)
    for problem in problems:
        print(f"left out: {problem}", file=sys.stderr)
    made = recipe(seed=args.seed, items=args.items, rollouts=args.rollouts, variants=variants,
                  kinds=kinds, lessons=bool(args.lessons))
    name = args.out or f"data/banks/bank-s{args.seed}-n{args.items}.jsonl"
    out = Path(name)
    if args.add_to:
        try:
            old = load_bank(out)
        except BankError as e:
            print(f"bank: {e}", file=sys.stderr)
            return 2
        bank = extended(old, items, made)
    else:
        bank = Bank(args.name or out.stem, tuple(items), made)
    bank.save(out)
    print(describe_bank(bank))
    print(f"written to {name} in {time.perf_counter() - start:.0f} s")
    return 0
