"""The disputed readings: each open point of the rule texts played both (or every) way.

One test per reading, named for what the table sees. The sources of each reading are in
`trainer.engine.rules.Options` and docs/engine.md.
"""

from __future__ import annotations

import pytest

from tests.helpers import act, everyone_passes, table
from trainer.engine.cards import Action, Character
from trainer.engine.errors import IllegalMoveError, SetupError
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.engine.rules import Options
from trainer.engine.variants import get_variant

D, A, CA, AM, CO = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                    Character.AMBASSADOR, Character.CONTESSA)


def four(options: Options | None = None, coins=(2, 2, 2, 2), **kw) -> Game:
    return table(("Ana", "Duke Captain", coins[0]), ("Ben", "Assassin Contessa", coins[1]),
                 ("Cal", "Ambassador Duke", coins[2]), ("Dee", "Captain Contessa", coins[3]),
                 options=options, **kw)


def opts(**kw: object) -> Options:
    return Options().with_(**kw)


# ------------------------------------------------------------------ several challengers
def test_first_challenger_alone_challenges_and_the_window_closes():
    g = four()
    act(g, "tax")
    g.apply(Move.challenge(1))
    assert g.phase is Phase.PROVE_ACTION and g.challenger == 1


def test_all_challengers_every_player_is_asked_even_after_a_challenge():
    g = four(opts(challengers="all"))
    act(g, "tax")
    g.apply(Move.challenge(1))
    assert g.phase is Phase.CHALLENGE_ACTION and g.decider == 2
    g.apply(Move.pass_(2))
    g.apply(Move.challenge(3))
    assert g.phase is Phase.PROVE_ACTION and g.decider == 0 and g.challenger == 1


def test_all_challengers_each_loses_an_influence_when_the_claim_is_proven():
    g = four(opts(challengers="all"), draws=("Contessa",))
    act(g, "tax")
    g.apply(Move.challenge(1))
    g.apply(Move.pass_(2))
    g.apply(Move.challenge(3))
    g.apply(Move.show(0, D))
    assert g.phase is Phase.LOSE and g.decider == 1
    g.apply(Move.lose(1, A))
    assert g.phase is Phase.LOSE and g.decider == 3
    g.apply(Move.lose(3, CA))
    assert g.revealed[1] == [A] and g.revealed[3] == [CA]
    assert g.coins[0] == 5 and g.actor == 1 and g.phase is Phase.ACTION


def test_all_challengers_a_caught_bluff_costs_the_claimant_one_influence_only():
    g = four(opts(challengers="all"), coins=(3, 2, 2, 2))
    act(g, "assassinate", 2)  # Ana holds no Assassin
    g.apply(Move.challenge(1))
    g.apply(Move.challenge(2))
    g.apply(Move.challenge(3))
    g.apply(Move.lose(0, CA))
    assert g.revealed == [[CA], [], [], []] and g.coins[0] == 3  # the cost comes back
    assert g.phase is Phase.ACTION and g.actor == 1


def test_all_challengers_a_challenged_block_makes_every_challenger_lose():
    g = four(opts(challengers="all"), draws=("Duke",))
    act(g, "steal", 3)
    everyone_passes(g)
    g.apply(Move.block(3, CA))
    g.apply(Move.challenge(0))
    g.apply(Move.challenge(1))
    g.apply(Move.pass_(2))
    g.apply(Move.show(3, CA))
    assert [g.decider, g.phase] == [0, Phase.LOSE]
    g.apply(Move.lose(0, D))
    assert [g.decider, g.phase] == [1, Phase.LOSE]


def test_all_challengers_each_takes_mcguires_coin():
    g = four(opts(challengers="all"), variant=get_variant("base+bounty"))
    act(g, "tax")
    g.apply(Move.challenge(1))
    g.apply(Move.challenge(2))
    g.apply(Move.pass_(3))
    assert g.coins[1:3] == [3, 3]


