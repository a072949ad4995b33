"""Golden playthroughs: each seeded game, written state by state, is still what the engine
plays (tests/data/playthroughs, written by `python -m trainer golden`); a difference shows as a
unified diff to review."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.engine.game import Game
from trainer.engine.playthrough import (
    SUITE,
    PlaythroughError,
    golden_diff,
    playthrough,
    read_playthrough,
)
from trainer.engine.variants import parse_rules

DATA = Path(__file__).resolve().parent / "data" / "playthroughs"


@pytest.mark.parametrize("spec", SUITE, ids=[s.name for s in SUITE])
def test_the_engine_plays_each_recorded_game_as_written(spec):
    name = f"{spec.name}.txt"
    recorded = (DATA / name).read_text()
    diff = golden_diff(name, recorded, playthrough(spec.variant, spec.players, spec.seed))
    if diff:
        pytest.fail("the playthrough changed; if the rules change was deliberate, run "
                    "`python -m trainer golden` and review the diff:\n" + diff, pytrace=False)


@pytest.mark.parametrize("spec", SUITE, ids=[s.name for s in SUITE])
def test_the_recorded_moves_replay_legally_to_the_recorded_result(spec):
    game_text = read_playthrough((DATA / f"{spec.name}.txt").read_text())
    assert (game_text.variant, game_text.players, game_text.seed) == (
        spec.variant, spec.players, spec.seed)
    rules = parse_rules(game_text.variant)
    game = Game.new(game_text.players, seed=game_text.seed, variant=rules.variant,
                    options=rules.options)
    for i, move in enumerate(game_text.moves, start=1):
        assert move in game.legal_moves(), f"decision {i}: {game.why_illegal(move)}"
        game.apply(move)
    assert game.is_over
    result = "tie" if game.winner is None else f"P{game.winner} wins"
    assert game_text.result == f"{result} after {len(game_text.moves)} decisions"


def test_the_folder_holds_exactly_the_suites_files():
    assert sorted(p.name for p in DATA.iterdir()) == sorted(f"{s.name}.txt" for s in SUITE)


def test_a_changed_line_shows_in_the_diff_and_an_unchanged_file_shows_nothing():
    spec = SUITE[0]
    now = playthrough(spec.variant, spec.players, spec.seed)
    assert golden_diff("x.txt", now, now) == ""
    changed = now.replace("move P0:", "move P1:", 1)
    diff = golden_diff("x.txt", changed, now)
    assert diff.startswith("--- x.txt (recorded)\n+++ x.txt (engine now)\n")
    assert "\n-  move P1:" in diff and "\n+  move P0:" in diff


def test_a_move_that_does_not_parse_names_its_line():
    with pytest.raises(PlaythroughError, match="line 4: cannot read the move 'P0:fly'"):
        read_playthrough("variant base\nplayers 2\nseed 1\n  move P0:fly\n")


def test_the_golden_command_writes_checks_and_removes_stale_files(tmp_path, monkeypatch, capsys):
    import trainer.engine.perft as perft_module
    import trainer.engine.playthrough as playthrough_module
    from trainer.cli import main

    files = {perft_module.PERFT_DIR / "base.perft": "perft 1 5\n",
             playthrough_module.PLAYTHROUGH_DIR / "base-2p.txt": "move P0:tax\n"}
    monkeypatch.setattr(perft_module, "perft_files", lambda: dict(list(files.items())[:1]))
    monkeypatch.setattr(playthrough_module, "playthrough_files",
                        lambda: dict(list(files.items())[1:]))
    root = ["--root", str(tmp_path)]
    assert main(["golden", "--check", *root]) == 1
    assert "missing tests/data/perft/base.perft" in capsys.readouterr().out
    stale = tmp_path / "tests/data/playthroughs/old-2p.txt"
    stale.parent.mkdir(parents=True)
    stale.write_text("x\n")
    assert main(["golden", *root]) == 0
    assert "removed tests/data/playthroughs/old-2p.txt" in capsys.readouterr().out
    assert not stale.exists()
    assert main(["golden", "--check", *root]) == 0
    assert "2 golden files, 0 differ" in capsys.readouterr().out
    (tmp_path / "tests/data/perft/base.perft").write_text("perft 1 6\n")
    assert main(["golden", "--check", *root]) == 1
    out = capsys.readouterr().out
    assert "-perft 1 6\n+perft 1 5\n" in out and "1 differ" in out
