"""Does a horizon that reads the players' strategies beat a horizon that turns both cards face up?

The hidden-role solver cuts its tree a few turns ahead and values each position it stops at as
if both cards were face up and both players then played perfectly (the known-role table). The
obvious step towards a value that reads the players' beliefs (depth-limited solving, as in
DeepStack) is to value the cut instead by the hidden-role table's own solution of that public
position: both players keep to the stored strategies, each pair of face-down cards worth what
those strategies give it (`hidden.Solution.pair_values`; from the table, each card's options'
frequencies times their values against each card). This weighs each cut by the beliefs the play
so far has reached, which the face-up leaf ignores.

This bench checks that leaf against held-out truth: positions the table settled six turns ahead
(their value moved at most a tenth of a point from five to six turns, and no card's best move
changed). Each is solved three and four turns ahead with the strategy leaf, and compared with
the table's four-turn figures (face-up leaf) and its six-turn figures (taken as the truth):
how far the value is off, and for how many cards the move best at four turns is not best at six.

    python bench/leaf_check.py [--positions 12] [--seed 1] [--processes 2]

Last line: `leaf_check positions <n> faceup_h4_err_pp_median <|value at 4 turns, face-up leaf,
minus value at 6|, points> faceup_h4_err_pp_max <…> strategy_h4_err_pp_median <the same with the
strategy leaf> strategy_h4_err_pp_max <…> strategy_settled_h3_h4 <positions the strategy leaf
settles between 3 and 4 turns> strategy_settled_wrong <of those, how many the six-turn
figures contradict: a value off by more than a tenth of a point, or a best move that is not
best at six> faceup_best_wrong <cards whose best move at 4 turns, face-up
leaf, is not best at 6> strategy_best_wrong <the same with the strategy leaf> cpu_s <CPU seconds
of the strategy-leaf solves>`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.endgame import hidden, hidden_tables, settled  # noqa: E402
from trainer.endgame.known import MAX_COINS  # noqa: E402
from trainer.endgame.public import public_graph  # noqa: E402
from trainer.endgame.tables import packaged  # noqa: E402
from trainer.engine.cards import Character  # noqa: E402

TARGET = hidden_tables.TARGET
SEVEN = hidden_tables.MOVER_COINS  # a mover with this many coins coups and wins


def _table() -> dict[str, np.ndarray]:
    raw = packaged("hidden-base.npz")
    if raw is None:
        raise SystemExit("no stored hidden-role table (trainer/endgame/data/hidden-base.npz)")
    return dict(raw)


def strategy_pairs(z: dict[str, np.ndarray]) -> np.ndarray:
    """Each stored position's value for each pair of face-down cards under its stored
    strategies of record: `[pair, a, b, c0, c1]`, the mover (player 0) holding c0."""
    rec = hidden_tables.of_record(z)
    freq = np.nan_to_num(rec["option_freq"])
    against = np.nan_to_num(rec["option_against"])
    pairs: np.ndarray = np.einsum("...ck,...cke->...ce", freq, against)
    return pairs


def strategy_leaf(revealed: tuple[Character, Character], names: list[str],
                  pairs: np.ndarray) -> hidden.Leaf:
    """The cut valued by the stored strategies played on; a mover with seven coins or more
    coups, as in the face-up table."""
    known = hidden.known_leaf(public_graph(revealed, "base"))
    here = names.index(f"{revealed[0].value}-{revealed[1].value}")
    seat = names.index(f"{revealed[1].value}-{revealed[0].value}")

    def leaf(coins: tuple[int, int], first: int) -> np.ndarray:
        a, b = coins
        if first == 0:
            return known(coins, first) if a >= SEVEN else pairs[here, a, min(b, MAX_COINS)]
        if b >= SEVEN:
            return known(coins, first)
        other: np.ndarray = 1.0 - pairs[seat, b, min(a, MAX_COINS)].T
        return other

    return leaf


_Z: dict[str, np.ndarray] = {}
_PAIRS: list[np.ndarray] = []


def _init() -> None:
    _Z.update(_table())
    _PAIRS.append(strategy_pairs(_Z))


def _options(s: hidden.Solution, moves: list[str], chars: list[Character]) -> np.ndarray:
    out = np.full((len(chars), len(moves)), np.nan)
    for card in s.card_values:
        for o in s.options(card):
            out[chars.index(card), moves.index(str(o.move))] = o.value
    return out


def solve_one(key: tuple[int, int, int]) -> dict[str, object]:
    """One held-out position solved three and four turns ahead with the strategy leaf."""
    i, a, b = key
    z = _Z
    names = [str(p) for p in z["pairs"]]
    chars = [Character(c) for c in z["characters"]]
    x, y = names[i].split("-")
    revealed = (Character(x), Character(y))
    leaf = strategy_leaf(revealed, names, _PAIRS[0])
    moves = [str(m) for m in z["option_move"][i, a, b]]
    start = time.process_time()
    solves = [hidden.solve(revealed, (a, b), 0, horizon=h, target=TARGET,
                           iterations=hidden_tables.ITERATIONS, leaf=leaf) for h in (3, 4)]
    cpu = time.process_time() - start
    return {"key": key, "values": [s.value for s in solves],
            "options": [_options(s, moves, chars) for s in solves], "cpu": cpu}


def _value(z: dict[str, np.ndarray], name: str, i: int, a: int, b: int) -> float:
    names = [str(p) for p in z["pairs"]]
    x, y = names[i].split("-")
    chance = hidden_tables._card_chances((Character(x), Character(y)), "base")
    return float(np.nansum(chance * z[name][i, a, b]))


def _best_wrong(options: np.ndarray, truth: np.ndarray) -> int:
    """Cards whose best option in `options` falls more than the tolerance below the truth's
    best."""
    return len(settled.compare(0.0, 0.0, options, truth).swapped)


def held_out(z: dict[str, np.ndarray]) -> np.ndarray:
    """Where the stored table settled a position six turns ahead: the held-out truth."""
    if "value_h6" not in z:
        raise SystemExit("the stored table has no six-turn pass to check against")
    six: np.ndarray = np.isfinite(z["value_h6"].astype(float)) & z["settled"].astype(bool)
    return six


def draw(mask: np.ndarray, n: int, rng: np.random.Generator) -> list[tuple[int, int, int]]:
    """`n` positions where `mask` holds (all if fewer), in the table's order. The benches that
    check a leaf against held-out truth draw the same sample from the same seed."""
    cells = np.argwhere(mask)
    chosen = sorted(rng.choice(len(cells), min(n, len(cells)), replace=False))
    return [(int(cells[k][0]), int(cells[k][1]), int(cells[k][2])) for k in chosen]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--processes", type=int, default=2)
    args = ap.parse_args()
    z = _table()
    picked = draw(held_out(z), args.positions, np.random.default_rng(args.seed))
    with Pool(args.processes, initializer=_init) as pool:
        results = list(tqdm(pool.imap(solve_one, picked), total=len(picked), unit="position",
                            file=sys.stderr))
    names = [str(p) for p in z["pairs"]]
    face_err, strat_err, face_wrong, strat_wrong, settles, cpu = [], [], 0, 0, 0, 0.0
    false_settled = 0
    print(f"{'position':<26} {'6 turns':>8} {'4 face-up':>10} {'3 strategy':>11} "
          f"{'4 strategy':>11}")
    for r in results:
        i, a, b = r["key"]  # type: ignore[misc]
        truth = _value(z, "mover_h6", i, a, b)
        face = _value(z, "mover", i, a, b)
        v3, v4 = r["values"]  # type: ignore[misc]
        o3, o4 = r["options"]  # type: ignore[misc]
        face_err.append(abs(face - truth) * 100)
        strat_err.append(abs(v4 - truth) * 100)
        face_wrong += _best_wrong(z["option_value"][i, a, b], z["option_value_h6"][i, a, b])
        strat_wrong += _best_wrong(o4, z["option_value_h6"][i, a, b])
        if settled.compare(v3, v4, o3, o4).settled:
            settles += 1
            false_settled += not settled.compare(
                v4, truth, o4, z["option_value_h6"][i, a, b]).settled
        cpu += float(r["cpu"])  # type: ignore[arg-type]
        print(f"{names[i] + f' {a}-{b}':<26} {truth:>8.4f} {face:>10.4f} {v3:>11.4f} "
              f"{v4:>11.4f}")
    print(f"leaf_check positions {len(results)} "
          f"faceup_h4_err_pp_median {statistics.median(face_err):.2f} "
          f"faceup_h4_err_pp_max {max(face_err):.2f} "
          f"strategy_h4_err_pp_median {statistics.median(strat_err):.2f} "
          f"strategy_h4_err_pp_max {max(strat_err):.2f} "
          f"strategy_settled_h3_h4 {settles} strategy_settled_wrong {false_settled} "
          f"faceup_best_wrong {face_wrong} "
          f"strategy_best_wrong {strat_wrong} cpu_s {cpu:.1f}")


if __name__ == "__main__":
    main()
