"""A lesson cut into screens: what the table shows, what is read and what is asked on each.

Why a screen and not a step: a newcomer learns by making the move a lesson is about, not by
clicking Next through the moves around it. In a `play` lesson each prompt is a screen: the
table stops where the learner decides; once they answer right, the move and the other players'
replies up to the next prompt play themselves. A `watch` lesson keeps one screen per step (the
rulebook's example game is read, not played). The Learn page and the five-minute path's time
model (`trainer.views.path_model`) both read lessons through this.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.scenarios.replay import PromptView, ScenarioRun


@dataclass(frozen=True)
class Screen:
    """One screen of a lesson.

    `shown` steps are played on the table while the question is open; `result` steps once it
    is answered (equal to `shown` when nothing is asked). `before` is read with the question,
    `after` with the answer."""

    number: int
    kind: str  # "intro", "play" (a prompt the learner answers) or "watch" (one step)
    shown: int
    result: int
    prompt: PromptView | None
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()


def screens(run: ScenarioRun) -> list[Screen]:
    """Every screen of a lesson, numbered as the page address numbers them: 0 is the intro (or
    a `watch` lesson's set-up); a `play` lesson without an intro starts at 1. A `game` lesson's
    screens after its intro depend on the learner's moves (`trainer.scenarios.lesson_game`)."""
    s = run.scenario
    out: list[Screen] = []
    if s.intro is not None:
        out.append(Screen(0, "intro", 0, 0, None))
    if s.mode == "watch":
        if s.intro is None:
            out.append(Screen(0, "watch", 0, 0, _prompt(run, 1), (s.summary,)))
        for k, step in enumerate(run.steps, start=1):
            out.append(Screen(k, "watch", k, k, _prompt(run, k + 1),
                              (step.narration,) if step.narration else ()))
        return out
    if s.mode == "game":
        return out
    asked = [k for k, step in enumerate(run.steps, start=1) if step.prompt is not None]
    for i, k in enumerate(asked):
        end = asked[i + 1] - 1 if i + 1 < len(asked) else len(run.steps)
        start = 0 if i == 0 else k - 1
        prompt = run.steps[k - 1].prompt
        out.append(Screen(i + 1, "play", k - 1, end, prompt,
                          _narrations(run, start + 1, k - 1), _narrations(run, k, end)))
    return out


def first_screen(run: ScenarioRun) -> int:
    """The number of a lesson's first screen (1 for a `play` lesson without an intro)."""
    return 1 if run.scenario.mode == "play" and run.scenario.intro is None else 0


def last_screen(run: ScenarioRun) -> int:
    """The number of a lesson's last scripted screen (a game's free play comes after it)."""
    return screens(run)[-1].number if screens(run) else 0


def _prompt(run: ScenarioRun, step: int) -> PromptView | None:
    return run.steps[step - 1].prompt if 1 <= step <= len(run.steps) else None


def _narrations(run: ScenarioRun, first: int, last: int) -> tuple[str, ...]:
    """The narrations of steps `first` to `last` (1-based, inclusive)."""
    return tuple(n for step in run.steps[first - 1:last] if (n := step.narration))
