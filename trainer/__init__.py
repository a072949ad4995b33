"""Coup Trainer: a faithful Coup rules engine and the teaching tools built on it."""

from trainer.cards import Action, Character
from trainer.errors import CoupError, IllegalMoveError, SetupError
from trainer.game import Decision, Event, Game, Phase
from trainer.moves import Move, MoveKind
from trainer.rules import VARIANTS, Options, Variant, get_variant

__all__ = [
    "Action", "Character", "CoupError", "Decision", "Event", "Game", "IllegalMoveError",
    "Move", "MoveKind", "Options", "Phase", "SetupError", "VARIANTS", "Variant", "get_variant",
]
