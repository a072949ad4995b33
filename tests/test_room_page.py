"""The Room page as a host and phones use it: make a room, join in two steps, answer, come
back after a reload, reveal; the host's controls refuse anyone without the host key."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from tests.helpers import shipped_bank
from trainer.learners.storage import Store
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import RoomStore

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


@pytest.fixture
def db_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    return url


@pytest.fixture
def rooms(db_url: str) -> RoomStore:
    return RoomStore(Store(db_url).engine)


def open_room(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("pages/room.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def screen_of(rooms: RoomStore, code: str, host: str) -> AppTest:
    """The presenter screen, opened by its screen key as the host's remote links to it."""
    return open_room(code=code, screen=rooms.screen_token(code, host))


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [str(e.value) for e in at.error] + \
        [str(i.value) for i in at.info] + [str(w.value) for w in at.warning] + \
        [str(x.value) for x in at.success] + \
        [c.value for c in at.caption] + [s.value for s in at.subheader]
    return "\n".join(parts)


def html(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.get("html"))


def made_room(rooms: RoomStore, **settings: object) -> tuple[str, str]:
    from trainer.rooms.questions import choose

    bank = shipped_bank()  # the room's bank: "default"
    source = Source(count=3, seed=7)
    items = [i for i in choose(bank, source) if i.has_claim][:1] or choose(bank, source)
    room, host = rooms.create(source, RoomSettings(**settings), [i.id for i in items],
                              bank.version)
    return room.code, host


def polled(phone: AppTest, wait: bool = False) -> None:
    """The phone's next poll: a change the host made shows once the shared one-second cache
    of the room's version (`rooms.pulse`) has moved on, as on a real phone. With `wait` the
    second is waited out, which also shows that the cache lets go by then (one test does);
    otherwise the cache is emptied, as its expiry would, without the wait."""
    from trainer.ui.rooms import pulse

    if wait:
        time.sleep(1.1)
    else:
        pulse.clear()
    phone.run()


def joined(code: str) -> AppTest:
    at = open_room(code=code)
    at.button(key="FormSubmitter:room_join_form-Join").click().run()
    assert "seat" in at.query_params, texts(at)
    return at


def test_the_host_makes_a_room_and_sees_its_code_and_qr(db_url: str) -> None:
    at = open_room(host="")
    at.button(key="room_make").click().run()
    code = at.query_params["code"][0] if isinstance(at.query_params["code"], list) \
        else at.query_params["code"]
    assert len(code) == 6 and at.query_params["host"]
    screen = open_room(code=code, screen=RoomStore(Store(db_url).engine).screen_token(
        code, at.query_params["host"]))
    page = html(screen)
    assert code in page and "data:image/svg+xml" in page and "Nobody has joined yet" in page


