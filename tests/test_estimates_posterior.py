"""The behavioural posterior: decisions move the estimate the way the behaviour model says,
and over many persona games it predicts honesty better than counting alone."""

from __future__ import annotations

import pytest

from trainer.estimates.calibration import harvest


def _harvest(weights: dict[str, float], claims: int, seed: int = 0):
    """(prior, posterior, truth) for claims seen by seat 0 in games of the model's personas."""
    return [(c.prior, c.posterior, c.honest)
            for c in harvest(claims, seed=seed, model=weights)]


def test_an_honest_only_model_believes_every_claim():
    rows = _harvest({"honest": 1.0}, 150)
    assert rows and all(truth for *_, truth in rows)
    # Every claim is believed more than counting alone believes it. The model also holds
    # players no bot describes (casual, reckless, anyone), so a first claim is not taken on
    # trust, and behaviour alone never makes it certain (the cap, `FLOOR`): on average the
    # claims are believed more than twice as much as counting believes them.
    assert all(post >= prior for prior, post, _ in rows)
    assert min(post for _, post, _ in rows) > 0.5
    mean_post = sum(post for _, post, _ in rows) / len(rows)
    assert mean_post > 0.8
    assert mean_post > 2 * sum(prior for prior, _, _ in rows) / len(rows)


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


# ------------------------------------------------------------------ who the player is
class _Taxer:
    """Claims Tax with a fixed chance when holding a Duke and another without, else Income."""

    def __init__(self, with_duke: float, without: float) -> None:
        self.with_duke, self.without = with_duke, without

    def policy(self, obs):
        from trainer.engine.cards import Action, Character
        from trainer.engine.moves import Move

        tax, income = Move.act(obs.player, Action.TAX), Move.act(obs.player, Action.INCOME)
        a = self.with_duke if Character.DUKE in obs.hand else self.without
        return {tax: a, income: 1 - a}


def _two_kinds():
    from trainer.estimates.posterior import Component

    # Truthful taxes mostly with a Duke and never without; the liar taxes mostly without.
    return [Component("truthful", _Taxer(0.9, 0.0), 0.5),  # type: ignore[arg-type]
            Component("liar", _Taxer(0.3, 0.9), 0.5)]  # type: ignore[arg-type]


def _play(game, belief, viewer, moves):
    for move in moves:
        belief.observe(game.observation(viewer), move)
        game.apply(move)


def _next_tax(game, belief, viewer, claimant):
    """Income for everyone up to the claimant's next turn, then the claimant's Tax; the
    observation with the Tax pending."""
    from trainer.engine.cards import Action
    from trainer.engine.moves import Move

    while game.decider != claimant:
        _play(game, belief, viewer, [Move.act(game.decider, Action.INCOME)])
    _play(game, belief, viewer, [Move.act(claimant, Action.TAX)])
    return game.observation(viewer)


def _fresh_after(obs, viewer, claimant):
    """A belief that saw only the last Tax: what the claim says about the hand alone."""
    from trainer.engine.cards import Action
    from trainer.engine.moves import Move
    from trainer.estimates.posterior import Belief

    fresh = Belief(viewer, _two_kinds(), _cards())
    fresh.observe(obs, Move.act(claimant, Action.TAX))
    return fresh


def _cards():
    from trainer.engine.variants import get_variant

    return get_variant("base").cards


def test_a_proved_claim_says_who_the_player_is_after_the_hand_is_renewed():
    from trainer.engine.cards import Character
    from trainer.engine.moves import Move
    from trainer.estimates.posterior import Belief, p_holds
    from trainer.quiz.bank import new_game

    game = new_game(2, 0, "base")  # seat 0 acts first and holds a Duke
    claimant, viewer = game.decider, 1 - game.decider
    belief = Belief(viewer, _two_kinds(), game.variant.cards)
    _next_tax(game, belief, viewer, claimant)
    _play(game, belief, viewer, [Move.challenge(viewer), Move.show(claimant, Character.DUKE)])
    _play(game, belief, viewer, [Move.lose(viewer, game.hidden[viewer][0])])  # the challenger
    # The hand is new, but a Tax made with a Duke is what the truthful kind does most.
    truthful, liar = belief.kind[claimant]
    assert truthful > liar
    obs = _next_tax(game, belief, viewer, claimant)
    assert p_holds(obs, belief, claimant, Character.DUKE) > \
        p_holds(obs, _fresh_after(obs, viewer, claimant), claimant, Character.DUKE)


def test_a_conceded_challenge_says_the_claim_was_a_bluff_and_who_made_it():
    from trainer.engine.cards import Character
    from trainer.engine.moves import Move
    from trainer.estimates.posterior import Belief, p_holds
    from trainer.quiz.bank import new_game

    game = new_game(2, 1, "base")  # seat 0 acts first, with a Contessa and an Ambassador
    claimant, viewer = game.decider, 1 - game.decider
    assert not any(c.role is Character.DUKE for c in game.hidden[claimant])
    belief = Belief(viewer, _two_kinds(), game.variant.cards)
    _next_tax(game, belief, viewer, claimant)
    _play(game, belief, viewer, [Move.challenge(viewer),
                                 Move.lose(claimant, game.hidden[claimant][0])])
    # Giving up a card instead of showing a Duke: the liar's move, so the next Tax is
    # believed less than the claim alone would make it.
    obs = _next_tax(game, belief, viewer, claimant)
    assert p_holds(obs, belief, claimant, Character.DUKE) < \
        p_holds(obs, _fresh_after(obs, viewer, claimant), claimant, Character.DUKE)


