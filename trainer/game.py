"""The game state: one explicit position, the moves legal in it, and `apply`.

Every pending decision belongs to exactly one player. Windows in which several players could
act (a challenge, a Duke block of foreign aid) are asked one player at a time, in the order the
`challenge_order` option sets; the first willing player acts and the window closes. That keeps
the state a plain sequential game (as in OpenSpiel) that bots, scenarios and people all drive
the same way.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import Any, NamedTuple, cast

from trainer.cards import Action, Character
from trainer.chance import Chance, RandomChance, ScriptedChance
from trainer.errors import GameOverError, IllegalMoveError, SetupError
from trainer.moves import Move, MoveKind, describe
from trainer.rules import BASE, ActionSpec, Options, Variant, get_variant

EVERYONE: int | None = None
NOBODY = -1  # events kept for replay only (the full deal)


class Phase(StrEnum):
    ACTION = "action"
    CHALLENGE_ACTION = "challenge_action"
    PROVE_ACTION = "prove_action"
    BLOCK = "block"
    CHALLENGE_BLOCK = "challenge_block"
    PROVE_BLOCK = "prove_block"
    LOSE = "lose_influence"
    EXCHANGE = "exchange"
    OVER = "game_over"

    __hash__ = str.__hash__


PHASE_QUESTION: dict[Phase, str] = {
    Phase.ACTION: "choose an action",
    Phase.CHALLENGE_ACTION: "challenge the claim or pass",
    Phase.PROVE_ACTION: "show the claimed card or lose the challenge",
    Phase.BLOCK: "block or pass",
    Phase.CHALLENGE_BLOCK: "challenge the block or pass",
    Phase.PROVE_BLOCK: "show the claimed card or lose the challenge",
    Phase.LOSE: "choose an influence to lose",
    Phase.EXCHANGE: "choose the cards to keep",
    Phase.OVER: "nothing: the game is over",
}


_KIND_PHRASE: dict[MoveKind, str] = {
    MoveKind.ACT: "taking an action",
    MoveKind.CHALLENGE: "a challenge",
    MoveKind.PASS: "passing",
    MoveKind.BLOCK: "a block",
    MoveKind.SHOW: "showing a card",
    MoveKind.LOSE: "losing an influence",
    MoveKind.KEEP: "keeping cards",
}


class Event(NamedTuple):
    """One line of the game's log. `visible_to` is None for public events."""

    kind: str
    visible_to: int | None
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """The public description of the pending decision."""

    phase: Phase
    player: int
    actor: int
    action: Action | None
    target: int | None
    claim: Character | None
    challenger: int | None
    blocker: int | None
    block_character: Character | None
    loss_reason: str | None

    @property
    def question(self) -> str:
        return PHASE_QUESTION[self.phase]

    def __reduce__(self) -> tuple[Any, ...]:
        # Explicit, so that pickling works the same whether or not this module is compiled.
        return (Decision, (self.phase, self.player, self.actor, self.action, self.target,
                           self.claim, self.challenger, self.blocker, self.block_character,
                           self.loss_reason))


