"""Bot personas: stochastic policies with explicit probabilities, over a player's observation.

Why explicit probabilities: the behavioural posterior (`trainer.estimates`) asks "how likely
was this claim if the claimant held hand x?", which is the persona's own policy evaluated on
a hypothetical hand. A persona therefore exposes `policy(obs)`, a distribution over the legal
moves that reads only the observation (its own hand and the public table), and `choose`
samples from it. Bots never see another player's cards.

The personas differ in two rates: how often they bluff (claim a character they do not hold,
for an action or a block) and how often they challenge a claim they cannot disprove. All of
them "count to certainty": a claim of a character whose every copy is visible elsewhere is
always challenged (except by Random). A third trait, `loose`, describes a player who does not
play the best honest move: with that chance an action is any honest one, a true block is
left unmade half the time, and the card lost or kept is any one. The bots play tight
(`loose` 0); the behaviour model also holds loose players (`trainer.estimates.posterior`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from mypy_extensions import mypyc_attr

from trainer.engine.cards import Action, Character, proves
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation, observe
from trainer.engine.rules import Variant

# How much a card is worth keeping: lose the lowest, keep the highest.
VALUE: dict[Character, int] = {
    Character.DUKE: 6, Character.ASSASSIN: 5, Character.CAPTAIN: 4, Character.CONTESSA: 3,
    Character.AMBASSADOR: 2, Character.INQUISITOR: 3, Character.GRAVEROBBER: 1,
}


# How often a persona takes Income instead of its best honest action.
STEADY = 0.2


def value(card: Character) -> int:
    role = _ROLE[card]
    return VALUE.get(role, 2) + (1 if card != role else 0)


# The honest preference among actions, best first (variant actions included). Actions that
# gain nothing (exchange, examine) come after foreign aid, so a table of bots always moves on.
_PREFERENCE = (Action.TAX, Action.ASSASSINATE, Action.STEAL, Action.EMBEZZLE, Action.PEEK,
               Action.FOREIGN_AID, Action.EXCHANGE, Action.EXAMINE, Action.INCOME)
# The actions a persona bluffs.
_BLUFFED = (Action.TAX, Action.STEAL, Action.ASSASSINATE)

# The enum members the policies compare with, as module constants: compiled, a member read
# as `Action.STEAL` is an attribute lookup on the class at every use, and the policies run at
# every decision of every playout.
_A_CONVERT: Final = Action.CONVERT
_A_COUP: Final = Action.COUP
_A_EMBEZZLE: Final = Action.EMBEZZLE
_A_INCOME: Final = Action.INCOME
_A_STEAL: Final = Action.STEAL
_C_DUKE: Final = Character.DUKE
_K_ACT: Final = MoveKind.ACT
_K_BLOCK: Final = MoveKind.BLOCK
_K_CHALLENGE: Final = MoveKind.CHALLENGE
_K_CHOOSE: Final = MoveKind.CHOOSE
_K_CLAIM: Final = MoveKind.CLAIM
_K_KEEP: Final = MoveKind.KEEP
_K_LOSE: Final = MoveKind.LOSE
_K_OFFER: Final = MoveKind.OFFER
_K_PASS: Final = MoveKind.PASS
_K_PAY: Final = MoveKind.PAY
_K_SHOW: Final = MoveKind.SHOW
_P_ACTION: Final = Phase.ACTION
_P_BLOCK: Final = Phase.BLOCK
_P_CHALLENGE_ACTION: Final = Phase.CHALLENGE_ACTION
_P_CHALLENGE_BLOCK: Final = Phase.CHALLENGE_BLOCK
_P_CHALLENGE_CLAIM: Final = Phase.CHALLENGE_CLAIM
_P_CLAIM: Final = Phase.CLAIM
# A card's character (`Character.role`, a Python-level property) by card.
_ROLE: Final[dict[Character, Character]] = {c: c.role for c in Character}


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class Persona:
    """A policy with a bluff rate and a challenge rate. `bluff` is used in every game unless
    `bluff_games` is below 1: then each game is a bluffing game with that probability."""

    name: str
    bluff: float
    challenge: float
    bluff_games: float = 1.0
    uniform: bool = False  # Random: every legal move alike
    loose: float = 0.0  # the chance of any honest move instead of the best one
    bluffing: bool = field(default=True, repr=False)  # this game's draw (see new_game)

    def new_game(self, rng: random.Random) -> None:
        self.deal_game(rng.random())

    def deal_game(self, draw: float) -> None:
        """This game's draw, from a number uniform on [0, 1): a bluffing game or not."""
        self.bluffing = draw < self.bluff_games

    @property
    def bluff_rate(self) -> float:
        return self.bluff if self.bluffing else 0.0

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        return sample(self.policy(obs), rng)

    # ------------------------------------------------------------------------- the policy
    def policy(self, obs: Observation) -> dict[Move, float]:
        legal = obs.legal_moves
        if not legal:
            raise ValueError("this observation has no decision to make")
        if self.uniform or len(legal) == 1:
            return {m: 1 / len(legal) for m in legal}
        d = obs.pending
        assert d is not None
        phase = d.phase
        if phase is _P_ACTION:
            return self._action(obs)
        if phase in (_P_CHALLENGE_ACTION, _P_CHALLENGE_BLOCK, _P_CHALLENGE_CLAIM):
            claim = d.claim if phase is not _P_CHALLENGE_BLOCK else d.block_character
            claimant = d.actor if phase is _P_CHALLENGE_ACTION else (
                d.blocker if phase is _P_CHALLENGE_BLOCK else d.claimant)
            inverted = (phase is _P_CHALLENGE_ACTION and d.action is _A_EMBEZZLE)
            p = 1.0 if (claim is not None and not inverted
                        and impossible(obs, claimant, claim)) else self.challenge
            return _split(legal, _K_CHALLENGE, p)
        if phase is _P_BLOCK or phase is _P_CLAIM:
            return self._claim_or_pass(obs)
        best = {self._best(obs): 1.0}
        if self.loose and legal[0].kind in (_K_LOSE, _K_KEEP, _K_OFFER):
            return _blend(best, {m: 1 / len(legal) for m in legal}, self.loose)
        return best

    def _action(self, obs: Observation) -> dict[Move, float]:
        legal = obs.legal_moves
        seats = obs.seats
        if seats[obs.player].coins >= 7:
            coups = [m for m in legal if m.action is _A_COUP]
            if coups:
                return {m: 1 / len(coups) for m in coups}
        mine = {_ROLE[c] for c in obs.hand}
        claims = _claims(obs.rule_set)
        # One pass sorts the useful moves into honest ones and bluffable lies. Useful: a
        # steal from someone with coins, an embezzlement from a reserve of 2 or more, and
        # anything but Conversion. Honest: no claim, or a claim of a character held (for
        # Embezzlement, which is claimed by not holding the Duke: no Duke held).
        no_duke = _C_DUKE not in mine
        truthful: list[Move] = []
        lies: list[Move] = []
        for m in legal:
            a = m.action
            if a is _A_STEAL and m.target is not None:
                if seats[m.target].coins <= 0:
                    continue
            elif a is _A_EMBEZZLE:
                if obs.reserve < 2:
                    continue
            elif a is _A_CONVERT:
                continue
            if a is _A_EMBEZZLE:
                honest = no_duke
            else:
                claim = claims.get(a) if a is not None else None
                honest = claim is None or claim in mine
            if honest:
                truthful.append(m)
            elif a in _BLUFFED:
                lies.append(m)
        if truthful:
            shown = {m.action for m in truthful}
            best_action = next(a for a in _PREFERENCE if a in shown)
            best = [m for m in truthful if m.action is best_action]
        else:
            best = [legal[0]]
        if self.loose and truthful:
            # any honest action (each alike, then each target alike) instead of the best
            by_action: dict[Action | None, list[Move]] = {}
            for m in truthful:
                by_action.setdefault(m.action, []).append(m)
            tight = dict(self._tight_action(legal, best, [], 0.0))
            any_honest = {m: 1 / len(by_action) / len(group)
                          for group in by_action.values() for m in group}
            honest_part = _blend(tight, any_honest, self.loose)
        else:
            honest_part = None
        b = self.bluff_rate if lies else 0.0
        if honest_part is None:
            return self._tight_action(legal, best, lies, b)
        dist = {m: (1 - b) * q for m, q in honest_part.items()}
        for m in lies:
            dist[m] = dist.get(m, 0.0) + b / len(lies)
        return dist

    @staticmethod
    def _tight_action(legal: tuple[Move, ...], best: list[Move], lies: list[Move],
                      b: float) -> dict[Move, float]:
        """The best honest action (now and then Income instead), or with chance `b` a lie."""
        # A little Income keeps two players who block each other's steals from looping.
        income = next((m for m in legal if m.action is _A_INCOME), None)
        steady = STEADY if income is not None and income not in best else 0.0
        dist: dict[Move, float] = {}
        for m in best:
            dist[m] = dist.get(m, 0.0) + (1 - b) * (1 - steady) / len(best)
        if steady and income is not None:
            dist[income] = (1 - b) * steady
        for m in lies:
            dist[m] = dist.get(m, 0.0) + b / len(lies)
        return dist

    def _claim_or_pass(self, obs: Observation) -> dict[Move, float]:
        legal = obs.legal_moves
        mine = {_ROLE[c] for c in obs.hand} | set(obs.hand)
        true = [m for m in legal if m.kind in (_K_BLOCK, _K_CLAIM)
                and m.character in mine]
        if true:
            passing = next((m for m in legal if m.kind is _K_PASS), None)
            if self.loose and passing is not None:
                return {true[0]: 1 - self.loose / 2, passing: self.loose / 2}
            return {true[0]: 1.0}
        lies = [m for m in legal if m.kind in (_K_BLOCK, _K_CLAIM)]
        b = self.bluff_rate if lies else 0.0
        dist = {m: b / len(lies) for m in lies}
        passing = next(m for m in legal if m.kind is _K_PASS)
        dist[passing] = 1 - b
        return dist

    def _best(self, obs: Observation) -> Move:
        """Decisions with no bluff in them: prove, lose, keep, choose, aim a Vengeance."""
        legal = obs.legal_moves
        shows = [m for m in legal if m.kind is _K_SHOW]
        if shows:
            return shows[0]
        pays = [m for m in legal if m.kind is _K_PAY]
        if pays and obs.seats[obs.player].influence == 1:
            return pays[0]
        if legal[0].kind in (_K_LOSE, _K_OFFER):
            return min((m for m in legal if m.character is not None),
                       key=lambda m: value(m.character))  # type: ignore[arg-type]
        if legal[0].kind is _K_KEEP:
            return max(legal, key=lambda m: sum(value(c) for c in m.cards or ()))
        if legal[0].kind is _K_ACT:  # a Vengeance: the richest opponent
            return max(legal, key=lambda m: obs.seats[m.target].coins
                       if m.target is not None else 0)
        choices = {m.choice: m for m in legal if m.kind is _K_CHOOSE}
        if "swap" in choices:  # the Inquisitor sends a strong card away
            seen = [e.data["cards"][0] for e in obs.events if e.kind == "examined"]
            return choices["swap"] if seen and value(seen[-1]) >= 4 else choices["return"]
        return legal[0]


