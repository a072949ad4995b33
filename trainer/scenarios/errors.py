"""The one error type of the scenario checker: a problem located by file, line and step.

Why its own module: the loader, the replayer and the checkpoints all raise it, and callers (the
Learn page, the command line, the question bank) catch only this.
"""

from __future__ import annotations

from typing import Any

from trainer.engine.errors import CoupError
from trainer.scenarios.schema import Scenario
from trainer.scenarios.yaml_lines import Loc, line_of


class ScenarioError(CoupError):
    """One problem in a scenario file, located as precisely as we can.

    `str(error)` is the whole message: ``path:line: step N ("move text"): what is wrong``.
    `step` is 1-based; `line` and `step` are None when they do not apply.
    """

    def __init__(self, message: str, *, path: str = "<scenario>", line: int | None = None,
                 step: int | None = None, step_text: str | None = None) -> None:
        super().__init__(message)
        self.message = message
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

    def __reduce__(self) -> Any:
        return (_rebuild_error, (self.message, self.path, self.line, self.step, self.step_text))


def _rebuild_error(message: str, path: str, line: int | None, step: int | None,
                   step_text: str | None) -> ScenarioError:
    return ScenarioError(message, path=path, line=line, step=step, step_text=step_text)


def error_at(scenario: Scenario, loc: Loc, message: str) -> ScenarioError:
    """An error at `loc`; a loc under ("steps", i) names the step and its move."""
    step = text = None
    if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
        step, text = loc[1] + 1, scenario.steps[loc[1]].text
    return ScenarioError(message, path=scenario.path, line=line_of(scenario._lines, loc, 0) or None,
                         step=step, step_text=text)
