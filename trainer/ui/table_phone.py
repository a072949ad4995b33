"""A player's phone at a game table: join in two steps, then their own hand and decisions.

Why the seat lives in the address (`?table=…&seat=…`): a reload, a closed tab, a dropped
network or a restarted server all come back to the same address, and the database still has
the seat and the game. Why every button carries the game's version: the phone may be a move
behind (a bot moved, another phone pressed); a button drawn before that is refused with a
word, never played on the wrong position.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass
from functools import partial

import streamlit as st

from trainer.engine.cards import Action
from trainer.engine.errors import MoveError
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.i18n import tr
from trainer.learners import identity
from trainer.play.assess import kind_of
from trainer.quiz.feedback import describe_pending
from trainer.rooms.nicknames import generated_name
from trainer.tables.live import NotYourTurn, SeatView, Tables
from trainer.tables.store import Stale, TableError, TableGone, TableStore
from trainer.ui.state import session_state
from trainer.ui.table_review import phone_review
from trainer.ui.tables import (
    POLL_SECONDS,
    Poll,
    follow,
    live_tables,
    poll_here,
    time_left,
    waiting_line,
)
from trainer.views import cardart, table_text
from trainer.views.history_text import HISTORY_CSS, history_html, history_rows, history_title
from trainer.views.move_labels import your_action, your_move
from trainer.views.table_art import TABLE_CSS, table_html
from trainer.views.table_view import revealing, table_view

ERROR = "table_phone_error"
PICK = "table_phone_pick"  # an action chosen whose target is still to choose
SAY = "table_phone_say"
CHANCE = "table_phone_chance"


@dataclass(frozen=True)
class Choice:
    label: str
    move: Move | None  # None: an action whose target is chosen next
    action: Action | None


@dataclass(frozen=True)
class Decision:
    """A phone's decision in words: made from the game under the table's lock, so that only
    these words and the seat's own moves reach the page."""

    line: str
    question: str
    choices: tuple[Choice, ...]
    targets: dict[Action, tuple[Choice, ...]]


def decision_words(game: Game, seat: int) -> Decision:
    kind = kind_of(game) or "other"
    line, question = describe_pending(game, seat, kind)
    legal = list(game.legal_moves())
    if game.phase is not Phase.ACTION:
        return Decision(line, question, tuple(Choice(your_move(game, m), m, None)
                                              for m in legal), {})
    groups: dict[Action | None, list[Move]] = {}
    for m in legal:
        groups.setdefault(m.action, []).append(m)
    choices: list[Choice] = []
    targets: dict[Action, tuple[Choice, ...]] = {}
    for action, group in groups.items():
        if len(group) == 1 or action is None:
            choices.extend(Choice(your_move(game, m), m, None) for m in group)
        else:
            choices.append(Choice(your_action(game, action) + " …", None, action))
            targets[action] = tuple(Choice(your_move(game, m), m, None) for m in group)
    return Decision(line, question, tuple(choices), targets)


