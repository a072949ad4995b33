"""The hidden-role table of two cards against one, base game: every position solved ahead, in the
package.

Why a table: a duel of two cards against one takes a second or two of CPU to solve the two
look-aheads a page compares (`SHORTER` and `HORIZON` turns), and several seconds on a busy
machine; a page reads a stored one in milliseconds, and a table says in one place how many of
these duels the look-aheads agree on (the settled share).

Which positions: player 0 holds two face-down cards, player 1 one, having lost `lost` (face up):
5 lost cards × coins 0..12 each × either to act, 1,690 positions. (Player 0 acting with 7 coins
or more wins by a coup, which the table says like any other best move.)

What is kept per position, in the solver's frame (player 0 the two-card player): each
player's chance of winning with each hand at both look-aheads, player 0's value over the deal,
and for each hand of the player to act, every option (in the root's move order) with its win
chance at both look-aheads, its equilibrium frequency and its win chance against each hand of
the other player; the exploitability, the iterations, the tree's size and whether the position
is settled between the look-aheads (`trainer.endgame.settled`).

Why a deeper check (`check_deeper`): one turn ahead is often too short a look (with 7 coins or
more a Coup next turn counts as certain at the cut, so Income ties with it), so each duel the
two look-aheads disagree on is solved `CHECK` turns ahead as well, and from then on its last
two look-aheads are `HORIZON` and `CHECK`: whether it is settled, how far it moved and the
other end of its ranges are theirs (`check_horizon` says which look-ahead a duel was compared
with, and `*_h3` keeps its figures there).

Why resumable jobs on Ray: one job per lost card, player to act and that player's coins
(`solve_slice`, 13 positions each); each finished job is saved at once beside the table file,
so an interrupted build goes on where it stopped, and a Ray cluster splits the 100 jobs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from trainer.endgame import hidden_two, settled
from trainer.endgame.hidden import DECISION
from trainer.endgame.known import MAX_COINS
from trainer.endgame.public_two import Label, two_card_graph
from trainer.endgame.tables import (
    Built,
    Deepest,
    _save,
    build_record,
    drop_parts,
    packaged,
    parts_dir,
    run_parts,
    spread,
    still_moving,
)
from trainer.engine.cards import Character
from trainer.engine.moves import Move
from trainer.engine.variants import get_variant

HORIZON = 2  # turns looked ahead, as the End-game page solves a new position
SHORTER = 1  # the look-ahead it is checked against
TARGET = 1e-4  # exploitability of every stored solve: a tenth of `settled.TOLERANCE`
ITERATIONS = 20_000  # a cap: 200 iterations reach TARGET in the bench's sample
OPTIONS = 7  # income, foreign aid, coup, tax, assassinate, steal, exchange at most
HANDS = 15  # player 0's two-card hands; player 1 holds one of the 5 characters
DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "hidden2-base.npz"
# Exchanges after which a line is cut (as `hidden_two.solve`'s `exchanges`); 0: none, every
# solve of the table follows every Exchange (`hidden_two`'s docstring says why). A file built
# before cut every line at the turn after its first Exchange: it says 1, or nothing.
EXCHANGE_CUT = 0


def exchange_cut(z: dict[str, np.ndarray]) -> int:
    """The Exchanges after which the table's solves cut a line (0: none)."""
    return int(z.get("exchange_cut", 1))


def _same_solves(z: dict[str, np.ndarray], out: Path) -> None:
    """A pass deepens a table only with solves like its own: one built cutting lines at an
    Exchange is built again first (its look-aheads would not compare)."""
    if exchange_cut(z) != EXCHANGE_CUT:
        raise ValueError(f"{out} was built cutting every line at its first Exchange; build it "
                         "again before checking it deeper")


def positions(variant: str = "base") -> int:
    """How many positions the table holds."""
    return len(get_variant(variant).characters) * 2 * (MAX_COINS + 1) ** 2


