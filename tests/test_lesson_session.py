"""Stepping through the lessons and the Rules page's choices on plain dicts, without Streamlit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import shipped_library
from trainer.engine.variants import BASE, VARIANTS
from trainer.rulebook import choices
from trainer.scenarios.lesson_session import LessonSession, shuffled
from trainer.scenarios.lessons import Progress

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = shipped_library()
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


def test_a_play_lesson_opens_at_its_first_question() -> None:
    coins = LIBRARY.get("learn-coins")
    assert coins is not None
    w = walk(lesson="learn-coins")
    assert w.step(coins) == 1
    screen = w.screen(coins)
    assert screen is not None and screen.prompt is not None and screen.shown == 0


def test_a_play_screen_is_answered_once_its_question_is_right() -> None:
    coins = LIBRARY.get("learn-coins")
    assert coins is not None
    w = walk(lesson="learn-coins", step="2")
    screen = w.screen(coins)
    assert screen is not None and screen.prompt is not None
    assert not w.answered(coins, screen)
    w.answer(coins.id, screen.prompt.step, "wrong", False)
    assert not w.answered(coins, screen)
    w.answer(coins.id, screen.prompt.step, "right", True)
    assert w.answered(coins, screen)


def test_an_intro_is_screen_zero() -> None:
    characters = LIBRARY.get("learn-characters")
    assert characters is not None
    screen = walk(lesson="learn-characters").screen(characters)
    assert screen is not None and screen.kind == "intro"


def test_the_game_keeps_the_learners_moves_and_takes_the_last_back() -> None:
    from trainer.scenarios.lesson_game import line_moves

    game = LIBRARY.get("learn-first-game")
    assert game is not None
    line = line_moves(game.scenario)
    w = walk()
    for move in line[:2]:
        w.play(game.id, move)
    assert w.practice_moves(game.id) == line[:2]
    w.take_back(game.id)
    assert w.practice_moves(game.id) == line[:1]
    w.restart(game.id)
    assert w.practice_moves(game.id) == []


def test_after_the_path_comes_check_yourself() -> None:
    w = walk()
    for x in LIBRARY.five_minutes():
        w.progress.finish(x.id)
    following = w.following(LIBRARY)
    assert following is not None and following.id == "learn-check"


def test_after_check_yourself_comes_the_rulebooks_example_game() -> None:
    w = walk()
    for x in [*LIBRARY.five_minutes(), LIBRARY.check()]:
        assert x is not None
        w.progress.finish(x.id)
    following = w.following(LIBRARY)
    assert following is not None and following.id == "rulebook-example-play"


def test_the_lesson_offered_next_is_never_the_one_open() -> None:
    first = LIBRARY.five_minutes()[0]
    following = walk().following(LIBRARY, current=first.id)
    assert following is not None and following.id != first.id


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


# ------------------------------------------------------------------------------ kept progress
class FakeSink:
    def __init__(self, learner: str = "b-1", saved: Progress | None = None) -> None:
        self.learner = learner
        self.saved = saved or Progress()
        self.marks: list[tuple[str, ...]] = []

    def load(self) -> Progress:
        return self.saved

    def answered(self, lesson: str, step: int, correct: bool) -> None:
        self.marks.append(("answer", lesson, str(step), str(correct)))

    def finished(self, lesson: str) -> None:
        self.marks.append(("finished", lesson))


def test_saved_progress_is_what_a_returning_learner_sees() -> None:
    saved = Progress()
    saved.finish("learn-coins")
    w = LessonSession({}, {}, FakeSink(saved=saved))
    assert w.progress.finished("learn-coins")


def test_each_answer_is_written_through_and_a_click_after_the_right_one_is_not() -> None:
    sink = FakeSink()
    w = LessonSession({}, {}, sink)
    w.answer("learn-coins", 1, "Coup", False)
    w.answer("learn-coins", 1, "Income", True)
    w.answer("learn-coins", 1, "Income", True)
    assert sink.marks == [("answer", "learn-coins", "1", "False"),
                          ("answer", "learn-coins", "1", "True")]


def test_a_lesson_is_written_finished_once() -> None:
    sink = FakeSink()
    w = LessonSession({}, {}, sink)
    w.finish("learn-coins")
    w.finish("learn-coins")
    assert sink.marks == [("finished", "learn-coins")]


def test_another_learner_in_the_tab_reads_their_own_progress() -> None:
    state: dict[str, Any] = {}
    LessonSession({}, state, FakeSink("b-1")).finish("learn-coins")
    assert not LessonSession({}, state, FakeSink("b-2")).progress.finished("learn-coins")


def test_the_keeper_turns_saved_marks_into_progress_and_stops_after_a_failure() -> None:
    from trainer.learners.lesson_progress import ProgressKeeper
    from trainer.learners.storage import MemoryStore, StorageError

    store = MemoryStore()
    keeper = ProgressKeeper(store, "b-1")
    keeper.answered("learn-coins", 1, False)
    keeper.answered("learn-coins", 1, True)
    keeper.finished("learn-coins")
    progress = ProgressKeeper(store, "b-1").load()
    assert progress.finished("learn-coins")
    assert progress.answers[("learn-coins", 1)] == [False, True]

    class Broken(MemoryStore):
        def save_lesson_mark(self, learner: str, mark: object) -> None:
            raise StorageError("the disk under /srv/x.db is full", public="the disk is full")

    failing = ProgressKeeper(Broken(), "b-1")
    failing.finished("learn-coins")
    assert failing.problem == "the disk is full"
