"""The hidden-role end-game table: built in resumable parts, read from either seat."""

from __future__ import annotations

import os

import numpy as np
import pytest

from trainer.endgame import hidden, hidden_tables
from trainer.endgame.tables import build_minutes
from trainer.engine.cards import Character as C

PAIR = (C.DUKE, C.CONTESSA)


@pytest.fixture
def small(monkeypatch, tmp_path):
    """A table of one face-up pair, movers with 0-1 coins against 0-2, two turns ahead."""
    monkeypatch.setattr(hidden_tables, "MOVER_COINS", 2)
    monkeypatch.setattr(hidden_tables, "MAX_COINS", 2)
    out = tmp_path / "hidden-base.npz"
    built = hidden_tables.build(out, horizon=2, executor="local", pairs=[PAIR])
    return out, built


def _entry(out, monkeypatch, *args):
    import numpy as np

    with np.load(out) as z:
        data = {k: z[k] for k in z.files}
    monkeypatch.setattr(hidden_tables, "_stored", lambda variant: hidden_tables.of_record(data))
    return hidden_tables.lookup(*args)


def test_a_stored_position_reads_as_a_direct_solve(small, monkeypatch):
    out, built = small
    assert built.solved == 2 and built.resumed == 0
    entry = _entry(out, monkeypatch, PAIR, (1, 2), 0, 0)
    direct = hidden.solve(PAIR, (1, 2), 0, horizon=2)
    assert entry is not None and entry.you_act
    for card, value in direct.card_values.items():
        assert entry.win_chance[card] == pytest.approx(value, abs=2e-3)
    best = entry.options[C.DUKE][0]
    assert best[1] == pytest.approx(direct.options(C.DUKE)[0].value, abs=2e-3)


def test_the_player_not_to_act_reads_the_mirrored_position(small, monkeypatch):
    out, _ = small
    # You (player 0) lost the Contessa and hold 2 coins; they lost the Duke, hold 1 coin and
    # act: the table keeps it with the mover first, as the stored (Duke, Contessa) 1-2.
    entry = _entry(out, monkeypatch, (C.CONTESSA, C.DUKE), (2, 1), 0, 1)
    assert entry is not None and not entry.you_act and entry.options == {}
    direct = hidden.solve(PAIR, (1, 2), 0, horizon=2)
    for card, value in direct.win_chances(1).items():
        assert entry.win_chance[card] == pytest.approx(value, abs=2e-3)


def test_positions_outside_the_table_are_not_found(small, monkeypatch):
    out, _ = small
    assert _entry(out, monkeypatch, (C.CAPTAIN, C.DUKE), (1, 1), 0, 0) is None
    assert _entry(out, monkeypatch, PAIR, (5, 1), 0, 0) is None  # beyond the coins built


def test_an_interrupted_build_resumes_from_its_saved_parts(monkeypatch, tmp_path):
    monkeypatch.setattr(hidden_tables, "MOVER_COINS", 2)
    monkeypatch.setattr(hidden_tables, "MAX_COINS", 1)
    out = tmp_path / "t.npz"
    calls = []

    def stop_after_one(done, total):
        calls.append(done)
        if done == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        hidden_tables.build(out, horizon=2, executor="local", pairs=[PAIR],
                            progress=stop_after_one)
    assert not out.exists() and len(list(hidden_tables.parts_dir(out).iterdir())) == 1
    again = hidden_tables.build(out, horizon=2, executor="local", pairs=[PAIR])
    assert (again.resumed, again.solved) == (1, 1) and out.exists()
    record = build_minutes(out)
    assert record is not None and record[2] == 1  # one part came from the first run


def test_a_built_table_records_its_build_time(small):
    out, built = small
    record = build_minutes(out)
    assert record is not None
    minutes, processes, resumed = record
    assert 0 < minutes <= built.seconds / 60 + 1e-9 and processes == 1 and resumed == 0


