"""A review from nothing sends its decisions to the workers as the page does: the duel at the
end of the game first, its later decisions from the court values its first one worked out,
every decision valued as it would be alone."""

from __future__ import annotations

import random
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import pytest

from trainer.endgame import tables
from trainer.engine.cards import Character
from trainer.play.match import Match
from trainer.play.record import GameRecord
from trainer.play.review import (
    decision_indices,
    duel_indices,
    positions,
    value_job,
    value_jobs,
    value_jobs_with_courts,
)
from trainer.play.setup import Setup
from trainer.play.worker import Valuer
from trainer.policies.personas import personas

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


def honest_table(seed: int) -> GameRecord:
    """Six honest players, the learner playing the Honest persona's moves: a game that ends
    in a duel of one card each, four players' cards out of the court."""
    match = Match.start(Setup("base", seed, ("you",) + ("honest",) * 5), "ann")
    learner = personas()["honest"]
    rng = random.Random(seed)
    while not match.over:
        if match.learner_to_move:
            match.play(learner.choose(match.observation(), rng))
        else:
            match.bot_move()
    return match.record


def test_the_duels_later_decisions_start_from_the_court_values_the_first_worked_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first duel decision's job hands back the court's values; a job given them does
    not work them out again, and values its decision as it would alone."""
    record = honest_table(5)
    duel = duel_indices(record, decision_indices(record))
    first, second = [k for k, game, _, _ in positions(record)
                     if k in duel and all(len(h) == 1 for h in game.hidden if h)][:2]
    tables._COURTS.clear()
    valued, courts = value_jobs_with_courts((record, [first], ROLLOUTS, False, {}))
    assert valued == [value_job((record, first, ROLLOUTS))]
    assert valued[0] is not None and valued[0].solved is not None
    assert courts
    expected = value_job((record, second, ROLLOUTS))
    tables._COURTS.clear()

    def solved_again(*args: object) -> np.ndarray:
        raise AssertionError("the court's values were worked out again")

    monkeypatch.setattr(tables, "_court_values", solved_again)
    again, _ = value_jobs_with_courts((record, [second], ROLLOUTS, False, courts))
    assert again == [expected]


def test_court_values_of_the_wrong_shape_are_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    key = ((Character.DUKE, Character.CAPTAIN), (Character.ASSASSIN, Character.DUKE), "base")
    tables._COURTS.clear()
    tables.add_courts({key: np.zeros((2, 2))})
    assert key not in tables.solved_courts()
    solved = np.zeros((5, 5, 13, 13, 2))
    monkeypatch.setattr(tables, "_court_values", lambda *a: solved)
    assert tables.court_values(*key) is solved


def test_a_duel_the_workers_cannot_take_is_valued_here_when_asked(
        record: GameRecord, monkeypatch: pytest.MonkeyPatch) -> None:
    duel = duel_indices(record, decision_indices(record))[:2]
    pool = Valuer(1)
    executor = pool._executor()
    assert executor is not None

    def broken(*args: object, **kwargs: object) -> None:
        raise BrokenProcessPool("a worker died")

    monkeypatch.setattr(executor, "submit", broken)
    try:
        pool.submit_duel(record, duel, ROLLOUTS)
        assert [pool.result(record, k, ROLLOUTS, timeout=60) for k in duel] == [
            value_job((record, k, ROLLOUTS)) for k in duel]
    finally:
        executor.shutdown()
        pool.shutdown()


def test_a_duel_sent_to_the_workers_comes_back_as_each_decision_valued_alone(
        record: GameRecord) -> None:
    """The first decision alone, then the others once it is done (here the duel's hands are
    not one card each, so nothing is solved and the court's values are not needed)."""
    duel = duel_indices(record, decision_indices(record))
    assert len(duel) > 2
    pool = Valuer(2)
    try:
        pool.submit_all(record, duel, ROLLOUTS)
        assert [pool.result(record, k, ROLLOUTS, timeout=300) for k in duel] == [
            value_job((record, k, ROLLOUTS)) for k in duel]
    finally:
        pool.shutdown()