# --------------------------------------------------------- several Duke blocks of Foreign Aid
def test_first_blocker_a_disproved_block_lets_the_foreign_aid_through():
    g = four()
    act(g, "foreign_aid")
    g.apply(Move.block(1, D))  # Ben holds no Duke
    g.apply(Move.challenge(0))
    g.apply(Move.lose(1, A))
    assert g.coins[0] == 4 and g.phase is Phase.ACTION


def test_queue_of_blockers_the_next_player_may_block_after_a_disproved_block():
    g = four(opts(foreign_aid_blockers="queue"))
    act(g, "foreign_aid")
    g.apply(Move.block(1, D))
    g.apply(Move.challenge(0))
    g.apply(Move.lose(1, A))
    assert g.phase is Phase.BLOCK and g.decider == 2
    g.apply(Move.block(2, D))
    everyone_passes(g)
    assert g.coins[0] == 2 and g.phase is Phase.ACTION and g.actor == 1


def test_queue_of_blockers_players_who_passed_are_not_asked_again():
    g = four(opts(foreign_aid_blockers="queue"))
    act(g, "foreign_aid")
    g.apply(Move.pass_(1))
    g.apply(Move.block(2, D))
    g.apply(Move.challenge(0))
    g.apply(Move.lose(2, AM))  # Cal concedes the challenge
    assert g.phase is Phase.BLOCK and g.decider == 3


def test_random_blocker_everyone_is_asked_and_one_willing_player_is_drawn():
    g = four(opts(foreign_aid_blockers="random"), picks=(1,))
    act(g, "foreign_aid")
    g.apply(Move.block(1, D))
    assert g.phase is Phase.BLOCK and g.decider == 2
    g.apply(Move.pass_(2))
    g.apply(Move.block(3, D))
    assert g.blocker == 3 and g.phase is Phase.CHALLENGE_BLOCK
    chosen = [e for e in g.log if e.kind == "chosen_blocker"]
    assert chosen and chosen[0].data == {"player": 3, "among": (1, 3)}


def test_random_blocker_replays_from_the_log():
    g = four(opts(foreign_aid_blockers="random"), picks=(0,))
    act(g, "foreign_aid")
    g.apply(Move.block(1, D))
    g.apply(Move.block(2, D))
    g.apply(Move.pass_(3))
    assert g.blocker == 1
    again = Game.replay(g.log)
    assert again.blocker == 1 and again.phase is g.phase


# ------------------------------------------------------------------ gainless actions
def test_gainless_allowed_a_steal_from_a_player_with_no_coins_takes_nothing():
    g = four(coins=(2, 0, 2, 2))
    act(g, "steal", 1)
    everyone_passes(g)
    everyone_passes(g)
    assert g.coins[:2] == [2, 0]


def test_gainless_refused_no_steal_from_a_player_with_no_coins():
    g = four(opts(gainless_actions="refused"), coins=(2, 0, 2, 2))
    assert 1 not in {m.target for m in g.legal_moves() if m.action is Action.STEAL}
    with pytest.raises(IllegalMoveError, match="no coins"):
        act(g, "steal", 1)


def test_gainless_refused_no_income_foreign_aid_or_tax_from_an_empty_treasury():
    g = table(("Ana", "Duke Captain", 5), ("Ben", "Assassin Contessa", 9),
              ("Cal", "Ambassador Duke", 9), ("Dee", "Captain Contessa", 27),
              options=opts(gainless_actions="refused"), treasury=0)
    actions = {m.action for m in g.legal_moves()}
    assert not actions & {Action.INCOME, Action.FOREIGN_AID, Action.TAX}
    assert Action.EXCHANGE in actions  # there is always something to do
    with pytest.raises(IllegalMoveError, match="Treasury is empty"):
        act(g, "income")


def test_gainless_allowed_income_from_an_empty_treasury_gains_nothing():
    g = table(("Ana", "Duke Captain", 5), ("Ben", "Assassin Contessa", 9),
              ("Cal", "Ambassador Duke", 9), ("Dee", "Captain Contessa", 27), treasury=0)
    act(g, "income")
    assert g.coins[0] == 5 and g.treasury == 0


