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
from typing import Any, Protocol

from trainer.engine.moves import Move
from trainer.i18n import N_
from trainer.scenarios.lessons import WATCH_NEXT, Lesson, Library, Progress
from trainer.scenarios.replay import PromptOption
from trainer.scenarios.screens import Screen, first_screen, screens

LESSON = "lesson"  # in the address
STEP = "step"  # in the address
PICKED = "answer"  # in the state: the label of the option picked at the open question
PROGRESS = "learn_progress"  # in the state
OWNER = "learn_progress_of"  # in the state: the learner whose progress that is
PRACTICE = "learn_practice"  # in the state: per game lesson, the learner's moves so far

# The path button's words (translated where the button is drawn).
START = N_("Start")
CONTINUE = N_("Continue")


class ProgressSink(Protocol):
    """Where the progress outlives the tab (`trainer.learners.lesson_progress`)."""

    learner: str

    def load(self) -> Progress: ...
    def answered(self, lesson: str, step: int, correct: bool) -> None: ...
    def finished(self, lesson: str) -> None: ...


class LessonSession:
    """The walk through the lessons over `params` (the page address) and `state`; `sink`
    keeps the progress beyond the tab (read once per tab, then written through)."""

    def __init__(self, params: MutableMapping[str, Any], state: MutableMapping[str, Any],
                 sink: ProgressSink | None = None) -> None:
        self.params = params
        self.state = state
        self.sink = sink

    @property
    def progress(self) -> Progress:
        """This learner's progress: read once per tab, and again when the learner changes
        ("Not you?" on another page)."""
        owner = self.sink.learner if self.sink is not None else None
        if PROGRESS not in self.state or self.state.get(OWNER) != owner:
            self.state[PROGRESS] = self.sink.load() if self.sink is not None else Progress()
            self.state[OWNER] = owner
        progress: Progress = self.state[PROGRESS]
        return progress

    def finish(self, lesson_id: str) -> None:
        """Mark a lesson finished (once: a second visit to its end changes nothing)."""
        if self.progress.finished(lesson_id):
            return
        self.progress.finish(lesson_id)
        if self.sink is not None:
            self.sink.finished(lesson_id)

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
        """The screen the address opens, within the lesson (`trainer.scenarios.screens`: in a
        `watch` lesson the step); the lesson's first screen when it is not a number."""
        first = first_screen(lesson.run)
        last = max((sc.number for sc in screens(lesson.run)), default=first)
        if lesson.scenario.mode == "game":
            last = max(last, 1)
        try:
            return min(max(int(self.params.get(STEP, str(first))), first), last)
        except ValueError:
            return first

    def screen(self, lesson: Lesson) -> Screen | None:
        """The screen open in a `watch` or `play` lesson (None: a game's free play)."""
        n = self.step(lesson)
        return next((sc for sc in screens(lesson.run) if sc.number == n), None)

    def answered(self, lesson: Lesson, screen: Screen) -> bool:
        """The screen's question is answered right (or it asks none)."""
        return screen.prompt is None or self.progress.solved(lesson.id, screen.prompt.step)

    # ------------------------------------------------------------------------ the game
    def practice_moves(self, lesson_id: str) -> list[Move]:
        games: dict[str, list[Move]] = self.state.setdefault(PRACTICE, {})
        return list(games.get(lesson_id, []))

    def play(self, lesson_id: str, move: Move) -> None:
        games: dict[str, list[Move]] = self.state.setdefault(PRACTICE, {})
        games[lesson_id] = [*games.get(lesson_id, []), move]

    def take_back(self, lesson_id: str) -> None:
        """Undo the learner's last move (the bots' replies to it go with it)."""
        games: dict[str, list[Move]] = self.state.setdefault(PRACTICE, {})
        games[lesson_id] = games.get(lesson_id, [])[:-1]

    def restart(self, lesson_id: str) -> None:
        self.state.setdefault(PRACTICE, {}).pop(lesson_id, None)

    # ------------------------------------------------------------------------ clicks
    def open(self, lesson_id: str | None, step: int | None = None) -> None:
        """Open a lesson at a screen (default: its first), or the library (None). Only the
        lesson's own parameters change: others in the address (large type) stay as they
        are."""
        for key in (LESSON, STEP):
            if key in self.params:
                del self.params[key]
        if lesson_id:
            self.params[LESSON] = lesson_id
            if step is not None:
                self.params[STEP] = str(step)
        self.state.pop(PICKED, None)

    def go(self, step: int) -> None:
        self.params[STEP] = str(step)
        self.state.pop(PICKED, None)

    def answer(self, lesson_id: str, step: int, label: str, correct: bool) -> None:
        self.state[PICKED] = label
        if self.progress.solved(lesson_id, step):
            return  # a click that lands after the right answer counts for nothing
        self.progress.answer(lesson_id, step, correct)
        if self.sink is not None:
            self.sink.answered(lesson_id, step, correct)

    # ------------------------------------------------------------------------ what is next
    def start(self, path: Sequence[Lesson]) -> tuple[str, Lesson] | None:
        """The button of the five-minute path: "Start" at its first lesson, else "Continue"
        at the first one not finished (the first again once all are). The label is the
        catalogue's English: the page translates it."""
        done = self.progress
        nxt = next((x for x in path if not done.finished(x.id)), path[0] if path else None)
        if nxt is None:
            return None
        first = nxt is path[0] and not done.finished(nxt.id)
        return (START if first else CONTINUE), nxt

    def following(self, library: Library, current: str | None = None) -> Lesson | None:
        """The lesson to offer after `current`: the first not finished, the five-minute path
        first, then its check, then the rulebook's example game to watch, then the library's
        order."""
        after = [x for x in (library.check(), library.get(WATCH_NEXT)) if x is not None]
        return next((x for x in library.five_minutes() + after + list(library.lessons)
                     if not self.progress.finished(x.id) and x.id != current), None)

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
