"""The game state: one explicit position, the moves legal in it, and `apply`.

Every pending decision belongs to exactly one player. Windows in which several players could
act (a challenge, a Duke block of foreign aid) are asked one player at a time, in the order the
`challenge_order` option sets; the first willing player acts and the window closes. That keeps
the state a plain sequential game (as in OpenSpiel) that bots, scenarios and people all drive
the same way.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from trainer.engine.cards import Action, Allegiance, Character
from trainer.engine.chance import Chance, RandomChance, copy_chance
from trainer.engine.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    SetupError,
)
from trainer.engine.frozen import Frozen
from trainer.engine.moves import Move, MoveKind
from trainer.engine.positions import check_position
from trainer.engine.rules import ActionSpec, Options, Variant
from trainer.engine.variants import (
    BASE,
    INHERITANCE_COINS,
    VENGEANCE_SPEC,
    get_variant,
    parse_rules,
)

if TYPE_CHECKING:
    from trainer.engine.observation import Observation

EVERYONE: Final[int | None] = None
NOBODY: Final = -1  # events kept for replay only (the full deal)


class Phase(StrEnum):
    ACTION = "action"
    CHALLENGE_ACTION = "challenge_action"
    PROVE_ACTION = "prove_action"
    BLOCK = "block"
    CHALLENGE_BLOCK = "challenge_block"
    PROVE_BLOCK = "prove_block"
    LOSE = "lose_influence"
    EXCHANGE = "exchange"
    # Phases that only some variants reach.
    DRAFT = "draft"
    ALLEGIANCE = "allegiance"
    EXAMINE_OFFER = "examine_offer"
    EXAMINE_DECIDE = "examine_decide"
    CLAIM = "claim"
    CHALLENGE_CLAIM = "challenge_claim"
    PROVE_CLAIM = "prove_claim"
    VENGEANCE = "vengeance"
    OVER = "game_over"

    __hash__ = str.__hash__


# Enum members as module constants: the compiled engine reads these directly, where
# `Phase.ACTION` would be an attribute lookup on the enum class at every use.
_P_ACTION: Final = Phase.ACTION
_P_ALLEGIANCE: Final = Phase.ALLEGIANCE
_P_BLOCK: Final = Phase.BLOCK
_P_CHALLENGE_ACTION: Final = Phase.CHALLENGE_ACTION
_P_CHALLENGE_BLOCK: Final = Phase.CHALLENGE_BLOCK
_P_CHALLENGE_CLAIM: Final = Phase.CHALLENGE_CLAIM
_P_CLAIM: Final = Phase.CLAIM
_P_DRAFT: Final = Phase.DRAFT
_P_EXAMINE_DECIDE: Final = Phase.EXAMINE_DECIDE
_P_EXAMINE_OFFER: Final = Phase.EXAMINE_OFFER
_P_EXCHANGE: Final = Phase.EXCHANGE
_P_LOSE: Final = Phase.LOSE
_P_OVER: Final = Phase.OVER
_P_PROVE_ACTION: Final = Phase.PROVE_ACTION
_P_PROVE_BLOCK: Final = Phase.PROVE_BLOCK
_P_PROVE_CLAIM: Final = Phase.PROVE_CLAIM
_P_VENGEANCE: Final = Phase.VENGEANCE
_K_ACT: Final = MoveKind.ACT
_K_BLOCK: Final = MoveKind.BLOCK
_K_CHALLENGE: Final = MoveKind.CHALLENGE
_K_CHOOSE: Final = MoveKind.CHOOSE
_K_CLAIM: Final = MoveKind.CLAIM
_K_KEEP: Final = MoveKind.KEEP
_K_LOSE: Final = MoveKind.LOSE
_K_OFFER: Final = MoveKind.OFFER
_K_PASS: Final = MoveKind.PASS
_K_PAY: Final = MoveKind.PAY
_K_SHOW: Final = MoveKind.SHOW
_A_ASSASSINATE: Final = Action.ASSASSINATE
_A_CONVERT: Final = Action.CONVERT
_A_COUP: Final = Action.COUP
_A_EMBEZZLE: Final = Action.EMBEZZLE
_A_EXAMINE: Final = Action.EXAMINE
_A_EXCHANGE: Final = Action.EXCHANGE
_A_FOREIGN_AID: Final = Action.FOREIGN_AID
_A_INCOME: Final = Action.INCOME
_A_PEEK: Final = Action.PEEK
_A_STEAL: Final = Action.STEAL
_A_TAX: Final = Action.TAX
_A_VENGEANCE: Final = Action.VENGEANCE
_C_DUKE: Final = Character.DUKE
_C_GRAVEROBBER: Final = Character.GRAVEROBBER
_C_INHERITANCE: Final = Character.INHERITANCE
_C_TREATY: Final = Character.TREATY
_C_VENGEANCE: Final = Character.VENGEANCE

# Moves whose content only the mover sees (the cards kept, the card shown to an Inquisitor).
PRIVATE_KINDS: Final = (_K_KEEP, _K_OFFER)


class Event(NamedTuple):
    """One line of the game's log. `visible_to` is None for public events."""

    kind: str
    visible_to: int | None
    data: dict[str, Any]


