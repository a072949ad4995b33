"""What one player knows about where the cards are, and games that look the same to them.

Known for certain: their own hand, every face-up card (lost influence, McGuire's flipped mat
cards), the cards they put out of the game in a draft. Known for a while: the cards they
returned to the court deck in an exchange (until someone else draws from the deck: an
exchange, a proof's replacement, a forced swap; from then on those cards count as unseen again,
which is exact before the draw and slightly understates what is known after it), and a card an
examined player showed them (until that player's hand changes).

`resample` is OpenSpiel's `resample_from_infostate`: a copy of the game in which everything
the player cannot see is dealt afresh, consistent with what they know, so a search can play on
in a world that looks to them exactly like the real one. It lives in the engine because it must
put cards in places only the engine may touch.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trainer.engine.cards import Character
from trainer.engine.chance import RandomChance
from trainer.engine.game import Game, Phase
from trainer.engine.moves import MoveKind
from trainer.engine.observation import Observation, observe


@dataclass(frozen=True)
class KnownCards:
    """Where the cards are, from one seat's point of view."""

    player: int
    unseen: Counter[Character]  # cards whose place this player does not know
    unknown_cards: dict[int, int]  # opponent -> face-down cards not known to this player
    known_in_hand: dict[int, tuple[Character, ...]]  # opponent -> cards known to be held
    known_in_deck: tuple[Character, ...]
    rest: int  # unseen cards outside the opponents' hands (deck, out of play, mat)


# Public events after which a card returned to the deck may have been drawn by someone else.
_DECK_DRAWS = {"exchanged"}


def known_cards(obs: Observation) -> KnownCards:
    """What `obs.player` knows about every card's place, from their observation only."""
    variant = obs.rule_set
    me = obs.player
    n = len(obs.seats)
    unseen: Counter[Character] = Counter(variant.court(n))
    unseen.subtract(obs.hand)
    for seat in obs.seats:
        unseen.subtract(seat.revealed)
    unseen.subtract(obs.mat_up)
    if obs.exchange_pool:  # my exchange: the cards I drew are in front of me
        unseen.subtract(Counter(obs.exchange_pool) - Counter(obs.hand))
    for q, offer in enumerate(obs.offers):
        if offer:  # my draft set
            unseen.subtract(offer)
        elif q != me and obs.seats[q].alive and not obs.seats[q].influence:
            unseen.subtract(variant.characters)  # a set still to choose from: one of each
    in_deck: list[Character] = []
    shown: dict[int, list[Character]] = {}
    for e in obs.events:
        kind, data = e.kind, e.data
        if e.visible_to == me and kind == "discard":  # my draft discards, out of the game
            unseen.subtract(data["cards"])
        elif e.visible_to == me and kind == "return":
            in_deck = list(data["cards"])
        elif e.visible_to == me and kind == "draw" and data.get("player") == me:
            for card in data["cards"]:  # drawn from the deck: perhaps a card I knew there
                if card in in_deck:
                    in_deck.remove(card)
        elif e.visible_to == me and kind == "examined" and data["player"] != me:
            shown[data["player"]] = list(data["cards"])
        elif kind == "move":
            m = data["move"]
            if m.player != me and (m.kind is MoveKind.SHOW or m.kind is MoveKind.KEEP):
                in_deck = []  # a replacement or an exchange drew from the deck
                shown.pop(m.player, None)
            if m.kind is MoveKind.CHOOSE and m.choice == "swap" and m.player == me:
                in_deck = []
                shown.clear()
        elif kind == "lost" and data["player"] in shown:
            if data["card"] in shown[data["player"]]:
                shown[data["player"]].remove(data["card"])
        elif kind in _DECK_DRAWS and data.get("player") != me:
            in_deck = []
            shown.pop(data["player"], None)  # a card I was shown may have gone back
    d = obs.pending
    if d is not None and d.phase is Phase.EXCHANGE and d.player != me:
        in_deck = []  # an exchange in progress: its cards were drawn from the deck already
    unseen.subtract(in_deck)
    for cards in shown.values():
        unseen.subtract(cards)
    unseen = +unseen  # drop zero counts
    unknown = {}
    for j, seat in enumerate(obs.seats):
        if j != me and seat.alive and seat.influence:
            unknown[j] = seat.influence - len(shown.get(j, ()))
    rest = sum(unseen.values()) - sum(unknown.values())
    return KnownCards(me, unseen, unknown, {j: tuple(c) for j, c in shown.items() if c},
                      tuple(in_deck), rest)


def resample(game: Game, observer: int, rng: random.Random,
             hands: Mapping[int, Sequence[Character]] | None = None) -> Game:
    """A copy of `game` that `observer` cannot tell from it: every card they cannot see is
    dealt again and the random stream replaced by a fresh one drawn from `rng`.

    `hands` gives opponents' unknown cards (e.g. drawn from a posterior over hands); without
    it they are dealt uniformly from the unseen cards, which is exact card counting. Cards the
    observer knows stay where they are: their own hand, face-up cards, cards they returned to
    the deck, a card shown to them by an examined player.
    """
    obs = observe(game, observer)
    known = known_cards(obs)
    world = _copy(game, rng.random())
    pool = Counter(known.unseen)
    if hands is None:
        unseen = list(pool.elements())
        rng.shuffle(unseen)
        hands = {}
        for j in sorted(known.unknown_cards):
            k = known.unknown_cards[j]
            hands[j], unseen = unseen[:k], unseen[k:]
    for j in known.unknown_cards:
        dealt = list(hands.get(j, ()))
        if len(dealt) != known.unknown_cards[j]:
            raise ValueError(f"player {j} holds {known.unknown_cards[j]} card(s) {observer} "
                             f"cannot see; {len(dealt)} were given")
        pool.subtract(dealt)
        if any(v < 0 for v in pool.values()):
            raise ValueError(f"the hands given use cards {observer} can see elsewhere")
        world.hidden[j] = list(known.known_in_hand.get(j, ())) + dealt
    rest = list((+pool).elements())
    rng.shuffle(rest)
    free = len(world.deck) - len(known.known_in_deck)
    deck = list(known.known_in_deck) + rest[:free]
    rest = rest[free:]
    rng.shuffle(deck)
    world.deck = deck
    _redeal_turn(world, observer, rest, rng)
    for event in list(world.mat_cards):
        world.mat_cards[event] = rest.pop()
    mine = [c for e in obs.events if e.kind == "discard" and e.visible_to == observer
            for c in e.data["cards"]]
    world.removed = mine + rest
    world._legal = None  # the hands changed: the cached legal moves may too
    return world


def _redeal_turn(world: Game, observer: int, rest: list[Character],
                 rng: random.Random) -> None:
    """Cards of the turn in progress that only another player has seen: an exchanger's drawn
    cards, the card an examined player showed the Inquisitor."""
    p = world.decider
    if world.phase is Phase.EXCHANGE and p != observer:
        drawn = len(world._pool) - len(world.hidden[p])
        world._pool = world.hidden[p] + [rest.pop() for _ in range(drawn)]
    if world.phase is Phase.EXAMINE_DECIDE and p != observer:
        target = world.target
        if target is not None and target != observer:
            world._examined = rng.choice(world.hidden[target])


def _copy(game: Game, seed: float) -> Game:
    """A copy with its own random stream (given to the copy, so the game's own stream is
    never copied)."""
    return game.clone(RandomChance(random.Random(seed)))
