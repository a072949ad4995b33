"""Where randomness enters the game, behind one small interface.

Play uses a seeded RNG; scenarios and tests script every draw so a position can be replayed
card for card. The engine never calls `random` directly.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Iterable
from typing import Protocol

from trainer.engine.cards import Character
from trainer.engine.errors import ChanceError


class Chance(Protocol):
    def draw(self, deck: list[Character], n: int) -> list[Character]:
        """Remove n cards from the deck and return them."""
        ...

    def shuffle(self, deck: list[Character]) -> None:
        ...

    def pick(self, n: int) -> int:
        """A number in range(n): where a card is shuffled into a fixed-order deck, say."""
        ...


class RandomChance:
    """Uniform draws from a seeded RNG.

    A draw picks random positions, so the deck never needs shuffling after set-up: the order of
    the list carries no information.
    """

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def draw(self, deck: list[Character], n: int) -> list[Character]:
        if n > len(deck):
            raise ChanceError(f"cannot draw {n} cards from a deck of {len(deck)}")
        out = []
        randrange = self.rng.randrange
        for _ in range(n):
            i = randrange(len(deck))
            deck[i], deck[-1] = deck[-1], deck[i]
            out.append(deck.pop())
        return out

    def shuffle(self, deck: list[Character]) -> None:
        self.rng.shuffle(deck)

    def pick(self, n: int) -> int:
        return self.rng.randrange(n)


class ScriptedChance:
    """Draws that a script decides: the next queued outcome, or else the top of the deck.

    Shuffles keep the deck order, so a scenario that lists its deck top to bottom and scripts no
    draws still plays out the same way every time. A scripted outcome must be in the deck.
    """

    def __init__(self, draws: Iterable[Iterable[Character]] = (),
                 picks: Iterable[int] = ()) -> None:
        self.queue: deque[list[Character]] = deque(list(d) for d in draws)
        self.picks: deque[int] = deque(picks)

    def push(self, cards: Iterable[Character]) -> None:
        self.queue.append(list(cards))

    def draw(self, deck: list[Character], n: int) -> list[Character]:
        if n > len(deck):
            raise ChanceError(f"cannot draw {n} cards from a deck of {len(deck)}")
        if not self.queue:
            out = deck[:n]
            del deck[:n]
            return out
        cards = self.queue.popleft()
        if len(cards) != n:
            raise ChanceError(
                f"the scripted draw {', '.join(cards)} has {len(cards)} card(s); "
                f"this draw takes {n}"
            )
        remaining = list(deck)
        for c in cards:
            if c not in remaining:
                raise ChanceError(
                    f"cannot draw {c}: the court deck holds only "
                    f"{', '.join(sorted(remaining)) or 'nothing'}"
                )
            remaining.remove(c)
        deck[:] = remaining
        return list(cards)

    def shuffle(self, deck: list[Character]) -> None:
        return None

    def pick(self, n: int) -> int:
        """The next scripted pick, else the last one (a card shuffled in goes to the bottom)."""
        if not self.picks:
            return n - 1
        value = self.picks.popleft()
        if not 0 <= value < n:
            raise ChanceError(f"the scripted pick {value} is not between 0 and {n - 1}")
        return value


def copy_chance(chance: Chance) -> Chance:
    """An independent copy that draws exactly what `chance` would draw from here on.

    Why not `copy.deepcopy`: deep-copying a `random.Random` walks its 625-number state one
    object at a time and was nine tenths of the cost of copying a game. The two kinds the
    engine makes are copied field by field (a generator through `getstate`/`setstate`); any
    other kind, a subclass included, is deep-copied as before, so its own `__deepcopy__` and
    extra fields are honoured.
    """
    if type(chance) is RandomChance:
        rng = chance.rng
        if type(rng) is random.Random:
            twin = random.Random.__new__(random.Random)
            twin.setstate(rng.getstate())
            return RandomChance(twin)
    elif type(chance) is ScriptedChance:
        scripted = ScriptedChance.__new__(ScriptedChance)
        scripted.queue = deque([list(d) for d in chance.queue])
        scripted.picks = deque(chance.picks)
        return scripted
    return copy.deepcopy(chance)
