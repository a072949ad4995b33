"""A game at a table, live: rebuilt from the database, moved by phones, bots and the clock.

Why rebuilt and not kept: the database holds the truth (the game's seed and its moves), so a
reload, a closed tab, a server restart or a second server process all find the same game.
Each process keeps the game it last rebuilt (`Live`) and, before every read or move, applies
the moves other processes wrote since; a move that the database refuses (`Stale`: another
move came first) throws this copy away, and the next read rebuilds it.

Why the engine checks every move here, at the version the phone saw: a button is drawn when
the game was at move N; the move is played only if the game is still at N, is legal there
(`Game.as_legal`, the engine's error otherwise) and is the seat's own decision. The store then
writes it only if the database still says N, so two phones pressing at once never both move,
across processes too.

Who moves the bots: nobody in particular. Every poll (each phone's and the screen's) calls
`tick`, which plays what is due: a bot's move once the table's pace has passed since the last
move, a person's forced loss of a last card at once, the time-out rule's move once a clock
runs out, and the stand-in for a person whose phone has been gone too long. Polls racing to
play the same bot move all compute the same move (each decision's random stream comes from
the seed and the move's number, as on the Play page), and the store keeps the first.

What leaves this module for a page: an `Observation` of one seat (`seat_view`) or of nobody
(`public_view`: the screen), never the game; the seed stays inside.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from trainer.bots.tournament import every_persona
from trainer.engine.cards import Action
from trainer.engine.errors import MoveError
from trainer.engine.explain import SECOND_PERSON
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.notation import move_text, parse
from trainer.engine.observation import Observation, Seat, observe
from trainer.i18n import tr
from trainer.learners.answers import now as clock_now
from trainer.play.assess import judged_claim
from trainer.play.record import GameRecord
from trainer.play.setup import LEARNER
from trainer.policies.runner import Bot, Runner, forced_loss, move_streams
from trainer.policies.runner import Stale as RunnerStale
from trainer.tables.model import STAND_IN, GameTable, MadeBy, TableGame, TableSeat
from trainer.tables.store import Stale, TableError, TableGone, TableStore

# A phone's poll writes "seen" at most this often: 30 phones polling every second would
# otherwise be 30 writes a second.
SEEN_EVERY = timedelta(seconds=10)
# A server keeps at most this many tables' games rebuilt (a school's or a shop's day of tables
# is far fewer); one used longer ago is rebuilt from the database if it is asked for again.
KEPT_GAMES = 64
# At most this many moves are made in one tick (forced losses come in a row; bots wait for
# the table's pace between moves, so a tick rarely makes more than one).
TICK_MOVES = 8


class NotYourTurn(TableError):
    """A move from a seat whose decision it is not, or after the game ended."""


@dataclass(frozen=True)
class SeatView:
    """What one phone may see: its seat's observation and how the table stands."""

    table: GameTable
    seat: TableSeat
    number: int  # the game's number at the table; 0 before the first deal
    version: int  # the game's moves: what a move from this view is checked against
    observation: Observation | None  # None before the first deal
    deadline: datetime | None  # when the decision on the table times out (clock on)
    hands: tuple[tuple[str, ...], ...] | None  # every hand, once the game is over
    words: Any = None  # what the page's `words(game, seat)` made of the seat's decision
    claim: bool = False  # the decision judges a claim: the phone may state a chance


@dataclass(frozen=True)
class PublicView:
    """What the screen may see: the table with no hidden card, until the game is over."""

    table: GameTable
    number: int
    version: int
    observation: Observation | None
    deadline: datetime | None
    hands: tuple[tuple[str, ...], ...] | None  # every hand, once the game is over
    waiting_for: str | None  # the name of whoever must decide now


