"""The rule cases of scenarios/rules/: each checks OK, quotes its rule word for word, and
together they cover the base game, every table-rule option both ways and every variant.

They are not lessons: the Learn page's library reads only the top of scenarios/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import shipped_library
from trainer.engine.rules import Options
from trainer.engine.variants import HOUSE_RULES, VARIANTS, house_rules_on, parse_rules
from trainer.rulebook.sources import rules_dir
from trainer.scenarios import check_file, check_quotes, load_scenario, load_scenarios

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "scenarios" / "rules").glob("*.yaml"))
# The options whose every reading the rule cases show (vocabulary changes only the words).
TABLE_RULES = tuple(name for name in Options.info() if name != "vocabulary")


def test_at_least_twenty_two_rule_cases_are_shipped():
    assert len(RULES) >= 22


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_rule_case_checks_ok(path):
    run = check_file(path)
    assert run.scenario.mode == "rule" and run.scenario.checks() >= 1


@pytest.mark.skipif(rules_dir() is None, reason="the rule texts are not on this machine")
@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_rule_case_quotes_its_rule_word_for_word(path):
    scenario = load_scenario(path)
    assert scenario.rule is not None
    check_quotes(scenario)


def test_rule_cases_are_not_lessons():
    ids = {p.stem for p in RULES}
    library = shipped_library()
    assert not ids & {lesson.id for lesson in library.lessons}
    assert not ids & {s.id for s in load_scenarios(ROOT / "scenarios")}


def test_every_table_rule_is_shown_both_ways():
    shown: dict[str, set[object]] = {name: set() for name in TABLE_RULES}
    for path in RULES:
        options = load_scenario(path).setup.options
        for name in options.model_fields_set & set(TABLE_RULES):
            shown[name].add(getattr(options, name))
    assert shown == {name: set(Options.info()[name].choices) for name in TABLE_RULES}


def test_every_house_rule_is_shown_switched_on_and_rule_seven_switched_off():
    states = [house_rules_on(parse_rules(load_scenario(p).setup.variant).variant)
              for p in RULES]
    for rule in HOUSE_RULES:
        assert any(s[rule.name] for s in states), rule.name
        alone = [s for s in states if s[rule.name]
                 and sum(s.values()) == (1 if rule.name == "no_self_target" else 2)]
        assert alone or rule.name == "no_self_target", f"{rule.name} is never on alone"
    assert any(not s["no_self_target"] for s in states)


def test_every_variant_has_a_rule_case():
    variants = {load_scenario(p).setup.variant for p in RULES}
    assert variants >= set(VARIANTS) - {"reformation-inquisitor"}


def test_make_check_checks_the_rule_cases():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = makefile.split("\ncheck: install\n", 1)[1].split("\n\n", 1)[0]
    assert "scenarios/rules/*.yaml" in target
