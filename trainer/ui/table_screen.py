"""The shared screen of a game table: the public table, whose decision it is, the timeline;
after the game, every card turned over.

Why it reads `public_view` and nothing else: the screen is in front of everyone, so it is
built from an observation of no seat (no hand, no private event) until the game is over; and
its key (`?screen=…`) shows the table and controls nothing.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from trainer.engine.explain import variant_title
from trainer.engine.variants import parse_rules
from trainer.i18n import tr, tr_n
from trainer.tables.live import PublicView, Tables
from trainer.tables.model import GameTable
from trainer.tables.store import TableError
from trainer.ui.table_review import look_back
from trainer.ui.tables import (
    SCREEN_POLL_SECONDS,
    Poll,
    follow,
    join_link,
    poll_here,
    waiting_line,
)
from trainer.views import cardart, room_text, table_text
from trainer.views.history_text import HISTORY_CSS, history_html, history_rows, history_title
from trainer.views.qr import qr_svg
from trainer.views.table_art import TABLE_CSS, table_html
from trainer.views.table_view import revealing, table_view


def screen(tables: Tables, code: str, key: str) -> None:
    try:
        view = tables.public_view(code, key)
    except TableError as e:
        st.error(str(e), icon=":material/lock:")
        return
    table = view.table
    st.html(cardart.stylesheet() + TABLE_CSS + table_text.TABLE_CSS + HISTORY_CSS
            + table_text.at_html(view.number, view.version))
    if table.status == "closed":
        st.info(tr("Table {code} is closed.", code=code), icon=":material/door_front:")
        return
    poll = partial(follow, code, table.version, True)
    if view.observation is None or table.status == "lobby":
        poll_here(poll, SCREEN_POLL_SECONDS)
        _lobby(view)
        return
    _game(tables, view, poll)


def _join_panel(code: str) -> None:
    """Before the deal: the code, the address and the QR, large. Not during a game: every
    seat is taken from the deal on, so nobody can join it."""
    link = join_link(code)
    shown = link.split("://", 1)[-1]
    left, right = st.columns([3, 2], vertical_alignment="center")
    left.html(table_text.code_html(code) + room_text.join_html(shown))
    right.html(qr_svg(link, size_px=300, label=tr("Join table {code}", code=code)))


def _lobby(view: PublicView) -> None:
    table = view.table
    st.markdown("**" + tr("Table {code}", code=table.code) + "** · "
                + tr("the players join on their phones"))
    _join_panel(table.code)
    st.html(table_text.seats_html(table.seats))
    if table.open_seats:
        st.caption(tr_n("{n} seat is still empty. The host deals when every seat has a player "
                        "or a bot.", "{n} seats are still empty. The host deals when every "
                        "seat has a player or a bot.", len(table.open_seats)))
    else:
        st.caption(tr("Every seat is filled: the host deals next."))


def _game(tables: Tables, view: PublicView, poll: Poll) -> None:
    obs = view.observation
    assert obs is not None
    table = view.table
    over = view.hands is not None
    names = tuple(s.name for s in obs.seats)
    drawn = table_view(obs, latest=1)
    if over and view.hands is not None:
        drawn = revealing(drawn, view.hands)
        st.success(table_text.result_over_line(names, obs.winner),
                   icon=":material/emoji_events:")
        poll_here(poll, SCREEN_POLL_SECONDS)
    else:
        waiting_line(view.deadline, view.waiting_for, drawn.question, poll, SCREEN_POLL_SECONDS)
    main, side = st.columns([3, 2], gap="medium")
    main.html(table_html(drawn))
    with side:
        if over:
            look_back(tables, table.code, view.number)
        else:
            rows = history_rows(obs)
            st.markdown(f"**{history_title(rows, over=over)}**")
            st.html(history_html(tuple(reversed(rows))))
    st.caption(tr("Table {code}", code=table.code) + " · "
               + table_text.settings_line(table.settings, _title(table)))


def _title(table: GameTable) -> str:
    return variant_title(parse_rules(table.settings.rules).variant)
