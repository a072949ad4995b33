"""The answers' database, shared by every browser tab of the server, and this tab's keeper of a
learner's answers.

Why cached here: opening a database costs a connection pool, and a dead server a timeout; one
`Connection` per URL for the whole process (see `trainer.learners.history.Connection`) pays
that once, whichever page is opened first. The URL comes from the app's secrets, else the
environment, else the SQLite file.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TypeVar, cast

import streamlit as st
from sqlalchemy.engine import Engine

from trainer.i18n import N_
from trainer.learners.history import Connection, History, configured_setting, session_history
from trainer.learners.storage import ENV_VAR, Store
from trainer.ui.state import session_state

# Catalogued (`N_`): what a page says of it goes through `tr`.
NOT_OPENED = N_("its tables could not be opened in the answers' database (the server's log says "
                "why)")
NOT_CONFIGURED = N_("no database is configured")


@st.cache_resource(show_spinner=False)
def _connection(url: str, setting: str) -> Connection:
    return Connection(url, setting)


@st.cache_resource(ttl=5, show_spinner=False)
def _setting(environment: str | None) -> tuple[str, str]:
    """The database URL and its setting, read at most every 5 s per process (and at once
    when the environment's URL changes).

    Why cached: every page run asks for the database, some several times, and without a
    secrets file `st.secrets` looks for one on disk at each asking: 2% of the server's CPU
    when a school's 150 phones poll (`bench/room.py --rooms 5`). A secrets file added or
    edited while the server runs still counts within seconds."""
    return configured_setting(lambda: st.secrets.to_dict())


def database() -> tuple[Store | None, str | None]:
    """The shared store, or None and why it cannot be reached."""
    return _connection(*_setting(os.environ.get(ENV_VAR))).get()


def learner_history(learner: str) -> tuple[History, Store | None]:
    """This tab's answers of `learner` (read from the database once per tab, then kept), and
    the store that new answers, imports and deletions go to."""
    db, error = database()
    return session_history(session_state(), learner, db, error), db


S = TypeVar("S")


@st.cache_resource(show_spinner=False)
def _beside(kind: str, url: str, _make: Callable[[Engine], object], _engine: Engine) -> object:
    return _make(_engine)


def store_beside_answers(make: Callable[[Engine], S], error: type[Exception]
                         ) -> tuple[S | None, str | None]:
    """A store of its own tables (rooms, played games) on the answers' database, made once
    per server; None and why when the database cannot be reached or `make` raises `error`."""
    db, problem = database()
    if db is None:
        return None, problem or NOT_CONFIGURED
    try:
        kind = f"{getattr(make, '__module__', '')}.{getattr(make, '__qualname__', make)}"
        return cast("S", _beside(kind, db.url_for_display, make, db.engine)), None
    except error as e:  # its words may name the database: the log has them, the page not
        logging.getLogger(__name__).warning("%s", e)
        return None, NOT_OPENED
