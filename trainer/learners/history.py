"""A learner's answers in one browser tab: read from the database once, every new
answer written through at once, and kept in memory when the database fails.

Why a keeper of its own: each page view is a rerun of the script, and a rerun must neither
lose an answer nor count it twice. The keeper is plain data (it lives in Streamlit's per-tab
state, which must pickle), and the shared database handle is passed in on each call rather
than held, so one engine serves every tab.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from trainer.learners.answers import Answer
from trainer.learners.history_csv import ImportReport, import_csv
from trainer.learners.storage import (
    AnswerStore,
    MemoryStore,
    StorageError,
    Store,
    database_setting,
)

log = logging.getLogger(__name__)


def _said(e: StorageError) -> str:
    """What the page may say of a database failure (`e.public`: no path, no URL); the whole
    message, which names the database, goes to the server's log."""
    log.warning("%s", e)
    return e.public


@dataclass
class History:
    learner: str
    answers: list[Answer] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # corrupted rows skipped on reading
    offline: str | None = None  # why answers are kept in memory only, when they are
    loaded: bool = False

    def load(self, store: AnswerStore | None) -> None:
        """Read the learner's saved answers, once per browser tab."""
        if self.loaded:
            return
        self.loaded = True
        if store is None:
            return
        try:
            saved, self.problems = store.answers(self.learner)
        except StorageError as e:
            self.offline = _said(e)
            return
        known = {a.answer_id for a in self.answers}
        self.answers = saved + [a for a in self.answers if a.answer_id not in known]

    def add(self, store: AnswerStore | None, answer: Answer) -> bool:
        """Save an answer; False when this answer (same id) was already counted."""
        if any(a.answer_id == answer.answer_id for a in self.answers):
            return False
        if store is not None and self.offline is None:
            try:
                store.save(answer)
            except StorageError as e:
                self.offline = _said(e)
        self.answers.append(answer)
        return True

    def import_csv(self, store: AnswerStore | None, text: str | bytes) -> ImportReport:
        """Add a CSV export's answers (as this learner), to the database when there is one,
        else to this tab's memory."""
        if store is not None and self.offline is None:
            try:
                report = import_csv(text, self.learner, store)
            except StorageError as e:
                self.offline = _said(e)
            else:
                self.replace_all(store)
                return report
        memory = MemoryStore()
        memory.save_many(self.answers)
        report = import_csv(text, self.learner, memory)
        self.answers = memory.answers(self.learner)[0]
        return report

    def forget(self, store: AnswerStore | None) -> int:
        """Delete every answer of this learner, in the database and here."""
        deleted = len(self.answers)
        if store is not None and self.offline is None:
            try:
                deleted = store.delete_learner(self.learner)
            except StorageError as e:
                self.offline = _said(e)
        self.answers = []
        self.problems = []
        return deleted

    def replace_all(self, store: AnswerStore | None) -> None:
        """Read everything again (after an import or a deletion)."""
        self.loaded = False
        self.answers = []
        self.problems = []
        self.load(store)


RETRY_SECONDS = 60.0


class Connection:
    """The database shared by every browser tab (cache one per URL): opened once; after a
    failure, tried again at most once a minute, so a dead server costs one timeout a minute
    rather than one per click."""

    def __init__(self, url: str, setting: str = "") -> None:
        self.url = url
        self.setting = setting  # where the URL came from, named if it is malformed
        self._store: Store | None = None
        self._error: str | None = None
        self._failed_at = 0.0
        self._lock = threading.Lock()

    def get(self) -> tuple[Store | None, str | None]:
        with self._lock:
            due = time.monotonic() - self._failed_at >= RETRY_SECONDS
            if self._store is None and (self._error is None or due):
                try:
                    self._store, self._error = Store(self.url, self.setting), None
                except StorageError as e:
                    self._error, self._failed_at = _said(e), time.monotonic()
            return self._store, self._error


def configured_setting(read_secrets: Callable[[], Any]) -> tuple[str, str]:
    """The database URL and the setting it came from: the app's secrets when it has any,
    then the environment, then the SQLite file. A missing or broken secrets file only means
    "look further"."""
    try:
        secrets = read_secrets()
    except Exception:  # noqa: BLE001  (st.secrets raises its own errors without a file)
        secrets = None
    return database_setting(secrets)


def session_history(state: MutableMapping[str, Any], learner: str, store: AnswerStore | None,
                    error: str | None) -> History:
    """This tab's keeper for `learner` (a new one when the learner changed), loaded, and
    marked offline when the database could not be opened."""
    h = state.get("history")
    if not isinstance(h, History) or h.learner != learner:
        h = History(learner)
        state["history"] = h
    if error is not None and h.offline is None:
        h.offline = error
    h.load(None if h.offline else store)
    return h
