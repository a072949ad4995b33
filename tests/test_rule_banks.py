"""Questions under a chosen rule set (trainer.quiz.rule_banks): persona games under exactly one
description, valued as the bank builder values them, written into the user's bank folder under
the rule set's name, and found there by the rooms and the Quiz."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.quiz import rule_banks
from trainer.quiz.bank import USER_BANK_ENV, available_banks, load_bank
from trainer.quiz.drills import rule_sets
from trainer.views import quiz_text, room_text

RULES = "base+pay_five(challengers=all)"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(USER_BANK_ENV, str(tmp_path))
    return tmp_path


def test_a_bank_is_named_after_its_rules() -> None:
    assert rule_banks.bank_name(RULES) == "rules-base+pay_five-challengers-all"
    assert rule_banks.bank_name("base pay_five(challengers=all)") == rule_banks.bank_name(RULES)
    assert rule_banks.bank_name("mcguire-inheritance") == "rules-mcguire-inheritance"


def test_questions_are_played_and_valued_under_exactly_the_rules(folder: Path) -> None:
    seen: list[tuple[int, int]] = []
    bank = rule_banks.make_questions(RULES, 3, seed=4, rollouts=8,
                                     progress=lambda d, n: seen.append((d, n)))
    assert 1 <= len(bank.items) <= 3
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)
    assert {i.variant for i in bank.items} == {RULES}
    game = bank.items[0].game()
    assert game.variant.pay_instead == 5 and game.options.challengers == "all"
    assert all("Variant: Coup (base game) + paying 5 instead of a card · everyone who wants "
               "to may challenge" in i.themes for i in bank.items)
    path = folder / "rules-base+pay_five-challengers-all.jsonl"
    assert available_banks()[bank.name] == path
    again = load_bank(path)
    assert again.header["rule_set"] == RULES and again.header["rollouts"] == 8
    assert rule_sets(again) == [RULES]
    more = rule_banks.make_questions(RULES, 3, seed=5, rollouts=8)
    assert len(more.items) > len(bank.items)  # made again: added to the same bank
    assert len(more.header["additions"]) == 1


def test_titles_read_a_description_with_table_rules() -> None:
    assert quiz_text.rule_set_title(RULES) == (
        "Coup (base game) + paying 5 instead of a card · everyone who wants to may challenge")
    assert quiz_text.rules_words("base") == "Coup (base game), official rules"
    assert quiz_text.rules_words(RULES) == (
        "Coup (base game) + paying 5 instead of a card (House rules: 4. Paying instead of "
        "losing a card. Table rules: everyone who wants to may challenge)")
    note = quiz_text.new_cards("base+treaty")
    assert note is not None and "Treaty Contessa" in note[1]
    assert room_text.rules_title(RULES) == "Coup (base game) + paying 5 instead of a card"
    assert room_text.rules_title("all") == room_text.EVERY_RULE_SET
    assert room_text.rules_title("nonsense+") == "nonsense+"  # a damaged row, shown as it is
