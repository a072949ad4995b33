"""Perft: the recorded number of decision sequences from each seeded scripted deal, per
variant, is still what the engine generates (tests/data/perft, written by
`python -m trainer golden`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.helpers import table
from trainer.engine.perft import (
    MIXED,
    MIXED_FILE,
    SUITE,
    PerftPosition,
    check,
    divide,
    perft,
    perft_counts,
    read_perft,
    scripted_start,
)
from trainer.engine.playthrough import SUITE as PLAYTHROUGHS
from trainer.engine.rules import Options
from trainer.engine.variants import HOUSE_RULES, VARIANTS, house_rules_on, parse_rules

DATA = Path(__file__).resolve().parent / "data" / "perft"
POSITIONS = [p for name in (*VARIANTS, MIXED_FILE)
             for p in read_perft((DATA / f"{name}.perft").read_text())]


@pytest.mark.parametrize("position", POSITIONS, ids=[p.id for p in POSITIONS])
def test_every_recorded_count_is_what_the_engine_generates(position):
    assert check(position) == []


def test_there_is_one_file_per_variant_listing_the_suites_positions_and_depths():
    assert sorted(p.name for p in DATA.iterdir()) == sorted(
        f"{v}.perft" for v in (*VARIANTS, MIXED_FILE))
    recorded = read_perft((DATA / f"{MIXED_FILE}.perft").read_text())
    assert [(p.id, p.variant, p.players, p.seed, len(p.counts)) for p in recorded] == [
        (s.id(rules), rules, s.players, s.seed, s.depth) for rules, s in MIXED]
    for name, specs in SUITE.items():
        recorded = read_perft((DATA / f"{name}.perft").read_text())
        assert [(p.id, p.variant, p.players, p.seed, len(p.counts)) for p in recorded] == [
            (s.id(name), name, s.players, s.seed, s.depth) for s in specs]
        assert all(len(p.moves) == s.prefix for p, s in zip(recorded, specs, strict=True))


def test_a_wrong_count_a_changed_deal_or_an_unplayable_move_is_reported():
    good = POSITIONS[0]
    wrong = dataclasses.replace(good, counts=(*good.counts[:-1], good.counts[-1] + 1))
    assert check(wrong) == [f"{good.id}: perft {len(good.counts)} is {good.counts[-1]}, "
                            f"the file says {good.counts[-1] + 1}"]
    dealt = dataclasses.replace(good, deal=good.deal.replace("hands ", "hands Duke+", 1))
    assert "the deal is now" in check(dealt)[0]
    mid = next(p for p in POSITIONS if p.moves)
    bad = dataclasses.replace(mid, moves=(*mid.moves, "P9:income"))
    assert "the listed moves no longer play" in check(bad)[0]


def test_the_convention_one_sequence_for_a_game_that_ends_sooner():
    # The only move is the forced coup, the only answer losing the last card: the game ends
    # after two decisions, and that one line of play is one sequence at every depth.
    game = table(("Maria", "Duke Duke", 10), ("Cris", "Captain", 0), revealed={1: "Contessa"})
    assert [perft(game, d) for d in range(5)] == [1, 1, 1, 1, 1]
    assert perft_counts(game, 4) == (1, 1, 1, 1)
    assert divide(game, 3) == {"P0:coup>P1": 1}


def test_counting_all_depths_at_once_agrees_with_counting_each():
    for name in VARIANTS:
        game = scripted_start(name, 3 if name != "draft" else 2, 5)
        assert perft_counts(game, 4) == tuple(perft(game, d) for d in range(1, 5))
        assert sum(divide(game, 4).values()) == perft(game, 4)


def test_perft_leaves_the_position_as_it_was():
    game = scripted_start("base", 3, 1)
    before = game.log[:]
    perft(game, 4)
    assert game.log == before and not game.is_over


@pytest.mark.parametrize(("text", "message"), [
    ("id x\nvariant base\nplayers 2\nperft 1 5\n", "line 1: the position has no seed line"),
    ("id x\nvariant base\nplayers 2\nseed 1\nperft 2 5\n", "line 5: expected 'perft 1 COUNT'"),
    ("id x\nvariant base\nplayers two\n", "line 3: expected id, variant, players N"),
    ("id x\nid y\n", "line 2: a second id line"),
    ("id x\nvariant base\nplayers 2\nseed 1\nmoves P0:fly\n", "line 1 (x): cannot read"),
])
def test_a_malformed_file_names_the_line(text, message):
    with pytest.raises(ValueError, match="line") as info:
        read_perft(text)
    assert message in str(info.value)


def test_a_position_prints_as_it_reads():
    position = PerftPosition("x", "base", 3, 2, ("P0:tax", "P1:pass"), "hands -", (8, 22))
    assert read_perft(position.text()) == [position]


def test_the_golden_files_switch_every_house_rule_both_ways_and_use_every_reading():
    rule_sets = [parse_rules(r) for r, _ in MIXED] + [parse_rules(s.variant)
                                                     for s in PLAYTHROUGHS]
    rule_sets += [parse_rules(name) for name in SUITE]
    for rule in HOUSE_RULES:
        states = {house_rules_on(r.variant)[rule.name] for r in rule_sets}
        assert states == {True, False}, rule.name
    for name, info in Options.info().items():
        used = {r.options.as_dict()[name] for r in rule_sets}
        assert used == set(info.choices), name
