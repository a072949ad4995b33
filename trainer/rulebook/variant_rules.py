"""What each variant changes from the base game, in plain words, with the text it comes from.

The Rules page and `python -m trainer rules` print these next to the tables generated from the
engine; a test checks that every quote is word for word in its rule text and that every hook a
variant switches on is explained here.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.engine.rules import SOURCE_FORUM, SOURCE_MCGUIRE, SOURCE_OFFICIAL, Variant
from trainer.engine.variants import (
    HOUSE_RULE_NAMES,
    HOUSE_RULES,
    VARIANTS,
    house_rule_text,
    house_rules_on,
    title_words,
)
from trainer.i18n import N_, tr

OFFICIAL, FORUM = SOURCE_OFFICIAL, SOURCE_FORUM


@dataclass(frozen=True, slots=True)
class VariantRule:
    """One change a variant makes: what it is called, what it does, and the words behind it."""

    hook: str  # the Variant field (or feature), or the house rule, that switches it on
    title: str
    text: str
    quote: str
    source: str  # "FILE (what it is)"

    @property
    def source_file(self) -> str:
        return self.source.split()[0]

    # The words for a reader (`title`, `text` and `quote` are the English, catalogued; the
    # quote-checking code reads the English quote against its rule text).
    @property
    def title_words(self) -> str:
        return tr(self.title)

    @property
    def text_words(self) -> str:
        if self.hook in HOUSE_RULE_NAMES and self.hook == "mat":
            return house_rule_text(HOUSE_RULE_NAMES[self.hook])
        return tr(self.text)

    @property
    def quote_words(self) -> str:
        """Our own translation of the quote in a reader's language (the English as it is)."""
        return tr(self.quote)


_RULES: tuple[VariantRule, ...] = (
    VariantRule(
        "draft", N_("Drafting the hands"),
        N_("Three sets of one of each character. Each player secretly keeps one card of their own "
        "set and puts the other four out of the game face down; the third set is shuffled, one "
        "card is dealt to each player and the last three are the Court deck. The starting "
        "player has 1 coin."),
        N_("Each player takes one set, secretly chooses one card and discards the rest."),
        OFFICIAL),
    VariantRule(
        "examine", N_("The Inquisitor replaces the Ambassador"),
        N_("Exchange draws one card instead of two. Examine: the target shows one face-down card "
        "to the Inquisitor only, who hands it back or forces the target to draw a new card and "
        "return the shown one to the Court deck. The Inquisitor blocks stealing. An examine "
        "whose target died challenging it ends without a look."),
        N_("Remove all the Ambassador character cards from the Court deck and replace with "
        "Inquisitor cards."), OFFICIAL),
    VariantRule(
        "allegiances", N_("Allegiances"),
        N_("The start player chooses Loyalist or Reformist; the others alternate clockwise. Nobody "
        "may coup, assassinate, steal from, examine or block the foreign aid of a player of "
        "their own allegiance, unless every living player shares one. Challenging an ally is "
        "allowed. The restrictions return as soon as someone converts away."),
        N_("A player cannot Coup, Assassinate, Steal from nor block a Foreign Aid attempt by "
        "another player of the same Allegiance unless all players are of the same Allegiance."),
        OFFICIAL),
    VariantRule(
        "allegiances", N_("Conversion and embezzlement"),
        N_("Conversion costs 1 coin (yourself) or 2 (another player), paid onto the Treasury "
        "Reserve. Embezzlement takes every coin on the Reserve by claiming NOT to hold the "
        "Duke: a challenged embezzler holding a Duke must concede; one without shows every "
        "face-down card, the challenger loses, and the shown cards are shuffled back and "
        "replaced. Embezzling an empty Reserve gains nothing; whether it is allowed at all is "
        "the table rule on actions that can gain nothing."),
        N_("Unless you have the Duke, you may take all the coins on the Treasury Reserve card."),
        OFFICIAL),
    VariantRule(
        "fixed_deck", N_("A deck in fixed order"),
        N_("The deck is shuffled once. The Ambassador draws the top 2 cards and returns cards to "
        "the bottom; a proven card is shuffled in at a random place and its owner takes the top "
        "card. The Inquisitor takes 2 coins and looks at the top and bottom cards. The Contessa "
        "also blocks stealing, and the Ambassador does not."),
        N_("the deck is in a fixed order when the game begins."), FORUM),
    VariantRule(
        "graverobber", N_("The Graverobber"),
        N_("When a player is exiled with coins, every living player, clockwise from the exiled "
        "one, may claim the Graverobber. Each claim can then be challenged in turn; the claims "
        "left standing split the coins equally, rounded down, and the rest go to the Treasury."),
        N_("After claims and challenging, the coins are split among Graverobber claim(s) "
        "(rounded down)."), FORUM),
    VariantRule(
        "timeout", N_("Turn time-outs"),
        N_("A turn that times out is Income, or a Coup on a random player at 10 or more coins; a "
        "challenge, block or Graverobber window that times out is a pass."),
        N_("If you have 10 coins, it will be defaulted to Coup on a random player instead."),
        FORUM),
)

HOOKS = ("draft", "allegiances", "fixed_deck", "graverobber", "timeout")

# McGuire's house rules are switches (trainer.engine.variants.HOUSE_RULES): their words live
# there, beside what each does to a rule set, and are listed here for the rule sets that use them.
_HOUSE: dict[str, VariantRule] = {
    r.name: VariantRule(r.name, r.title, r.text, r.quote, r.source) for r in HOUSE_RULES
}
_SELF_TARGETING = VariantRule(
    "no_self_target", N_("7. Self-targeting (house rule 7 switched off)"),
    N_("A player may challenge their own claim or block, and assassinate or coup themselves; "
    "the house rule that forbids it is off at this table."),
    N_("No self-challenges, self-assassinations, or self-coups are allowed."), SOURCE_MCGUIRE)


def house_rules(variant: Variant) -> list[VariantRule]:
    """McGuire's house rules in force, in the designer's order. Rule 7 (no self-targeting) is
    every rule text's reading, so it is listed with the other house rules it belongs with, or
    as a change when it is switched off."""
    on = house_rules_on(variant)
    others = any(v for name, v in on.items() if name != "no_self_target")
    out = [_HOUSE[name] for name, v in on.items()
           if v and (name != "no_self_target" or others)]
    if not on["no_self_target"]:
        out.append(_SELF_TARGETING)
    return out


def variant_rules(variant: Variant) -> list[VariantRule]:
    """The changes this variant makes to the base game, in the order of its rule text, then
    McGuire's house rules in force."""
    return [r for r in _RULES if variant.has(r.hook)] + house_rules(variant)


def all_rules() -> tuple[VariantRule, ...]:
    return _RULES + tuple(_HOUSE.values()) + (_SELF_TARGETING,)


def changes_heading(variant: Variant) -> str:
    """The heading over `variant_rules`: "What Inquisitor changes"; for a rule set with house
    rules switched, "What the house rules change" (on the base game) or "What Inquisitor and
    the house rules change"."""
    if not variant.family:
        return tr("What {rules} changes", rules=title_words(variant))
    if variant.family == "base":
        return tr("What the house rules change")
    return tr("What {rules} and the house rules change",
              rules=title_words(VARIANTS[variant.family]))
