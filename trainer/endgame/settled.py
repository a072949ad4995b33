"""When a hidden-role end-game's figures are *settled*: the one definition every table, page and
puzzle reads.

Why a definition at all: the hidden-role solver looks a fixed number of turns ahead and values
the positions it stops at as if both cards were face up. Its exploitability says how well it
solved that cut-off game, not how far the cut-off game is from the real one. The honest test
is to solve again with a shorter look-ahead and see whether anything a player would act on
moves. A position is settled when, between the last two horizons solved,

- its value (player 0's chance of winning over the deal) moves by at most `TOLERANCE`, and
- for every card the player to act may hold, the option best at the shorter horizon is still
  best at the longer one, or within `TOLERANCE` of the new best.

`TOLERANCE` is a tenth of a point of win probability. Where a position is not settled, nobody
knows which horizon is right, so a page shows each figure as the range over the horizons
solved and grades only differences larger than that range (`Ranges`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

TOLERANCE = 0.001  # a tenth of a point of win probability


@dataclass(frozen=True)
class Comparison:
    """Two horizons of one position compared."""

    moved: float  # value at the longer horizon minus value at the shorter
    swapped: tuple[int, ...]  # rows (cards) whose best option changed by more than TOLERANCE

    @property
    def settled(self) -> bool:
        return abs(self.moved) <= TOLERANCE and not self.swapped


def compare(value_prev: float, value_last: float, options_prev: np.ndarray,
            options_last: np.ndarray) -> Comparison:
    """`options_*[card, option]`: the option values of each card at each horizon (NaN where
    a card cannot be held or an option is not there)."""
    prev = np.asarray(options_prev, dtype=float)
    last = np.asarray(options_last, dtype=float)
    swapped = []
    for row in range(prev.shape[0]):
        p, q = prev[row], last[row]
        if np.isnan(p).all() or np.isnan(q).all():
            continue
        was = int(np.nanargmax(p))
        best = float(np.nanmax(q))
        if np.isnan(q[was]) or best - float(q[was]) > TOLERANCE:
            swapped.append(row)
    return Comparison(float(value_last - value_prev), tuple(swapped))


def best_changes(before: Sequence[float], after: Sequence[float]) -> int | None:
    """One card's options at the shorter and at the longer horizon (the same order): the
    index of the option best at the shorter one when it falls more than `TOLERANCE` below
    the longer one's best, else None (the look-aheads agree on the best move)."""
    if not before or len(before) != len(after):
        return None
    was = max(range(len(before)), key=lambda k: before[k])
    return was if after[was] < max(after) - TOLERANCE else None


@dataclass(frozen=True)
class Band:
    """A figure known only as a range: the lowest and highest over the horizons solved (the
    same number twice when settled)."""

    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low


def band(*values: float) -> Band:
    """The range of a figure over the horizons solved."""
    return Band(min(values), max(values))
