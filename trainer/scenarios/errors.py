"""The one error type of the scenario checker: a problem located by file, line and step.

Why its own module: the loader, the replayer and the checkpoints all raise it, and callers (the
Learn page, the command line, the question bank) catch only this.
"""

from __future__ import annotations

from typing import Any

from trainer.engine.errors import CoupError
from trainer.i18n import tr
from trainer.i18n.said import Said, as_said, said

__all__ = ["Said", "ScenarioError", "error_at", "said"]
from trainer.scenarios.schema import Scenario
from trainer.scenarios.yaml_lines import Loc, line_of


class ScenarioError(CoupError):
    """One problem in a scenario file, located as precisely as we can.

    `str(error)` is the whole message: ``path:line: step N ("move text"): what is wrong``, in
    the language of the block that raised it (English for the library and the command line);
    `words()` says it again in the reader's language (`said` keeps the problem's message and
    fields). `step` is 1-based; `line` and `step` are None when they do not apply.
    """

    def __init__(self, message: str | Said, *, path: str = "<scenario>",
                 line: int | None = None, step: int | None = None,
                 step_text: str | None = None) -> None:
        self.said = as_said(message)
        self.message = self.said.words()
        super().__init__(self.message)
        self.path = path
        self.line = line
        self.step = step
        self.step_text = step_text

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        if self.step is not None:
            where += f"step {self.step}"
            where += f' ("{self.step_text}"): ' if self.step_text else ": "
        return where + self.message

    def words(self, shown_path: str | None = None) -> str:
        """The whole message in the current language: file (`shown_path` if given, e.g. the
        file's name without its folders), line, step and problem."""
        problem = self.said.words()
        path = self.path if shown_path is None else shown_path
        if self.step is None:
            return (tr("{path}:{line}: {problem}", path=path, line=self.line,
                       problem=problem) if self.line else
                    tr("{path}: {problem}", path=path, problem=problem))
        if self.step_text:
            return (tr('{path}:{line}: step {step} ("{text}"): {problem}', path=path,
                       line=self.line, step=self.step, text=self.step_text, problem=problem)
                    if self.line else
                    tr('{path}: step {step} ("{text}"): {problem}', path=path,
                       step=self.step, text=self.step_text, problem=problem))
        return (tr("{path}:{line}: step {step}: {problem}", path=path, line=self.line,
                   step=self.step, problem=problem) if self.line else
                tr("{path}: step {step}: {problem}", path=path, step=self.step,
                   problem=problem))

    def __reduce__(self) -> Any:
        return (_rebuild_error, (self.said, self.path, self.line, self.step, self.step_text))


def _rebuild_error(message: str | Said, path: str, line: int | None, step: int | None,
                   step_text: str | None) -> ScenarioError:
    return ScenarioError(message, path=path, line=line, step=step, step_text=step_text)


def error_at(scenario: Scenario, loc: Loc, message: str | Said) -> ScenarioError:
    """An error at `loc`; a loc under ("steps", i) names the step and its move."""
    step = text = None
    if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
        step, text = loc[1] + 1, scenario.steps[loc[1]].text
    return ScenarioError(message, path=scenario.path, line=line_of(scenario._lines, loc, 0) or None,
                         step=step, step_text=text)
