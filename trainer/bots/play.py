"""Playing whole games between personas, seeded and reproducible."""

from __future__ import annotations

from collections.abc import Sequence

from trainer.engine.game import Game
from trainer.engine.rules import Options, Variant
from trainer.engine.variants import BASE
from trainer.policies.runner import MAX_DECISIONS, Bot, Runner, seat_streams

__all__ = ["MAX_DECISIONS", "play_game"]


def play_game(seats: Sequence[Bot], *, variant: Variant | str = BASE, seed: int = 0,
              options: Options | None = None) -> Game:
    """One game with one bot per seat (pass separate instances: a bot keeps this game's
    state), through the one runner: each bot sees only its own observation; each seat has its
    own random stream, so a game is the same for the same seed. `variant` is a rule set or its
    compact description (table rules included)."""
    game = Game.new(len(seats), seed=seed, variant=variant, options=options)
    runner = Runner(game, dict(enumerate(seats)), seat_streams(seed, len(seats)))
    try:
        return runner.play_out(MAX_DECISIONS)
    except RuntimeError:
        raise RuntimeError(f"game {seed} did not end within {MAX_DECISIONS} decisions") from None
