"""The calibration harvest: claims with their truth, three estimators, a chart."""

from __future__ import annotations

import pandas as pd
import pytest

from trainer.cli import main
from trainer.estimates.calibration import brier, harvest, reliability


def test_a_harvest_records_each_claim_with_the_truth_and_three_estimates():
    claims = harvest(40, seed=5)
    assert len(claims) == 40
    frame = pd.DataFrame([c.__dict__ for c in claims])
    for column in ("posterior", "prior", "approx"):
        assert frame[column].between(0, 1).all()
    assert set(frame["honest"]) <= {True, False}


def test_brier_scores_by_hand():
    frame = pd.DataFrame({"p": [1.0, 0.5, 0.0], "honest": [True, False, True]})
    assert brier(frame, "p") == pytest.approx((0 + 0.25 + 1) / 3)


def test_the_reliability_table_counts_every_claim_once_per_estimator():
    frame = pd.DataFrame([c.__dict__ for c in harvest(40, seed=5)])
    table = reliability(frame)
    assert table.groupby("estimator")["count"].sum().tolist() == [40, 40, 40]


def test_the_cli_writes_the_claims_and_the_chart(tmp_path, capsys):
    csv, png = tmp_path / "claims.csv", tmp_path / "chart.png"
    assert main(["calibration", "--claims", "30", "--csv", str(csv), "--png", str(png)]) == 0
    assert len(pd.read_csv(csv)) == 30
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Brier behavioural posterior" in capsys.readouterr().out
