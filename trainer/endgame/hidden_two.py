"""Hidden-role duels of two cards against one: player 0 holds two face-down cards, player 1 one
(having lost a card), and each sees only their own.

Why the same solver as the duel of one card each (`trainer.endgame.hidden`): the public tree is
built by `trainer.endgame.public_two` from the engine's own games, and everything a second card
adds is expressed in the solver's existing terms. A hand is a *label* (a two-card hand, or the
card left after losing one); choosing which card to lose is a public decision; an edge that
ends some deals and not others is a sum of the two; a replacement drawn after showing a card,
and the card left after losing one, are private steps like an Exchange with one card kept.

The horizon's value (after `horizon` whole turns): both hands face up, from the known-role
tables: `known_two` while player 0 still holds two cards, the one-card table after. A line that
loses a card goes on in the same tree with the players' beliefs carried, so the one-card duel it
reaches is solved from what the play so far says of the cards, not from a fresh deal.

Why no line is cut at an Exchange (`exchanges=None`): the one-card solver also stops a line at
the turn after its first Exchange, which keeps its trees small, but two look-aheads that both
stop there can agree on lines neither followed. Over the stored duels two turns ahead, the cut
moved 283 of 1,690 by more than 0.1 points, up to 3.5 (Duke lost, four turns ahead, 0 coins
against 1: 94.96% with it, 92.92% without). A solve here is one to four turns deep: following
every Exchange costs a tenth more nodes two turns ahead, as the page solves, but many times
the CPU four turns ahead (that duel: 22 s with the cut, 377 s without).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from trainer.endgame import known_two, settled
from trainer.endgame.hidden import (
    DECISION,
    InTree,
    NodeLeaf,
    Spaces,
    _Flow,
    _Solver,
    _Tree,
    _unroll,
    iterate,
)
from trainer.endgame.known import no_cycle_collection
from trainer.endgame.public import Node
from trainer.endgame.public_two import Label, TwoCardGraph, TwoNode, two_card_graph
from trainer.endgame.tables import known_values
from trainer.engine.cards import Character
from trainer.engine.moves import Move

NO_EXCHANGE_CUT = 1 << 30  # more Exchanges than any line holds: none is cut at one


class NoTable(LookupError):
    """The horizon's known-role table of two cards against one is not stored."""


def known_leaf(graph: TwoCardGraph) -> NodeLeaf:
    """Both hands face up at the horizon: `known_two`'s table while player 0 holds two cards,
    the one-card table (with player 0's lost card face up) once they hold one."""
    two = known_two.table(graph.lost, graph.variant)
    if two is None:
        raise NoTable(f"no stored table of two cards against one for a lost {graph.lost} "
                      f"({known_two.stored_name(graph.variant)}): build it with "
                      f"`python -m trainer endgame build --table known2`")
    filled = np.nan_to_num(two)
    n_two = filled.shape[0]
    cache: dict[tuple[int, tuple[int, int], int], np.ndarray] = {}

    def leaf(node: Node) -> np.ndarray:
        assert isinstance(node, TwoNode)
        key = (node.shown, node.coins, node.decider)
        found = cache.get(key)
        if found is not None:
            return found
        a, b = node.coins
        out = np.zeros(graph.sizes)
        if node.shown < 0:
            out[:n_two] = filled[:, :, a, b, node.decider]
        else:
            one = known_values((graph.characters[node.shown], graph.lost), graph.variant)
            out[n_two:] = np.nan_to_num(one.values[:, :, a, b, node.decider])
        out.setflags(write=False)
        cache[key] = out
        return out

    return leaf


@dataclass(frozen=True)
class HandOption:
    """One option of the player to act holding `hand`, under equilibrium play after it: the
    mover's chance of winning, its loss against the best option, how often the equilibrium
    plays it, and the mover's chance against each hand the other player may hold."""

    move: Move
    text: str
    value: float
    loss: float
    frequency: float
    against: dict[Label, float]


