"""A position a second Exchange moved, settled with two Exchanges allowed in a line
(`hidden_tables.more_exchanges`): a look-ahead one turn shorter and a third Exchange must
both agree with four turns ahead and two Exchanges, by the project's one settled test."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import hidden_table_copy, shipped_bank
from trainer.cli import main
from trainer.endgame import hidden, hidden_tables, settled
from trainer.endgame.hidden_tables import (
    MORE_EXCHANGES,
    MOST_EXCHANGES,
    UNSCREENED,
    lookup,
    more_exchanges,
    of_record,
)
from trainer.engine.cards import Character
from trainer.quiz.feedback import item_valuation
from trainer.quiz.solved import Solved as QuizSolved
from trainer.verdicts import words
from trainer.verdicts.valuation import Horizons, Valuation
from trainer.verdicts.verdict import judge
from trainer.views import endgame_view as v
from trainer.views import practice_view as pv
from trainer.views.endgame_view import Choice
from trainer.views.quiz_text import solved_note

D, A, CO = Character.DUKE, Character.ASSASSIN, Character.CONTESSA
DUEL = "cbb952d982b6"  # a duel of the shipped bank (`test_quiz_solved`)


def _copy_moved_only(tmp_path: Path, keep: list[tuple[str, int, int]]) -> Path:
    """The shipped table with only `keep` counted as moved by a second Exchange, and no pass
    with more Exchanges made yet: a pass over a few positions (each takes seconds)."""

    def edit(z: dict[str, np.ndarray], mask: np.ndarray) -> None:
        assert all(z["agree_x2"][mask] == 0) and all(z["settled"][mask] == 1)
        z["agree_x2"] = np.where(mask, 0, np.where(z["agree_x2"] == 0, 1, z["agree_x2"])
                                 ).astype(np.int8)
        for k in list(z):
            if k.endswith(("_x3", "_x2h3", "_x4", "_x3h3")):
                del z[k]

    return hidden_table_copy(tmp_path, keep, edit)


def _copy_for_four(tmp_path: Path, keep: list[tuple[str, int, int]]) -> Path:
    """The shipped table with only `keep` counted as moved by a second Exchange, their tries
    with two and three Exchanges kept, and none made with four yet."""

    def edit(z: dict[str, np.ndarray], mask: np.ndarray) -> None:
        assert all(z["agree_x2h3"][mask] == 1) and all(z["agree_x3"][mask] == 0)
        z["agree_x2"] = np.where(mask, 0, np.where(z["agree_x2"] == 0, 1, z["agree_x2"])
                                 ).astype(np.int8)
        for k in list(z):
            if k.endswith(("_x4", "_x3h3")):
                del z[k]

    return hidden_table_copy(tmp_path, keep, edit)


def _load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as f:
        return {k: f[k] for k in f.files}


def test_ambassador_and_contessa_face_up_six_coins_against_none_settles_with_two_exchanges(
        tmp_path):
    """A second Exchange moved it, but with two allowed, three turns ahead agrees with four
    and a third Exchange moves nothing: settled, read with three Exchanges, compared with
    two. Its twin (Contessa and Ambassador face up) reads the same solves."""
    out = _copy_moved_only(tmp_path, [("Ambassador-Contessa", 6, 0),
                                      ("Contessa-Ambassador", 6, 0)])
    ran = more_exchanges(out, executor="local")
    assert (ran.solved, ran.deeper, ran.copied, ran.settled) == (1, 1, 1, 2)
    assert ran.by_count == {MORE_EXCHANGES: 2, MOST_EXCHANGES: 0}
    z = _load(out)
    names = [str(p) for p in z["pairs"]]
    i, j = names.index("Ambassador-Contessa"), names.index("Contessa-Ambassador")
    for k in (i, j):
        assert z["agree_x2h3"][k, 6, 0] == z["agree_x3"][k, 6, 0] == 1
    assert abs(float(z["value_x3"][i, 6, 0]) - float(z["value_x2"][i, 6, 0])) <= 1e-3
    shipped = hidden_tables.packaged("hidden-base.npz")
    assert shipped is not None
    for name in ("value_x2h3", "value_x3"):
        assert float(z[name][i, 6, 0]) == pytest.approx(float(shipped[name][i, 6, 0]), abs=2e-4)
    assert np.isnan(z["cpu_seconds_x3"][j, 6, 0]) and z["mirrored_x3"][j, 6, 0] == 1
    rec = of_record(z)
    assert rec["settled"][i, 6, 0] == 1 and rec["by_exchange"][i, 6, 0] == 0
    assert rec["exchanges_at"][i, 6, 0] == MORE_EXCHANGES
    assert rec["horizon_at"][i, 6, 0] == rec["check_horizon"][i, 6, 0] == 4
    assert np.allclose(rec["mover"][i, 6, 0], z["mover_x3"][i, 6, 0], equal_nan=True)
    assert np.allclose(rec["option_freq"][i, 6, 0], z["option_freq_x3"][i, 6, 0],
                       equal_nan=True)
    assert np.allclose(rec["mover_compared"][i, 6, 0], z["mover_x2"][i, 6, 0], equal_nan=True)
    assert rec["moved"][i, 6, 0] == pytest.approx(
        float(z["value_x3"][i, 6, 0]) - float(z["value_x2"][i, 6, 0]))
    # a copy is not a second solve: no twin figures to grade against
    assert np.isnan(rec["option_value_twin"][i, 6, 0]).all()
    assert not (tmp_path / "hidden.npz.parts").exists()


def test_where_three_turns_ahead_disagrees_no_third_exchange_is_solved(tmp_path):
    """Duke and Assassin face up, no coins against 3: with two Exchanges, three turns ahead
    moves the value; the slow solve is not made and the position stays unsettled, read as
    before (one Exchange, compared with two)."""
    out = _copy_moved_only(tmp_path, [("Duke-Assassin", 0, 3)])
    ran = more_exchanges(out, executor="local")
    assert (ran.solved, ran.deeper, ran.settled) == (1, 0, 0)
    z = _load(out)
    i = [str(p) for p in z["pairs"]].index("Duke-Assassin")
    assert z["agree_x2h3"][i, 0, 3] == 0 and z["agree_x3"][i, 0, 3] == UNSCREENED
    assert np.isnan(z["value_x3"][i, 0, 3])
    rec = of_record(z)
    assert rec["settled"][i, 0, 3] == 0 and rec["by_exchange"][i, 0, 3] == 1
    assert rec["exchanges_at"][i, 0, 3] == 1
    assert np.allclose(rec["mover"][i, 0, 3], z["mover"][i, 0, 3], equal_nan=True)


def test_a_second_run_of_the_pass_solves_nothing_again(tmp_path):
    out = _copy_moved_only(tmp_path, [("Duke-Assassin", 0, 3)])
    more_exchanges(out, executor="local")
    again = more_exchanges(out, executor="local")
    assert (again.solved, again.copied) == (0, 0)


def test_captain_and_captain_face_up_four_coins_against_five_settles_with_three_exchanges(
        tmp_path):
    """Two Exchanges settled three turns ahead, but a third moved it: tried with three, three
    turns ahead agrees with four and a fourth Exchange moves nothing. Settled, read with four
    Exchanges, compared with three; the figures are the shipped table's."""
    out = _copy_for_four(tmp_path, [("Captain-Captain", 4, 5)])
    ran = more_exchanges(out, executor="local")
    assert (ran.solved, ran.deeper, ran.copied) == (1, 1, 0)
    assert ran.by_count == {MORE_EXCHANGES: 0, MOST_EXCHANGES: 1}
    z = _load(out)
    i = [str(p) for p in z["pairs"]].index("Captain-Captain")
    assert z["agree_x3h3"][i, 4, 5] == z["agree_x4"][i, 4, 5] == 1
    shipped = hidden_tables.packaged("hidden-base.npz")
    assert shipped is not None
    for name in ("value_x3h3", "value_x4"):
        assert float(z[name][i, 4, 5]) == pytest.approx(float(shipped[name][i, 4, 5]), abs=2e-4)
    rec = of_record(z)
    assert rec["settled"][i, 4, 5] == 1 and rec["by_exchange"][i, 4, 5] == 0
    assert rec["exchanges_at"][i, 4, 5] == MOST_EXCHANGES
    assert np.allclose(rec["mover"][i, 4, 5], z["mover_x4"][i, 4, 5], equal_nan=True)
    assert np.allclose(rec["mover_compared"][i, 4, 5], z["mover_x3"][i, 4, 5], equal_nan=True)
    assert rec["moved"][i, 4, 5] == pytest.approx(
        float(z["value_x4"][i, 4, 5]) - float(z["value_x3"][i, 4, 5]))
    assert abs(float(rec["moved"][i, 4, 5])) <= settled.TOLERANCE


