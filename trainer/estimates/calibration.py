"""How well the estimates are calibrated: claims harvested from persona games with the truth
known, scored for three estimators — the behavioural posterior, the counting prior, and the
popular approximation (copies left / unknown cards × cards held) that coupgame.com uses.

`python -m trainer calibration --claims N` prints the Brier scores and the binned reliability
(`calibration_text`), writes the claims as CSV and draws the reliability chart (Altair, saved as
PNG).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import pandas as pd

from trainer.engine.cards import Character, proves
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.engine.rules import Variant
from trainer.engine.variants import BASE, rule_set
from trainer.estimates.knowledge import knowledge
from trainer.estimates.posterior import Belief, mixture, p_holds
from trainer.policies.personas import personas

MODEL = {"honest": 1.0, "rule": 1.0, "bluffer": 1.0, "skeptic": 1.0}


@dataclass(frozen=True)
class Claim:
    game: int
    players: int
    claimant: str
    character: str
    posterior: float
    prior: float
    approx: float
    honest: bool


def approximation(obs: Observation, claimant: int, role: Character) -> float:
    """coupgame.com's estimate: copies left unseen / unknown cards × cards held (capped)."""
    k = knowledge(obs)
    total = sum(k.unseen.values())
    left = sum(n for c, n in k.unseen.items() if proves(c, role))
    return min(1.0, left / total * k.unknown_cards.get(claimant, 0)) if total else 0.0


class Seat(Protocol):
    """A player at a harvest's table: a persona, or any policy of the same shape."""

    def new_game(self, rng: random.Random) -> None: ...

    def choose(self, obs: Observation, rng: random.Random) -> Move: ...


# Who sits where in one game, from the game's random stream and the player count, and whose
# claims are recorded.
Seating = Callable[[random.Random, int], tuple[Sequence[Seat], frozenset[int]]]


def model_seating(model: dict[str, float]) -> Seating:
    """Every seat a persona drawn from the model; every claim but the observer's recorded."""
    names = list(model)

    def seat(rng: random.Random, players: int) -> tuple[Sequence[Seat], frozenset[int]]:
        seats = [personas()[rng.choices(names, weights=list(model.values()))[0]]
                 for _ in range(players)]
        return seats, frozenset(range(1, players))

    return seat


def harvest(claims: int, *, players: int = 4, seed: int = 0, variant: Variant | str = BASE,
            progress: Callable[[int], object] | None = None,
            model: dict[str, float] | None = None,
            seating: Seating | None = None, uninformed: float | None = None) -> list[Claim]:
    """Action and block claims seen by seat 0, estimated under the model; by default in games
    of personas drawn from that same model, or at the table `seating` lays (how the estimates
    fare against players the model does not describe); `progress(1)` after each claim.
    `uninformed`, when given, is the uninformed component's prior share in place of the
    model's strangers (`posterior.mixture`): near 1, the estimate of a player who moves at
    random knowing they do, the best any reading of moves can do against them."""
    model = model or MODEL
    comps = mixture(model, uninformed)
    seating = seating or model_seating(model)
    rules = rule_set(variant)
    cards = rules.variant.cards
    out: list[Claim] = []
    g = 0
    while len(out) < claims:
        rng = random.Random(seed + g)
        seats, recorded = seating(rng, players)
        game = Game.new(players, seed=seed + g, variant=rules.variant, options=rules.options)
        rngs = [random.Random(f"{seed + g}:{i}") for i in range(players)]
        for persona, r in zip(seats, rngs, strict=True):
            persona.new_game(r)
        belief = Belief(0, comps, cards)
        while not game.is_over and len(out) < claims:
            p = game.decider
            move = seats[p].choose(game.observation(p), rngs[p])
            before = game.observation(0)
            role = None
            watched = p != 0 and p in recorded
            if watched and move.kind is MoveKind.BLOCK:
                role = move.character
            elif (watched and move.kind is MoveKind.ACT and game.phase is Phase.ACTION
                  and move.action is not None):
                spec = game.variant.spec(move.action)
                role = None if spec.inverted else spec.claim
            if role is not None:
                prior = p_holds(before, None, p, role)
                approx = approximation(before, p, role)
                belief.observe(before, move)
                post = p_holds(before, belief, p, role)
                out.append(Claim(g, players, game.names[p], str(role), post, prior, approx,
                                 any(proves(c, role) for c in game.hidden[p])))
                if progress is not None:
                    progress(1)
            else:
                belief.observe(before, move)
            game.apply(move)
        g += 1
    return out


def brier(frame: pd.DataFrame, column: str) -> float:
    return float(((frame[column] - frame["honest"].astype(float)) ** 2).mean())


def reliability(frame: pd.DataFrame, bins: int = 10) -> pd.DataFrame:
    """Per estimator and bin of predicted honesty: mean prediction, observed rate, count."""
    rows = []
    for column, label in (("posterior", "behavioural posterior"), ("prior", "counting prior"),
                          ("approx", "coupgame approximation")):
        cut = pd.cut(frame[column], [i / bins for i in range(bins + 1)], include_lowest=True)
        for _, group in frame.groupby(cut, observed=True):
            rows.append({"estimator": label, "predicted": group[column].mean(),
                         "observed": group["honest"].mean(), "count": len(group)})
    return pd.DataFrame(rows)


def claims_frame(claims: list[Claim]) -> pd.DataFrame:
    """One row per claim, the shape `brier`, `reliability` and the CSV file all take."""
    return pd.DataFrame([c.__dict__ for c in claims])


def calibration_text(frame: pd.DataFrame, table: pd.DataFrame) -> str:
    """The claims' summary, a Brier score per estimator and the reliability `table`: the
    numbers to compare before opening the chart."""
    lines = [f"{len(frame)} claims from {frame['game'].nunique()} games; honest rate "
             f"{frame['honest'].mean():.3f}"]
    for column, label in (("posterior", "behavioural posterior"), ("prior", "counting prior"),
                          ("approx", "coupgame approximation")):
        lines.append(f"Brier {label}: {brier(frame, column):.4f}")
    with pd.option_context("display.width", 120):
        lines.append(table.round(3).to_string(index=False))
    return "\n".join(lines)
