"""Practice duels of two cards against one: the real game and the solved tree walk in step
through a whole duel in either seat, a lost card turns the duel into one card each with the
beliefs carried, and the choice of card to lose offers only the hand's own cards."""

from __future__ import annotations

import random

import pytest

from trainer.endgame import practice
from trainer.endgame.practice import Practice
from trainer.engine.cards import Character as C
from trainer.engine.game import Phase
from trainer.engine.moves import MoveKind


def play_out(p: Practice, seed: int, limit: int = 60) -> int:
    """The learner picks among the offered options at random; returns the decisions made."""
    rng = random.Random(seed)
    made = 0
    while not p.over and made < limit:
        offers = p.offers()
        assert offers, (p.game.phase, p.game.decider)
        graded = p.play(rng.choice(offers).index)
        assert all(0.0 <= o.value <= 1.0 + 1e-9 for o in graded.offers)
        assert sum(graded.hands.values()) == pytest.approx(1.0)
        made += 1
    return made


def test_a_one_card_learner_plays_a_two_card_duel_to_its_end():
    p = practice.start_two(C.CAPTAIN, (3, 0), 1, 1, seed=0)
    assert len(p.my_hand) == 1
    assert play_out(p, 0) > 0 and p.over


def test_once_the_two_card_player_loses_a_card_the_duel_goes_on_as_one_card_each():
    p = practice.start_two(C.CONTESSA, (4, 0), 1, 0, seed=0)
    play_out(p, 0)
    assert p.over and p.solves >= 2
    assert p.two is None  # solved again as one card each, from the carried deal
    assert p.revealed[1] == C.CONTESSA and len(p.game.revealed[0]) >= 1


def test_choosing_a_card_to_lose_offers_only_the_cards_in_your_hand():
    # They have 10 coins and act, so they must launch a Coup: you give up one of your cards
    p = practice.start_two(C.DUKE, (0, 10), 1, 0, hand=(C.CAPTAIN, C.CONTESSA), seed=0)
    assert p.game.phase is Phase.LOSE and p.game.decider == 0
    offers = p.offers()
    assert all(o.move is not None and o.move.kind is MoveKind.LOSE for o in offers)
    assert {o.move.character for o in offers if o.move is not None} == {C.CAPTAIN, C.CONTESSA}
    graded = p.play(offers[0].index)
    assert graded.chosen == 0 and len(p.game.hidden[0]) == 1