class Game:
    """A game of Coup in progress. Create with `Game.new` (a random deal) or the constructor."""

    variant: Variant
    options: Options
    n: int
    names: list[str]
    hidden: list[list[Character]]
    revealed: list[list[Character]]
    coins: list[int]
    deck: list[Character]
    treasury: int | None
    alive: list[bool]
    chance: Chance
    is_over: bool  # the same as phase is Phase.OVER, kept as a field for the inner loop
    turn: int
    actor: int
    decider: int
    phase: Phase
    winner: int | None
    _raw: list[tuple[Any, ...]]  # moves and (kind, visible_to, data) tuples, as they happen
    _events: list[Event]  # the same, turned into Events on demand
    # The turn in progress.
    _spec: ActionSpec
    _target: int
    _challenger: int
    _blocker: int
    _block_char: Character
    target_lost_challenge: bool
    _loss_reason: str
    _then: str
    _poll: list[int]
    _pool: list[Character]
    _deferred: list[int]
    _legal: tuple[Move, ...] | None  # legal_moves() of this position, once computed
    _vid: int
    _forced: int
    _alive_mask: int  # bit p set while player p is alive: a cheap key for the move tables
    _rot: tuple[tuple[int, ...], ...]
    _specs: dict[Action, ActionSpec]

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
        _dealt: bool = False,
    ) -> None:
        n = len(names)
        self.variant = variant
        self.options = options or _DEFAULT_OPTIONS
        self.n = n
        if _dealt:  # Game.new's own deal: already valid, and set-up speed matters for bots
            self.names = names if isinstance(names, list) else list(names)
            self.hidden = hands  # type: ignore[assignment]
            self.revealed = [[] for _ in range(n)]
            self.coins = coins  # type: ignore[assignment]
            self.deck = deck  # type: ignore[assignment]
            self.treasury = treasury
            self._start(first, chance or RandomChance())
            return
        if not variant.min_players <= n <= variant.max_players:
            raise SetupError(
                f"{variant.title} is for {variant.min_players}–{variant.max_players} players, "
                f"not {n}"
            )
        if len(set(names)) != n:
            raise SetupError("player names must be different")
        if len(hands) != n or len(coins) != n:
            raise SetupError("give one hand and one coin count per player")
        revealed = revealed or [[] for _ in range(n)]
        self.names = list(names)
        self.hidden = [list(h) for h in hands]
        self.revealed = [list(r) for r in revealed]
        self.coins = list(coins)
        self.deck = list(deck)
        self._check_cards()
        if any(c < 0 for c in self.coins):
            raise SetupError("coins cannot be negative")
        if self.options.finite_treasury:
            left = variant.coins_total - sum(self.coins) if treasury is None else treasury
            if left < 0 or sum(self.coins) + left != variant.coins_total:
                raise SetupError(
                    f"players hold {sum(self.coins)} coins and the treasury {left}; "
                    f"together they must make the {variant.coins_total} coins in the box"
                )
            self.treasury = left
        else:
            self.treasury = None
        if sum(1 for h in self.hidden if h) < 2:
            raise SetupError("at least two players must still have influence")
        if not 0 <= first < n or not self.hidden[first]:
            raise SetupError(f"the first player (seat {first}) must be a living player")
        self._start(first, chance or RandomChance())

    def _start(self, first: int, chance: Chance) -> None:
        """Set up the play state; everything before this has been validated or dealt by us."""
        n = self.n
        variant = self.variant
        self.alive = [bool(h) for h in self.hidden]
        self.chance = chance
        self.is_over = False
        self._vid = _variant_id(variant.name)
        self._specs = _spec_map(variant.name)
        self._forced = variant.forced_coup_at
        self._alive_mask = sum(1 << p for p in range(n) if self.alive[p])
        self._rot = _rotations(n)
        self.turn = 1
        self.actor = first
        self.winner = None
        self._reset_turn()
        self.phase = Phase.ACTION
        self.decider = first
        self._legal = None
        # The set-up is copied now but turned into a snapshot dict only when the log is read.
        start = (tuple(map(tuple, self.hidden)), tuple(map(tuple, self.revealed)),
                 tuple(self.coins), tuple(self.deck), self.treasury, first)
        raw: list[tuple[Any, ...]] = [("setup", NOBODY, start)]
        raw.extend(("deal", p, {"player": p, "cards": tuple(self.hidden[p])}) for p in range(n))
        raw.append(("turn", EVERYONE, {"turn": 1, "player": first}))
        self._raw = raw
        self._events = []

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
        """A freshly dealt game with a shuffled court deck."""
        v = get_variant(variant) if isinstance(variant, str) else variant
        names = list(_default_names(players) if isinstance(players, int) else players)
        n = len(names)
        if not v.min_players <= n <= v.max_players:
            raise SetupError(f"{v.title} is for {v.min_players}–{v.max_players} players, not {n}")
        chance = RandomChance(rng if rng is not None else random.Random(seed))
        deck = list(_court(v.name, n))
        chance.shuffle(deck)
        h = v.hand_size
        options = options or _DEFAULT_OPTIONS
        coins = list(_starting_coins(v.name, n, first))
        return cls(
            names=names, hands=[deck[i * h:(i + 1) * h] for i in range(n)], coins=coins,
            deck=deck[n * h:], first=first, variant=v, options=options, chance=chance,
            treasury=v.coins_total - sum(coins) if options.finite_treasury else None,
            _dealt=True,
        )

    def _check_cards(self) -> None:
        counts: dict[Character, int] = {}
        for pile in (*self.hidden, *self.revealed, self.deck):
            for c in pile:
                if c not in self.variant.characters:
                    raise SetupError(f"{c!r} is not a card of {self.variant.title}")
                counts[c] = counts.get(c, 0) + 1
        copies = self.variant.copies(self.n)
        for c in self.variant.characters:
            if counts.get(c, 0) != copies:
                raise SetupError(
                    f"there must be {copies} {c} cards in play (hands, revealed and deck) for "
                    f"{self.n} players; found {counts.get(c, 0)}"
                )
        for p, h in enumerate(self.hidden):
            if len(h) + len(self.revealed[p]) > self.variant.hand_size:
                raise SetupError(f"{self.names[p]} holds more than {self.variant.hand_size} cards")

    def snapshot(self) -> dict[str, Any]:
        """The full position (hidden cards included) as plain data: enough to restart from."""
        return {
            "variant": self.variant.name,
            "options": self.options.as_dict(),
            "names": list(self.names),
            "hands": [list(h) for h in self.hidden],
            "revealed": [list(r) for r in self.revealed],
            "coins": list(self.coins),
            "deck": list(self.deck),
            "treasury": self.treasury,
            "first": self.actor,
        }

    @classmethod
    def from_snapshot(cls, snap: dict[str, Any], chance: Chance | None = None) -> Game:
        return cls(
            names=snap["names"],
            hands=[[Character(c) for c in h] for h in snap["hands"]],
            revealed=[[Character(c) for c in r] for r in snap["revealed"]],
            coins=snap["coins"],
            deck=[Character(c) for c in snap["deck"]],
            first=snap["first"],
            variant=get_variant(snap["variant"]),
            options=Options().with_(**snap["options"]),
            chance=chance,
            treasury=snap["treasury"],
        )

    @classmethod
    def replay(cls, events: Iterable[Event]) -> Game:
        """Rebuild a game from its complete log: the deal, every move and every draw."""
        events = list(events)
        setup = next(e for e in events if e.kind == "setup")
        draws = [e.data["cards"] for e in events if e.kind == "draw"]
        game = cls.from_snapshot(setup.data, ScriptedChance(draws))
        for e in events:
            if e.kind == "move":
                game.apply(e.data["move"])
        return game

    def clone(self) -> Game:
        """An independent copy (sharing the immutable variant and options)."""
        return _restore(self._state())

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling (Streamlit session state, process pools) goes through plain data, so it
        # works the same for the pure-Python and the compiled engine.
        return (_restore, (self._state(),))

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.clone()

    def _state(self) -> dict[str, Any]:
        return {
            "variant": self.variant.name, "options": self.options, "names": list(self.names),
            "hidden": [list(h) for h in self.hidden],
            "revealed": [list(r) for r in self.revealed], "coins": list(self.coins),
            "deck": list(self.deck), "treasury": self.treasury, "alive": list(self.alive),
            "chance": copy.deepcopy(self.chance), "turn": self.turn, "actor": self.actor,
            "decider": self.decider, "phase": self.phase, "winner": self.winner,
            "raw": list(self._raw), "spec": self._spec.action if self.spec else None,
            "target": self._target, "challenger": self._challenger, "blocker": self._blocker,
            "block_char": self._block_char, "target_lost_challenge": self.target_lost_challenge,
            "loss_reason": self._loss_reason, "then": self._then, "poll": list(self._poll),
            "pool": list(self._pool), "deferred": list(self._deferred),
        }

    # ----------------------------------------------------------------- queries
    # The turn in progress is kept in plain non-optional fields (-1 for "nobody"); these
    # properties give the public, optional view of them.
    @property
    def spec(self) -> ActionSpec | None:
        # Compared by value: a copied or unpickled game holds an equal, not identical, sentinel.
        return None if self._spec == _NO_ACTION else self._spec

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
        return self._loss_reason if self.phase is Phase.LOSE else None

    def living(self) -> list[int]:
        return [p for p in range(self.n) if self.alive[p]]

    @property
    def pending(self) -> Decision | None:
        if self.phase is Phase.OVER:
            return None
        spec = self.spec
        return Decision(
            self.phase, self.decider, self.actor, spec.action if spec else None, self.target,
            spec.claim if spec else None, self.challenger, self.blocker, self.block_char,
            self.loss_reason,
        )

    def describe(self, move: Move) -> str:
        return describe(move, self.names.__getitem__,
                        {s.action: s.claim for s in self.variant.actions if s.claim})

    def exchange_pool(self) -> tuple[Character, ...]:
        """During an exchange, the actor's cards plus the drawn ones (private to the actor)."""
        return tuple(self._pool) if self.phase is Phase.EXCHANGE else ()

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
        if ph is Phase.CHALLENGE_ACTION or ph is Phase.CHALLENGE_BLOCK:
            moves = _CP_MOVES.get(p)
            if moves is None:
                moves = _CP_MOVES[p] = (Move(MoveKind.CHALLENGE, p), Move(MoveKind.PASS, p))
            return moves
        if ph is Phase.ACTION:
            coins = self.coins[p]
            c = (coins if coins < 31 else 30) if coins < self._forced else 31
            akey = ((self._vid * 16 + p) * 1024 + self._alive_mask) * 32 + c
            moves = _ACTION_MOVES.get(akey)
            if moves is None:
                moves = _ACTION_MOVES[akey] = self._action_moves(p)
            return moves
        hand = self.hidden[p]
        if not hand:  # the game is over (the last decider was exiled)
            return ()
        hkey = p * 256 + _code(hand[0]) * 16 + (_code(hand[1]) if len(hand) > 1 else 0)
        if ph is Phase.LOSE:
            moves = _LOSE_MOVES.get(hkey)
            if moves is None:
                moves = _LOSE_MOVES[hkey] = tuple(
                    Move(MoveKind.LOSE, p, None, None, c) for c in _distinct(hand))
            return moves
        if ph is Phase.PROVE_ACTION or ph is Phase.PROVE_BLOCK:
            claim = self._spec.claim if ph is Phase.PROVE_ACTION else self._block_char
            pkey = hkey * 16 + (_code(claim) if claim is not None else 0)
            moves = _PROVE_MOVES.get(pkey)
            if moves is None:
                show: tuple[Move, ...] = ()
                if claim is not None and claim in hand:
                    show = (Move(MoveKind.SHOW, p, None, None, claim),)
                moves = _PROVE_MOVES[pkey] = show + tuple(
                    Move(MoveKind.LOSE, p, None, None, c) for c in _distinct(hand))
            return moves
        if ph is Phase.BLOCK:
            blockers = self._spec.blockers
            bkey = (p, blockers)
            moves = _BLOCK_MOVES.get(bkey)
            if moves is None:
                moves = _BLOCK_MOVES[bkey] = tuple(
                    Move(MoveKind.BLOCK, p, None, None, c) for c in blockers
                ) + (Move(MoveKind.PASS, p),)
            return moves
        if ph is Phase.EXCHANGE:
            keeps = sorted({tuple(sorted(c)) for c in combinations(self._pool, len(hand))})
            return tuple(Move(MoveKind.KEEP, p, None, None, None, c) for c in keeps)
        return ()

    def _action_moves(self, p: int) -> tuple[Move, ...]:
        coins = self.coins[p]
        others = [q for q in range(self.n) if q != p and self.alive[q]]
        v = self.variant
        if coins >= v.forced_coup_at:
            return tuple(Move(MoveKind.ACT, p, Action.COUP, q) for q in others)
        moves: list[Move] = []
        for spec in v.actions:
            if coins < spec.cost:
                continue
            if spec.targeted:
                moves.extend(Move(MoveKind.ACT, p, spec.action, q) for q in others)
            else:
                moves.append(Move(MoveKind.ACT, p, spec.action))
        return tuple(moves)

    # ----------------------------------------------------------------- apply
    def apply(self, move: object) -> None:
        """Play one move for the player who decides now; IllegalMoveError says why not."""
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        m = cast(Move, move) if move in legal else self._normalise(move, legal)
        self._legal = None
        k = m.kind
        self._raw.append(m)
        ph = self.phase
        if ph is Phase.CHALLENGE_ACTION or ph is Phase.CHALLENGE_BLOCK or ph is Phase.BLOCK:
            if k is MoveKind.PASS:
                poll = self._poll
                poll.pop(0)
                if poll:
                    self.decider = poll[0]
                elif ph is Phase.CHALLENGE_ACTION:
                    self._after_action_claim()
                elif ph is Phase.BLOCK:
                    self._resolve()
                else:
                    self._end_turn()  # nobody challenged the block: the action fails
            elif k is MoveKind.CHALLENGE:
                self._challenger = m.player
                if ph is Phase.CHALLENGE_ACTION:
                    self.phase = Phase.PROVE_ACTION
                    self.decider = self.actor
                else:
                    self.phase = Phase.PROVE_BLOCK
                    self.decider = self._blocker
            else:  # a block
                self._block(m)
        elif ph is Phase.ACTION:
            self._declare(m)
        elif ph is Phase.LOSE:
            self._lose(m.player, _card(m), self._loss_reason)
            if self.is_over:
                return
            if self._then == "claim_stands":
                self._after_action_claim()
            else:  # "block_stands" (the action fails) or "effect" (the action is done)
                self._end_turn()
        elif ph is Phase.PROVE_ACTION:
            if k is MoveKind.SHOW:
                self._replace(self.actor, _card(m))
                if self._challenger == self._target:
                    self.target_lost_challenge = True
                self._start_loss(self._challenger, "lost a challenge", "claim_stands")
            else:
                self._lose(self.actor, _card(m), "lost a challenge")
                if self.is_over:
                    return
                self._refund()
                self._end_turn()
        elif ph is Phase.PROVE_BLOCK:
            if k is MoveKind.SHOW:
                self._replace(self._blocker, _card(m))
                self._start_loss(self._challenger, "lost a challenge", "block_stands")
            else:
                self._lose(self._blocker, _card(m), "lost a challenge")
                if self.is_over:
                    return
                self._resolve()
        elif ph is Phase.EXCHANGE:
            self._finish_exchange(m)

    def _normalise(self, move: object, legal: tuple[Move, ...]) -> Move:
        """Accept a keep in any card order; reject anything else that is not legal."""
        if self.is_over:
            raise GameOverError(self.why_illegal(move))
        if isinstance(move, Move) and move.kind is MoveKind.KEEP and move.cards is not None:
            norm = move._replace(cards=tuple(sorted(move.cards)))
            if norm in legal:
                return norm
        raise IllegalMoveError(self.why_illegal(move))

    def why_illegal(self, move: Any) -> str:
        """A sentence saying why `move` cannot be played now."""
        if not isinstance(move, Move):
            return f"{move!r} is not a move"
        if self.winner is not None:
            return f"the game is over: {self.names[self.winner]} has won"
        if not 0 <= move.player < self.n:
            return f"there is no player {move.player}"
        who = self.names[move.player]
        owner = self.names[self.decider]
        question = PHASE_QUESTION[self.phase]
        if not self.alive[move.player]:
            return f"{who} is out of the game and makes no more decisions"
        if move.player != self.decider:
            return f"it is {owner}'s decision now ({question}), not {who}'s"
        proving = self.phase is Phase.PROVE_ACTION or self.phase is Phase.PROVE_BLOCK
        expected = {m.kind for m in self.legal_moves()}
        if move.kind not in expected and not (proving and move.kind is MoveKind.SHOW):
            return f"{owner} must {question} now; {_KIND_PHRASE[move.kind]} is not possible"
        if move.kind is MoveKind.ACT:
            return self._why_action_illegal(move)
        spec = self._spec
        if move.kind is MoveKind.BLOCK:
            blockers = " or ".join(spec.blockers)
            return f"{spec.action.label} can be blocked only with {blockers}"
        if move.kind is MoveKind.SHOW:
            claim = spec.claim if self.phase is Phase.PROVE_ACTION else self._block_char
            if move.character != claim:
                return f"the claim was {claim}; showing {move.character} does not prove it"
            return f"{who} has no {claim} to show"
        if move.kind is MoveKind.LOSE:
            return (f"{who} has no face-down {move.character} to lose "
                    f"(face down: {', '.join(self.hidden[move.player])})")
        if move.kind is MoveKind.KEEP:
            k = len(self.hidden[move.player])
            cards = move.cards or ()
            if len(cards) != k:
                return f"{who} must keep exactly {k} card(s), not {len(cards)}"
            return f"{', '.join(cards)} are not among {', '.join(self._pool)}"
        return f"{self.describe(move)} is not legal now"

    def _why_action_illegal(self, move: Move) -> str:
        who = self.names[move.player]
        coins = self.coins[move.player]
        spec = self._specs.get(move.action) if move.action is not None else None
        if spec is None:
            return f"{move.action} is not an action of {self.variant.title}"
        if coins >= self.variant.forced_coup_at and move.action != Action.COUP:
            return (f"{who} starts the turn with {coins} coins and must launch a Coup "
                    f"(forced at {self.variant.forced_coup_at} or more)")
        if coins < spec.cost:
            return f"{spec.action.label} costs {spec.cost} coins and {who} has {coins}"
        if spec.targeted:
            if move.target is None:
                return f"{spec.action.label} needs a target"
            if move.target == move.player:
                return f"{who} cannot target themselves"
            if not 0 <= move.target < self.n or not self.alive[move.target]:
                return "the target must be a player still in the game"
        elif move.target is not None:
            return f"{spec.action.label} does not take a target"
        return f"{self.describe(move)} is not legal now"

    # ----------------------------------------------------------------- internals
    def _reset_turn(self) -> None:
        self._spec = _NO_ACTION
        self._target = -1
        self._challenger = -1
        self._blocker = -1
        self._block_char = Character.DUKE  # meaningful only while _blocker >= 0
        self.target_lost_challenge = False
        self._loss_reason = ""
        self._then = ""
        self._poll = []
        self._pool = []
        self._deferred = []

    def _clockwise(self, start: int, include_start: bool = False) -> list[int]:
        alive = self.alive
        order = [q for q in self._rot[start] if alive[q]]
        if include_start and alive[start]:
            order.insert(0, start)
        return order

    def _declare(self, move: Move) -> None:
        spec = self._specs[move.action]  # type: ignore[index]  # legal ACT moves have one
        p = move.player
        target = -1 if move.target is None else move.target
        self._spec = spec
        self._target = target
        cost = spec.cost
        if cost:
            self.coins[p] -= cost
            if self.treasury is not None:
                self.treasury += cost
        if spec.claim is None:
            self._after_action_claim()
            return
        poll = self._clockwise(p)
        if target >= 0 and self.options.challenge_order == "target_first":
            poll.remove(target)
            poll.insert(0, target)
        self._poll = poll
        self.phase = Phase.CHALLENGE_ACTION
        self.decider = poll[0]

    def _block(self, move: Move) -> None:
        blocker = move.player
        self._blocker = blocker
        self._block_char = _card(move)
        self._challenger = -1
        poll = [q for q in self._clockwise(self.actor, include_start=True) if q != blocker]
        self._poll = poll
        self.phase = Phase.CHALLENGE_BLOCK
        self.decider = poll[0]

    def _after_action_claim(self) -> None:
        spec = self._spec
        if spec.blockers:
            poll: list[int]
            if spec.block_scope == "target":
                t = self._target
                ok = self.alive[t] and (
                    self.options.block_after_lost_challenge or not self.target_lost_challenge
                )
                poll = [t] if ok else []
            else:
                poll = self._clockwise(self.actor)
            if poll:
                self._poll = poll
                self.phase = Phase.BLOCK
                self.decider = poll[0]
                return
        self._resolve()

    def _resolve(self) -> None:
        a = self._spec.action
        p = self.actor
        if a is Action.INCOME:
            self._gain(p, 1)
        elif a is Action.FOREIGN_AID:
            self._gain(p, 2)
        elif a is Action.TAX:
            self._gain(p, 3)
        elif a is Action.STEAL:
            t = self._target
            amount = min(2, self.coins[t])
            self.coins[t] -= amount
            self.coins[p] += amount
        elif a is Action.COUP or a is Action.ASSASSINATE:
            t = self._target
            if self.alive[t]:
                self._start_loss(t, "couped" if a is Action.COUP else "assassinated", "effect")
                return
        elif a is Action.EXCHANGE:
            drawn = self.chance.draw(self.deck, self.variant.exchange_draw)
            self._raw.append(("draw", p, {"player": p, "cards": tuple(drawn),
                                            "why": "exchange"}))
            self._pool = self.hidden[p] + drawn
            self.phase = Phase.EXCHANGE
            self.decider = p
            return
        self._end_turn()

    def _finish_exchange(self, move: Move) -> None:
        p = self.actor
        kept = list(move.cards or ())
        rest = list(self._pool)
        for c in kept:
            rest.remove(c)
        self.hidden[p] = kept
        self.deck.extend(rest)
        self._raw.append(("return", p, {"player": p, "cards": tuple(rest)}))
        self._raw.append(("exchanged", EVERYONE, {"player": p, "returned": len(rest)}))
        self._end_turn()

    def _gain(self, p: int, amount: int) -> None:
        if self.treasury is not None:
            amount = min(amount, self.treasury)
            self.treasury -= amount
        self.coins[p] += amount

    def _refund(self) -> None:
        cost = self._spec.cost
        if cost and self.alive[self.actor]:
            self._gain(self.actor, cost)

    def _replace(self, p: int, card: Character) -> None:
        """A proven card goes back to the court deck, which is shuffled; draw a replacement."""
        self.hidden[p].remove(card)
        self.deck.append(card)
        self.chance.shuffle(self.deck)
        new = self.chance.draw(self.deck, 1)
        self.hidden[p].extend(new)
        self._raw.append(("draw", p, {"player": p, "cards": tuple(new), "why": "replacement"}))

    def _start_loss(self, p: int, reason: str, then: str) -> None:
        self.phase = Phase.LOSE
        self.decider = p
        self._loss_reason = reason
        self._then = then

    def _lose(self, p: int, card: Character, reason: str) -> None:
        self.hidden[p].remove(card)
        self.revealed[p].append(card)
        self._raw.append(("lost", EVERYONE, {"player": p, "card": card, "reason": reason}))
        if not self.hidden[p]:
            self._eliminate(p)

    def _eliminate(self, p: int) -> None:
        self.alive[p] = False
        self._alive_mask &= ~(1 << p)
        self._raw.append(("eliminated", EVERYONE, {"player": p}))
        if (p == self._target and self._spec.action is Action.STEAL
                and self.options.steal_from_eliminated):
            self._deferred.append(p)  # the thief still takes the coins (rulebook example)
        else:
            self._return_coins(p)
        living = self.living()
        if len(living) == 1:
            for q in self._deferred:
                self._return_coins(q)
            self._deferred = []
            self.winner = living[0]
            self.phase = Phase.OVER
            self.is_over = True
            self._legal = None
            self._raw.append(("game_over", EVERYONE, {"winner": living[0]}))

    def _return_coins(self, p: int) -> None:
        if self.treasury is not None:
            self.treasury += self.coins[p]
        self.coins[p] = 0

    def _end_turn(self) -> None:
        for q in self._deferred:
            self._return_coins(q)
        self._reset_turn()
        self.turn += 1
        alive = self.alive
        for q in self._rot[self.actor]:
            if alive[q]:
                self.actor = q
                break
        self.phase = Phase.ACTION
        self.decider = self.actor
        self._raw.append(("turn", EVERYONE, {"turn": self.turn, "player": self.actor}))

    # ----------------------------------------------------------------- the log
    @property
    def log(self) -> list[Event]:
        """Every event so far, public and private, in order: enough to replay the game.

        Play records bare moves and tuples, the cheapest things to append in the inner loop;
        they become Events here, once, when someone reads the log.
        """
        events = self._events
        raw = self._raw
        for i in range(len(events), len(raw)):
            r = raw[i]
            if isinstance(r, Move):
                events.append(Event("move", r.player if r.kind is MoveKind.KEEP else None,
                                    {"move": r}))
            elif r[0] == "setup" and isinstance(r[2], tuple):
                events.append(Event("setup", NOBODY, self._setup_snapshot(r[2])))
            else:
                events.append(Event(r[0], r[1], r[2]))
        return events

    @log.setter
    def log(self, events: list[Event]) -> None:
        self._raw = list(events)
        self._events = list(events)

    def _setup_snapshot(self, start: tuple[Any, ...]) -> dict[str, Any]:
        hands, revealed, coins, deck, treasury, first = start
        return {
            "variant": self.variant.name,
            "options": self.options.as_dict(),
            "names": list(self.names),
            "hands": [list(h) for h in hands],
            "revealed": [list(r) for r in revealed],
            "coins": list(coins),
            "deck": list(deck),
            "treasury": treasury,
            "first": first,
        }

    # ----------------------------------------------------------------- views
    def observation(self, player: int):  # -> Observation (import cycle kept out of the hot path)
        from trainer.observation import observe

        return observe(self, player)


