"""The Learn page under Streamlit's AppTest: the library, stepping, prompts, links, and a broken
lesson file that does not take the library down."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import shipped_library
from trainer.scenarios.lessons import FIVE_MINUTES
from trainer.views.lesson_text import HISTORY_LABEL

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = shipped_library()
FIRST_GAME_LINE = ("Tax: claim Duke, take 3", "Don't challenge",
                   "Assassinate Ben: claim Assassin, pay 3", "Don't challenge",
                   "Tax: claim Duke, take 3", "Give up Duke",
                   "Assassinate Ben: claim Assassin, pay 3")


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


def test_the_five_minute_path_shows_the_time_the_browser_measured(at: AppTest) -> None:
    from trainer.views.path_model import stored_measure

    path = LIBRARY.five_minutes()
    assert [x.id for x in path] == list(FIVE_MINUTES)
    measure = stored_measure(path)
    assert measure is not None
    caption = " ".join(c.value for c in at.caption)
    assert f"{measure.screens} screens" in caption
    assert f"about {measure.minutes_text()} minutes" in caption


def test_lessons_the_browser_did_not_measure_show_the_lesson_files_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A teacher's folder: the measure on disk is of other lessons, so the page does not
    quote it."""
    from trainer.views.path_model import path_model

    for f in (ROOT / "scenarios").glob("learn-*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    first = tmp_path / "learn-coins.yaml"
    first.write_text(first.read_text().replace("Nobody can stop Income.",
                                               "Nobody can ever stop Income."))
    from trainer.scenarios.lessons import load_library

    lib = load_library(tmp_path)
    model = path_model(lib.five_minutes())
    monkeypatch.setenv("COUP_TRAINER_SCENARIOS", str(tmp_path))
    monkeypatch.chdir(ROOT)
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    at.run()
    assert not at.exception
    caption = " ".join(c.value for c in at.caption)
    assert f"about {model.minutes_text()} minutes" in caption


def test_a_broken_lesson_file_is_named_by_its_file_name_never_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Learn page may be on a projector: the teacher reads which file and line is wrong,
    in the page's language, and nobody reads where the server keeps its folders."""
    shutil.copy(ROOT / "scenarios" / "learn-coins.yaml", tmp_path / "learn-coins.yaml")
    broken = tmp_path / "learn-coins.yaml"
    broken.write_text(broken.read_text().replace("Ana: income", "Ana: incom", 1))
    monkeypatch.setenv("COUP_TRAINER_SCENARIOS", str(tmp_path))
    monkeypatch.chdir(ROOT)
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    at.query_params["lang"] = "fil"
    at.run()
    assert not at.exception
    [error] = [e.value for e in at.error]
    assert str(tmp_path) not in error
    assert "learn-coins.yaml:" in error
    assert "hindi mabasa ang galaw" in error, error
    # Nothing else in the folder: the page says so instead of an empty five-minute path.
    assert [i.value for i in at.info] == ["Walang aralin na na-load mula sa folder ng mga aralin."]
    assert "Matuto ng Coup sa limang minuto" not in [h.value for h in at.subheader]


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
    assert caption(at) == f"Lesson 1 of {len(FIVE_MINUTES)}"


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
    assert "Not yet. Take your coin first." in at.error[0].value
    assert at.button(key="next").disabled
    options(at)["Income: take 1"].click().run()
    assert "Nobody can stop Income." in at.success[0].value
    assert not at.button(key="next").disabled


def test_a_wrong_answer_the_rules_refuse_says_so(at: AppTest) -> None:
    at.button(key="open_learn-ten-coins").click().run()
    options(at)["Tax: claim Duke, take 3"].click().run()
    assert "Not allowed, even with a real Duke." in at.error[0].value
    assert "The rules do not allow it" in at.error[0].value


def test_the_right_answer_plays_the_move_and_the_replies(at: AppTest) -> None:
    at.button(key="open_learn-coins").click().run()
    options(at)["Income: take 1"].click().run()
    assert "Nobody can stop Income." in at.success[0].value
    assert 'data-seat="Ana"' in html(at) and "<b>39</b> in the Treasury" in html(at)


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
    assert "Your Captain steals 2 coins from another player." in text(at)


def test_the_first_game_is_won_by_its_line(at: AppTest) -> None:
    at.button(key="open_learn-first-game").click().run()
    assert at.button(key="next").disabled
    for label in FIRST_GAME_LINE:
        options(at)[label].click().run()
        assert not at.exception, [e.value for e in at.exception]
    assert "You win against Ben" in at.success[0].value
    assert not at.info  # no mistake along the line
    at.button(key="next").click().run()  # on to the first lesson not finished
    assert at.query_params["lesson"] in (FIVE_MINUTES[0], [FIVE_MINUTES[0]])


def test_take_back_undoes_the_last_move_of_the_game(at: AppTest) -> None:
    at.button(key="open_learn-first-game").click().run()
    options(at)["Income: take 1"].click().run()
    assert at.button(key="back").label == "Take back"
    at.button(key="back").click().run()
    assert "Take both of Ben's cards." in text(at)


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
    assert not [e for e in at.expander if e.label == HISTORY_LABEL]


def test_the_game_so_far_lists_the_newest_turn_first(at: AppTest) -> None:
    at.button(key="open_learn-coins").click().run()
    options(at)["Income: take 1"].click().run()
    assert [e for e in at.expander if e.label == HISTORY_LABEL]
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


def test_challenging_the_first_games_bot_is_explained_at_once(at: AppTest) -> None:
    at.button(key="open_learn-first-game").click().run()
    options(at)["Tax: claim Duke, take 3"].click().run()
    options(at)["Challenge Ben"].click().run()
    assert at.info[0].value == "Ben never bluffs, so the Duke was real."


def test_a_lost_first_game_says_why_in_one_sentence(at: AppTest) -> None:
    at.button(key="open_learn-first-game").click().run()
    for label in ("Tax: claim Duke, take 3", "Challenge Ben", "Give up Duke",
                  "Tax: claim Duke, take 3", "Challenge Ben"):  # the last card: no choice
        options(at)[label].click().run()
    assert "Ben wins this time." in at.warning[0].value
    assert "Ben never bluffs, so the Duke was real." in at.warning[0].value
    assert at.button(key="next").label == "Start again"


def test_a_won_first_game_leads_to_the_rules_and_a_full_game(at: AppTest) -> None:
    at.button(key="open_learn-first-game").click().run()
    for label in FIRST_GAME_LINE:
        options(at)[label].click().run()
    assert "[All the rules](rules)" in at.success[0].value
    assert "[Play a full game](play)" in at.success[0].value


def check_answers() -> list[tuple[int, str, list[str]]]:
    """Per question of "check yourself": (step, the right answer's label, the wrong ones)."""
    from trainer.scenarios.replay import replay
    from trainer.scenarios.screens import screens
    from trainer.views.move_labels import your_move

    lesson = LIBRARY.check()
    assert lesson is not None
    out = []
    for sc in screens(lesson.run):
        assert sc.prompt is not None
        game = replay(lesson.scenario, sc.shown)
        out.append((sc.number, your_move(game, sc.prompt.correct.move),
                    [your_move(game, o.move) for o in sc.prompt.options if not o.correct]))
    return out


def test_check_yourself_comes_after_the_path(at: AppTest) -> None:
    from trainer.scenarios.lessons import CHECK

    for lesson_id in FIVE_MINUTES:
        at.session_state["learn_progress"].finish(lesson_id)
    at.button(key="open_learn-first-game").click().run()
    for label in FIRST_GAME_LINE:
        options(at)[label].click().run()
    at.button(key="next").click().run()
    assert at.query_params["lesson"] in (CHECK, [CHECK])


def test_check_yourself_counts_the_first_try_only(at: AppTest) -> None:
    answers = check_answers()
    at.button(key="check_yourself").click().run()
    _, right, wrong = answers[0]
    options(at)[wrong[0]].click().run()
    options(at)[right].click().run()
    at.button(key="to_library").click().run()
    label = at.button(key="check_yourself").label
    assert f"0 of 1 right at the first try so far ({len(answers) - 1} to go)" in label


def test_a_finished_check_shows_the_score(at: AppTest) -> None:
    answers = check_answers()
    at.button(key="check_yourself").click().run()
    for k, (_, right, wrong) in enumerate(answers):
        if k == 0:
            options(at)[wrong[0]].click().run()
        options(at)[right].click().run()
        if k + 1 < len(answers):
            at.button(key="next").click().run()
    n = len(answers)
    assert f"· **{n - 1} of {n} right at the first try**" in text(at)
    at.button(key="to_library").click().run()
    assert f"{n - 1} of {n} right at the first try" in at.button(key="check_yourself").label
