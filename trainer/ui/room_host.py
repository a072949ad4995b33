"""The host's side of a room: making it, then the remote that steers it.

Why a remote apart from the screen: the projector is photographed, and a page holding the
host key (in its address, a link or a text) hands the room to anyone who reads it. The remote
(`?code=…&host=…`, the host link as it always was) holds every control and is meant for the
teacher's phone or a tab that is not projected; it opens the screen view
(`trainer.ui.room_screen`), whose address carries only a screen key. The remote's link is
copied to the clipboard or shown as a QR code on request, never printed. Both pages read the
room from the store, and each step is checked there against the host key and against the
step of the room the remote showed (`RoomStore._at`), so two remotes never skip a question.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from trainer.i18n import N_, tr, tr_n, trc
from trainer.quiz import rule_banks
from trainer.quiz.bank import BankError, available_banks, theme_words
from trainer.quiz.drills import ALL_RULE_SETS
from trainer.quiz.findings import findings
from trainer.rooms import check, export
from trainer.rooms.codes import SCREEN_CODE_DIGITS, token_hash
from trainer.rooms.model import Room, RoomAnswer, Seat
from trainer.rooms.questions import ALL_LESSONS, choose, lesson_ids, resolve
from trainer.rooms.results import class_scores, standings
from trainer.rooms.settings import LEADERBOARD, LIVE, MAX_SEATS, NAMES, RoomSettings, Source
from trainer.rooms.store import LIFETIME, RoomError, RoomStore, expired
from trainer.rulebook.choices import ROOM
from trainer.ui.links import public_base_url
from trainer.ui.rooms import (
    check_ids,
    check_questions,
    check_version,
    forget_banks,
    lesson_titles,
    network_note,
    room_bank,
    room_questions,
)
from trainer.ui.rule_choice import chosen, family_picker, rules_expander
from trainer.ui.state import session_state
from trainer.views import room_check, room_remote, room_report, room_text
from trainer.views.qr import qr_svg

POLL_SECONDS = 1
ERROR = "room_host_error"
KICK_ERROR = "room_kick_error"  # shown in the people list, after the click's rerun
MAKE = "room_make_questions"  # (rules, count) of a "Make questions" click, run on the rerun
MADE_BANK = "room_made_bank"  # the bank just made (or picked), selected on the next run
MADE_NOTE = "room_made_note"  # said once, after questions were made
SOURCE_KINDS = {"drill": N_("A quiz drill"), "puzzles": N_("End-game puzzles"),
                "lesson": N_("A lesson"), "check": room_check.SOURCE_LABEL}


DRILLS = {"mixed": N_("Mixed decisions"), "end-game": N_("End-game (graded by perfect play)"),
          "theme": N_("One theme")}


def _say(words: Mapping[str, str], key: str) -> str:
    """A choice's words in the visitor's language (a module function, not a lambda: a
    widget's `format_func` is kept with the session, which must pickle)."""
    return tr(words[key])


def _lesson_title(titles: Mapping[str, str], lesson: str) -> str:
    if lesson == ALL_LESSONS:
        return tr("Every lesson's questions")
    return tr(titles[lesson]) if lesson in titles else lesson


QR_SHOWN = "room_remote_qr"  # when this tab showed the remote's QR code (time.time())
TAB = "room_remote_tab"  # this tab's own mark, so the QR code knows another tab opened
QR_SECONDS = 120  # the QR code hides itself after this long, scanned or not


def remote_link(code: str, host: str) -> str:
    """The remote's address (the host link): copied or shown as a QR code, never printed."""
    return f"{public_base_url()}/room?{room_remote.query(code=code, host=host)}"


def screen_link(code: str, screen: str) -> str:
    """The screen view's address: the room code and a screen key, no host key. Relative to
    the remote's own page, so it opens on the machine that asked for it as the remote was
    opened there (served to this computer only, a LAN address would not answer)."""
    return f"room?{room_remote.query(code=code, screen=screen)}"


# ------------------------------------------------------------------------------ making one
def create_form(rooms: RoomStore) -> None:
    st.title(tr(room_text.HOST_TITLE))
    st.markdown(tr(room_text.HOST_INTRO))
    network_note(host=True)
    state = session_state()
    kind = st.segmented_control(tr("Questions from"), list(SOURCE_KINDS), default="drill",
                                key="room_new_kind",
                                format_func=partial(_say, SOURCE_KINDS)) or "drill"
    if kind == "check":  # the lesson file's questions: no question bank is involved
        _check_form(rooms)
        return
    banks = available_banks()
    if not banks:
        st.error(tr("No question bank was found: build one with `python -m trainer bank "
                    "build`."))
        return
    if state.get(MADE_BANK) in banks:  # questions just made: ask from their bank
        state["room_new_bank"] = state.pop(MADE_BANK)
    bank_name = st.selectbox(tr("Question bank"), list(banks), key="room_new_bank") \
        if len(banks) > 1 else next(iter(banks))
    if (note := state.pop(MADE_NOTE, None)) is not None:
        st.success(note, icon=":material/task_alt:")
    try:
        questions = room_bank(bank_name)
    except BankError as e:
        st.error(tr("The question bank could not be read: {problem}", problem=e),
                 icon=":material/error:")
        return
    bank = questions.bank
    titles = lesson_titles()
    seed = int(state.setdefault("room_new_seed", secrets.randbelow(10**6)))
    rule_set = ALL_RULE_SETS
    if kind == "drill":
        cols = st.columns(2)
        drill = cols[0].selectbox(tr("Drill"), list(DRILLS), key="room_new_drill",
                                  format_func=partial(_say, DRILLS))
        family = family_picker(ROOM, label=tr("Rules"), container=cols[1],
                               extra={ALL_RULE_SETS: tr(room_text.EVERY_RULE_SET)})
        if family != ALL_RULE_SETS:
            ruleset = chosen(ROOM)
            rules_expander(ruleset, ROOM)
            rule_set = ruleset.text
        theme = st.selectbox(tr("Theme"), [t for t, _ in bank.themes().most_common()],
                             key="room_new_theme", format_func=theme_words) \
            if drill == "theme" else None
        count = st.slider(tr("Questions"), 3, 20, 10, key="room_new_count")
        source = Source.model_validate({
            "kind": "drill", "bank": bank_name, "drill": drill, "theme": theme,
            "rule_set": rule_set, "count": count, "seed": seed})
    elif kind == "puzzles":
        which = st.selectbox(tr("Puzzles"), list(room_text.PUZZLE_KINDS), key="room_new_puzzles",
                             format_func=room_text.puzzle_kind)
        count = st.slider(tr("Questions"), 3, 20, 10, key="room_new_puzzle_count")
        source = Source.model_validate({"kind": "puzzles", "bank": bank_name,
                                        "puzzles": which, "count": count, "seed": seed})
    else:
        lessons = [ALL_LESSONS, *lesson_ids(bank)]
        lesson = st.selectbox(tr("Lesson"), lessons, key="room_new_lesson",
                              format_func=partial(_lesson_title, titles))
        source = Source(kind="lesson", bank=bank_name, lesson=lesson, count=20)
    settings = _new_settings()
    order = {lid: i for i, lid in enumerate(titles)}
    items = choose(bank, source, set(questions.grades.entries),
                   lambda s: order.get(s, len(order)))
    if kind == "drill" and rule_set != ALL_RULE_SETS and not items:
        _make_questions_panel(rule_set, bank_name, banks, count)
    st.caption(tr_n("{n} question", "{n} questions", len(items)) + " · "
               + room_text.source_title(source, titles))
    st.button(tr("Make the room"), type="primary", icon=":material/meeting_room:",
              key="room_make",
              disabled=not items, width="stretch", on_click=_make,
              args=(rooms, source, settings, [i.id for i in items], bank.version))
    if (error := state.pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _new_settings(check: bool = False) -> RoomSettings:
    with st.expander(tr("Room settings"), icon=":material/tune:", expanded=True):
        return _settings_inputs(RoomSettings(), "room_new", names_open=True, check=check)


def _check_form(rooms: RoomStore) -> None:
    """A room of "Check yourself": the rules questions that end the Learn path, in their
    order, each right or wrong by the rules."""
    ids, version = check_ids()
    st.markdown(tr(room_check.FORM_NOTE))
    if not ids:
        st.error(tr(room_check.NO_LESSON), icon=":material/error:")
    source = Source(kind="check", lesson=check.DEFAULT_LESSON, count=max(1, len(ids)))
    settings = _new_settings(check=True)
    st.caption(tr_n("{n} question", "{n} questions", len(ids)) + " · "
               + room_text.source_title(source, {}))
    st.button(tr("Make the room"), type="primary", icon=":material/meeting_room:",
              key="room_make",
              disabled=not ids, width="stretch", on_click=_make,
              args=(rooms, source, settings, ids, version))
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _make_questions_panel(rule_set: str, bank_name: str, banks: dict[str, Any],
                          count: int) -> None:
    """No questions under these rules in this bank: use the bank made for them, or make some
    (bots' games under exactly these rules, valued here with a progress bar)."""
    state = session_state()
    made = rule_banks.bank_name(rule_set)
    ready = made if made in banks and made != bank_name else None
    with st.container(border=True, key="room_make_questions"):
        st.markdown(room_text.no_questions_line(bank_name, ready))
        if ready is not None:
            st.button(tr("Ask from that bank"), icon=":material/swap_horiz:", key="room_use_made",
                      type="primary", on_click=_pick_bank, args=(ready,))
        st.button(tr_n("Make {n} question under these rules",
                       "Make {n} questions under these rules", count),
                  icon=":material/construction:", key="room_make_questions_button",
                  help=tr(room_text.MAKE_HELP, rollouts=rule_banks.ROLLOUTS),
                  on_click=state.__setitem__, args=(MAKE, (rule_set, count)))
        asked = state.pop(MAKE, None)
        if asked is None or asked != (rule_set, count):
            return
        bar = st.progress(0.0, text=tr("Bots are playing under these rules…"))

        def progress(done: int, total: int) -> None:
            bar.progress(done / max(total, 1),
                         text=tr("Valuing the questions… {done} of {total}", done=done,
                                 total=total))

        problems: list[str] = []
        made_bank = rule_banks.make_questions(rule_set, count, seed=secrets.randbelow(10**6),
                                              progress=progress, problems=problems)
        bar.progress(1.0, text=tr_n("Done: {n} question in the bank {bank}",
                                    "Done: {n} questions in the bank {bank}",
                                    len(made_bank.items), bank=repr(made_bank.name)))
        state[MADE_BANK] = made_bank.name
        state[MADE_NOTE] = room_text.made_line(len(made_bank.items), made_bank.name)
        forget_banks()
        st.rerun()


def _pick_bank(name: str) -> None:
    session_state()[MADE_BANK] = name


def _make(rooms: RoomStore, source: Source, settings: RoomSettings, ids: list[str],
          bank_version: str) -> None:
    """The room is made before the rerun, and the address becomes the remote's."""
    try:
        room, host = rooms.create(source, settings, ids, bank_version)
    except RoomError as e:
        session_state()[ERROR] = str(e)
        return
    st.query_params.from_dict({"code": room.code, "host": host})


def _settings_inputs(now: RoomSettings, key: str, names_open: bool,
                     check: bool = False) -> RoomSettings:
    names = st.radio(tr("Names"), list(NAMES), index=list(NAMES).index(now.names),
                     format_func=partial(_say, NAMES), key=f"{key}_names",
                     disabled=not names_open, horizontal=True)
    board = st.radio(tr("Leaderboard"), list(LEADERBOARD),
                     index=list(LEADERBOARD).index(now.leaderboard),
                     format_func=partial(_say, LEADERBOARD), key=f"{key}_board",
                     horizontal=True,
                     help=tr(room_check.RANKING_RULE) if check else tr(room_text.RANKING_RULE))
    live = st.radio(tr("The room's answers on the screen"), list(LIVE),
                    index=list(LIVE).index(now.live), format_func=partial(_say, LIVE),
                    key=f"{key}_live", horizontal=True)
    code = st.toggle(tr(room_text.SCREEN_CODE_TOGGLE, digits=SCREEN_CODE_DIGITS),
                     value=now.screen_code, key=f"{key}_screen")
    most = st.number_input(tr(room_text.MAX_SEATS_LABEL), min_value=1, max_value=MAX_SEATS,
                           value=now.max_seats, step=10, key=f"{key}_max_seats",
                           help=tr(room_text.MAX_SEATS_HELP))
    return RoomSettings.model_validate({"names": names, "leaderboard": board, "live": live,
                                        "screen_code": code, "max_seats": int(most)})


# ------------------------------------------------------------------------------ the remote
def _act(action: Callable[[], object]) -> None:
    try:
        action()
    except RoomError as e:
        session_state()[ERROR] = str(e)


def remote(rooms: RoomStore, code: str, host: str) -> None:
    """The host's remote: every control of the room, for a phone or an unprojected tab."""
    try:
        room = rooms.room(code)
    except RoomError as e:  # no such room, or a damaged one: said as it is
        st.error(str(e), icon=":material/error:")
        return
    if room.status == "closed":  # as a phone is told: closed rooms take no host key
        st.info(tr("Room {code} is closed.", code=code), icon=":material/door_front:")
        return
    if not rooms.is_host(code, host):
        st.error(tr("This link does not carry room {code}'s host key. To join as a player, "
                    "open the room without `host=` in the address.", code=code),
                 icon=":material/lock:")
        return
    _opened(rooms, code, host)
    st.subheader(tr(room_remote.REMOTE_TITLE, code=code))
    st.caption(room_text.source_title(room.source, lesson_titles()))
    if room.source.kind == "drill" and (rules := room_text.rules_line(
            room.source.rule_set)) is not None:
        st.caption(rules)
    st.markdown(tr(room_remote.REMOTE_INTRO))
    st.link_button(tr(room_remote.PROJECT_THIS),
                   screen_link(code, rooms.screen_token(code, host)), type="primary",
                   icon=":material/cast:", help=tr(room_remote.PROJECT_HELP), width="stretch")
    st.caption(tr(room_remote.NOT_THIS_PAGE))
    if expired(room):
        _expired(rooms, room, host)
        return
    if room.source.kind == "check":
        if room.bank_version != check_version():
            st.warning(tr(room_check.CHANGED), icon=":material/warning:")
    elif (questions := room_questions(room)) is not None and \
            questions.version != room.bank_version:
        st.warning(tr("The question bank was rebuilt after this room was made; questions it "
                      "lost are skipped with a message."), icon=":material/warning:")
    st.divider()
    try:
        seats = _present(rooms, code, host)
    except RoomError as e:  # closed or gone since the room was read: said as it is
        st.error(str(e), icon=":material/error:")
        return
    st.fragment(_live, run_every=POLL_SECONDS)(rooms, room, host, _seen(seats))
    _controls(rooms, room, host)
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")
    if room.asked:
        _keep(rooms, room, host)
    if room.status == "finished":
        _results(rooms, room, host)
    _phone_remote(rooms, code, host)
    _people_and_settings(rooms, room, host, seats)


def _present(rooms: RoomStore, code: str, host: str) -> list[Seat]:
    """Everyone in the room now (the kicked left out), in the order they joined."""
    return [s for s in rooms.seats(code, host) if not s.kicked]


def _seen(seats: list[Seat]) -> tuple[tuple[str, str], ...]:
    return tuple((s.token, s.nickname) for s in seats)


def _live(rooms: RoomStore, room: Room, host: str, seen: tuple[tuple[str, str], ...]) -> None:
    """The remote's one poll: where the room is and how many have answered, so the host
    knows when to reveal without looking at the screen; and the whole page drawn again when
    the room moved on (another remote, the teacher's phone) or someone joined, left or was
    renamed. One poll and nothing else: a page rerun started by one poll can cross another
    poll's run, which once left the projected screen blank (`trainer.ui.room_screen`)."""
    try:
        now = rooms.pulse(room.code)
        seats = _present(rooms, room.code, host)
        joined, answered = rooms.tally(room.code, host, room.question)
    except RoomError:  # closed or gone: the page says so on its own run
        st.rerun(scope="app")
    if now is None or now[0] != room.version or _seen(seats) != seen:
        st.rerun(scope="app")
    header = room_text.question_header(room)
    count = room_text.answered_line(answered, joined)
    if room.status == "lobby":
        line = tr(room_remote.LOBBY_STATUS, joined=room_text.joined_line(joined))
    elif room.status == "question":
        line = tr(room_remote.QUESTION_STATUS, header=header, count=count)
    elif room.status == "revealed":
        line = tr(room_remote.REVEALED_STATUS, header=header, count=count)
    else:
        line = tr(room_remote.FINISHED_STATUS)
    st.markdown(f"**{line}**")


def _controls(rooms: RoomStore, room: Room, host: str) -> None:
    """Start, reveal, next and end, each pressed at the step this page shows: the store
    refuses it if the room has moved on meanwhile (another tab, the teacher's phone)."""
    code, at = room.code, (room.status, room.question)
    bar = st.columns(2, vertical_alignment="center")
    if room.status == "lobby":
        bar[0].button(trc("button", "Start"), type="primary", icon=":material/play_arrow:",
                      width="stretch", on_click=_act, args=(lambda: rooms.start(code, host, at),),
                      key="room_start")
    elif room.status == "question":
        bar[0].button(tr("Reveal"), type="primary", icon=":material/visibility:", width="stretch",
                      on_click=_act, args=(lambda: rooms.reveal(code, host, at),),
                      key="room_reveal")
    elif room.status == "revealed":
        label = tr("See the results") if room.last else tr("Next question")
        bar[0].button(label, type="primary", icon=":material/skip_next:", width="stretch",
                      on_click=_act, args=(lambda: rooms.next(code, host, at),),
                      key="room_next")
        if not room.last:
            bar[1].button(tr("End here"), icon=":material/flag:", width="stretch",
                          on_click=_act, args=(lambda: rooms.finish(code, host, at),),
                          key="room_finish")


def _people_and_settings(rooms: RoomStore, room: Room, host: str, seats: list[Seat]) -> None:
    code = room.code
    with st.expander(tr("People and settings"), icon=":material/tune:",
                     expanded=room.status == "lobby"):
        _people(rooms, room, host, seats)
        st.divider()
        settings = _settings_inputs(room.settings, f"room_set_{room.version}",
                                    names_open=room.status == "lobby",
                                    check=room.source.kind == "check")
        if settings != room.settings:
            st.button(tr("Apply settings"), key="room_apply", on_click=_act,
                      args=(lambda: rooms.change_settings(code, host, settings),))
        st.button(tr("Close the room"), icon=":material/close:", key="room_close",
                  on_click=_act, args=(lambda: rooms.close(code, host),),
                  help=tr("The code stops working; phones are told the room is closed."))


# ------------------------------------------------------------------ the remote on a phone
def _tab() -> str:
    return str(session_state().setdefault(TAB, secrets.token_hex(8)))


def _opened(rooms: RoomStore, code: str, host: str) -> None:
    """The first time this tab opens the remote, the room's row says so (`remote_opened`):
    the laptop's QR code reads it there, whichever process serves the phone that scanned
    it."""
    state, mark = session_state(), f"room_remote_opened_{code}"
    if state.get(mark):
        return
    try:
        rooms.remote_opened(code, host, _tab())
    except RoomError:  # the room closed meanwhile: the page says so on its next run
        return
    state[mark] = True


def _phone_remote(rooms: RoomStore, code: str, host: str) -> None:
    """The remote's link for the teacher's phone: copied to the clipboard (the link is never
    on the page), or a QR code shown on request, which hides itself once a phone opens the
    remote, after `QR_SECONDS`, or on a click."""
    state = session_state()
    with st.container(border=True, key="room_phone_remote"):
        st.markdown(f"**{tr(room_remote.PHONE_REMOTE)}**")
        st.caption(tr(room_remote.PHONE_REMOTE_NOTE))
        left, right = st.columns(2, vertical_alignment="top")
        with left:
            st.iframe(room_remote.copy_button_html(remote_link(code, host)), height=66)
        if state.get(QR_SHOWN) is None:
            right.button(tr(room_remote.SHOW_QR), icon=":material/qr_code_2:", width="stretch",
                         key="room_show_qr", on_click=state.__setitem__,
                         args=(QR_SHOWN, time.time()))
            if (said := state.pop("room_qr_said", None)) is not None:
                st.caption(said)
            return
        right.button(tr(room_remote.HIDE_QR), icon=":material/visibility_off:", width="stretch",
                     key="room_hide_qr", on_click=state.pop, args=(QR_SHOWN, None))
        st.fragment(_remote_qr, run_every=POLL_SECONDS)(rooms, code, host)


def _remote_qr(rooms: RoomStore, code: str, host: str) -> None:
    """Polled while shown: the QR code, until another tab opens the remote or time is up."""
    state = session_state()
    shown = state.get(QR_SHOWN)
    if shown is None:
        return
    try:
        scanned = rooms.remote_scanned(code, host, _tab(),
                                       datetime.fromtimestamp(float(shown), UTC))
    except RoomError:  # the room closed meanwhile: the page says so on its next run
        return
    if scanned or time.time() - float(shown) > QR_SECONDS:
        state.pop(QR_SHOWN, None)
        state["room_qr_said"] = tr(room_remote.QR_SCANNED) if scanned else \
            tr(room_remote.QR_TIMED_OUT, seconds=QR_SECONDS)
        st.rerun(scope="app")
    st.caption(tr(room_remote.QR_NOTE))
    st.html(qr_svg(remote_link(code, host), size_px=260,
                   label=tr("The remote of room {code}", code=code)))


def _expired(rooms: RoomStore, room: Room, host: str) -> None:
    """An expired room stays expired until the host says otherwise: no step of theirs quietly
    lets phones in again, and the button says what reopening does."""
    hours = LIFETIME.seconds // 3600
    st.warning(tr(room_text.EXPIRED_HOST, code=room.code, hours=hours),
               icon=":material/timer_off:")
    st.button(tr(room_text.REOPEN, hours=hours), type="primary", key="room_reopen",
              icon=":material/lock_open:", help=tr(room_text.REOPEN_HELP), on_click=_act,
              args=(lambda: rooms.reopen(room.code, host),))
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _kick_key(token: str) -> str:
    # The seat token is that phone's key to its seat: a hash of it names the checkbox.
    return f"room_kick_{token_hash(token)[:16]}"


def _people(rooms: RoomStore, room: Room, host: str, seats: list[Seat]) -> None:
    """Who is in the room (`_live` redraws the page when that changes); tick several and
    remove them in one step."""
    st.markdown(f"**{room_text.joined_line(len(seats))}**")
    if not seats:
        return
    state = session_state()
    with st.container(height=min(44 * ((len(seats) + 1) // 2) + 16, 240), border=False):
        cols = st.columns(2)  # down the first column, then the second: in order on a phone
        half = (len(seats) + 1) // 2
        for i, seat in enumerate(seats):
            cols[i // half].checkbox(seat.nickname, key=_kick_key(seat.token))
    ticked = [s.token for s in seats if state.get(_kick_key(s.token))]
    st.button(room_text.remove_button(len(ticked)), key="room_kick",
              icon=":material/person_remove:", disabled=not ticked, on_click=_remove,
              args=(rooms, room.code, host, ticked))
    if (error := state.pop(KICK_ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _remove(rooms: RoomStore, code: str, host: str, tokens: list[str]) -> None:
    state = session_state()
    try:
        rooms.kick_many(code, host, tokens)
    except RoomError as e:
        state[KICK_ERROR] = str(e)
    for token in tokens:
        state.pop(_kick_key(token), None)


# ------------------------------------------------------------------------------ results
def _names(rooms: RoomStore, room: Room, host: str) -> dict[str, str]:
    return {s.token: s.nickname for s in rooms.seats(room.code, host) if not s.kicked}


def _results(rooms: RoomStore, room: Room, host: str) -> None:
    """Each person's results, for the host alone: the projector shows the class's.

    Why a plain table and not a data frame: a data frame carries its own CSV download, which
    writes names as they are, formula text included; the files under "Results to keep" are
    the downloads, neutralised (`trainer.rooms.export`)."""
    answers = rooms.answers(room.code, host)
    names = _names(rooms, room, host)
    with st.expander(tr("Each person's results"), icon=":material/group:"):
        if room.source.kind == "check":
            asked = [a for a in answers if a.question < room.asked]
            marks = {(a.seat, a.question): bool(a.correct) for a in asked
                     if a.correct is not None}
            st.table(pd.DataFrame(room_check.person_rows(names, marks, room.asked)),
                     hide_index=True)
            return
        rows = room_text.standings_rows(standings(answers, names))
        st.table(pd.DataFrame(rows).sort_values(tr(room_text.NAME)) if rows else pd.DataFrame(),
                 hide_index=True)


# ------------------------------------------------------------------ results to keep
def _infos(room: Room) -> dict[int, export.QuestionInfo]:
    """Each question asked, as it was asked: its words and its right or best answer, read
    from the lesson file or the question bank (a question either lost is named as gone)."""
    if room.source.kind == "check":
        return {i: room_report.check_info(q) for i, q in check_questions(room).items()
                if q is not None and i < room.asked}
    questions = room_questions(room)
    if questions is None:
        return {}
    out: dict[int, export.QuestionInfo] = {}
    for i, item_id in enumerate(room.questions[:room.asked]):
        found = resolve(questions.bank, questions.grades, item_id, room.source.rule_set)
        if found is not None:
            out[i] = room_report.decision_info(*found)
    return out


@dataclass(frozen=True)
class _Results:
    """A room's results as the host reads them: the names in the room (people removed left
    out), every answer, and each question asked with how the class did."""

    names: dict[str, str]
    answers: list[RoomAnswer]
    questions: list[export.QuestionResult]


def _read(rooms: RoomStore, room: Room, host: str) -> _Results:
    names = _names(rooms, room, host)
    answers = rooms.answers(room.code, host)
    return _Results(names, answers,
                    export.question_results(room, answers, names, _infos(room)))


def _keep(rooms: RoomStore, room: Room, host: str) -> None:
    """The two CSV files and the link to the printable report: on the remote only, never on
    the screen view (its page has no host key to read them with)."""
    try:
        got = _read(rooms, room, host)
    except RoomError as e:
        st.error(str(e), icon=":material/error:")
        return
    with st.container(border=True, key="room_keep"):
        st.markdown(f"**{tr(room_report.DOWNLOADS_TITLE)}**")
        st.caption(tr(room_report.DOWNLOADS_NOTE))
        if room.open:
            st.caption(tr(room_report.DOWNLOADS_SO_FAR))
        people = export.csv_text(
            export.student_header(got.questions),
            export.student_rows(room, got.answers, got.names, got.questions))
        per_question = export.csv_text(export.question_header(got.questions),
                                       export.question_rows(got.questions))
        left, right = st.columns(2)
        # utf-8-sig: a spreadsheet opening the file reads "Zoë" as written, not as mojibake.
        left.download_button(tr(room_report.PER_PERSON), people.encode("utf-8-sig"),
                             file_name=room_report.file_name(room, "people"), mime="text/csv",
                             icon=":material/group:", key="room_csv_people", width="stretch",
                             on_click="ignore")
        right.download_button(tr(room_report.PER_QUESTION), per_question.encode("utf-8-sig"),
                              file_name=room_report.file_name(room, "questions"),
                              mime="text/csv", icon=":material/quiz:",
                              key="room_csv_questions", width="stretch", on_click="ignore")
        st.page_link("pages/room.py", label=tr(room_report.REPORT_LINK),
                     icon=":material/print:",
                     query_params={"code": room.code, "host": host, "report": "1"},
                     help=tr(room_report.REPORT_HELP))


def report(rooms: RoomStore, code: str, host: str) -> None:
    """The class report, laid out for printing (`?code=…&host=…&report=1`): the host key
    opens it, as it opens the remote; each person's score only when the toggle asks."""
    try:
        room = rooms.room(code)
    except RoomError as e:
        st.error(str(e), icon=":material/error:")
        return
    if not rooms.is_host(code, host):
        st.error(tr("This link does not carry room {code}'s host key, so it cannot show the "
                    "room's report.", code=code), icon=":material/error:")
        return
    st.html(room_report.REPORT_CSS)
    with st.container(key="room_report_controls"):
        st.page_link("pages/room.py", label=tr(room_report.BACK),
                     icon=":material/arrow_back:", query_params={"code": code, "host": host})
        shown = st.toggle(tr(room_report.SHOW_SCORES), value=False, key="room_report_scores",
                          help=tr(room_report.SHOW_SCORES_HELP))
        st.caption(tr(room_report.PRINT_HINT))
    if not room.asked:
        st.info(tr(room_report.NOT_YET), icon=":material/hourglass_empty:")
        return
    try:
        got = _read(rooms, room, host)
    except RoomError as e:
        st.error(str(e), icon=":material/error:")
        return
    asked = [a for a in got.answers if a.question < room.asked and a.seat in got.names]
    what = room_text.source_title(room.source, lesson_titles())
    students = export.student_rows(room, got.answers, got.names, got.questions) \
        if shown else None
    st.html(room_report.report_html(
        room, what, len(got.names), findings(export.claims_frame(room, got.answers, got.names)),
        class_scores(asked), got.questions, export.hardest(got.questions), students))
