"""What one player may see. Bots, coaches and pages read the table only through this.

It is built from the game by copying public fields and that player's own private ones, never by
copying the game and deleting secrets, so a new secret field cannot leak by default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from trainer.engine.cards import Character
from trainer.engine.frozen import Frozen
from trainer.engine.moves import Move
from trainer.engine.rules import Options, Variant

if TYPE_CHECKING:
    from trainer.engine.game import Decision, Event, Game

class Seat(Frozen):
    """One seat as everyone sees it."""

    FIELDS: ClassVar[tuple[str, ...]] = ("name", "coins", "influence", "revealed", "alive",
                                         "allegiance")

    def __init__(self, name: str, coins: int, influence: int,
                 revealed: tuple[Character, ...], alive: bool,
                 allegiance: str | None = None) -> None:
        self.name: Final = name
        self.coins: Final = coins
        self.influence: Final = influence  # face-down cards
        self.revealed: Final = revealed
        self.alive: Final = alive
        self.allegiance: Final = allegiance  # Reformation

    def __setattr__(self, name: str, value: object) -> None:
        self._set_once(name, value)


class Observation(Frozen):
    """What `player` may see of the table (see the module's docstring); a `Frozen` record,
    not a frozen dataclass, because rollouts build one at every decision of every playout."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "player", "variant", "options", "seats", "hand", "treasury", "deck_size", "turn",
        "actor", "pending", "legal_moves", "exchange_pool", "events", "winner", "reserve",
        "mat_face_down", "mat_up", "mat_coins", "mat_pending", "mat_clock", "removed", "offers",
        "rules", "table_rules")

    def __init__(self, player: int, variant: str, options: dict[str, Any],
                 seats: tuple[Seat, ...], hand: tuple[Character, ...], treasury: int | None,
                 deck_size: int, turn: int, actor: int, pending: Decision | None,
                 legal_moves: tuple[Move, ...], exchange_pool: tuple[Character, ...],
                 events: tuple[Event, ...], winner: int | None, reserve: int = 0,
                 mat_face_down: int = 0, mat_up: tuple[Character, ...] = (),
                 mat_coins: int = 0, mat_pending: tuple[str, ...] = (),
                 mat_clock: tuple[int, int, int] | None = None, removed: int = 0,
                 offers: tuple[tuple[Character, ...], ...] = (), rules: Variant | None = None,
                 table_rules: Options | None = None) -> None:
        self.player: Final = player
        # The rule set's compact description (its name), for display and records.
        self.variant: Final = variant
        self.options: Final = options
        self.seats: Final = seats
        self.hand: Final = hand
        self.treasury: Final = treasury
        self.deck_size: Final = deck_size
        self.turn: Final = turn
        self.actor: Final = actor
        self.pending: Final = pending
        self.legal_moves: Final = legal_moves
        self.exchange_pool: Final = exchange_pool
        self.events: Final = events
        self.winner: Final = winner
        # Variant parts of the table (empty or zero in the base game).
        self.reserve: Final = reserve
        self.mat_face_down: Final = mat_face_down
        self.mat_up: Final = mat_up
        self.mat_coins: Final = mat_coins
        # McGuire's mat, public: the events still to come (in order) and its clock (the
        # game's first player, how many of their turns have begun, how many cards have been
        # lost): what a player who rebuilds the table from what they saw needs to run the mat.
        self.mat_pending: Final = mat_pending
        self.mat_clock: Final = mat_clock
        self.removed: Final = removed  # draft: cards out of the game, face down
        self.offers: Final = offers  # draft: only this player's own set
        # The rule set and table rules themselves, as values: what a bot reads the rules
        # from (looking a rule set up by its name would lose anything a name does not say).
        self.rules: Final = rules
        self.table_rules: Final = table_rules

    def __setattr__(self, name: str, value: object) -> None:
        self._set_once(name, value)

    @property
    def rule_set(self) -> Variant:
        """The rule set being played (read from its description only for an observation made
        without one)."""
        if self.rules is not None:
            return self.rules
        from trainer.engine.variants import get_variant

        return get_variant(self.variant)

    def legal_moves_for(self, hand: Sequence[Character]) -> tuple[Move, ...]:
        """The moves the player deciding now would have had with `hand`, read from the
        public table only: what an observer needs to weigh each hand an opponent might hold
        by the move it saw (`trainer.engine.game.decision_moves` says which decisions)."""
        if self.pending is None:
            return ()
        from trainer.engine.game import decision_moves

        sides = [s.allegiance or "" for s in self.seats] if self.seats[0].allegiance else []
        return decision_moves(self.rule_set, self.pending, hand,
                              [s.coins for s in self.seats], [s.alive for s in self.seats],
                              sides, self.reserve, self.table_rules, self.treasury)

    def seen_privately(self) -> list[tuple[str, tuple[Character, ...]]]:
        """Cards this player saw that others did not: draws, replacements and returns."""
        return [(e.kind, e.data["cards"]) for e in self.events
                if e.visible_to == self.player and "cards" in e.data]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON, the browser and tests."""
        pending = None
        if self.pending is not None:
            d = self.pending
            pending = {
                "phase": str(d.phase), "player": d.player, "actor": d.actor,
                "action": d.action and str(d.action), "target": d.target,
                "claim": d.claim and str(d.claim), "challenger": d.challenger,
                "blocker": d.blocker, "block_character": d.block_character and str(
                    d.block_character), "loss_reason": d.loss_reason,
            }
        return {
            "player": self.player,
            "variant": self.variant,
            "options": dict(self.options),
            "seats": [
                {"name": s.name, "coins": s.coins, "influence": s.influence,
                 "revealed": [str(c) for c in s.revealed], "alive": s.alive,
                 "allegiance": s.allegiance}
                for s in self.seats
            ],
            "hand": [str(c) for c in self.hand],
            "treasury": self.treasury,
            "deck_size": self.deck_size,
            "turn": self.turn,
            "actor": self.actor,
            "pending": pending,
            "legal_moves": [str(m) for m in self.legal_moves],
            "exchange_pool": [str(c) for c in self.exchange_pool],
            "events": [{"kind": e.kind, "visible_to": e.visible_to,
                        "data": {k: _plain(v) for k, v in e.data.items()}} for e in self.events],
            "winner": self.winner,
            "reserve": self.reserve,
            "mat_face_down": self.mat_face_down,
            "mat_up": [str(c) for c in self.mat_up],
            "mat_coins": self.mat_coins,
            "mat_pending": list(self.mat_pending),
            "mat_clock": list(self.mat_clock) if self.mat_clock is not None else None,
            "removed": self.removed,
            "offers": [[str(c) for c in o] for o in self.offers],
        }


def _plain(value: Any) -> Any:
    if isinstance(value, Move):
        return str(value)
    if isinstance(value, tuple | list):
        return [str(v) for v in value]
    return value


def observe(game: Game, player: int, events: bool = True) -> Observation:
    """`events=False` leaves the log out: a rollout's bots decide from the table alone, and
    copying the whole visible log at every decision is most of an observation's cost.

    Rollouts observe some 40 times a playout, so the rest is kept lean too: seats are built
    once per distinct public state of a seat and shared (they are frozen), the table rules'
    plain form is copied from one made per set of table rules, and the records are
    `Frozen` (a compiled `__init__`) rather than frozen dataclasses."""
    n = game.n
    if not 0 <= player < n:
        raise ValueError(f"there is no player {player}")
    mine = game.decider == player and not game.is_over
    names, coins, hidden, revealed, alive = (game.names, game.coins, game.hidden,
                                             game.revealed, game.alive)
    sides = game.sides
    seats = []
    for p in range(n):
        side = str(sides[p]) if sides else None
        key = (names[p], coins[p], len(hidden[p]), tuple(revealed[p]), alive[p], side)
        seat = _SEATS.get(key)
        if seat is None:
            if len(_SEATS) >= _SEATS_KEPT:
                _SEATS.clear()
            seat = _SEATS[key] = Seat(*key)
        seats.append(seat)
    options = game.options
    plain = _OPTIONS.get(id(options))
    if plain is None or plain[0] is not options:
        if len(_OPTIONS) >= _SEATS_KEPT:
            _OPTIONS.clear()
        plain = _OPTIONS[id(options)] = (options, options.as_dict())
    offers = game.offers
    variant = game.variant
    return Observation(
        player, variant.name, dict(plain[1]), tuple(seats), tuple(hidden[player]),
        game.treasury, len(game.deck), game.turn, game.actor, game.pending,
        game.legal_moves() if mine else (),
        game.exchange_pool() if mine else (),
        tuple(game.visible_events(player)) if events else (),
        game.winner, game.reserve, len(game.mat_cards), tuple(game.mat_up), game.mat_coins,
        tuple(game.mat_pending), game.mat_clock if game.mat_pending else None,
        len(game.removed),
        tuple([tuple(o) if q == player else () for q, o in enumerate(offers)]) if offers
        else (),
        variant, options,
    )


# Seats already built, by their fields: a table's seats change one at a time, so most
# observations find every seat here. Cleared when full (names are the only open-ended field).
_SEATS: dict[tuple[str, int, int, tuple[Character, ...], bool, str | None], Seat] = {}
_SEATS_KEPT = 4096
# The table rules' plain form, by the rules object (kept with it, so an id is never reused
# while its entry stands).
_OPTIONS: dict[int, tuple[Options, dict[str, Any]]] = {}
