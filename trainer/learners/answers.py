"""The answer record, as the learners' store, history and CSV read it.

The record itself lives with the verdict that fills it (`trainer.verdicts.answers`): one type
for every feature. This module keeps the names the store and its callers have always used.
"""

from trainer.verdicts.answers import COLUMNS, Answer, describe_error, now, record
from trainer.verdicts.grades import GRADE_BOUNDS, Grade, grade_for
from trainer.verdicts.kinds import DecisionKind as Kind

__all__ = ["COLUMNS", "GRADE_BOUNDS", "Answer", "Grade", "Kind", "describe_error", "grade_for",
           "now", "record"]
