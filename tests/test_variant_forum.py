"""The forum variant (002): 21 cards, a fixed-order deck, Graverobber and its own Inquisitor."""

from __future__ import annotations

from tests.helpers import act, cards, everyone_passes, table
from trainer.engine.cards import Action, Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.engine.variants import FORUM


def forum(*seats, **kw) -> Game:
    return table(*seats, variant="forum", **kw)


# Court decks (top first) for the three-player tables below.
DECK_A = ("Duke Duke Assassin Assassin Assassin Captain Captain Ambassador Ambassador Contessa "
          "Contessa Graverobber Graverobber Inquisitor Inquisitor")
DECK_B = ("Duke Duke Assassin Assassin Assassin Captain Ambassador Ambassador Ambassador Contessa "
          "Contessa Graverobber Graverobber Inquisitor Inquisitor")
DECK_C = ("Duke Assassin Assassin Assassin Captain Captain Ambassador Ambassador Ambassador "
          "Contessa Contessa Graverobber Graverobber Inquisitor Inquisitor")


def test_the_deck_has_21_cards_for_up_to_8_players():
    assert len(FORUM.court(2)) == len(FORUM.court(8)) == 21
    assert FORUM.max_players == 8


def test_the_ambassador_draws_the_top_two_and_returns_to_the_bottom():
    game = forum(("Ana", "Ambassador Duke", 2), ("Ben", "Captain Contessa", 2),
                 ("Cat", "Graverobber Inquisitor", 2), deck=DECK_A)
    act(game, "exchange")
    everyone_passes(game)
    assert sorted(game.exchange_pool()) == sorted(cards("Ambassador Duke Duke Duke"))
    game.apply(Move.keep(0, tuple(cards("Duke Duke"))))
    assert game.deck[-2:] == cards("Ambassador Duke")
    assert game.deck[0] == Character.ASSASSIN


def test_a_proven_card_is_shuffled_in_and_the_top_card_replaces_it():
    game = forum(("Ana", "Duke Captain", 2), ("Ben", "Captain Contessa", 2),
                 ("Cat", "Graverobber Inquisitor", 2), deck=DECK_B, picks=(3,))
    act(game, "tax")
    game.apply(Move.challenge(1))
    game.apply(Move.show(0, Character.DUKE))
    assert game.hidden[0] == cards("Captain Duke")  # the top card was a Duke
    assert game.deck[2] == Character.DUKE and len(game.deck) == 15


def test_the_contessa_blocks_stealing_and_the_ambassador_does_not():
    game = forum(("Ana", "Captain Duke", 2), ("Ben", "Ambassador Contessa", 2))
    act(game, "steal", 1)
    everyone_passes(game)
    blocks = {m.character for m in game.legal_moves() if m.kind == "block"}
    assert blocks == {Character.CAPTAIN, Character.CONTESSA}


def test_the_inquisitor_gains_2_and_looks_at_the_top_and_bottom_cards():
    game = forum(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2),
                 ("Cat", "Graverobber Duke", 2), deck=DECK_C)
    act(game, "peek")
    everyone_passes(game)
    assert game.coins[0] == 4
    assert ("peek", (Character.DUKE, Character.INQUISITOR)) in game.observation(0).seen_privately()
    assert all(kind != "peek" for kind, _ in game.observation(1).seen_privately())


def test_graverobber_claims_split_the_exiled_players_coins_rounded_down():
    game = forum(("Ana", "Duke Captain", 7), ("Ben", "Contessa", 5),
                 ("Cat", "Graverobber Duke", 2), ("Dan", "Assassin Captain", 2),
                 revealed={1: "Ambassador"})
    act(game, "coup", 1)
    game.apply(Move.lose(1, Character.CONTESSA))
    assert game.phase is Phase.CLAIM and game.decider == 2
    game.apply(Move.claim(2, Character.GRAVEROBBER))
    game.apply(Move.claim(3, Character.GRAVEROBBER))
    game.apply(Move.pass_(0))
    everyone_passes(game)  # nobody challenges Cat's claim, nor then Dan's
    assert game.coins == [0, 0, 4, 4]  # 5 // 2 each; the odd coin goes to the Treasury
    assert game.phase is Phase.ACTION and game.actor == 2


def test_a_graverobber_claim_can_be_challenged():
    game = forum(("Ana", "Duke Captain", 7), ("Ben", "Contessa", 4),
                 ("Cat", "Inquisitor Duke", 2), revealed={1: "Ambassador"})
    act(game, "coup", 1)
    game.apply(Move.lose(1, Character.CONTESSA))
    game.apply(Move.claim(2, Character.GRAVEROBBER))
    game.apply(Move.pass_(0))
    game.apply(Move.challenge(0))
    game.apply(Move.lose(2, Character.INQUISITOR))
    assert game.coins == [0, 0, 2] and game.phase is Phase.ACTION


def test_a_turn_that_times_out_is_income_or_a_coup_at_10():
    game = forum(("Ana", "Duke Captain", 2), ("Ben", "Captain Contessa", 10))
    assert game.timeout_move() == Move.act(0, Action.INCOME)
    game.apply(game.timeout_move())
    assert game.timeout_move() == Move.act(1, Action.COUP, 0)


def test_a_window_that_times_out_passes():
    game = forum(("Ana", "Duke Captain", 2), ("Ben", "Captain Contessa", 2))
    act(game, "tax")
    assert game.timeout_move() == Move.pass_(1)


def test_timeouts_belong_to_the_forum_variant_only():
    assert Game.new(3, seed=1).timeout_move() is None
