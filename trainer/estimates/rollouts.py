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

from trainer.engine.cards import Character, proves
from trainer.engine.chance import RandomChance
from trainer.engine.game import Game
from trainer.engine.information import resample, resampler
from trainer.engine.moves import Move, MoveKind
from trainer.estimates.claims import pending_claim
from trainer.estimates.counting import Seat, sample_deals
from trainer.estimates.knowledge import knowledge
from trainer.estimates.posterior import Belief, Component
from trainer.policies.personas import Persona, play_out

__all__ = ["play_out"]  # kept here for its callers; it lives with the personas (compiled)


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
    # Why this option's playing stopped: its grade band was settled, the cap came first, or
    # a fixed count was asked for (`STOP_*`).
    stop: str = "fixed"


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


# Why z = 2: a loss whose interval of ±2 paired standard errors sits inside one grade band is
# a loss the review's noise guard (a loss within two standard errors of zero is not proven)
# would never hide, so the stopping rule and the grade agree. Per look it is a 95% interval;
# with the few looks of a doubling schedule (five from 64 to 1,024 playouts) the chance of
# stopping in a wrong band is at most about 12% for a loss sitting exactly on a band edge (the
# Pocock boundary for five looks at 5% overall is 2.41), and far less for any other loss.
Z = 2.0


@dataclass(frozen=True)
class Precision:
    """How long `values` keeps playing: `first` playouts per option, then doubling the total
    after each look, until every option's grade is settled with confidence `z`, or `cap`.

    `edges` are the grade bands' upper bounds in points of win-% lost (the caller's grades:
    best ≤ 1, good ≤ 5, …); an option is settled when its loss against the best option, ± z
    paired standard errors, lies inside one band. No edges (`fixed`) means one batch of `cap`:
    a fixed count, for the bots' few quick playouts and the 5,000-playout references."""

    cap: int
    first: int = 64
    z: float = Z
    edges: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if self.cap < 1 or self.first < 1:
            raise ValueError(f"playouts: expected a cap and a first batch of at least 1, got "
                             f"cap {self.cap}, first {self.first}")
        if self.z <= 0:
            raise ValueError(f"z: expected a positive number of standard errors, got {self.z}")

    @classmethod
    def fixed(cls, playouts: int) -> Precision:
        return cls(cap=playouts, first=playouts)

    def band(self, lost_pp: float) -> int:
        """Which band a loss falls in: 0 up to the first edge, 1 up to the second, …"""
        return sum(1 for e in self.edges if lost_pp > e)


@dataclass(frozen=True)
class Valuation:
    """Every option valued (best first is not promised: the options' own order), the
    challenge split where there is one, and why the playing stopped."""

    options: list[OptionValue]
    challenge: ChallengeValue | None
    playouts: int  # over every option
    stopped: str  # STOP_SETTLED, STOP_CAP or STOP_FIXED


STOP_SETTLED = "settled"  # every option's grade band is known at the precision's z
STOP_CAP = "cap"  # the cap came first: some option's band is still uncertain
STOP_FIXED = "fixed"  # a fixed count was asked for


def values(game: Game, observer: int, belief: Belief | None, components: list[Component],
           precision: Precision, seed: int = 0, moves: list[Move] | None = None) -> Valuation:
    """The win chance of each of the observer's legal moves (or of `moves`; the observer must
    be the one deciding), by sequential playouts: the one way every feature values a decision.

    Worlds (a deal of the hidden cards from the observer's posterior, a persona per seat and a
    random stream) are drawn in one fixed sequence from `seed`; every option is played in the
    same worlds in the same order (common random numbers), so a difference between two options
    is measured on paired games and carries far less noise than either value. After each batch
    the options whose grade is settled (see `Precision`) stop being played; the best option is
    played as long as any other is, since every loss is measured against it. The result for a
    given seed does not depend on when it stopped: stopping later only adds worlds."""
    if game.is_over or game.decider != observer:
        raise ValueError("option values are for the observer's own pending decision")
    rng = random.Random(seed)
    obs = game.observation(observer)
    k = knowledge(obs)
    opponents = sorted(k.unknown_cards)
    evidence = belief.evidence_for(obs) if belief is not None else {}
    seats = [Seat(k.unknown_cards[j], evidence.get(j)) for j in opponents]
    deals = sample_deals(k.unseen, seats, precision.cap, rng)
    moves = list(moves) if moves is not None else list(game.legal_moves())
    if not moves:
        raise ValueError("option values need at least one option")
    results: dict[Move, list[int]] = {m: [] for m in moves}
    challenge = next((m for m in moves if m.kind is MoveKind.CHALLENGE), None)
    claimant, role = pending_claim(game) if challenge is not None else (None, None)
    split = {"bluff": [0, 0], "honest": [0, 0]}
    sequential = bool(precision.edges)
    active = set(moves)
    settled: set[Move] = set()
    done = 0
    target = min(precision.first, precision.cap)
    deal = resampler(game, observer)  # what the observer knows, read once for every world
    pick = _Picker(components)
    while True:
        for i in range(done, target):
            hands = dict(zip(opponents, deals[i], strict=True))
            world = deal(random.Random(rng.random()), hands)
            cast = [pick(rng) for _ in range(game.n)]
            stream = rng.random()
            # Each persona's game draw (does it bluff this game?) is the first number of a
            # stream seeded by the world, the same for every persona and every option.
            draw = random.Random(f"{stream}:{i}").random()
            truth = None
            if claimant is not None and role is not None:
                truth = any(proves(c, role) for c in world.hidden[claimant])
            for m in moves:
                if m not in active:
                    continue
                g = _copy_for_rollout(world, stream)
                g.apply(m)
                for persona in cast:
                    if type(persona).new_game is Persona.new_game:
                        persona.deal_game(draw)
                    else:  # a persona with a game draw of its own
                        persona.new_game(random.Random(f"{stream}:{i}"))
                won = int(play_out(g, cast, random.Random(stream), observer) == observer)
                results[m].append(won)
                if m is challenge and truth is not None:
                    split["honest" if truth else "bluff"][0] += won
                    split["honest" if truth else "bluff"][1] += 1
        done = target
        if not sequential:
            break
        settled = _settled(results, precision)
        best = _best(results)
        if len(settled) == len(moves) or done >= precision.cap:
            break
        active = {m for m in moves if m not in settled} | {best}
        target = min(precision.cap, 2 * done)
    best = _best(results)
    stop = STOP_FIXED if not sequential else (
        STOP_SETTLED if len(settled) == len(moves) else STOP_CAP)
    out = []
    for m in moves:
        r = results[m]
        n = len(r)
        win = sum(r) / n
        out.append(OptionValue(m, game.describe(m), win, _se(win, n), n,
                               0.0 if m is best else _paired_se(r, results[best]),
                               STOP_FIXED if stop == STOP_FIXED else (
                                   STOP_SETTLED if m in settled else STOP_CAP)))
    cv = None
    if challenge is not None and game.pending is not None:
        passing = next((v for v in out if v.move.kind is MoveKind.PASS), None)
        if passing is not None:
            w_win = split["bluff"][0] / split["bluff"][1] if split["bluff"][1] else 0.0
            w_lose = split["honest"][0] / split["honest"][1] if split["honest"][1] else 0.0
            p_star = None
            if w_win > w_lose:
                p_star = min(1.0, max(0.0, (passing.win - w_lose) / (w_win - w_lose)))
            cv = ChallengeValue(passing.win, w_win, w_lose, p_star, split["bluff"][1],
                                split["honest"][1])
    return Valuation(out, cv, sum(len(r) for r in results.values()), stop)


