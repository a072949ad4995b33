"""What one player knows about where the cards are, read from their observation only.

Known for certain: their own hand, every face-up card (lost influence, McGuire's flipped mat
cards), the cards they put out of the game in a draft. Known for a while: the cards they
returned to the court deck in an exchange (until someone else draws from the deck: an
exchange, a proof's replacement, a forced swap; from then on those cards count as unseen again,
which is exact before the draw and slightly understates what is known after it), and a card an
examined player showed them (until that player's hand changes).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from trainer.engine.cards import Character
from trainer.engine.moves import MoveKind
from trainer.engine.observation import Observation
from trainer.engine.variants import get_variant
from trainer.estimates.counting import Deal, Likelihood, Seat, deal


@dataclass(frozen=True)
class Knowledge:
    """The count's inputs from one seat's point of view."""

    player: int
    unseen: Counter[Character]  # cards whose place this player does not know
    unknown_cards: dict[int, int]  # opponent -> face-down cards not known to this player
    known_in_hand: dict[int, tuple[Character, ...]]  # opponent -> cards known to be held
    known_in_deck: tuple[Character, ...]
    rest: int  # unseen cards outside the opponents' hands (deck, out of play, mat)

    def deal(self, evidence: dict[int, Likelihood] | None = None) -> tuple[list[int], Deal]:
        """The opponents in seat order and the exact distribution of their unknown cards."""
        opponents = sorted(self.unknown_cards)
        seats = [Seat(self.unknown_cards[j], (evidence or {}).get(j)) for j in opponents]
        chars = tuple(c for c in self.unseen if self.unseen[c] > 0)
        return opponents, deal(self.unseen, seats, chars)

    def p_holds(self, opponent: int, role: Character,
                evidence: dict[int, Likelihood] | None = None) -> float:
        """P(opponent holds at least one card that proves `role`)."""
        if any(c.role == role for c in self.known_in_hand.get(opponent, ())):
            return 1.0
        if self.unknown_cards.get(opponent, 0) == 0:
            return 0.0
        opponents, d = self.deal(evidence)
        hands = d.hands[opponents.index(opponent)]
        return sum(p for h, p in hands.items() if any(c.role == role for c in h))


# Public events after which a card returned to the deck may have been drawn by someone else.
_DECK_DRAWS = {"exchanged"}


def knowledge(obs: Observation) -> Knowledge:
    variant = get_variant(obs.variant)
    me = obs.player
    n = len(obs.seats)
    unseen: Counter[Character] = Counter(variant.court(n))
    unseen.subtract(obs.hand)
    for seat in obs.seats:
        unseen.subtract(seat.revealed)
    unseen.subtract(obs.mat_up)
    in_deck: list[Character] = []
    shown: dict[int, list[Character]] = {}
    for e in obs.events:
        kind, data = e.kind, e.data
        if e.visible_to == me and kind == "discard":  # my draft discards, out of the game
            unseen.subtract(data["cards"])
        elif e.visible_to == me and kind == "return":
            in_deck = list(data["cards"])
        elif e.visible_to == me and kind == "examined" and data["player"] != me:
            shown[data["player"]] = list(data["cards"])
        elif kind == "move":
            m = data["move"]
            if m.player != me and (m.kind is MoveKind.SHOW or m.kind is MoveKind.KEEP):
                in_deck = []  # a replacement or an exchange drew from the deck
                shown.pop(m.player, None)
            if m.kind is MoveKind.CHOOSE and m.choice == "swap" and m.player == me:
                in_deck = []
                for p in list(shown):
                    shown.pop(p)
        elif kind == "lost" and data["player"] in shown:
            if data["card"] in shown[data["player"]]:
                shown[data["player"]].remove(data["card"])
        elif kind in _DECK_DRAWS and data.get("player") != me:
            in_deck = []
    unseen.subtract(in_deck)
    for cards in shown.values():
        unseen.subtract(cards)
    unseen = +unseen  # drop zero counts
    unknown = {}
    for j, seat in enumerate(obs.seats):
        if j != me and seat.alive and seat.influence:
            unknown[j] = seat.influence - len(shown.get(j, ()))
    rest = sum(unseen.values()) - sum(unknown.values())
    return Knowledge(me, unseen, unknown, {j: tuple(c) for j, c in shown.items() if c},
                     tuple(in_deck), rest)
