"""The command line: variants, fuzz (and its report of a violation), check, schema, --help."""

from __future__ import annotations

import subprocess
import sys

import trainer.engine.fuzz
from trainer.cli import main
from trainer.engine.invariants import InvariantViolation
from trainer.engine.variants import VARIANTS
from trainer.scenarios.schema import schema_text


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


def test_fuzz_reports_an_engine_crash_like_a_violation(capsys, monkeypatch):
    def crash(variant, players, seed, **kw):
        raise KeyError("deck")

    monkeypatch.setattr(trainer.engine.fuzz, "play_random", crash)
    assert main(["fuzz", "--games", "5", "--variant", "base", "--players", "2", "--seed", "7",
                 "--quiet"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "CRASH in game 1 (base, 2 players, seed 7): KeyError: 'deck'",
        "reproduce: python -m trainer fuzz --games 1 --variant base --players 2 --seed 7"]


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


def test_schema_writes_the_json_schema_where_asked(tmp_path, capsys):
    path = tmp_path / "scenario.schema.json"
    assert main(["schema", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == schema_text()
    assert capsys.readouterr().out == f"wrote {path}\n"


def test_help_does_not_import_the_heavy_libraries():
    # Every command imports what it needs when it runs, so listing them stays quick.
    script = ("import sys; from trainer.cli import parser; parser().format_help(); "
              "print(sorted(m for m in ('pandas', 'altair', 'tqdm', 'pydantic', "
              "'trainer.quiz.building') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
