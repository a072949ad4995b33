"""The End-game page's duel of two cards against one under AppTest: the section opens from a
link, solves the default duel with your options graded, and seats you as the one-card player."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from trainer.engine.cards import Character as C

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def two_cards() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["tab"] = "two"
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
    at = two_cards()
    at.segmented_control(key="eg2_two").set_value("them").run()
    at.selectbox(key="eg2_card0").set_value(C.ASSASSIN).run()
    at.segmented_control(key="eg2_turn").set_value("them").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = text(at)
    assert "You are down to **one card**, the **Assassin**" in shown
    assert "Their two cards, from what you can see" in shown
    assert "What they do, as far as you can tell" in shown
