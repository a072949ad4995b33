"""Commands still to be given modules of their own."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:

    fuzz = sub.add_parser("fuzz", help="random legal play, checking invariants after every move")
    fuzz.add_argument("--games", type=int, default=10_000)
    fuzz.add_argument("--variant", default=None, help="a variant name (default: every variant)")
    fuzz.add_argument("--players", type=int, default=None,
                      help="player count (default: every count the variant allows)")
    fuzz.add_argument("--seed", type=int, default=0, help="seed of the first game")
    fuzz.add_argument("--quiet", action="store_true", help="no progress bar")

    variants = sub.add_parser("variants", help="list the variant names, one a line")

    tour = sub.add_parser("tournament", help="win rates of bot personas against each other")
    tour.add_argument("--games", type=int, default=200, help="games per pairing and size")
    tour.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 6])
    tour.add_argument("--personas", nargs="+", default=None,
                      help="persona names (default: every persona)")
    tour.add_argument("--variant", default="base")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--out", default=None, help="write the table as CSV here")

    est = sub.add_parser("estimate", help="the bot's estimates at a scenario's decision")
    est.add_argument("file", help="a scenario YAML file")
    est.add_argument("--step", type=int, required=True,
                     help="the decision pending after this step (0: the set-up)")
    est.add_argument("--json", action="store_true", help="print JSON")
    est.add_argument("--rollouts", type=int, default=300)
    est.add_argument("--seed", type=int, default=0)

    cal = sub.add_parser("calibration", help="how well the claim estimates are calibrated")
    cal.add_argument("--claims", type=int, default=20_000)
    cal.add_argument("--seed", type=int, default=0)
    cal.add_argument("--csv", default=None, help="write every claim here")
    cal.add_argument("--png", default=None, help="write the reliability chart here")

    bank = sub.add_parser("bank", help="build or inspect a question bank for the quiz")
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
    info = bank_sub.add_parser("info", help="what a bank holds")
    info.add_argument("file")

    rules = sub.add_parser("rules", help="print the full rules of a variant")
    rules.add_argument("variant", nargs="?", default="base", help="a variant name")
    rules.add_argument("--players", type=int, default=None, help="player count for the set-up")

    for p in (fuzz, tour, est, cal, bank, rules, variants):
        p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.command == "variants":
        from trainer.engine.variants import VARIANTS

        for name in VARIANTS:
            print(name)
        return 0
    if args.command == "bank":
        from trainer.quiz.building import bank_main

        if args.bank_command == "build" and args.out is None:
            args.out = f"data/banks/bank-s{args.seed}-n{args.items}.jsonl"
        return bank_main(args)
    if args.command == "calibration":
        from trainer.estimates.calibration import calibration_main

        return calibration_main(args.claims, args.seed, args.csv, args.png)
    if args.command == "estimate":
        from trainer.estimates.report import estimate_main

        return estimate_main(args.file, args.step, args.json, args.rollouts, args.seed)
    if args.command == "tournament":
        from trainer.bots.tournament import tournament_main

        return tournament_main(args.personas, args.players, args.games, args.variant,
                               args.seed, args.out)
    if args.command == "rules":
        from trainer.rulebook.text import rules_main

        return rules_main(args.variant, args.players)
    if args.command == "fuzz":
        from trainer.engine.fuzz import fuzz_main

        return fuzz_main(args.games, args.variant, args.players, args.seed, args.quiet)
    raise AssertionError(args.command)

