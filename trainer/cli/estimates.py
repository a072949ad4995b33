"""`estimate` and `calibration`: what the bot believes at one decision, and how far its beliefs
can be trusted over thousands."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(commands: Any) -> None:
    est = commands.add_parser("estimate", help="the bot's estimates at a scenario's decision")
    est.add_argument("file", help="a scenario YAML file")
    est.add_argument("--step", type=int, required=True,
                     help="the decision pending after this step (0: the set-up)")
    est.add_argument("--json", action="store_true", help="print JSON")
    est.add_argument("--rollouts", type=int, default=300)
    est.add_argument("--seed", type=int, default=0)
    est.set_defaults(func=run_estimate)

    cal = commands.add_parser("calibration", help="how well the claim estimates are calibrated")
    cal.add_argument("--claims", type=int, default=20_000)
    cal.add_argument("--seed", type=int, default=0)
    cal.add_argument("--csv", default=None, help="write every claim here")
    cal.add_argument("--png", default=None, help="write the reliability chart here")
    cal.set_defaults(func=run_calibration)


def run_estimate(args: argparse.Namespace) -> int:
    """Exit status 2 for a broken scenario or a step without a decision to estimate."""
    import json

    from trainer.estimates.report import estimate, report_text
    from trainer.scenarios import ScenarioError, load_scenario

    try:
        scenario = load_scenario(args.file)
        result = estimate(scenario, args.step, rollouts=args.rollouts, seed=args.seed)
    except (ScenarioError, ValueError) as e:
        print(f"estimate: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else report_text(result))
    return 0


def run_calibration(args: argparse.Namespace) -> int:
    """The scores first, then the files: a long harvest is never lost to a bad chart path
    before its numbers are seen."""
    from tqdm import tqdm

    from trainer.estimates.calibration import calibration_text, claims_frame, harvest, reliability

    with tqdm(total=args.claims, unit="claim", file=sys.stderr, desc="claims") as bar:
        frame = claims_frame(harvest(args.claims, seed=args.seed, progress=bar.update))
    table = reliability(frame)
    print(calibration_text(frame, table))
    if args.csv:
        frame.to_csv(args.csv, index=False)
    if args.png:
        from trainer.views.calibration_charts import estimates_chart

        estimates_chart(table).save(args.png, scale_factor=2)
        print(f"chart written to {args.png}")
    return 0
