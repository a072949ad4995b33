"""Sequential playouts: options are played in doubling batches on common worlds until every
option's grade band is clear or the cap is reached, and every feature values a decision with
that one function."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from trainer.engine.cards import Action
from trainer.engine.game import Game
from trainer.engine.moves import Move
from trainer.estimates.posterior import mixture
from trainer.estimates.report import DEFAULT_MODEL
from trainer.estimates.rollouts import (
    STOP_CAP,
    STOP_FIXED,
    STOP_SETTLED,
    Precision,
    _settled,
    values,
)
from trainer.learners.answers import GRADE_BOUNDS
from trainer.play.match import Match
from trainer.play.record import GameRecord
from trainer.play.review import review, value_job
from trainer.play.setup import Setup
from trainer.quiz.building import evaluate, precision

from .helpers import table

EDGES = tuple(bound for _, bound in GRADE_BOUNDS)
COMPONENTS = mixture(DEFAULT_MODEL)


def coup_or_income() -> Game:
    """Ann can Coup Bob's last card and win at once; taking Income instead lets Bob, with
    seven coins, Coup hers."""
    return table(("Ann", "Duke", 7), ("Bob", "Assassin", 7),
                 revealed={0: "Captain", 1: "Duke"})


def moves_of(game: Game) -> tuple[Move, Move]:
    return Move.act(0, Action.COUP, 1), Move.act(0, Action.INCOME)


def test_a_clearly_separated_pair_stops_at_the_first_look():
    game = coup_or_income()
    v = values(game, 0, None, COMPONENTS, Precision(cap=1024, first=64, edges=EDGES), 3,
               list(moves_of(game)))
    assert v.stopped == STOP_SETTLED
    assert [o.n for o in v.options] == [64, 64]
    assert all(o.stop == STOP_SETTLED for o in v.options)
    assert v.options[0].win == 1.0 and v.options[1].win < 0.5


def independent(mean: float, n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [int(rng.random() < mean) for _ in range(n)]


def test_a_tie_between_different_options_is_never_settled_before_the_cap():
    """Two options worth the same but played to different ends: the loss of either is 0 ±
    a noise that stays above the first band at any affordable count."""
    a, b = Move.act(0, Action.INCOME), Move.act(0, Action.FOREIGN_AID)
    for n in (64, 256, 1024):
        results = {a: independent(0.4, n, 1), b: independent(0.4, n, 2)}
        assert _settled(results, Precision(cap=4096, edges=EDGES)) != {a, b}


def test_identical_outcomes_settle_as_best_only_once_one_discordant_world_is_within_a_point():
    a, b = Move.act(0, Action.INCOME), Move.act(0, Action.FOREIGN_AID)
    same = independent(0.3, 256, 5)
    assert _settled({a: same[:128], b: same[:128]}, Precision(cap=4096, edges=EDGES)) == set()
    assert _settled({a: same, b: same}, Precision(cap=4096, edges=EDGES)) == {a, b}


def test_a_loss_straddling_a_band_edge_is_not_settled():
    a, b = Move.act(0, Action.INCOME), Move.act(0, Action.FOREIGN_AID)
    best = [1] * 400
    worse = [0] * 20 + [1] * 380  # 5 points lost, right on the good/inaccuracy edge
    assert b not in _settled({a: best, b: worse}, Precision(cap=4096, edges=EDGES))


def opening() -> Game:
    return table(("Ann", "Duke Captain", 2), ("Bob", "Assassin Contessa", 2))


def test_an_unsettled_decision_stops_at_the_cap_and_says_so():
    v = values(opening(), 0, None, COMPONENTS, Precision(cap=32, first=16, edges=EDGES), 3)
    assert v.stopped == STOP_CAP
    assert max(o.n for o in v.options) == 32
    assert STOP_CAP in {o.stop for o in v.options}


def test_a_fixed_count_plays_exactly_that_many():
    game = coup_or_income()
    v = values(game, 0, None, COMPONENTS, Precision.fixed(30), 3, list(moves_of(game)))
    assert v.stopped == STOP_FIXED and [o.n for o in v.options] == [30, 30]


def test_an_option_is_played_in_the_same_worlds_whatever_else_is_valued_beside_it():
    game = coup_or_income()
    coup, income = moves_of(game)
    alone = values(game, 0, None, COMPONENTS, Precision.fixed(40), 9, [income])
    beside = values(game, 0, None, COMPONENTS, Precision.fixed(40), 9, [coup, income])
    assert alone.options[0].win == beside.options[1].win


def test_the_same_seed_gives_the_same_valuation():
    how = Precision(cap=128, first=32, edges=EDGES)
    first = values(opening(), 0, None, COMPONENTS, how, 11)
    again = values(opening(), 0, None, COMPONENTS, how, 11)
    assert first == again


def test_a_precision_without_playouts_is_refused_with_the_field_named():
    with pytest.raises(ValueError, match="cap"):
        Precision(cap=0)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    match = Match.start(Setup("base", 5, ("you", "rule")), "ann")
    rng = random.Random(5)
    while not match.over and match.index < 30:
        if match.bot_to_move:
            match.bot_move()
        else:
            match.play(rng.choice(match.game.legal_moves()))
    return match.record


def test_the_coach_and_the_review_give_the_same_valuation_of_a_decision(record):
    rev = review(record, rollouts=24)
    assert rev.steps
    for s in rev.steps[:3]:
        coach = value_job((record, s.index, 24))
        assert coach is not None
        assert coach.item.options == s.valued.item.options


def test_a_bank_item_is_valued_by_the_sequential_playouts():
    game = coup_or_income()
    item = evaluate(game, 0, None, kind="bluff", source="persona game", rollouts=1024,
                    rollout_seed=3, options_to_value=list(moves_of(game)), seed=1)
    assert item.rollouts == precision().cap == 1024
    assert {o.stop for o in item.options} == {STOP_SETTLED}
    assert {o.n for o in item.options} == {64}


def test_an_item_says_how_many_playouts_its_options_got_and_an_older_item_its_fixed_count():
    game = coup_or_income()
    item = evaluate(game, 0, None, kind="bluff", source="persona game", rollouts=1024,
                    rollout_seed=3, options_to_value=list(moves_of(game)), seed=1)
    assert item.playouts == "64"
    older = replace(item, options=tuple(replace(o, n=0) for o in item.options))
    assert older.playouts == "1,024"
