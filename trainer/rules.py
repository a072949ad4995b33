"""The rules as data: what each action costs and claims, who may block it, and the open points.

The engine reads these tables instead of hard-coding them, so the Rules page, the scenario
checker and the bots all describe exactly the game that is being played, and a variant is a
different table plus a few hooks rather than a second engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from trainer.cards import Action, Character

BlockScope = Literal["nobody", "anyone", "target"]

SOURCE_OFFICIAL = "001_efafd3cbf19ea30b.txt (official rulebook)"
SOURCE_PH = "004_7a51b40b357838ae.txt (Philippine edition rulebook)"
SOURCE_TREASON = "003_696deabcbb3041af.txt (Treason web version)"
SOURCE_MCGUIRE = "000_6e655cddb6a19b32.txt (McGuire house rules)"


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

    @property
    def challengeable(self) -> bool:
        return self.claim is not None

    @property
    def blockable(self) -> bool:
        return bool(self.blockers)


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


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """Why an open point exists and where each answer comes from."""

    title: str
    question: str
    choices: dict[Any, str]
    source: str


def _opt(default: Any, title: str, question: str, choices: dict[Any, str], source: str) -> Any:
    return field(default=default, metadata={"info": OptionInfo(title, question, choices, source)})


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
        f"have a Contessa after the challenge is resolved\"); {SOURCE_OFFICIAL} is silent.",
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
        return {f.name: getattr(self, f.name) for f in fields(self)}

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

    def copies(self, players: int) -> int:
        """Copies of each character: 3 up to 6 players, 4 for 7–8, 5 for 9–10."""
        if players <= 6:
            return 3
        if players <= 8:
            return 4
        return 5

    def court(self, players: int) -> list[Character]:
        n = self.copies(players)
        return [c for c in self.characters for _ in range(n)]

    def starting_coins(self, players: int, seat_from_first: int) -> int:
        if players == 2 and seat_from_first == 0:
            return self.two_player_first_coins
        return self.start_coins

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

VARIANTS: dict[str, Variant] = {BASE.name: BASE}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        raise ValueError(
            f"unknown variant {name!r}; expected one of {', '.join(VARIANTS)}"
        ) from None
