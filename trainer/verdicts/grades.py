"""The grades of a decision, by the win chance it gives away against the best option.

Bands as Lichess grades moves by lost winning chances, in percentage points of the chance to
win: best ≤ 1, good ≤ 5, inaccuracy ≤ 10, mistake ≤ 15, blunder beyond.
"""

from __future__ import annotations

from typing import Literal, get_args

from trainer.i18n import tr

# The order matters: best first, and the CSV export writes a grade as this text.
Grade = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
GRADES: tuple[Grade, ...] = get_args(Grade)

# Grades by win-% lost against the best option, in percentage points (upper bounds).
GRADE_BOUNDS: tuple[tuple[Grade, float], ...] = (
    ("best", 1.0), ("good", 5.0), ("inaccuracy", 10.0), ("mistake", 15.0),
)
# The grades that count as getting a decision right.
SOUND: tuple[Grade, ...] = ("best", "good")


def grade_for(lost_pp: float) -> Grade:
    """best ≤ 1, good ≤ 5, inaccuracy ≤ 10, mistake ≤ 15, blunder > 15 points lost."""
    for grade, bound in GRADE_BOUNDS:
        if lost_pp <= bound:
            return grade
    return "blunder"


def rank(grade: Grade) -> int:
    """0 for best up to 4 for blunder: which of two grades is the harsher."""
    return GRADES.index(grade)


def parse_grade(value: object) -> Grade:
    """A stored grade as a `Grade`; ValueError naming what was expected otherwise."""
    text = str(value).strip().lower()
    for grade in GRADES:
        if text == grade:
            return grade
    raise ValueError(tr("{field}: expected one of {choices} (got {value})", field="grade",
                        choices=", ".join(GRADES), value=repr(value)))
