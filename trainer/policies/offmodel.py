"""Players unlike the personas the estimates assume, to measure the estimates off the model.

Why these: the behavioural posterior is a mixture of Honest, Rule bot, Bluffer and
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
- Steal-first bluffer: a heavy bluffer whose order of actions is not the personas' (it steals
  rather than taxes while holding the Duke), the player behind most confident misses.
- Situational: its bluffs and challenges depend on the position, which no kind of the model
  does: it bluffs a Tax when poor, an Assassin or a Contessa when down to one card, challenges
  only a claimant richer than itself, and prefers assassinating and stealing to taxing.
  Written as a held-out test once the model's kinds were settled; what it showed (honest
  claims called certain bluffs after an unusual honest action) led to the model reading every
  persona a little loosely, so it is held out no longer.
"""

from __future__ import annotations

import random

from trainer.engine.cards import Action, Character
from trainer.engine.game import Decision, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.policies.personas import Persona, personas, sample, value

# The Plain honest player's chance of blocking when it holds the blocking card.
PLAIN_BLOCK = 0.5
# The Heavy bluffer's bluff rate (the Bluffer persona's is 0.6).
HEAVY_BLUFF = 0.9


class _Stranger:
    """A stochastic policy over the observation, like a persona, with nothing drawn per
    game; a forced move needs no thought, the rest goes to `decide`."""

    name = ""

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
        assert obs.pending is not None
        return self.decide(obs, obs.pending, legal, {c.role for c in obs.hand} | set(obs.hand))

    def decide(self, obs: Observation, d: Decision, legal: tuple[Move, ...],
               mine: set[Character]) -> dict[Move, float]:
        """The distribution over `legal` (two moves or more) for hand roles `mine`."""
        raise NotImplementedError


class PlainHonest(_Stranger):
    """Never bluffs and never challenges, but otherwise unlike the Honest persona (see the
    module's docstring)."""

    name = "Plain honest"

    def decide(self, obs: Observation, d: Decision, legal: tuple[Move, ...],
               mine: set[Character]) -> dict[Move, float]:
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
        variant = obs.rule_set
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


# The Situational player's rates.
POOR = 2  # coins at or below which it bluffs a Tax
POOR_BLUFF = 0.7
LAST_CARD_BLUFF = 0.5  # an Assassin's claim, down to one card
LAST_CARD_BLOCK = 0.9  # a Contessa against an assassination of its last card
RICH_CHALLENGE = 0.4  # challenging a claimant with more coins than itself
STEAL_BLOCK_BLUFF = 0.3  # a Captain's block of a steal, with 3 coins or more


class Situational(_Stranger):
    """Bluffs and challenges by the position, not at a fixed rate (see the module's
    docstring)."""

    name = "Situational"

    def decide(self, obs: Observation, d: Decision, legal: tuple[Move, ...],
               mine: set[Character]) -> dict[Move, float]:
        me = obs.player
        coins = obs.seats[me].coins
        last_card = obs.seats[me].influence == 1
        if d.phase is Phase.ACTION:
            return self._action(obs, mine, coins, last_card)
        challenge = next((m for m in legal if m.kind is MoveKind.CHALLENGE), None)
        passing = next((m for m in legal if m.kind is MoveKind.PASS), None)
        if challenge is not None and passing is not None:
            claimant = d.blocker if d.phase is Phase.CHALLENGE_BLOCK else (
                d.claimant if d.phase is Phase.CHALLENGE_CLAIM else d.actor)
            richer = claimant is not None and obs.seats[claimant].coins > coins
            p = RICH_CHALLENGE if richer else 0.0
            return {challenge: p, passing: 1 - p} if p else {passing: 1.0}
        blocks = [m for m in legal if m.kind in (MoveKind.BLOCK, MoveKind.CLAIM)]
        if passing is not None and blocks:
            true = [m for m in blocks if m.character in mine]
            if true:
                return {true[0]: 1.0}
            p, wanted = 0.0, None
            if d.action is Action.ASSASSINATE and d.target == me and last_card:
                p, wanted = LAST_CARD_BLOCK, Character.CONTESSA
            elif d.action is Action.STEAL and d.target == me and coins >= 3:
                p, wanted = STEAL_BLOCK_BLUFF, Character.CAPTAIN
            lie = next((m for m in blocks if m.character == wanted), None)
            if lie is None or not p:
                return {passing: 1.0}
            return {lie: p, passing: 1 - p}
        shows = [m for m in legal if m.kind is MoveKind.SHOW]
        if shows:
            return {shows[0]: 1.0}
        return {m: 1 / len(legal) for m in legal}  # which card to lose, or keep: any

    def _action(self, obs: Observation, mine: set[Character], coins: int,
                last_card: bool) -> dict[Move, float]:
        legal = obs.legal_moves
        coups = [m for m in legal if m.action is Action.COUP]
        if coups and coins >= 7:
            return {m: 1 / len(coups) for m in coups}

        def pick(action: Action) -> list[Move]:
            return [m for m in legal if m.action is action]

        def richest(moves: list[Move]) -> list[Move]:
            if not moves:
                return []
            top = max(obs.seats[m.target].coins for m in moves if m.target is not None)
            return [m for m in moves if m.target is not None
                    and obs.seats[m.target].coins == top]

        honest: list[Move] = []
        if Character.ASSASSIN in mine:
            honest = richest(pick(Action.ASSASSINATE))
        if not honest and Character.CAPTAIN in mine:
            steals = richest(pick(Action.STEAL))
            honest = [m for m in steals if m.target is not None
                      and obs.seats[m.target].coins >= 2]
        if not honest and Character.DUKE in mine:
            honest = pick(Action.TAX)
        honest = honest or pick(Action.FOREIGN_AID) or pick(Action.INCOME) or list(legal)
        bluff, p = [], 0.0
        if last_card and Character.ASSASSIN not in mine and pick(Action.ASSASSINATE):
            bluff, p = richest(pick(Action.ASSASSINATE)), LAST_CARD_BLUFF
        elif coins <= POOR and Character.DUKE not in mine and pick(Action.TAX):
            bluff, p = pick(Action.TAX), POOR_BLUFF
        dist = {m: (1 - p) / len(honest) for m in honest}
        for m in bluff:
            dist[m] = dist.get(m, 0.0) + p / len(bluff)
        return dist


