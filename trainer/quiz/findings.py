"""What a learner's answers show, as counts and intervals a sentence can be built from.

Why apart from `scoring`: the scores there are for readers who know what a Brier score is; the
Calibration page leads with plain sentences instead ("you said 'likely a bluff' 12 times; 7
were bluffs"), and those need different numbers: counts a reader can check against their own
memory, the confident ends of the scale where over- or underconfidence shows, and whether the
difference from the bot is larger than luck. Every judgement here waits for `VERDICT_AT`
judged claims (the notes' 20–30 items), because on six answers a learner is "99% worse than
the base rate" by chance alone, and the page must not say so in words or colours.

Probabilities are P(the claim is a bluff), as everywhere in the quiz.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from trainer.quiz.scoring import VERDICT_AT as VERDICT_AT  # judged claims before a verdict
from trainer.quiz.scoring import Gap, brier_gap, judged

ZONE_MIN = 10  # answers at a confident end of the scale before it is judged on its own
HIGH, LOW = 0.70, 0.30  # the confident ends: 70% or more, 30% or less
CLEARLY = 0.15  # a gap of 15 points or more is "clearly", less is "a little"
Z95 = 1.96

Side = Literal["high", "low"]


@dataclass(frozen=True)
class Leaning:
    """How often a forecaster leaned each way, and how often the lean matched the cards.

    "Likely a bluff" is a stated chance above 50%, "likely honest" below; 50% leans neither
    way and is counted apart, so the two counts are what a learner remembers clicking.
    """

    said_bluff: int
    were_bluffs: int
    said_honest: int
    were_honest: int
    even: int


def leaning(p: np.ndarray, o: np.ndarray) -> Leaning:
    bluff, honest = p > 0.5, p < 0.5
    return Leaning(said_bluff=int(bluff.sum()), were_bluffs=int((bluff & (o == 1)).sum()),
                   said_honest=int(honest.sum()), were_honest=int((honest & (o == 0)).sum()),
                   even=int((p == 0.5).sum()))


@dataclass(frozen=True)
class Zone:
    """The answers at one confident end of the scale, where overconfidence shows first.

    `gap` is positive when the learner was surer than the cards bore out: at the high end,
    fewer bluffs than the chance they gave; at the low end, more. `noise` is how far the
    bluff rate would stray from the mean stated chance, 95% of the time, if those chances
    were exactly right: a gap within it is luck, not a lean.
    """

    side: Side
    n: int
    mean_said: float
    bluffs: int

    @property
    def rate(self) -> float:
        return self.bluffs / self.n

    @property
    def gap(self) -> float:
        d = self.mean_said - self.rate
        return d if self.side == "high" else -d

    @property
    def noise(self) -> float:
        return Z95 * math.sqrt(self.mean_said * (1 - self.mean_said) / self.n)

    @property
    def within_noise(self) -> bool:
        return abs(self.gap) <= self.noise


def zone(p: np.ndarray, o: np.ndarray, side: Side) -> Zone | None:
    """The answers of 70% or more (high) or 30% or less (low); None when there are none."""
    keep = p >= HIGH - 1e-9 if side == "high" else p <= LOW + 1e-9
    if not keep.any():
        return None
    return Zone(side=side, n=int(keep.sum()), mean_said=float(p[keep].mean()),
                bluffs=int((o[keep] == 1).sum()))


@dataclass(frozen=True)
class Findings:
    """Everything the page's opening sentences say, for one learner's answers.

    `bot` counts the bot's leanings on the claims it estimated (`n_vs_bot` of them), the same
    claims `gap` compares on, so "the bot on the same claims" is literally true.
    """

    n_scored: int
    you: Leaning
    zones: tuple[Zone, ...]
    n_vs_bot: int
    bot: Leaning | None
    gap: Gap | None
    verdict_at: int = VERDICT_AT

    @property
    def enough(self) -> bool:
        return self.n_scored >= self.verdict_at

    @property
    def enough_vs_bot(self) -> bool:
        return self.n_vs_bot >= self.verdict_at

    def judged_zones(self) -> tuple[Zone, ...]:
        """The confident ends with enough answers to be judged on their own."""
        return tuple(z for z in self.zones if z.n >= ZONE_MIN)


def findings(df: pd.DataFrame, verdict_at: int = VERDICT_AT) -> Findings:
    p, bot, o = judged(df)
    zones = tuple(z for side in ("high", "low") if (z := zone(p, o, side)) is not None)
    with_bot = ~np.isnan(bot)
    n_bot = int(with_bot.sum())
    return Findings(
        n_scored=int(p.size), you=leaning(p, o), zones=zones, n_vs_bot=n_bot,
        bot=leaning(bot[with_bot], o[with_bot]) if n_bot else None,
        gap=brier_gap(p[with_bot], bot[with_bot], o[with_bot]) if n_bot else None,
        verdict_at=verdict_at,
    )