# ------------------------------------------------------- blocking after a failed challenge
def test_block_after_failed_challenge_the_target_may_block_after_a_third_players_challenge():
    g = four(draws=("Duke",))
    act(g, "steal", 3)
    g.apply(Move.pass_(1))
    g.apply(Move.challenge(2))
    g.apply(Move.show(0, CA))
    g.apply(Move.lose(2, AM))
    assert g.phase is Phase.BLOCK and g.decider == 3


def test_no_block_after_any_challenge_where_a_block_needs_an_unchallenged_action():
    g = four(opts(block_after_lost_challenge=False), draws=("Duke",))
    act(g, "steal", 3)
    g.apply(Move.pass_(1))
    g.apply(Move.challenge(2))
    g.apply(Move.show(0, CA))
    g.apply(Move.lose(2, AM))
    assert g.coins[0] == 4 and g.coins[3] == 0 and g.phase is Phase.ACTION


def test_no_block_after_the_targets_own_failed_challenge_either():
    g = four(opts(block_after_lost_challenge=False), draws=("Duke",))
    act(g, "steal", 1)
    g.apply(Move.challenge(1))
    g.apply(Move.show(0, CA))
    g.apply(Move.lose(1, A))
    assert g.coins[:2] == [4, 0] and g.phase is Phase.ACTION


def test_an_unchallenged_action_can_still_be_blocked_where_blocks_need_one():
    g = four(opts(block_after_lost_challenge=False))
    act(g, "steal", 1)
    everyone_passes(g)
    assert g.phase is Phase.BLOCK and g.decider == 1


# ------------------------------------------------------------------ more than ten players
def test_official_deck_stops_at_ten_players():
    with pytest.raises(SetupError, match="2–10 players"):
        Game.new(11, seed=1)


def test_web_deck_adds_one_card_of_each_per_two_more_players():
    game = Game.new(12, seed=1, options=opts(more_players="web"))
    assert len(game.deck) + 2 * 12 == 30  # 6 of each of the five characters
    assert get_variant("base").copies(12) == 6 and get_variant("base").copies(10) == 5


def test_web_deck_plays_a_game_of_twenty_to_the_end():
    import random

    game = Game.new(20, seed=3, options=opts(more_players="web"))
    choose = random.Random(3).choice
    while not game.is_over:
        game.apply(choose(game.legal_moves()))
    assert game.winner is not None


def test_more_players_does_not_apply_to_a_fixed_deck():
    forum = get_variant("forum")
    assert forum.most_players(opts(more_players="web")) == 8
    assert "more_players" not in Options().relevant(forum)


# ------------------------------------------------------------------ self-targeting (rule 7)
def test_nobody_may_coup_themselves_under_every_rule_text():
    g = four(coins=(7, 2, 2, 2))
    assert 0 not in {m.target for m in g.legal_moves()}
    with pytest.raises(IllegalMoveError, match="cannot target themselves"):
        act(g, "coup", 0)


def test_with_rule_seven_off_a_player_may_coup_themselves():
    g = four(coins=(7, 2, 2, 2), variant=get_variant("base-no_self_target"))
    act(g, "coup", 0)
    assert g.phase is Phase.LOSE and g.decider == 0


def test_with_rule_seven_off_a_claimant_is_asked_last_whether_to_challenge_themselves():
    g = four(variant=get_variant("mcguire-no_self_target-mat-low_start"),
             draws=("Captain",))
    act(g, "tax")
    asked = []
    while g.phase is Phase.CHALLENGE_ACTION and g.decider != 0:
        asked.append(g.decider)
        g.apply(Move.pass_(g.decider))
    assert asked == [1, 2, 3] and g.decider == 0
    g.apply(Move.challenge(0))  # takes the challenger's coin, then proves the Duke
    assert g.coins[0] == 3
    g.apply(Move.show(0, D))
    assert g.phase is Phase.LOSE and g.decider == 0