@dataclass
class TwoSolution(InTree):
    """A solved duel of two cards (player 0) against one (player 1)."""

    value: float  # player 0's chance of winning
    exploitability: float
    iterations: int
    hand_values: dict[Label, float]  # player 0's chance holding each hand
    tree_nodes: int
    cut_nodes: int
    strategy: tuple[np.ndarray, np.ndarray]
    tree: _Tree = field(repr=False)
    flows: tuple[_Flow, _Flow] = field(repr=False)
    spaces: Spaces = field(repr=False)
    solver: _Solver = field(repr=False)
    graph: TwoCardGraph = field(repr=False)
    coins: tuple[int, int] = (0, 0)
    first: int = 0
    _values: dict[object, np.ndarray] = field(default_factory=dict, repr=False)
    _cf: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    _reach: list[np.ndarray] | None = field(default=None, repr=False)

    @property
    def mover(self) -> int:
        return self.tree.decider[0]

    def hands(self, player: int) -> list[Label]:
        """The hands `player` may hold at the start, in label order."""
        chance = self.spaces.spaces[0].chance.sum(axis=1 - player)
        return [self.graph.labels[player][k] for k in np.flatnonzero(chance > 0)]

    def hand_chance(self, player: int) -> dict[Label, float]:
        chance = self.spaces.spaces[0].chance.sum(axis=1 - player)
        return {self.graph.labels[player][k]: float(chance[k])
                for k in np.flatnonzero(chance > 0)}

    def win_chances(self, player: int) -> dict[Label, float]:
        """`player`'s chance of winning holding each hand, under equilibrium play."""
        v = self._row_values(player)
        f = self.solver.flows[player]
        start = int(f.row_start[0])
        chance = self.spaces.spaces[0].chance.sum(axis=1 - player)
        return {self.graph.labels[player][k]: float(v[start + k] / chance[k])
                for k in np.flatnonzero(chance > 0)}

    def _row_values(self, player: int, against: int | None = None) -> np.ndarray:
        key = (player, against)
        found = self._values.get(key)
        if found is None:
            sigma = list(self.strategy)
            only = None if against is None else (1 - player, against)
            reach = self.solver.reach(sigma, only=only)
            found = self._values[key] = self.solver.values(reach, sigma, players=(player,))[
                player]
        return found

    def options(self, hand: Label | tuple[Character, ...]) -> list[HandOption]:
        """The mover's options holding `hand`, best first."""
        if self.tree.kind[0] != DECISION:
            return []
        p = self.mover
        k = self.graph.label(p, hand)
        chance = self.spaces.spaces[0].chance
        row = chance[k] if p == 0 else chance[:, k]
        marginal = row.sum()
        if marginal <= 0:
            raise ValueError(f"{hand}: the court cannot deal this hand here")
        f = self.solver.flows[p]
        v = self._row_values(p)
        kids = self.tree.children[0]
        start = int(f.info_start[f.infos[(0, k)]])
        world = next(w for w in self.graph.worlds if w[p] == k)
        game = self.graph.game(world, self.coins, self.first)
        values = [float(v[int(f.row_start[c]) + k] / marginal) for c in kids]
        per: dict[int, np.ndarray] = {}
        for e in np.flatnonzero(row > 0):
            per[int(e)] = self._row_values(p, int(e)) / row[e]
        best = max(values)
        out = []
        for a, c in enumerate(kids):
            move = self.tree.moves[0][a]
            at = int(f.row_start[c]) + k
            out.append(HandOption(
                move, game.describe(move), values[a], best - values[a],
                float(self.strategy[p][start + a]),
                {self.graph.labels[1 - p][e]: float(pv[at]) for e, pv in per.items()}))
        return sorted(out, key=lambda o: -o.value)


def solve(lost: Character, coins: tuple[int, int], first: int = 0, *, horizon: int = 2,
          exchanges: int | None = None, variant: str = "base", iterations: int = 2000,
          target: float = 1e-3, leaf: NodeLeaf | None = None, check_every: int = 20,
          deal: np.ndarray | None = None,
          progress: Callable[[int, float], None] | None = None) -> TwoSolution:
    """Solve the duel where player 0 holds two face-down cards and player 1 one, having lost
    `lost`, with these coins and `first` to act; cut `horizon` whole turns ahead (and, given
    `exchanges`, at the turn after a line's `exchanges`-th Exchange; by default no line is cut
    at an Exchange: see the module's docstring); stop at `target` exploitability (in win
    probability) or after `iterations`. `deal[hand, card]` weighs the deals (by default, as a
    shuffled court deals them): a duel under way re-solves from what its moves say of the
    hands."""
    graph = two_card_graph(lost, variant)
    spaces = Spaces(graph, deal)
    root = graph.root(coins, first)
    with no_cycle_collection():
        tree = _unroll(graph, spaces, root, horizon, None,
                       NO_EXCHANGE_CUT if exchanges is None else exchanges,
                       node_leaf=leaf or known_leaf(graph))
        solver = _Solver(tree, spaces)
    run = iterate(solver, iterations, target, check_every, progress)
    chance = spaces.spaces[0].chance.sum(axis=1)
    hands = {graph.labels[0][k]: float(run.per_label[k] / chance[k])
             for k in np.flatnonzero(chance > 0)}
    return TwoSolution(run.value, run.exploitability, run.iterations, hands, len(tree.kind),
                       sum(tree.cut), run.average, tree, solver.flows, spaces, solver, graph,
                       coins, first)


def settledness(last: TwoSolution, prev: TwoSolution) -> settled.Comparison:
    """`trainer.endgame.settled`'s test between two solves of one duel (`prev` the shorter
    look-ahead), over every hand the player to act may hold."""
    if last.tree.kind[0] != DECISION:  # the root is no decision (the game is decided)
        return settled.Comparison(last.value - prev.value, ())
    p = last.mover
    moves = list(last.tree.moves[0])
    hands = last.hands(p)
    table_last = np.full((len(hands), len(moves)), np.nan)
    table_prev = np.full((len(hands), len(moves)), np.nan)
    for r, hand in enumerate(hands):
        for sol, table in ((last, table_last), (prev, table_prev)):
            for o in sol.options(hand):
                table[r, moves.index(o.move)] = o.value
    return settled.compare(prev.value, last.value, table_prev, table_last)