def test_a_position_settled_with_more_exchanges_says_so_on_the_page():
    """The expert line names the Exchanges the figures allow and what the cut at the first
    would have done; no 'a second was not tried' line."""
    s = hidden.solve((D, CO), (2, 2), 0, horizon=2, target=1e-3)
    solved = replace(v.distil(s, 4, 0.0), settled=True, shorter=4, moved=0.0004,
                     exchanges=3, exchange_checked=True, stored=True)
    line = v.settled_line(solved)
    assert line is not None
    assert line.startswith("These figures let a line of play hold up to 3 Exchanges: stopping "
                           "it after its first, as the solver usually does, gives other "
                           "figures. With two allowed, looking 3 turns ahead agrees, and "
                           "allowing three Exchanges changes the mover's chance by +0.04 "
                           "points (settled")
    assert "second Exchange" not in line
    assert v.unsettled_note(solved) is None


def test_practice_says_it_stops_at_the_first_exchange_where_that_changes_your_best_move(
        monkeypatch):
    entry = lookup((D, CO), (2, 2), 0, 0)
    assert entry is not None and entry.options.get(D)
    rows = entry.options[D]
    best, worst = rows[0][0], rows[-1][0]
    four = {move: value for move, value, _, _ in rows}
    four[worst] = rows[0][1] + 0.05  # practice's own look (one Exchange) names another move
    choice = Choice(card=D, lost=(D, CO), coins=(2, 2))
    same = replace(entry, settled=True, by_exchange=False, exchanges=3,
                   options_h4={D: {move: value for move, value, _, _ in rows}})
    monkeypatch.setattr(pv, "lookup", lambda *a, **k: same)
    assert pv.settled_note(choice) is None
    moved = replace(same, options_h4={D: four})
    monkeypatch.setattr(pv, "lookup", lambda *a, **k: moved)
    assert pv.settled_note(choice) == pv.PRACTICE_FEWER_EXCHANGES.format(n=3)
    assert best != worst


