"""How close any reading of moves can come to card counting against uniformly random play, and
why the shipped model cannot reach it without giving up what it reads in the personas' games.

Why: `bench/offmodel.py` asks the posterior's Brier to be at or below counting's on every
table, the Random table included. A player who picks every legal move alike makes claims that
say nothing about their hand; the best estimate of such a player is the model that *knows* they
play at random: the uninformed component with all the prior weight. It still reads what a
random player's forced choices say (which card they turn up, whether they show a card when
challenged) and so differs a little from counting alone. This bench scores, on the very games
of `bench/offmodel.py`'s Random table (same claims, seed and split over 3 and 4 players), the
shipped model, that known-random model and counting, with the paired standard error of the
known-random model's Brier minus counting's: when that difference is within its noise, no
estimate that reads moves can be told from counting on this table, and a shortfall of the
shipped model is the price of not knowing who sits at the table.

Where that price is paid: the Brier score of a forecast exceeds the Bayes forecast's by the
mean square of their difference (in expectation), so against random play every claim the
model reads differently from counting costs, and the earlier the claim in the claimant's game,
the less the model can yet know who they are. The bench splits the shipped model's excess over
counting on the Random table by the claimant's claim number in the game (1st, 2nd, ..., 6th
and later) and, beside it, what the same claim numbers *gain* over counting in the in-sample
games of the personas (`bench/offmodel.py`'s in-sample table). A claimant's first claim comes
before any claim of theirs has been seen; a model that read it as counting does would lose the
in-sample gain of first claims, and one that reads it as the personas do loses the Random
excess: the two goals pull the same forecast two ways.

    python bench/random_bound.py [--claims 2000] [--seed 0]

Last line: `model_brier <x> known_random_brier <y> counting_brier <z> known_minus_counting_se
<s> first_claim_excess <a> later_claim_excess <b> insample_first_claim_gain <c>` (the excess
and gain as shares of the whole table's Brier, so they add up to its difference).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.estimates.offmodel import brier, harvest_frame  # noqa: E402

# The uninformed component's share in the known-random model: all but a trace (the mixture
# needs the personas to keep some weight).
KNOWN = 1 - 1e-9
# Claim numbers from this one on are counted together.
LATE = 6


def claim_number(frame: pd.DataFrame) -> pd.Series:
    """Each claim's number among its claimant's claims in its game, from 1, capped at LATE."""
    return (frame.groupby(["game", "players", "claimant"]).cumcount() + 1).clip(upper=LATE)


def by_claim_number(frame: pd.DataFrame, loss: np.ndarray) -> pd.Series:
    """The sum of `loss` per claim number, divided by the table's claims: shares that add up
    to the table's mean."""
    return pd.Series(loss).groupby(claim_number(frame).to_numpy()).sum() / len(frame)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cpu = time.process_time()
    model = harvest_frame(args.claims, policy="random", seed=args.seed)
    known = harvest_frame(args.claims, policy="random", seed=args.seed, uninformed=KNOWN)
    personas = harvest_frame(args.claims, policy=None, seed=args.seed)
    if not (model["bluff"].to_numpy() == known["bluff"].to_numpy()).all():
        raise RuntimeError("the two harvests scored different claims")
    bluff = model["bluff"].to_numpy(dtype=float)
    loss_model = (model["post_bluff"].to_numpy() - bluff) ** 2
    loss_known = (known["post_bluff"].to_numpy() - bluff) ** 2
    loss_count = (model["count_bluff"].to_numpy() - bluff) ** 2
    diff = loss_known - loss_count
    se = float(diff.std(ddof=1) / np.sqrt(len(diff)))
    se_model = float((loss_model - loss_count).std(ddof=1) / np.sqrt(len(diff)))
    b_model = brier(model["post_bluff"], model["bluff"])
    b_known = brier(known["post_bluff"], known["bluff"])
    b_count = brier(model["count_bluff"], model["bluff"])
    print(f"Random table, {len(bluff)} claims, seed {args.seed}")
    print(f"  Brier, the shipped model:          {b_model:.4f}")
    print(f"  Brier, the model knowing it is random: {b_known:.4f}")
    print(f"  Brier, card counting alone:        {b_count:.4f}")
    print(f"  known-random minus counting: {b_known - b_count:+.4f} "
          f"(paired standard error {se:.4f})")
    print(f"  shipped model minus counting: {b_model - b_count:+.4f} "
          f"(paired standard error {se_model:.4f})")

    excess = by_claim_number(model, loss_model - loss_count)
    ideal = by_claim_number(model, loss_known - loss_count)
    p_bluff = personas["bluff"].to_numpy(dtype=float)
    gain = by_claim_number(personas, (personas["count_bluff"].to_numpy() - p_bluff) ** 2
                           - (personas["post_bluff"].to_numpy() - p_bluff) ** 2)
    counts = claim_number(model).value_counts()
    in_counts = claim_number(personas).value_counts()
    print("\nBy the claimant's claim number in the game: the shipped model's Brier excess over "
          "counting on the Random table\n(and the known-random model's), beside what the "
          "model gains over counting in the personas' own games\n(each a share of its "
          "table's Brier, so a column adds up to the table's difference):")
    print(f"{'claim':>6} | {'Random: claims':>14} {'excess':>8} {'ideal':>8} | "
          f"{'personas: claims':>16} {'gain':>8}")
    for number in sorted(set(excess.index) | set(gain.index)):
        label = f"{number}{'+' if number == LATE else ''}"
        print(f"{label:>6} | {counts.get(number, 0):>14} {excess.get(number, 0.0):>8.4f} "
              f"{ideal.get(number, 0.0):>8.4f} | {in_counts.get(number, 0):>16} "
              f"{gain.get(number, 0.0):>8.4f}")
    first, later = float(excess.get(1, 0.0)), float(excess[excess.index > 1].sum())
    first_gain = float(gain.get(1, 0.0))
    print(f"\nA first claim comes before anything the claimant has claimed: reading it as "
          f"counting does would remove\n{first:.4f} of the Random excess and cost "
          f"{first_gain:.4f} in the personas' games; the rest of the excess, {later:.4f}, "
          f"comes from\nlater claims ({later / se_model:.0f} paired standard errors of the "
          f"model's excess).")
    print(f"({time.process_time() - cpu:.0f} s of CPU)")
    print(f"model_brier {b_model:.4f} known_random_brier {b_known:.4f} counting_brier "
          f"{b_count:.4f} known_minus_counting_se {se:.4f} first_claim_excess {first:.4f} "
          f"later_claim_excess {later:.4f} insample_first_claim_gain {first_gain:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
