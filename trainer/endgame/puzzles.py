"""Practice puzzles, chosen from the stored hidden-role table because they teach something.

Why from the table and not by hand: a puzzle's point must be true, and the table knows each
option's exact value. Three kinds are picked, each worded for the learner by the page:

- **bluff**: the best option claims a card you do not hold, and every honest option is at
  least `BLUFF_GAP` worse: the duel is won by lying.
- **trap**: the obvious move (your own card's action when you can pay for it, else Income)
  loses at least `TRAP_GAP` against the best.
- **hold**: you are behind (under `HOLD_VALUE` with best play); the goal is to still be in
  the duel after two of their turns.

Only *settled* positions are used (`trainer.endgame.settled`: between the two horizons solved
the value moved at most a tenth of a point and no card's best option changed), so a puzzle's
answer does not hang on the horizon. Settled says nothing firm of a weaker option, though, and
a bluff's or a trap's point is about weaker options (every honest one, the obvious one): so
the point must hold at every reading the table has of the position, its own horizon, the
horizon it was compared with, where it has one, its twin's separate solve, and four turns
ahead, where practice's own solve looks when the puzzle is played out (a position settled only
five or six turns ahead can name another best move there), and with a line allowed a second
Exchange (`hidden_tables.exchange_check`). Difficulty
comes from the value gap between the best option and the next-best move: a close call is hard.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from trainer.endgame import hidden_tables as ht
from trainer.endgame.known import MAX_COINS
from trainer.endgame.practice import Goal
from trainer.endgame.public import public_graph
from trainer.endgame.settled import TOLERANCE
from trainer.engine.cards import Action, Character
from trainer.engine.game import Game
from trainer.engine.moves import Move
from trainer.engine.variants import get_variant

BLUFF_GAP = 0.05
TRAP_GAP = 0.10
HOLD_VALUE = 0.35
HOLD_TURNS = 2
KINDS = ("bluff", "trap", "hold")
# Difficulty by the gap between the best option and the next-best distinct one.
HARD_GAP, MEDIUM_GAP = 0.03, 0.08


@dataclass(frozen=True)
class Puzzle:
    """A position to play out from the mover's seat, its goal and why it was chosen."""

    id: str
    kind: str
    card: Character  # the learner's card
    lost: tuple[Character, Character]  # face up: the learner's, then the opponent's
    coins: tuple[int, int]  # the learner's, then the opponent's; the learner acts first
    goal: Goal
    value: float  # the learner's win chance with best play
    gap: float  # best option minus the next-best, in win probability
    best: Move
    obvious: Move | None  # for a trap: the move that looks right

    @property
    def difficulty(self) -> str:
        if self.gap < HARD_GAP:
            return "hard"
        return "medium" if self.gap < MEDIUM_GAP else "easy"


def _obvious(card: Character, moves: list[Move], coins: int, variant: str) -> Move | None:
    """Your own card's action when you can pay for it, else Income."""
    v = get_variant(variant)
    for m in moves:
        if m.action is not None and v.spec(m.action).claim is card \
                and v.spec(m.action).cost <= coins:
            return m
    return next((m for m in moves if m.action is Action.INCOME), None)


@cache
def puzzles(variant: str = "base") -> tuple[Puzzle, ...]:
    """Every puzzle the stored table offers, easiest kinds first, in a fixed order."""
    z = ht._stored(variant)
    if z is None:
        return ()
    v = get_variant(variant)
    chars = [Character(c) for c in z["characters"]]
    # a table from before settledness was stored: no position counts as settled
    settled = z["settled"] if "settled" in z else np.zeros(z["moved"].shape, dtype=bool)
    out: list[Puzzle] = []
    for i, name in enumerate(str(p) for p in z["pairs"]):
        a_name, b_name = name.split("-")
        lost = (Character(a_name), Character(b_name))
        graph = public_graph(lost, variant)
        for a in range(ht.MOVER_COINS):
            for b in range(MAX_COINS + 1):
                if not settled[i, a, b]:
                    continue
                world = graph.worlds[0]
                moves = list(graph.game(world, (a, b), 0).legal_moves())
                stored = [str(m) for m in z["option_move"][i, a, b] if str(m)]
                by_text = {str(m): m for m in moves}
                order = [by_text[t] for t in stored]
                for k, card in enumerate(chars):
                    values = z["option_value"][i, a, b, k, :len(order)]
                    if np.isnan(values).any():
                        continue
                    others = [x[i, a, b, k, :len(order)] for x in (
                        z.get("option_value_compared"), z.get("option_value_twin"),
                        z.get("option_value_h4"), z.get("option_value_x2"),
                        z.get("option_value_x2h3"), z.get("option_value_x3h3"))
                        if x is not None]
                    out.extend(_classify(f"{name}-{a}-{b}-{card.value}", card, lost, (a, b),
                                         order, values, float(z["mover"][i, a, b, k]), v.name,
                                         [o for o in others if not np.isnan(o).any()]))
    rank = {k: n for n, k in enumerate(KINDS)}
    return tuple(sorted(out, key=lambda p: (rank[p.kind], p.difficulty != "easy", p.id)))


