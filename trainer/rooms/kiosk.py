"""The shop-window kiosk: the loop of slides it plays, the time each slide stays up, and the
one-decision station a visitor opens with "Try it".

Why plain Python: the loop must run for days without a hand on it, and the station must give
the screen back to the loop when a visitor walks away. Every rule of that (which slide is up
at a given moment, when its answer is revealed, when the station has been idle long enough)
is a function of the clock, handed in, so it is tested without a browser and without waiting.
The kiosk state lives in a `MutableMapping` (Streamlit's session state in the app, a dict in
the tests), as the Learn and Quiz sessions do.

A kiosk is a shared screen: nothing here reaches a learner's history or the database.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlencode

from trainer.learners.answers import Answer
from trainer.quiz.bank import Bank, Item
from trainer.quiz.feedback import grade, new_answer_id
from trainer.quiz.solved import Solved, SolvedGrades
from trainer.scenarios.lesson_session import LESSON, STEP
from trainer.scenarios.lessons import Lesson, Library
from trainer.scenarios.screens import screens
from trainer.verdicts.kinds import DecisionKind

# The Learn page's address (its url_path in streamlit_app.py): a lesson's QR opens it there.
LEARN_PATH = "learn"
# The rule set a passer-by meets: the base game's five characters, nothing else.
RULE_SET = "base"
# At most this many screens of one lesson in a row: a little story, then something else.
STORY_SCREENS = 6
# Seconds a slide stays up. A slide that asks something (a lesson's question, a decision)
# shows the question alone first, then the answer under it.
WATCH_SECONDS = 9.0
ASK_SECONDS = {"lesson": 4.0, "decision": 6.0}
ANSWER_SECONDS = {"lesson": 7.0, "decision": 10.0}
# How often the loop looks at the clock; the slide times above are multiples of it, so no
# slide stays up longer than its time.
TICK_SECONDS = 1.0
# The station gives the screen back to the loop after this long without a touch.
IDLE_SECONDS = 60.0
# How often the station looks whether it has been left alone.
IDLE_CHECK_SECONDS = 5.0

Phase = Literal["ask", "answer"]
Mode = Literal["loop", "station"]


@dataclass(frozen=True)
class LessonSlide:
    """A screen of a lesson: `screen` numbers it as the Learn page's address does.

    `step` of `steps` counts the lesson's screens to watch or play (the whole lesson's, not
    the story's, which stops after `STORY_SCREENS`), and `place` is the lesson's place on the
    five-minute path, as the Learn page says it ("Lesson 2 of 5"), or None off the path: the
    screen then says which lesson and which step of it, never a bare "3 of 6"."""

    lesson: str
    screen: int
    step: int  # from 1
    steps: int
    asks: bool  # a question the learner answers in the lesson: shown first, then the move
    place: tuple[int, int] | None = None


@dataclass(frozen=True)
class DecisionSlide:
    """A decision from a game between bots, graded exactly by the end-game solver."""

    item: str


Slide = LessonSlide | DecisionSlide


def ask_seconds(slide: Slide) -> float:
    """How long the question stands alone before its answer shows (0: nothing is asked)."""
    if isinstance(slide, DecisionSlide):
        return ASK_SECONDS["decision"]
    return ASK_SECONDS["lesson"] if slide.asks else 0.0


def slide_seconds(slide: Slide) -> float:
    """How long the slide stays up."""
    if isinstance(slide, DecisionSlide):
        return ASK_SECONDS["decision"] + ANSWER_SECONDS["decision"]
    if slide.asks:
        return ASK_SECONDS["lesson"] + ANSWER_SECONDS["lesson"]
    return WATCH_SECONDS


# ------------------------------------------------------------------------ the playlist
def lesson_story(lesson: Lesson, place: tuple[int, int] | None = None) -> list[LessonSlide]:
    """The first screens of a lesson, in order: its questions (a lesson to play) or its
    steps from the set-up (a lesson to watch). The intro and a free game are left out: they
    need a visitor's hand. `place`: the lesson's place on the five-minute path, if on it."""
    mode = lesson.scenario.mode
    if mode not in ("play", "watch"):
        return []
    steps = [s for s in screens(lesson.run) if s.kind in ("play", "watch")]
    return [LessonSlide(lesson.id, s.number, k, len(steps), s.kind == "play", place)
            for k, s in enumerate(steps[:STORY_SCREENS], start=1)]


def path_places(library: Library) -> dict[str, tuple[int, int]]:
    """Each lesson of the five-minute path by id: its place on the path and the path's length,
    as the Learn page numbers them."""
    path = [x.id for x in library.five_minutes()]
    return {x: (k, len(path)) for k, x in enumerate(path, start=1)}


def solved_decisions(bank: Bank, grades: SolvedGrades) -> list[Item]:
    """The End-game items the solver graded where the choice matters, in the bank's order:
    settled grades only (`SolvedGrades.entry` gives no other), so a verdict the screen
    states does not hang on how far the solver looked."""
    return [i for i in bank.items if i.variant == RULE_SET
            and (s := grades.entry(i)) is not None and not s.trivial]


def build_playlist(library: Library, bank: Bank, grades: SolvedGrades,
                   seed: int = 0) -> tuple[Slide, ...]:
    """The loop: one story per base-game lesson and one solved decision after each, the
    stories and the decisions each in an order drawn from `seed` (the same seed, the same
    loop). Decisions are reused when there are fewer of them than stories; with none, the
    loop is lessons only, and with no lesson, decisions only."""
    rng = random.Random(seed)
    places = path_places(library)
    stories = [story for x in library.lessons if x.variant == RULE_SET
               if (story := lesson_story(x, places.get(x.id)))]
    decisions = [DecisionSlide(i.id) for i in solved_decisions(bank, grades)]
    rng.shuffle(stories)
    rng.shuffle(decisions)
    if not stories:
        return tuple(decisions)
    out: list[Slide] = []
    for k, story in enumerate(stories):
        out.extend(story)
        if decisions:
            out.append(decisions[k % len(decisions)])
    return tuple(out)


def lesson_link(base: str, lesson_id: str, step: int | None = None) -> str:
    """The Learn page's address for a lesson (at a screen, when `step` is given), under
    `base`: the app's absolute address, without a trailing slash."""
    params = {LESSON: lesson_id} | ({STEP: str(step)} if step is not None else {})
    return f"{base.rstrip('/')}/{LEARN_PATH}?{urlencode(params)}"


