"""Every variant is described, selectable and printable: the Rules page data, the CLI, the
variant notes and their quotes."""

from __future__ import annotations

import pytest

from trainer.cli import main
from trainer.engine.cards import Character
from trainer.engine.rules import Options
from trainer.engine.variants import HOUSE_RULE_NAMES, VARIANTS, get_variant, house_rules_on
from trainer.rulebook import reference as ref
from trainer.rulebook.sources import quote_in_text, rules_dir
from trainer.rulebook.text import rules_text
from trainer.rulebook.variant_rules import HOOKS, all_rules, variant_rules
from trainer.views import cardart

NAMES = list(VARIANTS)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.title)
def test_every_variant_note_quotes_its_rule_text_word_for_word(rule):
    directory = rules_dir()
    if directory is None:
        pytest.skip("the rule texts are not beside this checkout")
    assert quote_in_text(rule.quote, (directory / rule.source_file).read_text())


@pytest.mark.parametrize("name", NAMES)
def test_every_hook_a_variant_switches_on_is_explained(name):
    variant = get_variant(name)
    explained = {r.hook for r in variant_rules(variant)}
    assert {h for h in HOOKS if variant.has(h)} <= explained
    if any(s.action == "examine" for s in variant.actions):
        assert "examine" in explained


@pytest.mark.parametrize("text", ["mcguire", "base+pay_five", "mcguire-inheritance-mat",
                                  "forum+bounty+vengeance", "base-no_self_target"])
def test_every_house_rule_switched_on_is_explained_with_its_number(text):
    variant = get_variant(text)
    explained = [r.hook for r in variant_rules(variant)]
    switched_on = [n for n, on in house_rules_on(variant).items()
                   if on and n != "no_self_target"]
    assert [h for h in explained if h in HOUSE_RULE_NAMES and h != "no_self_target"] \
        == switched_on
    assert ("no_self_target" in explained) == (
        bool(switched_on) or not house_rules_on(variant)["no_self_target"])


def test_the_base_game_changes_nothing():
    assert variant_rules(VARIANTS["base"]) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_rules_page_data_covers_every_card_of_the_variant(name):
    variant = get_variant(name)
    players = min(max(4, variant.min_players), variant.max_players)
    roles = ref.character_roles(variant)
    assert [r.character for r in roles] == list(variant.cards)
    html = cardart.card_grid(roles, copies={c: 1 for c in variant.cards})
    for card in variant.cards:
        assert f'data-character="{card}"' in html
    facts = ref.setup_facts(variant, players)
    assert sum(n for _, n in facts.court) == facts.deck_size == len(variant.court(players))


def test_mcguire_set_up_counts_the_mat_and_the_modified_cards():
    facts = ref.setup_facts(VARIANTS["mcguire"], 3)
    text = ref.setup_text(facts)
    assert "4 more go face down on the event mat with 1 coin" in text
    assert "That leaves 5 in the deck" in text
    assert "47 after everyone takes their starting coins" in text
    assert "Vengeance Assassin" in facts.court_text


def test_a_modified_card_shows_its_power_and_the_ambassador_its_reduction():
    roles = {r.character: r for r in ref.character_roles(VARIANTS["mcguire"])}
    assert "Vengeance" in roles[Character.VENGEANCE].power
    assert [s.action for s in roles[Character.AMBASSADOR].reduces] == ["steal"]
    assert not roles[Character.AMBASSADOR].blocks


def test_conversion_and_embezzlement_rows_read_right():
    rows = {r.action: r for r in ref.action_rows(VARIANTS["reformation"])}
    assert rows["convert"].cost_text == "1 coin (2 for another player)"
    assert rows["convert"].target_text == "Yourself or one other player"
    assert rows["embezzle"].character_text == "NOT holding the Duke"
    assert "other way round" in rows["embezzle"].challenge_text


def test_only_the_options_that_matter_are_listed_for_a_variant():
    base = [r.name for r in ref.option_rows(Options(), VARIANTS["base"])]
    assert "examine_pick" not in base and "vocabulary" not in base
    inq = [r.name for r in ref.option_rows(Options(), VARIANTS["reformation-inquisitor"])]
    assert "examine_pick" in inq and "vocabulary" in inq
    assert "two_player_start" not in [r.name for r in ref.option_rows(Options(),
                                                                        VARIANTS["mcguire"])]


@pytest.mark.parametrize("name", NAMES)
def test_the_cli_prints_the_full_rules_of_every_variant(name, capsys):
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    variant = get_variant(name)
    assert out.startswith(variant.title.upper())
    for row in ref.action_rows(variant):
        assert row.name in out
    for rule in variant_rules(variant):
        assert rule.title in out


def test_the_cli_rejects_an_unknown_variant(capsys):
    assert main(["rules", "nope"]) == 2
    assert "unknown variant 'nope'" in capsys.readouterr().err


def test_the_printed_rules_mark_the_option_in_force():
    text = rules_text(VARIANTS["inquisitor"], 4, Options(examine_pick="random"))
    assert "* One of the examined player's face-down cards is picked at random." in text


def test_the_cli_prints_a_composed_rule_set_with_its_table_rules(capsys):
    assert main(["rules", "base+pay_five+treaty(challengers=all)", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("COUP (BASE GAME) + PAYING 5 INSTEAD OF A CARD AND TREATY")
    assert "(base+pay_five+treaty(challengers=all); 2–10 players)" in out
    assert "House rules: 4. Paying instead of losing a card · 5. Treaty (one Contessa)." in out
    assert "Treaty Contessa (1 in the Court deck)" in out
    assert "may pay 5 coins instead of losing a card" in out
    assert "all of them do" in out
    assert "WHAT THE HOUSE RULES CHANGE" in out
    assert "  * 4. Paying instead of losing a card (pay_five)" in out
    assert "    1. The Ambassador only reduces a steal (ambassador_reduces)" in out


def test_the_cli_names_the_part_of_a_description_at_fault(capsys):
    assert main(["rules", "base+pay5"]) == 2
    assert "unknown house rule 'pay5'" in capsys.readouterr().err
    assert main(["rules", "inquisitor+inheritance"]) == 2
    assert "Inquisitor has no Ambassador" in capsys.readouterr().err


def test_a_switch_that_cannot_apply_is_marked_in_the_printed_rules():
    text = rules_text(VARIANTS["draft"], 2)
    assert "Cannot apply here: the draft's Court deck of three cards cannot supply" in text
