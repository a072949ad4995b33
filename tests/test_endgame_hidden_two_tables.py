"""The hidden-role table of two cards against one: built in resumable parts, read as a fresh
solve reads, and shipped whole."""

from __future__ import annotations

import numpy as np
import pytest

from trainer.endgame import hidden_two, hidden_two_tables
from trainer.endgame.known import MAX_COINS
from trainer.endgame.tables import build_minutes
from trainer.engine.cards import Character as C

LOST = C.CONTESSA


def _use(out, monkeypatch):
    with np.load(out) as z:
        data = {k: z[k] for k in z.files}
    monkeypatch.setattr(hidden_two_tables, "_stored",
                        lambda variant: hidden_two_tables.of_record(data))


@pytest.fixture
def small(monkeypatch, tmp_path):
    """A table of one lost card with no coins on either side, either player to act."""
    monkeypatch.setattr(hidden_two_tables, "MAX_COINS", 0)
    out = tmp_path / "hidden2-base.npz"
    built = hidden_two_tables.build(out, executor="local", lost=[LOST])
    _use(out, monkeypatch)
    return out, built


@pytest.mark.parametrize("first", [0, 1])
def test_a_stored_duel_reads_as_solving_it_now(small, first):
    _, built = small
    assert (built.solved, built.resumed) == (2, 0)
    entry = hidden_two_tables.lookup(LOST, (0, 0), first)
    last = hidden_two.solve(LOST, (0, 0), first, horizon=hidden_two_tables.HORIZON,
                            target=hidden_two_tables.TARGET)
    prev = hidden_two.solve(LOST, (0, 0), first, horizon=hidden_two_tables.SHORTER,
                            target=hidden_two_tables.TARGET)
    assert entry is not None and entry.first == first
    assert entry.value == pytest.approx(last.value, abs=1e-5)
    assert entry.value_prev == pytest.approx(prev.value, abs=1e-5)
    for p in (0, 1):
        assert entry.win[p] == pytest.approx(last.win_chances(p), abs=1e-5)
    compared = hidden_two.settledness(last, prev)
    assert (entry.settled, entry.swapped) == (compared.settled, len(compared.swapped))
    for hand in last.hands(first):
        fresh = last.options(hand)
        stored = entry.options[hand]
        assert [o.move for o in stored] == [o.move for o in fresh]
        assert [o.value for o in stored] == pytest.approx([o.value for o in fresh], abs=1e-5)
        assert [o.frequency for o in stored] == pytest.approx(
            [o.frequency for o in fresh], abs=1e-5)
        assert stored[0].against == pytest.approx(fresh[0].against, abs=1e-3)  # float16
        before = {o.move: o.value for o in prev.options(hand)}
        assert [o.value_prev for o in stored] == pytest.approx(
            [before[o.move] for o in stored], abs=1e-5)


def test_a_duel_outside_the_table_is_not_found(small):
    assert hidden_two_tables.lookup(LOST, (1, 0), 0) is None  # beyond the coins built
    assert hidden_two_tables.lookup(C.DUKE, (0, 0), 0) is None  # a lost card not built
    assert hidden_two_tables.lookup(LOST, (0, 0), 2) is None


def test_an_interrupted_build_goes_on_from_its_saved_parts(monkeypatch, tmp_path):
    monkeypatch.setattr(hidden_two_tables, "MAX_COINS", 0)
    solved: list[tuple[object, ...]] = []

    def quick(job):  # the build's bookkeeping, without the solving
        solved.append(job)
        out = hidden_two_tables._empty()
        out["value"][:] = 0.25
        return out

    monkeypatch.setattr(hidden_two_tables, "solve_slice", quick)
    out = tmp_path / "t.npz"

    def stop_after_one(done, total):
        if done == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        hidden_two_tables.build(out, executor="local", lost=[LOST], progress=stop_after_one)
    assert not out.exists()
    assert len(list(hidden_two_tables.parts_dir(out).iterdir())) == 1
    again = hidden_two_tables.build(out, executor="local", lost=[LOST])
    assert (again.resumed, again.solved) == (1, 1) and len(solved) == 2
    assert not hidden_two_tables.parts_dir(out).exists()
    record = build_minutes(out)
    assert record is not None and record[2] == 1


