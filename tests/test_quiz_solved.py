"""The End-game drill graded by the exact solver: the solved values of an item, the file of
them shipped beside the bank, and the grade and words the learner gets."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.helpers import shipped_bank
from trainer.cli import main
from trainer.endgame import hidden
from trainer.quiz import solved
from trainer.quiz.bank import DEFAULT_BANK, END_GAME, Bank, Item, load_bank
from trainer.quiz.feedback import feedback, grade
from trainer.quiz.solved import (
    SOLVED_BASIS,
    Solved,
    Unsolvable,
    load_solved,
    solved_path,
)

BANK = shipped_bank()
SHIPPED = load_solved(solved_path(DEFAULT_BANK), BANK)
# A two-player duel: P0 (the learner, holding the Contessa) takes Foreign Aid, P1 claims the
# Duke to block it, and P0 must challenge or pass.
DUEL = "cbb952d982b6"


def answer(item: Item, action: str, s: Solved | None = None):
    return grade(item, action=action, stated=0.5 if item.has_claim else None, learner="ann",
                 bank=BANK.version, answer_id="answer0001", solved=s)


def a_solved(item: Item, best: str) -> Solved:
    """Made-up exact values: `best` wins 60%, every other option 20%."""
    return Solved({o.label: 0.6 if o.label == best else 0.2 for o in item.options}, 4, 0.001,
                  True, 0.0)


def test_a_two_player_item_gets_the_values_of_a_direct_solve_walked_down_its_turn():
    item = BANK.get(DUEL)
    got = solved.solve_item(item, horizon=2).values
    # The same by hand: the duel from the start of the turn, the turn's moves down the tree.
    game = item.game()
    lost = (game.revealed[0][0], game.revealed[1][0])
    s = hidden.solve(lost, (2, 4), 0, horizon=2, target=solved.TARGET)
    node = 0
    for move in item.moves[-2:]:  # Foreign Aid, the Duke's block
        node = s.tree.children[node][s.tree.moves[node].index(move)]
    choices = s.choices(node, s.graph.characters.index(game.hidden[0][0]))
    by_move = {c.move: c.value for c in choices}
    assert got == {o.label: by_move[o.move] for o in item.options}


def test_the_shipped_grades_are_for_this_bank_and_match_a_fresh_solve():
    assert SHIPPED.problem is None and len(SHIPPED) > 0
    two = [BANK.get(i) for i in SHIPPED.entries if BANK.get(i).players == 2][:2]
    for item in two:
        stored = SHIPPED.entries[item.id]
        frame = solved.turn_frame(item)
        s = hidden.solve(frame.revealed, frame.coins, frame.first, horizon=stored.horizon,
                         out=frame.out, target=solved.TARGET)
        assert solved.item_values(item, s, frame) == pytest.approx(stored.values, abs=1e-3)


def test_an_item_whose_turn_began_with_three_players_stays_graded_by_rollouts():
    item = next(i for i in BANK.items if END_GAME in i.themes and i.variant == "base"
                and i.scenario is None and i.players > 2
                and _reason(i).startswith("not a duel at the start of the turn"))
    with pytest.raises(Unsolvable):
        solved.solve_item(item, horizon=1)
    assert SHIPPED.entry(item) is None
    worst = min(item.options, key=lambda o: o.win).label
    assert answer(item, worst).lost_pp == round(item.lost_pp(worst), 2)


def _reason(item: Item) -> str:
    try:
        solved.turn_frame(item)
    except Unsolvable as e:
        return str(e)
    return ""


def test_a_solved_item_is_graded_by_its_exact_values():
    item = BANK.get(DUEL)
    rollout_best = item.best.label
    other = next(o.label for o in item.options if o.label != rollout_best)
    s = a_solved(item, other)
    a = answer(item, rollout_best, s)
    assert (a.best, a.lost_pp, a.grade, a.trivial) == (other, 40.0, "blunder", False)


def test_the_feedback_says_a_solved_grade_is_against_perfect_play():
    item = BANK.get(DUEL)
    s = a_solved(item, "Pass")
    fb = feedback(item, answer(item, "Challenge", s), solved=s)
    assert fb.basis == SOLVED_BASIS == ("Solved exactly: graded against perfect play from "
                                        "the start of this turn (every unseen card equally "
                                        "likely).")
    assert fb.verdict == ("Challenge gives up 40.0 percentage points of your chance to win, "
                          "compared with Pass.")


def test_the_feedback_says_a_rollout_grade_is_an_estimate_against_the_bots():
    item = BANK.get(DUEL)
    fb = feedback(item, answer(item, "Challenge"))
    assert fb.basis == (f"Graded by playing each option out {item.rollouts:,} times against "
                        "the bots: the win chances are estimates.")


def test_a_missing_grades_file_is_reported_and_every_item_graded_by_rollouts(tmp_path):
    grades = load_solved(tmp_path / "default.solved.json", BANK)
    assert len(grades) == 0 and grades.entry(BANK.get(DUEL)) is None
    assert "default.solved.json was not found" in grades.problem
    assert "graded by rollouts" in grades.problem


@pytest.mark.parametrize(("text", "said"), [
    ("{not json", "is not valid JSON (line 1"),
    ('{"format": 1, "bank": "default-00000000", "items": {}}', "was made for bank "
                                                               "'default-00000000'"),
    ('{"format": 7}', 'expected "format": 1'),
    (f'{{"format": 1, "bank": "{BANK.version}", "items": []}}', 'no "items" object'),
])
def test_a_damaged_grades_file_is_reported_and_ignored(tmp_path, text, said):
    path = tmp_path / "default.solved.json"
    path.write_text(text)
    grades = load_solved(path, BANK)
    assert len(grades) == 0 and said in grades.problem


def test_an_entry_that_does_not_fit_its_item_is_left_out_and_said_so(tmp_path):
    item = BANK.get(DUEL)
    good = a_solved(item, "Pass").to_data()
    wrong = {**good, "values": {"Challenge": 0.5, "Fold": 0.5}}
    path = tmp_path / "default.solved.json"
    path.write_text(json.dumps({"format": 1, "bank": BANK.version,
                                "items": {DUEL: good, BANK.items[0].id: wrong,
                                          "no-such-item": good}}))
    grades = load_solved(path, BANK)
    assert list(grades.entries) == [DUEL]
    assert grades.problem.startswith("Exact end-game grades: 2 entries of default.solved.json "
                                     "could not be used")


def test_grade_bank_writes_the_grades_beside_a_bank_and_they_read_back(tmp_path, capsys):
    other = BANK.items[0]  # an End-game item of another rule set
    assert END_GAME in other.themes and other.variant != "base"
    small = Bank("small", (BANK.get(DUEL), other), {})
    path = tmp_path / "small.jsonl"
    small.save(path)
    assert main(["endgame", "grade-bank", "--bank", str(path), "--horizon", "1",
                 "--executor", "local"]) == 0
    grades = load_solved(tmp_path / "small.solved.json", load_bank(path))
    assert grades.problem is None and list(grades.entries) == [DUEL]
    assert grades.entries[DUEL].horizon == 1
    out = capsys.readouterr().out
    assert "1 of the bank's 2 End-game items solved exactly" in out
    assert "graded by rollouts, 1 item: not the base game" in out


def test_a_bank_changed_since_its_grades_were_written_is_graded_by_rollouts(tmp_path):
    item = BANK.get(DUEL)
    path = tmp_path / "small.solved.json"
    path.write_text(json.dumps({"format": 1, "bank": BANK.version,
                                "items": {DUEL: a_solved(item, "Pass").to_data()}}))
    changed = Bank(BANK.name, (item, replace(BANK.items[0], id="new-item")), {})
    grades = load_solved(path, changed)
    assert grades.entry(item) is None and "the bank has changed since" in grades.problem


def test_agreement_counts_where_the_rollouts_and_the_solver_pick_the_same_best_option():
    duel = BANK.get(DUEL)
    other = next(i for i in BANK.items if i.id != DUEL and len(i.options) == 2)
    grades = solved.SolvedGrades(BANK.version, {
        DUEL: a_solved(duel, duel.best.label),
        other.id: a_solved(other, next(o.label for o in other.options
                                       if o.label != other.best.label))})
    a = solved.agreement(BANK, grades)
    assert (a.items, a.same_best, a.near_best, a.options) == (2, 1, 1, 4)
    assert a.best_lost_pp == pytest.approx(20.0)  # 0 on one item, 40 on the other


def test_grade_bank_continues_from_the_items_already_in_its_file(tmp_path):
    duel = BANK.get(DUEL)
    small = Bank("small", (duel,), {})
    path = tmp_path / "small.solved.json"
    kept = Solved({o.label: 0.5 for o in duel.options}, 1, 0.0, True, 0.0).to_data()
    path.write_text(json.dumps({"format": 1, "bank": small.version, "horizon": 1,
                                "items": {DUEL: kept}}))
    graded = solved.grade_bank(small, path, horizon=1, executor="local")
    assert (graded.resumed, graded.solved) == (1, 1)
    assert load_solved(path, small).entries[DUEL].values == kept["values"]


def test_an_exact_grade_compared_one_turn_deeper_keeps_that_look_ahead():
    """A duel read from the stored table where it was checked five turns ahead: its values
    are four turns ahead and `before` five, and what it says and how it grades follow."""
    from trainer.quiz.feedback import item_valuation
    from trainer.views.quiz_text import solved_note

    item = BANK.get(DUEL)
    labels = [o.label for o in item.options]
    values = {k: (0.6 if i == 0 else 0.2) for i, k in enumerate(labels)}
    before = {k: (0.55 if i == 0 else 0.3) for i, k in enumerate(labels)}
    s = Solved(values, 4, 0.0, False, 0.05, before, compared=5)
    assert s.shorter == 5 and Solved(values, 4, 0.0, False, 0.05).shorter == 2
    data = s.to_data()
    assert data["compared"] == 5 and Solved.from_data(data) == s
    assert "compared" not in replace(s, compared=None).to_data()  # older files unchanged
    horizons = item_valuation(item, s).horizons
    assert horizons is not None and (horizons.shorter, horizons.longer) == (5, 4)
    assert "looking 5 turns ahead instead of 4" in solved_note(item, s)


@pytest.mark.parametrize("compared", [4, 0, True, "5"])
def test_an_exact_grade_compared_with_no_other_look_ahead_is_refused(compared):
    item = BANK.get(DUEL)
    data = a_solved(item, item.options[0].label).to_data()
    with pytest.raises(ValueError, match="^compared: expected the other look-ahead"):
        Solved.from_data({**data, "compared": compared})


@pytest.mark.parametrize(("end_games", "solved_n", "said"), [
    (1, 0, "This bank's one End-game item is not solved exactly: it is graded by rollouts."),
    (2, 0, "None of this bank's 2 End-game items are solved exactly: all are graded by "
           "rollouts."),
    (1, 1, "This bank's one End-game item is solved exactly"),
    (2, 1, "1 of this bank's 2 End-game items is solved exactly"),
    (2, 2, "2 of this bank's 2 End-game items are solved exactly"),
])
def test_the_count_of_solved_end_game_items_agrees_with_its_nouns(end_games, solved_n, said):
    from trainer.views.quiz_text import solved_origin

    ends = [i for i in BANK.items if END_GAME in i.themes][:end_games]
    bank = Bank("tiny", tuple(ends), {})
    grades = solved.SolvedGrades(bank=bank.version, entries={
        i.id: a_solved(i, i.best.label) for i in ends[:solved_n]})
    assert solved_origin(grades, bank).startswith(said)


def test_an_item_is_solved_a_second_time_with_the_face_up_cards_swapped():
    """The same duel solved on its own (a face-up card only leaves the court): its values
    come with the item's, for the grade to count what both solves agree on."""
    item = BANK.get(DUEL)
    frame = solved.turn_frame(item)
    assert frame.revealed[0] != frame.revealed[1]
    s = solved.solve_item(item, horizon=2)
    assert set(s.other) == set(s.values)
    assert max(s.other.values()) == pytest.approx(max(s.values.values()), abs=2e-3)
    twin = hidden.solve((frame.revealed[1], frame.revealed[0]), frame.coins, frame.first,
                        horizon=2, out=frame.out, target=solved.TARGET)
    assert s.other == solved.item_values(item, twin, frame)


