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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from trainer.engine.cards import Action, Character
from trainer.engine.chance import RandomChance
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
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
    examined: int | None = None  # the target of the latest examination
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
            if m.kind is MoveKind.ACT and m.action is Action.EXAMINE:
                examined = m.target
            if m.kind is MoveKind.CHOOSE and m.choice == "swap":
                # The examined card went back to the deck and its holder drew a new one:
                # what I was shown of that hand, and which deck cards I knew, no longer hold.
                in_deck = []
                if m.player == me:
                    shown.clear()
                elif examined is not None:
                    shown.pop(examined, None)
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
    return resampler(game, observer)(rng, hands)


def resampler(game: Game, observer: int
              ) -> Callable[[random.Random, Mapping[int, Sequence[Character]] | None], Game]:
    """`resample` of this game and observer as a function of the stream and the hands: what
    the observer knows is read once, not once a world (rollouts deal thousands of worlds
    from one position, and reading the observer's whole log was most of a world's cost).
    The game must not change while the function is used."""
    obs = observe(game, observer)
    known = known_cards(obs)
    mine = [c for e in obs.events if e.kind == "discard" and e.visible_to == observer
            for c in e.data["cards"]]

    def deal(rng: random.Random, hands: Mapping[int, Sequence[Character]] | None = None
             ) -> Game:
        return _resample(game, observer, known, mine, rng, hands)

    return deal


def _resample(game: Game, observer: int, known: KnownCards, mine: list[Character],
              rng: random.Random, hands: Mapping[int, Sequence[Character]] | None) -> Game:
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


def world(turn_start: Observation, turn_moves: Sequence[Move], now: Observation,
          rng: random.Random) -> Game | None:
    """A game that `now.player` cannot tell from the one they sit at, built only from what they
    saw: the table at the start of this turn (`turn_start`, their observation at the turn's
    action decision), the moves of the turn since (other players' private moves are not read:
    any legal one of the same kind stands in), and their observation `now`. Every card they
    cannot see is dealt at random, as `resample` deals it.

    Why it exists: a bot that searches needs a game to play on, and handing it the game at the
    table would hand it every hidden card. The turn so far is replayed from the turn's start
    (a position between turns is plain data, a snapshot), because the state inside a turn (who
    is still to answer, what happens next) is the engine's own and is rebuilt only by playing.

    McGuire's mat is rebuilt from its public state (the events to come and the clock); a
    face-down mat card flipped during this turn is the card `now` shows face up, the others
    are dealt at random like any unseen card.

    None when the rebuilt table does not look exactly like `now` (a turn this does not
    cover, such as a draft's sets still in hand); the caller then decides without a search.
    """
    me = now.player
    d = turn_start.pending
    if (turn_start.player != me or d is None or d.phase is not Phase.ACTION
            or d.player != turn_start.actor or turn_start.turn != now.turn
            or any(turn_start.offers)):
        return None
    flipped = {e.data["event"]: e.data["card"] for e in now.events[len(turn_start.events):]
               if e.kind == "mat" and "card" in e.data}
    try:
        game = _turn_start_game(turn_start, rng, flipped)
        for move in turn_moves:
            if game.is_over:
                return None
            if move.player != me and move.kind in _PRIVATE:
                move = next(m for m in game.legal_moves() if m.kind is move.kind)
            elif not _legal(game, move):
                _hand_over(game, move, me)
            game.apply(move)
    except (ValueError, StopIteration):  # the engine's refusals are ValueErrors
        return None
    game.hidden[me] = list(now.hand)
    if game.phase is Phase.EXAMINE_DECIDE and game.decider == me:  # the card I was shown
        shown = [e.data["cards"] for e in now.events if e.kind == "examined"
                 and e.visible_to == me]
        if shown and shown[-1]:
            game._examined = shown[-1][0]
    game.log = list(now.events)
    game._legal = None
    if not _same_table(observe(game, me), now):
        return None
    return resample(game, me, rng)


_PRIVATE = (MoveKind.KEEP, MoveKind.OFFER)


