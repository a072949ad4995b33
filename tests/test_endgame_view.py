"""The End-game page's words and figures without Streamlit: links read and written, the court's
checks, an option's outcome class, wording for a newcomer, the opening sentences, the heat map."""

from __future__ import annotations

import re
from functools import cache

import numpy as np
import pytest

from trainer.endgame.hidden import solve
from trainer.engine.cards import Character
from trainer.views import endgame_view as v
from trainer.views.endgame_view import Choice

D, A, CA, AM, CO = (Character.DUKE, Character.ASSASSIN, Character.CAPTAIN,
                    Character.AMBASSADOR, Character.CONTESSA)


@cache
def solved(lost: tuple[Character, Character], coins: tuple[int, int], first: int = 0,
           horizon: int = 1) -> v.Solved:
    return v.distil(solve(lost, coins, first, horizon=horizon), horizon, 0.1)


# ------------------------------------------------------------------------------ links


def test_a_full_link_opens_its_position_and_writes_back_the_same():
    params = {"card": "captain", "lost": "Duke, Duke", "coins": "0,6", "turn": "them",
              "mode": "faceup", "their": "Contessa", "horizon": "2"}
    choice, errors = v.read_link(params, Choice())
    assert errors == []
    assert choice == Choice(card=CA, lost=(D, D), coins=(0, 6), turn="them", mode="faceup",
                            their=CO, horizon=2)
    assert v.read_link(v.link_params(choice), Choice()) == (choice, [])


def test_a_link_without_parameters_keeps_what_is_shown():
    shown = Choice(card=AM, coins=(5, 1))
    assert v.read_link({}, shown) == (shown, [])


@pytest.mark.parametrize("param, value, words", [
    ("coins", "2,x", "two whole numbers from 0 to 12, your coins then theirs"),
    ("coins", "2,13", "two whole numbers from 0 to 12"),
    ("coins", "4", "two whole numbers"),
    ("card", "Jester", "your card, one of Duke, Assassin, Captain, Ambassador, Contessa"),
    ("card", "Inquisitor", "your card, one of Duke"),  # a card of another rule set
    ("lost", "Duke", "two cards, the one you lost then the one they lost"),
    ("turn", "me", "you or them"),
    ("mode", "open", "hidden (cards hidden, real play) or faceup"),
    ("horizon", "7", "how many turns ahead to look, 1 to 4"),
    ("their", "", "their card, one of"),
])
def test_a_bad_parameter_is_named_with_what_was_expected_and_changes_nothing(param, value,
                                                                             words):
    shown = Choice(coins=(3, 4))
    choice, errors = v.read_link({param: value, "turn": "them"} if param != "turn"
                                 else {param: value}, shown)
    assert len(errors) == 1
    assert errors[0].startswith(f"The link's `{param}` could not be read: expected ")
    assert words in errors[0]
    assert f"“{value}”" in errors[0]
    assert getattr(choice, param) == getattr(shown, param)
    # what is shown instead is named in the link's own words
    assert errors[0].endswith(f"Showing {v.link_params(shown)[param]} instead.")


def test_good_parameters_beside_a_bad_one_still_apply():
    choice, errors = v.read_link({"card": "Assassin", "coins": "a,b", "mode": "face-up"},
                                 Choice())
    assert choice.card is A and choice.mode == "faceup" and choice.coins == (2, 2)
    assert [e.split("`")[1] for e in errors] == ["coins"]


def test_switching_seats_swaps_lost_cards_coins_and_turn():
    c = Choice(card=D, lost=(AM, CO), coins=(1, 6), turn="them")
    assert c.switched() == Choice(card=D, lost=(CO, AM), coins=(6, 1), turn="you")
    assert c.switched().switched() == c


# ------------------------------------------------------------------------- the court


def test_three_cards_always_fit_but_a_fourth_copy_is_refused_in_face_up_mode():
    hidden = Choice(card=D, lost=(D, D))
    assert v.impossible(hidden) is None
    faceup = Choice(card=D, lost=(D, D), mode="faceup", their=D)
    assert v.impossible(faceup) == (
        "They cannot hold a Duke here: the deck has only 3 Dukes, and your card and the two "
        "lost cards already show them all. Pick another card for them.")
    assert v.impossible(Choice(card=D, lost=(D, D), mode="faceup", their=CA)) is None


