"""The seven rule sets and their registry: open this file to see what a variant changes.

Each variant is the base game's action table with some rows changed, plus named hooks (see
`Variant`) that switch on the rules only some texts have. Where a text is silent or two texts
disagree, the point is an option of `trainer.engine.rules.Options`, not a guess here.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, NamedTuple

from trainer.engine.cards import Action, Character
from trainer.engine.errors import RuleSetError
from trainer.engine.names import card_name
from trainer.engine.rules import (
    SOURCE_FORUM,
    SOURCE_MCGUIRE,
    SOURCE_OFFICIAL,
    SOURCE_PH,
    SOURCE_TREASON,
    ActionSpec,
    Options,
    Variant,
)
from trainer.i18n import N_, tr

BASE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(Action.INCOME, None, 0, False, (), "nobody", N_("Take 1 coin from the Treasury."),
               N_("Cannot be blocked or challenged.")),
    ActionSpec(Action.FOREIGN_AID, None, 0, False, (Character.DUKE,), "anyone",
               N_("Take 2 coins from the Treasury."),
               N_("Any player claiming the Duke may block it.")),
    ActionSpec(Action.COUP, None, 7, True, (), "nobody",
               N_("Pay 7 coins; the target immediately loses an influence."),
               N_("Always successful: cannot be blocked or challenged.")),
    ActionSpec(Action.TAX, Character.DUKE, 0, False, (), "nobody",
               N_("Take 3 coins from the Treasury."), N_("Cannot be blocked.")),
    ActionSpec(Action.ASSASSINATE, Character.ASSASSIN, 3, True, (Character.CONTESSA,), "target",
               N_("Pay 3 coins; if successful the target loses an influence. The 3 coins are "
                  "returned if the Assassin is successfully challenged, and stay spent if "
                  "blocked."),
               N_("The target may block by claiming the Contessa.")),
    ActionSpec(Action.STEAL, Character.CAPTAIN, 0, True,
               (Character.AMBASSADOR, Character.CAPTAIN), "target",
               N_("Take 2 coins from the target (only 1 if they have 1)."),
               N_("The target may block by claiming the Ambassador or the Captain.")),
    ActionSpec(Action.EXCHANGE, Character.AMBASSADOR, 0, False, (), "nobody",
               N_("Draw 2 cards from the Court deck, keep as many cards as you have influence, "
                  "return the rest."), N_("Cannot be blocked.")),
)

_BASE = {s.action: s for s in BASE_ACTIONS}

INQUISITOR_ACTIONS: tuple[ActionSpec, ...] = (
    _BASE[Action.INCOME], _BASE[Action.FOREIGN_AID], _BASE[Action.COUP], _BASE[Action.TAX],
    _BASE[Action.ASSASSINATE],
    _BASE[Action.STEAL].but(
        blockers=(Character.CAPTAIN, Character.INQUISITOR),
        counter=N_("The target may block by claiming the Captain or the Inquisitor.")),
    _BASE[Action.EXCHANGE].but(
        claim=Character.INQUISITOR,
        effect=N_("Draw 1 card from the Court deck, keep as many cards as you have influence, "
        "return the rest.")),
    ActionSpec(Action.EXAMINE, Character.INQUISITOR, 0, True, (), "nobody",
               N_("Look at one of the target's face-down cards (the target chooses which), then "
                  "hand it back or force the target to draw a new card from the Court deck and "
                  "return the examined one."), N_("Cannot be blocked.")),
)

REFORMATION_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(Action.CONVERT, None, 1, False, (), "nobody",
               N_("Pay 1 coin to change your own allegiance, or 2 coins to change another "
                  "player's; the coins go onto the Treasury Reserve."),
               N_("Cannot be blocked or challenged."), other_cost=2),
    ActionSpec(Action.EMBEZZLE, Character.DUKE, 0, False, (), "nobody",
               N_("Claim NOT to have the Duke and take every coin on the Treasury Reserve."),
               N_("Challengeable the other way round: a challenged player holding a Duke must "
                  "concede; one without shows their cards and the challenger loses."),
               inverted=True),
)

MCGUIRE_ACTIONS: tuple[ActionSpec, ...] = tuple(
    s.but(blockers=(Character.CAPTAIN, Character.AMBASSADOR),
          effect=N_("Take 2 coins from the target (only 1 if they have 1)."),
          counter=N_("The target may block by claiming the Captain, or claim the Ambassador to "
          "reduce the steal to 1 coin."))
    if s.action is Action.STEAL else s
    for s in BASE_ACTIONS
)

FORUM_ACTIONS: tuple[ActionSpec, ...] = (
    _BASE[Action.INCOME], _BASE[Action.FOREIGN_AID], _BASE[Action.COUP], _BASE[Action.TAX],
    _BASE[Action.ASSASSINATE],
    _BASE[Action.STEAL].but(
        blockers=(Character.CAPTAIN, Character.CONTESSA),
        counter=N_("The target may block by claiming the Captain or the Contessa.")),
    _BASE[Action.EXCHANGE].but(
        effect=N_("Draw the top 2 cards of the Court deck, keep as many cards as you have "
        "influence, return the rest to the bottom.")),
    ActionSpec(Action.PEEK, Character.INQUISITOR, 0, False, (), "nobody",
               N_("Take 2 coins from the Treasury and look at the top and bottom cards of the "
                  "Court deck."), N_("Cannot be blocked.")),
)

# Not on a summary card: the free assassination a couped Vengeance Assassin makes.
VENGEANCE_SPEC = ActionSpec(Action.VENGEANCE, None, 0, True, (Character.CONTESSA,), "target",
                            N_("A free assassination by a player whose Vengeance Assassin was "
                               "killed by a Coup."),
                            N_("The target may block by claiming the Contessa."))


BASE = Variant(
    name="base",
    title=N_("Coup (base game)"),
    source=f"{SOURCE_OFFICIAL}; {SOURCE_PH}",
    characters=(Character.DUKE, Character.ASSASSIN, Character.CAPTAIN, Character.AMBASSADOR,
                Character.CONTESSA),
    actions=BASE_ACTIONS,
    summary=N_("2–6 players with 15 cards (3 of each character); 7–8 players with 4 of each and "
    "9–10 with 5 (More Than Six Player Variant). Each player starts with 2 coins, except the "
    "first player of a two-player game, who starts with 1."),
)

_BASE5 = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN, Character.AMBASSADOR,
          Character.CONTESSA)
_INQ5 = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN, Character.INQUISITOR,
         Character.CONTESSA)

DRAFT = Variant(
    name="draft",
    title=N_("Two-player draft"),
    source=SOURCE_OFFICIAL,
    characters=_BASE5,
    actions=BASE_ACTIONS,
    min_players=2,
    max_players=2,
    draft=True,
    summary=N_("Two players. The 15 cards are split into three sets of one of each character. "
    "Each player takes a set, secretly keeps one card and puts the other four out of the "
    "game; the third set is shuffled, one card is dealt to each player and the last three "
    "form the Court deck. The starting player has 1 coin, the other 2."),
)

INQUISITOR = Variant(
    name="inquisitor",
    title=N_("Inquisitor"),
    source=f"{SOURCE_OFFICIAL}; {SOURCE_TREASON}",
    characters=_INQ5,
    actions=INQUISITOR_ACTIONS,
    exchange_draw=1,
    summary=N_("The Inquisitor replaces the Ambassador. It exchanges one card with the Court deck, "
    "or examines an opponent: the opponent shows one face-down card to the Inquisitor, who "
    "hands it back or forces the opponent to draw a new card and return the shown one. The "
    "Inquisitor also blocks stealing."),
)

_REFORMATION_SUMMARY = (
    N_("Every player has an allegiance: the starting player chooses Loyalist or Reformist and "
    "the others alternate clockwise. Nobody may coup, assassinate, steal from, examine or "
    "block the foreign aid of a player of their own allegiance unless every living player "
    "shares one. Conversion costs 1 coin (yourself) or 2 (another player), paid onto the "
    "Treasury Reserve; embezzlement takes the whole Reserve by claiming NOT to hold the Duke.")
)

REFORMATION = Variant(
    name="reformation",
    title=N_("Reformation"),
    source=f"{SOURCE_OFFICIAL}; {SOURCE_TREASON}",
    characters=_BASE5,
    actions=BASE_ACTIONS + REFORMATION_ACTIONS,
    allegiances=True,
    summary=_REFORMATION_SUMMARY,
)

REFORMATION_INQUISITOR = Variant(
    name="reformation-inquisitor",
    title=N_("Reformation with the Inquisitor"),
    source=f"{SOURCE_OFFICIAL}; {SOURCE_TREASON}",
    characters=_INQ5,
    actions=INQUISITOR_ACTIONS + REFORMATION_ACTIONS,
    exchange_draw=1,
    allegiances=True,
    summary=N_(
        "Every player has an allegiance: the starting player chooses Loyalist or Reformist and "
        "the others alternate clockwise. Nobody may coup, assassinate, steal from, examine or "
        "block the foreign aid of a player of their own allegiance unless every living player "
        "shares one. Conversion costs 1 coin (yourself) or 2 (another player), paid onto the "
        "Treasury Reserve; embezzlement takes the whole Reserve by claiming NOT to hold the "
        "Duke. The Inquisitor replaces the Ambassador."),
)

MCGUIRE = Variant(
    name="mcguire",
    title=N_("McGuire house rules"),
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
    summary=N_("1. An Ambassador reduces a steal to 1 coin instead of blocking it. 2. The first "
    "player starts with 0 coins, the others with 1. 3. A challenger takes 1 coin before the "
    "challenge is resolved. 4. The loser of a challenge may pay 5 coins instead of losing a "
    "card. 5. One Ambassador has Inheritance (+4 coins when killed), one Assassin Vengeance "
    "(a free, blockable assassination when killed by a Coup) and one Contessa Treaty "
    "(overrides a Duke's block of foreign aid; challengeable). 6. The five-event mat. "
    "7. No self-targeting. A card lost in a challenge is a death, not a kill."),
)

FORUM = Variant(
    name="forum",
    title=N_("Forum variant (Graverobber)"),
    source=SOURCE_FORUM,
    characters=_BASE5 + (Character.GRAVEROBBER, Character.INQUISITOR),
    actions=FORUM_ACTIONS,
    max_players=8,
    fixed_copies=3,
    fixed_deck=True,
    graverobber=True,
    timeout=True,
    summary=N_("21 cards: 3 of each of seven characters, for 2–8 players. The deck stays in a "
    "fixed order: the Ambassador draws the top 2 and returns cards to the bottom, and a proven "
    "card is shuffled in before its owner takes the top card. The Inquisitor takes 2 coins and "
    "looks at the top and bottom cards. The Contessa also blocks stealing; the Ambassador does "
    "not. When a player is exiled, others may claim the Graverobber to split that player's "
    "coins (rounded down). A turn that times out is Income (a Coup on a random player at 10+)."),
)

VARIANTS: dict[str, Variant] = {
    v.name: v for v in (BASE, DRAFT, INQUISITOR, REFORMATION, REFORMATION_INQUISITOR, MCGUIRE,
                        FORUM)
}


CARD_POWERS: dict[Character, str] = {
    Character.INHERITANCE: N_("Inheritance: gain 4 coins when this card is killed (coup or "
                              "assassination)."),
    Character.VENGEANCE: N_("Vengeance: when killed by a Coup, make a free assassination "
                            "(blockable by a Contessa)."),
    Character.TREATY: N_("Treaty: override a Duke's block of your foreign aid "
                         "(challengeable)."),
    Character.GRAVEROBBER: N_("After a player is exiled, claim a share of their coins "
                              "(challengeable)."),
}

INHERITANCE_COINS = 4  # McGuire: gained when the Inheritance Ambassador is killed

MAT_EVENTS: dict[str, str] = {
    "flip_turn_1": N_("Flip before the first player's 1st turn"),
    "coin_turn_2": N_("The first player collects 1 coin before their 2nd turn"),
    "flip_turn_3": N_("Flip before the first player's 3rd turn (four or fewer players)"),
    "flip_death_1": N_("Flip after the first card is lost (four or fewer players)"),
    "flip_death_2": N_("Flip after the second card is lost (three or fewer players)"),
}
# The mat's house rule in words, with its events put in where it says {events}.
MAT_TEXT = N_("Cards dealt face down on the mat are flipped at set moments, and a coin waits "
              "for the first player: {events}. Face-up mat cards are out of play, which tells "
              "everyone where some cards are not.")



# ------------------------------------------------------------------------ McGuire's house rules
# The designer offers them as separate house rules, so each is a switch on top of any rule set
# where it makes sense; `mcguire` is the base game with all of them on. Rule 5's three modified
# cards are a switch each (a table may like one power and not another).
_STEAL_REDUCED = _BASE[Action.STEAL].but(
    blockers=(Character.CAPTAIN, Character.AMBASSADOR),
    counter=N_("The target may block by claiming the Captain, or claim the Ambassador to reduce "
    "the steal to 1 coin."))


def _reduce_on(v: Variant) -> Variant:
    return replace(v, reducers=(Character.AMBASSADOR,),
                   actions=tuple(_STEAL_REDUCED if s.action is Action.STEAL else s
                                 for s in v.actions))


def _reduce_off(v: Variant) -> Variant:
    return replace(v, reducers=(),
                   actions=tuple(_BASE[Action.STEAL] if s.action is Action.STEAL else s
                                 for s in v.actions))


def _reduce_unfit(v: Variant) -> str:
    steal = next((s for s in v.actions if s.action is Action.STEAL), None)
    if steal is None or Character.AMBASSADOR not in steal.blockers:
        return tr("the Ambassador does not block stealing in {rules}", rules=title_words(v))
    return ""


def _special(card: Character) -> tuple[Callable[[Variant], Variant],
                                        Callable[[Variant], Variant],
                                        Callable[[Variant], bool],
                                        Callable[[Variant], str]]:
    """Switching one modified card: it replaces one copy of its character in the deck."""
    order = (Character.INHERITANCE, Character.VENGEANCE, Character.TREATY)
    ties = card is Character.VENGEANCE  # a free assassination can leave nobody

    def on(v: Variant) -> Variant:
        specials = tuple(c for c in order if c in v.specials or c is card)
        return replace(v, specials=specials, ties=v.ties or ties)

    def off(v: Variant) -> Variant:
        return replace(v, specials=tuple(c for c in v.specials if c is not card),
                       ties=v.ties and not ties)

    def unfit(v: Variant) -> str:
        if v.draft:
            return tr("the draft deals three sets of one of each character, so no copy can "
                      "carry a power")
        if card.role not in v.characters:
            return tr("{rules} has no {card}", rules=title_words(v), card=card_name(card.role))
        return ""

    return on, off, (lambda v: card in v.specials), unfit


def _no_draft_mat(v: Variant) -> str:
    return tr("the draft's Court deck of three cards cannot supply the mat's cards") \
        if v.draft else ""


def _always(v: Variant) -> str:
    return ""


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One of McGuire's house rules as a switch: its name in a rule set's description
    (``base+pay_five``), the designer's number, plain words, the sentence it comes from, and
    how it changes a rule set."""

    name: str
    number: int
    title: str
    text: str
    quote: str
    phrase: str  # "with <phrase>" in a composed rule set's title
    on: Callable[[Variant], Variant]
    off: Callable[[Variant], Variant]
    is_on: Callable[[Variant], bool]
    unfit: Callable[[Variant], str]  # why it cannot apply to a rule set ("" when it can)
    off_phrase: str = ""  # "with <off_phrase>" when switched off (rule 7), else "without ..."
    source: str = SOURCE_MCGUIRE


