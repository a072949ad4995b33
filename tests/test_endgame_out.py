"""End-games from games that started with more than two players: the face-up cards of the
players already out leave the court (the deal, the Exchange's draws, the known-role leaf)."""

from __future__ import annotations

import numpy as np
import pytest

from trainer.endgame import hidden, known, tables
from trainer.endgame.public import public_graph
from trainer.engine.cards import Action
from trainer.engine.cards import Character as C
from trainer.engine.variants import get_variant

CHARS = get_variant("base").characters
DUKE_CAPTAIN = (C.DUKE, C.CAPTAIN)
# The face-up cards of four players out of a six-player game: with the Duke and the Captain
# face up besides, one Assassin, one Contessa and the three Ambassadors are left.
FOUR_OUT = (C.DUKE, C.DUKE, C.ASSASSIN, C.ASSASSIN, C.CAPTAIN, C.CAPTAIN, C.CONTESSA,
            C.CONTESSA)


def test_nothing_out_is_the_same_graph_and_the_same_solution():
    assert public_graph(DUKE_CAPTAIN, out=()) is public_graph(DUKE_CAPTAIN)
    assert tables.court_values(DUKE_CAPTAIN) is tables.known_values(DUKE_CAPTAIN).values
    plain = hidden.solve(DUKE_CAPTAIN, (3, 1), 0, horizon=2)
    empty = hidden.solve(DUKE_CAPTAIN, (3, 1), 0, horizon=2, out=())
    assert (plain.value, plain.exploitability, plain.iterations) == (
        empty.value, empty.exploitability, empty.iterations)
    for a, b in zip(plain.strategy, empty.strategy, strict=True):
        assert np.array_equal(a, b)


def test_cards_out_leave_the_deal_and_the_deck():
    graph = public_graph(DUKE_CAPTAIN, out=(C.DUKE, C.DUKE))
    duke = CHARS.index(C.DUKE)
    assert graph.court[C.DUKE] == 0
    assert all(duke not in w for w in graph.worlds)  # no Duke left to deal
    assert sum(graph.deal_chance(w) for w in graph.worlds) == pytest.approx(1.0)
    game = graph.game(graph.worlds[0], (2, 2), 0)
    assert C.DUKE not in game.deck and game.removed == [C.DUKE, C.DUKE]


def test_cards_out_in_any_order_are_one_graph():
    assert (public_graph(DUKE_CAPTAIN, out=(C.CONTESSA, C.DUKE))
            is public_graph(DUKE_CAPTAIN, out=(C.DUKE, C.CONTESSA)))


def test_more_copies_out_than_the_court_holds_is_refused():
    with pytest.raises(ValueError, match="more copies"):
        public_graph(DUKE_CAPTAIN, out=(C.DUKE, C.DUKE, C.DUKE))


def test_the_court_values_with_cards_out_are_those_of_a_full_solve():
    # Only the positions with an Ambassador in a hand are solved again; the others are read
    # from the two-player table. A full solve of every position of that court must agree.
    values = tables.court_values(DUKE_CAPTAIN, FOUR_OUT)
    roots = list(known.positions([(a, b) for a in CHARS for b in CHARS], DUKE_CAPTAIN,
                                 out=FOUR_OUT))
    full = known.solve(p.game() for p in roots)
    got = [values[CHARS.index(p.cards[0]), CHARS.index(p.cards[1]), p.coins[0], p.coins[1],
                  p.first] for p in roots]
    assert got == pytest.approx([full.value(p.game()) for p in roots], abs=1e-12)
    assert np.sum(~np.isnan(values)) == len(roots)  # no value for a pair it cannot deal


def test_a_solve_with_cards_out_uses_the_court_without_them():
    # Every Duke and Captain is face up: five cards are left to deal, three Ambassadors, and
    # a Tax is a bluff whoever claims it, so perfect play never claims one.
    s = hidden.solve(DUKE_CAPTAIN, (0, 0), 0, horizon=1, out=FOUR_OUT)
    assert s.card_chance(0) == pytest.approx({C.ASSASSIN: 0.2, C.AMBASSADOR: 0.6,
                                              C.CONTESSA: 0.2})
    for card in s.card_values:
        tax = next(o for o in s.options(card) if o.move.action is Action.TAX)
        assert tax.frequency < 1e-3