def _empty() -> dict[str, np.ndarray]:
    m = MAX_COINS + 1
    nan = np.nan
    return {
        "win0": np.full((m, HANDS), nan), "win0_prev": np.full((m, HANDS), nan),
        "win1": np.full((m, 5), nan), "win1_prev": np.full((m, 5), nan),
        "value": np.full(m, nan), "value_prev": np.full(m, nan),
        "option_move": np.full((m, OPTIONS), "", dtype="U40"),
        "option_value": np.full((m, HANDS, OPTIONS), nan),
        "option_value_prev": np.full((m, HANDS, OPTIONS), nan),
        "option_freq": np.full((m, HANDS, OPTIONS), nan),
        "option_against": np.full((m, HANDS, OPTIONS, HANDS), nan),
        "exploitability": np.full(m, nan), "exploitability_prev": np.full(m, nan),
        "iterations": np.zeros(m, dtype=np.int32), "tree_nodes": np.zeros(m, dtype=np.int32),
        "cut_nodes": np.zeros(m, dtype=np.int32),
        "moved": np.full(m, nan), "swapped": np.zeros(m, dtype=np.int8),
        "settled": np.zeros(m, dtype=np.int8), "cpu_seconds": np.full(m, nan),
    }


def solve_slice(job: tuple[str, int, int, str]) -> dict[str, np.ndarray]:
    """One lost card, player to act and that player's coins: every coin count of the other
    player, each solved `SHORTER` and `HORIZON` turns ahead to `TARGET` and compared
    (`hidden_two.settledness`). Module-level so Ray can send it."""
    lost_name, first, mover_coins, variant = job
    lost = Character(lost_name)
    graph = two_card_graph(lost, variant)
    out = _empty()
    for other in range(MAX_COINS + 1):
        coins = (mover_coins, other) if first == 0 else (other, mover_coins)
        start = time.process_time()
        prev, last = (hidden_two.solve(lost, coins, first, horizon=h, variant=variant,
                                       target=TARGET, iterations=ITERATIONS)
                      for h in (SHORTER, HORIZON))
        out["cpu_seconds"][other] = time.process_time() - start
        for s, suffix in ((prev, "_prev"), (last, "")):
            out["value" + suffix][other] = s.value
            out["exploitability" + suffix][other] = s.exploitability
            for p in (0, 1):
                for hand, v in s.win_chances(p).items():
                    out[f"win{p}{suffix}"][other, graph.label(p, hand)] = v
        out["iterations"][other] = last.iterations
        out["tree_nodes"][other] = last.tree_nodes
        out["cut_nodes"][other] = last.cut_nodes
        compared = hidden_two.settledness(last, prev)
        out["moved"][other] = compared.moved
        out["swapped"][other] = len(compared.swapped)
        out["settled"][other] = compared.settled
        if last.tree.kind[0] != DECISION:
            continue
        moves = [str(m) for m in last.tree.moves[0]]
        out["option_move"][other, :len(moves)] = moves
        p = last.mover
        for hand in last.hands(p):
            k = graph.label(p, hand)
            before = {str(o.move): o.value for o in prev.options(hand)}
            for o in last.options(hand):
                j = moves.index(str(o.move))
                out["option_value"][other, k, j] = o.value
                out["option_value_prev"][other, k, j] = before.get(str(o.move), np.nan)
                out["option_freq"][other, k, j] = o.frequency
                for them, v in o.against.items():
                    out["option_against"][other, k, j, graph.label(1 - p, them)] = v
    return out


CHECK = HORIZON + 1  # the deeper look-ahead an unsettled duel is checked against

CheckJob = tuple[str, int, int, str, tuple[int, ...], tuple[tuple[str, ...], ...],
                 np.ndarray, np.ndarray]