# ------------------------------------------------------------------------ the clock
@dataclass(frozen=True)
class Cursor:
    """The slide up (its index in the playlist) and the clock time it came up."""

    index: int
    since: float


def advance(cursor: Cursor, now: float, playlist: Sequence[Slide]) -> Cursor:
    """The cursor at `now`: past every slide whose time is up, round the loop as often as it
    takes (a screen left asleep for hours resumes where the clock says). A clock that went
    back starts the slide again."""
    if not playlist:
        return Cursor(0, now)
    index = cursor.index % len(playlist)
    since = cursor.since
    if now < since:
        return Cursor(index, now)
    loop = sum(slide_seconds(s) for s in playlist)
    if now - since >= loop:
        since += loop * math.floor((now - since) / loop)
    while now - since >= slide_seconds(playlist[index]):
        since += slide_seconds(playlist[index])
        index = (index + 1) % len(playlist)
    return Cursor(index, since)


def phase(cursor: Cursor, now: float, playlist: Sequence[Slide]) -> Phase:
    """"ask" while the slide's question stands alone, then "answer"."""
    slide = playlist[cursor.index]
    return "ask" if now - cursor.since < ask_seconds(slide) else "answer"


# ------------------------------------------------------------------------ the station
# The decisions "Try it" prefers: ones a passer-by can follow (a claim to call or let pass,
# a block, a turn's action) at a table small enough to take in at a glance.
STATION_KINDS = (DecisionKind.CHALLENGE, DecisionKind.BLOCK, DecisionKind.BLUFF)
STATION_PLAYERS = 4


