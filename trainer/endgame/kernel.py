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


def ends(v: np.ndarray, player: int, weights: bool, other: np.ndarray, start0: np.ndarray,
         start1: np.ndarray, space: np.ndarray, outcome: np.ndarray, n0: np.ndarray,
         n1: np.ndarray, chance_at: np.ndarray, chance: np.ndarray, hand0_at: np.ndarray,
         hand0: np.ndarray, hand1_at: np.ndarray, hand1: np.ndarray, labels: int,
         paired_at: np.ndarray, paired_chance: np.ndarray, paired_outcome: np.ndarray,
         shared: int = -1) -> None:
    """The values of every end of the tree for `player`, from the other player's figures
    (`other`: their reach), the ends laid out as `hidden._Ends` says. For player 0, state i
    of end e: v[start0[e] + i] = Σ_j c_ij · u_e(deal) · other[start1[e] + j]; for player 1,
    state j: Σ_i c_ij · (1 − u_e(deal)) · other[start0[e] + i], summed over i in order. c_ij
    is the pair's chance where the deal ends here (0 where it goes on past this end); with
    `weights`, every end is worth 1 (c_ij alone).

    The numpy code multiplies the same numbers in the same order (the chance by 1 or 0 where
    the deal ends or goes on, then by the outcome), so the two agree to the bit. A space of
    `shared` pairs of states or more (by default `SHARED_READ`) has its chances read once for
    all its ends, each end's sum still in the same order: the same bits."""
    mode = 2 if weights else player  # one loop per case (`_weigh` is inlined)
    shared = SHARED_READ if shared < 0 else shared
    if player == 0:
        _ends_first(v, mode, other, start0, start1, space, outcome, n0, n1, chance_at, chance,
                    hand0_at, hand0, hand1_at, hand1, labels, paired_at, paired_chance,
                    paired_outcome, shared)
    else:
        _ends_second(v, mode, other, start0, start1, space, outcome, n0, n1, chance_at,
                     chance, hand0_at, hand0, hand1_at, hand1, labels, paired_at,
                     paired_chance, paired_outcome, shared)


@_compiled
def _weigh(mode: int, c: float, u: float, live: float) -> float:
    """A pair's weight at an end: its chance where the deal ends there (`live` 1, else 0),
    times player 0's outcome (`mode` 0), player 1's (1) or nothing (2: every end worth 1).
    Times 1.0 is exact, so a chance already zero where the deal goes on passes `live` 1."""
    cl = c * live
    if mode == 2:
        return cl
    if mode == 0:
        return cl * u
    return cl * (1.0 - u)


@_compiled
def _deal_weights(w: np.ndarray, mode: int, outcome: np.ndarray, e: int) -> None:
    """End `e`'s weight by deal, before a pair's chance: `_weigh` with a chance of 1. A
    pair's chance times it is `_weigh` of that chance to the bit, since where the deal ends
    here (`live` 1) both are c · u, and where it goes on both are 0; so the inner loops read
    one number per pair from a table of 100 instead of two and a branch."""
    for d in range(w.shape[0]):
        w[d] = _weigh(mode, 1.0, outcome[e, d, 0], outcome[e, d, 1])


# A space of at least this many pairs of states has its chances read once for all its ends
# (a run of ends): its table no longer sits in the processor's cache (8 bytes a pair), so
# reading it once per end was most of a deep solve's time. Below it, one end at a time is
# quicker (three-turn solves of two cards against one took 5-10% more the other way).
SHARED_READ = 1 << 16


@_compiled
def _run_end(space: np.ndarray, e: int) -> int:
    """The end after the run of ends of `e`'s space (the ends come space by space)."""
    stop = e + 1
    while stop < space.shape[0] and space[stop] == space[e]:
        stop += 1
    return stop


@_compiled
def _run_sizes(space: np.ndarray, n1: np.ndarray) -> tuple[int, int]:
    """The longest run of ends of one space, and the most (ends of a run) × (player 1's
    states of its space): the loops' scratch sizes."""
    most = 1
    room = 1
    e = 0
    while e < space.shape[0]:
        stop = _run_end(space, e)
        most = max(most, stop - e)
        room = max(room, (stop - e) * n1[space[e]])
        e = stop
    return most, room