def test_the_shipped_tables_record_whole_builds():
    from trainer.endgame.tables import DEFAULT_OUT

    for path in (DEFAULT_OUT, hidden_tables.DEFAULT_OUT):
        record = build_minutes(path)
        assert record is not None and record[0] > 0 and record[2] == 0


def _stored(out, monkeypatch):
    import numpy as np

    with np.load(out) as z:
        data = {k: z[k] for k in z.files}
    monkeypatch.setattr(hidden_tables, "_stored", lambda variant: hidden_tables.of_record(data))


def test_a_stored_solution_reads_like_a_fresh_one(small, monkeypatch):
    out, _ = small
    _stored(out, monkeypatch)
    stored = hidden_tables.stored_solution(PAIR, (1, 2), 0)
    direct = hidden.solve(PAIR, (1, 2), 0, horizon=2)
    assert stored is not None and stored.mover == 0
    assert stored.value == pytest.approx(direct.value, abs=2e-3)
    assert stored.against(C.DUKE) == pytest.approx(direct.against(C.DUKE))
    fresh = {o.move: o.value for o in direct.options(C.CAPTAIN)}
    kept = {o.move: o.value for o in stored.options(C.CAPTAIN)}
    assert kept.keys() == fresh.keys()
    for move, value in fresh.items():
        assert kept[move] == pytest.approx(value, abs=2e-3)


def test_a_stored_solution_with_the_other_player_to_act_gives_their_moves(small, monkeypatch):
    out, _ = small
    _stored(out, monkeypatch)
    # player 1 acts with 1 coin having lost the Duke; player 0 lost the Contessa, has 2
    stored = hidden_tables.stored_solution((C.CONTESSA, C.DUKE), (2, 1), 1)
    direct = hidden.solve((C.CONTESSA, C.DUKE), (2, 1), 1, horizon=2)
    assert stored is not None and stored.mover == 1
    assert {o.move for o in stored.options(C.DUKE)} == {o.move for o in direct.options(C.DUKE)}
    assert stored.value == pytest.approx(direct.value, abs=2e-3)


def test_the_hidden_grid_reads_the_table_and_gives_a_coup_to_the_rich_mover(small, monkeypatch):
    out, _ = small
    _stored(out, monkeypatch)
    grid = hidden_tables.win_grid(PAIR, C.CAPTAIN, 0)
    entry = hidden_tables.lookup(PAIR, (1, 2), 0, 0)
    assert grid is not None and entry is not None
    assert grid[1, 2] == pytest.approx(entry.win_chance[C.CAPTAIN])
    assert grid[2, 0] == 1.0  # (the small table's movers stop at 1 coin: 2 coins coups)


def test_the_face_up_grid_averages_the_table_over_their_card():
    from trainer.endgame.tables import known_values

    grid = hidden_tables.face_up_grid(PAIR, C.DUKE, 0)
    table = known_values(PAIR)
    chars = table.characters
    d = chars.index(C.DUKE)
    # twelve cards they may hold: one Duke (one lost, one in your hand), two Contessas (one
    # lost), three of each other card
    left = {C.DUKE: 1, C.ASSASSIN: 3, C.CAPTAIN: 3, C.AMBASSADOR: 3, C.CONTESSA: 2}
    expected = sum(n / 12 * table.values[d, chars.index(e), 4, 5, 0] for e, n in left.items())
    assert grid[4, 5] == pytest.approx(expected)


def test_the_package_table_holds_every_ordered_pair_within_a_tenth_of_a_point():
    import numpy as np

    hidden_tables._stored.cache_clear()
    data = hidden_tables._stored("base")
    assert data is not None
    assert sorted(str(p) for p in data["pairs"]) == sorted(
        f"{x.value}-{y.value}" for x, y in hidden_tables.ordered_pairs())
    assert int(data["horizon"]) == hidden_tables.HORIZON
    assert float(np.nanmax(data["exploitability"])) <= 1e-3
    assert not np.isnan(data["exploitability"]).any()


