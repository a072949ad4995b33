"""Challenges and counteractions, and the double danger of assassination."""

from __future__ import annotations

import pytest

from tests.helpers import act, everyone_passes, table
from trainer.engine.cards import Character
from trainer.engine.errors import IllegalMoveError
from trainer.engine.game import Phase
from trainer.engine.moves import Move
from trainer.engine.rules import Options

D, A, CA, AM, CO = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                    Character.AMBASSADOR, Character.CONTESSA)


def four(coins=(2, 2, 2, 2), **kw):
    return table(("Ana", "Duke Captain", coins[0]), ("Ben", "Assassin Contessa", coins[1]),
                 ("Cal", "Ambassador Duke", coins[2]), ("Dee", "Captain Contessa", coins[3]),
                 **kw)


def test_players_are_asked_to_challenge_one_at_a_time_clockwise_from_the_actor():
    g = four()
    act(g, "tax")
    asked = []
    while g.phase is Phase.CHALLENGE_ACTION:
        asked.append(g.decider)
        g.apply(Move.pass_(g.decider))
    assert asked == [1, 2, 3]


def test_the_first_willing_player_clockwise_is_the_one_who_challenges():
    g = four()
    act(g, "tax")
    g.apply(Move.pass_(1))
    g.apply(Move.challenge(2))
    assert g.challenger == 2 and g.phase is Phase.PROVE_ACTION and g.decider == 0


def test_the_target_first_option_asks_the_target_before_the_others():
    g = four(options=Options().with_(challenge_order="target_first"))
    act(g, "steal", 2)
    assert g.decider == 2


def test_the_claimant_cannot_challenge_itself():
    g = four()
    act(g, "tax")
    assert all(m.player != 0 for m in g.legal_moves())


def test_a_challenge_is_resolved_before_the_action():
    g = four()
    act(g, "steal", 1)  # Ana holds a Captain
    g.apply(Move.challenge(1))
    assert g.coins == [2, 2, 2, 2]


def test_a_claimant_who_cannot_prove_the_claim_loses_the_challenge_and_the_action_fails():
    g = four()
    act(g, "income")
    act(g, "tax")  # Ben has no Duke
    g.apply(Move.challenge(2))
    assert Move.show(1, D) not in g.legal_moves()
    g.apply(Move.lose(1, A))
    assert g.revealed[1] == [A] and g.coins[1] == 2 and g.actor == 2


def test_a_claimant_may_choose_not_to_prove_and_lose_the_challenge():
    g = four()
    act(g, "tax")
    g.apply(Move.challenge(1))
    assert Move.show(0, D) in g.legal_moves()
    g.apply(Move.lose(0, D))  # "or do not wish to prove it"
    assert g.revealed[0] == [D] and g.coins[0] == 2 and g.phase is Phase.ACTION


def test_a_proven_card_is_shuffled_back_and_replaced_with_a_new_card():
    g = four(draws=("Contessa",))
    act(g, "tax")
    g.apply(Move.challenge(1))
    deck_before = sorted(g.deck)
    g.apply(Move.show(0, D))
    assert sorted(g.hidden[0]) == sorted([CA, CO])
    expected = list(deck_before)
    expected.remove(CO)
    assert sorted(g.deck) == sorted([*expected, D])


def test_the_challenger_who_loses_loses_an_influence():
    g = four(draws=("Contessa",))
    act(g, "tax")
    g.apply(Move.challenge(1))
    g.apply(Move.show(0, D))
    assert g.phase is Phase.LOSE and g.decider == 1
    g.apply(Move.lose(1, CO))
    assert g.revealed[1] == [CO]


def test_the_action_still_resolves_after_a_failed_challenge():
    g = four(draws=("Contessa",))
    act(g, "tax")
    g.apply(Move.challenge(1))
    g.apply(Move.show(0, D))
    g.apply(Move.lose(1, CO))
    assert g.coins[0] == 5 and g.actor == 1


def test_showing_a_card_that_was_not_claimed_does_not_prove_the_claim():
    g = four()
    act(g, "tax")
    g.apply(Move.challenge(1))
    with pytest.raises(IllegalMoveError, match="the claim was Duke"):
        g.apply(Move.show(0, CA))


