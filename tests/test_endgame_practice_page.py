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
def a_fixed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's draw of each new duel, fixed so a test meets the same cards each run."""
    import trainer.ui.endgame_practice as ui_practice

    monkeypatch.setattr(ui_practice, "_new_seed", lambda: 7)


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
    at = practice(tab="practice", puzzle=PUZZLE)
    assert "A bluff wins it" in [h.value for h in at.subheader]
    assert "Steal from them: claim Captain, take 2" in offers(at)
    assert "They have 7 coins" in text(at)


def test_the_obvious_move_is_graded_a_blunder_and_saved(db_url: str) -> None:
    at = practice(tab="practice", puzzle=PUZZLE)
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
    at = practice(tab="practice", puzzle=PUZZLE)
    press(at, "Steal from them: claim Captain, take 2")
    assert "Best move" in text(at)


def test_a_duel_ends_with_a_summary_and_their_card() -> None:
    at = practice(tab="practice", puzzle=PUZZLE)
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
    at = practice(tab="practice", puzzle=PUZZLE)
    assert "No end-game decisions yet" in text(at)
    press(at, "Foreign aid: take 2")
    assert "Over one end-game decision, 0% was best or good." in text(at)


def test_an_unknown_puzzle_in_a_link_is_named() -> None:
    at = practice(tab="practice", puzzle="bluff-Nobody-9")
    assert any("bluff-Nobody-9" in w.value for w in at.warning)


# --------------------------------------------------------------------------- the address


def address(at: AppTest) -> dict[str, str]:
    return {k: at.query_params[k][0] if isinstance(at.query_params[k], list)
            else at.query_params[k] for k in at.query_params}


def their_card(at: AppTest) -> str:
    """The opponent's face-down card in this tab's duel (never on screen while it runs)."""
    from trainer.ui.endgame_practice import STATE

    r = at.session_state[STATE]
    return r.game.game.hidden[1 - r.game.learner][0].value


def opened_in_new_tabs(monkeypatch: pytest.MonkeyPatch, **params: str
                       ) -> list[tuple[dict[str, str], str]]:
    """The same address opened in one new tab after another, each tab's deal drawn by the
    server (its draws fixed here, one per tab: 1, 2, 3, ...): what each tab's address then
    says and the card the opponent was dealt."""
    import trainer.ui.endgame_practice as ui_practice

    seen = []
    for draw in range(1, 9):
        monkeypatch.setattr(ui_practice, "_new_seed", lambda d=draw: d)
        at = practice(**params)
        assert offers(at), text(at)
        seen.append((address(at), their_card(at)))
    return seen


def test_a_puzzle_link_carries_no_seed_and_each_tab_deals_their_card_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The link used to carry `seed=`, from which anyone who knows how the deal is drawn reads
    the opponent's card. The address now names the puzzle only, and the same address opened
    in two tabs deals the opponent different cards."""
    at = practice(tab="practice")
    next(b for b in at.button if b.key == "eg_deal").click().run()
    shown = address(at)
    assert set(shown) == {"tab", "puzzle"}, shown
    seen = opened_in_new_tabs(monkeypatch, **shown)
    assert all(link == shown for link, _ in seen)
    assert len({card for _, card in seen}) > 1, seen


def test_an_old_link_with_a_seed_opens_its_puzzle_with_a_fresh_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = opened_in_new_tabs(monkeypatch, tab="practice", puzzle=PUZZLE)
    assert all(link == {"tab": "practice", "puzzle": PUZZLE} for link, _ in seen), seen
    assert len({card for _, card in seen}) > 1, seen


def test_a_played_out_position_keeps_no_seed_and_no_card_of_theirs_in_the_address() -> None:
    at = practice(card="Duke", lost="Ambassador,Contessa", coins="2,2", turn="you",
                  mode="hidden", horizon="1")
    next(b for b in at.button if b.key == "eg_play_out").click().run()
    shown = address(at)
    assert shown["tab"] == "practice" and shown["card"] == "Duke"
    assert "seed" not in shown and "their" not in shown, shown


def test_play_it_again_deals_the_same_cards() -> None:
    at = practice(tab="practice", puzzle=PUZZLE)
    first = their_card(at)
    for _ in range(30):
        labels = offers(at)
        if not labels:
            break
        press(at, labels[0])
    next(b for b in at.button if b.key == "eg_again").click().run()
    assert their_card(at) == first and offers(at)


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