def test_their_chances_count_the_cards_you_can_see():
    chances = v.their_chances(Choice(card=D, lost=(AM, CO)))
    assert chances == pytest.approx({D: 2 / 12, A: 3 / 12, CA: 3 / 12, AM: 2 / 12,
                                     CO: 2 / 12})
    assert D not in v.their_chances(Choice(card=D, lost=(D, D)))
    # the solver deals the same way
    assert solved((AM, CO), (2, 2)).against[D] == pytest.approx(chances)


# ---------------------------------------------------------------------- outcome class


@pytest.mark.parametrize("against, outcome", [
    ({D: 1.0, A: 1.0}, "wins"),
    ({D: 0.998, A: 1.0}, "wins"),  # within the solver's precision
    ({D: 0.0, A: 0.001}, "loses"),
    ({D: 1.0, A: 0.0, CA: 0.999}, "card"),
    ({D: 1.0, A: 0.5}, "play"),
    ({D: 0.98, A: 0.99}, "play"),
])
def test_outcome_class(against, outcome):
    assert v.outcome_class(against) == outcome


def test_outcome_words():
    assert v.OUTCOMES == {"wins": "wins for sure", "loses": "loses for sure",
                          "card": "depends on their card", "play": "depends on play"}


# ----------------------------------------------------------------------------- wording


def test_options_are_worded_for_you_best_first_with_bluffs_marked():
    choice = Choice(card=CO, lost=(AM, D), coins=(3, 1))
    rows = v.option_rows(choice, solved((AM, D), (3, 1)))
    labels = [r.label for r in rows]
    assert set(labels) == {"Income: take 1", "Foreign aid: take 2", "Tax: claim Duke, take 3",
                           "Assassinate them: claim Assassin, pay 3",
                           "Steal from them: claim Captain, take 1",
                           "Exchange: claim Ambassador"}
    assert [r.win for r in rows] == sorted((r.win for r in rows), reverse=True)
    assert rows[0].lost_pp == 0 and rows[0].grade == "best"
    by = {r.label: r for r in rows}
    assert by["Tax: claim Duke, take 3"].bluff and not by["Income: take 1"].bluff
    assert by["Income: take 1"].claim is None
    assert all(not re.search(r"\bP[12]\b", label) for label in labels)
    # the strip: every card they may hold, with its chance
    assert [c.card for c in rows[0].strip] == list(v.their_chances(choice))
    assert sum(c.held for c in rows[0].strip) == pytest.approx(1)


def test_a_true_claim_is_tagged_as_such_and_a_steal_from_nobody_takes_nothing():
    choice = Choice(card=CA, lost=(AM, CO), coins=(2, 0))
    rows = v.option_rows(choice, solved((AM, CO), (2, 0)))
    steal = next(r for r in rows if r.label.startswith("Steal"))
    assert steal.label == "Steal from them: claim Captain, take nothing"
    assert steal.claim is CA and not steal.bluff
    html = v.options_html(rows)
    assert html.count('<li class="eg-option') == len(rows)
    assert "true claim" in html and "bluff" in html
    assert "the best move" in html


def test_losses_read_in_points_with_the_quiz_grades():
    choice = Choice(card=D, lost=(AM, CO), coins=(2, 2))
    rows = v.option_rows(choice, solved((AM, CO), (2, 2)))
    html = v.options_html(rows)
    worst = rows[-1]
    assert worst.lost_pp > 15 and worst.grade == "blunder"
    assert f"{worst.lost_pp:.1f} points below the best: a blunder" in html


@pytest.mark.parametrize("f, words", [(1.0, "always picks it"), (0.997, "always picks it"),
                                      (0.0, "never picks it"), (0.004, "never picks it"),
                                      (0.53, "picks it 53% of the time")])
def test_frequency_words(f, words):
    assert v.frequency_words(f) == "perfect play " + words


