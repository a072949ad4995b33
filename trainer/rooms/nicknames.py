"""Nicknames in a room: typed or generated, checked, and unique within the room.

Why a generator: a phone should get into the room in two taps, and a generated name keeps a
class anonymous (Kahoot, Mentimeter); typed names are checked because they go on a
projector. Why confusables are refused: "Аnn" with a Cyrillic А looks like "Ann" on the
screen, so answers could pass for someone else's; which letters look alike comes from
Unicode's confusables list (UTS #39) as the `confusable_homoglyphs` package ships it, not
from a list of our own.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from confusable_homoglyphs.confusables import (  # type: ignore[import-untyped]
    confusables_data,
)

from trainer.i18n import N_, tr

ADJECTIVES = (
    "Bold", "Calm", "Clever", "Cool", "Crafty", "Daring", "Eager", "Fearless", "Gentle",
    "Lucky", "Merry", "Quiet", "Quick", "Shrewd", "Silent", "Sly", "Steady", "Swift",
    "Wily", "Wise",
)
# Animals, not characters: "Sly Duke" beside a table of Dukes would read as a card.
FIGURES = (
    "Badger", "Falcon", "Fox", "Hare", "Heron", "Lynx", "Otter", "Owl", "Raven", "Wolf",
)
_NAME = re.compile(r"^[^\W_][\w .'-]{0,19}$")
EXPECTED = N_("1 to 20 letters, digits, spaces, '.', \"'\" or '-', starting with a letter or "
              "digit")


def generated_name(rng: random.Random, taken: set[str]) -> str:
    """A "Sly Fox" not yet taken in the room (case aside); a number is added once the
    200 pairs run out."""
    lowered = {t.casefold() for t in taken}
    for _ in range(60):
        name = f"{rng.choice(ADJECTIVES)} {rng.choice(FIGURES)}"
        if name.casefold() not in lowered:
            return name
    n = 2
    while True:
        name = f"{rng.choice(ADJECTIVES)} {rng.choice(FIGURES)} {n}"
        if name.casefold() not in lowered:
            return name
        n += 1


@lru_cache(maxsize=4096)
def _glyphs(ch: str) -> frozenset[str]:
    """The characters Unicode lists as looking like `ch`."""
    return frozenset(str(h["c"]) for h in confusables_data.get(ch, ()))


def _alike(x: str, y: str) -> bool:
    return x == y or y in _glyphs(x) or x in _glyphs(y)


def looks_like(a: str, b: str) -> bool:
    """Whether two names read the same on a screen: letter by letter equal or confusable,
    as written or case aside ("Аnn" with a Cyrillic А and "ann" both look like "Ann")."""
    if len(a) != len(b):
        return False
    return all(_alike(x, y) or _alike(x.casefold(), y.casefold())
               for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class NameProblem:
    """Why a name cannot be used: `kind` for the code ("taken": someone in the room has it;
    "alike": it reads the same as someone's; "invalid": not a name), `text` for the person."""

    kind: Literal["invalid", "taken", "alike"]
    text: str


def name_check(name: str, taken: set[str]) -> NameProblem | None:
    """Why `name` cannot be used in this room, or None."""
    name = name.strip()
    if not _NAME.match(name):
        return NameProblem("invalid", tr("That name cannot be used: expected {expected}.",
                                         expected=tr(EXPECTED)))
    if name.casefold() in {t.casefold() for t in taken}:
        return NameProblem("taken", tr("{name} is taken in this room: add a letter, or take a "
                                       "generated name.", name=repr(name)))
    if (twin := next((t for t in sorted(taken) if looks_like(name, t)), None)) is not None:
        return NameProblem("alike", tr("{name} looks the same as {twin}, who is already in "
                                       "this room (some of its letters only look like "
                                       "theirs): pick a name that reads differently.",
                                       name=repr(name), twin=repr(twin)))
    return None


def name_problem(name: str, taken: set[str]) -> str | None:
    """Why `name` cannot be used in this room, in words, or None."""
    problem = name_check(name, taken)
    return None if problem is None else problem.text
