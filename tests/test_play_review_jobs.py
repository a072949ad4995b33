"""A review from nothing sends its decisions to the workers as the page does: the duel at the
end of the game first and as one job, every decision valued as it would be alone."""

from __future__ import annotations

import random

import pytest

from trainer.play.match import Match
from trainer.play.record import GameRecord
from trainer.play.review import decision_indices, duel_indices, positions, value_job, value_jobs
from trainer.play.setup import Setup
from trainer.play.worker import Valuer

ROLLOUTS = 16


def play(seed: int) -> GameRecord:
    """A three-player game, the learner drawing legal moves from a stream fixed by the seed."""
    match = Match.start(Setup("base", seed, ("you", "honest", "calibrated")), "ann")
    while not match.over:
        if match.bot_to_move:
            match.bot_move()
        else:
            legal = match.game.legal_moves()
            match.play(random.Random(f"learner:{seed}:{match.index}").choice(legal))
    return match.record


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """A game that ends in a duel with several decisions of the learner's."""
    return play(8)


def test_the_duels_decisions_are_those_taken_with_two_players_left(record: GameRecord) -> None:
    indices = decision_indices(record)
    duel = duel_indices(record, indices)
    assert duel  # the fixture ends in a duel
    for k, game, _, _ in positions(record):
        if k in indices:
            assert (k in duel) == (sum(1 for h in game.hidden if h) == 2)


def test_decisions_valued_together_are_valued_as_each_alone(record: GameRecord) -> None:
    some = decision_indices(record)[:3]
    together = value_jobs((record, list(reversed(some)), ROLLOUTS))
    assert together == [value_job((record, k, ROLLOUTS)) for k in reversed(some)]


def test_a_group_sent_to_a_worker_comes_back_under_each_decisions_own_key(
        record: GameRecord) -> None:
    some = decision_indices(record)[1:3]
    pool = Valuer(1)
    try:
        pool.submit_group(record, some, ROLLOUTS)
        assert all(pool.result(record, k, ROLLOUTS, timeout=120) == value_job(
            (record, k, ROLLOUTS)) for k in some)
    finally:
        pool.shutdown()


def test_a_review_from_nothing_values_every_decision_once(record: GameRecord) -> None:
    indices = decision_indices(record)[:4]
    inline = Valuer(0)
    inline.submit_all(record, indices, ROLLOUTS)
    assert all(inline.ready(record, k, ROLLOUTS) for k in indices)
    assert [inline.result(record, k, ROLLOUTS) for k in indices] == [
        value_job((record, k, ROLLOUTS)) for k in indices]


def test_a_review_from_nothing_on_a_worker_values_each_decision_as_alone() -> None:
    """Sent a few consecutive decisions a job, each comes back as it is valued alone."""
    record = play(5)
    indices = decision_indices(record)
    pool = Valuer(1)
    try:
        pool.submit_all(record, indices, ROLLOUTS)
        assert [pool.result(record, k, ROLLOUTS, timeout=300) for k in indices] == [
            value_job((record, k, ROLLOUTS)) for k in indices]
    finally:
        pool.shutdown()
