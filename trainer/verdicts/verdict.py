"""The grade of a chosen option: one function from a valuation and a choice to a verdict.

Why a range: a grade is only as good as the figures under it. When the values move with
something the evidence does not settle (how often the claimant bluffs), or when the loss is
no larger than the playouts' own noise, a single grade would claim more than is known. The
verdict then carries the kindest and the harshest grade it could be (`low`, `high`) and why
(`reason`), while `grade` stays the one grade that is saved and counted:
- the loss at the bot's own estimate, graded by the bands (`grades.grade_for`);
- but a loss no larger than `NOISE_FACTOR` standard errors cannot be told from the best: it
  counts as Good (Best within a point), never as a mistake the estimate cannot prove;
- and a solved end-game valued at two look-aheads (`horizons`) is graded on the smaller of
  the two losses: only what both look-aheads agree on counts (a settled end-game agrees on
  its best option, not always on how much a weaker one gives away);
- as is one solved twice as one game (`solves`) where the two solves value the option
  differently: a game can have many perfect ways to play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from trainer.verdicts.grades import SOUND, Grade, grade_for, rank
from trainer.verdicts.valuation import Doubt, Horizons, Solves, Valuation

NOISE_FACTOR = 2.0  # a loss within this many standard errors of zero is not proven
Reason = Literal["doubt", "noise", "horizon", "solves"]


@dataclass(frozen=True)
class Verdict:
    """A chosen option judged against the best one."""

    chosen: str
    best: str
    lost_pp: float
    noise_pp: float
    grade: Grade  # the grade saved and counted
    low: Grade  # the kindest grade the evidence allows
    high: Grade  # the harshest
    reason: Reason | None = None  # why a range: the claimant's doubt, or the playouts' noise
    trivial: bool = False
    within_noise: bool = False
    solved: bool = False
    doubt: Doubt | None = None
    lost_range: tuple[float, float] | None = None  # points lost at the doubt's two ends
    rarely: Grade | None = None  # the grade if the claimant rarely bluffs
    often: Grade | None = None  # and if they often do
    horizons: Horizons | None = None  # a solved end-game's two look-aheads
    shorter: Grade | None = None  # the grade at the shorter look-ahead
    longer: Grade | None = None  # and at the longer
    # a second solve of the same game that grades it otherwise (with `horizons`: that made
    # its look-ahead's grade the kinder one)
    solves: Solves | None = None
    other_solve: Grade | None = None  # the grade in that solve
    this_solve: Grade | None = None  # and in this one

    @property
    def indistinct(self) -> bool:
        """The chosen option cannot be told from the best by these figures: its loss, however
        small, is within the playouts' noise (never so for a solved value)."""
        return not self.solved and self.lost_pp <= NOISE_FACTOR * self.noise_pp

    @property
    def is_range(self) -> bool:
        return self.low != self.high

    @property
    def sound(self) -> bool:
        """Right at every end of the range: best or good however the doubt falls."""
        return self.high in SOUND

    @property
    def unsound(self) -> bool:
        """Wrong at every end of the range: a mistake or a blunder however the doubt falls."""
        return rank(self.low) >= rank("mistake")


def judge(valuation: Valuation, chosen: str) -> Verdict:
    """The verdict on `chosen` (an option's label; KeyError naming the options if it is not
    one)."""
    lost = round(valuation.lost_pp(chosen), 2)
    noise = round(valuation.noise_pp(chosen), 2)
    solved = valuation.source.kind == "solved"
    within = not solved and lost > 1.0 and lost <= NOISE_FACTOR * noise
    grade: Grade = ("best" if lost <= 1.0 else "good") if within else grade_for(lost)
    low = high = grade
    reason: Reason | None = None
    ends = valuation.doubt.lost_pp(chosen) if valuation.doubt is not None else None
    rarely = often = None
    if ends is not None:
        rarely, often = grade_for(ends[0]), grade_for(ends[1])
        if rarely != often:
            low, high = sorted((rarely, often), key=rank)
            low, high = min(low, grade, key=rank), max(high, grade, key=rank)
            reason = "doubt"
    if reason is None and within and grade_for(lost) != grade:
        low, high, reason = grade, grade_for(lost), "noise"
    shorter = longer = None
    both = (valuation.horizons.lost_pp(chosen, valuation.values)
            if valuation.horizons is not None and reason is None else None)
    two = (valuation.solves.lost_pp(chosen, valuation.values)
           if valuation.solves is not None and reason is None else None)
    folded = False
    if both is not None and two is not None and grade_for(both[0]) != grade_for(both[1]):
        # The look-aheads disagree, and a second solve at this one's look-ahead is a reading
        # of it as good as this solve: that look-ahead says the smaller loss of the two.
        folded = grade_for(min(both[1], two[0])) != grade_for(both[1])
        both = (both[0], min(both[1], two[0]))
    if both is not None:
        # only the loss both look-aheads agree on is graded (and saved)
        shorter, longer = grade_for(both[0]), grade_for(both[1])
        lost = round(min(both), 2)
        grade = min(shorter, longer, key=rank)
        low, high = grade, max(shorter, longer, key=rank)
        ends = both
        if low != high:
            reason = "horizon"
    # A second solve of the same game (when the look-aheads agree on a grade): only the
    # loss both solves agree on is graded (and saved).
    other_solve = this_solve = None
    if two is not None and reason is None and grade_for(two[0]) != grade_for(two[1]):
        other_solve, this_solve = grade_for(two[0]), grade_for(two[1])
        lost = round(min(lost, two[0]), 2)
        ends = (lost, max(two))
        grade = min(other_solve, this_solve, grade, key=rank)
        low, high = grade, max(other_solve, this_solve, key=rank)
        reason = "solves"
    return Verdict(chosen=chosen, best=valuation.best.label, lost_pp=lost, noise_pp=noise,
                   grade=grade, low=low, high=high, reason=reason, trivial=valuation.trivial,
                   within_noise=within, solved=solved, doubt=valuation.doubt,
                   lost_range=None if ends is None else (min(ends), max(ends)),
                   rarely=rarely if reason == "doubt" else None,
                   often=often if reason == "doubt" else None,
                   horizons=valuation.horizons if both is not None else None,
                   shorter=shorter, longer=longer,
                   solves=valuation.solves if reason == "solves" or folded else None,
                   other_solve=other_solve, this_solve=this_solve)
