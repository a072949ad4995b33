"""The shop-window kiosk: the loop's playlist and clock without a browser, then the page
under AppTest (a slide with its QR, "Try it", a graded answer that is never saved, and the
station giving the screen back to the loop after a minute alone), and the QR's link."""

from __future__ import annotations

import re
import sqlite3
from html import unescape
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

import trainer.ui.kiosk as ui_kiosk
from tests.helpers import shipped_bank, shipped_library
from trainer.quiz.bank import DEFAULT_BANK
from trainer.quiz.solved import load_solved, solved_path
from trainer.rooms import kiosk as rk
from trainer.scenarios.lesson_session import LessonSession
from trainer.scenarios.screens import screens
from trainer.ui.links import base_url

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "streamlit_app.py")
LIBRARY = shipped_library()
BANK = shipped_bank()
GRADES = load_solved(solved_path(DEFAULT_BANK), BANK)
PLAYLIST = rk.build_playlist(LIBRARY, BANK, GRADES, seed=0)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------------ the playlist
def test_the_same_seed_gives_the_same_loop_and_another_seed_another_order():
    again = rk.build_playlist(LIBRARY, BANK, GRADES, seed=0)
    other = rk.build_playlist(LIBRARY, BANK, GRADES, seed=1)
    assert again == PLAYLIST
    lessons = [s for s in PLAYLIST if isinstance(s, rk.LessonSlide)]
    assert other != PLAYLIST
    assert sorted(map(repr, lessons)) == sorted(
        repr(s) for s in other if isinstance(s, rk.LessonSlide))


def test_the_loop_mixes_lesson_stories_with_solved_decisions():
    kinds = [type(s) for s in PLAYLIST]
    assert rk.LessonSlide in kinds and rk.DecisionSlide in kinds
    # a story, then a decision, never two decisions in a row
    assert not any(a is b is rk.DecisionSlide for a, b in zip(kinds, kinds[1:], strict=False))
    for slide in PLAYLIST:
        if isinstance(slide, rk.DecisionSlide):
            item = BANK.get(slide.item)
            assert item is not None and GRADES.entry(item) is not None
        else:
            lesson = LIBRARY.get(slide.lesson)
            assert lesson is not None and lesson.variant == "base"


def test_a_story_is_a_lessons_first_screens_in_order():
    lesson = LIBRARY.get("learn-challenges")
    assert lesson is not None
    story = rk.lesson_story(lesson)
    played = [s for s in screens(lesson.run) if s.kind == "play"]
    assert [s.screen for s in story] == [s.number for s in played]
    assert [s.step for s in story] == list(range(1, len(story) + 1))
    assert all(s.asks and s.steps == len(played) for s in story)
    long_one = LIBRARY.get("rulebook-example-play")
    assert long_one is not None
    assert [s.screen for s in rk.lesson_story(long_one)] == list(range(rk.STORY_SCREENS))


def kicker(slide_html: str) -> str:
    """The small line above a slide's title."""
    found = re.search(r'class="kk-kicker">([^<]*)<', slide_html)
    assert found is not None
    return unescape(found.group(1))


def test_a_lesson_slide_names_the_lesson_and_its_step_in_learns_words():
    """"Lesson · 3 of 6" read as the third lesson of six, while it was the third screen of
    one lesson's story. Learn says "Lesson 2 of 5" for the place on the five-minute path; the
    kiosk says that too, then the step, counted over the whole lesson."""
    from trainer.views import kiosk_text as kt
    from trainer.views.lesson_text import screen_caption

    path = [x.id for x in LIBRARY.five_minutes()]
    on_path = off_path = 0
    for slide in PLAYLIST:
        if not isinstance(slide, rk.LessonSlide):
            continue
        lesson = LIBRARY.get(slide.lesson)
        assert lesson is not None
        words = kicker(kt.lesson_slide(lesson, slide, "ask", ""))
        shown = [s for s in screens(lesson.run) if s.kind in ("play", "watch")]
        step = next(k for k, s in enumerate(shown, start=1) if s.number == slide.screen)
        if lesson.id in path:
            place = (path.index(lesson.id) + 1, len(path))
            assert words == f"Lesson {place[0]} of {place[1]} · step {step} of {len(shown)}"
            # the Learn page on the same screen names the lesson with the same words
            last = max(s.number for s in screens(lesson.run))
            caption = screen_caption(lesson, slide.screen, last, place)
            assert caption.startswith(f"Lesson {place[0]} of {place[1]}"), (caption, words)
            on_path += 1
        else:
            assert words == f"Lesson · step {step} of {len(shown)}"
            off_path += 1
    assert on_path and off_path


