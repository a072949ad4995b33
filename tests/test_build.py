"""The compiled engine and the plain-Python engine are the same game."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from trainer.engine.build import PURE_ENV, compiled_available

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
