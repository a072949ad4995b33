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
        "The characters", "Actions", "A turn, step by step", "House rules", "Table rules"]
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
    assert any("Table rules as in the rulebook" in m.value for m in at.markdown)

    at.radio(key="opt_finite_treasury").set_value(False).run()
    assert not at.exception
    page = html(at)
    assert 'data-option="finite_treasury" data-changed="true"' in page
    assert page.count('data-changed="true"') == 1
    assert Options.info()["finite_treasury"].choices[False] in page
    assert any("1 table rule changed" in m.value for m in at.markdown)

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


# ------------------------------------------------------------------ house rules as switches
def query(at: AppTest, key: str) -> str:
    value = at.query_params[key]
    return value[0] if isinstance(value, list) else value


def test_a_house_rule_switched_on_changes_the_rules_and_the_link(at: AppTest) -> None:
    assert "pay 5 coins instead" not in html(at)
    at.toggle(key="hr_pay_five").set_value(True).run()
    assert not at.exception
    page = html(at)
    assert "The loser of a challenge may pay 5 coins instead of losing a card" in page
    assert "What the house rules change" in [h.value for h in at.header]
    assert any("1 house rule" in m.value and "4. Paying instead of losing a card" in m.value
               for m in at.markdown)
    assert query(at, "rules") == "base pay_five"  # the address shows base+pay_five


def test_the_treaty_switch_puts_its_card_in_the_deck(at: AppTest) -> None:
    assert 'data-character="Treaty Contessa"' not in html(at)
    at.toggle(key="hr_treaty").set_value(True).run()
    page = html(at)
    assert 'data-character="Treaty Contessa"' in page
    assert "1 in the Court deck" in page and "2 in the Court deck" in page
    assert "the Treaty claim" in page


def test_switching_off_rule_seven_allows_self_targeting_in_plain_words(at: AppTest) -> None:
    at.toggle(key="hr_no_self_target").set_value(False).run()
    page = html(at)
    assert "a player may challenge their own claim or block" in page
    assert "may also coup themselves" in page
    assert page.count("Any player, you too") == 2  # coup and assassinate
    assert query(at, "rules") == "base-no_self_target"


def test_a_link_with_a_description_opens_those_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.run()
    app.query_params["rules"] = "mcguire-inheritance(challengers=all)"
    app.query_params["players"] = "3"
    app.switch_page("pages/rules.py").run()
    assert not app.exception, [e.value for e in app.exception]
    assert app.selectbox(key="variant").value == "mcguire"
    assert app.toggle(key="hr_inheritance").value is False
    assert app.toggle(key="hr_vengeance").value is True
    assert app.radio(key="opt_challengers").value == "all"
    assert app.slider(key="players").value == 3
    assert "all of them do" in html(app)


def test_a_link_decoded_with_spaces_and_an_old_variant_link_still_open(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for params, family, switch in (({"rules": "base pay_five bounty"}, "base", "hr_bounty"),
                                   ({"variant": "inquisitor"}, "inquisitor", None)):
        app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
        app.run()
        for key, value in params.items():
            app.query_params[key] = value
        app.switch_page("pages/rules.py").run()
        assert not app.exception
        assert app.selectbox(key="variant").value == family
        if switch:
            assert app.toggle(key=switch).value is True
        assert "variant" not in app.query_params


def test_a_bad_link_says_what_is_wrong_and_shows_the_base_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    app.run()
    app.query_params["rules"] = "base+pay5(challengers=every)"
    app.switch_page("pages/rules.py").run()
    assert not app.exception
    assert any("cannot be read" in w.value for w in app.warning)
    assert app.selectbox(key="variant").value == "base"


def test_a_switch_that_cannot_apply_is_greyed_with_the_reason(at: AppTest) -> None:
    at.selectbox(key="variant").set_value("inquisitor").run()
    assert at.toggle(key="hr_ambassador_reduces").disabled
    assert at.toggle(key="hr_inheritance").disabled
    assert not at.toggle(key="hr_pay_five").disabled
    captions = " ".join(c.value for c in at.caption)
    assert "Cannot apply to Inquisitor: Inquisitor has no Ambassador" in captions


def test_mcguire_shows_every_house_rule_on_and_each_can_be_switched_off(at: AppTest) -> None:
    at.selectbox(key="variant").set_value("mcguire").run()
    switches = {t.key: t.value for t in at.toggle if t.key and t.key.startswith("hr_")}
    assert all(switches.values()) and len(switches) == 9
    at.toggle(key="hr_mat").set_value(False).run()
    assert query(at, "rules") == "mcguire-mat"
    assert "McGuire house rules without the event mat" in " ".join(m.value for m in at.markdown)
    at.selectbox(key="variant").set_value("base").run()  # another rule set: its own switches
    assert at.toggle(key="hr_pay_five").value is False


def test_the_web_deck_takes_the_player_slider_to_twenty(at: AppTest) -> None:
    assert at.slider(key="players").max == 10
    at.radio(key="opt_more_players").set_value("web").run()
    assert at.slider(key="players").max == 20
    at.slider(key="players").set_value(14).run()
    assert not at.exception
    assert tile(at, "copies") == "7 copies"
    assert query(at, "rules") == "base(more_players=web)"
