"""The Calibration page's charts are drawn from unvalidated specs (validation was half the
page's CPU per run), so every chart's spec is validated here against Vega-Lite's schema."""

from __future__ import annotations

import pytest

from tests.helpers import sample_answers
from trainer.quiz import scoring
from trainer.views.calibration_charts import (
    over_time_charts,
    reliability_chart,
    spec,
    theme_chart,
    theme_lost_chart,
)

REPORT = scoring.report(sample_answers("charts", 200, seed=3))
CHARTS = {
    "reliability": reliability_chart(REPORT.reliability),
    **{f"over_time_{k}": c for k, c in enumerate(over_time_charts(REPORT.over_time))},
    "theme": theme_chart(REPORT.themes),
    "theme_lost": theme_lost_chart(REPORT.themes),
}


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_every_chart_of_the_page_is_valid_vega_lite(name: str) -> None:
    chart = CHARTS[name]
    assert spec(chart) == chart.to_dict()  # the validated spec is the one drawn
