"""`bank build` and `bank info`: make the quiz's question banks, and say what one holds."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from trainer.quiz.bank import Bank


def register(commands: Any) -> None:
    bank = commands.add_parser("bank", help="build or inspect a question bank for the quiz")
    bank_sub = bank.add_subparsers(dest="bank_command", required=True)
    build = bank_sub.add_parser("build", help="decision points from persona games, graded")
    build.add_argument("--items", type=int, default=200, help="items from persona games")
    build.add_argument("--seed", type=int, default=0)
    build.add_argument("--rollouts", type=int, default=1024,
                       help="at most this many playouts per option: each option is played "
                            "until its grade band is clear, or this cap (the Play page's "
                            "precision, trainer.quiz.building.PLAYOUTS)")
    build.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                       help="processes on this machine (default: one per core)")
    build.add_argument("--executor", choices=("auto", "ray", "local"), default="auto",
                       help="ray: Ray tasks; local: one after another in this process; auto "
                            "(default): Ray when installed and --jobs > 1 or --address")
    build.add_argument("--address", default=None,
                       help="a Ray cluster to run on (host:port, or 'auto'); default: start "
                            "Ray on this machine")
    build.add_argument("--resume", action="store_true",
                       help="keep the items already finished in the work file (<out>.work) "
                            "of an interrupted build of the same command (not the default: "
                            "after a change to the grading code, rebuild without it)")
    build.add_argument("--variants", nargs="+", default=None, metavar="NAME[=WEIGHT]",
                       help="variants of the persona games (default: mostly base)")
    build.add_argument("--players", nargs="+", default=None, metavar="N[=WEIGHT]",
                       help="player counts of the persona games and their shares (default: "
                            "2=0.3 3=0.35 4=0.35)")
    build.add_argument("--min-per-theme", type=int, default=0, metavar="N",
                       help="pick positions so that every theme the bank touches (claims, "
                            "kinds, end-games, each rule set in --variants) has at least N "
                            "items, beyond --items if need be (default 0: by kind only)")
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
    revalue = bank_sub.add_parser(
        "revalue", help="grade a bank's items of some rule sets again, after a rules change")
    revalue.add_argument("file", help="the bank file, rewritten in place")
    revalue.add_argument("--variants", nargs="+", required=True, metavar="RULES",
                         help="the rule sets whose items are graded again (as the items name "
                              "them, e.g. reformation reformation-inquisitor)")
    _grading(revalue, rollouts="each item's own count", seed=0, seed_help="")
    revalue.set_defaults(func=run_revalue)
    estimates = bank_sub.add_parser(
        "estimates", help="make a bank's claim estimates again, after a change to the "
                          "estimates, and leave out items that give away another's answer")
    estimates.add_argument("file", help="the bank file, rewritten in place")
    estimates.add_argument("--scenarios", default="scenarios", help="the lesson folder")
    estimates.set_defaults(func=run_estimates)
    lessons = bank_sub.add_parser(
        "lessons", help="grade a bank's Learn questions again after lesson files change")
    lessons.add_argument("file", help="the bank file, rewritten in place")
    lessons.add_argument("--lessons", nargs="+", required=True, metavar="ID",
                         help="the lessons whose questions are graded again (their old items "
                              "are replaced; a question the lesson no longer asks goes)")
    _grading(lessons, rollouts="the count the bank's lesson items were graded with",
             seed=None, seed_help=" (default: the bank's)")
    lessons.set_defaults(func=run_lessons)
    info = bank_sub.add_parser("info", help="what a bank holds")
    info.add_argument("file")
    info.set_defaults(func=run_info)




def _open_to_grade(path: Path, args: argparse.Namespace) -> tuple[Bank, str] | None:
    """The bank to grade again and where the work runs; None, said on stderr, when the file
    is no bank or the executor cannot run here (before any work)."""
    from trainer.batch import ExecutorError, choose
    from trainer.quiz.bank import BankError, load_bank

    try:
        return load_bank(path), choose(args.executor, args.jobs, args.address)
    except (BankError, ValueError, ExecutorError) as e:
        print(f"bank: {e}", file=sys.stderr)
        return None

def _grading(parser: argparse.ArgumentParser, *, rollouts: str, seed: int | None,
             seed_help: str) -> None:
    """The options of a command that grades a bank's items again where they stand: the
    playouts, the seed, where the work runs, resuming, and the lesson folder."""
    parser.add_argument("--rollouts", type=int, default=None,
                        help=f"at most this many playouts per option (default: {rollouts})")
    parser.add_argument("--seed", type=int, default=seed,
                        help=f"seed of the rollouts{seed_help}")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--executor", choices=("auto", "ray", "local"), default="auto")
    parser.add_argument("--address", default=None, help="a Ray cluster (host:port or auto)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the items already graded in the work file of an "
                             "interrupted run of the same command")
    parser.add_argument("--scenarios", default="scenarios", help="the lesson folder")

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
    from collections import Counter
    from pathlib import Path

    from tqdm import tqdm

    from trainer.batch import ExecutorError, choose
    from trainer.quiz.bank import KIND_SHARE, KINDS, PLAYER_SHARE, BankError, describe_bank
    from trainer.quiz.bankfile import work_path, write_bank
    from trainer.quiz.building import (
        DEFAULT_VARIANTS,
        lesson_tasks,
        parse_players,
        parse_shares,
        persona_tasks,
        recipe,
        task_themes,
        theme_tasks,
    )

    try:
        variants = parse_shares(args.variants, DEFAULT_VARIANTS)
        kinds = parse_shares(args.kinds, KIND_SHARE, KINDS)
        players = parse_players(args.players, PLAYER_SHARE)
        executor = choose(args.executor, args.jobs, args.address)
    except (ValueError, KeyError, ExecutorError) as e:
        print(f"bank: {e}", file=sys.stderr)
        return 2
    if args.items < 1 or args.jobs < 1 or args.min_per_theme < 0:
        print("bank: --items and --jobs must be at least 1, --min-per-theme at least 0",
              file=sys.stderr)
        return 2
    if args.executor == "auto" and executor == "local" and args.jobs > 1:
        print("bank: Ray is not installed (pip install 'coup-trainer[batch]'): building in "
              "this process, one item after another", file=sys.stderr)
    scenarios = Path(args.scenarios)
    lessons = lesson_tasks(scenarios, seed=args.seed) if args.lessons else []
    if args.min_per_theme:
        covered = Counter(t for task in lessons for t in task_themes(task, scenarios))
        tasks = list(theme_tasks(args.items, seed=args.seed, per_theme=args.min_per_theme,
                                 players=players, variants=variants, kinds=kinds,
                                 covered=covered))
    else:
        tasks = list(persona_tasks(args.items, seed=args.seed, players=players,
                                   variants=variants, kinds=kinds))
    if len(tasks) < args.items:
        print(f"bank: only {len(tasks)} decisions of the kinds asked for were found in "
              f"{100 * args.items + 100} games", file=sys.stderr)
    tasks += lessons
    name = args.out or f"data/banks/bank-s{args.seed}-n{args.items}.jsonl"
    out = Path(name)
    work = work_path(out)
    if not args.resume and work.exists() and work.stat().st_size:
        # Never throw away hours of graded items for a forgotten flag.
        print(f"bank: {work} holds the finished tasks of an interrupted build: add --resume "
              f"to continue it, or delete the file to start afresh", file=sys.stderr)
        return 2
    made = recipe(seed=args.seed, items=args.items, rollouts=args.rollouts, variants=variants,
                  kinds=kinds, lessons=bool(args.lessons), players=players,
                  min_per_theme=args.min_per_theme)
    where = args.address or f"{args.jobs} processes on this machine"
    print(f"bank: {len(tasks)} tasks, {args.rollouts} rollouts per option, "
          f"{'Ray, ' + where if executor == 'ray' else 'in this process'}; work file "
          f"{work}", file=sys.stderr)
    start = time.perf_counter()
    problems: list[str] = []
    with tqdm(total=len(tasks), unit="item", desc="items", file=sys.stderr) as bar:

        def advance(done: int, total: int) -> None:
            # The first call says how many tasks the work file already held.
            if bar.n == 0 and not started and done:
                bar.write(f"resumed: {done} of {total} tasks from the work file",
                          file=sys.stderr)
            started.append(done)
            bar.total = total
            bar.update(done - bar.n)

        started: list[int] = []

        try:
            bank = write_bank(tasks, out, header=made, rollouts=args.rollouts,
                              name=args.name, add_to=args.add_to, resume=args.resume,
                              executor=executor, jobs=args.jobs, address=args.address,
                              scenarios=scenarios, progress=advance, problems=problems)
        except BankError as e:
            print(f"bank: {e}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            bar.close()
            print(f"bank: interrupted with {bar.n} of {bar.total} tasks in {work}; "
                  f"the same command with --resume continues from there", file=sys.stderr)
            return 130
    for problem in problems:
        print(f"left out: {problem}", file=sys.stderr)
    print(describe_bank(bank))
    print(f"written to {name} in {time.perf_counter() - start:.0f} s")
    return 0


def run_estimates(args: argparse.Namespace) -> int:
    """Every claim item's estimates made again where it stands (same position, same id), the
    option values kept; then the items that answer another item's claim (by showing the
    claimant's hand, or a history in which the claim turned out) left out, keeping of two such
    items the one whose rarest theme is rarer.

    Why: a change to the behaviour model changes what the bot says of every claim, but
    grading every option again by rollouts takes hours. The bank's version changes only when
    items are left out (it is a hash of the ids), so answers given to the items kept still
    point at them."""
    import os
    import time
    from pathlib import Path

    from tqdm import tqdm

    from trainer.estimates.report import DEFAULT_MODEL
    from trainer.quiz.bank import Bank, BankError, describe_bank, load_bank
    from trainer.quiz.building import reestimate
    from trainer.quiz.leaks import theme_rarity, without_leaks

    path = Path(args.file)
    try:
        bank = load_bank(path)
    except BankError as e:
        print(f"bank: {e}", file=sys.stderr)
        return 2
    model = bank.header.get("model") or DEFAULT_MODEL
    start = time.process_time()
    items = []
    for item in tqdm(bank.items, unit="item", desc="estimates", file=sys.stderr):
        try:
            items.append(reestimate(item, model, Path(args.scenarios)))
        except (ValueError, RuntimeError, OSError) as e:
            print(f"bank: item {item.id} could not be estimated again ({e}); kept as it "
                  f"was", file=sys.stderr)
            items.append(item)
    kept, left = without_leaks(items, theme_rarity(items))
    header = {k: v for k, v in bank.header.items() if not k.startswith("_")}
    header["additions"] = [*header.get("additions", []), {
        "estimates": sum(1 for i in items if i.has_claim), "left out": len(left),
        "why left out": "they answer another item of the same game: their viewer is its "
                        "claimant, or their history shows how its claim turned out"}]
    new = Bank(bank.name, tuple(kept), header)
    tmp = path.with_name(path.name + ".tmp" + (".gz" if path.suffix == ".gz" else ""))
    new.save(tmp)
    os.replace(tmp, path)
    carried = carry_solved(path, bank.version, new)
    if carried is not None:
        print(carried)
    print(describe_bank(new))
    print(f"{sum(1 for i in items if i.has_claim)} claims estimated again, {len(left)} "
          f"item{'' if len(left) == 1 else 's'} left out, in "
          f"{time.process_time() - start:.0f} s of CPU")
    return 0


def carry_solved(path: Path, old_version: str, new: Bank) -> str | None:
    """The exact end-game grades beside the bank (`<bank>.solved.json`) moved to its new
    version, keeping the entries of the items kept; a sentence saying so, or None when
    there is no such file or it was made for another version.

    Why they may be carried: they are solved over a shuffled court, every unseen card
    equally likely, never from the estimates, and the positions of the items kept are the
    same; only the version, a hash of the ids, changed with the items left out."""
    import json
    import os

    from trainer.quiz.solved import solved_path

    solved = solved_path(path)
    if not solved.exists():
        return None
    try:
        data = json.loads(solved.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        return f"{solved.name}: not carried over ({e})"
    if not isinstance(data, dict) or data.get("bank") != old_version:
        return f"{solved.name}: not carried over (it was made for another version)"
    ids = {i.id for i in new.items}
    found = data.get("items")
    entries: dict[str, Any] = found if isinstance(found, dict) else {}
    kept = {k: v for k, v in entries.items() if k in ids}
    data["bank"] = new.version
    data["items"] = kept
    tmp = solved.with_name(solved.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, solved)
    return (f"{solved.name}: {len(kept)} of {len(entries)} exact grades carried "
            f"over to {new.version}")


def run_revalue(args: argparse.Namespace) -> int:
    """Grade the items of some rule sets again where they stand: same positions, same ids
    (so answers already given still point at them), values from the engine as it is now.

    Why: a deliberate rules change (a reading whose default changed, say) leaves a bank's
    estimates and option values computed under the old rules; the positions themselves are
    still legal, and rebuilding the whole bank would also change which positions it asks."""
    import time
    from pathlib import Path

    from tqdm import tqdm

    from trainer.quiz.bank import BankError, describe_bank
    from trainer.quiz.bankfile import write_bank
    from trainer.quiz.building import item_task

    path = Path(args.file)
    opened = _open_to_grade(path, args)
    if opened is None:
        return 2
    bank, executor = opened
    wanted = set(args.variants)
    items = [i for i in bank.items if i.variant in wanted]
    if not items:
        found = sorted({i.variant for i in bank.items})
        print(f"bank: no items of {', '.join(sorted(wanted))} in {path}; its rule sets: "
              f"{', '.join(found)}", file=sys.stderr)
        return 2
    rollouts = {args.rollouts or i.rollouts for i in items}
    if len(rollouts) != 1:
        print(f"bank: the items were graded with different rollouts ({sorted(rollouts)}); "
              f"give --rollouts", file=sys.stderr)
        return 2
    count = rollouts.pop()
    tasks = [item_task(i, args.seed) for i in items]
    header = {"revalued": sorted(wanted), "items": len(tasks), "rollouts": count,
              "seed": args.seed}
    start = time.perf_counter()
    problems: list[str] = []
    with tqdm(total=len(tasks), unit="item", desc="items", file=sys.stderr) as bar:

        def advance(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        try:
            new = write_bank(tasks, path, header=header, rollouts=count, add_to=True,
                             resume=args.resume, executor=executor, jobs=args.jobs,
                             address=args.address, scenarios=Path(args.scenarios),
                             progress=advance, problems=problems)
        except BankError as e:
            print(f"bank: {e}", file=sys.stderr)
            return 2
    for problem in problems:
        print(f"left out (the old item is kept): {problem}", file=sys.stderr)
    lost = {i.id for i in items} - {i.id for i in new.items}
    if lost:
        print(f"bank: {len(lost)} items changed id: {', '.join(sorted(lost))}",
              file=sys.stderr)
        return 1
    print(describe_bank(new))
    print(f"{len(tasks)} items graded again in {time.perf_counter() - start:.0f} s")
    return 0


def run_lessons(args: argparse.Namespace) -> int:
    """The bank's questions from some lessons graded again where the lessons now ask them.

    Why: an item of a lesson names its lesson and step, and its id is a hash of those; when a
    lesson file is rewritten, the same step may be another question, or none. Every old item
    of the lessons named is taken out, then the lessons' questions as the files now stand are
    graded by rollouts and added (an unchanged step keeps its id, so answers given to it still
    point at it). Items of other lessons and of games are kept as they are."""
    import time
    from pathlib import Path

    from tqdm import tqdm

    from trainer.quiz.bank import Bank, BankError, describe_bank
    from trainer.quiz.bankfile import write_bank
    from trainer.quiz.building import lesson_tasks

    path = Path(args.file)
    opened = _open_to_grade(path, args)
    if opened is None:
        return 2
    bank, executor = opened
    wanted = set(args.lessons)
    seed = args.seed if args.seed is not None else int(bank.header.get("seed", 0))
    tasks = [t for t in lesson_tasks(Path(args.scenarios), seed=seed) if t.scenario in wanted]
    unknown = wanted - {t.scenario for t in tasks} - {i.scenario for i in bank.items}
    if unknown:
        print(f"bank: no question to grade in {', '.join(sorted(unknown))} (no such lesson, "
              f"or none of its questions is a decision the quiz grades)", file=sys.stderr)
        return 2
    counts = {i.rollouts for i in bank.items if i.source == "lesson"}
    count = args.rollouts or (counts.pop() if len(counts) == 1
                              else int(bank.header.get("rollouts", 1000)))
    gone = [i for i in bank.items if i.source == "lesson" and i.scenario in wanted]
    pruned = Bank(bank.name, tuple(i for i in bank.items if i not in gone), bank.header)
    header = {"lessons": sorted(wanted), "items": len(tasks), "rollouts": count, "seed": seed}
    start = time.perf_counter()
    problems: list[str] = []
    tmp = path.with_name(path.name + ".tmp" + (".gz" if path.suffix == ".gz" else ""))
    with tqdm(total=len(tasks), unit="item", desc="items", file=sys.stderr) as bar:

        def advance(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        try:
            pruned.save(tmp)
            new = write_bank(tasks, tmp, header=header, rollouts=count, add_to=True,
                             resume=args.resume, executor=executor, jobs=args.jobs,
                             address=args.address, scenarios=Path(args.scenarios),
                             progress=advance, problems=problems)
        except BankError as e:
            tmp.unlink(missing_ok=True)
            print(f"bank: {e}", file=sys.stderr)
            return 2
    # A question that looks to the learner like one the bank holds already (the same hand
    # and the same public past: another lesson's set-up, a game's opening) is left out.
    seen = {i.learner_view() for i in pruned.items}
    fresh = {i.id for i in new.items} - {i.id for i in pruned.items}
    twins = [i for i in new.items if i.id in fresh and i.learner_view() in seen]
    if twins:
        new = Bank(new.name, tuple(i for i in new.items if i not in twins), new.header)
        new.save(tmp)
    tmp.replace(path)
    for problem in problems:
        print(f"left out: {problem}", file=sys.stderr)
    for twin in twins:
        print(f"left out: {twin.scenario} step {twin.step} ({twin.kind}) looks like a "
              f"question the bank holds already", file=sys.stderr)
    carried = carry_solved(path, bank.version, new)
    if carried is not None:
        print(carried)
    kept = {i.id for i in gone} & {i.id for i in new.items}
    print(describe_bank(new))
    print(f"{len(tasks)} questions of {len(wanted)} lessons graded in "
          f"{time.perf_counter() - start:.0f} s: {len(kept)} kept their id, "
          f"{len(gone) - len(kept)} old item{'' if len(gone) - len(kept) == 1 else 's'} "
          f"went")
    return 0
