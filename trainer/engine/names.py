"""The names of cards, actions and sides as a reader sees them, in the reader's language.

Why not `Character.value` or `Action.label` on a page: those are the engine's identifiers
(the move notation, saved games and lesson files read them), and must stay English whatever
the reader's language; these are the words. Role names stay English in the Philippine
edition, but a third language may not keep them, so they go through the catalogue too.
"""

from __future__ import annotations

from trainer.engine.cards import Action, Allegiance, Character
from trainer.i18n import N_, tr

CARD_NAMES: dict[Character, str] = {
    Character.DUKE: N_("Duke"),
    Character.ASSASSIN: N_("Assassin"),
    Character.CAPTAIN: N_("Captain"),
    Character.AMBASSADOR: N_("Ambassador"),
    Character.CONTESSA: N_("Contessa"),
    Character.INQUISITOR: N_("Inquisitor"),
    Character.GRAVEROBBER: N_("Graverobber"),
    Character.INHERITANCE: N_("Inheritance Ambassador"),
    Character.VENGEANCE: N_("Vengeance Assassin"),
    Character.TREATY: N_("Treaty Contessa"),
}

# An action's name as a title or on a button ("Foreign Aid"), and inside a sentence
# ("take foreign aid" is worded by `trainer.engine.explain`; this is the bare name).
ACTION_TITLES: dict[Action, str] = {
    Action.INCOME: N_("Income"),
    Action.FOREIGN_AID: N_("Foreign Aid"),
    Action.COUP: N_("Coup"),
    Action.TAX: N_("Tax"),
    Action.ASSASSINATE: N_("Assassinate"),
    Action.STEAL: N_("Steal"),
    Action.EXCHANGE: N_("Exchange"),
    Action.EXAMINE: N_("Examine"),
    Action.CONVERT: N_("Convert"),
    Action.EMBEZZLE: N_("Embezzle"),
    Action.PEEK: N_("Peek"),
    Action.VENGEANCE: N_("Vengeance"),
}
ACTION_WORDS: dict[Action, str] = {
    Action.INCOME: N_("income"),
    Action.FOREIGN_AID: N_("foreign aid"),
    Action.COUP: N_("coup"),
    Action.TAX: N_("tax"),
    Action.ASSASSINATE: N_("assassinate"),
    Action.STEAL: N_("steal"),
    Action.EXCHANGE: N_("exchange"),
    Action.EXAMINE: N_("examine"),
    Action.CONVERT: N_("convert"),
    Action.EMBEZZLE: N_("embezzle"),
    Action.PEEK: N_("peek"),
    Action.VENGEANCE: N_("vengeance"),
}
ALLEGIANCE_NAMES: dict[Allegiance, str] = {
    Allegiance.LOYALIST: N_("Loyalist"),
    Allegiance.REFORMIST: N_("Reformist"),
}


def card_name(card: Character | str) -> str:
    """A card's name ("Duke"); a string that is no card is returned as it is."""
    try:
        return tr(CARD_NAMES[Character(card)])
    except ValueError:
        return str(card)


def cards_named(cards: list[Character] | tuple[Character, ...]) -> list[str]:
    return [card_name(c) for c in cards]


def action_title(action: Action) -> str:
    """An action's name as a title or a button says it ("Foreign Aid")."""
    return tr(ACTION_TITLES[action])


def action_word(action: Action) -> str:
    """An action's name inside a sentence ("foreign aid")."""
    return tr(ACTION_WORDS[action])


def allegiance_name(side: Allegiance) -> str:
    return tr(ALLEGIANCE_NAMES[side])