def test_a_mix_is_explained_once_and_a_pure_choice_not_at_all():
    row = v.OptionRow("Tax: claim Duke, take 3", D, False, 0.5, 0.0, "best", 0.53, "card",
                      (), "")
    other = v.OptionRow("Foreign aid: take 2", None, False, 0.5, 0.1, "best", 0.46, "play",
                        (), "")
    never = v.OptionRow("Income: take 1", None, False, 0.4, 10.0, "inaccuracy", 0.0, "play",
                        (), "")
    note = v.mix_note([row, other, never])
    assert note is not None
    assert note.startswith("Perfect play mixes Tax (53%) and Foreign aid (46%). Options "
                           "played in a mix win equally often")
    assert v.mix_note([row, never]) is None


# ------------------------------------------------------------------------ the sentences


def test_the_position_in_three_sentences():
    lines = v.position_lines(Choice(card=D, lost=(AM, CO), coins=(0, 6)))
    assert lines == ["You hold the **Duke** and have no coins; they have 6 coins.",
                     "You lost an Ambassador, they lost a Contessa: both lie face up. One "
                     "more lost card ends the game.",
                     "It is your turn."]
    assert v.position_lines(Choice(coins=(1, 1), turn="them"))[0].endswith(
        "and have 1 coin; they have 1 coin.")


def test_the_lead_says_what_each_chance_is_the_chance_of():
    choice = Choice(card=D, lost=(AM, CO), coins=(2, 2))
    s = solved((AM, CO), (2, 2))
    rows = v.option_rows(choice, s)
    lead = v.lead_you_act(choice, s, rows)
    assert lead[0] == (f"If you both play perfectly, you win "
                       f"**{v.percent(s.card_values[D])}** of the time.")
    assert v.chances_line(v.their_chances(choice)) == (
        "Their card, from what you can see (the chance they hold each): Duke 17%, "
        "Assassin 25%, Captain 25%, Ambassador 17%, Contessa 17%.")


def test_a_best_move_that_bluffs_says_so():
    # An Assassin with no coins against 6: perfect play claims the Duke it does not hold.
    choice = Choice(card=A, lost=(AM, CO), coins=(0, 6))
    rows = v.option_rows(choice, solved((AM, CO), (0, 6)))
    assert rows[0].label == "Tax: claim Duke, take 3" and rows[0].bluff
    assert v.lead_you_act(choice, solved((AM, CO), (0, 6)), rows)[1] == (
        "Your best move: **Tax: claim Duke, take 3** (a bluff: you do not hold the Duke).")


def test_a_mix_of_best_moves_is_named_as_a_mix():
    # A Contessa at 2 coins each: perfect play takes foreign aid or income, about half each.
    choice = Choice(card=CO, lost=(AM, CA), coins=(2, 2))
    s = solved((AM, CA), (2, 2))
    rows = v.option_rows(choice, s)
    assert {short for short in (v.short_name(r) for r in rows[:2])} == {"Foreign aid",
                                                                          "Income"}
    line = v.lead_you_act(choice, s, rows)[1]
    assert line.startswith("Perfect play mixes **") and line.endswith(
        ": they win equally often.")
    assert "**Foreign aid**" in line and "**Income**" in line


def test_their_turn_gives_your_chance_and_points_to_switching_seats():
    choice = Choice(card=D, lost=(AM, CO), coins=(2, 2), turn="them")
    s = solved((AM, CO), (2, 2), 1)
    assert s.mover == 1
    lead = v.lead_they_act(choice, s)
    assert lead[0] == (f"If you both play perfectly, you win **{v.percent(s.card_values[D])}"
                       "** of the time.")
    assert lead[1].startswith("The Duke is ") and "a random card would win" in lead[1]
    assert "switch seats" in lead[2]


def test_face_up_verdicts():
    c = Choice(card=D, their=CA, lost=(AM, CO))
    assert v.faceup_lines(c, 1.0, 3)[1] == ("You **win for sure**, within 3 turns (counting "
                                            "this one), whatever they do.")
    assert v.faceup_lines(c, 0.0, 1)[1] == ("You **lose for sure**: they win within 1 turn "
                                            "(counting this one), whatever you do.")
    assert v.faceup_lines(c, 0.63, None)[1].startswith("You win **63%** of the time")
    assert v.faceup_lines(c, 0.63, None)[0] == ("With both cards face up (your Duke against "
                                                "their Captain, you to act):")


