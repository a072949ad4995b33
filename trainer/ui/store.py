"""The answers' database, shared by every browser tab of the server, and this tab's keeper of a
learner's answers.

Why cached here: opening a database costs a connection pool, and a dead server a timeout; one
`Connection` per URL for the whole process (see `trainer.learners.history.Connection`) pays
that once, whichever page is opened first. The URL comes from the app's secrets, else the
environment, else the SQLite file.
"""

from __future__ import annotations

import streamlit as st

from trainer.learners.history import Connection, History, configured_url, session_history
from trainer.learners.storage import Store
from trainer.ui.state import session_state


@st.cache_resource(show_spinner=False)
def _connection(url: str) -> Connection:
    return Connection(url)


def database() -> tuple[Store | None, str | None]:
    """The shared store, or None and why it cannot be reached."""
    return _connection(configured_url(lambda: st.secrets.to_dict())).get()


def learner_history(learner: str) -> tuple[History, Store | None]:
    """This tab's answers of `learner` (read from the database once per tab, then kept), and
    the store that new answers, imports and deletions go to."""
    db, error = database()
    return session_history(session_state(), learner, db, error), db
