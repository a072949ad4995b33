"""What a player knows, read from their observation: the rulebook's example as Cris sees it."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.engine.cards import Character as C
from trainer.estimates.counting import p_holds_prior
from trainer.estimates.knowledge import knowledge
from trainer.scenarios import load_scenario, replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = load_scenario(ROOT / "scenarios" / "rulebook-example-play.yaml")
CRIS, ELY = 1, 2


def test_at_the_start_only_your_own_cards_are_known():
    k = knowledge(replay(EXAMPLE, 0).observation(CRIS))
    assert sum(k.unseen.values()) == 13 and k.unknown_cards == {0: 2, 2: 2}
    assert k.p_holds(ELY, C.DUKE) == pytest.approx(p_holds_prior(13, 3, 2))


def test_cards_you_returned_are_known_to_be_in_the_deck():
    # After step 5 Cris has returned a Duke and a Contessa to the deck.
    k = knowledge(replay(EXAMPLE, 5).observation(CRIS))
    assert sorted(k.known_in_deck) == [C.CONTESSA, C.DUKE]
    # 11 unseen cards (15 less his two and the two he returned), of which 2 Dukes.
    assert k.unseen[C.DUKE] == 2 and sum(k.unseen.values()) == 11
    assert k.p_holds(ELY, C.DUKE) == pytest.approx(p_holds_prior(11, 2, 2))


def test_a_face_up_card_is_out_of_the_count():
    game = replay(EXAMPLE, 10)  # Cris has lost his Assassin
    k = knowledge(game.observation(0))  # as Maria sees it
    mine = game.hidden[0].count(C.ASSASSIN)
    assert k.unseen[C.ASSASSIN] == 3 - 1 - mine
    assert k.unknown_cards == {1: 1, 2: 2}


def test_after_an_exchange_with_one_card_the_two_returned_are_known_in_the_deck():
    scenario = load_scenario(ROOT / "scenarios" / "exchange-one-influence.yaml")
    game = replay(scenario, len(scenario.steps))
    k = knowledge(game.observation(0))
    assert len(k.known_in_deck) == 2  # Gia just returned two cards; nobody has drawn since


def test_the_deal_by_counting_alone_is_the_exact_deal_and_is_worked_out_once() -> None:
    from trainer.engine.game import Game
    from trainer.estimates.counting import Seat, deal
    from trainer.estimates.knowledge import knowledge

    game = Game.new(6, seed=11, variant="forum")
    k = knowledge(game.observation(0))
    opponents, counted = k.deal()
    chars = tuple(c for c in k.unseen if k.unseen[c] > 0)
    direct = deal(k.unseen, [Seat(k.unknown_cards[j], None) for j in opponents], chars)
    assert counted.hands == direct.hands and counted.weight == direct.weight
    assert k.deal()[1] is counted, "asked again, the same deal is not counted again"
