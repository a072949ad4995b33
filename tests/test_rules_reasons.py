"""Every illegal move and impossible position is refused with a reason a person can act on."""

from __future__ import annotations

import pytest

from tests.helpers import act, everyone_passes, table
from trainer.engine.cards import Action, Character
from trainer.engine.errors import IllegalMoveError, InvalidMoveError, SetupError
from trainer.engine.game import Game
from trainer.engine.moves import Move

D, A, CA, AM, CO = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                    Character.AMBASSADOR, Character.CONTESSA)


def three(coins=(2, 2, 2)):
    return table(("Ana", "Duke Captain", coins[0]), ("Ben", "Assassin Contessa", coins[1]),
                 ("Cal", "Ambassador Duke", coins[2]), revealed=None)


def test_a_move_by_a_player_who_does_not_exist_is_refused():
    with pytest.raises(IllegalMoveError, match="there is no player 7"):
        three().apply(Move.pass_(7))


def test_something_that_is_not_a_move_is_refused_as_invalid():
    with pytest.raises(InvalidMoveError, match="is not a move") as info:
        three().apply("income")  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert info.value.move == "income"


def test_an_exiled_player_makes_no_more_decisions():
    g = table(("Ana", "Captain", 7), ("Ben", "Duke", 3), ("Cal", "Duke Duke", 2),
              revealed={0: "Assassin", 1: "Assassin"})
    act(g, "coup", 1)
    g.apply(Move.lose(1, D))
    with pytest.raises(IllegalMoveError, match="Ben is out of the game"):
        g.apply(Move.act(1, Action.INCOME))


def test_a_block_with_the_wrong_character_names_the_allowed_ones():
    g = three()
    act(g, "steal", 1)
    everyone_passes(g)
    with pytest.raises(IllegalMoveError, match="steal can be blocked only with Ambassador or "
                                               "Captain"):
        g.apply(Move.block(1, CO))


def test_showing_a_card_the_claimant_does_not_hold_is_refused():
    g = three()
    act(g, "income")
    act(g, "tax")  # Ben claims a Duke he does not hold
    g.apply(Move.challenge(2))
    with pytest.raises(IllegalMoveError, match="Ben has no Duke to show"):
        g.apply(Move.show(1, D))


def test_losing_a_card_the_player_does_not_hold_lists_their_cards():
    g = three(coins=(7, 2, 2))
    act(g, "coup", 1)
    with pytest.raises(IllegalMoveError, match=r"Ben has no face-down Duke to lose "
                                               r"\(face down: Assassin, Contessa\)"):
        g.apply(Move.lose(1, D))


def test_keeping_cards_that_were_not_drawn_is_refused():
    g = three()
    g.chance.push([CO, A])  # type: ignore[attr-defined]
    act(g, "exchange")
    everyone_passes(g)
    with pytest.raises(IllegalMoveError, match="are not among"):
        g.apply(Move.keep(0, (AM, AM)))


def test_an_exchange_keep_in_any_order_is_accepted():
    g = three()
    g.chance.push([CO, A])  # type: ignore[attr-defined]
    act(g, "exchange")
    everyone_passes(g)
    g.apply(Move(Move.keep(0, (CO, D)).kind, 0, cards=(D, CO)))
    assert sorted(g.hidden[0]) == sorted([CO, D])


def test_a_targeted_action_needs_a_target():
    with pytest.raises(IllegalMoveError, match="steal needs a target"):
        three().apply(Move.act(0, Action.STEAL))


def test_an_untargeted_action_takes_no_target():
    with pytest.raises(IllegalMoveError, match="tax does not take a target"):
        three().apply(Move.act(0, Action.TAX, 1))


def test_an_exiled_player_cannot_be_targeted():
    g = table(("Ana", "Captain", 7), ("Ben", "Duke", 3), ("Cal", "Duke Duke", 2),
              revealed={0: "Assassin", 1: "Assassin"})
    act(g, "coup", 1)
    g.apply(Move.lose(1, D))
    act(g, "income")
    with pytest.raises(IllegalMoveError, match="the target must be a player still in the game"):
        g.apply(Move.act(0, Action.STEAL, 1))


@pytest.mark.parametrize(("kwargs", "reason"), [
    ({"names": ["Ana", "Ana"]}, "player names must be different"),
    ({"coins": [2]}, "one hand and one coin count per player"),
    ({"coins": [-1, 2]}, "coins cannot be negative"),
    ({"treasury": 40}, "together they must make the 50 coins in the box"),
    ({"first": 5}, "the first player"),
])
def test_an_impossible_position_is_refused_with_its_reason(kwargs, reason):
    base = {"names": ["Ana", "Ben"], "hands": [[D, CA], [A, CO]], "coins": [2, 2],
            "deck": [D, D, A, A, CA, CA, AM, AM, AM, CO, CO]}
    with pytest.raises(SetupError, match=reason):
        Game(**{**base, **kwargs})


def test_a_position_needs_two_players_with_influence():
    with pytest.raises(SetupError, match="at least two players must still have influence"):
        Game(names=["Ana", "Ben"], hands=[[D, CA], []], revealed=[[], [A, CO]], coins=[2, 0],
             deck=[D, D, A, A, CA, CA, AM, AM, AM, CO, CO])


# ---------------------------------------------------------------- structured fields
def test_an_illegal_move_names_the_field_at_fault_and_the_pending_decision():
    g = three()
    act(g, "steal", 1)
    everyone_passes(g)
    with pytest.raises(IllegalMoveError) as info:
        g.apply(Move.block(1, CO))
    e = info.value
    assert (e.field, e.phase, e.player, e.move) == ("character", "block", 1, Move.block(1, CO))
    assert isinstance(e, ValueError)


def test_a_move_out_of_turn_blames_the_player():
    with pytest.raises(IllegalMoveError) as info:
        three().apply(Move.act(2, Action.INCOME))
    assert info.value.field == "player"
    assert info.value.player == 0


def test_an_unaffordable_action_blames_the_action_and_a_missing_target_the_target():
    g = three()
    with pytest.raises(IllegalMoveError) as info:
        g.apply(Move.act(0, Action.COUP, 1))
    assert info.value.field == "action"
    with pytest.raises(IllegalMoveError) as info:
        g.apply(Move.act(0, Action.STEAL))
    assert info.value.field == "target"


def test_a_move_error_survives_pickling_with_its_fields():
    import pickle

    with pytest.raises(IllegalMoveError) as info:
        three().apply(Move.act(2, Action.INCOME))
    copy = pickle.loads(pickle.dumps(info.value))
    assert (type(copy), str(copy), copy.field, copy.player) == (
        IllegalMoveError, str(info.value), "player", 0)


def test_a_set_up_error_names_the_argument_and_the_card():
    with pytest.raises(SetupError) as info:
        Game(names=["Ana", "Ben"], hands=[[D, D], [D, A]], coins=[2, 2],
             deck=[A, A, CA, CA, CA, AM, AM, AM, CO, CO])
    e = info.value
    assert (e.field, e.card, e.expected, e.found) == ("cards", "Contessa", 3, 2)
    with pytest.raises(SetupError) as info:
        Game(names=["Ana", "Ben"], hands=[[D, D], [D, A]], coins=[2, 2], first=5,
             deck=[A, A, CA, CA, CA, AM, AM, AM, CO, CO, CO])
    assert info.value.field == "first"
