"""The words and rows of the End-game page's duel of two cards against one."""

from __future__ import annotations

import pytest

from trainer.endgame import hidden_two, hidden_two_tables
from trainer.engine.cards import Character as C
from trainer.views import endgame_two_view as view
from trainer.views.endgame_two_view import TwoChoice


def test_the_two_card_player_is_the_solvers_player_zero_in_either_seat():
    mine = TwoChoice(two="you", coins=(3, 5), turn="them")
    assert (mine.seat, mine.solver_coins, mine.first) == (0, (3, 5), 1)
    theirs = TwoChoice(two="them", hand=(C.DUKE,), coins=(3, 5), turn="them")
    assert (theirs.seat, theirs.solver_coins, theirs.first) == (1, (5, 3), 0)


def test_a_hand_of_the_wrong_size_is_named():
    assert view.impossible(TwoChoice(two="them", hand=(C.DUKE, C.DUKE))) == (
        "Pick 1 card for your hand: you hold one card in this duel.")
    assert view.impossible(TwoChoice(two="you", hand=(C.DUKE,))) == (
        "Pick 2 cards for your hand: you hold two cards in this duel.")
    assert view.impossible(TwoChoice(hand=(C.CONTESSA, C.CONTESSA), lost=C.CONTESSA)) is None


@pytest.fixture(scope="module")
def solved() -> view.TwoSolved:
    choice = TwoChoice(two="them", hand=(C.DUKE,), lost=C.CONTESSA, coins=(3, 2), turn="you")
    last = hidden_two.solve(choice.lost, choice.solver_coins, choice.first, horizon=2,
                            target=1e-4)
    prev = hidden_two.solve(choice.lost, choice.solver_coins, choice.first, horizon=1,
                            target=1e-4)
    return view.distil(choice, last, prev, 1.0)


def test_your_chance_is_the_one_card_seats_and_its_range_spans_both_look_aheads(solved):
    assert solved.you_act and solved.choice.seat == 1
    assert solved.band.low <= min(solved.chance, solved.chance_prev) + 1e-12
    assert solved.band.high >= max(solved.chance, solved.chance_prev) - 1e-12
    assert 0.0 <= solved.chance <= 0.2  # one card against two rarely wins


def test_the_options_are_graded_only_by_what_both_look_aheads_agree_on(solved):
    rows = view.option_rows(solved)
    assert [r.win for r in rows] == sorted((r.win for r in rows), reverse=True)
    assert not solved.settled  # this duel's figures move between one and two turns ahead
    best = max(r.win for r in rows)
    best_prev = max(r.win_prev for r in rows if r.win_prev is not None)
    for r in rows:
        assert r.win_prev is not None
        agreed = min(best - r.win, best_prev - r.win_prev)
        assert r.lost_pp == pytest.approx(100 * agreed, abs=0.006)  # to 0.01 points


def test_a_one_card_player_sees_their_likeliest_two_card_hands(solved):
    line = view.their_hand_line(solved)
    assert line.startswith("Their two cards, from what you can see: 15 hands are possible")
    assert sum(solved.their_chances.values()) == pytest.approx(1.0)


def test_the_expert_figures_say_why_a_duel_is_not_settled(solved):
    lines = view.expert_lines(solved)
    assert any(("Not settled: " in line) != solved.settled for line in lines)


def test_the_expert_figures_say_whether_a_line_was_followed_through_its_exchanges(solved):
    """A fresh solve follows every Exchange; a table built before that cut a line at its
    first, and the figures say so rather than leave it unsaid."""
    from dataclasses import replace

    assert view.EXCHANGES_FOLLOWED in view.expert_lines(solved)[1]
    old = replace(solved, exchange_cut=1)
    assert "cut at the turn after its first Exchange" in view.expert_lines(old)[1]


def test_a_link_opens_the_duel_it_was_made_from():
    choice = TwoChoice(two="them", hand=(C.AMBASSADOR,), lost=C.DUKE, coins=(0, 12),
                       turn="them")
    params = view.link_params(choice)
    assert params["tab"] == "two"
    assert view.read_link(params, TwoChoice()) == (choice, [])


