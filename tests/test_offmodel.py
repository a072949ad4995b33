"""The off-model measurement: strangers' claims with their truth, and the scores of them."""

from __future__ import annotations

import math
import random

import pandas as pd
import pytest

from trainer.engine.game import Game
from trainer.engine.moves import MoveKind
from trainer.estimates.offmodel import (
    brier,
    confident_misses,
    harvest_frame,
    log_score,
    reliability,
    scores,
)
from trainer.policies.offmodel import PlainHonest, strangers
from trainer.policies.personas import value


@pytest.fixture(scope="module")
def frames() -> dict[str, pd.DataFrame]:
    return {name: harvest_frame(40, policy=name, seed=3) for name in strangers()}


def test_only_the_strangers_claims_are_recorded(frames):
    for name, frame in frames.items():
        assert len(frame) == 40, name
        assert set(frame["players"]) == {3, 4}
        assert "Player 1" not in set(frame["claimant"]), name  # seat 0 is the observer


def test_the_plain_honest_player_never_bluffs_and_the_heavy_bluffer_mostly_does(frames):
    assert not frames["plain-honest"]["bluff"].any()
    assert frames["heavy-bluffer"]["bluff"].mean() > 0.6
    assert 0 < frames["random"]["bluff"].mean() < 1


def test_the_bluff_columns_are_the_complement_of_the_honesty_estimates(frames):
    f = frames["random"]
    assert (f["post_bluff"] + f["posterior"]).round(12).eq(1).all()
    assert (f["count_bluff"] + f["prior"]).round(12).eq(1).all()
    assert (f["bluff"] != f["honest"]).all()


def test_a_harvest_is_the_same_for_the_same_seed():
    a = harvest_frame(20, policy="random", seed=11)
    b = harvest_frame(20, policy="random", seed=11)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(harvest_frame(20, policy="random", seed=12))


def test_the_plain_honest_player_loses_its_best_card_and_never_challenges():
    game = Game.new(3, seed=1)
    player = PlainHonest()
    losses = 0
    while not game.is_over:
        obs = game.observation(game.decider)
        dist = player.policy(obs)
        kinds = {m.kind for m in obs.legal_moves}
        if MoveKind.CHALLENGE in kinds:
            assert all(m.kind is not MoveKind.CHALLENGE for m in dist)
        if MoveKind.LOSE in kinds and len(obs.legal_moves) > 1:
            (lost,) = dist
            assert lost.character is not None
            assert value(lost.character) == max(value(c) for c in obs.hand)
            losses += 1
        game.apply(max(dist, key=lambda m: dist[m]))
    assert losses  # the seed reaches a real choice of card to lose


def test_brier_log_score_and_confident_misses_by_hand():
    p = [0.0, 0.01, 0.5, 0.99, 1.0]
    bluff = [True, False, True, False, True]
    assert brier(p, bluff) == pytest.approx((1 + 0.0001 + 0.25 + 0.9801 + 0) / 5)
    # Clamped to 1-99%: a sure miss scores as a 1% one.
    miss = 100 * (1 + math.log2(0.01))
    assert log_score(p, bluff) == pytest.approx(
        (miss + 100 * (1 + math.log2(0.99)) + 0 + miss + 100 * (1 + math.log2(0.99))) / 5)
    assert log_score([0.5], [False]) == pytest.approx(0)
    # 0.0 (a bluff), 0.01 (honest: right), 0.99 (honest: wrong), 1.0 (a bluff: right)
    assert confident_misses(p, bluff) == (4, 2)
    assert confident_misses([0.02, 0.98, 0.03], [True, False, True]) == (2, 2)
    s = scores(p, bluff)
    assert (s.n, s.confident, s.misses, s.miss_share) == (5, 4, 2, 0.4)
    assert s.bluff_rate == pytest.approx(0.6)
    with pytest.raises(ValueError):
        brier([], [])


def test_the_reliability_table_bins_by_tenths():
    table = reliability([0.05, 0.08, 0.15, 1.0, 0.95], [False, True, True, True, False])
    assert list(table.index) == ["0-10%", "10-20%", "90-100%"]
    assert table["n"].tolist() == [2, 1, 2]
    assert table.loc["0-10%", "forecast"] == pytest.approx(0.065)
    assert table.loc["0-10%", "observed"] == pytest.approx(0.5)
    assert table.loc["90-100%", "observed"] == pytest.approx(0.5)


def test_the_situational_player_bluffs_by_the_position():
    from trainer.engine.cards import Action, Character
    from trainer.policies.offmodel import POOR, Situational

    player = Situational()
    seen_poor = seen_rich = False
    for seed in range(40):
        game = Game.new(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(2000):  # random play ends; the bound keeps a fault from hanging
            if game.is_over:
                break
            obs = game.observation(game.decider)
            dist = player.policy(obs)
            assert sum(dist.values()) == pytest.approx(1.0)
            d = obs.pending
            duke = any(c.role is Character.DUKE for c in obs.hand)
            if d is not None and d.phase.value == "action" and not duke \
                    and obs.seats[obs.player].influence == 2:
                taxes = sum(p for m, p in dist.items() if m.action is Action.TAX)
                if obs.seats[obs.player].coins <= POOR:
                    seen_poor = True
                    assert taxes > 0.5  # poor: a Tax, bluffed
                elif obs.seats[obs.player].coins < 7:
                    seen_rich = True
                    assert taxes == 0  # otherwise it never bluffs one
            game.apply(rng.choice(obs.legal_moves))  # random play reaches varied positions
        assert game.is_over, f"seed {seed}: no end in 2000 decisions"
    assert seen_poor and seen_rich


def test_the_steal_first_bluffer_steals_while_holding_the_duke():
    from trainer.engine.cards import Action, Character
    from trainer.policies.offmodel import StealFirst

    player = StealFirst()
    seen = 0
    for seed in range(30):
        game = Game.new(3, seed=seed)
        obs = game.observation(game.decider)
        if not any(c.role is Character.DUKE for c in obs.hand):
            continue
        dist = player.policy(obs)
        assert sum(dist.values()) == pytest.approx(1.0)
        steals = sum(p for m, p in dist.items() if m.action is Action.STEAL)
        taxes = sum(p for m, p in dist.items() if m.action is Action.TAX)
        assert steals > 4 * taxes > 0, seed  # every opponent starts with coins
        seen += 1
    assert seen


def test_a_mixed_table_seats_several_kinds_of_player():
    from trainer.estimates.offmodel import mixed_seating

    seat = mixed_seating()
    kinds = {type(s).__name__ + getattr(s, "name", "")
             for g in range(20) for s in seat(random.Random(g), 4)[0][1:]}
    assert len(kinds) >= 4


def test_an_unknown_table_is_a_clear_error():
    from trainer.estimates.offmodel import seating_for

    with pytest.raises(ValueError, match="no table 'nobody'"):
        seating_for("nobody")


def test_read_as_moving_at_random_the_same_claims_stay_nearer_counting(frames):
    # The reading that knows every stranger picks moves alike: its estimates of the very
    # same claims move less from counting than the model's, which reads the moves as a
    # persona's might mean something.
    model = frames["random"]
    known = harvest_frame(40, policy="random", seed=3, uninformed=1 - 1e-9)
    assert (known["bluff"] == model["bluff"]).all()
    assert (known["count_bluff"] == model["count_bluff"]).all()
    moved = (known["post_bluff"] - known["count_bluff"]).abs().mean()
    assert moved < (model["post_bluff"] - model["count_bluff"]).abs().mean()
