"""How long the five-minute path takes, modelled from the lesson files, and what the learner
does on it.

The model (documented in the README, checked by tests/test_path_model.py):
- a learner reads every word on a screen at 200 words a minute: the lesson's title and summary
  on its first screen, the intro, the narrations, the question, every answer button's label,
  the feedback on the right answer, the goal and hint of the practice game and the bots' moves;
- each click or key press takes 2 seconds: the scripted answer and Next on a question screen,
  Next on an intro, one answer per decision of the practice game (along its winning line) and
  Next once it is won, and the Start button;
- wrong answers are not modelled (the scripted answers are).

Why count from the files: the path is edited as YAML by teachers; a test recomputes the model
on every change, so a lesson that grows past the budget fails before it reaches a learner.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from trainer.engine.cards import Action, Character
from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.i18n import DEFAULT, use_language
from trainer.scenarios.lesson_game import line_moves, practice
from trainer.scenarios.lessons import Lesson, Library
from trainer.scenarios.replay import replay
from trainer.scenarios.screens import screens
from trainer.views.lesson_text import (
    bot_moves,
    game_over,
    lesson_complete,
    right,
    your_question,
)
from trainer.views.move_labels import your_move
from trainer.views.table_art import role_lines

WORDS_PER_MINUTE = 200
SECONDS_PER_CLICK = 2.0
START_CLICKS = 1  # the "Start" button on the Learn page


@dataclass(frozen=True)
class ScreenCost:
    lesson: str
    screen: str  # "intro", "1", "2", ... or "game 1", "game 2", ..., "game won"
    words: int
    clicks: int
    text: str  # everything counted, for a reader checking the count

    @property
    def seconds(self) -> float:
        return self.words / WORDS_PER_MINUTE * 60 + self.clicks * SECONDS_PER_CLICK


@dataclass(frozen=True)
class PathModel:
    screens: tuple[ScreenCost, ...]
    actions: frozenset[Action]  # done by the learner, on a question screen or in the game
    characters: frozenset[Character]  # claimed by the learner (an action or a block)

    @property
    def words(self) -> int:
        return sum(s.words for s in self.screens)

    @property
    def clicks(self) -> int:
        return START_CLICKS + sum(s.clicks for s in self.screens)

    @property
    def seconds(self) -> float:
        return self.words / WORDS_PER_MINUTE * 60 + self.clicks * SECONDS_PER_CLICK

    @property
    def most_words(self) -> ScreenCost:
        return max(self.screens, key=lambda s: s.words)

    def minutes_text(self) -> str:
        return clock(self.seconds)


def clock(seconds: float) -> str:
    """Seconds as m:ss, the way the README and the page say a time."""
    m, s = divmod(round(seconds), 60)
    return f"{m}:{s:02d}"


def summary(model: PathModel) -> str:
    """The sentence the README quotes (a test keeps the two equal)."""
    lessons = len(dict.fromkeys(s.lesson for s in model.screens))
    return (f"{lessons} lessons, {len(model.screens)} screens, {model.words} words and "
            f"{model.clicks} clicks: {model.minutes_text()} modelled, at most "
            f"{model.most_words.words} words on a screen.")


def count_words(*texts: str) -> int:
    """Words as a reader sees them: Markdown marks and bullets are not words."""
    return sum(1 for t in texts for w in t.split() if any(ch.isalnum() for ch in w))


def path_model(path: Sequence[Lesson]) -> PathModel:
    """The model over the lessons of the path, in order (of the English words: the lesson
    files' and the page's, whoever asks; the model is cached once for every reader)."""
    costs: list[ScreenCost] = []
    done: list[tuple[Game, Move]] = []
    with use_language(DEFAULT):
        for lesson in path:
            costs += _lesson_costs(lesson, done)
    actions = frozenset(m.action for _, m in done
                        if m.kind is MoveKind.ACT and m.action is not None)
    characters = frozenset(c for g, m in done if (c := _claimed(g, m)) is not None)
    return PathModel(tuple(costs), actions, characters)


def lesson_seconds(library: Library) -> dict[str, float]:
    """Every lesson's modelled time on its own (its first screen shows its title), in
    English words as `path_model`."""
    out = {}
    with use_language(DEFAULT):
        for lesson in library.lessons:
            costs = _lesson_costs(lesson, [])
            out[lesson.id] = sum(c.seconds for c in costs)
    return out


def _claimed(game: Game, move: Move) -> Character | None:
    if move.kind is MoveKind.BLOCK:
        return move.character
    if move.kind is MoveKind.ACT:
        spec = next((s for s in game.variant.actions if s.action is move.action), None)
        return spec.claim if spec is not None and not spec.inverted else None
    return None


def _lesson_costs(lesson: Lesson, done: list[tuple[Game, Move]]) -> list[ScreenCost]:
    s = lesson.scenario
    heading = [s.title, s.summary]
    out: list[ScreenCost] = []
    for screen in screens(lesson.run):
        texts: list[str] = []
        if not out:
            texts += heading
        if screen.kind == "intro":
            assert s.intro is not None
            texts.append(s.intro.text)
            roles = role_lines(s.setup.variant)
            for card in s.intro.cards:
                texts += [str(card), *roles[str(card)]]
            out.append(_cost(lesson.id, "intro", texts, 1))
            continue
        texts += screen.before
        clicks = 1
        if screen.prompt is not None:
            game = replay(s, screen.shown if screen.kind == "play" else screen.number)
            texts.append(screen.prompt.question)
            texts += [your_move(game, o.move) for o in screen.prompt.options]
            texts.append(right(screen.prompt))
            done.append((game, screen.prompt.correct.move))
            clicks = 2
        texts += screen.after
        if screen.number == screens(lesson.run)[-1].number and s.mode != "game":
            texts.append(lesson_complete(""))
        out.append(_cost(lesson.id, str(screen.number), texts, clicks))
    if s.mode == "game":
        out += _game_costs(lesson, heading if not out else [], done)
    return out


def _game_costs(lesson: Lesson, heading: list[str], done: list[tuple[Game, Move]]
                ) -> list[ScreenCost]:
    s = lesson.scenario
    assert s.practice is not None
    line = line_moves(s)
    out: list[ScreenCost] = []
    for j in range(len(line) + 1):
        state = practice(s, line[:j])
        texts = [*heading, s.practice.goal, s.practice.hint or ""] if j == 0 else []
        texts.append(bot_moves(state.game, state.bot_moves, state.bot_phases))
        if j < len(line):
            texts.append(your_question(state.game, state.learner))
            texts += [your_move(state.game, m) for m in state.legal]
            done.append((state.game, line[j]))
            out.append(_cost(lesson.id, f"game {j + 1}", texts, 1))
        else:
            texts.append(game_over(state.game, state.learner))
            out.append(_cost(lesson.id, "game won", texts, 1))
    return out


def _cost(lesson: str, screen: str, texts: list[str], clicks: int) -> ScreenCost:
    return ScreenCost(lesson, screen, count_words(*texts), clicks,
                      " | ".join(t for t in texts if t))


# ------------------------------------------------------------ the path as a browser shows it
@dataclass(frozen=True)
class Shown:
    """One state of a screen as the browser drew it: the screen it belongs to (a question
    screen has two states, before and after the answer), every line of text on the page, and
    the clicks or key presses that led to it."""

    screen: str
    text: str
    clicks: int


@dataclass(frozen=True)
class ScreenRead:
    screen: str
    new_words: int
    clicks: int
    new_text: str  # the words counted, for a reader checking the count

    @property
    def seconds(self) -> float:
        return self.new_words / WORDS_PER_MINUTE * 60 + self.clicks * SECONDS_PER_CLICK


@dataclass(frozen=True)
class RenderedPath:
    """The path timed from what the browser showed: each state's words that were not on
    the state before are read, at 200 words a minute, and each click or key press costs 2
    seconds."""

    screens: tuple[ScreenRead, ...]

    @property
    def words(self) -> int:
        return sum(s.new_words for s in self.screens)

    @property
    def clicks(self) -> int:
        return sum(s.clicks for s in self.screens)

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self.screens)

    @property
    def most_new(self) -> ScreenRead:
        return max(self.screens, key=lambda s: s.new_words)

    def minutes_text(self) -> str:
        return clock(self.seconds)

    def summary(self) -> str:
        """The sentence the README quotes (the browser test keeps the two equal)."""
        return _read_summary(len(self.screens), self.words, self.clicks, self.minutes_text(),
                             self.most_new.new_words)


def _read_summary(screens: int, words: int, clicks: int, minutes: str, most: int) -> str:
    return (f"{screens} screens, {words} words read and {clicks} clicks: {minutes}, at most "
            f"{most} new words on a screen")


def page_words(text: str) -> list[str]:
    """The words of a page's text as a reader sees them (a key badge or an arrow is not one)."""
    return [w for w in text.split() if any(ch.isalnum() for ch in w)]


