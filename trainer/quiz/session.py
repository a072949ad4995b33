"""One learner's quiz in one browser tab: the item shown, the answer given, the slider, the
chosen bank, and the guards that keep a click from counting twice or for the wrong item.

Why plain Python on a mapping: the page is a script that Streamlit reruns on every click, and
the clicks' callbacks run at the start of the next rerun, possibly after the page has already
moved on (a double click, a slow network). Every rule about what a click may still do lives
here, on a `MutableMapping` (Streamlit's session state in the app, a dict in the tests), so
it can be tested click by click without a browser or Streamlit. The answers go to the
learner's `History` and its store, handed in by the page.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping, MutableMapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from trainer.i18n import tr
from trainer.learners.answers import Answer
from trainer.learners.history import History
from trainer.learners.storage import AnswerStore
from trainer.quiz.bank import Bank, Item, user_bank_dir
from trainer.quiz.drills import ALL_RULE_SETS, DEFAULT_RULE_SET, pick
from trainer.quiz.feedback import AnswerError, grade, new_answer_id
from trainer.quiz.review import DueSummary, cards, due_summary
from trainer.quiz.solved import Solved

# The keys a quiz keeps in the state. quiz_mode, quiz_theme, quiz_bank and quiz_p are
# also the keys of the page's widgets, so a widget and the session read the same value.
# the item shown: {"item", "bank", "answer_id", "shown", "why"}; why is drills.Pick's reason,
# or "retry" when the learner asked to see it again
CURRENT = "quiz_current"
ANSWER = "quiz_answer"  # the answer to the item shown, once graded
ERROR = "quiz_error"  # why the last answer could not be taken
STATED = "quiz_p"  # the slider: the stated chance of a bluff, in percent
MODE = "quiz_mode"
THEME = "quiz_theme"
RULE_SET = "quiz_rule_set"  # the base game until the learner chooses another
BANK = "quiz_bank"
LOOKED = "quiz_looked"  # the answer whose grade was brought into view
SEEN = "quiz_seen"  # the showing whose top was brought into view
NEW_BANK = "quiz_new_bank"  # a bank built in the app, selected at the start of the next run
BUILD = "build_requested"

START_P = 50
BUILD_ROLLOUTS = 400  # per option: about a second per item, so a learner can wait for it
# From this many items a build in the app runs on Ray over the machine's cores; a smaller one
# runs in this process. Why: on two cores 5 items took 4 s in this process and 11 s on Ray,
# whose start-up (about 7 s, and its own processes' CPU) costs more than a second core saves
# until some 35 items (at about 0.4 s an item).
RAY_FROM_ITEMS = 40


def build_jobs(count: int) -> int:
    """The processes a build of `count` items in the app asks for: one (this process) below
    `RAY_FROM_ITEMS`, where Ray's start-up outweighs a second core, else one per core."""
    return (os.cpu_count() or 1) if count >= RAY_FROM_ITEMS else 1


