"""Verdicts: a decision, what its options are worth, the grade of the option chosen, and the
learner's answer record — modelled once, for the Quiz, the Play review and coach, End-game
practice, Rooms and the Kiosk alike (see the glossary in docs/architecture.md)."""

from trainer.verdicts.answers import COLUMNS, Answer, describe_error, now, record
from trainer.verdicts.decision import Decision, DecisionError
from trainer.verdicts.grades import GRADE_BOUNDS, GRADES, SOUND, Grade, grade_for, parse_grade
from trainer.verdicts.kinds import ANSWER_KINDS, DecisionKind, parse_kind
from trainer.verdicts.valuation import Doubt, Horizons, OptionValue, Solves, Source, Valuation
from trainer.verdicts.verdict import NOISE_FACTOR, Verdict, judge

__all__ = [
    "ANSWER_KINDS", "COLUMNS", "GRADES", "GRADE_BOUNDS", "NOISE_FACTOR", "SOUND", "Answer",
    "Decision", "DecisionError", "DecisionKind", "Doubt", "Grade", "Horizons", "OptionValue",
    "Solves", "Source",
    "Valuation", "Verdict", "describe_error", "grade_for", "judge", "now", "parse_grade",
    "parse_kind", "record",
]
