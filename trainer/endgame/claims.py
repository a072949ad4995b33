"""A claim under perfect play: how often it is a bluff, and when it is worth challenging.

Why these two figures: they are the whole of a challenge decision. The *bluff rate* is the
chance that the mover does not hold the claimed card, given that perfect play made the claim.
The *break-even belief* p* is the chance of a bluff at which the other player's challenge and
letting the claim stand win equally often (their values after each, played perfectly from
there, for a true claim and for a bluff). Challenge when you believe the bluff more likely than
p*. In equilibrium a challenger who mixes is exactly indifferent: there the bluff rate is p*.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trainer.endgame.hidden import DECISION, Solution
from trainer.engine.cards import Character
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import get_variant


@dataclass(frozen=True)
class ClaimFigures:
    """A root claim's figures: `bluff_rate` (None when perfect play never makes the claim),
    and the break-even belief for each card the other player may hold, with that card's
    chance; `p_star` is their chance-weighted average."""

    claim: Character
    bluff_rate: float | None
    # their card -> (its chance, the bluff rate they face holding it, their p*)
    by_card: dict[Character, tuple[float, float, float]]

    @property
    def p_star(self) -> float | None:
        if not self.by_card:
            return None
        total = sum(w for w, _, _ in self.by_card.values())
        return sum(w * p for w, _, p in self.by_card.values()) / total if total > 0 else None


def claimed(move: Move, variant: str = "base") -> Character | None:
    """The character an action claims (None for Income, Foreign Aid, a Coup)."""
    if move.kind is not MoveKind.ACT or move.action is None:
        return None
    spec = get_variant(variant).spec(move.action)
    return None if spec.inverted else spec.claim


def claim_figures(solution: Solution, move: Move) -> ClaimFigures | None:
    """The bluff rate and break-even belief of the mover's claim `move` at the root, or None
    when `move` claims nothing or cannot be challenged there."""
    tree, graph = solution.tree, solution.graph
    claim = claimed(move, graph.variant)
    if claim is None or tree.kind[0] != DECISION or move not in tree.moves[0]:
        return None
    p = solution.mover
    o = 1 - p
    node = tree.children[0][tree.moves[0].index(move)]
    if tree.kind[node] != DECISION or tree.decider[node] != o:
        return None
    kinds = [m.kind for m in tree.moves[node]]
    if MoveKind.CHALLENGE not in kinds or MoveKind.PASS not in kinds:
        return None
    chars = graph.characters
    x = chars.index(claim)
    sigma = list(solution.strategy)
    solver = solution.solver
    sp = solution.spaces.spaces[0]
    kids = [tree.children[node][kinds.index(k)] for k in (MoveKind.CHALLENGE, MoveKind.PASS)]
    f = solution.flows[o]
    n_other = len(sp.cards[o])
    # per card of the other player, per side of the claim (true, bluff): their value and
    # weight after challenging and after letting it stand
    per_card: dict[int, dict[bool, list[np.ndarray]]] = {}
    claims = np.zeros(2)  # weight of the claim being made: (true, bluff)
    seen = np.zeros((2, len(sp.cards[o])))  # the same, by the other player's card
    fp = solution.flows[p]
    for c in range(len(chars)):
        if sp.chance.sum(axis=1 - p)[c] <= 0:
            continue
        reach = solver.reach(sigma, only=(p, c))
        honest = c == x
        made = float(reach[p][int(fp.row_start[node]) + c])
        claims[0 if honest else 1] += made * sp.chance.sum(axis=1 - p)[c]
        seen[0 if honest else 1] += made * (sp.chance[c] if p == 0 else sp.chance[:, c])
        v = solver.values(reach, sigma, players=(o,))[o]
        w = solver.values(reach, sigma, players=(o,), weights=True)[o]
        for t in range(n_other):
            rows = [int(f.row_start[k]) + t for k in kids]
            entry = per_card.setdefault(t, {True: [np.zeros(2), np.zeros(2)],
                                            False: [np.zeros(2), np.zeros(2)]})
            entry[honest][0] += v[rows]
            entry[honest][1] += w[rows]
    total = claims.sum()
    rate = float(claims[1] / total) if total > 0 else None
    by_card: dict[Character, tuple[float, float, float]] = {}
    other_chance = sp.chance.sum(axis=p)
    for t, entry in per_card.items():
        (vt, wt), (vb, wb) = entry[True], entry[False]
        if wt.min() <= 0 or wb.min() <= 0:
            continue  # this card never meets one side of the claim
        true_ch, true_pass = vt / wt
        bluff_ch, bluff_pass = vb / wb
        # challenge pays (bluff_ch - bluff_pass) against a bluff, costs
        # (true_pass - true_ch) against a true claim
        gain, cost = bluff_ch - bluff_pass, true_pass - true_ch
        if gain + cost <= 0:
            continue
        card = chars[int(sp.cards[o][t])]
        faced = float(seen[1, t] / seen[:, t].sum())
        by_card[card] = (float(other_chance[t]), faced, float(cost / (gain + cost)))
    return ClaimFigures(claim, rate, by_card)