def test_a_link_with_one_card_for_a_two_card_hand_says_what_it_shows_instead():
    choice, errors = view.read_link({"two": "you", "hand": "Contessa"}, TwoChoice())
    assert choice.hand == (C.CONTESSA, C.DUKE)
    assert errors == ["The link's `hand` has 1 card, but you hold two in this duel. Showing "
                      "Contessa,Duke instead."]


def test_each_unreadable_link_part_is_named_and_changes_nothing():
    choice, errors = view.read_link({"coins": "2,13", "turn": "later", "lost": "Queen"},
                                    TwoChoice())
    assert choice == TwoChoice()
    assert [e.split(":")[0] for e in errors] == [
        "The link's `lost` could not be read", "The link's `coins` could not be read",
        "The link's `turn` could not be read"]


def _fresh(choice: TwoChoice) -> view.TwoSolved:
    last = hidden_two.solve(choice.lost, choice.solver_coins, choice.first, horizon=2,
                            target=1e-4)
    prev = hidden_two.solve(choice.lost, choice.solver_coins, choice.first, horizon=1,
                            target=1e-4)
    return view.distil(choice, last, prev, 1.0)


def _read(choice: TwoChoice) -> view.TwoSolved:
    entry = hidden_two_tables.lookup(choice.lost, choice.solver_coins, choice.first)
    assert entry is not None
    return view.from_table(choice, entry, 0.001)


def test_a_duel_read_from_the_table_shows_what_solving_it_now_shows():
    # Duke lost, no coins either side, the two-card player to act: one and two turns ahead
    # disagree, two and three agree, so the table keeps its two-turn figures
    solved = _fresh(TwoChoice(two="you", hand=(C.DUKE, C.CAPTAIN), lost=C.DUKE, coins=(0, 0),
                              turn="you"))
    read = _read(solved.choice)
    assert read.horizon == view.HORIZON
    assert read.stored and not solved.stored and read.you_act == solved.you_act
    assert (read.chance, read.average) == pytest.approx((solved.chance, solved.average),
                                                        abs=1e-5)
    assert read.their_chances == pytest.approx(solved.their_chances)
    fresh_rows, read_rows = view.option_rows(solved), view.option_rows(read)
    assert [r.label for r in read_rows] == [r.label for r in fresh_rows]
    assert [r.win for r in read_rows] == pytest.approx([r.win for r in fresh_rows], abs=1e-5)
    assert "stored table" in view.expert_lines(read)[0]
    # one and two turns ahead disagree here, so the table compared two turns with three
    assert not solved.settled and read.check == hidden_two_tables.CHECK


def test_a_duel_the_table_settled_at_once_reads_exactly_as_a_fresh_solve():
    choice = TwoChoice(two="you", hand=(C.DUKE, C.ASSASSIN), lost=C.DUKE, coins=(10, 3),
                       turn="you")
    fresh, read = _fresh(choice), _read(choice)
    assert read.check == view.SHORTER and read.settled == fresh.settled
    assert (read.chance, read.chance_prev) == pytest.approx((fresh.chance, fresh.chance_prev),
                                                            abs=1e-5)
    assert [(r.label, r.grade) for r in view.option_rows(read)] == [
        (r.label, r.grade) for r in view.option_rows(fresh)]


def test_when_they_act_the_table_gives_how_often_they_pick_each_move():
    choice = TwoChoice(two="you", hand=(C.DUKE, C.ASSASSIN), lost=C.CAPTAIN, coins=(4, 3),
                       turn="them")
    fresh, read = _fresh(choice), _read(choice)
    assert not read.you_act and read.options == ()
    assert [m for m, _ in read.their_moves] == [m for m, _ in fresh.their_moves]
    assert [f for _, f in read.their_moves] == pytest.approx(
        [f for _, f in fresh.their_moves], abs=1e-5)
    assert sum(f for _, f in read.their_moves) == pytest.approx(1.0, abs=1e-4)