def _restore(state: dict[str, Any]) -> Game:
    variant = get_variant(state["variant"])
    game = Game(names=state["names"], hands=state["hidden"], coins=state["coins"],
                deck=state["deck"], first=state["actor"], variant=variant,
                options=state["options"], chance=state["chance"], treasury=state["treasury"],
                _dealt=True)
    game.revealed = state["revealed"]
    game.alive = state["alive"]
    game._alive_mask = sum(1 << p for p in range(game.n) if game.alive[p])
    game.turn = state["turn"]
    game.decider = state["decider"]
    game.phase = state["phase"]
    game.winner = state["winner"]
    game.is_over = state["phase"] is Phase.OVER
    game._raw = state["raw"]
    game._events = []
    spec = state["spec"]
    game._spec = game._specs[spec] if spec is not None else _NO_ACTION
    game._target = state["target"]
    game._challenger = state["challenger"]
    game._blocker = state["blocker"]
    game._block_char = state["block_char"]
    game.target_lost_challenge = state["target_lost_challenge"]
    game._loss_reason = state["loss_reason"]
    game._then = state["then"]
    game._poll = state["poll"]
    game._pool = state["pool"]
    game._deferred = state["deferred"]
    return game


_CP_MOVES: dict[int, tuple[Move, ...]] = {}
_ACTION_MOVES: dict[int, tuple[Move, ...]] = {}
_LOSE_MOVES: dict[int, tuple[Move, ...]] = {}
_PROVE_MOVES: dict[int, tuple[Move, ...]] = {}
_BLOCK_MOVES: dict[tuple[int, tuple[Character, ...]], tuple[Move, ...]] = {}
_CODES: dict[str, int] = {}
_VARIANT_IDS: dict[str, int] = {}


