"""The End-game page's duel of two cards against one under AppTest: the section opens from a
link, solves the default duel with your options graded, seats you as the one-card player,
keeps the duel in the address and names a link's part it cannot read."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from trainer.learners.storage import Store

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def two_cards(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["tab"] = "two"
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("pages/endgame.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def text(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption]
                     + [e.value for e in at.error])


def test_the_two_card_duel_shows_your_chance_and_your_options_best_first() -> None:
    at = two_cards()
    shown = text(at)
    assert "You hold **two cards**, the **Duke and the Captain**" in shown
    assert "If you both play perfectly, you win" in shown
    assert "Your options, best first" in [h.value for h in at.subheader]
    assert any('class="eg-options"' in h.proto.body for h in at.get("html"))


def test_down_to_one_card_against_two_you_see_their_likeliest_hands() -> None:
    at = two_cards(two="them", hand="Assassin", lost="Duke", coins="3,2", turn="them")
    shown = text(at)
    assert "You are down to **one card**, the **Assassin**, having lost a Duke" in shown
    assert "Their two cards, from what you can see" in shown
    assert "What they do, as far as you can tell" in shown
    assert at.segmented_control(key="eg2_two").value == "them"


def test_the_picker_changes_the_duel_and_the_address_follows() -> None:
    at = two_cards()
    at.number_input(key="eg2_coins_them").set_value(5).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "they have 5 coins" in text(at)
    assert at.query_params["coins"] == "2,5"


def test_a_link_that_cannot_be_read_says_which_part_and_shows_the_default() -> None:
    at = two_cards(hand="Joker,Duke")
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("The link's `hand` could not be read: expected your hidden "
                            "cards") for w in warnings), warnings
    assert "the **Duke and the Captain**" in text(at)


def test_switching_to_the_one_card_explorer_leaves_the_two_card_link_behind() -> None:
    at = two_cards(coins="4,1")
    at.segmented_control(key="eg_tab").set_value("explore").run()
    assert not at.exception, [e.value for e in at.exception]
    assert [w.value for w in at.warning] == []  # `lost=Contessa` is not read as two cards
    assert "hand" not in at.query_params and "two" not in at.query_params
    assert at.query_params["coins"] == "2,2"  # the explorer's own position


def test_the_duel_is_played_out_against_perfect_play_with_each_decision_graded(
        tmp_path, monkeypatch) -> None:
    db_url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", db_url)
    at = two_cards(two="them", hand="Duke", lost="Contessa", coins="3,2", turn="you")
    at.button(key="eg2_play_out").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Your duel, played out" in [h.value for h in at.subheader]
    offers = [b for b in at.button if b.key and b.key.startswith("eg2_offer_")]
    assert offers, "your first decision is offered"
    label = offers[0].label
    offers[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    boxes = [*at.success, *at.info, *at.warning, *at.error]
    assert any(b.value.startswith("**") for b in boxes), "the decision's grade is shown"
    store = Store(db_url)
    answers, problems = store.answers(store.learners()[0])
    assert not problems
    assert [(a.mode, a.action) for a in answers] == [("endgame-practice", label)]
    at.button(key="eg2_stop" if any(b.key == "eg2_stop" for b in at.button)
              else "eg2_back").click().run()
    assert "Your duel, played out" not in [h.value for h in at.subheader]


def expert(at: AppTest) -> str:
    return "\n".join(m.value for m in at.expander[-1].markdown)


def test_a_duel_in_the_stored_table_shows_at_once_and_says_where_it_came_from() -> None:
    at = two_cards(coins="4,6", turn="them")
    assert "read from the stored table" in expert(at)
    assert "Every position is worked out ahead" in text(at)


def test_without_the_table_the_page_solves_the_duel_itself(monkeypatch) -> None:
    from trainer.endgame import hidden_two_tables

    monkeypatch.setattr(hidden_two_tables, "_stored", lambda variant: None)
    at = two_cards(coins="6,4", turn="them", lost="Ambassador")
    assert "If you both play perfectly, you win" in text(at)
    said = expert(at)
    assert "Solved by discounted CFR" in said and "stored table" not in said
    assert "A new position takes a few seconds" in text(at)
