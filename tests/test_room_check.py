"""A room of "Check yourself": the rules questions after the Learn path, put to a class. The
host makes it, phones see the learner's table and one button per option, each answer is
stored once and judged right or wrong by the verdict layer, the reveal and the end show the
class's share right; an old database keeps its rooms, and a question the lesson file no longer
asks is named plainly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import shipped_library
from tests.test_room_page import html, joined, open_room, param, polled, screen_of, texts
from trainer.learners.storage import Store
from trainer.rooms import check
from trainer.rooms.results import answer_points, right_by_question, right_count, standings
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import RoomError, RoomStore
from trainer.scenarios.lesson_session import shuffled
from trainer.verdicts.rules import RulesAnswerError, judge_rules
from trainer.views.move_labels import your_move

LIBRARY = shipped_library()
LESSON = LIBRARY.check()
assert LESSON is not None
QUESTIONS = check.check_questions(LESSON)
FIXTURE = Path(__file__).parent / "data" / "database" / "release-0002.db"


@pytest.fixture
def db_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    return url


@pytest.fixture
def rooms(db_url: str) -> RoomStore:
    return RoomStore(Store(db_url).engine)


def check_room(rooms: RoomStore, ids: list[str] | None = None, version: str | None = None,
               **settings: object) -> tuple[str, str]:
    ids = [q.id for q in QUESTIONS] if ids is None else ids
    room, host = rooms.create(Source(kind="check", lesson=check.DEFAULT_LESSON, count=len(ids)),
                              RoomSettings(**settings), ids,
                              version or check.version(LIBRARY))
    return room.code, host


def labels(n: int = 0) -> list[str]:
    """Question n's options as the phones word them, in the phones' order."""
    q = QUESTIONS[n]
    game = q.game()
    return [your_move(game, o.move) for o in q.options]


def right_index(n: int = 0) -> int:
    return next(i for i, o in enumerate(QUESTIONS[n].options) if o.correct)


def wrong_index(n: int = 0) -> int:
    return next(i for i, o in enumerate(QUESTIONS[n].options) if not o.correct)


def submit(rooms: RoomStore, code: str, token: str, question: int, option: int) -> bool:
    q = QUESTIONS[question]
    return rooms.submit(code, token, question,
                        **check.rules_fields(q, q.options[option].label, 2.0))  # type: ignore[arg-type]


# ------------------------------------------------------------------ the verdict layer
def test_a_rules_answer_is_right_only_when_it_is_the_lessons_own_move() -> None:
    options = ["Ana: coup Ben", "Ana: income"]
    assert judge_rules("Ana: coup Ben", options, "Ana: coup Ben").correct
    assert not judge_rules("Ana: income", options, "Ana: coup Ben").correct
    with pytest.raises(RulesAnswerError, match="not one of this question's options"):
        judge_rules("Ana: tax", options, "Ana: coup Ben")


def test_a_rules_answer_is_stored_right_or_wrong_with_no_grade(rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    ann, ben = rooms.join(code, "Ann"), rooms.join(code, "Ben")
    rooms.start(code, host)
    assert submit(rooms, code, ann.token, 0, right_index())
    assert submit(rooms, code, ben.token, 0, wrong_index())
    by_seat = {a.seat: a for a in rooms.answers(code, host, 0)}
    assert by_seat[ann.token].correct is True and by_seat[ben.token].correct is False
    assert all(a.grade is None and a.lost_pp is None and a.stated is None
               for a in by_seat.values())
    assert by_seat[ann.token].best == QUESTIONS[0].right.label
    assert right_count(by_seat.values()) == (1, 2)
    assert [answer_points(by_seat[s.token]) for s in (ann, ben)] == [100.0, 0.0]
    table = standings(by_seat.values(), {ann.token: "Ann", ben.token: "Ben"})
    assert [(s.name, s.right) for s in table] == [("Ann", 1), ("Ben", 0)]


def test_a_rules_answer_with_a_grade_is_refused(rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    ann = rooms.join(code, "Ann")
    rooms.start(code, host)
    fields = check.rules_fields(QUESTIONS[0], QUESTIONS[0].right.label, 1.0)
    fields.update(grade="best", lost_pp=0.0)
    with pytest.raises(RoomError, match="right or wrong, not graded"):
        rooms.submit(code, ann.token, 0, **fields)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the host
def test_the_host_makes_a_check_yourself_room(rooms: RoomStore) -> None:
    at = open_room(host="")
    at.segmented_control(key="room_new_kind").set_value("check").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "6 questions · Check yourself" in texts(at)
    assert not [s for s in at.selectbox if s.key == "room_new_bank"]  # no bank to choose
    at.button(key="room_make").click().run()
    code = param(at, "code")
    room = rooms.room(code)
    assert room.source.kind == "check" and room.source.lesson == "learn-check"
    assert list(room.questions) == [f"check:learn-check:{q.step}" for q in QUESTIONS]
    assert room.bank_version == check.version(LIBRARY)
    shown = texts(at)  # the page made it becomes its remote
    assert f"Your remote for room {code}" in shown
    assert "Check yourself: rules questions after the Learn path" in shown


# ------------------------------------------------------------------ the phones
def test_a_phone_sees_the_learners_table_the_question_and_one_button_per_option(
        rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    phone, other = joined(code), joined(code)
    rooms.start(code, host)
    polled(phone)
    polled(other)
    page = html(phone)
    assert 'class="ct-table ct-table--compact"' in page and 'data-seat="Ana"' in page
    assert "everyone plays **Ana**" in texts(phone)
    assert "You start your turn with 10 coins." in texts(phone)
    options = [b.label for b in phone.button if (b.key or "").startswith("room_option_0_")]
    assert options == labels(0) and len(options) == 3
    # the Learn page's order, the same on every phone
    assert [o.label for o in QUESTIONS[0].options] == [
        o.label for o in shuffled(QUESTIONS[0].prompt.options, "learn-check", 1)]
    assert [b.label for b in other.button if (b.key or "").startswith("room_option_0_")] \
        == options
    assert not phone.slider  # no chance of a bluff to give


def test_a_double_click_stores_the_first_answer_only(rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    phone = joined(code)
    seat = param(phone, "seat")
    rooms.start(code, host)
    polled(phone)
    first, second = phone.button(key=f"room_option_0_{right_index()}"), \
        phone.button(key=f"room_option_0_{wrong_index()}")
    first.click().run()
    assert "Your answer is in" in texts(phone)
    second.click().run()  # the second tap of a double click: the widget of the page before
    assert not submit(rooms, code, seat, 0, wrong_index())  # and a resend
    (answer,) = rooms.answers(code, host, 0)
    assert answer.correct is True and answer.action == QUESTIONS[0].right.label
    assert rooms.tally(code, host, 0) == (1, 1)


def test_a_stale_tab_cannot_answer_a_question_the_host_moved_past(rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    phone = joined(code)
    rooms.start(code, host)
    polled(phone)  # the phone shows question 1 ...
    rooms.reveal(code, host)
    rooms.next(code, host)  # ... while the room is at question 2
    phone.button(key="room_option_0_0").click().run()
    assert "Answers for that question are closed" in texts(phone)
    assert rooms.answers(code, host) == []


# ------------------------------------------------------------------ the reveal
def test_nothing_of_the_answers_is_on_the_screen_before_the_reveal(rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    ann = rooms.join(code, "Ann")
    rooms.start(code, host)
    submit(rooms, code, ann.token, 0, right_index())
    screen = screen_of(rooms, code, host)
    page = html(screen)
    assert "1 of 1 answered" in page
    assert 'aria-label="The options on the phones"><li><span>Tax: claim Duke, take 3</span>' \
        in page  # the options, without a count or a mark
    assert '<b class="n"' not in page and 'class="right"' not in page and "✓" not in page
    assert "Right answer" not in texts(screen)


def test_a_live_room_counts_each_option_without_saying_which_is_right(
        rooms: RoomStore) -> None:
    code, host = check_room(rooms, live="live")
    ann = rooms.join(code, "Ann")
    rooms.start(code, host)
    submit(rooms, code, ann.token, 0, right_index())
    page = html(screen_of(rooms, code, host))
    assert 'aria-label="1 answer">1</b>' in page
    assert 'class="right"' not in page and "✓" not in page


def test_the_reveal_shows_the_right_answer_and_the_count_per_option(rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    phone = joined(code)
    seats = [rooms.join(code, n) for n in ("Ann", "Ben")]
    rooms.start(code, host)
    polled(phone)
    phone.button(key=f"room_option_0_{wrong_index()}").click().run()
    submit(rooms, code, seats[0].token, 0, right_index())
    submit(rooms, code, seats[1].token, 0, right_index())
    screen = screen_of(rooms, code, host)
    open_room(code=code, host=host).button(key="room_reveal").click().run()
    polled(screen)
    shown, page = texts(screen), html(screen)
    assert '<p class="room-count">2 of 3 right</p>' in page
    right = QUESTIONS[0].right
    assert f"Right answer: **{labels(0)[right_index()]}**. {right.explanation}" in shown
    counts = {label: (2 if i == right_index() else 1 if i == wrong_index() else 0)
              for i, label in enumerate(labels(0))}
    for label, n in counts.items():
        mark = " ✓" if label == labels(0)[right_index()] else ""
        assert f"<span>{label}{mark}</span><b class=\"n\"" in page
        assert f'>{n}</b></li>' in page.split(f"<span>{label}{mark}</span>", 1)[1][:80]
    polled(phone)
    mine = [str(e.value) for e in phone.error]
    assert any("Not quite" in m and QUESTIONS[0].options[wrong_index()].explanation in m
               for m in mine), mine
    assert f"Right answer: **{labels(0)[right_index()]}**" in texts(phone)


def test_a_phone_answered_right_is_told_so_at_the_reveal(rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    phone = joined(code)
    rooms.start(code, host)
    polled(phone)
    phone.button(key=f"room_option_0_{right_index()}").click().run()
    rooms.reveal(code, host)
    polled(phone)
    assert any("**Right.**" in str(s.value) for s in phone.success), texts(phone)


# ------------------------------------------------------------------ the end
def test_the_end_lists_each_question_asked_with_the_share_of_the_class_right(
        rooms: RoomStore) -> None:
    code, host = check_room(rooms, leaderboard="end")
    phone = joined(code)
    ann = rooms.join(code, "Ann")
    rooms.start(code, host)
    polled(phone)
    phone.button(key=f"room_option_0_{right_index(0)}").click().run()
    submit(rooms, code, ann.token, 0, wrong_index(0))
    rooms.reveal(code, host)
    rooms.next(code, host)
    polled(phone)
    phone.button(key=f"room_option_1_{right_index(1)}").click().run()
    submit(rooms, code, ann.token, 1, right_index(1))
    rooms.reveal(code, host)
    rooms.finish(code, host)  # ended after question 2 of 6
    screen = screen_of(rooms, code, host)
    page, shown = html(screen), texts(screen)
    assert f"<li>{QUESTIONS[0].prompt.question} — <b>1 of 2 right</b> (50%)</li>" in page
    assert f"<li>{QUESTIONS[1].prompt.question} — <b>2 of 2 right</b> (100%)</li>" in page
    assert QUESTIONS[2].prompt.question not in page  # never asked
    assert "The class: 3 of 4 answers right (75%), over 2 questions." in page
    assert "The room ended after question 2 of 6." in shown
    # Each person's results are on the host's remote, not on the projector.
    assert len(screen.dataframe) == 1  # the leaderboard alone
    remote = open_room(code=code, host=host)
    assert not remote.dataframe  # a plain table: no download of names as they are
    people = remote.table[-1].value
    row = people[people["Name"] == "Ann"].iloc[0]
    assert (row["Right"], row["Q1"], row["Q2"]) == (1, "wrong", "right")
    polled(phone)
    mine = texts(phone)
    assert "You got **2 of 2** right." in mine
    assert "**Q1** You start your turn with 10 coins. — you: **right** · the class: 50% right" \
        in mine
    assert "— you: **right** · the class: 100% right" in mine


def test_a_phone_reads_the_class_share_only_once_the_room_has_finished(
        rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    ann = rooms.join(code, "Ann")
    rooms.start(code, host)
    submit(rooms, code, ann.token, 0, right_index())
    with pytest.raises(RoomError, match="when the room has finished"):
        rooms.class_right(code, ann.token)
    rooms.reveal(code, host)
    rooms.finish(code, host)
    assert rooms.class_right(code, ann.token) == {0: (1, 1)}
    assert right_by_question(rooms.answers(code, host)) == {0: (1, 1)}


# ------------------------------------------------------------------ old rooms, changed lessons
def test_a_database_of_the_release_before_keeps_its_room_and_takes_a_rules_answer(
        tmp_path: Path) -> None:
    copy = tmp_path / "released.db"
    shutil.copyfile(FIXTURE, copy)
    store = Store(f"sqlite:///{copy}")
    try:
        rooms = RoomStore(store.engine)
        with store.engine.connect() as conn:
            code, token = conn.exec_driver_sql("SELECT room, token FROM room_seats").one()
        room = rooms.room(code)
        assert room.source.kind == "drill"  # its source as it was stored
        (old,) = rooms.my_answers(code, token).values()
        assert (old.grade, old.lost_pp, old.correct) == ("best", 0.0, None)
        new, host = check_room(rooms)  # a rules room beside it, in the upgraded tables
        seat = rooms.join(new, "Ann")
        rooms.start(new, host)
        assert submit(rooms, new, seat.token, 0, right_index())
        assert rooms.my_answers(new, seat.token)[0].correct is True
    finally:
        store.close()


def test_a_step_the_lesson_no_longer_asks_resolves_to_nothing() -> None:
    assert check.resolve(LIBRARY, "check:learn-check:2") is None  # a step with no prompt
    assert check.resolve(LIBRARY, "check:learn-gone:1") is None
    assert check.resolve(LIBRARY, "puzzle:x") is None
    assert check.resolve(LIBRARY, QUESTIONS[1].id) == QUESTIONS[1]


def test_a_question_the_lesson_file_no_longer_asks_is_named_plainly(rooms: RoomStore) -> None:
    code, host = check_room(rooms, ids=["check:learn-check:2", QUESTIONS[1].id],
                            version="check-learn-check-000000000000")
    phone = joined(code)
    rooms.start(code, host)
    polled(phone)
    said = "cannot be found: the \"Check yourself\" lesson file changed after this room was made"
    assert said in texts(phone) and not [b for b in phone.button
                                         if (b.key or "").startswith("room_option_")]
    screen = screen_of(rooms, code, host)
    assert said in texts(screen)
    assert "lesson file was changed after this room was made" in texts(screen)
    remote = open_room(code=code, host=host)
    remote.button(key="room_reveal").click().run()
    remote.button(key="room_next").click().run()  # the room goes on to the next question
    polled(screen)
    assert "Ben wants to steal 2 of your coins." in html(screen)


def _no_seat_cards(at: AppTest) -> list[str]:
    """The cards drawn on other seats of the phone's table: none may be a face-down one."""
    import re

    out = []
    for name, body in re.findall(r'<section class="ct-seat[^"]*" data-seat="([^"]+)">'
                                 r"(.*?)</section>", html(at), flags=re.S):
        if name != "Ana":
            out += [c for c in re.findall(r'data-card="([^"]+)"', body) if c != "back"]
    return out


def test_the_phones_table_shows_no_other_seats_face_down_card(rooms: RoomStore) -> None:
    code, host = check_room(rooms)
    phone = joined(code)
    rooms.start(code, host)
    polled(phone)
    # Cat's Contessa is face up from the start; Ben's two cards and Cat's Duke are face down.
    assert sorted(_no_seat_cards(phone)) == ["Contessa"]
