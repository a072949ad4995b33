"""Losing an influence is asked in the same words on every page that asks it."""

from __future__ import annotations

from tests.helpers import shipped_library
from trainer.engine.explain import LOSE_LINE, LOSE_QUESTION
from trainer.engine.game import Phase
from trainer.quiz.feedback import describe_pending
from trainer.scenarios.lesson_game import practice
from trainer.views import kiosk_text, practice_view
from trainer.views.move_labels import your_move


def _a_loss_to_choose():
    """The first game after a wrong challenge: Ana chooses between her Duke and Assassin."""
    lesson = shipped_library().get("learn-first-game")
    assert lesson is not None
    moves = []
    for want in ("Tax", "Challenge"):
        state = practice(lesson.scenario, moves)
        moves.append(next(m for m in state.legal if want in your_move(state.game, m)))
    state = practice(lesson.scenario, moves)
    assert state.game.phase is Phase.LOSE and state.game.decider == state.learner
    return state.game, state.learner


def test_the_play_page_and_the_quiz_ask_a_loss_in_the_shared_words() -> None:
    game, learner = _a_loss_to_choose()
    assert describe_pending(game, learner, "lose") == (LOSE_LINE, LOSE_QUESTION)


def test_the_end_game_practice_asks_a_loss_in_the_shared_words() -> None:
    game, _ = _a_loss_to_choose()
    assert practice_view.situation(game) == f"{LOSE_LINE} {LOSE_QUESTION}"


def test_the_kiosk_titles_a_loss_in_the_shared_words() -> None:
    assert kiosk_text._TITLES["lose"] == LOSE_QUESTION