_INH = _special(Character.INHERITANCE)
_VEN = _special(Character.VENGEANCE)
_TRE = _special(Character.TREATY)

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "ambassador_reduces", 1, N_("1. The Ambassador only reduces a steal"),
        N_("Claiming the Ambassador against a steal reduces it to 1 coin instead of blocking it. "
        "The claim can be challenged like a block."),
        N_("An Ambassador can reduce the Captain's stealing to 1 ISK, but not block it entirely."),
        N_("the Ambassador reducing steals"), _reduce_on, _reduce_off,
        lambda v: Character.AMBASSADOR in v.reducers, _reduce_unfit),
    HouseRule(
        "low_start", 2, N_("2. Starting coins"),
        N_("The first player starts with 0 coins and everyone else with 1, at any player count."),
        N_("The first player starts with 0 ISK. The others start with 1 ISK."),
        N_("starting coins of 0 and 1"),
        lambda v: replace(v, first_coins=0, start_coins=1),
        lambda v: replace(v, first_coins=None, start_coins=2),
        lambda v: v.first_coins == 0 and v.start_coins == 1, _always),
    HouseRule(
        "bounty", 3, N_("3. The challenger's coin"),
        N_("Whoever challenges takes 1 coin from the Treasury at once, before the challenge is "
        "resolved, whether it succeeds or not."),
        N_("On challenging, the challenger immediately receives 1 ISK before the challenge is "
        "resolved"), N_("the challenger's coin"),
        lambda v: replace(v, challenge_bounty=1), lambda v: replace(v, challenge_bounty=0),
        lambda v: v.challenge_bounty > 0, _always),
    HouseRule(
        "pay_five", 4, N_("4. Paying instead of losing a card"),
        N_("The loser of a challenge who has at least 5 coins may pay 5 instead of losing a card. "
        "The payment happens before the action resolves, so a steal may find less to take."),
        N_("Whomever loses the challenge may pay 5 ISK to the bank instead of losing a card."),
        N_("paying 5 instead of a card"),
        lambda v: replace(v, pay_instead=5), lambda v: replace(v, pay_instead=0),
        lambda v: v.pay_instead > 0, _always),
    HouseRule(
        "inheritance", 5, N_("5. Inheritance (one Ambassador)"),
        N_("One Ambassador has Inheritance: its owner gains 4 coins when it is killed (by a coup "
        "or an assassination; a card lost in a challenge is a death, not a kill)."),
        N_("One Ambassador: Inheritance. Gain 4 ISK when this card is Killed."),
        N_("Inheritance"), *_INH),
    HouseRule(
        "vengeance", 5, N_("5. Vengeance (one Assassin)"),
        N_("One Assassin has Vengeance: when it is killed by a Coup its owner (even if now "
        "exiled) makes a free assassination, which a Contessa can block; that can end the "
        "game in a tie."),
        N_("One Assassin: Vengeance. Automatically execute a free Assassination (against anyone) "
        "when killed by a Coup"), N_("Vengeance"), *_VEN),
    HouseRule(
        "treaty", 5, N_("5. Treaty (one Contessa)"),
        N_("One Contessa has Treaty: after a Duke blocks your foreign aid you may claim the "
        "Treaty Contessa to override the block (only that card proves it)."),
        N_("One Contessa: Treaty. Can override a Duke's block of Foreign Aid"), N_("Treaty"),
        *_TRE),
    HouseRule(
        "mat", 6, N_("6. The event mat"),
        MAT_TEXT.format(events="; ".join(MAT_EVENTS.values())),
        N_("A special mat is marked with five events."), N_("the event mat"),
        lambda v: replace(v, event_mat=True), lambda v: replace(v, event_mat=False),
        lambda v: v.event_mat, _no_draft_mat),
    HouseRule(
        "no_self_target", 7, N_("7. No self-targeting"),
        N_("Nobody may challenge their own claim, or assassinate or coup themselves. Every rule "
        "text says \"another player\", so this is on in every rule set; switched off, a "
        "player may also challenge themselves (taking the challenger's coin, if that rule is "
        "on) and assassinate or coup themselves (to set off their own Vengeance, say)."),
        N_("No self-challenges, self-assassinations, or self-coups are allowed."),
        N_("no self-targeting"),
        lambda v: replace(v, self_target=False), lambda v: replace(v, self_target=True),
        lambda v: not v.self_target, _always, off_phrase=N_("self-targeting")),
)

