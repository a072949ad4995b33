"""General and character actions, as the summary card states them."""

from __future__ import annotations

import pytest

from tests.helpers import act, everyone_passes, kinds, table
from trainer.engine.cards import Action, Character
from trainer.engine.errors import IllegalMoveError
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind

D, A, CA, AM, CO = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                    Character.AMBASSADOR, Character.CONTESSA)


def three(coins=(2, 2, 2), **kw):
    return table(("Ana", "Duke Captain", coins[0]), ("Ben", "Assassin Contessa", coins[1]),
                 ("Cal", "Ambassador Duke", coins[2]), **kw)


def test_income_takes_one_coin_from_the_treasury():
    g = three()
    act(g, "income")
    assert g.coins[0] == 3 and g.treasury == 50 - 7


def test_income_cannot_be_blocked_or_challenged():
    g = three()
    act(g, "income")
    assert g.phase is Phase.ACTION and g.actor == 1


def test_foreign_aid_takes_two_coins_when_nobody_blocks():
    g = three()
    act(g, "foreign aid")
    everyone_passes(g)
    assert g.coins[0] == 4


def test_foreign_aid_can_be_blocked_by_any_player_claiming_the_duke():
    g = three()
    act(g, "foreign aid")
    g.apply(Move.pass_(1))
    g.apply(Move.block(2, D))
    everyone_passes(g)
    assert g.coins[0] == 2 and g.actor == 1


def test_foreign_aid_itself_cannot_be_challenged():
    g = three()
    act(g, "foreign aid")
    assert g.phase is Phase.BLOCK and "challenge" not in kinds(g)


def test_coup_costs_seven_coins_and_the_target_loses_an_influence():
    g = three(coins=(7, 2, 2))
    act(g, "coup", 1)
    assert g.phase is Phase.LOSE and g.decider == 1
    g.apply(Move.lose(1, A))
    assert g.coins[0] == 0 and g.revealed[1] == [A] and g.hidden[1] == [CO]


def test_coup_cannot_be_blocked_or_challenged():
    g = three(coins=(7, 2, 2))
    act(g, "coup", 2)
    assert g.phase is Phase.LOSE


def test_coup_needs_seven_coins():
    g = three(coins=(6, 2, 2))
    with pytest.raises(IllegalMoveError, match="costs 7 coins and Ana has 6"):
        act(g, "coup", 1)


def test_a_player_starting_the_turn_with_ten_coins_must_coup():
    g = three(coins=(10, 2, 2))
    assert {m.action for m in g.legal_moves()} == {Action.COUP}
    with pytest.raises(IllegalMoveError, match="must launch a Coup"):
        act(g, "income")


def test_tax_takes_three_coins():
    g = three()
    act(g, "tax")
    everyone_passes(g)
    assert g.coins[0] == 5


def test_tax_cannot_be_blocked():
    g = three()
    act(g, "tax")
    everyone_passes(g)
    assert g.phase is Phase.ACTION and g.actor == 1


def test_assassination_costs_three_coins_and_the_target_loses_an_influence():
    g = three(coins=(2, 3, 2))
    act(g, "income")
    act(g, "assassinate", 2)
    assert g.coins[1] == 0
    everyone_passes(g)  # no challenge
    g.apply(Move.pass_(2))  # no block
    g.apply(Move.lose(2, AM))
    assert g.revealed[2] == [AM]


def test_assassination_is_blocked_only_by_the_target_claiming_the_contessa():
    g = three(coins=(3, 2, 2))
    act(g, "assassinate", 1)
    everyone_passes(g)
    assert g.decider == 1 and set(g.legal_moves()) == {Move.block(1, CO), Move.pass_(1)}


def test_a_blocked_assassination_keeps_its_three_coins_spent():
    g = three(coins=(3, 2, 2))
    act(g, "assassinate", 1)
    everyone_passes(g)
    g.apply(Move.block(1, CO))
    everyone_passes(g)
    assert g.coins[0] == 0 and g.hidden[1] == [A, CO] and g.actor == 1