class Live:
    """One game of one table as this process last rebuilt it."""

    def __init__(self, code: str, game: TableGame, seats: tuple[TableSeat, ...]) -> None:
        self.code = code
        self.number = game.number
        self.seed = game.seed
        self.lock = threading.RLock()
        # Set when a write of this copy's was refused: its game is ahead of the database, and
        # a reader that took it before it was thrown away must not use it (`Tables._locked`).
        self.broken = False
        personas = [(s.bot if s.bot else "honest") for s in seats]
        bots: dict[int, Bot] = {i: every_persona()[key] for i, key in enumerate(personas)}
        g = Game.new(list(game.names), seed=game.seed, variant=game.rules)
        self.runner = Runner(g, bots, move_streams(game.seed),
                             new_game_streams={i: random.Random(f"{game.seed}:{i}")
                                               for i in bots},
                             per_decision=True)

    @property
    def game(self) -> Game:
        return self.runner.game

    @property
    def version(self) -> int:
        return self.runner.version

    def catch_up(self, store: TableStore) -> None:
        """Apply the moves written since this copy's version (by any process)."""
        for m in store.moves(self.code, self.number, since=self.version):
            if m.index != self.version:
                raise TableError(tr("Table {code}: move {number} is missing from the "
                                    "database.", code=self.code, number=m.index + 1))
            try:
                self.runner.apply(parse(m.move), self.version)
            except (MoveError, ValueError) as e:
                raise TableError(tr("Table {code}: move {number} {move} does not replay: "
                                    "{problem}", code=self.code, number=m.index + 1,
                                    move=repr(m.move), problem=e)) from e


def public_observation(game: Game) -> Observation:
    """The table as someone with no seat sees it (the screen): every seat's coins and face-up
    cards, the public events, no hand, no private event, no legal move."""
    seat0 = observe(game, 0, events=False)
    events = tuple(e for e in game.log if e.visible_to is None)
    return Observation(
        -1, seat0.variant, dict(seat0.options), seat0.seats, (), seat0.treasury,
        seat0.deck_size, seat0.turn, seat0.actor, seat0.pending, (), (), events,
        seat0.winner, seat0.reserve, seat0.mat_face_down, seat0.mat_up, seat0.mat_coins,
        seat0.mat_pending, seat0.mat_clock, seat0.removed, (), seat0.rules,
        seat0.table_rules)


def as_you(obs: Observation) -> Observation:
    """The observation with its own seat named "You": a phone's table and timeline then read
    "Your turn" and "You challenged", as the Play page does."""
    seats = tuple(Seat(SECOND_PERSON, s.coins, s.influence, s.revealed, s.alive, s.allegiance)
                  if p == obs.player else s for p, s in enumerate(obs.seats))
    fields: list[Any] = [seats if f == "seats" else getattr(obs, f)
                         for f in Observation.FIELDS]
    return Observation(*fields)


def timeout_move(game: Game, rng: random.Random) -> Move | None:
    """The time-out rule of the forum variant (`../shared/rules/002_*.txt`, "Time Limit"),
    for any rule set: on a turn, Income, or a Coup on a random player when the rules force a
    Coup (10+ coins); in a window to challenge or block, a pass ("the action will pass
    through"). None where the text gives no default (which card to lose, which to keep, to
    show a card): the table's stand-in bot decides those. Why not `Game.timeout_move`: that
    one draws the Coup's target from the game's own random stream, which a game rebuilt
    from its moves would not repeat; here the stream is the table's own."""
    if game.is_over:
        return None
    legal = game.legal_moves()
    if game.phase is Phase.ACTION:
        income = [m for m in legal if m.kind is MoveKind.ACT and m.action is not None
                  and m.action is Action.INCOME]
        if income:
            return income[0]
        coups = [m for m in legal if m.kind is MoveKind.ACT and m.action is not None
                 and m.action is Action.COUP]
        return coups[rng.randrange(len(coups))] if coups else None
    passing = [m for m in legal if m.kind is MoveKind.PASS]
    return passing[0] if passing else None


def record_id(code: str, number: int, seat: int) -> str:
    """A game's name as one seat's record (`GameRecord.game_id`): the same each time, so a
    review valued once is found again."""
    digest = hashlib.sha256(f"table:{code}:{number}:{seat}".encode()).digest()
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(alphabet[b % len(alphabet)] for b in digest[:12])


def hands_of(game: Game) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(c) for c in game.hidden[p]) for p in range(game.n))