def test_the_shipped_table_holds_every_duel_solved_to_a_hundredth_of_a_point():
    path = hidden_two_tables.DEFAULT_OUT
    with np.load(path) as z:
        assert [str(c) for c in z["lost"]] == [c.value for c in
                                               (C.DUKE, C.ASSASSIN, C.CAPTAIN, C.AMBASSADOR,
                                                C.CONTESSA)]
        assert z["value"].shape == (5, 2, MAX_COINS + 1, MAX_COINS + 1)
        assert np.isfinite(z["value"]).all() and np.isfinite(z["value_prev"]).all()
        assert float(np.nanmax(z["exploitability"])) <= hidden_two_tables.TARGET
        assert int((z["option_move"][..., 0] != "").sum()) == hidden_two_tables.positions()
    record = build_minutes(path)
    assert record is not None and record[0] > 0
    share = hidden_two_tables.settled_share()
    assert share is not None and share.positions == hidden_two_tables.positions() == 1690
    assert sum(s for s, _ in share.by_lost.values()) == share.settled
    # every duel one and two turns ahead disagreed on was solved three turns ahead, with
    # every line followed through its Exchanges, as the page solves
    with np.load(path) as z:
        assert hidden_two_tables.exchange_cut(dict(z)) == 0
        deeper = z["check_horizon"] == hidden_two_tables.CHECK
        assert np.all(np.isfinite(z["value_h3"][deeper]))
        assert float(np.nanmax(z["exploitability_h3"])) <= hidden_two_tables.TARGET
        first_pass = (z["settled"] == 1) & ~deeper
        # the four-turn pass has not been run on this table: no duel is read four turns ahead
        assert "value_h4" not in z and share.solved_deepest == 0
    assert share.checked_deeper == share.positions - int(first_pass.sum())
    assert (int(first_pass.sum()), share.settled_deeper) == (781, 297)
    assert share.settled == 781 + 297


def test_the_shipped_table_reads_as_solving_now_at_a_sampled_duel():
    rng = np.random.default_rng(2026)
    lost = [C.DUKE, C.ASSASSIN, C.CAPTAIN, C.AMBASSADOR, C.CONTESSA][int(rng.integers(5))]
    coins = (int(rng.integers(MAX_COINS + 1)), int(rng.integers(MAX_COINS + 1)))
    first = int(rng.integers(2))
    entry = hidden_two_tables.lookup(lost, coins, first)
    last = hidden_two.solve(lost, coins, first, horizon=hidden_two_tables.HORIZON,
                            target=hidden_two_tables.TARGET)
    assert entry is not None
    # two solutions within TARGET of perfect play are within twice that of each other
    assert entry.value == pytest.approx(last.value, abs=2 * hidden_two_tables.TARGET)


def test_the_build_command_builds_the_two_card_table_in_resumable_slices(
        monkeypatch, tmp_path, capsys):
    from trainer.cli import main

    monkeypatch.setattr(hidden_two_tables, "MAX_COINS", 0)

    def quick(job):
        out = hidden_two_tables._empty()
        out["value"][:] = 0.5
        return out

    monkeypatch.setattr(hidden_two_tables, "solve_slice", quick)
    out = tmp_path / "two.npz"
    assert main(["endgame", "build", "--table", "hidden2", "--out", str(out),
                 "--executor", "local"]) == 0
    captured = capsys.readouterr()
    assert "10 slices (a lost card, who acts and their coins)" in captured.err
    assert f"wrote {out}" in captured.out
    with np.load(out) as z:
        assert z["value"].shape == (5, 2, 1, 1) and np.all(z["value"] == 0.5)


def test_the_two_card_table_is_built_at_the_pages_look_aheads_only(capsys):
    from trainer.cli import main

    assert main(["endgame", "build", "--table", "hidden2", "--horizon", "3"]) == 2
    assert "the hidden2 table is solved 1 and 2 turns ahead" in capsys.readouterr().err


def test_a_duel_not_settled_is_checked_one_turn_deeper_and_compared_with_that(
        monkeypatch, tmp_path):
    """A table one turn deep checked against none, then each duel it did not settle solved two
    turns ahead: the last two look-aheads are then one and two turns, and the duel is
    settled exactly where they agree (the same test on solves made here)."""
    monkeypatch.setattr(hidden_two_tables, "MAX_COINS", 0)
    monkeypatch.setattr(hidden_two_tables, "SHORTER", 0)
    monkeypatch.setattr(hidden_two_tables, "HORIZON", 1)
    monkeypatch.setattr(hidden_two_tables, "CHECK", 2)
    out = tmp_path / "two.npz"
    hidden_two_tables.build(out, executor="local", lost=[LOST])
    with np.load(out) as z:
        before = z["settled"].copy()
    result = hidden_two_tables.check_deeper(out, executor="local")
    assert result.checked == int((before == 0).sum()) >= 1
    assert not hidden_two_tables.parts_dir(out).exists()
    _use(out, monkeypatch)
    for first in (0, 1):
        if before[0, first, 0, 0]:
            continue
        entry = hidden_two_tables.lookup(LOST, (0, 0), first)
        last = hidden_two.solve(LOST, (0, 0), first, horizon=1,
                                target=hidden_two_tables.TARGET)
        deep = hidden_two.solve(LOST, (0, 0), first, horizon=2,
                                target=hidden_two_tables.TARGET)
        assert entry is not None and entry.check == 2
        assert entry.settled == hidden_two.settledness(deep, last).settled
        assert entry.value_prev == pytest.approx(deep.value, abs=1e-5)
        for hand in deep.hands(first):
            fresh = {o.move: o.value for o in deep.options(hand)}
            assert {o.move: o.value_prev for o in entry.options[hand]} == pytest.approx(
                fresh, abs=1e-5)


