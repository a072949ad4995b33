"""Players unlike the personas the estimates assume, to measure the estimates off the model.

Why these three: the behavioural posterior is a mixture of Honest, Rule bot, Bluffer and
Skeptic, and its calibration measured on games of that same mixture says nothing about a
player it does not describe. Each stranger breaks the model in a different way:

- Random: every legal move alike (the `random` persona, which is not in the mixture). Its
  claims carry no information about its hand, yet the model reads them as evidence.
- Plain honest: never claims a character it does not hold and never challenges, like Honest,
  but chooses *which* honest action uniformly (it steals or takes foreign aid while holding the
  Duke, where every persona would tax), blocks only half the times it truthfully can, keeps
  cards after an exchange at random and loses its *most* valuable card first. The personas
  lose their least valuable card, so a lost card misleads the model about the one left.
- Heavy bluffer: the Bluffer's policy with a 90% bluff rate (the Bluffer bluffs 60%).
"""

from __future__ import annotations

import random

from trainer.engine.cards import Action, Character
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.engine.variants import get_variant
from trainer.policies.personas import Persona, personas, sample, value

# The Plain honest player's chance of blocking when it holds the blocking card.
PLAIN_BLOCK = 0.5
# The Heavy bluffer's bluff rate (the Bluffer persona's is 0.6).
HEAVY_BLUFF = 0.9


class PlainHonest:
    """Never bluffs and never challenges, but otherwise unlike the Honest persona (see the
    module's docstring); a stochastic policy over the observation, like a persona."""

    name = "Plain honest"

    def new_game(self, rng: random.Random) -> None:
        """Nothing is drawn per game; present so a table can treat every seat alike."""

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        return sample(self.policy(obs), rng)

    def policy(self, obs: Observation) -> dict[Move, float]:
        legal = obs.legal_moves
        if not legal:
            raise ValueError("this observation has no decision to make")
        if len(legal) == 1:
            return {legal[0]: 1.0}
        d = obs.pending
        assert d is not None
        mine = {c.role for c in obs.hand} | set(obs.hand)
        if d.phase is Phase.ACTION:
            return self._action(obs, mine)
        passing = next((m for m in legal if m.kind is MoveKind.PASS), None)
        if passing is not None and any(m.kind is MoveKind.CHALLENGE for m in legal):
            return {passing: 1.0}
        if passing is not None:  # a block or an out-of-turn claim window
            true = [m for m in legal if m.kind in (MoveKind.BLOCK, MoveKind.CLAIM)
                    and m.character in mine]
            if not true:
                return {passing: 1.0}
            dist = {m: PLAIN_BLOCK / len(true) for m in true}
            dist[passing] = 1 - PLAIN_BLOCK
            return dist
        shows = [m for m in legal if m.kind is MoveKind.SHOW]
        if shows:
            return {shows[0]: 1.0}
        if legal[0].kind is MoveKind.LOSE:
            best = max((m for m in legal if m.character is not None),
                       key=lambda m: value(m.character))  # type: ignore[arg-type]
            return {best: 1.0}
        return {m: 1 / len(legal) for m in legal}

    def _action(self, obs: Observation, mine: set[Character]) -> dict[Move, float]:
        """Uniform over the honest actions, then over their targets."""
        variant = get_variant(obs.variant)
        claims = {s.action: s.claim for s in variant.actions}

        def honest(m: Move) -> bool:
            if m.action is Action.EMBEZZLE:
                return Character.DUKE not in mine
            claim = claims.get(m.action) if m.action is not None else None
            return claim is None or claim in mine

        truthful = [m for m in obs.legal_moves if honest(m)] or list(obs.legal_moves)
        by_action: dict[Action | None, list[Move]] = {}
        for m in truthful:
            by_action.setdefault(m.action, []).append(m)
        return {m: 1 / len(by_action) / len(group)
                for group in by_action.values() for m in group}


def heavy_bluffer() -> Persona:
    return Persona("Heavy bluffer", HEAVY_BLUFF, 0.1)


def strangers() -> dict[str, Persona | PlainHonest]:
    """Fresh instances of every off-model player, by name (one instance per seat: a player
    may keep a game's state)."""
    return {"random": personas()["random"], "plain-honest": PlainHonest(),
            "heavy-bluffer": heavy_bluffer()}
