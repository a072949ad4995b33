"""The Room page's side of the join limits: a page that lost its seat from the address gets
it back, a tab whose answer came second is told which answer counts, the host removes
several people at once, and an expired room stays expired until the host reopens it."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update

from tests.test_room_page import db_url, joined, made_room, open_room, polled, rooms, texts
from trainer.learners.answers import now
from trainer.rooms.store import RoomStore, rooms_table

__all__ = ["db_url", "rooms"]  # the fixtures, shared with the Room page's tests


def test_a_page_that_drops_its_seat_from_the_address_gets_the_same_seat(
        rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    phone = joined(code)
    seat = phone.query_params["seat"]
    del phone.query_params["seat"]
    phone.run()
    phone.button(key="FormSubmitter:room_join_form-Join").click().run()
    assert phone.query_params["seat"] == seat
    assert len(rooms.seats(code, host)) == 1


def test_the_tab_whose_answer_came_second_is_told_which_answer_counts(
        rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    first = joined(code)
    seat = first.query_params["seat"]
    rooms.start(code, host)
    polled(first)
    second = open_room(code=code, seat=str(seat))  # the same seat in another tab
    labels = [b.label for b in first.button if (b.key or "").startswith("room_option_0_")]
    first.button(key="room_option_0_0").click().run()
    second.button(key="room_option_0_1").click().run()
    said = texts(second)
    assert "already answered" in said and f"**{labels[0]}**" in said and "counts" in said
    assert rooms.my_answers(code, str(seat))[0].action == labels[0]


def test_the_host_ticks_two_people_and_removes_both_at_once(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    ann, bob = rooms.join(code, "Ann"), rooms.join(code, "Bob")
    rooms.join(code, "Cy")
    screen = open_room(code=code, host=host)
    for box in screen.checkbox:
        if box.label in ("Ann", "Bob"):
            box.check()
    screen.run()
    assert screen.button(key="room_kick").label == "Remove 2 people"
    screen.button(key="room_kick").click().run()
    kicked = {s.token for s in rooms.seats(code, host) if s.kicked}
    assert kicked == {ann.token, bob.token}
    assert [b.label for b in screen.checkbox] == ["Cy"]


def test_an_expired_room_stays_expired_until_the_host_reopens_it(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    with rooms.engine.begin() as conn:
        conn.execute(update(rooms_table).where(rooms_table.c.code == code).values(
            expires_at=now() - timedelta(minutes=1)))
    phone = open_room(code=code)
    assert "has expired" in texts(phone) and "seat" not in phone.query_params
    screen = open_room(code=code, host=host)
    assert "has expired" in texts(screen)
    assert not [b for b in screen.button if b.key == "room_start"]
    assert rooms.room(code).expires_at < now()  # opening the screen revived nothing
    screen.button(key="room_reopen").click().run()
    assert rooms.room(code).expires_at > now()
    assert joined(code).query_params["seat"]