def rendered_path(states: Sequence[Shown]) -> RenderedPath:
    """Time the path from its states in order. A word is read when the page just before did
    not show it as many times (a word that stays is not read again; a coin count that changes
    is a new word); a screen's new words are those of all its states."""
    out: dict[str, tuple[int, int, list[str]]] = {}
    before: Counter[str] = Counter()
    for state in states:
        now = Counter(page_words(state.text))
        fresh = list((now - before).elements())
        words, clicks, texts = out.get(state.screen, (0, 0, []))
        out[state.screen] = (words + len(fresh), clicks + state.clicks, texts + fresh)
        before = now
    return RenderedPath(tuple(ScreenRead(k, w, c, " ".join(t))
                              for k, (w, c, t) in out.items()))


# The path as the browser test last measured it (`tests/browser/test_learn_browser.py` checks
# the file against a fresh walk, so it cannot drift from what a learner sees).
MEASURE_FILE = Path(__file__).resolve().parents[1] / "scenarios" / "path-measure.json"


@dataclass(frozen=True)
class Measured:
    """The browser's figures of the path, for the lessons they were measured on."""

    fingerprint: str
    screens: int
    words: int
    clicks: int
    seconds: float
    most_new: int

    def minutes_text(self) -> str:
        return clock(self.seconds)

    def summary(self) -> str:
        return _read_summary(self.screens, self.words, self.clicks, self.minutes_text(),
                             self.most_new)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1) + "\n"


def fingerprint(path: Sequence[Lesson]) -> str:
    """The path's lessons and their files: a measure of other lessons is not theirs."""
    h = hashlib.sha256()
    for lesson in path:
        h.update(lesson.id.encode())
        try:
            h.update(Path(lesson.scenario.path).read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()[:16]


def measured_of(path: Sequence[Lesson], rendered: RenderedPath) -> Measured:
    return Measured(fingerprint(path), len(rendered.screens), rendered.words, rendered.clicks,
                    round(rendered.seconds, 1), rendered.most_new.new_words)


def stored_measure(path: Sequence[Lesson], file: Path = MEASURE_FILE) -> Measured | None:
    """The browser's last measure of these lessons; None when the lessons are not the ones
    measured (a teacher's own folder, or a lesson edited since) or the file is unreadable."""
    try:
        data = json.loads(file.read_text())
        found = Measured(**data)
    except (OSError, ValueError, TypeError):
        return None
    return found if found.fingerprint == fingerprint(path) else None
