"""Does a horizon where each player picks a way of playing on settle what the face-up horizon
does not?

The hidden-role solver cuts its tree a few turns ahead. The stored table values each cut as if
both cards were face up, and `bench/leaf_check.py` found that valuing it by the stored
strategies played on is worse: a strategy worked out for a fresh deal is not what a player plays
once the moves so far have told them something, and the solver above the cut plays against it.
Brown, Sandholm and Amos's depth-limited solving (2018) answers exactly that: at the cut each
player picks, unseen by the other, one of a few ways of playing on, so neither can count on the
other keeping to one strategy (`hidden.solve(continuations=…)`, the leaf game).

The ways here, for each player, in a solve of the cut's own position from a fresh deal a few
turns ahead (`--ahead`, face-up after that): the solved strategy itself; a bolder one (every
bluff, a claim of a card not held, and every challenge five times as likely, then each decision's
chances scaled back to one); and a warier one (a fifth as likely). `--ways 5` biases bluffs and
challenges apart, `--ways 1` keeps the solved strategy alone, and `--ways beliefs` takes the
strategies of eleven solves of the position from other deals (`Ways._by_belief`). A cut's
table is each pair of ways played against each other, for each pair of face-down cards
(`Solution.pair_values`).

Two samples, each solved three and four turns ahead with the leaf game:

- *held out*: positions the stored table settled six turns ahead (their value moved at most a
  tenth of a point from five to six turns), whose six-turn figures are taken as the truth: how
  far the four-turn value is off, for how many cards the move best at four turns is not best at
  six, and how many positions the leaf game settles between three and four turns that the
  six-turn figures contradict;
- *unsettled*: positions the stored table does not settle: how many the leaf game settles
  between three and four turns.

    python bench/leaf_game.py [--held 24] [--unsettled 12] [--seed 1] [--ahead 2]
        [--ways 3|5|1|beliefs] [--processes 2]

Last line: `leaf_game held <n> faceup_h4_err_pp_median <…> faceup_h4_err_pp_max <…>
game_h4_err_pp_median <…> game_h4_err_pp_max <…> game_settled_held <…> game_settled_wrong <…>
faceup_best_wrong <…> game_best_wrong <…> unsettled <n> game_settled_unsettled <…> cpu_s <…>`.
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

import leaf_check  # noqa: E402  (bench/ is this script's own folder)
from leaf_check import _best_wrong, _options, draw, held_out  # noqa: E402

from trainer.endgame import hidden, hidden_tables, settled  # noqa: E402
from trainer.endgame.claims import claimed  # noqa: E402
from trainer.endgame.tables import packaged  # noqa: E402
from trainer.engine.cards import Character  # noqa: E402
from trainer.engine.moves import Move, MoveKind  # noqa: E402

TARGET = hidden_tables.TARGET
# (name, factor on a bluff, factor on a challenge)
WAY_SETS = {
    "3": (("as solved", 1.0, 1.0), ("bolder", 5.0, 5.0), ("warier", 0.2, 0.2)),
    "5": (("as solved", 1.0, 1.0), ("bluffs more", 5.0, 1.0), ("bluffs less", 0.2, 1.0),
          ("challenges more", 1.0, 5.0), ("challenges less", 1.0, 0.2)),
    "1": (("as solved", 1.0, 1.0),),
}
# The ways as the strategies of other deals (`Ways._by_belief`): one player's card made this
# many times as likely to be each card in turn.
BELIEFS = (("by belief", 1.0, 1.0),)
WAY_SETS["beliefs"] = BELIEFS
SKEW = 4.0
WAYS = WAY_SETS["3"]


def _factor(move: Move, card: Character, bluff: float, challenge: float) -> float:
    if move.kind is MoveKind.CHALLENGE:
        return challenge
    if move.kind is MoveKind.ACT:
        claim = claimed(move)
        return bluff if claim is not None and claim is not card else 1.0
    if move.kind is MoveKind.BLOCK and move.character is not None:
        return bluff if move.character is not card else 1.0
    return 1.0


def biased(s: hidden.Solution, p: int, bluff: float, challenge: float) -> np.ndarray:
    """Player p's solved strategy with every bluff and every challenge made `bluff` and
    `challenge` times as likely, each decision's chances scaled back to one."""
    sigma = s.strategy[p].copy()
    if bluff == 1.0 and challenge == 1.0:
        return sigma
    f, tree = s.flows[p], s.tree
    for node, kind in enumerate(tree.kind):
        if kind != hidden.DECISION or tree.decider[node] != p:
            continue
        moves = tree.moves[node]
        sp = s.spaces.spaces[tree.space[node]]
        for state, label in enumerate(sp.cards[p]):
            card = s.graph.labels[p][int(label)][0]
            fac = np.array([_factor(m, card, bluff, challenge) for m in moves])
            if (fac == 1.0).all():
                continue
            start = int(f.info_start[f.infos[(node, state)]])
            row = sigma[start:start + len(moves)] * fac
            if row.sum() > 0:
                sigma[start:start + len(moves)] = row / row.sum()
    return sigma


