"""The host's remote and the presenter screen as pages: the screen draws no control and never
the host key at any step of a room; the remote does every control action, offers the screen
view, copies its own link without showing it and shows its QR code only on request; an old
host link lands on the remote; two remotes stay in step."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.helpers import shipped_bank
from tests.test_room_page import (
    db_url,
    html,
    joined,
    made_room,
    open_room,
    polled,
    rooms,
    screen_of,
    texts,
)
from trainer.rooms.questions import choose
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import RoomStore
from trainer.views import room_remote

__all__ = ["db_url", "rooms"]  # the fixtures, shared with the Room page's tests

CONTROLS = {"room_start", "room_reveal", "room_next", "room_finish", "room_kick",
            "room_apply", "room_close", "room_reopen", "room_show_qr", "room_hide_qr"}


def everything(at: AppTest) -> str:
    """Every element the page drew, as its protobuf text: what its browser would receive."""
    out: list[str] = []

    def walk(node: object) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            out.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(out)


def assert_bare(screen: AppTest, host: str, when: str) -> None:
    assert not screen.exception, [e.value for e in screen.exception]
    drawn = everything(screen)
    assert drawn, "the screen drew nothing"
    assert host not in drawn, f"the host key on the screen {when}"
    widgets = [w.key for kind in ("button", "checkbox", "radio", "toggle", "number_input",
                                  "selectbox", "link_button") for w in screen.get(kind)
               if not str(w.key).startswith("ct_")]  # the menu's large-type switch is not
    assert not widgets, f"controls on the screen {when}: {widgets}"  # the room's
    assert "host=" not in drawn and "People and settings" not in drawn, when


def test_the_screen_draws_no_control_and_no_host_key_at_any_step(rooms: RoomStore) -> None:
    code, host = made_room(rooms, leaderboard="each")
    phone = joined(code)
    rooms.change_settings(code, host, RoomSettings(leaderboard="each", screen_code=True))
    screen = screen_of(rooms, code, host)
    assert code in html(screen) and "1 joined" in html(screen)
    assert_bare(screen, host, "in the lobby")
    remote = open_room(code=code, host=host)
    remote.button(key="room_start").click().run()
    polled(screen)
    assert "Question 1 of" in texts(screen)
    assert_bare(screen, host, "with a question open")
    polled(phone)
    phone.button(key="room_option_0_0").click().run()
    polled(screen)
    assert "1 of 1 answered" in html(screen)
    remote.button(key="room_reveal").click().run()
    polled(screen)
    assert "Best move" in texts(screen) and "Leaderboard" in texts(screen)
    assert_bare(screen, host, "at the reveal")
    remote.button(key="room_next").click().run()  # the last question: the end
    polled(screen)
    assert "How the room did" in [h.value for h in screen.header]
    assert [e.label for e in screen.expander] == []  # each person's results: on the remote
    assert_bare(screen, host, "at the end")


def test_the_screen_follows_an_expired_room_and_offers_no_reopen(rooms: RoomStore) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from trainer.learners.answers import now
    from trainer.rooms.store import rooms_table

    code, host = made_room(rooms)
    with rooms.engine.begin() as conn:
        conn.execute(update(rooms_table).where(rooms_table.c.code == code).values(
            expires_at=now() - timedelta(minutes=1)))
    screen = screen_of(rooms, code, host)
    assert "has expired" in texts(screen) and "reopen it from the remote" in texts(screen)
    assert_bare(screen, host, "when expired")
    open_room(code=code, host=host).button(key="room_reopen").click().run()
    polled(screen)
    assert "has expired" not in texts(screen) and code in html(screen)


def test_a_wrong_screen_key_shows_nothing_of_the_room(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    at = open_room(code=code, screen="y" * 32)
    assert "does not carry room" in texts(at) and "screen key" in texts(at)
    assert code not in html(at)


def test_the_remote_does_every_control_action(rooms: RoomStore) -> None:
    bank = shipped_bank()
    source = Source(count=3, seed=7)
    room, host = rooms.create(source, RoomSettings(), [i.id for i in choose(bank, source)],
                              bank.version)
    code = room.code
    ann, _bob = rooms.join(code, "Ann"), rooms.join(code, "Bob")
    remote = open_room(code=code, host=host)
    step = lambda: (rooms.room(code).status, rooms.room(code).question)  # noqa: E731
    # settings, in the lobby
    remote.radio(key=f"room_set_{rooms.room(code).version}_board").set_value("end").run()
    remote.button(key="room_apply").click().run()
    assert rooms.room(code).settings.leaderboard == "end"
    # remove someone (the bulk remove)
    next(b for b in remote.checkbox if b.label == "Ann").check().run()
    remote.button(key="room_kick").click().run()
    assert [s.kicked for s in rooms.seats(code, host) if s.token == ann.token] == [True]
    remote.run()
    remote.button(key="room_start").click().run()
    assert step() == ("question", 0)
    assert "Question 1 of 3: 0 of 1 answered." in texts(remote)
    remote.button(key="room_reveal").click().run()
    assert step() == ("revealed", 0)
    remote.button(key="room_next").click().run()
    assert step() == ("question", 1)
    remote.button(key="room_reveal").click().run()
    remote.button(key="room_finish").click().run()
    assert step() == ("finished", 1)
    assert "Each person's results" in [e.label for e in remote.expander], texts(remote)
    remote.button(key="room_close").click().run()
    assert rooms.room(code).status == "closed"
    assert f"Room {code} is closed" in texts(remote)


def test_a_second_remote_at_an_earlier_step_cannot_skip_a_question(rooms: RoomStore) -> None:
    bank = shipped_bank()
    source = Source(count=3, seed=7)
    room, host = rooms.create(source, RoomSettings(), [i.id for i in choose(bank, source)],
                              bank.version)
    code = room.code
    laptop = open_room(code=code, host=host)
    laptop.button(key="room_start").click().run()
    laptop.button(key="room_reveal").click().run()
    phone = open_room(code=code, host=host)  # the teacher's phone, at question 1 revealed
    laptop.button(key="room_next").click().run()
    laptop.button(key="room_reveal").click().run()  # question 2 revealed from the laptop
    phone.button(key="room_next").click().run()  # the phone's stale "Next question"
    now = rooms.room(code)
    assert (now.status, now.question) == ("revealed", 1)
    assert "moved on since this page was drawn" in texts(phone)
    assert "Question 2 of 3" in texts(phone)  # and it shows the room as it is now


def test_an_old_host_link_opens_the_remote_with_the_screen_view_one_click_away(
        rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    remote = open_room(code=code, host=host)
    said = texts(remote)
    assert f"Your remote for room {code}" in said and "screen view" in said
    assert room_remote.NOT_THIS_PAGE in said
    links = [b for b in remote.get("link_button")]
    assert len(links) == 1
    url = links[0].proto.url
    assert f"code={code}" in url and f"screen={rooms.screen_token(code, host)}" in url
    assert host not in url and "host=" not in url
    # The remote's own link is never printed: only the copy button's script holds it.
    assert not remote.code and host not in html(remote) and host not in said
    assert "coup-qr" not in html(remote)  # no QR code until asked for


def test_the_remote_qr_shows_on_request_and_hides_once_a_phone_opens_the_remote(
        rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    laptop = open_room(code=code, host=host)
    laptop.button(key="room_show_qr").click().run()
    assert "coup-qr" in html(laptop) and f"The remote of room {code}" in html(laptop)
    assert host not in html(laptop)  # the link is in the QR's modules, not its text
    laptop.run()
    assert "coup-qr" in html(laptop)  # still shown: no other tab opened the remote yet
    open_room(code=code, host=host)  # the teacher's phone scans it
    laptop.run()
    assert "coup-qr" not in html(laptop)
    assert room_remote.QR_SCANNED in texts(laptop)
    laptop.button(key="room_show_qr").click().run()
    laptop.button(key="room_hide_qr").click().run()
    assert "coup-qr" not in html(laptop)
