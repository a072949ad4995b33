"""Known-role end-games (`trainer.endgame.known`): one card each, both face up, solved exactly
over the engine's own moves."""

from __future__ import annotations

from functools import cache

import pytest

from trainer.endgame.chance import draws, outcomes
from trainer.endgame.known import Position, positions, solve
from trainer.engine.cards import Character as C
from trainer.engine.game import Game
from trainer.engine.moves import MoveKind

SEEN = (C.AMBASSADOR, C.AMBASSADOR)  # the lost cards: one Ambassador left, in the deck


FOUR = (C.CAPTAIN, C.ASSASSIN, C.DUKE, C.CONTESSA)  # coupSim's cards: no Ambassador


@cache
def table():
    """Captain, Assassin, Duke and Contessa against each other, coins 0-7 each."""
    return solve(p.game() for p in positions([(a, b) for a in FOUR for b in FOUR], SEEN,
                                             coins=7))


def value(mine: C, theirs: C, coins: tuple[int, int], first: int = 0) -> float:
    return table().value(Position((mine, theirs), coins, SEEN, first).game())


def test_seven_coins_on_your_turn_is_a_coup_and_a_win():
    assert value(C.CONTESSA, C.DUKE, (7, 0)) == 1.0
    assert value(C.CONTESSA, C.DUKE, (0, 7), first=1) == 0.0


def test_a_duke_at_five_coins_taxes_then_coups_whatever_the_contessa_does():
    # Tax to 8; the Contessa at 0 cannot coup, assassinate or take foreign aid past a Duke.
    assert value(C.DUKE, C.CONTESSA, (5, 0)) == 1.0


def test_an_assassin_cannot_kill_a_contessa_so_the_richer_duke_wins():
    # Assassinations are blocked; the Duke's Tax outpaces the Assassin's Income.
    assert value(C.DUKE, C.ASSASSIN, (0, 0)) == 1.0
    assert value(C.CONTESSA, C.ASSASSIN, (0, 3), first=1) < 1.0


def test_swapping_the_seats_turns_a_position_into_its_mirror():
    # Cards, coins and who acts change places, and so does the winner: the rule the stored
    # tables rely on to keep one of each pair of lost cards (`tables._known`). The lost cards
    # here are the same for both players, so the mirror is a position of the same solve.
    t = table()
    for p in positions([(a, b) for a in FOUR for b in FOUR], SEEN, coins=7):
        swapped = Position((p.cards[1], p.cards[0]), (p.coins[1], p.coins[0]), SEEN,
                           1 - p.first)
        assert t.value(p.game()) == pytest.approx(1 - t.value(swapped.game()), abs=1e-9), p
        assert t.turns(p.game()) == t.turns(swapped.game()), p


def test_the_stored_table_of_these_lost_cards_is_this_solve():
    # The package's file (`trainer/endgame/data`), built once, against a solve from scratch:
    # every position of the four cards, coins 0-7 each, either player to act.
    from trainer.endgame.tables import known_values

    stored = known_values(SEEN)
    checked = 0
    for p in positions([(a, b) for a in FOUR for b in FOUR], SEEN, coins=7):
        game = p.game()
        assert stored.value(p.cards, p.coins, p.first) == pytest.approx(
            table().value(game), abs=1e-9), p
        assert stored.turns(p.cards, p.coins, p.first) == table().turns(game), p
        checked += 1
    assert checked == 16 * 8 * 8 * 2


def test_the_two_bounds_meet_so_loops_never_decide_a_value():
    assert table().gap() == 0.0


def test_every_value_is_a_chance_between_zero_and_one():
    t = table()
    assert all(0.0 <= v <= 1.0 for v in t.low)


def test_the_best_move_keeps_the_positions_value():
    game = Position((C.DUKE, C.CONTESSA), (5, 0), SEEN).game()
    values = table().move_values(game)
    assert max(v for _, v in values) == table().value(game)
    tax = next(v for m, v in values if m.action is not None and m.action.value == "tax")
    assert tax == 1.0


