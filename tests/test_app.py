"""The Rules page under Streamlit's AppTest: the router opens it and its widgets work."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.engine.rules import Options
from trainer.engine.variants import BASE, VARIANTS
from trainer.rulebook.variant_rules import variant_rules
from trainer.views import chrome

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    # AppTest resolves a relative script path against this file and reads .streamlit/ from the
    # working directory, so run it from the repository root like `streamlit run` does.
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.run()
    app.switch_page("pages/rules.py").run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def html(at: AppTest) -> str:
    return "\n".join(h.value for h in at.get("html"))


def tile(at: AppTest, key: str) -> str:
    """The value shown on one setup tile (see trainer.views.cardart.fact_tiles)."""
    match = re.search(rf'data-fact="{key}">.*?class="ct-fact__value">([^<]*)'
                      rf'<span class="ct-fact__unit">([^<]*)<', html(at))
    assert match, f"no {key} tile"
    return " ".join(part for part in match.groups() if part)


def test_rules_page_renders_every_action_and_character(at: AppTest) -> None:
    assert at.title[0].value == "Rules of Coup"
    page = html(at)
    for spec in BASE.actions:
        assert f'data-action="{spec.action.value}"' in page
    for character in BASE.characters:
        assert f'data-character="{character.value}"' in page
    assert [h.value for h in at.header] == [
        "The characters", "Actions", "A turn, step by step", "Table rules"]
    assert tile(at, "forced") == f"{BASE.forced_coup_at}+ coins"
    assert tile(at, "coup") == f"{BASE.coup_cost} coins"


def test_variant_and_player_choices_come_from_the_engine(at: AppTest) -> None:
    assert at.selectbox(key="variant").options == [v.title for v in VARIANTS.values()]
    players = at.slider(key="players")
    assert (players.min, players.max) == (BASE.min_players, BASE.max_players)


def test_seven_players_use_four_copies_of_each_character(at: AppTest) -> None:
    assert tile(at, "copies") == "3 copies"
    at.slider(key="players").set_value(7).run()
    assert not at.exception
    assert tile(at, "copies") == "4 copies"
    assert tile(at, "deck") == f"{len(BASE.court(7))} cards"
    assert html(at).count("4 in the Court deck") == len(BASE.characters)


def test_two_players_start_with_different_coins(at: AppTest) -> None:
    at.slider(key="players").set_value(2).run()
    assert tile(at, "coins") == "1 or 2 coins"


def test_changing_an_option_marks_it_active_and_not_default(at: AppTest) -> None:
    assert 'data-changed="true"' not in html(at)
    assert any("Rulebook defaults" in m.value for m in at.markdown)

    at.radio(key="opt_finite_treasury").set_value(False).run()
    assert not at.exception
    page = html(at)
    assert 'data-option="finite_treasury" data-changed="true"' in page
    assert page.count('data-changed="true"') == 1
    assert Options.info()["finite_treasury"].choices[False] in page
    assert any("1 house rule" in m.value for m in at.markdown)

    at.button(key="reset_options").click().run()
    assert 'data-changed="true"' not in html(at)
    assert at.radio(key="opt_finite_treasury").value is True


def test_an_option_changes_the_turn_description(at: AppTest) -> None:
    before = html(at)
    at.radio(key="opt_challenge_order").set_value("target_first").run()
    after = html(at)
    assert "The target (if any) is asked first" in after
    assert "The target (if any) is asked first" not in before


def test_large_type_scales_the_page(at: AppTest) -> None:
    assert chrome.stylesheet(False) in html(at) and chrome.stylesheet(True) not in html(at)
    at.toggle(key="ct_large_type").set_value(True).run()
    assert chrome.stylesheet(True) in html(at)
    assert at.query_params["large"] in ("1", ["1"])


def test_large_type_from_the_address_holds_on_every_page(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.query_params["large_type"] = "true"  # a link shared before the switch moved
    app.run()
    for page in ("pages/quiz.py", "pages/calibration.py", "pages/rules.py", "pages/learn.py"):
        app.switch_page(page).run()
        assert not app.exception, (page, [e.value for e in app.exception])
        assert app.toggle(key="ct_large_type").value is True, page
        assert chrome.stylesheet(True) in html(app), page


@pytest.mark.parametrize("name", [n for n in VARIANTS if n != "base"])
def test_every_variant_shows_its_cards_and_what_it_changes(at: AppTest, name: str) -> None:
    variant = VARIANTS[name]
    at.selectbox(key="variant").set_value(name).run()
    assert not at.exception, [e.value for e in at.exception]
    page = html(at)
    for card in variant.cards:
        assert f'data-character="{card.value}"' in page
    for spec in variant.actions:
        assert f'data-action="{spec.action.value}"' in page
    headers = [h.value for h in at.header]
    assert f"What {variant.title} changes" in headers
    for rule in variant_rules(variant):
        assert escape(rule.title) in page


def test_a_variant_lists_only_the_table_rules_that_can_change_it(at: AppTest) -> None:
    radios = {r.key for r in at.radio}
    assert "opt_examine_pick" not in radios and "opt_two_player_start" in radios
    at.selectbox(key="variant").set_value("reformation-inquisitor").run()
    radios = {r.key for r in at.radio}
    assert {"opt_examine_pick", "opt_vocabulary"} <= radios


def test_the_draft_is_for_two_players_only(at: AppTest) -> None:
    at.selectbox(key="variant").set_value("draft").run()
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "is for exactly 2" in text and "three sets of one of each" in text
