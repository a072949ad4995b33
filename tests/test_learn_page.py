"""The Learn page under Streamlit's AppTest: the library, stepping, prompts, links, and a broken
lesson file that does not take the library down."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import shipped_library
from trainer.scenarios.lessons import FIVE_MINUTES

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = shipped_library()


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def html(at: AppTest) -> str:
    return "\n".join(h.value for h in at.get("html"))


def test_learn_is_the_first_page_and_lists_every_lesson(at: AppTest) -> None:
    assert at.title[0].value == "Learn Coup"
    for lesson in LIBRARY.lessons:
        assert at.button(key=f"open_{lesson.id}")
    assert "Learn Coup in five minutes" in [s.value for s in at.subheader]


def test_the_five_minute_path_shows_its_modelled_time(at: AppTest) -> None:
    from trainer.views.path_model import path_model

    path = LIBRARY.five_minutes()
    assert [x.id for x in path] == list(FIVE_MINUTES)
    model = path_model(path)
    caption = " ".join(c.value for c in at.caption)
    assert f"{len(model.screens)} screens" in caption
    assert f"about {model.minutes_text()} minutes" in caption


def test_filtering_by_variant_shows_only_its_lessons(at: AppTest) -> None:
    at.pills(key="variant_filter").set_value("mcguire").run()
    shown = [b.key for b in at.button if b.key and b.key.startswith("open_")]
    assert shown and all(LIBRARY.get(k[5:]).variant == "mcguire" for k in shown)


def heading(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown if m.value.startswith("## "))


def caption(at: AppTest) -> str:
    return " ".join(str(p.proto.text) for p in at.get("progress"))


def options(at: AppTest) -> dict[str, object]:
    return {b.label: b for b in at.button if b.key and b.key.startswith("option_")}


def test_opening_a_lesson_sets_a_shareable_link(at: AppTest) -> None:
    at.button(key="open_first-block").click().run()
    assert at.query_params["lesson"] in ("first-block", ["first-block"])
    assert LIBRARY.get("first-block").title in heading(at)
    assert 'data-seat="Ana"' in html(at)


def test_the_start_button_opens_the_first_lesson_of_the_path(at: AppTest) -> None:
    at.button(key="start_path").click().run()
    assert LIBRARY.get(FIVE_MINUTES[0]).title in heading(at)
    assert "Lesson 1 of 6" in caption(at)


def test_a_link_opens_a_lesson_at_a_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.query_params["lesson"] = "rulebook-example-play"
    app.query_params["step"] = "18"
    app.run()
    assert not app.exception
    assert "**Maria: coup Ely**" in text(app)
    assert "18 of 24" in caption(app)


def test_a_bad_step_in_a_link_falls_back_to_the_first_screen(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.query_params["lesson"] = "first-block"
    app.query_params["step"] = "lots"
    app.run()
    assert not app.exception and "The set-up." in text(app)


def test_an_unknown_lesson_in_a_link_shows_the_library_with_a_warning(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.query_params["lesson"] = "no-such-lesson"
    app.run()
    assert app.title[0].value == "Learn Coup"
    assert "no-such-lesson" in app.warning[0].value


def test_stepping_forward_and_back_in_a_lesson_to_watch(at: AppTest) -> None:
    at.button(key="open_rulebook-example-play").click().run()
    at.button(key="next").click().run()
    assert "1 of 24" in caption(at)
    assert "**Maria claims Duke: tax**" in text(at)
    at.button(key="back").click().run()
    assert "0 of 24" in caption(at)


def test_a_question_blocks_next_until_answered(at: AppTest) -> None:
    at.button(key="open_learn-coins").click().run()
    assert at.button(key="next").disabled
    assert "Your turn. Income takes 1 coin." in text(at)


def test_a_wrong_answer_explains_itself_and_allows_a_retry(at: AppTest) -> None:
    at.button(key="open_learn-coins").click().run()
    options(at)["Coup Ben: pay 7"].click().run()
    assert "A Coup costs 7 coins. You have 4." in at.error[0].value
    assert "The rules do not allow it" in at.error[0].value
    assert at.button(key="next").disabled
    options(at)["Income: take 1"].click().run()
    assert "Income is always safe." in at.success[0].value
    assert not at.button(key="next").disabled


def test_the_right_answer_plays_the_move_and_the_replies(at: AppTest) -> None:
    at.button(key="open_learn-coins").click().run()
    options(at)["Income: take 1"].click().run()
    assert "Ben takes Income too." in text(at)
    assert 'data-seat="Ana"' in html(at) and "<b>42</b> in the Treasury" in html(at)


def test_finishing_a_lesson_marks_it_in_the_library(at: AppTest) -> None:
    at.button(key="open_learn-ten-coins").click().run()
    options(at)["Coup Ben: pay 7"].click().run()
    assert "**Lesson complete** ★★★" in text(at)
    assert at.button(key="next").label == "Next lesson"
    at.button(key="to_library").click().run()
    assert "★★★ **Ten coins means Coup**" in text(at)


def test_next_on_a_lesson_s_last_screen_opens_the_next_lesson(at: AppTest) -> None:
    at.button(key="open_learn-ten-coins").click().run()
    options(at)["Coup Ben: pay 7"].click().run()
    at.button(key="next").click().run()
    assert at.query_params["lesson"] in (FIVE_MINUTES[0], [FIVE_MINUTES[0]])


def test_the_intro_shows_the_five_characters(at: AppTest) -> None:
    at.button(key="open_learn-characters").click().run()
    page = html(at)
    for card in ("Duke", "Assassin", "Captain", "Ambassador", "Contessa"):
        assert f'data-card="{card}"' in page
    at.button(key="next").click().run()
    assert "You hold the Duke. Claim it to take 3 coins." in text(at)


def test_the_first_game_is_won_by_its_line(at: AppTest) -> None:
    at.button(key="open_learn-first-game").click().run()
    assert at.button(key="next").disabled
    for label in ("Tax: claim Duke, take 3", "Block: claim Duke", "Coup Ben: pay 7"):
        options(at)[label].click().run()
        assert not at.exception, [e.value for e in at.exception]
    assert "You win against Ben" in at.success[0].value
    at.button(key="next").click().run()  # on to the first lesson not finished
    assert at.query_params["lesson"] in (FIVE_MINUTES[0], [FIVE_MINUTES[0]])


def test_take_back_undoes_the_last_move_of_the_game(at: AppTest) -> None:
    at.button(key="open_learn-first-game").click().run()
    options(at)["Income: take 1"].click().run()
    assert at.button(key="back").label == "Take back"
    at.button(key="back").click().run()
    assert "Take Ben's last influence." in text(at)


def test_the_timeline_lists_the_moves_so_far_newest_first(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.query_params["lesson"] = "rulebook-example-play"
    app.query_params["step"] = "12"
    app.run()
    jumps = [b.key for b in app.button if b.key and b.key.startswith("jump_")]
    assert jumps == [f"jump_{n}" for n in range(12, 0, -1)]  # nothing to come is given away
    app.button(key="jump_10").click().run()
    assert "**Cris loses Assassin**" in text(app)


def test_the_game_so_far_is_absent_before_the_first_move(at: AppTest) -> None:
    at.button(key="open_learn-coins").click().run()
    assert not [e for e in at.expander if "What happened" in e.label]


def test_the_game_so_far_lists_the_newest_turn_first(at: AppTest) -> None:
    at.button(key="open_learn-coins").click().run()
    options(at)["Income: take 1"].click().run()
    assert [e for e in at.expander if "What happened" in e.label]
    page = html(at)
    assert page.index("Ben: Income") < page.index("You: Income")


def test_a_broken_lesson_file_shows_its_error_and_the_rest_still_works(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("first-block.yaml", "first-challenge.yaml"):
        shutil.copy(ROOT / "scenarios" / name, tmp_path / name)
    broken = tmp_path / "broken-lesson.yaml"
    broken.write_text((ROOT / "scenarios" / "first-block.yaml").read_text()
                      .replace("id: first-block", "id: broken-lesson")
                      .replace("Ana blocks with Contessa", "Ana blocks with Contesa"))
    monkeypatch.setenv("COUP_TRAINER_SCENARIOS", str(tmp_path))
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.run()
    assert not app.exception
    assert "broken-lesson.yaml" in app.error[0].value and "Contesa" in app.error[0].value
    app.button(key="open_first-block").click().run()
    assert not app.exception and LIBRARY.get("first-block").title in heading(app)


def test_large_type_scales_the_learn_page_and_stays_in_the_link(at: AppTest) -> None:
    from trainer.views import chrome

    assert chrome.stylesheet(False) in html(at)
    at.toggle(key="ct_large_type").set_value(True).run()  # the router's switch, every page
    assert chrome.stylesheet(True) in html(at)
    at.button(key="open_first-block").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert chrome.stylesheet(True) in html(at) and at.query_params["large"] in ("1", ["1"])
    at.button(key="to_library").click().run()
    assert not at.exception and chrome.stylesheet(True) in html(at)
