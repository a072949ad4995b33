"""The hidden-role end-game table of the base game: every position solved ahead, in the package.

Which positions: a two-player game's last duel, each player with one card face down and one
face up. Every ordered pair of face-up cards (player 0's, player 1's), coins 0..12 each, with
player 0 to act; player 1 to act is the same table read from the other seat (swap the players'
cards, coins and face-up cards). A mover with 7 coins or more coups and wins, so only movers
with 0..6 coins are solved: 25 pairs × 7 × 13 = 2,275 positions.

What is kept per position, per card of the mover (indexed in the rule set's character order):
each player's chance of winning holding that card, and for each of the mover's options (in the
engine's order of the root's legal moves) its win chance, equilibrium frequency and win chance
against each card of the other player; the exploitability of the stored strategy, and how far
the two horizons solved (`HORIZON - 2` and `HORIZON`) with every option's value at the shorter
one too, and whether the position is *settled* between them (`trainer.endgame.settled`: the
value moves at most a tenth of a point and no card's best option changes). An unsettled
position is shown as a range, as tablebases mark cursed wins.

Why a second, deeper pass (`deepen`): two turns ahead is often too short a look, and a position
it disagrees with may be settled from three turns on. So each position not settled between
`HORIZON - 2` and `HORIZON` is solved `HORIZON - 1` turns ahead and, where that agrees with
`HORIZON`, `CHECK` turns ahead too; where both agree, the position is settled between the last
two horizons solved, with the one before agreeing, and `check_horizon` records that it was
checked at `CHECK` (with its figures there, `*_h5`). Elsewhere it stays as it was: its range is
still that of `HORIZON - 2` and `HORIZON`.

Why a third pass (`deepest`): a position still moving between `HORIZON` and `CHECK` is solved
`DEEPEST` turns ahead, and from then on its figures are those (`*_h6`), compared with `CHECK`.
A solve that deep takes minutes and gigabytes, so it is one job per position, the likeliest to
settle first, and a pass may be stopped and taken stock of (`collect`). `of_record` lays every
position's own figures out in one set of arrays when the file is read, so no reader needs to
know which pass reached it.

Why two more passes over the Exchanges (`exchange_check`, `more_exchanges`): the solver also
stops a line at the turn after its first Exchange, at every look-ahead alike, so look-aheads
can agree on lines neither followed. Every settled position is solved again `HORIZON` turns
ahead with a second Exchange allowed (`*_x2`); one it moves is not settled. Such a position is
put to both tests once more with two Exchanges allowed: `HORIZON - 1` turns ahead (`*_x2h3`)
and a third Exchange (`*_x3`) must each agree with `HORIZON` turns and two Exchanges; where
both do, it is settled again, read with three Exchanges (`exchanges_at`). Where only the third
Exchange moved it, the same is tried with three and four (`*_x3h3`, `*_x4`).

Why resumable jobs: a position takes seconds, the table hours of one core; the jobs (one per
face-up pair and mover's coins) run through `trainer.batch` on Ray, and each finished job is
saved at once, so an interrupted build goes on where it stopped.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from trainer.endgame import hidden, settled
from trainer.endgame.known import MAX_COINS
from trainer.endgame.public import public_graph
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

Pair = tuple[Character, Character]
HORIZON = 4  # turns looked ahead; the value is also solved at HORIZON - 2 to see it settle
TARGET = 1e-4  # exploitability a stored position is solved to: a tenth of `settled.TOLERANCE`
ITERATIONS = 20_000  # a cap never met at TARGET so far (300 iterations at most in the bench)
MOVER_COINS = 7  # 0..6: with 7 or more the mover coups and wins
OPTIONS = 6  # income, foreign aid, tax, assassinate, steal, exchange (no coup below 7)
DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "hidden-base.npz"


def ordered_pairs(variant: str = "base") -> list[Pair]:
    """Every ordered pair of face-up cards a two-player court can show."""
    v = get_variant(variant)
    court = Counter(v.court(2))
    return [(x, y) for x in v.characters for y in v.characters
            if all(court[c] >= k for c, k in Counter((x, y)).items())]


def solve_slice(job: tuple[str, str, int, str, int]) -> dict[str, np.ndarray]:
    """One face-up pair and mover's coins: every coin count of the other player (a job of
    `build`, module-level so Ray can send it). Each position is solved at `horizon - 2` and
    at `horizon`, both to `TARGET`, and the two are compared (`settled.compare`)."""
    x, y, a, variant, horizon = job
    chars = get_variant(variant).characters
    revealed = (Character(x), Character(y))
    n, m = len(chars), MAX_COINS + 1
    out = {
        "mover": np.full((m, n), np.nan), "other": np.full((m, n), np.nan),
        "mover_prev": np.full((m, n), np.nan), "other_prev": np.full((m, n), np.nan),
        "option_value": np.full((m, n, OPTIONS), np.nan),
        "option_value_prev": np.full((m, n, OPTIONS), np.nan),
        "option_freq": np.full((m, n, OPTIONS), np.nan),
        "option_against": np.full((m, n, OPTIONS, n), np.nan),
        "option_move": np.full((m, OPTIONS), "", dtype="U40"),
        "exploitability": np.full(m, np.nan), "exploitability_prev": np.full(m, np.nan),
        "moved": np.full(m, np.nan), "settled": np.zeros(m, dtype=np.int8),
    }
    for b in range(m):
        solves = [hidden.solve(revealed, (a, b), 0, horizon=h, variant=variant,
                               target=TARGET, iterations=ITERATIONS)
                  for h in (horizon - 2, horizon)]
        moves = [str(mv) for mv in solves[1].tree.moves[0]]
        out["option_move"][b, :len(moves)] = moves
        for s, suffix in ((solves[0], "_prev"), (solves[1], "")):
            out["exploitability" + suffix][b] = s.exploitability
            for p, key in ((0, "mover"), (1, "other")):
                for card, value in s.win_chances(p).items():
                    out[key + suffix][b, chars.index(card)] = value
            for card in s.card_values:
                c = chars.index(card)
                for o in s.options(card):
                    k = moves.index(str(o.move))
                    out["option_value" + suffix][b, c, k] = o.value
                    if suffix:
                        continue
                    out["option_freq"][b, c, k] = o.frequency
                    for e, v in o.against.items():
                        out["option_against"][b, c, k, chars.index(e)] = v
        out["moved"][b] = solves[1].value - solves[0].value
        out["settled"][b] = settled.compare(
            solves[0].value, solves[1].value, out["option_value_prev"][b],
            out["option_value"][b]).settled
    return out


CHECK = HORIZON + 1  # the deeper look-ahead an unsettled position is checked against


def _card_chances(revealed: Pair, variant: str) -> np.ndarray:
    """Player 0's chance of each card at the deal (the rule set's character order)."""
    graph = public_graph(revealed, variant)
    out = np.zeros(len(graph.characters))
    for w in graph.worlds:
        out[w[0]] += graph.deal_chance(w)
    return out


def _options(s: hidden.Solution, moves: list[str], n: int) -> np.ndarray:
    """The mover's option values per card, in the stored moves' order."""
    out = np.full((n, OPTIONS), np.nan)
    chars = list(s.graph.characters)
    for card in s.card_values:
        for o in s.options(card):
            out[chars.index(card), moves.index(str(o.move))] = o.value
    return out


DeepenJob = tuple[str, str, int, str, tuple[int, ...], tuple[tuple[str, ...], ...],
                  np.ndarray, np.ndarray, tuple[float, ...], tuple[int, ...]]

UNSCREENED = -1  # `agree_h3` of a position never solved `HORIZON - 1` turns ahead


def deepen_slice(job: DeepenJob) -> dict[str, np.ndarray]:
    """One face-up pair and mover's coins: each listed coin count of the other player (the
    positions not settled between `HORIZON - 2` and `HORIZON`) solved `CHECK` turns ahead
    and compared with the stored `HORIZON` figures (`settled.compare`): settled between the
    last two horizons solved. Each is also solved `HORIZON - 1` turns ahead unless its
    value there is already known (`known_h3`, with `known_agree` saying whether it agreed
    with `HORIZON`), so the page can say whether the look-ahead in between agreed too.
    Module-level so Ray can send it."""
    x, y, a, variant, others, moves_of, stored_options, stored_mover, known_h3, known_agree \
        = job
    revealed = (Character(x), Character(y))
    chars = get_variant(variant).characters
    n, m = len(chars), MAX_COINS + 1
    chance = _card_chances(revealed, variant)
    out = {
        "value_h3": np.full(m, np.nan), "value_h5": np.full(m, np.nan),
        "agree_h3": np.full(m, UNSCREENED, dtype=np.int8),
        "settled_h5": np.zeros(m, dtype=np.int8),
        "mover_h5": np.full((m, n), np.nan), "other_h5": np.full((m, n), np.nan),
        "option_value_h5": np.full((m, n, OPTIONS), np.nan),
        "exploitability_h5": np.full(m, np.nan),
    }
    for at, b in enumerate(others):
        moves = list(moves_of[at])
        stored = np.asarray(stored_options[at], dtype=float)
        value4 = float(np.nansum(chance * np.asarray(stored_mover[at], dtype=float)))
        if np.isnan(known_h3[at]):
            s3 = hidden.solve(revealed, (a, b), 0, horizon=HORIZON - 1, variant=variant,
                              target=TARGET, iterations=ITERATIONS)
            out["value_h3"][b] = s3.value
            out["agree_h3"][b] = settled.compare(s3.value, value4, _options(s3, moves, n),
                                                 stored).settled
        else:
            out["value_h3"][b], out["agree_h3"][b] = known_h3[at], known_agree[at]
        s5 = hidden.solve(revealed, (a, b), 0, horizon=CHECK, variant=variant,
                          target=TARGET, iterations=ITERATIONS)
        out["value_h5"][b] = s5.value
        out["exploitability_h5"][b] = s5.exploitability
        deep = _options(s5, moves, n)
        out["option_value_h5"][b] = deep
        for p, key in ((0, "mover_h5"), (1, "other_h5")):
            for card, value in s5.win_chances(p).items():
                out[key][b, chars.index(card)] = value
        out["settled_h5"][b] = settled.compare(value4, s5.value, stored, deep).settled
    return out


def _agreed_h3(z: dict[str, np.ndarray]) -> np.ndarray:
    """Whether each position's `HORIZON - 1` solve agreed with `HORIZON` (1), did not (0),
    or was never made (`UNSCREENED`). A table deepened before this was stored solved
    `CHECK` turns ahead exactly the positions that agreed."""
    if "agree_h3" in z:
        return z["agree_h3"].copy()
    shape = z["settled"].shape
    if "value_h3" not in z:
        return np.full(shape, UNSCREENED, dtype=np.int8)
    out = np.where(np.isfinite(z["value_h3"].astype(float)), 0, UNSCREENED).astype(np.int8)
    out[np.isfinite(z["value_h5"].astype(float))] = 1
    return out


DEEPEST = CHECK + 1  # the look-ahead a position still moving between HORIZON and CHECK gets
# the figures a position solved `DEEPEST` turns ahead keeps, as `<name>_h6`
DEEPEST_ARRAYS = ("value", "exploitability", "mover", "other", "option_value", "option_freq",
                  "option_against", "cpu_seconds")
DeepestJob = tuple[str, str, int, int, str, tuple[str, ...], np.ndarray, float]
Key = tuple[int, int, int]  # a stored position: pair, mover's coins, other's coins

# Rule sets in which a face-up card only leaves the court (no rule reads whose it is), so that
# in the duel of one card each the position with the face-up cards swapped, the same coins and
# the same player to act, is the same game: one of the two is solved `DEEPEST` turns ahead and
# the other reads its figures (`_twins`). A test checks it against direct solves.
FACE_UP_INERT = frozenset({"base"})


def deepest_slice(job: DeepestJob) -> dict[str, np.ndarray]:
    """One position still moving between `HORIZON` and `CHECK`, solved `DEEPEST` turns ahead
    with every figure the page shows (it becomes the position's own figures, `CHECK` the
    look-ahead it is compared with). Module-level so Ray can send it."""
    x, y, a, b, variant, moves, stored_h5, value_h5 = job
    revealed = (Character(x), Character(y))
    chars = get_variant(variant).characters
    start = time.process_time()
    s = hidden.solve(revealed, (a, b), 0, horizon=DEEPEST, variant=variant, target=TARGET,
                     iterations=ITERATIONS)
    out = _figures(s, moves, chars, time.process_time() - start)
    out["settled"] = np.array(settled.compare(value_h5, s.value, stored_h5,
                                              out["option_value"]).settled, dtype=np.int8)
    return out


def _figures(s: hidden.Solution, moves: Sequence[str], chars: Sequence[Character],
             cpu_seconds: float) -> dict[str, np.ndarray]:
    """Every figure the page shows of one solve (`DEEPEST_ARRAYS`, and its size), when a
    pass's solve becomes a position's figures of record."""
    n = len(chars)
    out = {"value": np.array(s.value), "exploitability": np.array(s.exploitability),
           "cpu_seconds": np.array(cpu_seconds),
           "mover": np.full(n, np.nan), "other": np.full(n, np.nan),
           "option_value": np.full((n, OPTIONS), np.nan),
           "option_freq": np.full((n, OPTIONS), np.nan),
           "option_against": np.full((n, OPTIONS, n), np.nan),
           "iterations": np.array(s.iterations), "tree_nodes": np.array(s.tree_nodes)}
    for p, key in ((0, "mover"), (1, "other")):
        for card, value in s.win_chances(p).items():
            out[key][chars.index(card)] = value
    for card in s.card_values:
        c = chars.index(card)
        for o in s.options(card):
            k = list(moves).index(str(o.move))
            out["option_value"][c, k] = o.value
            out["option_freq"][c, k] = o.frequency
            for e, v in o.against.items():
                out["option_against"][c, k, chars.index(e)] = v
    return out


@dataclass(frozen=True)
class Deepened:
    path: Path
    checked: int  # positions solved CHECK turns ahead by this run
    deep: int  # positions of the table solved CHECK turns ahead, by this run or before
    settled: int  # of those this run checked, settled between HORIZON and CHECK
    seconds: float
    resumed: int


def deepen(out: Path = DEFAULT_OUT, *, variant: str = "base", executor: str = "auto",
           processes: int = 1, address: str | None = None, pairs: list[Pair] | None = None,
           progress: Callable[[int, int], None] | None = None) -> Deepened:
    """Check every stored position not settled between `HORIZON - 2` and `HORIZON` against
    a deeper look-ahead (`deepen_slice`), one resumable job per face-up pair and mover's
    coins, and write what was found into `out`: the last two horizons solved for such a
    position are then `HORIZON` and `CHECK` (`check_horizon` says so, its `CHECK` figures
    are kept as `*_h5`, `moved` and `settled` are their comparison). Why: many positions
    move between two and four turns ahead only because two turns is too short a look, and
    agree from four turns on. A position already solved `CHECK` turns ahead is not solved
    again, so a second run only finishes what the first left."""
    start = time.perf_counter()
    with np.load(out, allow_pickle=False) as f:
        z = {k: f[k] for k in f.files}
    names = [str(p) for p in z["pairs"]]
    wanted = [f"{x.value}-{y.value}" for x, y in pairs] if pairs else names
    parts = parts_dir(out)
    parts.mkdir(parents=True, exist_ok=True)
    shape = z["settled"].shape
    n = z["mover"].shape[-1]

    def kept(name: str, fill: float, dtype: type, *tail: int) -> np.ndarray:
        return z[name].copy() if name in z else np.full((*shape, *tail), fill, dtype=dtype)

    fresh = {
        "check_horizon": kept("check_horizon", HORIZON - 2, np.int8),
        "value_h3": kept("value_h3", np.nan, np.float32),
        "agree_h3": _agreed_h3(z),
        "value_h5": kept("value_h5", np.nan, np.float32),
        "mover_h5": kept("mover_h5", np.nan, np.float32, n),
        "other_h5": kept("other_h5", np.nan, np.float32, n),
        "option_value_h5": kept("option_value_h5", np.nan, np.float32, n, OPTIONS),
        "exploitability_h5": kept("exploitability_h5", np.nan, np.float32),
    }

    def part(name: str, a: int) -> Path:
        return parts / f"deepen-{name}-{a}-h{CHECK}.npz"

    unsolved = (z["settled"] == 0) & np.isnan(fresh["value_h5"].astype(float))
    open_ = {(name, a): tuple(int(b) for b in np.flatnonzero(unsolved[names.index(name), a]))
             for name in wanted for a in range(MOVER_COINS)}
    open_ = {k: v for k, v in open_.items() if v}

    def job(key: tuple[str, int]) -> DeepenJob:
        """What a job needs of the stored table (so a cluster's workers need no file)."""
        i, a = names.index(key[0]), key[1]
        bs = open_[key]
        return (*_slice_job(z, key, bs, variant),
                tuple(float(fresh["value_h3"][i, a, b]) for b in bs),
                tuple(int(fresh["agree_h3"][i, a, b]) for b in bs))

    done, resumed = run_parts(deepen_slice, list(open_), job, lambda key: part(*key),
                              executor=executor, processes=processes, address=address,
                              progress=progress)
    settled_now = z["settled"].copy()
    checked = newly = 0
    for (name, a), result in done.items():
        i = names.index(name)
        for b in open_[(name, a)]:
            checked += 1
            for array in ("value_h3", "agree_h3", "value_h5", "mover_h5", "other_h5",
                          "option_value_h5", "exploitability_h5"):
                fresh[array][i, a, b] = result[array][b]
            if result["settled_h5"][b]:
                newly += 1
                settled_now[i, a, b] = 1
    # every position solved `CHECK` turns ahead is compared between `HORIZON` and `CHECK`
    deep = np.isfinite(fresh["value_h5"].astype(float))
    fresh["check_horizon"][deep] = CHECK
    moved = z["moved"].copy()
    for i, name in enumerate(names):
        x, y = name.split("-")
        chance = _card_chances((Character(x), Character(y)), variant)
        value4 = np.nansum(chance * z["mover"][i].astype(float), axis=-1)
        moved[i][deep[i]] = (fresh["value_h5"][i].astype(float) - value4)[deep[i]]
    seconds = time.perf_counter() - start
    # the time of every run that deepened this table, so far
    record = {"deepen_seconds": np.array(seconds + float(z.get("deepen_seconds", 0.0))),
              "deepen_processes": np.array(processes), "deepen_resumed": np.array(resumed)}
    _save(out, **{**z, **fresh, "settled": settled_now, "moved": moved, **record})
    drop_parts(open_, lambda key: part(*key), parts)
    _stored.cache_clear()
    return Deepened(out, checked, int(deep.sum()), newly, seconds, resumed)


def _slice_job(z: dict[str, np.ndarray], key: tuple[str, int], others: tuple[int, ...],
               variant: str) -> ExchangeJob:
    """What a job over one face-up pair and mover's coins needs of the stored table (so a
    cluster's workers need no file): the pair, the coins, the other player's coin counts
    listed, each one's moves and its stored `HORIZON` option values and chances."""
    name, a = key
    i = [str(p) for p in z["pairs"]].index(name)
    x, y = name.split("-")
    moves = tuple(tuple(str(t) for t in z["option_move"][i, a, b] if str(t)) for b in others)
    return (x, y, a, variant, others, moves, np.asarray(z["option_value"][i, a, list(others)]),
            np.asarray(z["mover"][i, a, list(others)]))


def _open_pass(out: Path) -> tuple[dict[str, np.ndarray], list[str], Path]:
    """A table file's arrays, its face-up pairs' names and the folder of a pass's parts
    (made if missing): what every pass over a built table starts from."""
    with np.load(out, allow_pickle=False) as f:
        z = {k: f[k] for k in f.files}
    parts = parts_dir(out)
    parts.mkdir(parents=True, exist_ok=True)
    return z, [str(p) for p in z["pairs"]], parts


def _pass_arrays(z: dict[str, np.ndarray], names: tuple[str, ...],
                 suffix: str) -> dict[str, np.ndarray]:
    """A pass's own arrays (`<name><suffix>`), as an earlier run left them or empty (NaN):
    one figure per position, per card or per card and option, as the name says."""
    shape = z["settled"].shape
    n = z["mover"].shape[-1]
    tails = {"mover": (n,), "other": (n,), "option_value": (n, OPTIONS),
             "option_freq": (n, OPTIONS), "option_against": (n, OPTIONS, n)}
    return {f"{k}{suffix}": z[f"{k}{suffix}"].copy() if f"{k}{suffix}" in z
            else np.full((*shape, *tails.get(k, ())), np.nan, dtype=np.float32)
            for k in names}


def _still_moving(z: dict[str, np.ndarray]) -> np.ndarray:
    """Positions compared at `HORIZON` and `CHECK` and not settled there, not yet solved
    `DEEPEST` turns ahead."""
    return still_moving(z, CHECK, "_h6")


def deepest(out: Path = DEFAULT_OUT, *, variant: str = "base", limit: int | None = None,
            collect: bool = False, executor: str = "auto", processes: int = 1,
            address: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> Deepest:
    """Solve positions still moving between `HORIZON` and `CHECK` once more, `DEEPEST` turns
    ahead (`deepest_slice`), one resumable job per position, and write what was found into
    `out`: such a position's figures are then its `DEEPEST` ones (`*_h6`), compared with
    `CHECK` (`settled`, `moved`). Why one job per position: a solve takes one to four CPU
    minutes and some 2.5 GB, so a pass over them all is hours; the positions go in the order
    most likely to settle (least moved between `HORIZON` and `CHECK`), `limit` of them a run,
    and `collect` writes what finished jobs found without solving more (a pass stopped
    half-way, taken stock of)."""
    start = time.perf_counter()
    z, names, parts = _open_pass(out)
    shape = z["settled"].shape
    fresh = _pass_arrays(z, DEEPEST_ARRAYS, "_h6")
    moving = np.argwhere(_still_moving(z))
    order: list[tuple[float, Key]] = sorted(
        (abs(float(z["moved"][i, a, b])), (int(i), int(a), int(b))) for i, a, b in moving)
    keys = [ix for _, ix in order]

    def part(key: tuple[int, int, int]) -> Path:
        i, a, b = key
        return parts / f"deepest-{names[i]}-{a}-{b}-h{DEEPEST}.npz"

    twin = _twins(names) if variant in FACE_UP_INERT else {}
    if collect:
        keys = [k for k in keys if part(k).exists()]
    else:
        keys = _one_of_twins(keys, twin, lambda k: part(k).exists(),
                             np.isfinite(fresh["value_h6"].astype(float)))
        if limit is not None:
            keys = keys[:limit]

    def job(key: tuple[int, int, int]) -> DeepestJob:
        i, a, b = key
        x, y = names[i].split("-")
        moves = tuple(str(t) for t in z["option_move"][i, a, b] if str(t))
        return (x, y, a, b, variant, moves, np.asarray(z["option_value_h5"][i, a, b]),
                float(z["value_h5"][i, a, b]))

    done, _ = run_parts(deepest_slice, keys, job, part, executor=executor,
                        processes=processes, address=address, progress=progress)
    settled_now = z["settled"].copy()
    moved = z["moved"].copy()
    newly = 0
    for key, result in done.items():
        for k in DEEPEST_ARRAYS:
            # a part written before its CPU time was kept has none
            fresh[f"{k}_h6"][key] = result.get(k, np.nan)
        moved[key] = float(result["value"]) - float(z["value_h5"][key])
        settled_now[key] = int(result["settled"])
        newly += int(result["settled"])
    mirrored = (z["mirrored_h6"].copy() if "mirrored_h6" in z
                else np.zeros(shape, dtype=np.int8))
    copied = 0
    for i, a, b in np.argwhere(_still_moving(z)).tolist():
        key = (int(i), int(a), int(b))
        other = twin.get(key)
        if key in done or other is None or not np.isfinite(float(fresh["value_h6"][other])):
            continue
        for k in DEEPEST_ARRAYS:
            fresh[f"{k}_h6"][key] = fresh[f"{k}_h6"][other]
        fresh["cpu_seconds_h6"][key] = np.nan  # nothing was solved for it
        value = float(fresh["value_h6"][key])
        moved[key] = value - float(z["value_h5"][key])
        now = settled.compare(float(z["value_h5"][key]), value, z["option_value_h5"][key],
                              fresh["option_value_h6"][key]).settled
        settled_now[key] = int(now)
        newly += int(now)
        mirrored[key] = 1
        copied += 1
    seconds = time.perf_counter() - start
    record = {"deepest_seconds": np.array(seconds + float(z.get("deepest_seconds", 0.0))),
              "deepest_processes": np.array(processes)}
    merged = {**z, **fresh, "settled": settled_now, "moved": moved, "mirrored_h6": mirrored,
              **record}
    _save(out, **merged)
    # with the parts of positions an earlier run already wrote into the table (a copy of
    # the table collected elsewhere, then put back)
    solved = np.isfinite(fresh["value_h6"].astype(float))
    drop_parts([*keys, *((int(i), int(a), int(b)) for i, a, b in np.argwhere(solved))],
               part, parts)
    _stored.cache_clear()
    return Deepest(out, len(done), int(np.isfinite(fresh["value_h6"].astype(float)).sum()),
                   newly, int(_still_moving(merged).sum()), seconds, copied)


def _twin_pairs(names: list[str]) -> dict[int, int]:
    """Each stored pair of face-up cards ("Duke-Captain") and the same pair swapped, where the
    table holds both (a pair of the same card has none)."""
    where = {n: i for i, n in enumerate(names)}
    out: dict[int, int] = {}
    for i, name in enumerate(names):
        x, y = name.split("-")
        j = where.get(f"{y}-{x}")
        if j is not None and j != i:
            out[i] = j
    return out


def _twins(names: list[str]) -> dict[Key, Key]:
    """Each position (pair, mover's coins, other's coins) and its twin with the face-up cards
    swapped, at the same coins."""
    return {(i, a, b): (j, a, b) for i, j in _twin_pairs(names).items()
            for a in range(MOVER_COINS) for b in range(MAX_COINS + 1)}


def _one_of_twins(keys: list[Key], twin: dict[Key, Key], has_part: Callable[[Key], bool],
                  solved: np.ndarray) -> list[Key]:
    """The positions a pass solves, in `keys`' order: one of each pair of twins, the one an
    earlier run already has a part of if any, none where a twin is solved already."""
    chosen: set[Key] = {k for k in keys if has_part(k)}
    out: list[Key] = []
    for key in keys:
        other = twin.get(key)
        if key not in chosen and other is not None and (
                bool(solved[other]) or other in chosen):
            continue
        chosen.add(key)
        out.append(key)
    return out


def _twin_slices(names: list[str], wanted: np.ndarray, found: np.ndarray, variant: str
                 ) -> tuple[dict[int, int], dict[tuple[str, int], tuple[int, ...]]]:
    """A pass's jobs over `wanted` positions, one per face-up pair and mover's coins, each
    listing the other player's coin counts to solve: `solver[i]` is the pair that solves
    pair `i`'s positions (where a twin is the same duel, `FACE_UP_INERT`, the first of the
    two in the table's order solves both), and nothing is listed whose `found` figure an
    earlier run left."""
    twin_of = _twin_pairs(names) if variant in FACE_UP_INERT else {}
    solver = {i: min(i, twin_of.get(i, i)) for i in range(len(names))}
    need = np.zeros(wanted.shape, dtype=bool)
    for i in range(len(names)):
        need[solver[i]] |= wanted[i]
    need &= ~np.isfinite(found.astype(float))
    open_ = {(names[i], a): tuple(int(b) for b in np.flatnonzero(need[i, a]))
             for i in range(len(names)) for a in range(MOVER_COINS)}
    return solver, {k: v for k, v in open_.items() if v}


def _twin_copies(wanted: np.ndarray, solver: dict[int, int], found: np.ndarray
                 ) -> Iterator[tuple[int, int, int, int]]:
    """Each wanted position `(i, a, b)` whose twin's solve it reads, as `(i, j, a, b)` with
    `j` the twin's pair: where the twin solved it (`found` there is a figure)."""
    for i, j in solver.items():
        if j == i:
            continue
        for a, b in np.argwhere(wanted[i]).tolist():
            if np.isfinite(float(found[j, a, b])):
                yield i, j, int(a), int(b)


EXCHANGES = 2  # the Exchanges a line may hold in the check of a settled position
# the figures a settled position's check with a second Exchange keeps, as `<name>_x2`
EXCHANGE_ARRAYS = ("value", "exploitability", "mover", "other", "option_value", "cpu_seconds",
                   "moved")  # `moved`: the value with two Exchanges minus with one
ExchangeJob = tuple[str, str, int, str, tuple[int, ...], tuple[tuple[str, ...], ...],
                    np.ndarray, np.ndarray]


def exchange_slice(job: ExchangeJob) -> dict[str, np.ndarray]:
    """One face-up pair and mover's coins: each listed coin count of the other player solved
    `HORIZON` turns ahead with a line allowed `EXCHANGES` Exchanges instead of one, and
    compared with the stored `HORIZON` figures (one Exchange): `agree_x2`. Module-level so
    Ray can send it."""
    x, y, a, variant, others, moves_of, stored_options, stored_mover = job
    revealed = (Character(x), Character(y))
    chars = get_variant(variant).characters
    n, m = len(chars), MAX_COINS + 1
    chance = _card_chances(revealed, variant)
    out = {"value_x2": np.full(m, np.nan), "exploitability_x2": np.full(m, np.nan),
           "cpu_seconds_x2": np.full(m, np.nan),
           "mover_x2": np.full((m, n), np.nan), "other_x2": np.full((m, n), np.nan),
           "option_value_x2": np.full((m, n, OPTIONS), np.nan),
           "moved_x2": np.full(m, np.nan), "agree_x2": np.full(m, UNSCREENED, dtype=np.int8)}
    for at, b in enumerate(others):
        start = time.process_time()
        s = hidden.solve(revealed, (a, b), 0, horizon=HORIZON, exchanges=EXCHANGES,
                         variant=variant, target=TARGET, iterations=ITERATIONS)
        out["cpu_seconds_x2"][b] = time.process_time() - start
        out["value_x2"][b] = s.value
        out["exploitability_x2"][b] = s.exploitability
        for p, key in ((0, "mover_x2"), (1, "other_x2")):
            for card, value in s.win_chances(p).items():
                out[key][b, chars.index(card)] = value
        options = _options(s, list(moves_of[at]), n)
        out["option_value_x2"][b] = options
        value4 = float(np.nansum(chance * np.asarray(stored_mover[at], dtype=float)))
        out["moved_x2"][b] = s.value - value4
        out["agree_x2"][b] = settled.compare(
            value4, s.value, np.asarray(stored_options[at], dtype=float), options).settled
    return out


@dataclass(frozen=True)
class ExchangeChecked:
    path: Path
    solved: int  # positions solved with a second Exchange by this run (or in its parts)
    copied: int  # positions that read their twin's solve instead
    checked: int  # settled positions of the table checked, by this run or before
    failed: int  # of those, how many a second Exchange moves (no longer settled)
    seconds: float


def exchange_check(out: Path = DEFAULT_OUT, *, variant: str = "base", executor: str = "auto",
                   processes: int = 1, address: str | None = None,
                   progress: Callable[[int, int], None] | None = None) -> ExchangeChecked:
    """Check every position settled between two look-aheads against a line allowed a second
    Exchange (`exchange_slice`), one resumable job per face-up pair and mover's coins, and
    write what was found into `out` (`agree_x2`, the figures as `*_x2`).

    Why: the solver cuts a line at the turn after its first Exchange as well as at the
    horizon, and the look-aheads compared all cut there alike, so agreeing says nothing of
    the lines an Exchange cut short. Allowing a second moves some settled positions by
    points (Duke and Duke face up, 4 coins each: 63.1% with one, 56.3% with two, at two to
    six turns). A position the check moves is not settled (`of_record`). The check is made
    `HORIZON` turns ahead for every position, whatever look-ahead is of record: a second
    Exchange six turns ahead is beyond this machine. In the duel of one card each a twin
    (the face-up cards swapped) reads its twin's solve (`FACE_UP_INERT`)."""
    start = time.perf_counter()
    z, names, parts = _open_pass(out)
    shape = z["settled"].shape
    fresh = _pass_arrays(z, EXCHANGE_ARRAYS, "_x2")
    agree = (z["agree_x2"].copy() if "agree_x2" in z
             else np.full(shape, UNSCREENED, dtype=np.int8))
    wanted = (z["settled"] == 1) & (agree == UNSCREENED)
    solver, open_ = _twin_slices(names, wanted, fresh["value_x2"], variant)

    def part(name: str, a: int) -> Path:
        return parts / f"exchange-{name}-{a}-x{EXCHANGES}.npz"

    def job(key: tuple[str, int]) -> ExchangeJob:
        return _slice_job(z, key, open_[key], variant)

    done, _ = run_parts(exchange_slice, list(open_), job, lambda key: part(*key),
                        executor=executor, processes=processes, address=address,
                        progress=progress)
    solved = 0
    for (name, a), result in done.items():
        i = names.index(name)
        for b in open_[(name, a)]:
            solved += 1
            for k in EXCHANGE_ARRAYS:
                fresh[f"{k}_x2"][i, a, b] = result[f"{k}_x2"][b]
            agree[i, a, b] = result["agree_x2"][b]
    copied = 0
    for i, j, a, b in _twin_copies(wanted, solver, fresh["value_x2"]):
        for k in EXCHANGE_ARRAYS:
            fresh[f"{k}_x2"][i, a, b] = fresh[f"{k}_x2"][j, a, b]
        fresh["cpu_seconds_x2"][i, a, b] = np.nan  # nothing was solved for it
        x, y = names[i].split("-")
        chance = _card_chances((Character(x), Character(y)), variant)
        value4 = float(np.nansum(chance * z["mover"][i, a, b].astype(float)))
        fresh["moved_x2"][i, a, b] = float(fresh["value_x2"][i, a, b]) - value4
        agree[i, a, b] = settled.compare(value4, float(fresh["value_x2"][i, a, b]),
                                         z["option_value"][i, a, b],
                                         fresh["option_value_x2"][i, a, b]).settled
        copied += 1
    seconds = time.perf_counter() - start
    record = {"exchange_seconds": np.array(seconds + float(z.get("exchange_seconds", 0.0))),
              "exchange_processes": np.array(processes)}
    _save(out, **{**z, **fresh, "agree_x2": agree, **record})
    drop_parts(open_, lambda key: part(*key), parts)
    _stored.cache_clear()
    checked = (agree != UNSCREENED) & (z["settled"] == 1)
    return ExchangeChecked(out, solved, copied, int(checked.sum()),
                           int((checked & (agree == 0)).sum()), seconds)


MORE_EXCHANGES = EXCHANGES + 1  # the Exchanges a line may hold where two moved a position
# the last count tried: a position that `MORE_EXCHANGES` moved after the shorter look-ahead
# agreed with two is tried once more with one Exchange more (one more again, four against
# five, settles none of the 5 positions four moved: three turns ahead moves them all)
MOST_EXCHANGES = MORE_EXCHANGES + 1
# every count of Exchanges a position may be settled with by `more_exchanges`
MORE_COUNTS = tuple(range(MORE_EXCHANGES, MOST_EXCHANGES + 1))
# the figures a position settled allowing k Exchanges keeps, as `<name>_x<k>`: its figures of
# record from then on
MORE_ARRAYS = DEEPEST_ARRAYS
MoreJob = tuple[str, str, int, str, int, tuple[int, ...], tuple[tuple[str, ...], ...],
                np.ndarray, np.ndarray]


def compared_exchanges(exchanges: int) -> int:
    """The Exchanges a line may hold in the figures a position's figures of record (`exchanges`
    allowed) were compared with in its last Exchange test: two for the usual one (the check
    of `exchange_check`), one fewer for a position settled allowing more (`more_exchanges`)."""
    return EXCHANGES if exchanges == 1 else exchanges - 1


def more_exchanges_slice(job: MoreJob) -> dict[str, np.ndarray]:
    """One face-up pair and mover's coins: each listed position that `k - 1` Exchanges in a
    line moved (a second, `exchange_check`, or `k - 1` in an earlier level of this pass),
    checked for settling with `k - 1` allowed, by both of the project's tests at once: a
    look-ahead one turn shorter (`HORIZON - 1` turns, `k - 1` Exchanges: `agree_x<k-1>h3`)
    and one more Exchange (`HORIZON` turns, `k`: `agree_x<k>`) must each agree with `HORIZON`
    turns and `k - 1` Exchanges (the stored `*_x<k-1>` figures). The second, slower solve is
    made only where the first agreed; its figures (`*_x<k>`) are the position's figures of
    record if both agree. Module-level so Ray can send it."""
    x, y, a, variant, k, others, moves_of, options_before, value_before = job
    revealed = (Character(x), Character(y))
    chars = get_variant(variant).characters
    n, m = len(chars), MAX_COINS + 1
    shorter_key, more = f"x{k - 1}h3", f"x{k}"
    out: dict[str, np.ndarray] = {
        f"value_{shorter_key}": np.full(m, np.nan),
        f"option_value_{shorter_key}": np.full((m, n, OPTIONS), np.nan),
        f"agree_{shorter_key}": np.full(m, UNSCREENED, dtype=np.int8),
        f"agree_{more}": np.full(m, UNSCREENED, dtype=np.int8),
        f"value_{more}": np.full(m, np.nan), f"exploitability_{more}": np.full(m, np.nan),
        f"cpu_seconds_{more}": np.full(m, np.nan), f"mover_{more}": np.full((m, n), np.nan),
        f"other_{more}": np.full((m, n), np.nan),
        f"option_value_{more}": np.full((m, n, OPTIONS), np.nan),
        f"option_freq_{more}": np.full((m, n, OPTIONS), np.nan),
        f"option_against_{more}": np.full((m, n, OPTIONS, n), np.nan)}
    for at, b in enumerate(others):
        moves = list(moves_of[at])
        stored = np.asarray(options_before[at], dtype=float)
        before = float(value_before[at])
        s3 = hidden.solve(revealed, (a, b), 0, horizon=HORIZON - 1, exchanges=k - 1,
                          variant=variant, target=TARGET, iterations=ITERATIONS)
        shorter = _options(s3, moves, n)
        out[f"value_{shorter_key}"][b] = s3.value
        out[f"option_value_{shorter_key}"][b] = shorter
        agreed = settled.compare(s3.value, before, shorter, stored).settled
        out[f"agree_{shorter_key}"][b] = agreed
        if not agreed:
            continue
        start = time.process_time()
        s = hidden.solve(revealed, (a, b), 0, horizon=HORIZON, exchanges=k, variant=variant,
                         target=TARGET, iterations=ITERATIONS)
        found = _figures(s, moves, chars, time.process_time() - start)
        for name in MORE_ARRAYS:
            out[f"{name}_{more}"][b] = found[name]
        out[f"agree_{more}"][b] = settled.compare(before, s.value, stored,
                                                 found["option_value"]).settled
    return out


@dataclass(frozen=True)
class MoreExchanges:
    path: Path
    solved: int  # positions this run solved with more Exchanges a turn shorter
    deeper: int  # of those, how many it solved with one more Exchange as well
    copied: int  # positions that read their twin's solves instead
    settled: int  # positions of the table settled this way, by this run or before
    seconds: float
    # positions of the table settled with each count of Exchanges in a line (`MORE_COUNTS`)
    by_count: dict[int, int] = field(default_factory=dict)


def _more_wanted(z: dict[str, np.ndarray], k: int = MORE_EXCHANGES) -> np.ndarray:
    """The positions the pass with `k` Exchanges is for: with `MORE_EXCHANGES`, those settled
    between two look-aheads that a second Exchange moved (`exchange_check`); with one more,
    those of the level before whose shorter look-ahead agreed and whose extra Exchange moved
    them."""
    none = np.zeros(z["settled"].shape, dtype=bool)
    if "agree_x2" not in z:
        return none
    if k == MORE_EXCHANGES:
        return np.asarray((z["settled"] == 1) & (z["agree_x2"] == 0), dtype=bool)
    if f"agree_x{k - 1}" not in z:
        return none
    return np.asarray(_more_wanted(z, k - 1) & (z[f"agree_x{k - 2}h3"] == 1)
                      & (z[f"agree_x{k - 1}"] == 0), dtype=bool)


def _more_settled(z: dict[str, np.ndarray], k: int) -> np.ndarray:
    """The positions settled allowing `k` Exchanges in a line (`more_exchanges`)."""
    if f"agree_x{k}" not in z:
        return np.zeros(z["settled"].shape, dtype=bool)
    return np.asarray(_more_wanted(z, k) & (z[f"agree_x{k - 1}h3"] == 1)
                      & (z[f"agree_x{k}"] == 1), dtype=bool)


def more_exchanges(out: Path = DEFAULT_OUT, *, variant: str = "base", executor: str = "auto",
                   processes: int = 1, address: str | None = None,
                   progress: Callable[[int, int], None] | None = None) -> MoreExchanges:
    """Try to settle every position a second Exchange moved, with two Exchanges allowed in a
    line, then those a third moved with three (`more_exchanges_slice`, `MORE_COUNTS`), one
    resumable job per face-up pair and mover's coins, and write what was found into `out`
    (`agree_x<k-1>h3`, `agree_x<k>`, the figures as `*_x<k>`).

    Why: such a position is not settled by the solver's usual cut (one Exchange), and
    solving it with no cut at all is 20 to 60 s a position four turns ahead. With two
    Exchanges, the same two tests as before say whether the figures still move: against a
    look-ahead one turn shorter, and against a line allowed a third Exchange. Where both
    agree, the position is settled and its figures of record are the third Exchange's
    (`of_record`); where only the third Exchange moved it, the same is tried with three and
    four. A twin (the face-up cards swapped) reads its twin's solves (`FACE_UP_INERT`)."""
    start = time.perf_counter()
    solved = deeper = copied = 0
    for k in MORE_COUNTS:
        s, d, c = _more_level(out, k, variant, executor, processes, address, progress)
        solved, deeper, copied = solved + s, deeper + d, copied + c
    with np.load(out, allow_pickle=False) as f:
        z = {name: f[name] for name in f.files}
    by_count = {k: int(_more_settled(z, k).sum()) for k in MORE_COUNTS}
    seconds = time.perf_counter() - start
    return MoreExchanges(out, solved, deeper, copied, sum(by_count.values()), seconds,
                         by_count)


def _more_level(out: Path, k: int, variant: str, executor: str, processes: int,
                address: str | None, progress: Callable[[int, int], None] | None
                ) -> tuple[int, int, int]:
    """One level of `more_exchanges`: the positions `k - 1` Exchanges moved, tried with `k`;
    written into `out`. Returns how many were solved, solved with `k` as well, and copied
    from a twin."""
    start = time.perf_counter()
    z, names, parts = _open_pass(out)
    shape = z["settled"].shape
    shorter_key, more, before = f"x{k - 1}h3", f"x{k}", f"x{k - 1}"
    fresh = _pass_arrays(z, MORE_ARRAYS, f"_{more}")
    fresh.update(_pass_arrays(z, ("value", "option_value"), f"_{shorter_key}"))
    agree = {name: (z[name].copy() if name in z
                    else np.full(shape, UNSCREENED, dtype=np.int8))
             for name in (f"agree_{shorter_key}", f"agree_{more}")}
    wanted = _more_wanted(z, k) & (agree[f"agree_{shorter_key}"] == UNSCREENED)
    solver, open_ = _twin_slices(names, wanted, fresh[f"value_{shorter_key}"], variant)

    def part(name: str, a: int) -> Path:
        return parts / f"more-{name}-{a}-x{k}.npz"

    def job(key: tuple[str, int]) -> MoreJob:
        name, a = key
        i = names.index(name)
        x, y = name.split("-")
        others = open_[key]
        moves = tuple(tuple(str(t) for t in z["option_move"][i, a, b] if str(t))
                      for b in others)
        return (x, y, a, variant, k, others, moves,
                np.asarray(z[f"option_value_{before}"][i, a, list(others)]),
                np.asarray(z[f"value_{before}"][i, a, list(others)]))

    done, _ = run_parts(more_exchanges_slice, list(open_), job, lambda key: part(*key),
                        executor=executor, processes=processes, address=address,
                        progress=progress)
    solved = deeper = 0
    for (name, a), result in done.items():
        i = names.index(name)
        for b in open_[(name, a)]:
            solved += 1
            deeper += int(result[f"agree_{more}"][b] != UNSCREENED)
            for key in fresh:
                fresh[key][i, a, b] = result[key][b]
            for key in agree:
                agree[key][i, a, b] = result[key][b]
    mirrored = (z[f"mirrored_{more}"].copy() if f"mirrored_{more}" in z
                else np.zeros(shape, dtype=np.int8))
    copied = 0
    for i, j, a, b in _twin_copies(wanted, solver, fresh[f"value_{shorter_key}"]):
        for key in fresh:
            fresh[key][i, a, b] = fresh[key][j, a, b]
        fresh[f"cpu_seconds_{more}"][i, a, b] = np.nan  # nothing was solved for it
        value0, options0 = (float(z[f"value_{before}"][i, a, b]),
                            z[f"option_value_{before}"][i, a, b])
        agree[f"agree_{shorter_key}"][i, a, b] = settled.compare(
            float(fresh[f"value_{shorter_key}"][i, a, b]), value0,
            fresh[f"option_value_{shorter_key}"][i, a, b], options0).settled
        agree[f"agree_{more}"][i, a, b] = (settled.compare(
            value0, float(fresh[f"value_{more}"][i, a, b]), options0,
            fresh[f"option_value_{more}"][i, a, b]).settled
            if np.isfinite(float(fresh[f"value_{more}"][i, a, b])) else UNSCREENED)
        mirrored[i, a, b] = 1
        copied += 1
    seconds = time.perf_counter() - start
    record = {"more_seconds": np.array(seconds + float(z.get("more_seconds", 0.0))),
              "more_processes": np.array(processes)}
    _save(out, **{**z, **fresh, **agree, f"mirrored_{more}": mirrored, **record})
    drop_parts(open_, lambda key: part(*key), parts)
    _stored.cache_clear()
    return solved, deeper, copied


@dataclass(frozen=True)
class HiddenEntry:
    """A stored position, from the seat of the player asked about."""

    you_act: bool
    win_chance: dict[Character, float]  # your chance of winning holding each card
    exploitability: float
    moved: float  # the deeper look-ahead's value minus the shallower's (player 0's)
    horizon: int  # the look-ahead of these figures: HORIZON, or DEEPEST (`of_record`)
    options: dict[Character, list[tuple[str, float, float, dict[Character, float]]]]
    settled: bool  # by `settled.compare`, worked out when the table was built
    win_chance_prev: dict[Character, float]  # the same at the `check` look-ahead
    options_prev: dict[Character, dict[str, float]]  # each option's value there
    # the look-ahead compared with `horizon`: HORIZON - 2, or CHECK for a position checked
    # deeper because it did not settle between the two (and for one solved DEEPEST ahead,
    # because it did not settle between HORIZON and CHECK either)
    check: int = HORIZON - 2
    # checked `CHECK` turns ahead: did `HORIZON - 1` agree with `horizon`? (None: not solved)
    agreed_h3: bool | None = None
    # each option's win chance in the twin's own solve (the face-up cards swapped, the same
    # duel: `FACE_UP_INERT`), at the same look-ahead; empty where there is none
    options_twin: dict[Character, dict[str, float]] = field(default_factory=dict)
    # each option's win chance `HORIZON` turns ahead, where practice's own solve looks (the
    # same as `options` where that is the look-ahead of record)
    options_h4: dict[Character, dict[str, float]] = field(default_factory=dict)
    # not settled because a second Exchange in a line moves it (`exchange_check`): `check`
    # is then `horizon`, the figures there compared with two Exchanges allowed
    by_exchange: bool = False
    exchange_checked: bool = False  # checked with a second Exchange (agreeing or not)
    # the Exchanges a line may hold in the figures of record: 1, or k (one of `MORE_COUNTS`)
    # for a position a second Exchange moved that settled allowing more
    # (`more_exchanges`); `check` is then `horizon`, and the figures compared are those
    # with k - 1 Exchanges (`compared_exchanges`)
    exchanges: int = 1


@cache
def _stored(variant: str) -> dict[str, np.ndarray] | None:
    z = packaged(f"hidden-{variant}.npz")
    return None if z is None else of_record(z)


def of_record(z: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The stored arrays with each position's figures of record in one place, so every
    reader (the page, the map, puzzles, the quiz) reads the same: `mover`, `other`,
    `option_*` and `exploitability` from the deepest look-ahead solved (`DEEPEST` where a
    position was solved that far, else `HORIZON`), `horizon_at` that look-ahead, and
    `<row>_compared` the figures of the look-ahead it was compared with (`check_horizon`:
    `HORIZON - 2`, or `CHECK`), `option_value_twin` the twin's, `option_value_h4` the
    options' figures `HORIZON` turns ahead. A position settled between two look-aheads that
    a second Exchange in a line moves (`exchange_check`) is not settled: `by_exchange` marks
    it, its figures of record are `HORIZON` turns ahead and compared with the same allowing
    two Exchanges (`check_horizon` is then `HORIZON` too). One that settles with more
    Exchanges allowed (`more_exchanges`) is settled again: its figures of record are then
    `HORIZON` turns ahead allowing k of them (`exchanges_at`: one of `MORE_COUNTS`),
    compared with k - 1.
    The file keeps every look-ahead's own arrays."""
    out = dict(z)
    shape = z["moved"].shape
    # settled between two look-aheads, and moved by a second Exchange (`exchange_check`):
    # not settled, its figures of record four turns ahead with one Exchange, compared with
    # the same look-ahead allowing two
    x2 = _more_wanted(z)
    # of those, settled with more Exchanges (`more_exchanges`): its figures of record four
    # turns ahead allowing k, compared with k - 1
    levels = {k: _more_settled(z, k) for k in MORE_COUNTS}
    # settled with more Exchanges, whatever their count: no longer moved by the second
    more = np.logical_or.reduce(list(levels.values()))
    deep = (np.isfinite(z["value_h6"].astype(float)) & ~x2 if "value_h6" in z
            else np.zeros(shape, dtype=bool))
    exchanges_at = np.ones(shape, dtype=np.int8)
    for name in DEEPEST_ARRAYS[1:]:
        if f"{name}_h6" in z and name in z:
            out[name] = np.where(spread(deep, z[name]), z[f"{name}_h6"], z[name])
        for k, at in levels.items():
            if at.any() and name in out:
                out[name] = np.where(spread(at, out[name]), z[f"{name}_x{k}"], out[name])
    for k, at in levels.items():
        exchanges_at[at] = k
    out["horizon_at"] = np.where(deep, DEEPEST, int(z["horizon"])).astype(np.int8)
    out["exchanges_at"] = exchanges_at
    check = (z["check_horizon"] if "check_horizon" in z
             else np.full(shape, HORIZON - 2, dtype=np.int8))
    for name in ("mover", "other", "option_value"):
        prev = z.get(f"{name}_prev", z[name])
        if f"{name}_h5" in z:
            prev = np.where(spread(check == CHECK, prev), z[f"{name}_h5"], prev)
        if x2.any():
            prev = np.where(spread(x2, prev), z[f"{name}_x2"], prev)
        for k, at in levels.items():
            if at.any():  # compared with one Exchange fewer
                prev = np.where(spread(at, prev), z[f"{name}_x{k - 1}"], prev)
        out[f"{name}_compared"] = prev
    out["by_exchange"] = (x2 & ~more).astype(np.int8)
    if x2.any():
        out["settled"] = np.where(x2 & ~more, 0, z["settled"]).astype(np.int8)
        out["check_horizon"] = np.where(x2, HORIZON, check).astype(np.int8)
        out["moved"] = np.where(x2, z["moved_x2"], z["moved"])
        if "agree_h3" in z:
            out["agree_h3"] = np.where(x2, UNSCREENED, z["agree_h3"]).astype(np.int8)
    for k, at in levels.items():
        if at.any():  # the value with k Exchanges minus with k - 1
            out["moved"] = np.where(at, z[f"value_x{k}"] - z[f"value_x{k - 1}"], out["moved"])
    out["option_value_twin"] = _twin_figures(out, "option_value")
    # every position's options `HORIZON` turns ahead, whatever look-ahead is of record:
    # practice plays a duel out solving it that far ahead (`practice.HORIZON`), so a puzzle's
    # point must hold there too
    out["option_value_h4"] = z["option_value"]
    return out


def _twin_figures(z: dict[str, np.ndarray], name: str) -> np.ndarray:
    """Each position's twin's figures of record (the face-up cards swapped: the same duel,
    solved on its own), where the twin was solved independently at the same look-ahead and
    read from the same one; NaN elsewhere (a pair of the same card, another rule set, a
    twin whose figures are a copy of this position's)."""
    own = z[name]
    out = np.full(own.shape, np.nan, dtype=own.dtype)
    if str(z.get("variant", "")) not in FACE_UP_INERT:
        return out
    shape = z["moved"].shape
    none = np.zeros(shape, dtype=np.int8)
    mirrored = z.get("mirrored_h6", none)
    for k in MORE_COUNTS:
        mirrored = mirrored | z.get(f"mirrored_x{k}", none)
    check = z.get("check_horizon", none)
    exchanges = z.get("exchanges_at", none)
    for i, j in _twin_pairs([str(p) for p in z["pairs"]]).items():
        alike = ((z["horizon_at"][i] == z["horizon_at"][j])
                 & (check[i] == check[j]) & (exchanges[i] == exchanges[j])
                 & (mirrored[i] == 0) & (mirrored[j] == 0))
        out[i] = np.where(spread(alike, own[j]), own[j], np.nan)
    return out


def lookup(revealed: Pair, coins: tuple[int, int], you: int, first: int,
           variant: str = "base") -> HiddenEntry | None:
    """The stored solution of a position, seen by player `you` (0 or 1), or None when it
    is not in the table (another rule set, no table, or the mover has 7 coins or more)."""
    z = _stored(variant)
    if z is None:
        return None
    mover = first
    # the stored frame has the mover as player 0
    pair = (revealed[mover], revealed[1 - mover])
    a, b = coins[mover], coins[1 - mover]
    names = [str(p) for p in z["pairs"]]
    key = f"{pair[0].value}-{pair[1].value}"
    if key not in names or not 0 <= a < MOVER_COINS or not 0 <= b <= MAX_COINS:
        return None
    i = names.index(key)
    chars = [Character(c) for c in z["characters"]]
    row = "mover" if you == mover else "other"
    win = {c: float(z[row][i, a, b, k]) for k, c in enumerate(chars)
           if not np.isnan(z[row][i, a, b, k])}
    # a table written before settledness was stored says nothing of it: nothing is settled
    old = "settled" not in z
    check = int(z["check_horizon"][i, a, b]) if "check_horizon" in z else HORIZON - 2
    # the figures of the look-ahead compared (`of_record`)
    win_prev = win if old else {c: float(z[row + "_compared"][i, a, b, k])
                                for k, c in enumerate(chars) if c in win}
    options: dict[Character, list[tuple[str, float, float, dict[Character, float]]]] = {}
    options_prev: dict[Character, dict[str, float]] = {}
    options_twin: dict[Character, dict[str, float]] = {}
    options_h4: dict[Character, dict[str, float]] = {}
    twin = z.get("option_value_twin")
    four = z.get("option_value_h4")
    if you == mover:
        moves = [str(m) for m in z["option_move"][i, a, b]]
        for k, c in enumerate(chars):
            if c not in win:
                continue
            rows = []
            for j, mv in enumerate(moves):
                if not mv:
                    continue
                against = {chars[e]: float(v) for e, v in
                           enumerate(z["option_against"][i, a, b, k, j]) if not np.isnan(v)}
                rows.append((mv, float(z["option_value"][i, a, b, k, j]),
                             float(z["option_freq"][i, a, b, k, j]), against))
                options_prev.setdefault(c, {})[mv] = float(
                    z["option_value" if old else "option_value_compared"][i, a, b, k, j])
                if twin is not None and not np.isnan(twin[i, a, b, k, j]):
                    options_twin.setdefault(c, {})[mv] = float(twin[i, a, b, k, j])
                if four is not None and not np.isnan(four[i, a, b, k, j]):
                    options_h4.setdefault(c, {})[mv] = float(four[i, a, b, k, j])
            options[c] = sorted(rows, key=lambda r: -r[1])
    screened = int(z["agree_h3"][i, a, b]) if "agree_h3" in z else UNSCREENED
    return HiddenEntry(you == mover, win, float(z["exploitability"][i, a, b]),
                       float(z["moved"][i, a, b]), int(z["horizon_at"][i, a, b]), options,
                       False if old else bool(z["settled"][i, a, b]), win_prev, options_prev,
                       check, None if screened == UNSCREENED else bool(screened), options_twin,
                       options_h4, bool(z["by_exchange"][i, a, b]) if "by_exchange" in z
                       else False, "agree_x2" in z and int(z["agree_x2"][i, a, b]) != UNSCREENED,
                       int(z["exchanges_at"][i, a, b]) if "exchanges_at" in z else 1)


def build(out: Path = DEFAULT_OUT, *, variant: str = "base", horizon: int = HORIZON,
          executor: str = "auto", processes: int = 1, address: str | None = None,
          pairs: list[Pair] | None = None,
          progress: Callable[[int, int], None] | None = None) -> Built:
    """Solve every stored position, one job per face-up pair and mover's coins, each saved
    in `parts_dir(out)` as it finishes; then write `out`. A build stopped half-way starts
    again from its parts. `pairs` narrows the build (for tests)."""
    start = time.perf_counter()
    wanted = pairs or ordered_pairs(variant)
    parts = parts_dir(out)
    parts.mkdir(parents=True, exist_ok=True)

    def part(pair: Pair, a: int) -> Path:
        return parts / f"{pair[0].value}-{pair[1].value}-{a}-h{horizon}.npz"

    keys = [(pair, a) for pair in wanted for a in range(MOVER_COINS)]
    done, resumed = run_parts(
        solve_slice, keys, lambda key: (key[0][0].value, key[0][1].value, key[1], variant,
                                        horizon),
        lambda key: part(*key), executor=executor, processes=processes, address=address,
        progress=progress)
    total = len(keys)
    chars = get_variant(variant).characters
    stacked = {name: np.stack([np.stack([done[(pair, a)][name] for a in range(MOVER_COINS)])
                               for pair in wanted])
               for name in done[(wanted[0], 0)]}
    # win chances to 7 digits are plenty, and halve the file
    stacked = {k: a.astype(np.float32) if a.dtype == np.float64 else a
               for k, a in stacked.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    _save(out, variant=np.array(variant), horizon=np.array(horizon),
          characters=np.array([c.value for c in chars]),
          pairs=np.array([f"{x.value}-{y.value}" for x, y in wanted]), **stacked,
          **build_record(start, processes, resumed))
    drop_parts(keys, lambda key: part(*key), parts)
    _stored.cache_clear()
    return Built(out, out.stat().st_size, time.perf_counter() - start, total - resumed,
                 resumed)


@dataclass(frozen=True)
class StoredSolution:
    """A stored position read the way a fresh `hidden.solve` is read (the page takes
    either): player 0's chances, the mover's options per card with engine moves of this
    position, and how exact the stored figures are."""

    mover: int
    value: float
    card_values: dict[Character, float]
    exploitability: float
    moved: float
    horizon: int
    _chances: tuple[dict[Character, float], dict[Character, float]]
    _against: dict[Character, dict[Character, float]]
    _options: dict[Character, list[hidden.Option]]
    settled: bool = False  # by `settled.compare`, when the table was built
    # the same figures at the `check_horizon` look-ahead: player 0's chance per card, and
    # each of the mover's options' win chance per card (by move)
    card_values_prev: dict[Character, float] = field(default_factory=dict)
    options_prev: dict[Character, dict[Move, float]] = field(default_factory=dict)
    iterations: int = 0
    tree_nodes: int = 0
    cut_nodes: int = 0
    # the look-ahead `*_prev` come from: `HORIZON - 2`, or `CHECK` where the position was
    # checked deeper because it did not settle between `HORIZON - 2` and `HORIZON`
    check_horizon: int = HORIZON - 2
    agreed_h3: bool | None = None  # see `HiddenEntry.agreed_h3`
    options_twin: dict[Character, dict[Move, float]] = field(default_factory=dict)  # the same
    by_exchange: bool = False  # see `HiddenEntry.by_exchange`
    exchange_checked: bool = False  # see `HiddenEntry.exchange_checked`
    exchanges: int = 1  # see `HiddenEntry.exchanges`

    def card_chance(self, player: int) -> dict[Character, float]:
        return dict(self._chances[player])

    def against(self, card: Character) -> dict[Character, float]:
        return dict(self._against[card])

    def options(self, card: Character) -> list[hidden.Option]:
        return list(self._options.get(card, []))


def stored_solution(revealed: Pair, coins: tuple[int, int], first: int,
                    variant: str = "base") -> StoredSolution | None:
    """The table's solution of a position in player 0's frame, or None if not stored."""
    mine = lookup(revealed, coins, 0, first, variant)
    movers = lookup(revealed, coins, first, first, variant)
    if mine is None or movers is None:
        return None
    graph = public_graph(revealed, variant)
    chars = graph.characters
    chances: list[dict[Character, float]] = [{}, {}]
    for w in graph.worlds:
        for p in (0, 1):
            c = chars[w[p]]
            chances[p][c] = chances[p].get(c, 0.0) + graph.deal_chance(w)
    against: dict[Character, dict[Character, float]] = {}
    for w in graph.worlds:
        mc, oc = chars[w[first]], chars[w[1 - first]]
        against.setdefault(mc, {})[oc] = graph.deal_chance(w) / chances[first][mc]
    root = graph.game(next(iter(graph.worlds)), coins, first)
    by_action = {m.action: m for m in root.legal_moves()}
    stored_moves = {str(m): m for m in graph.game(
        next(iter(graph.worlds)), (coins[first], coins[1 - first]), 0).legal_moves()}
    options: dict[Character, list[hidden.Option]] = {}
    options_prev: dict[Character, dict[Move, float]] = {}
    options_twin: dict[Character, dict[Move, float]] = {}
    for card, rows in movers.options.items():
        listed = []
        best = max(r[1] for r in rows)
        for text, value, freq, vs in rows:
            move = by_action[stored_moves[text].action]
            listed.append(hidden.Option(move, root.describe(move), value, best - value, freq,
                                        vs))
            options_prev.setdefault(card, {})[move] = movers.options_prev[card][text]
            twin = movers.options_twin.get(card, {})
            if text in twin:
                options_twin.setdefault(card, {})[move] = twin[text]
        options[card] = listed
    value = sum(chances[0][c] * v for c, v in mine.win_chance.items())
    return StoredSolution(first, value, dict(mine.win_chance), mine.exploitability,
                          mine.moved, mine.horizon, (chances[0], chances[1]), against,
                          options, mine.settled, dict(mine.win_chance_prev), options_prev,
                          cut_nodes=1, check_horizon=mine.check, agreed_h3=mine.agreed_h3,
                          options_twin=options_twin, by_exchange=mine.by_exchange,
                          exchange_checked=mine.exchange_checked, exchanges=mine.exchanges)


def win_grid(revealed: Pair, card: Character, first: int, variant: str = "base",
             shorter: bool = False) -> np.ndarray | None:
    """Player 0's chance of winning holding `card`, cards hidden, for every coin count
    `[coins0, coins1]` with `first` to act (a mover with 7 coins or more coups and wins);
    NaN where the table has no entry, None when there is no table. `shorter`: the same at
    the look-ahead each position was compared with (`of_record`), the other end of a
    range. Read straight from the stored arrays: a page draws it on every rerun."""
    def block(z: dict[str, np.ndarray], i: int, rows: int, cols: int) -> np.ndarray | None:
        chars = [Character(c) for c in z["characters"]]
        if card not in chars:
            return None
        # the stored frame has the mover first: [pair, mover's coins, other's coins, card]
        name = "mover" if first == 0 else "other"
        if shorter:
            name += "_compared"
        return np.asarray(z[name][i, :rows, :cols, chars.index(card)], dtype=float)

    return _grid(revealed, first, variant, block, 1.0)


def settled_grid(revealed: Pair, first: int, variant: str = "base") -> np.ndarray | None:
    """Whether each coin count's position is settled (`settled.compare`), laid out as
    `win_grid`: 1.0 settled, 0.0 not, and 1.0 where the mover coups (nothing to settle);
    NaN outside the table, None when there is no table."""
    def block(z: dict[str, np.ndarray], i: int, rows: int, cols: int) -> np.ndarray:
        if "settled" not in z:
            return np.zeros((rows, cols))
        return np.asarray(z["settled"][i, :rows, :cols], dtype=float)

    return _grid(revealed, first, variant, block, 1.0, 1.0)


def _grid(revealed: Pair, first: int, variant: str,
          block: Callable[[dict[str, np.ndarray], int, int, int], np.ndarray | None],
          mover_wins: float, other_wins: float | None = None) -> np.ndarray | None:
    """A coin grid in player 0's frame from the stored block of the face-up pair with the
    mover first (`block(z, pair index, rows, cols)`, None for nothing to show)."""
    z = _stored(variant)
    if z is None:
        return None
    m = MAX_COINS + 1
    grid = np.full((m, m), np.nan)
    key = f"{revealed[first].value}-{revealed[1 - first].value}"
    names = [str(p) for p in z["pairs"]]
    if key in names:
        rows = min(MOVER_COINS, z["mover"].shape[1])
        cols = min(m, z["mover"].shape[2])
        seat = block(z, names.index(key), rows, cols)
        if seat is not None:
            _place(grid, seat, first, rows, cols, mover_wins, other_wins)
    return grid


def _place(grid: np.ndarray, seat: np.ndarray, first: int, rows: int, cols: int,
           mover_wins: float, other_wins: float | None = None) -> None:
    """A stored block `[mover's coins, other's coins]` into player 0's frame, with the
    positions where the mover has 7 coins or more (a coup) filled in."""
    if first == 0:
        grid[:rows, :cols] = seat
        grid[MOVER_COINS:, :] = mover_wins
    else:
        grid[:cols, :rows] = seat.T
        grid[:, MOVER_COINS:] = 1.0 - mover_wins if other_wins is None else other_wins


def face_up_grid(revealed: Pair, card: Character, first: int,
                 variant: str = "base") -> np.ndarray:
    """The same with both cards face up, averaged over the other player's card as the deal
    gives it to someone holding `card`: what seeing each other's cards would be worth."""
    from trainer.endgame.tables import known_values

    table = known_values(revealed, variant)
    graph = public_graph(revealed, variant)
    c = graph.characters.index(card)
    weights = {w[1]: graph.deal_chance(w) for w in graph.worlds if w[0] == c}
    total = sum(weights.values())
    grid = sum(p / total * table.values[c, e, :, :, first] for e, p in weights.items())
    return np.asarray(grid)