def test_a_duel_settled_by_the_deeper_check_shows_one_figure_and_says_what_was_compared():
    # Duke lost, 7 coins against 3, the two-card player to act: one turn ahead Income ties
    # with the Coup that wins, so one and two turns ahead disagree; two and three agree
    read = _read(TwoChoice(two="you", hand=(C.DUKE, C.CAPTAIN), lost=C.DUKE, coins=(7, 3),
                           turn="you"))
    assert read.check == hidden_two_tables.CHECK and read.settled
    assert read.band.width == 0.0 and view.unsettled_note(read, view.option_rows(read)) is None
    line = view.expert_lines(read)[2]
    assert line.startswith("Your chance 2 turns ahead: ")
    assert "(looked at because 1 turn and 2 turns ahead disagreed)" in line
    assert line.endswith("settled.")


def test_a_settled_duels_weaker_move_the_look_aheads_grade_apart_shows_its_range():
    """Duke lost, 6 coins against 1, holding two Assassins: settled, Income and Foreign Aid
    win at both look-aheads, but a bluffed Tax wins 62.5% one turn ahead and 100% two turns
    ahead. It is graded on the smaller loss with its range, and a note says what settled
    covers."""
    read = _read(TwoChoice(two="you", hand=(C.ASSASSIN, C.ASSASSIN), lost=C.DUKE,
                           coins=(6, 1), turn="you"))
    rows = view.option_rows(read)
    tax = next(r for r in rows if r.label.startswith("Tax"))
    assert read.settled and tax.win_prev is not None and tax.verdict == "Depends on look-ahead"
    assert tax.band.width > 0.3 and tax.lost_pp < 1.0
    assert rows[0].win_prev is None  # the best move's figures are settled: one figure
    note = view.unsettled_note(read, rows)
    assert note is not None and note.startswith("Settled: looking 1 and 2 turns ahead")


def test_a_duel_the_deeper_check_does_not_settle_shows_the_range_of_its_last_two_look_aheads():
    """Duke lost, 0 coins against 1: one and two turns disagree, and two and three (and, once
    solved four turns ahead, three and four): the range is that of the last two."""
    read = _read(TwoChoice(two="you", hand=(C.DUKE, C.CAPTAIN), lost=C.DUKE, coins=(0, 1),
                           turn="you"))
    assert read.check == hidden_two_tables.CHECK and not read.settled
    assert read.horizon in (view.HORIZON, view.DEEPEST)
    low, high = sorted((read.check, read.horizon))
    rows = view.option_rows(read)
    note = view.unsettled_note(read, rows)
    assert note is None or note.startswith(
        f"Looking {low} turns and {high} turns ahead gives different")
    # they hold one card: a square per card under each move, from the deeper look-ahead
    assert note is None or note.endswith(
        f"The squares under each move look {read.horizon} turns ahead.")
    assert read.band.low == min(read.chance, read.chance_prev)
    assert "Not settled" in view.expert_lines(read)[2]


def test_a_duel_solved_four_turns_ahead_reads_with_its_own_look_ahead_and_says_why():
    """A stored duel still moving between two and three turns ahead is solved four: its
    figures, ranges and expert lines name four and three turns, not the page's two."""
    from dataclasses import replace

    choice = TwoChoice(two="you", hand=(C.DUKE, C.CAPTAIN), lost=C.DUKE, coins=(0, 1),
                       turn="you")
    entry = hidden_two_tables.lookup(choice.lost, choice.solver_coins, choice.first)
    assert entry is not None
    deep = view.from_table(choice, replace(entry, horizon=4, check=3, settled=False), 0.001)
    assert (deep.horizon, deep.check) == (4, 3)
    lines = view.expert_lines(deep)
    assert "cut 4 turns ahead" in lines[1]
    assert lines[2].startswith("Your chance 3 turns ahead: ")
    assert ("ahead: " in lines[2] and "(looked at because 1 turn and 2 turns ahead disagreed, "
            "and then 2 turns and 3 turns).") in lines[2]
    note = view.unsettled_note(deep, view.option_rows(deep))
    assert note is None or note.startswith("Looking 3 turns and 4 turns ahead gives different")
    assert note is None or note.endswith("The squares under each move look 4 turns ahead.")
    # the shipped table has no duel solved four turns ahead, so the page does not name it
    assert "4 turns" not in view.how_far() and "against 3 turns" in view.how_far()
