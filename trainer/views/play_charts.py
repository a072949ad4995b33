"""The review's win-% graph: your chance of winning at each of your decisions, with the key
moments marked.

Why two lines: the upper one is what the position was worth with the best move, the lower one
what your move kept. Where they part, a decision cost you; where the line drops between two
decisions, the bots' moves and the cards did, which the graph marks apart as "the cards".
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from trainer.i18n import N_, tr
from trainer.play.review import Review
from trainer.verdicts.words import HEADLINES as GRADE_WORDS
from trainer.views.room_charts import GRADE_COLOURS

BEST, YOURS = N_("with the best move"), N_("with your move")


def review_frame(rev: Review) -> pd.DataFrame:
    """One row per graded or valued decision: its number, turn, both win chances and grade."""
    rows = []
    for s in rev.steps:
        rows.append({"decision": s.number, "turn": s.turn, "move": s.chosen,
                     "best_move": s.valued.best, "best": round(100 * s.win_before, 1),
                     "yours": round(100 * s.win_after, 1), "lost": s.lost_pp,
                     "grade": grade_word(s.grade), "key": s.key,
                     "swing": s.number in rev.swings})
    return pd.DataFrame(rows, columns=["decision", "turn", "move", "best_move", "best", "yours",
                                       "lost", "grade", "key", "swing"])


def grade_word(grade: str | None) -> str:
    """A grade as the chart's tooltip says it (the colour scale reads the `grade_key`)."""
    if grade is None:
        return tr("not graded")
    return tr(GRADE_WORDS[grade]) if grade in GRADE_WORDS else grade


def win_chart(rev: Review) -> alt.LayerChart:
    """Your chance of winning over the game, key moments marked."""
    data = review_frame(rev)
    data["grade_key"] = [s.grade or "not graded" for s in rev.steps]
    best, yours = tr(BEST), tr(YOURS)
    long = data.melt(id_vars=["decision", "turn", "move", "best_move", "grade"],
                     value_vars=["best", "yours"], var_name="line", value_name="win")
    long["line"] = long["line"].map({"best": best, "yours": yours})
    x = alt.X("decision:Q", title=tr("your decisions, in order"),
              axis=alt.Axis(tickMinStep=1, format="d"))
    tips = [alt.Tooltip("decision:Q", title=tr("decision")),
            alt.Tooltip("turn:Q", title=tr("turn")),
            alt.Tooltip("move:N", title=tr("your move")),
            alt.Tooltip("best_move:N", title=tr("best move")),
            alt.Tooltip("win:Q", title=tr("chance you win, %")),
            alt.Tooltip("grade:N", title=tr("grade"))]
    lines = alt.Chart(long).mark_line(point=True).encode(
        x=x, y=alt.Y("win:Q", title=tr("chance you win, %"), scale=alt.Scale(domain=[0, 100])),
        color=alt.Color("line:N", title=None, scale=alt.Scale(
            domain=[best, yours], range=["#9e9e9e", "#d9a84e"]),
            legend=alt.Legend(orient="bottom")),
        strokeDash=alt.StrokeDash("line:N", legend=None, scale=alt.Scale(
            domain=[best, yours], range=[[4, 3], [1, 0]])),
        tooltip=tips)
    keys = data[data["key"]]
    marks = alt.Chart(keys).mark_point(size=220, filled=True, opacity=0.9).encode(
        x=x, y=alt.Y("yours:Q"),
        color=alt.Color("grade_key:N", legend=None, scale=alt.Scale(
            domain=list(GRADE_COLOURS), range=list(GRADE_COLOURS.values()))),
        tooltip=[alt.Tooltip("decision:Q", title=tr("decision")),
                 alt.Tooltip("move:N", title=tr("your move")),
                 alt.Tooltip("best_move:N", title=tr("best move")),
                 alt.Tooltip("lost:Q", title=tr("points lost")),
                 alt.Tooltip("grade:N", title=tr("grade"))])
    # Between two decisions: the bots' moves and the cards moved the chance this much.
    swings = data[data["swing"]].assign(between=lambda d: d["decision"] + 0.5)
    cards = alt.Chart(swings).mark_rule(strokeDash=[2, 2], color="#6b7280").encode(
        x=alt.X("between:Q"), tooltip=[alt.Tooltip("decision:Q",
                                                   title=tr("the cards, after decision"))])
    chart: alt.LayerChart = alt.layer(lines, cards, marks).resolve_scale(
        color="independent", strokeDash="independent").properties(
        height=260, title=alt.Title(tr("Your chance of winning, decision by decision"),
                                    anchor="start", offset=12))
    return chart
