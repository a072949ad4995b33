"""A rule set is a value: the engine reads everything from it, and it travels as one compact
description (a registered rule set, house rules switched with + and -, table rules in
brackets) through snapshots, logs, pickles and links."""

from __future__ import annotations

import pickle
import random
import re
from dataclasses import replace

import pytest

from trainer.engine.cards import Character
from trainer.engine.errors import RuleSetError
from trainer.engine.game import Game
from trainer.engine.rules import Options
from trainer.engine.serialize import from_snapshot
from trainer.engine.variants import (
    BASE,
    HOUSE_RULES,
    MCGUIRE,
    VARIANTS,
    compose,
    get_variant,
    house_rules_on,
    parse_rules,
    rules_text,
    switch,
)


def play_out(game: Game, seed: int) -> Game:
    choose = random.Random(seed).choice
    while not game.is_over:
        game.apply(choose(game.legal_moves()))
    return game


# ----------------------------------------------------------------------- the value is read
def test_a_changed_copy_of_the_base_game_plays_with_its_own_numbers():
    rich = replace(BASE, start_coins=5, forced_coup_at=8)
    game = Game.new(3, seed=1, variant=rich)
    assert game.coins == [5, 5, 5]
    game.coins[0] = 8
    game._legal = None
    assert {m.action for m in game.legal_moves()} == {"coup"}


def test_a_rule_set_with_a_new_name_needs_no_registry():
    mine = replace(BASE, name="our-table", title="Our table", start_coins=3)
    assert Game.new(4, seed=2, variant=mine).coins == [3, 3, 3, 3]


def test_a_changed_copy_is_cloned_and_pickled_as_itself():
    rich = replace(BASE, start_coins=5)
    game = Game.new(3, seed=1, variant=rich)
    assert game.clone().variant == rich
    assert pickle.loads(pickle.dumps(game)).variant == rich


def test_a_changed_copy_has_no_description_to_write():
    game = Game.new(3, seed=1, variant=replace(BASE, start_coins=5))
    with pytest.raises(RuleSetError, match="changed by hand"):
        game.snapshot()


def test_equal_rule_sets_hash_alike_across_a_pickle():
    again = pickle.loads(pickle.dumps(get_variant("base+pay_five")))
    assert again == get_variant("base+pay_five")
    assert hash(again) == hash(get_variant("base+pay_five"))


# ----------------------------------------------------------------------- descriptions
@pytest.mark.parametrize("text", ["base", "mcguire", "base+pay_five", "base+bounty+pay_five",
                                  "mcguire-inheritance", "reformation+low_start",
                                  "reformation-inquisitor+bounty", "forum+vengeance+mat",
                                  "base-no_self_target", "draft+pay_five",
                                  "base(challengers=all)",
                                  "mcguire-treaty(finite_treasury=no,foreign_aid_blockers=random)"])
def test_a_description_reads_back_as_itself(text):
    ruleset = parse_rules(text)
    assert ruleset.text == text
    assert parse_rules(ruleset.text) == ruleset


def test_a_description_is_forgiving_of_case_spaces_and_dashes_in_names():
    assert parse_rules("Base Pay_Five").variant.name == "base+pay_five"
    assert parse_rules("base + pay_five").variant.name == "base+pay_five"
    assert parse_rules("mcguire-no-self-target").variant.name == "mcguire-no_self_target"


def test_house_rules_are_written_in_the_designers_order():
    assert parse_rules("base+pay_five+bounty").text == "base+bounty+pay_five"


def test_a_registered_name_with_a_dash_is_not_read_as_a_switch():
    assert get_variant("reformation-inquisitor") is VARIANTS["reformation-inquisitor"]


@pytest.mark.parametrize("text, words", [
    ("bas", "unknown variant 'bas' (did you mean 'base'?)"),
    ("base+pay5", "unknown house rule 'pay5'"),
    ("base+bounty-bounty", "switched twice"),
    ("base(nope=1)", "unknown table rule 'nope'"),
    ("base(challengers=some)", "cannot be 'some'; expected one of first, all"),
    ("base(challengers=all", "one pair of brackets"),
    ("inquisitor+ambassador_reduces", "the Ambassador does not block stealing"),
    ("draft+mat", "cannot supply the mat"),
    ("draft+inheritance", "no copy can carry a power"),
    ("inquisitor+inheritance", "has no Ambassador"),
    ("", "a rule set is needed"),
])
def test_a_bad_description_says_what_is_wrong(text, words):
    with pytest.raises(RuleSetError, match=re.escape(words)):
        parse_rules(text)


