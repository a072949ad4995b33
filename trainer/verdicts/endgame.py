"""End-game practice's decisions in the verdict layer's terms.

Why here and not in the page's view: a duel's decision is graded like any other (the solved
values of its options, one verdict function), so the practice view only words the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.endgame.practice import Graded
from trainer.engine.game import Phase
from trainer.verdicts.decision import Decision
from trainer.verdicts.kinds import DecisionKind
from trainer.verdicts.valuation import OptionValue, Source, Valuation
from trainer.verdicts.verdict import Verdict

PHASE_KINDS: dict[Phase, DecisionKind] = {
    Phase.ACTION: DecisionKind.BLUFF, Phase.BLOCK: DecisionKind.BLOCK,
    Phase.EXCHANGE: DecisionKind.KEEP,
    # a two-card duel's choice of card to lose (after a Coup or an Assassination, or
    # conceding a challenge)
    Phase.LOSE: DecisionKind.LOSE, Phase.PROVE_ACTION: DecisionKind.LOSE,
    Phase.PROVE_BLOCK: DecisionKind.LOSE,
}


def practice_kind(g: Graded) -> DecisionKind:
    """A duel decision's kind: the turn's action (bluffs included), a block, the cards kept,
    the card to lose, and otherwise a challenge (judging the opponent's claim)."""
    return PHASE_KINDS.get(g.phase, DecisionKind.CHALLENGE)


def practice_labels(g: Graded, labels: Sequence[str] | None = None) -> list[str]:
    """The options' labels (the buttons' words when given, in the offers' order, else
    "option 1", ...)."""
    return [labels[i] if labels is not None and i < len(labels) else f"option {i + 1}"
            for i in range(len(g.offers))]


def practice_decision(g: Graded, labels: Sequence[str] | None = None) -> tuple[Decision,
                                                                                 Valuation]:
    """The decision and its exact values: every offer's chance to win under perfect play."""
    names = practice_labels(g, labels)
    valuation = Valuation(tuple(OptionValue(n, o.value) for n, o in zip(names, g.offers,
                                                                          strict=True)),
                          Source("solved"))
    return Decision(None, 0, practice_kind(g), tuple(names)), valuation


def practice_verdict(g: Graded, labels: Sequence[str] | None = None) -> Verdict:
    """The verdict on the offer the learner chose."""
    decision, valuation = practice_decision(g, labels)
    return decision.judge(valuation, decision.options[g.chosen])
