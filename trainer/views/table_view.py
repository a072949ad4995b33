"""The table as one player sees it: seats, coins, card backs, face-up cards and the claims in
the air, built from that player's `Observation` only.

Why a view model of its own: the Learn page (and later the quiz and the coach) draw the same
table, and building it from an observation, never from the game, is what keeps another
player's face-down cards out of the browser: the data handed to the drawing code cannot hold
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from trainer.engine.cards import Action, Allegiance
from trainer.engine.explain import (
    SECOND_PERSON,
    cards_words,
    decision_line,
    target_words,
    vocabulary_word,
)
from trainer.engine.game import Event
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import allegiance_name, card_name
from trainer.engine.observation import Observation
from trainer.engine.rules import Options
from trainer.engine.variants import title_words
from trainer.i18n import N_, tr, trc


@dataclass(frozen=True, slots=True)
class Badge:
    """Something a player did this turn, drawn on their seat: a claim, a block, a challenge."""

    kind: str  # "claim", "action", "block", "challenge", "pass", "show", "lose", "claim-out"
    text: str
    latest: bool = False  # the move of the step being shown


@dataclass(frozen=True, slots=True)
class SeatView:
    name: str
    coins: int
    hidden: tuple[str | None, ...]  # None: a card back; a name: the viewer's own card
    revealed: tuple[str, ...]
    alive: bool
    allegiance: str | None
    is_viewer: bool
    is_actor: bool
    is_decider: bool
    is_target: bool
    badges: tuple[Badge, ...]


@dataclass(frozen=True, slots=True)
class TableView:
    variant: str
    variant_name: str
    turn: int
    seats: tuple[SeatView, ...]
    deck_size: int
    treasury: int | None
    reserve: int
    mat_up: tuple[str, ...]
    mat_face_down: int
    removed: int
    question: str | None  # "Ely must challenge the claim or pass"
    winner: str | None
    tie: bool
    private_notes: tuple[str, ...]  # what only the viewer saw this turn (draws, a peek)
    draft_set: tuple[str, ...] = ()  # two-player draft: the viewer's own set to choose from


_SHOW_KINDS = {
    MoveKind.ACT: "action", MoveKind.BLOCK: "block", MoveKind.CHALLENGE: "challenge",
    MoveKind.PASS: "pass", MoveKind.SHOW: "show", MoveKind.LOSE: "lose",
    MoveKind.CLAIM: "claim-out", MoveKind.PAY: "pay", MoveKind.CHOOSE: "choose",
    MoveKind.KEEP: "keep", MoveKind.OFFER: "show",
}


def _turn_events(obs: Observation, turn: int) -> list[Event]:
    """The events of turn `turn` that this player may see, from its start."""
    start = None
    out: list[Event] = []
    for e in obs.events:
        if e.kind == "turn":
            if e.data["turn"] == turn:
                start = True
                out = []
                continue
            if start:
                break
        if start:
            out.append(e)
    return out


def _badge(move: Move, names: tuple[str, ...], options: Options, claims: dict[Action, str],
           latest: bool) -> Badge | None:
    kind = _SHOW_KINDS.get(move.kind, "action")
    target = ""
    if move.target is not None:  # "assassinate you": the reader's own seat
        name = names[move.target]
        target = target_words(name, name == SECOND_PERSON)
    if move.kind is MoveKind.ACT and move.action is not None:
        label = vocabulary_word(options.vocabulary, move.action)
        claim = claims.get(move.action)
        if move.action is Action.EMBEZZLE:
            return Badge("claim", trc("badge", "claims no {card}: {action}",
                                      card=card_name("Duke"), action=label), latest)
        if claim and target:
            return Badge("claim", trc("badge", "claims {card}: {action} {target}",
                                      card=card_name(claim), action=label, target=target),
                         latest)
        if claim:
            return Badge("claim", trc("badge", "claims {card}: {action}",
                                      card=card_name(claim), action=label), latest)
        if target:
            return Badge("action", trc("badge", "{action} {target}", action=label,
                                       target=target), latest)
        return Badge("action", label, latest)
    if move.kind is MoveKind.BLOCK:
        return Badge("block", trc("badge", "blocks with {card}",
                                  card=card_name(move.character or "")), latest)
    if move.kind is MoveKind.CHALLENGE:
        return Badge("challenge", trc("badge", "challenges!"), latest)
    if move.kind is MoveKind.PASS:
        return Badge("pass", trc("badge", "passes"), latest) if latest else None
    if move.kind is MoveKind.SHOW:
        shown = cards_words(move.cards) if move.cards else card_name(move.character or "")
        return Badge("show", trc("badge", "shows {cards}", cards=shown), latest)
    if move.kind is MoveKind.LOSE:
        return Badge("lose", trc("badge", "loses {card}", card=card_name(move.character or "")),
                     latest)
    if move.kind is MoveKind.CLAIM:
        return Badge("claim", trc("badge", "claims {card}", card=card_name(move.character or "")),
                     latest)
    if move.kind is MoveKind.PAY:
        return Badge("lose", trc("badge", "pays instead of a card"), latest)
    if move.kind is MoveKind.CHOOSE:
        if move.choice == "return":
            text = trc("badge", "hands the card back")
        elif move.choice == "swap":
            text = trc("badge", "forces a swap")
        else:
            choice = move.choice or ""
            side = allegiance_name(Allegiance(choice)) if choice in (
                Allegiance.LOYALIST, Allegiance.REFORMIST) else choice
            text = trc("badge", "chooses {choice}", choice=side)
        return Badge(kind, text, latest)
    if move.kind is MoveKind.KEEP:
        return Badge("keep", trc("badge", "exchanges cards"), latest)
    if move.kind is MoveKind.OFFER:
        return Badge("show", trc("badge", "shows a card to the Inquisitor"), latest)
    return None


def table_view(obs: Observation, turn: int | None = None, latest: int = 0) -> TableView:
    """The table for `obs.player`. Badges show the moves of `turn` (default: the current one);
    the last `latest` of them are marked as the step being shown."""
    names = tuple(s.name for s in obs.seats)
    options = Options().with_(**obs.options)
    variant = obs.rule_set
    claims = {s.action: str(s.claim) for s in variant.actions if s.claim and not s.inverted}
    turn = obs.turn if turn is None else turn
    events = _turn_events(obs, turn)
    moves = [e.data["move"] for e in events if e.kind == "move"]
    per_seat: dict[int, list[Badge]] = {}
    for i, m in enumerate(moves):
        who = m.player
        if m.kind is MoveKind.KEEP and who != obs.player:
            continue
        badge = _badge(m, names, options, claims, i >= len(moves) - latest)
        if badge is not None:
            per_seat.setdefault(who, []).append(badge)
    d = obs.pending
    target = d.target if d is not None else None
    seats = []
    for p, s in enumerate(obs.seats):
        mine = p == obs.player
        hidden: tuple[str | None, ...] = (
            tuple(str(c) for c in obs.hand) if mine else (None,) * s.influence)
        seats.append(SeatView(
            name=s.name, coins=s.coins, hidden=hidden, revealed=tuple(map(str, s.revealed)),
            alive=s.alive, allegiance=s.allegiance, is_viewer=mine,
            is_actor=p == obs.actor and obs.winner is None,
            is_decider=d is not None and d.player == p, is_target=target == p,
            badges=tuple(per_seat.get(p, ())),
        ))
    question = None
    if d is not None:  # the reader's own seat: "Your turn", "your set"
        question = decision_line(d.phase, names[d.player])
    notes = tuple(_private_note(e) for e in events
                  if e.visible_to == obs.player and "cards" in e.data and e.kind != "deal")
    over = obs.pending is None
    return TableView(
        variant=title_words(variant), variant_name=variant.name, turn=turn, seats=tuple(seats),
        deck_size=obs.deck_size,
        treasury=obs.treasury, reserve=obs.reserve, mat_up=tuple(map(str, obs.mat_up)),
        mat_face_down=obs.mat_face_down, removed=obs.removed, question=question,
        winner=names[obs.winner] if obs.winner is not None else None,
        tie=over and obs.winner is None, private_notes=notes,
        draft_set=tuple(map(str, obs.offers[obs.player])) if obs.offers else (),
    )


_NOTE = {
    "draw": N_("You drew: {cards}"), "return": N_("You returned: {cards}"),
    "peek": N_("You peeked at (top, bottom): {cards}"),
    "examined": N_("You were shown: {cards}"), "discard": N_("You put out of the game: {cards}"),
    "offer": N_("Your draft set: {cards}"),
}


def _private_note(e: Event) -> str:
    return tr(_NOTE.get(e.kind, N_("You saw: {cards}")), cards=cards_words(e.data["cards"]))


def revealing(view: TableView, hands: Sequence[Sequence[object]]) -> TableView:
    """The same table with every face-down card turned over: for a finished game's review,
    where "all the cards" is asked for. Never used while a game is played."""
    seats = tuple(replace(s, hidden=tuple(str(c) for c in hands[p])) if s.alive or hands[p]
                  else s for p, s in enumerate(view.seats))
    return replace(view, seats=seats)
