"""Altair charts of the tables in `trainer.quiz.scoring`, with no Streamlit in sight.

Why apart from the page: the charts are specs that tests can inspect (`.to_dict()`) and the
docs can render to PNG, and keeping them free of Streamlit keeps them cheap to build on every
rerun. Each function takes a scoring table and passes on only the columns it draws: the page
sends the spec on every rerun, and a spec carrying 5,000 answers' timestamps and themes would
cost more to serialise than to draw.

Probabilities are always P(the claim is a bluff) on a one-sided 0–1 scale, and every axis says
so, because a learner reading "0.7" must not wonder whether it means honest or bluff.

Each chart exists twice over one definition: `reliability_chart` & co. return the Altair chart
(for the room screen, the docs and the tests), and `reliability_spec` & co. return the same
chart's Vega-Lite spec for the Calibration page, filled into a template (`Template`). Why the
second form: turning an Altair chart into its spec took about 140 ms per learner (half of the
page's first run; a class opening the page together queued on it), and none of that work
depends on the learner. The template is that spec made once, with the learner's rows left out
(named data) and their few values (a domain, tick values, a sort order) as slots; filling it
copies a few dicts and writes the rows, in well under a millisecond.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import numpy as np
import pandas as pd
from altair.utils.data import to_values

from trainer.i18n import N_, current_language, tr

# What Altair's layering returns: a layer, or a facet of layers.
Drawn = alt.LayerChart | alt.FacetChart

# Every word of a chart is English here, marked for the catalogue, and put into the chart
# through `tr` when it is drawn: each template is made once per language.
P_TITLE = N_("chance of a bluff that was given")
OBSERVED_TITLE = N_("how often it was a bluff")
UNCLEAR_NOTE = N_("fewer than 3 bluffs or 3 honest claims")
ENOUGH_NOTE = N_("enough answers")
FEW_NOTE = N_("few answers")
DIAGONAL_NOTE = N_("perfectly calibrated")

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
    ("you", True): ("you, few answers", YOU_FEW, "circle"),
    ("bot", True): ("bot, few answers", BOT_FEW, "square"),
}


def _series_label(key: tuple[str, bool], you: str) -> str:
    """A series' name in the legend, in the reader's language (`you`: the learner's series'
    name, "the class" on a room's screen)."""
    who, few = key
    if who == "you":
        return tr("{who}, few answers", who=you) if few else you
    if who == "bot":
        return tr("bot, few answers") if few else tr("the bot")
    return who

PERCENT_TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1]

# Per metric, above this many answers the faded per-answer points are thinned evenly: at
# ~600 px wide more points only overplot, and the spec stays under Altair's 5,000-row limit.
MAX_POINTS = 500

# The over-time charts by metric (the scores' identifiers, which the tooltips show through
# `tr`), each with its chart's title.
PANELS = {
    "Brier (you)": N_("Brier, 0–1 (lower is better)"),
    "Brier (bot)": N_("Brier, 0–1 (lower is better)"),
    "log score": N_("Log score (higher is better)"),
    "win-% lost": N_("Win-% lost (lower is better)"),
}
METRIC_WORDS = {"Brier (you)": N_("Brier (you)"), "Brier (bot)": N_("Brier (bot)"),
                "log score": N_("log score"), "win-% lost": N_("win-% lost")}


SUBTITLES = {
    PANELS["Brier (you)"]: N_("blue: you · orange: the bot, same claims"),
}


def _metric(name: str) -> str:
    return tr(METRIC_WORDS[name]) if name in METRIC_WORDS else name


