"""How fast the estimates are: the exact posterior of a claim and 1,000 rollouts.

Positions come from persona games (base rules, 4 players): at every action claim seen by
seat 0, the time of one posterior (the observer's evidence about every opponent combined by
the exact dynamic programme, then P(claim is honest)) is measured; the median is reported
(goal: 5 ms or less). Then 1,000 determinized rollouts of one challenge decision (goal: 1 s or
less, base rules). The last line is ``posterior_ms <median> rollouts_s <seconds>``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.engine.game import Game, Phase  # noqa: E402
from trainer.engine.moves import MoveKind  # noqa: E402
from trainer.engine.variants import BASE  # noqa: E402
from trainer.estimates.posterior import Belief, mixture, p_holds  # noqa: E402
from trainer.estimates.rollouts import option_values  # noqa: E402
from trainer.policies.personas import personas  # noqa: E402

MODEL = {"honest": 1.0, "rule": 1.0, "bluffer": 1.0, "skeptic": 1.0}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    comps = mixture(MODEL)
    times: list[float] = []
    challenge_position: tuple[Game, Belief] | None = None
    for g in range(args.games):
        seats = [personas()[n] for n in ("rule", "bluffer", "honest", "skeptic")]
        game = Game.new(4, seed=args.seed + g)
        rngs = [random.Random(f"{g}:{i}") for i in range(4)]
        for p, r in zip(seats, rngs, strict=True):
            p.new_game(r)
        belief = Belief(0, comps, BASE.cards)
        while not game.is_over:
            p = game.decider
            move = seats[p].choose(game.observation(p), rngs[p])
            before = game.observation(0)
            belief.observe(before, move)
            if (p != 0 and move.kind is MoveKind.ACT and game.phase is Phase.ACTION
                    and game.variant.spec(move.action).claim is not None):
                claim = game.variant.spec(move.action).claim
                start = time.perf_counter()
                p_holds(before, belief, p, claim)
                times.append(time.perf_counter() - start)
            game.apply(move)
            if (challenge_position is None and not game.is_over and game.decider == 0
                    and game.phase is Phase.CHALLENGE_ACTION):
                challenge_position = (game.clone(), belief)
    median_ms = statistics.median(times) * 1000
    print(f"posterior: {len(times)} claims, median {median_ms:.2f} ms, "
          f"p90 {statistics.quantiles(times, n=10)[-1] * 1000:.2f} ms")
    assert challenge_position is not None, "no challenge decision for seat 0 was found"
    game, belief = challenge_position
    start = time.perf_counter()
    values, _ = option_values(game, 0, belief, comps, rollouts=args.rollouts // 2,
                              seed=args.seed)
    seconds = time.perf_counter() - start
    played = sum(v.n for v in values)
    print(f"rollouts: {played} games played out in {seconds:.2f} s")
    print(f"posterior_ms {median_ms:.2f} rollouts_s {seconds * 1000 / played:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
