"""Game tables, their seats, games and moves in the database, with every check made here.

Why the checks live in the store: anyone can send any widget value to the server. A host step
takes the host token and is compared with its stored hash; a phone's call takes its seat
token, of which only a hash is kept; the screen holds a key derived from the table's secret
(`trainer.rooms.codes.screen_token`) that reads what everyone at the table may see and
changes nothing.

Why a move is written as "the move number N of game G, if the game has N moves": a table is
played from several phones, the screen and the bots at once, perhaps from several server
processes. `add_move` inserts the move under the primary key (table, game, N) and moves the
game's count from N to N + 1 in one transaction, only where it is still N; a second move made
on the same version finds the count moved (or the key taken) and is refused with `Stale`,
changing nothing. The rules themselves are checked by the engine before the call
(`trainer.tables.live`): the store keeps order, the engine keeps the rules.

What a phone polls is `pulse`: one indexed read of the table's version and status. Every change
a phone or the screen shows (a seat taken, a deal, a move) moves the version on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from hmac import compare_digest as hmac_equal
from typing import Any

from pydantic import ValidationError
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError

from trainer.database.stores import MigratedStore, aware
from trainer.i18n import tr
from trainer.learners.answers import now as clock_now
from trainer.play.setup import BOTS, MAX_SEED
from trainer.rooms.codes import (
    is_room_code,
    is_token,
    new_room_code,
    new_token,
    same_token,
    screen_token,
    token_hash,
)
from trainer.rooms.nicknames import name_problem
from trainer.tables.model import (
    MADE_BY,
    STATUSES,
    GameTable,
    MadeBy,
    SeatKind,
    Status,
    TableGame,
    TableMove,
    TableSeat,
    TableSettings,
)

# A table lives this long after its last change; then its code says it has expired.
LIFETIME = timedelta(hours=12)

# Names a person cannot take: each phone calls its own seat "You", and the review and the
# timelines say "you"; a player called that would read as someone else's own seat.
RESERVED_NAMES = frozenset({"you", "your", "yours"})

metadata = MetaData()

tables_table = Table(
    "game_tables", metadata,
    Column("code", String(8), primary_key=True),
    Column("host_hash", String(64), nullable=False),
    Column("join_secret", String(64), nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(12), nullable=False),
    Column("game", Integer, nullable=False),  # the current game's number, 0 before a deal
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

table_seats_table = Table(
    "table_seats", metadata,
    Column("table_code", String(8), ForeignKey("game_tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open, person or bot
    Column("bot", String(16), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("nickname", String(40), nullable=True),
    Column("name_key", String(40), nullable=True),  # casefolded: one "Ann" per table
    Column("browser", String(64), nullable=True),
    Column("joined_at", DateTime(timezone=True), nullable=True),
    Column("seen_at", DateTime(timezone=True), nullable=True),
    Column("away", Boolean, nullable=False, server_default=false()),
    UniqueConstraint("token_hash", name="uq_table_seats_token"),
    UniqueConstraint("table_code", "name_key", name="uq_table_seats_name"),
)

table_games_table = Table(
    "table_games", metadata,
    Column("table_code", String(8), ForeignKey("game_tables.code"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seed", Integer, nullable=False),
    Column("rules", Text, nullable=False),
    Column("players", Text, nullable=False),  # JSON: [[name, kind], ...] in seat order
    Column("moves", Integer, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("moved_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("winner", Integer, nullable=True),
)

table_moves_table = Table(
    "table_moves", metadata,
    Column("table_code", String(8), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("move", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("made_by", String(10), nullable=False),
    Column("stated", Float, nullable=True),
    Column("made_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["table_code", "game"],
                         ["table_games.table_code", "table_games.number"]),
)


class TableError(Exception):
    """Something a person asked of a table that cannot be done, worded for them."""


class HostOnly(TableError):
    """A host step without the table's host key."""


class ScreenOnly(TableError):
    """A screen read without the table's screen key."""


class TableGone(TableError):
    """A code that names no table, or a table that is closed or expired."""


class Stale(TableError):
    """A move made on a version of the game that is no longer the current one: another
    phone, a bot or the clock moved first."""


