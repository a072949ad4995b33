"""`endgame`: end-games solved exactly (`trainer.endgame`)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pathlib import Path

    from tqdm import tqdm

T = TypeVar("T")


def register(commands: Any) -> None:
    endgame = commands.add_parser("endgame", help="end-games solved exactly")
    sub = endgame.add_subparsers(dest="endgame_command", required=True)
    race = sub.add_parser(
        "race", help="known roles: in how many coin pairs each card wins, acting first")
    race.add_argument("--lost", nargs=2, default=["Ambassador", "Ambassador"],
                      metavar=("CARD", "CARD"),
                      help="the card each player has lost (default: Ambassador Ambassador)")
    race.add_argument("--cards", nargs="+", default=None, metavar="CARD",
                      help="the cards held (default: the rule set's five)")
    race.add_argument("--coins", type=int, default=6, help="coins 0..N each (default 6)")
    race.add_argument("--variant", default="base", help="a rule set (default base)")
    race.set_defaults(func=run_race)
    build = sub.add_parser(
        "build", help="solve the base game's end-game table into the package: known roles "
                      "(15 pairs of lost cards), known roles of two cards against one (5 "
                      "lost cards), hidden roles (2,275 positions) or hidden roles of two "
                      "cards against one (1,690 positions)")
    build.add_argument("--table", choices=("known", "known2", "hidden", "hidden2"),
                       default="known",
                       help="known (default): both cards face up; known2: both hands face "
                            "up, two cards against one (4 GB of memory a process); hidden: "
                            "each player sees only their own card (hours of one core); "
                            "hidden2: the same, two cards against one (about 25 minutes of "
                            "one core; --deepen, about 2.5 hours more)")
    build.add_argument("--horizon", type=int, default=None,
                       help="hidden: turns looked ahead (default 4; also solved 2 fewer to "
                            "mark unsettled values)")
    build.add_argument("--out", default=None, metavar="PATH",
                       help="the table file (default: the package's "
                            "trainer/endgame/data/known-base.npz, known2-base.npz, "
                            "hidden-base.npz or hidden2-base.npz); "
                            "finished parts wait in PATH.parts/ until all are done, so an "
                            "interrupted build continues where it stopped")
    build.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                       help="processes on this machine (default: one per core)")
    build.add_argument("--executor", choices=("auto", "ray", "local"), default="auto",
                       help="ray: Ray tasks; local: one pair after another in this process; "
                            "auto (default): Ray when installed and --processes > 1 or "
                            "--address")
    build.add_argument("--deepen", action="store_true",
                       help="hidden: check the built table's unsettled positions one turn "
                            "shorter and, where that agrees, one turn deeper than its "
                            "horizon; those where both agree are marked settled (resumable, "
                            "about 30 minutes on 2 cores); hidden2: solve its unsettled "
                            "duels one turn deeper and compare with that (about 45 minutes)")
    build.add_argument("--deepest", action="store_true",
                       help="after --deepen: solve the positions still moving between the "
                            "last two look-aheads one turn deeper (hidden: 4 and 5 turns, "
                            "solved 6 ahead, 1 to 4 CPU minutes and some 3 GB each, about 10 "
                            "CPU hours for them all; hidden2: 2 and 3 turns, solved 4 ahead, "
                            "following every Exchange, several CPU minutes each), one "
                            "resumable job per position, the likeliest to settle first")
    build.add_argument("--exchange-check", action="store_true",
                       help="hidden: check every settled position four turns ahead with a "
                            "line allowed a second Exchange; those it moves are no longer "
                            "settled (resumable, about an hour on 2 cores)")
    build.add_argument("--more-exchanges", action="store_true",
                       help="hidden, after --exchange-check: try to settle the positions a "
                            "second Exchange moved, with two Exchanges allowed in a line "
                            "(three turns ahead and a third Exchange must both agree), then "
                            "those a third moved with three (resumable, about 30 minutes "
                            "on 2 cores)")
    build.add_argument("--limit", type=int, default=None, metavar="N",
                       help="--deepest: at most N positions this run")
    build.add_argument("--collect", action="store_true",
                       help="--deepest: write what finished jobs found into the table and "
                            "solve nothing more (a pass stopped half-way, taken stock of)")
    build.add_argument("--address", default=None,
                       help="a Ray cluster to run on (host:port, or 'auto'); default: start "
                            "Ray on this machine")
    build.set_defaults(func=run_build)

    solve = sub.add_parser(
        "solve", help="hidden roles: one position's options, solved now (or read from the "
                      "stored table)")
    solve.add_argument("--lost", nargs=2, required=True, metavar=("MINE", "THEIRS"),
                       help="the card P1 lost and the card P2 lost")
    solve.add_argument("--coins", nargs=2, type=int, required=True, metavar=("MINE", "THEIRS"))
    solve.add_argument("--first", type=int, choices=(0, 1), default=0,
                       help="0: P1 acts (default); 1: P2 acts")
    solve.add_argument("--card", default=None,
                       help="the mover's card: list its options (default: every card)")
    solve.add_argument("--horizon", type=int, default=4, help="turns looked ahead (default 4)")
    solve.add_argument("--exchanges", type=int, default=1,
                       help="Exchanges in a line before the look-ahead stops (default 1)")
    solve.set_defaults(func=run_solve)

    grade = sub.add_parser(
        "grade-bank", help="grade a question bank's End-game items by the exact solver, into "
                           "a file beside the bank (<bank>.solved.json)")
    grade.add_argument("--bank", default=None, metavar="PATH",
                       help="the bank file (default: the shipped "
                            "trainer/quiz/banks/default.jsonl.gz)")
    grade.add_argument("--out", default=None, metavar="PATH",
                       help="the grades file (default: beside the bank, "
                            "<bank>.solved.json); entries already there for this bank "
                            "version and horizon are kept, so an interrupted run continues")
    grade.add_argument("--horizon", type=int, default=None,
                       help="turns looked ahead from the start of the item's turn "
                            "(default 4; also solved 2 fewer to mark unsettled values)")
    grade.add_argument("--fresh", action="store_true",
                       help="solve every item again instead of keeping earlier entries")
    grade.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                       help="processes on this machine (default: one per core)")
    grade.add_argument("--executor", choices=("auto", "ray", "local"), default="auto",
                       help="ray: Ray tasks; local: one item after another in this process; "
                            "auto (default): Ray when installed and --processes > 1 or "
                            "--address")
    grade.add_argument("--address", default=None,
                       help="a Ray cluster to run on (host:port, or 'auto')")
    grade.set_defaults(func=run_grade_bank)


def run_race(args: argparse.Namespace) -> int:
    """A markdown table: rows the card of the player acting first, columns the other's."""
    from trainer.endgame.known import race
    from trainer.engine.cards import Character
    from trainer.engine.variants import get_variant

    try:
        v = get_variant(args.variant)
        lost = tuple(Character.parse(c) for c in args.lost)
        cards = tuple(Character.parse(c) for c in args.cards) if args.cards else v.characters
    except ValueError as e:
        print(f"endgame race: {e}", file=sys.stderr)
        return 2
    if not 0 <= args.coins <= 12:
        print(f"endgame race: --coins must be 0 to 12, got {args.coins}", file=sys.stderr)
        return 2
    start = time.monotonic()
    wins = race(cards, (lost[0], lost[1]), coins=args.coins, variant=v.name)
    per = (args.coins + 1) ** 2
    print(f"Known roles, {v.title}; lost cards {lost[0]} and {lost[1]}; coins 0-{args.coins} "
          f"each ({per} pairs); the row's card acts first. Wins for certain:\n")
    print("| acting first | " + " | ".join(f"vs {y}" for y in cards) + " | total |")
    print("|---|" + "--:|" * (len(cards) + 1))
    for x in cards:
        row = [wins.get((x, y)) for y in cards]
        total = sum(n for n in row if n is not None)
        dealt = sum(per for n in row if n is not None)
        cells = " | ".join("—" if n is None else str(n) for n in row)
        print(f"| {x} | {cells} | {total} of {dealt} |")
    print(f"\nsolved in {time.monotonic() - start:.0f} s")
    return 0


