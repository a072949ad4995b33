"""The known-role end-game tables kept in the package (`trainer.endgame.tables`) and the turns a
certain win takes (`Table.turns` in `trainer.endgame.known`)."""

from __future__ import annotations

import numpy as np
import pytest

from trainer.endgame import known, tables
from trainer.endgame.known import positions
from trainer.endgame.tables import known_values
from trainer.engine.cards import Character as C
from trainer.engine.variants import get_variant

CHARS = get_variant("base").characters
SLICE = 4  # coins 0..4 each in the comparison of a pair with its mirror


@pytest.fixture(autouse=True)
def fresh_caches():
    """Each test reads the tables as a new process would: a monkeypatched solve or file must
    not leave tables behind for the next test."""
    yield
    tables._known.cache_clear()
    tables._stored.cache_clear()
    tables._solved.cache_clear()


def test_the_package_stores_all_fifteen_pairs_of_lost_cards():
    stored = tables._stored("base")
    assert sorted(stored) == sorted(tables.pairs("base"))
    assert len(stored) == 15


def test_a_mirrored_revealed_pair_reads_the_stored_pair_from_the_other_seat():
    # The file keeps (Duke, Captain); (Captain, Duke) is that game with the seats swapped:
    # the cards, the coins and who acts change places, and player 0 wins where player 1 won.
    # That swapping the seats turns a game into itself is checked on a direct solve in
    # tests/test_endgame_known.py.
    mirrored = known_values((C.CAPTAIN, C.DUKE))
    values, turns = tables._stored("base")[(C.DUKE, C.CAPTAIN)]
    checked = 0
    for p in positions([(a, b) for a in CHARS for b in CHARS], (C.CAPTAIN, C.DUKE),
                       coins=SLICE):
        a, b = (CHARS.index(c) for c in p.cards)
        at = (b, a, p.coins[1], p.coins[0], 1 - p.first)
        assert mirrored.value(p.cards, p.coins, p.first) == pytest.approx(1 - values[at],
                                                                          abs=1e-12), p
        assert mirrored.turns(p.cards, p.coins, p.first) == (None if turns[at] < 0
                                                              else turns[at]), p
        checked += 1
    assert checked > 1000


def test_a_player_to_act_with_seven_coins_wins_in_one_turn():
    for x, y in tables.pairs():
        for revealed in ((x, y), (y, x)):
            kv = known_values(revealed)
            dealt = ~np.isnan(kv.values[:, :, 7:, :, 0])
            assert np.all(kv.values[:, :, 7:, :, 0][dealt] == 1.0), revealed
            assert np.all(kv.distances[:, :, 7:, :, 0][dealt] == 1), revealed
            assert np.all(kv.values[:, :, :, 7:, 1][~np.isnan(kv.values[:, :, :, 7:, 1])]
                          == 0.0), revealed


def test_a_duke_at_five_coins_wins_on_its_second_turn_against_a_contessa():
    # Tax to 8 (turn 1); the Contessa cannot coup, assassinate or take Foreign Aid past a Duke
    # (turn 2); Coup (turn 3). Moving second, the Contessa's turn comes first: 4.
    kv = known_values((C.CAPTAIN, C.ASSASSIN))
    assert kv.value((C.DUKE, C.CONTESSA), (5, 0), 0) == 1.0
    assert kv.turns((C.DUKE, C.CONTESSA), (5, 0), 0) == 3
    assert kv.turns((C.DUKE, C.CONTESSA), (5, 0), 1) == 4


def test_an_assassin_with_three_coins_kills_anything_but_a_contessa_at_once():
    # Only a Contessa blocks an assassination; any other card's block would be a bluff, and
    # the Assassin, seeing the card, calls it.
    kv = known_values((C.AMBASSADOR, C.CAPTAIN))
    for theirs in CHARS:
        turns = kv.turns((C.ASSASSIN, theirs), (3, 0), 0)
        assert (turns == 1) == (theirs is not C.CONTESSA), theirs