# A playout longer than this is called off (no winner).
MAX_DECISIONS = 3_000


def play_out(game: Game, seats: list[Persona], rng: random.Random,
             watch: int | None = None) -> int | None:
    """Play to the end with one persona per seat; the winner (None: a tie or too long).
    With `watch`, stop as soon as that player is out of the game and answer None: a player
    out never wins, so the rest of the game cannot change whether they won (most playouts
    lose the observer long before the end, and the rest is most of their cost).

    A decision with one legal move is played without observing the table: a persona's
    policy gives that move with certainty and its draw uses up one number of `rng`, which is
    drawn here instead, so the game and the stream are the same as with the persona asked
    (personas whose policy or choice is their own, such as the Calibrated bot, are always
    asked).

    Why here, with the personas: it is the inner loop of every rollout, and this module is
    compiled (setup.py), so the loop is too."""
    plain = [type(s).policy is Persona.policy and type(s).choose is Persona.choose
             for s in seats]
    draw = rng.random
    for _ in range(MAX_DECISIONS):
        if game.is_over:
            return game.winner
        if watch is not None and not game.alive[watch]:
            return None
        p = game.decider
        if plain[p]:
            legal = game.legal_moves()
            if len(legal) == 1:
                draw()
                game.apply(legal[0])
                continue
        game.apply(seats[p].choose(observe(game, p, events=False), rng))
    return None


