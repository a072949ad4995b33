"""Nicknames in a room: typed or generated, checked, and unique within the room.

Why a generator: a phone should get into the room in two taps, and a generated name keeps a
class anonymous (Kahoot, Mentimeter); typed names are checked because they go on a
projector.
"""

from __future__ import annotations

import random
import re

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
EXPECTED = "1 to 20 letters, digits, spaces, '.', \"'\" or '-', starting with a letter or digit"


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


def name_problem(name: str, taken: set[str]) -> str | None:
    """Why `name` cannot be used in this room, or None."""
    name = name.strip()
    if not _NAME.match(name):
        return f"That name cannot be used: expected {EXPECTED}."
    if name.casefold() in {t.casefold() for t in taken}:
        return f"{name!r} is taken in this room: add a letter, or take a generated name."
    return None