def test_a_win_for_player_one_counts_its_turns_the_same_way():
    # Player 1 holds 7 coins and acts: player 0 loses in one turn.
    kv = known_values((C.DUKE, C.CONTESSA))
    assert kv.value((C.CAPTAIN, C.DUKE), (0, 7), 1) == 0.0
    assert kv.turns((C.CAPTAIN, C.DUKE), (0, 7), 1) == 1


def test_only_a_certain_win_has_a_count_of_turns():
    undecided = 0
    for pair in tables.pairs():
        kv = known_values(pair)
        dealt = ~np.isnan(kv.values)
        certain = (kv.values == 0.0) | (kv.values == 1.0)
        assert np.array_equal((kv.distances >= 0)[dealt], certain[dealt]), pair
        undecided += int(np.sum(dealt & ~certain))
    assert undecided > 0  # the Exchange's draw does decide some end-games


def test_a_deal_the_court_cannot_make_is_nan_and_refused_by_name():
    # Three Dukes in the court: two lost, two more cannot be held.
    kv = known_values((C.DUKE, C.DUKE))
    assert np.all(np.isnan(kv.values[0, 0]))
    assert np.all(kv.distances[0, 0] == -1)
    with pytest.raises(ValueError, match="cards Duke and Duke"):
        kv.value((C.DUKE, C.DUKE), (0, 0), 0)
    with pytest.raises(ValueError, match="cards Duke and Duke"):
        kv.turns((C.DUKE, C.DUKE), (3, 3), 1)


@pytest.mark.parametrize("call, name", [
    (lambda kv: kv.value((C.DUKE, C.DUKE), (13, 0), 0), "coins"),
    (lambda kv: kv.value((C.DUKE, C.DUKE), (-1, 0), 0), "coins"),
    (lambda kv: kv.value((C.DUKE, C.INQUISITOR), (0, 0), 0), "cards"),
    (lambda kv: kv.value((C.DUKE, C.DUKE), (0, 0), 2), "first"),
])
def test_a_position_off_the_table_is_refused_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=f"^{name}: expected"):
        call(known_values((C.CAPTAIN, C.CONTESSA)))


def test_lost_cards_outside_the_rule_set_are_refused():
    with pytest.raises(ValueError, match="^revealed: expected two of Duke, Assassin"):
        known_values((C.INQUISITOR, C.DUKE))


def test_an_unknown_rule_set_is_refused_by_name():
    with pytest.raises(ValueError, match="^variant: unknown variant 'basic'"):
        known_values((C.DUKE, C.DUKE), variant="basic")


def _count_reads(monkeypatch) -> list[object]:
    """Refuse any solve and record every read of a table file: a lookup must only read."""
    def refuse(*args):
        raise AssertionError("solved instead of read")

    reads: list[object] = []
    real_read = tables.read

    def counted(source):
        reads.append(source)
        return real_read(source)

    monkeypatch.setattr(known, "solve", refuse)
    monkeypatch.setattr(tables, "solve_pair", refuse)
    monkeypatch.setattr(tables, "read", counted)
    tables._stored.cache_clear()
    return reads


def test_lookups_of_every_pair_read_the_stored_file_once_without_solving(monkeypatch):
    reads = _count_reads(monkeypatch)
    for x in CHARS:
        for y in CHARS:
            known_values((x, y)).value((C.CAPTAIN, C.CONTESSA), (2, 2), 0)
    assert len(reads) == 1  # the file is read once, not once a pair


def test_a_lookup_is_one_entry_of_the_pairs_table_kept_after_the_first(monkeypatch):
    # Looking up again neither reads nor builds anything: the same table answers, each value
    # and count of turns read straight from its arrays.
    reads = _count_reads(monkeypatch)
    kv = known_values((C.CONTESSA, C.ASSASSIN))
    assert len(reads) == 1
    duke, captain = CHARS.index(C.DUKE), CHARS.index(C.CAPTAIN)
    for a in range(known.MAX_COINS + 1):
        again = known_values((C.CONTESSA, C.ASSASSIN))
        assert again is kv
        assert again.value((C.DUKE, C.CAPTAIN), (a, 3), 1) == kv.values[duke, captain, a, 3, 1]
        d = int(kv.distances[duke, captain, a, 3, 1])
        assert again.turns((C.DUKE, C.CAPTAIN), (a, 3), 1) == (None if d < 0 else d)
    assert len(reads) == 1


