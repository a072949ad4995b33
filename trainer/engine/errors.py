"""Errors that carry a reason a person can act on."""

from __future__ import annotations


class CoupError(Exception):
    """Base class for every error the trainer raises on purpose."""


class IllegalMoveError(CoupError):
    """A move that the rules do not allow now; the message says why."""


class GameOverError(IllegalMoveError):
    """A move was offered after the game ended."""


class ChanceError(CoupError):
    """A scripted chance outcome that cannot happen (e.g. drawing a card not in the deck)."""


class SetupError(CoupError):
    """A starting position that breaks the rules (wrong card counts, too many players...)."""