class Ways:
    """The leaf game's tables of one pair of face-up cards, worked out per cut position
    (coins and the player to act) on first use."""

    def __init__(self, revealed: tuple[Character, Character], ahead: int) -> None:
        self.revealed = revealed
        self.ahead = ahead
        self.tables: dict[tuple[tuple[int, int], int], np.ndarray] = {}

    def __call__(self, coins: tuple[int, int], first: int) -> np.ndarray:
        key = (coins, first)
        found = self.tables.get(key)
        if found is None:
            s = hidden.solve(self.revealed, coins, first, horizon=self.ahead, target=TARGET,
                             iterations=hidden_tables.ITERATIONS)
            if WAYS == BELIEFS:
                ways = self._by_belief(s, coins, first)
            else:
                ways = [[biased(s, p, b, c) for _, b, c in WAYS] for p in (0, 1)]
            k = len(ways[0])
            found = np.zeros((k, k, 5, 5))
            for k0 in range(k):
                for k1 in range(k):
                    found[k0, k1] = np.nan_to_num(s.pair_values((ways[0][k0], ways[1][k1])))
            self.tables[key] = found
        return found

    def _by_belief(self, s: hidden.Solution, coins: tuple[int, int], first: int
                   ) -> list[list[np.ndarray]]:
        """Each player's strategies of the cut's position solved from other deals: the fresh
        deal, and the deal with one player's card made `SKEW` times as likely to be each
        card in turn. Reweighing a deal card by card keeps every Exchange's merged states (two
        histories whose chances over the other's states are proportional stay proportional),
        so each solve's strategies fit the fresh solve's tree, where the pairs are played."""
        fresh = s.spaces.spaces[0].chance
        n0, n1 = fresh.shape
        profiles = [(np.ones(n0), np.ones(n1))]
        for c in range(n0):
            profiles.append((np.where(np.arange(n0) == c, SKEW, 1.0), np.ones(n1)))
        for c in range(n1):
            profiles.append((np.ones(n0), np.where(np.arange(n1) == c, SKEW, 1.0)))
        ways: list[list[np.ndarray]] = [[s.strategy[0]], [s.strategy[1]]]
        for r0, r1 in profiles[1:]:
            deal = fresh * np.outer(r0, r1)
            if not (deal > 0).any():
                continue
            other = hidden.solve(self.revealed, coins, first, horizon=self.ahead,
                                 target=TARGET, iterations=hidden_tables.ITERATIONS,
                                 deal=deal)
            if other.tree_nodes != s.tree_nodes or any(
                    len(other.strategy[p]) != len(s.strategy[p]) for p in (0, 1)):
                raise AssertionError("a reweighed deal changed the tree's layout")
            for p in (0, 1):
                ways[p].append(other.strategy[p])
        return ways


_Z: dict[str, np.ndarray] = {}
_AHEAD: list[int] = []
_WAYS: dict[tuple[Character, Character], Ways] = {}


def _init(ahead: int, ways: str = "3") -> None:
    global WAYS
    WAYS = WAY_SETS[ways]
    raw = packaged("hidden-base.npz")
    assert raw is not None
    _Z.update(dict(raw))
    _AHEAD.append(ahead)