def test_the_horizon_is_mentioned_only_when_the_tree_was_cut():
    s = solved((AM, CO), (2, 2))
    assert s.cut_nodes > 0
    assert v.horizon_note(s) == (
        "These figures look 1 turn ahead, and a line of play stops at the turn after its first "
        "Exchange. Where the game goes on longer, they count the rest as if both cards were "
        "face up, so “for sure” means for sure within that.")
    from dataclasses import replace
    assert v.horizon_note(replace(s, cut_nodes=0)) is None
    assert v.expert_lines(s)[0].startswith("Exploitability: ")


def test_progress_moves_forward_and_ends_full():
    first = 0.2
    steps = [v.progress_fraction(i * 50, e, first) for i, e in
             enumerate([0.2, 0.05, 0.01, 0.004, 0.0009], start=1)]
    assert steps == sorted(steps) and steps[0] < 0.1 and steps[-1] == 1.0
    assert 0 <= v.progress_fraction(50, 0.5, 0.2) <= 1
    assert v.progress_text(150, 0.004) == ("Working out perfect play… 150 rounds, within "
                                           "0.4 points of perfect")


def test_win_colours_run_from_red_through_brown_to_blue():
    assert v.win_colour(0.0) == v.LOSE and v.win_colour(0.5) == v.EVEN
    assert v.win_colour(1.0) == v.WIN and v.win_colour(2.0) == v.WIN


# ---------------------------------------------------------------------------- heat map


def test_the_heat_map_labels_only_uncertain_squares_and_outlines_this_position():
    values = np.array([[1.0, 0.0], [0.63, 1.0]])
    distances = np.array([[2, 5], [-1, 1]], dtype=np.int8)
    frame = v.heat_frame(values, distances)
    assert list(frame["label"]) == ["", "", "63", ""]
    assert list(frame["note"]) == ["you win within 2 turns", "they win within 5 turns",
                                   "the draw of an Exchange decides", "you win within 1 turn"]
    spec = v.heat_chart(values, distances, (1, 0)).to_dict()
    assert len(spec["layer"]) == 3
    here = spec["datasets"][spec["layer"][2]["data"]["name"]]
    assert here == [{"you": 1, "them": 0}]


def test_the_heat_map_sentence_names_both_cards():
    text = v.heat_sentence(Choice(card=D, their=CA, turn="them"))
    assert "your Duke against their Captain, they act first" in text


def test_the_progress_bar_says_what_it_waits_for_before_the_first_report():
    assert v.progress_start(4) == ("Working out perfect play 4 turns ahead: first every line "
                                   "of play, then rounds of better and better play…")
    assert "1 turn ahead" in v.progress_start(1)


def test_a_line_of_play_reads_from_your_seat():
    from trainer.endgame.hidden import Step
    from trainer.engine.cards import Action
    from trainer.engine.game import Phase
    from trainer.engine.moves import Move, MoveKind

    steps = [Step(0, Move(MoveKind.ACT, 0, Action.TAX), Phase.ACTION),
             Step(1, Move(MoveKind.PASS, 1), Phase.CHALLENGE_ACTION),
             Step(1, Move(MoveKind.ACT, 1, Action.STEAL, 0), Phase.ACTION),
             Step(0, Move(MoveKind.BLOCK, 0, character=Character.CAPTAIN), Phase.BLOCK)]
    assert v.line_text(steps, 0) == (
        "Likely line: you claim the Duke for Tax → they let the claim stand → they claim the "
        "Captain to steal → you block as the Captain …")
    assert v.line_text([], 0) == ""


def test_an_option_as_good_as_the_best_says_so_and_the_next_loss_defines_points():
    def row(label, lost, grade):
        return v.OptionRow(label, None, False, 0.5, lost, grade, 0.5, "play", (), label)

    html = v.options_html([row("Tax", 0.0, "best"), row("Income", 0.0, "best"),
                           row("Steal", 7.0, "inaccuracy")])
    assert "as good as the best" in html
    assert "7.0 percentage points of your chance to win below the best: an inaccuracy" in html
