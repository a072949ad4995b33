"""Which build of the engine is running, and the switch back to pure Python.

`make install` compiles the engine's inner loop (`trainer/engine/game.py`) and what a rollout
runs at every decision (`observation.py`, the personas' policies) with mypyc (see setup.py). The
compiled extensions sit beside the sources and Python would load them even after a source
changed, running stale rules. So before the engine is imported, stale extensions are bypassed
(with a warning), and COUP_TRAINER_PURE_PYTHON=1 bypasses them on purpose, e.g. to compare the
two builds. They are compiled together and call each other natively, so they are bypassed
together: one module from source among compiled ones would hand them objects of a class they
do not know.
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

# Dotted names, in the order of setup.py's COMPILED.
COMPILED_MODULES = ("trainer.engine.game", "trainer.engine.observation",
                    "trainer.engine.frozen", "trainer.policies.personas")
PURE_ENV = "COUP_TRAINER_PURE_PYTHON"
_HERE = Path(__file__).resolve().parent
_PACKAGE = _HERE.parent  # trainer/
# Only a source checkout can edit game.py after compiling it. An installed wheel holds both files
# as built, with whatever times the installer gave them (game.py may be written a moment after
# the extension), so there the times say nothing about staleness.
_IN_CHECKOUT = (_HERE.parent.parent / "pyproject.toml").is_file()


def _source(name: str) -> Path:
    """trainer.policies.personas -> …/trainer/policies/personas.py"""
    return _PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py")


def _extension(name: str) -> Path | None:
    source = _source(name)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = source.with_name(source.stem + suffix)
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
            return importlib.util.spec_from_file_location(fullname, _source(fullname))
        return None


def install_source_finder() -> None:
    pure = os.environ.get(PURE_ENV) == "1"
    built = {name: ext for name in COMPILED_MODULES if (ext := _extension(name)) is not None}
    names: set[str] = set()
    if pure:
        names = set(built)
    elif _IN_CHECKOUT:
        stale = [name for name, ext in built.items()
                 if _source(name).stat().st_mtime > ext.stat().st_mtime]
        if stale or len(built) not in (0, len(COMPILED_MODULES)):
            changed = ", ".join(str(_source(n).relative_to(_PACKAGE.parent)) for n in stale)
            warnings.warn(
                f"{changed or 'part of the compiled build is missing'}"
                f"{' changed after it was compiled' if stale else ''}; running the engine as "
                f"plain Python (run `make install` to compile it again)", stacklevel=2)
            names = set(built)
    if names and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(names))


def engine_build() -> str:
    """'compiled' when the mypyc extension is in use, else 'pure Python'."""
    from trainer.engine import game

    return "pure Python" if (game.__file__ or "").endswith(".py") else "compiled"


def compiled_available() -> bool:
    """Whether `make install` left a compiled engine beside the source."""
    return all(_extension(name) is not None for name in COMPILED_MODULES)
