"""The hidden-role solver's inner loops, compiled with numba when it is installed.

Why: one iteration of a four-turn duel walks some 250,000 links of the tree four times
(each player's reach down, each player's values up). numpy does each level of the tree as a few
vectorised calls, and with seventeen levels and a dozen calls each the cost per iteration is
mostly numpy's cost per call and its temporary arrays (~19 ms an iteration on this machine).
The same walk as one compiled loop per pass costs a few milliseconds
(`python bench/endgame.py --kernels`).

The loops add in exactly the order of the numpy code they replace (level by level, and within a
level in the links' order, as `np.bincount` does), so both give the same strategies to the last
bit or nearly so; tests/test_endgame_kernel.py compares them. Without numba (an optional
dependency, the `fast` extra) `available()` is false and the solver keeps its numpy code, which
gives the same answers more slowly. COUP_TRAINER_NO_NUMBA=1 turns the compiled loops off (to
compare, or where numba's compiler misbehaves).

The first call in a process compiles the loops (about ten seconds); `cache=True` keeps the
machine code beside this file, where the directory is writable, for the next process.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np

try:  # pragma: no cover - which branch runs depends on the installation
    import numba

    def _compiled(f: Callable[..., Any]) -> Callable[..., Any]:
        jitted: Callable[..., Any] = numba.njit(cache=True, nogil=True)(f)
        return jitted

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False

    def _compiled(f: Callable[..., Any]) -> Callable[..., Any]:
        return f

OFF_ENV = "COUP_TRAINER_NO_NUMBA"


def available() -> bool:
    """Whether the solver uses the compiled loops: numba is installed and not turned off."""
    return HAVE_NUMBA and os.environ.get(OFF_ENV) != "1"


@_compiled
def reach_down(r: np.ndarray, sigma: np.ndarray, dst: np.ndarray, src: np.ndarray,
               sig: np.ndarray, coef: np.ndarray) -> None:
    """Each row's reach from its parent's, the links in level order (a parent's reach is
    final before its children read it). `r` holds the root rows' reach and zeros elsewhere;
    a link with no slot of the player (`sig` < 0) passes the reach on unchanged."""
    for k in range(dst.shape[0]):
        s = sig[k]
        w = sigma[s] if s >= 0 else 1.0
        r[dst[k]] += r[src[k]] * w * coef[k]


@_compiled
def values_up(v: np.ndarray, sigma: np.ndarray, dst: np.ndarray, src: np.ndarray,
              sig: np.ndarray, coef: np.ndarray, level_ptr: np.ndarray) -> None:
    """Each row's value from its children's, the deepest level first (within a level, the
    links in order). `v` holds the ends' values and zeros elsewhere."""
    for lv in range(level_ptr.shape[0] - 2, -1, -1):
        for k in range(level_ptr[lv], level_ptr[lv + 1]):
            s = sig[k]
            w = sigma[s] if s >= 0 else 1.0
            v[src[k]] += v[dst[k]] * w * coef[k]


@_compiled
def best_up(v: np.ndarray, dst: np.ndarray, src: np.ndarray, sig: np.ndarray,
            coef: np.ndarray, level_ptr: np.ndarray, slot_info: np.ndarray,
            info_row: np.ndarray) -> None:
    """As `values_up`, but the player takes their best slot at each of their information
    sets (a best response): an information set's row gets the largest of its slots'
    values."""
    n_infos = info_row.shape[0]
    top = np.full(n_infos, -np.inf)
    added = np.zeros(n_infos, dtype=np.bool_)
    for lv in range(level_ptr.shape[0] - 2, -1, -1):
        lo, hi = level_ptr[lv], level_ptr[lv + 1]
        for k in range(lo, hi):
            s = sig[k]
            if s >= 0:
                q = v[dst[k]] * coef[k]
                i = slot_info[s]
                if q > top[i]:
                    top[i] = q
        for k in range(lo, hi):
            s = sig[k]
            if s >= 0:
                i = slot_info[s]
                if not added[i]:
                    v[info_row[i]] += top[i]
                    added[i] = True
            else:
                v[src[k]] += v[dst[k]]