HOUSE_RULE_NAMES: dict[str, HouseRule] = {r.name: r for r in HOUSE_RULES}


def house_rules_on(v: Variant) -> dict[str, bool]:
    """Each house rule's switch in this rule set."""
    return {r.name: r.is_on(v) for r in HOUSE_RULES}


def switched(v: Variant) -> dict[str, bool]:
    """The house rules this rule set switches relative to its family, in the designer's
    order: name -> on (True) or off (False). Empty for a registered rule set."""
    family = VARIANTS.get(v.family or v.name)
    if family is None:
        return {}
    return {r.name: r.is_on(v) for r in HOUSE_RULES if r.is_on(v) != r.is_on(family)}


def compose(family: Variant, switches: Mapping[str, bool], *, text: str = "") -> Variant:
    """A registered rule set with some house rules switched on (True) or off (False).

    The result is a value like any variant, named by its compact description
    (``base+bounty+pay_five``, ``mcguire-inheritance``), so it round-trips through snapshots,
    logs, files and links. Switching nothing gives the family itself. RuleSetError says when a
    rule cannot apply (``ambassador_reduces`` where the Ambassador does not block stealing).
    """
    if VARIANTS.get(family.name) != family:
        raise RuleSetError(tr("{name} is not a registered rule set; switch house rules on one "
                              "of {choices} (or use `switch`)", name=repr(family.name),
                              choices=", ".join(VARIANTS)),
                           text=text or family.name, part=family.name,
                           expected=tuple(VARIANTS))
    unknown = [name for name in switches if name not in HOUSE_RULE_NAMES]
    if unknown:
        raise RuleSetError(_unknown_house_rule(unknown[0]), text=text, part=unknown[0],
                           expected=tuple(HOUSE_RULE_NAMES))
    v = family
    for rule in HOUSE_RULES:
        want = switches.get(rule.name, rule.is_on(family))
        if want == rule.is_on(v):
            continue
        if want:
            why = rule.unfit(v)
            if why:
                raise RuleSetError(tr("the house rule {name} ({title}) cannot apply to {rules}: "
                                      "{why}", name=repr(rule.name), title=tr(rule.title),
                                      rules=title_words(family), why=why),
                                   text=text, part=rule.name)
            v = rule.on(v)
        else:
            v = rule.off(v)
    diffs = [(r, r.is_on(v)) for r in HOUSE_RULES if r.is_on(v) != r.is_on(family)]
    if not diffs:
        return family
    name = family.name + "".join(("+" if on else "-") + r.name for r, on in diffs)
    with_ = [r.phrase for r, on in diffs if on] + [r.off_phrase for r, on in diffs
                                                   if not on and r.off_phrase]
    without = [r.phrase for r, on in diffs if not on and not r.off_phrase]
    title = family.title
    if with_:
        title += " + " + _and(with_)
    if without:
        title += " without " + _and(without)
    source = family.source if SOURCE_MCGUIRE in family.source else (
        f"{family.source}; {SOURCE_MCGUIRE}")
    return replace(v, name=name, title=title, source=source, family=family.name,
                   summary=_summary(family, v))


