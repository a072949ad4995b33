"""Stepping through the lessons in one browser tab: which lesson and step are open, the answer
picked at a question, the learner's progress, and what comes next.

Why plain Python on two mappings: the lesson and the step live in the page address (a link
opens a lesson at a step; the back button works), the picked answer and the progress in the
tab's state. Streamlit gives both as mappings, tests give dicts, so every rule of the walk
through a lesson is tested without a browser.
"""

from __future__ import annotations

import random
from collections.abc import MutableMapping, Sequence
from typing import Any

from trainer.scenarios.lessons import Lesson, Library, Progress
from trainer.scenarios.replay import PromptOption

LESSON = "lesson"  # in the address
STEP = "step"  # in the address
PICKED = "answer"  # in the state: the label of the option picked at the open question
PROGRESS = "learn_progress"  # in the state


class LessonSession:
    """The walk through the lessons over `params` (the page address) and `state`."""

    def __init__(self, params: MutableMapping[str, Any], state: MutableMapping[str, Any]
                 ) -> None:
        self.params = params
        self.state = state

    @property
    def progress(self) -> Progress:
        progress: Progress = self.state.setdefault(PROGRESS, Progress())
        return progress

    @property
    def picked(self) -> str | None:
        picked: str | None = self.state.get(PICKED)
        return picked

    def lesson(self, library: Library) -> Lesson | None:
        """The lesson the address opens; None for the library (or a lesson that is gone)."""
        return library.get(str(self.params.get(LESSON, "")))

    def asked_for_missing(self) -> str | None:
        """The lesson id in the address when no lesson has it."""
        given = self.params.get(LESSON)
        return None if given is None else str(given)

    def step(self, lesson: Lesson) -> int:
        """The step the address opens, within the lesson; the set-up (0) when it is not a
        number."""
        try:
            return min(max(int(self.params.get(STEP, "0")), 0), lesson.steps)
        except ValueError:
            return 0

    # ------------------------------------------------------------------------ clicks
    def open(self, lesson_id: str | None, step: int = 0) -> None:
        """Open a lesson at a step, or the library (None). Only the lesson's own parameters
        change: others in the address (large type) stay as they are."""
        for key in (LESSON, STEP):
            if key in self.params:
                del self.params[key]
        if lesson_id:
            self.params[LESSON] = lesson_id
            self.params[STEP] = str(step)
        self.state.pop(PICKED, None)

    def go(self, step: int) -> None:
        self.params[STEP] = str(step)
        self.state.pop(PICKED, None)

    def answer(self, lesson_id: str, step: int, label: str, correct: bool) -> None:
        self.state[PICKED] = label
        self.progress.answer(lesson_id, step, correct)

    # ------------------------------------------------------------------------ what is next
    def start(self, path: Sequence[Lesson]) -> tuple[str, Lesson] | None:
        """The button of the five-minute path: "Start" at its first lesson, else "Continue"
        at the first one not finished (the first again once all are)."""
        done = self.progress
        nxt = next((x for x in path if not done.finished(x.id)), path[0] if path else None)
        if nxt is None:
            return None
        return ("Start" if nxt is path[0] and not done.finished(nxt.id) else "Continue"), nxt

    def following(self, library: Library) -> Lesson | None:
        """The lesson to offer after this one: the first not finished, the five-minute path
        first."""
        return next((x for x in library.five_minutes() + list(library.lessons)
                     if not self.progress.finished(x.id)), None)

    def seen(self, lesson: Lesson, step: int) -> int:
        """How many moves the timeline lists: all of them once the lesson is finished, else
        those so far (the ones still to come would give the questions away)."""
        return lesson.steps if self.progress.finished(lesson.id) else step


def shuffled(options: Sequence[PromptOption], lesson_id: str, step: int) -> list[PromptOption]:
    """A question's options in an order of their own, the same on every rerun (the right
    answer is written first in the lesson file)."""
    out = list(options)
    random.Random(f"{lesson_id}:{step}").shuffle(out)
    return out


def shown_lessons(library: Library, variant: str | None) -> list[Lesson]:
    """The library's lessons of one rule set ("all" or None: every lesson)."""
    return [x for x in library.lessons if variant in (None, "all") or x.variant == variant]
