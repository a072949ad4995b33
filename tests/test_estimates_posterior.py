"""The behavioural posterior: decisions move the estimate the way the behaviour model says,
and over many persona games it predicts honesty better than counting alone."""

from __future__ import annotations

import random

from trainer.bots.personas import personas
from trainer.estimates.posterior import Belief, mixture, p_holds, public_legal_moves
from trainer.game import Game, Phase
from trainer.moves import MoveKind
from trainer.rules import BASE


def test_public_legal_actions_match_the_engine():
    for seed in range(40):
        game = Game.new(2 + seed % 5, seed=seed, variant="reformation" if seed % 2 else "base")
        rng = random.Random(seed)
        for _ in range(60):
            if game.is_over:
                break
            if game.phase is Phase.ACTION:
                obs = game.observation((game.decider + 1) % game.n)
                d = game.decider
                assert set(public_legal_moves(obs, d, tuple(game.hidden[d]))) == set(
                    game.legal_moves())
            game.apply(rng.choice(game.legal_moves()))


def _harvest(weights: dict[str, float], games: int, seed: int = 0):
    """(prior, posterior, truth) for every action claim, seen by seat 0."""
    comps = mixture(weights)
    names = list(weights)
    out = []
    for g in range(games):
        rng = random.Random(seed + g)
        seats = [personas()[rng.choices(names, weights=list(weights.values()))[0]]
                 for _ in range(4)]
        game = Game.new(4, seed=seed + g)
        rngs = [random.Random(f"{seed + g}:{i}") for i in range(4)]
        for p, r in zip(seats, rngs, strict=True):
            p.new_game(r)
        belief = Belief(0, comps, BASE.characters)
        while not game.is_over:
            p = game.decider
            move = seats[p].choose(game.observation(p), rngs[p])
            obs0 = game.observation(0)
            if (move.kind is MoveKind.ACT and p != 0 and game.phase is Phase.ACTION
                    and game.variant.spec(move.action).claim is not None
                    and move.action.value != "embezzle"):
                claim = game.variant.spec(move.action).claim
                truth = any(c.role == claim for c in game.hidden[p])
                belief.observe(obs0, move)
                after = game.observation(0)
                out.append((p_holds(obs0, None, p, claim), p_holds(after, belief, p, claim),
                            truth))
                game.apply(move)
                continue
            belief.observe(obs0, move)
            game.apply(move)
    return out


def test_an_honest_only_model_believes_every_claim():
    rows = _harvest({"honest": 1.0}, 15)
    assert rows and all(truth for *_, truth in rows)
    # Only the model's 2% tremble keeps these short of certainty.
    assert all(post > 0.8 and post >= prior for prior, post, _ in rows)
    assert sum(post for _, post, _ in rows) / len(rows) > 0.97


def test_the_posterior_beats_counting_alone_when_the_model_matches_the_players():
    rows = _harvest({"honest": 1.0, "bluffer": 1.0, "rule": 1.0}, 25, seed=100)
    assert len(rows) > 100
    prior = sum((p - t) ** 2 for p, _, t in rows) / len(rows)
    post = sum((q - t) ** 2 for _, q, t in rows) / len(rows)
    assert post < prior
