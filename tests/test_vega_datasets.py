"""A spec whose datasets were made Arrow beforehand (`trainer.ui.vega.with_arrow_datasets`,
which the Calibration page caches) reaches the browser exactly as the same spec with its rows
would: the same spec text, the same datasets, byte for byte."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import sample_answers
from trainer.quiz import scoring
from trainer.ui.vega import with_arrow_datasets
from trainer.views.calibration_charts import (
    over_time_specs,
    reliability_spec,
    theme_lost_spec,
    theme_spec,
)

REPORT = scoring.report(sample_answers("arrow", 120, seed=5))
EMPTY = scoring.report([a.model_copy(update={"stated": None, "bluff": None, "bot": None})
                        for a in sample_answers("empty", 1, seed=6)])
SPECS = {
    "reliability": reliability_spec(REPORT.reliability),
    **{f"over_time_{k}": s for k, s in enumerate(over_time_specs(REPORT.over_time))},
    "theme": theme_spec(REPORT.themes),
    "theme_lost": theme_lost_spec(REPORT.themes),
    "reliability, no claims": reliability_spec(EMPTY.reliability),
    "brier over time, no claims": over_time_specs(EMPTY.over_time)[0],
}


def draw_both(spec, arrow):  # run as a script of its own: no annotations, its own import
    import streamlit as st

    st.vega_lite_chart(spec, width="stretch")
    st.vega_lite_chart(arrow, width="stretch")


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_spec_with_arrow_datasets_is_sent_as_the_spec_with_rows(name: str) -> None:
    spec = SPECS[name]
    at = AppTest.from_function(draw_both, args=(spec, with_arrow_datasets(spec)))
    at.run()
    assert not at.exception
    rows, arrow = (chart.proto for chart in at.get("vega_lite_chart"))
    assert arrow.spec == rows.spec
    assert [(d.name, d.data.data) for d in arrow.datasets] == \
        [(d.name, d.data.data) for d in rows.datasets]
    assert len(rows.datasets) == len(spec["datasets"])


def test_making_datasets_arrow_leaves_the_spec_as_it_was() -> None:
    spec = SPECS["reliability"]
    rows = {name: list(values) for name, values in spec["datasets"].items()}
    arrow = with_arrow_datasets(spec)
    assert spec["datasets"] == rows
    assert all(isinstance(data, bytes) for data in arrow["datasets"].values())
    assert {k: v for k, v in arrow.items() if k != "datasets"} == \
        {k: v for k, v in spec.items() if k != "datasets"}
