"""The End-game page under AppTest: it opens on a default duel, a link opens its position and
a bad link says which parameter is wrong, the hidden-card solve lists one row per option with
the best first, face-up mode gives the table's verdict, the address follows the picker."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from trainer.endgame.hidden import solve
from trainer.endgame.tables import known_values
from trainer.engine.cards import Character
from trainer.views import endgame_view as v

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
D, A, CA, AM, CO = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                    Character.AMBASSADOR, Character.CONTESSA)


@pytest.fixture(autouse=True)
def db_url(tmp_path, monkeypatch) -> str:
    """The router's first page may reach the answers database: a throwaway one."""
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    return url


def endgame(**params: str) -> AppTest:
    """The End-game page opened by a link carrying `params`."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("pages/endgame.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def html(at: AppTest) -> str:
    return "".join(e.proto.body for e in at.get("html"))


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def param(at: AppTest, key: str) -> str:
    value = at.query_params[key]
    return value[-1] if isinstance(value, list) else value


def options(at: AppTest) -> list[str]:
    """The option labels listed, in order."""
    return re.findall(r'<span class="eg-option__label">([^<]*)</span>', html(at))


def test_the_page_opens_on_a_default_duel_and_writes_it_into_the_address():
    at = endgame()
    assert [t.value for t in at.title] == ["End-game"]
    assert at.selectbox(key="eg_card").value is D
    assert at.segmented_control(key="eg_mode").value == "hidden"
    assert at.selectbox(key="eg_horizon").value == 4  # read from the stored table
    text = markdown(at)
    assert "You hold the **Duke** and have 2 coins; they have 2 coins." in text
    # a number, or a range where the position is not settled
    assert re.search(r"If you both play perfectly, you win \*\*\d+(–\d+)?%\*\* of the time\.",
                     text)
    assert len(options(at)) == 5  # income, foreign aid, tax, steal, exchange
    assert {k: param(at, k) for k in v.LINK_KEYS} == v.link_params(v.Choice())
    assert at.get("vega_lite_chart")  # the heat map
    assert [e.label for e in at.expander] == ["Bluffs and challenges",
                                            "Expert figures: how exact this is"]
    assert "From the stored table" in "\n".join(m.value for m in at.markdown)
    assert len(at.get("vega_lite_chart")) == 3  # with the hidden table beside the face-up


def test_a_link_opens_its_position():
    at = endgame(card="Captain", lost="Duke,Duke", coins="0,6", turn="them", mode="faceup",
                 their="Contessa")
    assert at.selectbox(key="eg_card").value is CA
    assert at.selectbox(key="eg_lost_you").value is D
    assert at.selectbox(key="eg_lost_them").value is D
    assert at.number_input(key="eg_coins_you").value == 0
    assert at.number_input(key="eg_coins_them").value == 6
    assert at.segmented_control(key="eg_turn").value == "them"
    assert at.segmented_control(key="eg_mode").value == "faceup"
    assert at.selectbox(key="eg_their").value is CO
    assert not at.warning
    assert "You hold the **Captain** and have no coins; they have 6 coins." in markdown(at)
    assert param(at, "coins") == "0,6"


@pytest.mark.parametrize("key, value", [("coins", "2,x"), ("card", "Jester"),
                                        ("lost", "Duke"), ("turn", "me"), ("horizon", "9")])
def test_a_bad_parameter_is_named_and_the_page_still_opens(key, value):
    at = endgame(**{key: value, "horizon": "1"} if key != "horizon" else {key: value})
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(f"The link's `{key}` could not be read: expected ")
    assert f"“{value}”" in warnings[0]
    # the address now links to what is shown instead
    assert param(at, key) == v.link_params(v.Choice(horizon=int(param(at, "horizon"))))[key]
    assert options(at)


def test_the_message_goes_once_the_position_changes():
    at = endgame(coins="x", horizon="1")
    assert at.warning
    at.number_input(key="eg_coins_you").set_value(5).run()
    assert not at.warning and param(at, "coins") == "5,2"


def test_an_impossible_position_is_refused_in_words():
    at = endgame(card="Duke", lost="Duke,Duke", mode="faceup", their="Duke")
    errors = [e.value for e in at.error]
    assert errors == ["They cannot hold a Duke here: the deck has only 3 Dukes, and your "
                      "card and the two lost cards already show them all. Pick another card "
                      "for them."]
    assert not at.get("vega_lite_chart")


def test_hidden_mode_lists_one_row_per_option_best_first():
    at = endgame(card="Duke", lost="Ambassador,Contessa", coins="2,2", turn="you",
                 mode="hidden", horizon="1")
    solution = solve((AM, CO), (2, 2), 0, horizon=1)
    expected = solution.options(D)
    shown = options(at)
    assert len(shown) == len(expected)
    assert shown[0] == "Tax: claim Duke, take 3" == v.option_rows(
        v.Choice(horizon=1), v.distil(solution, 1, 0.0))[0].label
    page = html(at)
    ranks = re.findall(r'<li class="eg-option[^"]*" data-rank="(\d+)"', page)
    assert ranks == [str(i + 1) for i in range(len(expected))]
    wins = [int(w) for w in re.findall(r'<span class="eg-win">You win <b>(\d+)%</b>', page)]
    assert wins == sorted(wins, reverse=True)
    assert "the best move" in page
    # each option's strip: one cell per card they may hold
    assert page.count('class="eg-cell"') == len(expected) * 5
    captions = " ".join(c.value for c in at.caption)
    assert "These figures look 1 turn ahead, and a line of play stops" in captions


def test_a_solved_position_is_kept_so_a_rerun_is_instant():
    at = endgame(horizon="1", coins="4,4")
    at.run()
    assert not at.exception and options(at)
    assert not at.get("progress")


def test_their_turn_shows_your_chance_and_switches_seats():
    at = endgame(card="Duke", lost="Ambassador,Contessa", coins="1,5", turn="them",
                 horizon="1")
    text = markdown(at)
    # a number, or a range where the position is not settled
    assert re.search(r"If you both play perfectly, you win \*\*\d+(–\d+)?%\*\* of the time\.",
                     text)
    assert "switch seats" in text
    assert not options(at)
    at.button(key="eg_switch").click().run()
    assert at.segmented_control(key="eg_turn").value == "you"
    assert at.selectbox(key="eg_lost_you").value is CO
    assert at.number_input(key="eg_coins_you").value == 5
    assert param(at, "lost") == "Contessa,Ambassador" and param(at, "coins") == "5,1"
    assert options(at)


def test_face_up_mode_gives_the_tables_value():
    at = endgame(card="Duke", lost="Ambassador,Contessa", coins="2,2", turn="you",
                 mode="faceup", their="Captain")
    table = known_values((AM, CO))
    value = table.value((D, CA), (2, 2), 0)
    turns = table.turns((D, CA), (2, 2), 0)
    lines = v.faceup_lines(v.Choice(mode="faceup"), value, turns)
    assert lines[1] in markdown(at)
    assert not options(at)
    assert at.selectbox(key="eg_their").value is CA


def test_the_heat_map_draws_every_coin_pair_and_marks_this_one():
    at = endgame(coins="3,5", mode="faceup")
    chart = at.get("vega_lite_chart")[0]
    frames = [convert_arrow_bytes_to_pandas_df(d.data.data) for d in chart.proto.datasets]
    squares = next(f for f in frames if len(f) > 1)
    here = next(f for f in frames if len(f) == 1)
    assert len(squares) == 13 * 13
    assert here.to_dict("records") == [{"you": 3, "them": 5}]
    table = known_values((AM, CO))
    mine = squares[(squares["you"] == 3) & (squares["them"] == 5)]["win"].item()
    assert mine == pytest.approx(table.value((D, CA), (3, 5), 0), abs=1e-4)


def test_the_address_follows_the_picker():
    at = endgame(horizon="1")
    at.selectbox(key="eg_card").set_value(A).run()
    at.segmented_control(key="eg_mode").set_value("faceup").run()
    assert param(at, "card") == "Assassin" and param(at, "mode") == "faceup"
    at.selectbox(key="eg_their").set_value(CO).run()
    assert param(at, "their") == "Contessa"


def test_large_type_stacks_the_picker_and_keeps_every_part():
    at = endgame(large="1", horizon="1")
    assert at.toggle(key="ct_large_type").value is True
    assert "**You**" not in [m.value for m in at.markdown]  # no headings over a stack
    assert options(at) and at.get("vega_lite_chart")
    assert param(at, "large") == "1"


def test_hidden_mode_compares_the_hidden_table_with_the_face_up_one(monkeypatch):
    import numpy as np

    from trainer.endgame import hidden_tables

    monkeypatch.setattr(hidden_tables, "win_grid",
                        lambda revealed, card, first, variant="base", shorter=False:
                        np.full((13, 13), 0.38 if shorter else 0.4))
    at = endgame(horizon="1")
    assert v.HIDDEN_HEADING in [h.value for h in at.subheader]
    assert len(at.get("vega_lite_chart")) == 3  # the coin map, then hidden and face up
    assert v.hidden_sentence(v.Choice())[:40] in markdown(at)


def test_without_the_hidden_table_the_comparison_says_how_to_build_it(monkeypatch):
    from trainer.endgame import hidden_tables

    monkeypatch.setattr(hidden_tables, "win_grid", lambda *a, **k: None)
    at = endgame(horizon="1")
    assert v.hidden_missing() in [c.value for c in at.caption]


def test_a_claim_says_how_often_perfect_play_bluffs_it_and_when_to_challenge():
    at = endgame(card="Contessa", lost="Ambassador,Contessa", coins="0,6", turn="you",
                 mode="hidden", horizon="2")
    body = markdown(at)
    assert "**Tax** (claims the Duke): when perfect play makes it, it is a bluff" in body
    assert "they should challenge when they think a bluff more likely than" in body


def test_a_stored_position_works_out_when_to_challenge_on_request():
    at = endgame(card="Contessa", lost="Ambassador,Contessa", coins="0,6", turn="you",
                 mode="hidden", horizon="4")
    assert "it is a bluff" in markdown(at)
    assert "they should challenge when" not in markdown(at)
    next(b for b in at.button if b.key == "eg_work_out").click().run()
    assert not at.exception
    assert "they should challenge when they think a bluff more likely than" in markdown(at)


def test_working_out_the_lines_of_a_position_solved_deeper_keeps_the_tables_figures():
    """Assassin and Ambassador face up, 2 coins against none: the table solved it six turns
    ahead; the lines are worked out four turns ahead, and the chance shown stays the
    table's, with a caption saying how far each looks."""
    from trainer.endgame import hidden_tables

    stored = hidden_tables.stored_solution((Character.ASSASSIN, Character.AMBASSADOR), (2, 0), 0)
    assert stored is not None and stored.horizon == hidden_tables.DEEPEST
    at = endgame(card="Duke", lost="Assassin,Ambassador", coins="2,0", turn="you",
                 mode="hidden", horizon="4")
    chance = next(m.value for m in at.markdown if m.value.startswith("If you both play"))
    captions = [c.value for c in at.caption]
    assert ("Looking 4 turns ahead did not settle this position, so the table looked "
            "further: these figures look 6 turns ahead.") in captions
    next(b for b in at.button if b.key == "eg_work_out").click().run()
    assert not at.exception
    assert "Likely line:" in html(at)
    assert chance in [m.value for m in at.markdown]
    assert ("The likely lines and when a challenge pays are worked out 4 turns ahead; the "
            "figures above look 6 turns ahead.") in [c.value for c in at.caption]


def test_a_stored_position_draws_again_before_its_lines_are_worked_out():
    # Any rerun (another widget, a fragment, a reload) before the button is pressed.
    at = endgame(card="Contessa", lost="Ambassador,Contessa", coins="0,6", turn="you",
                 mode="hidden", horizon="4")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(b.key == "eg_work_out" for b in at.button)


def test_a_stored_position_works_out_its_likely_lines_on_request():
    at = endgame(card="Contessa", lost="Ambassador,Contessa", coins="0,6", turn="you",
                 mode="hidden", horizon="4")
    assert "Likely line:" not in html(at)
    next(b for b in at.button if b.key == "eg_work_out").click().run()
    assert "Likely line:" in html(at)
    assert not any(b.key == "eg_work_out" for b in at.button)
