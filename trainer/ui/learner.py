"""The learner at the top of the Quiz and Calibration pages: who is answering, how to change
the name or start afresh ("Not you?"), and the warnings about their answers (what the address
or the cookie held that was not used, a database that cannot be reached, saved answers that
could not be read).

Why shared: both pages must agree on who the learner is and say the same things the same way
when their answers are at risk. Who the learner is comes from `trainer.learners.identity`: the
cookie is read here, on the server, and written back by a small script in the page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from trainer.i18n import tr
from trainer.learners import identity
from trainer.learners.history import History
from trainer.learners.identity import LINK_PARAM, Note, Source, is_browser_id, resolve
from trainer.learners.names import check_name, default_name, is_old_key
from trainer.learners.storage import StorageError, Store
from trainer.ui.state import session_state
from trainer.ui.store import database, learner_history
from trainer.views import learner_text as text

SHOWN_PROBLEMS = 5  # unreadable saved answers listed; more would push the page down
NAMES = "learner_names"  # this tab's cache of display names, by key
TYPED = "new_name"  # the name typed in the box, waiting for "Use this name"
REFUSED = "name_error"  # why that name was refused
NAME_UNSAVED = "name_unsaved"  # why a name could not be saved beyond this tab


@dataclass(frozen=True)
class Learner:
    key: str  # what the answers are saved under: never shown
    name: str  # what the page calls the learner
    source: Source
    notes: tuple[Note, ...]  # what the address or the cookie held that was not used
    history: History
    store: Store | None  # where new answers go; None when the database cannot be reached


def _known(db: Store | None) -> Callable[[str], bool]:
    def known(key: str) -> bool:
        if db is None:
            return False
        try:
            return db.known(key)
        except StorageError:
            return False
    return known


def _name(key: str, db: Store | None) -> str:
    """The learner's display name, read once per tab: the chosen name, else an old key (which
    was the name), else a guest name (made at each run, in the reader's language)."""
    names = session_state().setdefault(NAMES, {})
    if key not in names:
        chosen = None
        if db is not None:
            try:
                chosen = db.name_of(key)
            except StorageError:
                chosen = None
        old = is_old_key(key) and not is_browser_id(key)
        names[key] = chosen or (key if old else None)
    return str(names[key] or default_name(key))


def current_learner() -> Learner:
    """The learner of this page view and their answers (the router keeps this browser's
    learner in its cookie: `pending_cookie`)."""
    db, _ = database()
    cookie = st.context.cookies.get(identity.COOKIE)
    link = st.query_params.get(LINK_PARAM)
    found = resolve(session_state(), cookie, link, _known(db))
    history, store = learner_history(found.key)
    return Learner(found.key, _name(found.key, db), found.source, found.notes, history, store)


def pending_cookie() -> str | None:
    """The learner id this browser's cookie must be set to, when the browser sent another or
    none. Called by the router on every page, so a visitor is remembered from the first."""
    return identity.cookie_due(session_state(), st.context.cookies.get(identity.COOKIE))


def _rename(key: str) -> None:
    state = session_state()
    try:
        name = check_name(str(state.get(TYPED) or ""))
    except ValueError as e:
        state[REFUSED] = str(e)
        return
    state.pop(REFUSED, None)
    state.pop(NAME_UNSAVED, None)
    state.setdefault(NAMES, {})[key] = name
    db, _ = database()
    try:
        if db is not None:
            db.set_name(key, name)
    except StorageError as e:
        logging.getLogger(__name__).warning("%s", e)
        state[NAME_UNSAVED] = e.public  # no path or URL on a page; catalogued, said with tr
    state[TYPED] = ""


def _leave(change: Callable[[MutableMapping[str, Any]], object],
           on_change: Callable[[], None] | None) -> None:
    """Switch learner: drop the link from the address (it would open its learner again) and
    let the page forget what it drew for the previous learner."""
    change(session_state())
    st.query_params.pop(LINK_PARAM, None)
    if on_change is not None:
        on_change()


def learner_box(container: DeltaGenerator, me: Learner,
                on_change: Callable[[], None] | None = None) -> None:
    """Who is answering, with "Your name" and "Not you?" (or the way back from a link's
    learner). `on_change` runs when the learner changes (the quiz draws a new item)."""
    with container, st.container(horizontal=True, vertical_alignment="center",
                                 key="learner_actions"):
        st.caption(text.answering_as(me.name, me.source), width="content")
        if me.source == "room":
            return
        if me.source == "link":
            st.button(tr(text.OWN_LEARNER), key="own_learner", icon=":material/person:",
                      on_click=_leave, args=(identity.back_to_own, on_change))
            return
        with st.popover(tr(text.NAME_LABEL), icon=":material/badge:"):
            st.text_input(tr("Name"), key=TYPED, max_chars=text.MAX_NAME_CHARS,
                          placeholder=me.name, help=text.name_help())
            st.button(tr("Use this name"), key="use_name", on_click=_rename, args=(me.key,))
            st.caption(tr(text.NAME_CAPTION))
            if st.session_state.get(REFUSED):
                st.error(st.session_state[REFUSED], icon=":material/badge:")
        with st.popover(tr(text.NOT_YOU), icon=":material/switch_account:"):
            st.markdown(text.not_you_text(me.name))
            st.button(tr(text.NEW_LEARNER), key="new_learner", icon=":material/person_add:",
                      on_click=_leave, args=(identity.start_new, on_change))
    with container:
        if st.session_state.get(NAME_UNSAVED):
            st.warning(tr("Your name is kept in this tab only. {why}",
                          why=tr(st.session_state[NAME_UNSAVED])), icon=":material/cloud_off:")


def learner_caption(me: Learner) -> None:
    """Whose answers a page shows, in one line (the Quiz holds the name and "Not you?")."""
    st.caption(text.answers_of(me.name, me.source))


def bad_name_warning(learner: Learner) -> None:
    """Say what the address or the cookie held that was not used, and why."""
    for note in learner.notes:
        st.warning(text.note_text(note), icon=":material/badge:")


def answers_warnings(learner: Learner) -> None:
    """Say when answers are kept in this tab only, and which saved answers were skipped."""
    history = learner.history
    if history.offline:
        st.warning(tr("Answers are kept in memory in this browser tab only. {why}",
                      why=text.offline_reason(history.offline)), icon=":material/cloud_off:")
    for problem in history.problems[:SHOWN_PROBLEMS]:
        st.warning(tr("A saved answer was skipped: {problem}", problem=problem),
                   icon=":material/report:")