def check_slice(job: CheckJob) -> dict[str, np.ndarray]:
    """One lost card, player to act and that player's coins: each listed coin count of the
    other player (the duels not settled between `SHORTER` and `HORIZON`) solved `CHECK` turns
    ahead and compared with the stored `HORIZON` figures (`values[k]`, player 0's value over
    the deal; `options[k]`, the mover's option values per hand in `moves[k]`'s order).
    Module-level so Ray can send it."""
    lost_name, first, mover_coins, variant, others, moves_of, values, options = job
    lost = Character(lost_name)
    graph = two_card_graph(lost, variant)
    m = MAX_COINS + 1
    out = {
        "value_h3": np.full(m, np.nan), "win0_h3": np.full((m, HANDS), np.nan),
        "win1_h3": np.full((m, 5), np.nan),
        "option_value_h3": np.full((m, HANDS, OPTIONS), np.nan),
        "exploitability_h3": np.full(m, np.nan), "settled_h3": np.zeros(m, dtype=np.int8),
        "swapped_h3": np.zeros(m, dtype=np.int8), "cpu_seconds_h3": np.full(m, np.nan),
    }
    for at, other in enumerate(others):
        coins = (mover_coins, other) if first == 0 else (other, mover_coins)
        start = time.process_time()
        deep = hidden_two.solve(lost, coins, first, horizon=CHECK, variant=variant,
                                target=TARGET, iterations=ITERATIONS)
        out["cpu_seconds_h3"][other] = time.process_time() - start
        out["value_h3"][other] = deep.value
        out["exploitability_h3"][other] = deep.exploitability
        for p in (0, 1):
            for hand, v in deep.win_chances(p).items():
                out[f"win{p}_h3"][other, graph.label(p, hand)] = v
        moves = list(moves_of[at])
        if deep.tree.kind[0] == DECISION:
            for hand in deep.hands(first):
                k = graph.label(first, hand)
                for o in deep.options(hand):
                    out["option_value_h3"][other, k, moves.index(str(o.move))] = o.value
        compared = settled.compare(float(values[at]), deep.value, options[at],
                                   out["option_value_h3"][other])
        out["settled_h3"][other] = compared.settled
        out["swapped_h3"][other] = len(compared.swapped)
    return out


def _check_jobs(z: dict[str, np.ndarray], variant: str
                ) -> dict[tuple[str, int, int], CheckJob]:
    """One job per lost card, player to act and coins that has a duel not settled between
    `SHORTER` and `HORIZON` and not yet checked deeper."""
    checked = z.get("check_horizon", np.full(z["settled"].shape, SHORTER, dtype=np.int8))
    jobs: dict[tuple[str, int, int], CheckJob] = {}
    for i, name in enumerate(str(c) for c in z["lost"]):
        for first in (0, 1):
            for a in range(z["settled"].shape[2]):
                bs = tuple(int(b) for b in np.flatnonzero(
                    (z["settled"][i, first, a] == 0) & (checked[i, first, a] == SHORTER)))
                if not bs:
                    continue
                moves = tuple(tuple(str(t) for t in z["option_move"][i, first, a, b] if str(t))
                              for b in bs)
                jobs[(name, first, a)] = (
                    name, first, a, variant, bs, moves,
                    np.asarray(z["value"][i, first, a, list(bs)], dtype=float),
                    np.asarray(z["option_value"][i, first, a, list(bs)], dtype=float))
    return jobs


@dataclass(frozen=True)
class Checked:
    path: Path
    checked: int  # duels not settled before, solved CHECK turns ahead
    settled: int  # of those, settled between HORIZON and CHECK
    seconds: float
    resumed: int


