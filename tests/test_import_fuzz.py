"""A file a person imports, mangled at random, is read or refused at a line in the reader's
words: never a crash.

- A game log (the Play page's import catches `LogError`, and a record the engine cannot
  rebuild is a `ValueError` the page words; anything else would take the page down).
- An answers CSV (the Calibration page's import reports every bad line and saves the rest).

Bounded: a few hundred edits of each (tests/mangle.py edits them as hands do).
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.i18n_sweep import unmarked
from tests.mangle import mangle
from tests.test_play_log import play
from tests.test_storage import answer
from trainer.i18n import use_language
from trainer.learners.history_csv import export_csv, import_csv
from trainer.learners.storage import MemoryStore
from trainer.play.log import LogError, export_text, import_text
from trainer.play.match import Match

VARIANTS = ("base", "reformation", "mcguire")


@cache
def log_of(variant: str) -> str:
    with use_language("en"):
        return export_text(play(variant, 5, 3, stop=14))


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), rng=st.randoms(use_true_random=False))
def test_a_mangled_game_log_is_a_game_or_a_problem_at_a_line(variant: str,
                                                             rng: random.Random) -> None:
    text = mangle(log_of(variant), rng)
    with use_language("qps"):
        try:
            record = import_text(text, learner="ann")
        except LogError as e:
            assert 1 <= e.line <= max(1, len(text.splitlines()) + 1), (e.line, str(e))
            # Every word of ours is marked; the rest is the log's own (found, as written).
            said = str(e)
            assert [w for w in unmarked(said) if w not in text] == [], said
            return
        try:
            Match.resume(record)
        except ValueError as e:  # the page says "The game ... could not be rebuilt: ..."
            assert [w for w in unmarked(str(e)) if w not in text] == [], str(e)


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_untouched_log_imports(variant: str) -> None:
    """The fuzzing starts from logs that read back (so a refusal is the edit's doing)."""
    assert import_text(log_of(variant)) is not None


@cache
def answers_file() -> str:
    return export_csv([answer("ann", n, stated=None if n % 3 else 0.35, bluff=None if n % 3
                              else bool(n % 2), kind="challenge" if n % 3 == 0 else "keep")
                       for n in range(6)])


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_a_mangled_answers_file_saves_its_good_lines_and_names_the_bad_ones(
        rng: random.Random) -> None:
    text = mangle(answers_file(), rng)
    store = MemoryStore()
    with use_language("qps"):
        report = import_csv(text, "ann", store)
    for problem in report.errors:
        assert [w for w in unmarked(problem) if w not in text] == [], problem
    saved, _damaged = store.answers("ann")
    assert len(saved) == report.added
