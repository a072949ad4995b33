"""Calibration and action scores of a learner's answers, as plain functions of numbers.

Why a module of its own, free of Streamlit: the calibration page, the CSV report and the tests
all need the same numbers, and a metric that is only computed inside a page cannot be checked
by hand. Every function here takes arrays or the frame built by `frame` and returns numbers or
small tables; the charts (`trainer.views.calibration_charts`) only draw what these return.

Conventions (see /work/shared/notes/trainer-anchors.md):
- p is always P(the claim is a bluff) on a one-sided 0–1 scale; o is 1 for a bluff, 0 for an
  honest claim.
- An answer is *scored* when the learner stated a probability and the truth is known; only
  scored answers enter the calibration metrics, so an item without a claim never dilutes them.
- The action error rate is the mean win-% lost over *non-trivial* answers, as GNU Backgammon
  leaves forced and obvious decisions out: an item where every option is within a point teaches
  nothing about judgement and would flatter the rate.
- "Not computable" is None in the dataclasses and NaN in the tables, never an exception: a new
  learner with no answers must still see a page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from trainer.learners.answers import COLUMNS, Answer, Grade
from trainer.verdicts.grades import GRADES

ArrayLike = Sequence[float] | Sequence[bool] | np.ndarray | pd.Series

# Judged claims before a comparison means anything: the Calibration page passes no verdict
# before then (`trainer.quiz.findings`), and `summary` gives no skill score (on three claims
# against a near-perfect bot a skill of −5,000% is luck, not a finding).
VERDICT_AT = 30
LOG_CLAMP = (0.01, 0.99)
# Forecasts sit on a 1% grid, and 0.7 * 10 may land at 6.999…; the nudge keeps such a value in
# the bin its label promises without moving any real forecast across a boundary.
_BIN_EPS = 1e-9
# Who drew a reliability curve, by the column it came from.
WHO = {"stated": "you", "bot": "bot", "prior": "counting"}
METRICS = ("Brier (you)", "Brier (bot)", "log score", "win-% lost")

_FLOAT_COLUMNS = ("seconds", "stated", "bot", "prior", "lost_pp")


# --------------------------------------------------------------------------- the frame


def frame(answers: Iterable[Answer]) -> pd.DataFrame:
    """One row per answer in the order they were answered.

    Built column by column from attributes because the page rebuilds it on every rerun for up
    to thousands of answers; `model_dump` per answer or row appends cost several times more.
    The sort is stable, so answers saved in the same instant keep the order they came in.
    """
    items = list(answers)
    data: dict[str, object] = {c: [getattr(a, c) for a in items] for c in COLUMNS}
    df = pd.DataFrame(data, columns=list(COLUMNS))
    for c in _FLOAT_COLUMNS:
        df[c] = df[c].astype(float)
    df["trivial"] = df["trivial"].astype(bool)
    df["bluff"] = df["bluff"].astype(object)
    df["themes"] = df["themes"].astype(object)
    df["answered_at"] = pd.to_datetime(df["answered_at"], utc=True)
    return df.sort_values("answered_at", kind="stable").reset_index(drop=True)


def _truth(series: pd.Series) -> np.ndarray:
    """bluff as 1.0 / 0.0 / NaN, whatever form (bool, None, 0/1) the frame holds it in."""
    return series.astype("boolean").astype("Float64").to_numpy(dtype=float, na_value=np.nan)


def _scored(df: pd.DataFrame, column: str = "stated") -> tuple[np.ndarray, np.ndarray]:
    """(p, o) for the rows where both the forecast and the truth are known."""
    p = df[column].to_numpy(dtype=float)
    o = _truth(df["bluff"])
    keep = ~np.isnan(p) & ~np.isnan(o)
    return p[keep], o[keep]


def judged(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(stated, bot, o) for the scored answers, the bot NaN where it had no estimate: the
    arrays every comparison of the learner with the bot starts from."""
    p = df["stated"].to_numpy(dtype=float)
    o = _truth(df["bluff"])
    keep = ~np.isnan(p) & ~np.isnan(o)
    return p[keep], df["bot"].to_numpy(dtype=float)[keep], o[keep]


