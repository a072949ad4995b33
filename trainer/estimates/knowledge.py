"""The count's inputs from one seat's point of view: the engine's `KnownCards`, with the exact
distribution of the cards that player cannot see.

What a player knows for certain (and for a while) is a rule of the game, so the engine says it
(`trainer.engine.information`); turning it into probabilities is the estimates' job.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

from trainer.engine.cards import Character, proves
from trainer.engine.information import KnownCards, known_cards
from trainer.engine.observation import Observation
from trainer.estimates.counting import Deal, Likelihood, Seat, deal


@dataclass(frozen=True)
class Knowledge(KnownCards):
    """Where the cards are from one seat, with the probabilities of where the rest are."""

    def deal(self, evidence: dict[int, Likelihood] | None = None) -> tuple[list[int], Deal]:
        """The opponents in seat order and the exact distribution of their unknown cards."""
        opponents = sorted(self.unknown_cards)
        chars = tuple(c for c in self.unseen if self.unseen[c] > 0)
        if not any((evidence or {}).get(j) for j in opponents):
            counts = tuple(self.unseen[c] for c in chars)
            return opponents, _counted(chars, counts,
                                       tuple(self.unknown_cards[j] for j in opponents))
        seats = [Seat(self.unknown_cards[j], (evidence or {}).get(j)) for j in opponents]
        return opponents, deal(self.unseen, seats, chars)

    def p_holds(self, opponent: int, role: Character,
                evidence: dict[int, Likelihood] | None = None) -> float:
        """P(opponent holds at least one card that proves `role`)."""
        if any(proves(c, role) for c in self.known_in_hand.get(opponent, ())):
            return 1.0
        if self.unknown_cards.get(opponent, 0) == 0:
            return 0.0
        opponents, d = self.deal(evidence)
        hands = d.hands[opponents.index(opponent)]
        return sum(p for h, p in hands.items() if any(proves(c, role) for c in h))


@lru_cache(maxsize=512)
def _counted(chars: tuple[Character, ...], counts: tuple[int, ...],
             cards: tuple[int, ...]) -> Deal:
    """The deal by counting alone (no evidence about anyone), kept: a decision asks for it
    several times (the estimate, then the rollouts' evidence), and a bot at a large table
    spent most of its time recounting the same cards. Read only: callers never change it."""
    return deal(dict(zip(chars, counts, strict=True)), [Seat(k, None) for k in cards], chars)


def knowledge(obs: Observation) -> Knowledge:
    known = known_cards(obs)
    return Knowledge(**{f.name: getattr(known, f.name) for f in fields(known)})