def test_the_package_table_reads_as_a_direct_solve_four_turns_ahead():
    hidden_tables._stored.cache_clear()
    stored = hidden_tables.stored_solution((C.AMBASSADOR, C.CONTESSA), (0, 6), 0)
    direct = hidden.solve((C.AMBASSADOR, C.CONTESSA), (0, 6), 0, horizon=4)
    assert stored is not None
    assert stored.value == pytest.approx(direct.value, abs=2e-3)
    best = stored.options(C.CONTESSA)[0]
    assert best.move == direct.options(C.CONTESSA)[0].move  # Tax, a bluff


def test_a_stored_position_keeps_the_shorter_horizon_and_whether_it_settled(small, monkeypatch):
    import numpy as np

    from trainer.endgame import settled

    out, _ = small
    entry = _entry(out, monkeypatch, PAIR, (1, 2), 0, 0)
    shallow = hidden.solve(PAIR, (1, 2), 0, horizon=0)
    assert entry is not None
    for card, value in shallow.card_values.items():
        assert entry.win_chance_prev[card] == pytest.approx(value, abs=2e-3)
    with np.load(out) as z:
        i = 0
        check = settled.compare(float(z["moved"][i, 1, 2]) * 0, float(z["moved"][i, 1, 2]),
                                z["option_value_prev"][i, 1, 2], z["option_value"][i, 1, 2])
        assert bool(z["settled"][i, 1, 2]) == check.settled == entry.settled


def _options_of(s, moves):
    table = np.full((5, len(moves)), np.nan)
    chars = list(s.graph.characters)
    for card in s.card_values:
        for o in s.options(card):
            table[chars.index(card), moves.index(str(o.move))] = o.value
    return table


def test_an_unsettled_position_is_settled_where_its_last_two_horizons_agree(
        monkeypatch, tmp_path):
    """A table three turns deep checked against one (Contessa and Captain face up, the mover
    with 0-6 coins against none): deepening solves each unsettled position four turns
    ahead, and it is settled exactly where three and four agree (the same test on solves
    made here), whatever two turns said; every position it checked is then compared
    between three and four, and whether two turns ahead agreed with three is kept. The
    mover with 6 coins settles; with 1 coin, four turns ahead still moves."""
    from trainer.endgame import settled

    pair = (C.CONTESSA, C.CAPTAIN)
    monkeypatch.setattr(hidden_tables, "MOVER_COINS", 7)
    monkeypatch.setattr(hidden_tables, "MAX_COINS", 0)
    out = tmp_path / "hidden-base.npz"
    hidden_tables.build(out, horizon=3, executor="local", pairs=[pair])
    monkeypatch.setattr(hidden_tables, "HORIZON", 3)
    monkeypatch.setattr(hidden_tables, "CHECK", 4)
    with np.load(out) as z:
        before = z["settled"].copy()
    result = hidden_tables.deepen(out, executor="local")
    assert result.checked == result.deep == int((before == 0).sum())
    assert not hidden_tables.parts_dir(out).exists()
    # run again: nothing is left to check
    assert hidden_tables.deepen(out, executor="local").checked == 0
    with np.load(out) as z:
        after = {k: z[k] for k in z.files}
    monkeypatch.setattr(hidden_tables, "_stored",
                        lambda variant: hidden_tables.of_record(after))
    assert np.all(after["settled"] >= before) and result.settled >= 1

    def solved(a: int, h: int):
        s = hidden.solve(pair, (a, 0), 0, horizon=h, target=hidden_tables.TARGET,
                         iterations=hidden_tables.ITERATIONS)
        return s, _options_of(s, [str(m) for m in s.tree.moves[0]])

    for a in range(7):
        if before[0, a, 0]:
            assert after["check_horizon"][0, a, 0] == 1
        else:
            assert after["check_horizon"][0, a, 0] == 4
            assert after["agree_h3"][0, a, 0] != hidden_tables.UNSCREENED
    # solved again here, three times each: the two named above (every one with
    # COUP_TRAINER_ALL_ITEMS=1)
    for a in range(7) if os.environ.get("COUP_TRAINER_ALL_ITEMS") == "1" else (1, 6):
        assert not before[0, a, 0]
        last, last_options = solved(a, 3)
        shorter, shorter_options = solved(a, 2)
        deeper, deeper_options = solved(a, 4)
        agree = settled.compare(last.value, deeper.value, last_options,
                                deeper_options).settled
        assert bool(after["settled"][0, a, 0]) == agree, a
        assert after["agree_h3"][0, a, 0] == settled.compare(
            shorter.value, last.value, shorter_options, last_options).settled
        assert after["moved"][0, a, 0] == pytest.approx(deeper.value - last.value, abs=1e-4)
        entry = hidden_tables.lookup(pair, (a, 0), 0, 0)
        assert entry is not None and entry.settled == agree and entry.check == 4
        for card, value in deeper.card_values.items():
            assert entry.win_chance_prev[card] == pytest.approx(value, abs=1e-5)
    assert bool(after["settled"][0, 6, 0]) and not after["settled"][0, 1, 0]


