"""The rules as data: what each action costs and claims, who may block it, and the open points.

The engine reads these tables instead of hard-coding them, so the Rules page, the scenario
checker and the bots all describe exactly the game that is being played, and a variant is a
different table plus a few hooks rather than a second engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import Any, Literal

from trainer.engine.cards import Action, Character

BlockScope = Literal["nobody", "anyone", "target"]

SOURCE_OFFICIAL = "001_efafd3cbf19ea30b.txt (official rulebook)"
SOURCE_PH = "004_7a51b40b357838ae.txt (Philippine edition rulebook)"
SOURCE_TREASON = "003_696deabcbb3041af.txt (Treason web version)"
SOURCE_MCGUIRE = "000_6e655cddb6a19b32.txt (McGuire house rules)"
SOURCE_FORUM = "002_85f950dd113ab156.txt (forum variant)"


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One row of the summary card."""

    action: Action
    claim: Character | None
    cost: int
    targeted: bool
    blockers: tuple[Character, ...]
    block_scope: BlockScope
    effect: str
    counter: str
    # Reformation's conversion may instead target another player, at this cost (0: it may not).
    other_cost: int = 0
    # Embezzlement claims *not* to hold the character: its challenge is inverted.
    inverted: bool = False

    @property
    def challengeable(self) -> bool:
        return self.claim is not None

    @property
    def blockable(self) -> bool:
        return bool(self.blockers)

    def but(self, **changes: Any) -> ActionSpec:
        return replace(self, **changes)


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


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """Why an open point exists and where each answer comes from."""

    title: str
    question: str
    choices: dict[Any, str]
    source: str
    # The variant feature that makes the option matter (None: every variant).
    feature: str | None = None


def _opt(default: Any, title: str, question: str, choices: dict[Any, str], source: str,
         feature: str | None = None) -> Any:
    return field(default=default,
                 metadata={"info": OptionInfo(title, question, choices, source, feature)})


# Treason's words for the same Reformation actions (the `vocabulary` option).
TREASON_WORDS: dict[str, str] = {"examine": "interrogate", "convert": "change team"}