def test_a_pair_missing_from_the_file_is_solved_once_for_both_seats(monkeypatch):
    solved = []

    def fake(job):
        solved.append(job)
        values = np.full((5, 5, known.MAX_COINS + 1, known.MAX_COINS + 1, 2), 0.25)
        values[..., 1] = 0.75
        return values, np.full(values.shape, -1, dtype=np.int8)

    monkeypatch.setattr(tables, "_stored", lambda variant: {})
    monkeypatch.setattr(tables, "solve_pair", fake)
    tables._solved.cache_clear()
    here = known_values((C.DUKE, C.CAPTAIN))
    there = known_values((C.CAPTAIN, C.DUKE))
    assert solved == [("Duke", "Captain", "base")]
    assert here.value((C.AMBASSADOR, C.DUKE), (1, 2), 0) == 0.25
    # Player 0 moving first there is player 1 moving first here.
    assert there.value((C.DUKE, C.AMBASSADOR), (2, 1), 0) == 0.25


# ------------------------------------------------------------------------------ build


def _fake_solve(calls, stop_after=None):
    """A solve that marks each pair's table with the pair's place in the order, and raises
    KeyboardInterrupt (as ^C would) once it has solved `stop_after` pairs."""
    order = [(x.value, y.value) for x, y in tables.pairs()]

    def solve(job):
        if stop_after is not None and len(calls) == stop_after:
            raise KeyboardInterrupt
        calls.append(job[:2])
        shape = (5, 5, known.MAX_COINS + 1, known.MAX_COINS + 1, 2)
        return (np.full(shape, order.index(job[:2]) / 16),
                np.full(shape, order.index(job[:2]), dtype=np.int8))

    return solve


def test_an_interrupted_build_resumes_from_its_finished_pairs(tmp_path, monkeypatch, capsys):
    from trainer.cli import main

    out = tmp_path / "known.npz"
    first: list[tuple[str, str]] = []
    monkeypatch.setattr(tables, "solve_pair", _fake_solve(first, stop_after=4))
    assert main(["endgame", "build", "--out", str(out), "--executor", "local"]) == 130
    assert len(list(tables.parts_dir(out).glob("*.npz"))) == 4
    assert not out.exists()
    second: list[tuple[str, str]] = []
    monkeypatch.setattr(tables, "solve_pair", _fake_solve(second))
    assert main(["endgame", "build", "--out", str(out), "--executor", "local"]) == 0
    assert len(second) == 11 and not set(first) & set(second)
    assert "resumed: 4 of 15" in capsys.readouterr().err


def test_a_build_writes_one_file_of_every_pair_and_drops_its_parts(tmp_path, monkeypatch,
                                                                   capsys):
    from trainer.cli import main

    out = tmp_path / "known.npz"
    monkeypatch.setattr(tables, "solve_pair", _fake_solve([]))
    assert main(["endgame", "build", "--out", str(out), "--executor", "local"]) == 0
    assert not tables.parts_dir(out).exists()
    read = tables.read(out)
    assert sorted(read.tables) == sorted(tables.pairs())
    for i, pair in enumerate(tables.pairs()):
        assert np.all(read.tables[pair][0] == i / 16) and np.all(read.tables[pair][1] == i)
    assert f"wrote {out}" in capsys.readouterr().out


@pytest.mark.parametrize("argv, said", [
    (["--processes", "0"], "--processes must be at least 1"),
    (["--out", "table.json"], "--out must name a .npz file"),
    (["--executor", "local", "--address", "auto"], "a cluster address needs the ray"),
])
def test_the_build_command_refuses_bad_arguments_by_name(argv, said, capsys):
    from trainer.cli import main

    assert main(["endgame", "build", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("endgame build: ") and said in err


def test_an_installed_package_carries_the_table_file():
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["trainer.endgame"]
    assert any(tables.DEFAULT_OUT.relative_to(Path(tables.__file__).parent).match(p)
               for p in patterns)
    assert tables.DEFAULT_OUT.is_file()