def test_a_stored_position_settled_with_more_exchanges_reads_as_such():
    """The shipped table: a position settled this way is settled, read with three Exchanges,
    and its stored solution carries the count to the page."""
    z = hidden_tables._stored("base")
    assert z is not None
    hits = np.argwhere(z["exchanges_at"] == MORE_EXCHANGES)
    assert len(hits)
    i, a, b = (int(x) for x in hits[0])
    x, y = (Character(c) for c in str(z["pairs"][i]).split("-"))
    entry = lookup((x, y), (a, b), 0, 0)
    assert entry is not None and entry.settled and not entry.by_exchange
    assert entry.exchanges == MORE_EXCHANGES and entry.check == entry.horizon == 4
    stored = hidden_tables.stored_solution((x, y), (a, b), 0)
    assert stored is not None and stored.exchanges == MORE_EXCHANGES
    assert v.distil(stored, 4, 0.0).exchanges == MORE_EXCHANGES


@pytest.mark.parametrize("extra", [["--table", "hidden2"],
                                   ["--table", "hidden", "--exchange-check"],
                                   ["--table", "hidden", "--deepen"]])
def test_the_pass_refuses_another_table_or_pass(tmp_path, capsys, extra):
    out = tmp_path / "t.npz"
    out.write_bytes(b"")
    code = main(["endgame", "build", "--more-exchanges", "--out", str(out),
                 "--executor", "local", *extra])
    assert code == 2
    assert "--more-exchanges checks the hidden-role table of one card each" in \
        capsys.readouterr().err


def test_the_pass_needs_a_built_table(tmp_path, capsys):
    code = main(["endgame", "build", "--table", "hidden", "--more-exchanges", "--out",
                 str(tmp_path / "missing.npz"), "--executor", "local"])
    assert code == 2
    assert "--more-exchanges needs a built table" in capsys.readouterr().err