class Decision(Frozen):
    """The public description of the pending decision (a `Frozen` record: one is made at
    every observation, so at every decision of every playout)."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "phase", "player", "actor", "action", "target", "claim", "challenger", "blocker",
        "block_character", "loss_reason", "claimant")

    def __init__(self, phase: Phase, player: int, actor: int, action: Action | None,
                 target: int | None, claim: Character | None, challenger: int | None,
                 blocker: int | None, block_character: Character | None,
                 loss_reason: str | None, claimant: int | None = None) -> None:
        self.phase: Final = phase
        self.player: Final = player
        self.actor: Final = actor
        self.action: Final = action
        self.target: Final = target
        self.claim: Final = claim
        self.challenger: Final = challenger
        self.blocker: Final = blocker
        self.block_character: Final = block_character
        self.loss_reason: Final = loss_reason
        # Who made an out-of-turn claim (Graverobber, Treaty).
        self.claimant: Final = claimant

    def __setattr__(self, name: str, value: object) -> None:
        self._set_once(name, value)

    @property
    def question(self) -> str:
        from trainer.engine.explain import PHASE_QUESTION

        return PHASE_QUESTION[self.phase]


class Game:
    """A game of Coup in progress. Create with `Game.new` (a random deal) or the constructor."""

    variant: Variant
    options: Options
    n: int
    names: list[str]
    hidden: list[list[Character]]
    revealed: list[list[Character]]
    coins: list[int]
    deck: list[Character]  # in the forum variant, index 0 is the top
    treasury: int | None
    alive: list[bool]
    chance: Chance
    is_over: bool  # the same as phase is _P_OVER, kept as a field for the inner loop
    turn: int
    actor: int
    decider: int
    phase: Phase
    winner: int | None  # None once over: a tie (McGuire's Vengeance can leave nobody)
    # Variant state; empty or zero in the base game.
    offers: list[list[Character]]  # two-player draft: each player's set, until they choose
    removed: list[Character]  # two-player draft: the cards put out of the game face down
    sides: list[Allegiance]  # Reformation: each seat's allegiance
    reserve: int  # Reformation: coins on the Treasury Reserve
    mat_cards: dict[str, Character]  # McGuire: face-down cards still on the mat, by event
    mat_up: list[Character]  # McGuire: cards flipped face up on the mat
    mat_coins: int  # McGuire: the coin waiting on the mat
    mat_pending: list[str]  # McGuire: the mat events still to happen, in order
    # The log as played: a move and then the phase it answered (two entries, no pair to
    # allocate), and events as (kind, visible_to, data) or, for the frequent kinds, flat
    # (kind, visible_to, *values) tuples whose data dict is made when the log is read.
    _raw: list[Any]
    _events: list[Event]  # the same, turned into Events on demand
    _read: int  # how much of _raw is in _events
    # The turn in progress.
    _spec: _Row
    _target: int
    _challenger: int
    _blocker: int
    _block_char: Character
    target_lost_challenge: bool
    _loss_reason: str
    _then: str
    _poll: tuple[int, ...]  # who is asked in the open window, in order: _poll[_pi] decides
    _pi: int
    _pool: list[Character]
    _deferred: list[int]
    _reduced: bool  # McGuire: the steal was reduced to 1 by an Ambassador
    _examined: Character  # Inquisitor: the card shown to the examiner
    # Readings of open points (Options) that add state to a turn; empty under the defaults.
    _challengers: list[int]  # challengers="all": everyone who challenged the claim, in order
    _losers: list[int]  # the challengers still to lose an influence for a proven claim
    _blockers: list[tuple[int, Character]]  # foreign_aid_blockers="random": the willing
    _queue: list[int]  # foreign_aid_blockers="queue": players still to be asked after a block
    # Out-of-turn claims (Graverobber, Treaty) and what they wait on.
    _claim_kind: str  # "grave" or "treaty"
    _claim_char: Character
    _claimants: list[int]
    _claim_i: int
    _claimant: int
    _graves: list[int]  # exiled players whose coins wait for the Graverobber window
    _grave: int
    _avenger: int  # McGuire: a player whose Vengeance Assassin was just couped
    _turn_actor: int  # whose turn resumes after a Vengeance (-1: none pending)
    _hold_end: bool  # a Vengeance is still to come, so the game cannot end yet
    _deaths: int
    _round: int  # how many of the first player's turns have begun (the mat's clock)
    _first: int
    _legal: tuple[Move, ...] | None  # legal_moves() of this position, once computed
    # Per player, the events they may see so far and how far into the log that is up to date
    # (made on the first observation).
    _views: dict[int, tuple[list[Event], list[int]]] | None
    _vid: int
    _forced: int
    _alive_mask: int  # bit p set while player p is alive: a cheap key for the move tables
    _rot: tuple[tuple[int, ...], ...]
    _specs: dict[Action, _Row]
    # Variant hooks and table rules, copied from the rule set so the inner loop tests one field.
    _all_challenge: bool
    _fa_mode: int  # foreign_aid_blockers: 0 first, 1 queue, 2 random
    _refuse_gainless: bool
    _self_target: bool
    _teams: bool
    _slow_proof: bool
    _pay: int
    _bounty: int
    _house: bool
    _fixed: bool
    _graves_on: bool
    _extra_end: bool
    _treaty: bool
    _exchange_draw: int
    _reducers: tuple[Character, ...]
    _target_first: bool
    _block_after: bool
    _steal_dead: bool

    def __init__(
        self,
        *,
        names: Sequence[str],
        hands: Sequence[Sequence[Character]],
        coins: Sequence[int],
        deck: Sequence[Character],
        first: int = 0,
        variant: Variant = BASE,
        options: Options | None = None,
        chance: Chance | None = None,
        revealed: Sequence[Sequence[Character]] | None = None,
        treasury: int | None = None,
        offers: Sequence[Sequence[Character]] | None = None,
        removed: Sequence[Character] | None = None,
        allegiances: Sequence[Allegiance | str] | None = None,
        reserve: int = 0,
        mat: Sequence[tuple[str, Character | None]] | None = None,
        mat_up: Sequence[Character] | None = None,
        mat_clock: tuple[int, int, int] | None = None,
        _dealt: bool = False,
    ) -> None:
        n = len(names)
        self.variant = variant
        self.options = options or _DEFAULT_OPTIONS
        self.n = n
        self.offers = [list(o) for o in offers] if offers else []
        self.removed = list(removed) if removed else []
        self.sides = [Allegiance(a) for a in allegiances] if allegiances else []
        self.reserve = reserve
        self.mat_cards = {}
        self.mat_pending = []
        self.mat_up = list(mat_up) if mat_up else []
        self.mat_coins = 0
        if mat is not None:
            for event, card in mat:
                self.mat_pending.append(event)
                if card is not None:
                    self.mat_cards[event] = card
                elif event.startswith("coin"):
                    self.mat_coins += 1
        if _dealt:  # Game.new's own deal: already valid, and set-up speed matters for bots
            self.names = names if isinstance(names, list) else list(names)
            self.hidden = hands  # type: ignore[assignment]
            self.revealed = [[] for _ in range(n)]
            self.coins = coins  # type: ignore[assignment]
            self.deck = deck  # type: ignore[assignment]
            self.treasury = treasury
            self._start(first, chance or RandomChance())
            return
        revealed = revealed or [[] for _ in range(n)]
        self.names = list(names)
        self.hidden = [list(h) for h in hands]
        self.revealed = [list(r) for r in revealed]
        self.coins = list(coins)
        self.deck = list(deck)
        self.treasury = check_position(
            variant=variant, options=self.options, names=self.names, hands=self.hidden,
            revealed=self.revealed, coins=self.coins, deck=self.deck, first=first,
            treasury=treasury, offers=self.offers, removed=self.removed, sides=self.sides,
            reserve=reserve, mat_pending=self.mat_pending, mat_cards=self.mat_cards,
            mat_up=self.mat_up, mat_coins=self.mat_coins)
        self._start(first, chance or RandomChance(), mat_clock or (first, 0, 0))

    def _start(self, first: int, chance: Chance,
               clock: tuple[int, int, int] = (-1, 0, 0)) -> None:
        """Set up the play state; everything before this has been validated or dealt by us."""
        n = self.n
        variant = self.variant
        drafting = bool(self.offers)
        self.alive = [drafting or bool(h) for h in self.hidden]
        self.chance = chance
        self.is_over = False
        rules = _rules(variant)
        self._vid = rules.vid
        self._specs = rules.rows
        self._forced = rules.forced
        mask = 0
        for p in range(n):
            if self.alive[p]:
                mask |= 1 << p
        self._alive_mask = mask
        self._rot = _rotations(n)
        self._teams = rules.teams
        self._pay = rules.pay
        self._bounty = rules.bounty
        self._house = rules.house
        self._slow_proof = rules.slow_proof
        self._fixed = rules.fixed
        self._graves_on = rules.graves_on
        self._extra_end = rules.extra_end
        self._treaty = rules.treaty
        self._exchange_draw = rules.exchange_draw
        self._reducers = rules.reducers
        self._self_target = rules.self_target
        options = self.options
        self._all_challenge = options.challengers == "all"
        self._fa_mode = _FA_MODES[options.foreign_aid_blockers]
        self._refuse_gainless = options.gainless_actions == "refused"
        self._target_first = options.challenge_order == "target_first"
        self._block_after = options.block_after_lost_challenge
        self._steal_dead = options.steal_from_eliminated
        self.turn = 1
        self.actor = first
        self._first = first if clock[0] < 0 else clock[0]
        self.winner = None
        self._graves = []
        self._grave = -1
        self._avenger = -1
        self._turn_actor = -1
        self._hold_end = False
        self._round = clock[1]
        self._deaths = clock[2]
        self._claim_kind = ""
        self._claim_char = _C_GRAVEROBBER
        self._claimants = []
        self._claim_i = 0
        self._claimant = -1
        self._reset_turn()
        self.decider = first
        self._legal = None
        # The set-up is copied now but turned into a snapshot dict only when the log is read.
        start = (tuple([tuple(h) for h in self.hidden]),
                 tuple([tuple(r) for r in self.revealed]), tuple(self.coins),
                 tuple(self.deck), self.treasury, first, self.setup_fields())
        raw: list[Any] = [("setup", NOBODY, start)]
        if not drafting:
            for p in range(n):
                raw.append(("deal", p, p, tuple(self.hidden[p])))
        self._raw = raw
        self._events = []
        self._read = 0
        self._views = None
        if drafting:
            self.phase = _P_DRAFT
            for p in range(n):
                raw.append(("offer", p, {"player": p, "cards": tuple(self.offers[p])}))
        elif self._teams and not self.sides:
            self.phase = _P_ALLEGIANCE
        else:
            self._begin_play()

    def setup_fields(self) -> dict[str, Any]:
        """The set-up fields only some rule sets have (draft sets, allegiances, the Reserve,
        McGuire's mat and its clock), as a snapshot writes them: the one place they are
        listed, for the log's set-up entry and for `snapshot` alike."""
        if not (self.offers or self.removed or self.sides or self.reserve
                or self.variant.event_mat):
            return _NO_EXTRA
        extra: dict[str, Any] = {}
        if self.offers:
            extra["offers"] = [list(o) for o in self.offers]
        if self.removed:
            extra["removed"] = list(self.removed)
        if self.sides:
            extra["allegiances"] = list(self.sides)
        if self.reserve:
            extra["reserve"] = self.reserve
        if self.mat_pending:
            extra["mat"] = [(e, self.mat_cards.get(e)) for e in self.mat_pending]
        if self.variant.event_mat:  # the mat's clock and flipped cards, to restart part-way
            extra["mat_up"] = list(self.mat_up)
            extra["mat_clock"] = [self._first, self._round, self._deaths]
        return extra

    def _begin_play(self) -> None:
        self.phase = _P_ACTION
        self.decider = self.actor
        if self.mat_pending:
            self._round = self._round or 1
            self._mat_clock()
        self._raw.append(("turn", EVERYONE, self.turn, self.actor))

    # ----------------------------------------------------------------- construction
    @classmethod
    def new(
        cls,
        players: int | Sequence[str] = 4,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        variant: Variant | str = BASE,
        options: Options | None = None,
        first: int = 0,
    ) -> Game:
        """A freshly dealt game with a shuffled court deck. `variant` is a rule set, or its
        compact description (``base+pay_five(challengers=all)``), whose table rules apply
        unless `options` are given."""
        if isinstance(variant, str):
            described = parse_rules(variant)
            v = described.variant
            if options is None:
                options = described.options
            elif described.options != _DEFAULT_OPTIONS and described.options != options:
                raise SetupError(f"{variant!r} sets its own table rules; give them there or "
                                 f"as options, not both", field="options")
        else:
            v = variant
        rules = _rules(v)
        names = list(_default_names(players) if isinstance(players, int) else players)
        n = len(names)
        options = options or _DEFAULT_OPTIONS
        if not rules.min_players <= n <= rules.max_players:
            most = v.most_players(options)
            if not v.min_players <= n <= most:
                raise SetupError(f"{v.title} is for {v.min_players}–{most} players, not {n}",
                                 field="names")
        generator = rng if rng is not None else _seeded(seed)
        chance = RandomChance(generator)
        coins = list(rules.starting_coins(n, first, options.two_player_start))
        if rules.draft:  # three sets of one of each character: two to choose from, one to deal
            third = list(v.characters)
            _shuffle(generator, third)
            return cls(names=names, hands=[[] for _ in range(n)], coins=coins, deck=third,
                       first=first, variant=v, options=options, chance=chance,
                       offers=[list(v.characters) for _ in range(n)])
        deck = list(rules.court(n))
        _shuffle(generator, deck)
        h = rules.hand_size
        hands = [deck[i * h:(i + 1) * h] for i in range(n)]
        deck = deck[n * h:]
        if rules.event_mat:
            mat = [(e, deck.pop() if e.startswith("flip") else None) for e in v.mat_events(n)]
            return cls(names=names, hands=hands, coins=coins, deck=deck, first=first,
                       variant=v, options=options, chance=chance, mat=mat)
        treasury = rules.coins_total - sum(coins) if options.finite_treasury else None
        if cls is Game:  # a direct call of the compiled constructor, without keyword parsing
            return Game(names=names, hands=hands, coins=coins, deck=deck, first=first,
                        variant=v, options=options, chance=chance, treasury=treasury,
                        _dealt=True)
        return cls(names=names, hands=hands, coins=coins, deck=deck, first=first, variant=v,
                   options=options, chance=chance, treasury=treasury, _dealt=True)

    def snapshot(self) -> dict[str, Any]:
        """The full position (hidden cards included) as plain data: enough to restart from."""
        from trainer.engine.serialize import snapshot

        return snapshot(self)

    @classmethod
    def from_snapshot(cls, snap: dict[str, Any], chance: Chance | None = None) -> Game:
        from trainer.engine.serialize import from_snapshot

        return from_snapshot(snap, chance)

    @classmethod
    def replay(cls, events: Iterable[Event]) -> Game:
        """Rebuild a game from its complete log: the deal, every move and every draw."""
        from trainer.engine.serialize import replay

        return replay(events)

    def clone(self, chance: Chance | None = None) -> Game:
        """An independent copy (sharing the immutable variant and options) that draws exactly
        the numbers this game would draw from here on; or, given `chance`, draws from it
        instead, without copying this game's (a rollout's own stream, a solver's script).

        Why field by field rather than through `_state()`/`_restore` (which pickling uses and
        which give the same game): copies are the inner loop of perft, the end-game solvers
        and the rollouts, and building the state dict, setting fields by name and a deep copy
        of the random generator made a copy cost ~200 µs (`bench/clone.py`)."""
        twin = Game(names=list(self.names), hands=[list(h) for h in self.hidden],
                    coins=list(self.coins), deck=list(self.deck), first=self.actor,
                    variant=self.variant, options=self.options,
                    chance=copy_chance(self.chance) if chance is None else chance,
                    treasury=self.treasury, _dealt=True)
        twin.revealed = [list(r) for r in self.revealed]
        twin.alive = list(self.alive)
        twin._alive_mask = self._alive_mask
        twin.turn = self.turn
        twin.decider = self.decider
        twin.phase = self.phase
        twin.is_over = self.is_over
        twin.winner = self.winner
        twin.offers = [list(o) for o in self.offers]
        twin.removed = list(self.removed)
        twin.sides = list(self.sides)
        twin.reserve = self.reserve
        twin.mat_cards = dict(self.mat_cards)
        twin.mat_up = list(self.mat_up)
        twin.mat_coins = self.mat_coins
        twin.mat_pending = list(self.mat_pending)
        twin._raw = list(self._raw)
        twin._events = []
        twin._read = 0
        twin._views = None
        twin._spec = self._spec
        twin._target = self._target
        twin._challenger = self._challenger
        twin._blocker = self._blocker
        twin._block_char = self._block_char
        twin.target_lost_challenge = self.target_lost_challenge
        twin._loss_reason = self._loss_reason
        twin._then = self._then
        twin._poll = self._poll[self._pi:]
        twin._pi = 0
        twin._pool = list(self._pool)
        twin._deferred = list(self._deferred)
        twin._reduced = self._reduced
        twin._examined = self._examined
        twin._challengers = list(self._challengers)
        twin._losers = list(self._losers)
        twin._blockers = list(self._blockers)
        twin._queue = list(self._queue)
        twin._claim_kind = self._claim_kind
        twin._claim_char = self._claim_char
        twin._claimants = list(self._claimants)
        twin._claim_i = self._claim_i
        twin._claimant = self._claimant
        twin._graves = list(self._graves)
        twin._grave = self._grave
        twin._avenger = self._avenger
        twin._turn_actor = self._turn_actor
        twin._hold_end = self._hold_end
        twin._deaths = self._deaths
        twin._round = self._round
        twin._first = self._first
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling (Streamlit session state, process pools) goes through plain data, so it
        # works the same for the pure-Python and the compiled engine.
        return (_restore, (self._state(),))

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.clone()

    def position_key(self) -> tuple[Any, ...]:
        """A hashable key of the position within one rule set and its options: two games with
        equal keys play on alike, move for move and draw for draw. Left out: the log, the turn
        number, the names, the random stream and (unless the rule set deals from a fixed
        order) the order of the deck, so a position reached twice has one key, as a solver's
        transposition table wants. The mat's clock counts only while a mat event is to come."""
        return (
            tuple(tuple(h) for h in self.hidden), tuple(tuple(r) for r in self.revealed),
            tuple(self.coins), tuple(self.deck if self._fixed else sorted(self.deck)),
            self.treasury, tuple(self.alive), self.actor, self.decider, self.phase, self.winner,
            self._spec.action if self.spec else None, self._target, self._challenger,
            self._blocker, self._block_char, self.target_lost_challenge, self._loss_reason,
            self._then, self._poll[self._pi:], tuple(self._pool), tuple(self._deferred),
            tuple(tuple(o) for o in self.offers), tuple(self.removed), tuple(self.sides),
            self.reserve, tuple(sorted(self.mat_cards.items())), tuple(self.mat_up),
            self.mat_coins, tuple(self.mat_pending), self._reduced, self._examined,
            tuple(self._challengers), tuple(self._losers), tuple(self._blockers),
            tuple(self._queue),
            self._claim_kind, self._claim_char, tuple(self._claimants), self._claim_i,
            self._claimant, tuple(self._graves), self._grave, self._avenger, self._turn_actor,
            self._hold_end, self._deaths,
            (self._round, self._first) if self.mat_pending else None,
        )

    def _state(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "options": self.options, "names": list(self.names),
            "hidden": [list(h) for h in self.hidden],
            "revealed": [list(r) for r in self.revealed], "coins": list(self.coins),
            "deck": list(self.deck), "treasury": self.treasury, "alive": list(self.alive),
            "chance": copy_chance(self.chance), "turn": self.turn, "actor": self.actor,
            "decider": self.decider, "phase": self.phase, "winner": self.winner,
            "raw": list(self._raw), "spec": self._spec.action if self.spec else None,
            "target": self._target, "challenger": self._challenger, "blocker": self._blocker,
            "block_char": self._block_char, "target_lost_challenge": self.target_lost_challenge,
            "loss_reason": self._loss_reason, "then": self._then,
            "poll": list(self._poll[self._pi:]),
            "pool": list(self._pool), "deferred": list(self._deferred),
            "offers": [list(o) for o in self.offers], "removed": list(self.removed),
            "sides": list(self.sides), "reserve": self.reserve,
            "mat_cards": dict(self.mat_cards), "mat_up": list(self.mat_up),
            "mat_coins": self.mat_coins, "mat_pending": list(self.mat_pending),
            "reduced": self._reduced, "examined": self._examined,
            "challengers": list(self._challengers), "losers": list(self._losers),
            "blockers": list(self._blockers), "queue": list(self._queue),
            "claim_kind": self._claim_kind, "claim_char": self._claim_char,
            "claimants": list(self._claimants), "claim_i": self._claim_i,
            "claimant": self._claimant, "graves": list(self._graves), "grave": self._grave,
            "avenger": self._avenger, "turn_actor": self._turn_actor,
            "hold_end": self._hold_end, "deaths": self._deaths, "round": self._round,
            "first": self._first,
        }

    # ----------------------------------------------------------------- queries
    # The turn in progress is kept in plain non-optional fields (-1 for "nobody"); these
    # properties give the public, optional view of them.
    @property
    def spec(self) -> ActionSpec | None:
        row = self._spec
        return None if row.none else row.spec

    @property
    def target(self) -> int | None:
        return self._target if self._target >= 0 else None

    @property
    def challenger(self) -> int | None:
        return self._challenger if self._challenger >= 0 else None

    @property
    def blocker(self) -> int | None:
        return self._blocker if self._blocker >= 0 else None

    @property
    def block_char(self) -> Character | None:
        return self._block_char if self._blocker >= 0 else None

    @property
    def loss_reason(self) -> str | None:
        return self._loss_reason if self.phase is _P_LOSE else None

    @property
    def mat_clock(self) -> tuple[int, int, int]:
        """McGuire's mat clock: the game's first player, how many of their turns have begun,
        and how many cards have been lost (what a snapshot needs to restart the mat)."""
        return (self._first, self._round, self._deaths)

    @property
    def is_tie(self) -> bool:
        return self.is_over and self.winner is None

    def living(self) -> list[int]:
        return [p for p in range(self.n) if self.alive[p]]

    @property
    def pending(self) -> Decision | None:
        if self.phase is _P_OVER:
            return None
        spec = self.spec
        claim = spec.claim if spec else None
        claimant = None
        if self.phase in _CLAIM_PHASES:
            claim = self._claim_char
            claimant = self._claimant if self._claimant >= 0 else None
        return Decision(
            self.phase, self.decider, self.actor, spec.action if spec else None, self.target,
            claim, self.challenger, self.blocker, self.block_char, self.loss_reason, claimant,
        )

    def describe(self, move: Move) -> str:
        """The move as a phrase with names, e.g. "Ely claims Duke: tax"."""
        from trainer.engine.explain import describe_move

        return describe_move(self, move)

    def exchange_pool(self) -> tuple[Character, ...]:
        """During an exchange, the actor's cards plus the drawn ones (private to the actor)."""
        return tuple(self._pool) if self.phase is _P_EXCHANGE else ()

    def hostile_targets(self, p: int) -> list[int]:
        """Players p may coup, assassinate, steal from or examine (Reformation restricts it)."""
        return hostile_targets(p, self.alive, self.sides)

    def timeout_move(self) -> Move | None:
        """The forum's default for a decision that timed out: Income, a Coup on a random
        player at 10+ coins, or a pass in a window. None where the text gives no default."""
        if not self.variant.timeout or self.is_over:
            return None
        p = self.decider
        if self.phase is _P_ACTION:
            if self.coins[p] >= self._forced:
                targets = self.hostile_targets(p)
                return Move(_K_ACT, p, _A_COUP, targets[self.chance.pick(len(targets))])
            return Move(_K_ACT, p, _A_INCOME)
        passing = Move(_K_PASS, p)
        return passing if passing in self.legal_moves() else None

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves of the player who decides now (empty once the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> tuple[Move, ...]:
        # Moves hold only seat numbers, so the same tuples serve every game: they are built
        # once, under small integer keys (cheap to hash), and looked up afterwards.
        ph = self.phase
        p = self.decider
        if ph is _P_CHALLENGE_ACTION or ph is _P_CHALLENGE_BLOCK or (
                ph is _P_CHALLENGE_CLAIM):
            moves = _CP_MOVES.get(p)
            if moves is None:
                moves = _CP_MOVES[p] = (Move(_K_CHALLENGE, p), Move(_K_PASS, p))
            return moves
        if ph is _P_ACTION:
            if self._teams or self._refuse_gainless:
                # legal actions depend on allegiances and the Reserve, or on every purse
                return self._action_moves(p)
            coins = self.coins[p]
            c = (coins if coins < 31 else 30) if coins < self._forced else 31
            akey = ((((self._vid << 5) | p) << 20 | self._alive_mask) << 5) | c
            moves = _ACTION_MOVES.get(akey)
            if moves is None:
                moves = _ACTION_MOVES[akey] = self._action_moves(p)
            return moves
        if ph is _P_OVER:
            return ()
        if ph is _P_BLOCK:
            blockers = self._spec.blockers
            bkey = (p, blockers)
            moves = _BLOCK_MOVES.get(bkey)
            if moves is None:
                moves = _BLOCK_MOVES[bkey] = block_moves(p, blockers)
            return moves
        hand = self.hidden[p]
        if ph is _P_LOSE:
            if self._pay:
                return lose_moves(p, hand, self._loss_reason == "lost a challenge"
                                  and self.coins[p] >= self._pay)
            hkey = p * 256 + _code(hand[0]) * 16 + (_code(hand[1]) if len(hand) > 1 else 0)
            moves = _LOSE_MOVES.get(hkey)
            if moves is None:
                moves = _LOSE_MOVES[hkey] = lose_moves(p, hand, False)
            return moves
        if ph is _P_PROVE_ACTION or ph is _P_PROVE_BLOCK:
            claim = self._spec.claim if ph is _P_PROVE_ACTION else self._block_char
            if self._slow_proof:
                return prove_moves(p, hand, claim, ph is _P_PROVE_ACTION and self._spec.inverted,
                                   False, bool(self._pay) and self.coins[p] >= self._pay)
            hkey = p * 256 + _code(hand[0]) * 16 + (_code(hand[1]) if len(hand) > 1 else 0)
            pkey = hkey * 16 + (_code(claim) if claim is not None else 0)
            moves = _PROVE_MOVES.get(pkey)
            if moves is None:
                moves = _PROVE_MOVES[pkey] = prove_moves(p, hand, claim, False, True, False)
            return moves
        if ph is _P_EXCHANGE:
            keeps = sorted({tuple(sorted(c)) for c in combinations(self._pool, len(hand))})
            return tuple(Move(_K_KEEP, p, None, None, None, c) for c in keeps)
        return self._variant_moves(ph, p)

    def _variant_moves(self, ph: Phase, p: int) -> tuple[Move, ...]:
        """The decisions only some variants have."""
        if ph is _P_PROVE_CLAIM:
            return prove_moves(p, self.hidden[p], self._claim_char, False, True,
                               bool(self._pay) and self.coins[p] >= self._pay)
        if ph is _P_CLAIM:
            return (Move(_K_CLAIM, p, None, None, self._claim_char), Move(_K_PASS, p))
        if ph is _P_DRAFT:
            return tuple(Move(_K_KEEP, p, None, None, None, (c,))
                         for c in _distinct(self.offers[p]))
        if ph is _P_ALLEGIANCE:
            return tuple(Move(_K_CHOOSE, p, choice=str(a)) for a in Allegiance)
        if ph is _P_EXAMINE_OFFER:
            return tuple(Move(_K_OFFER, p, None, None, c)
                         for c in _distinct(self.hidden[p]))
        if ph is _P_EXAMINE_DECIDE:
            return (Move(_K_CHOOSE, p, choice="return"),
                    Move(_K_CHOOSE, p, choice="swap"))
        if ph is _P_VENGEANCE:
            return vengeance_moves(p, self.alive, self._self_target)
        return ()

    def _action_moves(self, p: int) -> tuple[Move, ...]:
        others = [q for q in range(self.n) if q != p and self.alive[q]]
        foes = self.hostile_targets(p) if self._teams else others
        return action_moves(self.variant, p, self.coins[p], others, foes, self.reserve,
                            self.coins if self._refuse_gainless else None, self.treasury)

    # ----------------------------------------------------------------- apply
    def apply(self, move: object) -> None:
        """Play one move for the player who decides now; IllegalMoveError says why not."""
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        m: Move | None = None
        for x in legal:  # a legal move handed back: found by identity, without comparing
            if x is move:
                m = x
                break
        if m is None:
            m = self._normalise(move, legal)
        self._legal = None
        k = m.kind
        ph = self.phase
        raw = self._raw
        raw.append(m)
        raw.append(ph)
        if ph is _P_CHALLENGE_ACTION or ph is _P_CHALLENGE_BLOCK or ph is _P_BLOCK:
            if k is _K_PASS:
                if self._next_asked():
                    pass
                elif self._challengers and ph is not _P_BLOCK:
                    self._to_proof(ph)  # challengers="all": everyone has answered
                elif ph is _P_CHALLENGE_ACTION:
                    self._after_action_claim()
                elif ph is _P_BLOCK:
                    if self._blockers:
                        self._pick_blocker()
                    else:
                        self._resolve()
                else:
                    self._block_stands()  # nobody challenged the block
            elif k is _K_CHALLENGE:
                if self._bounty:
                    self._gain(m.player, self._bounty)
                if self._all_challenge:  # every other player is still asked
                    self._challengers = self._challengers + [m.player]
                    if self._challenger < 0:
                        self._challenger = m.player
                    if not self._next_asked():
                        self._to_proof(ph)
                else:
                    self._challenger = m.player
                    self._to_proof(ph)
            elif self._fa_mode == 2 and self._spec.anyone:
                # foreign_aid_blockers="random": collect the willing, then draw one
                self._blockers = self._blockers + [(m.player, _card(m))]
                if not self._next_asked():
                    self._pick_blocker()
            else:  # a block
                if self._fa_mode == 1 and self._spec.anyone:
                    # who may still block if this one fails
                    self._queue = list(self._poll[self._pi + 1:])
                self._block(m.player, _card(m))
        elif ph is _P_ACTION:
            self._declare(m)
        elif ph is _P_LOSE:
            if k is _K_PAY:
                self._pay_instead(m.player)
            else:
                self._lose(m.player, _card(m), self._loss_reason)
                if self.is_over:
                    return
                if self._avenger >= 0:
                    self._start_vengeance()
                    return
            self._continue()
        elif ph is _P_PROVE_ACTION:
            if k is _K_SHOW:
                if m.cards is not None:
                    self._replace_all(self.actor)
                else:
                    self._replace(self.actor, _card(m))
                if self._challengers:
                    if self._target in self._challengers:
                        self.target_lost_challenge = True
                    self._challengers_lose("claim_stands")
                else:
                    if self._challenger == self._target:
                        self.target_lost_challenge = True
                    self._start_loss(self._challenger, "lost a challenge", "claim_stands")
            elif self._concede(self.actor, m):
                self._challengers = _NO_SEATS
                self._refund()
                self._end_turn()
        elif ph is _P_PROVE_BLOCK:
            if k is _K_SHOW:
                self._replace(self._blocker, _card(m))
                if self._challengers:
                    self._challengers_lose("block_stands")
                else:
                    self._start_loss(self._challenger, "lost a challenge", "block_stands")
            elif self._concede(self._blocker, m):
                self._challengers = _NO_SEATS
                if self._queue:
                    self._reopen_block()  # foreign_aid_blockers="queue"
                else:
                    self._resolve()
        elif ph is _P_EXCHANGE:
            self._finish_exchange(m)
        else:
            self._apply_variant(m, ph, k)

    def _concede(self, p: int, m: Move) -> bool:
        """A challenged claimant gives up: a card, or (McGuire) coins instead. False when
        that ended the game."""
        if m.kind is _K_PAY:
            self._pay_instead(p)
            return True
        self._lose(p, _card(m), "lost a challenge")
        return not self.is_over

    def _continue(self) -> None:
        """After a loss of influence (or a payment instead), carry on with what waited on it:
        the next challenger's loss (challengers="all"), else the rest of the turn."""
        losers = self._losers
        while losers:
            q = losers.pop(0)
            if self.alive[q]:
                self._start_loss(q, self._loss_reason, self._then)
                return
        then = self._then
        if then == "claim_stands":
            self._after_action_claim()
        elif then == "block_stands":
            self._block_stands()
        elif then == "extra_stands":
            self._claim_stands()
        else:  # "effect": the action is done
            self._end_turn()

    def _apply_variant(self, m: Move, ph: Phase, k: MoveKind) -> None:
        p = m.player
        if ph is _P_CHALLENGE_CLAIM:
            if k is _K_PASS:
                if self._next_asked():
                    pass
                elif self._challengers:  # challengers="all": everyone has answered
                    self.phase = _P_PROVE_CLAIM
                    self.decider = self._claimant
                else:
                    self._claim_stands()
            else:
                if self._bounty:
                    self._gain(p, self._bounty)
                if self._all_challenge:
                    self._challengers = self._challengers + [p]
                    if self._challenger < 0:
                        self._challenger = p
                    if self._next_asked():
                        return
                else:
                    self._challenger = p
                self.phase = _P_PROVE_CLAIM
                self.decider = self._claimant
        elif ph is _P_PROVE_CLAIM:
            if k is _K_SHOW:
                self._replace(self._claimant, _card(m))
                if self._challengers:
                    self._challengers_lose("extra_stands")
                else:
                    self._start_loss(self._challenger, "lost a challenge", "extra_stands")
            elif self._concede(self._claimant, m):
                self._challengers = _NO_SEATS
                self._claim_fails()
        elif ph is _P_CLAIM:
            if self._claim_kind == "treaty":
                if k is _K_CLAIM:
                    self._open_claim_challenge(p)
                else:
                    self._end_turn()  # the Duke's block stands
                return
            if k is _K_CLAIM:
                self._claimants.append(p)
            if not self._next_asked():
                self._claim_i = 0
                self._next_claim()
        elif ph is _P_VENGEANCE:
            self._turn_actor = self.actor
            self.actor = p
            self._avenger = -1
            self._spec = _VENGEANCE_ROW
            self._target = -1 if m.target is None else m.target
            self._challenger = -1
            self._blocker = -1
            self.target_lost_challenge = False
            self._after_action_claim()
        elif ph is _P_EXAMINE_OFFER:
            self._show_examined(_card(m))
        elif ph is _P_EXAMINE_DECIDE:
            if m.choice == "swap":
                t = self._target
                card = self._examined
                new = self._draw(1)
                self.hidden[t].remove(card)
                self.hidden[t].extend(new)
                self.deck.append(card)
                self._raw.append(("draw", t, t, tuple(new), "examine swap"))
            self._end_turn()
        elif ph is _P_DRAFT:
            kept = (m.cards or ())[0]
            rest = list(self.offers[p])
            rest.remove(kept)
            self.hidden[p] = [kept]
            self.removed.extend(rest)
            self.offers[p] = []
            self._raw.append(("discard", p, {"player": p, "cards": tuple(rest)}))
            waiting = [q for q in self._rot[p] if self.offers[q]]
            if waiting:
                self.decider = waiting[0]
                return
            self.offers = []
            for q in (self.actor, *self._rot[self.actor]):  # deal the third set
                drawn = self._draw_random(self.deck, 1)
                self.hidden[q].extend(drawn)
                self._raw.append(("draw", q, q, tuple(drawn), "deal"))
            self._begin_play()
        elif ph is _P_ALLEGIANCE:
            side = Allegiance(m.choice or "")
            self.sides = [side] * self.n
            for i, q in enumerate(self._rot[p]):
                self.sides[q] = side if i % 2 == 1 else side.other
            self._raw.append(("allegiances", EVERYONE, {"sides": tuple(self.sides)}))
            self._begin_play()

    def as_legal(self, move: object) -> Move:
        """The legal move `move` stands for, in the engine's own form (a keep or a show of
        cards written in any order is one move); the specific error when there is none. A
        caller that records moves (a saved game) records this form, which reads back equal."""
        legal = self.legal_moves()
        if isinstance(move, Move) and move in legal:
            return move
        return self._normalise(move, legal)

    def _normalise(self, move: object, legal: tuple[Move, ...]) -> Move:
        """An equal legal move, or a keep or a show of cards in any order; reject anything
        else not legal."""
        if isinstance(move, Move) and move in legal:
            return move
        if isinstance(move, Move) and move.cards is not None and not self.is_over:
            norm = move._replace(cards=tuple(sorted(move.cards)))
            if norm in legal:
                return norm
        raise self._refusal(move)

    def _refusal(self, move: object) -> MoveError:
        """The error for a move that cannot be played, with its reason and fields."""
        from trainer.engine.explain import why_illegal

        why = why_illegal(self, move)
        if not isinstance(move, Move):
            return InvalidMoveError(why.reason, move=move, phase=str(self.phase))
        if self.is_over:
            return GameOverError(why.reason, move=move, phase=str(self.phase))
        return IllegalMoveError(why.reason, move=move, phase=str(self.phase),
                                player=self.decider, field=why.field)

    def why_illegal(self, move: Any) -> str:
        """A sentence saying why `move` cannot be played now."""
        from trainer.engine.explain import why_illegal

        return why_illegal(self, move).reason

    # ----------------------------------------------------------------- internals
    def _reset_turn(self) -> None:
        self._spec = _NO_ROW
        self._target = -1
        self._challenger = -1
        self._blocker = -1
        self._block_char = _C_DUKE  # meaningful only while _blocker >= 0
        self.target_lost_challenge = False
        self._loss_reason = ""
        self._then = ""
        self._poll = ()
        self._pi = 0
        self._pool = []
        self._deferred = []
        self._reduced = False
        self._examined = _C_DUKE  # meaningful only in the examine phases
        self._challengers = _NO_SEATS
        self._losers = _NO_SEATS
        self._blockers = _NO_BLOCKERS
        self._queue = _NO_SEATS

    def _clockwise(self, start: int, include_start: bool = False,
                   skip: int = -1) -> tuple[int, ...]:
        """The living players clockwise from `start` (itself first if `include_start`),
        without `skip`: one shared tuple per table of living players, made once."""
        n = self.n
        key = ((((self._alive_mask << 5 | start) << 5 | n) << 5 | (skip + 1)) << 1
               | include_start)
        order = _ORDERS.get(key)
        if order is None:
            alive = self.alive
            seats = [q for q in self._rot[start] if alive[q] and q != skip]
            if include_start and alive[start] and start != skip:
                seats.insert(0, start)
            order = _ORDERS[key] = tuple(seats)
        return order

    def _ask(self, poll: tuple[int, ...], phase: Phase) -> None:
        """Open a window that asks the players of `poll` one at a time, in order."""
        self._poll = poll
        self._pi = 0
        self.phase = phase
        self.decider = poll[0]

    def _next_asked(self) -> bool:
        """The open window moves on to its next player: True if there is one (now deciding)."""
        pi = self._pi + 1
        self._pi = pi
        poll = self._poll
        if pi < len(poll):
            self.decider = poll[pi]
            return True
        return False

    def _declare(self, move: Move) -> None:
        spec = self._specs[move.action]  # type: ignore[index]  # legal ACT moves have one
        p = move.player
        target = -1 if move.target is None else move.target
        self._spec = spec
        self._target = target
        cost = spec.cost
        if spec.other_cost:  # conversion: paid onto the Treasury Reserve
            if target >= 0:
                cost = spec.other_cost
            self.coins[p] -= cost
            self.reserve += cost
        elif cost:
            self.coins[p] -= cost
            if self.treasury is not None:
                self.treasury += cost
        if spec.claim is None:
            self._after_action_claim()
            return
        poll = self._clockwise(p)
        if self._self_target:  # McGuire's rule 7 off: the claimant may challenge themselves
            poll = (*poll, p)
        if target >= 0 and self._target_first:
            poll = (target, *[q for q in poll if q != target])
        self._ask(poll, _P_CHALLENGE_ACTION)

    def _to_proof(self, ph: Phase) -> None:
        """A challenge was made: the claimant (or blocker) must now prove the claim."""
        if ph is _P_CHALLENGE_ACTION:
            self.phase = _P_PROVE_ACTION
            self.decider = self.actor
        else:
            self.phase = _P_PROVE_BLOCK
            self.decider = self._blocker

    def _challengers_lose(self, then: str) -> None:
        """challengers="all" and the claim was proven: each challenger loses an influence,
        in the order they were asked."""
        losers = self._challengers
        self._challengers = _NO_SEATS
        self._losers = losers[1:]
        self._start_loss(losers[0], "lost a challenge", then)

    def _pick_blocker(self) -> None:
        """foreign_aid_blockers="random": one of the players who want to block is drawn."""
        blockers = self._blockers
        self._blockers = _NO_BLOCKERS
        i = 0
        if len(blockers) > 1:
            i = self._pick_random(len(blockers))
            self._raw.append(("pick", NOBODY, i, "blocker"))
            self._raw.append(("chosen_blocker", EVERYONE, blockers[i][0],
                              tuple([q for q, _ in blockers])))
        self._block(blockers[i][0], blockers[i][1])

    def _reopen_block(self) -> None:
        """foreign_aid_blockers="queue": a block was disproved, so the players not yet asked
        may still block, one after another."""
        poll = tuple([q for q in self._queue if self.alive[q]])
        self._queue = _NO_SEATS
        self._blocker = -1
        self._challenger = -1
        if not poll:
            self._resolve()
            return
        self._ask(poll, _P_BLOCK)

    def _block(self, blocker: int, character: Character) -> None:
        self._blocker = blocker
        self._block_char = character
        self._challenger = -1
        self._challengers = _NO_SEATS
        poll = self._clockwise(self.actor, True, blocker)
        if self._self_target:
            poll = (*poll, blocker)
        if not poll:  # only after a Vengeance, whose avenger is already exiled
            self._block_stands()
            return
        self._ask(poll, _P_CHALLENGE_BLOCK)

    def _block_stands(self) -> None:
        """The block was not challenged, or survived its challenge."""
        if self._block_char in self._reducers:
            self._reduced = True  # McGuire: the Ambassador reduces the steal to 1
            self._resolve()
            return
        if (self._house and self._spec.action is _A_FOREIGN_AID and self.alive[self.actor]
                and self._treaty):
            self._claim_kind = "treaty"  # McGuire: a Treaty Contessa may override the Duke
            self._claim_char = _C_TREATY
            self._claimant = self.actor
            self._ask((self.actor,), _P_CLAIM)
            return
        self._end_turn()

    def _after_action_claim(self) -> None:
        spec = self._spec
        if spec.blockers:
            poll: tuple[int, ...]
            if spec.by_target:
                t = self._target
                # A block after a failed challenge only where the table allows it (Treason
                # offers a block only "if your action is not challenged").
                ok = self.alive[t] and (self._block_after or self._challenger < 0)
                poll = (t,) if ok else ()
            else:
                poll = self._clockwise(self.actor)
                if self._teams:  # no blocking the foreign aid of one's own allegiance
                    foes = set(self.hostile_targets(self.actor))
                    poll = tuple([q for q in poll if q in foes])
            if poll:
                self._ask(poll, _P_BLOCK)
                return
        self._resolve()

    def _resolve(self) -> None:
        a = self._spec.action
        p = self.actor
        if not self.alive[p] and a is not _A_VENGEANCE:
            # The actor lost their last card on the way (a challenge of their own, or of a
            # block): an exiled player's action does nothing.
            self._end_turn()
            return
        if a is _A_INCOME:
            self._gain(p, 1)
        elif a is _A_FOREIGN_AID:
            self._gain(p, 2)
        elif a is _A_TAX:
            self._gain(p, 3)
        elif a is _A_STEAL:
            t = self._target
            amount = min(1 if self._reduced else 2, self.coins[t])
            self.coins[t] -= amount
            self.coins[p] += amount
        elif a is _A_COUP or a is _A_ASSASSINATE or a is _A_VENGEANCE:
            t = self._target
            if self.alive[t]:
                self._start_loss(t, "couped" if a is _A_COUP else "assassinated", "effect")
                return
        elif a is _A_EXCHANGE:
            drawn = self._draw(self._exchange_draw)
            self._raw.append(("draw", p, p, tuple(drawn), "exchange"))
            self._pool = self.hidden[p] + drawn
            self.phase = _P_EXCHANGE
            self.decider = p
            return
        else:
            self._resolve_variant(a, p)
            return
        self._end_turn()

    def _resolve_variant(self, a: Action, p: int) -> None:
        if a is _A_EXAMINE:
            t = self._target
            if not self.alive[t]:  # the target died challenging: the examine ends unseen
                self._end_turn()
                return
            if self.options.examine_pick == "random":
                card = self.chance.draw(list(self.hidden[t]), 1)[0]
                self._raw.append(("draw", t, t, (card,), "examined at random"))
                self._show_examined(card)
                return
            self.phase = _P_EXAMINE_OFFER
            self.decider = t
            return
        if a is _A_CONVERT:
            q = p if self._target < 0 else self._target
            self.sides[q] = self.sides[q].other
            self._raw.append(("converted", EVERYONE, {"player": q, "side": self.sides[q]}))
        elif a is _A_EMBEZZLE:
            self.coins[p] += self.reserve
            self.reserve = 0
        elif a is _A_PEEK:
            self._gain(p, 2)
            if self.deck:
                self._raw.append(("peek", p, {"player": p,
                                              "cards": (self.deck[0], self.deck[-1])}))
        self._end_turn()

    def _show_examined(self, card: Character) -> None:
        self._examined = card
        self._raw.append(("examined", self.actor, {"player": self._target, "cards": (card,)}))
        self.phase = _P_EXAMINE_DECIDE
        self.decider = self.actor

    def _finish_exchange(self, move: Move) -> None:
        p = self.actor
        kept = list(move.cards or ())
        rest = list(self._pool)
        for c in kept:
            rest.remove(c)
        self.hidden[p] = kept
        self.deck.extend(rest)  # to the bottom, where the order matters
        self._raw.append(("return", p, p, tuple(rest)))
        self._raw.append(("exchanged", EVERYONE, p, len(rest)))
        self._end_turn()

    def _draw(self, k: int) -> list[Character]:
        if self._fixed:  # the forum deck: always the top cards
            out = self.deck[:k]
            del self.deck[:k]
            return out
        return self._draw_random(self.deck, k)

    # The chance calls of play. A RandomChance over a plain random.Random is served here,
    # compiled, drawing exactly the numbers its own methods would draw (see _shuffle); any
    # other Chance is asked.
    def _generator(self) -> random.Random | None:
        chance = self.chance
        if type(chance) is RandomChance and _SAME_DRAWS:
            rng = chance.rng
            if type(rng) is random.Random:
                return rng
        return None

    def _draw_random(self, deck: list[Character], n: int) -> list[Character]:
        rng = self._generator()
        if rng is None or n > len(deck):
            return self.chance.draw(deck, n)
        getrandbits = rng.getrandbits
        out = []
        for _ in range(n):
            i = _randbelow(getrandbits, len(deck))
            deck[i], deck[-1] = deck[-1], deck[i]
            out.append(deck.pop())
        return out

    def _shuffle_random(self, deck: list[Character]) -> None:
        rng = self._generator()
        if rng is None:
            self.chance.shuffle(deck)
        else:
            _shuffle(rng, deck)

    def _pick_random(self, n: int) -> int:
        rng = self._generator()
        if rng is None or n <= 0:
            return self.chance.pick(n)
        return _randbelow(rng.getrandbits, n)

    def _gain(self, p: int, amount: int) -> None:
        if self.treasury is not None:
            amount = min(amount, self.treasury)
            self.treasury -= amount
        self.coins[p] += amount

    def _pay_instead(self, p: int) -> None:
        self.coins[p] -= self._pay
        if self.treasury is not None:
            self.treasury += self._pay
        self._raw.append(("paid", EVERYONE, {"player": p, "coins": self._pay}))

    def _refund(self) -> None:
        cost = self._spec.cost
        if cost and self.alive[self.actor]:
            self._gain(self.actor, cost)

    def _replace(self, p: int, card: Character) -> None:
        """A proven card goes back to the court deck, which is shuffled; draw a replacement."""
        self.hidden[p].remove(card)
        if self._fixed:  # shuffled into the fixed-order deck; the replacement is the top card
            at = self.chance.pick(len(self.deck) + 1)
            self._raw.append(("pick", NOBODY, at, "shuffled in"))
            self.deck.insert(at, card)
            new = self._draw(1)
        else:
            self.deck.append(card)
            self._shuffle_random(self.deck)
            new = self._draw_random(self.deck, 1)
        self.hidden[p].extend(new)
        self._raw.append(("draw", p, p, tuple(new), "replacement"))

    def _replace_all(self, p: int) -> None:
        """Embezzlement proven: every shown card is shuffled back and replaced."""
        shown = self.hidden[p]
        self.deck.extend(shown)
        self._shuffle_random(self.deck)
        new = self._draw_random(self.deck, len(shown))
        self.hidden[p] = new
        self._raw.append(("draw", p, p, tuple(new), "replacement"))

    def _start_loss(self, p: int, reason: str, then: str) -> None:
        self.phase = _P_LOSE
        self.decider = p
        self._loss_reason = reason
        self._then = then

    def _lose(self, p: int, card: Character, reason: str) -> None:
        self.hidden[p].remove(card)
        self.revealed[p].append(card)
        self._raw.append(("lost", EVERYONE, p, card, reason))
        if self._house:
            self._house_loss(p, card, reason)
        if not self.hidden[p]:
            self._eliminate(p)

    def _house_loss(self, p: int, card: Character, reason: str) -> None:
        """McGuire: modified cards that were killed, and the mat's death events."""
        killed = reason == "couped" or reason == "assassinated"
        if card is _C_INHERITANCE and killed:
            self._gain(p, INHERITANCE_COINS)
            self._raw.append(("inheritance", EVERYONE, {"player": p}))
        elif card is _C_VENGEANCE and reason == "couped":
            self._avenger = p
            self._hold_end = True
        self._deaths += 1
        if self._deaths == 1 and "flip_death_1" in self.mat_pending:
            self._mat_event("flip_death_1")
        elif self._deaths == 2 and "flip_death_2" in self.mat_pending:
            self._mat_event("flip_death_2")

    def _start_vengeance(self) -> None:
        self.phase = _P_VENGEANCE
        self.decider = self._avenger
        self._raw.append(("vengeance", EVERYONE, {"player": self._avenger}))

    def _eliminate(self, p: int) -> None:
        self.alive[p] = False
        self._alive_mask &= ~(1 << p)
        self._raw.append(("eliminated", EVERYONE, p))
        if (p == self._target and self._spec.action is _A_STEAL
                and self._steal_dead):
            self._deferred.append(p)  # the thief still takes the coins (rulebook example)
        elif self._graves_on:
            self._graves.append(p)  # the coins wait for the Graverobber window
        else:
            self._return_coins(p)
        mask = self._alive_mask
        if mask & (mask - 1) == 0 and not self._hold_end:  # one player left, or none
            self._finish(mask.bit_length() - 1 if mask else None)

    def _finish(self, winner: int | None) -> None:
        for q in range(self.n):
            if not self.alive[q] and self.coins[q]:
                self._return_coins(q)
        self._deferred = []
        self._graves = []
        self.winner = winner
        self.phase = _P_OVER
        self.is_over = True
        self._legal = None
        self._raw.append(("game_over", EVERYONE, winner))

    def _return_coins(self, p: int) -> None:
        if self.treasury is not None:
            self.treasury += self.coins[p]
        self.coins[p] = 0

    def _end_turn(self) -> None:
        for q in self._deferred:
            if self._graves_on:
                self._graves.append(q)
            else:
                self._return_coins(q)
        if self._extra_end and self._turn_hooks():
            return
        self._reset_turn()
        self.turn += 1
        alive = self.alive
        before = self.actor
        for q in self._rot[before]:
            if alive[q]:
                self.actor = q
                break
        if self.mat_pending:
            self._mat_turn(before)
        self.phase = _P_ACTION
        self.decider = self.actor
        self._raw.append(("turn", EVERYONE, self.turn, self.actor))

    def _turn_hooks(self) -> bool:
        """Variant business between turns; True when it opened a decision or ended the game."""
        if self._hold_end:  # a Vengeance has been resolved
            self._hold_end = False
            living = self.living()
            if len(living) <= 1:
                self._finish(living[0] if living else None)
                return True
        if self._turn_actor >= 0:
            self.actor = self._turn_actor  # the couper's turn ends as usual
            self._turn_actor = -1
        while self._graves:
            g = self._graves.pop(0)
            if self.coins[g] <= 0:
                continue
            self._reset_turn()
            self._grave = g
            self._claim_kind = "grave"
            self._claim_char = _C_GRAVEROBBER
            self._claimants = []
            self._claimant = -1
            self._ask(self._clockwise(g), _P_CLAIM)
            self._raw.append(("grave", EVERYONE, {"player": g, "coins": self.coins[g]}))
            return True
        return False

    # -- out-of-turn claims
    def _open_claim_challenge(self, c: int) -> None:
        self._claimant = c
        self._challenger = -1
        self._challengers = _NO_SEATS
        poll = self._clockwise(c)
        if self._self_target:
            poll = (*poll, c)
        if not poll:
            self._claim_stands()
            return
        self._ask(poll, _P_CHALLENGE_CLAIM)

    def _next_claim(self) -> None:
        """Graverobber: challenge the claims one at a time, then split the coins."""
        while self._claim_i < len(self._claimants):
            c = self._claimants[self._claim_i]
            if self.alive[c]:
                self._open_claim_challenge(c)
                return
            del self._claimants[self._claim_i]
        g = self._grave
        standing = [c for c in self._claimants if self.alive[c]]
        share = self.coins[g] // len(standing) if standing else 0
        for c in standing:
            self.coins[c] += share
        self.coins[g] -= share * len(standing)
        self._raw.append(("graverobbed", EVERYONE, {"player": g, "claimants": tuple(standing),
                                                     "each": share}))
        self._return_coins(g)  # the remainder of the split
        self._claimants = []
        self._claimant = -1
        self._grave = -1
        self._end_turn()

    def _claim_stands(self) -> None:
        if self._claim_kind == "treaty":
            self._claimant = -1
            if self.alive[self.actor]:
                self._gain(self.actor, 2)  # the foreign aid goes through after all
            self._end_turn()
            return
        self._claim_i += 1
        self._next_claim()

    def _claim_fails(self) -> None:
        if self._claim_kind == "treaty":
            self._claimant = -1
            self._end_turn()
            return
        del self._claimants[self._claim_i]
        self._next_claim()

    # -- McGuire's mat
    def _mat_turn(self, before: int) -> None:
        """Count the first player's turns: a new one begins when play passes their seat."""
        first = self._first
        for q in self._rot[before]:
            if q == first:
                self._round += 1
                self._mat_clock()
                return
            if q == self.actor:
                return

    def _mat_clock(self) -> None:
        r = self._round
        for event in ("flip_turn_1", "coin_turn_2", "flip_turn_3"):
            if event in self.mat_pending and int(event[-1]) == r:
                self._mat_event(event)

    def _mat_event(self, event: str) -> None:
        self.mat_pending.remove(event)
        if event == "coin_turn_2":
            first = self._first
            coins = self.mat_coins
            self.mat_coins = 0
            if self.alive[first]:
                self.coins[first] += coins
            elif self.treasury is not None:
                self.treasury += coins
            self._raw.append(("mat", EVERYONE, {"event": event, "player": first,
                                                "coins": coins}))
            return
        card = self.mat_cards.pop(event)
        self.mat_up.append(card)
        self._raw.append(("mat", EVERYONE, {"event": event, "card": card}))

    # ----------------------------------------------------------------- the log
    @property
    def log(self) -> list[Event]:
        """Every event so far, public and private, in order: enough to replay the game.

        Play records each move followed by the phase it answered, and flat tuples, the
        cheapest things to append in the inner loop; they become Events here, once, when
        someone reads the log. A move's event keeps the decision it answered (`phase`): a pass
        says nothing without the question it declined, and the log is where a reader finds it.
        """
        events = self._events
        raw = self._raw
        i = self._read
        end = len(raw)
        while i < end:
            r = raw[i]
            i += 1
            if isinstance(r, Move):  # a move, then the phase it answered
                events.append(Event("move", r.player if r.kind in PRIVATE_KINDS else None,
                                    {"move": r, "phase": raw[i]}))
                i += 1
            elif len(r) == 2:  # a (move, phase) pair, as games pickled before kept them
                m = r[0]
                events.append(Event("move", m.player if m.kind in PRIVATE_KINDS else None,
                                    {"move": m, "phase": r[1]}))
            elif isinstance(r[2], dict):
                events.append(Event(r[0], r[1], r[2]))
            elif r[0] == "setup":
                events.append(Event("setup", NOBODY, self._setup_snapshot(r[2])))
            else:  # a flat event: its values in the order of its fields
                kind = r[0]
                events.append(Event(kind, r[1], dict(zip(_FIELDS[kind], r[2:], strict=True))))
        self._read = i
        return events

    @log.setter
    def log(self, events: list[Event]) -> None:
        self._raw = list(events)
        self._events = list(events)
        self._read = len(events)
        self._views = None

    def visible_events(self, player: int) -> list[Event]:
        """The public events and this player's private ones, kept up to date incrementally
        (observations are built at every decision, so filtering the whole log each time
        would make them cost as much as the game so far)."""
        events = self.log
        views = self._views
        if views is None:
            views = self._views = {}
        entry = views.get(player)
        if entry is None:
            entry = views[player] = ([], [0])
        view, seen = entry
        for i in range(seen[0], len(events)):
            e = events[i]
            if e.visible_to is None or e.visible_to == player:
                view.append(e)
        seen[0] = len(events)
        return view

    def _setup_snapshot(self, start: tuple[Any, ...]) -> dict[str, Any]:
        from trainer.engine.serialize import setup_snapshot

        return setup_snapshot(self, start)

    # ----------------------------------------------------------------- views
    def observation(self, player: int) -> Observation:
        """What `player` may see (imported here: observations import the game's types)."""
        from trainer.engine.observation import observe

        return observe(self, player)


# The fields of the events the inner loop logs as flat tuples, (kind, visible_to, *values).
_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "turn": ("turn", "player"),
    "deal": ("player", "cards"),
    "lost": ("player", "card", "reason"),
    "eliminated": ("player",),
    "game_over": ("winner",),
    "draw": ("player", "cards", "why"),
    "return": ("player", "cards"),
    "exchanged": ("player", "returned"),
    "pick": ("value", "why"),
    "chosen_blocker": ("player", "among"),
}
_CLAIM_PHASES: Final = (_P_CLAIM, _P_CHALLENGE_CLAIM, _P_PROVE_CLAIM)
# Fields restored one to one by _restore (the rest need converting).
_PLAIN_FIELDS: Final = (
    "revealed", "alive", "turn", "decider", "phase", "winner", "offers", "removed", "sides",
    "reserve", "mat_cards", "mat_up", "mat_coins", "mat_pending",
)
_PRIVATE_FIELDS: Final = (
    "target", "challenger", "blocker", "block_char", "loss_reason", "then", "pool",
    "deferred", "reduced", "examined", "challengers", "losers", "blockers", "queue",
    "claim_kind", "claim_char", "claimants", "claim_i", "claimant", "graves", "grave",
    "avenger", "turn_actor", "hold_end", "deaths", "round", "first",
)


def _restore(state: dict[str, Any]) -> Game:
    variant = state["variant"]
    if isinstance(variant, str):  # a state written before rule sets were values
        variant = get_variant(variant)
    game = Game(names=state["names"], hands=state["hidden"], coins=state["coins"],
                deck=state["deck"], first=state["actor"], variant=variant,
                options=state["options"], chance=state["chance"], treasury=state["treasury"],
                _dealt=True)
    for name in _PLAIN_FIELDS:
        setattr(game, name, state[name])
    for name in _PRIVATE_FIELDS:
        setattr(game, "_" + name, state[name])
    game._poll = tuple(state["poll"])  # the players still to be asked
    game._pi = 0
    game._alive_mask = sum(1 << p for p in range(game.n) if game.alive[p])
    game.is_over = state["phase"] is _P_OVER
    game._raw = state["raw"]
    game._events = []
    game._read = 0
    game._views = None
    spec = state["spec"]
    game._spec = (_VENGEANCE_ROW if spec is _A_VENGEANCE else game._specs[spec]
                  if spec is not None else _NO_ROW)
    game.target_lost_challenge = state["target_lost_challenge"]
    return game


# ------------------------------------------------------------------- the moves of a decision
# Pure functions of the public table and one hand: the game builds its own legal moves with
# them, and an observer asks them what a player could have done with a hand it cannot see.
def hostile_targets(p: int, alive: Sequence[bool], sides: Sequence[str]) -> list[int]:
    """Players p may coup, assassinate, steal from or examine, clockwise from p."""
    n = len(alive)
    others = [q for q in _rotations(n)[p] if alive[q]]
    if not sides:
        return others
    mine = sides[p]
    foes = [q for q in others if sides[q] != mine]
    return foes if foes else others


def action_moves(variant: Variant, p: int, coins: int, others: Sequence[int],
                 foes: Sequence[int], reserve: int, purses: Sequence[int] | None = None,
                 treasury: int | None = None) -> tuple[Move, ...]:
    """The actions of a player with `coins` on their turn (a Coup only, at the forced mark).

    `purses`, every seat's coins, is given only where actions that can gain nothing are
    refused (`Options.gainless_actions`): then a steal needs a target with coins, an
    embezzlement coins on the Reserve, and income, foreign aid and tax coins in the Treasury
    (`treasury`, None for an unlimited one). With McGuire's rule 7 off (`self_target`) a
    player may also coup or assassinate themselves."""
    if coins >= variant.forced_coup_at:
        moves = [Move(_K_ACT, p, _A_COUP, q) for q in foes]
        if variant.self_target:
            moves.append(Move(_K_ACT, p, _A_COUP, p))
        return tuple(moves)
    refuse = purses is not None
    dry = refuse and treasury == 0
    moves = []
    for spec in variant.actions:
        if coins < spec.cost:
            continue
        a = spec.action
        if refuse and ((a is _A_EMBEZZLE and not reserve) or (dry and (
                a is _A_INCOME or a is _A_FOREIGN_AID or a is _A_TAX))):
            continue  # it would gain nothing: a pass, which this table refuses
        if spec.targeted:
            if refuse and a is _A_STEAL and purses is not None:
                moves.extend(Move(_K_ACT, p, a, q) for q in foes if purses[q] > 0)
            else:
                moves.extend(Move(_K_ACT, p, a, q) for q in foes)
            if variant.self_target and (a is _A_COUP or a is _A_ASSASSINATE):
                moves.append(Move(_K_ACT, p, a, p))
        else:
            moves.append(Move(_K_ACT, p, a))
        if spec.other_cost and coins >= spec.other_cost:
            moves.extend(Move(_K_ACT, p, spec.action, q) for q in others)
    return tuple(moves)


def block_moves(p: int, blockers: tuple[Character, ...]) -> tuple[Move, ...]:
    return tuple(Move(_K_BLOCK, p, None, None, c) for c in blockers) + (Move(_K_PASS, p),)


def lose_moves(p: int, hand: Sequence[Character], may_pay: bool) -> tuple[Move, ...]:
    moves = tuple(Move(_K_LOSE, p, None, None, c) for c in _distinct(list(hand)))
    return moves + (Move(_K_PAY, p),) if may_pay else moves


def prove_moves(p: int, hand: Sequence[Character], claim: Character | None, inverted: bool,
                exact: bool, may_pay: bool) -> tuple[Move, ...]:
    """Answers to a challenge: show a card proving the claim (the very card when `exact`; for
    an inverted claim, the whole hand when it holds no such card), concede a card, or pay."""
    cards = _distinct(list(hand))
    moves: list[Move] = []
    if inverted:  # embezzlement: only a player without the character may show
        if not any(c.role == claim for c in hand):
            moves.append(Move(_K_SHOW, p, None, None, None, tuple(sorted(hand))))
    else:
        moves.extend(Move(_K_SHOW, p, None, None, c) for c in cards
                     if (c == claim if exact else c.role == claim))
    moves.extend(Move(_K_LOSE, p, None, None, c) for c in cards)
    if may_pay:
        moves.append(Move(_K_PAY, p))
    return tuple(moves)


def vengeance_moves(p: int, alive: Sequence[bool], self_target: bool = False
                    ) -> tuple[Move, ...]:
    """A couped Vengeance Assassin's free assassination, "against anyone": any living player
    other than its owner (its owner too when self-targeting is allowed)."""
    moves = [Move(_K_ACT, p, _A_VENGEANCE, q) for q in _rotations(len(alive))[p] if alive[q]]
    if self_target and alive[p]:
        moves.append(Move(_K_ACT, p, _A_VENGEANCE, p))
    return tuple(moves)


def decision_moves(variant: Variant, decision: Decision, hand: Sequence[Character],
                   coins: Sequence[int], alive: Sequence[bool], sides: Sequence[str],
                   reserve: int, options: Options | None = None,
                   treasury: int | None = None) -> tuple[Move, ...]:
    """The moves the player deciding `decision` would have with `hand`, from the public table.

    Why: an observer weighs each hand an opponent might hold by how likely that hand made the
    move it saw, and needs the moves the rules gave that hand. An exchange or a draft choice
    depends on cards only the chooser has seen, so those are refused with a ValueError.
    """
    ph = decision.phase
    p = decision.player
    pay = variant.pay_instead
    if ph is _P_CHALLENGE_ACTION or ph is _P_CHALLENGE_BLOCK or ph is _P_CHALLENGE_CLAIM:
        return (Move(_K_CHALLENGE, p), Move(_K_PASS, p))
    if ph is _P_ACTION:
        others = [q for q in range(len(alive)) if q != p and alive[q]]
        foes = hostile_targets(p, alive, sides) if sides else others
        refuse = options is not None and options.gainless_actions == "refused"
        return action_moves(variant, p, coins[p], others, foes, reserve,
                            coins if refuse else None, treasury)
    if ph is _P_BLOCK:
        if decision.action is _A_VENGEANCE:
            return block_moves(p, VENGEANCE_SPEC.blockers)
        assert decision.action is not None
        return block_moves(p, variant.spec(decision.action).blockers)
    if ph is _P_CLAIM:
        assert decision.claim is not None
        return (Move(_K_CLAIM, p, None, None, decision.claim), Move(_K_PASS, p))
    if ph is _P_LOSE:
        return lose_moves(p, hand, bool(pay) and decision.loss_reason == "lost a challenge"
                          and coins[p] >= pay)
    may_pay = bool(pay) and coins[p] >= pay
    if ph is _P_PROVE_ACTION:
        assert decision.action is not None
        spec = variant.spec(decision.action)
        return prove_moves(p, hand, spec.claim, spec.inverted, False, may_pay)
    if ph is _P_PROVE_BLOCK:
        return prove_moves(p, hand, decision.block_character, False, False, may_pay)
    if ph is _P_PROVE_CLAIM:
        return prove_moves(p, hand, decision.claim, False, True, may_pay)
    if ph is _P_EXAMINE_OFFER:
        return tuple(Move(_K_OFFER, p, None, None, c) for c in _distinct(list(hand)))
    if ph is _P_EXAMINE_DECIDE:
        return (Move(_K_CHOOSE, p, choice="return"), Move(_K_CHOOSE, p, choice="swap"))
    if ph is _P_VENGEANCE:
        return vengeance_moves(p, alive, variant.self_target)
    if ph is _P_ALLEGIANCE:
        return tuple(Move(_K_CHOOSE, p, choice=str(a)) for a in Allegiance)
    raise ValueError(f"the moves of a {ph} decision depend on cards only the player has seen, "
                     f"not on a hand")


_CP_MOVES: Final[dict[int, tuple[Move, ...]]] = {}
_ACTION_MOVES: Final[dict[int, tuple[Move, ...]]] = {}
_LOSE_MOVES: Final[dict[int, tuple[Move, ...]]] = {}
_PROVE_MOVES: Final[dict[int, tuple[Move, ...]]] = {}
_BLOCK_MOVES: Final[dict[tuple[int, tuple[Character, ...]], tuple[Move, ...]]] = {}
_CODES: Final[dict[str, int]] = {}
_VARIANT_IDS: Final[dict[Variant, int]] = {}


def _code(card: str) -> int:
    """A small number per card name (1–15), for the move tables' keys."""
    code = _CODES.get(card)
    if code is None:
        code = _CODES[card] = len(_CODES) + 1
        if code > 15:
            raise ValueError("the move tables hold at most 15 different characters")
    return code


def _variant_id(variant: Variant) -> int:
    """A small number per rule set (by value: two equal rule sets share their move tables)."""
    vid = _VARIANT_IDS.get(variant)
    if vid is None:
        vid = _VARIANT_IDS[variant] = len(_VARIANT_IDS)
    return vid
_DEFAULT_OPTIONS: Final = Options()


class _Row:
    """One row of the summary card (an `ActionSpec`) with the fields the inner loop reads as
    native attributes: an ActionSpec's own fields are looked up by name at every read."""

    def __init__(self, spec: ActionSpec) -> None:
        self.spec = spec
        self.action = spec.action
        self.claim = spec.claim
        self.cost = spec.cost
        self.other_cost = spec.other_cost
        self.blockers = spec.blockers
        self.anyone = spec.block_scope == "anyone"
        self.by_target = spec.block_scope == "target"
        self.inverted = spec.inverted
        # No action under way. Compared by value, once here: a copied or unpickled game may
        # hold an equal sentinel (a `spec` read compared it at every read, an interpreted
        # `__eq__`, and observations read it at every decision of every playout).
        self.none = spec.action is _A_INCOME and spec == _NO_ACTION


class _Rules:
    """What the engine reads from one rule set, worked out once: its action rows, its hooks as
    the flags the inner loop tests, its numbers, and its decks and starting coins by table."""

    def __init__(self, v: Variant) -> None:
        self.variant = v
        self.vid = _variant_id(v)
        self.rows: dict[Action, _Row] = {s.action: _Row(s) for s in v.actions}
        self.house = bool(v.specials) or v.event_mat
        self.teams = v.allegiances
        self.pay = v.pay_instead
        self.bounty = v.challenge_bounty
        self.slow_proof = bool(v.pay_instead) or bool(v.specials) or v.allegiances
        self.fixed = v.fixed_deck
        self.graves_on = v.graverobber
        self.extra_end = self.house or v.graverobber
        self.treaty = _C_TREATY in v.specials
        self.reducers = v.reducers
        self.exchange_draw = v.exchange_draw
        self.self_target = v.self_target
        self.forced = v.forced_coup_at
        self.min_players = v.min_players
        self.max_players = v.max_players
        self.draft = v.draft
        self.hand_size = v.hand_size
        self.event_mat = v.event_mat
        self.coins_total = v.coins_total
        self._courts: dict[int, tuple[Character, ...]] = {}
        self._coins: dict[tuple[int, int, str], tuple[int, ...]] = {}

    def court(self, n: int) -> tuple[Character, ...]:
        cards = self._courts.get(n)
        if cards is None:
            cards = self._courts[n] = tuple(self.variant.court(n))
        return cards

    def starting_coins(self, n: int, first: int, two_player: str) -> tuple[int, ...]:
        key = (n, first, two_player)
        coins = self._coins.get(key)
        if coins is None:
            options = _DEFAULT_OPTIONS.with_(two_player_start=two_player)
            coins = self._coins[key] = tuple(
                self.variant.starting_coins(n, (i - first) % n, options) for i in range(n))
        return coins


# Keyed by the rule set itself, whose hash is worked out once (`Variant.__hash__`): a rule set
# is a value, so a changed copy of one never reads another's tables. The rule set asked for
# last is found by identity, without hashing it (one rule set plays game after game).
_RULES: Final[dict[Variant, _Rules]] = {}
_LAST_RULES: Final[list[Any]] = [None, None]


def _rules(variant: Variant) -> _Rules:
    last = _LAST_RULES
    if last[0] is variant:
        found: _Rules = last[1]
        return found
    rules = _RULES.get(variant)
    if rules is None:
        rules = _RULES[variant] = _Rules(variant)
    last[0] = variant
    last[1] = rules
    return rules


# Shared, never written: a set-up with nothing variant-specific.
_NO_EXTRA: Final[dict[str, Any]] = {}


@cache
def _default_names(n: int) -> tuple[str, ...]:
    return tuple(f"Player {i + 1}" for i in range(n))


@cache
def _rotations(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the other seats in clockwise order."""
    return tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n))


# The living players clockwise from a seat, by table (see Game._clockwise).
_ORDERS: Final[dict[int, tuple[int, ...]]] = {}
_FA_MODES: Final = {"first": 0, "queue": 1, "random": 2}
# Shared empty lists for the turn's optional bookkeeping: never written in place (a reading
# that uses one assigns a new list), so a turn under the default table rules allocates nothing.
_NO_SEATS: Final[list[int]] = []
_NO_BLOCKERS: Final[list[tuple[int, Character]]] = []

_NO_ACTION: Final = ActionSpec(_A_INCOME, None, 0, False, (), "nobody", "", "")
_NO_ROW: Final = _Row(_NO_ACTION)
_VENGEANCE_ROW: Final = _Row(VENGEANCE_SPEC)


def _randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """random.Random._randbelow_with_getrandbits(n), n > 0: the same numbers drawn, in the
    same order, so every deal and draw is the one the interpreted generator makes."""
    k = 0
    m = n
    while m:  # n.bit_length()
        m >>= 1
        k += 1
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _shuffle(rng: random.Random, cards: list[Any]) -> None:
    """rng.shuffle(cards), compiled: CPython's Random.shuffle (a Fisher-Yates shuffle from the
    end, each index drawn by _randbelow), so the order is the one rng.shuffle gives."""
    if not _SAME_DRAWS or type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        j = _randbelow(getrandbits, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def _seeded(seed: int | None) -> random.Random:
    """random.Random(seed): for an int, its C seeding called directly, without the
    interpreted __init__ and seed that only pass an int on to it."""
    if type(seed) is not int or not _SAME_DRAWS:
        return random.Random(seed)
    rng = random.Random.__new__(random.Random)
    _random.Random.seed(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # as Random.seed leaves it
    return rng


def _same_draws() -> bool:
    """Whether this Python's random.Random shuffles and draws as _shuffle and _randbelow do
    (CPython 3.11 to 3.13 do). If not, the engine leaves every draw to the generator."""
    cls = random.Random
    if getattr(cls, "_randbelow", None) is not getattr(cls, "_randbelow_with_getrandbits", 0):
        return False
    for seed in range(3):
        theirs, ours = random.Random(seed), random.Random(seed)
        for size in range(1, 25):
            a, b = list(range(size)), list(range(size))
            theirs.shuffle(a)
            getrandbits = ours.getrandbits
            for i in range(size - 1, 0, -1):
                j = _randbelow(getrandbits, i + 1)
                b[i], b[j] = b[j], b[i]
            if a != b or theirs.randrange(size) != _randbelow(getrandbits, size):
                return False
        if theirs.getstate() != ours.getstate():
            return False
    for seed in (0, 1, -7, 2**31, 2**64 + 3, 10**30):
        rng = random.Random.__new__(random.Random)
        _random.Random.seed(rng, seed)
        rng.gauss_next = None  # type: ignore[attr-defined]
        if rng.getstate() != random.Random(seed).getstate():
            return False
    return True


_SAME_DRAWS: Final = _same_draws()


def _card(move: Move) -> Character:
    assert move.character is not None  # every SHOW, LOSE and BLOCK move names its card
    return move.character


def _distinct(cards: list[Character]) -> list[Character]:
    if len(cards) == 2 and cards[0] == cards[1]:
        return [cards[0]]
    return list(dict.fromkeys(cards))
