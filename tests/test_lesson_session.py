"""Stepping through the lessons and the Rules page's choices on plain dicts, without Streamlit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from trainer.engine.variants import BASE, VARIANTS
from trainer.rulebook import choices
from trainer.scenarios.lesson_session import LessonSession, shuffled
from trainer.scenarios.lessons import load_library

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = load_library(ROOT / "scenarios")
LESSON = LIBRARY.get("first-goal-and-influence")


def walk(**params: str) -> LessonSession:
    return LessonSession(dict(params), {})


def test_the_address_opens_a_lesson_at_a_step() -> None:
    w = walk(lesson="first-goal-and-influence", step="1")
    assert w.lesson(LIBRARY) is LESSON and LESSON is not None and w.step(LESSON) == 1


@pytest.mark.parametrize(("given", "expected"), [("lots", 0), ("-3", 0), ("999", None)])
def test_a_step_out_of_range_is_brought_back_into_the_lesson(given: str,
                                                             expected: int | None) -> None:
    assert LESSON is not None
    assert walk(step=given).step(LESSON) == (LESSON.steps if expected is None else expected)


def test_opening_the_library_keeps_the_other_parameters() -> None:
    w = walk(lesson="first-block", step="3", large_type="true")
    w.state["answer"] = "Ana: income"
    w.open(None)
    assert w.params == {"large_type": "true"} and "answer" not in w.state


def test_a_picked_answer_is_forgotten_on_the_next_step() -> None:
    w = walk(lesson="first-block", step="0")
    w.answer("first-block", 1, "Ana: income", False)
    assert w.picked == "Ana: income"
    w.go(1)
    assert w.picked is None and w.params["step"] == "1"


def test_a_right_answer_is_kept_in_the_progress() -> None:
    w = walk()
    w.answer("first-block", 2, "Ana: block", True)
    assert w.progress.solved("first-block", 2)


def test_the_path_starts_then_continues_at_the_first_lesson_not_finished() -> None:
    path = LIBRARY.five_minutes()
    w = walk()
    assert w.start(path) == ("Start", path[0])
    w.progress.finish(path[0].id)
    assert w.start(path) == ("Continue", path[1])


def test_the_timeline_hides_the_moves_still_to_come_until_the_lesson_is_finished() -> None:
    assert LESSON is not None
    w = walk()
    assert w.seen(LESSON, 1) == 1
    w.progress.finish(LESSON.id)
    assert w.seen(LESSON, 1) == LESSON.steps


def test_a_questions_options_keep_their_order_across_reruns() -> None:
    prompt = next(p for x in LIBRARY.lessons for p in x.run.prompts())
    first = shuffled(prompt.options, "a-lesson", 3)
    assert first == shuffled(prompt.options, "a-lesson", 3)
    assert sorted(o.label for o in first) == sorted(o.label for o in prompt.options)


# ------------------------------------------------------------------------------ the Rules page
def test_the_table_rules_start_at_the_rulebook_defaults() -> None:
    state: dict[str, Any] = {}
    options = choices.chosen_options(state)
    assert options == options.defaults()
    assert state[choices.option_key("finite_treasury")] is True


def test_reset_brings_every_table_rule_back_to_its_default() -> None:
    state: dict[str, Any] = {choices.option_key("finite_treasury"): False}
    choices.reset_options(state)
    assert choices.chosen_options(state) == choices.chosen_options({})


def test_a_player_count_from_another_variant_is_brought_into_range() -> None:
    draft = VARIANTS["draft"]
    state: dict[str, Any] = {choices.PLAYERS: BASE.max_players}
    choices.fit_players(state, draft)
    assert state[choices.PLAYERS] == draft.max_players