@pytest.fixture
def deepened(monkeypatch, tmp_path):
    """A table two turns deep, checked three turns ahead (Contessa and Captain face up, the
    mover with 0-6 coins against none): the positions still moving are the ones a pass one
    turn deeper takes (here four turns ahead, for the real table's four, five and six)."""
    pair = (C.CONTESSA, C.CAPTAIN)
    monkeypatch.setattr(hidden_tables, "MOVER_COINS", 7)
    monkeypatch.setattr(hidden_tables, "MAX_COINS", 0)
    out = tmp_path / "hidden-base.npz"
    hidden_tables.build(out, horizon=2, executor="local", pairs=[pair])
    monkeypatch.setattr(hidden_tables, "HORIZON", 2)
    monkeypatch.setattr(hidden_tables, "CHECK", 3)
    monkeypatch.setattr(hidden_tables, "DEEPEST", 4)
    hidden_tables.deepen(out, executor="local")
    return pair, out


def _table(out):
    with np.load(out) as z:
        return {k: z[k] for k in z.files}


def test_positions_still_moving_are_solved_deeper_most_promising_first(deepened):
    """`--limit`: each run takes the positions least moved between the last two look-aheads
    first; a second run takes the next, and a run with nothing left solves nothing."""
    _, out = deepened
    before = _table(out)
    moving = np.argwhere((before["settled"] == 0) & (before["check_horizon"] == 3))
    assert len(moving) >= 2
    order = sorted(moving.tolist(), key=lambda ix: abs(float(before["moved"][tuple(ix)])))
    first = hidden_tables.deepest(out, limit=1, executor="local")
    assert (first.solved, first.deep, first.left) == (1, 1, len(moving) - 1)
    after = _table(out)
    assert np.isfinite(after["value_h6"][tuple(order[0])])
    assert int(np.isfinite(after["value_h6"]).sum()) == 1
    rest = hidden_tables.deepest(out, executor="local")
    assert (rest.solved, rest.deep, rest.left) == (len(moving) - 1, len(moving), 0)
    assert hidden_tables.deepest(out, executor="local").solved == 0
    assert not hidden_tables.parts_dir(out).exists()


