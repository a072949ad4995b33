"""The bot's estimate step by step (`trainer.estimates.bayes_steps`): it starts at card
counting, every move multiplies the odds by its likelihood ratio, and it ends at the bot's own
posterior for the item, computed here on the bank builder's path (`building.evaluate_task`
with the rollouts left out), not through the function under test."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from tests.helpers import shipped_bank
from trainer.engine.cards import Action, Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.engine.observation import Observation
from trainer.estimates.bayes_steps import TracedBelief, bayes_steps, odds
from trainer.estimates.counting import p_holds_prior
from trainer.estimates.knowledge import knowledge
from trainer.estimates.posterior import FLOOR, TREMBLE, Component, p_holds
from trainer.quiz import building
from trainer.quiz.bank import Item, new_game
from trainer.quiz.feedback import estimate_steps

BANK = shipped_bank()
CLAIMS = [i for i in BANK.items if i.has_claim]
# Every claim item takes about 13 s; a fixed sample of 40 (lessons and persona games alike).
SAMPLE = random.Random(7).sample(CLAIMS, 40)


def bot_path(item: Item) -> tuple[Game, Any]:
    """The item's game and belief exactly as the bank builder makes them for its estimate."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(building, "evaluate", lambda game, viewer, belief, **_: (game, belief))
        task = building.Task(kind=item.kind, viewer=item.viewer, rollout_seed=0,
                             variant=item.variant, players=item.players, seed=item.seed,
                             moves=item.moves, scenario=item.scenario, step=item.step)
        return building.evaluate_task(task, rollouts=1)  # type: ignore[return-value]


@pytest.mark.parametrize("item", SAMPLE, ids=lambda i: i.id)
def test_the_steps_run_from_counting_to_the_bots_posterior(item: Item) -> None:
    assert item.claimant is not None and item.claim is not None
    role = Character(item.claim)
    game, belief = bot_path(item)
    obs = game.observation(item.viewer)
    steps = estimate_steps(item)
    assert steps is not None and steps[0].move is None and steps[0].lr is None
    # Starts at card counting, the item's own counting figure.
    assert steps[0].p_holds == pytest.approx(p_holds(obs, None, item.claimant, role),
                                             abs=1e-12)
    assert steps[0].p_bluff == pytest.approx(item.prior, abs=5e-5)
    # Ends at the bot's posterior, computed on the bot's path.
    bot = p_holds(obs, belief, item.claimant, role)
    assert steps[-1].p_holds == pytest.approx(bot, abs=1e-9)
    assert steps[-1].p_bluff == pytest.approx(item.bot, abs=5e-5)
    # The product telescopes: each line is the one before times its ratio.
    log_odds = math.log(steps[0].odds) if 0 < steps[0].odds < math.inf else None
    for before, step in zip(steps, steps[1:], strict=False):
        assert step.lr is not None and step.lr >= 0
        assert step.odds == pytest.approx(before.odds * step.lr, rel=1e-9)
        if log_odds is not None and step.lr > 0:
            log_odds += math.log(step.lr)
    if log_odds is not None and 0 < steps[-1].odds < math.inf:
        assert log_odds == pytest.approx(math.log(steps[-1].odds), abs=1e-9)


class _Fixed:
    """A persona that claims Tax with probability 0.9 when it holds a Duke and 0.3 when it
    does not, and takes Income otherwise: simple enough to work an LR out by hand."""

    def policy(self, obs: Observation) -> dict[Move, float]:
        tax, income = Move.act(obs.player, Action.TAX), Move.act(obs.player, Action.INCOME)
        a = 0.9 if Character.DUKE in obs.hand else 0.3
        return {tax: a, income: 1 - a}


def test_one_likelihood_ratio_worked_out_by_hand() -> None:
    game = new_game(2, 3, "base")
    viewer = 1 - game.decider  # the other player acts first
    claimant = game.decider
    belief = TracedBelief(viewer, [Component("fixed", _Fixed(), 1.0)],  # type: ignore[arg-type]
                          game.variant.cards)
    before = game.observation(viewer)
    tax = Move.act(claimant, Action.TAX)
    belief.observe(before, tax)
    game.apply(tax)
    assert game.pending is not None and game.pending.phase is Phase.CHALLENGE_ACTION
    obs = game.observation(viewer)
    steps = bayes_steps(belief, obs, claimant, Character.DUKE)
    assert len(steps) == 2
    # Counting: 2 unknown cards out of the unseen ones, with the Dukes the viewer cannot see.
    k = knowledge(obs)
    unseen = sum(k.unseen.values())
    dukes = k.unseen.get(Character.DUKE, 0)
    prior = p_holds_prior(unseen, dukes, 2)
    assert steps[0].p_holds == pytest.approx(prior, abs=1e-12)
    # Every hand has the same moves on one's own turn (bluffs are legal).
    n = len(before.legal_moves_for((Character.DUKE, Character.CONTESSA)))
    assert n == len(before.legal_moves_for((Character.CAPTAIN, Character.CONTESSA))) > 2
    duke = (1 - TREMBLE) * 0.9 + TREMBLE / n
    other = (1 - TREMBLE) * 0.3 + TREMBLE / n
    # The cap: each hand's likelihood relative to the likeliest hand's, with FLOOR kept.
    lr = 1 / (FLOOR + (1 - FLOOR) * other / duke)
    assert steps[1].lr == pytest.approx(lr, rel=1e-12)
    assert steps[1].odds == pytest.approx(odds(prior) * lr, rel=1e-12)
    assert steps[1].p_holds == pytest.approx(p_holds(obs, belief, claimant, Character.DUKE),
                                             abs=1e-12)
    assert steps[1].turn == 1


def test_a_move_of_the_observer_changes_nothing() -> None:
    game = new_game(2, 5, "base")
    viewer = game.decider
    other = 1 - viewer
    belief = TracedBelief(viewer, [Component("fixed", _Fixed(), 1.0)],  # type: ignore[arg-type]
                          game.variant.cards)
    for move in (Move.act(viewer, Action.INCOME), Move.act(other, Action.TAX)):
        belief.observe(game.observation(viewer), move)
        game.apply(move)
    steps = bayes_steps(belief, game.observation(viewer), other, Character.DUKE)
    assert [s.lr for s in steps][:2] == [None, 1.0]
    assert steps[2].lr is not None and steps[2].lr > 1


def test_a_proof_renews_the_hand_so_the_claim_before_it_says_nothing_about_it() -> None:
    game = new_game(2, 0, "base")  # seat 0 acts first and holds a Duke
    claimant, viewer = game.decider, 1 - game.decider
    assert Character.DUKE in game.hidden[claimant]
    belief = TracedBelief(viewer, [Component("fixed", _Fixed(), 1.0)],  # type: ignore[arg-type]
                          game.variant.cards)
    for move in (Move.act(claimant, Action.TAX), Move.challenge(viewer),
                 Move.show(claimant, Character.DUKE)):
        belief.observe(game.observation(viewer), move)
        game.apply(move)
    obs = game.observation(viewer)
    steps = bayes_steps(belief, obs, claimant, Character.DUKE)
    # The Duke went back into the deck and a new card was drawn: what the Tax said was about
    # the old hand, so no line moves the odds, and the end is counting alone.
    assert [s.lr for s in steps] == [None, 1.0, 1.0, 1.0]
    assert steps[-1].p_holds == pytest.approx(p_holds(obs, None, claimant, Character.DUKE),
                                              abs=1e-12)
    assert steps[-1].p_holds == pytest.approx(p_holds(obs, belief, claimant, Character.DUKE),
                                              abs=1e-12)
