"""Who may join a room, and how fast: a cap on people, one browser's seat given back, joins
throttled per room, wrong screen codes counted with a growing wait, names that only look
different refused, an expired room kept expired, several people removed at once. Each runs
on SQLite and on PostgreSQL (db_url)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from sqlalchemy import update

from tests.test_rooms_store import rooms
from trainer.database.stores import aware
from trainer.learners.answers import now
from trainer.rooms import store as room_store
from trainer.rooms.codes import SCREEN_CODE_DIGITS, screen_code
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import Room, RoomError, RoomGone, RoomStore, rooms_table, seats_table

__all__ = ["rooms"]  # the fixture, shared with the store's tests


def make_room(rooms: RoomStore, **settings: object) -> tuple[Room, str]:
    return rooms.create(Source(), RoomSettings.model_validate(settings), ["q1", "q2"], "v")


def age_seats(rooms: RoomStore, code: str, seconds: float = 60) -> None:
    """The room's seats joined a while ago, so the per-room throttle lets the next ones in."""
    with rooms.engine.begin() as conn:
        conn.execute(update(seats_table).where(seats_table.c.room == code).values(
            joined_at=now() - timedelta(seconds=seconds)))


def fill(rooms: RoomStore, code: str, n: int) -> None:
    for i in range(n):
        if i and i % room_store.JOIN_BURST == 0:
            age_seats(rooms, code)
        rooms.join(code, f"P{i}")
    age_seats(rooms, code)


# ------------------------------------------------------------------ 1. the cap
def test_the_101st_join_is_refused_in_a_room_of_the_default_cap(rooms: RoomStore) -> None:
    room, _ = make_room(rooms)
    assert room.settings.max_seats == 100
    fill(rooms, room.code, 100)
    with pytest.raises(RoomError, match="full: it takes 100 people"):
        rooms.join(room.code, "Late")


