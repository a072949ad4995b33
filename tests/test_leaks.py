"""A later item of the same game must not show how an earlier item's claim turned out: its
history is on screen, and a learner who met it knows the earlier answer."""

from dataclasses import replace

import pytest

from tests.helpers import shipped_bank
from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.quiz.bank import Bank, Item, new_game
from trainer.quiz.building import ordered_items
from trainer.quiz.leaks import BLUFF, HONEST, answer_shown, settles, without_leaks


@pytest.fixture(scope="module")
def shipped() -> Bank:
    return shipped_bank()


def _claim(bank: Bank, bluff: bool) -> Item:
    """A base-game claim item of a persona game whose truth is `bluff`."""
    return next(i for i in bank.items if i.has_claim and i.bluff is bluff and i.seed is not None
                and i.variant == "base" and i.scenario is None)


def _at(item: Item) -> Game:
    assert item.seed is not None
    game = new_game(item.players, item.seed, item.variant)
    for m in item.moves:
        game.apply(m)
    return game


def _challenged(item: Item) -> tuple[Move, ...]:
    """The item's viewer challenges the claim and the claimant answers by the truth: shows
    the card when they hold it, gives up a card otherwise."""
    game = _at(item)
    challenge = next(m for m in game.legal_moves() if m.kind is MoveKind.CHALLENGE)
    game.apply(challenge)
    assert game.decider == item.claimant
    kind = MoveKind.LOSE if item.bluff else MoveKind.SHOW
    answer = next(m for m in game.legal_moves() if m.kind is kind)
    return (challenge, answer)


def _later(item: Item, moves: tuple[Move, ...]) -> Item:
    """A sibling of `item` from the same game, seen after `moves` more were played."""
    return replace(item, id=f"{item.id}-later", claim=None, bluff=None, claimant=None,
                   moves=tuple(item.moves) + moves)


def test_a_claim_challenged_and_proven_later_is_shown_honest(shipped):
    asked = _claim(shipped, bluff=False)
    assert answer_shown(asked, _challenged(asked)) is HONEST


def test_a_claim_challenged_and_conceded_later_is_shown_a_bluff(shipped):
    asked = _claim(shipped, bluff=True)
    assert answer_shown(asked, _challenged(asked)) is BLUFF


def test_a_later_item_after_the_challenge_settles_the_claim(shipped):
    asked = _claim(shipped, bluff=True)
    assert settles(_later(asked, _challenged(asked)), asked)


def test_a_claim_let_through_is_not_settled_by_the_pass(shipped):
    asked = _claim(shipped, bluff=False)
    game = _at(asked)
    passed = next(m for m in game.legal_moves() if m.kind is MoveKind.PASS)
    assert answer_shown(asked, (passed,)) is None


def test_an_earlier_item_of_the_same_game_settles_nothing(shipped):
    asked = _claim(shipped, bluff=True)
    earlier = replace(asked, id="earlier", claim=None, bluff=None, claimant=None,
                      moves=asked.moves[:-1])
    assert not settles(earlier, asked)


def test_an_item_on_another_line_of_play_settles_nothing(shipped):
    asked = _claim(shipped, bluff=True)
    later = _later(asked, _challenged(asked))
    other_line = replace(later, moves=(later.moves[1], later.moves[0], *later.moves[2:]))
    assert not settles(other_line, asked)


def test_of_a_claim_and_an_item_that_settles_it_only_the_first_is_kept(shipped):
    asked = _claim(shipped, bluff=False)
    later = _later(asked, _challenged(asked))
    assert [i.id for i in ordered_items([asked, later])] == [asked.id]


def test_the_rarer_of_a_claim_and_an_item_that_settles_it_is_kept(shipped):
    asked = _claim(shipped, bluff=True)
    later = _later(asked, _challenged(asked))
    kept, left = without_leaks([asked, later], lambda i: 0.0 if i is later else 1.0)
    assert ([i.id for i in kept], [i.id for i in left]) == ([later.id], [asked.id])
