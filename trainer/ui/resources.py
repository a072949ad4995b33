"""What the pages load once per server process: question banks and the lesson library.

Why cached by file times: reading a bank or replaying every lesson takes a moment, and every
click reruns the page; keyed by the files' modification times, an edited file is read again
without a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

from trainer.estimates.bayes_steps import BayesStep
from trainer.i18n import current_language, tr
from trainer.paths import scenarios_dir
from trainer.quiz.bank import Bank, Item, load_bank
from trainer.quiz.feedback import estimate_steps
from trainer.quiz.solved import SolvedGrades, load_solved, solved_path
from trainer.scenarios.lessons import Lesson, Library, load_library
from trainer.views.path_model import (
    MEASURE_FILE,
    PathModel,
    lesson_seconds,
    path_model,
    stored_measure,
)


@st.cache_resource(show_spinner=False)
def _bank(path: str, stamp: float) -> Bank:
    return load_bank(path)


def question_bank(path: Path) -> Bank:
    """The bank in `path` (a `BankError` when it cannot be read). The spinner's words are the
    reader's (a cached function's own spinner text is fixed when the module is imported);
    Streamlit shows a spinner only after half a second, so a bank already loaded shows none."""
    with st.spinner(tr("Loading the question bank…")):
        return _bank(str(path), path.stat().st_mtime)


@st.cache_resource(show_spinner=False, max_entries=8)
def _solved(path: str, stamp: float, version: str, language: str, _bank: Bank) -> SolvedGrades:
    return load_solved(Path(path), _bank)


def solved_grades(bank_path: Path, bank: Bank) -> SolvedGrades:
    """The exact end-game grades beside the bank (`trainer.quiz.solved`), read again when
    the file changes; a missing or damaged file gives no grades and says why."""
    path = solved_path(bank_path)
    try:
        stamp = path.stat().st_mtime
    except OSError:
        stamp = -1.0
    # The language is part of the key: a file that cannot be used is said in the reader's words.
    return _solved(str(path), stamp, bank.version, current_language(), bank)


@st.cache_resource(show_spinner=False, max_entries=64)
def _estimate_steps(version: str, item_id: str, _item: Item) -> list[BayesStep] | None:
    return estimate_steps(_item)


def item_estimate_steps(bank: Bank, item: Item) -> list[BayesStep] | None:
    """How the bot's estimate of the item's claim was built (`feedback.estimate_steps`): the
    item's game is replayed through the posterior, up to a second for a long game, so once per
    item of a bank version, not on every rerun of the feedback."""
    return _estimate_steps(bank.version, item.id, item)


@st.cache_resource(show_spinner=False)
def _library(folder: str, stamp: tuple[tuple[str, float], ...]) -> Library:
    return load_library(folder)


def _stamped(folder: Path | None) -> tuple[str, tuple[tuple[str, float], ...]]:
    """The lesson folder (`trainer.paths` by default: a teacher's own with
    COUP_TRAINER_SCENARIOS) and each file's name and time of change: the caches' key, cheap
    to hash, where hashing the replayed lessons took most of a rerun of the Learn page."""
    folder = folder or scenarios_dir()
    return str(folder), tuple((p.name, p.stat().st_mtime)
                              for p in sorted(folder.glob("*.yaml")))


def lesson_library(folder: Path | None = None) -> Library:
    """Every lesson in `folder`, replayed once and again whenever a file changes."""
    with st.spinner(tr("Checking the lessons…")):
        return _library(*_stamped(folder))


@st.cache_resource(show_spinner=False, max_entries=4)
def _figures(folder: str, stamp: tuple[tuple[str, float], ...]
             ) -> tuple[PathModel, dict[str, float]]:
    library = _library(folder, stamp)
    return path_model(library.five_minutes()), lesson_seconds(library)


def path_figures(folder: Path | None = None) -> PathModel:
    """The five-minute path's time model (`trainer.views.path_model`) of the lessons in
    `folder` (as `lesson_library`), once per version of the folder."""
    return _figures(*_stamped(folder))[0]


@st.cache_resource(show_spinner=False, max_entries=4)
def _path_time(folder: str, stamp: tuple[tuple[str, float], ...], measured: float
               ) -> tuple[int, str]:
    seen = stored_measure(_library(folder, stamp).five_minutes())
    if seen is not None:
        return seen.screens, seen.minutes_text()
    figures = _figures(folder, stamp)[0]
    return len(figures.screens), figures.minutes_text()


def path_time(folder: Path | None = None) -> tuple[int, str]:
    """The path's screens and minutes as a learner reads them (the browser's measure) when
    the measure is of these lessons, else as the lesson files count them; once per version of
    the lesson folder and of the measure (reading it hashes every lesson file of the path)."""
    try:
        measured = MEASURE_FILE.stat().st_mtime
    except OSError:
        measured = -1.0
    return _path_time(*_stamped(folder), measured)


def lesson_minutes(folder: Path | None = None) -> Callable[[Lesson], float]:
    """Each lesson's modelled time in seconds, once per version of the folder."""
    seconds = _figures(*_stamped(folder))[1]
    return lambda lesson: seconds.get(lesson.id, 0.0)
