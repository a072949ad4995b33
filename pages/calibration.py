"""Calibration: how well the learner's stated probabilities match what the cards showed, and
how good their moves were, over time."""

from functools import partial
from typing import Any

import streamlit as st

from trainer.i18n import current_language, tr
from trainer.learners.answers import Answer
from trainer.learners.history_csv import export_csv
from trainer.quiz import scoring
from trainer.quiz.bank import theme_words
from trainer.quiz.findings import Findings, findings
from trainer.ui.learner import answers_warnings, bad_name_warning, current_learner, learner_caption
from trainer.ui.router import hand_over
from trainer.ui.vega import with_arrow_datasets
from trainer.views import calibration_text as text
from trainer.views.calibration_charts import (
    over_time_specs,
    reliability_spec,
    theme_lost_spec,
    theme_spec,
)

hand_over("pages/calibration.py", "calibration")
state = st.session_state
me = current_learner()
kept, learner = me.history, me.name
number = st.column_config.NumberColumn


@st.cache_data(max_entries=128, show_spinner=False)
def scores(learner: str, count: int, last: str, language: str, _answers: list[Answer]
           ) -> tuple[scoring.Report, Findings, dict[str, Any]]:
    """Every table of the page, its opening sentences' numbers and the charts,
    keyed by the learner and their latest answer: recomputed only after a new answer (the
    bootstrap included), not on every click.

    Why the charts as Vega-Lite specs made here: building an Altair chart and turning it into
    its spec was half of this page's CPU per run (`bench/serve.py`); the spec depends on the
    answers alone, so it is made once per new answer, filled into a template Altair made once
    per process (`trainer.views.calibration_charts.Template`): a learner's first run, which a
    class opening the page together pays thirty times over, then costs no Altair at all. The
    chart tests validate every chart's spec and check the filled one against Altair's own.
    Their rows are kept as the Arrow bytes `st.vega_lite_chart` would otherwise make of them
    on every run (`trainer.ui.vega`).

    Why 128 learners kept: a class of 60 opening the page together cycles through 60
    learners, and with room for 32 every request missed and recomputed (`bench/serve.py
    --users 60`: 116 ms of CPU a request, p95 15.5 s; with 128, 74 ms and 9.3 s); an entry
    of 200 answers is about 180 KiB pickled, 23 MiB for all 128.

    Keyed by the reader's language too: the charts' titles, axes and theme names are words."""
    tables = scoring.report(_answers)
    tables.themes["theme"] = tables.themes["theme"].map(theme_words)
    charts = {"reliability": with_arrow_datasets(reliability_spec(tables.reliability)),
              "over_time": [with_arrow_datasets(s) for s in over_time_specs(tables.over_time)],
              "theme": with_arrow_datasets(theme_spec(tables.themes)),
              "theme_lost": with_arrow_datasets(theme_lost_spec(tables.themes))}
    return tables, findings(tables.df), charts


def forget() -> None:
    state["forgotten"] = kept.forget(me.store)
    state["forget_sure"] = False


st.title(tr("Calibration"))
learner_caption(me)
bad_name_warning(me)
answers_warnings(me)

answers = kept.answers
if not answers:
    st.info(tr("No answers yet. Answer a few quiz items and come back: this page shows how "
               "often the claims you called bluffs really were."), icon=":material/insights:")
