"""The presenter's charts of a room's answers: small specs, drawn only on the screen.

Why every bin and option always present: the chart is redrawn each second as answers come
in, and an axis that grows a new bar mid-question makes the room read the jump, not the
counts.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from trainer.i18n import tr
from trainer.verdicts.grades import parse_grade
from trainer.verdicts.words import HEADLINES, Labeller

GOLD, IVORY, RED, GREEN, GREY = "#d9a84e", "#f3ead8", "#e0606e", "#6fbf73", "#9e9e9e"
GRADE_COLOURS = {"best": GREEN, "good": "#a5d6a7", "inaccuracy": GOLD, "mistake": "#f09a5a",
                 "blunder": RED}


def stated_chart(hist: pd.DataFrame) -> alt.Chart:
    """How many gave each tenth of the chance of a bluff."""
    people = tr("people")
    chart: alt.Chart = alt.Chart(hist).mark_bar(color=GOLD).encode(
        x=alt.X("label:N", sort=list(hist["label"]), title=tr("chance of a bluff they gave, in %"),
                axis=alt.Axis(labelAngle=0, labelFontSize=12, titleFontSize=14,
                              labelOverlap=False)),
        y=alt.Y("count:Q", title=people, axis=alt.Axis(tickMinStep=1, format="d")),
        tooltip=[alt.Tooltip("label:N", title=tr("chance of a bluff")),
                 alt.Tooltip("count:Q", title=people)],
    ).properties(height=230, title=tr("Chance of a bluff, as the room says"))
    return chart


def action_chart(counts: pd.DataFrame, best: str | None = None,
                 say: Labeller | None = None) -> alt.Chart:
    """How many chose each move; after the reveal the best one is green. `say` words an
    option's stored label."""
    people = tr("people")
    colour: alt.Color | alt.ColorValue = alt.ColorValue(IVORY)
    if best is not None:
        colour = alt.Color("which:N", legend=None, scale=alt.Scale(
            domain=["best", "other"], range=[GREEN, GREY]))
    data = counts.assign(which=["best" if o == best else "other" for o in counts["option"]])
    if say is not None:
        data = data.assign(option=[say(o) for o in counts["option"]])
    chart: alt.Chart = alt.Chart(data).mark_bar().encode(
        y=alt.Y("option:N", sort=list(data["option"]), title=None,
                axis=alt.Axis(labelFontSize=14, labelLimit=320)),
        x=alt.X("count:Q", title=people, axis=alt.Axis(tickMinStep=1, format="d")),
        color=colour,
        tooltip=[alt.Tooltip("option:N", title=tr("move")),
                 alt.Tooltip("count:Q", title=people)],
    ).properties(height=alt.Step(44), title=tr("Moves chosen"))
    return chart


def grade_chart(grades: dict[str, int]) -> alt.Chart:
    people = tr("people")
    data = pd.DataFrame({"grade": [tr(HEADLINES[parse_grade(g)]) for g in grades],
                         "key": list(grades), "count": list(grades.values())})
    chart: alt.Chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("grade:N", sort=list(data["grade"]), title=None,
                axis=alt.Axis(labelAngle=0, labelFontSize=13)),
        y=alt.Y("count:Q", title=people, axis=alt.Axis(tickMinStep=1, format="d")),
        color=alt.Color("key:N", legend=None, scale=alt.Scale(
            domain=list(GRADE_COLOURS), range=list(GRADE_COLOURS.values()))),
        tooltip=[alt.Tooltip("grade:N", title=tr("grade")),
                 alt.Tooltip("count:Q", title=people)],
    ).properties(height=200, title=tr("Grades of the moves"))
    return chart