def test_a_phone_joins_with_a_generated_name_in_two_steps(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    at = joined(code)
    assert "your name in the room" in texts(at) and "will start soon" in texts(at)
    assert len(rooms.seats(code, host)) == 1


def test_a_taken_name_is_refused_with_a_message(rooms: RoomStore) -> None:
    code, _host = made_room(rooms, names="names")
    rooms.join(code, "Ann")
    at = open_room(code=code)
    at.text_input(key="room_typed_name").set_value("ann")
    at.button(key="FormSubmitter:room_join_form-Join").click().run()
    assert "seat" not in at.query_params and "taken" in texts(at)


def test_a_typed_code_with_a_typo_is_named(db_url: str) -> None:
    at = open_room()
    at.text_input(key="room_typed_code").set_value("AB0")
    at.button(key="FormSubmitter:room_code_form-Next").click().run()
    assert "6 letters and digits" in texts(at)


def test_an_unknown_code_says_there_is_no_such_room(db_url: str) -> None:
    at = open_room(code="ZZZZZZ")
    assert "There is no room ZZZZZZ" in texts(at)


def test_a_phone_answers_and_a_reload_brings_back_its_seat_and_answer(
        rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    phone = joined(code)
    seat = phone.query_params["seat"]
    rooms.start(code, host)
    polled(phone, wait=True)
    phone.button(key="room_option_0_0").click().run()
    assert "Your answer is in" in texts(phone)
    again = open_room(code=code, seat=seat)  # a reload: a new tab, the same address
    assert "Your answer is in" in texts(again)
    assert rooms.tally(code, host, 0) == (1, 1)


def test_a_phone_before_the_reveal_reads_no_other_answer(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    other = rooms.join(code, "Ben")
    phone = joined(code)
    rooms.start(code, host)
    rooms.submit(code, other.token, 0, item_id=rooms.room(code).questions[0],
                 action="Pass", stated=0.3, bot=0.3, bluff=True, best="Pass", lost_pp=0.0,
                 grade="best", seconds=1.0)
    seen: list[tuple[str, object]] = []

    def log(_c: object, _cur: object, statement: str, parameters: object, *_a: object) -> None:
        seen.append((statement, parameters))

    event.listen(Engine, "before_cursor_execute", log)  # every engine: the app has its own
    try:
        polled(phone)
    finally:
        event.remove(Engine, "before_cursor_execute", log)
    reads = [(s, p) for s, p in seen if "room_answers" in s]
    assert reads and all("room_answers.seat = " in s for s, _p in reads)
    assert all(other.token not in repr(p) for _s, p in reads)


def test_the_presenter_hides_the_answers_until_the_reveal(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    phone = joined(code)
    rooms.start(code, host)
    polled(phone)
    phone.button(key="room_option_0_0").click().run()
    screen = screen_of(rooms, code, host)
    assert "1 of 1 answered" in html(screen)
    assert not screen.get("vega_lite_chart") and "hidden until you reveal" in texts(screen)
    remote = open_room(code=code, host=host)
    remote.button(key="room_reveal").click().run()
    polled(screen)  # the screen follows the room by its poll, as a phone does
    assert screen.get("vega_lite_chart") and "Best move" in texts(screen)


def test_a_guessed_host_key_gets_no_controls(rooms: RoomStore) -> None:
    code, _host = made_room(rooms)
    at = open_room(code=code, host="x" * 32)
    assert "host key" in texts(at)
    assert not [b for b in at.button if b.key in ("room_start", "room_reveal")]


def test_a_seat_token_in_the_host_slot_gets_no_controls(rooms: RoomStore) -> None:
    code, _host = made_room(rooms)
    seat = rooms.join(code, "Ann")
    at = open_room(code=code, host=seat.token)
    assert "host key" in texts(at)


def test_a_kicked_phone_is_told_it_was_removed(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    phone = joined(code)
    seat = phone.query_params["seat"]
    rooms.kick(code, host, seat)
    polled(phone)
    assert "removed you" in texts(phone)


def test_a_closed_room_says_so_on_the_phone(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    phone = joined(code)
    rooms.close(code, host)
    polled(phone)
    assert f"Room {code} is closed" in texts(phone)


def test_the_end_shows_the_class_against_the_bot(rooms: RoomStore) -> None:
    code, host = made_room(rooms, leaderboard="end")
    phone = joined(code)
    rooms.start(code, host)
    polled(phone)
    phone.button(key="room_option_0_0").click().run()
    rooms.reveal(code, host)
    rooms.next(code, host)
    screen = screen_of(rooms, code, host)
    assert "How the room did" in [h.value for h in screen.header]
    assert "Leaderboard" in texts(screen)
    polled(phone)
    assert "Your results" in texts(phone)


def test_a_puzzle_room_grades_a_phone_by_perfect_play(rooms: RoomStore) -> None:
    from trainer.rooms.questions import choose

    bank = shipped_bank()  # the room's bank: "default"
    source = Source(kind="puzzles", puzzles="trap", count=1, seed=4)
    item = choose(bank, source)[0]
    room, host = rooms.create(source, RoomSettings(), [item.id], bank.version)
    phone = joined(room.code)
    rooms.start(room.code, host)
    polled(phone)
    best = max(range(len(item.options)), key=lambda i: item.options[i].win)
    phone.button(key=f"room_option_0_{best}").click().run()
    rooms.reveal(room.code, host)
    polled(phone)
    assert "Best" in texts(phone) and "perfect play" in texts(phone).lower()


@pytest.mark.parametrize(("address", "reachable"), [
    ("127.0.0.1", False), ("localhost", False), ("::1", False), ("0.0.0.0", True), ("", True),
    ("192.168.1.20", True)])
def test_phones_can_join_only_when_the_server_listens_beyond_this_computer(
        monkeypatch: pytest.MonkeyPatch, address: str, reachable: bool) -> None:
    from trainer.ui import links

    monkeypatch.setattr(links.st, "get_option", lambda name: address)
    assert links.reachable_from_lan() is reachable


# ------------------------------------------------------------ house rules and table rules
RULES = "base+pay_five(challengers=all)"


def param(at: AppTest, key: str) -> str:
    value = at.query_params[key]
    return value[0] if isinstance(value, list) else value


def test_a_room_under_house_rules_asks_questions_made_for_them(
        rooms: RoomStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.quiz import rule_banks
    from trainer.quiz.bank import USER_BANK_ENV

    monkeypatch.setenv(USER_BANK_ENV, str(tmp_path / "banks"))
    monkeypatch.setattr(rule_banks, "ROLLOUTS", 8)  # a quick valuation: this tests the flow
    at = open_room(host="")
    assert at.selectbox(key="room_new_rules").value == "base"
    at.toggle(key="room_new_hr_pay_five").set_value(True).run()
    at.radio(key="room_new_opt_challengers").set_value("all").run()
    assert "No question here was played under these rules yet" in texts(at)
    assert at.button(key="room_make").disabled
    at.slider(key="room_new_count").set_value(3).run()
    at.button(key="room_make_questions_button").click().run()
    assert not at.exception, [e.value for e in at.exception]
    made = "rules-base+pay_five-challengers-all"
    assert at.selectbox(key="room_new_bank").value == made
    assert f"under these rules are in the bank '{made}'" in texts(at)
    assert not at.button(key="room_make").disabled
    at.button(key="room_make").click().run()
    code = param(at, "code")
    room = rooms.room(code)
    assert room.source.rule_set == RULES and room.source.bank == made
    shown = texts(at)
    assert "Coup (base game) + paying 5 instead of a card" in shown
    assert "House rules: 4. Paying instead of losing a card. Table rules: everyone who wants to "\
        "may challenge." in shown
    phone = joined(code)
    assert "Rules: **Coup (base game) + paying 5 instead of a card**." in texts(phone)
    at.button(key="room_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Question 1 of" in texts(at)
    assert rooms.room(code).item_id is not None


def test_a_room_of_every_rule_set_names_the_rules_of_each_question(db_url: str) -> None:
    at = open_room(host="")
    at.selectbox(key="room_new_rules").set_value("all").run()
    assert not at.exception
    assert not any(t.key == "room_new_hr_pay_five" for t in at.toggle)
    assert "Every rule set in the bank" in texts(at)
    assert not at.button(key="room_make").disabled


def test_a_bank_made_for_the_rules_is_offered_when_another_bank_is_chosen(
        db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.quiz import rule_banks
    from trainer.quiz.bank import USER_BANK_ENV

    monkeypatch.setenv(USER_BANK_ENV, str(tmp_path / "banks"))
    rule_banks.make_questions("base+bounty", 3, seed=2, rollouts=8)
    at = open_room(host="")
    at.selectbox(key="room_new_bank").set_value("default").run()
    at.toggle(key="room_new_hr_bounty").set_value(True).run()
    assert "was made for them" in texts(at)
    at.button(key="room_use_made").click().run()
    assert at.selectbox(key="room_new_bank").value == "rules-base+bounty"
    assert not at.button(key="room_make").disabled


def test_a_room_ended_after_its_first_question_sums_up_that_question_only(
        rooms: RoomStore) -> None:
    from trainer.rooms.questions import choose

    bank = shipped_bank()
    source = Source(count=10, seed=7)
    items = choose(bank, source)
    assert len(items) == 10
    room, host = rooms.create(source, RoomSettings(leaderboard="end"), [i.id for i in items],
                              bank.version)
    code = room.code
    phone, idle = joined(code), joined(code)
    rooms.start(code, host)
    polled(phone)
    phone.button(key="room_option_0_0").click().run()
    rooms.reveal(code, host)
    rooms.finish(code, host)
    polled(phone)
    polled(idle)
    mine = texts(phone)
    assert "Your results" in mine
    assert "Not answered" not in mine and "\n2." not in mine and "- 2." not in mine, mine
    assert "You answered the one question asked" in mine, mine
    assert "The room ended after question 1 of 10." in mine, mine
    theirs = texts(idle)
    assert theirs.count("Not answered") == 1 and "You did not answer the one question asked" \
        in theirs, theirs
    screen = screen_of(rooms, code, host)
    said = texts(screen)
    assert "The room ended after question 1 of 10." in said, said
    assert "On 1 answer about bluffs: too few to tell" in said, said


def test_a_room_ended_in_the_lobby_asked_nothing(rooms: RoomStore) -> None:
    code, host = made_room(rooms)
    phone = joined(code)
    rooms.finish(code, host)
    polled(phone)
    mine = texts(phone)
    assert "Not answered" not in mine and "The room ended before its first question." in mine
