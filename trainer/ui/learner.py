"""The learner at the top of the Quiz and Calibration pages: who is answering, a box to change
the name, and the warnings about their answers (a bad name in the address, a database that
cannot be reached, saved answers that could not be read).

Why shared: both pages must agree on who the learner is and say the same things the same way
when their answers are at risk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from trainer.learners.history import History
from trainer.learners.names import REFUSED, TYPED, resolve
from trainer.learners.storage import Store
from trainer.ui.state import session_state
from trainer.ui.store import learner_history

SHOWN_PROBLEMS = 5  # unreadable saved answers listed; more would push the page down


@dataclass(frozen=True)
class Learner:
    name: str
    bad_name: str | None  # why the name in the address was refused, when it was
    history: History
    store: Store | None  # where new answers go; None when the database cannot be reached


def current_learner() -> Learner:
    """The learner of this page view (from the address, this tab, or a new guest id) and
    their answers."""
    name, bad_name = resolve(st.query_params, session_state())
    history, store = learner_history(name)
    return Learner(name, bad_name, history, store)


def name_box(container: DeltaGenerator, on_rename: Callable[[], None]) -> None:
    """The "Your name" popover: a name field and its button (`on_rename` takes the name)."""
    with container.popover("Your name", icon=":material/badge:"):
        st.text_input("Name", key=TYPED, max_chars=40,
                      help="Letters, digits, spaces, dots, dashes; up to 40.")
        st.button("Use this name", key="use_name", on_click=on_rename)
        st.caption("Answers are kept under this name: use the same name (or bookmark the page) "
                   "to find them again. Anyone who types the name sees them, so pick one of "
                   "your own.")
        if st.session_state.get(REFUSED):
            st.error(st.session_state[REFUSED], icon=":material/badge:")


def bad_name_warning(learner: Learner) -> None:
    if learner.bad_name:
        st.warning(learner.bad_name, icon=":material/badge:")


def answers_warnings(learner: Learner) -> None:
    """Say when answers are kept in this tab only, and which saved answers were skipped."""
    history = learner.history
    if history.offline:
        st.warning(f"Answers are kept in memory in this browser tab only. {history.offline}",
                   icon=":material/cloud_off:")
    for problem in history.problems[:SHOWN_PROBLEMS]:
        st.warning(f"A saved answer was skipped: {problem}", icon=":material/report:")
