"""Calibration: how well the learner's stated probabilities match what the cards showed, and
how good their moves were, over time."""

import pandas as pd
import streamlit as st

from trainer.learners.history import Connection, configured_url, session_history
from trainer.learners.history_csv import export_csv
from trainer.learners.names import resolve
from trainer.quiz import scoring
from trainer.views.calibration_charts import (
    over_time_charts,
    reliability_chart,
    theme_chart,
    theme_lost_chart,
)

if not st.session_state.pop("_routed", False):
    # Opened by Streamlit's legacy pages/ mode (first visit to a fresh server via a deep link):
    # registering a navigation switches that mode off; the rerun goes through the router. The
    # default page is listed too, or this page (not the default) would be "not found".
    st.navigation([st.Page("pages/learn.py", default=True),
                   st.Page("pages/calibration.py", url_path="calibration")], position="hidden")
    st.rerun()

state = st.session_state
shared_store = st.cache_resource(show_spinner=False)(Connection)
learner, bad_name = resolve(st.query_params, state)
db, db_error = shared_store(configured_url(lambda: st.secrets.to_dict())).get()
kept = session_history(state, learner, db, db_error)


@st.cache_data(max_entries=32, show_spinner=False)
def scores(learner: str, count: int, last: str) -> dict:
    """Every table of the page, keyed by the learner and their latest answer: recomputed
    only after a new answer, not on every click."""
    df = scoring.frame(kept.answers)
    return {
        "df": df, "summary": scoring.summary(df),
        "reliability": pd.concat([scoring.reliability(df, "stated"),
                                  scoring.reliability(df, "bot")], ignore_index=True),
        "over_time": scoring.over_time(df), "themes": scoring.per_theme(df),
        "first_last": scoring.first_last(df), "csv": export_csv(kept.answers),
    }


def forget() -> None:
    state["forgotten"] = kept.forget(db)
    state["forget_sure"] = False


def pct(x: float | None, signed: bool = False) -> str:
    return "–" if x is None else (f"{x:+.0%}" if signed else f"{x:.0%}")


def num(x: float | None, fmt: str = ".3f") -> str:
    return "–" if x is None else format(x, fmt)


st.title("Calibration")
st.caption(f"Answers of **{learner}** · [back to the quiz](/quiz?learner={learner})")
if bad_name:
    st.warning(bad_name, icon=":material/badge:")
if kept.offline:
    st.warning(f"Answers are kept in memory in this browser tab only. {kept.offline}",
               icon=":material/cloud_off:")
for problem in kept.problems[:5]:
    st.warning(f"A saved answer was skipped: {problem}", icon=":material/report:")

answers = kept.answers
if not answers:
    st.info("No answers yet. Answer a few quiz items and come back: this page shows how "
            "often the claims you called bluffs really were.", icon=":material/insights:")
