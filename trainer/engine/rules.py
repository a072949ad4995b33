"""The types the rules are written in: a row of the summary card, a rule set, the open points.

The engine reads these as data instead of hard-coding them, so the Rules page, the scenario
checker and the bots all describe exactly the game that is being played, and a variant is a
different table plus a few hooks rather than a second engine. The seven rule sets themselves
are in `trainer.engine.variants`.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import Any, Literal

from trainer.engine.cards import Action, Character
from trainer.engine.errors import RuleSetError
from trainer.i18n import N_, tr

BlockScope = Literal["nobody", "anyone", "target"]

SOURCE_OFFICIAL = "001_efafd3cbf19ea30b.txt (official rulebook)"
SOURCE_PH = "004_7a51b40b357838ae.txt (Philippine edition rulebook)"
SOURCE_TREASON = "003_696deabcbb3041af.txt (Treason web version)"
SOURCE_MCGUIRE = "000_6e655cddb6a19b32.txt (McGuire house rules)"
SOURCE_FORUM = "002_85f950dd113ab156.txt (forum variant)"
# Not one of the rule texts: an independent engine whose readings the options can reproduce.
SOURCE_COUPML = "coupml 0.1.1 (an independent Python engine of the base game)"


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

@dataclass(frozen=True, slots=True)
class OptionInfo:
    """Why an open point exists and where each answer comes from. The words are English and
    catalogued (`tr(info.title)`); `source_words` is the source note with a field per rule
    text ({official}, {treason}...), for a page that names the texts in its reader's words."""

    title: str
    question: str
    choices: dict[Any, str]
    source: str
    # The variant feature that makes the option matter (None: every variant).
    feature: str | None = None
    source_words: str = ""


# The rule texts a source note may name, by the field its words use.
SOURCE_FIELDS: dict[str, str] = {
    "official": SOURCE_OFFICIAL, "ph": SOURCE_PH, "treason": SOURCE_TREASON,
    "mcguire": SOURCE_MCGUIRE, "forum": SOURCE_FORUM, "coupml": SOURCE_COUPML,
}


def _src(words: str) -> str:
    """A source note with a field per rule text it names (see `SOURCE_FIELDS`)."""
    return words


def _opt(default: Any, title: str, question: str, choices: dict[Any, str], source: str,
         feature: str | None = None) -> Any:
    info = OptionInfo(title, question, choices, source.format(**SOURCE_FIELDS), feature,
                      source_words=source)
    return field(default=default, metadata={"info": info})


# Treason's words for the same Reformation actions (the `vocabulary` option).
MOST_PLAYERS_WEB = 20  # the web version's deck grows without end; a table stops somewhere

TREASON_WORDS: dict[str, str] = {"examine": "interrogate", "convert": "change team"}