def switch(v: Variant, **switches: bool) -> Variant:
    """`v` with some house rules switched on (True) or off (False), keeping the others as
    `v` has them: ``switch(BASE, pay_five=True)`` is ``base+pay_five``."""
    family = VARIANTS.get(v.family or v.name)
    if family is None:
        raise RuleSetError(tr("{name} is not built from a registered rule set",
                              name=repr(v.name)),
                           text=v.name, part=v.name, expected=tuple(VARIANTS))
    return compose(family, {**house_rules_on(v), **switches})


def _summary(family: Variant, v: Variant) -> str:
    if family is MCGUIRE:  # its summary is its house rules: say only those still on
        on = [r for r in HOUSE_RULES if r.is_on(v)]
        return " ".join(f"{r.title}: {r.text}" for r in on) or "The base game."
    added = [r for r in HOUSE_RULES if r.is_on(v) and not r.is_on(family)]
    removed = [r for r in HOUSE_RULES if not r.is_on(v) and r.is_on(family)]
    text = family.summary
    if added:
        text += " House rules: " + " ".join(f"{r.title}: {r.text}" for r in added)
    if removed:
        text += " Switched off: " + "; ".join(r.title for r in removed) + "."
    return text


def title_words(v: Variant) -> str:
    """A rule set's title in the reader's language: a registered one's own, or a composed
    one's built from its family's title and the house rules it switches ("Coup (base game) +
    paying 5 instead of a card")."""
    family = VARIANTS.get(v.family) if v.family else None
    if family is None:
        return tr(v.title)
    diffs = [(r, r.is_on(v)) for r in HOUSE_RULES if r.is_on(v) != r.is_on(family)]
    added = [tr(r.phrase) for r, on in diffs if on] + [tr(r.off_phrase) for r, on in diffs
                                                       if not on and r.off_phrase]
    removed = [tr(r.phrase) for r, on in diffs if not on and not r.off_phrase]
    title = tr(family.title)
    if added:
        title = tr("{title} + {added}", title=title, added=_and_words(added))
    if removed:
        title = tr("{title} without {removed}", title=title, removed=_and_words(removed))
    return title


