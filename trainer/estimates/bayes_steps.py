"""The bot's estimate of a claim, one event at a time: Bayes made visible.

Why: a learner graded against "the bot says 3%" should be able to follow how it got there with
a calculator. The posterior of `trainer.estimates.posterior` multiplies, per possible hand, the
probability of every decision an opponent made; that product can be told as a sequence:

    prior odds × LR_1 × LR_2 × … × LR_T = posterior odds

where the prior is card counting alone and LR_t = P(move_t | the claimant holds the card,
everything before) / P(move_t | they do not). Each LR_t is read off the model itself, as the
ratio of the posterior odds just after and just before the event is added to the evidence, so
the product telescopes exactly to the bot's own posterior.

All the odds are taken with what the observer can see at the decision (the visible cards of the
counting prior): event t is added to the evidence the model holds at the end, as it would stand
had events t+1… said nothing about any hand. That is, later hand changes still apply: a lost
card carries the evidence to the remaining card, and an exchange or a proof's replacement
wipes what the earlier moves said about the old hand, keeping only what they said about who
the player is (which kind of player they play like), so those moves' ratios carry that
alone. The model's own bookkeeping of those changes is recorded as it happens
(`TracedBelief`), never re-derived here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trainer.engine.cards import Character
from trainer.engine.moves import Move
from trainer.engine.observation import Observation
from trainer.estimates.counting import Hand
from trainer.estimates.posterior import Belief, Component, p_holds

# evidence[j][t][hand], as `Belief.evidence` keeps it
Evidence = dict[int, list[dict[Hand, float]]]
# kind[j][t], as `Belief.kind` keeps it
Kinds = dict[int, list[float]]


@dataclass(frozen=True)
class HandChange:
    """A change of hand the model made while observing: an evidence reset (with the
    observation it was judged from and the card proved, if any) or a lost card carried over."""

    kind: str  # "reset" or "carry"
    player: int
    card: Character | None = None  # the card shown (reset) or lost (carry)
    obs: Observation | None = None  # reset only


@dataclass(frozen=True)
class _Traced:
    """One observed move, the evidence right after it and the hand changes it caused."""

    obs: Observation
    move: Move
    evidence: Evidence
    kinds: Kinds
    changes: tuple[HandChange, ...]


def _copy(evidence: Evidence) -> Evidence:
    return {j: [dict(w) for w in tables] for j, tables in evidence.items()}


class TracedBelief(Belief):
    """A `Belief` that also keeps, after every move it observes, a copy of its evidence and the
    hand changes (an evidence reset, a lost card carried over) the move caused. It computes
    exactly what `Belief` computes: only the record is added."""

    def __init__(self, observer: int, components: list[Component],
                 cards: tuple[Character, ...]) -> None:
        super().__init__(observer, components, cards)
        self.trace: list[_Traced] = []
        self._changes: list[HandChange] | None = None

    def observe(self, obs: Observation, move: Move) -> None:
        self._changes = []
        try:
            super().observe(obs, move)
            self.trace.append(_Traced(obs, move, _copy(self.evidence),
                                      {j: list(k) for j, k in self.kind.items()},
                                      tuple(self._changes)))
        finally:
            self._changes = None

    def _reset(self, j: int, obs: Observation, shown: Character | None = None) -> None:
        super()._reset(j, obs, shown)
        if self._changes is not None:
            self._changes.append(HandChange("reset", j, shown, obs))

    def _carry_loss(self, j: int, lost: Character) -> None:
        super()._carry_loss(j, lost)
        if self._changes is not None:
            self._changes.append(HandChange("carry", j, lost))


@dataclass(frozen=True)
class BayesStep:
    """One line of the sequence: the counting prior (move None) or one observed move, with its
    likelihood ratio and the claimant's chances after it."""

    move: Move | None  # None: the counting prior, before any move is weighed
    turn: int  # the game turn the move was made in (0: before the first turn)
    events_before: int  # how many events the observer's log held when the move was decided
    lr: float | None  # P(move | holds, before) / P(move | not, before); None for the prior
    p_holds: float  # P(the claimant holds the claimed card) after this line
    odds: float  # the same as odds holds : not (math.inf when certain)

    @property
    def p_bluff(self) -> float:
        """P(the claim is a bluff) after this line."""
        return 1.0 - self.p_holds


def odds(p: float) -> float:
    """p : (1 − p) as one number; infinite at certainty."""
    return math.inf if p >= 1.0 else p / (1.0 - p)


def _ratio(after: float, before: float) -> float | None:
    """odds after / odds before, or None when the odds before are 0 or infinite (certainty
    cannot be moved by evidence, so no finite ratio describes the step)."""
    if before in (0.0, math.inf):
        return None if after != before else 1.0
    return after / before


def _turn(obs: Observation) -> int:
    return next((e.data["turn"] for e in reversed(obs.events) if e.kind == "turn"), 0)


def bayes_steps(belief: TracedBelief, obs: Observation, claimant: int,
                role: Character) -> list[BayesStep]:
    """The counting prior, then every move `belief` observed with its likelihood ratio for
    "`claimant` holds a `role`" and the chance after it, all judged with `obs` (the observer's
    observation at the decision). The last line's `p_holds` is `p_holds(obs, belief, ...)`,
    the bot's posterior, bit for bit; moves that changed nothing have LR = 1."""
    trace = belief.trace
    scratch = Belief(belief.observer, belief.components, belief.cards)

    def chance(t: int) -> float:
        """P(holds) with the first t moves' evidence, later hand changes still applied."""
        scratch.evidence = _copy(trace[t - 1].evidence) if t else {}
        scratch.kind = {j: list(k) for j, k in trace[t - 1].kinds.items()} if t else {}
        for traced in trace[t:]:
            for change in traced.changes:
                if change.kind == "reset" and change.obs is not None:
                    scratch._reset(change.player, change.obs, change.card)
                elif change.card is not None:
                    scratch._carry_loss(change.player, change.card)
        return p_holds(obs, scratch if scratch.evidence else None, claimant, role)

    prior = chance(0)
    steps = [BayesStep(None, 0, 0, None, prior, odds(prior))]
    p = prior
    for t, traced in enumerate(trace, start=1):
        before = trace[t - 2].evidence if t > 1 else {}
        kinds_before = trace[t - 2].kinds if t > 1 else {}
        same = (not traced.changes and traced.evidence == before
                and traced.kinds == kinds_before)
        after = p if same else chance(t)
        steps.append(BayesStep(traced.move, _turn(traced.obs), len(traced.obs.events),
                               1.0 if same else _ratio(odds(after), odds(p)), after,
                               odds(after)))
        p = after
    return steps