def test_a_successfully_challenged_assassination_returns_its_three_coins():
    g = four(coins=(3, 2, 2, 2))
    act(g, "assassinate", 1)  # Ana holds no Assassin
    g.apply(Move.challenge(1))
    g.apply(Move.lose(0, CA))
    assert g.coins[0] == 3 and g.hidden[1] == [A, CO]


def test_blocks_can_be_challenged_and_the_acting_player_is_asked_first():
    g = four()
    act(g, "foreign aid")
    g.apply(Move.pass_(1))
    g.apply(Move.block(2, D))
    assert g.phase is Phase.CHALLENGE_BLOCK and g.decider == 0
    g.apply(Move.pass_(0))
    assert g.decider == 1  # then clockwise, skipping the blocker


def test_a_proven_block_stops_the_action_and_the_challenger_loses_an_influence():
    g = four(draws=("Assassin",))
    act(g, "foreign aid")
    g.apply(Move.pass_(1))
    g.apply(Move.block(2, D))
    g.apply(Move.challenge(0))
    g.apply(Move.show(2, D))
    g.apply(Move.lose(0, CA))
    assert g.coins[0] == 2 and g.revealed[0] == [CA] and sorted(g.hidden[2]) == sorted([A, AM])


def test_a_failed_block_lets_the_action_resolve():
    g = four()
    act(g, "steal", 1)
    everyone_passes(g)
    g.apply(Move.block(1, CA))  # Ben has no Captain
    g.apply(Move.challenge(0))
    g.apply(Move.lose(1, CO))
    assert g.coins[:2] == [4, 0]


def test_double_danger_a_challenged_contessa_bluff_loses_two_influences():
    g = four(coins=(2, 2, 2, 3))
    act(g, "income")
    act(g, "income")
    act(g, "income")
    act(g, "assassinate", 2)  # Dee's Assassin is a bluff nobody calls
    everyone_passes(g)
    g.apply(Move.block(2, CO))  # Cal bluffs the Contessa
    g.apply(Move.challenge(3))
    g.apply(Move.lose(2, AM))  # loses the challenge...
    assert g.phase is Phase.LOSE and g.decider == 2
    g.apply(Move.lose(2, D))  # ...and then the assassination
    assert not g.alive[2] and g.revealed[2] == [AM, D]


def test_double_danger_a_failed_challenge_of_a_real_assassin_loses_two_influences():
    g = four(coins=(2, 3, 2, 2), draws=("Duke",))
    act(g, "income")
    act(g, "assassinate", 2)
    g.apply(Move.challenge(2))
    g.apply(Move.show(1, A))
    g.apply(Move.lose(2, AM))
    g.apply(Move.pass_(2))  # no Contessa block
    g.apply(Move.lose(2, D))
    assert not g.alive[2]


def target_loses_its_challenge_of_an_assassin(options: Options | None = None):
    """Ben assassinates Dee; Dee challenges, Ben shows the Assassin, Dee loses a Captain."""
    g = four(coins=(2, 3, 2, 2), draws=("Duke",), options=options)
    act(g, "income")
    act(g, "assassinate", 3)
    g.apply(Move.pass_(2))
    g.apply(Move.challenge(3))
    g.apply(Move.show(1, A))
    g.apply(Move.lose(3, CA))
    return g


def test_a_target_who_lost_its_own_challenge_may_still_block():
    g = target_loses_its_challenge_of_an_assassin()
    assert g.phase is Phase.BLOCK and g.decider == 3


def test_with_the_option_off_a_target_who_lost_its_challenge_cannot_block():
    g = target_loses_its_challenge_of_an_assassin(
        Options().with_(block_after_lost_challenge=False))
    assert g.phase is Phase.LOSE and g.decider == 3  # straight to the assassination


def test_a_target_killed_by_its_own_failed_challenge_takes_no_second_loss():
    g = table(("Ana", "Assassin Duke", 3), ("Ben", "Captain", 2), ("Cal", "Duke Duke", 2),
              revealed={1: "Contessa"}, draws=("Contessa",))
    act(g, "assassinate", 1)
    g.apply(Move.challenge(1))
    g.apply(Move.show(0, A))
    g.apply(Move.lose(1, CA))
    assert not g.alive[1] and g.phase is Phase.ACTION and g.actor == 2