def test_a_duel_still_moving_is_solved_one_turn_deeper_and_read_with_those_figures(
        monkeypatch, tmp_path):
    """A table one turn deep, checked two turns ahead where nothing and one disagreed; each
    duel still moving between one and two turns is then solved three turns ahead: compared
    between two and three (the same test on solves made here), and read from then on with
    the three-turn figures as its own and the two-turn ones as the other end of a range."""
    monkeypatch.setattr(hidden_two_tables, "MAX_COINS", 1)  # (1, 0) with two cards to act
    monkeypatch.setattr(hidden_two_tables, "SHORTER", 0)
    monkeypatch.setattr(hidden_two_tables, "HORIZON", 1)
    monkeypatch.setattr(hidden_two_tables, "CHECK", 2)
    monkeypatch.setattr(hidden_two_tables, "DEEPEST", 3)
    out = tmp_path / "two.npz"
    hidden_two_tables.build(out, executor="local", lost=[LOST])
    hidden_two_tables.check_deeper(out, executor="local")
    with np.load(out) as z:
        moving = hidden_two_tables._still_moving({k: z[k] for k in z.files})
    assert moving.sum() >= 1
    first_run = hidden_two_tables.deepest(out, limit=0, executor="local")
    assert (first_run.solved, first_run.left) == (0, int(moving.sum()))
    # one duel solved three turns ahead (each such solve, following every Exchange, takes
    # many seconds; the pass does the same for each), the least moved first
    result = hidden_two_tables.deepest(out, limit=1, executor="local")
    assert (result.solved, result.deep, result.left) == (1, 1, int(moving.sum()) - 1)
    assert not hidden_two_tables.parts_dir(out).exists()
    _use(out, monkeypatch)
    share = hidden_two_tables.settled_share()
    assert share is not None and share.solved_deepest == 1
    entries = []
    for _, first, a, b in np.argwhere(moving).tolist():
        coins = (a, b) if first == 0 else (b, a)
        entry = hidden_two_tables.lookup(LOST, coins, first)
        assert entry is not None
        entries.append((coins, first, entry))
    deepened = [(coins, first, e) for coins, first, e in entries if e.horizon == 3]
    assert len(deepened) == 1
    # the others still read between one and two turns ahead (`HORIZON` and `CHECK` here)
    assert all((e.horizon, e.check) == (1, 2) for _, _, e in entries if e.horizon != 3)
    coins, first, entry = deepened[0]
    assert (entry.horizon, entry.check) == (3, 2)
    check, deep = (hidden_two.solve(LOST, coins, first, horizon=h,
                                    target=hidden_two_tables.TARGET) for h in (2, 3))
    assert entry.settled == hidden_two.settledness(deep, check).settled
    assert share.settled_deepest == int(entry.settled)
    assert entry.value == pytest.approx(deep.value, abs=1e-5)
    assert entry.value_prev == pytest.approx(check.value, abs=1e-5)
    for hand in deep.hands(first):
        now = {o.move: o.value for o in deep.options(hand)}
        before = {o.move: o.value for o in check.options(hand)}
        assert {o.move: o.value for o in entry.options[hand]} == pytest.approx(
            now, abs=1e-5)
        assert {o.move: o.value_prev for o in entry.options[hand]} == pytest.approx(
            before, abs=1e-5)


def test_the_table_says_no_line_of_its_solves_is_cut_at_an_exchange(small):
    out, _ = small
    with np.load(out) as z:
        assert int(z["exchange_cut"]) == hidden_two_tables.EXCHANGE_CUT == 0
    entry = hidden_two_tables.lookup(LOST, (0, 0), 0)
    assert entry is not None and entry.exchange_cut == 0


def test_a_table_built_cutting_lines_at_an_exchange_is_not_checked_deeper(small, tmp_path):
    """A file from before (no `exchange_cut`: every line cut at its first Exchange) is not
    mixed with solves that follow every Exchange: the pass names the file and says why."""
    out, _ = small
    with np.load(out) as z:
        old = {k: z[k] for k in z.files if k != "exchange_cut"}
    legacy = tmp_path / "old.npz"
    np.savez(legacy, **old)
    assert hidden_two_tables.exchange_cut(old) == 1
    with pytest.raises(ValueError, match=r"old\.npz was built cutting every line at its first "
                       r"Exchange; build it again"):
        hidden_two_tables.check_deeper(legacy, executor="local")
    with pytest.raises(ValueError, match="build it again"):
        hidden_two_tables.deepest(legacy, executor="local")


def test_the_deepen_command_names_a_table_built_cutting_lines_at_an_exchange(
        small, tmp_path, capsys):
    from trainer.cli import main

    out, _ = small
    with np.load(out) as z:
        old = {k: z[k] for k in z.files if k != "exchange_cut"}
    legacy = tmp_path / "old.npz"
    np.savez(legacy, **old)
    with pytest.raises(SystemExit) as stopped:
        main(["endgame", "build", "--table", "hidden2", "--deepen", "--out", str(legacy),
              "--executor", "local"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "old.npz was built cutting every line at its first Exchange" in err
    assert "Traceback" not in err
