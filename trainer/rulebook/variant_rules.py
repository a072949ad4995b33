"""What each variant changes from the base game, in plain words, with the text it comes from.

The Rules page and `python -m trainer rules` print these next to the tables generated from the
engine; a test checks that every quote is word for word in its rule text and that every hook a
variant switches on is explained here.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.engine.rules import SOURCE_FORUM, SOURCE_MCGUIRE, SOURCE_OFFICIAL, Variant
from trainer.engine.variants import MAT_EVENTS

OFFICIAL, MCGUIRE, FORUM = SOURCE_OFFICIAL, SOURCE_MCGUIRE, SOURCE_FORUM


@dataclass(frozen=True, slots=True)
class VariantRule:
    """One change a variant makes: what it is called, what it does, and the words behind it."""

    hook: str  # the Variant field (or feature) that switches it on
    title: str
    text: str
    quote: str
    source: str  # "FILE (what it is)"

    @property
    def source_file(self) -> str:
        return self.source.split()[0]


_RULES: tuple[VariantRule, ...] = (
    VariantRule(
        "draft", "Drafting the hands",
        "Three sets of one of each character. Each player secretly keeps one card of their own "
        "set and puts the other four out of the game face down; the third set is shuffled, one "
        "card is dealt to each player and the last three are the Court deck. The starting "
        "player has 1 coin.",
        "Each player takes one set, secretly chooses one card and discards the rest.", OFFICIAL),
    VariantRule(
        "examine", "The Inquisitor replaces the Ambassador",
        "Exchange draws one card instead of two. Examine: the target shows one face-down card "
        "to the Inquisitor only, who hands it back or forces the target to draw a new card and "
        "return the shown one to the Court deck. The Inquisitor blocks stealing. An examine "
        "whose target died challenging it ends without a look.",
        "Remove all the Ambassador character cards from the Court deck and replace with "
        "Inquisitor cards.", OFFICIAL),
    VariantRule(
        "allegiances", "Allegiances",
        "The start player chooses Loyalist or Reformist; the others alternate clockwise. Nobody "
        "may coup, assassinate, steal from, examine or block the foreign aid of a player of "
        "their own allegiance, unless every living player shares one. Challenging an ally is "
        "allowed. The restrictions return as soon as someone converts away.",
        "A player cannot Coup, Assassinate, Steal from nor block a Foreign Aid attempt by "
        "another player of the same Allegiance unless all players are of the same Allegiance.",
        OFFICIAL),
    VariantRule(
        "allegiances", "Conversion and embezzlement",
        "Conversion costs 1 coin (yourself) or 2 (another player), paid onto the Treasury "
        "Reserve. Embezzlement takes every coin on the Reserve by claiming NOT to hold the "
        "Duke: a challenged embezzler holding a Duke must concede; one without shows every "
        "face-down card, the challenger loses, and the shown cards are shuffled back and "
        "replaced. Embezzling needs coins on the Reserve (an empty one would be a pass, and a "
        "player may not pass).",
        "Unless you have the Duke, you may take all the coins on the Treasury Reserve card.",
        OFFICIAL),
    VariantRule(
        "reducers", "1. The Ambassador only reduces a steal",
        "Claiming the Ambassador against a steal reduces it to 1 coin instead of blocking it. "
        "The claim can be challenged like a block.",
        "An Ambassador can reduce the Captain's stealing to 1 ISK, but not block it entirely.",
        MCGUIRE),
    VariantRule(
        "first_coins", "2. Starting coins",
        "The first player starts with 0 coins and everyone else with 1, at any player count.",
        "The first player starts with 0 ISK. The others start with 1 ISK.", MCGUIRE),
    VariantRule(
        "challenge_bounty", "3. The challenger's coin",
        "Whoever challenges takes 1 coin from the Treasury at once, before the challenge is "
        "resolved, whether it succeeds or not.",
        "On challenging, the challenger immediately receives 1 ISK before the challenge is "
        "resolved", MCGUIRE),
    VariantRule(
        "pay_instead", "4. Paying instead of losing a card",
        "The loser of a challenge who has at least 5 coins may pay 5 instead of losing a card. "
        "The payment happens before the action resolves, so a steal may find less to take.",
        "Whomever loses the challenge may pay 5 ISK to the bank instead of losing a card.",
        MCGUIRE),
    VariantRule(
        "specials", "5. Three modified cards",
        "One Ambassador has Inheritance: its owner gains 4 coins when it is killed. One Assassin "
        "has Vengeance: when it is killed by a Coup its owner (even if now exiled) makes a free "
        "assassination, which a Contessa can block; that can end the game in a tie. One "
        "Contessa has Treaty: after a Duke blocks your foreign aid you may claim the Treaty "
        "Contessa to override the block (only that card proves it). A killed card is one lost "
        "to a coup or an assassination; a card lost in a challenge is a death, not a kill.",
        "A card lost in a challenge is a \"death\" but not a \"kill.\"", MCGUIRE),
    VariantRule(
        "event_mat", "6. The event mat",
        "Cards dealt face down on the mat are flipped at set moments, and a coin waits for the "
        "first player: " + "; ".join(MAT_EVENTS.values()) + ". Face-up mat cards are out of "
        "play, which tells everyone where some cards are not.",
        "A special mat is marked with five events.", MCGUIRE),
    VariantRule(
        "ties", "7. No self-targeting",
        "Nobody may challenge, assassinate or coup themselves (true of every variant here).",
        "No self-challenges, self-assassinations, or self-coups are allowed.", MCGUIRE),
    VariantRule(
        "fixed_deck", "A deck in fixed order",
        "The deck is shuffled once. The Ambassador draws the top 2 cards and returns cards to "
        "the bottom; a proven card is shuffled in at a random place and its owner takes the top "
        "card. The Inquisitor takes 2 coins and looks at the top and bottom cards. The Contessa "
        "also blocks stealing, and the Ambassador does not.",
        "the deck is in a fixed order when the game begins.", FORUM),
    VariantRule(
        "graverobber", "The Graverobber",
        "When a player is exiled with coins, every living player, clockwise from the exiled "
        "one, may claim the Graverobber. Each claim can then be challenged in turn; the claims "
        "left standing split the coins equally, rounded down, and the rest go to the Treasury.",
        "After claims and challenging, the coins are split among Graverobber claim(s) "
        "(rounded down).", FORUM),
    VariantRule(
        "timeout", "Turn time-outs",
        "A turn that times out is Income, or a Coup on a random player at 10 or more coins; a "
        "challenge, block or Graverobber window that times out is a pass.",
        "If you have 10 coins, it will be defaulted to Coup on a random player instead.", FORUM),
)

HOOKS = ("draft", "allegiances", "reducers", "first_coins", "challenge_bounty", "pay_instead",
         "specials", "event_mat", "ties", "fixed_deck", "graverobber", "timeout")


def variant_rules(variant: Variant) -> list[VariantRule]:
    """The changes this variant makes to the base game, in the order of its rule text."""
    return [r for r in _RULES if variant.has(r.hook)]


def all_rules() -> tuple[VariantRule, ...]:
    return _RULES
