"""The behavioural posterior: what a player's decisions say about their hand.

A claim is evidence. Under a behaviour model — a mixture of personas with prior weights — the
probability of an opponent's hand x after their decisions d is

    P(x | h) ∝ P_count(x) · Σ_t w_t Π_d π_t(d | x, public state at d)

(`estimates-math.md`). The observer keeps, for each opponent and each persona, the product of
π_t over that opponent's decisions since their hand last changed, as a weight per possible
hand: `Belief.observe` is called with the observer's own observation just before each public
decision is applied, which holds exactly the public state the deciding player saw. A proof's
replacement, an exchange or a forced swap starts the opponent's evidence afresh; a lost card
carries the evidence over to the remaining hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement

from trainer.engine.cards import Character
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.estimates.counting import Hand, Likelihood
from trainer.estimates.knowledge import knowledge
from trainer.policies.personas import Persona

# The share of a decision the model leaves to chance: any legal move keeps some probability.
TREMBLE = 0.02


@dataclass(frozen=True)
class Component:
    """One persona of the behaviour model, with its prior weight."""

    name: str
    persona: Persona
    weight: float


def mixture(weights: Mapping[str, float]) -> list[Component]:
    """The behaviour model from persona weights; a persona that bluffs only in some games
    becomes two components (a bluffing game and an honest one)."""
    from trainer.policies.personas import personas

    table = personas()
    out = []
    total = sum(weights.values())
    for name, w in weights.items():
        p = table[name]
        if p.bluff_games < 1.0:
            honest = replace(p, bluff_games=1.0, bluffing=False)
            bluffing = replace(p, bluff_games=1.0, bluffing=True)
            out.append(Component(f"{name} (bluffing game)", bluffing,
                                 w / total * p.bluff_games))
            out.append(Component(f"{name} (honest game)", honest,
                                 w / total * (1 - p.bluff_games)))
        else:
            out.append(Component(name, p, w / total))
    return out


class Belief:
    """One observer's evidence about every opponent's hand, kept as the game goes."""

    def __init__(self, observer: int, components: list[Component], cards: tuple[Character,
                 ...]) -> None:
        self.observer = observer
        self.components = components
        self.cards = cards
        # evidence[j][t][hand] = Π over j's decisions of π_t(decision | hand)
        self.evidence: dict[int, list[dict[Hand, float]]] = {}
        self.decisions: dict[int, int] = {}

    def _hands(self, k: int) -> list[Hand]:
        return [tuple(sorted(h)) for h in combinations_with_replacement(self.cards, k)]

    def _reset(self, j: int) -> None:
        self.evidence.pop(j, None)
        self.decisions[j] = 0

    def observe(self, obs: Observation, move: Move) -> None:
        """`obs` is the observer's observation just before `move` (by the deciding player)."""
        j = move.player
        d = obs.pending
        if d is None or j == self.observer:
            return
        if move.kind in (MoveKind.KEEP, MoveKind.SHOW) and move.player == j:
            self._reset(j)  # the hand is replaced (exchange, proof)
            return
        if move.kind is MoveKind.CHOOSE and move.choice == "swap" and d.target is not None:
            self._reset(d.target)
            return
        if d.phase not in (Phase.ACTION, Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK,
                           Phase.CHALLENGE_CLAIM, Phase.BLOCK, Phase.CLAIM, Phase.LOSE):
            if move.kind is MoveKind.LOSE and move.character is not None:
                self._carry_loss(j, move.character)  # a conceded challenge
            return
        k = obs.seats[j].influence
        table = self.evidence.setdefault(j, [dict() for _ in self.components])
        updated = []
        # Each hand's view of the decision, built once for every persona of the model.
        views = [replace(obs, player=j, hand=hand, legal_moves=obs.legal_moves_for(hand))
                 for hand in self._hands(k)]
        for t, comp in enumerate(self.components):
            weights = dict(table[t])
            for view in views:
                hand, legal = view.hand, view.legal_moves
                p = comp.persona.policy(view).get(move, 0.0)
                # A tremble: people (and other bots) do what no persona would, now and then;
                # without it one such move would rule every hand out.
                p = (1 - TREMBLE) * p + TREMBLE / len(legal) if move in legal else p
                weights[hand] = weights.get(hand, 1.0) * p
            updated.append(weights)
        # A safety net: a move outside the public model for every hand says nothing about
        # the hand, and must not rule every hand out.
        if any(w > 0 for weights in updated for w in weights.values()):
            table[:] = updated
        self.decisions[j] = self.decisions.get(j, 0) + 1
        if move.kind is MoveKind.LOSE and move.character is not None:
            self._carry_loss(j, move.character)

    def _carry_loss(self, j: int, lost: Character) -> None:
        """After j turns `lost` face up, a hand y of the rest weighs what y + lost weighed."""
        for t, weights in enumerate(self.evidence.get(j, [])):
            carried: dict[Hand, float] = {}
            for hand, w in weights.items():
                if lost in hand:
                    rest = list(hand)
                    rest.remove(lost)
                    key = tuple(rest)
                    carried[key] = carried.get(key, 0.0) + w
            self.evidence[j][t] = carried

    def likelihood(self, j: int, known: tuple[Character, ...] = ()) -> Likelihood | None:
        """L_j(unknown part of the hand) = Σ_t w_t Π_d π_t(d | hand), or None without
        evidence."""
        table = self.evidence.get(j)
        if not table:
            return None
        comps = self.components

        def lk(unknown: Hand) -> float:
            hand = tuple(sorted(known + unknown))
            return sum(c.weight * table[t].get(hand, 1.0) for t, c in enumerate(comps))

        return lk


def p_holds(obs: Observation, belief: Belief | None, opponent: int, role: Character) -> float:
    """P(opponent holds a card proving `role`), from the observer's observation: the counting
    prior when `belief` is None, the behavioural posterior otherwise."""
    k = knowledge(obs)
    evidence = {}
    if belief is not None:
        for j in k.unknown_cards:
            lk = belief.likelihood(j, k.known_in_hand.get(j, ()))
            if lk is not None:
                evidence[j] = lk
    return k.p_holds(opponent, role, evidence)
