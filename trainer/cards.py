"""The plain vocabulary of the game: characters and actions.

Both are string enums so that they print, compare and serialise as the words a rulebook uses
("Duke", "tax"), while the engine keeps hashing them at plain-string speed.
"""

from __future__ import annotations

from enum import StrEnum


class Character(StrEnum):
    """A character card. The value is the name printed on the card."""

    DUKE = "Duke"
    ASSASSIN = "Assassin"
    CAPTAIN = "Captain"
    AMBASSADOR = "Ambassador"
    CONTESSA = "Contessa"

    # Enum's own __hash__ is a Python-level call; the engine hashes cards in its inner loop.
    __hash__ = str.__hash__

    @classmethod
    def parse(cls, text: str) -> Character:
        """Accept any capitalisation and surrounding blanks; raise ValueError naming the choices."""
        key = text.strip().lower()
        for member in cls:
            if member.value.lower() == key:
                return member
        raise ValueError(
            f"unknown card {text.strip()!r}; expected one of {', '.join(m.value for m in cls)}"
        )


class Action(StrEnum):
    """An action a player may take on their turn. The value is its rulebook name in snake case."""

    INCOME = "income"
    FOREIGN_AID = "foreign_aid"
    COUP = "coup"
    TAX = "tax"
    ASSASSINATE = "assassinate"
    STEAL = "steal"
    EXCHANGE = "exchange"

    __hash__ = str.__hash__

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @classmethod
    def parse(cls, text: str) -> Action:
        key = text.strip().lower().replace(" ", "_").replace("-", "_")
        for member in cls:
            if member.value == key:
                return member
        raise ValueError(
            f"unknown action {text.strip()!r}; expected one of "
            f"{', '.join(m.label for m in cls)}"
        )