def join(store: TableStore, code: str) -> None:
    """Step two of joining (step one is the Room page's code): a name, then the seat."""
    try:
        table = store.live_table(code)
    except TableGone as e:
        st.error(str(e), icon=":material/door_front:")
        return
    state = session_state()
    back = store.rejoin(code, _browser())
    if back is not None:  # this browser's seat: a closed tab or a lost address, back at once
        st.query_params["seat"] = back[1]
        st.rerun()
    st.title(tr("Join table {code}", code=code))
    key = f"table_suggested_{code}"
    if key not in state:
        state[key] = generated_name(random.Random(),
                                    {s.nickname for s in table.seats if s.nickname})
    if not table.open_seats:
        st.info(tr("Every seat at this table is taken. Ask the host to free one, or wait for "
                   "the next game."), icon=":material/event_seat:")
        return
    with st.form("table_join_form", border=False):
        st.text_input(tr("Your name at the table"), value=state[key], max_chars=20,
                      key="table_typed_name")
        st.form_submit_button(tr("Take a seat"), type="primary", width="stretch", on_click=_join,
                              args=(store, code, key))
    if (error := state.pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _join(store: TableStore, code: str, suggested: str) -> None:
    state = session_state()
    name = str(state.get("table_typed_name") or state[suggested])
    try:
        _, token = store.join(code, name, browser=_browser())
    except TableError as e:
        state[ERROR] = str(e)
        return
    st.query_params["seat"] = token


def _browser() -> str:
    """This browser's own id (its learner cookie, or the one this tab drew): the store gives
    a browser its seat back rather than a new one."""
    return identity.browser_learner(session_state(), st.context.cookies.get(identity.COOKIE))


def _watch(tables: Tables, code: str, token: str, seen: int) -> None:
    """Polled: this phone is still here, what is due is played, the page redraws on a
    change."""
    with contextlib.suppress(TableError):
        tables.seen(code, token)
    follow(code, seen)


def hand(code: str, token: str) -> None:
    tables = live_tables()
    if tables is None:
        st.error(tr("The table's database cannot be reached."), icon=":material/cloud_off:")
        return
    try:
        view = tables.seat_view(code, token, decision_words)
    except TableError as e:
        st.error(str(e), icon=":material/error:")
        st.button(tr("Join again"), key="table_join_again", on_click=_leave)
        return
    st.html(cardart.stylesheet() + TABLE_CSS + table_text.TABLE_CSS + HISTORY_CSS
            + table_text.at_html(view.number, view.version))
    poll = partial(_watch, tables, code, token, view.table.version)
    me = view.seat
    st.markdown("**" + tr("Table {code}", code=code) + "** · "
                + tr("you are **{name}**, seat {seat}", name=me.nickname, seat=me.seat + 1))
    if me.away:
        st.warning(tr("A bot is playing for you: this phone was gone for a while. It plays "
                      "for you again from your next decision."), icon=":material/smart_toy:")
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")
    obs = view.observation
    if obs is None or view.table.status == "lobby":
        st.info(tr("You have a seat. The game starts when the host deals: keep this page "
                   "open."), icon=":material/hourglass_top:")
        poll_here(poll, POLL_SECONDS)
        st.html(table_text.seats_html(view.table.seats))
        st.button(tr("Leave the table"), key="table_leave", icon=":material/logout:",
                  on_click=_give_up, args=(tables, code, token))
        return
    over = view.hands is not None
    drawn = table_view(obs, latest=1)
    if over and view.hands is not None:
        drawn = revealing(drawn, view.hands)
        st.success(table_text.result_over_line(tuple(s.name for s in obs.seats), obs.winner,
                                               me.seat), icon=":material/emoji_events:")
        poll_here(poll, POLL_SECONDS)
    st.html(table_html(drawn, compact=True))
    if not over:
        if isinstance(view.words, Decision):
            with st.container(border=True, key="table_decision"):
                _decision(tables, code, token, view, view.words, poll)
        else:
            pending = obs.pending
            name = obs.seats[pending.player].name if pending is not None else None
            waiting_line(view.deadline, name, drawn.question, poll, POLL_SECONDS)
    rows = history_rows(obs)
    with st.expander(history_title(rows, over=over), expanded=False):
        st.html(history_html(tuple(reversed(rows))))
    if over:
        phone_review(tables, code, view.number, me.seat)


def _decision(tables: Tables, code: str, token: str, view: SeatView, words: Decision,
              poll: Poll) -> None:
    st.markdown(f"**{words.line}**  \n{words.question}")
    time_left(view.deadline, poll, POLL_SECONDS)
    state = session_state()
    if view.claim:
        st.toggle(tr("Say how likely it is a bluff"), key=SAY,
                  help=tr("Your chance is kept with your move; the review compares it with the "
                          "truth and with the bot's estimate."))
        if state.get(SAY):
            st.slider(tr("Chance it is a bluff"), 1, 99, 50, key=CHANCE, format="%d%%")
    picked = state.get(PICK)
    shown = words.targets.get(picked) if picked is not None else None
    choices = shown if shown is not None else words.choices
    with st.container(key="table_moves", gap="small"):
        for i, c in enumerate(choices):
            key = str(i + 1) if i < 9 else None  # as on the Play page: 1–9 press them
            if c.move is not None:
                st.button(c.label, key=f"table_move_{i}", width="stretch", shortcut=key,
                          on_click=_press, args=(tables, code, token, c.move, view.version,
                                                 view.claim))
            else:
                st.button(c.label, key=f"table_move_{i}", width="stretch", shortcut=key,
                          on_click=_pick, args=(c.action,))
        if shown is not None:
            st.button(tr("Back to the actions"), key="table_back", icon=":material/undo:",
                      on_click=_pick, args=(None,), width="stretch")


def _pick(action: Action | None) -> None:
    session_state()[PICK] = action


def _press(tables: Tables, code: str, token: str, move: Move, version: int,
           claim: bool) -> None:
    state = session_state()
    stated = int(state.get(CHANCE, 50)) / 100 if claim and state.get(SAY) else None
    try:
        tables.play(code, token, move, version, stated)
    except Stale:
        state[ERROR] = tr("The table moved on before your press arrived: here it is now.")
    except NotYourTurn as e:
        state[ERROR] = str(e)
    except MoveError as e:
        state[ERROR] = tr("That move cannot be made now: {reason}",
                          reason=str(e))  # worded for the reader's seat
    except TableError as e:
        state[ERROR] = str(e)
    state.pop(PICK, None)
    state[SAY] = False


def _give_up(tables: Tables, code: str, token: str) -> None:
    try:
        tables.store.leave(code, token)
    except TableError as e:
        session_state()[ERROR] = str(e)
        return
    _leave()


def _leave() -> None:
    st.query_params.pop("seat", None)
