"""Errors that carry a reason a person can act on, and the fields a program can act on.

Why structured fields: a caller (the scenario checker pointing at a line of a lesson file, the
Quiz page naming the field of a bad answer) must never find out what went wrong by matching
English text. Every error is a `ValueError`, as in python-chess, so `except ValueError` keeps
working for callers that only need to know the input was bad.
"""

from __future__ import annotations

from typing import Any


class CoupError(ValueError):
    """Base class for every error the trainer raises on purpose."""


class MoveError(CoupError):
    """A move that cannot be played. `reason` is the sentence; `move` is the move (or text) as
    given; `phase` the decision that was pending; `player` who had to decide; `field` the part
    of the move that is wrong ("player", "kind", "action", "target", "character", "cards",
    "choice"), or None when the move as a whole does not fit."""

    def __init__(self, reason: str, *, move: Any = None, phase: str | None = None,
                 player: int | None = None, field: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.move = move
        self.phase = phase
        self.player = player
        self.field = field

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.reason, dict(move=self.move, phase=self.phase,
                                                         player=self.player, field=self.field)))


class InvalidMoveError(MoveError):
    """Text or data that does not describe a move at all (cannot be parsed)."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow now; `reason` says why."""


class AmbiguousMoveError(MoveError):
    """A partly given move that fits several legal moves; `candidates` lists them."""

    def __init__(self, reason: str, *, candidates: tuple[Any, ...] = (), **fields: Any) -> None:
        super().__init__(reason, **fields)
        self.candidates = candidates

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.reason,
                           dict(move=self.move, phase=self.phase, player=self.player,
                                field=self.field, candidates=self.candidates)))


class GameOverError(IllegalMoveError):
    """A move was offered after the game ended."""


class ChanceError(CoupError):
    """A scripted chance outcome that cannot happen (e.g. drawing a card not in the deck)."""


class SetupError(CoupError):
    """A starting position that breaks the rules (wrong card counts, too many players...).

    `field` names the argument of `Game(...)` at fault ("names", "hands", "revealed", "coins",
    "deck", "first", "treasury", "offers", "removed", "allegiances", "reserve", "mat"), or
    "cards" when the card counts of the whole table are wrong (then `card`, `expected` and
    `found` say which card and how many); `seat` the player concerned, if one is.
    """

    def __init__(self, reason: str, *, field: str | None = None, seat: int | None = None,
                 card: str | None = None, expected: int | None = None,
                 found: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.field = field
        self.seat = seat
        self.card = card
        self.expected = expected
        self.found = found

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (SetupError, self.reason,
                           dict(field=self.field, seat=self.seat, card=self.card,
                                expected=self.expected, found=self.found)))


class RuleSetError(CoupError):
    """A rule set's description that cannot be read, or a house rule or option that cannot
    apply to it. `text` is the whole description as given; `part` the piece at fault (a house
    rule's or option's name, a value); `expected` what would have been accepted there."""

    def __init__(self, reason: str, *, text: str = "", part: str | None = None,
                 expected: tuple[str, ...] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.text = text
        self.part = part
        self.expected = expected

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (RuleSetError, self.reason,
                           dict(text=self.text, part=self.part, expected=self.expected)))


def _rebuild(cls: type[CoupError], reason: str, fields: dict[str, Any]) -> CoupError:
    return cls(reason, **fields)
