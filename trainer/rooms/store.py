"""Rooms, seats and answers in the database, with the host's control checked here.

Why the checks live in the store and not the page: a page only arranges calls, and anyone can
send any widget value to the server. Every host action takes the host token and compares it
with the stored hash before it changes anything; a phone's calls take its seat token and only
ever read that seat's own rows. Before the reveal no call open to a seat returns another
seat's answer, so nothing of the kind can reach a phone.

The projected screen holds a screen key (`codes.screen_token`) and calls only the `screen_*`
reads: names under keys that are not seat tokens, counts, and the answers the class may see
(`visible_questions`). No call that changes a room takes it, so a photographed projector
steers nothing. A host step may say which step of the room its page showed (`at`): pressed
on a stale remote, it is refused rather than skipping a question.

Why a primary key of (room, question, seat) on answers: Streamlit reruns on every click and a
phone may tap twice or resend after a dropped network; "on conflict do nothing" keeps the
first answer and the second call reports that it was already in.

Phones poll `pulse`: one indexed read of two integers. Only host actions that change what a
phone shows (start, reveal, next, kick, close) bump the room's version; joins and answers do
not, so 60 answers never make 60 phones redraw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from hmac import compare_digest as hmac_equal

from pydantic import ValidationError
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    case,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from trainer.database.stores import MigratedStore, aware
from trainer.i18n import tr, tr_n
from trainer.learners.answers import now as clock_now
from trainer.rooms.codes import (
    SCREEN_CODE_DIGITS,
    SCREEN_CODE_SECONDS,
    is_room_code,
    is_token,
    new_room_code,
    new_token,
    same_token,
    screen_code_ok,
    screen_token,
    token_hash,
)
from trainer.rooms.model import STATUSES, Room, RoomAnswer, Seat, Status
from trainer.rooms.nicknames import name_check
from trainer.rooms.settings import RoomSettings, Source
from trainer.verdicts.grades import parse_grade

# A room lives this long after the host's last action; then its code says it has expired.
LIFETIME = timedelta(hours=12)
# Joining, whoever asks (docs/rooms.md, "What keeps a room fair and private"): a room takes at
# most JOIN_BURST new seats in JOIN_WINDOW (a class of 60 scanning the code at once is in
# without waiting: with 20, `bench/room.py` seated 40 of 60 phones arriving over 15 s), and one
# browser makes at most BROWSER_SEATS seats in a room; the room's cap bounds a script anyway.
JOIN_WINDOW = timedelta(seconds=10)
JOIN_BURST = 60
BROWSER_SEATS = 3
# Wrong screen codes, counted per room from any phone: see RoomStore._code_missed.
CODE_FREE_MISSES = 5
CODE_MISS_WINDOW = timedelta(minutes=5)
CODE_MAX_WAIT = timedelta(seconds=30)

metadata = MetaData()

rooms_table = Table(
    "rooms", metadata,
    Column("code", String(8), primary_key=True),
    Column("host_hash", String(64), nullable=False),
    Column("join_secret", String(64), nullable=False),
    Column("source", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("questions", Text, nullable=False),  # JSON list of item ids, fixed at creation
    Column("bank_version", String(64), nullable=False),
    Column("status", String(12), nullable=False),
    Column("question", Integer, nullable=False),  # index into questions
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("question_at", DateTime(timezone=True), nullable=True),
    # Wrong screen codes typed for the room, from any phone (revision 0004): see `join`.
    Column("code_failures", Integer, nullable=False, server_default="0"),
    Column("code_failed_at", DateTime(timezone=True), nullable=True),
    Column("code_wait_until", DateTime(timezone=True), nullable=True),
    # The tab that last opened the host's remote for the first time (a hash of its id) and
    # when (revision 0005): how the laptop's QR code learns that a phone scanned it, whichever
    # process serves the phone. See `remote_opened`.
    Column("remote_tab", String(64), nullable=True),
    Column("remote_at", DateTime(timezone=True), nullable=True),
)

seats_table = Table(
    "room_seats", metadata,
    Column("token", String(64), primary_key=True),
    Column("room", String(8), ForeignKey("rooms.code"), nullable=False),
    Column("nickname", String(40), nullable=False),
    Column("name_key", String(40), nullable=False),  # casefolded: one "Ann" per room
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Column("kicked", Boolean, nullable=False),
    # A hash of the browser's id (its learner cookie), so a browser gets its seat back rather
    # than a new one; NULL for a seat made before revision 0004 or without a browser id.
    Column("browser", String(64), nullable=True),
    UniqueConstraint("room", "name_key", name="uq_room_seats_name"),
    Index("ix_room_seats_room", "room"),
    Index("ix_room_seats_browser", "room", "browser"),
)

room_answers_table = Table(
    "room_answers", metadata,
    Column("room", String(8), ForeignKey("rooms.code"), primary_key=True),
    Column("question", Integer, primary_key=True),
    Column("seat", String(64), ForeignKey("room_seats.token"), primary_key=True),
    Column("item_id", String(64), nullable=False),
    Column("action", String(120), nullable=False),
    Column("stated", Float, nullable=True),
    Column("bot", Float, nullable=True),
    Column("bluff", Boolean, nullable=True),
    Column("best", String(120), nullable=False),
    # A decision's points lost and grade; both empty for a rules question, whose verdict is
    # `correct` (trainer/verdicts/rules.py says why it has no grade). Revision 0003.
    Column("lost_pp", Float, nullable=True),
    Column("grade", String(16), nullable=True),
    Column("seconds", Float, nullable=True),
    Column("answered_at", DateTime(timezone=True), nullable=False),
    Column("correct", Boolean, nullable=True),
)


class RoomError(Exception):
    """Something a person asked of a room that cannot be done, worded for them."""


class HostOnly(RoomError):
    """A host action without the room's host token."""


