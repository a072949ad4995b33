"""The review's win-% graph: your chance of winning at each of your decisions, with the key
moments marked.

Why two lines: the upper one is what the position was worth with the best move, the lower one
what your move kept. Where they part, a decision cost you; where the line drops between two
decisions, the bots' moves and the cards did, which the graph marks apart as "the cards".
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from trainer.play.review import Review
from trainer.views.room_charts import GRADE_COLOURS

BEST, YOURS = "with the best move", "with your move"


def review_frame(rev: Review) -> pd.DataFrame:
    """One row per graded or valued decision: its number, turn, both win chances and grade."""
    rows = []
    for s in rev.steps:
        rows.append({"decision": s.number, "turn": s.turn, "move": s.chosen,
                     "best_move": s.valued.best, "best": round(100 * s.win_before, 1),
                     "yours": round(100 * s.win_after, 1), "lost": s.lost_pp,
                     "grade": s.grade or "not graded", "key": s.key,
                     "swing": s.number in rev.swings})
    return pd.DataFrame(rows, columns=["decision", "turn", "move", "best_move", "best", "yours",
                                       "lost", "grade", "key", "swing"])


def win_chart(rev: Review) -> alt.LayerChart:
    """Your chance of winning over the game, key moments marked."""
    data = review_frame(rev)
    long = data.melt(id_vars=["decision", "turn", "move", "best_move", "grade"],
                     value_vars=["best", "yours"], var_name="line", value_name="win")
    long["line"] = long["line"].map({"best": BEST, "yours": YOURS})
    x = alt.X("decision:Q", title="your decisions, in order",
              axis=alt.Axis(tickMinStep=1, format="d"))
    tips = [alt.Tooltip("decision:Q", title="decision"), alt.Tooltip("turn:Q"),
            alt.Tooltip("move:N", title="your move"),
            alt.Tooltip("best_move:N", title="best move"),
            alt.Tooltip("win:Q", title="chance you win, %"), alt.Tooltip("grade:N")]
    lines = alt.Chart(long).mark_line(point=True).encode(
        x=x, y=alt.Y("win:Q", title="chance you win, %", scale=alt.Scale(domain=[0, 100])),
        color=alt.Color("line:N", title=None, scale=alt.Scale(
            domain=[BEST, YOURS], range=["#9e9e9e", "#d9a84e"]),
            legend=alt.Legend(orient="bottom")),
        strokeDash=alt.StrokeDash("line:N", legend=None, scale=alt.Scale(
            domain=[BEST, YOURS], range=[[4, 3], [1, 0]])),
        tooltip=tips)
    keys = data[data["key"]]
    marks = alt.Chart(keys).mark_point(size=220, filled=True, opacity=0.9).encode(
        x=x, y=alt.Y("yours:Q"),
        color=alt.Color("grade:N", legend=None, scale=alt.Scale(
            domain=list(GRADE_COLOURS), range=list(GRADE_COLOURS.values()))),
        tooltip=[alt.Tooltip("decision:Q"), alt.Tooltip("move:N", title="your move"),
                 alt.Tooltip("best_move:N", title="best move"),
                 alt.Tooltip("lost:Q", title="points lost"), alt.Tooltip("grade:N")])
    # Between two decisions: the bots' moves and the cards moved the chance this much.
    swings = data[data["swing"]].assign(between=lambda d: d["decision"] + 0.5)
    cards = alt.Chart(swings).mark_rule(strokeDash=[2, 2], color="#6b7280").encode(
        x=alt.X("between:Q"), tooltip=[alt.Tooltip("decision:Q", title="the cards, after "
                                                                         "decision")])
    chart: alt.LayerChart = alt.layer(lines, cards, marks).resolve_scale(
        color="independent", strokeDash="independent").properties(
        height=260, title=alt.Title("Your chance of winning, decision by decision",
                                    anchor="start", offset=12))
    return chart
