"""The quiz session on a plain dict, click by click, without Streamlit: what a click may still do
once the page has moved on, what is saved, and what the learner sees next."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from trainer.engine.moves import Move
from trainer.learners.history import History
from trainer.learners.storage import MemoryStore, StorageError
from trainer.quiz.bank import Bank, Item, Option, available_banks, user_bank_dir
from trainer.quiz.session import QuizSession


def claim_item(item_id: str, bluff: bool = False) -> Item:
    """Ben claims the Duke; the learner (seat 1) challenges or passes."""
    return Item(
        id=item_id, source="persona game", kind="challenge", variant="base", players=2,
        viewer=1, themes=("Duke claims",), difficulty="medium",
        options=(Option(Move.challenge(1), "Challenge", 0.40, 0.02, 0.01),
                 Option(Move.pass_(1), "Pass", 0.60, 0.02, 0.0)),
        rollouts=1000, seed=1, claimant=0, claim="Duke", bluff=bluff,
        claimant_hand=("Captain", "Contessa") if bluff else ("Duke", "Contessa"),
        bot=0.3, prior=0.55, explanation="counting", p_star=0.45, w_win=0.8, w_lose=0.3)

LOSE = replace(claim_item("lose-1"), kind="lose", claim=None, bluff=None, claimant=None,
               claimant_hand=(), themes=("Losing a card",))
BANK = Bank("t", (claim_item("duke-1"), claim_item("duke-2", bluff=True), LOSE), {})
OTHER = Bank("other", (claim_item("duke-9"),), {})


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def session(state: dict[str, Any] | None = None, store: Any = None,
            clock: Clock | None = None) -> QuizSession:
    state = {} if state is None else state
    history = state.setdefault("history", History("ann"))
    return QuizSession(state, history, MemoryStore() if store is None else store,
                       rng=random.Random(7), clock=clock or Clock())


def show(quiz: QuizSession, item: Item, bank: Bank = BANK, answer_id: str = "showing-1"
         ) -> str:
    """Put `item` on show, as the page would after drawing it."""
    quiz.state["quiz_current"] = {"item": item.id, "bank": bank.version,
                                  "answer_id": answer_id, "shown": 1000.0}
    quiz.state["quiz_p"] = 50
    return answer_id


def saved(quiz: QuizSession) -> list[Any]:
    assert isinstance(quiz.store, MemoryStore)
    return quiz.store.answers("ann")[0]


# ------------------------------------------------------------------------------ showing items
def test_an_item_is_drawn_when_none_is_shown() -> None:
    quiz = session()
    item = quiz.item_shown(BANK)
    assert item is not None and BANK.get(item.id) is item
    assert quiz.current is not None and quiz.current["bank"] == BANK.version
    assert quiz.showing == quiz.current["answer_id"] != ""


def test_the_item_shown_stays_across_reruns() -> None:
    quiz = session()
    first = quiz.item_shown(BANK)
    showing = quiz.showing
    assert quiz.item_shown(BANK) is first and quiz.showing == showing


def test_an_item_of_another_bank_is_replaced() -> None:
    quiz = session()
    show(quiz, OTHER.items[0], bank=OTHER)
    item = quiz.item_shown(BANK)
    assert item is not None and BANK.get(item.id) is item


def test_a_drill_with_no_items_shows_none() -> None:
    quiz = session({"quiz_mode": "mistakes"})
    assert quiz.item_shown(BANK) is None and quiz.current is None


def test_next_never_repeats_the_item_just_answered() -> None:
    quiz = session()
    for _ in range(10):
        item = quiz.item_shown(BANK)
        assert item is not None
        quiz.show_next(BANK, exclude=item.id, showing=quiz.showing)
        assert quiz.current is not None and quiz.current["item"] != item.id


def test_next_gives_a_new_showing_with_the_slider_back_at_50() -> None:
    quiz = session()
    showing = show(quiz, BANK.items[0])
    quiz.nudge(5)
    quiz.show_next(BANK, exclude=BANK.items[0].id, showing=showing)
    assert quiz.showing != showing and quiz.state["quiz_p"] == 50


def test_a_late_second_next_click_does_not_skip_the_item_shown() -> None:
    quiz = session()
    first = show(quiz, BANK.items[0])
    quiz.show_next(BANK, exclude=BANK.items[0].id, showing=first)
    now_shown = quiz.current
    quiz.show_next(BANK, exclude=BANK.items[0].id, showing=first)  # the same click, again
    assert quiz.current == now_shown


def test_changing_the_drill_forgets_the_item_shown() -> None:
    quiz = session()
    show(quiz, BANK.items[0])
    quiz.forget_item()
    assert quiz.current is None


# ------------------------------------------------------------------------------ answering
def test_an_answer_is_graded_and_saved() -> None:
    quiz = session()
    item = BANK.items[0]
    showing = show(quiz, item)
    quiz.submit(item, BANK, "Pass", showing)
    answer = quiz.answer()
    assert answer is not None
    assert (answer.item_id, answer.action, answer.answer_id, answer.bank) == (
        item.id, "Pass", showing, BANK.version)
    assert saved(quiz) == [answer] and quiz.history.answers == [answer]


def test_a_second_click_on_the_same_item_is_saved_once() -> None:
    quiz = session()
    item = BANK.items[0]
    showing = show(quiz, item)
    quiz.submit(item, BANK, "Pass", showing)
    quiz.submit(item, BANK, "Challenge", showing)
    assert [a.action for a in saved(quiz)] == ["Pass"]
    assert [a.action for a in quiz.history.answers] == ["Pass"]
    answer = quiz.answer()
    assert answer is not None and answer.action == "Pass"


def test_a_click_meant_for_an_earlier_item_is_ignored() -> None:
    quiz = session()
    item = BANK.items[0]
    show(quiz, item, answer_id="a-later-showing")
    quiz.submit(item, BANK, "Pass", "an-earlier-showing")
    assert saved(quiz) == [] and quiz.answer() is None and quiz.error is None


def test_a_claim_item_records_the_stated_chance_of_a_bluff() -> None:
    quiz = session()
    item = BANK.items[0]
    showing = show(quiz, item)
    quiz.state["quiz_p"] = 80
    quiz.submit(item, BANK, "Challenge", showing)
    answer = quiz.answer()
    assert answer is not None and answer.stated == 0.8


def test_an_item_without_a_claim_records_no_stated_chance() -> None:
    quiz = session()
    showing = show(quiz, LOSE)
    quiz.submit(LOSE, BANK, "Pass", showing)
    answer = quiz.answer()
    assert answer is not None and answer.stated is None


def test_the_time_to_answer_is_recorded() -> None:
    clock = Clock()
    quiz = session(clock=clock)
    item = BANK.items[0]
    showing = show(quiz, item)
    clock.now = 1012.5
    quiz.submit(item, BANK, "Pass", showing)
    answer = quiz.answer()
    assert answer is not None and answer.seconds == 12.5


def test_an_answer_the_item_cannot_take_gives_a_message_and_saves_nothing() -> None:
    quiz = session()
    item = BANK.items[0]
    showing = show(quiz, item)
    quiz.submit(item, BANK, "Exchange", showing)
    assert saved(quiz) == [] and quiz.answer() is None
    assert quiz.error is not None and quiz.error.startswith("That answer could not be taken")
    assert "'Exchange' is not an answer to this decision" in quiz.error


def test_an_answer_to_an_earlier_showing_is_not_the_answer_shown() -> None:
    quiz = session()
    item = BANK.items[0]
    showing = show(quiz, item)
    quiz.submit(item, BANK, "Pass", showing)
    show(quiz, item, answer_id="showing-2")
    assert quiz.answer() is None


def test_a_database_that_fails_keeps_the_answer_in_this_tab() -> None:
    class Broken(MemoryStore):
        def save_many(self, answers: Any) -> list[bool]:
            raise StorageError("the database at sqlite:///x.db is down",
                               public="the database is down")

    quiz = session(store=Broken())
    item = BANK.items[0]
    showing = show(quiz, item)
    quiz.submit(item, BANK, "Pass", showing)
    assert len(quiz.history.answers) == 1 and quiz.answer() is not None
    assert quiz.history.offline == "the database is down"


# ------------------------------------------------------------------------------ the slider
@pytest.mark.parametrize(("start", "delta", "expected"), [
    (50, 5, 55), (50, -5, 45), (97, 5, 99), (3, -5, 1),
])
def test_the_nudge_buttons_move_the_slider_within_1_and_99(start: int, delta: int,
                                                            expected: int) -> None:
    quiz = session({"quiz_p": start})
    quiz.nudge(delta)
    assert quiz.state["quiz_p"] == expected


# ------------------------------------------------------------------------------ banks
BANKS = {"default": Path("default.jsonl"), "mine": Path("mine.jsonl")}


def test_the_default_bank_is_chosen_first() -> None:
    quiz = session()
    assert quiz.choose_bank(BANKS) == "default" and quiz.state["quiz_bank"] == "default"


def test_a_bank_no_longer_there_falls_back_to_the_default() -> None:
    quiz = session({"quiz_bank": "gone"})
    assert quiz.choose_bank(BANKS) == "default"


def test_a_bank_just_built_is_selected_and_drops_the_item_shown() -> None:
    quiz = session({"quiz_bank": "default", "quiz_new_bank": "mine"})
    show(quiz, BANK.items[0])
    assert quiz.choose_bank(BANKS) == "mine"
    assert quiz.current is None and "quiz_new_bank" not in quiz.state


def test_a_build_click_is_taken_once() -> None:
    quiz = session()
    quiz.request_build()
    assert quiz.build_requested() and not quiz.build_requested()


def test_banks_built_in_the_app_join_the_shipped_ones(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COUP_TRAINER_BANK_DIR", str(tmp_path / "built"))
    assert user_bank_dir() == tmp_path / "built"
    OTHER.save(tmp_path / "built" / "other.jsonl")
    found = available_banks()
    assert found["other"] == tmp_path / "built" / "other.jsonl" and "default" in found



def test_the_grade_is_brought_into_view_once_per_answer() -> None:
    from trainer.learners.history import History
    from trainer.quiz.session import QuizSession

    quiz = QuizSession({}, History("ann"), None)
    assert quiz.first_look("a1") and not quiz.first_look("a1") and quiz.first_look("a2")


def test_an_items_top_is_brought_into_view_once_per_showing() -> None:
    from trainer.learners.history import History
    from trainer.quiz.session import QuizSession

    quiz = QuizSession({}, History("ann"), None)
    assert quiz.first_sight("s1") and not quiz.first_sight("s1") and quiz.first_sight("s2")


def test_a_small_build_in_the_app_runs_here_and_a_large_one_on_every_core(monkeypatch):
    from trainer.batch import choose
    from trainer.quiz import session

    monkeypatch.setattr(session.os, "cpu_count", lambda: 4)
    assert session.build_jobs(session.RAY_FROM_ITEMS - 1) == 1
    assert choose("auto", session.build_jobs(5), None) == "local"
    assert session.build_jobs(session.RAY_FROM_ITEMS) == 4
