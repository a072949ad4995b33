"""What a decision's options are worth: per option a win chance, its uncertainty, and where
the figure came from.

Why one type: the quiz values an item's options by playouts (or, for an End-game item, by the
exact solver), the review and the coach value a played game's decisions the same ways, and
End-game practice reads them from a solved duel. A grade needs only these numbers, so every
feature hands its figures over in this form and the grade is made once (`verdicts.verdict`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from trainer.i18n import tr, tr_n
from trainer.i18n.formats import number

SourceKind = Literal["solved", "playouts", "estimate"]


@dataclass(frozen=True)
class Source:
    """Where the win chances come from: solved exactly (perfect play), playouts against a
    model of how the others play (how many per option), or an estimate of another kind."""

    kind: SourceKind
    playouts: int | None = None
    model: str = ""  # whom the playouts play against, in words marked `N_`: "the bots"

    def words(self) -> str:
        """One plain sentence for the page."""
        if self.kind == "solved":
            return tr("Graded against perfect play: this end-game is solved exactly, with "
                      "every unseen card equally likely.")
        if self.kind == "playouts":
            # `model` is catalogued text (`N_`) where the caller marked it
            against = tr(self.model) if self.model else ""
            if self.playouts and against:
                return tr_n("Graded by playing each option out {count} time against {model}: "
                            "the win chances are estimates.",
                            "Graded by playing each option out {count} times against {model}: "
                            "the win chances are estimates.", self.playouts,
                            count=number(self.playouts), model=against)
            if self.playouts:
                return tr_n("Graded by playing each option out {count} time: the win chances "
                            "are estimates.",
                            "Graded by playing each option out {count} times: the win chances "
                            "are estimates.", self.playouts, count=number(self.playouts))
            if against:
                return tr("Graded by playing each option out many times against {model}: the "
                          "win chances are estimates.", model=against)
            return tr("Graded by playing each option out many times: the win chances are "
                      "estimates.")
        return tr("Graded by an estimate of each option's chance to win.")


@dataclass(frozen=True)
class OptionValue:
    """One option: the decider's chance to win after it (0–1), the standard error of that
    chance, and the standard error of its difference from the best option (paired playouts
    share their luck, so this is usually smaller)."""

    label: str
    win: float
    se: float = 0.0
    diff_se: float = 0.0


@dataclass(frozen=True)
class Doubt:
    """What the values depend on that the evidence does not settle: how often the claimant
    bluffs. `rarely` and `often` are each option's win chance at the low and the high end of
    the bot's range for the chance of a bluff (`low`–`high`); `moves_seen` is how many moves
    of the claimant's the estimate had to go on."""

    who: str
    low: float
    high: float
    rarely: Mapping[str, float] = field(default_factory=dict)
    often: Mapping[str, float] = field(default_factory=dict)
    moves_seen: int | None = None

    def lost_pp(self, label: str) -> tuple[float, float] | None:
        """Points `label` loses against the best option if the claimant rarely bluffs, and if
        they often do; None when the option's value does not move with the doubt's ends."""
        if label not in self.rarely or label not in self.often:
            return None
        return (100 * max(0.0, max(self.rarely.values()) - self.rarely[label]),
                100 * max(0.0, max(self.often.values()) - self.often[label]))


@dataclass(frozen=True)
class Horizons:
    """A solved end-game at two look-aheads: looking `shorter` turns ahead gave each option
    the win chance in `before`, looking `longer` turns ahead the valuation's own. Nobody knows
    which is right, so a grade holds only what both say. That holds for a settled position
    too (`trainer.endgame.settled`): it agrees on the best option and its value, not on how
    much every weaker option gives away."""

    shorter: int
    longer: int
    before: Mapping[str, float]
    # the two differ in the Exchanges a line may hold before the solver stops it, not in
    # turns (`shorter == longer`): `allowed` says how many, for the valuation's own values
    # and for `before` (one and two, or three and two for a stored position settled with two)
    exchanges: bool = False
    allowed: tuple[int, int] = (1, 2)

    def lost_pp(self, label: str, after: Mapping[str, float]) -> tuple[float, float] | None:
        """Points `label` loses against the best option at the shorter and at the longer
        look-ahead; None when the shorter one has no value for it."""
        if label not in self.before or label not in after:
            return None
        return (100 * max(0.0, max(self.before.values()) - self.before[label]),
                100 * max(0.0, max(after.values()) - after[label]))


@dataclass(frozen=True)
class Solves:
    """A solved end-game solved twice as two separate games that are one game (the duel of one
    card each with the face-up cards swapped: `trainer.endgame.hidden_tables.FACE_UP_INERT`):
    the other solve gave each option the win chance in `other`. A game can have many perfect
    ways to play, and what a weaker option is worth can differ between them, so a grade holds
    only what both solves say."""

    other: Mapping[str, float]

    def lost_pp(self, label: str, after: Mapping[str, float]) -> tuple[float, float] | None:
        """Points `label` loses against the best option in the other solve and in this one;
        None when the other solve has no value for it."""
        if label not in self.other or label not in after:
            return None
        return (100 * max(0.0, max(self.other.values()) - self.other[label]),
                100 * max(0.0, max(after.values()) - after[label]))


@dataclass(frozen=True)
class Valuation:
    """Every option of one decision, valued from the decider's seat."""

    options: tuple[OptionValue, ...]
    source: Source
    doubt: Doubt | None = None
    exploitability: float = 0.0  # of a solved value, in win probability
    horizons: Horizons | None = None  # a solved value at a second look-ahead
    solves: Solves | None = None  # a solved value with a second solve of the same game

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError("options: a valuation needs at least one option")

    @classmethod
    def solved(cls, values: Mapping[str, float], exploitability: float = 0.0,
               horizons: Horizons | None = None, solves: Solves | None = None) -> Valuation:
        """Exact values (win chance by option label) from the end-game solver; with
        `horizons`, the values of a second look-ahead; with `solves`, those of a second solve
        of the same game."""
        return cls(tuple(OptionValue(k, v) for k, v in values.items()), Source("solved"),
                   exploitability=exploitability, horizons=horizons, solves=solves)

    @property
    def values(self) -> dict[str, float]:
        return {o.label: o.win for o in self.options}

    @property
    def labels(self) -> Sequence[str]:
        return [o.label for o in self.options]

    @property
    def best(self) -> OptionValue:
        """The best option (the first of equals, in the options' order)."""
        return max(self.options, key=lambda o: o.win)

    def option(self, label: str) -> OptionValue:
        for o in self.options:
            if o.label == label:
                return o
        raise KeyError(f"{label!r} is not an option here; expected one of "
                       f"{', '.join(repr(x) for x in self.labels)}")

    def lost_pp(self, label: str) -> float:
        """Points of win chance `label` gives away against the best option."""
        return max(0.0, 100 * (self.best.win - self.option(label).win))

    def noise_pp(self, label: str) -> float:
        """The standard error of `label`'s points lost: the solver's exploitability for a
        solved value, the paired playouts' error otherwise."""
        if self.source.kind == "solved":
            return 100 * self.exploitability
        return 100 * self.option(label).diff_se

    @property
    def spread_pp(self) -> float:
        """How much the choice matters: best minus worst option, in points."""
        return 100 * (self.best.win - min(o.win for o in self.options))

    @property
    def trivial(self) -> bool:
        """Every option within a point of the best (or only one): left out of error rates,
        as GNU Backgammon leaves out forced and obvious moves."""
        return self.spread_pp <= 1.0
