"""Altair charts of the tables in `trainer.quiz.scoring`, with no Streamlit in sight.

Why apart from the page: the charts are specs that tests can inspect (`.to_dict()`) and the
docs can render to PNG, and keeping them free of Streamlit keeps them cheap to build on every
rerun. Each function takes a scoring table and passes on only the columns it draws: the page
sends the spec on every rerun, and a spec carrying 5,000 answers' timestamps and themes would
cost more to serialise than to draw.

Probabilities are always P(the claim is a bluff) on a one-sided 0–1 scale, and every axis says
so, because a learner reading "0.7" must not wonder whether it means honest or bluff.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import numpy as np
import pandas as pd

# What Altair's layering returns: a layer, or a facet of layers.
Drawn = alt.LayerChart | alt.FacetChart

P_TITLE = "chance of a bluff that was given"
OBSERVED_TITLE = "how often it was a bluff"
UNCLEAR_NOTE = "fewer than 3 bluffs or 3 honest claims"
FEW_NOTE = "few answers"
DIAGONAL_NOTE = "perfectly calibrated"

# Colours: you and the bot in the default Tableau pair; bins with few answers in greyed
# versions of the same two, so whose point it is still shows (by shape too) while the grey
# says "do not read much into this one".
YOU, BOT, GREY, LIGHT = "#4c78a8", "#f58518", "#9e9e9e", "#c7c7c7"
YOU_FEW, BOT_FEW = "#aab3bf", "#c2b5a9"

# The reliability chart's series: who drew the point, and whether its bin had few answers.
# Colour and shape both encode this one field, so Vega-Lite draws a single legend whose
# symbols are the marks themselves: a blue circle for you, an orange square for the bot.
SERIES = {
    ("you", False): ("you", YOU, "circle"),
    ("bot", False): ("the bot", BOT, "square"),
    ("you", True): (f"you, {FEW_NOTE}", YOU_FEW, "circle"),
    ("bot", True): (f"bot, {FEW_NOTE}", BOT_FEW, "square"),
}

PERCENT_TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1]

# Per metric, above this many answers the faded per-answer points are thinned evenly: at
# ~600 px wide more points only overplot, and the spec stays under Altair's 5,000-row limit.
MAX_POINTS = 500

PANELS = {
    "Brier (you)": "Brier, 0–1 (lower is better)",
    "Brier (bot)": "Brier, 0–1 (lower is better)",
    "log score": "Log score (higher is better)",
    "win-% lost": "Win-% lost (lower is better)",
}


SUBTITLES = {
    PANELS["Brier (you)"]: "blue: you · orange: the bot, same claims",
}


def spec(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """The chart as the Vega-Lite spec a page draws, not validated against Vega-Lite's schema.

    Why: the validation is most of the CPU of turning a chart into its spec, and a page would
    pay it on every run; these charts' specs are validated once, in the tests
    (`tests/test_calibration_charts.py`), and drawn unvalidated."""
    drawn: dict[str, Any] = chart.to_dict(validate=False)
    return drawn


def integer_ticks(top: float, most: int = 5, cover: bool = True) -> list[int]:
    """Whole-number ticks from 0 on a 1-2-5 step, at most `most` + 1 of them: up to the first
    tick at or past `top` (`cover`, for an axis that must hold every value), else up to the
    last tick at or below it (for an axis that ends at `top`).

    Given explicitly because Vega's own ticks put 0.5 between 0 and 1 on a short axis ("half
    an answer"), and its tickMinStep is not honoured by every Vega-Lite version.
    """
    top = max(float(top), 1.0)
    magnitude = 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if np.ceil(top / step) <= most:
                last = int(np.ceil(top / step) if cover else np.floor(top / step)) * step
                return list(range(0, last + 1, step))
        magnitude *= 10


def _series_scale(present: list[tuple[str, bool]]) -> tuple[list[str], list[str], list[str]]:
    """(labels, colours, shapes) of the series present, in the fixed order of SERIES."""
    rows = [SERIES[key] for key in SERIES if key in present]
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def _renamed(label: str, you: str) -> str:
    return you + label[3:] if label.startswith("you") else label


def reliability_chart(table: pd.DataFrame, you: str = "you") -> Drawn:
    """The reliability diagram: the chance of a bluff given, against how often it was one.

    Points on the dashed diagonal, labelled "perfectly calibrated", are calibrated. Point
    size is the number of answers, the bar through each point ±1 standard error, so a stray
    point from four answers reads as noise; bins with few answers are also greyed and faded,
    and named so in the legend. Axes are whole percentages.

    `you` names the learner's series ("the class" on a room's screen).

    A point selection named "bin" over (who, bin) lets a page call
    `st.altair_chart(chart, on_select="rerun")` and list the answers of the clicked bin.
    """
    cols = ["who", "bin", "label", "n", "forecast", "observed", "se", "lower", "upper", "small"]
    data = table[cols].copy() if not table.empty else pd.DataFrame(columns=cols)
    data["small"] = data["small"].astype(bool)
    keys = list(zip(data["who"].astype(str), data["small"], strict=True))
    data["series"] = [_renamed(SERIES.get(k, (str(k[0]),))[0], you) for k in keys]
    for c in ("forecast", "observed", "se", "lower", "upper"):
        data[c] = data[c].astype(float).round(4)

    labels, colours, shapes = _series_scale(keys) if keys else _series_scale(
        [("you", False), ("bot", False)])
    labels = [_renamed(label, you) for label in labels]
    legend = alt.Legend(orient="bottom", columns=2, labelLimit=160, symbolSize=90)
    colour = alt.Color("series:N", title=None, legend=legend,
                       scale=alt.Scale(domain=labels, range=colours))
    shape = alt.Shape("series:N", title=None, legend=legend,
                      scale=alt.Scale(domain=labels, range=shapes))
    opacity = alt.Opacity("small:N", legend=None,
                          scale=alt.Scale(domain=[False, True], range=[0.95, 0.7]))
    axis = alt.Axis(format=".0%", values=PERCENT_TICKS)
    x = alt.X("forecast:Q", title=P_TITLE, scale=alt.Scale(domain=[0, 1]), axis=axis)
    y = alt.Y("observed:Q", title=OBSERVED_TITLE, scale=alt.Scale(domain=[0, 1]), axis=axis)
    tooltip = [
        alt.Tooltip("series:N", title="who"),
        alt.Tooltip("label:N", title="chances given"),
        alt.Tooltip("n:Q", title="answers"),
        alt.Tooltip("forecast:Q", title="average chance of a bluff given", format=".0%"),
        alt.Tooltip("observed:Q", title="how often it was a bluff", format=".0%"),
        alt.Tooltip("se:Q", title="± standard error", format=".0%"),
    ]
    pick = alt.selection_point(name="bin", fields=["who", "bin"])

    line = pd.DataFrame({"forecast": [0.0, 1.0], "observed": [0.0, 1.0]})
    diagonal = alt.Chart(line).mark_line(
        color=GREY, strokeDash=[4, 4], strokeWidth=1).encode(x=x, y=y)
    # The label follows the line's slope whatever width the page gives the chart.
    note = alt.Chart(pd.DataFrame({"forecast": [0.1], "observed": [0.1],
                                   "text": [DIAGONAL_NOTE]})).mark_text(
        color=GREY, fontSize=11, dy=-7, align="left", angle=alt.ExprRef(
            "(360 - atan2(height, width) * 180 / PI) % 360")).encode(
        x=x, y=y, text="text:N")
    base = alt.Chart(data).encode(x=x, color=colour, opacity=opacity)
    bars = base.mark_rule(strokeWidth=1.5).encode(
        y=alt.Y("lower:Q", title=OBSERVED_TITLE, scale=alt.Scale(domain=[0, 1]), axis=axis),
        y2=alt.Y2("upper:Q"), tooltip=tooltip)
    points = base.mark_point(filled=True).encode(
        y=y, shape=shape, tooltip=tooltip,
        size=alt.Size("n:Q", legend=None, scale=alt.Scale(range=[40, 400])),
        stroke=alt.StrokeValue(None, condition={"param": pick.name, "empty": False,
                                                "value": "white"}),
        strokeWidth=alt.StrokeWidthValue(0, condition={"param": pick.name, "empty": False,
                                                       "value": 2}),
    ).add_params(pick)
    return alt.layer(diagonal, note, bars, points, width=420, height=340,
                     title=alt.TitleParams("How often was it a bluff?", fontSize=14,
                                           subtitle=[f"circle: {you} · square: the bot",
                                                     "dashed line: perfectly calibrated"],
                                           subtitleColor=GREY))


def _thin(long_df: pd.DataFrame, max_points: int) -> pd.DataFrame:
    """Every k-th answer per metric (and always the latest): at most max_points + 1 a metric.

    The moving average was computed on every answer before thinning, so the kept points of
    the bold line are exact; only the faded per-answer dots are sampled.
    """
    parts = []
    for _, part in long_df.groupby("metric", sort=False):
        if len(part) > max_points:
            step = int(np.ceil(len(part) / max_points))
            keep = np.zeros(len(part), dtype=bool)
            keep[::step] = True
            keep[-1] = True
            part = part[keep]
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else long_df


def over_time_charts(long_df: pd.DataFrame, max_points: int = MAX_POINTS
                     ) -> list[Drawn]:
    """Each score per answer (faded) and its moving average (bold): one chart per scale.

    Brier (0–1), log score (about −560 to 100) and win-% lost (0–100) cannot share an axis, so
    each gets its own chart; the learner's and the bot's Brier share one because comparing
    them is the point. Separate charts (not a facet) so each can stretch to the page's width,
    a phone's included. X is the answer number, not the date: practice happens in bursts,
    and a date axis would squeeze a 200-answer evening into a sliver.
    """
    data = long_df[["n", "metric", "value", "moving"]]
    if not data.empty:
        data = _thin(data, max_points)
    data = data.assign(
        panel=data["metric"].map(PANELS).fillna(data["metric"]),
        value=data["value"].astype(float).round(4),
        moving=data["moving"].astype(float).round(4),
    )
    colours = dict(zip(PANELS, [YOU, BOT, "#54a24b", "#e45756"], strict=True))
    last = int(data["n"].max()) if not data.empty else 1
    x = alt.X("n:Q", title="answer number", scale=alt.Scale(domain=[0, last], nice=False),
              axis=alt.Axis(values=integer_ticks(last, cover=False), format="d"))
    charts = []
    for panel in dict.fromkeys(PANELS.values()):
        metrics = [m for m, p in PANELS.items() if p == panel]
        part = data[data["panel"] == panel]
        # Who is who in a subtitle rather than a legend: a legend below would take its
        # height from the chart's fixed height and squash the lines on a phone.
        colour = alt.Color("metric:N", title=None, legend=None,
                           scale=alt.Scale(domain=metrics, range=[colours[m] for m in metrics]))
        base = alt.Chart(part).encode(x=x, color=colour)
        # Win-% lost is in whole points, on a scale from 0 to its last tick (so that a run
        # of answers that lost nothing still draws 0 and 1 apart); the Brier and log score
        # scales are not counts.
        y_axis, y_scale = alt.Axis(), alt.Scale()
        if panel == PANELS["win-% lost"]:
            ticks = integer_ticks(part["value"].max() if not part.empty else 1)
            y_axis = alt.Axis(values=ticks, format="d")
            y_scale = alt.Scale(domain=[0, ticks[-1]], nice=False)
        dots = base.mark_circle(size=8, opacity=0.25).encode(
            y=alt.Y("value:Q", title=None, axis=y_axis, scale=y_scale),
            tooltip=[alt.Tooltip("n:Q", title="answer"), alt.Tooltip("metric:N"),
                     alt.Tooltip("value:Q", format=".3f")])
        line = base.mark_line(strokeWidth=2.5).encode(
            y=alt.Y("moving:Q", title=None, axis=y_axis, scale=y_scale),
            tooltip=[alt.Tooltip("n:Q", title="answer"), alt.Tooltip("metric:N"),
                     alt.Tooltip("moving:Q", title="moving average", format=".3f")])
        charts.append(alt.layer(dots, line).properties(
            width=560, height=140, title=alt.TitleParams(
                panel, fontSize=13, subtitleColor=GREY,
                subtitle=SUBTITLES.get(panel, alt.Undefined))))
    return charts


def theme_chart(theme_df: pd.DataFrame) -> Drawn:
    """Your Brier per theme as a bar, the bot's on the same items as a tick.

    Themes with too few bluffs or honest claims are greyed, faded and outlined dashed (Vega-Lite
    has no hatching), and their tooltip says why: a low Brier over two bluffs is luck, not
    skill. The dotted rule at 0.25 is what always answering 50% would score. Rows are a fixed
    step high, so every theme keeps its label however many there are.
    """
    data, y, tooltip = _theme_data(theme_df)
    base = alt.Chart(data).encode(y=y, tooltip=tooltip)
    x_title = "Brier, 0–1 (lower is better)"
    bars = base.mark_bar(strokeWidth=1.5).encode(
        x=alt.X("brier:Q", title=x_title, scale=alt.Scale(domain=[0, 0.5], clamp=True),
                axis=alt.Axis(format=".1f", tickCount=5)),
        color=alt.Color("status:N", title=None,
                        legend=alt.Legend(orient="bottom", columns=1, labelLimit=320),
                        scale=alt.Scale(domain=["enough answers", UNCLEAR_NOTE],
                                        range=[YOU, LIGHT])),
        opacity=alt.OpacityValue(0.9, condition={"test": "datum.unclear", "value": 0.55}),
        stroke=alt.StrokeValue(None, condition={"test": "datum.unclear", "value": GREY}),
        strokeDash=alt.StrokeDashValue([1, 0], condition={"test": "datum.unclear",
                                                          "value": [4, 3]}),
    )
    ticks = base.mark_tick(color=BOT, thickness=3).encode(x=alt.X("bot_brier:Q", title=x_title))
    always_half = alt.Chart(pd.DataFrame({"x": [0.25]})).mark_rule(
        color="grey", strokeDash=[2, 2]).encode(x=alt.X("x:Q"))
    # Short lines: the title and each subtitle line must fit a 390 px phone.
    return alt.layer(bars, ticks, always_half).properties(
        width=420, height=alt.Step(24),
        title=alt.TitleParams("Your Brier score by theme", fontSize=13, subtitleColor=GREY,
                              subtitle=["lower is better; orange tick: the bot",
                                        "dotted line: always saying 50%"]))


def theme_lost_chart(theme_df: pd.DataFrame) -> alt.Chart:
    """The mean win-% your moves lost, per theme (trivial decisions left out)."""
    data, y, tooltip = _theme_data(theme_df)
    top = data["mean_lost"].max() if data["mean_lost"].notna().any() else 1
    ticks = integer_ticks(top)
    chart: alt.Chart = alt.Chart(data).mark_bar(color="#e45756", opacity=0.85).encode(
        y=y, tooltip=tooltip,
        x=alt.X("mean_lost:Q", title="mean win-% lost per move",
                scale=alt.Scale(domain=[0, ticks[-1]], nice=False),
                axis=alt.Axis(values=ticks, format="d")),
    ).properties(width=420, height=alt.Step(24),
                 title=alt.TitleParams("Your moves by theme", fontSize=13, subtitleColor=GREY,
                                       subtitle="win chance lost; lower is better"))
    return chart


def _theme_data(theme_df: pd.DataFrame) -> tuple[pd.DataFrame, alt.Y, list[alt.Tooltip]]:
    cols = ["theme", "n", "scored", "bluffs", "honest", "brier", "bot_brier", "mean_lost",
            "unclear"]
    data = theme_df[cols].copy()
    data["unclear"] = data["unclear"].astype(bool)
    data["status"] = np.where(data["unclear"], UNCLEAR_NOTE, "enough answers")
    for c in ("brier", "bot_brier", "mean_lost"):
        data[c] = data[c].astype(float).round(4)
    order = data["theme"].tolist()  # scoring.per_theme sorts by answers, most first
    # Labels cut at 130 px leave a phone's bars room; the tooltip has the full name.
    y = alt.Y("theme:N", title=None, sort=order, axis=alt.Axis(labelLimit=130))
    tooltip = [
        alt.Tooltip("theme:N"), alt.Tooltip("n:Q", title="answers"),
        alt.Tooltip("bluffs:Q"), alt.Tooltip("honest:Q", title="honest claims"),
        alt.Tooltip("brier:Q", title="your Brier", format=".3f"),
        alt.Tooltip("bot_brier:Q", title="bot's Brier", format=".3f"),
        alt.Tooltip("mean_lost:Q", title="mean win-% lost", format=".1f"),
        alt.Tooltip("status:N", title="note"),
    ]
    return data, y, tooltip


def estimates_chart(table: pd.DataFrame) -> Drawn:
    """The reliability of the claim estimates (`trainer.estimates.calibration.reliability`):
    one line per estimator against the diagonal, as in the README."""
    diagonal = alt.Chart(pd.DataFrame({"x": [0, 1], "y": [0, 1]})).mark_line(
        color="#888", strokeDash=[4, 4]).encode(x="x", y="y")
    base = alt.Chart(table).encode(
        x=alt.X("predicted", title="predicted P(claim is honest)",
                scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("observed", title="observed honest rate", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("estimator", title=None))
    lines = base.mark_line(strokeWidth=2)
    points = base.mark_circle(opacity=0.85).encode(
        size=alt.Size("count", title="claims", scale=alt.Scale(range=[30, 500])),
        tooltip=["estimator", "predicted", "observed", "count"])
    chart: Drawn = (diagonal + lines + points).properties(
        width=420, height=360, title="Reliability of the claim estimates (persona games)")
    return chart