else:
    tables = scores(learner, len(answers), answers[-1].answer_id)
    df, s = tables["df"], tables["summary"]
    if s.n_scored < 30:
        st.info(f"{s.n_scored} judged claim{'s' if s.n_scored != 1 else ''} so far: with fewer "
                "than 30, read these numbers as early signs, not a verdict.",
                icon=":material/hourglass_top:")
    top = st.columns(4)
    top[0].metric("Claims judged", s.n_scored, help=f"{s.n} answers in all; bluff rate "
                  f"among the judged claims {pct(s.base_rate)}")
    top[1].metric("Brier score (you)", num(s.brier),
                  delta=None if s.brier is None or s.bot_brier is None
                  else f"{s.brier - s.bot_brier:+.3f} vs bot", delta_color="inverse",
                  help="Mean of (stated − truth)² on a 0–1 scale; lower is better. Always "
                       "saying 50% scores 0.250.")
    top[2].metric("Skill vs the bot", pct(s.skill_vs_bot, True),
                  help="1 − your Brier / the bot's Brier on the same items. Above 0: better "
                       "than the bot.")
    top[3].metric("Skill vs the base rate", pct(s.skill_vs_base, True),
                  help="1 − your Brier / the Brier of always saying the base rate.")
    more = st.columns(4)
    more[0].metric("Log score", num(s.log_score, ".1f"),
                   help="Metaculus style: 100 · (1 + log₂ p(what happened)), stated p "
                        "clamped to 1–99%. 0 for always 50%; higher is better.")
    more[1].metric("Overconfidence", pct(s.overconfidence, True),
                   help="When you leaned one way: mean confidence minus how often you were "
                        "right. Above 0: overconfident.")
    more[2].metric("Discrimination (AUC)", num(s.auc, ".2f"),
                   help="How well your numbers separate bluffs from honest claims: the chance "
                        "a random bluff got a higher p than a random honest claim (0.5: not "
                        f"at all). Mean p on bluffs − on honest claims: "
                        f"{num(s.discrimination, '+.2f')}.")
    more[3].metric("Action error rate", "–" if s.error_rate is None
                   else f"{s.error_rate:.1f} pts",
                   help=f"Mean win-% lost per decision, over {s.n_decisions} decisions where "
                        "the choice mattered (trivial ones left out, as GNU Backgammon "
                        "does).")

    left, right = st.columns([3, 2], gap="large")
    with left:
        st.subheader("Reliability")
        event = st.altair_chart(reliability_chart(tables["reliability"]), on_select="rerun",
                                key="reliability", width="stretch")
        st.caption("Each point is a bin of your stated probabilities; on the dashed diagonal "
                   "you are calibrated. Bars are ±1 standard error; grey bins have few "
                   "answers. The bot's curve is on the same items. Click a point to list "
                   "its answers.")
    with right:
        st.subheader("Brier score, decomposed")
        m = s.murphy
        if m is not None:
            st.dataframe(pd.DataFrame([
                {"term": "reliability (lower is better)", "value": m.rel},
                {"term": "resolution (higher is better)", "value": m.res},
                {"term": "uncertainty (the items' own)", "value": m.unc},
                {"term": "Brier = rel − res + unc + rest", "value": m.brier},
            ]), hide_index=True, width="stretch",
                column_config={"value": st.column_config.NumberColumn(format="%.4f")})
            st.caption(f"Murphy's decomposition over ten bins of 10 points. It is exact only "
                       f"when every answer in a bin states the same number; the rest, "
                       f"{m.residual:+.4f}, is the spread of answers within bins. Expected "
                       f"calibration error: {num(s.ece, '.3f')}.")
        grades = pd.DataFrame({"grade": list(s.grades), "answers": list(s.grades.values())})
        st.dataframe(grades, hide_index=True, width="stretch")

    chosen = [p for p in (event.selection.get("bin", []) if event else [])
              if isinstance(p, dict)]
    if chosen:
        who, k = chosen[0].get("who"), chosen[0].get("bin")
        column = "stated" if who == "you" else "bot"
        p = df[column]
        lo, hi = (k or 0) / 10, ((k or 0) + 1) / 10
        rows = df[p.notna() & df["bluff"].notna() & (p >= lo)
                  & ((p < hi) | ((k == 9) & (p <= 1)))]
        whose = "you said" if who == "you" else "the bot said"
        st.markdown(f"**Answers where {whose} {lo:.0%}–{hi:.0%}** ({len(rows)})")
        st.dataframe(rows[["answered_at", "themes", "stated", "bot", "bluff", "action", "grade",
                           "lost_pp"]], hide_index=True, width="stretch", column_config={
            "answered_at": st.column_config.DatetimeColumn("answered", format="D MMM, HH:mm"),
            "stated": st.column_config.NumberColumn("you said", format="percent"),
            "bot": st.column_config.NumberColumn("bot said", format="percent"),
            "bluff": st.column_config.CheckboxColumn("was a bluff"),
            "lost_pp": st.column_config.NumberColumn("win-% lost", format="%.1f")})

    st.subheader("Over time")
    for chart in over_time_charts(tables["over_time"]):
        # The height given here: Streamlit squeezes a stretched line chart's own height.
        st.altair_chart(chart, width="stretch", height=230)
    st.caption("Thin points are single answers, the bold line the moving average of 20.")

    st.subheader("By theme")
    themes = tables["themes"]
    brier_col, lost_col = st.columns(2)
    brier_col.altair_chart(theme_chart(themes), width="stretch")
    lost_col.altair_chart(theme_lost_chart(themes), width="stretch")
    st.dataframe(themes, hide_index=True, width="stretch", column_config={
        "theme": "theme", "n": "answers", "scored": "claims judged", "bluffs": "bluffs",
        "honest": "honest claims",
        "brier": st.column_config.NumberColumn("your Brier", format="%.3f"),
        "bot_brier": st.column_config.NumberColumn("bot's Brier", format="%.3f"),
        "mean_lost": st.column_config.NumberColumn("mean win-% lost", format="%.1f"),
        "unclear": st.column_config.CheckboxColumn("unclear")})
    st.caption("Themes marked unclear have fewer than 3 bluffs or 3 honest claims: too few to "
               "judge.")

    st.subheader("Before and after")
    fl = tables["first_last"]
    if fl is None:
        st.caption(f"Your first 30 answers against your latest 30 appear after 60 answers "
                   f"({len(df)} so far).")
    else:
        st.dataframe(fl, hide_index=True, width="stretch", column_config={
            "window": "answers", "n": None, "n_scored": "claims judged",
            "brier": st.column_config.NumberColumn("Brier", format="%.3f"),
            "log_score": st.column_config.NumberColumn("log score", format="%.1f"),
            "overconfidence": st.column_config.NumberColumn("overconfidence",
                                                            format="percent"),
            "error_rate": st.column_config.NumberColumn("win-% lost per decision",
                                                        format="%.1f")})

st.subheader("Your history")
cols = st.columns(2)
cols[0].download_button("Export as CSV",
                        scores(learner, len(answers), answers[-1].answer_id)["csv"]
                        if answers else export_csv([]), file_name=f"{learner}.csv",
                        mime="text/csv", icon=":material/download:", disabled=not answers)
upload = cols[1].file_uploader("Import a CSV export", type=["csv"], key="import_csv")
if upload is not None and state.get("imported") != upload.file_id:
    state["imported"] = upload.file_id
    state["import_report"] = kept.import_csv(db, upload.getvalue())
    st.rerun()
report = state.get("import_report")
if report is not None:
    st.success(f"Imported {report.added} answers ({report.duplicates} were already there).",
               icon=":material/upload:")
    for line in report.errors[:10]:
        st.error(line, icon=":material/error:")
    if len(report.errors) > 10:
        st.error(f"… and {len(report.errors) - 10} more lines with errors.")

with st.expander("Forget my answers"):
    st.caption(f"Deletes every answer saved under **{learner}**, for good. Export them first "
               "if you may want them back.")
    sure = st.checkbox(f"Yes, delete my {len(answers)} answers", key="forget_sure",
                       disabled=not answers)
    st.button("Delete", key="forget", type="primary", disabled=not sure, on_click=forget)
    if "forgotten" in state:
        st.success(f"Deleted {state.pop('forgotten')} answers.", icon=":material/delete:")