def test_a_second_solve_is_kept_in_the_grades_file_and_a_damaged_one_refused():
    item = BANK.get(DUEL)
    base = a_solved(item, "Pass")
    s = replace(base, before=dict(base.values), other={"Pass": 0.6, "Challenge": 0.4})
    assert Solved.from_data(s.to_data()) == s
    assert "other" not in a_solved(item, "Pass").to_data()  # older files unchanged
    for bad in ({"Fold": 0.5}, {"Pass": 1.5}, ["Pass"]):
        with pytest.raises(ValueError, match="^other: expected"):
            Solved.from_data({**s.to_data(), "other": bad})


def test_the_shipped_grades_keep_a_second_solve_of_every_duel_with_two_face_up_cards():
    for item_id, entry in SHIPPED.entries.items():
        frame = solved.turn_frame(BANK.get(item_id))
        assert bool(entry.other) == (frame.revealed[0] != frame.revealed[1]), item_id


def test_the_second_solve_of_a_duel_with_cards_out_reuses_the_courts_values():
    """A duel from a larger game: the court's known-role values take seconds to work out, and
    the swapped duel is the same game, so its horizon reads the first solve's."""
    from trainer.endgame import tables

    item = next(BANK.get(k) for k, e in SHIPPED.entries.items()
                if e.other and solved.turn_frame(BANK.get(k)).out)
    frame = solved.turn_frame(item)
    tables._COURTS.clear()
    s = solved.solve_item(item, horizon=2)
    assert set(s.other) == set(s.values)
    assert list(tables._COURTS) == [(frame.revealed, tuple(sorted(frame.out)), "base")]