def test_a_story_cut_short_counts_the_steps_of_the_whole_lesson():
    lesson = LIBRARY.get("rulebook-example-play")
    assert lesson is not None
    story = rk.lesson_story(lesson)
    whole = len([s for s in screens(lesson.run) if s.kind in ("play", "watch")])
    assert len(story) == rk.STORY_SCREENS < whole
    from trainer.views import kiosk_text as kt

    assert kicker(kt.lesson_slide(lesson, story[-1], "ask", "")) == \
        f"Lesson · step {rk.STORY_SCREENS} of {whole}"


def test_only_decisions_with_a_settled_solved_verdict_are_shown():
    for item in rk.solved_decisions(BANK, GRADES):
        solved = GRADES.entry(item)
        assert solved is not None and not solved.trivial and solved.settled


# ------------------------------------------------------------------------ the clock
def test_a_slide_stays_up_for_its_time_then_the_next_comes():
    first = rk.slide_seconds(PLAYLIST[0])
    start = rk.Cursor(0, 100.0)
    assert rk.advance(start, 100.0 + first - 0.1, PLAYLIST) == start
    assert rk.advance(start, 100.0 + first, PLAYLIST) == rk.Cursor(1, 100.0 + first)


def test_a_question_stands_alone_before_its_answer_is_revealed():
    index = next(k for k, s in enumerate(PLAYLIST) if isinstance(s, rk.DecisionSlide))
    cursor = rk.Cursor(index, 0.0)
    wait = rk.ask_seconds(PLAYLIST[index])
    assert wait > 0
    assert rk.phase(cursor, wait - 0.5, PLAYLIST) == "ask"
    assert rk.phase(cursor, wait, PLAYLIST) == "answer"


def test_the_loop_never_ends_and_a_screen_asleep_for_hours_resumes_on_time():
    loop = sum(rk.slide_seconds(s) for s in PLAYLIST)
    start = rk.Cursor(0, 0.0)
    assert rk.advance(start, loop, PLAYLIST) == rk.Cursor(0, loop)
    later = rk.advance(start, 1000 * loop + 0.5, PLAYLIST)
    assert later == rk.Cursor(0, 1000 * loop)


def test_the_station_is_idle_only_after_a_minute_without_a_touch():
    clock = FakeClock()
    state: dict[str, object] = {}
    kiosk = rk.Kiosk(state, clock)
    kiosk.try_it(rk.station_pool(BANK))
    clock.now += rk.IDLE_SECONDS - 1
    kiosk.nudge(5)
    clock.now += rk.IDLE_SECONDS - 1
    assert kiosk.mode == "station" and not kiosk.idle()
    clock.now += 1
    assert kiosk.idle()


# ------------------------------------------------------------------------ the page
@pytest.fixture
def db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The router's first page may reach the answers database: a throwaway one."""
    path = tmp_path / "answers.db"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", f"sqlite:///{path}")
    return path


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(ui_kiosk, "clock", fake)
    return fake


