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
    INQUISITOR = "Inquisitor"
    GRAVEROBBER = "Graverobber"
    # McGuire house rule 5: one copy each of three characters carries an extra power.
    INHERITANCE = "Inheritance Ambassador"
    VENGEANCE = "Vengeance Assassin"
    TREATY = "Treaty Contessa"

    # Enum's own __hash__ is a Python-level call; the engine hashes cards in its inner loop.
    __hash__ = str.__hash__

    @classmethod
    def parse(cls, text: str) -> Character:
        """Accept any capitalisation and surrounding blanks; raise ValueError naming the choices."""
        key = " ".join(text.strip().lower().split())
        for member in cls:
            if member.value.lower() == key:
                return member
        alias = _ALIASES.get(key)
        if alias is not None:
            return cls(alias)
        raise ValueError(
            f"unknown card {text.strip()!r}; expected one of {', '.join(m.value for m in cls)}"
        )


    @property
    def role(self) -> Character:
        """The character this card counts as when it proves a claim (itself for plain cards)."""
        return _ROLE_OF[self]


def proves(card: Character, claim: Character) -> bool:
    """Whether `card` proves a claim of `claim`: the very card, or a card of that character
    (a McGuire card counts as its character). Why one function: a Treaty Contessa's own claim
    (overriding the Duke's block) is proved only by that card, while the card also proves a
    plain Contessa claim; comparing characters alone calls every Treaty claim a bluff."""
    return card is claim or card.role is claim


# A modified card proves a claim of its character; the name alone ("Treaty") also reads as it.
ROLES: dict[str, str] = {
    "Inheritance Ambassador": "Ambassador",
    "Vengeance Assassin": "Assassin",
    "Treaty Contessa": "Contessa",
}
_ALIASES: dict[str, str] = {
    "inheritance": "Inheritance Ambassador", "ambassador (inheritance)": "Inheritance Ambassador",
    "vengeance": "Vengeance Assassin", "assassin (vengeance)": "Vengeance Assassin",
    "treaty": "Treaty Contessa", "contessa (treaty)": "Treaty Contessa",
}


# Looked up, not built: bots and estimates ask for roles in their inner loops.
_ROLE_OF: dict[Character, Character] = {c: Character(ROLES.get(c.value, c.value))
                                        for c in Character}


class Allegiance(StrEnum):
    """Reformation's two sides."""

    LOYALIST = "Loyalist"
    REFORMIST = "Reformist"

    __hash__ = str.__hash__

    @property
    def other(self) -> Allegiance:
        return Allegiance.REFORMIST if self is Allegiance.LOYALIST else Allegiance.LOYALIST


class Action(StrEnum):
    """An action a player may take on their turn. The value is its rulebook name in snake case."""

    INCOME = "income"
    FOREIGN_AID = "foreign_aid"
    COUP = "coup"
    TAX = "tax"
    ASSASSINATE = "assassinate"
    STEAL = "steal"
    EXCHANGE = "exchange"
    EXAMINE = "examine"  # official Inquisitor
    CONVERT = "convert"  # Reformation
    EMBEZZLE = "embezzle"  # Reformation
    PEEK = "peek"  # forum Inquisitor: gain 2 and look at the top and bottom of the deck
    VENGEANCE = "vengeance"  # McGuire: the free assassination of a couped Vengeance Assassin

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