def _code(card: str) -> int:
    """A small number per card name (1–15), for the move tables' keys."""
    code = _CODES.get(card)
    if code is None:
        code = _CODES[card] = len(_CODES) + 1
        if code > 15:
            raise ValueError("the move tables hold at most 15 different characters")
    return code


def _variant_id(name: str) -> int:
    vid = _VARIANT_IDS.get(name)
    if vid is None:
        vid = _VARIANT_IDS[name] = len(_VARIANT_IDS)
    return vid
_DEFAULT_OPTIONS = Options()


@cache
def _spec_map(variant_name: str) -> dict[Action, ActionSpec]:
    # Keyed by name: hashing the frozen Variant would hash every row of its tables.
    return {s.action: s for s in get_variant(variant_name).actions}


@cache
def _court(variant_name: str, n: int) -> tuple[Character, ...]:
    return tuple(get_variant(variant_name).court(n))


@cache
def _default_names(n: int) -> tuple[str, ...]:
    return tuple(f"Player {i + 1}" for i in range(n))


@cache
def _starting_coins(variant_name: str, n: int, first: int) -> tuple[int, ...]:
    variant = get_variant(variant_name)
    return tuple(variant.starting_coins(n, (i - first) % n) for i in range(n))


@cache
def _rotations(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the other seats in clockwise order."""
    return tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n))


_NO_ACTION = ActionSpec(Action.INCOME, None, 0, False, (), "nobody", "", "")


def _card(move: Move) -> Character:
    assert move.character is not None  # every SHOW, LOSE and BLOCK move names its card
    return move.character


def _distinct(cards: list[Character]) -> list[Character]:
    if len(cards) == 2 and cards[0] == cards[1]:
        return [cards[0]]
    return list(dict.fromkeys(cards))