def test_the_host_sets_the_cap_and_a_removed_person_frees_a_place(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    rooms.change_settings(room.code, host, RoomSettings(max_seats=2))
    a = rooms.join(room.code, "Ann")
    rooms.join(room.code, "Bob")
    with pytest.raises(RoomError, match="full"):
        rooms.join(room.code, "Cy")
    rooms.kick(room.code, host, a.token)
    assert rooms.join(room.code, "Cy").nickname == "Cy"


def test_settings_stored_before_the_cap_still_load_with_the_default(rooms: RoomStore) -> None:
    room, _ = make_room(rooms)
    old = '{"names":"anonymous","leaderboard":"off","live":"after-reveal","screen_code":false}'
    with rooms.engine.begin() as conn:
        conn.execute(update(rooms_table).where(rooms_table.c.code == room.code)
                     .values(settings=old))
    assert rooms.room(room.code).settings.max_seats == 100


# ------------------------------------------------------------------ 2. one browser, the throttle
def test_a_browser_that_joins_again_gets_its_own_seat_back(rooms: RoomStore) -> None:
    room, _ = make_room(rooms)
    first = rooms.join(room.code, "Ann", browser="b-" + "1" * 32)
    again = rooms.join(room.code, "Other", browser="b-" + "1" * 32)
    assert again.token == first.token and again.nickname == "Ann"
    assert len(rooms.taken_names(room.code)) == 1


def test_a_browser_removed_three_times_cannot_join_again(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    me = "b-" + "2" * 32
    for name in ("Ann", "Bob", "Cy"):
        rooms.kick(room.code, host, rooms.join(room.code, name, browser=me).token)
    with pytest.raises(RoomError, match="cannot join again"):
        rooms.join(room.code, "Dee", browser=me)


def test_joins_beyond_the_burst_wait_a_few_seconds(rooms: RoomStore) -> None:
    room, _ = make_room(rooms)
    for i in range(room_store.JOIN_BURST):
        rooms.join(room.code, f"P{i}")
    with pytest.raises(RoomError, match="wait a few seconds"):
        rooms.join(room.code, "Next")
    age_seats(rooms, room.code, seconds=room_store.JOIN_WINDOW.total_seconds() + 1)
    assert rooms.join(room.code, "Next").nickname == "Next"


# ------------------------------------------------------------------ 3. screen-code guesses
def wrong(secret: str) -> str:
    current = {screen_code(secret), screen_code(secret, time.time() - 30)}
    return next(f"{n:0{SCREEN_CODE_DIGITS}d}" for n in range(10)
                if f"{n:0{SCREEN_CODE_DIGITS}d}" not in current)


def test_the_screen_code_has_six_digits() -> None:
    assert len(screen_code("secret")) == 6


def test_wrong_screen_codes_from_anywhere_make_every_join_wait(rooms: RoomStore) -> None:
    room, _ = make_room(rooms, screen_code=True)
    bad = wrong(room.join_secret)
    for _ in range(room_store.CODE_FREE_MISSES):
        with pytest.raises(RoomError, match="6-digit code"):
            rooms.join(room.code, "Guess", bad)
    # Now even the right code waits: the guesser cannot tell a hit from the wait.
    with pytest.raises(RoomError, match=r"wait \d+ s"):
        rooms.join(room.code, "Ann", screen_code(room.join_secret))
    with rooms.engine.begin() as conn:
        misses, until = conn.execute(
            rooms_table.select().with_only_columns(rooms_table.c.code_failures,
                                                   rooms_table.c.code_wait_until)
            .where(rooms_table.c.code == room.code)).one()
    assert misses == room_store.CODE_FREE_MISSES and until is not None


def test_the_wait_doubles_with_each_further_miss_up_to_half_a_minute(rooms: RoomStore) -> None:
    room, _ = make_room(rooms, screen_code=True)
    waits = []
    for _ in range(room_store.CODE_FREE_MISSES + 7):
        with rooms.engine.begin() as conn:  # the last wait over: the next guess is heard
            conn.execute(update(rooms_table).where(rooms_table.c.code == room.code)
                         .values(code_wait_until=None))
        with pytest.raises(RoomError):
            rooms.join(room.code, "Guess", wrong(room.join_secret))
        with rooms.engine.begin() as conn:
            until = conn.execute(rooms_table.select().with_only_columns(
                rooms_table.c.code_wait_until).where(rooms_table.c.code == room.code)
            ).scalar_one()
        waits.append(None if until is None else
                     round((aware(until) - now()).total_seconds()))
    assert waits[:room_store.CODE_FREE_MISSES - 1] == [None] * (room_store.CODE_FREE_MISSES - 1)
    assert waits[room_store.CODE_FREE_MISSES - 1:] == [1, 2, 4, 8, 16, 30, 30, 30]


# ------------------------------------------------------------------ 5. confusable names
def test_a_name_that_only_looks_like_one_in_the_room_is_refused(rooms: RoomStore) -> None:
    room, _ = make_room(rooms, names="names")
    rooms.join(room.code, "Ann")
    with pytest.raises(RoomError, match="looks the same as 'Ann'"):
        rooms.join(room.code, "\u0410nn")  # a Cyrillic capital A
    assert rooms.join(room.code, "Anna").nickname == "Anna"


# ------------------------------------------------------------------ 6. expired stays expired
def expire(rooms: RoomStore, code: str) -> None:
    with rooms.engine.begin() as conn:
        conn.execute(update(rooms_table).where(rooms_table.c.code == code).values(
            expires_at=now() - timedelta(minutes=1)))


def test_a_host_step_on_an_expired_room_does_not_revive_it(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    expire(rooms, room.code)
    for step in (lambda: rooms.start(room.code, host),
                 lambda: rooms.change_settings(room.code, host, RoomSettings(leaderboard="end"))):
        with pytest.raises(RoomGone, match="expired"):
            step()
    with pytest.raises(RoomGone, match="expired"):
        rooms.join(room.code, "Ann")
    assert rooms.room(room.code).expires_at < now()
    assert rooms.is_host(room.code, host)  # the host still sees the room, and can reopen it


def test_the_host_reopens_an_expired_room_on_purpose(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    with pytest.raises(RoomError, match="has not expired"):
        rooms.reopen(room.code, host)
    expire(rooms, room.code)
    assert rooms.reopen(room.code, host).expires_at > now()
    assert rooms.join(room.code, "Ann").nickname == "Ann"


# ------------------------------------------------------------------ 4. bulk remove
def test_the_host_removes_several_people_in_one_step(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    a, b, c = (rooms.join(room.code, n) for n in ("Ann", "Bob", "Cy"))
    version = rooms.room(room.code).version
    assert rooms.kick_many(room.code, host, [a.token, b.token, a.token]) == 2
    assert {s.nickname for s in rooms.seats(room.code, host) if not s.kicked} == {"Cy"}
    assert rooms.room(room.code).version == version + 1  # the phones redraw once
    with pytest.raises(RoomError, match="None of them"):
        rooms.kick_many(room.code, host, [a.token])
    with pytest.raises(RoomError):
        rooms.kick_many(room.code, "x" * 32, [c.token])
