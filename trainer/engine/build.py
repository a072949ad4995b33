"""Which build of the engine is running, and the switch back to pure Python.

`make install` compiles `trainer/engine/game.py` with mypyc (see setup.py). The compiled extension
sits beside the source and Python would load it even after the source changed, running stale
rules. So before the engine is imported, a stale extension is bypassed (with a warning), and
COUP_TRAINER_PURE_PYTHON=1 bypasses it on purpose, e.g. to compare the two builds.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED_MODULES = ("game",)
PURE_ENV = "COUP_TRAINER_PURE_PYTHON"
_HERE = Path(__file__).resolve().parent
# Only a source checkout can edit game.py after compiling it. An installed wheel holds both files
# as built, with whatever times the installer gave them (game.py may be written a moment after
# the extension), so there the times say nothing about staleness.
_IN_CHECKOUT = (_HERE.parent.parent / "pyproject.toml").is_file()


def _extension(name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = _HERE / f"{name}{suffix}"
        if path.exists():
            return path
    return None


class _SourceFirst(MetaPathFinder):
    """Load the listed trainer modules from their .py files."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname in self.names:
            return importlib.util.spec_from_file_location(
                fullname, _HERE / f"{fullname.rpartition('.')[2]}.py")
        return None


def install_source_finder() -> None:
    pure = os.environ.get(PURE_ENV) == "1"
    names: set[str] = set()
    for name in COMPILED_MODULES:
        ext = _extension(name)
        if ext is None:
            continue
        if pure:
            names.add(f"trainer.engine.{name}")
        elif _IN_CHECKOUT and (_HERE / f"{name}.py").stat().st_mtime > ext.stat().st_mtime:
            warnings.warn(
                f"trainer/engine/{name}.py changed after it was compiled; running it as plain "
                f"Python (run `make install` to compile it again)", stacklevel=2)
            names.add(f"trainer.engine.{name}")
    if names and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(names))


def engine_build() -> str:
    """'compiled' when the mypyc extension is in use, else 'pure Python'."""
    from trainer.engine import game

    return "pure Python" if (game.__file__ or "").endswith(".py") else "compiled"


def compiled_available() -> bool:
    """Whether `make install` left a compiled engine beside the source."""
    return all(_extension(name) is not None for name in COMPILED_MODULES)