def check_deeper(out: Path = DEFAULT_OUT, *, variant: str = "base", executor: str = "auto",
                 processes: int = 1, address: str | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Checked:
    """Solve every stored duel not settled between `SHORTER` and `HORIZON` turns ahead once
    more, `CHECK` turns ahead, one resumable job per lost card, player to act and coins; then
    the last two horizons solved for it are `HORIZON` and `CHECK`: `check_horizon` says so,
    `settled` is their comparison, `moved` and `swapped` theirs, and the `*_h3` figures are
    what a page shows as the other end of a range. Why: one turn ahead is often too short a
    look (with 7 coins or more a Coup next turn counts as certain, so Income ties with it)."""
    start = time.perf_counter()
    with np.load(out, allow_pickle=False) as f:
        z = {k: f[k] for k in f.files}
    _same_solves(z, out)
    jobs = _check_jobs(z, variant)
    parts = parts_dir(out)
    parts.mkdir(parents=True, exist_ok=True)

    def part(key: tuple[str, int, int]) -> Path:
        return parts / f"check-{key[0]}-{key[1]}-{key[2]}-h{CHECK}-x{EXCHANGE_CUT}.npz"

    done, resumed = run_parts(check_slice, list(jobs), jobs.__getitem__, part,
                              executor=executor, processes=processes, address=address,
                              progress=progress)
    shape = z["settled"].shape
    fresh = {
        "check_horizon": z.get("check_horizon", np.full(shape, SHORTER, dtype=np.int8)).copy(),
        "value_h3": z.get("value_h3", np.full(shape, np.nan, dtype=np.float32)).copy(),
        "win0_h3": z.get("win0_h3", np.full((*shape, HANDS), np.nan, dtype=np.float32)).copy(),
        "win1_h3": z.get("win1_h3", np.full((*shape, 5), np.nan, dtype=np.float32)).copy(),
        "option_value_h3": z.get("option_value_h3", np.full(
            (*shape, HANDS, OPTIONS), np.nan, dtype=np.float32)).copy(),
        "exploitability_h3": z.get("exploitability_h3",
                                   np.full(shape, np.nan, dtype=np.float32)).copy(),
        "cpu_seconds_h3": z.get("cpu_seconds_h3",
                                np.full(shape, np.nan, dtype=np.float32)).copy(),
    }
    settled_now, moved, swapped = z["settled"].copy(), z["moved"].copy(), z["swapped"].copy()
    names = [str(c) for c in z["lost"]]
    checked = newly = 0
    for (name, first, a), result in done.items():
        i = names.index(name)
        for b in jobs[(name, first, a)][4]:
            at = (i, first, a, b)
            checked += 1
            for array in ("value_h3", "win0_h3", "win1_h3", "option_value_h3",
                          "exploitability_h3", "cpu_seconds_h3"):
                fresh[array][at] = result[array][b]
            fresh["check_horizon"][at] = CHECK
            moved[at] = result["value_h3"][b] - z["value"][at]
            swapped[at] = result["swapped_h3"][b]
            if result["settled_h3"][b]:
                settled_now[at] = 1
                newly += 1
    seconds = time.perf_counter() - start
    _save(out, **{**z, **fresh, "settled": settled_now, "moved": moved, "swapped": swapped,
                  "check_seconds": np.array(seconds), "check_processes": np.array(processes),
                  "check_resumed": np.array(resumed)})
    drop_parts(jobs, part, parts)
    _stored.cache_clear()
    return Checked(out, checked, newly, seconds, resumed)


DEEPEST = CHECK + 1  # the look-ahead a duel still moving between HORIZON and CHECK gets
# the figures a duel solved `DEEPEST` turns ahead keeps, as `<name>_h4`
DEEPEST_ARRAYS = ("value", "exploitability", "iterations", "tree_nodes", "cut_nodes", "win0",
                  "win1", "option_value", "option_freq", "option_against", "cpu_seconds")
DeepestJob = tuple[str, int, int, int, str, tuple[str, ...], float, np.ndarray]


def deepest_slice(job: DeepestJob) -> dict[str, np.ndarray]:
    """One duel still moving between `HORIZON` and `CHECK`, solved `DEEPEST` turns ahead
    with every figure the page shows (they become the duel's own figures, `CHECK` the
    look-ahead it is compared with: `value_h3`, the mover's `options_h3` per hand in
    `moves`' order). Module-level so Ray can send it."""
    lost_name, first, a, b, variant, moves, value_h3, options_h3 = job
    lost = Character(lost_name)
    graph = two_card_graph(lost, variant)
    coins = (a, b) if first == 0 else (b, a)
    start = time.process_time()
    s = hidden_two.solve(lost, coins, first, horizon=DEEPEST, variant=variant, target=TARGET,
                         iterations=ITERATIONS)
    out = {"value": np.array(s.value), "exploitability": np.array(s.exploitability),
           "iterations": np.array(s.iterations), "tree_nodes": np.array(s.tree_nodes),
           "cut_nodes": np.array(s.cut_nodes),
           "cpu_seconds": np.array(time.process_time() - start),
           "win0": np.full(HANDS, np.nan), "win1": np.full(5, np.nan),
           "option_value": np.full((HANDS, OPTIONS), np.nan),
           "option_freq": np.full((HANDS, OPTIONS), np.nan),
           "option_against": np.full((HANDS, OPTIONS, HANDS), np.nan)}
    for p in (0, 1):
        for hand, v in s.win_chances(p).items():
            out[f"win{p}"][graph.label(p, hand)] = v
    if s.tree.kind[0] == DECISION:
        p = s.mover
        for hand in s.hands(p):
            k = graph.label(p, hand)
            for o in s.options(hand):
                j = list(moves).index(str(o.move))
                out["option_value"][k, j] = o.value
                out["option_freq"][k, j] = o.frequency
                for them, v in o.against.items():
                    out["option_against"][k, j, graph.label(1 - p, them)] = v
    compared = settled.compare(value_h3, s.value, options_h3, out["option_value"])
    out["moved"] = np.array(compared.moved)
    out["swapped"] = np.array(len(compared.swapped), dtype=np.int8)
    out["settled"] = np.array(compared.settled, dtype=np.int8)
    return out


def _still_moving(z: dict[str, np.ndarray]) -> np.ndarray:
    """Duels compared at `HORIZON` and `CHECK` and not settled there, not yet solved
    `DEEPEST` turns ahead."""
    return still_moving(z, CHECK, "_h4")


def deepest(out: Path = DEFAULT_OUT, *, variant: str = "base", limit: int | None = None,
            collect: bool = False, executor: str = "auto", processes: int = 1,
            address: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> Deepest:
    """Solve duels still moving between `HORIZON` and `CHECK` once more, `DEEPEST` turns
    ahead (`deepest_slice`), one resumable job per duel, and write what was found into
    `out`: such a duel's figures are then its `DEEPEST` ones (`*_h4`), compared with `CHECK`
    (`settled`, `moved`, `swapped`). As the one-card table's third pass
    (`hidden_tables.deepest`): the duels least moved between the last two look-aheads first,
    `limit` of them a run, and `collect` writes what finished jobs found, solving nothing."""
    start = time.perf_counter()
    with np.load(out, allow_pickle=False) as f:
        z = {k: f[k] for k in f.files}
    _same_solves(z, out)
    names = [str(c) for c in z["lost"]]
    shape = z["settled"].shape
    parts = parts_dir(out)
    parts.mkdir(parents=True, exist_ok=True)
    tails = {"win0": (HANDS,), "win1": (5,), "option_value": (HANDS, OPTIONS),
             "option_freq": (HANDS, OPTIONS), "option_against": (HANDS, OPTIONS, HANDS)}
    kinds = {"iterations": np.int32, "tree_nodes": np.int32, "cut_nodes": np.int32,
             "option_against": np.float16}
    fresh = {f"{k}_h4": z[f"{k}_h4"].copy() if f"{k}_h4" in z else
             np.full((*shape, *tails.get(k, ())), 0 if k in ("iterations", "tree_nodes",
                                                             "cut_nodes") else np.nan,
                     dtype=kinds.get(k, np.float32))
             for k in DEEPEST_ARRAYS}
    Key = tuple[int, int, int, int]
    order: list[tuple[float, Key]] = sorted(
        (abs(float(z["moved"][i, f, a, b])), (int(i), int(f), int(a), int(b)))
        for i, f, a, b in np.argwhere(_still_moving(z)))
    keys = [k for _, k in order]

    def part(key: Key) -> Path:
        i, first, a, b = key
        return parts / f"deepest-{names[i]}-{first}-{a}-{b}-h{DEEPEST}-x{EXCHANGE_CUT}.npz"

    if collect:
        keys = [k for k in keys if part(k).exists()]
    elif limit is not None:
        keys = keys[:limit]

    def job(key: Key) -> DeepestJob:
        i, first, a, b = key
        moves = tuple(str(t) for t in z["option_move"][key] if str(t))
        return (names[i], first, a, b, variant, moves, float(z["value_h3"][key]),
                np.asarray(z["option_value_h3"][key], dtype=float))

    done, _ = run_parts(deepest_slice, keys, job, part, executor=executor,
                        processes=processes, address=address, progress=progress)
    settled_now, moved, swapped = z["settled"].copy(), z["moved"].copy(), z["swapped"].copy()
    newly = 0
    for key, result in done.items():
        for k in DEEPEST_ARRAYS:
            fresh[f"{k}_h4"][key] = result[k]
        moved[key] = float(result["moved"])
        swapped[key] = int(result["swapped"])
        settled_now[key] = int(result["settled"])
        newly += int(result["settled"])
    seconds = time.perf_counter() - start
    record = {"deepest_seconds": np.array(seconds + float(z.get("deepest_seconds", 0.0))),
              "deepest_processes": np.array(processes)}
    merged = {**z, **fresh, "settled": settled_now, "moved": moved, "swapped": swapped,
              **record}
    _save(out, **merged)
    solved = np.isfinite(fresh["value_h4"].astype(float))
    drop_parts([*keys, *((int(i), int(f), int(a), int(b))
                         for i, f, a, b in np.argwhere(solved))], part, parts)
    _stored.cache_clear()
    return Deepest(out, len(done), int(solved.sum()), newly, int(_still_moving(merged).sum()),
                   seconds)


def _jobs(variant: str) -> list[tuple[Character, int, int]]:
    return [(lost, first, a) for lost in get_variant(variant).characters for first in (0, 1)
            for a in range(MAX_COINS + 1)]


def slices(variant: str = "base") -> int:
    """How many jobs a whole build runs."""
    return len(_jobs(variant))


def build(out: Path = DEFAULT_OUT, *, variant: str = "base", executor: str = "auto",
          processes: int = 1, address: str | None = None,
          lost: list[Character] | None = None,
          progress: Callable[[int, int], None] | None = None) -> Built:
    """Solve every stored position, one job per lost card, player to act and that player's
    coins, each saved in `parts_dir(out)` as it finishes; then write `out`. A build stopped
    half-way starts again from its parts. `lost` narrows the build (for tests)."""
    start = time.perf_counter()
    chars = get_variant(variant).characters
    wanted = [j for j in _jobs(variant) if lost is None or j[0] in lost]
    parts = parts_dir(out)
    parts.mkdir(parents=True, exist_ok=True)

    def part(key: tuple[Character, int, int]) -> Path:
        return parts / f"{key[0].value}-{key[1]}-{key[2]}-h{HORIZON}-x{EXCHANGE_CUT}.npz"

    done, resumed = run_parts(solve_slice, wanted,
                              lambda key: (key[0].value, key[1], key[2], variant), part,
                              executor=executor, processes=processes, address=address,
                              progress=progress)
    names = list(_empty())
    cards = [c for c in chars if lost is None or c in lost]
    m = MAX_COINS + 1
    stacked: dict[str, np.ndarray] = {}
    for name in names:
        like = done[wanted[0]][name]
        blank = np.zeros_like(like) if like.dtype.kind in "iU" else np.full_like(like, np.nan)
        # [lost card, player to act, that player's coins, the other's coins, ...]
        stacked[name] = np.stack([np.stack([np.stack([
            done[(c, first, a)][name] if (c, first, a) in done else blank
            for a in range(m)]) for first in (0, 1)]) for c in cards])
    # win chances to 7 digits are plenty, and halve the file; the chances against each of
    # the other's hands are shown as whole percentages, so 3 digits (float16) do, and take
    # two thirds of what is left
    stacked = {k: a.astype(np.float16 if k == "option_against" else np.float32)
               if a.dtype == np.float64 else a for k, a in stacked.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    _save(out, variant=np.array(variant), horizon=np.array(HORIZON),
          shorter=np.array(SHORTER), target=np.array(TARGET),
          exchange_cut=np.array(EXCHANGE_CUT),
          characters=np.array([c.value for c in chars]),
          lost=np.array([c.value for c in cards]), **stacked,
          **build_record(start, processes, resumed))
    drop_parts(wanted, part, parts)
    _stored.cache_clear()
    return Built(out, out.stat().st_size, time.perf_counter() - start,
                 len(wanted) - resumed, resumed)


@cache
def _stored(variant: str) -> dict[str, np.ndarray] | None:
    z = packaged(f"hidden2-{variant}.npz")
    return None if z is None else of_record(z)


def of_record(z: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The stored arrays with each duel's figures of record in one place, so every reader
    reads the same: its own figures from the deepest look-ahead solved (`DEEPEST` where a
    duel was solved that far, else `HORIZON`), `horizon_at` that look-ahead, and
    `<name>_compared` the figures of the look-ahead it was compared with (`check_horizon`:
    `SHORTER`, or `CHECK`). The file keeps every look-ahead's own arrays."""
    out = dict(z)
    shape = z["settled"].shape
    deep = (np.isfinite(z["value_h4"].astype(float)) if "value_h4" in z
            else np.zeros(shape, dtype=bool))
    for name in DEEPEST_ARRAYS:
        if f"{name}_h4" in z and name in z:
            out[name] = np.where(spread(deep, z[name]), z[f"{name}_h4"], z[name])
    out["horizon_at"] = np.where(deep, DEEPEST, int(z["horizon"])).astype(np.int8)
    check = z.get("check_horizon", np.full(shape, SHORTER, dtype=np.int8))
    for name in ("value", "win0", "win1", "option_value"):
        prev = z[f"{name}_prev"]
        if f"{name}_h3" in z:
            prev = np.where(spread(check == CHECK, prev), z[f"{name}_h3"], prev)
        out[f"{name}_compared"] = prev
    return out


def has_table(variant: str = "base") -> bool:
    """Whether the package holds this rule set's table."""
    return _stored(variant) is not None


@dataclass(frozen=True)
class StoredOption:
    """One option of the player to act holding a hand, as stored."""

    move: Move
    text: str  # the engine's words (players named P1, P2)
    value: float
    value_prev: float
    frequency: float
    against: dict[Label, float]


@dataclass(frozen=True)
class TwoEntry:
    """A stored duel of two cards against one, in the solver's frame (player 0 holds two)."""

    lost: Character
    coins: tuple[int, int]
    first: int
    value: float  # player 0's chance over the deal, `horizon` turns ahead
    value_prev: float  # the same at `check` turns ahead (and so every `*_prev`)
    win: tuple[dict[Label, float], dict[Label, float]]  # each player's chance per hand
    win_prev: tuple[dict[Label, float], dict[Label, float]]
    options: dict[Label, tuple[StoredOption, ...]]  # the mover's, per hand, best first
    exploitability: float
    iterations: int
    tree_nodes: int
    cut_nodes: int
    moved: float
    swapped: int
    settled: bool
    horizon: int
    shorter: int
    check: int = SHORTER  # the look-ahead compared with `horizon`: SHORTER, or CHECK where
    # SHORTER disagreed and the table was checked deeper (`check_deeper`); CHECK too for a
    # duel solved DEEPEST ahead (`deepest`: `horizon` is then DEEPEST)
    exchange_cut: int = EXCHANGE_CUT  # the table's: 0, no line cut at an Exchange


def lookup(lost: Character, coins: tuple[int, int], first: int,
           variant: str = "base") -> TwoEntry | None:
    """The stored duel, or None when the table does not hold it (another rule set, no table,
    coins out of range)."""
    z = _stored(variant)
    if z is None:
        return None
    names = [str(c) for c in z["lost"]]
    if first not in (0, 1) or lost.value not in names:
        return None
    a, b = coins[first], coins[1 - first]
    if not (0 <= a <= MAX_COINS and 0 <= b <= MAX_COINS):
        return None
    i = names.index(lost.value)
    at = (i, first, a, b)
    if not np.isfinite(z["value"][at]):
        return None  # a narrowed build
    graph = two_card_graph(lost, variant)
    labels = graph.labels
    check = int(z["check_horizon"][at]) if "check_horizon" in z else SHORTER
    other = "_compared"  # the figures of the look-ahead compared (`of_record`)

    def chances(name: str, p: int) -> dict[Label, float]:
        row = z[name][at]
        return {labels[p][k]: float(row[k]) for k in range(len(row)) if np.isfinite(row[k])}

    options: dict[Label, tuple[StoredOption, ...]] = {}
    texts = [str(t) for t in z["option_move"][at] if str(t)]
    if texts:
        world = graph.worlds[0]
        game = graph.game(world, coins, first)
        by_text = {str(m): m for m in game.legal_moves()}
        moves = [by_text[t] for t in texts]
        p = first
        for k in range(HANDS):
            values = z["option_value"][at][k]
            if not np.isfinite(values[:len(moves)]).any():
                continue
            rows = []
            for j, move in enumerate(moves):
                against = z["option_against"][at][k, j]
                rows.append(StoredOption(
                    move, game.describe(move), float(values[j]),
                    float(z["option_value" + other][at][k, j]),
                    float(z["option_freq"][at][k, j]),
                    {labels[1 - p][e]: float(v) for e, v in enumerate(against)
                     if np.isfinite(v)}))
            options[labels[p][k]] = tuple(sorted(rows, key=lambda o: -o.value))
    return TwoEntry(
        lost, coins, first, float(z["value"][at]),
        float(z["value_compared"][at]),
        (chances("win0", 0), chances("win1", 1)),
        (chances("win0" + other, 0), chances("win1" + other, 1)), options,
        float(z["exploitability"][at]), int(z["iterations"][at]), int(z["tree_nodes"][at]),
        int(z["cut_nodes"][at]), float(z["moved"][at]), int(z["swapped"][at]),
        bool(z["settled"][at]), int(z["horizon_at"][at]), int(z["shorter"]), check,
        exchange_cut(z))


@dataclass(frozen=True)
class Share:
    """How much of the table is settled."""

    settled: int
    positions: int
    by_lost: dict[Character, tuple[int, int]]
    by_mover: tuple[tuple[int, int], tuple[int, int]]  # (settled, positions) per player to act
    checked_deeper: int = 0  # duels compared at HORIZON and CHECK (SHORTER disagreed)
    settled_deeper: int = 0  # of those, settled between HORIZON and CHECK
    solved_deepest: int = 0  # duels solved DEEPEST ahead (HORIZON and CHECK disagreed)
    settled_deepest: int = 0  # of those, settled between CHECK and DEEPEST

    @property
    def percent(self) -> float:
        return 100.0 * self.settled / self.positions if self.positions else float("nan")


def settled_share(variant: str = "base") -> Share | None:
    """The settled share of the stored table (None when there is none)."""
    z = _stored(variant)
    if z is None:
        return None
    solved = np.isfinite(z["value"])
    settled = (z["settled"] == 1) & solved
    lost = [Character(str(c)) for c in z["lost"]]
    by_lost = {c: (int(settled[i].sum()), int(solved[i].sum())) for i, c in enumerate(lost)}
    by_mover = tuple((int(settled[:, f].sum()), int(solved[:, f].sum())) for f in (0, 1))
    deeper = (z["check_horizon"] == CHECK) if "check_horizon" in z else np.zeros_like(solved)
    deepest = z["horizon_at"] == DEEPEST
    # settled between HORIZON and CHECK: those solved DEEPEST ahead did not, and are
    # compared between CHECK and DEEPEST instead
    return Share(int(settled.sum()), int(solved.sum()), by_lost,
                 (by_mover[0], by_mover[1]), int(deeper.sum()),
                 int((deeper & settled & ~deepest).sum()), int(deepest.sum()),
                 int((deepest & settled).sum()))