def _turn_start_game(obs: Observation, rng: random.Random,
                     flipped: dict[str, Character] | None = None) -> Game:
    """The position at the start of the turn, every unseen card dealt at random but the
    face-down mat cards in `flipped` (mat event -> the card it turned up later in the turn)."""
    known = known_cards(obs)
    pool = Counter(known.unseen)
    flipped = {e: c for e, c in (flipped or {}).items() if e in obs.mat_pending}
    pool.subtract(flipped.values())
    if any(v < 0 for v in pool.values()):
        raise ValueError("a flipped mat card the observer had placed elsewhere")
    unseen = list(pool.elements())
    rng.shuffle(unseen)
    mat: list[tuple[str, Character | None]] = []
    for event in obs.mat_pending:
        if event.startswith("coin"):
            mat.append((event, None))
        elif event in flipped:
            mat.append((event, flipped[event]))
        else:
            mat.append((event, unseen.pop()))
    hands: list[list[Character]] = []
    for j, seat in enumerate(obs.seats):
        if j == obs.player:
            hands.append(list(obs.hand))
            continue
        k = known.unknown_cards.get(j, 0)
        hands.append(list(known.known_in_hand.get(j, ())) + unseen[:k])
        unseen = unseen[k:]
        if len(hands[j]) != seat.influence:
            raise ValueError(f"player {j}: {len(hands[j])} cards dealt for {seat.influence}")
    free = obs.deck_size - len(known.known_in_deck)
    deck = list(known.known_in_deck) + unseen[:free]
    rng.shuffle(deck)
    unseen = unseen[free:]
    mine = [c for e in obs.events if e.kind == "discard" and e.visible_to == obs.player
            for c in e.data["cards"]]
    removed = mine + unseen
    if len(deck) != obs.deck_size or len(removed) != obs.removed:
        raise ValueError("the unseen cards do not fill the deck and the cards out of play")
    game = Game(
        names=[s.name for s in obs.seats], hands=hands,
        revealed=[list(s.revealed) for s in obs.seats], coins=[s.coins for s in obs.seats],
        deck=deck, first=obs.actor, variant=obs.rule_set, options=obs.table_rules,
        chance=RandomChance(random.Random(rng.random())), treasury=obs.treasury,
        removed=removed or None,
        allegiances=[s.allegiance or "" for s in obs.seats] if obs.seats[0].allegiance else None,
        reserve=obs.reserve, mat=mat or None, mat_up=obs.mat_up or None,
        mat_clock=obs.mat_clock)
    game.turn = obs.turn
    return game


def _legal(game: Game, move: Move) -> bool:
    try:
        game.as_legal(move)
    except ValueError:
        return False
    return True


def _hand_over(game: Game, move: Move, me: int) -> None:
    """Give the player of `move` the card it shows or turns up, from the deck or another
    opponent's unseen cards, in place of one of theirs: the observer cannot tell the
    difference, and the move is then legal."""
    card = move.character
    j = move.player
    if card is None or j == me or card in game.hidden[j] or not game.hidden[j]:
        raise ValueError(f"{move} cannot be made legal by dealing another card")
    k = next((i for i, c in enumerate(game.hidden[j]) if c != card), 0)
    if card in game.deck:
        i = game.deck.index(card)
        game.deck[i], game.hidden[j][k] = game.hidden[j][k], card
    else:
        q = next(q for q in range(game.n)
                 if q not in (j, me) and card in game.hidden[q])
        i = game.hidden[q].index(card)
        game.hidden[q][i], game.hidden[j][k] = game.hidden[j][k], card
    game._legal = None


def _same_table(a: Observation, b: Observation) -> bool:
    """Everything the observer sees, the log aside (it was copied)."""
    return (a.seats == b.seats and a.hand == b.hand and a.treasury == b.treasury
            and a.deck_size == b.deck_size and a.actor == b.actor and a.pending == b.pending
            and a.legal_moves == b.legal_moves and a.exchange_pool == b.exchange_pool
            and a.winner == b.winner and a.reserve == b.reserve and a.removed == b.removed
            and a.mat_up == b.mat_up and a.mat_coins == b.mat_coins)
