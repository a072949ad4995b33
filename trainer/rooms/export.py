"""A room's results as a teacher keeps them: one row per person, one row per question asked,
and the CSV text of either.

Why here and not in the remote: the rows are read from the store's answers (their grades and
right/wrong marks as the verdict layer made them), so the two files, the printed report and
the tests all count the same way; the remote only offers the files. Why the rows carry only
the names shown in the room: in an anonymous room (the default) those are the generated
animal names, and nothing that identifies a browser (a seat token, a learner id, a browser's
hash) is ever written out. Why every text cell goes through `csvsafe.neutral`: the files are
opened in spreadsheets, and a name typed as `=HYPERLINK(...)` must stay text there.

People the host removed from the room are left out of both files, their answers too, so the
per-question counts add up to the per-person ones.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from trainer.i18n import N_, tr
from trainer.learners.csvsafe import neutral
from trainer.rooms.model import Room, RoomAnswer
from trainer.rooms.results import standings
from trainer.verdicts.grades import GRADES
from trainer.verdicts.words import grade_word

GONE = N_("(no longer in its question bank or lesson file)")
Cell = str | int | float | None
Row = dict[str, Cell]


@dataclass(frozen=True)
class QuestionInfo:
    """A question as the class was asked it: its words, the right (or best) answer, whether
    it is a rules question (right or wrong) or a decision (graded), and the words each stored
    option was shown as on the phones (a rules room stores the engine's move)."""

    text: str
    right: str
    rules: bool
    labels: Mapping[str, str] = field(default_factory=dict)

    def shown(self, stored: str) -> str:
        return self.labels.get(stored, stored)


def gone(item_id: str, rules: bool) -> QuestionInfo:
    """A question whose bank item or lesson step is gone: named by its id, said plainly."""
    return QuestionInfo(text=f"{item_id} {tr(GONE)}", right="", rules=rules)


@dataclass(frozen=True)
class QuestionResult:
    """How the class did on one question asked (people removed left out)."""

    number: int  # 1-based
    info: QuestionInfo
    answered: int
    right: int | None  # rules questions: answers right
    grades: Mapping[str, int] | None  # decisions: answers per grade, best first
    mean_lost: float | None  # decisions: mean win-% points lost

    @property
    def share_right(self) -> float | None:
        """Rules questions: the share answered right. Decisions: the share graded best (the
        best move, or one within a point of it), as the store graded them."""
        if not self.answered:
            return None
        if self.right is not None:
            return self.right / self.answered
        return (self.grades or {}).get("best", 0) / self.answered


def _asked(room: Room, answers: Iterable[RoomAnswer], names: Mapping[str, str]
           ) -> list[RoomAnswer]:
    return [a for a in answers if a.question < room.asked and a.seat in names]


def _is_rules(info: QuestionInfo | None, answers: Sequence[RoomAnswer]) -> bool:
    if info is not None:
        return info.rules
    return any(a.correct is not None for a in answers)


def question_results(room: Room, answers: Iterable[RoomAnswer], names: Mapping[str, str],
                     infos: Mapping[int, QuestionInfo]) -> list[QuestionResult]:
    """One result per question asked, in the order asked."""
    kept = _asked(room, answers, names)
    out = []
    for q in range(room.asked):
        mine = [a for a in kept if a.question == q]
        rules = _is_rules(infos.get(q), mine)
        info = infos.get(q) or gone(room.questions[q], rules)
        if rules:
            out.append(QuestionResult(q + 1, info, len(mine),
                                      sum(bool(a.correct) for a in mine), None, None))
            continue
        grades: dict[str, int] = {g: sum(a.grade == g for a in mine) for g in GRADES}
        lost = [a.lost_pp for a in mine if a.lost_pp is not None]
        out.append(QuestionResult(q + 1, info, len(mine), None, grades,
                                  sum(lost) / len(lost) if lost else None))
    return out


def hardest(results: Sequence[QuestionResult], top: int = 5) -> list[QuestionResult]:
    """The questions the class found hardest: lowest share right first, then the most win-%
    points lost; questions nobody answered say nothing and are left out."""
    answered = [r for r in results if r.answered]
    return sorted(answered, key=lambda r: (r.share_right or 0.0, -(r.mean_lost or 0.0),
                                           r.number))[:top]


def _pct(x: float | None) -> int | None:
    return None if x is None else round(100 * x)


# The files' columns are in the language of the host who downloads them (a teacher reads
# them in a spreadsheet), as are their words; the English is each column's key in the code.
def _col(name: str) -> str:
    return tr(name)


def _q(n: int, what: str) -> str:
    """A question's own column: "Q3 answer", "Q3 result", "Q3 chance of a bluff (%)"."""
    return {"answer": tr("Q{number} answer", number=n),
            "result": tr("Q{number} result", number=n),
            "chance": tr("Q{number} chance of a bluff (%)", number=n)}[what]


def question_header(results: Sequence[QuestionResult]) -> list[str]:
    return [_col(N_("Question")), _col(N_("Question text")), _col(N_("Kind")),
            _col(N_("Right answer")), _col(N_("Answered")), _col(N_("Right")),
            *(grade_word(g) for g in GRADES), _col(N_("Share right (%)")),
            _col(N_("Mean win-% points lost"))]


def question_rows(results: Sequence[QuestionResult]) -> list[Row]:
    """The per-question file: one row per question asked."""
    rows: list[Row] = []
    for r in results:
        row: Row = {_col("Question"): r.number, _col("Question text"): r.info.text,
                    _col("Kind"): tr("rules (right or wrong)") if r.info.rules
                    else tr("decision (graded)"),
                    _col("Right answer"): r.info.shown(r.info.right),
                    _col("Answered"): r.answered, _col("Right"): r.right}
        for g in GRADES:
            row[grade_word(g)] = None if r.grades is None else r.grades[g]
        row[_col("Share right (%)")] = _pct(r.share_right)
        row[_col("Mean win-% points lost")] = \
            None if r.mean_lost is None else round(r.mean_lost, 1)
        rows.append(row)
    return rows


def student_header(results: Sequence[QuestionResult]) -> list[str]:
    out = [_col(N_("Name"))]
    for r in results:
        out += [_q(r.number, "answer"), _q(r.number, "result")]
        if not r.info.rules:
            out.append(_q(r.number, "chance"))
    return out + [_col(N_("Answered")), _col(N_("Right")), _col(N_("Best moves")),
                  _col(N_("Points"))]


def student_rows(room: Room, answers: Iterable[RoomAnswer], names: Mapping[str, str],
                 results: Sequence[QuestionResult]) -> list[Row]:
    """The per-person file: one row per person in the room (by name, A to Z), each question
    asked as their answer and its result (right or wrong, or the grade), the chance of a
    bluff they gave, and their totals: answered, right (rules questions), best moves
    (decisions graded best) and the points the leaderboard counts."""
    kept = _asked(room, answers, names)
    mine = {(a.seat, a.question): a for a in kept}
    points = {s.seat: s.total for s in standings(kept, names)}
    rows: list[Row] = []
    for seat, name in sorted(names.items(), key=lambda kv: (kv[1].casefold(), kv[1])):
        row: Row = {_col("Name"): name}
        right = best = answered = 0
        for r in results:
            a = mine.get((seat, r.number - 1))
            n = r.number
            if a is None:
                row[_q(n, "answer")], row[_q(n, "result")] = None, tr("not answered")
            else:
                answered += 1
                row[_q(n, "answer")] = r.info.shown(a.action)
                if a.correct is not None:
                    row[_q(n, "result")] = tr("right") if a.correct else tr("wrong")
                    right += a.correct
                else:
                    row[_q(n, "result")] = grade_word(a.grade)
                    best += a.grade == "best"
            if not r.info.rules:
                row[_q(n, "chance")] = \
                    None if a is None or a.stated is None else _pct(a.stated)
        row.update({_col("Answered"): answered, _col("Right"): right,
                    _col("Best moves"): best, _col("Points"): round(points.get(seat, 0.0))})
        rows.append(row)
    return rows


def _cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return neutral(value)
    return str(value)


def csv_text(header: Sequence[str], rows: Iterable[Mapping[str, Cell]]) -> str:
    """The rows as CSV, every text cell as a spreadsheet shows it (never run as a formula)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([neutral(h) for h in header])
    for row in rows:
        writer.writerow([_cell(row.get(h)) for h in header])
    return out.getvalue()


def claims_frame(room: Room, answers: Iterable[RoomAnswer], names: Mapping[str, str]
                 ) -> pd.DataFrame:
    """The class's judged claims as the calibration layer reads them (`stated`, `bot`,
    `bluff`), over the questions asked."""
    kept = _asked(room, answers, names)
    return pd.DataFrame({
        "stated": pd.Series([a.stated for a in kept], dtype=float),
        "bot": pd.Series([a.bot for a in kept], dtype=float),
        "bluff": pd.Series([a.bluff for a in kept], dtype=object),
    })
