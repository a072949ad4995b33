"""The known-role table of two cards against one: exact, read from either seat."""

from __future__ import annotations

import random

import numpy as np
import pytest

from trainer.endgame import known, known_two
from trainer.engine.cards import Character as C
from trainer.engine.game import Game, Phase
from trainer.engine.variants import get_variant

CHARS = get_variant("base").characters


def _turn_start_value(game: Game) -> float | None:
    """What the tables say of a turn's start: the one-card table, or this table."""
    one = known_two._one_card(game)
    if one is not None:
        return one
    if game.phase is not Phase.ACTION:
        return None
    return known_two.value((tuple(game.hidden[0]), tuple(game.hidden[1])),
                           (tuple(game.revealed[0]), tuple(game.revealed[1])),
                           (game.coins[0], game.coins[1]), game.decider)


def one_turn(game: Game) -> float:
    """The position's value from its own turn alone: every move and draw of this turn played
    by the engine, every next turn's start read from the tables. A stored value that is not
    the game's would not survive this (the table is the fixed point of exactly this step)."""
    start = game.position_key()

    def fixed(g: Game) -> float | None:
        return None if g.position_key() == start else _turn_start_value(g)

    keys, nodes = known.explore([game], fixed)
    low, _ = known.iterate(nodes, 0.0)
    high, _ = known.iterate(nodes, 1.0)
    i = keys[start]
    return (low[i] + high[i]) / 2


def sample(n: int, seed: int) -> list[tuple[known_two.Hand, C, C, tuple[int, int], int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        hand = rng.choice(known_two.hands())
        card, lost = rng.choice(CHARS), rng.choice(CHARS)
        coins = (rng.randrange(0, 9), rng.randrange(0, 9))  # a turn stays within the table
        first = rng.randrange(2)
        if known_two.root(hand, card, lost, coins, first) is not None:
            out.append((hand, card, lost, coins, first))
    return out


@pytest.fixture(scope="module")
def stored() -> None:
    assert known_two.table(C.DUKE) is not None, "the package ships the base game's table"


@pytest.mark.parametrize("position", sample(6, 2026), ids=lambda p: f"{p}")
def test_a_stored_value_is_what_one_turn_of_play_makes_of_the_next_turns(stored, position):
    hand, card, lost, coins, first = position
    game = known_two.root(hand, card, lost, coins, first)
    assert game is not None
    stored_value = known_two.value((hand, (card,)), ((), (lost,)), coins, first)
    assert stored_value is not None
    assert one_turn(game) == pytest.approx(stored_value, abs=1e-6)


def test_two_cards_with_seven_coins_to_act_coup_and_win(stored):
    assert known_two.value(((C.DUKE, C.CAPTAIN), (C.CONTESSA,)), ((), (C.ASSASSIN,)),
                           (7, 0), 0) == 1.0


def test_the_table_reads_the_same_from_the_other_seat(stored):
    here = known_two.value(((C.DUKE, C.CAPTAIN), (C.CONTESSA,)), ((), (C.ASSASSIN,)),
                           (2, 3), 1)
    there = known_two.value(((C.CONTESSA,), (C.CAPTAIN, C.DUKE)), ((C.ASSASSIN,), ()),
                            (3, 2), 0)
    assert here is not None and there is not None and here == pytest.approx(1.0 - there)


def test_cards_the_court_cannot_deal_and_other_shapes_have_no_value(stored):
    # three Dukes already: two in the hand and one lost, so the other cannot hold a fourth
    assert known_two.value(((C.DUKE, C.DUKE), (C.DUKE,)), ((), (C.DUKE,)), (1, 1), 0) is None
    assert known_two.value(((C.DUKE,), (C.DUKE,)), ((C.CAPTAIN,), (C.CAPTAIN,)),
                           (1, 1), 0) is None


def test_every_dealable_position_has_a_value_and_no_other(stored):
    court = get_variant("base").court(2)
    for lost in CHARS:
        table = known_two.table(lost)
        assert table is not None
        for h, hand in enumerate(known_two.hands()):
            for c, card in enumerate(CHARS):
                dealable = all(court.count(x) >= [*hand, card, lost].count(x) for x in CHARS)
                assert bool(np.isfinite(table[h, c]).all()) == dealable
                assert bool(np.isnan(table[h, c]).all()) != dealable
