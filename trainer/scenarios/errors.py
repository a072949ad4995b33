"""The one error type of the scenario checker: a problem located by file, line and step.

Why its own module: the loader, the replayer and the checkpoints all raise it, and callers (the
Learn page, the command line, the question bank) catch only this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from trainer.engine.errors import CoupError
from trainer.i18n import tr
from trainer.scenarios.schema import Scenario
from trainer.scenarios.yaml_lines import Loc, line_of


@dataclass(frozen=True)
class Said:
    """A message worded where it is shown, not where it is made: the lesson library is checked
    once per process (in English, `trainer.scenarios.lessons`) and shown to readers of every
    language, so its errors keep the catalogue's key and the fields, and `words()` says them
    in the reader's language. A field may be a `Said` itself (worded in turn), a tuple of
    them (joined with " > ", a place in the file) or a function of no arguments that words
    it (`partial(title_words, variant)`). A message not `catalogued` (another
    layer's reason, already in words) is shown as it is."""

    message: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    catalogued: bool = True

    def words(self) -> str:
        """The message in the current language."""
        if not self.catalogued:
            return self.message
        return tr(self.message, **{k: _worded(v) for k, v in self.fields.items()})


def said(message: str, /, **fields: Any) -> Said:
    """A catalogued message (mark its text with `N_`) and its fields."""
    return Said(message, fields)


def _worded(value: Any) -> Any:
    if isinstance(value, Said):
        return value.words()
    if callable(value):  # words of another layer, said when shown (a rule set's title)
        return value()
    if isinstance(value, tuple) and all(isinstance(v, Said) for v in value):
        return " > ".join(v.words() for v in value)
    return value


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
        self.said = message if isinstance(message, Said) else Said(message, catalogued=False)
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

    def words(self) -> str:
        """The whole message in the current language: file, line, step and problem."""
        problem = self.said.words()
        if self.step is None:
            return (tr("{path}:{line}: {problem}", path=self.path, line=self.line,
                       problem=problem) if self.line else
                    tr("{path}: {problem}", path=self.path, problem=problem))
        if self.step_text:
            return (tr('{path}:{line}: step {step} ("{text}"): {problem}', path=self.path,
                       line=self.line, step=self.step, text=self.step_text, problem=problem)
                    if self.line else
                    tr('{path}: step {step} ("{text}"): {problem}', path=self.path,
                       step=self.step, text=self.step_text, problem=problem))
        return (tr("{path}:{line}: step {step}: {problem}", path=self.path, line=self.line,
                   step=self.step, problem=problem) if self.line else
                tr("{path}: step {step}: {problem}", path=self.path, step=self.step,
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
