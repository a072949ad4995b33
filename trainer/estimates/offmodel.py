"""The claim estimates measured against players the behaviour model does not describe.

Why: the posterior's Brier score is measured on games of the very persona mixture it assumes,
which is the best case. A learner faces people; the strangers of `trainer.policies.offmodel`
stand in for them. The harvest is the calibration harvest (`calibration.harvest`) with another
table: the observer in seat 0 is a persona drawn from the model, as in the in-sample games,
and every other seat is the stranger, whose claims are the ones recorded.

The scores are of the chance a claim is a *bluff* (the question the quiz asks): Brier, the
log score on the quiz's scale (100 · (1 + log2 p(outcome)), p clamped to 1–99%: 0 for always
saying 50%, 100 for certainty that came true, about −564 for a clamped confident miss), a
reliability table, and confident misses: a forecast of at most 2% or at least 98% that the
cards proved wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from trainer.estimates.calibration import (
    MODEL,
    Seat,
    Seating,
    claims_frame,
    harvest,
)
from trainer.policies.offmodel import strangers
from trainer.policies.personas import personas

LOG_CLAMP = (0.01, 0.99)
# A forecast this close to 0 or 1 claims near-certainty.
CONFIDENT = 0.02


def stranger_seating(name: str, model: dict[str, float] | None = None) -> Seating:
    """The observer (seat 0) a persona drawn from the model, every other seat the stranger
    `name`, whose claims alone are recorded."""
    model = model or MODEL
    names = list(model)

    def seat(rng: random.Random, players: int) -> tuple[Sequence[Seat], frozenset[int]]:
        observer = personas()[rng.choices(names, weights=list(model.values()))[0]]
        seats: list[Seat] = [observer]
        seats += [strangers()[name] for _ in range(1, players)]
        return seats, frozenset(range(1, players))

    return seat


MIXED = "mixed"


def mixed_seating(model: dict[str, float] | None = None) -> Seating:
    """The observer (seat 0) a persona drawn from the model; every other seat a player drawn
    alike from the strangers and the model's personas, each game afresh. Why: a real table
    holds different kinds of players at once, and what one player's moves say about the
    table (the model's shared prior over kinds) must not mislead it about the others."""
    model = model or MODEL
    names = list(model)

    def seat(rng: random.Random, players: int) -> tuple[Sequence[Seat], frozenset[int]]:
        observer = personas()[rng.choices(names, weights=list(model.values()))[0]]
        kinds = sorted(strangers()) + names
        seats: list[Seat] = [observer]
        for _ in range(1, players):
            kind = rng.choice(kinds)
            seats.append(strangers()[kind] if kind in strangers() else personas()[kind])
        return seats, frozenset(range(1, players))

    return seat


def seating_for(policy: str) -> Seating:
    """The table of `policy`: a stranger's name (every seat but the observer's that player)
    or `MIXED`."""
    if policy == MIXED:
        return mixed_seating()
    if policy not in strangers():
        raise ValueError(f"no table {policy!r}; expected {MIXED!r} or one of "
                         f"{', '.join(sorted(strangers()))}")
    return stranger_seating(policy)


def harvest_frame(claims: int, *, policy: str | None = None, players: Sequence[int] = (3, 4),
                  seed: int = 0, progress: Callable[[int], object] | None = None,
                  uninformed: float | None = None) -> pd.DataFrame:
    """`claims` claims split evenly over the player counts, with `p_bluff` and `bluff`
    columns for the posterior (`post_bluff`) and counting (`count_bluff`); `policy` None is
    the in-sample table of personas drawn from the model, otherwise a table of
    `seating_for`; `uninformed` as in `calibration.harvest`."""
    frames = []
    for i, n in enumerate(players):
        share = claims // len(players) + (1 if i < claims % len(players) else 0)
        seating = None if policy is None else seating_for(policy)
        frames.append(claims_frame(harvest(share, players=n, seed=seed, progress=progress,
                                           seating=seating, uninformed=uninformed)))
    frame = pd.concat(frames, ignore_index=True)
    frame["bluff"] = ~frame["honest"].astype(bool)
    frame["post_bluff"] = 1 - frame["posterior"]
    frame["count_bluff"] = 1 - frame["prior"]
    return frame


def _arrays(p: Sequence[float] | np.ndarray | pd.Series,
            bluff: Sequence[bool] | np.ndarray | pd.Series) -> tuple[np.ndarray, np.ndarray]:
    pa = np.asarray(p, dtype=float)
    oa = np.asarray(bluff, dtype=float)
    if pa.shape != oa.shape or pa.size == 0:
        raise ValueError(f"{pa.size} forecasts and {oa.size} outcomes: nothing to score")
    return pa, oa


def brier(p: Sequence[float] | np.ndarray | pd.Series,
          bluff: Sequence[bool] | np.ndarray | pd.Series) -> float:
    pa, oa = _arrays(p, bluff)
    return float(np.mean((pa - oa) ** 2))


def log_score(p: Sequence[float] | np.ndarray | pd.Series,
              bluff: Sequence[bool] | np.ndarray | pd.Series) -> float:
    """The quiz's scale, so a bot's figure here reads like a learner's on the Calibration
    page; the clamp keeps one miss from being minus infinity."""
    pa, oa = _arrays(p, bluff)
    pa = np.clip(pa, *LOG_CLAMP)
    right = np.where(oa == 1, pa, 1 - pa)
    return float(np.mean(100 * (1 + np.log2(right))))


def confident_misses(p: Sequence[float] | np.ndarray | pd.Series,
                     bluff: Sequence[bool] | np.ndarray | pd.Series) -> tuple[int, int]:
    """(confident forecasts, of which wrong): a near-certain estimate the cards contradict
    is what teaches a learner the wrong lesson, whatever the average score."""
    pa, oa = _arrays(p, bluff)
    low, high = pa <= CONFIDENT, pa >= 1 - CONFIDENT
    wrong = (low & (oa == 1)) | (high & (oa == 0))
    return int((low | high).sum()), int(wrong.sum())


def reliability(p: Sequence[float] | np.ndarray | pd.Series,
                bluff: Sequence[bool] | np.ndarray | pd.Series, bins: int = 10
                ) -> pd.DataFrame:
    """Per non-empty bin of the forecast [k/bins, (k+1)/bins) (the last takes 1): n, mean
    forecast, observed bluff rate."""
    pa, oa = _arrays(p, bluff)
    index = np.clip(np.floor(pa * bins + 1e-9).astype(int), 0, bins - 1)
    g = pd.DataFrame({"bin": index, "p": pa, "o": oa}).groupby("bin", sort=True)
    table = pd.DataFrame({"n": g.size(), "forecast": g["p"].mean(), "observed": g["o"].mean()})
    table.index = [f"{k * 100 // bins}-{(k + 1) * 100 // bins}%" for k in table.index]
    return table


@dataclass(frozen=True)
class Scores:
    n: int
    bluff_rate: float
    brier: float
    log_score: float
    confident: int
    misses: int

    @property
    def miss_share(self) -> float:
        return self.misses / self.n


def scores(p: Sequence[float] | np.ndarray | pd.Series,
           bluff: Sequence[bool] | np.ndarray | pd.Series) -> Scores:
    pa, oa = _arrays(p, bluff)
    confident, misses = confident_misses(pa, oa)
    return Scores(int(pa.size), float(oa.mean()), brier(pa, oa), log_score(pa, oa), confident,
                  misses)