def _seat(row: Row[Any]) -> TableSeat:
    r = row._mapping
    kind: SeatKind = r["kind"] if r["kind"] in ("open", "person", "bot") else "open"
    return TableSeat(seat=int(r["seat"]), kind=kind, nickname=r["nickname"], bot=r["bot"],
                     away=bool(r["away"]), seen_at=aware(r["seen_at"]))


class TableStore(MigratedStore):
    """Game tables in one SQLAlchemy database (the answers' database: SQLite or
    PostgreSQL)."""

    failure = TableError
    tables = "the game tables"

    # ------------------------------------------------------------------ reading
    def _row(self, conn: Connection, code: str) -> GameTable:
        if not is_room_code(code):
            raise TableGone(tr("{code} is not a table code: expected 6 letters and digits.",
                               code=repr(code)))
        row = conn.execute(select(tables_table).where(tables_table.c.code == code)) \
            .mappings().first()
        if row is None:
            raise TableGone(tr("There is no table {code}. Check the code on the screen.",
                               code=code))
        try:
            settings = TableSettings.model_validate_json(row["settings"])
        except ValidationError as e:
            raise TableError(tr("Table {code} is damaged in the database: {problem}", code=code,
                                problem=e)) from e
        seats = conn.execute(select(table_seats_table).where(
            table_seats_table.c.table_code == code).order_by(table_seats_table.c.seat)).all()
        status: Status = row["status"] if row["status"] in STATUSES else "closed"
        created = aware(row["created_at"])
        expires = aware(row["expires_at"])
        assert created is not None and expires is not None
        return GameTable(code=code, settings=settings, status=status, game=int(row["game"]),
                         version=int(row["version"]), created_at=created, expires_at=expires,
                         seats=tuple(_seat(s) for s in seats), join_secret=row["join_secret"])

    def table(self, code: str) -> GameTable:
        """The table; TableGone for an unknown code."""
        with self._tx() as conn:
            return self._row(conn, code)

    def exists(self, code: str) -> bool:
        if not is_room_code(code):
            return False
        with self._tx() as conn:
            return conn.execute(select(tables_table.c.code).where(
                tables_table.c.code == code)).first() is not None

    def live_table(self, code: str) -> GameTable:
        """The table if it can still be used; TableGone saying why not."""
        table = self.table(code)
        if table.status == "closed":
            raise TableGone(tr("Table {code} is closed. Ask the host for the new code.",
                               code=code))
        if clock_now() > table.expires_at:
            raise TableGone(tr("Table {code} has expired (tables last {hours} hours after "
                               "their last move).", code=code, hours=LIFETIME.seconds // 3600))
        return table

    def pulse(self, code: str) -> tuple[int, str] | None:
        """The table's version and status: what every phone and the screen poll."""
        with self._tx() as conn:
            row = conn.execute(select(tables_table.c.version, tables_table.c.status)
                               .where(tables_table.c.code == code)).first()
        return None if row is None else (int(row[0]), str(row[1]))

    def game(self, code: str, number: int | None = None) -> TableGame | None:
        """A game of the table (the current one by default); None before the first deal.
        Its seed is for the live table alone."""
        with self._tx() as conn:
            if number is None:
                number = conn.execute(select(tables_table.c.game).where(
                    tables_table.c.code == code)).scalar_one_or_none()
                if number is None or number == 0:
                    return None
            row = conn.execute(select(table_games_table).where(
                table_games_table.c.table_code == code,
                table_games_table.c.number == number)).mappings().first()
        if row is None:
            return None
        players = json.loads(row["players"])
        started = aware(row["started_at"])
        moved = aware(row["moved_at"])
        assert started is not None and moved is not None
        return TableGame(number=int(row["number"]), seed=int(row["seed"]), rules=row["rules"],
                         names=tuple(str(p[0]) for p in players),
                         kinds=tuple(p[1] for p in players), moves=int(row["moves"]),
                         started_at=started, moved_at=moved,
                         finished_at=aware(row["finished_at"]), winner=row["winner"])

    def finished_games(self, limit: int = 2000) -> list[tuple[str, int]]:
        """(table, game number) of every game played to its end at any table of this
        database, the newest `limit`: what the venue's report reads."""
        g = table_games_table.c
        with self._tx() as conn:
            rows = conn.execute(select(g.table_code, g.number).where(
                g.finished_at.is_not(None), g.winner.is_not(None))
                .order_by(g.finished_at.desc()).limit(limit)).all()
        return [(str(code), int(number)) for code, number in rows]

    def games(self, code: str) -> list[int]:
        """The numbers of the games dealt at the table, oldest first."""
        with self._tx() as conn:
            return [int(n) for n in conn.execute(select(table_games_table.c.number).where(
                table_games_table.c.table_code == code).order_by(
                table_games_table.c.number)).scalars()]

    def moves(self, code: str, number: int, since: int = 0) -> list[TableMove]:
        """The moves of game `number` from index `since` on, in order."""
        t = table_moves_table.c
        with self._tx() as conn:
            rows = conn.execute(select(table_moves_table).where(
                t.table_code == code, t.game == number, t.idx >= since).order_by(t.idx)
            ).mappings().all()
        out = []
        for r in rows:
            made_by: MadeBy = r["made_by"] if r["made_by"] in MADE_BY else "person"
            made = aware(r["made_at"])
            assert made is not None
            out.append(TableMove(index=int(r["idx"]), move=r["move"], seat=int(r["seat"]),
                                 made_by=made_by, stated=r["stated"], made_at=made))
        return out

    # ------------------------------------------------------------------ the host
    def create(self, settings: TableSettings) -> tuple[GameTable, str]:
        """A new table in the lobby with every seat open, and its host key (shown once; only
        its hash is kept). Its code is one no room has either, so a code typed on a phone
        names one thing."""
        host = new_token()
        stamp = clock_now()
        for _ in range(20):
            code = new_room_code()
            try:
                with self._tx() as conn:
                    if self._code_taken_by_room(conn, code):
                        continue
                    conn.execute(insert(tables_table), {
                        "code": code, "host_hash": token_hash(host),
                        "join_secret": new_token(), "settings": settings.model_dump_json(),
                        "status": "lobby", "game": 0, "version": 1, "created_at": stamp,
                        "expires_at": stamp + LIFETIME})
                    conn.execute(insert(table_seats_table), [
                        {"table_code": code, "seat": i, "kind": "open", "away": False}
                        for i in range(settings.seats)])
                return self.table(code), host
            except IntegrityError:
                continue
        raise TableError(tr("No free table code was found; try again."))

    @staticmethod
    def _code_taken_by_room(conn: Connection, code: str) -> bool:
        from trainer.rooms.store import rooms_table

        return conn.execute(select(rooms_table.c.code).where(rooms_table.c.code == code)) \
            .first() is not None

    def _host(self, conn: Connection, code: str, host: str) -> GameTable:
        table = self._row(conn, code)
        stored = conn.execute(select(tables_table.c.host_hash).where(
            tables_table.c.code == code)).scalar_one()
        if not is_token(host) or not same_token(host, stored):
            raise HostOnly(tr("Only the host of table {code} can do that: this link does "
                              "not carry the table's host key.", code=code))
        if table.status == "closed":
            raise TableGone(tr("Table {code} is closed.", code=code))
        return table

    def is_host(self, code: str, host: str) -> bool:
        try:
            with self._tx() as conn:
                self._host(conn, code, host)
            return True
        except TableError:
            return False

    def _bump(self, conn: Connection, code: str, **values: object) -> None:
        conn.execute(update(tables_table).where(tables_table.c.code == code).values(
            version=tables_table.c.version + 1, expires_at=clock_now() + LIFETIME, **values))

    def screen_token(self, code: str, host: str) -> str:
        """The key of the table's screen view, for its host: it shows the public table and
        controls nothing, so its address may be on view where the host key may not."""
        with self._tx() as conn:
            return screen_token(self._host(conn, code, host).join_secret)

    def seat_bot(self, code: str, host: str, seat: int, bot: str) -> None:
        """A bot of persona `bot` in an open seat (or in a bot's seat, replacing it), in the
        lobby or between games."""
        if bot not in BOTS:
            raise TableError(tr("Unknown bot {bot}; expected one of {bots}.",
                                bot=repr(bot), bots=", ".join(BOTS)))
        with self._tx() as conn:
            table = self._host(conn, code, host)
            self._between_games(table)
            current = self._seat_row(table, seat)
            if current.kind == "person":
                raise TableError(tr("Seat {seat} is {name}'s: free it first.",
                                    seat=seat + 1, name=current.nickname))
            conn.execute(update(table_seats_table).where(
                table_seats_table.c.table_code == code, table_seats_table.c.seat == seat)
                .values(kind="bot", bot=bot, nickname=None, name_key=None, token_hash=None,
                        browser=None, joined_at=None, seen_at=None, away=False))
            self._bump(conn, code)

    def free_seat(self, code: str, host: str, seat: int) -> None:
        """The seat open again (a bot taken away, or a person asked to leave: their phone
        says so at its next poll), in the lobby or between games."""
        with self._tx() as conn:
            table = self._host(conn, code, host)
            self._between_games(table)
            self._seat_row(table, seat)
            conn.execute(update(table_seats_table).where(
                table_seats_table.c.table_code == code, table_seats_table.c.seat == seat)
                .values(kind="open", bot=None, nickname=None, name_key=None, token_hash=None,
                        browser=None, joined_at=None, seen_at=None, away=False))
            self._bump(conn, code)

    @staticmethod
    def _between_games(table: GameTable) -> None:
        if table.status == "playing":
            raise TableError(tr("Seats change between games: end this game first, or let "
                                "the stand-in bot play for someone who left."))

    @staticmethod
    def _seat_row(table: GameTable, seat: int) -> TableSeat:
        if not 0 <= seat < len(table.seats):
            raise TableError(tr("Table {code} has seats 1–{seats}, not {seat}.",
                                code=table.code, seats=len(table.seats), seat=seat + 1))
        return table.seats[seat]

    def deal(self, code: str, host: str, *, seed: int | None = None,
             at: int | None = None) -> TableGame:
        """A new game at the table: every seat must be filled (a person or a bot); the seed
        is drawn here unless given (tests) and never leaves the server. `at`: the version
        the host's page showed (a second press of "Deal" on a stale page deals nothing)."""
        number_seed = random.SystemRandom().randrange(MAX_SEED + 1) if seed is None else seed
        with self._tx() as conn:
            table = self._host(conn, code, host)
            if at is not None and at != table.version:
                raise Stale(tr("The table changed since this page was drawn: here it is "
                               "now. Press again if you still mean it."))
            if table.status == "playing":
                raise TableError(tr("A game is already being played at this table."))
            if table.open_seats:
                raise TableError(tr("Fill every seat first (a person or a bot): seat "
                                    "{seat} is empty.", seat=table.open_seats[0] + 1))
            if not table.people:
                raise TableError(tr("A table needs at least one person: the bots play each "
                                    "other on the Play page."))
            number = table.game + 1
            players = [[s.nickname if s.kind == "person" else _bot_name(s, table), s.kind]
                       for s in table.seats]
            stamp = clock_now()
            conn.execute(insert(table_games_table), {
                "table_code": code, "number": number, "seed": number_seed,
                "rules": table.settings.rules, "players": json.dumps(players), "moves": 0,
                "started_at": stamp, "moved_at": stamp, "finished_at": None, "winner": None})
            conn.execute(update(table_seats_table).where(
                table_seats_table.c.table_code == code).values(away=False))
            self._bump(conn, code, status="playing", game=number)
        game = self.game(code, number)
        assert game is not None
        return game

    def end_game(self, code: str, host: str) -> None:
        """The host stops the game being played (nobody wins it); seats can change again."""
        with self._tx() as conn:
            table = self._host(conn, code, host)
            if table.status != "playing":
                raise TableError(tr("No game is being played at this table."))
            conn.execute(update(table_games_table).where(
                table_games_table.c.table_code == code,
                table_games_table.c.number == table.game).values(finished_at=clock_now()))
            self._bump(conn, code, status="over")

    def close(self, code: str, host: str) -> None:
        with self._tx() as conn:
            self._host(conn, code, host)
            self._bump(conn, code, status="closed")

    def change_settings(self, code: str, host: str, settings: TableSettings) -> None:
        """New settings between games; the number of seats changes only with every seat
        beyond the new number open."""
        with self._tx() as conn:
            table = self._host(conn, code, host)
            self._between_games(table)
            have = len(table.seats)
            if settings.seats < have and any(s.filled for s in table.seats[settings.seats:]):
                raise TableError(tr("Free seats {first}–{last} before making the table "
                                    "smaller.", first=settings.seats + 1, last=have))
            if settings.seats > have:
                conn.execute(insert(table_seats_table), [
                    {"table_code": code, "seat": i, "kind": "open", "away": False}
                    for i in range(have, settings.seats)])
            elif settings.seats < have:
                conn.execute(table_seats_table.delete().where(
                    table_seats_table.c.table_code == code,
                    table_seats_table.c.seat >= settings.seats))
            self._bump(conn, code, settings=settings.model_dump_json())

    # ------------------------------------------------------------------ the screen
    def screen_table(self, code: str, screen: str) -> GameTable:
        """The table, for the page holding its screen key; ScreenOnly for any other key."""
        with self._tx() as conn:
            table = self._row(conn, code)
        if not is_token(screen) or not hmac_equal(screen_token(table.join_secret), screen):
            raise ScreenOnly(tr("This link does not carry table {code}'s screen key. Open "
                                "the screen view from the host's page.", code=code))
        return table

    # ------------------------------------------------------------------ the phones
    def join(self, code: str, nickname: str, browser: str | None = None
             ) -> tuple[TableSeat, str]:
        """The first open seat under `nickname`, and its seat token (only its hash is kept);
        this browser's own seat if it already has one (`rejoin`). TableError saying what to
        fix."""
        table = self.live_table(code)
        if browser and (back := self.rejoin(code, browser)) is not None:
            return back
        if (problem := name_problem(nickname, {s.nickname for s in table.seats
                                               if s.nickname})) is not None:
            raise TableError(problem)
        name = nickname.strip()
        if name.casefold() in RESERVED_NAMES:
            raise TableError(tr("{name} is how the table names its own players to "
                                "themselves: pick another name.", name=repr(name)))
        mark = token_hash(browser) if browser else None
        token = new_token()
        for seat in table.open_seats:
            try:
                with self._tx() as conn:
                    done = conn.execute(update(table_seats_table).where(
                        table_seats_table.c.table_code == code,
                        table_seats_table.c.seat == seat,
                        table_seats_table.c.kind == "open").values(
                        kind="person", nickname=name, name_key=name.casefold(),
                        token_hash=token_hash(token), browser=mark, joined_at=clock_now(),
                        seen_at=clock_now(), bot=table.settings.stand_in, away=False))
                    if done.rowcount != 1:
                        continue  # taken a moment ago by another phone: the next one
                    self._bump(conn, code)
            except IntegrityError as e:
                raise TableError(tr("{name} was taken a moment ago: pick another name.",
                                    name=repr(name))) from e
            return self.table(code).seats[seat], token
        if table.status == "playing":
            raise TableError(tr("Table {code} is playing and every seat is taken; wait for "
                                "the next game.", code=code))
        raise TableError(tr("Table {code} is full: every seat is taken.", code=code))

    def rejoin(self, code: str, browser: str) -> tuple[TableSeat, str] | None:
        """This browser's seat at the table (its id is the learner cookie), under a new seat
        token: a phone whose tab was closed, or whose address lost its seat, scans the code
        again and is back in the same seat with the same hand. The old link stops working.
        None when the browser holds no seat here (or gave it up with "Leave the table")."""
        mark = token_hash(browser)
        token = new_token()
        t = table_seats_table.c
        with self._tx() as conn:
            row = conn.execute(select(t.seat).where(
                t.table_code == code, t.browser == mark, t.kind == "person")).first()
            if row is None:
                return None
            conn.execute(update(table_seats_table).where(
                t.table_code == code, t.seat == row.seat).values(
                token_hash=token_hash(token), seen_at=clock_now()))
        return self.table(code).seats[int(row.seat)], token

    def my_seat(self, code: str, token: str) -> TableSeat | None:
        """The seat `token` holds at the table; None for any other token."""
        if not is_token(token):
            return None
        with self._tx() as conn:
            row = conn.execute(select(table_seats_table).where(
                table_seats_table.c.table_code == code,
                table_seats_table.c.token_hash == token_hash(token))).first()
        return None if row is None else _seat(row)

    def seen(self, code: str, token: str) -> TableSeat | None:
        """A phone's poll: its seat marked as seen now, and brought back from the stand-in
        if it was away (which moves the version on, so the screen shows them back)."""
        seat = self.my_seat(code, token)
        if seat is None:
            return None
        with self._tx() as conn:
            conn.execute(update(table_seats_table).where(
                table_seats_table.c.table_code == code,
                table_seats_table.c.seat == seat.seat).values(seen_at=clock_now(), away=False))
            if seat.away:
                self._bump(conn, code)
        return seat

    def leave(self, code: str, token: str) -> None:
        """A person gives up their seat: open again in the lobby; in a game, the stand-in
        plays it to the end (the game's players are fixed at the deal)."""
        seat = self.my_seat(code, token)
        if seat is None:
            raise TableError(tr("This phone has no seat at the table."))
        with self._tx() as conn:
            table = self._row(conn, code)
            values: dict[str, object]
            if table.status == "playing":
                values = {"away": True, "token_hash": None, "browser": None}
            else:
                values = {"kind": "open", "bot": None, "nickname": None, "name_key": None,
                          "token_hash": None, "browser": None, "joined_at": None,
                          "seen_at": None, "away": False}
            conn.execute(update(table_seats_table).where(
                table_seats_table.c.table_code == code,
                table_seats_table.c.seat == seat.seat).values(**values))
            self._bump(conn, code)

    # ------------------------------------------------------------------ the live game
    def mark_away(self, code: str, seat: int, before: datetime) -> bool:
        """The stand-in takes over a person's seat not seen since `before`; whether it did
        (another process may have done it first)."""
        t = table_seats_table.c
        with self._tx() as conn:
            done = conn.execute(update(table_seats_table).where(
                t.table_code == code, t.seat == seat, t.kind == "person",
                t.away.is_(False), (t.seen_at.is_(None)) | (t.seen_at < before))
                .values(away=True)).rowcount
            if done:
                self._bump(conn, code)
        return bool(done)

    def add_move(self, code: str, number: int, index: int, move: str, seat: int,
                 made_by: MadeBy, stated: float | None = None, *, over: bool = False,
                 winner: int | None = None) -> datetime:
        """Move `index` of game `number`, written only if the game has exactly `index`
        moves: `Stale` otherwise (another move came first), and nothing is written. `over`:
        this move ended the game (with `winner`). The time it was written is returned."""
        stamp = clock_now()
        g = table_games_table.c
        try:
            with self._tx() as conn:
                done = conn.execute(update(table_games_table).where(
                    g.table_code == code, g.number == number, g.moves == index,
                    g.finished_at.is_(None)).values(
                    moves=index + 1, moved_at=stamp,
                    **({"finished_at": stamp, "winner": winner} if over else {}))).rowcount
                if done != 1:
                    raise Stale(tr("The game is no longer at move {number}: another move "
                                   "came first.", number=index + 1))
                current = conn.execute(select(tables_table.c.game, tables_table.c.status)
                                       .where(tables_table.c.code == code)).one()
                if int(current[0]) != number or current[1] != "playing":
                    raise Stale(tr("This game is no longer being played at the table."))
                conn.execute(insert(table_moves_table), {
                    "table_code": code, "game": number, "idx": index, "move": move,
                    "seat": seat, "made_by": made_by,
                    "stated": None if stated is None else round(min(0.99, max(0.01, stated)),
                                                                2),
                    "made_at": stamp})
                self._bump(conn, code, **({"status": "over"} if over else {}))
        except IntegrityError as e:
            raise Stale(tr("Move {number} was written by another player first.",
                           number=index + 1)) from e
        return stamp

    def seats_of(self, code: str) -> Sequence[TableSeat]:
        return self.table(code).seats


def _bot_name(seat: TableSeat, table: GameTable) -> str:
    """A bot's name at the table: the Play page's short names, skipping any a person took."""
    from trainer.play.setup import BOT_NAMES

    taken = {s.nickname.casefold() for s in table.seats if s.nickname}
    free = [n for n in BOT_NAMES if n.casefold() not in taken]
    bots_before = sum(1 for s in table.seats[:seat.seat] if s.kind == "bot")
    return free[bots_before % len(free)] if free else f"Bot {seat.seat + 1}"
