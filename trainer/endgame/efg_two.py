"""A duel of two cards against one written out as a Gambit extensive-form game (.efg), for
checking `trainer.endgame.hidden_two` against another solver (OpenSpiel).

Why a walk that shares nothing with the solver's modelling: every deal's engine game is played
move by move, and *every* decision the engine offers is a decision here, with the engine's own
options in that deal: which card to lose (only the cards the hand holds), and whether to show a
challenged card or concede one. The solver instead plays the forced and the dominant answers
itself and makes the choice of card a public decision over every card; if that modelling were
wrong, the two values would differ. Each player's information set is their first hand, then
after every move the move as they saw it (another player's Exchange keep is only "exchanged")
and their own hand (with an Exchange's drawn cards while choosing).
"""

from __future__ import annotations

from collections.abc import Callable

from trainer.endgame.chance import outcomes
from trainer.endgame.efg import EfgLines
from trainer.endgame.public_two import TwoCardGraph, two_card_graph
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import MoveKind

# The horizon's value: (player 0's hand, player 1's hand, player 0's face-up card or None,
# coins, the player to act) -> player 0's chance of winning.
TwoLeaf = Callable[[tuple[Character, ...], tuple[Character, ...], Character | None,
                    tuple[int, int], int], float]


class _Writer(EfgLines):
    def __init__(self, graph: TwoCardGraph, horizon: int, exchanges: int, leaf: TwoLeaf) -> None:
        super().__init__()
        self.graph = graph
        self.horizon = horizon
        self.exchanges = exchanges
        self.leaf = leaf

    @staticmethod
    def _own(game: Game, p: int) -> str:
        hand = "+".join(sorted(c.value for c in game.hidden[p]))
        if game.phase is Phase.EXCHANGE and game.decider == p:
            hand += " pool " + "+".join(sorted(c.value for c in game.exchange_pool()))
        return hand

    def root(self, coins: tuple[int, int], first: int) -> None:
        worlds = self.graph.worlds
        self._chance(0, [self.graph.deal_chance(w) for w in worlds])
        for w in worlds:
            game = self.graph.game(w, coins, first)
            labels = tuple((self._own(game, p),) for p in (0, 1))
            self.walk(game, labels, 1, 0, 0)

    def walk(self, game: Game, labels: tuple[tuple[str, ...], ...], depth: int, turns: int,
             swapped: int) -> None:
        if game.is_over:
            self._terminal(depth, 1.0 if game.winner == 0 else 0.0)
            return
        if game.phase is Phase.ACTION and (turns >= self.horizon or swapped >= self.exchanges):
            shown = game.revealed[0][0] if game.revealed[0] else None
            self._terminal(depth, self.leaf(tuple(game.hidden[0]), tuple(game.hidden[1]),
                                            shown, (game.coins[0], game.coins[1]),
                                            game.decider))
            return
        p = game.decider
        moves = game.legal_moves()
        names = [str(m) for m in moves]
        self._decision(depth, p, labels[p], names)
        exchanging = game.phase is Phase.EXCHANGE
        for move, name in zip(moves, names, strict=True):
            branches = list(outcomes(game, move))
            if len(branches) > 1:
                self._chance(depth + 1, [q for q, _ in branches])
            for _, after in branches:
                seen = tuple(
                    lab + ("exchanged" if exchanging and q != p else name, self._own(after, q))
                    for q, lab in enumerate(labels))
                kept = exchanging and move.kind is MoveKind.KEEP
                self.walk(after, seen, depth + 1 + (len(branches) > 1),
                          turns + (after.phase is Phase.ACTION and not after.is_over),
                          swapped + kept)


def export(lost: Character, coins: tuple[int, int], first: int = 0, *, horizon: int = 1,
           exchanges: int = 1, leaf: TwoLeaf, variant: str = "base") -> str:
    """The duel (player 0 two cards, player 1 one having lost `lost`) as .efg text; payoffs
    2·(player 0 wins) − 1 and its negative (zero-sum, as OpenSpiel expects)."""
    graph = two_card_graph(lost, variant)
    writer = _Writer(graph, horizon, exchanges, leaf)
    writer.root(coins, first)
    head = (f'EFG 2 R "Coup two cards against one, lost {lost.value}, {coins} first {first}" '
            f'{{ "P1" "P2" }}\n')
    return head + "\n".join(writer.lines) + "\n"
