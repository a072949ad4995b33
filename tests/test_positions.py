"""A hand-built position and a position reached by play are held to the same facts.

`check_position` (a lesson's set-up) and `check_invariants` (the fuzzer) both call
`trainer.engine.positions.check_table`, so each impossible position below is refused by both,
with the same reason and, for the set-up, the seat at fault; and every shipped scenario starts
and ends in a position the invariants accept.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from trainer.engine.cards import Character
from trainer.engine.errors import SetupError
from trainer.engine.game import Game
from trainer.engine.invariants import InvariantViolation, check_invariants
from trainer.engine.variants import DRAFT, MCGUIRE
from trainer.scenarios import load_scenario, replay

D, A, CAP, AMB, CON = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                       Character.AMBASSADOR, Character.CONTESSA)
NAMES = ["Ana", "Ben", "Cat"]
HANDS = [[D, CON], [CAP, AMB], [A, D]]
DECK = [D, A, A, CAP, CAP, AMB, AMB, CON, CON]


def setup_error(**changes: object) -> SetupError:
    args: dict[str, object] = dict(names=NAMES, hands=HANDS, coins=[2, 2, 2], deck=DECK)
    args.update(changes)
    with pytest.raises(SetupError) as info:
        Game(**args)  # type: ignore[arg-type]
    return info.value


def invariant_error(game: Game) -> str:
    with pytest.raises(InvariantViolation) as info:
        check_invariants(game)
    return str(info.value)


def test_a_living_player_without_cards_is_refused_by_both_checks():
    e = setup_error(hands=[[D, CON], [], [A, D]], deck=DECK + [CAP, AMB])
    assert (e.field, e.seat, e.expected, e.found) == ("hands", 1, 2, 0)
    assert e.reason == ("Ben has no face-down card and no face-up card; every player has 2 "
                        "cards (face down while alive, face up once lost)")
    game = Game(names=NAMES, hands=HANDS, coins=[2, 2, 2], deck=DECK)
    game.deck.extend(game.hidden[1])
    game.hidden[1].clear()
    assert invariant_error(game).endswith(e.reason)


def test_one_face_down_card_without_a_face_up_one_is_refused_by_both_checks():
    e = setup_error(hands=[[D, CON], [CAP], [A, D]], deck=DECK + [AMB])
    assert (e.field, e.seat) == ("hands", 1)
    assert e.reason == ("Ben has 1 face-down card and no face-up card; every player has 2 "
                        "cards (face down while alive, face up once lost)")
    game = Game(names=NAMES, hands=HANDS, coins=[2, 2, 2], deck=DECK)
    game.deck.append(game.hidden[1].pop())
    assert invariant_error(game).endswith(e.reason)


def test_a_player_who_is_out_holding_coins_is_refused_by_both_checks():
    e = setup_error(hands=[[D, CON], [], [A, D]], revealed=[[], [CAP, AMB], []],
                    coins=[2, 3, 2])
    assert (e.field, e.seat, e.expected, e.found) == ("coins", 1, 0, 3)
    assert e.reason == ("Ben is out of the game (every card face up) but has 3 coins; a player "
                        "who is out returns all their coins to the Treasury")
    game = Game.new(["Ana", "Ben"], seed=3)
    choose = random.Random(3).choice
    while not game.is_over:
        game.apply(choose(game.legal_moves()))
    loser = 1 - game.winner
    game.coins[loser] = 3
    game.treasury -= 3
    assert invariant_error(game).endswith(e.reason.replace("Ben", game.names[loser]))


def test_a_player_who_is_out_with_no_coins_is_a_possible_position():
    game = Game(names=NAMES, hands=[[D, CON], [], [A, D]], revealed=[[], [CAP, AMB], []],
                coins=[2, 0, 2], deck=DECK)
    check_invariants(game)
    assert game.alive == [True, False, True]


def test_the_two_player_draft_starts_with_empty_hands():
    game = Game.new(["Ana", "Ben"], seed=1, variant=DRAFT)
    assert game.hidden == [[], []]
    check_invariants(game)


def test_a_dealt_mcguire_game_is_a_possible_position():
    check_invariants(Game.new(3, seed=5, variant=MCGUIRE))


ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "scenarios").glob("*.yaml")) + sorted(
    (ROOT / "scenarios" / "rules").glob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_shipped_scenario_starts_and_ends_in_positions_the_invariants_accept(path):
    """The set-up check is the invariants' own check of cards and seats (McGuire's mat
    included), so every accepted set-up passes them too."""
    scenario = load_scenario(path)
    for game in (replay(scenario, 0), replay(scenario)):
        check_invariants(game)
