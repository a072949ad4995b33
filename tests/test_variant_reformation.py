"""Reformation (001, 003): allegiances, conversion, embezzlement and its inverted challenge."""

from __future__ import annotations

import pytest

from tests.helpers import act, cards, everyone_passes, table
from trainer.engine.cards import Action, Allegiance, Character
from trainer.engine.errors import IllegalMoveError
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.engine.rules import Options

L, R = Allegiance.LOYALIST, Allegiance.REFORMIST


def reform(*seats, sides: str = "Loyalist Reformist Loyalist", **kw) -> Game:
    return table(*seats, variant="reformation", allegiances=sides, **kw)


def targets(game: Game, action: Action) -> set[int | None]:
    return {m.target for m in game.legal_moves() if m.action is action}


def test_allegiances_alternate_clockwise_from_the_first_players_choice():
    game = Game.new(5, seed=3, variant="reformation")
    assert game.phase is Phase.ALLEGIANCE and game.decider == 0
    game.apply(Move.choose(0, "Reformist"))
    assert game.sides == [R, L, R, L, R]
    assert game.phase is Phase.ACTION


def test_no_coup_assassination_or_steal_against_ones_own_allegiance():
    game = reform(("Ana", "Duke Captain", 7), ("Ben", "Duke Captain", 2),
                  ("Cat", "Contessa Assassin", 2))
    for action in (Action.COUP, Action.ASSASSINATE, Action.STEAL):
        assert targets(game, action) == {1}


def test_anyone_may_be_targeted_once_all_living_players_share_an_allegiance():
    game = reform(("Ana", "Duke Captain", 7), ("Ben", "Duke Captain", 2),
                  ("Cat", "Contessa Assassin", 2), sides="Loyalist Loyalist Loyalist")
    assert targets(game, Action.COUP) == {1, 2}


def test_no_blocking_the_foreign_aid_of_ones_own_allegiance():
    game = reform(("Ana", "Duke Captain", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2))
    act(game, "foreign aid")
    assert game.phase is Phase.BLOCK and game.decider == 1
    game.apply(Move.pass_(1))
    assert game.phase is Phase.ACTION and game.coins[0] == 4  # Cat was never asked


def test_challenges_between_allies_are_allowed():
    game = reform(("Ana", "Captain Contessa", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2))
    act(game, "tax")
    game.apply(Move.pass_(1))
    assert game.decider == 2 and Move.challenge(2) in game.legal_moves()


def test_conversion_of_oneself_costs_one_coin_onto_the_treasury_reserve():
    game = reform(("Ana", "Duke Captain", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2))
    game.apply(Move.act(0, Action.CONVERT))
    assert game.sides[0] is R and game.coins[0] == 1 and game.reserve == 1


def test_converting_another_player_costs_two_coins():
    game = reform(("Ana", "Duke Captain", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2))
    game.apply(Move.act(0, Action.CONVERT, 2))
    assert game.sides[2] is R and game.coins[0] == 0 and game.reserve == 2


def test_restrictions_apply_again_when_someone_converts_away():
    game = reform(("Ana", "Duke Captain", 2), ("Ben", "Duke Captain", 7),
                  ("Cat", "Duke Assassin", 2), sides="Loyalist Loyalist Loyalist")
    game.apply(Move.act(0, Action.CONVERT))  # Ana turns Reformist
    assert game.sides == [R, L, L]
    assert targets(game, Action.COUP) == {0}  # Ben may no longer coup his ally Cat


def test_embezzlement_takes_the_whole_reserve():
    game = reform(("Ana", "Captain Contessa", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2), reserve=5)
    act(game, "embezzle")
    everyone_passes(game)
    assert game.coins[0] == 7 and game.reserve == 0


def test_embezzling_an_empty_reserve_is_allowed_and_gains_nothing():
    game = reform(("Ana", "Captain Contessa", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2))
    act(game, "embezzle")
    everyone_passes(game)
    assert game.coins[0] == 2 and game.reserve == 0


def test_embezzling_an_empty_reserve_is_refused_where_gainless_actions_are():
    game = reform(("Ana", "Captain Contessa", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2),
                  options=Options().with_(gainless_actions="refused"))
    assert Action.EMBEZZLE not in {m.action for m in game.legal_moves()}
    with pytest.raises(IllegalMoveError, match="Reserve is empty"):
        act(game, "embezzle")


def test_challenged_embezzler_holding_a_duke_must_concede():
    game = reform(("Ana", "Duke Contessa", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2), reserve=3)
    act(game, "embezzle")
    game.apply(Move.challenge(1))
    assert game.phase is Phase.PROVE_ACTION
    assert {m.kind for m in game.legal_moves()} == {"lose"}
    game.apply(Move.lose(0, Character.CONTESSA))
    assert game.reserve == 3 and game.coins[0] == 2 and game.phase is Phase.ACTION


def test_challenged_embezzler_without_a_duke_shows_every_card_and_the_challenger_loses():
    game = reform(("Ana", "Captain Contessa", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2), reserve=3,
                  deck="Ambassador Ambassador Ambassador Duke Assassin Assassin Captain Contessa "
                       "Contessa", draws=("Ambassador Ambassador",))
    act(game, "embezzle")
    game.apply(Move.challenge(1))
    shows = [m for m in game.legal_moves() if m.kind == "show"]
    assert shows == [Move(kind="show", player=0, cards=tuple(sorted(cards("Captain Contessa"))))]
    game.apply(shows[0])
    assert game.hidden[0] == cards("Ambassador Ambassador")  # both replaced
    assert game.phase is Phase.LOSE and game.decider == 1
    game.apply(Move.lose(1, Character.CAPTAIN))
    assert game.coins[0] == 5 and game.reserve == 0


def test_embezzler_without_a_duke_may_still_concede():
    game = reform(("Ana", "Captain Contessa", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2), reserve=3)
    act(game, "embezzle")
    game.apply(Move.challenge(1))
    assert Move.lose(0, Character.CAPTAIN) in game.legal_moves()


def test_treason_vocabulary_changes_only_the_words():
    from trainer.engine.rules import Options
    game = reform(("Ana", "Duke Captain", 2), ("Ben", "Duke Captain", 2),
                  ("Cat", "Duke Assassin", 2), options=Options(vocabulary="treason"))
    plain = reform(("Ana", "Duke Captain", 2), ("Ben", "Duke Captain", 2),
                   ("Cat", "Duke Assassin", 2))
    assert game.legal_moves() == plain.legal_moves()


def test_treason_vocabulary_names_the_moves_with_treasons_words():
    from trainer.engine.rules import Options
    game = table(("Ana", "Inquisitor Duke", 2), ("Ben", "Captain Contessa", 2),
                 variant="reformation-inquisitor", allegiances="Loyalist Reformist",
                 options=Options(vocabulary="treason"))
    assert game.describe(Move.act(0, Action.EXAMINE, 1)) == "Ana claims Inquisitor: interrogate Ben"
    assert game.describe(Move.act(0, Action.CONVERT)) == "Ana: change team (self)"
    assert game.describe(Move.choose(0, "Loyalist")) == "Ana joins the loyalist team"