def test_a_position_solved_deeper_is_settled_where_its_last_two_look_aheads_agree(
        deepened, monkeypatch):
    """Solved one turn deeper, a position is compared with the look-ahead before (its
    `CHECK` figures, solved here afresh): settled exactly where the two agree, and read
    from then on with the deeper figures as its own and the range between the two."""
    from trainer.endgame import settled

    pair, out = deepened
    hidden_tables.deepest(out, executor="local")
    after = _table(out)
    monkeypatch.setattr(hidden_tables, "_stored",
                        lambda variant: hidden_tables.of_record(after))
    deep = np.argwhere(np.isfinite(after["value_h6"]))
    assert len(deep) >= 2
    monkeypatch.setattr(hidden_tables, "MAX_COINS", 6)  # a grid as tall as the movers' coins
    for _, a, b in deep.tolist():
        moves = [str(m) for m in after["option_move"][0, a, b] if str(m)]

        check, last = (hidden.solve(pair, (a, b), 0, horizon=h, target=hidden_tables.TARGET,
                                    iterations=hidden_tables.ITERATIONS) for h in (3, 4))
        check_options, last_options = _options_of(check, moves), _options_of(last, moves)
        agree = settled.compare(check.value, last.value, check_options, last_options)
        assert bool(after["settled"][0, a, b]) == agree.settled, a
        assert after["moved"][0, a, b] == pytest.approx(last.value - check.value, abs=1e-4)
        entry = hidden_tables.lookup(pair, (a, b), 0, 0)
        assert entry is not None
        assert (entry.horizon, entry.check, entry.settled) == (4, 3, agree.settled)
        for card, value in last.card_values.items():
            assert entry.win_chance[card] == pytest.approx(value, abs=1e-5)
            assert entry.win_chance_prev[card] == pytest.approx(check.card_values[card],
                                                                abs=1e-5)
        for card, rows in entry.options.items():
            deeper = {str(o.move): o for o in last.options(card)}
            for text, value, freq, _ in rows:
                assert value == pytest.approx(deeper[text].value, abs=1e-5)
                assert freq == pytest.approx(deeper[text].frequency, abs=1e-5)
        grid = hidden_tables.win_grid(pair, C.DUKE, 0)
        shorter = hidden_tables.win_grid(pair, C.DUKE, 0, shorter=True)
        assert grid is not None and shorter is not None
        assert grid[a, b] == pytest.approx(last.card_values[C.DUKE], abs=1e-5)
        assert shorter[a, b] == pytest.approx(check.card_values[C.DUKE], abs=1e-5)
        stored = hidden_tables.stored_solution(pair, (a, b), 0)
        assert stored is not None and (stored.horizon, stored.check_horizon) == (4, 3)


def test_a_pass_stopped_half_way_is_collected_without_solving_more(deepened, monkeypatch):
    """`--collect`: the finished jobs' parts go into the table, and nothing is solved."""
    _, out = deepened
    hidden_tables.deepest(out, limit=1, executor="local")
    first = _table(out)
    # a finished part left behind by a run stopped before it wrote the table
    moving = np.argwhere(hidden_tables._still_moving(first))
    key = tuple(int(v) for v in sorted(
        moving.tolist(), key=lambda ix: abs(float(first["moved"][tuple(ix)])))[0])
    job = (*str(first["pairs"][0]).split("-"), key[1], key[2], "base",
           tuple(str(t) for t in first["option_move"][key] if str(t)),
           first["option_value_h5"][key], float(first["value_h5"][key]))
    parts = hidden_tables.parts_dir(out)
    parts.mkdir()
    from trainer.endgame.tables import _save

    # one written before a job kept its CPU time
    made = hidden_tables.deepest_slice(job)
    assert float(made.pop("cpu_seconds")) > 0
    _save(parts / f"deepest-{first['pairs'][0]}-{key[1]}-{key[2]}-h4.npz", **made)

    def never(job):
        raise AssertionError("--collect solved a position")

    monkeypatch.setattr(hidden_tables, "deepest_slice", never)
    got = hidden_tables.deepest(out, collect=True, executor="local")
    assert (got.solved, got.deep) == (1, 2)
    after = _table(out)
    assert np.isfinite(after["value_h6"][key]) and np.isnan(after["cpu_seconds_h6"][key])
    assert int(np.isfinite(after["cpu_seconds_h6"]).sum()) == 1  # the first run's