class Tables:
    """Every table this process serves, over one store."""

    def __init__(self, store: TableStore, clock: Callable[[], datetime] = clock_now) -> None:
        self.store = store
        self.clock = clock
        self._live: dict[str, Live] = {}
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, int], datetime] = {}
        self._ticked: dict[str, float] = {}

    # ----------------------------------------------------------------- the live copy
    def _copy(self, table: GameTable) -> Live | None:
        """This process's copy of the table's current game (made if there is none)."""
        if table.game == 0:
            return None
        with self._lock:
            live = self._live.get(table.code)
            if live is None or live.number != table.game or live.broken:
                game = self.store.game(table.code, table.game)
                if game is None:
                    return None
                live = self._live[table.code] = Live(table.code, game, table.seats)
                while len(self._live) > KEPT_GAMES:  # the table used longest ago goes
                    self._live.pop(next(iter(self._live)))
            else:
                self._live[table.code] = self._live.pop(table.code)  # used now: kept last
            return live

    @contextmanager
    def _locked(self, table: GameTable) -> Iterator[Live | None]:
        """The copy of the table's game, caught up with the database, its lock held for the
        block (None before the first deal). A copy thrown away while this waited for its
        lock (a write of another thread's was refused) is not used: a new one is made."""
        for _ in range(5):
            live = self._copy(table)
            if live is None:
                yield None
                return
            with live.lock:
                if live.broken:
                    continue
                try:
                    live.catch_up(self.store)
                except TableError:
                    self._throw_away(live)
                    raise
                yield live
                return
        raise TableError(tr("Table {code} is busy: try again.", code=table.code))

    def _throw_away(self, live: Live) -> None:
        live.broken = True
        with self._lock:
            if self._live.get(live.code) is live:
                del self._live[live.code]

    def _deadline(self, table: GameTable, number: int, over: bool) -> datetime | None:
        clock = table.settings.clock
        if clock is None or over:
            return None
        game = self.store.game(table.code, number)
        if game is None:
            return None
        return game.moved_at + clock

    # ----------------------------------------------------------------- reading
    def seat_view(self, code: str, token: str,
                  words: Callable[[Game, int], Any] | None = None) -> SeatView:
        """A phone's view of the table: its own seat only, its own name written "You".
        TableError if the token holds no seat here.

        `words(game, seat)` is called, under the lock, only when the decision is this seat's:
        the page's button labels and question, which read the game as the seat may (their
        own moves, the public table). What it returns is all that leaves with the view."""
        table = self.store.live_table(code)
        seat = self._my_seat(table, token)
        with self._locked(table) as live:
            if live is None:
                return SeatView(table, seat, 0, 0, None, None, None)
            game = live.game
            obs = as_you(observe(game, seat.seat))
            over = game.is_over
            hands = hands_of(game) if over else None
            version, number = live.version, live.number
            mine = not over and game.decider == seat.seat
            said = words(game, seat.seat) if words is not None and mine else None
            claim = mine and judged_claim(game) is not None
        return SeatView(table, seat, number, version, obs,
                        self._deadline(table, number, over), hands, said, claim)

    def public_view(self, code: str, screen: str) -> PublicView:
        """The screen's view: no hidden card until the game is over."""
        table = self.store.screen_table(code, screen)
        with self._locked(table) as live:
            if live is None:
                return PublicView(table, 0, 0, None, None, None, None)
            game = live.game
            obs = public_observation(game)
            over = game.is_over
            hands = hands_of(game) if over else None
            waiting = None if over else game.names[game.decider]
            version, number = live.version, live.number
        return PublicView(table, number, version, obs, self._deadline(table, number, over),
                          hands, waiting)

    def finished_record(self, code: str, number: int, seat: int | None) -> GameRecord:
        """A finished game of the table as the Play page's record: for `seat`'s review (that
        seat is "You", their stated chances kept), or with every player under their own
        name (`seat` None: the screen's look back). Only once the game is over: the record
        holds the seed, which deals the cards. TableError before that."""
        game = self.store.game(code, number)
        if game is None:
            raise TableError(tr("Table {code} has no game {number}.", code=code, number=number))
        if game.finished_at is None:
            raise TableError(tr("The review opens when the game is over."))
        moves = self.store.moves(code, number)
        learner = 0 if seat is None else seat
        labels = tuple(SECOND_PERSON if p == seat else name
                       for p, name in enumerate(game.names))
        seats = tuple(LEARNER if p == learner else STAND_IN for p in range(len(game.names)))
        stated = {m.index: m.stated for m in moves
                  if seat is not None and m.seat == seat and m.stated is not None}
        return GameRecord(game_id=record_id(code, number, learner), learner="table",
                          variant=game.rules, seed=game.seed, seats=seats,
                          moves=[m.move for m in moves], stated=stated, labels=labels,
                          started_at=game.started_at, finished_at=game.finished_at)

    def _my_seat(self, table: GameTable, token: str) -> TableSeat:
        seat = self.store.my_seat(table.code, token)
        if seat is None:
            raise TableError(tr("This link's seat is not at table {code}: join again with "
                                "the code.", code=table.code))
        return seat

    def seen(self, code: str, token: str) -> None:
        """A phone's poll: its seat is still in use (written at most every `SEEN_EVERY`, or
        at once when the stand-in was playing for it)."""
        seat = self.store.my_seat(code, token)
        if seat is None:
            return
        now = self.clock()
        last = self._seen.get((code, seat.seat))
        if seat.away or last is None or now - last >= SEEN_EVERY:
            self.store.seen(code, token)
            self._seen[(code, seat.seat)] = now

    # ----------------------------------------------------------------- moving
    def play(self, code: str, token: str, move: Move, version: int,
             stated: float | None = None) -> None:
        """A person's move, from a button drawn when the game had `version` moves: `Stale`
        if it has moved since, `NotYourTurn` if the decision is not this seat's, the engine's
        `MoveError` if the rules refuse it; nothing changes in any of those cases."""
        table = self.store.live_table(code)
        seat = self._my_seat(table, token)
        if table.status != "playing":
            raise NotYourTurn(tr("No game is being played at this table now."))
        with self._locked(table) as live:
            if live is None:
                raise NotYourTurn(tr("No game has been dealt at this table yet."))
            if version != live.version:
                raise Stale(tr("The table moved on since your buttons were drawn: here it "
                               "is now."))
            game = live.game
            if game.is_over:
                raise NotYourTurn(tr("The game is over."))
            if game.decider != seat.seat:
                raise NotYourTurn(tr("It is {name}'s decision, not yours.",
                                     name=game.names[game.decider]))
            legal = game.as_legal(move)
            if legal.player != seat.seat:
                raise NotYourTurn(tr("That move is another player's."))
            self._write(table, live, legal, "person", stated)
        if seat.away:
            self.store.seen(code, token)
        self.tick(code)

    def _write(self, table: GameTable, live: Live, move: Move, made_by: MadeBy,
               stated: float | None = None) -> None:
        """Apply `move` to this copy and write it at this copy's version; if the database
        refuses (another move came first), this copy is thrown away. Under `live.lock`."""
        index = live.version
        try:
            live.runner.apply(move, index)
        except RunnerStale as e:
            raise Stale(str(e)) from e
        game = live.game
        try:
            self.store.add_move(table.code, live.number, index, move_text(move), move.player,
                                made_by, stated, over=game.is_over, winner=game.winner)
        except TableError:
            self._throw_away(live)
            raise

    def tick(self, code: str, every: float = 0.0) -> int:
        """Play whatever is due at the table (see the module's docstring); the number of
        moves made. Racing ticks are harmless: the store keeps the first of each move.
        `every`: do nothing if this server ticked the table less than that many seconds ago
        (every tab of the table polls; one of them at a time is enough)."""
        if every:
            now = time.monotonic()
            with self._lock:
                if now - self._ticked.get(code, -every) < every:
                    return 0
                self._ticked[code] = now
        made = 0
        for _ in range(TICK_MOVES):
            try:
                table = self.store.table(code)
            except TableGone:
                return made
            if table.status != "playing":
                return made
            try:
                moved = self._tick_once(table)
            except Stale:
                return made
            if not moved:
                return made
            made += 1
        return made

    def _tick_once(self, table: GameTable) -> bool:
        game_row = self.store.game(table.code, table.game)
        if game_row is None or game_row.finished_at is not None:
            return False
        now = self.clock()
        since = now - game_row.moved_at
        settings = table.settings
        with self._locked(table) as live:
            if live is None or live.version != game_row.moves:
                # The game moved after its row was read: the time since its last move is
                # that of an earlier move, so nothing is due on it; the next poll looks again.
                return False
            game = live.game
            if game.is_over:
                return False
            p = game.decider
            seat = table.seats[p] if p < len(table.seats) else None
            kind = game_row.kinds[p]
            if kind == "bot" or (seat is not None and seat.away):
                if since < timedelta(seconds=settings.bot_pace):
                    return False
                self._write(table, live, live.runner.decide(),
                            "bot" if kind == "bot" else "stand_in")
                return True
            forced = forced_loss(game)
            if forced is not None:
                self._write(table, live, forced, "forced")
                return True
            clock = settings.clock
            if clock is not None and since >= clock:
                rng = random.Random(f"{live.seed}:timeout:{live.version}")
                move = timeout_move(game, rng) or live.runner.decide()
                self._write(table, live, move, "timeout")
                return True
        if (settings.stand_in_after and seat is not None and seat.kind == "person"
                and not seat.away):
            gone = now - timedelta(seconds=settings.stand_in_after)
            if seat.seen_at is None or seat.seen_at < gone:
                return self.store.mark_away(table.code, p, gone) and False
        return False