def run_build(args: argparse.Namespace) -> int:
    """Exit status 2 for a bad argument or an executor that cannot run here; 130 when
    interrupted, the finished pairs kept for the next run."""
    from pathlib import Path

    from tqdm import tqdm

    from trainer.batch import ExecutorError, choose
    from trainer.endgame import hidden_tables, hidden_two_tables, known_two, tables
    from trainer.endgame.tables import parts_dir
    from trainer.engine.variants import get_variant

    hidden = args.table == "hidden"
    two = args.table == "known2"
    hidden2 = args.table == "hidden2"
    horizon = args.horizon if args.horizon is not None else hidden_tables.HORIZON
    if hidden and horizon < 2:
        print(f"endgame build: --horizon must be at least 2, got {horizon}", file=sys.stderr)
        return 2
    if hidden2 and args.horizon not in (None, hidden_two_tables.HORIZON):
        print(f"endgame build: the hidden2 table is solved {hidden_two_tables.SHORTER} and "
              f"{hidden_two_tables.HORIZON} turns ahead, as the End-game page solves a duel; "
              f"--horizon {args.horizon} is not offered", file=sys.stderr)
        return 2
    DEFAULT_OUT = (hidden_tables.DEFAULT_OUT if hidden else known_two.DEFAULT_OUT if two
                   else hidden_two_tables.DEFAULT_OUT if hidden2 else tables.DEFAULT_OUT)

    if args.processes < 1:
        print(f"endgame build: --processes must be at least 1, got {args.processes}",
              file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else DEFAULT_OUT
    if out.suffix != ".npz":
        print(f"endgame build: --out must name a .npz file, got {str(out)!r}", file=sys.stderr)
        return 2
    if out.is_dir():
        print(f"endgame build: --out {str(out)!r} is a folder, not a file", file=sys.stderr)
        return 2
    try:
        executor = choose(args.executor, args.processes, args.address)
    except ExecutorError as e:
        print(f"endgame build: {e}", file=sys.stderr)
        return 2
    if args.executor == "auto" and executor == "local" and args.processes > 1:
        print("endgame build: Ray is not installed (pip install 'coup-trainer[batch]'): "
              "solving in this process, one pair after another", file=sys.stderr)
    if args.exchange_check or args.more_exchanges:
        return _exchange_check(args, out, executor)
    if args.deepest or args.limit is not None or args.collect:
        return _deepest(args, out, executor)
    if args.deepen:
        return _deepen(args, out, executor)
    where = args.address or f"{args.processes} processes on this machine"
    unit = "slice" if hidden or hidden2 else "lost card" if two else "pair"
    total = (len(hidden_tables.ordered_pairs()) * hidden_tables.MOVER_COINS if hidden
             else hidden_two_tables.slices() if hidden2
             else len(get_variant('base').characters) if two else len(tables.pairs()))
    what = ("slices (a pair of lost cards and the mover's coins)" if hidden
            else "slices (a lost card, who acts and their coins)" if hidden2
            else "cards the one-card player lost" if two else "pairs of lost cards")
    print(f"endgame build: {total} {what}, "
          f"{'Ray, ' + where if executor == 'ray' else 'in this process'}; finished parts "
          f"in {parts_dir(out)}", file=sys.stderr)
    with tqdm(total=total, unit=unit, desc=unit + "s", file=sys.stderr) as bar:
        advance = _advance(bar, "resumed: {done} of {total} " + unit + "s already solved")

        def run() -> tables.Built:
            if hidden2:
                return hidden_two_tables.build(
                    out, executor=executor, processes=args.processes, address=args.address,
                    progress=advance)
            if hidden:
                return hidden_tables.build(
                    out, horizon=horizon, executor=executor, processes=args.processes,
                    address=args.address, progress=advance)
            if two:
                return known_two.build(out, executor=executor, processes=args.processes,
                                       address=args.address, progress=advance)
            return tables.build(out, executor=executor, processes=args.processes,
                                address=args.address, progress=advance)

        built = _interruptible(bar, run, f"{{n}} of {total} {unit}s in {parts_dir(out)}")
        if built is None:
            return 130
    print(f"wrote {built.path}: {built.size / 1024:.1f} KiB, {built.solved} {unit}s solved"
          f"{f' and {built.resumed} resumed' if built.resumed else ''} in "
          f"{built.seconds:.0f} s")
    return 0


def _deepen(args: argparse.Namespace, out: Path, executor: str) -> int:
    """`build --deepen`: the hidden table's unsettled positions checked deeper, in place."""
    from tqdm import tqdm

    from trainer.endgame import hidden_tables, hidden_two_tables

    if args.table not in ("hidden", "hidden2"):
        print(f"endgame build: --deepen checks a hidden-role table (--table hidden or "
              f"hidden2), not --table {args.table}", file=sys.stderr)
        return 2
    if not out.is_file():
        print(f"endgame build: --deepen needs a built table at {out}: build it first "
              "(without --deepen)", file=sys.stderr)
        return 2
    said = (f"solved {hidden_two_tables.CHECK} turns ahead, one job per lost card, player "
            "to act and coins" if args.table == "hidden2" else
            f"checked {hidden_tables.HORIZON - 1} and {hidden_tables.CHECK} turns ahead, one "
            "job per face-up pair and mover's coins")
    print(f"endgame build: the positions of {out} not settled, {said}", file=sys.stderr)
    with tqdm(unit="slice", desc="slices", file=sys.stderr) as bar:
        advance = _advance(bar, "resumed: {done} of {total} slices already checked")

        def run() -> hidden_two_tables.Checked | hidden_tables.Deepened:
            if args.table == "hidden2":
                return hidden_two_tables.check_deeper(
                    out, executor=executor, processes=args.processes, address=args.address,
                    progress=advance)
            return hidden_tables.deepen(out, executor=executor, processes=args.processes,
                                        address=args.address, progress=advance)

        ran = _interruptible(bar, run, "{n} slices checked")
        if ran is None:
            return 130
    if isinstance(ran, hidden_two_tables.Checked):
        c = ran
        print(f"wrote {c.path}: {c.checked} unsettled duels solved "
              f"{hidden_two_tables.CHECK} turns ahead; {c.settled} now settled, in "
              f"{c.seconds:.0f} s")
        return 0
    d = ran
    print(f"wrote {d.path}: {d.checked} unsettled positions solved "
          f"{hidden_tables.CHECK} turns ahead ({d.deep} in all); {d.settled} of them now "
          f"settled, in {d.seconds:.0f} s")
    return 0


def _exchange_check(args: argparse.Namespace, out: Path, executor: str) -> int:
    """`build --exchange-check`: the hidden table's settled positions checked with a second
    Exchange allowed in a line, in place (and `--more-exchanges`, which takes the same
    table, from here)."""
    from trainer.endgame import hidden_tables

    flag = "--more-exchanges" if args.more_exchanges else "--exchange-check"
    if (args.table != "hidden" or args.deepen or args.deepest
            or (args.exchange_check and args.more_exchanges)):
        print(f"endgame build: {flag} checks the hidden-role table of one card each "
              "(--table hidden, without --deepen, --deepest or the other Exchange pass)",
              file=sys.stderr)
        return 2
    if not out.is_file():
        print(f"endgame build: {flag} needs a built table at {out}: build it "
              "first", file=sys.stderr)
        return 2
    if args.more_exchanges:
        return _more_exchanges(args, out, executor)
    print(f"endgame build: the settled positions of {out} solved {hidden_tables.HORIZON} "
          f"turns ahead with {hidden_tables.EXCHANGES} Exchanges allowed in a line, one job "
          "per face-up pair and mover's coins", file=sys.stderr)
    ran = _slices("checked", lambda advance: hidden_tables.exchange_check(
        out, executor=executor, processes=args.processes, address=args.address,
        progress=advance))
    if ran is None:
        return 130
    print(f"wrote {ran.path}: {ran.solved} positions solved with a second Exchange (and "
          f"{ran.copied} read from their twin); {ran.checked} settled positions checked, "
          f"{ran.failed} of them moved by it, in {ran.seconds:.0f} s")
    return 0


def _slices(verb: str, run: Callable[[Callable[[int, int], None]], T]) -> T | None:
    """A resumable pass over a table's slices with a progress bar: `run(advance)`, or None
    when ^C stopped it (`_interruptible`); `verb` says what was done to a slice."""
    from tqdm import tqdm

    with tqdm(unit="slice", desc="slices", file=sys.stderr) as bar:
        advance = _advance(bar, f"resumed: {{done}} of {{total}} slices already {verb}")
        return _interruptible(bar, lambda: run(advance), f"{{n}} slices {verb}")


def _more_exchanges(args: argparse.Namespace, out: Path, executor: str) -> int:
    """`build --more-exchanges`: the positions a second Exchange moved, settled with two
    Exchanges allowed in a line where they can be, in place."""
    from trainer.endgame import hidden_tables

    print(f"endgame build: the positions of {out} a second Exchange moved, solved "
          f"{hidden_tables.HORIZON - 1} turns ahead with {hidden_tables.EXCHANGES} Exchanges "
          f"allowed in a line and, where that agrees, {hidden_tables.HORIZON} ahead with "
          f"{hidden_tables.MORE_EXCHANGES} (then the same with one more, up to "
          f"{hidden_tables.MOST_EXCHANGES}); one job per face-up pair and mover's coins",
          file=sys.stderr)
    ran = _slices("solved", lambda advance: hidden_tables.more_exchanges(
        out, executor=executor, processes=args.processes, address=args.address,
        progress=advance))
    if ran is None:
        return 130
    counts = ", ".join(f"{n} with {k} Exchanges" for k, n in ran.by_count.items())
    print(f"wrote {ran.path}: {ran.solved} positions solved a turn shorter with more "
          f"Exchanges, {ran.deeper} of them with one more as well (and {ran.copied} read from "
          f"their twin); {ran.settled} positions settled this way ({counts}), in "
          f"{ran.seconds:.0f} s")
    return 0


def _deepest(args: argparse.Namespace, out: Path, executor: str) -> int:
    """`build --deepest`: the hidden table's positions still moving at five turns ahead,
    solved six, in place."""
    from tqdm import tqdm

    from trainer.endgame import hidden_tables, hidden_two_tables

    if not args.deepest:
        print("endgame build: --limit and --collect go with --deepest", file=sys.stderr)
        return 2
    if args.table not in ("hidden", "hidden2") or args.deepen:
        print("endgame build: --deepest solves a hidden-role table's positions (--table "
              "hidden or hidden2, without --deepen)", file=sys.stderr)
        return 2
    mod: Any = hidden_two_tables if args.table == "hidden2" else hidden_tables
    if args.limit is not None and args.limit < 0:
        print(f"endgame build: --limit {args.limit}: expected 0 or more positions",
              file=sys.stderr)
        return 2
    if not out.is_file():
        print(f"endgame build: --deepest needs a built table at {out}: build it first "
              "(without --deepest), then --deepen", file=sys.stderr)
        return 2
    print(f"endgame build: the positions of {out} still moving between "
          f"{mod.HORIZON} and {mod.CHECK} turns ahead, "
          + ("collecting the finished jobs" if args.collect else
             f"solved {mod.DEEPEST} turns ahead, one job per position"),
          file=sys.stderr)
    with tqdm(unit="position", desc="positions", file=sys.stderr) as bar:
        advance = _advance(bar, "resumed: {done} of {total} positions already solved")
        ran = _interruptible(bar, lambda: mod.deepest(
            out, limit=args.limit, collect=args.collect, executor=executor,
            processes=args.processes, address=args.address, progress=advance),
            "{n} positions solved")
        if ran is None:
            return 130
    twins = (f" ({ran.copied} of them read from a solved twin with the face-up cards "
             "swapped)" if ran.copied else "")
    print(f"wrote {ran.path}: {ran.solved + ran.copied} positions solved {mod.DEEPEST} turns "
          f"ahead{twins} ({ran.deep} in all); {ran.settled} of them now settled; {ran.left} "
          f"still to solve, in {ran.seconds:.0f} s")
    return 0


def run_solve(args: argparse.Namespace) -> int:
    """A markdown table of the mover's options per card, best first."""
    from trainer.endgame import hidden, hidden_tables
    from trainer.engine.cards import Character

    try:
        lost = (Character.parse(args.lost[0]), Character.parse(args.lost[1]))
        cards = [Character.parse(args.card)] if args.card else None
    except ValueError as e:
        print(f"endgame solve: {e}", file=sys.stderr)
        return 2
    if not all(0 <= c <= 12 for c in args.coins) or args.horizon < 0:
        print("endgame solve: --coins must be 0 to 12 each and --horizon at least 0",
              file=sys.stderr)
        return 2
    coins = (args.coins[0], args.coins[1])
    start = time.monotonic()
    stored = (hidden_tables.stored_solution(lost, coins, args.first)
              if args.horizon == hidden_tables.HORIZON and args.exchanges == 1 else None)
    try:
        s: hidden.Solution | hidden_tables.StoredSolution = stored or hidden.solve(
            lost, coins, args.first, horizon=args.horizon, exchanges=args.exchanges)
    except ValueError as e:
        print(f"endgame solve: {e}", file=sys.stderr)
        return 2
    took = time.monotonic() - start
    mover = args.first
    print(f"P1 lost the {lost[0]} and has {coins[0]} coins; P2 lost the {lost[1]} and has "
          f"{coins[1]}; P{mover + 1} to act; {args.horizon} turns ahead"
          f"{' (stored table)' if stored else ''}.")
    print(f"P1 wins {100 * s.value:.1f}% under equilibrium play; exploitability "
          f"{100 * s.exploitability:.3f} points; {took:.1f} s.\n")
    chances = s.card_chance(mover)
    for card in cards or list(chances):
        if card not in chances:
            print(f"(P{mover + 1} cannot hold the {card} here)\n")
            continue
        print(f"P{mover + 1} holding the {card}:\n")
        print("| option | win % | points below the best | equilibrium frequency |")
        print("|---|--:|--:|--:|")
        for o in s.options(card):
            print(f"| {o.text} | {100 * o.value:.1f} | {100 * o.loss:.1f} | "
                  f"{100 * o.frequency:.0f}% |")
        print()
    return 0


def run_grade_bank(args: argparse.Namespace) -> int:
    """Exit status 2 for a bad argument or a bank that cannot be read; 130 when interrupted,
    the items finished kept in the file for the next run."""
    from pathlib import Path

    from tqdm import tqdm

    from trainer.batch import ExecutorError, choose
    from trainer.quiz import solved
    from trainer.quiz.bank import DEFAULT_BANK, BankError, load_bank

    horizon = args.horizon if args.horizon is not None else solved.HORIZON
    if horizon < 1:
        print(f"endgame grade-bank: --horizon must be at least 1, got {horizon}",
              file=sys.stderr)
        return 2
    if args.processes < 1:
        print(f"endgame grade-bank: --processes must be at least 1, got {args.processes}",
              file=sys.stderr)
        return 2
    bank_path = Path(args.bank) if args.bank else DEFAULT_BANK
    try:
        bank = load_bank(bank_path)
    except BankError as e:
        print(f"endgame grade-bank: {e}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else solved.solved_path(bank_path)
    if out.is_dir():
        print(f"endgame grade-bank: --out {str(out)!r} is a folder, not a file",
              file=sys.stderr)
        return 2
    try:
        executor = choose(args.executor, args.processes, args.address)
    except ExecutorError as e:
        print(f"endgame grade-bank: {e}", file=sys.stderr)
        return 2
    wanted, _ = solved.candidates(bank)
    where = ("Ray, " + (args.address or f"{args.processes} processes") if executor == "ray"
             else "in this process")
    print(f"endgame grade-bank: {bank.version}, {len(wanted)} End-game items whose turn "
          f"starts as a 1-v-1 with one card each, {horizon} turns ahead; {where}; "
          f"writing {out}", file=sys.stderr)
    with tqdm(total=len(wanted), unit="item", desc="items", file=sys.stderr) as bar:
        advance = _advance(bar, "resumed: {done} of {total} items already in " + out.name)

        try:
            graded = solved.grade_bank(bank, out, horizon=horizon, executor=executor,
                                       processes=args.processes, address=args.address,
                                       resume=not args.fresh, progress=advance)
        except KeyboardInterrupt:
            bar.close()
            print(f"endgame grade-bank: interrupted with {bar.n} of {len(wanted)} items in "
                  f"{out}; the same command continues from there", file=sys.stderr)
            return 130
    print(f"wrote {graded.path}: {graded.solved} of the bank's {graded.end_game} End-game "
          f"items solved exactly ({graded.candidates} tried"
          f"{f', {graded.resumed} kept from before' if graded.resumed else ''}) in "
          f"{graded.seconds:.0f} s")
    for reason, n in sorted(graded.skipped.items(), key=lambda kv: -kv[1]):
        print(f"  graded by rollouts, {n} item{'' if n == 1 else 's'}: {reason}")
    a = solved.agreement(bank, solved.load_solved(out, bank))
    if a.items:
        print(f"rollouts against solved: the same best option in {a.same_best} of {a.items} "
              f"items ({a.near_best} within a point); the same grade for {a.same_grade} of "
              f"{a.options} options; an option's win chance differs by {a.mean_gap_pp:.1f} "
              f"points on average (median {a.median_gap_pp:.1f}); the rollouts' best option "
              f"loses {a.best_lost_pp:.1f} points against perfect play on average")
    return 0


def _interruptible(bar: tqdm[Any], run: Callable[[], T], stopped: str) -> T | None:
    """`run()`, or None when ^C stops it: the bar closes and the message says how far it
    got (`stopped`, formatted with the bar's count as `n`) and that the same command
    continues from there (every build here resumes from its saved parts). A table a pass
    cannot take (`ValueError`, naming the file and what to do) ends the command with 2."""
    try:
        return run()
    except ValueError as e:
        bar.close()
        print(f"endgame build: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        bar.close()
        print(f"endgame build: interrupted with {stopped.format(n=bar.n)}; the same command "
              "continues from there", file=sys.stderr)
        return None


def _advance(bar: tqdm[Any], resumed: str) -> Callable[[int, int], None]:
    """A resumable build's progress for `bar`: the first report says how many were done by an
    earlier, interrupted run (`resumed`, formatted with done and total); every report moves
    the bar."""
    said: list[bool] = []

    def advance(done: int, total: int) -> None:
        bar.total = total
        if not said and done:
            bar.write(resumed.format(done=done, total=total), file=sys.stderr)
        said.append(True)
        bar.update(done - bar.n)

    return advance
