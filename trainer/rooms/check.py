"""A room's rules questions: "Check yourself", the six questions after the Learn path, put to a
class.

Why its own ids (`check:<lesson>:<step>`) and not the question bank's: these questions are not
positions valued by playouts but a lesson's prompts, settled by the rules; they live in the
lesson file, so the room keeps the lesson and the step of each prompt, and reads the question
again from the lesson library. A lesson file edited after the room was made may leave an id
without a prompt (`resolve` is then None, and the room says so), and the room's version (a
hash of the questions, options and explanations) says whether the same ids still ask the same
thing.

Why the options' order is the Learn page's (`shuffled`, seeded by the lesson and the step):
every phone shows the same order, and a pupil who did the check at home meets it again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from trainer.engine.game import Game
from trainer.scenarios.lesson_session import shuffled
from trainer.scenarios.lessons import CHECK, Lesson, Library
from trainer.scenarios.replay import PromptOption, PromptView, replay
from trainer.scenarios.screens import Screen, screens
from trainer.verdicts.rules import judge_rules

PREFIX = "check"
DEFAULT_LESSON = CHECK


def check_id(lesson_id: str, step: int) -> str:
    """The room's id of the prompt at `step` (1-based) of a lesson."""
    return f"{PREFIX}:{lesson_id}:{step}"


def is_check_id(item_id: str) -> bool:
    return item_id.startswith(f"{PREFIX}:")


def parse_check_id(item_id: str) -> tuple[str, int] | None:
    """(lesson id, step) of a check id; None for anything else."""
    parts = item_id.split(":")
    if len(parts) != 3 or parts[0] != PREFIX or not parts[2].isdigit():
        return None
    return parts[1], int(parts[2])


@dataclass(frozen=True)
class CheckQuestion:
    """One rules question as a room asks it: the position before the prompt's step, seen from
    the lesson's learner, the question and its options in the order every phone shows."""

    id: str
    lesson: Lesson
    number: int  # 1-based, among the lesson's questions
    screen: Screen
    prompt: PromptView
    options: tuple[PromptOption, ...]

    @property
    def learner(self) -> int:
        return self.lesson.run.learner

    @property
    def step(self) -> int:
        return self.prompt.step

    @property
    def before(self) -> tuple[str, ...]:
        """The narrations read with the question (what happened since the last one)."""
        return self.screen.before

    @property
    def right(self) -> PromptOption:
        return self.prompt.correct

    def game(self) -> Game:
        """The game as it stands when the question is asked (before the prompt's step)."""
        return replay(self.lesson.scenario, self.screen.shown)

    def option(self, label: str) -> PromptOption | None:
        """The option a stored answer names (by the move as the engine writes it)."""
        return next((o for o in self.options if o.label == label), None)


def check_questions(lesson: Lesson) -> list[CheckQuestion]:
    """Every question of a lesson, in its order."""
    out = []
    asked = [s for s in screens(lesson.run) if s.kind == "play" and s.prompt is not None]
    for n, screen in enumerate(asked, start=1):
        prompt = screen.prompt
        assert prompt is not None
        out.append(CheckQuestion(
            id=check_id(lesson.id, prompt.step), lesson=lesson, number=n, screen=screen,
            prompt=prompt, options=tuple(shuffled(prompt.options, lesson.id, prompt.step))))
    return out


def question_ids(library: Library, lesson_id: str = DEFAULT_LESSON) -> list[str]:
    """The ids a new room of `lesson_id` asks (none when the lesson is missing or broken)."""
    lesson = library.get(lesson_id)
    return [] if lesson is None else [q.id for q in check_questions(lesson)]


def resolve(library: Library, item_id: str) -> CheckQuestion | None:
    """The question a room's id names, or None when the lesson is gone or its step no longer
    asks anything (the file was edited after the room was made)."""
    parsed = parse_check_id(item_id)
    if parsed is None:
        return None
    lesson = library.get(parsed[0])
    if lesson is None:
        return None
    return next((q for q in check_questions(lesson) if q.step == parsed[1]), None)


def version(library: Library, lesson_id: str = DEFAULT_LESSON) -> str:
    """A short hash of what a lesson asks (each question, its options and explanations), kept
    with the room as a bank's version is: a room made before the file changed can say so."""
    lesson = library.get(lesson_id)
    if lesson is None:
        return f"{PREFIX}-missing"
    data = [[q.step, q.prompt.question, [[o.label, o.correct, o.explanation]
                                         for o in q.prompt.options]]
            for q in check_questions(lesson)]
    digest = hashlib.sha256(json.dumps(data).encode()).hexdigest()[:12]
    return f"{PREFIX}-{lesson_id}-{digest}"[:64]


def rules_fields(question: CheckQuestion, chosen: str, seconds: float | None
                 ) -> dict[str, object]:
    """The fields a room stores for an answer to a rules question: right or wrong as the
    verdict layer judges it (`trainer.verdicts.rules`), no grade, no points lost, no chance of a
    bluff. RulesAnswerError (a ValueError) when `chosen` is not one of the options."""
    verdict = judge_rules(chosen, [o.label for o in question.options], question.right.label)
    return {"item_id": question.id, "action": verdict.chosen, "stated": None, "bot": None,
            "bluff": None, "best": verdict.right, "lost_pp": None, "grade": None,
            "correct": verdict.correct, "seconds": seconds}
