"""How close any reading of moves can come to card counting against uniformly random play.

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

    python bench/random_bound.py [--claims 2000] [--seed 0]

Last line: `model_brier <x> known_random_brier <y> counting_brier <z> known_minus_counting_se <s>`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.estimates.offmodel import brier, harvest_frame  # noqa: E402

# The uninformed component's share in the known-random model: all but a trace (the mixture
# needs the personas to keep some weight).
KNOWN = 1 - 1e-9


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cpu = time.process_time()
    model = harvest_frame(args.claims, policy="random", seed=args.seed)
    known = harvest_frame(args.claims, policy="random", seed=args.seed, uninformed=KNOWN)
    if not (model["bluff"].to_numpy() == known["bluff"].to_numpy()).all():
        raise RuntimeError("the two harvests scored different claims")
    bluff = model["bluff"].to_numpy(dtype=float)
    loss_known = (known["post_bluff"].to_numpy() - bluff) ** 2
    loss_count = (model["count_bluff"].to_numpy() - bluff) ** 2
    diff = loss_known - loss_count
    se = float(diff.std(ddof=1) / np.sqrt(len(diff)))
    b_model = brier(model["post_bluff"], model["bluff"])
    b_known = brier(known["post_bluff"], known["bluff"])
    b_count = brier(model["count_bluff"], model["bluff"])
    print(f"Random table, {len(bluff)} claims, seed {args.seed}, "
          f"{time.process_time() - cpu:.0f} s of CPU")
    print(f"  Brier, the shipped model:          {b_model:.4f}")
    print(f"  Brier, the model knowing it is random: {b_known:.4f}")
    print(f"  Brier, card counting alone:        {b_count:.4f}")
    print(f"  known-random minus counting: {b_known - b_count:+.4f} "
          f"(paired standard error {se:.4f})")
    print(f"model_brier {b_model:.4f} known_random_brier {b_known:.4f} counting_brier "
          f"{b_count:.4f} known_minus_counting_se {se:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
