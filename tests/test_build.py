"""The compiled engine and the plain-Python engine are the same game."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from trainer.engine.build import PURE_ENV, compiled_available
from trainer.engine.chance import RandomChance
from trainer.engine.game import Game
from trainer.engine.rules import Options
from trainer.engine.variants import BASE, VARIANTS

SCRIPT = """
import json, random
from trainer.engine.build import engine_build
from trainer.engine.game import Game
logs = []
for seed in range(40):
    game = Game.new(2 + seed % 9, seed=seed)
    choose = random.Random(seed).choice
    while not game.is_over:
        game.apply(choose(game.legal_moves()))
    logs.append([[e.kind, e.visible_to, repr(e.data)] for e in game.log])
print(json.dumps({"build": engine_build(), "logs": logs}))
"""


def _play(pure: bool) -> dict:
    env = dict(os.environ)
    env.pop(PURE_ENV, None)
    if pure:
        env[PURE_ENV] = "1"
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(not compiled_available(),
                    reason="no compiled engine is installed (the C build was skipped)")
def test_the_compiled_engine_plays_exactly_the_games_of_the_pure_python_engine():
    compiled, pure = _play(pure=False), _play(pure=True)
    assert pure["build"] == "pure Python"
    assert compiled["build"] == "compiled"
    assert compiled["logs"] == pure["logs"]


class _Interpreted(RandomChance):
    """A RandomChance the engine does not recognise: every draw goes through its methods."""


class _Generator(random.Random):
    """A random.Random subclass: the engine leaves its shuffles to it."""


def _log(game: Game) -> list:
    return [(e.kind, e.visible_to, repr(e.data)) for e in game.log]


def _play_out(game: Game, seed: int) -> list:
    choose = random.Random(seed).choice
    while not game.is_over:
        game.apply(choose(game.legal_moves()))
    return _log(game)


def test_the_deal_is_the_shuffle_random_random_makes():
    # Stored games, question banks and Play links keep only a seed: Game.new must deal what
    # random.Random(seed).shuffle deals, however the engine shuffles.
    for seed in range(200):
        players = 2 + seed % 5
        game = Game.new(players, seed=seed)
        deck = list(BASE.court(players))
        random.Random(seed).shuffle(deck)
        assert [list(h) for h in game.hidden] == [deck[2 * p:2 * p + 2] for p in range(players)]
        assert game.deck == deck[2 * players:]


def test_the_engines_own_draws_are_the_draws_of_the_chance_object():
    # The engine deals and draws for a RandomChance over a plain random.Random itself; any
    # other generator or Chance is asked. Both must give the same games, card for card.
    from trainer.engine import game as engine

    assert engine._SAME_DRAWS  # this Python's random.Random draws as the engine's copy does
    for seed in range(70):
        v = list(VARIANTS.values())[seed % len(VARIANTS)]
        players = 2 if v.draft else 2 + seed % 4
        options = Options(challengers="all", foreign_aid_blockers="random",
                          examine_pick="random") if seed % 2 else None
        own = _play_out(Game.new(players, seed=seed, variant=v, options=options), seed)
        asked = Game.new(players, rng=_Generator(seed), variant=v, options=options)
        assert _play_out(asked, seed) == own, (v.name, seed)
        methods = Game.new(players, seed=seed, variant=v, options=options)
        methods.chance = _Interpreted(methods.chance.rng)  # type: ignore[attr-defined]
        assert _play_out(methods, seed) == own, (v.name, seed)