def test_the_deepest_pass_runs_from_the_command_line_a_limit_at_a_time(deepened, capsys):
    from trainer.cli import main

    _, out = deepened
    left = int(hidden_tables._still_moving(_table(out)).sum())
    assert main(["endgame", "build", "--table", "hidden", "--deepest", "--limit", "1",
                 "--out", str(out), "--executor", "local"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"wrote {out}: 1 positions solved 4 turns ahead (1 in all); ")
    assert f"{left - 1} still to solve" in said
    assert main(["endgame", "build", "--table", "hidden", "--deepest", "--collect",
                 "--out", str(out), "--executor", "local"]) == 0
    assert "0 positions solved 4 turns ahead (1 in all)" in capsys.readouterr().out


def test_a_face_up_card_only_leaves_the_court_so_swapping_them_is_the_same_duel():
    """Why the deepest pass solves one of two twins: Contessa and Captain face up is the same
    duel whichever player shows which, at the same coins with the same player to act."""
    for coins in ((1, 0), (3, 2)):
        one, other = (hidden.solve(pair, coins, 0, horizon=3, target=hidden_tables.TARGET,
                                   iterations=hidden_tables.ITERATIONS)
                      for pair in ((C.CONTESSA, C.CAPTAIN), (C.CAPTAIN, C.CONTESSA)))
        assert abs(one.value - other.value) <= one.exploitability + other.exploitability
    assert "base" in hidden_tables.FACE_UP_INERT


@pytest.fixture
def twins(monkeypatch, tmp_path):
    """`deepened` with both orders of the face-up pair: each position has a twin."""
    pairs = [(C.CONTESSA, C.CAPTAIN), (C.CAPTAIN, C.CONTESSA)]
    monkeypatch.setattr(hidden_tables, "MOVER_COINS", 7)
    monkeypatch.setattr(hidden_tables, "MAX_COINS", 0)
    out = tmp_path / "hidden-base.npz"
    hidden_tables.build(out, horizon=2, executor="local", pairs=pairs)
    monkeypatch.setattr(hidden_tables, "HORIZON", 2)
    monkeypatch.setattr(hidden_tables, "CHECK", 3)
    monkeypatch.setattr(hidden_tables, "DEEPEST", 4)
    hidden_tables.deepen(out, executor="local")
    return out


def test_the_deepest_pass_solves_one_of_two_twins_and_the_other_reads_its_figures(
        twins, monkeypatch):
    """A position whose twin (the face-up cards swapped) is solved is not solved again: it
    keeps the twin's figures, compared with its own shorter look-ahead, and says so."""
    from trainer.endgame import settled

    out = twins
    before = _table(out)
    names = [str(p) for p in before["pairs"]]
    assert names == ["Contessa-Captain", "Captain-Contessa"]
    moving = hidden_tables._still_moving(before)
    pairs_moving = [(0, a, b) for _, a, b in np.argwhere(moving[:1]).tolist()
                    if moving[1, a, b]]
    assert pairs_moving, "no position moves in both orders"
    solved: list[tuple[str, str, int, int]] = []
    real = hidden_tables.deepest_slice

    def counting(job):
        solved.append(job[:4])
        return real(job)

    monkeypatch.setattr(hidden_tables, "deepest_slice", counting)
    result = hidden_tables.deepest(out, executor="local")
    after = _table(out)
    for _, a, b in pairs_moving:
        mine = [j for j in solved if j[2:] == (a, b)]
        assert len(mine) == 1, (a, b)
        source = 0 if mine[0][:2] == ("Contessa", "Captain") else 1
        copy = (1 - source, a, b)
        assert after["mirrored_h6"][copy] == 1 and after["mirrored_h6"][source, a, b] == 0
        assert np.isnan(after["cpu_seconds_h6"][copy])
        for name in ("value_h6", "mover_h6", "other_h6", "option_value_h6", "option_freq_h6"):
            np.testing.assert_array_equal(after[name][copy], after[name][source, a, b])
        agree = settled.compare(float(before["value_h5"][copy]), float(after["value_h6"][copy]),
                                before["option_value_h5"][copy], after["option_value_h6"][copy])
        assert bool(after["settled"][copy]) == agree.settled
        assert after["moved"][copy] == pytest.approx(agree.moved)
    # the copy reads as its own solve would (one of them: a solve is a few seconds)
    _, a, b = pairs_moving[0]
    copy = (int(np.flatnonzero(after["mirrored_h6"][:, a, b])[0]), a, b)
    direct = hidden.solve((C.CONTESSA, C.CAPTAIN) if copy[0] == 0 else (C.CAPTAIN, C.CONTESSA),
                          (a, b), 0, horizon=4, target=hidden_tables.TARGET,
                          iterations=hidden_tables.ITERATIONS)
    assert abs(direct.value - float(after["value_h6"][copy])) <= 2 * hidden_tables.TARGET
    assert result.copied == len(pairs_moving) and result.left == 0
    assert result.solved == int(moving.sum()) - len(pairs_moving)


def test_a_table_without_a_deeper_pass_reads_as_before(small, monkeypatch):
    """`of_record` on a table no pass went deeper in: its own figures, its own horizon."""
    out, _ = small
    raw = _table(out)
    z = hidden_tables.of_record(raw)
    assert np.all(z["horizon_at"] == int(raw["horizon"]))
    for name in ("mover", "other", "option_value", "option_freq", "option_against"):
        np.testing.assert_array_equal(z[name], raw[name])
    np.testing.assert_array_equal(z["mover_compared"], raw["mover_prev"])


@pytest.mark.parametrize("argv, said", [
    (["--table", "hidden", "--limit", "3"], "--limit and --collect go with --deepest"),
    (["--table", "known", "--deepest"], "--deepest solves a hidden-role table's positions"),
    (["--table", "hidden", "--deepest", "--limit", "-1"],
     "--limit -1: expected 0 or more positions"),
    (["--table", "hidden", "--deepest", "--out", "nowhere/table.npz"],
     "--deepest needs a built table at nowhere/table.npz"),
])
def test_the_deepest_pass_names_what_it_needs(argv, said, capsys):
    from trainer.cli import main

    assert main(["endgame", "build", "--executor", "local", *argv]) == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [
    (["--table", "known", "--deepen"], "--deepen checks a hidden-role table"),
    (["--table", "hidden", "--deepen", "--out", "nowhere/table.npz"],
     "--deepen needs a built table at nowhere/table.npz"),
])
def test_deepening_names_what_it_needs(argv, said, capsys):
    from trainer.cli import main

    assert main(["endgame", "build", "--executor", "local", *argv]) == 2
    assert said in capsys.readouterr().err


