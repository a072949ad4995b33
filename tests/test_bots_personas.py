"""Personas play every variant to the end from their observation alone, reproducibly."""

from __future__ import annotations

import random

import pytest

from trainer.bots.play import play_game
from trainer.engine.cards import Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import MoveKind
from trainer.engine.variants import VARIANTS
from trainer.policies.personas import Persona, personas


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", list(personas()))
def test_every_persona_finishes_games_of_every_variant(variant, name):
    v = VARIANTS[variant]
    for seed, k in enumerate(range(v.min_players, min(v.max_players, 5) + 1)):
        game = play_game([personas()[name] for _ in range(k)], variant=variant, seed=seed)
        assert game.is_over


def test_the_same_seed_plays_the_same_game():
    a = play_game([personas()["rule"] for _ in range(4)], seed=11)
    b = play_game([personas()["rule"] for _ in range(4)], seed=11)
    assert [e for e in a.log if e.kind == "move"] == [e for e in b.log if e.kind == "move"]


def test_every_policy_is_a_distribution_over_the_legal_moves():
    rng = random.Random(3)
    for name, persona in personas().items():
        game = Game.new(4, seed=5)
        persona.new_game(rng)
        for _ in range(200):
            if game.is_over:
                break
            obs = game.observation(game.decider)
            dist = persona.policy(obs)
            assert set(dist) <= set(obs.legal_moves), name
            assert sum(dist.values()) == pytest.approx(1.0) and min(dist.values()) >= 0
            game.apply(persona.choose(obs, rng))


def test_the_honest_persona_never_claims_a_character_it_does_not_hold():
    honest = [personas()["honest"] for _ in range(4)]
    for seed in range(30):
        game = Game.new(4, seed=seed)
        rngs = [random.Random(seed * 10 + i) for i in range(4)]
        while not game.is_over:
            p = game.decider
            move = honest[p].choose(game.observation(p), rngs[p])
            roles = {c.role for c in game.hidden[p]}
            if move.kind is MoveKind.ACT and game.phase is Phase.ACTION:
                spec = game.variant.spec(move.action)
                assert spec.claim is None or spec.claim in roles
            if move.kind is MoveKind.BLOCK:
                assert move.character in roles
            game.apply(move)


def test_a_claim_of_a_character_whose_copies_are_all_visible_is_always_challenged():
    from tests.helpers import act, table

    honest = Persona("Honest", 0.0, 0.0)
    game = table(("Ana", "Duke Duke", 2), ("Ben", "Captain", 2), revealed={1: "Duke"}, first=1)
    act(game, "tax")  # Ana holds two Dukes and sees the third face up
    dist = honest.policy(game.observation(0))
    assert [m.kind for m, p in dist.items() if p == 1.0] == [MoveKind.CHALLENGE]
    game = table(("Ana", "Duke Captain", 2), ("Ben", "Captain", 2), revealed={1: "Duke"},
                 first=1)
    act(game, "tax")  # one Duke is still unseen: the honest persona lets it go
    dist = honest.policy(game.observation(0))
    assert dist[next(m for m in dist if m.kind is MoveKind.PASS)] == 1.0


def test_bots_see_only_their_observation():
    persona = personas()["rule"]
    game = Game.new(3, seed=2)
    obs = game.observation(game.decider)
    assert not hasattr(obs, "hidden")
    assert all(isinstance(c, Character) for c in obs.hand)
    persona.new_game(random.Random(0))
    persona.choose(obs, random.Random(0))


def test_the_calibrated_persona_keeps_a_belief_and_plays_to_the_end():
    from trainer.bots.calibrated import Calibrated

    bot = Calibrated(rollouts=4)
    game = play_game([bot, personas()["bluffer"]], seed=3)
    assert game.is_over and bot.belief is not None and bot.belief.decisions


@pytest.mark.parametrize("variant", ["inquisitor", "reformation", "mcguire", "forum", "draft"])
def test_the_calibrated_persona_plays_the_variants(variant):
    from trainer.bots.calibrated import Calibrated

    game = play_game([Calibrated(rollouts=3), personas()["rule"]], variant=variant, seed=4)
    assert game.is_over
