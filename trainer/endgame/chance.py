"""Every outcome of a move with its probability: the solvers' view of the engine's chance.

Why through the engine's own `Chance` interface: a move may draw (an Exchange, a proof's
replacement) and only the engine knows when and from which deck. An enumerating chance serves
the draws already chosen and notes the first one it was not given; the move is then replayed
once per possible draw, each weighted as the engine's uniform draw would weigh it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement
from math import comb, prod

from trainer.engine.cards import Character
from trainer.engine.chance import ScriptedChance
from trainer.engine.game import Game
from trainer.engine.moves import Move


class _NoDraws(ScriptedChance):
    """The chance of a stored position: it draws nothing, and a copy of the game shares it
    rather than copying it (copying the random stream was most of the cost of a copy)."""

    def __deepcopy__(self, memo: dict[int, object]) -> _NoDraws:
        return self

    def draw(self, deck: list[Character], n: int) -> list[Character]:
        raise AssertionError("a stored position draws through `outcomes` only")


NO_DRAWS = _NoDraws()


class _Enumerating(ScriptedChance):
    """Scripted draws; past the script, notes the deck and count asked for."""

    def __init__(self, draws: list[list[Character]]) -> None:
        super().__init__(draws)
        self.asked: tuple[tuple[Character, ...], int] | None = None

    def draw(self, deck: list[Character], n: int) -> list[Character]:
        if not self.queue and self.asked is None:
            self.asked = (tuple(deck), n)
        return super().draw(deck, n)


def draws(deck: tuple[Character, ...], n: int) -> Iterator[tuple[float, list[Character]]]:
    """Each multiset of `n` cards drawn uniformly from `deck`, with its probability."""
    counts = Counter(deck)
    total = comb(len(deck), n)
    for hand in combinations_with_replacement(sorted(counts), n):
        taken = Counter(hand)
        ways = prod(comb(counts[c], k) for c, k in taken.items())
        if ways:
            yield ways / total, list(hand)


def outcomes(game: Game, move: Move, _script: list[list[Character]] | None = None,
             _p: float = 1.0) -> Iterator[tuple[float, Game]]:
    """The positions `move` can lead to, with their probabilities (summing to 1). A game that
    is over after the move is one outcome, whatever was drawn on the way."""
    script = _script or []
    chance = _Enumerating(script)
    after = game.clone(chance)
    after.apply(move)
    if chance.asked is None or after.is_over:
        after.chance = NO_DRAWS
        yield _p, after
        return
    deck, n = chance.asked
    for p, cards in draws(deck, n):
        yield from outcomes(game, move, [*script, cards], _p * p)
