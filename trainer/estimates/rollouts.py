"""Option values by determinized rollouts, and the break-even belief p* of a challenge.

For a decision of the observer: draw the hidden cards from the observer's posterior (exact
joint deals), put them into a copy of the game in place of everything the observer cannot see,
play each option and then the rest of the game with persona policies, and count the
observer's wins. Every option is played on the same deals, personas and random streams
(common random numbers), so the differences between options carry less noise than the values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import sqrt

from trainer.engine.cards import Character
from trainer.engine.chance import RandomChance
from trainer.engine.game import Game
from trainer.engine.information import resample
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import observe
from trainer.estimates.claims import pending_claim
from trainer.estimates.counting import Seat, sample_deals
from trainer.estimates.knowledge import knowledge
from trainer.estimates.posterior import Belief, Component
from trainer.policies.personas import Persona

MAX_DECISIONS = 3_000


@dataclass(frozen=True)
class OptionValue:
    move: Move
    label: str
    win: float
    se: float
    n: int
    # The standard error of this option's win rate minus the best option's, over the same
    # (paired) rollouts: the noise of a "win-% lost" figure. Zero for the best option itself.
    diff_se: float = 0.0


@dataclass(frozen=True)
class ChallengeValue:
    """A challenge decision: the values that decide it and the break-even belief."""

    w_pass: float
    w_win: float  # challenge, and the claim was a bluff
    w_lose: float  # challenge, and the claim was true
    p_star: float | None  # challenge pays when P(bluff) > p*; None when it never pays
    bluff_samples: int
    honest_samples: int


def determinize(game: Game, observer: int, hands: dict[int, tuple[Character, ...]],
                rng: random.Random) -> Game:
    """A world the observer cannot tell from `game`, with the opponents' unknown cards set to
    `hands` (drawn from the observer's posterior): the engine's `resample`."""
    return resample(game, observer, rng, hands)


def _copy_for_rollout(world: Game, seed: float) -> Game:
    """A copy to play one option in, with its own random stream (given to the copy, so the
    world's own stream is never copied)."""
    return world.clone(RandomChance(random.Random(seed)))


def play_out(game: Game, seats: list[Persona], rng: random.Random) -> int | None:
    """Play to the end with one persona per seat; the winner (None: a tie or too long)."""
    for _ in range(MAX_DECISIONS):
        if game.is_over:
            return game.winner
        p = game.decider
        game.apply(seats[p].choose(observe(game, p, events=False), rng))
    return None


def option_values(game: Game, observer: int, belief: Belief | None, components: list[Component],
                  rollouts: int = 300, seed: int = 0, moves: list[Move] | None = None
                  ) -> tuple[list[OptionValue], ChallengeValue | None]:
    """The win probability of each of the observer's legal moves (or of `moves`; the
    observer must be the one deciding), with standard errors; for a challenge decision
    also p*."""
    if game.is_over or game.decider != observer:
        raise ValueError("option values are for the observer's own pending decision")
    rng = random.Random(seed)
    obs = game.observation(observer)
    k = knowledge(obs)
    opponents = sorted(k.unknown_cards)
    evidence = belief.evidence_for(obs) if belief is not None else {}
    seats = [Seat(k.unknown_cards[j], evidence.get(j)) for j in opponents]
    deals = sample_deals(k.unseen, seats, rollouts, rng)
    moves = list(moves) if moves is not None else list(game.legal_moves())
    wins = {m: 0 for m in moves}
    results: dict[Move, list[int]] = {m: [] for m in moves}
    d = game.pending
    challenge = next((m for m in moves if m.kind is MoveKind.CHALLENGE), None)
    claimant, role = pending_claim(game) if challenge is not None else (None, None)
    split = {"bluff": [0, 0], "honest": [0, 0]}
    for i, dealt in enumerate(deals):
        hands = dict(zip(opponents, dealt, strict=True))
        world = determinize(game, observer, hands, random.Random(rng.random()))
        cast = [_pick(components, rng) for _ in range(game.n)]
        stream = rng.random()
        truth = None
        if claimant is not None and role is not None:
            truth = any(c.role == role for c in world.hidden[claimant])
        for m in moves:
            g = _copy_for_rollout(world, stream)
            g.apply(m)
            for persona in cast:
                persona.new_game(random.Random(f"{stream}:{i}"))
            won = play_out(g, cast, random.Random(stream)) == observer
            wins[m] += won
            results[m].append(won)
            if m is challenge and truth is not None:
                split["honest" if truth else "bluff"][0] += won
                split["honest" if truth else "bluff"][1] += 1
    n = len(deals)
    best = max(moves, key=lambda m: wins[m])
    values = [OptionValue(m, game.describe(m), wins[m] / n, _se(wins[m] / n, n), n,
                          _paired_se(results[m], results[best]))
              for m in moves]
    cv = None
    if challenge is not None and d is not None:
        passing = next(v for v in values if v.move.kind is MoveKind.PASS)
        w_win = split["bluff"][0] / split["bluff"][1] if split["bluff"][1] else 0.0
        w_lose = split["honest"][0] / split["honest"][1] if split["honest"][1] else 0.0
        p_star = None
        if w_win > w_lose:
            p_star = min(1.0, max(0.0, (passing.win - w_lose) / (w_win - w_lose)))
        cv = ChallengeValue(passing.win, w_win, w_lose, p_star, split["bluff"][1],
                            split["honest"][1])
    return values, cv


def _pick(components: list[Component], rng: random.Random) -> Persona:
    cast = [c for c in components if c.cast]
    comp = rng.choices(cast, weights=[c.weight for c in cast])[0]
    from dataclasses import replace

    return replace(comp.persona, loose=0.0)  # the bots as they play, however loosely read


def _paired_se(a: list[int], b: list[int]) -> float:
    """Standard error of mean(a − b) for outcomes paired by rollout."""
    n = len(a)
    if n < 2:
        return 0.0
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    return sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)


def _se(p: float, n: int) -> float:
    return sqrt(p * (1 - p) / n) if n else 0.0
