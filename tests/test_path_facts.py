"""The five-minute path teaches every rule its questions rely on, before they rely on it.

Each lesson file marks what a screen states (`teaches:`) and what a question needs (`uses:`),
by the names in `trainer.scenarios.facts`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import shipped_library
from trainer.scenarios.errors import ScenarioError
from trainer.scenarios.facts import FACTS, gaps, taught_by
from trainer.scenarios.loader import load_scenario

LIBRARY = shipped_library()
PATH = [x.scenario for x in LIBRARY.five_minutes()]


def test_every_question_on_the_path_follows_from_what_came_before() -> None:
    assert gaps(PATH) == []


def test_the_path_teaches_every_fact_the_quiz_and_the_first_game_rely_on() -> None:
    """The deck of 3 of each, the deal, the replacement draw and exile among them."""
    assert {"deck", "deal", "replacement", "exile", "counting"} <= set(FACTS)
    assert taught_by(PATH) == set(FACTS)


def test_every_question_on_the_path_names_the_facts_it_uses() -> None:
    unnamed = [f"{s.id} step {n}" for s in PATH for n, step in enumerate(s.steps, start=1)
               if step.prompt is not None and not step.prompt.uses]
    assert unnamed == []


def test_a_question_that_relies_on_an_untaught_fact_is_reported() -> None:
    """Counting Dukes needs the deck's 3 of each, which the characters lesson teaches."""
    challenges = LIBRARY.get("learn-challenges")
    assert challenges is not None
    assert gaps([challenges.scenario])[0] == (
        "learn-challenges step 3 relies on deck, which no earlier screen teaches")


def test_a_misspelt_fact_names_the_file_and_the_line(tmp_path: Path) -> None:
    source = (Path(__file__).resolve().parents[1] / "scenarios" / "learn-coins.yaml")
    text = source.read_text().replace("teaches: [influence]", "teaches: [influense]")
    bad = tmp_path / "learn-coins.yaml"
    bad.write_text(text)
    line = text.splitlines().index("teaches: [influense]") + 1
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad)
    assert f"learn-coins.yaml:{line}" in str(e.value)
    assert "unknown fact 'influense'" in str(e.value) and "influence" in str(e.value)


def test_check_yourself_asks_only_rules_the_path_taught() -> None:
    check = LIBRARY.check()
    assert check is not None and check.prompts >= 6
    assert gaps([*PATH, check.scenario]) == []


def test_check_yourself_teaches_nothing_new_before_its_questions() -> None:
    """Its words may explain an answer, but no question leans on a rule only it states."""
    check = LIBRARY.check()
    assert check is not None
    assert gaps([check.scenario]) != []  # alone, its questions rely on the path
    assert not check.scenario.teaches and all(not s.teaches for s in check.scenario.steps)


def test_the_learn_guide_states_what_guessing_would_score_on_check_yourself() -> None:
    from trainer.scenarios.facts import guessing
    from trainer.scenarios.screens import screens

    check = LIBRARY.check()
    assert check is not None
    prompts = [sc.prompt for sc in screens(check.run) if sc.prompt is not None]
    anything, legal = guessing(prompts)
    guide = " ".join((Path(__file__).resolve().parents[1] / "docs" / "learn.md")
                     .read_text().split())
    n = len(prompts)
    assert f"**{n} of {n}**" in guide
    assert f"**{anything:.1f} of {n}**" in guide and f"**{legal:.1f} of {n}**" in guide