def solve_one(key: tuple[int, int, int]) -> dict[str, object]:
    """One position solved three and four turns ahead with the leaf game."""
    i, a, b = key
    names = [str(p) for p in _Z["pairs"]]
    chars = [Character(c) for c in _Z["characters"]]
    x, y = names[i].split("-")
    revealed = (Character(x), Character(y))
    ways = _WAYS.setdefault(revealed, Ways(revealed, _AHEAD[0]))
    moves = [str(m) for m in _Z["option_move"][i, a, b]]
    start = time.process_time()
    solves = [hidden.solve(revealed, (a, b), 0, horizon=h, target=TARGET,
                           iterations=hidden_tables.ITERATIONS, continuations=ways)
              for h in (3, 4)]
    return {"key": key, "values": [s.value for s in solves],
            "options": [_options(s, moves, chars) for s in solves],
            "cpu": time.process_time() - start, "cuts": len(ways.tables)}


def _value(name: str, i: int, a: int, b: int) -> float:
    return leaf_check._value(_Z, name, i, a, b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--held", type=int, default=24)
    ap.add_argument("--unsettled", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ahead", type=int, default=2)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--ways", choices=sorted(WAY_SETS), default="3")
    args = ap.parse_args()
    _init(args.ahead, args.ways)
    rng = np.random.default_rng(args.seed)
    six = held_out(_Z)
    loose = ~_Z["settled"].astype(bool) & np.isfinite(_Z["value_h3"].astype(float))

    held, unsettled = draw(six, args.held, rng), draw(loose, args.unsettled, rng)
    with Pool(args.processes, initializer=_init, initargs=(args.ahead, args.ways)) as pool:
        results = list(tqdm(pool.imap(solve_one, held + unsettled),
                            total=len(held) + len(unsettled), unit="position",
                            file=sys.stderr))
    names = [str(p) for p in _Z["pairs"]]
    face_err, game_err, face_wrong, game_wrong, settles, wrong, cpu = [], [], 0, 0, 0, 0, 0.0
    print(f"{'position':<26} {'6 turns':>8} {'4 face-up':>10} {'3 game':>8} {'4 game':>8}")
    for r in results[:len(held)]:
        i, a, b = r["key"]  # type: ignore[misc]
        truth = _value("mover_h6", i, a, b)
        face = _value("mover", i, a, b)
        v3, v4 = r["values"]  # type: ignore[misc]
        o3, o4 = r["options"]  # type: ignore[misc]
        face_err.append(abs(face - truth) * 100)
        game_err.append(abs(v4 - truth) * 100)
        face_wrong += _best_wrong(_Z["option_value"][i, a, b], _Z["option_value_h6"][i, a, b])
        game_wrong += _best_wrong(o4, _Z["option_value_h6"][i, a, b])
        if settled.compare(v3, v4, o3, o4).settled:
            settles += 1
            wrong += not settled.compare(v4, truth, o4, _Z["option_value_h6"][i, a, b]).settled
        cpu += float(r["cpu"])  # type: ignore[arg-type]
        print(f"{names[i] + f' {a}-{b}':<26} {truth:>8.4f} {face:>10.4f} {v3:>8.4f} "
              f"{v4:>8.4f}")
    print(f"{'unsettled position':<26} {'3 table':>8} {'4 table':>10} {'3 game':>8} "
          f"{'4 game':>8} settled")
    loose_settles = 0
    for r in results[len(held):]:
        i, a, b = r["key"]  # type: ignore[misc]
        v3, v4 = r["values"]  # type: ignore[misc]
        o3, o4 = r["options"]  # type: ignore[misc]
        ok = settled.compare(v3, v4, o3, o4).settled
        loose_settles += ok
        cpu += float(r["cpu"])  # type: ignore[arg-type]
        print(f"{names[i] + f' {a}-{b}':<26} {float(_Z['value_h3'][i, a, b]):>8.4f} "
              f"{_value('mover', i, a, b):>10.4f} {v3:>8.4f} {v4:>8.4f} {ok}")
    print(f"leaf_game held {len(held)} "
          f"faceup_h4_err_pp_median {statistics.median(face_err):.2f} "
          f"faceup_h4_err_pp_max {max(face_err):.2f} "
          f"game_h4_err_pp_median {statistics.median(game_err):.2f} "
          f"game_h4_err_pp_max {max(game_err):.2f} "
          f"game_settled_held {settles} game_settled_wrong {wrong} "
          f"faceup_best_wrong {face_wrong} game_best_wrong {game_wrong} "
          f"unsettled {len(unsettled)} game_settled_unsettled {loose_settles} "
          f"cpu_s {cpu:.1f}")


if __name__ == "__main__":
    main()