def _arrays(p: ArrayLike, o: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    pa = np.asarray(p, dtype=float).ravel()
    oa = np.asarray(o, dtype=float).ravel()
    if pa.shape != oa.shape:
        raise ValueError(f"{pa.size} forecasts but {oa.size} outcomes")
    return pa, oa


def _need(pa: np.ndarray) -> None:
    # A mean over nothing is NaN with a warning; say plainly what was wrong instead.
    if pa.size == 0:
        raise ValueError("no forecasts to score")


# --------------------------------------------------------------------------- single metrics


def brier(p: ArrayLike, o: ArrayLike) -> float:
    """Mean squared distance from the truth: 0 is perfect, always saying 50% scores 0.25.

    The yardstick every other score is compared with, because it is proper (honest forecasts
    score best) and decomposes into calibration and resolution (see `murphy`).
    """
    pa, oa = _arrays(p, o)
    _need(pa)
    return float(np.mean((pa - oa) ** 2))


def log_score(p: ArrayLike, o: ArrayLike) -> float:
    """Metaculus-style log score: mean of 100 · (1 + log2 p(outcome)).

    0 for always saying 50%, 100 for certainty that came true. p is clamped to 1–99% so a
    single confident miss costs at most about 564 points instead of minus infinity — the same
    bounds the quiz slider has.
    """
    pa, oa = _arrays(p, o)
    _need(pa)
    pa = np.clip(pa, *LOG_CLAMP)
    p_outcome = np.where(oa == 1, pa, 1 - pa)
    return float(np.mean(100 * (1 + np.log2(p_outcome))))


def _bins(pa: np.ndarray, bins: int) -> np.ndarray:
    """Bin index k for [k/bins, (k+1)/bins); the last bin also takes p = 1."""
    index: np.ndarray = np.clip(np.floor(pa * bins + _BIN_EPS).astype(int), 0, bins - 1)
    return index


class _Bins(NamedTuple):
    """The non-empty bins in order: index k, answers n, mean forecast f, observed rate o."""

    k: np.ndarray
    n: np.ndarray
    f: np.ndarray
    o: np.ndarray


def _binned(pa: np.ndarray, oa: np.ndarray, bins: int) -> _Bins:
    """Per non-empty bin: n, mean forecast f, observed rate o.

    As arrays, not a table: the callers' arithmetic on a handful of bins is then numpy's
    alone. The means stay pandas' grouped means (compensated sums), so no number moves."""
    index = _bins(pa, bins)
    means = pd.DataFrame({"f": pa, "o": oa}).groupby(index, sort=True).mean()
    k = means.index.to_numpy()
    return _Bins(k, np.bincount(index, minlength=bins)[k], means["f"].to_numpy(),
                 means["o"].to_numpy())


@dataclass(frozen=True)
class Murphy:
    """Brier = REL − RES + UNC (Murphy 1973), over equal-width bins of the forecast.

    rel: reliability (calibration error, lower is better); res: resolution (how far the bins'
    outcomes spread from the base rate, higher is better); unc: uncertainty ō(1 − ō) of the
    items themselves, which no forecaster controls.

    The identity is exact only when every forecast in a bin equals the bin's mean forecast;
    with a 1% slider a bin such as 10–20% mixes 0.12 and 0.18. `residual` = brier − (rel −
    res + unc) is that within-bin spread made visible instead of silently folded into rel.
    """

    rel: float
    res: float
    unc: float
    brier: float
    residual: float


def murphy(p: ArrayLike, o: ArrayLike, bins: int = 10) -> Murphy:
    """Split the Brier score into calibration, resolution and uncertainty.

    Bins are [0, 0.1), [0.1, 0.2), …, [0.9, 1.0] for bins=10. See `Murphy` for why the
    residual exists.
    """
    pa, oa = _arrays(p, o)
    _need(pa)
    return _murphy(pa, oa, _binned(pa, oa, bins))


def _murphy(pa: np.ndarray, oa: np.ndarray, t: _Bins) -> Murphy:
    n = pa.size
    base = float(oa.mean())
    rel = float((t.n * (t.f - t.o) ** 2).sum() / n)
    res = float((t.n * (t.o - base) ** 2).sum() / n)
    unc = base * (1 - base)
    bs = float(np.mean((pa - oa) ** 2))
    return Murphy(rel=rel, res=res, unc=unc, brier=bs, residual=bs - (rel - res + unc))


def overconfidence(p: ArrayLike, o: ArrayLike) -> float | None:
    """How much surer the learner was than right, on the answers that took a side.

    Mean confidence in the leaned direction, max(p, 1 − p), minus the share of those answers
    where that direction was right. Positive = overconfident, negative = underconfident.
    A 50% answer takes no side, so it can be neither over- nor underconfident and is left out
    (counting it would pull the confidence towards 0.5 and hide real overconfidence).
    None when no answer leaned.
    """
    pa, oa = _arrays(p, o)
    lean = pa != 0.5
    if not lean.any():
        return None
    pa, oa = pa[lean], oa[lean]
    confidence = np.maximum(pa, 1 - pa)
    right = (pa > 0.5) == (oa == 1)
    return float(confidence.mean() - right.mean())


def ece(p: ArrayLike, o: ArrayLike, bins: int = 10) -> float:
    """Expected calibration error Σ (n_k/N) |f_k − o_k|.

    The same bins as the reliability diagram, so the number is the diagram's average vertical
    distance from the diagonal, in probability units a learner can read ("off by 8 points").
    """
    pa, oa = _arrays(p, o)
    _need(pa)
    return _ece(pa, _binned(pa, oa, bins))


def _ece(pa: np.ndarray, t: _Bins) -> float:
    return float((t.n * np.abs(t.f - t.o)).sum() / pa.size)


def discrimination(p: ArrayLike, o: ArrayLike) -> float | None:
    """Mean p on bluffs minus mean p on honest claims.

    Calibration can be perfect while telling nothing apart (always the base rate); this says
    whether the learner's numbers move with the truth at all. None without both classes.
    """
    pa, oa = _arrays(p, o)
    bl, ho = pa[oa == 1], pa[oa == 0]
    if bl.size == 0 or ho.size == 0:
        return None
    return float(bl.mean() - ho.mean())


def auc(p: ArrayLike, o: ArrayLike) -> float | None:
    """Chance that a random bluff got a higher p than a random honest claim (ties count 1/2).

    The rank form (Mann–Whitney) of discrimination: it ignores how the scale is used, so a
    learner who only ever says 40% or 60% is not punished for the narrow range. None without
    both classes.
    """
    pa, oa = _arrays(p, o)
    n1 = int((oa == 1).sum())
    n0 = int((oa == 0).sum())
    if n1 == 0 or n0 == 0:
        return None
    ranks = pd.Series(pa).rank(method="average").to_numpy()  # average ranks = ties as 1/2
    u = ranks[oa == 1].sum() - n1 * (n1 + 1) / 2
    return float(u / (n1 * n0))


@dataclass(frozen=True)
class Gap:
    """The learner's Brier minus the bot's over the same items, with a bootstrap interval.

    Negative: the learner was closer to the truth. The interval is what resampling the same
    items says the difference could have been by luck of which items came up; when it holds
    0, the two are not told apart by these answers.
    """

    n: int
    diff: float
    low: float
    high: float
    level: float
    resamples: int

    @property
    def within_noise(self) -> bool:
        return self.low <= 0 <= self.high


BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20250301
_BOOTSTRAP_CHUNK = 250  # resamples drawn at once: 250 × 5,000 answers stays near 10 MB


def brier_gap(p: ArrayLike, bot: ArrayLike, o: ArrayLike, *,
              resamples: int = BOOTSTRAP_RESAMPLES, level: float = 0.95,
              seed: int = BOOTSTRAP_SEED) -> Gap:
    """Brier(learner) − Brier(bot) with a paired percentile bootstrap interval.

    Paired: each resample draws items, and both forecasters are scored on the same draw, so
    the interval measures the difference itself rather than adding up two separate
    uncertainties (the items that are hard for one are usually hard for the other). The seed
    is fixed so the page says the same thing on every rerun of the same answers.
    """
    pa, oa = _arrays(p, o)
    ba, _ = _arrays(bot, o)
    _need(pa)
    d = (pa - oa) ** 2 - (ba - oa) ** 2
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    for start in range(0, resamples, _BOOTSTRAP_CHUNK):
        k = min(_BOOTSTRAP_CHUNK, resamples - start)
        means[start:start + k] = d[rng.integers(0, d.size, size=(k, d.size))].mean(axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return Gap(n=int(d.size), diff=float(d.mean()), low=float(low), high=float(high),
               level=level, resamples=resamples)


def skill(bs: float | None, bs_ref: float | None) -> float | None:
    """1 − BS / BS_ref: the share of the reference's error the learner avoided.

    Positive beats the reference, 0 ties it. None when either is missing or the reference is
    perfect (0), where the ratio says nothing.
    """
    if bs is None or bs_ref is None or bs_ref == 0:
        return None
    return 1 - bs / bs_ref


# --------------------------------------------------------------------------- tables


RELIABILITY_COLUMNS = ("bin", "lo", "hi", "label", "n", "forecast", "observed", "se",
                       "lower", "upper", "small", "who")
_RELIABILITY_DTYPES = {"bin": int, "lo": float, "hi": float, "label": str, "n": int,
                       "forecast": float, "observed": float, "se": float, "lower": float,
                       "upper": float, "small": bool, "who": str}


def reliability(df: pd.DataFrame, column: str = "stated", bins: int = 10,
                small: int = 10) -> pd.DataFrame:
    """The reliability diagram's points: per non-empty bin, mean forecast vs observed rate.

    Each point carries ±1 standard error √(o(1 − o)/n) because a bin of four items that came
    out 75% is not evidence of miscalibration; `small` flags such bins so the chart can grey
    them out. Only rows where both `column` and the truth are known count.
    """
    pa, oa = _scored(df, column)
    if pa.size == 0:
        return pd.DataFrame({c: pd.Series(dtype=_RELIABILITY_DTYPES[c])
                             for c in RELIABILITY_COLUMNS})
    # The arithmetic on the bins' numpy arrays: the same element-wise operations a table's
    # columns would do, without making a pandas object for each (most of this function's time).
    k, n, f, o = _binned(pa, oa, bins)
    k, n = k.astype(int), n.astype(int)
    lo = k / bins
    hi = (k + 1) / bins
    se = np.sqrt(o * (1 - o) / n)
    return pd.DataFrame({
        "bin": k,
        "lo": lo,
        "hi": hi,
        "label": [f"{round(a * 100)}–{round(b * 100)}%"
                  for a, b in zip(lo.tolist(), hi.tolist(), strict=True)],
        "n": n,
        "forecast": f,
        "observed": o,
        "se": se,
        "lower": np.clip(o - se, 0, 1),
        "upper": np.clip(o + se, 0, 1),
        "small": n < small,
        "who": WHO.get(column, column),
    })


@dataclass(frozen=True)
class Summary:
    """Every headline number of the calibration page, None where it cannot be computed.

    Calibration numbers use the `n_scored` answers (a stated p and a known truth). The bot is
    compared on the same items, restricted to those where the bot had an estimate (`n_vs_bot`),
    so a learner is never measured against a bot that answered different questions.
    """

    n: int
    n_scored: int
    base_rate: float | None = None
    brier: float | None = None
    murphy: Murphy | None = None
    log_score: float | None = None
    overconfidence: float | None = None
    ece: float | None = None
    discrimination: float | None = None
    auc: float | None = None
    bot_brier: float | None = None
    skill_vs_bot: float | None = None
    skill_vs_base: float | None = None
    error_rate: float | None = None
    n_vs_bot: int = 0
    n_decisions: int = 0  # non-trivial answers: the error rate's denominator
    grades: dict[Grade, int] = field(default_factory=lambda: dict.fromkeys(GRADES, 0))


def _error_rate(df: pd.DataFrame) -> tuple[float | None, int]:
    lost = df.loc[~df["trivial"].astype(bool), "lost_pp"].to_numpy(dtype=float)
    return (float(lost.mean()) if lost.size else None), int(lost.size)


def _grades(df: pd.DataFrame) -> dict[Grade, int]:
    counts = df["grade"].value_counts()
    return {g: int(counts.get(g, 0)) for g in GRADES}


def summary(df: pd.DataFrame, enough: int = VERDICT_AT) -> Summary:
    """All headline numbers at once, so the page and the report cannot disagree.

    The skill scores are ratios of two Brier scores, and on a handful of claims the
    reference's can be nearly 0 (a bot that happened to be right every time), which blows
    the ratio up to thousands of percent: each is None until `enough` claims were compared
    (the bot's: the claims it estimated too)."""
    error_rate, decisions = _error_rate(df)
    grades = _grades(df)
    p_all = df["stated"].to_numpy(dtype=float)
    o_all = _truth(df["bluff"])
    keep = ~np.isnan(p_all) & ~np.isnan(o_all)
    p, o = p_all[keep], o_all[keep]
    if p.size == 0:
        return Summary(n=len(df), n_scored=0, error_rate=error_rate, n_decisions=decisions,
                       grades=grades)

    bs = brier(p, o)
    base = float(o.mean())
    bins = _binned(p, o, 10)  # murphy's and ece's bins, made once

    bot = df["bot"].to_numpy(dtype=float)[keep]
    with_bot = ~np.isnan(bot)
    bot_bs = you_bs = None
    if with_bot.any():
        bot_bs = brier(bot[with_bot], o[with_bot])
        you_bs = brier(p[with_bot], o[with_bot])

    return Summary(
        n=len(df),
        n_scored=int(p.size),
        base_rate=base,
        brier=bs,
        murphy=_murphy(p, o, bins),
        log_score=log_score(p, o),
        overconfidence=overconfidence(p, o),
        ece=_ece(p, bins),
        discrimination=discrimination(p, o),
        auc=auc(p, o),
        bot_brier=bot_bs,
        skill_vs_bot=skill(you_bs, bot_bs) if with_bot.sum() >= enough else None,
        skill_vs_base=skill(bs, base * (1 - base)) if p.size >= enough else None,
        error_rate=error_rate,
        n_vs_bot=int(with_bot.sum()),
        n_decisions=decisions,
        grades=grades,
    )


def over_time(df: pd.DataFrame, window: int = 20) -> pd.DataFrame:
    """Per-answer scores and their moving average, long format, for the progress chart.

    One value per answer that has the metric: Brier and log score for scored answers (the
    bot's Brier on those of them it estimated, so both lines cover the same items), win-% lost
    for non-trivial answers. The moving average runs over each metric's own values, so a run
    of claim-less items does not stretch or shrink the Brier window.
    """
    p = df["stated"].to_numpy(dtype=float)
    bot = df["bot"].to_numpy(dtype=float)
    o = _truth(df["bluff"])
    scored = ~np.isnan(p) & ~np.isnan(o)
    pc = np.clip(p, *LOG_CLAMP)
    with np.errstate(invalid="ignore"):
        log = 100 * (1 + np.log2(np.where(o == 1, pc, 1 - pc)))
    decided = ~df["trivial"].to_numpy(dtype=bool)

    # One table made at once from the metrics' rows, not one per metric then joined: the same
    # rows and values in a third of the time (3.3 to 1.2 ms for 200 answers).
    rows, names, values, moving = [], [], [], []
    for name, every, mask in (
        ("Brier (you)", (p - o) ** 2, scored),
        ("Brier (bot)", (bot - o) ** 2, scored & ~np.isnan(bot)),
        ("log score", log, scored),
        ("win-% lost", df["lost_pp"].to_numpy(dtype=float), decided),
    ):
        v = every[mask]
        rows.append(np.flatnonzero(mask))
        names += [name] * v.size
        values.append(v)
        moving.append(pd.Series(v).rolling(window, min_periods=1).mean().to_numpy())
    at = np.concatenate(rows)
    return pd.DataFrame({
        "n": (at + 1).astype(int),
        "answered_at": df["answered_at"].array.take(at),
        "metric": pd.array(names, dtype=str),
        "value": np.concatenate(values),
        "moving": np.concatenate(moving),
    })


PER_THEME_COLUMNS = ("theme", "n", "scored", "bluffs", "honest", "brier", "bot_brier",
                     "mean_lost", "unclear")


def per_theme(df: pd.DataFrame, unclear: int = 3) -> pd.DataFrame:
    """One row per theme; an answer with two themes counts in both, as on Lichess.

    A theme is `unclear` with fewer than `unclear` bluffs or honest claims among its scored
    answers: Lichess flags a puzzle theme with fewer than 3 wins or 3 losses, and a Brier over
    two bluffs says more about those two cards than about the learner. `mean_lost` is over
    non-trivial answers, like the overall error rate. Answers without a theme are left out.
    Themes may also come in the database's "a|b" form, so a frame read straight from SQL works.
    """
    if df.empty:
        return _empty_theme_table()
    p = df["stated"].to_numpy(dtype=float)
    bot = df["bot"].to_numpy(dtype=float)
    o = _truth(df["bluff"])
    scored = ~np.isnan(p) & ~np.isnan(o)
    both = scored & ~np.isnan(bot)
    decided = ~df["trivial"].to_numpy(dtype=bool)
    # One row per (answer, theme), as pandas' explode then dropping rows without a theme
    # would make, kept as two arrays of numbers: the counts and sums are then numpy's, and
    # only the means (compensated sums) are pandas'.
    answer_of: list[int] = []
    theme_of: list[int] = []
    number: dict[object, int] = {}  # theme -> its number, in the order themes first come
    for i, t in enumerate(df["themes"].tolist()):
        listed = [x for x in t.split("|") if x] if isinstance(t, str) else t
        for x in listed if isinstance(listed, (list, tuple, np.ndarray)) else [listed]:
            if not pd.isna(x):
                answer_of.append(i)
                theme_of.append(number.setdefault(x, len(number)))
    if not answer_of:
        return _empty_theme_table()
    rows, codes = np.array(answer_of, dtype=np.intp), np.array(theme_of, dtype=np.intp)
    themes, k = list(number), len(number)

    def total(flags: np.ndarray) -> np.ndarray:
        return np.bincount(codes, weights=flags[rows], minlength=k).astype(np.int64)

    means = pd.DataFrame({
        "sq": np.where(scored, (p - o) ** 2, np.nan)[rows],
        "bot_sq": np.where(both, (bot - o) ** 2, np.nan)[rows],
        "lost": np.where(decided, df["lost_pp"].to_numpy(dtype=float), np.nan)[rows],
    }).groupby(codes, sort=False).mean()
    n = np.bincount(codes, minlength=k).astype(np.int64)
    bluffs, honest = total(scored & (o == 1)), total(scored & (o == 0))
    # Most answers first, then by name, as a stable sort of the themes in first-seen order.
    order = sorted(range(k), key=lambda j: (-int(n[j]), str(themes[j])))
    return pd.DataFrame({
        "theme": [themes[j] for j in order],
        "n": n[order],
        "scored": total(scored)[order],
        "bluffs": bluffs[order],
        "honest": honest[order],
        "brier": means["sq"].to_numpy()[order],
        "bot_brier": means["bot_sq"].to_numpy()[order],
        "mean_lost": means["lost"].to_numpy()[order],
        "unclear": ((bluffs < unclear) | (honest < unclear))[order],
    })


def _empty_theme_table() -> pd.DataFrame:
    dtypes = {"theme": str, "n": int, "scored": int, "bluffs": int, "honest": int,
              "brier": float, "bot_brier": float, "mean_lost": float, "unclear": bool}
    return pd.DataFrame({c: pd.Series(dtype=dtypes[c]) for c in PER_THEME_COLUMNS})


def first_last(df: pd.DataFrame, k: int = 30) -> pd.DataFrame | None:
    """The learner's own before/after: the first k answers against the latest k.

    Training effects are modest (Brier 6–11% better after an hour, Chang et al. 2016), so the
    comparison is only offered when the two windows do not share an answer: fewer than 2k
    answers gives None rather than a difference partly made of the same items. The rows are
    indexed by their label ("first 30", "latest 30") and carry it in `window` too.
    """
    if k <= 0 or len(df) < 2 * k:
        return None
    # The windows as slices of the columns, not of the table: the same values, without two
    # sub-tables to make.
    p_all, o_all = df["stated"].to_numpy(dtype=float), _truth(df["bluff"])
    lost_all = df["lost_pp"].to_numpy(dtype=float)
    decided = ~df["trivial"].astype(bool).to_numpy()
    labels, rows = [f"first {k}", f"latest {k}"], []
    for part in (slice(0, k), slice(len(df) - k, len(df))):
        keep = ~np.isnan(p_all[part]) & ~np.isnan(o_all[part])
        p, o = p_all[part][keep], o_all[part][keep]
        lost = lost_all[part][decided[part]]
        rows.append((int(p.size),
                     brier(p, o) if p.size else np.nan,
                     log_score(p, o) if p.size else np.nan,
                     _nan(overconfidence(p, o)),
                     float(lost.mean()) if lost.size else np.nan))
    n_scored, bs, log, over, rate = (list(column) for column in zip(*rows, strict=True))
    return pd.DataFrame({
        "window": labels, "n": [k, k], "n_scored": n_scored,
        "brier": np.array(bs, dtype=float), "log_score": np.array(log, dtype=float),
        "overconfidence": np.array(over, dtype=float), "error_rate": np.array(rate, dtype=float),
    }, index=pd.Index(labels))


def _nan(x: float | None) -> float:
    return np.nan if x is None else x


@dataclass(frozen=True)
class Report:
    """Every table of the calibration page, computed together from one learner's answers, so
    a page can cache them as one value until the next answer."""

    df: pd.DataFrame
    summary: Summary
    reliability: pd.DataFrame  # the learner's bins, then the bot's on the same items
    over_time: pd.DataFrame
    themes: pd.DataFrame
    first_last: pd.DataFrame | None


def report(answers: Iterable[Answer]) -> Report:
    df = frame(answers)
    return Report(
        df=df, summary=summary(df),
        reliability=pd.concat([reliability(df, "stated"), reliability(df, "bot")],
                              ignore_index=True),
        over_time=over_time(df), themes=per_theme(df), first_last=first_last(df),
    )


def in_bin(df: pd.DataFrame, column: str, k: int, bins: int = 10) -> pd.DataFrame:
    """The scored answers behind one point of the reliability chart: those whose `column`
    ("stated" or "bot") falls in bin `k` of `bins` (the last bin includes 100%)."""
    p = df[column]
    lo, hi = k / bins, (k + 1) / bins
    return df[p.notna() & df["bluff"].notna() & (p >= lo)
              & ((p < hi) | ((k == bins - 1) & (p <= 1)))]
