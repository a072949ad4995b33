"""The choice of rules a page keeps in its state (trainer.rulebook.choices), on a dict: the
rule set, the house-rule switches, the table rules, links and the words that say what is on."""

from __future__ import annotations

from typing import Any

import pytest

from trainer.engine.rules import Options
from trainer.engine.variants import HOUSE_RULES, VARIANTS, parse_rules
from trainer.rulebook import choices
from trainer.rulebook.choices import PLAY, RULES_PAGE, RuleKeys


def test_a_first_visit_is_the_base_game_at_the_rulebook_defaults() -> None:
    state: dict[str, Any] = {}
    ruleset = choices.chosen(state)
    assert ruleset.text == "base"
    assert state["variant"] == "base"
    assert state["hr_pay_five"] is False and state["hr_no_self_target"] is True
    assert state["opt_challengers"] == "first"


def test_switches_and_table_rules_compose_one_description() -> None:
    state: dict[str, Any] = {}
    choices.chosen(state, PLAY)
    state[PLAY.house("pay_five")] = True
    state[PLAY.house("bounty")] = True
    state[PLAY.option("challengers")] = "all"
    assert choices.chosen(state, PLAY).text == "base+bounty+pay_five(challengers=all)"


def test_another_rule_set_starts_from_its_own_switches() -> None:
    state: dict[str, Any] = {"variant": "base"}
    choices.chosen(state)
    state["hr_pay_five"] = True
    state["variant"] = "mcguire"
    ruleset = choices.chosen(state)
    assert ruleset.text == "mcguire"
    assert all(state[RULES_PAGE.house(r.name)] for r in HOUSE_RULES)
    state["hr_inheritance"] = False
    assert choices.chosen(state).text == "mcguire-inheritance"
    state["variant"] = "base"
    assert choices.chosen(state).text == "base" and state["hr_inheritance"] is False


def test_a_switch_that_cannot_apply_is_held_at_the_rule_sets_value() -> None:
    state: dict[str, Any] = {"variant": "inquisitor"}
    choices.chosen(state)
    state["hr_ambassador_reduces"] = True  # a stale widget value
    state["hr_mat"] = True
    assert choices.chosen(state).text == "inquisitor+mat"
    assert state["hr_ambassador_reduces"] is False


def test_a_table_rule_that_cannot_change_the_rule_set_is_left_out() -> None:
    state: dict[str, Any] = {"opt_examine_pick": "random", "opt_vocabulary": "treason"}
    assert choices.chosen(state).text == "base"
    state["variant"] = "reformation-inquisitor"
    assert choices.chosen(state).text == (
        "reformation-inquisitor(examine_pick=random,vocabulary=treason)")
    state["opt_challengers"] = "nonsense"  # not one of its choices: the rulebook's
    assert choices.chosen(state).options.challengers == "first"


@pytest.mark.parametrize("text", ["base", "base+pay_five", "mcguire-inheritance",
                                  "inquisitor+bounty(challengers=all)",
                                  "base-no_self_target(foreign_aid_blockers=random,"
                                  "more_players=web)", "draft+bounty"])
def test_a_description_loaded_reads_back_the_same(text: str) -> None:
    state: dict[str, Any] = {}
    choices.load(state, text, PLAY)
    assert choices.chosen(state, PLAY).text == parse_rules(text).text


def test_a_link_is_loaded_once_and_a_bad_one_is_named() -> None:
    state: dict[str, Any] = {}
    assert choices.follow_link(state, "base pay_five") is None  # '+' decoded as a space
    assert choices.chosen(state).text == "base+pay_five"
    state["hr_pay_five"] = False  # the reader switches it off: the old address is not reread
    assert choices.follow_link(state, "base pay_five") is None
    assert choices.chosen(state).text == "base"
    problem = choices.follow_link(state, "base+pay5")
    assert problem is not None and "'pay5'" in problem and "pay_five" in problem
    assert choices.chosen(state).text == "base"  # the choice stays as it was
    assert choices.follow_link(state, None) is None


@pytest.mark.parametrize("name", list(VARIANTS))
def test_an_old_link_naming_a_rule_set_by_its_title_still_opens_it(name: str) -> None:
    state: dict[str, Any] = {}
    assert choices.follow_link(state, VARIANTS[name].title) is None
    assert choices.chosen(state).text == name


def test_the_address_shows_plus_signs() -> None:
    ruleset = parse_rules("base+bounty+pay_five(challengers=all)")
    assert choices.url_value(ruleset) == "base bounty pay_five(challengers=all)"
    assert parse_rules(choices.url_value(ruleset)) == ruleset


