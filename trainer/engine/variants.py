"""The seven rule sets and their registry: open this file to see what a variant changes.

Each variant is the base game's action table with some rows changed, plus named hooks (see
`Variant`) that switch on the rules only some texts have. Where a text is silent or two texts
disagree, the point is an option of `trainer.engine.rules.Options`, not a guess here.
"""

from __future__ import annotations

from trainer.engine.cards import Action, Character
from trainer.engine.rules import (
    SOURCE_FORUM,
    SOURCE_MCGUIRE,
    SOURCE_OFFICIAL,
    SOURCE_PH,
    SOURCE_TREASON,
    ActionSpec,
    Variant,
)

BASE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(Action.INCOME, None, 0, False, (), "nobody", "Take 1 coin from the Treasury.",
               "Cannot be blocked or challenged."),
    ActionSpec(Action.FOREIGN_AID, None, 0, False, (Character.DUKE,), "anyone",
               "Take 2 coins from the Treasury.",
               "Any player claiming the Duke may block it."),
    ActionSpec(Action.COUP, None, 7, True, (), "nobody",
               "Pay 7 coins; the target immediately loses an influence.",
               "Always successful: cannot be blocked or challenged."),
    ActionSpec(Action.TAX, Character.DUKE, 0, False, (), "nobody",
               "Take 3 coins from the Treasury.", "Cannot be blocked."),
    ActionSpec(Action.ASSASSINATE, Character.ASSASSIN, 3, True, (Character.CONTESSA,), "target",
               "Pay 3 coins; if successful the target loses an influence. The 3 coins are "
               "returned if the Assassin is successfully challenged, and stay spent if blocked.",
               "The target may block by claiming the Contessa."),
    ActionSpec(Action.STEAL, Character.CAPTAIN, 0, True,
               (Character.AMBASSADOR, Character.CAPTAIN), "target",
               "Take 2 coins from the target (only 1 if they have 1).",
               "The target may block by claiming the Ambassador or the Captain."),
    ActionSpec(Action.EXCHANGE, Character.AMBASSADOR, 0, False, (), "nobody",
               "Draw 2 cards from the Court deck, keep as many cards as you have influence, "
               "return the rest.", "Cannot be blocked."),
)

_BASE = {s.action: s for s in BASE_ACTIONS}

INQUISITOR_ACTIONS: tuple[ActionSpec, ...] = (
    _BASE[Action.INCOME], _BASE[Action.FOREIGN_AID], _BASE[Action.COUP], _BASE[Action.TAX],
    _BASE[Action.ASSASSINATE],
    _BASE[Action.STEAL].but(
        blockers=(Character.CAPTAIN, Character.INQUISITOR),
        counter="The target may block by claiming the Captain or the Inquisitor."),
    _BASE[Action.EXCHANGE].but(
        claim=Character.INQUISITOR,
        effect="Draw 1 card from the Court deck, keep as many cards as you have influence, "
        "return the rest."),
    ActionSpec(Action.EXAMINE, Character.INQUISITOR, 0, True, (), "nobody",
               "Look at one of the target's face-down cards (the target chooses which), then "
               "hand it back or force the target to draw a new card from the Court deck and "
               "return the examined one.", "Cannot be blocked."),
)

REFORMATION_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(Action.CONVERT, None, 1, False, (), "nobody",
               "Pay 1 coin to change your own allegiance, or 2 coins to change another "
               "player's; the coins go onto the Treasury Reserve.",
               "Cannot be blocked or challenged.", other_cost=2),
    ActionSpec(Action.EMBEZZLE, Character.DUKE, 0, False, (), "nobody",
               "Claim NOT to have the Duke and take every coin on the Treasury Reserve.",
               "Challengeable the other way round: a challenged player holding a Duke must "
               "concede; one without shows their cards and the challenger loses.",
               inverted=True),
)