def kiosk_page(**state: object) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page("pages/kiosk.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def html(at: AppTest) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def qr_links(at: AppTest) -> list[str]:
    return [unescape(x) for x in re.findall(r'class="coup-qr" role="img" aria-label="([^"]+)"',
                                            html(at))]


def option_buttons(at: AppTest):
    return [b for b in at.button if (b.key or "").startswith("kiosk_option_")]


def answers_saved(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("select name from sqlite_master")}
        return conn.execute("select count(*) from answers").fetchone()[0] \
            if "answers" in tables else 0


def test_the_loop_shows_a_slide_with_a_qr_and_try_it(db_path, clock):
    at = kiosk_page()
    page = html(at)
    assert 'class="kk-slide"' in page and 'class="ct-table"' in page
    assert len(qr_links(at)) == 1 and "data:image/svg+xml;base64," in page
    assert at.button(key="kiosk_try").label == "Try it: you decide"


def test_the_loop_moves_on_by_the_clock_and_reveals_a_decisions_answer(db_path, clock):
    index = next(k for k, s in enumerate(PLAYLIST) if isinstance(s, rk.DecisionSlide))
    at = kiosk_page(kiosk_cursor=rk.Cursor(index, clock.now))
    assert 'data-kind="decision" data-phase="ask"' in html(at)
    assert "chance you win the game" not in html(at)
    clock.now += rk.ask_seconds(PLAYLIST[index])
    at.run()
    assert 'data-kind="decision" data-phase="answer"' in html(at)
    assert "Best move" in html(at) and "chance you win the game" in html(at)
    clock.now += rk.slide_seconds(PLAYLIST[index])
    at.run()
    assert at.session_state["kiosk_cursor"].index == index + 1


def test_try_it_shows_one_decision_with_its_answer_buttons(db_path, clock):
    at = kiosk_page()
    at.button(key="kiosk_try").click().run()
    item = BANK.get(at.session_state["kiosk_item"])
    assert item is not None and item.variant == "base" and not item.trivial
    from trainer.quiz.feedback import option_namer

    said = option_namer(item, item.game())  # the reader's words for each option's move
    assert [b.label for b in option_buttons(at)] == [said(o.label) for o in item.options]
    assert 'class="ct-table"' in html(at) and 'class="kk-slide"' not in html(at)
    assert at.button(key="kiosk_back").label == "Back to the loop"


def test_answering_a_claim_shows_a_grade_and_saves_nothing(db_path, clock):
    claim = next(i for i in rk.station_pool(BANK) if i.has_claim)
    at = kiosk_page(kiosk_mode="station", kiosk_item=claim.id, kiosk_p=50,
                    kiosk_touched=clock.now)
    assert at.slider(key="kiosk_p").label == "Chance it is a bluff"
    at.slider(key="kiosk_p").set_value(75).run()
    at.button(key="kiosk_nudge_5").click().run()
    option_buttons(at)[0].click().run()
    assert not at.exception
    boxes = [e.value for e in (*at.success, *at.info, *at.warning, *at.error)]
    graded = [b for b in boxes if b.startswith("**") and " · " in b]
    assert len(graded) == 1
    assert any("you said 80%" in m.value for m in at.markdown)
    assert "chance you win the game" in html(at)
    (kept,) = option_buttons(at)
    assert kept.disabled and kept.label.endswith("your answer")
    assert answers_saved(db_path) == 0


def test_a_minute_without_a_touch_brings_the_loop_back(db_path, clock):
    at = kiosk_page()
    at.button(key="kiosk_try").click().run()
    assert option_buttons(at)
    clock.now += rk.IDLE_SECONDS - 1
    at.run()
    assert option_buttons(at), "the station closed before a minute was up"
    clock.now += 1
    at.run()
    assert not at.exception
    assert not option_buttons(at) and 'class="kk-slide"' in html(at)
    assert at.session_state["kiosk_mode"] == "loop"


def test_back_to_the_loop_leaves_the_station(db_path, clock):
    at = kiosk_page()
    at.button(key="kiosk_try").click().run()
    at.button(key="kiosk_back").click().run()
    assert not option_buttons(at) and at.button(key="kiosk_try")


# ------------------------------------------------------------------------ the QR's link
def test_a_lesson_qr_opens_that_lesson_at_an_absolute_address(db_path, clock):
    at = kiosk_page()
    slide = PLAYLIST[at.session_state["kiosk_cursor"].index]
    assert isinstance(slide, rk.LessonSlide)
    (link,) = qr_links(at)
    parts = urlsplit(link)
    assert parts.scheme in ("http", "https") and parts.hostname and parts.path == "/learn"
    assert parts.hostname not in ("localhost", "127.0.0.1")
    walk = LessonSession(dict(parse_qsl(parts.query)), {})
    lesson = walk.lesson(LIBRARY)
    assert lesson is not None and lesson.id == slide.lesson


def test_a_loopback_address_becomes_the_lan_address_and_others_are_kept():
    assert base_url("http://localhost:8501/kiosk", lan="192.168.1.20", port=8501) \
        == "http://192.168.1.20:8501"
    assert base_url("http://127.0.0.1:8620/kiosk", lan="10.0.0.5", port=8501,
                    base_path="/coup/") == "http://10.0.0.5:8620/coup"
    assert base_url("https://coup.example.org/kiosk", lan="10.0.0.5", port=8501) \
        == "https://coup.example.org"
    assert base_url(None, lan="10.0.0.5", port=8501) == "http://10.0.0.5:8501"
    assert rk.lesson_link("http://10.0.0.5:8501", "learn-blocks", 2) \
        == "http://10.0.0.5:8501/learn?lesson=learn-blocks&step=2"