class QuizSession:
    """The quiz's state machine over `state`. Made anew on every rerun; all it knows between
    reruns is in `state`, so its methods can serve as the page's click callbacks."""

    def __init__(self, state: MutableMapping[str, Any], history: History,
                 store: AnswerStore | None, *, rng: random.Random | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.state = state
        self.history = history
        self.store = store
        self.rng = rng
        self.clock = clock

    # ------------------------------------------------------------------------ reading
    @property
    def mode(self) -> str:
        return str(self.state.get(MODE) or "mixed")

    @property
    def rule_set(self) -> str:
        return str(self.state.get(RULE_SET) or DEFAULT_RULE_SET)

    @property
    def current(self) -> dict[str, Any] | None:
        current: dict[str, Any] | None = self.state.get(CURRENT)
        return current

    @property
    def showing(self) -> str:
        """The answer id of this showing of the item: what a click on it carries."""
        return str((self.current or {}).get("answer_id", ""))

    @property
    def error(self) -> str | None:
        error: str | None = self.state.get(ERROR)
        return error

    @property
    def now(self) -> datetime:
        """The session's clock as a UTC time: what the schedule of reviews is read against."""
        return datetime.fromtimestamp(self.clock(), UTC)

    @property
    def why(self) -> str:
        """Why the item shown was drawn (drills.Pick's reason, or "retry")."""
        return str((self.current or {}).get("why", "new"))

    def due(self, bank: Bank) -> DueSummary:
        """The learner's mistakes in this bank and rule set due for review now, and when the
        next one is."""
        ids = [i.id for i in bank.items if self.rule_set in (ALL_RULE_SETS, i.variant)]
        return due_summary(cards(self.history.answers, bank.version), ids, self.now)

    def answer(self) -> Answer | None:
        """The answer to the item now shown; one kept from an earlier showing is not it."""
        answer: Answer | None = self.state.get(ANSWER)
        current = self.current
        if answer is None or current is None or answer.answer_id != current.get("answer_id"):
            return None
        return answer

    # ------------------------------------------------------------------------ the bank
    def choose_bank(self, available: Mapping[str, Path]) -> str:
        """The bank to ask from: a bank just built, else the learner's choice, else the
        shipped default. Written back to the bank picker's key; a new bank drops the item
        shown, which belongs to the old one."""
        if self.state.get(NEW_BANK) in available:
            self.state[BANK] = self.state.pop(NEW_BANK)
            self.forget_item()
        chosen = self.state.get(BANK)
        name = str(chosen) if chosen in available else (
            "default" if "default" in available else next(iter(available)))
        self.state[BANK] = name
        return name

    def request_build(self) -> None:
        self.state[BUILD] = True

    def build_requested(self) -> bool:
        """True once per click on Build: the build runs in the page's own run (it draws a
        progress bar), not in the click's callback."""
        return bool(self.state.pop(BUILD, False))

    def build_bank(self, count: int, seed: int,
                   progress: Callable[[int, int], None] | None = None) -> tuple[Path, int]:
        """Build a bank of `count` new items from bot games into the user's bank folder, and
        select it for the next run. The path and the number of items built.

        Written by the command line's writer (`bankfile.write_bank`), resumably: Build again
        after a server restart picks up the items already graded. A large build runs on Ray
        over this machine's cores when Ray is installed (the `batch` extra), else, like a small
        one, in this process, one item after another (`build_jobs`)."""
        from trainer.quiz.bankfile import write_bank  # slow to import: on demand
        from trainer.quiz.building import persona_tasks

        tasks = list(persona_tasks(count, seed=seed))
        path = user_bank_dir() / f"bank-s{seed}-n{count}.jsonl"
        bank = write_bank(tasks, path, header={"seed": seed, "rollouts": BUILD_ROLLOUTS},
                          rollouts=BUILD_ROLLOUTS, resume=True, jobs=build_jobs(count),
                          progress=progress)
        self.state[NEW_BANK] = path.stem
        return path, len(bank.items)

    # ------------------------------------------------------------------------ the item
    def forget_item(self) -> None:
        """Drop the item shown (the drill, theme, bank or learner changed): the next run
        draws a new one."""
        self.state.pop(CURRENT, None)

    def item_shown(self, bank: Bank) -> Item | None:
        """The item to show from `bank`: the current one while it belongs to this bank, else
        a new one. None when no item matches the drill."""
        current = self.current
        item = None if current is None or current.get("bank") != bank.version else (
            bank.get(current["item"]))
        if item is None:
            self.show_next(bank)
            current = self.current
            item = None if current is None else bank.get(current["item"])
        return item

    def show_next(self, bank: Bank, exclude: str | None = None,
                  showing: str | None = None) -> None:
        """Show a new item (not `exclude`, the one just answered, when there is another).
        `showing` is the answer id of the item whose button was clicked: a second click that
        reaches the server after the page has moved on must not skip the item now shown."""
        current = self.current
        if showing is not None and current is not None and current.get("answer_id") != showing:
            return
        chosen = pick(bank, self.mode, self.history.answers, self.rng or random.Random(),
                      theme=self.state.get(THEME), exclude=exclude, rule_set=self.rule_set,
                      now=self.now)
        self._show(bank, None if chosen is None else chosen.item.id,
                   None if chosen is None else chosen.why)

    def retry(self, bank: Bank, showing: str) -> None:
        """Show the item just answered once more (the learner asked: the only way to see an
        item twice in a day while others are left). Same guard as `show_next`."""
        current = self.current
        if current is None or current.get("answer_id") != showing:
            return
        self._show(bank, str(current["item"]), "retry")

    def can_retry(self) -> bool:
        """A retry is offered in the mistakes drill: replaying a missed item is its point."""
        return self.mode == "mistakes" and self.current is not None

    def _show(self, bank: Bank, item_id: str | None, why: str | None) -> None:
        self.state[CURRENT] = None if item_id is None else {
            "item": item_id, "bank": bank.version, "answer_id": new_answer_id(),
            "shown": self.clock(), "why": why,
        }
        self.state.pop(ANSWER, None)
        self.state.pop(ERROR, None)
        self.state[STATED] = START_P

    def first_look(self, answer_id: str) -> bool:
        """True on the first run that shows this answer's grade (to scroll to it once, not on
        every later rerun of the same page)."""
        if self.state.get(LOOKED) == answer_id:
            return False
        self.state[LOOKED] = answer_id
        return True

    def first_sight(self, showing: str) -> bool:
        """True on the first run that shows this showing of an item (to bring its top into
        view once: after "Next item" the page would stay scrolled down where the last
        grade was, the new item's top out of sight)."""
        if self.state.get(SEEN) == showing:
            return False
        self.state[SEEN] = showing
        return True

    # ------------------------------------------------------------------------ answering
    def nudge(self, delta: int) -> None:
        """Move the stated chance by `delta` points, within 1–99%."""
        self.state[STATED] = min(99, max(1, self.state.get(STATED, START_P) + delta))

    def submit(self, item: Item, bank: Bank, label: str, showing: str,
               solved: Solved | None = None) -> None:
        """Grade the option `label` for the item shown as `showing` and save the answer once
        (by `solved`, the item's exact end-game grade, when it has one). A click meant for an
        item no longer shown is ignored; a second click on the same showing is neither
        graded nor saved again; an answer the item cannot take leaves an error message
        instead."""
        current = self.current or {}
        if current.get("answer_id") != showing:
            return
        done: Answer | None = self.state.get(ANSWER)
        if done is not None and done.answer_id == showing:
            return
        stated = self.state.get(STATED, START_P) / 100 if item.has_claim else None
        now = self.clock()
        try:
            answer = grade(item, action=label, stated=stated, learner=self.history.learner,
                           bank=bank.version, answer_id=showing, mode=self.mode,
                           seconds=now - current.get("shown", now), solved=solved)
        except (AnswerError, KeyError, ValueError) as e:
            self.state[ERROR] = tr("That answer could not be taken: {error}", error=e)
            return
        # The session's clock stamps the answer: the review schedule is read on the same clock.
        answer = answer.model_copy(update={"answered_at": datetime.fromtimestamp(now, UTC)})
        self.history.add(self.store, answer)
        self.state[ANSWER] = answer