def station_pool(bank: Bank) -> list[Item]:
    """The decisions "Try it" draws from: base game, from games between bots, where the
    choice matters, of the kinds and table sizes a newcomer follows best; each preference
    is dropped when nothing is left by it."""
    base = [i for i in bank.items if i.variant == RULE_SET and i.source != "lesson"]
    worth = [i for i in base if not i.trivial] or base
    plain = [i for i in worth if i.kind in STATION_KINDS and i.players <= STATION_PLAYERS]
    return plain or worth


# The keys the kiosk keeps in the state.
MODE = "kiosk_mode"
CURSOR = "kiosk_cursor"
ITEM = "kiosk_item"  # the item the station shows
ANSWER = "kiosk_answer"  # its answer, graded, never saved
STATED = "kiosk_p"  # the slider: the stated chance of a bluff, in percent
TOUCHED = "kiosk_touched"  # the clock time of the station's last input
TRIES = "kiosk_tries"
START_P = 50


class Kiosk:
    """The kiosk's state machine over `state`, made anew on every rerun; its methods serve
    as the page's click callbacks. `clock` gives the time in seconds."""

    def __init__(self, state: MutableMapping[str, Any], clock: Callable[[], float]) -> None:
        self.state = state
        self.clock = clock

    @property
    def mode(self) -> Mode:
        return "station" if self.state.get(MODE) == "station" else "loop"

    def cursor(self, playlist: Sequence[Slide]) -> tuple[Cursor, Phase]:
        """The slide up now and its phase; the first call starts the loop."""
        now = self.clock()
        kept = self.state.get(CURSOR)
        cursor = advance(kept if isinstance(kept, Cursor) else Cursor(0, now), now, playlist)
        self.state[CURSOR] = cursor
        return cursor, phase(cursor, now, playlist) if playlist else "answer"

    # -- the station
    def try_it(self, pool: Sequence[Item]) -> None:
        """Open the station on a decision drawn from `pool`, never the one just shown."""
        tries = int(self.state.get(TRIES, 0)) + 1
        rng = random.Random(f"{self.clock()}:{tries}")
        last = self.state.get(ITEM)
        choices = [i for i in pool if i.id != last] or list(pool)
        if not choices:
            return
        self.state.update({MODE: "station", ITEM: rng.choice(choices).id, TRIES: tries,
                           STATED: START_P})
        self.state.pop(ANSWER, None)
        self.touch()

    def item_id(self) -> str | None:
        item: str | None = self.state.get(ITEM)
        return item

    def touch(self) -> None:
        """Someone used the station: the idle time starts again."""
        self.state[TOUCHED] = self.clock()

    def answer(self) -> Answer | None:
        """The graded answer to the decision shown, if given."""
        answer: Answer | None = self.state.get(ANSWER)
        return answer if answer is not None and answer.item_id == self.item_id() else None

    def submit(self, item: Item, bank_version: str, label: str, solved: Solved | None) -> None:
        """Grade `label` (with the slider's chance of a bluff on a claim) as the Quiz grades
        it; kept in this tab only. A click on an item no longer shown counts for nothing."""
        self.touch()
        if item.id != self.item_id() or self.answer() is not None:
            return
        stated = int(self.state.get(STATED, START_P)) / 100 if item.has_claim else None
        self.state[ANSWER] = grade(item, action=label, stated=stated, learner="kiosk",
                                   bank=bank_version, answer_id=new_answer_id(), mode="kiosk",
                                   solved=solved)

    def nudge(self, delta: int) -> None:
        """Move the slider by `delta` points, within 1%–99%."""
        self.touch()
        self.state[STATED] = min(99, max(1, int(self.state.get(STATED, START_P)) + delta))

    def back_to_loop(self) -> None:
        """The loop again, where its clock has got to meanwhile (it ran on unseen)."""
        self.state[MODE] = "loop"
        self.state.pop(ANSWER, None)

    def idle(self) -> bool:
        """The station has been left alone for IDLE_SECONDS."""
        touched = self.state.get(TOUCHED)
        return (self.mode == "station" and isinstance(touched, int | float)
                and self.clock() - touched >= IDLE_SECONDS)