def house_rule_text(rule: HouseRule) -> str:
    """A house rule's plain words in the reader's language."""
    if rule.name == "mat":
        return tr(MAT_TEXT, events="; ".join(tr(e) for e in MAT_EVENTS.values()))
    return tr(rule.text)


def _and_words(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return tr("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _nearest(word: str, choices: Any) -> str | None:
    """The choice closest to a mistyped `word`, if one is close enough to suggest."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def _unknown_house_rule(word: str, text: str | None = None) -> str:
    """Why `word` is refused as a house rule's name, in the reader's language (whole sentences
    with and without a suggestion, so a translation may order them as it needs)."""
    near = _nearest(word, HOUSE_RULE_NAMES)
    choices = ", ".join(HOUSE_RULE_NAMES)
    if text is None:
        if near is not None:
            return tr("unknown house rule {word} (did you mean {near}?); the house rules: "
                      "{choices}", word=repr(word), near=repr(near), choices=choices)
        return tr("unknown house rule {word}; the house rules: {choices}", word=repr(word),
                  choices=choices)
    if near is not None:
        return tr("unknown house rule {word} (did you mean {near}?) in {text}; the house "
                  "rules: {choices}", word=repr(word), near=repr(near), text=repr(text),
                  choices=choices)
    return tr("unknown house rule {word} in {text}; the house rules: {choices}",
              word=repr(word), text=repr(text), choices=choices)


# ------------------------------------------------------------------------ rule sets as text
class RuleSet(NamedTuple):
    """A rule set and the table rules it is played with: what a game needs besides its
    cards, as one value with one compact description."""

    variant: Variant
    options: Options

    @property
    def text(self) -> str:
        return rules_text(self.variant, self.options)


def rules_text(variant: Variant, options: Options | None = None) -> str:
    """The compact description: the rule set's name, then the table rules that differ from
    the rulebook in brackets, e.g. ``mcguire-inheritance(challengers=all)``. `parse_rules`
    reads it back; an old plain name (``base``) is such a description too."""
    extra = options.text() if options is not None else ""
    return f"{variant.name}({extra})" if extra else variant.name


_SWITCH_NAMES = sorted(HOUSE_RULE_NAMES, key=len, reverse=True)
# The longest a compact description can be (every house rule switched against its variant and
# every table rule changed comes to 360): what a database column or a record must hold.
RULES_TEXT_MAX = 512


@lru_cache(maxsize=512)
def parse_rules(text: str) -> RuleSet:
    """Read a compact description: a registered rule set, then house rules switched on with
    ``+`` or off with ``-``, then table rules in brackets: ``base+pay_five+bounty``,
    ``mcguire-inheritance``, ``base(challengers=all,foreign_aid_blockers=random)``.

    Forgiving where a link or a person may differ (any capitalisation, spaces for ``+`` as a
    link's query string decodes it, ``-`` for ``_`` inside a name); RuleSetError otherwise,
    naming the part at fault and what was expected there."""
    if not isinstance(text, str) or not text.strip():
        raise RuleSetError(tr("a rule set is needed, one of {choices}",
                              choices=", ".join(VARIANTS)),
                           text=str(text), expected=tuple(VARIANTS))
    s = text.strip().lower()
    options = Options()
    if "(" in s or ")" in s:
        head, _, tail = s.partition("(")
        if not tail.endswith(")") or "(" in tail or ")" in head:
            raise RuleSetError(
                tr("cannot read {text}: table rules go in one pair of brackets at the end, "
                   "e.g. {example}", text=repr(text), example="base(challengers=all)"),
                text=text)
        s = head.strip()
        options = Options.parse(tail[:-1])
    s = re.sub(r"\s*([+-])\s*", r"\1", s)
    s = re.sub(r"\s+", "+", s)
    family = next((VARIANTS[n] for n in sorted(VARIANTS, key=len, reverse=True)
                   if s == n or (s.startswith(n) and s[len(n)] in "+-")), None)
    if family is None:
        word = re.split(r"[+]", s)[0]
        near = _nearest(word, VARIANTS)
        reason = (tr("unknown variant {word} (did you mean {near}?); expected one of "
                     "{choices}", word=repr(word), near=repr(near), choices=", ".join(VARIANTS))
                  if near is not None else
                  tr("unknown variant {word}; expected one of {choices}", word=repr(word),
                     choices=", ".join(VARIANTS)))
        raise RuleSetError(reason, text=text, part=word, expected=tuple(VARIANTS))
    switches: dict[str, bool] = {}
    rest = s[len(family.name):]
    i = 0
    while i < len(rest):
        sign = rest[i]
        if sign not in "+-":
            raise RuleSetError(tr("cannot read {text} at {rest}: expected + or - and a house "
                                  "rule", text=repr(text), rest=repr(rest[i:])),
                               text=text, part=rest[i:])
        word = rest[i + 1:]
        name = next((n for n in _SWITCH_NAMES if word.replace("-", "_").startswith(n)
                     and (len(word) == len(n) or word[len(n)] in "+-")), None)
        if name is None:
            bad = re.split(r"[+-]", word)[0] if word else ""
            raise RuleSetError(_unknown_house_rule(bad, text), text=text, part=bad,
                               expected=tuple(HOUSE_RULE_NAMES))
        if name in switches:
            raise RuleSetError(tr("the house rule {name} is switched twice in {text}",
                                  name=repr(name), text=repr(text)),
                               text=text, part=name)
        switches[name] = sign == "+"
        i += 1 + len(name)
    variant = compose(family, switches, text=text)
    return RuleSet(variant, options)


def rule_set(value: Variant | str, options: Options | None = None) -> RuleSet:
    """A rule set given as a value or as its compact description, with the table rules of the
    description unless `options` are given: what a caller that accepts either needs."""
    if isinstance(value, str):
        parsed = parse_rules(value)
        return RuleSet(parsed.variant, options if options is not None else parsed.options)
    return RuleSet(value, options if options is not None else Options())


def described(variant: Variant) -> str:
    """The rule set's compact description, checked to read back as this very rule set: a
    copy changed by hand (``replace(BASE, start_coins=5)``) has none, and writing its name
    would silently bring back the registered rules on reading."""
    try:
        if parse_rules(variant.name).variant == variant:
            return variant.name
    except RuleSetError:
        pass
    raise RuleSetError(tr("the rule set {name} was changed by hand, not by switching house "
                          "rules, so no description reads it back; compose it with `switch` "
                          "or `parse_rules`", name=repr(variant.name)),
                       text=variant.name, part=variant.name)


def get_variant(name: str) -> Variant:
    """The rule set a compact description names (``base``, ``base+pay_five``,
    ``mcguire-inheritance``), without table rules: those are `parse_rules`'s."""
    ruleset = parse_rules(name)
    if ruleset.options != Options():
        raise RuleSetError(tr("{name} sets table rules too ({options}); read it as a whole "
                              "rule set", name=repr(name), options=ruleset.options.text()),
                           text=name)
    return ruleset.variant
