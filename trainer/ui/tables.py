"""What every view of a game table shares: the store on the answers' database, this server's
live tables, the cheap poll, and the links.

Why the phones' poll is cached for a quarter of a second across every tab: thirty phones
asking "has anything changed?" every second would be thirty queries a second; shared, it is
at most four a table. The screen polls twice a second and reads the database itself (one
indexed read): a move must show on the screen within a second, on every phone within a
second and a half (bench/table.py measures both).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime
from functools import partial

import streamlit as st

from trainer.i18n import tr_n
from trainer.learners.answers import now as clock_now
from trainer.tables.live import Tables
from trainer.tables.store import TableError, TableStore
from trainer.ui.links import public_base_url
from trainer.ui.store import store_beside_answers
from trainer.views import table_text

POLL_SECONDS = 1.0  # a phone's and the host's poll
SCREEN_POLL_SECONDS = 0.5
# A server plays what is due at a table at most this often, whichever of its tabs polls.
TICK_EVERY = 0.3


def table_store() -> tuple[TableStore | None, str | None]:
    """The tables, on the answers' database; None and why when it cannot be reached."""
    return store_beside_answers(TableStore, TableError)


@st.cache_resource(show_spinner=False)
def _tables(_store: TableStore, url: str) -> Tables:
    return Tables(_store)


def live_tables() -> Tables | None:
    """This server's live tables (one per server and database)."""
    store, _ = table_store()
    if store is None:
        return None
    return _tables(store, str(store.engine.url))


@st.cache_data(ttl=0.25, show_spinner=False, max_entries=1000)
def pulse(code: str) -> tuple[int, str] | None:
    """The table's version and status, at most a quarter of a second old."""
    store, _ = table_store()
    return None if store is None else store.pulse(code)


def join_link(code: str) -> str:
    return f"{public_base_url()}/room?table={code}"


def screen_link(code: str, screen: str) -> str:
    """Relative to the host's own page, so it opens on the machine that asked for it (served
    to this computer only, a LAN address would not answer); in large type, read from across
    a room (the switch at the top turns it off)."""
    return f"room?table={code}&screen={screen}&large=1"


def follow(code: str, seen: int, fresh: bool = False) -> None:
    """Polled: plays what is due at the table (a bot's move, the clock), then reruns the
    page when the table has changed. `fresh`: read the version from the database, not the
    shared quarter-second poll (the screen)."""
    tables = live_tables()
    moved = 0
    if tables is not None:
        # a damaged game is said by the page itself, which reads the table after this
        with contextlib.suppress(TableError):
            moved = tables.tick(code, every=TICK_EVERY)
    store = tables.store if tables is not None else None
    now = store.pulse(code) if fresh and store is not None else pulse(code)
    # Newer only: the shared poll may still hold a version older than the one this page was
    # drawn from; that must not redraw the page again and again.
    if moved or now is None or now[0] > seen:
        st.rerun(scope="app")


Poll = Callable[[], None]


def poll_here(poll: Poll, every: float, clock: Poll | None = None) -> None:
    """The page's one polled fragment, here: `poll` (play what is due, redraw the page on a
    change), then `clock` (a countdown, drawn afresh each run). One poll a page, placed
    where its countdown goes when there is one: a page rerun started by one poll can cross
    another poll's run, and a page left blank that way stays blank (`trainer.ui.room_screen`).
    Each page calls it exactly once."""
    st.fragment(_polled, run_every=every)(poll, clock)


def _polled(poll: Poll, clock: Poll | None) -> None:
    poll()
    if clock is not None:
        clock()


def waiting_line(deadline: datetime | None, name: str | None, question: str | None,
                 poll: Poll, every: float) -> None:
    """Whose decision it is; with the clock on, the seconds left, counted down by the page's
    poll, placed here (the page itself redraws only when the table changes)."""
    if deadline is None:
        st.html(table_text.waiting_html(name, question, None))
        poll_here(poll, every)
        return
    poll_here(poll, every, partial(_countdown, deadline, name, question))


def _countdown(deadline: datetime, name: str | None, question: str | None) -> None:
    st.html(table_text.waiting_html(name, question,
                                    table_text.seconds_left(deadline, clock_now())))


def time_left(deadline: datetime | None, poll: Poll, every: float) -> None:
    """On the phone whose decision it is: the seconds left, counted down by the page's
    poll, placed here."""
    poll_here(poll, every, None if deadline is None else partial(_left, deadline))


def _left(deadline: datetime) -> None:
    left = table_text.seconds_left(deadline, clock_now())
    st.caption(tr_n("{n} s left to decide, then the table decides for you.",
                    "{n} s left to decide, then the table decides for you.", left or 0))
