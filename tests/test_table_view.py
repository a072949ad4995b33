"""The table a learner sees is built from their observation: it never holds another player's
face-down cards, at any step of any lesson."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import shipped_library
from trainer.scenarios import replay
from trainer.views.table_art import table_html
from trainer.views.table_view import table_view

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = shipped_library()


def _views(lesson):
    run = lesson.run
    for n in range(lesson.steps + 1):
        game = replay(lesson.scenario, n)
        result = run.step(n) if n else None
        view = table_view(game.observation(run.learner),
                          turn=result.turn if result else None,
                          latest=len(result.moves) if result else 0)
        yield n, game, view


@pytest.mark.parametrize("lesson", LIBRARY.lessons, ids=lambda x: x.id)
def test_no_opponent_face_down_card_reaches_the_learner(lesson):
    learner = lesson.run.learner
    for n, game, view in _views(lesson):
        html = table_html(view)
        for p, seat in enumerate(view.seats):
            if p != learner:
                assert all(c is None for c in seat.hidden), (n, seat.name)
        # In the HTML, another player's cards are backs or their face-up (lost) cards.
        for name, body in re.findall(r'<section class="ct-seat[^"]*" data-seat="([^"]+)">'
                                     r'(.*?)</section>', html, flags=re.S):
            p = game.names.index(name)
            if p != learner:
                drawn = re.findall(r'data-card="([^"]+)"', body)
                assert sorted(c for c in drawn if c != "back") == sorted(
                    map(str, game.revealed[p])), (n, name, drawn)
                assert "your face-down card" not in body


def test_the_learners_own_cards_are_shown_face_up_to_them():
    lesson = LIBRARY.get("first-block")
    assert lesson is not None
    _, game, view = next(_views(lesson))
    me = view.seats[lesson.run.learner]
    assert me.is_viewer and me.hidden == ("Contessa", "Captain")
    assert 'data-card="Contessa"' in table_html(view)


def test_a_claim_is_drawn_as_a_speech_bubble_on_the_claimant():
    lesson = LIBRARY.get("first-block")
    assert lesson is not None
    views = list(_views(lesson))
    _, _, view = views[1]  # after "Ben claims Assassin: assassinate Ana"
    ben = view.seats[0]
    assert ben.badges[-1].text == "claims Assassin: assassinate Ana" and ben.badges[-1].latest
    assert view.seats[1].is_target
    _, _, view = views[3]  # after "Ana blocks with Contessa"
    assert view.seats[1].badges[-1].text == "blocks with Contessa"
    assert view.question == "Ben must challenge the block or pass"


def test_the_court_and_the_treasury_are_on_the_table():
    lesson = LIBRARY.get("first-goal-and-influence")
    assert lesson is not None
    _, game, view = next(_views(lesson))
    html = table_html(view)
    assert f"<b>{len(game.deck)}</b> in the Court deck" in html
    assert f"<b>{game.treasury}</b> in the Treasury" in html


def test_a_finished_game_names_the_winner():
    lesson = LIBRARY.get("first-end-game")
    assert lesson is not None
    *_, (_, _, view) = _views(lesson)
    assert view.winner == "Ana" and "Ana wins the game" in table_html(view)


def test_a_variant_table_shows_the_reserve_and_allegiances():
    lesson = LIBRARY.get("reformation-embezzlement")
    assert lesson is not None
    views = list(_views(lesson))
    _, _, view = views[1]
    assert view.reserve == 2 and view.seats[2].allegiance == "Reformist"
    assert 'data-pile="reserve"' in table_html(view)


def test_in_the_draft_the_learner_sees_their_own_set_only():
    lesson = LIBRARY.get("draft-choosing")
    assert lesson is not None
    game = replay(lesson.scenario, 0)
    mine = table_view(game.observation(0))
    assert mine.draft_set == ("Duke", "Assassin", "Captain", "Ambassador", "Contessa")
    assert 'data-pile="draft-set"' in table_html(mine)
    game.apply(game.legal_moves()[0])  # Ana keeps a card; Ben's choice is next
    assert table_view(game.observation(0)).draft_set == ()
