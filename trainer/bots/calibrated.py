"""The Calibrated persona: it challenges when its posterior belief in a bluff exceeds the
break-even belief p*, and bluffs when the option values say so.

It keeps a `Belief` about every opponent, fed by `observe` with its own observation before
each move at the table (the game runner calls it), so it reasons from what it could have
seen and nothing else. p* and the bluff decision come from a few determinized rollouts; a
belief far from any sensible p* skips them. The rollouts play on a game the bot builds itself
from what it saw (`trainer.engine.information.world`): its observation at the start of the
turn, the turn's moves since, and its observation now. It is never handed the game.
"""

from __future__ import annotations

import dataclasses
import random

from trainer.engine.cards import Action
from trainer.engine.game import Game, Phase
from trainer.engine.information import world
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.estimates.posterior import Belief, Component, mixture, p_holds
from trainer.estimates.rollouts import option_values
from trainer.policies.personas import Persona

MODEL = {"honest": 1.0, "rule": 1.0, "bluffer": 1.0, "skeptic": 1.0}


class Calibrated(Persona):
    """The belief and the turn so far (the observation at its start and the moves since) come
    from `observe`; `reseed` gives each decision its own search stream when the runner asks."""

    def __init__(self, rollouts: int = 12) -> None:
        super().__init__("Calibrated", 0.0, 0.0)
        self.rollouts = rollouts
        self.components: list[Component] = mixture(MODEL)
        self.belief: Belief | None = None
        self.turn_start: Observation | None = None
        self.turn_moves: list[Move] = []
        self.rng = random.Random(0)

    # Pickled with a Play match in the session: the persona's own fields (a compiled class
    # keeps them in slots of its own) and this bot's, so both come back.
    def __getstate__(self) -> dict[str, object]:
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(Persona)}
        return {**fields, **self.__dict__}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def new_game(self, rng: random.Random) -> None:
        self.belief = None
        self.turn_start = None
        self.turn_moves = []
        self.rng = random.Random(rng.random())

    def reseed(self, rng: random.Random) -> None:
        self.rng = rng

    def observe(self, obs: Observation, move: Move) -> None:
        if self.belief is None:
            self.belief = Belief(obs.player, self.components, obs.rule_set.cards)
        self.belief.observe(obs, move)
        d = obs.pending
        if d is not None and d.phase is Phase.ACTION and d.player == obs.actor:
            self.turn_start, self.turn_moves = obs, []
        self.turn_moves.append(move)

    def world(self, obs: Observation) -> Game | None:
        """A game that looks to this bot like the one it sits at, every card it cannot see
        dealt at random (None when it cannot be rebuilt: the bot then decides without
        rollouts). Its own stream, so building it changes no decision's randomness."""
        d = obs.pending
        rng = random.Random(f"world:{obs.turn}:{len(obs.events)}")
        if d is not None and d.phase is Phase.ACTION and d.player == obs.actor:
            return world(obs, (), obs, rng)  # a new turn: nothing played in it yet
        if self.turn_start is None:
            return None
        return world(self.turn_start, self.turn_moves, obs, rng)

    def policy(self, obs: Observation) -> dict[Move, float]:
        d = obs.pending
        assert d is not None
        legal = obs.legal_moves
        if d.phase in (Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK, Phase.CHALLENGE_CLAIM):
            return {self._challenge_or_pass(obs): 1.0}
        if d.phase is Phase.BLOCK and d.target == obs.player and d.action in (
                Action.ASSASSINATE, Action.VENGEANCE) and obs.seats[obs.player].influence == 1:
            blocks = [m for m in legal if m.kind is MoveKind.BLOCK]
            if blocks:  # out anyway if it goes through: a bluff costs nothing more
                return {blocks[0]: 1.0}
        base = Persona("Honest", 0.0, 0.0).policy(obs)
        if d.phase is Phase.ACTION and len(legal) > 1:
            return {self._act(obs, base): 1.0}
        return base

    def _challenge_or_pass(self, obs: Observation) -> Move:
        d = obs.pending
        assert d is not None
        legal = obs.legal_moves
        challenge = next(m for m in legal if m.kind is MoveKind.CHALLENGE)
        passing = next(m for m in legal if m.kind is MoveKind.PASS)
        claimant: int | None
        if d.phase is Phase.CHALLENGE_ACTION:
            claimant, claim = d.actor, d.claim
            if d.action is Action.EMBEZZLE:
                return passing
        elif d.phase is Phase.CHALLENGE_BLOCK:
            claimant, claim = d.blocker, d.block_character
        else:
            claimant, claim = d.claimant, d.claim
        if claimant is None or claim is None:
            return passing
        p_bluff = 1.0 - p_holds(obs, self.belief, claimant, claim.role)
        if p_bluff >= 0.9:
            return challenge
        if p_bluff <= 0.2:
            return passing
        game = self.world(obs)
        if game is None:
            return passing
        _, cv = option_values(game, obs.player, self.belief, self.components,
                              self.rollouts, seed=self.rng.randrange(1 << 30),
                              moves=[challenge, passing])
        p_star = cv.p_star if cv is not None else None
        return challenge if p_star is not None and p_bluff > p_star else passing

    def _act(self, obs: Observation, honest: dict[Move, float]) -> Move:
        """The honest choice, unless a Tax bluff wins more often in a few rollouts."""
        best = max(honest, key=lambda m: honest[m])
        tax = next((m for m in obs.legal_moves if m.action is Action.TAX), None)
        if tax is None or tax in honest or obs.seats[obs.player].coins >= 7:
            return best
        game = self.world(obs)
        if game is None:
            return best
        values, _ = option_values(game, obs.player, self.belief, self.components,
                                  self.rollouts, seed=self.rng.randrange(1 << 30),
                                  moves=[best, tax])
        by_move = {v.move: v.win for v in values}
        return tax if by_move.get(tax, 0.0) > by_move.get(best, 0.0) + 0.05 else best