MCGUIRE_ACTIONS: tuple[ActionSpec, ...] = tuple(
    s.but(blockers=(Character.CAPTAIN, Character.AMBASSADOR),
          effect="Take 2 coins from the target (only 1 if they have 1).",
          counter="The target may block by claiming the Captain, or claim the Ambassador to "
          "reduce the steal to 1 coin.")
    if s.action is Action.STEAL else s
    for s in BASE_ACTIONS
)

FORUM_ACTIONS: tuple[ActionSpec, ...] = (
    _BASE[Action.INCOME], _BASE[Action.FOREIGN_AID], _BASE[Action.COUP], _BASE[Action.TAX],
    _BASE[Action.ASSASSINATE],
    _BASE[Action.STEAL].but(
        blockers=(Character.CAPTAIN, Character.CONTESSA),
        counter="The target may block by claiming the Captain or the Contessa."),
    _BASE[Action.EXCHANGE].but(
        effect="Draw the top 2 cards of the Court deck, keep as many cards as you have "
        "influence, return the rest to the bottom."),
    ActionSpec(Action.PEEK, Character.INQUISITOR, 0, False, (), "nobody",
               "Take 2 coins from the Treasury and look at the top and bottom cards of the "
               "Court deck.", "Cannot be blocked."),
)

# Not on a summary card: the free assassination a couped Vengeance Assassin makes.
VENGEANCE_SPEC = ActionSpec(Action.VENGEANCE, None, 0, True, (Character.CONTESSA,), "target",
                            "A free assassination by a player whose Vengeance Assassin was "
                            "killed by a Coup.", "The target may block by claiming the Contessa.")


BASE = Variant(
    name="base",
    title="Coup (base game)",
    source=f"{SOURCE_OFFICIAL}; {SOURCE_PH}",
    characters=(Character.DUKE, Character.ASSASSIN, Character.CAPTAIN, Character.AMBASSADOR,
                Character.CONTESSA),
    actions=BASE_ACTIONS,
    summary="2–6 players with 15 cards (3 of each character); 7–8 players with 4 of each and "
    "9–10 with 5 (More Than Six Player Variant). Each player starts with 2 coins, except the "
    "first player of a two-player game, who starts with 1.",
)

_BASE5 = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN, Character.AMBASSADOR,
          Character.CONTESSA)
_INQ5 = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN, Character.INQUISITOR,
         Character.CONTESSA)

DRAFT = Variant(
    name="draft",
    title="Two-player draft",
    source=SOURCE_OFFICIAL,
    characters=_BASE5,
    actions=BASE_ACTIONS,
    min_players=2,
    max_players=2,
    draft=True,
    summary="Two players. The 15 cards are split into three sets of one of each character. "
    "Each player takes a set, secretly keeps one card and puts the other four out of the "
    "game; the third set is shuffled, one card is dealt to each player and the last three "
    "form the Court deck. The starting player has 1 coin, the other 2.",
)

INQUISITOR = Variant(
    name="inquisitor",
    title="Inquisitor",
    source=f"{SOURCE_OFFICIAL}; {SOURCE_TREASON}",
    characters=_INQ5,
    actions=INQUISITOR_ACTIONS,
    exchange_draw=1,
    summary="The Inquisitor replaces the Ambassador. It exchanges one card with the Court deck, "
    "or examines an opponent: the opponent shows one face-down card to the Inquisitor, who "
    "hands it back or forces the opponent to draw a new card and return the shown one. The "
    "Inquisitor also blocks stealing.",
)

_REFORMATION_SUMMARY = (
    "Every player has an allegiance: the starting player chooses Loyalist or Reformist and "
    "the others alternate clockwise. Nobody may coup, assassinate, steal from, examine or "
    "block the foreign aid of a player of their own allegiance unless every living player "
    "shares one. Conversion costs 1 coin (yourself) or 2 (another player), paid onto the "
    "Treasury Reserve; embezzlement takes the whole Reserve by claiming NOT to hold the Duke."
)

REFORMATION = Variant(
    name="reformation",
    title="Reformation",
    source=f"{SOURCE_OFFICIAL}; {SOURCE_TREASON}",
    characters=_BASE5,
    actions=BASE_ACTIONS + REFORMATION_ACTIONS,
    allegiances=True,
    summary=_REFORMATION_SUMMARY,
)

