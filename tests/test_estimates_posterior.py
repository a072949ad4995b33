"""The behavioural posterior: decisions move the estimate the way the behaviour model says,
and over many persona games it predicts honesty better than counting alone."""

from __future__ import annotations

from trainer.estimates.calibration import harvest


def _harvest(weights: dict[str, float], claims: int, seed: int = 0):
    """(prior, posterior, truth) for claims seen by seat 0 in games of the model's personas."""
    return [(c.prior, c.posterior, c.honest)
            for c in harvest(claims, seed=seed, model=weights)]


def test_an_honest_only_model_believes_every_claim():
    rows = _harvest({"honest": 1.0}, 150)
    assert rows and all(truth for *_, truth in rows)
    # Only the model's 2% tremble keeps these short of certainty.
    assert all(post > 0.8 and post >= prior for prior, post, _ in rows)
    assert sum(post for _, post, _ in rows) / len(rows) > 0.97


def test_the_posterior_beats_counting_alone_when_the_model_matches_the_players():
    rows = _harvest({"honest": 1.0, "bluffer": 1.0, "rule": 1.0}, 400, seed=100)
    prior = sum((p - t) ** 2 for p, _, t in rows) / len(rows)
    post = sum((q - t) ** 2 for _, q, t in rows) / len(rows)
    assert post < prior


def test_paying_instead_of_losing_a_card_rules_no_hand_out():
    # McGuire: a player who pays coins for a lost challenge reveals nothing about the hand;
    # the public model has no such move, and it must not zero every hand.
    from trainer.engine.moves import MoveKind
    from trainer.engine.variants import get_variant
    from trainer.estimates.posterior import Belief, mixture
    from trainer.quiz.bank import new_game
    from trainer.quiz.building import DEFAULT_MODEL, persona_positions

    for seed in range(100_000, 100_400):
        moves, _ = persona_positions(seed, 4, "mcguire", DEFAULT_MODEL)
        if any(m.kind is MoveKind.PAY for m in moves):
            break
    else:
        raise AssertionError("no McGuire game with a payment in 400 seeds")
    game = new_game(4, seed, "mcguire")
    payer = next(m.player for m in moves if m.kind is MoveKind.PAY)
    viewer = (payer + 1) % 4
    belief = Belief(viewer, mixture(DEFAULT_MODEL), get_variant("mcguire").cards)
    for m in moves:
        belief.observe(game.observation(viewer), m)
        game.apply(m)
        for weights in belief.evidence.values():
            assert any(w > 0 for table in weights for w in table.values())
