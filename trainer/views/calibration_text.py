"""What the Calibration page says: its headline numbers as formatted metrics, the tables beside
the charts, and the sentences around them (no Streamlit).

Why apart from the page: each number is formatted with its explanation in one place (a
missing number is "–", never "nan"), so the page script only places them and a test can read
them without a browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import pandas as pd

from trainer.learners.history_csv import ImportReport
from trainer.quiz.scoring import Murphy, Summary

EARLY = 30  # judged claims below which the numbers are early signs
SHOWN_ERRORS = 10  # lines of a CSV import's errors listed one by one


def pct(x: float | None, signed: bool = False) -> str:
    return "–" if x is None else (f"{x:+.0%}" if signed else f"{x:.0%}")


def num(x: float | None, fmt: str = ".3f") -> str:
    return "–" if x is None else format(x, fmt)


@dataclass(frozen=True)
class Metric:
    """One headline number, as `st.metric` shows it."""

    label: str
    value: str | int
    help: str
    delta: str | None = None
    delta_color: Literal["normal", "inverse", "off"] = "normal"


def metrics(s: Summary) -> list[Metric]:
    """The eight headline numbers, in two rows of four: the belief's scores, then how it is
    spread and what the moves cost."""
    return [
        Metric("Claims judged", s.n_scored, f"{s.n} answers in all; bluff rate among the "
               f"judged claims {pct(s.base_rate)}"),
        Metric("Brier score (you)", num(s.brier),
               "Mean of (stated − truth)² on a 0–1 scale; lower is better. Always saying 50% "
               "scores 0.250.",
               delta=None if s.brier is None or s.bot_brier is None
               else f"{s.brier - s.bot_brier:+.3f} vs bot", delta_color="inverse"),
        Metric("Skill vs the bot", pct(s.skill_vs_bot, True),
               "1 − your Brier / the bot's Brier on the same items. Above 0: better than the "
               "bot."),
        Metric("Skill vs the base rate", pct(s.skill_vs_base, True),
               "1 − your Brier / the Brier of always saying the base rate."),
        Metric("Log score", num(s.log_score, ".1f"),
               "Metaculus style: 100 · (1 + log₂ p(what happened)), stated p clamped to "
               "1–99%. 0 for always 50%; higher is better."),
        Metric("Overconfidence", pct(s.overconfidence, True),
               "When you leaned one way: mean confidence minus how often you were right. "
               "Above 0: overconfident."),
        Metric("Discrimination (AUC)", num(s.auc, ".2f"),
               "How well your numbers separate bluffs from honest claims: the chance a random "
               "bluff got a higher p than a random honest claim (0.5: not at all). Mean p on "
               f"bluffs − on honest claims: {num(s.discrimination, '+.2f')}."),
        Metric("Action error rate",
               "–" if s.error_rate is None else f"{s.error_rate:.1f} pts",
               f"Mean win-% lost per decision, over {s.n_decisions} decisions where the "
               "choice mattered (trivial ones left out, as GNU Backgammon does)."),
    ]


def early_signs(n_scored: int) -> str | None:
    """A warning while there are too few judged claims to read the numbers as a verdict."""
    if n_scored >= EARLY:
        return None
    return (f"{n_scored} judged claim{'s' if n_scored != 1 else ''} so far: with fewer than "
            f"{EARLY}, read these numbers as early signs, not a verdict.")


def murphy_table(m: Murphy) -> pd.DataFrame:
    return pd.DataFrame([
        {"term": "reliability (lower is better)", "value": m.rel},
        {"term": "resolution (higher is better)", "value": m.res},
        {"term": "uncertainty (the items' own)", "value": m.unc},
        {"term": "Brier = rel − res + unc + rest", "value": m.brier},
    ])


def murphy_caption(m: Murphy, ece: float | None) -> str:
    return (f"Murphy's decomposition over ten bins of 10 points. It is exact only when every "
            f"answer in a bin states the same number; the rest, {m.residual:+.4f}, is the "
            f"spread of answers within bins. Expected calibration error: {num(ece, '.3f')}.")


def grades_table(s: Summary) -> pd.DataFrame:
    return pd.DataFrame({"grade": list(s.grades), "answers": list(s.grades.values())})


def clicked_bin(selection: Mapping[str, Any] | None) -> tuple[str, int] | None:
    """The point clicked on the reliability chart (its selection is named "bin"): whose
    curve ("you" or "bot") and which bin, or None when nothing is selected."""
    points = [p for p in (selection or {}).get("bin", []) if isinstance(p, dict)]
    if not points:
        return None
    return str(points[0].get("who")), int(points[0].get("bin") or 0)


def bin_column(who: str) -> str:
    """The answers' column behind a curve of the reliability chart."""
    return "stated" if who == "you" else "bot"


def bin_title(who: str, k: int, n: int, bins: int = 10) -> str:
    whose = "you said" if who == "you" else "the bot said"
    return f"**Answers where {whose} {k / bins:.0%}–{(k + 1) / bins:.0%}** ({n})"


def import_messages(report: ImportReport) -> tuple[str, list[str], str | None]:
    """What a CSV import did, its first errors, and how many more there were (if any)."""
    more = len(report.errors) - SHOWN_ERRORS
    return (f"Imported {report.added} answers ({report.duplicates} were already there).",
            report.errors[:SHOWN_ERRORS],
            f"… and {more} more lines with errors." if more > 0 else None)