def sample(dist: dict[Move, float], rng: random.Random) -> Move:
    """A move drawn from a policy's distribution (every policy samples the same way, so one
    seed gives one game).

    The draw is `rng.choices(moves, weights)` written out: one `rng.random()` scaled by the
    total weight, and the first move whose running sum exceeds it (the last one if none
    does), the same number and the same move as `choices` gives: the running sums are added
    in the same order, so they are the same floats. A lone move still uses up its number, so
    a seed's later draws stay where they were. Why written out: rollouts sample some 30
    moves a playout, and the general `choices` (lists, checks, a list of one result) was a
    tenth of a playout."""
    if len(dist) == 1:
        rng.random()
        for only in dist:
            return only
    total = 0.0
    for w in dist.values():
        total += w
    if not total > 0.0:
        raise ValueError(f"a policy's chances must add up to more than zero, not {total}")
    at = rng.random() * total
    running = 0.0
    last = len(dist) - 1
    for k, (m, w) in enumerate(dist.items()):
        running += w
        if running > at or k == last:
            return m
    raise AssertionError("unreachable: the loop returns at the last move")


def _blend(a: dict[Move, float], b: dict[Move, float], share: float) -> dict[Move, float]:
    """(1 − share)·a + share·b."""
    out = {m: (1 - share) * q for m, q in a.items()}
    for m, q in b.items():
        out[m] = out.get(m, 0.0) + share * q
    return out


