"""Two-player draft (001) and the official Inquisitor (001, 003), as the texts state them."""

from __future__ import annotations

import pytest

from tests.helpers import act, cards, everyone_passes, table
from trainer.engine.cards import Action, Character
from trainer.engine.chance import ScriptedChance
from trainer.engine.errors import IllegalMoveError
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.rules import Options
from trainer.engine.variants import DRAFT


def draft_game(third: str = "Duke Assassin Captain Ambassador Contessa") -> Game:
    sets = [list(DRAFT.characters), list(DRAFT.characters)]
    return Game(names=["Ana", "Ben"], hands=[[], []], coins=[1, 2], deck=cards(third),
                variant=DRAFT, offers=sets, chance=ScriptedChance())


# -- two-player draft
def test_draft_each_player_secretly_keeps_one_card_of_their_own_set():
    game = draft_game()
    assert game.phase is Phase.DRAFT and game.decider == 0
    assert {m.cards for m in game.legal_moves()} == {(c,) for c in DRAFT.characters}
    game.apply(Move.keep(0, (Character.DUKE,)))
    assert game.decider == 1 and game.hidden[0] == [Character.DUKE]
    assert sorted(game.removed) == sorted(cards("Assassin Captain Ambassador Contessa"))


def test_draft_choice_and_discards_stay_private():
    game = draft_game()
    game.apply(Move.keep(0, (Character.DUKE,)))
    seen_by_ben = game.observation(1)
    assert all(e.visible_to in (None, 1) for e in seen_by_ben.events)
    assert "Duke" not in str([e for e in seen_by_ben.events if e.kind != "offer"])
    assert seen_by_ben.offers[0] == ()


def test_draft_third_set_deals_one_card_each_and_leaves_a_court_of_three():
    game = draft_game("Captain Contessa Duke Assassin Ambassador")
    game.apply(Move.keep(0, (Character.DUKE,)))
    game.apply(Move.keep(1, (Character.ASSASSIN,)))
    assert game.phase is Phase.ACTION and game.decider == 0
    assert game.hidden == [cards("Duke Captain"), cards("Assassin Contessa")]
    assert len(game.deck) == 3 and len(game.removed) == 8


def test_draft_first_player_starts_with_one_coin():
    game = Game.new(2, seed=5, variant="draft")
    assert game.coins == [1, 2]
    assert game.phase is Phase.DRAFT


# -- Inquisitor
def inquisitor(*seats, **kw) -> Game:
    return table(*seats, variant="inquisitor", **kw)


def test_inquisitor_replaces_the_ambassador():
    game = Game.new(4, seed=1, variant="inquisitor")
    every = [c for h in game.hidden for c in h] + game.deck
    assert Character.AMBASSADOR not in every and every.count(Character.INQUISITOR) == 3


def test_inquisitor_exchange_draws_one_card():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2),
                      draws=("Assassin",))
    act(game, "exchange")
    everyone_passes(game)
    assert game.phase is Phase.EXCHANGE
    assert sorted(game.exchange_pool()) == sorted(cards("Inquisitor Duke Assassin"))


def test_inquisitor_blocks_stealing():
    game = inquisitor(("Ana", "Captain Duke", 2), ("Ben", "Inquisitor Contessa", 2))
    act(game, "steal", 1)
    everyone_passes(game)
    assert Move.block(1, Character.INQUISITOR) in game.legal_moves()
    assert Move.block(1, Character.AMBASSADOR) not in game.legal_moves()


def test_examine_the_target_chooses_the_card_to_show_and_only_the_inquisitor_sees_it():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2),
                      ("Cat", "Duke Assassin", 2))
    act(game, "examine", 1)
    everyone_passes(game)
    assert game.phase is Phase.EXAMINE_OFFER and game.decider == 1
    game.apply(Move.offer(1, Character.CONTESSA))
    assert game.phase is Phase.EXAMINE_DECIDE and game.decider == 0
    ana = game.observation(0).seen_privately()
    assert ("examined", (Character.CONTESSA,)) in ana
    cat = game.observation(2)
    assert "Contessa" not in repr(cat.to_dict()["events"])


def test_examine_hand_back_keeps_the_card():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2))
    act(game, "examine", 1)
    everyone_passes(game)
    game.apply(Move.offer(1, Character.CAPTAIN))
    game.apply(Move.choose(0, "return"))
    assert game.hidden[1] == cards("Captain Contessa") and game.phase is Phase.ACTION


def test_examine_forced_swap_draws_a_new_card_and_returns_the_shown_one():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2),
                      draws=("Assassin",))
    act(game, "examine", 1)
    everyone_passes(game)
    game.apply(Move.offer(1, Character.CAPTAIN))
    game.apply(Move.choose(0, "swap"))
    assert sorted(game.hidden[1]) == sorted(cards("Contessa Assassin"))
    assert Character.CAPTAIN in game.deck


def test_examine_at_random_when_the_treason_option_is_set():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2),
                      draws=("Contessa",), options=Options(examine_pick="random"))
    act(game, "examine", 1)
    everyone_passes(game)
    assert game.phase is Phase.EXAMINE_DECIDE
    assert ("examined", (Character.CONTESSA,)) in game.observation(0).seen_privately()


def test_examine_whose_target_died_challenging_ends_without_a_look():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain", 2),
                      ("Cat", "Duke Assassin", 2), revealed={1: "Contessa"})
    act(game, "examine", 1)
    game.apply(Move.challenge(1))
    game.apply(Move.show(0, Character.INQUISITOR))
    game.apply(Move.lose(1, Character.CAPTAIN))
    assert not game.alive[1]
    assert game.phase is Phase.ACTION and game.actor == 2


def test_examine_cannot_be_blocked():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2))
    act(game, "examine", 1)
    everyone_passes(game)
    assert MoveKind.BLOCK not in {m.kind for m in game.legal_moves()}


def test_a_wrong_examine_answer_explains_itself():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2))
    act(game, "examine", 1)
    everyone_passes(game)
    with pytest.raises(IllegalMoveError, match="Ben has no face-down Duke to show"):
        game.apply(Move.offer(1, Character.DUKE))


def test_the_ambassador_is_not_an_inquisitor_card():
    game = inquisitor(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2))
    assert Action.EXAMINE in {m.action for m in game.legal_moves()}