else:
    tables, found, charts = scores(learner, len(answers), answers[-1].answer_id,
                                   current_language(), answers)
    df, s = tables.df, tables.summary
    with st.container(key="calibration_lead"):
        for paragraph in text.lead(found, len(df)):
            st.markdown(paragraph)

    st.subheader(tr("Your chances, checked"))
    left, right = st.columns([3, 2], gap="large")
    with left:
        event = st.vega_lite_chart(charts["reliability"], on_select="rerun",
                                   key="reliability", width="stretch", height=400)
    with right:
        st.markdown(text.reliability_help())

    clicked = text.clicked_bin(event.selection if event else None)
    if clicked is not None:
        who, k = clicked
        rows = scoring.in_bin(df, text.bin_column(who), k)
        st.markdown(text.bin_title(who, k, len(rows)))
        st.dataframe(text.bin_rows(rows), hide_index=True, width="stretch", column_config={
            "answered_at": st.column_config.DatetimeColumn(tr("answered"),
                                                           format="D MMM, HH:mm"),
            "themes": tr("themes"), "action": tr("action"), "grade": tr("grade"),
            "stated": number(tr("you said"), format="percent"),
            "bot": number(tr("bot said"), format="percent"),
            "bluff": st.column_config.CheckboxColumn(tr("was a bluff")),
            "lost_pp": number(tr("win-% lost"), format="%.1f")})

    with st.expander(tr("Expert figures: Brier score, log score, skill and more"),
                     icon=":material/functions:"):
        if (early := text.early_signs(s.n_scored)) is not None:
            st.caption(early)
        st.markdown("\n".join(f"- {line}" for line in text.expert_figures(s, found)))
        if s.murphy is not None:
            st.markdown(tr("**Brier score, decomposed**"))
            st.dataframe(text.murphy_table(s.murphy), hide_index=True, width="stretch",
                         column_config={"term": tr("term"),
                                        "value": number(tr("value"), format="%.4f")})
            st.caption(text.murphy_caption(s.murphy, s.ece))
        st.markdown(tr("**Your moves, by grade**"))
        st.dataframe(text.grades_table(s), hide_index=True, width="stretch",
                     column_config={"grade": tr("grade"), "answers": tr("answers")})

    st.subheader(tr("Over time"))
    for chart in charts["over_time"]:
        # The height given here: Streamlit squeezes a stretched line chart's own height.
        st.vega_lite_chart(chart, width="stretch", height=230)
    st.caption(tr("Faint dots are single answers; the bold line is the average of the last "
                  "20."))

    st.subheader(tr("By theme"))
    brier_col, lost_col = st.columns(2)
    brier_col.vega_lite_chart(charts["theme"], width="stretch")
    lost_col.vega_lite_chart(charts["theme_lost"], width="stretch")
    st.dataframe(tables.themes, hide_index=True, width="stretch", column_config={
        "theme": tr("theme"), "n": tr("answers"), "scored": tr("claims judged"),
        "bluffs": tr("bluffs"), "honest": tr("honest claims"),
        "brier": number(tr("your Brier"), format="%.3f"),
        "bot_brier": number(tr("bot's Brier"), format="%.3f"),
        "mean_lost": number(tr("mean win-% lost"), format="%.1f"),
        "unclear": st.column_config.CheckboxColumn(tr("unclear"))})
    st.caption(tr("Themes marked unclear have fewer than 3 bluffs or 3 honest claims: too few "
                  "to judge."))

    st.subheader(tr("Before and after"))
    if tables.first_last is None:
        st.caption(text.first_last_later(len(df)))
    else:
        st.dataframe(text.first_last_rows(tables.first_last), hide_index=True,
                     width="stretch", column_config={
            "window": tr("answers"), "n": None, "n_scored": tr("claims judged"),
            "brier": number(tr("Brier"), format="%.3f"),
            "log_score": number(tr("log score"), format="%.1f"),
            "overconfidence": number(tr("overconfidence"), format="percent"),
            "error_rate": number(tr("win-% lost per decision"), format="%.1f")})

st.subheader(tr("Your history"))
cols = st.columns(2)
# The CSV is written when the button is clicked, not on every run: most visits never export,
# and a learner's first visit (the one a class pays thirty times over) need not make it.
cols[0].download_button(tr("Export as CSV"), partial(export_csv, answers),
                        file_name=f"{learner}.csv", mime="text/csv",
                        icon=":material/download:", disabled=not answers)
upload = cols[1].file_uploader(tr("Import a CSV export"), type=["csv"], key="import_csv")
if upload is not None and state.get("imported") != upload.file_id:
    state["imported"] = upload.file_id
    state["import_report"] = kept.import_csv(me.store, upload.getvalue())
    st.rerun()
if state.get("import_report") is not None:
    added, errors, more = text.import_messages(state["import_report"])
    st.success(added, icon=":material/upload:")
    for line in errors:
        st.error(line, icon=":material/error:")
    if more:
        st.error(more)

with st.expander(tr("Forget my answers")):
    st.caption(tr("Deletes every answer saved under **{name}**, for good. Export them first if "
                  "you may want them back.", name=learner))
    sure = st.checkbox(text.forget_label(len(answers)), key="forget_sure",
                       disabled=not answers)
    st.button(tr("Delete"), key="forget", type="primary", disabled=not sure, on_click=forget)
    if "forgotten" in state:
        st.success(text.forgotten(state.pop("forgotten")), icon=":material/delete:")
