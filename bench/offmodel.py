"""How the claim estimates fare against players unlike the personas they assume.

The in-sample figure (README, `python -m trainer calibration`) scores the behavioural posterior
on games of the very persona mixture it models. Here the claimants are strangers
(`trainer/policies/offmodel.py`): Random, Plain honest (never bluffs, never challenges, picks
among its honest actions at random, loses its best card first), a Heavy bluffer (90%), a
Steal-first bluffer (90%, steals rather than taxes even while holding the Duke), Situational
(bluffs and challenges by the position), and a mixed table (each seat any of these or a
persona of the model).
Seat 0 observes, as a persona drawn from the model; every other seat is the stranger and all
its action and block claims are scored. Base game, half the claims at 3 players and half at
4, a fixed seed. For each table, and for the in-sample persona games as the baseline: the
number of claims, Brier, log score (quiz scale, p clamped to 1-99%), confident misses (a
forecast of a bluff at most 2% or at least 98% that the cards proved wrong) and a reliability
table, for the posterior and for card counting alone.

    python bench/offmodel.py [--claims 2000] [--seed 0]

Goals: on every table, confident misses below 0.3% of the claims and the posterior's Brier at
or below counting's. Last line: `insample_brier <x> offmodel_worst_brier <y>
counting_worst_brier <z> confident_miss_max_pct <w>` (worst: the highest Brier over the
off-model tables, for the posterior and for counting; w: the highest share of claims, in
percent, that the posterior called confidently and wrongly, over every table, in-sample
included).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.estimates.offmodel import harvest_frame, reliability, scores  # noqa: E402

TABLES: dict[str | None, str] = {
    None: "in-sample (personas of the model)",
    "random": "Random",
    "plain-honest": "Plain honest",
    "heavy-bluffer": "Heavy bluffer (90%)",
    "steal-first": "Steal-first bluffer (90%)",
    "situational": "Situational",
    "mixed": "Mixed table",
}
ESTIMATORS = {"post_bluff": "posterior", "count_bluff": "counting"}


def _reliability_text(frame: pd.DataFrame) -> str:
    """Both estimators' bins side by side: where the posterior's forecast and the observed
    bluff rate part, counting's row beside it shows whether the cards alone knew better."""
    tables = {label: reliability(frame[column], frame["bluff"])
              for column, label in ESTIMATORS.items()}
    bins = sorted(set().union(*(t.index for t in tables.values())),
                  key=lambda b: int(b.split("-")[0]))
    head = f"{'bin':>8}" + "".join(f" | {label:>9} n forecast observed"
                                   for label in tables)
    lines = [head]
    for b in bins:
        row = f"{b:>8}"
        for t in tables.values():
            if b in t.index:
                r = t.loc[b]
                row += f" | {int(r['n']):>11} {r['forecast']:>8.3f} {r['observed']:>8.3f}"
            else:
                row += f" | {'':>11} {'':>8} {'':>8}"
        lines.append(row)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=2000,
                        help="claims per table (split over 3 and 4 players)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start, cpu = time.perf_counter(), time.process_time()
    frames: dict[str | None, pd.DataFrame] = {}
    with tqdm(total=args.claims * len(TABLES), unit="claim", file=sys.stderr) as bar:
        for policy, label in TABLES.items():
            bar.set_description(label.split(" (")[0])
            frames[policy] = harvest_frame(args.claims, policy=policy, seed=args.seed,
                                           progress=bar.update)
    rows = []
    for policy, frame in frames.items():
        for column, label in ESTIMATORS.items():
            s = scores(frame[column], frame["bluff"])
            rows.append({"players at the table": TABLES[policy], "estimate": label,
                         "claims": s.n, "bluff rate": s.bluff_rate, "Brier": s.brier,
                         "log score": s.log_score, "confident": s.confident,
                         "conf. misses": s.misses, "miss %": 100 * s.miss_share})
    summary = pd.DataFrame(rows)
    print(f"Claims scored from seat 0, base game, 3 and 4 players, seed {args.seed}: "
          f"P(bluff) by the behavioural posterior and by card counting alone.\n")
    with pd.option_context("display.width", 140, "display.float_format", "{:.3f}".format):
        print(summary.to_string(index=False))
    for policy, frame in frames.items():
        print(f"\nReliability, {TABLES[policy]} (bins of the forecast chance of a bluff):")
        print(_reliability_text(frame))
    brier = {(p, c): scores(f[c], f["bluff"]).brier for p, f in frames.items()
             for c in ESTIMATORS}
    strangers = [p for p in frames if p is not None]
    worst_post = max(brier[(p, "post_bluff")] for p in strangers)
    worst_count = max(brier[(p, "count_bluff")] for p in strangers)
    miss_pct = max(100 * scores(f["post_bluff"], f["bluff"]).miss_share
                   for f in frames.values())
    print(f"\n{sum(len(f) for f in frames.values())} claims in "
          f"{time.process_time() - cpu:.0f} s of CPU ({time.perf_counter() - start:.0f} s "
          f"wall)")
    print(f"insample_brier {brier[(None, 'post_bluff')]:.4f} offmodel_worst_brier "
          f"{worst_post:.4f} counting_worst_brier {worst_count:.4f} "
          f"confident_miss_max_pct {miss_pct:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