def test_the_spread_is_wide_on_a_first_claim_and_holds_the_estimate():
    from trainer.engine.cards import Action, Character
    from trainer.engine.moves import Move
    from trainer.estimates.posterior import Belief, p_holds
    from trainer.quiz.bank import new_game

    game = new_game(2, 3, "base")
    claimant, viewer = game.decider, 1 - game.decider
    belief = Belief(viewer, _two_kinds(), game.variant.cards)
    tax = Move.act(claimant, Action.TAX)
    belief.observe(game.observation(viewer), tax)
    game.apply(tax)
    obs = game.observation(viewer)
    low, high = belief.spread(obs, claimant, Character.DUKE)
    point = p_holds(obs, belief, claimant, Character.DUKE)
    assert low <= point <= high
    # Truthful: it holds a Duke as surely as the cap on behaviour allows (counting's odds
    # times 1 / FLOOR); a liar: less likely than counting alone says.
    from trainer.estimates.posterior import FLOOR

    prior = p_holds(obs, None, claimant, Character.DUKE)
    odds = prior / (1 - prior) / FLOOR
    assert high == pytest.approx(odds / (1 + odds), abs=0.01)
    assert low < prior < high - 0.3


def test_with_one_kind_of_player_the_spread_is_the_estimate_itself():
    from trainer.engine.cards import Action, Character
    from trainer.engine.moves import Move
    from trainer.estimates.posterior import Belief, Component, p_holds
    from trainer.quiz.bank import new_game

    game = new_game(2, 3, "base")
    claimant, viewer = game.decider, 1 - game.decider
    belief = Belief(viewer, [Component("one", _Taxer(0.9, 0.3), 1.0)],  # type: ignore[arg-type]
                    game.variant.cards)
    tax = Move.act(claimant, Action.TAX)
    belief.observe(game.observation(viewer), tax)
    game.apply(tax)
    obs = game.observation(viewer)
    point = p_holds(obs, belief, claimant, Character.DUKE)
    assert belief.spread(obs, claimant, Character.DUKE) == pytest.approx((point, point))


def _steal(game, belief, viewer: int, player: int):
    """`player` steals from the richest opponent; everyone lets it through."""
    from trainer.engine.cards import Action
    from trainer.engine.moves import Move

    obs = game.observation(viewer)
    target = max((s for s in range(game.n) if s != player), key=lambda s: game.coins[s])
    steal = Move.act(player, Action.STEAL, target)
    belief.observe(obs, steal)
    game.apply(steal)
    while not game.is_over and game.pending.phase.value != "action":
        move = next(m for m in game.legal_moves() if m.kind.value == "pass")
        belief.observe(game.observation(viewer), move)
        game.apply(move)


def test_a_player_who_keeps_stealing_is_expected_to_steal_whatever_they_hold():
    from trainer.engine.cards import Action
    from trainer.estimates.calibration import MODEL
    from trainer.estimates.posterior import Belief, mixture
    from trainer.quiz.bank import new_game

    game = new_game(2, 0, "base")
    claimant, viewer = game.decider, 1 - game.decider
    belief = Belief(viewer, mixture(MODEL), game.variant.cards)
    before = belief.preference(claimant)
    _steal(game, belief, viewer, claimant)
    _income(game, belief, viewer, 1 - claimant)
    _steal(game, belief, viewer, claimant)
    after = belief.preference(claimant)
    # The Dirichlet's counts: two steals make a steal likelier than a tax for this player.
    assert before[Action.STEAL] < before[Action.TAX]
    assert after[Action.STEAL] > after[Action.TAX]


def _income(game, belief, viewer: int, player: int) -> None:
    from trainer.engine.cards import Action
    from trainer.engine.moves import Move

    move = Move.act(player, Action.INCOME)
    belief.observe(game.observation(viewer), move)
    game.apply(move)


def test_behaviour_alone_never_moves_one_hand_more_than_the_cap_against_another():
    import random

    from trainer.estimates.calibration import MODEL
    from trainer.estimates.knowledge import knowledge
    from trainer.estimates.posterior import FLOOR, Belief, mixture
    from trainer.policies.personas import personas
    from trainer.quiz.bank import new_game

    game = new_game(3, 7, "base")
    seats = [personas()["honest"], personas()["bluffer"], personas()["skeptic"]]
    rng = random.Random(7)
    belief = Belief(0, mixture(MODEL), game.variant.cards)
    checked = 0
    while not game.is_over and checked < 200:
        p = game.decider
        move = seats[p].choose(game.observation(p), rng)
        belief.observe(game.observation(0), move)
        game.apply(move)
        obs = game.observation(0)
        k = knowledge(obs)
        for j, lk in belief.evidence_for(obs).items():
            hands = belief._hands(k.unknown_cards[j])
            values = [lk(h) for h in hands]
            assert max(values) <= min(values) / FLOOR * (1 + 1e-9)
            checked += 1
    assert checked
