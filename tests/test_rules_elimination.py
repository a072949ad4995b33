"""Exile, the end of the game, the set-up and the open points about coins."""

from __future__ import annotations

import pytest

from tests.helpers import act, everyone_passes, table
from trainer.engine.cards import Character
from trainer.engine.errors import GameOverError, IllegalMoveError, SetupError
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.engine.rules import Options
from trainer.engine.variants import BASE

D, A, CA, AM, CO = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                    Character.AMBASSADOR, Character.CONTESSA)


def last_cards(**kw):
    return table(("Ana", "Captain", 7), ("Ben", "Duke", 3), ("Cal", "Contessa", 4),
                 revealed={0: "Assassin", 1: "Assassin", 2: "Duke"}, **kw)


def test_an_exiled_player_returns_all_coins_to_the_treasury():
    g = last_cards()
    act(g, "coup", 1)
    g.apply(Move.lose(1, D))
    assert not g.alive[1] and g.coins[1] == 0 and g.treasury == 50 - 0 - 4


def test_an_exiled_player_is_skipped_in_turn_order_and_never_decides():
    g = last_cards()
    act(g, "coup", 1)
    g.apply(Move.lose(1, D))
    assert g.actor == 2
    act(g, "tax")
    assert g.decider == 0  # Ben is never asked to challenge


def test_the_game_ends_when_only_one_player_is_left():
    g = table(("Ana", "Captain", 7), ("Ben", "Duke", 3), revealed={0: "Duke", 1: "Duke"})
    act(g, "coup", 1)
    g.apply(Move.lose(1, D))
    assert g.is_over and g.winner == 0 and g.legal_moves() == ()


def test_no_move_is_legal_after_the_game_ends():
    g = table(("Ana", "Captain", 7), ("Ben", "Duke", 3), revealed={0: "Duke", 1: "Duke"})
    act(g, "coup", 1)
    g.apply(Move.lose(1, D))
    with pytest.raises(GameOverError, match="Ana has won"):
        g.apply(Move.pass_(0))


def test_a_steal_still_takes_coins_from_a_target_exiled_by_its_failed_block():
    g = table(("Ana", "Captain Duke", 2), ("Ben", "Duke", 2), ("Cal", "Contessa Duke", 2),
              revealed={1: "Assassin"})
    act(g, "steal", 1)
    everyone_passes(g)
    g.apply(Move.block(1, AM))
    g.apply(Move.challenge(0))
    g.apply(Move.lose(1, D))
    assert not g.alive[1] and g.coins[:2] == [4, 0] and g.treasury == 50 - 6


def test_with_the_option_off_an_exiled_target_has_no_coins_left_to_steal():
    g = table(("Ana", "Captain Duke", 2), ("Ben", "Duke", 2), ("Cal", "Contessa Duke", 2),
              revealed={1: "Assassin"}, options=Options().with_(steal_from_eliminated=False))
    act(g, "steal", 1)
    everyone_passes(g)
    g.apply(Move.block(1, AM))
    g.apply(Move.challenge(0))
    g.apply(Move.lose(1, D))
    assert g.coins[:2] == [2, 0] and g.treasury == 50 - 4


def test_the_treasury_pays_only_what_it_holds():
    g = table(("Ana", "Duke Captain", 9), ("Ben", "Ambassador Captain", 9), ("Cal", "Duke Duke", 9),
              ("Dee", "Captain Assassin", 9), ("Eve", "Contessa Contessa", 9),
              ("Fay", "Assassin Assassin", 4))
    assert g.treasury == 1
    act(g, "tax")
    everyone_passes(g)
    assert g.coins[0] == 10 and g.treasury == 0


def test_an_unlimited_treasury_always_pays():
    g = table(("Ana", "Duke Captain", 30), ("Ben", "Assassin Contessa", 30),
              options=Options().with_(finite_treasury=False))
    assert g.treasury is None


def test_a_two_player_game_gives_the_first_player_only_one_coin():
    g = Game.new(2, seed=3)
    assert g.coins == [1, 2]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players_start_with_two_coins_each(players):
    assert Game.new(players, seed=1).coins == [2] * players


@pytest.mark.parametrize(("players", "copies"), [(2, 3), (6, 3), (7, 4), (8, 4), (9, 5), (10, 5)])
def test_more_than_six_players_use_four_or_five_of_each_character(players, copies):
    g = Game.new(players, seed=1)
    every = [c for h in g.hidden for c in h] + g.deck
    assert all(every.count(c) == copies for c in BASE.characters)
    assert len(g.deck) == 5 * copies - 2 * players


def test_each_player_is_dealt_two_cards():
    g = Game.new(5, seed=2)
    assert all(len(h) == 2 for h in g.hidden)


@pytest.mark.parametrize("players", [1, 11])
def test_the_base_game_is_for_two_to_ten_players(players):
    with pytest.raises(SetupError, match="2–10 players"):
        Game.new(players)


def test_a_position_with_a_missing_card_is_rejected():
    with pytest.raises(SetupError, match="3 Duke cards"):
        table(("Ana", "Duke Captain", 2), ("Ben", "Duke Captain", 2), deck="Assassin")


def test_unknown_options_are_rejected_with_the_known_names():
    with pytest.raises(ValueError, match="unknown option 'steal'"):
        Options().with_(steal=True)


def test_a_move_of_the_wrong_kind_says_what_is_expected():
    g = last_cards()
    act(g, "coup", 1)
    with pytest.raises(IllegalMoveError, match="choose an influence to lose"):
        g.apply(Move.challenge(1))
    assert g.phase is Phase.LOSE
