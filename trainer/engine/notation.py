"""A compact, exact text for every move, and a canonical text for what one player sees.

Why: logs, perft files and golden playthroughs need a move written in a dozen characters and
read back to the identical `Move`, the way python-chess writes `e2e4`. `describe` speaks to
people ("Ely claims Duke: tax") and cannot be read back exactly; this notation can, and it is
strict on purpose, so that every move has exactly one spelling and a diff of two files is a diff
of moves. The observation string plays the part of OpenSpiel's information-state string: two
observations that print the same give the player the same table and the same secrets.

The grammar (a seat is `P` and its number, counting from 0)::

    move     = seat ":" body
    body     = action [">" seat]              an action, its target if it has one
             | "challenge" | "pass" | "pay"
             | ("block" | "show" | "lose" | "offer" | "claim") "/" card
             | "showhand" "/" cards           embezzlement disproved: every face-down card
             | "keep" "/" cards               an exchange, or the card kept from a draft set
             | "choose" "/" choice            an allegiance, or an Inquisitor's return or swap
    cards    = card {"+" card}

An action is its `Action` value (`income`, `foreign_aid`, `convert`, `vengeance`...) and a card
its name as printed (`Duke`, `Treaty Contessa`), both spelled exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from trainer.engine.cards import Action, Character
from trainer.engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.engine.observation import Observation
from trainer.i18n import N_, tr

if TYPE_CHECKING:
    from trainer.engine.game import Game

# Kinds whose one argument is a card (`character`), and the single words with no argument.
_CARD_VERBS: dict[str, MoveKind] = {
    "block": MoveKind.BLOCK,
    "show": MoveKind.SHOW,
    "lose": MoveKind.LOSE,
    "offer": MoveKind.OFFER,
    "claim": MoveKind.CLAIM,
}
_BARE_VERBS: dict[str, MoveKind] = {
    "challenge": MoveKind.CHALLENGE,
    "pass": MoveKind.PASS,
    "pay": MoveKind.PAY,
}
SHOW_HAND = "showhand"  # a SHOW of several cards (`Move.cards`), not of one claimed card
_VERBS = (*_BARE_VERBS, *_CARD_VERBS, SHOW_HAND, "keep", "choose")

_SEAT = re.compile(r"P(0|[1-9][0-9]*)")
_CHOICE = re.compile(r"[A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*")
_CARD_NAMES = ", ".join(c.value for c in Character)
_ACTION_NAMES = ", ".join(a.value for a in Action)


class NotationError(InvalidMoveError):
    """Text that is not a move in the notation, or a move the notation cannot write.

    An `InvalidMoveError` (so a `ValueError`, as in python-chess); `text` is what was read and
    `expected` names what would have been accepted there.
    """

    def __init__(self, text: str, expected: str) -> None:
        super().__init__(tr("cannot read the move {text}: expected {expected}", text=repr(text),
                            expected=expected), move=text)
        self.text = text
        self.expected = expected

    def __reduce__(self) -> tuple[Any, ...]:
        return (NotationError, (self.text, self.expected))


def move_text(move: Move) -> str:
    """The move in the notation. Moves the engine never makes (a challenge that names a card,
    say) raise NotationError rather than print something that would read back differently."""
    who = f"P{_index(move, move.player)}"
    k = move.kind
    if k is MoveKind.ACT:
        _only(move, "action", "target")
        if move.action is None:
            raise NotationError(str(move), "an action in a move of kind act")
        if move.target is None:
            return f"{who}:{move.action.value}"
        return f"{who}:{move.action.value}>P{_index(move, move.target)}"
    if k in _BARE_VERBS.values():
        _only(move)
        return f"{who}:{k.value}"
    if k is MoveKind.SHOW and move.cards is not None:
        _only(move, "cards")
        return f"{who}:{SHOW_HAND}/{_cards_text(move, move.cards)}"
    if k in _CARD_VERBS.values():
        _only(move, "character")
        if move.character is None:
            raise NotationError(str(move), f"a card in a move of kind {k.value}")
        return f"{who}:{k.value}/{move.character.value}"
    if k is MoveKind.KEEP:
        _only(move, "cards")
        return f"{who}:keep/{_cards_text(move, move.cards or ())}"
    _only(move, "choice")  # CHOOSE, the last kind
    if move.choice is None or not _CHOICE.fullmatch(move.choice):
        raise NotationError(str(move), "a choice of letters, digits, '_', '-' and single "
                                       "spaces")
    return f"{who}:choose/{move.choice}"


def parse(text: str) -> Move:
    """The move a text in the notation stands for; NotationError (a ValueError) says what was
    expected where the text goes wrong."""
    seat, colon, body = text.partition(":")
    if not colon:
        raise NotationError(text, tr("a seat and a move separated by ':', like {example}",
                                     example="P0:income"))
    player = _seat(text, seat, tr("a seat like {example} before ':'", example="P0"))
    verb, slash, arg = body.partition("/")
    if slash:
        if verb in _CARD_VERBS:
            return Move(_CARD_VERBS[verb], player, character=_card(text, arg))
        if verb == SHOW_HAND:
            return Move(MoveKind.SHOW, player, cards=_card_list(text, arg))
        if verb == "keep":
            return Move(MoveKind.KEEP, player, cards=_card_list(text, arg))
        if verb == "choose":
            if not _CHOICE.fullmatch(arg):
                raise NotationError(text, tr("a choice after 'choose/', like {first} or {second}",
                                             first="Loyalist", second="swap"))
            return Move(MoveKind.CHOOSE, player, choice=arg)
        raise NotationError(text, tr("one of {verbs}, {show}, keep or choose before '/'",
                                     verbs=", ".join(_CARD_VERBS), show=SHOW_HAND))
    if verb in _BARE_VERBS:
        return Move(_BARE_VERBS[verb], player)
    if verb in _CARD_VERBS or verb in (SHOW_HAND, "keep", "choose"):
        raise NotationError(text, tr("'/' and what to {verb} after {quoted}", verb=verb,
                                     quoted=repr(verb)))
    name, arrow, target = verb.partition(">")
    try:
        action = Action(name)
    except ValueError:
        raise NotationError(
            text, tr("an action ({actions}) or one of {verbs} after ':'", actions=_ACTION_NAMES,
                     verbs=", ".join(_VERBS))
        ) from None
    if not arrow:
        return Move(MoveKind.ACT, player, action)
    return Move(MoveKind.ACT, player, action,
                _seat(text, target, tr("a target seat like {example} after '>'",
                                       example="P2")))


def moves_text(moves: Iterable[Move]) -> str:
    """Several moves on one line; a comma, since card names may hold spaces."""
    return ", ".join(move_text(m) for m in moves)


def parse_moves(text: str) -> list[Move]:
    """The moves of a `moves_text` line (an empty line is no moves)."""
    return [parse(part.strip()) for part in text.split(",")] if text.strip() else []


def cards_text(cards: Iterable[Character]) -> str:
    """Cards as the notation joins them: `Duke+Treaty Contessa`; `-` for none."""
    return "+".join(c.value for c in cards) or "-"


# ----------------------------------------------------------------- observations
def information_string(obs: Observation) -> str:
    """What `obs.player` knows now, as two deterministic lines: the table every player sees
    (`public_string`) and this player's own secrets (`private_string`).

    Not a history: the log holds that. Two positions with equal strings look the same to the
    player now, which is what a golden file, a solver's key or a determinisation check needs.
    """
    return f"{public_string(obs)}\n{private_string(obs)}"


def public_string(obs: Observation) -> str:
    """The table and the pending decision: the same text whichever player observes, which a
    playthrough checks at every decision (a secret leaking into it would break that)."""
    parts = [f"turn {obs.turn} actor P{obs.actor}"]
    for i, s in enumerate(obs.seats):
        seat = f"P{i}"
        if s.allegiance is not None:
            seat += f" {s.allegiance}"
        seat += f" {s.coins}c {s.influence}h" if s.alive else f" {s.coins}c out"
        if s.revealed:
            seat += f" up:{cards_text(s.revealed)}"
        parts.append(seat)
    table = [f"treasury {'-' if obs.treasury is None else obs.treasury}", f"deck {obs.deck_size}"]
    if obs.reserve:
        table.append(f"reserve {obs.reserve}")
    if obs.removed:
        table.append(f"removed {obs.removed}")
    if obs.mat_face_down or obs.mat_up or obs.mat_coins:
        table.append(f"mat {obs.mat_face_down}h up:{cards_text(obs.mat_up)} "
                     f"{obs.mat_coins}c")
    parts.append(" ".join(table))
    parts.append(_pending_text(obs))
    return " | ".join(parts)


def private_string(obs: Observation) -> str:
    """The player's face-down cards, what they hold in hand during an exchange or a draft, and
    the cards they alone saw this turn (a draw, an examined card, a peek)."""
    parts = [f"P{obs.player} hand {cards_text(obs.hand)}"]
    if obs.exchange_pool:
        parts.append(f"pool {cards_text(obs.exchange_pool)}")
    own = obs.offers[obs.player] if obs.player < len(obs.offers) else ()
    if own:
        parts.append(f"draft {cards_text(own)}")
    seen = []
    for e in reversed(obs.events):
        if e.kind == "turn" and e.visible_to is None:
            break
        if e.visible_to == obs.player and "cards" in e.data:
            why = e.data.get("why")
            whose = e.data.get("player")
            text = e.kind if whose in (None, obs.player) else f"{e.kind} P{whose}"
            text += f" {cards_text(e.data['cards'])}"
            seen.append(f"{text} ({why})" if why else text)
    if seen:
        parts.append("seen " + "; ".join(reversed(seen)))
    return " | ".join(parts)


def _pending_text(obs: Observation) -> str:
    if obs.pending is None:
        return "over: " + ("tie" if obs.winner is None else f"P{obs.winner} wins")
    d = obs.pending
    text = f"P{d.player} to {d.phase.value}"
    fields: list[tuple[str, str | None]] = [
        ("action", d.action.value if d.action else None),
        ("target", _seat_or_none(d.target)),
        ("claim", d.claim.value if d.claim else None),
        ("claimant", _seat_or_none(d.claimant)),
        ("challenger", _seat_or_none(d.challenger)),
        ("blocker", _seat_or_none(d.blocker)),
        ("with", d.block_character.value if d.block_character else None),
        ("reason", d.loss_reason),
    ]
    return text + "".join(f" {k} {v}" if k != "reason" else f" ({v})"
                          for k, v in fields if v is not None)


# ----------------------------------------------------------------- helpers
def _seat(text: str, seat: str, expected: str) -> int:
    if not _SEAT.fullmatch(seat):
        raise NotationError(text, expected)
    return int(seat[1:])


def _card(text: str, name: str) -> Character:
    try:
        return Character(name)
    except ValueError:
        raise NotationError(text, tr("a card name ({cards}), not {name}", cards=_CARD_NAMES,
                                     name=repr(name))) from None


def _card_list(text: str, arg: str) -> tuple[Character, ...]:
    return tuple(_card(text, name) for name in arg.split("+"))


def _cards_text(move: Move, cards: tuple[Character, ...]) -> str:
    if not cards:
        raise NotationError(str(move), "at least one card")
    return "+".join(c.value for c in cards)


def _index(move: Move, seat: int) -> int:
    if seat < 0:
        raise NotationError(str(move), "seat numbers from 0")
    return seat


def _only(move: Move, *fields: str) -> None:
    """Refuse a move with a field its kind does not use: it would not read back the same."""
    for name in ("action", "target", "character", "cards", "choice"):
        if name not in fields and getattr(move, name) is not None:
            raise NotationError(str(move), f"no {name} in a move of kind {move.kind.value}")


def _seat_or_none(seat: int | None) -> str | None:
    return None if seat is None else f"P{seat}"


def complete(game: Game, partial: Move) -> Move:
    """The legal move a partly given move stands for: one that names no card (`character`
    None, e.g. "Ely loses a card") is completed from the legal moves when only one fits.

    Like python-chess's `parse_san`: AmbiguousMoveError (with the `candidates`) when several
    legal moves fit, IllegalMoveError when none does.
    """
    if partial.character is not None or partial.kind not in _CARD_KINDS:
        return partial
    fits = tuple(m for m in game.legal_moves()
                 if m.kind is partial.kind and m.player == partial.player)
    if len(fits) == 1:
        return fits[0]
    phase = str(game.phase)
    if not fits:
        raise IllegalMoveError(game.why_illegal(partial), move=partial, phase=phase,
                               player=game.decider, field="kind")
    cards = tuple(m.character for m in fits if m.character is not None)
    raise AmbiguousMoveError(which_card(game.names[partial.player], partial.kind, cards),
                             move=partial, phase=phase, player=partial.player,
                             field="character", candidates=fits)


# A move that leaves out a card several cards would fit, by the kind of move.
WHICH_CARD = {
    MoveKind.LOSE: N_("say which card: {name} could lose {cards}"),
    MoveKind.SHOW: N_("say which card: {name} could show {cards}"),
    MoveKind.BLOCK: N_("say which card: {name} could block {cards}"),
    MoveKind.OFFER: N_("say which card: {name} could offer {cards}"),
    MoveKind.CLAIM: N_("say which card: {name} could claim {cards}"),
}


def which_card(name: str, kind: MoveKind, cards: tuple[Character, ...]) -> str:
    """Why a move that names no card cannot be completed: the cards that would fit, in the
    current language ("say which card: Ana could lose Duke or Captain")."""
    return tr(WHICH_CARD[kind], name=name, cards=either(cards))


def either(cards: Iterable[Character]) -> str:
    """"Duke or Captain (or ...)" in the current language."""
    named = [card_name(c) for c in cards]
    text = named[0] if named else ""
    for other in named[1:]:
        text = tr("{first} or {last}", first=text, last=other)
    return text


# Kinds of move that name a card, which a partly given move may leave out.
_CARD_KINDS = (MoveKind.LOSE, MoveKind.SHOW, MoveKind.BLOCK, MoveKind.OFFER, MoveKind.CLAIM)

