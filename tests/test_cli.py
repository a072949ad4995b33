"""The command line: variants, fuzz (and its report of a violation), check."""

from __future__ import annotations

import subprocess
import sys

import trainer.engine.fuzz
from trainer.cli import main
from trainer.engine.invariants import InvariantViolation
from trainer.engine.variants import VARIANTS


def test_variants_lists_one_name_a_line(capsys):
    assert main(["variants"]) == 0
    assert capsys.readouterr().out.splitlines() == list(VARIANTS)


def test_fuzz_plays_every_player_count_and_reports_no_violation(capsys):
    assert main(["fuzz", "--games", "18", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"18 games ({', '.join(sorted(VARIANTS))}; 2–10 players)" in out
    assert "0 invariant violations" in out


def test_fuzz_stops_at_the_first_violation_and_prints_the_reproducing_command(
        capsys, monkeypatch):
    real = trainer.engine.fuzz.play_random

    def broken(variant, players, seed, **kw):
        if seed == 3:
            raise InvariantViolation("turn 4, decision 9: coins not conserved")
        return real(variant, players, seed, **kw)

    monkeypatch.setattr(trainer.engine.fuzz, "play_random", broken)
    assert main(["fuzz", "--games", "10", "--variant", "base", "--players", "4", "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "VIOLATION in game 4 (base, 4 players, seed 3): turn 4, decision 9" in out
    assert "reproduce: python -m trainer fuzz --games 1 --variant base --players 4 --seed 3" in out


def test_fuzz_rejects_a_player_count_the_variant_does_not_allow(capsys):
    assert main(["fuzz", "--games", "1", "--variant", "forum", "--players", "9"]) == 2
    assert "forum is for 2–8 players, not 9" in capsys.readouterr().err


def test_fuzz_of_every_variant_rejects_a_player_count_none_allows(capsys):
    assert main(["fuzz", "--games", "1", "--players", "11"]) == 2
    assert "no variant is for 11 players" in capsys.readouterr().err


def test_check_exits_non_zero_on_a_broken_scenario(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: [\n")
    run = subprocess.run([sys.executable, "-m", "trainer", "check", str(bad)],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert f"{bad}:" in run.stderr + run.stdout
    assert "Traceback" not in run.stderr
