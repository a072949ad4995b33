"""Coup Trainer: a faithful Coup rules engine and the teaching tools built on it.

The engine's everyday names are re-exported here (`from trainer import Game, Move`); the
packages are laid out by concern, as docs/architecture.md draws them.
"""

from trainer.engine import (
    VARIANTS,
    Action,
    Character,
    CoupError,
    Decision,
    Event,
    Game,
    IllegalMoveError,
    Move,
    MoveKind,
    Options,
    Phase,
    SetupError,
    Variant,
    get_variant,
)

__all__ = [
    "Action", "Character", "CoupError", "Decision", "Event", "Game", "IllegalMoveError",
    "Move", "MoveKind", "Options", "Phase", "SetupError", "VARIANTS", "Variant", "get_variant",
]
