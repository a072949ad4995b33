"""A settled position checked with a second Exchange allowed in a line
(`hidden_tables.exchange_check`): the solver cuts a line at the turn after its first Exchange
at every look-ahead it compares, so agreeing between look-aheads says nothing of those lines."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import hidden_table_copy
from trainer.endgame import hidden, hidden_tables
from trainer.endgame.hidden_tables import UNSCREENED, exchange_check, of_record
from trainer.engine.cards import Character
from trainer.quiz.solved import Solved as QuizSolved
from trainer.verdicts import words
from trainer.verdicts.valuation import Horizons, Valuation
from trainer.verdicts.verdict import judge
from trainer.views import endgame_view as v
from trainer.views import practice_view as pv
from trainer.views.endgame_view import Choice

D, CO = Character.DUKE, Character.CONTESSA


def _copy_with_settled(tmp_path: Path, keep: list[tuple[str, int, int]]) -> Path:
    """The shipped table with only `keep` settled and never checked (with a second Exchange
    or more): a pass over a few positions (each takes seconds)."""

    def edit(z: dict[str, np.ndarray], mask: np.ndarray) -> None:
        assert all(z["settled"][mask] == 1)
        z["settled"] = np.where(mask, 1, 0).astype(np.int8)
        for k in list(z):
            if k.endswith(("_x2", "_x3", "_x2h3", "_x4", "_x3h3")):
                del z[k]

    return hidden_table_copy(tmp_path, keep, edit)


def test_a_second_exchange_moves_duke_and_duke_face_up_four_coins_each(tmp_path):
    """Settled between two and four turns ahead (63.1% for the mover), but a line that may
    hold a second Exchange makes it 56.3%: checked, and no longer settled."""
    out = _copy_with_settled(tmp_path, [("Duke-Duke", 4, 4)])
    ran = exchange_check(out, executor="local")
    assert (ran.solved, ran.copied, ran.checked, ran.failed) == (1, 0, 1, 1)
    with np.load(out) as f:
        z = {k: f[k] for k in f.files}
    i = [str(p) for p in z["pairs"]].index("Duke-Duke")
    assert z["agree_x2"][i, 4, 4] == 0
    assert float(z["value_x2"][i, 4, 4]) == pytest.approx(0.5625, abs=2e-4)
    assert float(z["moved_x2"][i, 4, 4]) == pytest.approx(-0.0684, abs=5e-4)
    assert z["agree_x2"][i, 4, 3] == UNSCREENED  # not settled in this copy: not checked
    rec = of_record(z)
    assert rec["settled"][i, 4, 4] == 0 and rec["by_exchange"][i, 4, 4] == 1
    assert rec["check_horizon"][i, 4, 4] == rec["horizon_at"][i, 4, 4] == 4
    assert np.allclose(rec["mover_compared"][i, 4, 4], z["mover_x2"][i, 4, 4], equal_nan=True)
    assert not (tmp_path / "hidden.npz.parts").exists()


def test_a_twin_reads_its_twins_check_and_a_position_it_does_not_move_stays_settled(tmp_path):
    """Contessa and Duke face up, 4 coins against 9, and the same with the face-up cards
    swapped: one solve serves both, and it agrees with one Exchange."""
    out = _copy_with_settled(tmp_path, [("Contessa-Duke", 4, 9), ("Duke-Contessa", 4, 9)])
    ran = exchange_check(out, executor="local")
    assert (ran.solved, ran.copied, ran.checked, ran.failed) == (1, 1, 2, 0)
    with np.load(out) as f:
        z = {k: f[k] for k in f.files}
    names = [str(p) for p in z["pairs"]]
    i, j = names.index("Contessa-Duke"), names.index("Duke-Contessa")
    assert z["agree_x2"][i, 4, 9] == z["agree_x2"][j, 4, 9] == 1
    assert np.isnan(z["cpu_seconds_x2"][max(i, j), 4, 9])  # the copy: nothing solved for it
    assert float(z["value_x2"][i, 4, 9]) == float(z["value_x2"][j, 4, 9])
    rec = of_record(z)
    assert rec["settled"][i, 4, 9] == rec["settled"][j, 4, 9] == 1
    assert rec["by_exchange"][i, 4, 9] == 0


def test_a_second_run_of_the_check_solves_nothing_again(tmp_path):
    out = _copy_with_settled(tmp_path, [("Contessa-Duke", 4, 9)])
    exchange_check(out, executor="local")
    again = exchange_check(out, executor="local")
    assert (again.solved, again.checked) == (0, 1)


def test_a_position_six_turns_ahead_a_second_exchange_moves_is_read_four_turns_ahead():
    """Its six-turn figures (one Exchange) cannot be set against a four-turn check, so the
    figures of record are the four-turn ones, with one Exchange and with two."""
    z = dict(hidden_tables.packaged("hidden-base.npz") or {})
    assert "value_h6" in z
    i, a, b = (int(x) for x in np.argwhere(np.isfinite(z["value_h6"].astype(float))
                                           & (z["settled"] == 1))[0])
    shape = z["settled"].shape
    n = z["mover"].shape[-1]
    z["agree_x2"] = np.full(shape, UNSCREENED, dtype=np.int8)
    z["agree_x2"][i, a, b] = 0
    z["moved_x2"] = np.zeros(shape, dtype=np.float32)
    z["moved_x2"][i, a, b] = 0.05
    for name, tail in (("mover", (n,)), ("other", (n,)), ("option_value", (n, 6))):
        z[f"{name}_x2"] = np.full((*shape, *tail), 0.25, dtype=np.float32)
    rec = of_record(z)
    assert rec["horizon_at"][i, a, b] == 4 and rec["settled"][i, a, b] == 0
    assert np.allclose(rec["mover"][i, a, b], z["mover"][i, a, b], equal_nan=True)
    assert np.allclose(rec["option_value_compared"][i, a, b], 0.25)
    assert rec["moved"][i, a, b] == pytest.approx(0.05)
    assert rec["agree_h3"][i, a, b] == UNSCREENED


def _solved_by_exchange() -> v.Solved:
    """Duke and Contessa face up, 2 coins each, read as if a second Exchange had moved it:
    the best move differs with two Exchanges."""
    s = hidden.solve((D, CO), (2, 2), 0, horizon=2, target=1e-3)
    solved = v.distil(s, 2, 0.0)
    card = D
    options = solved.options[card]
    before = {o.move: o.value for o in options}
    worst = options[-1].move
    before[worst] = options[0].value + 0.05
    return replace(solved, settled=False, shorter=2, moved=0.02, by_exchange=True,
                   options_prev={card: before}, card_values_prev=dict(solved.card_values))


def test_the_page_says_a_second_exchange_unsettles_the_position():
    solved = _solved_by_exchange()
    assert v.unsettled_note(solved) == v.UNSETTLED_EXCHANGE_NOTE.format(page=2)
    choice = Choice(card=D, lost=(D, CO), coins=(2, 2), horizon=2)
    rows = v.option_rows(choice, solved)
    lead = v.lead_you_act(choice, solved, rows)
    assert lead[-1].startswith("Which move is best depends on how many Exchanges a line of "
                               "play may hold before the solver stops it: ")
    assert "Letting a line of play hold a second Exchange moves the mover's chance by +2.00 " \
           "points" in v.settled_line(solved)  # type: ignore[operator]


def test_a_grade_the_exchanges_decide_says_so():
    val = Valuation.solved({"a": 0.6, "b": 0.5}, horizons=Horizons(4, 4, {"a": 0.55, "b": 0.58},
                                                                   exchanges=True))
    verdict = judge(val, "b")
    assert verdict.reason == "horizon"
    assert words.headline(verdict).startswith("Depends on the Exchanges a line may hold: ")
    note = words.range_note(verdict)
    assert note is not None and note.startswith(
        "Looking 4 turns ahead, letting a line of play hold two Exchanges instead of one "
        "values this option differently")
    assert "may hold two Exchanges or only one before" in words.sentence(verdict)


def test_practice_says_a_second_exchange_unsettles_the_position(monkeypatch):
    entry = hidden_tables.lookup((D, CO), (2, 2), 0, 0)
    assert entry is not None
    monkeypatch.setattr(pv, "lookup", lambda *a, **k: replace(entry, settled=False,
                                                               by_exchange=True))
    note = pv.settled_note(Choice(card=D, lost=(D, CO), coins=(2, 2)))
    assert note == pv.UNSETTLED_EXCHANGE_PRACTICE.format(page=4)


def test_a_quiz_grade_checked_with_a_second_exchange_keeps_it():
    s = QuizSolved({"a": 0.6, "b": 0.5}, 4, 1e-4, False, -0.03, {"a": 0.55, "b": 0.58}, 4,
                   exchanges=True)
    back = QuizSolved.from_data(s.to_data())
    assert back == s and back.shorter == 4
    with pytest.raises(ValueError, match="compared: a check with a second Exchange"):
        QuizSolved.from_data({**s.to_data(), "compared": 2})
    with pytest.raises(ValueError, match="exchanges: expected true or false"):
        QuizSolved.from_data({**s.to_data(), "exchanges": "yes"})


def test_a_fresh_solve_says_a_second_exchange_was_not_tried_and_a_checked_one_that_it_was():
    s = replace(_solved_by_exchange(), settled=True, by_exchange=False, moved=0.0)
    assert (v.settled_line(s) or "").endswith(
        "Both look-aheads stop a line at the turn after its first Exchange; a second was not "
        "tried here.")
    checked = replace(s, exchange_checked=True, stored=True)
    assert (v.settled_line(checked) or "").endswith(
        "Letting a line hold a second Exchange, 4 turns ahead, changes nothing either.")
