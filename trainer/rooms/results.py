"""What the screen shows of a room's answers: live counts, the reveal, the end, the ranking.

Why a proper scoring rule: a class learns calibration only if honest beliefs score best. The
ranking adds, per question, the log score of the stated chance of a bluff (the Calibration
page's: 100 · (1 + log2 p(what happened)), so 50% scores 0, a confident hit ~100 and a
confident miss down to −564) and 100 minus the win-% points the chosen move lost (the Quiz's
grade measure). Speed never counts: teachers find speed points reward guessing. A rules
question ("Check yourself") has neither: it is right or wrong (`trainer.verdicts.rules`), and
scores RULES_POINTS when right, nothing when wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from trainer.quiz.scoring import LOG_CLAMP, brier, log_score, reliability
from trainer.rooms.model import RoomAnswer
from trainer.verdicts.grades import GRADES, Grade

BIN_EDGES = tuple(range(0, 101, 10))
POOR: tuple[Grade, ...] = ("inaccuracy", "mistake", "blunder")
# A rules question answered right scores as a decision without any loss does.
RULES_POINTS = 100.0


def belief_points(stated: float | None, bluff: bool | None) -> float:
    """The log score of one stated chance of a bluff; 0 (as for 50%) with none to score."""
    if stated is None or bluff is None:
        return 0.0
    p = float(np.clip(stated, *LOG_CLAMP))
    return float(100 * (1 + np.log2(p if bluff else 1 - p)))


def decision_points(lost_pp: float) -> float:
    return 100.0 - min(100.0, max(0.0, lost_pp))


def answer_points(a: RoomAnswer) -> float:
    """One answer's points: belief plus move points for a decision, RULES_POINTS for a rules
    question answered right, 0 for one answered wrong."""
    if a.correct is not None:
        return RULES_POINTS if a.correct else 0.0
    return belief_points(a.stated, a.bluff) + decision_points(a.lost_pp or 0.0)


def right_count(answers: Iterable[RoomAnswer]) -> tuple[int, int]:
    """(right, answered) over the answers to rules questions."""
    marked = [a.correct for a in answers if a.correct is not None]
    return sum(marked), len(marked)


def right_by_question(answers: Iterable[RoomAnswer]) -> dict[int, tuple[int, int]]:
    """Per question: (right, answered) over the answers to rules questions."""
    out: dict[int, tuple[int, int]] = {}
    for a in answers:
        if a.correct is None:
            continue
        right, total = out.get(a.question, (0, 0))
        out[a.question] = (right + a.correct, total + 1)
    return out


def stated_histogram(answers: Iterable[RoomAnswer]) -> pd.DataFrame:
    """How many said each tenth of the chance of a bluff (0–10%, …, 90–100%), every bin
    present so the chart's axis never jumps as answers arrive."""
    counts = Counter(min(9, int((a.stated or 0) * 10 + 1e-9))
                     for a in answers if a.stated is not None)
    return pd.DataFrame({
        "bin": list(range(10)),
        "label": [f"{lo}–{lo + 10}" for lo in BIN_EDGES[:-1]],
        "count": [counts.get(k, 0) for k in range(10)],
    })


def action_counts(answers: Iterable[RoomAnswer], options: Sequence[str]) -> pd.DataFrame:
    """How many chose each option, in the question's order, options nobody chose included."""
    counts = Counter(a.action for a in answers)
    return pd.DataFrame({"option": list(options),
                         "count": [counts.get(o, 0) for o in options]})


def grade_counts(answers: Iterable[RoomAnswer]) -> dict[str, int]:
    """How many answers got each grade (a rules answer has none and is not counted)."""
    counts = Counter(a.grade for a in answers if a.grade is not None)
    return {g: counts.get(g, 0) for g in GRADES}


def popular_wrong(answers: Iterable[RoomAnswer]) -> tuple[str, int] | None:
    """The poor move (an inaccuracy or worse) most people chose, and how many; None if none."""
    counts = Counter(a.action for a in answers if a.grade in POOR)
    if not counts:
        return None
    action, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return action, n


@dataclass(frozen=True)
class ClassScores:
    """The class against the bot on the claims both judged: Brier (0 best, 0.25 for always
    50%) and log score (higher is better, 0 for always 50%)."""

    n: int
    brier: float | None
    bot_brier: float | None
    log: float | None
    bot_log: float | None


def class_scores(answers: Sequence[RoomAnswer]) -> ClassScores:
    rows = [a for a in answers if a.stated is not None and a.bluff is not None]
    if not rows:
        return ClassScores(0, None, None, None, None)
    p = [float(a.stated or 0) for a in rows]
    o = [1.0 if a.bluff else 0.0 for a in rows]
    with_bot = [a for a in rows if a.bot is not None]
    pb = [float(a.bot or 0) for a in with_bot]
    ob = [1.0 if a.bluff else 0.0 for a in with_bot]
    return ClassScores(
        n=len(rows), brier=brier(p, o), log=log_score(p, o),
        bot_brier=brier(pb, ob) if with_bot else None,
        bot_log=log_score(pb, ob) if with_bot else None)


def reliability_table(answers: Sequence[RoomAnswer]) -> pd.DataFrame:
    """The class's reliability diagram and the bot's on the same claims (one row per
    non-empty bin and forecaster), for the Calibration page's chart."""
    df = pd.DataFrame({
        "stated": [a.stated for a in answers],
        "bot": [a.bot for a in answers],
        "bluff": pd.Series([a.bluff for a in answers], dtype=object),
    }, columns=["stated", "bot", "bluff"]).astype({"stated": float, "bot": float})
    you = reliability(df, "stated", small=5)
    bot = reliability(df, "bot", small=5)
    return pd.concat([you, bot], ignore_index=True)


@dataclass(frozen=True)
class Standing:
    seat: str
    name: str
    answered: int
    belief: float
    decision: float
    right: int = 0  # rules questions answered right

    @property
    def total(self) -> float:
        return self.belief + self.decision + RULES_POINTS * self.right


def standings(answers: Iterable[RoomAnswer], names: Mapping[str, str]) -> list[Standing]:
    """Everyone in `names` (seat → name), best total first; a question not answered scores
    0 (as saying 50% and choosing nothing would)."""
    belief: dict[str, float] = dict.fromkeys(names, 0.0)
    decision: dict[str, float] = dict.fromkeys(names, 0.0)
    answered: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for a in answers:
        if a.seat not in names:
            continue
        answered[a.seat] += 1
        if a.correct is not None:
            right[a.seat] += a.correct
            continue
        belief[a.seat] += belief_points(a.stated, a.bluff)
        decision[a.seat] += decision_points(a.lost_pp or 0.0)
    table = [Standing(s, n, answered[s], round(belief[s], 1), round(decision[s], 1),
                      right[s]) for s, n in names.items()]
    return sorted(table, key=lambda x: (-x.total, x.name))
