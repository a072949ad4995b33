"""A teacher's lesson file, mangled at random, is either a lesson or a located problem: never a
crash, and never a problem the reader cannot read.

Why: the Learn page reads every file of a teacher's folder and shows each broken one; a file
that made the checker raise anything but `ScenarioError` would take the page down with it
(two such holes, a control character and a date-like title, were found by hand). Here the
shipped lessons are edited the ways hands edit them (a line lost, doubled or swapped, a word
replaced by another of the file, a typo, a stray character, the file cut short) and checked
exactly as the command line checks them. Bounded: a sample of lessons, a few hundred edits.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.i18n_sweep import uncatalogued
from tests.mangle import mangle
from trainer.i18n import use_language
from trainer.scenarios.errors import ScenarioError
from trainer.scenarios.replay import check_file

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
# One of each kind: a lesson to watch, one to play, a free game, a variant's, a rule case.
FILES = ("challenged-steal-block.yaml", "learn-blocks.yaml", "learn-first-game.yaml",
         "reformation-embezzlement.yaml", "mcguire-vengeance.yaml",
         "rules/assassination-refunded-when-challenged.yaml")
TEXTS = {name: (SCENARIOS / name).read_text(encoding="utf-8") for name in FILES}


@st.composite
def mangled(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped file edited once or a few times, as a hand might."""
    name = draw(st.sampled_from(FILES))
    return name, mangle(TEXTS[name], draw(st.randoms(use_true_random=False)))


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=mangled())
def test_a_mangled_lesson_file_is_a_lesson_or_a_located_problem(case: tuple[str, str]) -> None:
    name, text = case
    with tempfile.TemporaryDirectory() as folder:
        _check(Path(folder) / Path(name).name, text)


def _check(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    try:
        with use_language("en"):
            check_file(path)
    except ScenarioError as e:
        assert e.path == str(path)
        assert e.line is None or 1 <= e.line <= text.count("\n") + 1, (e.line, str(e))
        with use_language("fil"):
            said = e.words()
        assert said and str(path) in said  # located, and worded without a crash
        # Nothing goes uncatalogued but data: the file's own words, and a rare problem of
        # PyYAML's that we do not word (shown as PyYAML wrote it, as documented).
        known = _words(text) | _words(_yaml_problem(text))
        leftover = [part for part in uncatalogued(e.said) if not _words(part) <= known]
        assert leftover == [], (str(e), leftover)
        return
    with use_language("fil"):  # the Learn page replays in the reader's language: the same
        check_file(path)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{2,}", text))


def _yaml_problem(text: str) -> str:
    """What PyYAML itself says of `text` ("" when it reads it)."""
    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        return str(e)
    return ""
