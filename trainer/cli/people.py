"""`people import` and `people report`: how the bot's bluff estimates did on people.

`people import FILE` reads Treason's game dump (`games.json.gz` or `games_full.json.gz`, or a
plain `.json` file in either format; see docs/people.md), replays every game where all seats
are people through the engine, and prints the report of `trainer.tables.claims` on the claims
they judged, with a summary of the games read, used and skipped. `people report FILE.csv`
prints the same report for claim records written by `--csv` (or by a table).

Speed, measured on a two-core machine shared with other work, on random 2–6 player games of
both rule sets: about 220 claims a second in one process (1,000 at two players, 140 at six:
every seat keeps a behavioural belief about every other, and nearly all the time goes to those
beliefs and the chances at each claim; the engine's replay is 1% of it). Through this command,
reading and writing included, one process made 182 claims a second and `--workers 2` (Ray)
215. The random games held 13 claims a game (how many a game of Treason's dump holds is not
known here); at that rate the whole dump takes hours on one core: `--workers N` replays games
in N processes (`trainer.batch`: Ray when installed).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    from trainer.batch import EXECUTORS

    people = commands.add_parser(
        "people", help="how the bot's bluff estimates did on people's decisions")
    sub = people.add_subparsers(dest="people_command", required=True)
    imp = sub.add_parser(
        "import", help="measure the bot's estimates on Treason's dump of online games")
    imp.add_argument("file", help="games.json.gz or games_full.json.gz (gzipped or not)")
    imp.add_argument("--limit", type=int, default=None, metavar="N",
                     help="read only the first N games of the file")
    imp.add_argument("--csv", default=None, metavar="OUT",
                     help="write every claim record here (CSV)")
    imp.add_argument("--workers", type=int, default=1, metavar="N",
                     help="games replayed at once, in separate processes (default 1; "
                          f"this machine has {os.cpu_count() or 1} cores)")
    imp.add_argument("--executor", choices=EXECUTORS, default="auto",
                     help="ray: Ray tasks; local: one after another in this process; auto "
                          "(default): Ray when installed and --workers > 1")
    imp.add_argument("--quiet", action="store_true", help="no progress bar")
    imp.set_defaults(func=run_import)
    bank = sub.add_parser(
        "bank", help="quiz questions from the decisions people made at the game tables")
    bank.add_argument("--rollouts", type=int, default=256, metavar="N",
                      help="playouts per option at most (default 256)")
    bank.add_argument("--out", default=None, metavar="FILE",
                      help="the bank to write (default: people.jsonl.gz in the learner's "
                           "bank folder, where the Quiz page finds it)")
    bank.add_argument("--jobs", type=int, default=1, metavar="N",
                      help="decisions graded at once (Ray workers on this machine)")
    bank.add_argument("--address", default=None,
                      help="a Ray cluster's address (ray://host:10001) to grade on")
    bank.add_argument("--executor", choices=EXECUTORS, default="auto",
                      help="ray, local or auto (default: Ray when installed and --jobs > 1 "
                           "or --address)")
    bank.add_argument("--resume", action="store_true",
                      help="take the decisions an interrupted build already graded")
    bank.set_defaults(func=run_bank)
    rep = sub.add_parser("report", help="the report on claim records written as CSV")
    rep.add_argument("file", help="a CSV of claim records (people import --csv)")
    rep.set_defaults(func=run_report)


def run_bank(args: argparse.Namespace) -> int:
    """Grade every person's decision at the finished table games of the answers' database
    (COUP_TRAINER_DB_URL, or the default file) into a question bank; progress on stderr.
    Exit status 2 when the database cannot be opened or the executor cannot run."""
    from tqdm import tqdm

    from trainer.batch import ExecutorError
    from trainer.learners.storage import StorageError, Store, database_url
    from trainer.quiz.bank import BankError, describe_bank
    from trainer.quiz.bankfile import work_path
    from trainer.tables.bank import bank_path, build_people_bank, people_tasks
    from trainer.tables.store import TableError, TableStore

    if args.rollouts < 1 or args.jobs < 1:
        print("people bank: --rollouts and --jobs must be 1 or more", file=sys.stderr)
        return 2
    try:
        store = TableStore(Store(database_url()).engine)
    except (StorageError, TableError) as e:
        print(f"people bank: the database cannot be opened: {e}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else bank_path()
    count = len(people_tasks(store))
    if not count:
        print("people bank: no finished table game has a decision to ask about yet",
              file=sys.stderr)
        return 1
    work = work_path(out)
    if not args.resume and work.exists() and work.stat().st_size:
        # Never throw away graded decisions for a forgotten flag (as `bank build`).
        print(f"people bank: {work} holds the decisions an interrupted build graded: add "
              f"--resume to continue it, or delete the file to start afresh", file=sys.stderr)
        return 2
    problems: list[str] = []
    with tqdm(total=count, unit="decision", desc="graded", file=sys.stderr) as bar:

        def advance(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        try:
            bank = build_people_bank(store, rollouts=args.rollouts, out=out,
                                     executor=args.executor, jobs=args.jobs,
                                     address=args.address, resume=args.resume,
                                     progress=advance, problems=problems)
        except (BankError, ExecutorError) as e:
            print(f"people bank: {e}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            bar.close()
            print(f"people bank: interrupted with {bar.n} of {bar.total} decisions in {work}; "
                  "the same command with --resume continues from there", file=sys.stderr)
            return 130
    for problem in problems:
        print(f"left out: {problem}", file=sys.stderr)
    print(describe_bank(bank))
    print(f"written to {out}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Exit status 2 when the file cannot be read or --limit/--workers make no sense; a bad
    game is never an error, only a line of the summary."""
    from tqdm import tqdm

    from trainer.batch import ExecutorError
    from trainer.tables.claims import people_report
    from trainer.tables.treason import Outcome, Skipped, import_claims, write_records

    path = Path(args.file)
    if not path.is_file():
        print(f"people import: no such file: {path}", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 1:
        print("people import: --limit must be at least 1", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("people import: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.csv:
        try:  # before the import, which may take hours, not after it
            Path(args.csv).write_text("", encoding="utf-8")
        except OSError as e:
            print(f"people import: cannot write {args.csv}: {e}", file=sys.stderr)
            return 2
    size = path.stat().st_size
    with tqdm(total=size, unit="B", unit_scale=True, desc="reading", file=sys.stderr,
              disable=args.quiet) as bar:
        counts = {"games": 0, "claims": 0}

        def progress(done: int, total: int) -> None:
            bar.update(max(0, done - bar.n))

        def done(item: Outcome | Skipped) -> None:
            counts["games"] += 1
            if isinstance(item, Outcome):
                counts["claims"] += len(item.records)
            if counts["games"] % 50 == 0:
                bar.set_postfix(counts, refresh=False)

        try:
            records, summary = import_claims(path, limit=args.limit, workers=args.workers,
                                             executor=args.executor, progress=progress,
                                             done=done)
        except (OSError, EOFError, ExecutorError) as e:  # gzip's own errors are OSErrors
            print(f"people import: cannot read {path}: {e}", file=sys.stderr)
            return 2
    for line in summary.lines():
        print(line)
    report = people_report(records)
    _print_report(report)
    if args.csv:
        write_records(records, args.csv)
        print(f"{len(records):,} claim records written to {args.csv}")
    return 0


def run_report(args: argparse.Namespace) -> int:
    import pandas as pd

    from trainer.tables.claims import people_report, records_from_frame

    try:
        records = records_from_frame(pd.read_csv(args.file, dtype={"game": str}))
    except (OSError, ValueError, KeyError) as e:
        print(f"people report: cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    _print_report(people_report(records))
    return 0


def _print_report(report: Any) -> None:
    from trainer.tables.claims import report_figures, report_lines

    print()
    for line in report_lines(report):
        print(line)
    rows = report_figures(report)
    width = max(len(label) for label, _ in rows)
    print()
    for label, value in rows:
        print(f"  {label:<{width}}  {value}")
