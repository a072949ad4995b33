"""Where the trainer's files are: the lesson files, the data folder and the rule texts.

Why one module: a checkout, an installed wheel and the test suite put these files in different
places, and every part of the trainer must agree on where to look. Each place can be moved with
an environment variable (a teacher's own lesson folder, a shared data folder, a test's temporary
one).
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# The source checkout this package runs from, or None for an installed wheel.
CHECKOUT: Path | None = (PACKAGE.parent if (PACKAGE.parent / "pyproject.toml").is_file()
                         and (PACKAGE.parent / "scenarios").is_dir() else None)

SCENARIOS_ENV = "COUP_TRAINER_SCENARIOS"
DATA_ENV = "COUP_TRAINER_DATA_DIR"
# The lesson files a wheel carries (a copy of the checkout's scenarios/, made by the build).
PACKAGED_SCENARIOS = PACKAGE / "scenarios" / "library"


def scenarios_dir() -> Path:
    """The lesson folder: $COUP_TRAINER_SCENARIOS, else the checkout's scenarios/, else the
    copy inside the installed package."""
    env = os.environ.get(SCENARIOS_ENV)
    if env:
        return Path(env)
    if CHECKOUT is not None:
        return CHECKOUT / "scenarios"
    return PACKAGED_SCENARIOS


def data_dir() -> Path:
    """Where answers and banks built in the app are written: $COUP_TRAINER_DATA_DIR, else the
    checkout's data/, else ~/.coup-trainer for an installed package."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    if CHECKOUT is not None:
        return CHECKOUT / "data"
    return Path.home() / ".coup-trainer"
