"""Playing whole games between personas, seeded and reproducible."""

from __future__ import annotations

import random
from collections.abc import Sequence

from trainer.engine.game import Game
from trainer.engine.rules import Options, Variant
from trainer.engine.variants import BASE
from trainer.policies.personas import Persona

MAX_DECISIONS = 5_000


def play_game(seats: Sequence[Persona], *, variant: Variant | str = BASE, seed: int = 0,
              options: Options | None = None) -> Game:
    """One game with one persona per seat (pass separate instances: a persona keeps this
    game's state). Each bot sees only its own observation; each seat has its own random
    stream, so a game is the same for the same seed. `variant` is a rule set or its compact
    description (table rules included)."""
    game = Game.new(len(seats), seed=seed, variant=variant, options=options)
    rngs = [random.Random(f"{seed}:{i}") for i in range(len(seats))]
    for persona, rng in zip(seats, rngs, strict=True):
        persona.new_game(rng)
    watchers = [i for i, s in enumerate(seats) if hasattr(s, "observe")]
    for _ in range(MAX_DECISIONS):
        if game.is_over:
            return game
        p = game.decider
        if hasattr(seats[p], "game"):
            seats[p].game = game  # type: ignore[attr-defined]
        move = seats[p].choose(game.observation(p), rngs[p])
        for i in watchers:  # bots that keep a belief see every move, from their own seat
            seats[i].observe(game.observation(i), move)  # type: ignore[attr-defined]
        game.apply(move)
    raise RuntimeError(f"game {seed} did not end within {MAX_DECISIONS} decisions")