def _classify(key: str, card: Character, lost: tuple[Character, Character],
              coins: tuple[int, int], moves: list[Move], values: np.ndarray, value: float,
              variant: str, others: Sequence[np.ndarray] = ()) -> list[Puzzle]:
    """The puzzles a position offers holding `card`; `others`: the same options' values at
    every other reading of the position (another horizon, a twin's solve), where a bluff's
    or a trap's point must hold as well."""
    v = get_variant(variant)
    best = int(np.argmax(values))
    ranked = sorted(set(np.round(values, 6)), reverse=True)
    gap = float(ranked[0] - ranked[1]) if len(ranked) > 1 else 1.0
    readings = [values, *others]
    if any(float(np.max(r) - r[best]) > TOLERANCE for r in others):
        return []  # another reading names another best move

    def claim(m: Move) -> Character | None:
        return v.spec(m.action).claim if m.action is not None else None

    found: list[Puzzle] = []
    honest = [j for j, m in enumerate(moves) if claim(m) in (None, card)]
    best_claim = claim(moves[best])
    if best_claim is not None and best_claim is not card and honest:
        margin = min(float(r[best] - max(r[j] for j in honest)) for r in readings)
        if margin >= BLUFF_GAP:
            found.append(Puzzle(f"bluff-{key}", "bluff", card, lost, coins, Goal("win"),
                                value, margin, moves[best], None))
    obvious = _obvious(card, moves, coins[0], variant)
    if obvious is not None and obvious != moves[best]:
        lost_by = min(float(r[best] - r[moves.index(obvious)]) for r in readings)
        if lost_by >= TRAP_GAP:
            found.append(Puzzle(f"trap-{key}", "trap", card, lost, coins, Goal("win"), value,
                                gap, moves[best], obvious))
    if 0.05 <= value < HOLD_VALUE:
        found.append(Puzzle(f"hold-{key}", "hold", card, lost, coins,
                            Goal("survive", HOLD_TURNS), value, gap, moves[best], None))
    return found


def find(puzzle_id: str, variant: str = "base") -> Puzzle | None:
    return next((p for p in puzzles(variant) if p.id == puzzle_id), None)


@dataclass(frozen=True)
class PuzzleOptions:
    """The first decision of a puzzle, solved: each legal move and the mover's exact win
    chance after it (perfect play by both sides from then on), with the table's measures of
    trust in those values."""

    moves: tuple[Move, ...]
    values: tuple[float, ...]
    horizon: int
    exploitability: float
    moved: float
    # the same options at the look-ahead the position was compared with (`compared` turns),
    # and in its twin's separate solve (None without one): a grade counts what all agree on
    before: tuple[float, ...] = ()
    compared: int | None = None
    twin: tuple[float, ...] | None = None


def _cell(p: Puzzle, variant: str) -> tuple[Any, int] | None:
    z = ht._stored(variant)
    if z is None:
        return None
    names = [str(x) for x in z["pairs"]]
    pair = f"{p.lost[0].value}-{p.lost[1].value}"
    if pair not in names:
        return None
    return z, names.index(pair)


def options(p: Puzzle, variant: str = "base") -> PuzzleOptions | None:
    """The puzzle's first decision with every option's exact value; None when the stored
    table is missing or does not hold the position."""
    cell = _cell(p, variant)
    if cell is None:
        return None
    z, i = cell
    a, b = p.coins
    chars = [Character(c) for c in z["characters"]]
    k = chars.index(p.card)
    graph = public_graph(p.lost, variant)
    legal = {str(m): m for m in graph.game(graph.worlds[0], p.coins, 0).legal_moves()}
    stored = [str(m) for m in z["option_move"][i, a, b] if str(m)]
    n = len(stored)
    values = z["option_value"][i, a, b, k, :n]
    before = z["option_value_compared"][i, a, b, k, :n] if "option_value_compared" in z else ()
    twin = z["option_value_twin"][i, a, b, k, :n] if "option_value_twin" in z else None
    return PuzzleOptions(tuple(legal[t] for t in stored), tuple(float(x) for x in values),
                         int(z["horizon_at"][i, a, b]),
                         float(z["exploitability"][i, a, b]),
                         float(z["moved"][i, a, b]),
                         tuple(float(x) for x in before) if not np.isnan(before).any() else (),
                         int(z["check_horizon"][i, a, b]) if "check_horizon" in z else None,
                         None if twin is None or np.isnan(twin).any()
                         else tuple(float(x) for x in twin))


def puzzle_game(p: Puzzle, variant: str = "base", seed: int = 0) -> Game:
    """The engine game at the puzzle's first decision, the learner in seat 0 holding the
    puzzle's card; the opponent's hidden card is dealt by `seed`, weighed by how many copies
    the court has left (the same seed gives the same deal)."""
    graph = public_graph(p.lost, variant)
    chars = graph.characters
    worlds = [w for w in graph.worlds if chars[w[0]] == p.card]
    if not worlds:
        raise ValueError(f"puzzle {p.id}: no deal gives seat 0 a {p.card.value}")
    world = random.Random(f"{p.id}:{seed}").choices(
        worlds, weights=[graph.deal_chance(w) for w in worlds])[0]
    return graph.game(world, p.coins, 0)