class ScreenOnly(RoomError):
    """A screen read without the room's screen token."""


class Moved(RoomError):
    """A host step pressed on a page that showed an earlier step of the room (another tab or
    the teacher's phone moved it on meanwhile)."""


class RoomGone(RoomError):
    """A code that names no room, or a room that is closed or expired."""


class NameTaken(RoomError):
    """A join under a name someone in the room already has (said in words, for a person; a
    page that would rather draw another name tells this case by its type)."""


def seat_key(token: str) -> str:
    """A seat as the screen knows it: a stable key that is not the seat's token (which is
    that phone's key to its seat)."""
    return token_hash(token)[:16]


def visible_questions(room: Room) -> range | set[int]:
    """The questions whose answers the class may see: every one once the room is finished,
    each one revealed, and the open one in a room whose answers are live."""
    if room.status == "finished":
        return range(len(room.questions))
    if room.status == "revealed":
        return range(room.question + 1)
    if room.status == "question":
        return set(range(room.question)) | ({room.question} if room.settings.live == "live"
                                            else set())
    return set()


def expired(room: Room, at: datetime | None = None) -> bool:
    return (at or clock_now()) > room.expires_at


def usable(room: Room, at: datetime | None = None) -> Room:
    """`room` if it can still be used; RoomGone saying why not (closed or expired)."""
    if room.status == "closed":
        raise RoomGone(tr("Room {code} is closed. Ask the host for the new code.",
                          code=room.code))
    if (at or clock_now()) > room.expires_at:
        raise RoomGone(tr("Room {code} has expired (rooms last {hours} hours after the "
                          "host's last step). Ask the host for a new one.",
                          code=room.code, hours=LIFETIME.seconds // 3600))
    return room


class RoomStore(MigratedStore):
    """Rooms in one SQLAlchemy database (the answers' database: SQLite or PostgreSQL)."""

    failure = RoomError
    tables = "the rooms' tables"

    # ------------------------------------------------------------------ reading
    def _room_row(self, conn: Connection, code: str) -> Room:
        if not is_room_code(code):
            raise RoomGone(tr("{code} is not a room code: expected 6 letters and digits.",
                              code=repr(code)))
        row = conn.execute(select(rooms_table).where(rooms_table.c.code == code)).mappings() \
            .first()
        if row is None:
            raise RoomGone(tr("There is no room {code}. Check the code on the screen.",
                              code=code))
        try:
            source = Source.model_validate_json(row["source"])
            settings = RoomSettings.model_validate_json(row["settings"])
            questions = tuple(str(q) for q in json.loads(row["questions"]))
        except (ValidationError, ValueError, TypeError) as e:
            raise RoomError(tr("Room {code} is damaged in the database: {problem}", code=code,
                               problem=e)) from e
        status: Status = row["status"] if row["status"] in STATUSES else "closed"
        expires = aware(row["expires_at"])
        assert expires is not None
        return Room(code=code, source=source, settings=settings, questions=questions,
                    bank_version=row["bank_version"], status=status,
                    question=int(row["question"]), version=int(row["version"]),
                    created_at=aware(row["created_at"]) or expires, expires_at=expires,
                    question_at=aware(row["question_at"]), join_secret=row["join_secret"])

    def room(self, code: str) -> Room:
        """The room; RoomGone for an unknown code."""
        with self._tx() as conn:
            return self._room_row(conn, code)

    def live_room(self, code: str, at: datetime | None = None) -> Room:
        """The room if it can still be used; RoomGone saying why not (closed or expired)."""
        return usable(self.room(code), at)

    def pulse(self, code: str) -> tuple[int, str] | None:
        """The room's version and status: what a phone polls. One indexed read."""
        with self._tx() as conn:
            row = conn.execute(select(rooms_table.c.version, rooms_table.c.status)
                               .where(rooms_table.c.code == code)).first()
        return None if row is None else (int(row[0]), str(row[1]))

    def seat(self, code: str, token: str) -> Seat | None:
        """The seat `token` holds in the room, kicked or not; None for any other token."""
        if not is_token(token):
            return None
        with self._tx() as conn:
            row = conn.execute(select(seats_table).where(
                seats_table.c.token == token, seats_table.c.room == code)).mappings().first()
        return None if row is None else _seat(row)

    def my_answers(self, code: str, token: str) -> dict[int, RoomAnswer]:
        """A seat's own answers, by question: the only answers a phone ever reads."""
        with self._tx() as conn:
            rows = conn.execute(select(room_answers_table).where(
                room_answers_table.c.room == code,
                room_answers_table.c.seat == token)).mappings().all()
        return {int(r["question"]): _answer(r) for r in rows}

    def class_right(self, code: str, token: str) -> dict[int, tuple[int, int]]:
        """Per question of a rules room: (answers right, answers) over the seats still in
        the room. For a seat's phone at the end of the room only: counts, never a seat or an
        answer, and nothing before the room is finished (RoomError then), so no phone learns
        how others answered before the host sums the room up."""
        room = self.room(code)
        seat = self.seat(code, token)
        if seat is None or seat.kicked:
            raise RoomError(tr("This phone has no seat in the room."))
        if room.status != "finished":
            raise RoomError(tr("The class's results are shown when the room has finished."))
        answers = room_answers_table
        with self._tx() as conn:
            rows = conn.execute(
                select(answers.c.question, answers.c.correct, func.count())
                .join(seats_table, seats_table.c.token == answers.c.seat)
                .where(answers.c.room == code, seats_table.c.kicked.is_(False),
                       answers.c.correct.is_not(None))
                .group_by(answers.c.question, answers.c.correct)).all()
        out: dict[int, tuple[int, int]] = {}
        for question, correct, n in rows:
            right, total = out.get(int(question), (0, 0))
            out[int(question)] = (right + (int(n) if correct else 0), total + int(n))
        return out

    # ------------------------------------------------------------------ the host
    def create(self, source: Source, settings: RoomSettings, questions: list[str],
               bank_version: str) -> tuple[Room, str]:
        """A new room in the lobby, and its host token (shown once; only its hash is kept)."""
        if not questions:
            raise RoomError(tr("A room needs at least one question; this choice has none."))
        host = new_token()
        stamp = clock_now()
        for _ in range(20):
            code = new_room_code()
            try:
                with self._tx() as conn:
                    conn.execute(insert(rooms_table), {
                        "code": code, "host_hash": token_hash(host), "join_secret": new_token(),
                        "source": source.model_dump_json(),
                        "settings": settings.model_dump_json(),
                        "questions": json.dumps(list(questions)),
                        "bank_version": bank_version, "status": "lobby", "question": 0,
                        "version": 1, "created_at": stamp, "expires_at": stamp + LIFETIME,
                        "question_at": None})
                return self.room(code), host
            except IntegrityError:
                continue
        raise RoomError(tr("No free room code was found; try again."))

    def _host(self, conn: Connection, code: str, host: str, *, write: bool = True) -> Room:
        """The room, if `host` is its host key. A step that changes the room (`write`) is
        refused once it has expired: it would otherwise move the expiry on and quietly let
        phones in again; `reopen` does that, on purpose. Reading it stays open to the host."""
        room = self._room_row(conn, code)
        stored = conn.execute(select(rooms_table.c.host_hash)
                              .where(rooms_table.c.code == code)).scalar_one()
        if not is_token(host) or not same_token(host, stored):
            raise HostOnly(tr("Only the host of room {code} can do that: this link does "
                              "not carry the room's host key.", code=code))
        if room.status == "closed":
            raise RoomGone(tr("Room {code} is closed.", code=code))
        if write and expired(room):
            raise RoomGone(tr("Room {code} has expired, so phones can no longer join or "
                              "answer. Reopen it to go on.", code=code))
        return room

    @staticmethod
    def _at(room: Room, at: tuple[str, int] | None) -> None:
        """Refuse a step pressed on a page that showed another step of the room: with a
        remote on the teacher's phone and a tab on the laptop, a second "Next" pressed on a
        stale page would otherwise skip a question. `at` is the (status, question) that page
        showed; None for a caller that has just read the room."""
        if at is not None and at != (room.status, room.question):
            raise Moved(tr("The room moved on since this page was drawn (from another tab "
                           "or your phone): here it is now. Press again if you still mean "
                           "it."))

    def is_host(self, code: str, host: str) -> bool:
        try:
            with self._tx() as conn:
                self._host(conn, code, host, write=False)
            return True
        except RoomError:
            return False

    def _set(self, conn: Connection, code: str, **values: object) -> None:
        conn.execute(update(rooms_table).where(rooms_table.c.code == code).values(
            version=rooms_table.c.version + 1, expires_at=clock_now() + LIFETIME, **values))

    def reopen(self, code: str, host: str) -> Room:
        """An expired room open again for `LIFETIME`, as the host's own choice: phones may
        join and answer again. A closed room stays closed."""
        with self._tx() as conn:
            room = self._host(conn, code, host, write=False)
            if not expired(room):
                raise RoomError(tr("Room {code} has not expired.", code=code))
            self._set(conn, code)
        return self.room(code)

    def start(self, code: str, host: str, at: tuple[str, int] | None = None
              ) -> Room:
        """The first question, from the lobby."""
        with self._tx() as conn:
            room = self._host(conn, code, host)
            self._at(room, at)
            if room.status != "lobby":
                raise RoomError(tr("The room has already started."))
            self._set(conn, code, status="question", question=0, question_at=clock_now())
        return self.room(code)

    def reveal(self, code: str, host: str, at: tuple[str, int] | None = None
               ) -> Room:
        with self._tx() as conn:
            room = self._host(conn, code, host)
            self._at(room, at)
            if room.status != "question":
                raise RoomError(tr("There is no open question to reveal."))
            self._set(conn, code, status="revealed")
        return self.room(code)

    def next(self, code: str, host: str, at: tuple[str, int] | None = None
             ) -> Room:
        """The next question after a reveal, or the end after the last one."""
        with self._tx() as conn:
            room = self._host(conn, code, host)
            self._at(room, at)
            if room.status != "revealed":
                raise RoomError(tr("Reveal the answers before moving on."))
            if room.last:
                self._set(conn, code, status="finished")
            else:
                self._set(conn, code, status="question", question=room.question + 1,
                          question_at=clock_now())
        return self.room(code)

    def finish(self, code: str, host: str, at: tuple[str, int] | None = None
               ) -> Room:
        """The end, early: results on what was answered so far."""
        with self._tx() as conn:
            room = self._host(conn, code, host)
            self._at(room, at)
            if room.status == "question":
                raise RoomError(tr("Reveal the open question before ending."))
            self._set(conn, code, status="finished")
        return self.room(code)

    def close(self, code: str, host: str) -> None:
        """The room's code stops working; phones are told the room is closed. An expired
        room may be closed too: that revives nothing."""
        with self._tx() as conn:
            self._host(conn, code, host, write=False)
            self._set(conn, code, status="closed")

    def change_settings(self, code: str, host: str, settings: RoomSettings) -> Room:
        with self._tx() as conn:
            room = self._host(conn, code, host)
            if settings.names != room.settings.names and room.status != "lobby":
                raise RoomError(tr("Names or anonymous is chosen before the first "
                                   "question."))
            self._set(conn, code, settings=settings.model_dump_json())
        return self.room(code)

    def kick(self, code: str, host: str, seat: str) -> None:
        """The seat leaves the room; its phone says so at its next poll."""
        with self._tx() as conn:
            self._host(conn, code, host)
            done = conn.execute(update(seats_table).where(
                seats_table.c.room == code, seats_table.c.token == seat).values(kicked=True))
            if done.rowcount != 1:
                raise RoomError(tr("No such participant in this room."))
            self._set(conn, code)

    def kick_many(self, code: str, host: str, seats: Sequence[str]) -> int:
        """Several seats leave the room in one step; how many were in it. Seats already
        removed, or of another room, are passed over."""
        wanted = sorted(set(seats))
        with self._tx() as conn:
            self._host(conn, code, host)
            if not wanted:
                raise RoomError(tr("Choose who to remove first."))
            done = conn.execute(update(seats_table).where(
                seats_table.c.room == code, seats_table.c.token.in_(wanted),
                seats_table.c.kicked.is_(False)).values(kicked=True)).rowcount
            if not done:
                raise RoomError(tr("None of them is in the room any more."))
            self._set(conn, code)
        return int(done)

    def seats(self, code: str, host: str) -> list[Seat]:
        """Everyone who joined, in order, kicked ones included."""
        with self._tx() as conn:
            self._host(conn, code, host, write=False)
            rows = conn.execute(select(seats_table).where(seats_table.c.room == code)
                                .order_by(seats_table.c.joined_at, seats_table.c.token)
                                ).mappings().all()
        return [_seat(r) for r in rows]

    def tally(self, code: str, host: str, question: int) -> tuple[int, int]:
        """Joined (not kicked) and answered so far: the presenter's live count."""
        with self._tx() as conn:
            self._host(conn, code, host, write=False)
            return self._tally(conn, code, question)

    def answers(self, code: str, host: str, question: int | None = None) -> list[RoomAnswer]:
        """Every seat's answers (to one question, or all): the host's."""
        with self._tx() as conn:
            self._host(conn, code, host, write=False)
            return self._answers(conn, code, question)

    @staticmethod
    def _tally(conn: Connection, code: str, question: int) -> tuple[int, int]:
        joined = conn.execute(select(func.count()).select_from(seats_table).where(
            seats_table.c.room == code, seats_table.c.kicked.is_(False))).scalar_one()
        answered = conn.execute(select(func.count()).select_from(room_answers_table)
                                .join(seats_table,
                                      seats_table.c.token == room_answers_table.c.seat)
                                .where(room_answers_table.c.room == code,
                                       room_answers_table.c.question == question,
                                       seats_table.c.kicked.is_(False))).scalar_one()
        return int(joined), int(answered)

    @staticmethod
    def _answers(conn: Connection, code: str, question: int | None) -> list[RoomAnswer]:
        q = select(room_answers_table).join(
            seats_table, seats_table.c.token == room_answers_table.c.seat).where(
            room_answers_table.c.room == code, seats_table.c.kicked.is_(False))
        if question is not None:
            q = q.where(room_answers_table.c.question == question)
        rows = conn.execute(q.order_by(room_answers_table.c.question,
                                       room_answers_table.c.answered_at)).mappings().all()
        return [_answer(r) for r in rows]

    # ------------------------------------------------------------------ the screen
    def remote_opened(self, code: str, host: str, tab: str) -> None:
        """A browser tab opened the room's remote for the first time: kept in the room's row
        (a hash of the tab's id, and when), not in the server's memory, because behind
        `python -m trainer serve` the teacher's phone and the laptop showing the QR code may
        be served by different processes. Does not change the room's version: phones need
        not redraw."""
        with self._tx() as conn:
            self._host(conn, code, host, write=False)
            conn.execute(update(rooms_table).where(rooms_table.c.code == code).values(
                remote_tab=token_hash(tab), remote_at=clock_now()))

    def remote_scanned(self, code: str, host: str, tab: str, since: datetime) -> bool:
        """Whether a tab other than `tab` opened the room's remote at `since` or later: the
        QR code the laptop (`tab`) shows has been scanned."""
        with self._tx() as conn:
            self._host(conn, code, host, write=False)
            row = conn.execute(select(rooms_table.c.remote_tab, rooms_table.c.remote_at)
                               .where(rooms_table.c.code == code)).one()
        at = aware(row.remote_at)
        return (at is not None and at >= since and row.remote_tab is not None
                and not same_token(tab, row.remote_tab))

    def screen_token(self, code: str, host: str) -> str:
        """The key of the room's screen view, for its host: it shows the room and controls
        nothing, so its address may be on view where the host key may not."""
        with self._tx() as conn:
            return screen_token(self._host(conn, code, host, write=False).join_secret)

    def _screen(self, conn: Connection, code: str, screen: str) -> Room:
        room = self._room_row(conn, code)
        if not is_token(screen) or not hmac_equal(screen_token(room.join_secret), screen):
            raise ScreenOnly(tr("This link does not carry room {code}'s screen key. Open "
                                "the screen view from the host's remote.", code=code))
        return room

    def screen_room(self, code: str, screen: str) -> Room:
        """The room, for the page holding its screen key; ScreenOnly for any other key."""
        with self._tx() as conn:
            return self._screen(conn, code, screen)

    def screen_names(self, code: str, screen: str) -> dict[str, str]:
        """The names in the room, in the order they joined, each under a key that is not
        its seat token (`seat_key`): the screen lists names and never holds a seat."""
        with self._tx() as conn:
            self._screen(conn, code, screen)
            rows = conn.execute(select(seats_table.c.token, seats_table.c.nickname).where(
                seats_table.c.room == code, seats_table.c.kicked.is_(False))
                .order_by(seats_table.c.joined_at, seats_table.c.token)).all()
        return {seat_key(token): name for token, name in rows}

    def screen_tally(self, code: str, screen: str, question: int) -> tuple[int, int]:
        """Joined and answered so far: counts, shown on the screen at any time."""
        with self._tx() as conn:
            self._screen(conn, code, screen)
            return self._tally(conn, code, question)

    def screen_answers(self, code: str, screen: str, question: int | None = None
                       ) -> list[RoomAnswer]:
        """The answers the class may see: to questions revealed (all of them once the room
        is finished), and to the open one only in a room whose answers are live. Asked for
        an open question's answers otherwise, RoomError: the store, not the page, keeps
        them off the screen. Seats come as `seat_key`s, never as tokens."""
        with self._tx() as conn:
            room = self._screen(conn, code, screen)
            shown = visible_questions(room)
            if question is not None and question not in shown:
                raise RoomError(tr("The room's answers to this question are shown at the "
                                   "reveal."))
            answers = self._answers(conn, code, question)
        return [replace(a, seat=seat_key(a.seat)) for a in answers if a.question in shown]

    # ------------------------------------------------------------------ the phones
    def join(self, code: str, nickname: str, screen_code: str | None = None,
             browser: str | None = None) -> Seat:
        """A seat under `nickname`, or this browser's seat in the room if it has one;
        RoomError saying what to fix.

        `browser` is the browser's own id (its learner cookie): a page that lost `seat=` from
        its address gets its seat back, and one browser makes at most `BROWSER_SEATS` seats
        in a room (a removed person may join again under a better name, twice). Whatever the
        browsers, a room takes at most `JOIN_BURST` joins in `JOIN_WINDOW` and its
        `max_seats` people; a wrong screen code counts against the room (`_code_missed`)."""
        room = self.live_room(code)
        if not room.open:
            raise RoomGone(tr("Room {code} has finished; ask the host for the next one.",
                              code=code))
        mark = token_hash(browser) if browser else None
        stamp = clock_now()
        with self._tx() as conn:
            if mark is not None:
                mine = conn.execute(select(seats_table).where(
                    seats_table.c.room == code, seats_table.c.browser == mark)
                    .order_by(seats_table.c.joined_at)).mappings().all()
                if (back := next((r for r in mine if not r["kicked"]), None)) is not None:
                    return _seat(back)
                if len(mine) >= BROWSER_SEATS:
                    raise RoomError(tr_n("This browser has joined room {code} {n} time already "
                                         "and cannot join again. Ask the host.",
                                         "This browser has joined room {code} {n} times "
                                         "already and cannot join again. Ask the host.",
                                         len(mine), code=code))
            wait = aware(conn.execute(select(rooms_table.c.code_wait_until).where(
                rooms_table.c.code == code)).scalar_one())
        if room.settings.screen_code:
            if wait is not None and wait > stamp:
                seconds = max(1, int((wait - stamp).total_seconds() + 0.999))
                raise RoomError(tr("Too many wrong screen codes were typed in this room: "
                                   "wait {seconds} s, then type the code shown on the "
                                   "screen now.", seconds=seconds))
            if not screen_code_ok(room.join_secret, screen_code or ""):
                self._code_missed(code, stamp)
                raise RoomError(tr("Type the {digits}-digit code shown on the screen now (it "
                                   "changes every {seconds} seconds).",
                                   digits=SCREEN_CODE_DIGITS, seconds=SCREEN_CODE_SECONDS))
        with self._tx() as conn:
            recent = conn.execute(select(func.count()).select_from(seats_table).where(
                seats_table.c.room == code,
                seats_table.c.joined_at > stamp - JOIN_WINDOW)).scalar_one()
            if recent >= JOIN_BURST:
                raise RoomError(tr("Many people are joining at once: wait a few seconds, "
                                   "then press Join again."))
            rows = conn.execute(select(seats_table.c.nickname, seats_table.c.kicked)
                                .where(seats_table.c.room == code)).all()
        if sum(not kicked for _, kicked in rows) >= room.settings.max_seats:
            raise RoomError(tr("Room {code} is full: it takes {max_seats} people. Ask the "
                               "host.", code=code, max_seats=room.settings.max_seats))
        if (problem := name_check(nickname, {n for n, _ in rows})) is not None:
            raise (NameTaken if problem.kind == "taken" else RoomError)(problem.text)
        name = nickname.strip()
        token = new_token()
        try:
            with self._tx() as conn:
                conn.execute(insert(seats_table), {
                    "token": token, "room": code, "nickname": name,
                    "name_key": name.casefold(), "joined_at": clock_now(), "kicked": False,
                    "browser": mark})
        except IntegrityError as e:
            raise NameTaken(tr("{name} was taken a moment ago: pick another name.",
                               name=repr(name))) from e
        seat = self.seat(code, token)
        assert seat is not None
        return seat

    def _code_missed(self, code: str, at: datetime) -> None:
        """One more wrong screen code for the room. Misses count from any phone while they
        come less than `CODE_MISS_WINDOW` apart; from the `CODE_FREE_MISSES`-th on, every
        join by screen code waits, twice as long after each further miss, up to
        `CODE_MAX_WAIT` (one code's life): a guesser gets about two tries a minute, while
        a class that mistypes a few times loses seconds. One statement adds the miss, so
        phones missing at once across processes all count."""
        t = rooms_table.c
        with self._tx() as conn:
            conn.execute(update(rooms_table).where(t.code == code).values(
                code_failures=case((t.code_failed_at.is_(None), 1),
                                   (t.code_failed_at < at - CODE_MISS_WINDOW, 1),
                                   else_=t.code_failures + 1),
                code_failed_at=at))
            misses = int(conn.execute(select(t.code_failures).where(t.code == code))
                         .scalar_one())
            if misses >= CODE_FREE_MISSES:
                wait = min(CODE_MAX_WAIT, timedelta(seconds=2 ** (misses - CODE_FREE_MISSES)))
                conn.execute(update(rooms_table).where(t.code == code).values(
                    code_wait_until=at + wait))

    def taken_names(self, code: str) -> set[str]:
        """Names in use, so a generated one is new (names only: no answers, no tokens)."""
        with self._tx() as conn:
            return set(conn.execute(select(seats_table.c.nickname)
                                    .where(seats_table.c.room == code)).scalars())

    def submit(self, code: str, token: str, question: int, *, item_id: str, action: str,
               stated: float | None, bot: float | None, bluff: bool | None, best: str,
               lost_pp: float | None, grade: str | None, seconds: float | None,
               correct: bool | None = None) -> bool:
        """The seat's answer to the open question: True when stored now, False when this seat
        had already answered it (the first answer stands). A decision comes with its grade
        and points lost; a rules question with `correct` alone (never both)."""
        room = self.live_room(code)
        seat = self.seat(code, token)
        if seat is None:
            raise RoomError(tr("This phone has no seat in the room: join again with the "
                               "code."))
        if seat.kicked:
            raise RoomError(tr("The host removed you from this room."))
        if room.status != "question" or room.question != question:
            raise RoomError(tr("Answers for that question are closed."))
        if correct is None:
            if grade is None or lost_pp is None:
                raise RoomError(tr("This answer cannot be stored: it has no grade."))
            try:
                grade = parse_grade(grade)
            except ValueError as e:
                raise RoomError(tr("This answer cannot be stored: {problem}.",
                                   problem=e)) from None
        elif grade is not None or lost_pp is not None:
            raise RoomError(tr("This answer cannot be stored: a rules question is right or "
                               "wrong, not graded."))
        row = {"room": code, "question": question, "seat": token, "item_id": item_id,
               "action": action, "stated": stated, "bot": bot, "bluff": bluff, "best": best,
               "lost_pp": lost_pp, "grade": grade, "seconds": seconds,
               "correct": correct, "answered_at": clock_now()}
        keys = ["room", "question", "seat"]
        with self._tx() as conn:
            name = self._engine.dialect.name
            if name in ("sqlite", "postgresql"):
                dialect_insert = sqlite.insert if name == "sqlite" else postgresql.insert
                done = conn.execute(dialect_insert(room_answers_table)
                                    .on_conflict_do_nothing(index_elements=keys)
                                    .returning(room_answers_table.c.seat), row)
                return done.first() is not None
            try:
                with conn.begin_nested():
                    conn.execute(insert(room_answers_table), row)
                return True
            except IntegrityError:
                return False


def _seat(row: object) -> Seat:
    r = dict(row)  # type: ignore[call-overload]
    joined = aware(r["joined_at"])
    assert joined is not None
    return Seat(token=r["token"], room=r["room"], nickname=r["nickname"], joined_at=joined,
                kicked=bool(r["kicked"]))


def _answer(row: object) -> RoomAnswer:
    r = dict(row)  # type: ignore[call-overload]
    at = aware(r["answered_at"])
    assert at is not None
    correct = None if r.get("correct") is None else bool(r["correct"])
    try:
        # A rules question has no grade (it is right or wrong); a decision always has one.
        grade = None if correct is not None and r["grade"] is None else parse_grade(r["grade"])
    except ValueError as e:
        raise RoomError(tr("Room {code}: the stored answer to question {number} is damaged "
                           "({problem}).", code=r.get("room", "?"),
                           number=int(r["question"]) + 1, problem=e)) from None
    return RoomAnswer(question=int(r["question"]), seat=r["seat"], item_id=r["item_id"],
                      action=r["action"], stated=r["stated"], bot=r["bot"],
                      bluff=None if r["bluff"] is None else bool(r["bluff"]), best=r["best"],
                      lost_pp=None if r["lost_pp"] is None else float(r["lost_pp"]),
                      grade=grade, seconds=r["seconds"], answered_at=at, correct=correct)
