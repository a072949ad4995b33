"""A learner's Learn progress in the database: which lessons they finished and how they
answered each question, so a returning visitor finds their stars where they left them.

Why beside the answers and not in the browser tab: the tab forgets everything when it closes;
the learner is this browser's id (`trainer.learners.identity`), and what they did is kept
under it like their quiz answers. A database that fails never stops a lesson: the progress is
then kept in the tab only, and `problem` says why.
"""

from __future__ import annotations

import logging

from trainer.learners.storage import AnswerStore, LessonMark, StorageError
from trainer.scenarios.lessons import Progress

log = logging.getLogger(__name__)


def _said(e: StorageError) -> str:
    """What the page may say (no path, no URL); the whole message goes to the server's log."""
    log.warning("%s", e)
    return e.public


def load_progress(store: AnswerStore | None, learner: str) -> tuple[Progress, str | None]:
    """The learner's progress as saved, and why it could not be read (None when it was)."""
    progress = Progress()
    if store is None:
        return progress, None
    try:
        marks = store.lesson_marks(learner)
    except StorageError as e:
        return progress, _said(e)
    for m in marks:
        if m.kind == "finished":
            progress.finish(m.lesson)
        else:
            progress.answer(m.lesson, m.step, m.correct)
    return progress, None


class ProgressKeeper:
    """Writes each answer and each finished lesson through to the database (the session's
    `sink`); after a failure it stops trying and says why once."""

    def __init__(self, store: AnswerStore | None, learner: str) -> None:
        self.store = store
        self.learner = learner
        self.problem: str | None = None

    def load(self) -> Progress:
        progress, self.problem = load_progress(self.store, self.learner)
        return progress

    def answered(self, lesson: str, step: int, correct: bool) -> None:
        self._save(LessonMark(lesson, "answer", step, correct))

    def finished(self, lesson: str) -> None:
        self._save(LessonMark(lesson, "finished", 0, True))

    def _save(self, mark: LessonMark) -> None:
        if self.store is None or self.problem is not None:
            return
        try:
            self.store.save_lesson_mark(self.learner, mark)
        except StorageError as e:
            self.problem = _said(e)
