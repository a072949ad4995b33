"""Coup Trainer: a faithful Coup rules engine and the teaching tools built on it."""

from trainer.build import install_source_finder

install_source_finder()  # before the engine is imported: never run a stale compiled engine

from trainer.cards import Action, Character  # noqa: E402
from trainer.errors import CoupError, IllegalMoveError, SetupError  # noqa: E402
from trainer.game import Decision, Event, Game, Phase  # noqa: E402
from trainer.moves import Move, MoveKind  # noqa: E402
from trainer.rules import VARIANTS, Options, Variant, get_variant  # noqa: E402

__all__ = [
    "Action", "Character", "CoupError", "Decision", "Event", "Game", "IllegalMoveError",
    "Move", "MoveKind", "Options", "Phase", "SetupError", "VARIANTS", "Variant", "get_variant",
]
