"""The End-game page's Practice under AppTest: a puzzle link opens its duel, each button press
is graded and saved as an answer, the duel ends with a summary, the explorer's position can be
played out, and a bad link says what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.endgame.puzzles import puzzles
from trainer.learners.storage import Store

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
PUZZLE = "bluff-Ambassador-Ambassador-3-7-Contessa"  # steal, or they coup next turn


@pytest.fixture(autouse=True)
def db_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    return url


def practice(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("pages/endgame.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def offers(at: AppTest) -> list[str]:
    return [b.label for b in at.button if b.key and b.key.startswith("eg_offer_")]


def press(at: AppTest, label: str) -> None:
    next(b for b in at.button if b.key and b.key.startswith("eg_offer_")
         and b.label == label).click().run()
    assert not at.exception, [e.value for e in at.exception]


def text(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [e.value for e in at.success]
                     + [e.value for e in at.warning] + [e.value for e in at.info]
                     + [e.value for e in at.error])


def test_the_puzzle_exists_in_the_table() -> None:
    assert any(p.id == PUZZLE for p in puzzles())


def test_a_puzzle_link_opens_its_duel_with_your_options() -> None:
    at = practice(tab="practice", puzzle=PUZZLE, seed="7")
    assert "A bluff wins it" in [h.value for h in at.subheader]
    assert "Steal from them: claim Captain, take 2" in offers(at)
    assert "They have 7 coins" in text(at)


def test_the_obvious_move_is_graded_a_blunder_and_saved(db_url: str) -> None:
    at = practice(tab="practice", puzzle=PUZZLE, seed="7")
    press(at, "Foreign aid: take 2")
    assert "Blunder" in text(at)
    store = Store(db_url)
    learners = store.learners()
    assert len(learners) == 1
    answers, problems = store.answers(learners[0])
    assert not problems
    assert [a.grade for a in answers] == ["blunder"]
    assert answers[0].mode == "endgame-practice" and answers[0].action == "Foreign aid: take 2"


def test_the_bluff_that_wins_is_graded_best() -> None:
    at = practice(tab="practice", puzzle=PUZZLE, seed="7")
    press(at, "Steal from them: claim Captain, take 2")
    assert "Best move" in text(at)


def test_a_duel_ends_with_a_summary_and_their_card() -> None:
    at = practice(tab="practice", puzzle=PUZZLE, seed="7")
    for _ in range(30):
        labels = offers(at)
        if not labels:
            break
        press(at, labels[0])
    body = text(at)
    assert "You won the duel." in body or "You lost the duel." in body
    assert "they held" in body
    assert any(b.key == "eg_again" for b in at.button)


def test_the_accuracy_chart_appears_after_a_graded_decision() -> None:
    at = practice(tab="practice", puzzle=PUZZLE, seed="7")
    assert "No end-game decisions yet" in text(at)
    press(at, "Foreign aid: take 2")
    assert "Over one end-game decision, 0% was best or good." in text(at)


def test_an_unknown_puzzle_in_a_link_is_named() -> None:
    at = practice(tab="practice", puzzle="bluff-Nobody-9", seed="1")
    assert any("bluff-Nobody-9" in w.value for w in at.warning)


def test_a_seed_that_is_not_a_number_is_named() -> None:
    at = practice(tab="practice", puzzle=PUZZLE, seed="lots")
    assert any("seed" in w.value and "whole number" in w.value for w in at.warning)


def test_the_explorer_position_can_be_played_out() -> None:
    at = practice(card="Duke", lost="Ambassador,Contessa", coins="2,2", turn="you",
                  mode="hidden", horizon="1")
    next(b for b in at.button if b.key == "eg_play_out").click().run()
    assert not at.exception
    assert "Your position, played out" in [h.value for h in at.subheader]
    assert "Tax: claim Duke, take 3" in offers(at)


def test_a_kind_and_difficulty_with_no_puzzle_deals_another_difficulty() -> None:
    at = practice(tab="practice")
    at.segmented_control(key="eg_practice_kind").set_value("bluff").run()
    at.segmented_control(key="eg_practice_level").set_value("hard").run()
    next(b for b in at.button if b.key == "eg_deal").click().run()
    assert not at.exception
    assert "A bluff wins it" in [h.value for h in at.subheader]
    assert any("no hard puzzle" in t.value for t in at.info)