REFORMATION_INQUISITOR = Variant(
    name="reformation-inquisitor",
    title="Reformation with the Inquisitor",
    source=f"{SOURCE_OFFICIAL}; {SOURCE_TREASON}",
    characters=_INQ5,
    actions=INQUISITOR_ACTIONS + REFORMATION_ACTIONS,
    exchange_draw=1,
    allegiances=True,
    summary=_REFORMATION_SUMMARY + " The Inquisitor replaces the Ambassador.",
)

MCGUIRE = Variant(
    name="mcguire",
    title="McGuire house rules",
    source=SOURCE_MCGUIRE,
    characters=_BASE5,
    actions=MCGUIRE_ACTIONS,
    start_coins=1,
    first_coins=0,
    reducers=(Character.AMBASSADOR,),
    challenge_bounty=1,
    pay_instead=5,
    specials=(Character.INHERITANCE, Character.VENGEANCE, Character.TREATY),
    event_mat=True,
    ties=True,
    summary="1. An Ambassador reduces a steal to 1 coin instead of blocking it. 2. The first "
    "player starts with 0 coins, the others with 1. 3. A challenger takes 1 coin before the "
    "challenge is resolved. 4. The loser of a challenge may pay 5 coins instead of losing a "
    "card. 5. One Ambassador has Inheritance (+4 coins when killed), one Assassin Vengeance "
    "(a free, blockable assassination when killed by a Coup) and one Contessa Treaty "
    "(overrides a Duke's block of foreign aid; challengeable). 6. The five-event mat. "
    "7. No self-targeting. A card lost in a challenge is a death, not a kill.",
)

FORUM = Variant(
    name="forum",
    title="Forum variant (Graverobber)",
    source=SOURCE_FORUM,
    characters=_BASE5 + (Character.GRAVEROBBER, Character.INQUISITOR),
    actions=FORUM_ACTIONS,
    max_players=8,
    fixed_copies=3,
    fixed_deck=True,
    graverobber=True,
    timeout=True,
    summary="21 cards: 3 of each of seven characters, for 2–8 players. The deck stays in a "
    "fixed order: the Ambassador draws the top 2 and returns cards to the bottom, and a proven "
    "card is shuffled in before its owner takes the top card. The Inquisitor takes 2 coins and "
    "looks at the top and bottom cards. The Contessa also blocks stealing; the Ambassador does "
    "not. When a player is exiled, others may claim the Graverobber to split that player's "
    "coins (rounded down). A turn that times out is Income (a Coup on a random player at 10+).",
)

VARIANTS: dict[str, Variant] = {
    v.name: v for v in (BASE, DRAFT, INQUISITOR, REFORMATION, REFORMATION_INQUISITOR, MCGUIRE,
                        FORUM)
}


CARD_POWERS: dict[Character, str] = {
    Character.INHERITANCE: "Inheritance: gain 4 coins when this card is killed (coup or "
    "assassination).",
    Character.VENGEANCE: "Vengeance: when killed by a Coup, make a free assassination "
    "(blockable by a Contessa).",
    Character.TREATY: "Treaty: override a Duke's block of your foreign aid (challengeable).",
    Character.GRAVEROBBER: "After a player is exiled, claim a share of their coins "
    "(challengeable).",
}

INHERITANCE_COINS = 4  # McGuire: gained when the Inheritance Ambassador is killed

MAT_EVENTS: dict[str, str] = {
    "flip_turn_1": "Flip before the first player's 1st turn",
    "coin_turn_2": "The first player collects 1 coin before their 2nd turn",
    "flip_turn_3": "Flip before the first player's 3rd turn (four or fewer players)",
    "flip_death_1": "Flip after the first card is lost (four or fewer players)",
    "flip_death_2": "Flip after the second card is lost (three or fewer players)",
}



def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        raise ValueError(
            f"unknown variant {name!r}; expected one of {', '.join(VARIANTS)}"
        ) from None