def spec(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """The chart as the Vega-Lite spec a page draws, not validated against Vega-Lite's schema.

    Why: the validation is most of the CPU of turning a chart into its spec, and a page would
    pay it on every run; these charts' specs are validated once, in the tests
    (`tests/test_calibration_charts.py`), and drawn unvalidated."""
    drawn: dict[str, Any] = chart.to_dict(validate=False)
    return drawn


# A slot's marker: a string no chart draws (it starts with a NUL character).
_SLOT = "\x00slot:"

SpecPath = tuple[str | int, ...]  # keys and list positions from a spec's top to a value
Rows = list[dict[str, Any]]
# A table as its columns, in order: numpy arrays, or lists of strings.
Columns = Mapping[str, np.ndarray | list[Any]]


def slot(name: str) -> Any:
    """Where a template takes the learner's value `name`: a one-item list holding a marker.

    A list because every value filled in later is one (a scale's domain or range, an axis's
    tick values, a sort order) and Altair checks the type of what a chart is given; typed Any
    so a chart's definition can take it where it takes the value itself."""
    return [_SLOT + name]


def _slots(node: Any, path: SpecPath = ()) -> list[tuple[SpecPath, str]]:
    """(path, name) of every slot in a spec, in document order."""
    if isinstance(node, dict):
        return [found for key, value in node.items() for found in _slots(value, (*path, key))]
    if isinstance(node, list):
        if len(node) == 1 and isinstance(node[0], str) and node[0].startswith(_SLOT):
            return [(path, node[0][len(_SLOT):])]
        return [found for i, value in enumerate(node) for found in _slots(value, (*path, i))]
    return []


@dataclass(frozen=True)
class Template:
    """A chart's Vega-Lite spec made once by Altair, without the learner's rows or values.

    The rows are named data (`alt.NamedData`) that `fill` puts into the spec's `datasets`;
    the values go where the chart's definition was given a `slot`. `spec` is shared by every
    spec filled from it and must never be changed: `fill` copies only the dicts and lists on
    the way to a slot, and the top level with its `datasets`."""

    spec: dict[str, Any]
    slots: tuple[tuple[SpecPath, str], ...]

    @classmethod
    def of(cls, chart: alt.TopLevelMixin) -> Template:
        drawn = spec(chart)
        return cls(drawn, tuple(_slots(drawn)))

    def fill(self, rows: Mapping[str, Rows], **values: Sequence[Any]) -> dict[str, Any]:
        """The spec with these rows as its named datasets and these values in its slots."""
        wanted = {name for _, name in self.slots}
        if wanted != values.keys():
            raise ValueError(f"the template takes {sorted(wanted)}, not {sorted(values)}")
        filled = dict(self.spec)
        filled["datasets"] = {**self.spec.get("datasets", {}), **rows}
        copied: set[int] = set()
        for path, name in self.slots:
            node: Any = filled
            for key in path[:-1]:
                child = node[key]
                if id(child) not in copied:
                    child = dict(child) if isinstance(child, dict) else list(child)
                    copied.add(id(child))
                    node[key] = child
                node = child
            node[path[-1]] = list(values[name])
        return filled


def records(columns: Columns) -> Rows:
    """The rows of a table given by its columns, as Altair writes a data frame of them into a
    spec (`altair.utils.data.to_values`): NaN and infinities as None, numpy numbers and
    booleans as Python ones, strings as they are.

    Why not `to_values` itself: it copies and converts the frame with pandas, several
    milliseconds for an over-time chart's few hundred rows. A column of any other kind (dates,
    objects that are not strings) is left to `to_values`."""
    values = [_json_values(column) for column in columns.values()]
    if not values or any(v is None for v in values):
        return list(to_values(_frame(columns))["values"])
    names = list(columns)
    return [dict(zip(names, row, strict=True)) for row in zip(*values, strict=True)]


def _frame(columns: Columns) -> pd.DataFrame:
    """The columns as the data frame an Altair chart is given."""
    return pd.DataFrame(dict(columns))


def _json_values(column: np.ndarray | list[Any]) -> list[Any] | None:
    """A column's values as JSON-ready Python values, or None for a kind left to Altair."""
    if isinstance(column, np.ndarray) and column.dtype.kind in "iub":
        values: list[Any] = column.tolist()
        return values
    if isinstance(column, np.ndarray) and column.dtype.kind == "f":
        values = column.tolist()
        bad = ~np.isfinite(column)
        if bad.any():
            values = [None if b else v for v, b in zip(values, bad.tolist(), strict=True)]
        return values
    values = column.tolist() if isinstance(column, np.ndarray) else list(column)
    missing = [v is None or (isinstance(v, float) and v != v) for v in values]
    if not all(m or isinstance(v, str) for v, m in zip(values, missing, strict=True)):
        return None
    return [None if m else v for v, m in zip(values, missing, strict=True)] if any(missing) \
        else values


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


def _series_scale(present: list[tuple[str, bool]], you: str
                  ) -> tuple[list[str], list[str], list[str]]:
    """(labels, colours, shapes) of the series present, in the fixed order of SERIES."""
    keys = [key for key in SERIES if key in present]
    return ([_series_label(key, you) for key in keys], [SERIES[key][1] for key in keys],
            [SERIES[key][2] for key in keys])


def reliability_chart(table: pd.DataFrame, you: str | None = None) -> Drawn:
    """The reliability diagram: the chance of a bluff given, against how often it was one.

    Points on the dashed diagonal, labelled "perfectly calibrated", are calibrated. Point
    size is the number of answers, the bar through each point ±1 standard error, so a stray
    point from four answers reads as noise; bins with few answers are also greyed and faded,
    and named so in the legend. Axes are whole percentages.

    `you` names the learner's series ("the class" on a room's screen; "you" by default, in
    the reader's language).

    A point selection named "bin" over (who, bin) lets a page call
    `st.altair_chart(chart, on_select="rerun")` and list the answers of the clicked bin.
    """
    you = you or tr("you")
    data, values = _reliability_data(table, you)
    return _reliability(_frame(data), you, **values)


def reliability_spec(table: pd.DataFrame, you: str | None = None) -> dict[str, Any]:
    """`reliability_chart`'s spec, filled into its template (see `Template`)."""
    you = you or tr("you")
    data, values = _reliability_data(table, you)
    return _reliability_template(you, current_language()).fill(
        {RELIABILITY_DATA: records(data)}, **values)


RELIABILITY_DATA = "reliability"


@functools.lru_cache(maxsize=8)
def _reliability_template(you: str, language: str) -> Template:
    """The template in `language` (the key: its words are the reader's)."""
    return Template.of(_reliability(alt.NamedData(name=RELIABILITY_DATA), you,
                                    labels=slot("labels"), colours=slot("colours"),
                                    shapes=slot("shapes")))


def _reliability_data(table: pd.DataFrame, you: str) -> tuple[Columns, dict[str, list[str]]]:
    """The columns the chart draws, and its series' labels, colours and shapes (those
    present)."""
    cols = ["who", "bin", "label", "n", "forecast", "observed", "se", "lower", "upper", "small"]
    data: dict[str, np.ndarray | list[Any]]
    if table.empty:
        data = {c: [] for c in cols}
        data |= {"small": np.zeros(0, dtype=bool), "series": []}
        present = [("you", False), ("bot", False)]  # the legend of an empty chart
    else:
        who = table["who"].tolist()
        small = table["small"].to_numpy(dtype=bool)
        present = list(zip([str(w) for w in who], small.tolist(), strict=True))
        data = {"who": who, "bin": table["bin"].to_numpy(), "label": table["label"].tolist(),
                "n": table["n"].to_numpy(),
                **{c: table[c].to_numpy(dtype=float).round(4)
                   for c in ("forecast", "observed", "se", "lower", "upper")},
                "small": small,
                "series": [_series_label(k, you) for k in present]}
    labels, colours, shapes = _series_scale(present, you)
    return data, {"labels": labels, "colours": colours, "shapes": shapes}


def _reliability(data: pd.DataFrame | alt.NamedData, you: str, labels: list[str],
                 colours: list[str], shapes: list[str]) -> Drawn:
    """The reliability diagram's definition, for its rows or a template's named data."""
    legend = alt.Legend(orient="bottom", columns=2, labelLimit=160, symbolSize=90)
    colour = alt.Color("series:N", title=None, legend=legend,
                       scale=alt.Scale(domain=labels, range=colours))
    shape = alt.Shape("series:N", title=None, legend=legend,
                      scale=alt.Scale(domain=labels, range=shapes))
    opacity = alt.Opacity("small:N", legend=None,
                          scale=alt.Scale(domain=[False, True], range=[0.95, 0.7]))
    axis = alt.Axis(format=".0%", values=PERCENT_TICKS)
    x = alt.X("forecast:Q", title=tr(P_TITLE), scale=alt.Scale(domain=[0, 1]), axis=axis)
    y = alt.Y("observed:Q", title=tr(OBSERVED_TITLE), scale=alt.Scale(domain=[0, 1]), axis=axis)
    tooltip = [
        alt.Tooltip("series:N", title=tr("who")),
        alt.Tooltip("label:N", title=tr("chances of a bluff given")),
        alt.Tooltip("n:Q", title=tr("answers")),
        alt.Tooltip("forecast:Q", title=tr("average chance of a bluff given"), format=".0%"),
        alt.Tooltip("observed:Q", title=tr("how often it was a bluff"), format=".0%"),
        alt.Tooltip("se:Q", title=tr("± standard error"), format=".0%"),
    ]
    pick = alt.selection_point(name="bin", fields=["who", "bin"])

    line = pd.DataFrame({"forecast": [0.0, 1.0], "observed": [0.0, 1.0]})
    diagonal = alt.Chart(line).mark_line(
        color=GREY, strokeDash=[4, 4], strokeWidth=1).encode(x=x, y=y)
    # The label follows the line's slope whatever width the page gives the chart.
    note = alt.Chart(pd.DataFrame({"forecast": [0.1], "observed": [0.1],
                                   "text": [tr(DIAGONAL_NOTE)]})).mark_text(
        color=GREY, fontSize=11, dy=-7, align="left", angle=alt.ExprRef(
            "(360 - atan2(height, width) * 180 / PI) % 360")).encode(
        x=x, y=y, text="text:N")
    base = alt.Chart(data).encode(x=x, color=colour, opacity=opacity)
    bars = base.mark_rule(strokeWidth=1.5).encode(
        y=alt.Y("lower:Q", title=tr(OBSERVED_TITLE), scale=alt.Scale(domain=[0, 1]),
                axis=axis),
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
                     title=alt.TitleParams(tr("How often was it a bluff?"), fontSize=14,
                                           subtitle=[tr("circle: {who} · square: the bot",
                                                        who=you),
                                                     tr("dashed line: perfectly calibrated")],
                                           subtitleColor=GREY))


def _thin(rows: np.ndarray, max_points: int) -> np.ndarray:
    """Every k-th of one metric's rows (and always the latest): at most max_points + 1.

    The moving average was computed on every answer before thinning, so the kept points of
    the bold line are exact; only the faded per-answer dots are sampled.
    """
    if len(rows) <= max_points:
        return rows
    step = int(np.ceil(len(rows) / max_points))
    keep = np.zeros(len(rows), dtype=bool)
    keep[::step] = True
    keep[-1] = True
    return rows[keep]


def over_time_charts(long_df: pd.DataFrame, max_points: int = MAX_POINTS
                     ) -> list[Drawn]:
    """Each score per answer (faded) and its moving average (bold): one chart per scale.

    Brier (0–1), log score (about −560 to 100) and win-% lost (0–100) cannot share an axis, so
    each gets its own chart; the learner's and the bot's Brier share one because comparing
    them is the point. Separate charts (not a facet) so each can stretch to the page's width,
    a phone's included. X is the answer number, not the date: practice happens in bursts,
    and a date axis would squeeze a 200-answer evening into a sliver.
    """
    return [_over_time(_frame(part), panel, **values)
            for panel, part, values in _over_time_data(long_df, max_points)]


def over_time_specs(long_df: pd.DataFrame, max_points: int = MAX_POINTS
                    ) -> list[dict[str, Any]]:
    """`over_time_charts`' specs, filled into their templates (see `Template`)."""
    language = current_language()
    return [_over_time_template(panel, language).fill({OVER_TIME_DATA: records(part)}, **values)
            for panel, part, values in _over_time_data(long_df, max_points)]


OVER_TIME_DATA = "over_time"
_LOST_PANEL = PANELS["win-% lost"]


@functools.lru_cache(maxsize=16)
def _over_time_template(panel: str, language: str) -> Template:
    """The template of one panel in `language` (the key: its words are the reader's)."""
    names = ["x_domain", "x_ticks", *(["y_domain", "y_ticks"] if panel == _LOST_PANEL else [])]
    return Template.of(_over_time(alt.NamedData(name=OVER_TIME_DATA), panel,
                                  **{name: slot(name) for name in names}))


def _over_time_data(long_df: pd.DataFrame, max_points: int
                    ) -> list[tuple[str, Columns, dict[str, list[int]]]]:
    """Per chart: its panel, the columns it draws and its axes' domains and ticks.

    A chart's rows are its metrics' (thinned), metric after metric in the order they first
    come in `long_df`. The x axis ends at the last answer in every chart, so the charts line
    up. Win-% lost is in whole points, on a scale from 0 to its last tick (so that a run of
    answers that lost nothing still draws 0 and 1 apart); the Brier and log score scales are
    not counts."""
    n = long_df["n"].to_numpy()
    metric = long_df["metric"].to_numpy(dtype=object)
    value = long_df["value"].to_numpy(dtype=float).round(4)
    moving = long_df["moving"].to_numpy(dtype=float).round(4)
    kept = {m: _thin(np.flatnonzero(metric == m), max_points)
            for m in dict.fromkeys(metric.tolist())}
    every = np.concatenate([np.zeros(0, dtype=int), *kept.values()])
    last = int(n[every].max()) if every.size else 1
    x = {"x_domain": [0, last], "x_ticks": integer_ticks(last, cover=False)}
    charts: list[tuple[str, Columns, dict[str, list[int]]]] = []
    for panel in dict.fromkeys(PANELS.values()):
        rows = np.concatenate([np.zeros(0, dtype=int),
                               *(r for m, r in kept.items() if PANELS.get(m, m) == panel)])
        values = dict(x)
        if panel == _LOST_PANEL:
            ticks = integer_ticks(value[rows].max() if rows.size else 1)
            values |= {"y_domain": [0, ticks[-1]], "y_ticks": ticks}
        part = {"n": n[rows], "metric": [_metric(m) for m in metric[rows].tolist()],
                "value": value[rows], "moving": moving[rows],
                "panel": [tr(panel)] * rows.size}
        charts.append((panel, part, values))
    return charts


def _over_time(data: pd.DataFrame | alt.NamedData, panel: str, x_domain: list[int],
               x_ticks: list[int], y_domain: list[int] | None = None,
               y_ticks: list[int] | None = None) -> Drawn:
    """One over-time chart's definition, for its rows or a template's named data; the y
    domain and ticks are given for win-% lost only."""
    colours = dict(zip(PANELS, [YOU, BOT, "#54a24b", "#e45756"], strict=True))
    metrics = [m for m, p in PANELS.items() if p == panel]
    x = alt.X("n:Q", title=tr("answer number"), scale=alt.Scale(domain=x_domain, nice=False),
              axis=alt.Axis(values=x_ticks, format="d"))
    # Who is who in a subtitle rather than a legend: a legend below would take its
    # height from the chart's fixed height and squash the lines on a phone.
    colour = alt.Color("metric:N", title=None, legend=None,
                       scale=alt.Scale(domain=[_metric(m) for m in metrics],
                                       range=[colours[m] for m in metrics]))
    base = alt.Chart(data).encode(x=x, color=colour)
    y_axis, y_scale = alt.Axis(), alt.Scale()
    if y_domain is not None and y_ticks is not None:
        y_axis = alt.Axis(values=y_ticks, format="d")
        y_scale = alt.Scale(domain=y_domain, nice=False)
    dots = base.mark_circle(size=8, opacity=0.25).encode(
        y=alt.Y("value:Q", title=None, axis=y_axis, scale=y_scale),
        tooltip=[alt.Tooltip("n:Q", title=tr("answer")), alt.Tooltip("metric:N",
                                                                      title=tr("measure")),
                 alt.Tooltip("value:Q", title=tr("value"), format=".3f")])
    line = base.mark_line(strokeWidth=2.5).encode(
        y=alt.Y("moving:Q", title=None, axis=y_axis, scale=y_scale),
        tooltip=[alt.Tooltip("n:Q", title=tr("answer")), alt.Tooltip("metric:N",
                                                                      title=tr("measure")),
                 alt.Tooltip("moving:Q", title=tr("moving average"), format=".3f")])
    chart: Drawn = alt.layer(dots, line).properties(
        width=560, height=140, title=alt.TitleParams(
            tr(panel), fontSize=13, subtitleColor=GREY,
            subtitle=tr(SUBTITLES[panel]) if panel in SUBTITLES else alt.Undefined))
    return chart


def theme_chart(theme_df: pd.DataFrame) -> Drawn:
    """Your Brier per theme as a bar, the bot's on the same items as a tick.

    Themes with too few bluffs or honest claims are greyed, faded and outlined dashed (Vega-Lite
    has no hatching), and their tooltip says why: a low Brier over two bluffs is luck, not
    skill. The dotted rule at 0.25 is what always answering 50% would score. Rows are a fixed
    step high, so every theme keeps its label however many there are.
    """
    data, order = _theme_data(theme_df)
    return _theme(_frame(data), order)


def theme_spec(theme_df: pd.DataFrame) -> dict[str, Any]:
    """`theme_chart`'s spec, filled into its template (see `Template`)."""
    data, order = _theme_data(theme_df)
    return _theme_template(current_language()).fill({THEME_DATA: records(data)}, order=order)


THEME_DATA = "themes"


@functools.cache
def _theme_template(language: str) -> Template:
    """The template in `language` (the key: its words are the reader's)."""
    return Template.of(_theme(alt.NamedData(name=THEME_DATA), order=slot("order")))


def _theme(data: pd.DataFrame | alt.NamedData, order: list[str]) -> Drawn:
    """The Brier-by-theme chart's definition, for its rows or a template's named data."""
    y, tooltip = _theme_axis(order), _theme_tooltip()
    base = alt.Chart(data).encode(y=y, tooltip=tooltip)
    x_title = tr("Brier, 0–1 (lower is better)")
    bars = base.mark_bar(strokeWidth=1.5).encode(
        x=alt.X("brier:Q", title=x_title, scale=alt.Scale(domain=[0, 0.5], clamp=True),
                axis=alt.Axis(format=".1f", tickCount=5)),
        color=alt.Color("status:N", title=None,
                        legend=alt.Legend(orient="bottom", columns=1, labelLimit=320),
                        scale=alt.Scale(domain=[tr(ENOUGH_NOTE), tr(UNCLEAR_NOTE)],
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
    chart: Drawn = alt.layer(bars, ticks, always_half).properties(
        width=420, height=alt.Step(24),
        title=alt.TitleParams(tr("Your Brier score by theme"), fontSize=13,
                              subtitleColor=GREY,
                              subtitle=[tr("lower is better; orange tick: the bot"),
                                        tr("dotted line: always saying 50%")]))
    return chart


def theme_lost_chart(theme_df: pd.DataFrame) -> alt.Chart:
    """The mean win-% your moves lost, per theme (trivial decisions left out)."""
    data, order = _theme_data(theme_df)
    return _theme_lost(_frame(data), order, **_theme_lost_axis(data))


def theme_lost_spec(theme_df: pd.DataFrame) -> dict[str, Any]:
    """`theme_lost_chart`'s spec, filled into its template (see `Template`)."""
    data, order = _theme_data(theme_df)
    return _theme_lost_template(current_language()).fill({THEME_DATA: records(data)},
                                                         order=order, **_theme_lost_axis(data))


@functools.cache
def _theme_lost_template(language: str) -> Template:
    """The template in `language` (the key: its words are the reader's)."""
    return Template.of(_theme_lost(alt.NamedData(name=THEME_DATA), order=slot("order"),
                                   domain=slot("domain"), ticks=slot("ticks")))


def _theme_lost_axis(data: Columns) -> dict[str, list[int]]:
    """The x axis's domain and whole-point ticks, from 0 past the largest mean."""
    mean_lost = np.asarray(data["mean_lost"], dtype=float)
    top = np.nanmax(mean_lost) if (~np.isnan(mean_lost)).any() else 1
    ticks = integer_ticks(top)
    return {"domain": [0, ticks[-1]], "ticks": ticks}


def _theme_lost(data: pd.DataFrame | alt.NamedData, order: list[str], domain: list[int],
                ticks: list[int]) -> alt.Chart:
    """The win-%-lost-by-theme chart's definition, for its rows or a template's named data."""
    chart: alt.Chart = alt.Chart(data).mark_bar(color="#e45756", opacity=0.85).encode(
        y=_theme_axis(order), tooltip=_theme_tooltip(),
        x=alt.X("mean_lost:Q", title=tr("mean win-% lost per move"),
                scale=alt.Scale(domain=domain, nice=False),
                axis=alt.Axis(values=ticks, format="d")),
    ).properties(width=420, height=alt.Step(24),
                 title=alt.TitleParams(tr("Your moves by theme"), fontSize=13,
                                       subtitleColor=GREY,
                                       subtitle=tr("win chance lost; lower is better")))
    return chart


def _theme_data(theme_df: pd.DataFrame) -> tuple[Columns, list[str]]:
    """The columns both theme charts draw, and their order (scoring.per_theme sorts by
    answers, most first)."""
    unclear = theme_df["unclear"].to_numpy(dtype=bool)
    order = theme_df["theme"].tolist()
    data: dict[str, np.ndarray | list[Any]] = {"theme": order,
            **{c: theme_df[c].to_numpy() for c in ("n", "scored", "bluffs", "honest")},
            **{c: theme_df[c].to_numpy(dtype=float).round(4)
               for c in ("brier", "bot_brier", "mean_lost")},
            "unclear": unclear,
            "status": [tr(UNCLEAR_NOTE) if u else tr(ENOUGH_NOTE) for u in unclear.tolist()]}
    return data, order


def _theme_axis(order: list[str]) -> alt.Y:
    # Labels cut at 130 px leave a phone's bars room; the tooltip has the full name.
    return alt.Y("theme:N", title=None, sort=order, axis=alt.Axis(labelLimit=130))


def _theme_tooltip() -> list[alt.Tooltip]:
    return [
        alt.Tooltip("theme:N", title=tr("theme")), alt.Tooltip("n:Q", title=tr("answers")),
        alt.Tooltip("bluffs:Q", title=tr("bluffs")),
        alt.Tooltip("honest:Q", title=tr("honest claims")),
        alt.Tooltip("brier:Q", title=tr("your Brier"), format=".3f"),
        alt.Tooltip("bot_brier:Q", title=tr("bot's Brier"), format=".3f"),
        alt.Tooltip("mean_lost:Q", title=tr("mean win-% lost"), format=".1f"),
        alt.Tooltip("status:N", title=tr("note")),
    ]


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
