"""The views' stylesheets, read from the `.css` files beside this module.

Why files and not Python strings: a stylesheet is edited, linted and highlighted as CSS, and
a change to the look touches no code. They ship with the package as package data, so they
are read through importlib.resources (a checkout, an installed wheel and a zip all work).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def read_css(name: str) -> str:
    """The text of `css/<name>` (read once per process)."""
    return files("trainer.views").joinpath("css", name).read_text(encoding="utf-8")