def heavy_bluffer() -> Persona:
    return Persona("Heavy bluffer", HEAVY_BLUFF, 0.1)


# The Steal-first bluffer's liking for each action: stealing well before taxing, the other way
# round from every persona. It picks among the actions it can take truthfully (and, when it
# bluffs, among those it would have to lie about) in proportion to these weights.
STEAL_FIRST: dict[Action, float] = {
    Action.STEAL: 4.0, Action.ASSASSINATE: 2.0, Action.TAX: 1.0, Action.FOREIGN_AID: 0.5,
    Action.INCOME: 0.5, Action.EXCHANGE: 0.25,
}


class StealFirst(_Stranger):
    """A heavy bluffer (90%) who prefers stealing to taxing, even when holding the Duke.

    Why: every kind of player the model holds taxes when it holds a Duke, so a player who
    steals instead is read as holding no Duke, and their honest Duke claims, when they come,
    as near certain bluffs. Its challenges and blocks are the Heavy bluffer's; only the
    actions differ: one it can claim truthfully (a steal only from a player with coins), by
    the weights of `STEAL_FIRST`, or with chance `HEAVY_BLUFF` one it would have to lie
    about, by the same weights."""

    name = "Steal-first bluffer"

    def __init__(self) -> None:
        self._others = heavy_bluffer()

    def decide(self, obs: Observation, d: Decision, legal: tuple[Move, ...],
               mine: set[Character]) -> dict[Move, float]:
        if d.phase is not Phase.ACTION:
            return self._others.policy(obs)
        coups = [m for m in legal if m.action is Action.COUP]
        if coups and obs.seats[obs.player].coins >= 7:
            return {m: 1 / len(coups) for m in coups}
        claims = {s.action: s.claim for s in obs.rule_set.actions}

        def useful(m: Move) -> bool:
            if m.action is Action.STEAL and m.target is not None:
                return obs.seats[m.target].coins > 0
            return m.action in STEAL_FIRST

        def weighted(moves: list[Move]) -> dict[Move, float]:
            by_action: dict[Action, list[Move]] = {}
            for m in moves:
                if m.action is not None:
                    by_action.setdefault(m.action, []).append(m)
            total = sum(STEAL_FIRST[a] for a in by_action)
            return {m: STEAL_FIRST[a] / total / len(group)
                    for a, group in by_action.items() for m in group}

        def claim(m: Move) -> Character | None:
            return claims.get(m.action) if m.action is not None else None

        usable = [m for m in legal if useful(m)]
        honest = weighted([m for m in usable if claim(m) in (None, *mine)]) \
            or {m: 1 / len(legal) for m in legal}
        lies = weighted([m for m in usable if m.action in (Action.TAX, Action.STEAL,
                                                           Action.ASSASSINATE)
                         and claim(m) not in (None, *mine)])
        b = HEAVY_BLUFF if lies else 0.0
        dist = {m: (1 - b) * q for m, q in honest.items()}
        for m, q in lies.items():
            dist[m] = dist.get(m, 0.0) + b * q
        return dist


def strangers() -> dict[str, Persona | PlainHonest | Situational | StealFirst]:
    """Fresh instances of every off-model player, by name (one instance per seat: a player
    may keep a game's state)."""
    return {"random": personas()["random"], "plain-honest": PlainHonest(),
            "heavy-bluffer": heavy_bluffer(), "steal-first": StealFirst(),
            "situational": Situational()}