def test_steal_takes_two_coins_from_the_target():
    g = three()
    act(g, "steal", 1)
    everyone_passes(g)
    g.apply(Move.pass_(1))
    assert g.coins[:2] == [4, 0]


def test_steal_takes_only_one_coin_from_a_target_with_one():
    g = three(coins=(2, 1, 2))
    act(g, "steal", 1)
    everyone_passes(g)
    g.apply(Move.pass_(1))
    assert g.coins[:2] == [3, 0]


def test_steal_from_a_target_without_coins_takes_nothing():
    g = three(coins=(2, 0, 4))
    act(g, "steal", 1)
    everyone_passes(g)
    g.apply(Move.pass_(1))
    assert g.coins == [2, 0, 4]


def test_only_the_target_may_block_a_steal_with_captain_or_ambassador():
    g = three()
    act(g, "steal", 1)
    everyone_passes(g)
    assert g.phase is Phase.BLOCK and g.decider == 1
    assert set(g.legal_moves()) == {Move.block(1, AM), Move.block(1, CA), Move.pass_(1)}
    g.apply(Move.pass_(1))
    assert g.phase is Phase.ACTION  # Cal, not targeted, was never asked


def test_exchange_draws_two_cards_and_keeps_as_many_as_the_player_has_influence():
    g = three(draws=("Contessa Assassin",))
    act(g, "income")
    act(g, "income")
    act(g, "exchange")
    everyone_passes(g)
    assert g.phase is Phase.EXCHANGE and sorted(g.exchange_pool()) == sorted([AM, D, CO, A])
    assert all(len(m.cards) == 2 for m in g.legal_moves())
    g.apply(Move.keep(2, (CO, A)))
    assert sorted(g.hidden[2]) == sorted([CO, A]) and len(g.deck) == 9
    assert g.deck.count(AM) == 3 and g.deck.count(D) == 2  # the returned pair


def test_exchange_with_one_influence_keeps_one_card():
    g = table(("Ana", "Ambassador", 2), ("Ben", "Duke Duke", 2), revealed={0: "Captain"},
              draws=("Contessa Assassin",))
    act(g, "exchange")
    everyone_passes(g)
    assert {m.cards for m in g.legal_moves()} == {(A,), (AM,), (CO,)}
    g.apply(Move.keep(0, (CO,)))
    assert g.hidden[0] == [CO] and g.revealed[0] == [CA]


def test_keeping_the_wrong_number_of_cards_is_illegal():
    g = three(draws=("Contessa Assassin",))
    act(g, "income")
    act(g, "income")
    act(g, "exchange")
    everyone_passes(g)
    with pytest.raises(IllegalMoveError, match="must keep exactly 2 card"):
        g.apply(Move.keep(2, (CO,)))


def test_nobody_may_target_themselves():
    g = three(coins=(7, 2, 2))
    with pytest.raises(IllegalMoveError, match="cannot target themselves"):
        act(g, "coup", 0)


def test_a_player_may_not_pass_on_their_turn():
    g = three()
    with pytest.raises(IllegalMoveError, match="choose an action"):
        g.apply(Move.pass_(0))


def test_only_the_player_whose_decision_it_is_may_move():
    g = three()
    with pytest.raises(IllegalMoveError, match="it is Ana's decision now"):
        g.apply(Move.act(1, Action.INCOME))


def test_a_keep_written_in_any_order_is_the_one_legal_keep() -> None:
    game = table(("Ana", "Ambassador Duke", 2), ("Ben", "Captain Contessa", 2),
                 draws=("Assassin Contessa",))
    act(game, "exchange")
    everyone_passes(game)
    assert game.phase is Phase.EXCHANGE
    keep = next(m for m in game.legal_moves() if m.kind is MoveKind.KEEP
                and m.cards is not None and len(set(m.cards)) == 2)
    assert keep.cards is not None
    backwards = keep._replace(cards=tuple(reversed(keep.cards)))
    assert game.as_legal(backwards) == keep
    assert game.as_legal(keep) is keep
    with pytest.raises(IllegalMoveError):
        game.as_legal(Move.pass_(0))