@dataclass(frozen=True, slots=True)
class Options:
    """Points the rule texts leave open. Every default follows the official rulebook."""

    challenge_order: Literal["clockwise", "target_first"] = _opt(
        "clockwise",
        "Challenge order",
        "The rulebook lets any other player challenge but does not say who goes first when "
        "several want to. Players are asked one at a time and the first willing one challenges.",
        {
            "clockwise": "Ask the other players one at a time, clockwise from the acting "
            "player; for a block, the acting player first, then clockwise.",
            "target_first": "Ask the target of the action first, then clockwise.",
        },
        f"Open in {SOURCE_OFFICIAL} (\"any other player can issue a challenge\"); the default "
        f"is table order.",
    )
    block_after_lost_challenge: bool = _opt(
        True,
        "Blocking after losing a challenge",
        "If the target challenges an action, loses, and still has influence, may it then block?",
        {
            True: "Yes: the challenge and the block are separate counteractions.",
            False: "No: a target that challenged has had its answer.",
        },
        f"{SOURCE_MCGUIRE} quotes the official clarification (\"the target may still claim to "
        f"have a Contessa after the challenge is resolved\"); {SOURCE_OFFICIAL} is silent; "
        f"{SOURCE_TREASON} offers a block only \"if your action is not challenged\".",
    )
    steal_from_eliminated: bool = _opt(
        True,
        "Stealing from a player exiled mid-steal",
        "If the target of a steal loses its last influence during the steal (e.g. a failed "
        "block), do the coins go to the thief or back to the Treasury?",
        {
            True: "The thief takes them; the rest go back to the Treasury.",
            False: "The eliminated player's coins go back to the Treasury first.",
        },
        f"{SOURCE_PH}, example play: Ely is exiled and Cris still receives his 2 coins.",
    )
    finite_treasury: bool = _opt(
        True,
        "Size of the Treasury",
        "What happens when the Treasury runs out?",
        {
            True: "The box has 50 coins; a player takes only what is left in the Treasury.",
            False: "Unlimited central store of money.",
        },
        f"{SOURCE_OFFICIAL} (components: 50 coins); {SOURCE_TREASON} uses an unlimited store.",
    )
    two_player_start: Literal["one_coin", "two_coins"] = _opt(
        "one_coin",
        "Two-player starting coins",
        "In a two-player game, does the starting player receive fewer coins?",
        {
            "one_coin": "The starting player receives only 1 coin; the other 2.",
            "two_coins": "Both players start with 2 coins.",
        },
        f"{SOURCE_OFFICIAL} (\"the starting player receives only 1 coin\"); {SOURCE_TREASON} "
        f"(\"each player also starts with $2\") and {SOURCE_FORUM} give everyone 2.",
        feature="two_player_rule",
    )
    examine_pick: Literal["target_chooses", "random"] = _opt(
        "target_chooses",
        "Which card an Examine shows",
        "When an Inquisitor examines a player, who picks the card that is shown?",
        {
            "target_chooses": "The examined player chooses one of their face-down cards.",
            "random": "One of the examined player's face-down cards is picked at random.",
        },
        f"{SOURCE_OFFICIAL} (\"the selected opponent chooses one of their face down cards\"); "
        f"{SOURCE_TREASON} (\"look at one of their influences (picked at random)\").",
        feature="examine",
    )
    vocabulary: Literal["official", "treason"] = _opt(
        "official",
        "Words for Reformation",
        "What the sides and the Inquisitor's look are called on screen (the rules are the same).",
        {
            "official": "Allegiance (Loyalist, Reformist); Examine.",
            "treason": "Team (loyalist, reformist); Interrogate.",
        },
        f"{SOURCE_OFFICIAL} says allegiance and Examine; {SOURCE_TREASON} says team and "
        f"interrogate.",
        feature="allegiances",
    )

    @classmethod
    def info(cls) -> dict[str, OptionInfo]:
        return {f.name: f.metadata["info"] for f in fields(cls)}

    @classmethod
    def defaults(cls) -> Options:
        return cls()

    def with_(self, **changes: Any) -> Options:
        """Return a copy with some options changed, rejecting unknown names and values."""
        known = self.info()
        for name, value in changes.items():
            if name not in known:
                raise ValueError(f"unknown option {name!r}; expected one of {', '.join(known)}")
            if value not in known[name].choices:
                allowed = ", ".join(repr(c) for c in known[name].choices)
                raise ValueError(f"option {name!r} cannot be {value!r}; expected one of {allowed}")
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return dict(_options_dict(self))

    def action_label(self, action: Action) -> str:
        """The action's name in the chosen vocabulary ("examine", or Treason's "interrogate")."""
        if self.vocabulary == "treason":
            return TREASON_WORDS.get(action.value, action.label)
        return action.label

    def relevant(self, variant: Variant) -> dict[str, OptionInfo]:
        """The options that can change a game of this variant."""
        return {k: i for k, i in self.info().items() if variant.has(i.feature)}

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults."""
        base = Options()
        return {k: v for k, v in self.as_dict().items() if getattr(base, k) != v}


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule set: the cards, the actions and the numbers that differ between rule texts."""

    name: str
    title: str
    source: str
    characters: tuple[Character, ...]
    actions: tuple[ActionSpec, ...]
    min_players: int = 2
    max_players: int = 10
    coins_total: int = 50
    start_coins: int = 2
    two_player_first_coins: int = 1
    hand_size: int = 2
    forced_coup_at: int = 10
    exchange_draw: int = 2
    summary: str = ""
    # The hooks: each names a rule that only some texts have. All off is the base game.
    first_coins: int | None = None  # McGuire: the first player's coins at any player count
    fixed_copies: int = 0  # forum: 3 of each whatever the player count (0: official scaling)
    draft: bool = False  # two-player draft set-up
    allegiances: bool = False  # Reformation
    reducers: tuple[Character, ...] = ()  # McGuire: an Ambassador "block" only halves a steal
    challenge_bounty: int = 0  # McGuire: coins a challenger takes on challenging
    pay_instead: int = 0  # McGuire: coins a challenge loser may pay instead of a card
    specials: tuple[Character, ...] = ()  # McGuire: modified cards, one copy each
    event_mat: bool = False  # McGuire: the five-event mat
    fixed_deck: bool = False  # forum: the deck keeps its order; draws from the top
    graverobber: bool = False  # forum: claims on an exiled player's coins
    timeout: bool = False  # forum: a turn that times out defaults to Income
    ties: bool = False  # McGuire's Vengeance can end a game with nobody left

    def copies(self, players: int) -> int:
        """Copies of each character: 3 up to 6 players, 4 for 7–8, 5 for 9–10."""
        if self.fixed_copies:
            return self.fixed_copies
        if players <= 6:
            return 3
        if players <= 8:
            return 4
        return 5

    def court(self, players: int) -> list[Character]:
        n = self.copies(players)
        cards = [c for c in self.characters for _ in range(n)]
        for special in self.specials:  # a modified card replaces one copy of its character
            cards[cards.index(special.role)] = special
        return cards

    def starting_coins(self, players: int, seat_from_first: int,
                       options: Options | None = None) -> int:
        if seat_from_first == 0:
            if self.first_coins is not None:
                return self.first_coins
            if players == 2 and (self.draft or options is None
                                 or options.two_player_start == "one_coin"):
                return self.two_player_first_coins
        return self.start_coins

    @property
    def cards(self) -> tuple[Character, ...]:
        """Every card name in the deck: the characters and any modified copies."""
        return self.characters + self.specials

    def has(self, feature: str | None) -> bool:
        """Whether a rule hook (or an option's feature) applies to this variant."""
        if feature is None:
            return True
        if feature == "examine":
            return any(s.action is Action.EXAMINE for s in self.actions)
        if feature == "first_coins":
            return self.first_coins is not None
        if feature == "two_player_rule":
            return self.min_players <= 2 and self.first_coins is None and not self.draft
        return bool(getattr(self, feature))

    def mat_events(self, players: int) -> tuple[str, ...]:
        """McGuire's mat: which of the five events a game of this size uses, in order."""
        if not self.event_mat:
            return ()
        events = ["flip_turn_1", "coin_turn_2"]
        if players <= 4:
            events += ["flip_turn_3", "flip_death_1"]
        if players <= 3:
            events.append("flip_death_2")
        return tuple(events)

    @property
    def coup_cost(self) -> int:
        """Read from the action table, so the summary and the game cannot disagree."""
        return self.spec(Action.COUP).cost

    def spec(self, action: Action) -> ActionSpec:
        for spec in self.actions:
            if spec.action == action:
                return spec
        raise KeyError(action)

    def claimable(self) -> tuple[Character, ...]:
        """Characters that appear on the summary card as an action or a block."""
        seen: list[Character] = []
        for spec in self.actions:
            for c in ((spec.claim,) if spec.claim else ()) + spec.blockers:
                if c not in seen:
                    seen.append(c)
        return tuple(seen)


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

@cache
def _options_dict(options: Options) -> dict[str, Any]:
    # Observations carry the options, and they are built at every decision.
    return {f.name: getattr(options, f.name) for f in fields(options)}


# Powers of cards that the action table does not describe (modified cards, Graverobber).
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