@dataclass(frozen=True, slots=True)
class Options:
    """Points the rule texts leave open. Every default follows the official rulebook."""

    challenge_order: Literal["clockwise", "target_first"] = _opt(
        "clockwise",
        N_("Challenge order"),
        N_("The rulebook lets any other player challenge but does not say who goes first when "
        "several want to. Players are asked one at a time and the first willing one challenges."),
        {
            "clockwise": N_("Ask the other players one at a time, clockwise from the acting "
            "player; for a block, the acting player first, then clockwise."),
            "target_first": N_("Ask the target of the action first, then clockwise."),
        },
        _src(N_("Open in {official} (\"any other player can issue a challenge\"); the default "
        "is table order.")),
    )
    block_after_lost_challenge: bool = _opt(
        True,
        N_("Blocking after a failed challenge"),
        N_("If an action is challenged and the challenge fails (the claim is proven), may the "
        "target still block it, even when the target was the challenger?"),
        {
            True: N_("Yes: the challenge and the block are separate counteractions."),
            False: N_("No: an action may be blocked only if it was not challenged."),
        },
        _src(N_("{mcguire} quotes the official clarification (\"the target may still claim to "
        "have a Contessa after the challenge is resolved\"); {official} is silent; "
        "{treason} offers a block only \"if your action is not challenged\".")),
    )
    steal_from_eliminated: bool = _opt(
        True,
        N_("Stealing from a player exiled mid-steal"),
        N_("If the target of a steal loses its last influence during the steal (e.g. a failed "
        "block), do the coins go to the thief or back to the Treasury?"),
        {
            True: N_("The thief takes them; the rest go back to the Treasury."),
            False: N_("The eliminated player's coins go back to the Treasury first."),
        },
        _src(N_("{ph}, example play: Ely is exiled and Cris still receives his 2 coins.")),
    )
    finite_treasury: bool = _opt(
        True,
        N_("Size of the Treasury"),
        N_("What happens when the Treasury runs out?"),
        {
            True: N_("The box has 50 coins; a player takes only what is left in the Treasury."),
            False: N_("Unlimited central store of money."),
        },
        _src(N_("{official} (components: 50 coins); {treason} uses an unlimited store.")),
    )
    challengers: Literal["first", "all"] = _opt(
        "first",
        N_("Several challengers"),
        N_("When more than one player wants to challenge the same claim, who challenges?"),
        {
            "first": N_("The first willing player, in the challenge order, challenges alone; the "
            "window closes."),
            "all": N_("Everyone is asked; every player who said challenge is a challenger. If the "
            "claim is proven, each of them loses an influence, in table order; if not, the "
            "claimant loses one."),
        },
        _src(N_("{official} (\"any other player can issue a challenge ... Whoever loses the "
        "challenge immediately loses an influence\") speaks of one challenger; the default "
        "asks players in turn. Every challenger losing is how {coupml} resolves it "
        "(actions.py: \"The challenger(s) were not successful and they must now reveal in "
        "turn\").")),
    )
    foreign_aid_blockers: Literal["first", "queue", "random"] = _opt(
        "first",
        N_("Several Duke blocks of Foreign Aid"),
        N_("Any player may claim the Duke to block Foreign Aid. When several want to, who blocks, "
        "and what happens when that block is disproved?"),
        {
            "first": N_("Players are asked in turn from the acting player; the first willing one "
            "blocks. If that block is disproved, the Foreign Aid goes through."),
            "queue": N_("Players are asked in turn; if a block is disproved, the players not yet "
            "asked may still block, one after another."),
            "random": N_("Everyone is asked; one of the players who want to block is chosen at "
            "random to block."),
        },
        _src(N_("{official} (\"Any player claiming the Duke may counteract and block\") is "
        "silent on several; the default asks in table order. A queue of blockers is how one "
        "peer engine's tests read it; a random blocker is how {coupml} picks one "
        "(actions.py: \"If more than one player wants to block, a player is picked at random "
        "by the dealer\").")),
        feature="shared_block",
    )
    gainless_actions: Literal["allowed", "refused"] = _opt(
        "allowed",
        N_("Actions that can gain nothing"),
        N_("May a player take an action whose only effect is to gain coins when it can gain none: "
        "steal from a player with no coins, embezzle from an empty Treasury Reserve, or take "
        "income, foreign aid or tax from an empty Treasury?"),
        {
            "allowed": N_("Yes: it is an action the player can afford; it simply gains nothing "
            "(and can still be challenged or blocked)."),
            "refused": N_("No: such an action would be a pass, and a player may not pass."),
        },
        _src(N_("{official}: \"A player may choose any action they want and can afford\" (the "
        "default) against \"A player may not pass\" (refused).")),
    )
    more_players: Literal["official", "web"] = _opt(
        "official",
        N_("More than ten players"),
        N_("How many players can the deck take?"),
        {
            "official": N_("Up to 10: 3 of each character for 2–6 players, 4 for 7–8, 5 for 9–10."),
            "web": N_("Any even step beyond: one more card of each character for every two more "
            "players (6 of each for 11–12, and so on, up to 20 players)."),
        },
        _src(N_("{official} (More Than Six Player Variant, \"with 9 or 10 players\"); "
        "{treason} (\"for each 2 additional players, the influences pool will contain 1 "
        "additional card for each role\").")),
        feature="scaling_deck",
    )
    two_player_start: Literal["one_coin", "two_coins"] = _opt(
        "one_coin",
        N_("Two-player starting coins"),
        N_("In a two-player game, does the starting player receive fewer coins?"),
        {
            "one_coin": N_("The starting player receives only 1 coin; the other 2."),
            "two_coins": N_("Both players start with 2 coins."),
        },
        _src(N_("{official} (\"the starting player receives only 1 coin\"); {treason} "
        "(\"each player also starts with $2\") and {forum} give everyone 2.")),
        feature="two_player_rule",
    )
    examine_pick: Literal["target_chooses", "random"] = _opt(
        "target_chooses",
        N_("Which card an Examine shows"),
        N_("When an Inquisitor examines a player, who picks the card that is shown?"),
        {
            "target_chooses": N_("The examined player chooses one of their face-down cards."),
            "random": N_("One of the examined player's face-down cards is picked at random."),
        },
        _src(N_("{official} (\"the selected opponent chooses one of their face down cards\"); "
        "{treason} (\"look at one of their influences (picked at random)\").")),
        feature="examine",
    )
    vocabulary: Literal["official", "treason"] = _opt(
        "official",
        N_("Words for Reformation"),
        N_("What the sides and the Inquisitor's look are called on screen (the rules are the "
           "same)."),
        {
            "official": N_("Allegiance (Loyalist, Reformist); Examine."),
            "treason": N_("Team (loyalist, reformist); Interrogate."),
        },
        _src(N_("{official} says allegiance and Examine; {treason} says team and "
        "interrogate.")),
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

    def text(self) -> str:
        """The options that differ from the defaults as ``name=value`` pairs, comma-separated
        ("" for the defaults): what a rule set's compact description carries in brackets,
        e.g. ``challengers=all,finite_treasury=no``."""
        return ",".join(f"{k}={_value_text(v)}" for k, v in self.changed().items())

    @classmethod
    def parse(cls, text: str) -> Options:
        """Read `text()` back: ``name=value`` pairs, comma-separated; RuleSetError names the
        pair at fault and what it may be."""
        known = cls.info()
        changes: dict[str, Any] = {}
        for pair in (p.strip() for p in text.split(",")):
            if not pair:
                continue
            name, eq, raw = (x.strip() for x in pair.partition("="))
            if name not in known:
                near = _nearest(name, known)
                reason = (tr("unknown table rule {name} (did you mean {near}?); the table "
                             "rules: {choices}", name=repr(name), near=repr(near),
                             choices=", ".join(known))
                          if near is not None else
                          tr("unknown table rule {name}; the table rules: {choices}",
                             name=repr(name), choices=", ".join(known)))
                raise RuleSetError(reason, text=text, part=name, expected=tuple(known))
            choices = {_value_text(c): c for c in known[name].choices}
            if not eq or raw.lower() not in choices:
                raise RuleSetError(
                    tr("the table rule {name} cannot be {value}; expected one of {choices}",
                       name=repr(name), value=repr(raw), choices=", ".join(choices)),
                    text=text, part=pair, expected=tuple(choices))
            if name in changes:
                raise RuleSetError(tr("the table rule {name} is given twice", name=repr(name)),
                                   text=text, part=name)
            changes[name] = choices[raw.lower()]
        return cls().with_(**changes)


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
    # McGuire's rule 7 switched off: a player may challenge their own claim or block, and
    # assassinate or coup themselves (every rule text otherwise says "another player").
    self_target: bool = False
    # The registered rule set this one was composed from by switching house rules ("" for a
    # registered one): its compact description starts with that name.
    family: str = ""
    # The hash, worked out once: the engine's caches are keyed by the rule set itself (never by
    # its name), and hashing every row of its tables at each lookup would cost more than the
    # lookup saves.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        h = self._hash
        if not h:
            h = hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare)) or 1
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self) -> tuple[Any, ...]:
        # Without the cached hash: string hashes differ from one process to the next.
        return (Variant, tuple(getattr(self, f.name) for f in fields(self) if f.init))

    def copies(self, players: int) -> int:
        """Copies of each character: 3 up to 6 players, 4 for 7–8, 5 for 9–10, and one more
        for every two players beyond (the web version's deck for more than ten)."""
        if self.fixed_copies:
            return self.fixed_copies
        if players <= 6:
            return 3
        return 3 + (players - 5) // 2

    def most_players(self, options: Options | None = None) -> int:
        """The largest table this rule set takes under these table rules: `max_players`, or
        up to 20 with the web version's deck for more than ten (`Options.more_players`)."""
        if (options is not None and options.more_players == "web"
                and self.has("scaling_deck")):
            return MOST_PLAYERS_WEB
        return self.max_players

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
        if feature == "scaling_deck":  # the official 3/4/5 copies, which the web deck extends
            return not self.fixed_copies and not self.draft and self.max_players == 10
        if feature == "shared_block":  # an action that every other player may block
            return any(s.block_scope == "anyone" for s in self.actions)
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

def _value_text(value: Any) -> str:
    """An option's value as written in a rule set's description (booleans as yes/no)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _nearest(word: str, choices: Any) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


@cache
def _options_dict(options: Options) -> dict[str, Any]:
    # Observations carry the options, and they are built at every decision.
    return {f.name: getattr(options, f.name) for f in fields(options)}


# Powers of cards that the action table does not describe (modified cards, Graverobber).
