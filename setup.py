"""Build hook: compile the rules engine's inner loop with mypyc when a C compiler is at hand.

`trainer/engine/game.py` is plain, fully typed Python; mypyc turns the same source into a C
extension that plays about twice as fast, which is what bots and end-game solvers need. Set
COUP_TRAINER_PURE_PYTHON=1 to skip compilation (the package then runs as ordinary Python).
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = ["trainer/engine/game.py"]

ext_modules = []
if os.environ.get("COUP_TRAINER_PURE_PYTHON") != "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
