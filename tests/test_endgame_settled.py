"""When end-game figures count as settled (`trainer.endgame.settled`), and how the End-game page
shows figures that are not: a range, graded only where both look-aheads agree."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from trainer.endgame import settled
from trainer.endgame.hidden import solve
from trainer.engine.cards import Character
from trainer.verdicts.grades import grade_for
from trainer.views import endgame_view as v
from trainer.views.endgame_view import Choice

D, AM, CO = Character.DUKE, Character.AMBASSADOR, Character.CONTESSA
NAN = np.nan


def test_a_value_that_moves_a_tenth_of_a_point_or_less_with_the_same_best_option_is_settled():
    c = settled.compare(0.5, 0.5009, np.array([[0.6, 0.4]]), np.array([[0.61, 0.3]]))
    assert c.settled and c.swapped == ()


def test_a_value_that_moves_more_than_a_tenth_of_a_point_is_not_settled():
    c = settled.compare(0.5, 0.5011, np.array([[0.6, 0.4]]), np.array([[0.6, 0.4]]))
    assert not c.settled and abs(c.moved - 0.0011) < 1e-12


def test_a_best_option_that_changes_is_not_settled():
    c = settled.compare(0.5, 0.5, np.array([[0.6, 0.4], [0.2, 0.1]]),
                        np.array([[0.5, 0.55], [0.2, 0.1]]))
    assert not c.settled and c.swapped == (0,)


def test_a_best_option_that_changes_within_a_tenth_of_a_point_of_the_new_best_is_settled():
    c = settled.compare(0.5, 0.5, np.array([[0.6, 0.4]]), np.array([[0.5995, 0.6]]))
    assert c.settled


def test_cards_that_cannot_be_held_are_left_out():
    c = settled.compare(0.5, 0.5, np.array([[NAN, NAN], [0.3, 0.2]]),
                        np.array([[NAN, NAN], [0.3, 0.2]]))
    assert c.settled


def test_a_band_is_the_range_over_the_horizons():
    b = settled.band(0.55, 0.52)
    assert (b.low, b.high) == (0.52, 0.55) and abs(b.width - 0.03) < 1e-12


def test_a_band_reads_as_one_figure_when_both_ends_round_alike():
    assert v.percent_band(settled.band(0.521, 0.524)) == "52%"
    assert v.percent_band(settled.band(0.52, 0.556)) == "52–56%"


# ------------------------------------------------------------------------- the page's view
@cache
def checked(lost: tuple[Character, Character], coins: tuple[int, int], first: int = 0
            ) -> v.Solved:
    """Solved three turns ahead and checked against one."""
    return v.distil(solve(lost, coins, first, horizon=3), 3, 0.1,
                    solve(lost, coins, first, horizon=1))


def test_a_fresh_solve_is_checked_against_two_turns_fewer():
    s = checked((AM, CO), (2, 2))
    assert s.shorter == 1 and s.settled is not None and s.moved is not None
    assert v.shorter_horizon(4) == 2 and v.shorter_horizon(2) is None


def test_an_unsettled_position_shows_ranges_and_says_why():
    s = checked((AM, CO), (2, 2))
    assert s.unsettled  # three turns against one disagree here (measured)
    choice = Choice(card=D, lost=(AM, CO), coins=(2, 2), horizon=3)
    rows = v.option_rows(choice, s)
    assert all(r.win_prev is not None for r in rows)
    moved = [r for r in rows if abs(r.win - (r.win_prev or 0.0)) >= 0.01]
    assert moved and any("–" in v.percent_band(r.band) for r in moved)
    note = v.unsettled_note(s)
    assert note is not None and "1 and 3 turns" in note
    lead = v.lead_you_act(choice, s, rows)[0]
    band = s.chance_band(D)
    assert v.percent_band(band) in lead


def test_an_unsettled_option_is_graded_only_on_the_loss_both_look_aheads_agree_on():
    s = checked((AM, CO), (2, 2))
    choice = Choice(card=D, lost=(AM, CO), coins=(2, 2), horizon=3)
    rows = v.option_rows(choice, s)
    before = s.options_prev[D]
    best_now = max(o.value for o in s.options[D])
    best_then = max(before.values())
    for r, o in zip(rows, s.options[D], strict=True):
        both = min(100 * (best_now - o.value), 100 * (best_then - before[o.move]))
        assert abs(r.lost_pp - round(max(0.0, both), 2)) < 1e-9


def test_a_settled_solve_shows_single_figures():
    s = v.distil(solve((AM, CO), (2, 2), 0, horizon=3), 3, 0.1)
    assert s.settled is None and not s.unsettled and v.unsettled_note(s) is None
    rows = v.option_rows(Choice(card=D, lost=(AM, CO), coins=(2, 2), horizon=3), s)
    assert all(r.win_prev is None and r.verdict == "" for r in rows)
    assert "Not checked" in " ".join(v.expert_lines(s))


def test_an_unsettled_square_of_the_map_gives_its_range_and_is_marked():
    values = np.array([[0.55, 0.2], [1.0, 0.4]])
    flags = np.array([[0.0, 1.0], [1.0, 1.0]])
    before = np.array([[0.51, 0.2], [1.0, 0.4]])
    frame = v.heat_frame(values, None, unsettled=(flags, before))
    loose = frame[frame["unsettled"]]
    assert len(loose) == 1 and loose.iloc[0]["note"].startswith("not settled: 51–55%")
    chart = v.heat_chart(values, None, (0, 0), labels=False, unsettled=(flags, before))
    assert len(chart.layer) == 3  # squares, the dots, this position's outline


def test_no_best_move_is_named_when_the_look_aheads_disagree_on_it():
    # Duke, no coins each: Income looking three turns ahead, Tax looking one (measured)
    s = checked((AM, CO), (0, 0))
    choice = Choice(card=D, lost=(AM, CO), coins=(0, 0), horizon=3)
    lead = " ".join(v.lead_you_act(choice, s, v.option_rows(choice, s)))
    assert "depends on how far ahead perfect play looks: **Income** looking 3" in lead
    assert "**Tax** looking 1" in lead and "Your best move" not in lead


def test_a_best_move_both_look_aheads_agree_on_is_named():
    # Duke, one coin each: Tax at both (measured), though the position is not settled
    s = checked((AM, CO), (1, 1))
    choice = Choice(card=D, lost=(AM, CO), coins=(1, 1), horizon=3)
    lead = " ".join(v.lead_you_act(choice, s, v.option_rows(choice, s)))
    assert s.unsettled and "depends on how far ahead" not in lead


def test_a_duel_played_out_from_an_unsettled_position_says_its_grades_could_change():
    from trainer.endgame import hidden_tables
    from trainer.views import practice_view as pv

    # stored, still moving between five and six turns ahead
    unsettled = Choice(card=Character.CAPTAIN, lost=(D, D), coins=(0, 0))
    entry = hidden_tables.lookup(unsettled.lost, unsettled.coins, 0, unsettled.first)
    assert entry is not None
    low, high = sorted((entry.check, entry.horizon))
    assert pv.settled_note(unsettled) == (
        f"This position is not settled: looking {low} and {high} turns ahead gives different "
        "values, so the grades here, against perfect play 4 turns ahead, could change with a "
        "deeper look. Puzzles use settled positions only.")
    coup = Choice(card=D, lost=(AM, CO), coins=(7, 2))  # the one to act coups: not stored
    assert pv.settled_note(coup) is None
    rich = Choice(card=D, lost=(AM, CO), coins=(2, 9))  # they coup next turn: settled
    assert pv.settled_note(rich) is None


def test_a_duel_played_out_from_a_position_settled_only_six_turns_ahead_says_where_it_looks():
    """Duke and Captain face up, 2 coins against 1: settled between five and six turns ahead
    (and unmoved by a second Exchange). Holding the Duke, the six-turn best move loses 14
    points four turns ahead, where practice looks; holding the Captain it is best there too."""
    from trainer.endgame import hidden_tables
    from trainer.views import practice_view as pv

    lost = (D, Character.CAPTAIN)
    entry = hidden_tables.lookup(lost, (2, 1), 0, 0)
    assert entry is not None and entry.settled and entry.horizon == 6
    assert pv.settled_note(Choice(card=D, lost=lost, coins=(2, 1))) == (
        "The End-game page looks 6 turns ahead at this position. Practice looks 4 turns "
        "ahead, and there another move is best for the card you hold, so a grade here can "
        "differ from the page's.")
    assert pv.settled_note(Choice(card=Character.CAPTAIN, lost=lost, coins=(2, 1))) is None
    # settled four turns ahead, where practice looks: nothing to say
    four = Choice(card=D, lost=(AM, CO), coins=(2, 9))
    entry = hidden_tables.lookup(four.lost, four.coins, 0, four.first)
    assert entry is not None and entry.settled and entry.horizon == 4
    assert pv.settled_note(four) is None


def test_the_best_move_changes_only_beyond_a_tenth_of_a_point():
    assert settled.best_changes([0.6, 0.5], [0.55, 0.6]) == 0
    assert settled.best_changes([0.6, 0.5], [0.5995, 0.6]) is None
    assert settled.best_changes([], []) is None


def test_a_stored_position_settled_one_turn_deeper_shows_single_figures_and_says_so():
    from trainer.endgame import hidden_tables

    # Contessa and Captain face up, 4 coins against 8: two turns ahead says 21.8%, three,
    # four and five turns ahead 25.6%
    stored = hidden_tables.stored_solution((CO, Character.CAPTAIN), (4, 8), 0)
    assert stored is not None and stored.settled and stored.check_horizon == 5
    s = v.distil(stored, 4, 0.0)
    assert s.settled and s.shorter == 5 and not s.unsettled and v.unsettled_note(s) is None
    assert abs(s.moved) <= settled.TOLERANCE
    line = next(x for x in v.expert_lines(s) if x.startswith("Looking"))
    # the two look-aheads agree to under a hundredth of a point: no "-0.00"
    assert line.startswith("Looking 5 turns ahead instead moves the mover's chance by less "
                           "than 0.01 points (settled:")
    assert "because 2 turns ahead gave other figures; 3 turns ahead agrees too." in line
    rows = v.option_rows(Choice(card=CO, lost=(CO, Character.CAPTAIN), coins=(4, 8)), s)
    assert all(r.win_prev is None and r.verdict == "" for r in rows)


def test_a_position_checked_deeper_says_what_the_look_ahead_in_between_said():
    """The expert line of a stored position checked five turns ahead says why, and whether
    three turns ahead agreed with four: settled with it, settled without it (four and five
    agree, two and three did not), or not settled although three agreed."""
    from dataclasses import replace

    from trainer.endgame import hidden_tables

    stored = hidden_tables.stored_solution((CO, Character.CAPTAIN), (4, 8), 0)
    assert stored is not None
    s = v.distil(stored, 4, 0.0)
    assert s.between_agreed is True
    assert v.deeper_reason(s) == ("It was checked that far because 2 turns ahead gave other "
                                  "figures; 3 turns ahead agrees too.")
    assert v.deeper_reason(replace(s, between_agreed=False)) == (
        "It was checked that far because 2 and 3 turns ahead gave other figures.")
    assert v.deeper_reason(replace(s, settled=False)) == (
        "It was checked that far because 2 turns ahead gave other figures (3 turns ahead "
        "agreed with 4).")
    assert v.deeper_reason(replace(s, between_agreed=None)) == (
        "It was checked that far because 2 turns ahead gave other figures.")


def test_a_stored_position_solved_six_turns_ahead_says_why_and_what_it_was_compared_with():
    """A position still moving between four and five turns ahead is solved six: its expert
    line compares it with five, and says that two, four and five gave other figures."""
    from dataclasses import replace

    from trainer.endgame import hidden_tables

    stored = hidden_tables.stored_solution((CO, Character.CAPTAIN), (4, 8), 0)
    assert stored is not None
    deep = replace(stored, horizon=6, check_horizon=5, moved=-0.004, settled=False)
    s = v.distil(deep, deep.horizon, 0.0)
    assert (s.horizon, s.shorter) == (6, 5) and s.unsettled
    lines = v.expert_lines(s)
    assert lines[0] == "From the stored table, solved ahead 6 turns deep."
    line = next(x for x in lines if x.startswith("Looking"))
    assert line.startswith("Looking 5 turns ahead instead moves the mover's chance by +0.40 "
                           "points (not settled")
    assert line.endswith("It was solved 6 turns ahead because 2, 4 and 5 turns ahead gave "
                         "other figures.")
    chosen = Choice(card=D, lost=(CO, Character.CAPTAIN), coins=(4, 8))
    assert v.deeper_note(chosen, s) == (
        "Looking 4 turns ahead did not settle this position, so the table looked further: "
        "these figures look 6 turns ahead.")
    assert v.deeper_note(chosen, v.distil(stored, 4, 0.0)) is None
    assert v.unsettled_note(s) == (
        "Not settled yet: looking 5 and 6 turns ahead gives different figures, so a figure "
        "that moves is shown as the range between the two, and an option is only called "
        "worse by what both agree on. The squares under each option look 6 turns ahead.")


def test_an_unsettled_position_checked_deeper_names_its_two_look_aheads_in_order():
    from dataclasses import replace

    from trainer.endgame import hidden_tables

    stored = hidden_tables.stored_solution((CO, Character.CAPTAIN), (4, 8), 0)
    assert stored is not None
    s = replace(v.distil(stored, 4, 0.0), settled=False)
    assert v.unsettled_note(s) == v.UNSETTLED_NOTE.format(shorter=4, longer=5, page=4)


def test_the_stored_table_is_settled_only_where_its_last_two_horizons_agree():
    from trainer.endgame import hidden_tables

    z = hidden_tables._stored("base")
    assert z is not None
    deep = z["check_horizon"] == hidden_tables.CHECK
    by_exchange = z["by_exchange"] == 1
    more = z["exchanges_at"] > 1  # settled with more Exchanges in a line: three or four
    plain = ~deep & ~by_exchange & ~more
    # every position not settled between two and four turns was solved five turns ahead
    # (and three), and compared between four and five from then on; a settled one a second
    # Exchange moves is compared with that at four turns (`test_endgame_exchange_check`),
    # and settled again where two Exchanges settle it (`test_endgame_more_exchanges`)
    assert np.all(z["settled"][plain] == 1)
    assert np.all(z["check_horizon"][plain] == hidden_tables.HORIZON - 2)
    assert np.all(z["settled"][by_exchange] == 0)
    assert np.all(z["check_horizon"][by_exchange | more] == hidden_tables.HORIZON)
    assert np.all(z["settled"][more] == 1) and not np.any(by_exchange & more)
    assert float(np.abs(z["moved"][more]).max()) <= settled.TOLERANCE
    # every settled position checked: with two Exchanges it agrees, or with three
    assert np.all(z["agree_x2"][(z["settled"] == 1) & ~more] == 1)
    assert np.all(z["agree_x2"][more] == 0)
    assert np.all(np.isfinite(z["value_h5"][deep])) and np.all(np.isfinite(z["value_h3"][deep]))
    assert np.all(np.isin(z["agree_h3"][deep], (0, 1)))
    assert np.all(z["agree_h3"][~deep] == hidden_tables.UNSCREENED)
    assert np.all(z["agree_h3"][by_exchange | more] == hidden_tables.UNSCREENED)
    settled_deep = deep & (z["settled"] == 1)
    assert float(np.abs(z["moved"][settled_deep]).max()) <= settled.TOLERANCE
    assert float(np.nanmax(z["exploitability_h5"])) <= hidden_tables.TARGET
    # those still moving between four and five, every one solved six turns ahead: compared
    # between five and six, their figures the six-turn ones
    solved_six = np.isfinite(z["value_h6"])
    # a second Exchange moves the rest: read at four (with three Exchanges if that settles)
    deepest = solved_six & ~by_exchange & ~more
    assert np.all(deep[deepest]) and np.all(z["horizon_at"][deepest] == hidden_tables.DEEPEST)
    assert np.all(z["horizon_at"][~deepest] == hidden_tables.HORIZON)
    assert float(np.nanmax(z["exploitability_h6"])) <= hidden_tables.TARGET
    np.testing.assert_array_equal(z["mover"][deepest], z["mover_h6"][deepest])
    np.testing.assert_array_equal(z["mover_compared"][deepest], z["mover_h5"][deepest])
    settled_six = deepest & (z["settled"] == 1)
    assert (int(solved_six.sum()), int(settled_six.sum())) == (354, 43)
    # a position read from its twin (the face-up cards swapped) has the twin's own solve
    names = [str(p) for p in z["pairs"]]
    copies = np.argwhere(z["mirrored_h6"] == 1).tolist()
    assert len(copies) == 117 and np.all(solved_six[z["mirrored_h6"] == 1])
    for i, a, b in copies:
        x, y = names[i].split("-")
        j = names.index(f"{y}-{x}")
        assert z["mirrored_h6"][j, a, b] == 0 and np.isfinite(z["cpu_seconds_h6"][j, a, b])
        np.testing.assert_array_equal(z["option_value_h6"][i, a, b],
                                      z["option_value_h6"][j, a, b])
    # 1,008 settled between two and four turns, 246 between four and five, 43 between five
    # and six, each also unmoved by a second Exchange; of those it moved, 119 settle with two
    # Exchanges (read with three) and 31 more with three (read with four)
    assert [int((z["exchanges_at"] == k).sum()) for k in (3, 4)] == [119, 31]
    assert int(z["settled"].sum()) == 1008 + 246 + int(settled_six.sum()) + 119 + 31
    settled_five = settled_deep & ~deepest
    assert (int(settled_five.sum()), int((settled_five & (z["agree_h3"] == 1)).sum())) == (
        246, 136)


def test_twin_positions_of_the_stored_table_are_one_duel_solved_twice():
    """The face-up cards swapped (docs/endgame.md, "Two solves of one duel"): the same value
    within the solver's tolerance, the same settledness, and where settled the same best
    move for (nearly) every card; how much a weaker option loses may differ."""
    from trainer.endgame import hidden_tables

    z = hidden_tables._stored("base")
    assert z is not None
    names = [str(p) for p in z["pairs"]]
    twins = [(i, names.index("-".join(reversed(n.split("-"))))) for i, n in enumerate(names)]
    twins = [(i, j) for i, j in twins if i < j]
    assert len(twins) == 10
    agree = differ = 0
    # settled alike (a pair may settle at different look-aheads: the solver's tolerance)
    apart = sum(int((z["settled"][i] != z["settled"][j]).sum()) for i, j in twins)
    assert apart <= sum(z["settled"][i].size for i, _ in twins) // 100
    for i, j in twins:
        for name in ("value_h5", "value_h6"):
            both = np.isfinite(z[name][i]) & np.isfinite(z[name][j])
            gap = np.abs(z[name][i] - z[name][j])[both]
            assert gap.size == 0 or float(gap.max()) <= 2 * hidden_tables.TARGET, name
        for a, b in np.argwhere((z["settled"][i] == 1) & (z["settled"][j] == 1)).tolist():
            one = settled.compare(0.0, 0.0, z["option_value"][i, a, b], z["option_value"][j, a, b])
            other = settled.compare(0.0, 0.0, z["option_value"][j, a, b],
                                    z["option_value"][i, a, b])
            if one.swapped or other.swapped:
                differ += 1
            else:
                agree += 1
    assert agree >= 99 * (agree + differ) // 100 and agree > 450


def test_each_stored_position_reads_its_twins_own_solve_where_there_is_one():
    """`of_record`: a position's twin's option values, where the twin is a solve of its own
    at the same look-ahead; none for a pair of the same card or a copied twin."""
    from trainer.endgame import hidden_tables

    z = hidden_tables._stored("base")
    assert z is not None
    names = [str(p) for p in z["pairs"]]
    twin = z["option_value_twin"]
    for i, name in enumerate(names):
        x, y = name.split("-")
        if x == y:
            assert np.isnan(twin[i]).all()
            continue
        j = names.index(f"{y}-{x}")
        copied = ((z["mirrored_h6"][i] == 1) | (z["mirrored_h6"][j] == 1)
                  | (z["mirrored_x3"][i] == 1) | (z["mirrored_x3"][j] == 1))
        alike = ((z["horizon_at"][i] == z["horizon_at"][j])
                 & (z["check_horizon"][i] == z["check_horizon"][j])
                 & (z["exchanges_at"][i] == z["exchanges_at"][j]) & ~copied)
        np.testing.assert_array_equal(twin[i][alike], z["option_value"][j][alike])
        assert np.isnan(twin[i][~alike]).all()
    assert int((z["mirrored_h6"] == 1).sum()) >= 1


def test_an_option_two_solves_of_the_duel_value_apart_is_graded_on_what_both_say():
    """Ambassador and Assassin face up, no coins against 6, holding the Duke: the two solves
    of this duel grade Income differently while both look-aheads agree; the page counts the
    smaller loss, shows the chance as the range over both solves, and says why above the
    options."""
    from trainer.endgame import hidden_tables

    lost = (AM, Character.ASSASSIN)
    stored = hidden_tables.stored_solution(lost, (0, 6), 0)
    assert stored is not None and stored.settled and D in stored.options_twin
    solved = v.distil(stored, 4, 0.0)
    choice = Choice(card=D, lost=lost, coins=(0, 6), turn="you", mode="hidden")
    rows = v.option_rows(choice, solved)
    twin = stored.options_twin[D]
    mine = {o.move: o.value for o in stored.options(D)}
    income = next(r for r in rows if r.label.startswith("Income"))
    move = next(m for m in mine if str(m.action.value) == "income")
    losses = (100 * (max(mine.values()) - mine[move]), 100 * (max(twin.values()) - twin[move]))
    assert {grade_for(x) for x in losses} == {"inaccuracy", "mistake"}
    assert income.by_solves and income.verdict == "Depends on perfect play"
    assert income.win_prev is None
    assert income.lost_pp <= min(losses) + 0.01 and income.grade == "inaccuracy"
    assert (income.band.low, income.band.high) == pytest.approx(
        tuple(sorted((mine[move], twin[move]))))
    assert v.solves_note(rows) is not None
    assert "at least" in v.options_html(rows)


def test_an_option_the_look_aheads_and_the_solves_value_apart_counts_the_smallest_loss():
    """The same duel's Exchange: good in one solve looking 4 turns ahead, more than 5 points
    lost looking 2 turns ahead. Looking 4 turns ahead says what both its solves agree on, so
    the grade is good, the tag names the look-ahead, and the chance is the range."""
    from trainer.endgame import hidden_tables

    lost = (AM, Character.ASSASSIN)
    stored = hidden_tables.stored_solution(lost, (0, 6), 0)
    assert stored is not None and stored.settled
    rows = v.option_rows(Choice(card=D, lost=lost, coins=(0, 6), turn="you",
                                mode="hidden"), v.distil(stored, 4, 0.0))
    exchange = next(r for r in rows if r.label.startswith("Exchange"))
    move = next(m for m in stored.options_prev[D] if str(m.action.value) == "exchange")
    twin, prev = stored.options_twin[D], stored.options_prev[D]
    assert 100 * (max(twin.values()) - twin[move]) < 5 < 100 * (max(prev.values()) - prev[move])
    assert exchange.grade == "good" and exchange.verdict == "Depends on look-ahead"
    assert exchange.by_solves and exchange.win_prev == pytest.approx(prev[move])
    assert v.weaker_note(True, 2, 4, rows) is not None


def test_a_stored_position_settled_where_four_and_five_agree_says_three_did_not():
    from trainer.endgame import hidden_tables

    # Duke and Duke face up, 2 coins against 1: settled between four and five turns ahead,
    # three turns ahead gave other figures
    stored = hidden_tables.stored_solution((D, D), (2, 1), 0)
    assert stored is not None and stored.settled and stored.check_horizon == 5
    s = v.distil(stored, 4, 0.0)
    assert s.between_agreed is False and not s.unsettled and v.unsettled_note(s) is None
    line = v.settled_line(s) or ""
    assert "because 2 and 3 turns ahead gave other figures." in line
    assert "(settled:" in line


def test_a_stored_position_still_moving_six_turns_ahead_shows_the_range_of_five_and_six():
    """Duke and Duke face up, 0 coins each: still moving between four and five turns ahead, so
    solved six ahead, where it still moves; the page shows five and six as the range."""
    from trainer.endgame import hidden_tables

    stored = hidden_tables.stored_solution((D, D), (0, 0), 0)
    assert stored is not None and not stored.settled
    assert (stored.horizon, stored.check_horizon) == (6, 5)
    s = v.distil(stored, stored.horizon, 0.0)
    assert v.unsettled_note(s) == v.UNSETTLED_NOTE.format(shorter=5, longer=6, page=6)
    points = f"{-100 * stored.moved:+.2f}"
    assert (v.settled_line(s) or "").startswith(
        f"Looking 5 turns ahead instead moves the mover's chance by {points} points (not "
        "settled")
    band = s.chance_band(next(iter(s.card_values)))
    assert band.low < band.high


def test_an_option_sure_at_one_look_ahead_but_not_the_other_is_not_called_sure():
    """An option whose every square wins at the page's look-ahead (99.97%) but that wins 83%
    at the other look-ahead does not read "wins for sure"; within a tenth of a point it
    does."""
    assert v.outcome_class({"x": 1.0, "y": 0.9996}) == "wins"
    assert v.ranged_outcome({"x": 1.0, "y": 0.9996}, 0.9997, 0.83) == "play"
    assert v.ranged_outcome({"x": 1.0, "y": 0.9996}, 0.9997, 0.9995) == "wins"
    assert v.ranged_outcome({"x": 1.0, "y": 0.9996}, 0.9997, None) == "wins"