def _split(legal: tuple[Move, ...], kind: MoveKind, p: float) -> dict[Move, float]:
    yes = no = None
    for m in legal:
        if yes is None and m.kind is kind:
            yes = m
        elif no is None and m.kind is _K_PASS:
            no = m
    if yes is None or no is None:
        raise ValueError(f"a {kind} decision without both a {kind} and a pass")
    return {yes: p, no: 1 - p} if p < 1 else {yes: 1.0}


def impossible(obs: Observation, claimant: int | None, claim: Character) -> bool:
    """True when every card that proves the claim (`trainer.engine.cards.proves`: the very
    card or one of its character) is visible to this player elsewhere.

    Counted by hand rather than with a `Counter` over every visible card: every challenge
    window of every playout asks this, and only the one claimed character matters."""
    if claimant is None or claimant == obs.player:
        return False
    copies = _copies(obs.rule_set, len(obs.seats), claim)
    seen = 0
    for c in obs.hand:
        if c is claim or _ROLE[c] is claim:
            seen += 1
    for seat in obs.seats:
        for c in seat.revealed:
            if c is claim or _ROLE[c] is claim:
                seen += 1
    for c in obs.mat_up:
        if c is claim or _ROLE[c] is claim:
            seen += 1
    return seen >= copies


@cache
def _claims(variant: Variant) -> dict[Action, Character | None]:
    """Each action's claimed character in the rule set (None: no claim)."""
    return {spec.action: spec.claim for spec in variant.actions}


@cache
def _copies(variant: Variant, players: int, claim: Character) -> int:
    return sum(1 for c in variant.court(players) if proves(c, claim))


def personas() -> dict[str, Persona]:
    """Fresh instances of every persona with a fixed policy (Calibrated lives in its own
    module, on top of the estimates)."""
    return {
        "random": Persona("Random", 0.0, 0.5, uniform=True),
        "honest": Persona("Honest", 0.0, 0.0),
        "rule": Persona("Rule bot", 0.5, 0.1, bluff_games=0.5),
        "bluffer": Persona("Bluffer", 0.6, 0.1),
        "skeptic": Persona("Skeptic", 0.1, 0.5),
    }