def test_the_cut_note_names_the_exchanges_a_line_may_hold():
    s = hidden.solve((D, CO), (2, 2), 0, horizon=2, target=1e-3)
    solved = v.distil(s, 2, 0.0)
    assert "stops at the turn after its first Exchange" in (v.horizon_note(solved) or "")
    more = replace(solved, exchanges=3)
    assert "stops at the turn after it has held 3 Exchanges" in (v.horizon_note(more) or "")


def test_a_grade_two_or_three_exchanges_decide_names_both_counts():
    """A position settled with two Exchanges is graded on its figures with three and with
    two, and a grade they disagree on says so in those numbers."""
    val = Valuation.solved({"a": 0.6, "b": 0.5}, horizons=Horizons(
        4, 4, {"a": 0.55, "b": 0.58}, exchanges=True, allowed=(3, 2)))
    verdict = judge(val, "b")
    assert verdict.reason == "horizon"
    head = words.headline(verdict)
    assert head.startswith("Depends on the Exchanges a line may hold: ")
    # `before` (two Exchanges) grades b best; the figures with three put it 10 points down
    assert head.index("with two") < head.index("with three")
    assert head.split(": ", 1)[1].startswith("right with two")
    note = words.range_note(verdict)
    assert note is not None and note.startswith(
        "Looking 4 turns ahead, letting a line of play hold three Exchanges instead of two "
        "values this option differently")
    assert "may hold three Exchanges or only two before" in words.sentence(verdict)


@pytest.mark.parametrize("count", [MORE_EXCHANGES, MOST_EXCHANGES])
def test_the_page_grades_a_position_settled_with_more_exchanges_on_both_counts(monkeypatch,
                                                                              count):
    """The option rows of such a position carry both Exchange counts to the verdict layer:
    three and two, or four and three."""
    z = hidden_tables._stored("base")
    assert z is not None
    i, a, b = (int(x) for x in np.argwhere(z["exchanges_at"] == count)[0])
    x, y = (Character(c) for c in str(z["pairs"][i]).split("-"))
    stored = hidden_tables.stored_solution((x, y), (a, b), 0)
    assert stored is not None and stored.exchanges == count
    solved = v.distil(stored, 4, 0.0)
    card = next(iter(solved.options))
    seen: list[Horizons] = []
    real = Valuation.solved

    def spy(values: dict[str, float], *args: object, **kw: object) -> Valuation:
        seen.append(kw["horizons"])  # type: ignore[arg-type]
        return real(values, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Valuation, "solved", spy)
    v.option_rows(Choice(card=card, lost=(x, y), coins=(a, b)), solved)
    assert seen and seen[0].exchanges and seen[0].allowed == (count, count - 1)
    assert seen[0].shorter == seen[0].longer == 4
    line = v.settled_line(solved) or ""
    assert f"hold up to {count} Exchanges" in line


def test_a_review_grade_settled_with_more_exchanges_keeps_its_counts():
    """The Play review saves a stored duel's grade: its Exchange counts come back, the
    verdict layer hears of both, and the note says what settled it."""
    item = shipped_bank().get(DUEL)
    labels = [o.label for o in item.options]
    values = {k: (0.6 if i == 0 else 0.2) for i, k in enumerate(labels)}
    before = {k: (0.6 if i == 0 else 0.25) for i, k in enumerate(labels)}
    s = QuizSolved(values, 4, 1e-4, True, 0.0004, before, 4, exchanges=True, exchanges_at=3)
    back = QuizSolved.from_data(s.to_data())
    assert back == s and back.exchanges_at == 3
    horizons = item_valuation(item, back).horizons
    assert horizons is not None and horizons.allowed == (3, 2) and horizons.exchanges
    assert "The values are settled: they let a line of play hold up to 3 Exchanges" in \
        solved_note(item, back)
    for bad in ({"exchanges": False}, {"exchanges_at": "3"}, {"exchanges_at": 0}):
        with pytest.raises(ValueError, match="exchanges_at"):
            QuizSolved.from_data({**s.to_data(), **bad})