def test_player_counts_follow_the_deck_of_the_table_rules() -> None:
    base = VARIANTS["base"]
    web = Options().with_(more_players="web")
    assert choices.players_range(base) == range(2, 11)
    assert choices.players_range(base, web) == range(2, 21)
    assert choices.players_range(base, web, most=6) == range(2, 7)
    state: dict[str, Any] = {"players": 15}
    choices.fit_players(state, base, web)
    assert state["players"] == 15
    choices.fit_players(state, base)
    assert state["players"] == 10
    choices.fit_players(state, VARIANTS["draft"])
    assert state["players"] == 2


def test_resetting_brings_back_the_rule_sets_own_switches_and_the_rulebook() -> None:
    state: dict[str, Any] = {"variant": "mcguire"}
    choices.chosen(state)
    state["hr_mat"] = False
    state["opt_challengers"] = "all"
    choices.reset_house_rules(state)
    choices.reset_options(state)
    assert choices.chosen(state).text == "mcguire"


def test_every_choice_other_than_the_rulebooks_has_a_few_words() -> None:
    for name, info in Options.info().items():
        default = getattr(Options(), name)
        for value in info.choices:
            if value != default:
                assert (name, value) in choices.SHORT, (name, value)


def test_every_switch_has_one_plain_sentence() -> None:
    for rule in HOUSE_RULES:
        sentence = choices.plain_sentence(rule)
        assert sentence in choices.PLAIN.values()
    assert "another player" in choices.plain_sentence(HOUSE_RULES[-1])


@pytest.mark.parametrize(("text", "line", "summary"), [
    ("base", "No house rules; every table rule as in the rulebook.",
     "none (as in the rulebook)"),
    ("base+pay_five(challengers=all)",
     "House rules: 4. Paying instead of losing a card. Table rules: everyone who wants to "
     "may challenge.", "paying 5 instead of a card; everyone who wants to may challenge"),
    ("base+bounty+pay_five+low_start(challengers=all)",
     "House rules: 2. Starting coins · 3. The challenger's coin · 4. Paying instead of losing "
     "a card. Table rules: everyone who wants to may challenge.",
     "3 house rules and 1 table rule changed"),
    ("mcguire", "House rules: all of McGuire's.", "all of McGuire's house rules"),
    ("mcguire-inheritance", "House rules: McGuire's without 5. Inheritance (one Ambassador).",
     "McGuire's house rules without Inheritance"),
    ("base-no_self_target", "House rules: 7. Self-targeting allowed.",
     "self-targeting allowed"),
])
def test_what_is_in_force_in_plain_words(text: str, line: str, summary: str) -> None:
    ruleset = parse_rules(text)
    assert choices.in_force_line(ruleset) == line
    assert choices.choice_summary(ruleset) == summary


def test_a_title_names_the_table_rules_changed() -> None:
    assert choices.title("base") == "Coup (base game)"
    assert choices.title("base+pay_five(challengers=all)") == (
        "Coup (base game) + paying 5 instead of a card · everyone who wants to may challenge")


def test_the_house_rule_summary_counts_by_the_designers_numbers() -> None:
    assert choices.choice_summary_house(VARIANTS["base"]) == "none on"
    assert choices.choice_summary_house(VARIANTS["mcguire"]) == "all on"
    assert choices.choice_summary_house(parse_rules("base+bounty+pay_five").variant) == (
        "2 on (rules 3, 4)")
    assert choices.choice_summary_house(parse_rules("base-no_self_target").variant) == (
        "none on; self-targeting allowed")


def test_each_page_keeps_its_own_keys() -> None:
    keys = RuleKeys("room_new_", "room_new_rules")
    assert keys == choices.ROOM
    assert {keys.house("bounty"), keys.option("challengers"), keys.owner, keys.loaded} == {
        "room_new_hr_bounty", "room_new_opt_challengers", "room_new_hr_of",
        "room_new_rules_loaded"}
    assert choices.option_key("challengers") == "opt_challengers"


def test_the_header_counts_the_house_rules_in_force() -> None:
    line = choices.header_line(parse_rules("mcguire-inheritance"))
    assert line.startswith(":orange-badge[7 house rules] McGuire's without 5. Inheritance")
    assert ":gray-badge[Table rules as in the rulebook]" in line
    line = choices.header_line(parse_rules("base(challengers=all)"))
    assert line.startswith(":gray-badge[No house rules] :blue-badge[1 table rule changed]")
