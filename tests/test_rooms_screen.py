"""The presenter screen's key in the store: it reads what the class may see and steers
nothing; the answers to an open question stay with the host unless the room's answers are
live; a remote showing an earlier step of the room cannot move it on. Each runs on SQLite
and on PostgreSQL (db_url)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.test_rooms_store import answer, make_room
from trainer.learners.storage import Store
from trainer.rooms.codes import screen_token
from trainer.rooms.settings import RoomSettings
from trainer.rooms.store import HostOnly, Moved, RoomError, RoomStore, ScreenOnly


@pytest.fixture
def rooms(db_url: str) -> Iterator[RoomStore]:
    store = Store(db_url)
    yield RoomStore(store.engine)
    store.close()


def test_the_screen_key_is_not_the_host_key_and_comes_from_the_host_alone(
        rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    screen = rooms.screen_token(room.code, host)
    assert screen != host and host not in screen and screen not in host
    assert rooms.screen_room(room.code, screen).code == room.code
    seat = rooms.join(room.code, "Ann")
    with pytest.raises(HostOnly):
        rooms.screen_token(room.code, seat.token)
    with pytest.raises(HostOnly):
        rooms.screen_token(room.code, screen)


@pytest.mark.parametrize("action", ["start", "reveal", "next", "finish", "close", "kick",
                                    "settings", "seats", "answers", "tally", "reopen",
                                    "screen_token"])
def test_the_screen_key_steers_nothing(rooms: RoomStore, action: str) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    key = rooms.screen_token(room.code, host)
    calls = {
        "start": lambda: rooms.start(room.code, key),
        "reveal": lambda: rooms.reveal(room.code, key),
        "next": lambda: rooms.next(room.code, key),
        "finish": lambda: rooms.finish(room.code, key),
        "close": lambda: rooms.close(room.code, key),
        "kick": lambda: rooms.kick_many(room.code, key, [seat.token]),
        "settings": lambda: rooms.change_settings(room.code, key,
                                                  RoomSettings(leaderboard="each")),
        "seats": lambda: rooms.seats(room.code, key),
        "answers": lambda: rooms.answers(room.code, key),
        "tally": lambda: rooms.tally(room.code, key, 0),
        "reopen": lambda: rooms.reopen(room.code, key),
        "screen_token": lambda: rooms.screen_token(room.code, key),
    }
    before = rooms.pulse(room.code)
    with pytest.raises(HostOnly):
        calls[action]()
    assert rooms.pulse(room.code) == before


def test_another_rooms_screen_key_or_the_host_key_reads_no_screen(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    other, other_host = make_room(rooms)
    for key in (rooms.screen_token(other.code, other_host), host, room.code * 4):
        with pytest.raises(ScreenOnly):
            rooms.screen_room(room.code, key)
        with pytest.raises(ScreenOnly):
            rooms.screen_names(room.code, key)
    assert rooms.screen_token(room.code, host) == screen_token(rooms.room(room.code)
                                                               .join_secret)


def test_the_screen_reads_names_never_seat_tokens(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    seats = [rooms.join(room.code, n) for n in ("Ann", "Bob", "Cy")]
    rooms.kick(room.code, host, seats[1].token)
    key = rooms.screen_token(room.code, host)
    names = rooms.screen_names(room.code, key)
    assert list(names.values()) == ["Ann", "Cy"]
    assert not {s.token for s in seats} & set(names)
    rooms.start(room.code, host)
    answer(rooms, room.code, seats[0].token, 0)
    rooms.reveal(room.code, host)
    shown = rooms.screen_answers(room.code, key)
    assert [a.seat for a in shown] == [next(iter(names))]
    assert seats[0].token not in repr(shown)


def test_the_screen_gets_an_open_questions_answers_only_in_a_live_room(
        rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    key = rooms.screen_token(room.code, host)
    with pytest.raises(RoomError, match="at the reveal"):
        rooms.screen_answers(room.code, key, 0)  # the lobby
    rooms.start(room.code, host)
    answer(rooms, room.code, seat.token, 0)
    assert rooms.screen_tally(room.code, key, 0) == (1, 1)  # counts, always
    with pytest.raises(RoomError, match="at the reveal"):
        rooms.screen_answers(room.code, key, 0)
    assert rooms.screen_answers(room.code, key) == []  # all: none revealed yet
    rooms.change_settings(room.code, host, RoomSettings(live="live"))
    assert [a.action for a in rooms.screen_answers(room.code, key, 0)] == ["Pass"]
    rooms.change_settings(room.code, host, RoomSettings(live="after-reveal"))
    rooms.reveal(room.code, host)
    assert [a.action for a in rooms.screen_answers(room.code, key, 0)] == ["Pass"]
    rooms.next(room.code, host)  # question 2 open, hidden: question 1 stays shown
    answer(rooms, room.code, seat.token, 1, "Challenge")
    assert [a.question for a in rooms.screen_answers(room.code, key)] == [0]
    with pytest.raises(RoomError, match="at the reveal"):
        rooms.screen_answers(room.code, key, 1)


def test_a_step_pressed_on_a_page_showing_an_earlier_step_is_refused(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    rooms.start(room.code, host, ("lobby", 0))
    rooms.reveal(room.code, host, ("question", 0))
    seen = ("revealed", 0)  # a second remote, drawn at this step
    rooms.next(room.code, host, seen)  # the first remote moves on to question 2
    rooms.reveal(room.code, host, ("question", 1))
    with pytest.raises(Moved, match="moved on"):
        rooms.next(room.code, host, seen)  # the second remote's stale "Next question"
    with pytest.raises(Moved):
        rooms.finish(room.code, host, seen)
    now = rooms.room(room.code)
    assert (now.status, now.question) == ("revealed", 1)
