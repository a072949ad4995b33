"""A room in the database: the host alone steers it, a seat sees only its own answers, a double
submit counts once. Each runs on SQLite and on PostgreSQL (db_url)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import event

from trainer.learners.storage import Store
from trainer.rooms.codes import new_token, screen_code
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import HostOnly, Room, RoomError, RoomGone, RoomStore

QUESTIONS = ["q1", "q2", "q3"]


@pytest.fixture
def rooms(db_url: str) -> Iterator[RoomStore]:
    store = Store(db_url)
    yield RoomStore(store.engine)
    store.close()


def make_room(rooms: RoomStore, **settings: object) -> tuple[Room, str]:
    return rooms.create(Source(), RoomSettings(**settings), QUESTIONS, "default-abc")


def answer(rooms: RoomStore, code: str, seat: str, question: int, action: str = "Pass",
           stated: float | None = 0.4) -> bool:
    return rooms.submit(code, seat, question, item_id=QUESTIONS[question], action=action,
                        stated=stated, bot=0.3, bluff=True, best="Challenge", lost_pp=12.0,
                        grade="mistake", seconds=4.0)


def test_a_new_room_waits_in_the_lobby_with_a_six_character_code(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    assert len(room.code) == 6 and room.status == "lobby"
    assert host not in room.code and rooms.is_host(room.code, host)


def test_the_host_token_is_not_stored_in_the_clear(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    with rooms.engine.connect() as conn:
        dump = repr(conn.exec_driver_sql("select * from rooms").fetchall())
    assert host not in dump


def test_a_participants_token_cannot_reveal(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    rooms.start(room.code, host)
    seat = rooms.join(room.code, "Ann")
    with pytest.raises(HostOnly):
        rooms.reveal(room.code, seat.token)
    assert rooms.room(room.code).status == "question"


@pytest.mark.parametrize("action", ["reveal", "next", "finish", "close", "kick", "settings",
                                    "seats", "answers", "tally", "start"])
def test_a_guessed_host_token_is_refused_for_every_host_action(rooms: RoomStore,
                                                               action: str) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    guess = new_token()
    calls = {
        "start": lambda: rooms.start(room.code, guess),
        "reveal": lambda: rooms.reveal(room.code, guess),
        "next": lambda: rooms.next(room.code, guess),
        "finish": lambda: rooms.finish(room.code, guess),
        "close": lambda: rooms.close(room.code, guess),
        "kick": lambda: rooms.kick(room.code, guess, seat.token),
        "settings": lambda: rooms.change_settings(room.code, guess,
                                                  RoomSettings(leaderboard="each")),
        "seats": lambda: rooms.seats(room.code, guess),
        "answers": lambda: rooms.answers(room.code, guess),
        "tally": lambda: rooms.tally(room.code, guess, 0),
    }
    before = rooms.pulse(room.code)
    with pytest.raises(HostOnly):
        calls[action]()
    assert rooms.pulse(room.code) == before


def test_the_room_code_itself_is_not_a_host_token(rooms: RoomStore) -> None:
    room, _host = make_room(rooms)
    with pytest.raises(HostOnly):
        rooms.start(room.code, room.code)


def test_a_double_submit_counts_once_and_the_first_answer_stands(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    rooms.start(room.code, host)
    assert answer(rooms, room.code, seat.token, 0, "Pass") is True
    assert answer(rooms, room.code, seat.token, 0, "Challenge") is False
    mine = rooms.my_answers(room.code, seat.token)
    assert list(mine) == [0] and mine[0].action == "Pass"
    assert rooms.tally(room.code, host, 0) == (1, 1)


def test_answers_close_when_the_host_reveals(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    rooms.start(room.code, host)
    rooms.reveal(room.code, host)
    with pytest.raises(RoomError, match="closed"):
        answer(rooms, room.code, seat.token, 0)


def test_an_answer_to_another_question_than_the_open_one_is_refused(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    rooms.start(room.code, host)
    with pytest.raises(RoomError):
        answer(rooms, room.code, seat.token, 1)


def test_a_seat_reads_only_its_own_answers(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    ann, ben = rooms.join(room.code, "Ann"), rooms.join(room.code, "Ben")
    rooms.start(room.code, host)
    answer(rooms, room.code, ann.token, 0, "Pass")
    answer(rooms, room.code, ben.token, 0, "Challenge")
    assert [a.seat for a in rooms.my_answers(room.code, ann.token).values()] == [ann.token]
    assert {a.seat for a in rooms.answers(room.code, host, 0)} == {ann.token, ben.token}


def test_a_seat_polls_with_one_query_that_reads_no_answer(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    rooms.start(room.code, host)
    seen: list[str] = []

    def log(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        seen.append(statement)

    event.listen(rooms.engine, "before_cursor_execute", log)
    try:
        assert rooms.pulse(room.code) == (2, "question")
    finally:
        event.remove(rooms.engine, "before_cursor_execute", log)
    assert len(seen) == 1 and "room_answers" not in seen[0]


def test_a_kicked_seat_is_told_and_cannot_answer(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    rooms.start(room.code, host)
    before = rooms.pulse(room.code)
    rooms.kick(room.code, host, seat.token)
    assert rooms.pulse(room.code) != before  # the phone notices at its next poll
    with pytest.raises(RoomError, match="removed"):
        answer(rooms, room.code, seat.token, 0)
    assert rooms.tally(room.code, host, 0) == (0, 0)


def test_a_name_is_one_per_room_whatever_its_case(rooms: RoomStore) -> None:
    room, _host = make_room(rooms)
    rooms.join(room.code, "Ann")
    with pytest.raises(RoomError, match="taken"):
        rooms.join(room.code, "  ANN ")


def test_a_bad_name_says_what_a_name_may_hold(rooms: RoomStore) -> None:
    room, _host = make_room(rooms)
    with pytest.raises(RoomError, match="1 to 20 letters"):
        rooms.join(room.code, "<script>")


def test_an_unknown_code_says_there_is_no_such_room(rooms: RoomStore) -> None:
    with pytest.raises(RoomGone, match="no room"):
        rooms.join("ABCDEF", "Ann")


def test_a_closed_room_says_so(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    rooms.close(room.code, host)
    with pytest.raises(RoomGone, match="closed"):
        rooms.join(room.code, "Ann")


def test_a_room_expires_after_its_lifetime(rooms: RoomStore) -> None:
    room, _host = make_room(rooms)
    with pytest.raises(RoomGone, match="expired"):
        rooms.live_room(room.code, at=room.expires_at + timedelta(seconds=1))


def test_the_screen_code_is_needed_when_the_host_asks_for_it(rooms: RoomStore) -> None:
    room, _host = make_room(rooms, screen_code=True)
    with pytest.raises(RoomError, match="6-digit"):
        rooms.join(room.code, "Ann", "0000" if screen_code(room.join_secret) != "0000"
                   else "1111")
    assert rooms.join(room.code, "Ann", screen_code(room.join_secret)).nickname == "Ann"


def test_the_room_walks_from_lobby_through_each_question_to_the_end(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    seen = [rooms.start(room.code, host).status]
    for _ in QUESTIONS:
        seen.append(rooms.reveal(room.code, host).status)
        seen.append(rooms.next(room.code, host).status)
    assert seen == ["question", "revealed", "question", "revealed", "question", "revealed",
                    "finished"]


def test_next_before_the_reveal_is_refused(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    rooms.start(room.code, host)
    with pytest.raises(RoomError, match="Reveal"):
        rooms.next(room.code, host)


def test_a_seat_comes_back_from_its_token_alone(rooms: RoomStore, db_url: str) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    rooms.start(room.code, host)
    answer(rooms, room.code, seat.token, 0, "Pass")
    again = RoomStore(Store(db_url).engine)  # as after a server restart
    back = again.seat(room.code, seat.token)
    assert back is not None and back.nickname == "Ann"
    assert again.my_answers(room.code, seat.token)[0].action == "Pass"


def test_a_room_answer_refuses_a_grade_the_verdicts_do_not_know(rooms: RoomStore) -> None:
    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    rooms.start(room.code, host)
    with pytest.raises(RoomError, match="grade: expected one of best, good"):
        rooms.submit(room.code, seat.token, 0, item_id="q1", action="Pass", stated=0.4,
                     bot=0.3, bluff=True, best="Challenge", lost_pp=12.0,
                     grade="Best to blunder", seconds=4.0)


def test_a_damaged_stored_grade_names_the_question(rooms: RoomStore) -> None:
    from sqlalchemy import update

    from trainer.rooms.store import room_answers_table

    room, host = make_room(rooms)
    seat = rooms.join(room.code, "Ann")
    rooms.start(room.code, host)
    answer(rooms, room.code, seat.token, 0)
    assert rooms.my_answers(room.code, seat.token)[0].grade == "mistake"
    with rooms._engine.begin() as conn:
        conn.execute(update(room_answers_table).values(grade="dreadful"))
    with pytest.raises(RoomError, match="question 1 is damaged .*got 'dreadful'"):
        rooms.my_answers(room.code, seat.token)


def test_a_phone_opening_the_remote_is_seen_by_another_process_as_a_scan(
        db_url: str, rooms: RoomStore) -> None:
    """Behind `python -m trainer serve` the laptop showing the QR code and the phone that
    scans it may be served by two processes: the scan is in the room's row, read by both."""
    from datetime import UTC, datetime

    room, host = make_room(rooms)
    other = Store(db_url)  # the laptop's process
    try:
        laptop = RoomStore(other.engine)
        shown = datetime.now(UTC) - timedelta(seconds=1)
        rooms.remote_opened(room.code, host, "laptop-tab")
        assert not laptop.remote_scanned(room.code, host, "laptop-tab", shown)  # its own
        rooms.remote_opened(room.code, host, "phone-tab")
        assert laptop.remote_scanned(room.code, host, "laptop-tab", shown)
        assert not laptop.remote_scanned(room.code, host, "laptop-tab",
                                         datetime.now(UTC) + timedelta(seconds=5))
        assert laptop.room(room.code).version == room.version  # phones need not redraw
    finally:
        other.close()


def test_only_the_host_key_records_or_reads_a_scan_of_the_remote(rooms: RoomStore) -> None:
    from datetime import UTC, datetime

    room, _host = make_room(rooms)
    with pytest.raises(HostOnly):
        rooms.remote_opened(room.code, new_token(), "phone-tab")
    with pytest.raises(HostOnly):
        rooms.remote_scanned(room.code, new_token(), "laptop-tab", datetime.now(UTC))
