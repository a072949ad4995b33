"""Tournaments: the interval arithmetic, and a small run written as CSV."""

from __future__ import annotations

import pandas as pd
import pytest

from trainer.bots.tournament import tournament, wilson
from trainer.cli import main


def test_the_wilson_interval_matches_hand_computed_values():
    low, high = wilson(8, 10)  # p = 0.8, n = 10
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


def test_a_tournament_plays_every_ordered_pair_at_every_size():
    frame = tournament(["honest", "random"], [2, 3], 6)
    assert len(frame) == 4 and set(frame["players"]) == {2, 3}
    assert (frame["games"] == 6).all() and frame["win_rate"].between(0, 1).all()
    assert (frame["ci_low"] <= frame["win_rate"]).all()
    assert (frame["win_rate"] <= frame["ci_high"]).all()


def test_the_cli_writes_csv(tmp_path, capsys):
    out = tmp_path / "t.csv"
    assert main(["tournament", "--games", "4", "--players", "2", "--personas", "honest",
                 "rule", "--out", str(out)]) == 0
    frame = pd.read_csv(out)
    assert list(frame["persona"]) == ["Honest", "Rule bot"]


def test_an_unknown_persona_is_named(capsys):
    assert main(["tournament", "--games", "1", "--personas", "genius"]) == 2
    assert "unknown persona 'genius'" in capsys.readouterr().err


def test_with_three_personas_each_also_meets_a_mixed_field():
    frame = tournament(["honest", "random", "bluffer"], [3], 3)
    assert (frame["field"] == "mixture of the others").sum() == 3
