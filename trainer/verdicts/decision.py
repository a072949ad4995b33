"""A decision: where it is, whose it is, what kind, and the options it offers.

Why a value of its own: a grade is about one decision, and every feature meets decisions in
its own form (a bank item, a move of a played game, a duel against perfect play). Naming the
decision once lets the verdict check that the option chosen was one on offer and say whose
decision it was, whatever the feature.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.engine.game import Game
from trainer.i18n import tr
from trainer.verdicts.kinds import DecisionKind
from trainer.verdicts.valuation import Valuation
from trainer.verdicts.verdict import Verdict, judge


class DecisionError(ValueError):
    """A choice or a valuation that does not fit the decision: what was expected."""


@dataclass(frozen=True)
class Decision:
    """One decision of `viewer`'s. `position` is the game at the decision when the caller has
    it (a bank item is graded from its stored figures without rebuilding its game)."""

    position: Game | None
    viewer: int
    kind: DecisionKind
    options: tuple[str, ...]

    def judge(self, valuation: Valuation, chosen: str) -> Verdict:
        """The verdict on `chosen`, checked against the options on offer."""
        if chosen not in self.options:
            raise DecisionError(tr("action: {chosen} is not an answer to this decision; "
                                   "expected one of {options}", chosen=repr(chosen),
                                   options=", ".join(repr(x) for x in self.options)))
        missing = [x for x in self.options if x not in valuation.labels]
        if missing:
            raise DecisionError(tr("valuation: no value for {options}",
                                   options=", ".join(repr(x) for x in missing)))
        return judge(valuation, chosen)
