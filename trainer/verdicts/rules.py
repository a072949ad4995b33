"""The verdict on a rules question: right or wrong, never a grade.

A rules question ("You start your turn with 10 coins." — Coup, Income or Tax?) is settled by
the rules of the game, not by what a move is worth: its right answer is the lesson's own move,
and every other option is wrong for a reason the lesson file states. A *grade* (best … blunder,
`trainer.verdicts.grades`) means something else: the percentage points of the chance to win a
choice gave up against the best option. No valuation stands behind a rules question, so it has
no points lost and no grade. Storing a right answer as "best" and a wrong one as "blunder"
would make every page that reads grades say false things: the room's "Grades of the moves"
chart, a phone's grade words ("Blunder") and the leaderboard's "100 minus the win-% points the
move lost" would all read a rules slip as a loss of more than 15 points of winning chance. So
a room stores a rules answer with its own field, `correct`, and leaves the grade and the
points lost empty (`trainer/database/migrations/versions/r0003_rules_answers.py`).

Why the check is made here and not by the page that shows the buttons: every feature takes its
verdicts from this package, so a rules answer is judged once, the same way for the room's
store, its results and any page that shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class RulesAnswerError(ValueError):
    """An answer that is not one of the question's options, or a question without exactly
    one right option."""


@dataclass(frozen=True)
class RulesVerdict:
    """What was chosen, the right option, and whether they are the same."""

    chosen: str
    right: str

    @property
    def correct(self) -> bool:
        return self.chosen == self.right


def judge_rules(chosen: str, options: Sequence[str], right: str) -> RulesVerdict:
    """The verdict on choosing `chosen` among `options` (each an option's stable name, e.g. the
    move as the engine writes it), where `right` is the one the rules allow or call for.
    RulesAnswerError when `chosen` or `right` is not one of the options, or an option is
    listed twice (then "which one was chosen" would be ambiguous)."""
    if len(set(options)) != len(options):
        raise RulesAnswerError(f"the options repeat one another: {list(options)!r}")
    if right not in options:
        raise RulesAnswerError(f"the right answer {right!r} is not one of the options")
    if chosen not in options:
        raise RulesAnswerError(f"{chosen!r} is not one of this question's options")
    return RulesVerdict(chosen=chosen, right=right)
