"""The Calibration page's charts are drawn from unvalidated specs (validation was half the
page's CPU per run), so every chart's spec is validated here against Vega-Lite's schema.

The page's specs are not Altair's own either: each is a template Altair made once, filled
with a learner's rows and values (`calibration_charts.Template`). So each spec the page draws
is also checked against the one Altair makes from the same tables, for learners from one
answer without a claim to enough answers for the over-time charts to be thinned: the quick
path cannot drift from the charts' definitions."""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable
from typing import Any

import altair as alt
import numpy as np
import pandas as pd
import pytest
from altair.utils.data import to_values
from altair.vegalite.v6.schema.core import Root

from tests.helpers import sample_answers
from trainer.quiz import scoring
from trainer.views.calibration_charts import (
    MAX_POINTS,
    Template,
    over_time_charts,
    over_time_specs,
    records,
    reliability_chart,
    reliability_spec,
    slot,
    spec,
    theme_chart,
    theme_lost_chart,
    theme_lost_spec,
    theme_spec,
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


def without_claims(answers: list) -> list:
    return [a.model_copy(update={"stated": None, "bluff": None, "bot": None}) for a in answers]


# Learners of every size the page meets: one answer and no claim (every calibration table
# empty), a few answers (bins with few answers greyed), a usual history, and more answers
# than the over-time charts draw (their dots thinned).
LEARNERS = {
    "one answer, no claim": without_claims(sample_answers("one", 1, seed=1)),
    "five answers": sample_answers("five", 5, seed=2),
    "two hundred answers": sample_answers("usual", 200, seed=3),
    "thinned": sample_answers("many", MAX_POINTS + 213, seed=4),
}
REPORTS = {name: scoring.report(answers) for name, answers in LEARNERS.items()}

# Per chart of the page: (the spec the page draws, Altair's own chart) from a learner's tables.
PAGE: dict[str, tuple[Callable[[scoring.Report], list[dict[str, Any]]],
                      Callable[[scoring.Report], list[alt.TopLevelMixin]]]] = {
    "reliability": (lambda r: [reliability_spec(r.reliability)],
                    lambda r: [reliability_chart(r.reliability)]),
    "reliability, the class": (lambda r: [reliability_spec(r.reliability, you="the class")],
                               lambda r: [reliability_chart(r.reliability, you="the class")]),
    "over time": (lambda r: over_time_specs(r.over_time),
                  lambda r: list(over_time_charts(r.over_time))),
    "theme": (lambda r: [theme_spec(r.themes)], lambda r: [theme_chart(r.themes)]),
    "theme lost": (lambda r: [theme_lost_spec(r.themes)], lambda r: [theme_lost_chart(r.themes)]),
}
CASES = [(learner, chart) for learner in LEARNERS for chart in PAGE]


def drawn(chart_spec: dict[str, Any]) -> Any:
    """A spec as Vega-Lite reads it, whatever its datasets and views are named: each named
    dataset in place of its name, and the views (Altair names them by a hash of the data's
    name) numbered in order, as Streamlit renames them before drawing."""
    parsed = json.loads(json.dumps(chart_spec))
    datasets = parsed.pop("datasets", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if set(node) == {"name"} and node["name"] in datasets:
                return {"values": datasets[node["name"]]}
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    text = json.dumps(inline(parsed), sort_keys=True)
    views = dict.fromkeys(re.findall(r'"view_[0-9a-f]+(?:_[0-9]+)?"', text))
    for k, view in enumerate(views, start=1):
        text = text.replace(view, f'"view_{k}"')
    return json.loads(text)


@pytest.mark.parametrize(("learner", "chart"), CASES)
def test_the_spec_the_page_draws_is_the_one_altair_makes(learner: str, chart: str) -> None:
    page, altair = PAGE[chart]
    report = REPORTS[learner]
    assert [drawn(s) for s in page(report)] == [drawn(spec(c)) for c in altair(report)]


@pytest.mark.parametrize(("learner", "chart"), CASES)
def test_the_spec_the_page_draws_is_valid_vega_lite(learner: str, chart: str) -> None:
    page, _ = PAGE[chart]
    for drawn_spec in page(REPORTS[learner]):
        Root.validate(drawn_spec)


def test_filling_a_template_leaves_it_and_earlier_specs_as_they_were() -> None:
    template = Template.of(alt.Chart(alt.NamedData(name="rows")).mark_point().encode(
        x=alt.X("a:Q", scale=alt.Scale(domain=slot("domain")))))
    kept = copy.deepcopy(template.spec)
    first = template.fill({"rows": [{"a": 1}]}, domain=[0, 1])
    kept_first = copy.deepcopy(first)
    template.fill({"rows": [{"a": 5}]}, domain=[0, 5])
    assert template.spec == kept
    assert first == kept_first
    assert first["encoding"]["x"]["scale"]["domain"] == [0, 1]
    assert first["datasets"] == {"rows": [{"a": 1}]}


def test_a_template_refuses_values_it_has_no_slot_for() -> None:
    template = Template.of(alt.Chart(alt.NamedData(name="rows")).mark_point().encode(
        x=alt.X("a:Q", scale=alt.Scale(domain=slot("domain")))))
    with pytest.raises(ValueError, match="domain"):
        template.fill({"rows": []}, ticks=[0, 1])


def test_rows_are_written_as_altair_writes_them() -> None:
    columns = {
        "count": np.array([1, 2, 3], dtype=np.int64),
        "share": np.array([0.25, np.nan, np.inf]),
        "flag": np.array([True, False, True]),
        "name": ["a", "b", "c"],
        "note": np.array(["x", "y", "z"]),
        "maybe": ["p", None, math.nan],
    }
    written = records(columns)
    assert written == to_values(pd.DataFrame(columns))["values"]
    assert written[1] == {"count": 2, "share": None, "flag": False, "name": "b", "note": "y",
                          "maybe": None}
    assert [type(v) for v in written[0].values()] == [int, float, bool, str, str, str]


def test_rows_of_another_kind_are_left_to_altair() -> None:
    columns = {"at": pd.to_datetime(["2025-01-01T10:00:00Z"]).to_numpy(), "n": np.array([1])}
    assert records(columns) == to_values(pd.DataFrame(columns))["values"]