def test_a_description_with_table_rules_is_not_a_variant_alone():
    with pytest.raises(RuleSetError, match="sets table rules too"):
        get_variant("base(challengers=all)")


def test_rules_text_leaves_the_default_table_rules_out():
    assert rules_text(BASE, Options()) == "base"
    assert rules_text(BASE, Options().with_(gainless_actions="refused")) == \
        "base(gainless_actions=refused)"


# ----------------------------------------------------------------------- house rules
def test_mcguire_is_the_base_game_with_all_seven_house_rules_on():
    every = compose(BASE, {r.name: True for r in HOUSE_RULES})
    same = ("name", "title", "source", "summary", "family")
    assert replace(every, **{f: getattr(MCGUIRE, f) for f in same}) == MCGUIRE


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda r: r.name)
def test_each_house_rule_can_be_switched_alone_on_the_base_game(rule):
    if rule.name == "no_self_target":
        v = get_variant("base-no_self_target")
        assert not any(house_rules_on(v).values())
        return
    v = switch(BASE, **{rule.name: True})
    assert v.name == f"base+{rule.name}"
    assert house_rules_on(v) == {r.name: r.name in (rule.name, "no_self_target")
                                 for r in HOUSE_RULES}


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda r: r.name)
def test_each_house_rule_can_be_switched_off_alone_in_mcguires_rules(rule):
    v = get_variant(f"mcguire-{rule.name}")
    assert house_rules_on(v) == {r.name: r.name != rule.name for r in HOUSE_RULES}
    play_out(Game.new(3, seed=5, variant=v), 5)


def test_pay_five_alone_offers_the_payment_and_no_challengers_coin():
    v = get_variant("base+pay_five")
    assert v.pay_instead == 5 and v.challenge_bounty == 0 and not v.specials
    assert Game.new(4, seed=0, variant=v).coins == [2, 2, 2, 2]


def test_modified_cards_are_in_the_deck_only_when_their_rule_is_on():
    court = get_variant("base+treaty").court(4)
    assert Character.TREATY in court
    assert Character.INHERITANCE not in court and Character.VENGEANCE not in court
    assert court.count(Character.CONTESSA) == 2


def test_switching_a_house_rule_back_gives_the_registered_rule_set():
    assert switch(get_variant("base+bounty"), bounty=False) is BASE
    assert get_variant("mcguire-bounty+bounty".replace("+bounty", "")) == \
        get_variant("mcguire-bounty")


# ----------------------------------------------------------------------- round trips
@pytest.mark.parametrize("text", ["base+bounty+pay_five", "mcguire-inheritance",
                                  "reformation+vengeance", "forum+pay_five+mat",
                                  "base-no_self_target"])
def test_a_composed_game_round_trips_through_its_snapshot_and_log(text):
    game = Game.new(3, seed=11, variant=text)
    start = game.snapshot()
    assert start["variant"] == text
    assert from_snapshot(start).variant == game.variant
    play_out(game, 11)
    again = Game.replay(game.log)
    assert again.variant == game.variant and again.winner == game.winner


def test_table_rules_round_trip_through_a_snapshot():
    options = Options().with_(challengers="all", foreign_aid_blockers="queue")
    game = Game.new(4, seed=3, options=options)
    assert from_snapshot(game.snapshot()).options == options


def test_the_longest_description_there_is_fits_the_records_that_keep_one():
    from trainer.engine.variants import RULES_TEXT_MAX

    longest = ""
    for family in VARIANTS.values():
        switches = {r.name: not r.is_on(family) for r in HOUSE_RULES
                    if r.is_on(family) or not r.unfit(family)}
        variant = compose(family, switches)
        options = Options().with_(**{
            name: max((c for c in info.choices if c != getattr(Options(), name)),
                      key=lambda c: len(str(c)))
            for name, info in Options.info().items()})
        text = rules_text(variant, options)
        assert parse_rules(text).text == text
        longest = max(longest, text, key=len)
    assert 300 < len(longest) <= RULES_TEXT_MAX