class _Bar:
    """What `_advance` uses of a tqdm bar."""

    def __init__(self) -> None:
        self.n, self.total, self.said = 0, None, []

    def write(self, text: str, file: object = None) -> None:
        self.said.append(text)

    def update(self, k: int) -> None:
        self.n += k


def test_a_builds_progress_says_resumed_only_for_parts_found_before_it_started():
    from trainer.cli.endgame import _advance

    fresh = _Bar()
    advance = _advance(fresh, "resumed: {done} of {total}")  # type: ignore[arg-type]
    for done in (0, 1, 2):
        advance(done, 3)
    assert fresh.said == [] and (fresh.n, fresh.total) == (2, 3)
    again = _Bar()
    advance = _advance(again, "resumed: {done} of {total}")  # type: ignore[arg-type]
    advance(2, 3)
    advance(3, 3)
    assert again.said == ["resumed: 2 of 3"] and again.n == 3


def test_a_deeper_check_stopped_by_ctrl_c_says_how_to_go_on(monkeypatch, tmp_path, capsys):
    from trainer.cli import main

    out = tmp_path / "hidden-base.npz"
    out.write_bytes(b"")  # only its existence is read before the check starts

    def stopped(*args, **kwargs):
        kwargs["progress"](0, 3)
        kwargs["progress"](1, 3)
        raise KeyboardInterrupt

    monkeypatch.setattr(hidden_tables, "deepen", stopped)
    assert main(["endgame", "build", "--table", "hidden", "--deepen", "--out", str(out),
                 "--executor", "local"]) == 130
    err = capsys.readouterr().err
    assert ("interrupted with 1 slices checked; the same command continues from there"
            in err) and "resumed" not in err