def option_values(game: Game, observer: int, belief: Belief | None, components: list[Component],
                  rollouts: int = 300, seed: int = 0, moves: list[Move] | None = None
                  ) -> tuple[list[OptionValue], ChallengeValue | None]:
    """`values` at a fixed count of playouts per option (the bots' quick looks, the estimate
    report): the options and, for a challenge decision, p*."""
    v = values(game, observer, belief, components, Precision.fixed(rollouts), seed, moves)
    return v.options, v.challenge


def _best(results: dict[Move, list[int]]) -> Move:
    """The option with the highest win rate (the first listed on a tie)."""
    return max(results, key=lambda m: sum(results[m]) / len(results[m]))


def _settled(results: dict[Move, list[int]], precision: Precision) -> set[Move]:
    """The options whose grade band is known: the loss against the best option, ± z paired
    standard errors, within one band; for the best option itself, no other option may be
    more than the first band above it."""
    best = _best(results)
    z = precision.z
    out = set()
    worst_above = 0.0  # how far above the best, at most, another option may really be
    for m, r in results.items():
        if m is best:
            continue
        lost, se = _paired_loss(r, results[best])
        low, high = max(0.0, lost - z * se), lost + z * se
        worst_above = max(worst_above, z * se - lost)
        if precision.band(100 * low) == precision.band(100 * high):
            out.add(m)
    if precision.band(100 * worst_above) == 0:
        out.add(best)
    return out


def _paired_loss(a: list[int], best: list[int]) -> tuple[float, float]:
    """The loss of `a` against `best` over the worlds both were played in, and its standard
    error, never below one discordant world's worth (1/n): with every game won, or every game
    lost, by both options the sample says zero noise, which a few more worlds could
    contradict."""
    n = min(len(a), len(best))
    d = [y - x for x, y in zip(a[:n], best[:n], strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 1.0
    return mean, max(sqrt(var / n), 1 / n)


class _Picker:
    """Draws the persona of a seat from the model's cast, as the bots play (tight, however
    loosely the model reads them): one `rng.choices` over the cast by weight. The persona
    drawn is one object per component, shared by every seat and world that draws it: a
    persona's only state is its game draw (`Persona.deal_game`), which is the same number for
    every seat of a world, so sharing changes no move."""

    def __init__(self, components: list[Component]) -> None:
        from dataclasses import replace

        cast = [c for c in components if c.cast]
        self.tight = [replace(c.persona, loose=0.0) for c in cast]
        self.weights = [c.weight for c in cast]

    def __call__(self, rng: random.Random) -> Persona:
        persona = rng.choices(self.tight, weights=self.weights)[0]
        if type(persona) is not Persona:  # a persona with state of its own: one per seat
            from dataclasses import replace

            return replace(persona)
        return persona


def _pick(components: list[Component], rng: random.Random) -> Persona:
    """One seat's persona drawn from the model's cast (`_Picker`)."""
    return _Picker(components)(rng)


def _paired_se(a: list[int], b: list[int]) -> float:
    """Standard error of mean(a − b) for outcomes paired by rollout (over the worlds both
    were played in)."""
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    if n < 2:
        return 0.0
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    return sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)


def _se(p: float, n: int) -> float:
    return sqrt(p * (1 - p) / n) if n else 0.0
