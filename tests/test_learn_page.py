"""The Learn page under Streamlit's AppTest: the library, stepping, prompts, links, and a broken
lesson file that does not take the library down."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.scenarios.lessons import FIVE_MINUTES, load_library

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = load_library(ROOT / "scenarios")


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


def test_the_five_minute_path_is_measured_and_fits_in_five_minutes(at: AppTest) -> None:
    path = LIBRARY.five_minutes()
    assert [x.id for x in path] == list(FIVE_MINUTES)
    assert sum(x.minutes for x in path) <= 5
    caption = " ".join(c.value for c in at.caption)
    assert f"{sum(x.steps for x in path)} steps" in caption
    assert f"{sum(x.words for x in path)} words" in caption


def test_filtering_by_variant_shows_only_its_lessons(at: AppTest) -> None:
    at.pills(key="variant_filter").set_value("mcguire").run()
    shown = [b.key for b in at.button if b.key and b.key.startswith("open_")]
    assert shown and all(LIBRARY.get(k[5:]).variant == "mcguire" for k in shown)


def test_opening_a_lesson_sets_a_shareable_link(at: AppTest) -> None:
    at.button(key="open_first-block").click().run()
    assert at.query_params["lesson"] in ("first-block", ["first-block"])
    assert at.title[0].value == LIBRARY.get("first-block").title
    assert 'data-seat="Ana"' in html(at)


def test_a_link_opens_a_lesson_at_a_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.query_params["lesson"] = "rulebook-example-play"
    app.query_params["step"] = "18"
    app.run()
    assert not app.exception
    assert "Step 18: Maria: coup Ely" in text(app)
    assert "step 18 of 24" in " ".join(c.value for c in app.caption)


def test_a_bad_step_in_a_link_falls_back_to_the_set_up(monkeypatch) -> None:
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


def test_stepping_forward_and_back(at: AppTest) -> None:
    at.button(key="open_rulebook-example-play").click().run()
    at.button(key="next").click().run()
    assert "step 1 of 24" in " ".join(c.value for c in at.caption)
    assert "Step 1: Maria claims Duke: tax" in text(at)
    at.button(key="back").click().run()
    assert "step 0 of 24" in " ".join(c.value for c in at.caption)


def test_a_prompt_blocks_next_until_answered(at: AppTest) -> None:
    at.button(key="open_first-goal-and-influence").click().run()
    assert at.button(key="next").disabled
    assert "Ben has one influence left" in text(at)


def test_a_wrong_answer_explains_itself_and_allows_a_retry(at: AppTest) -> None:
    at.button(key="open_first-goal-and-influence").click().run()
    options = {b.label: b for b in at.button if b.key and b.key.startswith("option_")}
    options["Ana: income"].click().run()
    assert "One coin, while Ben stays in the game." in at.error[0].value
    assert at.button(key="next").disabled
    options = {b.label: b for b in at.button if b.key and b.key.startswith("option_")}
    options["Ana: coup Ben"].click().run()
    assert "Right: Ana: coup Ben." in at.success[0].value
    assert not at.button(key="next").disabled


def test_finishing_a_lesson_marks_it_in_the_library(at: AppTest) -> None:
    at.button(key="open_first-goal-and-influence").click().run()
    options = {b.label: b for b in at.button if b.key and b.key.startswith("option_")}
    options["Ana: coup Ben"].click().run()
    at.button(key="next").click().run()
    at.button(key="next").click().run()
    assert any("Lesson complete ★★★" in s.value for s in at.success)
    at.button(key="to_library").click().run()
    assert "★★★ **The goal: be the last with influence**" in text(at)


def test_the_timeline_lists_the_moves_so_far_and_jumps_back(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.query_params["lesson"] = "rulebook-example-play"
    app.query_params["step"] = "12"
    app.run()
    jumps = [b.key for b in app.button if b.key and b.key.startswith("jump_")]
    assert jumps == [f"jump_{n}" for n in range(13)]  # nothing still to come is given away
    app.button(key="jump_10").click().run()
    assert "Step 10: Cris loses Assassin" in text(app)


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
    assert not app.exception and app.title[0].value == LIBRARY.get("first-block").title


def test_large_type_scales_the_learn_page_and_stays_in_the_link(at: AppTest) -> None:
    from trainer.views import cardart

    assert cardart.stylesheet(large=False) in html(at)
    at.toggle(key="large_type").set_value(True).run()
    assert cardart.stylesheet(large=True) in html(at)
    at.button(key="open_first-block").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert cardart.stylesheet(large=True) in html(at)
    at.button(key="to_library").click().run()
    assert not at.exception and cardart.stylesheet(large=True) in html(at)