def test_a_draw_of_two_from_a_deck_weighs_every_pair_by_its_copies():
    deck = (C.DUKE, C.DUKE, C.CAPTAIN)
    got = {tuple(cards): p for p, cards in draws(deck, 2)}
    assert got == {(C.CAPTAIN, C.DUKE): pytest.approx(2 / 3),
                   (C.DUKE, C.DUKE): pytest.approx(1 / 3)}


def test_an_exchange_branches_on_every_draw_and_the_chances_sum_to_one():
    game = Position((C.AMBASSADOR, C.DUKE), (0, 0), (C.CAPTAIN, C.CONTESSA)).game()
    move = next(m for m in game.legal_moves() if m.action is not None
                and m.action.value == "exchange")
    game.apply(move)
    passing = next(m for m in game.legal_moves() if m.kind is MoveKind.PASS)
    after = list(outcomes(game, passing))
    assert len(after) > 1
    assert sum(p for p, _ in after) == pytest.approx(1.0)
    pools = {tuple(sorted(g.exchange_pool())) for _, g in after}
    assert len(pools) == len(after)  # each draw once


def _brute(game: Game, depth: int, unknown: float, memo: dict) -> float:
    """Player 0's chance of winning by plain expectiminimax `depth` decisions deep, a
    position still open at the end counted as `unknown`."""
    if game.is_over:
        return 1.0 if game.winner == 0 else 0.0
    if depth == 0:
        return unknown
    key = (game.position_key(), depth)
    if key not in memo:
        worths = [sum(p * _brute(g, depth - 1, unknown, memo) for p, g in outcomes(game, m))
                  for m in game.legal_moves()]
        memo[key] = max(worths) if game.decider == 0 else min(worths)
    return memo[key]


# Each pair of cards twice and each split of coins once (not all 18 crossings: each search
# costs seconds, and a wrong value of the solver shows in any of them): a player one Coup
# from winning, on either side, and richer positions where the search runs eight deep.
BRUTE = [((C.DUKE, C.CONTESSA), (6, 6)), ((C.DUKE, C.CONTESSA), (7, 2)),
         ((C.ASSASSIN, C.CAPTAIN), (5, 6)), ((C.ASSASSIN, C.CAPTAIN), (3, 6)),
         ((C.ASSASSIN, C.DUKE), (6, 4)), ((C.ASSASSIN, C.DUKE), (4, 7))]


@pytest.mark.parametrize("cards, coins", BRUTE)
def test_the_table_agrees_with_a_brute_force_search(cards, coins):
    # Eight decisions deep settles these rich positions: the search's two bounds meet.
    game = Position(cards, coins, SEEN).game()
    low = _brute(game, 8, 0.0, {})
    high = _brute(game, 8, 1.0, {})
    assert low == high == pytest.approx(table().value(game), abs=1e-9)


def test_coupsims_race_table_is_exact_under_perfect_play():
    # coupSim: holding X and moving first, with coins 0-6 each against each of the four
    # cards (196 positions), X wins: Captain 163, Assassin 134, Duke 110, Contessa 74.
    wins = {x: sum(value(x, y, (a, b)) > 1 - 1e-9 for y in FOUR for a in range(7) for b in range(7))
            for x in FOUR}
    assert wins == {C.CAPTAIN: 163, C.ASSASSIN: 134, C.DUKE: 110, C.CONTESSA: 74}


def test_the_race_command_prints_each_cards_wins(capsys, monkeypatch):
    from trainer.cli import main
    from trainer.endgame import known

    monkeypatch.setattr(known, "solve", lambda roots: table())  # the same graph, solved once
    assert main(["endgame", "race", "--cards", *map(str, FOUR)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "| acting first | vs Captain | vs Assassin | vs Duke | vs Contessa | total |" in out
    totals = {line.split(" | ")[0][2:]: line.split(" | ")[-1] for line in out
              if line.startswith("| ") and "of 196" in line}
    assert totals == {"Captain": "163 of 196 |", "Assassin": "134 of 196 |",
                      "Duke": "110 of 196 |", "Contessa": "74 of 196 |"}


def test_the_race_command_names_a_card_it_does_not_know(capsys):
    from trainer.cli import main

    assert main(["endgame", "race", "--cards", "Duke", "Dukke"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("endgame race: ") and "Dukke" in err