@_compiled
def ends(v: np.ndarray, rows: np.ndarray, u: np.ndarray, c: np.ndarray, weights: bool,
         other: np.ndarray, other_rows: np.ndarray) -> None:
    """The ends' values of one group of utility nodes for player 0:
    v[rows[n, i]] = Σ_j c[n, i, j] · u[n, i, j] · other[other_rows[n, j]], i this player's
    card and j the other's, `c` the chance of the pair and `u` player 0's outcome (with
    `weights`, every end is worth 1: `c` alone). The weights are worked out here, as the
    numpy code works them out once (the same products, so the same bits): a deep solve's
    weight tables, one per player and kept beside their transposes, were half its memory."""
    width = other_rows.shape[1]
    theirs = np.empty(width)  # the other player's figures at this node, fetched once
    for n in range(rows.shape[0]):
        for j in range(width):
            theirs[j] = other[other_rows[n, j]]
        for i in range(rows.shape[1]):
            total = 0.0
            for j in range(width):
                w = c[n, i, j] if weights else c[n, i, j] * u[n, i, j]
                total += w * theirs[j]
            v[rows[n, i]] = total


@_compiled
def ends_other(v: np.ndarray, rows: np.ndarray, u: np.ndarray, c: np.ndarray, weights: bool,
               other: np.ndarray, other_rows: np.ndarray) -> None:
    """`ends` for player 1: v[rows[n, j]] = Σ_i c[n, i, j] · (1 − u[n, i, j]) ·
    other[other_rows[n, i]], summed over i in order; the tables are read in memory order
    (player 1's card is their last axis), so no transposed copy is needed."""
    width = rows.shape[1]
    acc = np.empty(width)
    for n in range(rows.shape[0]):
        for j in range(width):
            acc[j] = 0.0
        for i in range(other_rows.shape[1]):
            r = other[other_rows[n, i]]
            for j in range(width):
                w = c[n, i, j] if weights else c[n, i, j] * (1.0 - u[n, i, j])
                acc[j] += w * r
        for j in range(width):
            v[rows[n, j]] = acc[j]


@_compiled
def regret_step(regret: np.ndarray, average: np.ndarray, sigma: np.ndarray, v: np.ndarray,
                reach: np.ndarray, slot_child: np.ndarray, slot_coef: np.ndarray,
                info_start: np.ndarray, info_row: np.ndarray, uniform: np.ndarray,
                grow: float, shrink: float, keep: float, scratch: np.ndarray) -> None:
    """One player's update of discounted CFR in place (`hidden.discounts` gives the
    factors): regrets, positive ones times `grow` and negative ones times `shrink`; the
    average strategy, its past times `keep`; and the next strategy by regret matching.
    `scratch` holds one information set's slot values (as long as the widest set), so each
    child's value is fetched from the tree once."""
    n_infos = info_start.shape[0]
    n_slots = regret.shape[0]
    for i in range(n_infos):
        s0 = info_start[i]
        s1 = info_start[i + 1] if i + 1 < n_infos else n_slots
        value = 0.0
        for s in range(s0, s1):
            q = v[slot_child[s]] * slot_coef[s]
            scratch[s - s0] = q
            value += q * sigma[s]
        own = reach[info_row[i]]
        positive = 0.0
        for s in range(s0, s1):
            q = scratch[s - s0]
            r = regret[s] + q - value
            regret[s] = r * grow if r > 0.0 else r * shrink
            average[s] = average[s] * keep + own * sigma[s]
            if regret[s] > 0.0:
                positive += regret[s]
        for s in range(s0, s1):
            x = regret[s] if regret[s] > 0.0 else 0.0
            sigma[s] = x / positive if positive > 0.0 else uniform[s]
