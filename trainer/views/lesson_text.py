"""What the Learn page says about the lessons, as Markdown strings (no Streamlit).

Why apart from the page: the library's cards, the step line and the answers' feedback are
worded once here, where a test can read them; the page script only places them.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.scenarios.lessons import Lesson, Progress
from trainer.scenarios.replay import PromptOption, PromptView


def path_caption(path: Sequence[Lesson]) -> str:
    minutes = sum(x.minutes for x in path)
    return (f"{len(path)} short lessons · {sum(x.steps for x in path)} steps · "
            f"{sum(x.words for x in path)} words · about {minutes:.0f} minutes")


def lesson_card(lesson: Lesson, progress: Progress) -> str:
    """A lesson in the library: its mark (○, ✓ or stars), title, rule set and size."""
    x = lesson
    return (f"{progress.mark(x)} **{x.title}**  \n:gray[{x.variant_title} · "
            f"{x.steps} steps · {x.prompts} question{'s' if x.prompts != 1 else ''} · "
            f"about {max(1, round(x.minutes))} min]")


def missing_lesson(lesson_id: str) -> str:
    return f"There is no lesson called {lesson_id!r}; here is the library."


def step_caption(lesson: Lesson, step: int) -> str:
    run = lesson.run
    return (f"{lesson.variant_title} · you play **{run.names[run.learner]}** · step {step} of "
            f"{lesson.steps}")


def not_quite(option: PromptOption) -> str:
    """Why a wrong answer is wrong (and that the rules forbid it, when they do)."""
    illegal = (f" (The rules do not allow it: {option.why_illegal}.)"
               if option.why_illegal else "")
    return f"**Not quite.** {option.explanation}{illegal} Try again."


def right(prompt: PromptView) -> str:
    return f"**Right: {prompt.correct.label}.** {prompt.correct.explanation}"


def timeline_label(n: int, text: str) -> str:
    return f"{n}. {text}" if n else text