@_compiled
def _ends_first(v: np.ndarray, mode: int, other: np.ndarray, start0: np.ndarray,
                start1: np.ndarray, space: np.ndarray, outcome: np.ndarray, n0: np.ndarray,
                n1: np.ndarray, chance_at: np.ndarray, chance: np.ndarray,
                hand0_at: np.ndarray, hand0: np.ndarray, hand1_at: np.ndarray,
                hand1: np.ndarray, labels: int, paired_at: np.ndarray,
                paired_chance: np.ndarray, paired_outcome: np.ndarray, shared: int) -> None:
    most, _ = _run_sizes(space, n1)
    w = np.empty((most, outcome.shape[1]))
    totals = np.empty(most)
    e = 0
    while e < start0.shape[0]:
        stop = _run_end(space, e)
        g = space[e]
        width = n1[g]
        h1 = hand1_at[g]
        if paired_at[e] >= 0:
            for f in range(e, stop):
                at = paired_at[f]
                for i in range(n0[g]):
                    total = 0.0
                    for j in range(width):
                        k = at + i * width + j  # the pair's chance says whether it ends
                        total += _weigh(mode, paired_chance[k], paired_outcome[k], 1.0) * \
                            other[start1[f] + j]
                    v[start0[f] + i] = total
            e = stop
            continue
        if n0[g] * width < shared:
            for f in range(e, stop):
                _deal_weights(w[0], mode, outcome, f)
                for i in range(n0[g]):
                    row = chance_at[g] + i * width
                    base = hand0[hand0_at[g] + i] * labels
                    total = 0.0
                    for j in range(width):
                        total += chance[row + j] * w[0, base + hand1[h1 + j]] * \
                            other[start1[f] + j]
                    v[start0[f] + i] = total
            e = stop
            continue
        # a large space's chances are read once for all its ends; each end's sum over the
        # other's states still runs in order, so each is the sum it was alone
        n = stop - e
        for q in range(n):
            _deal_weights(w[q], mode, outcome, e + q)
        for i in range(n0[g]):
            row = chance_at[g] + i * width
            base = hand0[hand0_at[g] + i] * labels
            for q in range(n):
                totals[q] = 0.0
            for j in range(width):
                c = chance[row + j]
                d = base + hand1[h1 + j]
                for q in range(n):
                    totals[q] += c * w[q, d] * other[start1[e + q] + j]
            for q in range(n):
                v[start0[e + q] + i] = totals[q]
        e = stop


@_compiled
def _ends_second(v: np.ndarray, mode: int, other: np.ndarray, start0: np.ndarray,
                 start1: np.ndarray, space: np.ndarray, outcome: np.ndarray, n0: np.ndarray,
                 n1: np.ndarray, chance_at: np.ndarray, chance: np.ndarray,
                 hand0_at: np.ndarray, hand0: np.ndarray, hand1_at: np.ndarray,
                 hand1: np.ndarray, labels: int, paired_at: np.ndarray,
                 paired_chance: np.ndarray, paired_outcome: np.ndarray, shared: int) -> None:
    most, room = _run_sizes(space, n1)
    w = np.empty((most, outcome.shape[1]))
    acc = np.empty(room)  # end q of a run, state j: acc[q * width + j]
    r = np.empty(most)
    e = 0
    while e < start0.shape[0]:
        stop = _run_end(space, e)
        g = space[e]
        width = n1[g]
        h1 = hand1_at[g]
        if paired_at[e] >= 0:
            for f in range(e, stop):
                at = paired_at[f]
                for j in range(width):
                    acc[j] = 0.0
                for i in range(n0[g]):
                    rf = other[start0[f] + i]
                    for j in range(width):
                        k = at + i * width + j
                        acc[j] += _weigh(mode, paired_chance[k], paired_outcome[k], 1.0) * rf
                for j in range(width):
                    v[start1[f] + j] = acc[j]
            e = stop
            continue
        if n0[g] * width < shared:
            for f in range(e, stop):
                _deal_weights(w[0], mode, outcome, f)
                for j in range(width):
                    acc[j] = 0.0
                for i in range(n0[g]):
                    rf = other[start0[f] + i]
                    row = chance_at[g] + i * width
                    base = hand0[hand0_at[g] + i] * labels
                    for j in range(width):
                        acc[j] += chance[row + j] * w[0, base + hand1[h1 + j]] * rf
                for j in range(width):
                    v[start1[f] + j] = acc[j]
            e = stop
            continue
        n = stop - e
        for q in range(n):
            _deal_weights(w[q], mode, outcome, e + q)
        for k in range(n * width):
            acc[k] = 0.0
        for i in range(n0[g]):
            row = chance_at[g] + i * width
            base = hand0[hand0_at[g] + i] * labels
            for q in range(n):
                r[q] = other[start0[e + q] + i]
            for j in range(width):
                c = chance[row + j]
                d = base + hand1[h1 + j]
                for q in range(n):
                    acc[q * width + j] += c * w[q, d] * r[q]
        for q in range(n):
            for j in range(width):
                v[start1[e + q] + j] = acc[q * width + j]
        e = stop


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
