"""The lesson library: every scenario file checked and replayed, the broken ones kept aside with
their message, the recommended order, and the "Learn Coup in five minutes" path.

Why here and not in the page: the library is plain data (picklable, cached once per process),
and the same checks run in the CLI, in the tests and behind the Learn page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from trainer.engine.errors import CoupError
from trainer.engine.variants import parse_rules, title_words
from trainer.i18n import DEFAULT, N_, use_language
from trainer.i18n.said import as_said, said
from trainer.scenarios.errors import ScenarioError
from trainer.scenarios.lesson_game import check_practice
from trainer.scenarios.loader import load_scenario
from trainer.scenarios.replay import ScenarioRun, run_scenario
from trainer.scenarios.schema import Scenario

# The guided path for a newcomer, in order: the goal, coins and the Coup (forced at 10 coins);
# the deck and its five characters; challenges won and lost; blocks, and a block proven when
# challenged; a first game from the deal against a gentle bot. The rulebook's example game
# follows it as a game to watch.
FIVE_MINUTES: tuple[str, ...] = (
    "learn-coins",
    "learn-characters",
    "learn-challenges",
    "learn-blocks",
    "learn-first-game",
)
WATCH_NEXT = "rulebook-example-play"
# After the path: rules questions on a position no lesson showed, to see what was learned (the
# learner's first try at each is their score).
CHECK = "learn-check"


@dataclass(frozen=True)
class Lesson:
    """A scenario that replays cleanly, with what the library shows about it."""

    scenario: Scenario
    run: ScenarioRun

    @property
    def id(self) -> str:
        return self.scenario.id

    @property
    def title(self) -> str:
        return self.scenario.title

    @property
    def variant(self) -> str:
        return self.scenario.setup.variant

    @property
    def variant_title(self) -> str:
        """The rule set's title in the reader's language."""
        return title_words(parse_rules(self.variant).variant)

    @property
    def steps(self) -> int:
        return len(self.scenario.steps)

    @property
    def prompts(self) -> int:
        return sum(1 for s in self.scenario.steps if s.prompt is not None)


@dataclass(frozen=True)
class BrokenLesson:
    """A scenario file that does not load or replay; the message names the file and line
    (in English, as the library is checked once for every reader); `error`, the checker's
    own, says it again in the reader's language (`words`)."""

    path: str
    message: str
    error: ScenarioError | None = None

    def words(self, shown_path: str | None = None) -> str:
        """What is wrong, in the reader's language; `shown_path` names the file instead of
        its full path (a page never shows a server's folders: the file's name is enough for
        the teacher who keeps the folder)."""
        if self.error is None:
            return self.message if shown_path is None else \
                self.message.replace(self.path, shown_path)
        return self.error.words(shown_path)

    @property
    def file_name(self) -> str:
        return Path(self.path).name


@dataclass(frozen=True)
class Library:
    lessons: tuple[Lesson, ...]
    broken: tuple[BrokenLesson, ...]

    def get(self, lesson_id: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons if lesson.id == lesson_id), None)

    def variants(self) -> list[str]:
        """The variants that have lessons, in the library's order."""
        return list(dict.fromkeys(lesson.variant for lesson in self.lessons))

    def five_minutes(self) -> list[Lesson]:
        """The guided path, skipping any lesson that is missing or broken."""
        return [lesson for lesson in (self.get(i) for i in FIVE_MINUTES) if lesson is not None]

    def check(self) -> Lesson | None:
        """The "check yourself" that follows the path, if it loads."""
        return self.get(CHECK)


def load_library(directory: str | Path = "scenarios") -> Library:
    """Every lesson in `directory`, replayed; one broken file never hides the others.

    A rule case (`mode: rule`) is checked like any scenario but is not a lesson: it pins a
    rule down for `python -m trainer check` and has no story to show, so it is left out."""
    with use_language(DEFAULT):  # the library is plain data, the same for every reader
        return _load_library(Path(directory))


def _load_library(directory: Path) -> Library:
    lessons: list[Lesson] = []
    broken: list[BrokenLesson] = []
    for path in sorted(directory.glob("*.yaml")):
        try:
            scenario = load_scenario(path)
            if scenario.mode == "rule":
                continue
            run = run_scenario(scenario)
            check_practice(scenario)
            lessons.append(Lesson(scenario, run))
        except ScenarioError as e:
            broken.append(BrokenLesson(str(path), str(e), e))
        except CoupError as e:  # an engine refusal the checker did not word: still contained
            # (the engine's reason is made in English here, the library's language: data)
            error = ScenarioError(said(N_("the engine refused this lesson: {reason} (the checker "
                                          "does not explain this case yet; please report it)"),
                                       reason=as_said(str(e))), path=str(path))
            broken.append(BrokenLesson(str(path), str(error), error))
    lessons.sort(key=lambda x: (x.scenario.order is None, x.scenario.order or 0, x.title))
    return Library(tuple(lessons), tuple(broken))


@dataclass
class Progress:
    """A learner's progress in this browser tab: lessons finished and every answer to a prompt.

    Kept in Streamlit's session state (plain data); stars reward prompts answered right at
    the first try."""

    done: set[str] = field(default_factory=set)
    answers: dict[tuple[str, int], list[bool]] = field(default_factory=dict)

    def answer(self, lesson_id: str, step: int, correct: bool) -> None:
        self.answers.setdefault((lesson_id, step), []).append(correct)

    def solved(self, lesson_id: str, step: int) -> bool:
        return any(self.answers.get((lesson_id, step), ()))

    def finish(self, lesson_id: str) -> None:
        self.done.add(lesson_id)

    def finished(self, lesson_id: str) -> bool:
        return lesson_id in self.done

    def first_tries(self, lesson: Lesson) -> tuple[int, int, int]:
        """(right at the first try, answered, questions): what the learner knew before the
        lesson's explanations helped."""
        steps = [i + 1 for i, s in enumerate(lesson.scenario.steps) if s.prompt is not None]
        tried = [self.answers[(lesson.id, i)] for i in steps if (lesson.id, i) in self.answers]
        return sum(1 for a in tried if a and a[0]), len(tried), len(steps)

    def stars(self, lesson: Lesson) -> int:
        """3: every prompt right at the first try; 2: at least half; 1: finished."""
        first, _, asked = self.first_tries(lesson)
        if not asked:
            return 3
        return 3 if first == asked else 2 if 2 * first >= asked else 1

    def mark(self, lesson: Lesson) -> str:
        """What the library shows beside a lesson: ○ not finished, stars once finished."""
        if not self.finished(lesson.id):
            return "○"
        if lesson.prompts == 0:
            return "✓"
        n = self.stars(lesson)
        return "★" * n + "☆" * (3 - n)
