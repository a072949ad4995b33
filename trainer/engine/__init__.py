"""The rules engine: cards, moves, the variants and the game state machine.

Everything else in the trainer plays through this package and imports nothing into it.
"""

from trainer.engine.build import install_source_finder

install_source_finder()  # before the game is imported: never run a stale compiled engine

from trainer.engine.cards import Action, Character  # noqa: E402
from trainer.engine.errors import CoupError, IllegalMoveError, SetupError  # noqa: E402
from trainer.engine.game import Decision, Event, Game, Phase  # noqa: E402
from trainer.engine.moves import Move, MoveKind  # noqa: E402
from trainer.engine.rules import Options, Variant  # noqa: E402
from trainer.engine.variants import VARIANTS, get_variant  # noqa: E402

__all__ = [
    "Action", "Character", "CoupError", "Decision", "Event", "Game", "IllegalMoveError",
    "Move", "MoveKind", "Options", "Phase", "SetupError", "VARIANTS", "Variant", "get_variant",
]
