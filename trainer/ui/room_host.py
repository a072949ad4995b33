"""The host's side of a room: making it, then the presenter screen with its controls.

Why the screen polls only while a question is open or the lobby fills: that is when answers
and people arrive; the reveal and the end are drawn once, on the host's own click. The charts
live in the polled fragment and are drawn only when the host allows it, so a room that hides
answers until the reveal never sends them to the screen before.
"""

from __future__ import annotations

import secrets
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from trainer.quiz import rule_banks
from trainer.quiz.bank import BankError, Item, available_banks
from trainer.quiz.drills import ALL_RULE_SETS
from trainer.quiz.solved import Solved
from trainer.rooms import check
from trainer.rooms.check import CheckQuestion
from trainer.rooms.codes import SCREEN_CODE_DIGITS, screen_code, token_hash
from trainer.rooms.model import Room, RoomAnswer
from trainer.rooms.questions import ALL_LESSONS, choose, lesson_ids
from trainer.rooms.results import (
    action_counts,
    class_scores,
    grade_counts,
    popular_wrong,
    reliability_table,
    right_by_question,
    right_count,
    standings,
    stated_histogram,
)
from trainer.rooms.settings import LEADERBOARD, LIVE, MAX_SEATS, NAMES, RoomSettings, Source
from trainer.rooms.store import LIFETIME, RoomError, RoomStore, expired
from trainer.rulebook.choices import ROOM
from trainer.ui.links import public_base_url
from trainer.ui.rooms import (
    check_ids,
    check_question,
    check_questions,
    check_version,
    draw_check,
    draw_question,
    forget_banks,
    lesson_titles,
    network_note,
    room_bank,
    room_item,
    room_questions,
)
from trainer.ui.rule_choice import chosen, family_picker, rules_expander
from trainer.ui.state import session_state
from trainer.views import room_charts, room_check, room_text
from trainer.views.calibration_charts import reliability_chart
from trainer.views.qr import qr_svg

POLL_SECONDS = 1
ERROR = "room_host_error"
KICK_ERROR = "room_kick_error"  # shown in the people list, which reruns on its own
MAKE = "room_make_questions"  # (rules, count) of a "Make questions" click, run on the rerun
MADE_BANK = "room_made_bank"  # the bank just made (or picked), selected on the next run
MADE_NOTE = "room_made_note"  # said once, after questions were made
SOURCE_KINDS = {"drill": "A quiz drill", "puzzles": "End-game puzzles", "lesson": "A lesson",
                "check": room_check.SOURCE_LABEL}


def join_link(code: str) -> str:
    return f"{public_base_url()}/room?{urlencode({'code': code})}"


def host_link(code: str, host: str) -> str:
    return f"{public_base_url()}/room?{urlencode({'code': code, 'host': host})}"


# ------------------------------------------------------------------------------ making one
def create_form(rooms: RoomStore) -> None:
    st.title(room_text.HOST_TITLE)
    st.markdown(room_text.HOST_INTRO)
    network_note(host=True)
    state = session_state()
    kind = st.segmented_control("Questions from", list(SOURCE_KINDS), default="drill",
                                key="room_new_kind",
                                format_func=SOURCE_KINDS.__getitem__) or "drill"
    if kind == "check":  # the lesson file's questions: no question bank is involved
        _check_form(rooms)
        return
    banks = available_banks()
    if not banks:
        st.error("No question bank was found: build one with `python -m trainer bank build`.")
        return
    if state.get(MADE_BANK) in banks:  # questions just made: ask from their bank
        state["room_new_bank"] = state.pop(MADE_BANK)
    bank_name = st.selectbox("Question bank", list(banks), key="room_new_bank") \
        if len(banks) > 1 else next(iter(banks))
    if (note := state.pop(MADE_NOTE, None)) is not None:
        st.success(note, icon=":material/task_alt:")
    try:
        questions = room_bank(bank_name)
    except BankError as e:
        st.error(f"The question bank could not be read: {e}", icon=":material/error:")
        return
    bank = questions.bank
    titles = lesson_titles()
    seed = int(state.setdefault("room_new_seed", secrets.randbelow(10**6)))
    rule_set = ALL_RULE_SETS
    if kind == "drill":
        cols = st.columns(2)
        drill = cols[0].selectbox("Drill", ["mixed", "end-game", "theme"], key="room_new_drill",
                                  format_func={"mixed": "Mixed decisions",
                                               "end-game": "End-game (graded by perfect play)",
                                               "theme": "One theme"}.__getitem__)
        family = family_picker(ROOM, label="Rules", container=cols[1],
                               extra={ALL_RULE_SETS: room_text.EVERY_RULE_SET})
        if family != ALL_RULE_SETS:
            ruleset = chosen(ROOM)
            rules_expander(ruleset, ROOM)
            rule_set = ruleset.text
        theme = st.selectbox("Theme", [t for t, _ in bank.themes().most_common()],
                             key="room_new_theme") if drill == "theme" else None
        count = st.slider("Questions", 3, 20, 10, key="room_new_count")
        source = Source.model_validate({
            "kind": "drill", "bank": bank_name, "drill": drill, "theme": theme,
            "rule_set": rule_set, "count": count, "seed": seed})
    elif kind == "puzzles":
        which = st.selectbox("Puzzles", list(room_text.PUZZLE_KINDS), key="room_new_puzzles",
                             format_func=room_text.PUZZLE_KINDS.__getitem__)
        count = st.slider("Questions", 3, 20, 10, key="room_new_puzzle_count")
        source = Source.model_validate({"kind": "puzzles", "bank": bank_name,
                                        "puzzles": which, "count": count, "seed": seed})
    else:
        lessons = [ALL_LESSONS, *lesson_ids(bank)]
        lesson = st.selectbox("Lesson", lessons, key="room_new_lesson",
                              format_func=lambda x: "Every lesson's questions" if x == ALL_LESSONS
                              else titles.get(x, x))
        source = Source(kind="lesson", bank=bank_name, lesson=lesson, count=20)
    settings = _new_settings()
    order = {lid: i for i, lid in enumerate(titles)}
    items = choose(bank, source, set(questions.grades.entries),
                   lambda s: order.get(s, len(order)))
    if kind == "drill" and rule_set != ALL_RULE_SETS and not items:
        _make_questions_panel(rule_set, bank_name, banks, count)
    st.caption(f"{len(items)} questions · {room_text.source_title(source, titles)}")
    st.button("Make the room", type="primary", icon=":material/meeting_room:", key="room_make",
              disabled=not items, width="stretch", on_click=_make,
              args=(rooms, source, settings, [i.id for i in items], bank.version))
    if (error := state.pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _new_settings(check: bool = False) -> RoomSettings:
    with st.expander("Room settings", icon=":material/tune:", expanded=True):
        return _settings_inputs(RoomSettings(), "room_new", names_open=True, check=check)


def _check_form(rooms: RoomStore) -> None:
    """A room of "Check yourself": the rules questions that end the Learn path, in their
    order, each right or wrong by the rules."""
    ids, version = check_ids()
    st.markdown(room_check.FORM_NOTE)
    if not ids:
        st.error(room_check.NO_LESSON, icon=":material/error:")
    source = Source(kind="check", lesson=check.DEFAULT_LESSON, count=max(1, len(ids)))
    settings = _new_settings(check=True)
    st.caption(f"{len(ids)} questions · {room_text.source_title(source, {})}")
    st.button("Make the room", type="primary", icon=":material/meeting_room:", key="room_make",
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
            st.button("Ask from that bank", icon=":material/swap_horiz:", key="room_use_made",
                      type="primary", on_click=_pick_bank, args=(ready,))
        st.button(f"Make {count} questions under these rules", icon=":material/construction:",
                  key="room_make_questions_button",
                  help=room_text.MAKE_HELP.format(rollouts=rule_banks.ROLLOUTS),
                  on_click=state.__setitem__, args=(MAKE, (rule_set, count)))
        asked = state.pop(MAKE, None)
        if asked is None or asked != (rule_set, count):
            return
        bar = st.progress(0.0, text="Bots are playing under these rules…")

        def progress(done: int, total: int) -> None:
            bar.progress(done / max(total, 1),
                         text=f"Valuing the questions… {done} of {total}")

        problems: list[str] = []
        made_bank = rule_banks.make_questions(rule_set, count, seed=secrets.randbelow(10**6),
                                              progress=progress, problems=problems)
        bar.progress(1.0, text=f"Done: {len(made_bank.items)} questions in the bank "
                               f"{made_bank.name!r}")
        state[MADE_BANK] = made_bank.name
        state[MADE_NOTE] = room_text.made_line(len(made_bank.items), made_bank.name)
        forget_banks()
        st.rerun()


def _pick_bank(name: str) -> None:
    session_state()[MADE_BANK] = name


def _make(rooms: RoomStore, source: Source, settings: RoomSettings, ids: list[str],
          bank_version: str) -> None:
    """The room is made before the rerun, and the address becomes the presenter's."""
    try:
        room, host = rooms.create(source, settings, ids, bank_version)
    except RoomError as e:
        session_state()[ERROR] = str(e)
        return
    st.query_params.from_dict({"code": room.code, "host": host})


def _settings_inputs(now: RoomSettings, key: str, names_open: bool,
                     check: bool = False) -> RoomSettings:
    names = st.radio("Names", list(NAMES), index=list(NAMES).index(now.names),
                     format_func=NAMES.__getitem__, key=f"{key}_names",
                     disabled=not names_open, horizontal=True)
    board = st.radio("Leaderboard", list(LEADERBOARD),
                     index=list(LEADERBOARD).index(now.leaderboard),
                     format_func=LEADERBOARD.__getitem__, key=f"{key}_board", horizontal=True,
                     help=room_check.RANKING_RULE if check else room_text.RANKING_RULE)
    live = st.radio("The room's answers on the screen", list(LIVE),
                    index=list(LIVE).index(now.live), format_func=LIVE.__getitem__,
                    key=f"{key}_live", horizontal=True)
    code = st.toggle(room_text.SCREEN_CODE_TOGGLE.format(digits=SCREEN_CODE_DIGITS),
                     value=now.screen_code, key=f"{key}_screen")
    most = st.number_input(room_text.MAX_SEATS_LABEL, min_value=1, max_value=MAX_SEATS,
                           value=now.max_seats, step=10, key=f"{key}_max_seats",
                           help=room_text.MAX_SEATS_HELP)
    return RoomSettings.model_validate({"names": names, "leaderboard": board, "live": live,
                                        "screen_code": code, "max_seats": int(most)})


# ------------------------------------------------------------------------------ controls
def _act(action: Callable[[], object]) -> None:
    try:
        action()
    except RoomError as e:
        session_state()[ERROR] = str(e)


def presenter(rooms: RoomStore, code: str, host: str) -> None:
    if not rooms.is_host(code, host):
        st.error(f"This link does not carry room {code}'s host key. To join as a player, "
                 "open the room without `host=` in the address.", icon=":material/lock:")
        return
    room = rooms.room(code)
    if room.status == "closed":
        st.info(f"Room {code} is closed.", icon=":material/door_front:")
        return
    if expired(room):
        _expired(rooms, room, host)
        return
    if room.source.kind == "check":
        _check_presenter(rooms, room, host)
        return
    questions = room_questions(room)
    if questions is None:
        return
    if questions.version != room.bank_version:
        st.warning("The question bank was rebuilt after this room was made; questions it "
                   "lost are skipped with a message.", icon=":material/warning:")
    _controls(rooms, room, host)
    if room.source.kind == "drill" and (rules := room_text.rules_line(
            room.source.rule_set)) is not None:  # the bar above names the rule set
        st.caption(rules)
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")
    if room.status == "lobby":
        st.fragment(_lobby, run_every=POLL_SECONDS)(rooms, room, host)
    elif room.status == "finished":
        _finished(rooms, room, host)
    else:
        found = room_item(room, questions)
        if found is not None:
            _question(rooms, room, host, *found)


def _controls(rooms: RoomStore, room: Room, host: str) -> None:
    code = room.code
    bar = st.columns([2, 2, 2, 2], vertical_alignment="center")
    bar[0].markdown(f"**Room {code}** · {room_text.source_title(room.source, lesson_titles())}")
    if room.status == "lobby":
        bar[1].button("Start", type="primary", icon=":material/play_arrow:", width="stretch",
                      on_click=_act, args=(lambda: rooms.start(code, host),), key="room_start")
    elif room.status == "question":
        bar[1].button("Reveal", type="primary", icon=":material/visibility:", width="stretch",
                      on_click=_act, args=(lambda: rooms.reveal(code, host),),
                      key="room_reveal")
    elif room.status == "revealed":
        label = "See the results" if room.last else "Next question"
        bar[1].button(label, type="primary", icon=":material/skip_next:", width="stretch",
                      on_click=_act, args=(lambda: rooms.next(code, host),), key="room_next")
        if not room.last:
            bar[2].button("End here", icon=":material/flag:", width="stretch",
                          on_click=_act, args=(lambda: rooms.finish(code, host),),
                          key="room_finish")
    with bar[3].popover("People and settings", icon=":material/tune:", width="stretch"):
        _people(rooms, room, host)
        st.divider()
        settings = _settings_inputs(room.settings, f"room_set_{room.version}",
                                    names_open=room.status == "lobby",
                                    check=room.source.kind == "check")
        if settings != room.settings:
            st.button("Apply settings", key="room_apply", on_click=_act,
                      args=(lambda: rooms.change_settings(code, host, settings),))
        st.caption(room_text.KEEP_LINK)
        st.code(host_link(code, host), language=None)
        st.button("Close the room", icon=":material/close:", key="room_close",
                  on_click=_act, args=(lambda: rooms.close(code, host),),
                  help="The code stops working; phones are told the room is closed.")


def _expired(rooms: RoomStore, room: Room, host: str) -> None:
    """An expired room stays expired until the host says otherwise: no step of theirs quietly
    lets phones in again, and the button says what reopening does."""
    hours = LIFETIME.seconds // 3600
    st.warning(room_text.EXPIRED_HOST.format(code=room.code, hours=hours),
               icon=":material/timer_off:")
    st.button(room_text.REOPEN.format(hours=hours), type="primary", key="room_reopen",
              icon=":material/lock_open:", help=room_text.REOPEN_HELP, on_click=_act,
              args=(lambda: rooms.reopen(room.code, host),))
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _people(rooms: RoomStore, room: Room, host: str) -> None:
    """Who is in the room, read afresh every few seconds (a fragment), so someone who joined
    since the host's last click is listed; tick several and remove them in one step."""
    st.fragment(_people_list, run_every=POLL_SECONDS * 2 if room.open else None)(
        rooms, room, host)


def _kick_key(token: str) -> str:
    # The seat token is that phone's key to its seat: a hash of it names the checkbox.
    return f"room_kick_{token_hash(token)[:16]}"


def _people_list(rooms: RoomStore, room: Room, host: str) -> None:
    try:
        seats = [s for s in rooms.seats(room.code, host) if not s.kicked]
    except RoomError as e:
        st.error(str(e), icon=":material/error:")
        return
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


# ------------------------------------------------------------------------------ the screen
def _join_panel(room: Room, large: bool) -> None:
    """Large in the lobby; during a question a strip, so late arrivals can still join while
    the table keeps the screen."""
    link = join_link(room.code)
    screen = screen_code(room.join_secret) if room.settings.screen_code else None
    if not large:
        st.html('<div style="display:flex;gap:1.2rem;align-items:center">'
                + qr_svg(link, size_px=96, label=f"Join room {room.code}")
                + room_text.join_strip_html(room.code, link, screen) + "</div>")
        return
    network_note(host=True)
    left, right = st.columns([3, 2], vertical_alignment="center")
    with left:
        st.html(room_text.code_html(room.code) + room_text.join_html(link))
        if screen is not None:
            st.html(room_text.screen_code_html(screen))
    with right:
        st.html(qr_svg(link, size_px=320, label=f"Join room {room.code}"))


def _lobby(rooms: RoomStore, room: Room, host: str) -> None:
    _join_panel(room, large=True)
    seats = [s for s in rooms.seats(room.code, host) if not s.kicked]
    st.html(f'<p class="room-count">{room_text.joined_line(len(seats))}</p>'
            + room_text.names_html([s.nickname for s in seats]))


def _question(rooms: RoomStore, room: Room, host: str, item: Item, solved: Solved | None
              ) -> None:
    if room.status == "question":  # the rotating screen code must stay current
        st.fragment(_join_panel, run_every=POLL_SECONDS if room.settings.screen_code
                    else None)(room, False)
    st.subheader(room_text.question_header(room))
    if (rules := room_text.question_rules_line(item.variant, room.source.rule_set)) is not None:
        st.caption(rules)
    table, side = st.columns([3, 2], gap="medium")
    with table:
        # A big table for a few players; past four, or once the results need the room,
        # the compact one, so the deciding seat and the charts stay on a 768-pixel screen.
        words = draw_question(item, room.bank_version,
                              compact=item.players > 4 or room.status == "revealed")
    if words is None:
        return
    line, question, seat_name = words
    with side:
        st.caption(room_text.seat_line(seat_name))
        st.html(f'<p class="room-big-question"><b>{line}</b><br>{question}</p>')
        if room.status == "question":
            st.fragment(_live, run_every=POLL_SECONDS)(rooms, room, host, item)
            return
        answers = rooms.answers(room.code, host, room.question)
        best = solved.best if solved is not None else item.best.label
        _reveal(rooms, room, host, item, solved, answers, best)
    with table:  # the charts under the compact table, so the screen shows all at once
        if answers:
            st.altair_chart(room_charts.grade_chart(grade_counts(answers)))
        _charts(answers, item, best)


def _live(rooms: RoomStore, room: Room, host: str, item: Item) -> None:
    joined, answered = rooms.tally(room.code, host, room.question)
    st.html(room_text.count_html(answered, joined))
    if room.settings.live != "live":
        st.caption(room_text.HIDDEN_UNTIL_REVEAL)
        return
    answers = rooms.answers(room.code, host, room.question)
    _charts(answers, item, best=None)


def _charts(answers: list[RoomAnswer], item: Item, best: str | None) -> None:
    if not answers:
        st.caption(room_text.NO_ANSWERS_YET)
        return
    if item.has_claim:
        st.altair_chart(room_charts.stated_chart(stated_histogram(answers)))
    st.altair_chart(room_charts.action_chart(
        action_counts(answers, [o.label for o in item.options]), best))


def _reveal(rooms: RoomStore, room: Room, host: str, item: Item, solved: Solved | None,
            answers: list[RoomAnswer], best: str) -> None:
    joined, answered = rooms.tally(room.code, host, room.question)
    st.html(room_text.count_html(answered, joined))
    if item.has_claim and item.claimant is not None and item.claim is not None:
        st.markdown(room_text.truth_line(item.game().names[item.claimant], item.claim,
                                         bool(item.bluff)))
        if (line := room_text.bot_line(item.bot, item.p_star)) is not None:
            st.markdown(line)
        stated = [a.stated for a in answers if a.stated is not None]
        mean = statistics.fmean(stated) if stated else None
        if (line := room_text.class_belief_line(mean, len(stated))) is not None:
            st.markdown(line)
    share = sum(a.action == best for a in answers) / len(answers) if answers else None
    st.markdown(room_text.best_line(best, share))
    if (line := room_text.wrong_line(popular_wrong(answers))) is not None:
        st.markdown(line)
    if solved is None:
        close = [o.label for o in item.options if o.label != best
                 and (r := item.lost_range(o.label)) is not None and r[0] < 1.0]
        if close and item.claimant is not None:
            st.caption(room_text.doubt_line(item.game().names[item.claimant], close))
    if room.settings.leaderboard == "each":
        _ranking(rooms, room, host, top=5)


def _names(rooms: RoomStore, room: Room, host: str) -> dict[str, str]:
    return {s.token: s.nickname for s in rooms.seats(room.code, host) if not s.kicked}


def _ranking(rooms: RoomStore, room: Room, host: str, top: int | None) -> None:
    table = standings(rooms.answers(room.code, host), _names(rooms, room, host))
    st.markdown("**Leaderboard**")
    check_room = room.source.kind == "check"
    rows = room_check.ranking_rows(table, top) if check_room \
        else room_text.standings_rows(table, top)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(room_check.RANKING_RULE if check_room else room_text.RANKING_RULE)


def _finished(rooms: RoomStore, room: Room, host: str) -> None:
    answers = rooms.answers(room.code, host)
    st.header("How the room did")
    if (early := room_text.ended_early_line(room.asked, len(room.questions))) is not None:
        st.caption(early)
    left, right = st.columns([3, 2], gap="large")
    with left:
        table = reliability_table(answers)
        if table.empty:
            st.info("No chance of a bluff was given, so there is no calibration chart.")
        else:
            st.altair_chart(reliability_chart(table, you="the class"), width="stretch",
                            height=400)
    with right:
        for line in room_text.scores_lines(class_scores(answers)):
            st.markdown(line)
        if answers:
            st.altair_chart(room_charts.grade_chart(grade_counts(answers)))
    if room.settings.leaderboard in ("end", "each"):
        _ranking(rooms, room, host, top=10)
    with st.expander("Each person's results", icon=":material/group:"):
        rows = room_text.standings_rows(standings(answers, _names(rooms, room, host)))
        st.dataframe(pd.DataFrame(rows).sort_values("Name") if rows else pd.DataFrame(),
                     hide_index=True, width="stretch")


# ------------------------------------------------------------------ "Check yourself" rooms
def _check_presenter(rooms: RoomStore, room: Room, host: str) -> None:
    """The screen of a rules room: the lesson file's questions, no question bank."""
    if room.bank_version != check_version():
        st.warning(room_check.CHANGED, icon=":material/warning:")
    _controls(rooms, room, host)
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")
    if room.status == "lobby":
        st.fragment(_lobby, run_every=POLL_SECONDS)(rooms, room, host)
    elif room.status == "finished":
        _check_finished(rooms, room, host)
    elif (question := check_question(room)) is not None:
        _check_on_screen(rooms, room, host, question)


def _check_on_screen(rooms: RoomStore, room: Room, host: str, question: CheckQuestion
                     ) -> None:
    if room.status == "question":
        st.fragment(_join_panel, run_every=POLL_SECONDS if room.settings.screen_code
                    else None)(room, False)
    st.subheader(room_text.question_header(room))
    drawn = draw_check(question)
    # The options sit under the table, where the screen has room; the words beside it.
    table, side = st.columns([3, 2], gap="medium")
    with table:
        st.html(drawn.table)
    with side:
        st.caption(room_check.seat_line(question))
        st.html(room_check.question_html(question))
    if room.status == "question":
        with table:
            if room.settings.live == "live":
                st.fragment(_check_live_options, run_every=POLL_SECONDS)(
                    rooms, room, host, question, drawn.labels)
            else:
                st.html(room_check.options_html(question, drawn.labels, None,
                                                revealed=False))
        with side:
            st.fragment(_check_count, run_every=POLL_SECONDS)(rooms, room, host)
        return
    answers = rooms.answers(room.code, host, room.question)
    with table:
        st.html(room_check.options_html(question, drawn.labels,
                                        Counter(a.action for a in answers), revealed=True))
    with side:
        right, answered = right_count(answers)
        st.html(f'<p class="room-count">{room_check.class_right_line(right, answered)}</p>')
        st.markdown(room_check.right_line(question, drawn.labels))
        if (after := room_check.after_line(question)) is not None:
            st.caption(after)
        if room.settings.leaderboard == "each":
            _ranking(rooms, room, host, top=5)


def _check_count(rooms: RoomStore, room: Room, host: str) -> None:
    """Polled: how many have answered."""
    joined, answered = rooms.tally(room.code, host, room.question)
    st.html(room_text.count_html(answered, joined))
    if room.settings.live != "live":
        st.caption(room_text.HIDDEN_UNTIL_REVEAL)


def _check_live_options(rooms: RoomStore, room: Room, host: str, question: CheckQuestion,
                        labels: tuple[str, ...]) -> None:
    """Polled, in a room whose answers are live: the count per option (which one is right
    is said only at the reveal)."""
    answers = rooms.answers(room.code, host, room.question)
    st.html(room_check.options_html(question, labels, Counter(a.action for a in answers),
                                    revealed=False))


def _check_finished(rooms: RoomStore, room: Room, host: str) -> None:
    """The end: the class's score, each question's share right, and each person's results
    (whose table downloads as CSV from its toolbar)."""
    answers = rooms.answers(room.code, host)
    st.header("How the room did")
    if (early := room_text.ended_early_line(room.asked, len(room.questions))) is not None:
        st.caption(early)
    asked = [a for a in answers if a.question < room.asked]
    right, answered = right_count(asked)
    st.html(room_check.total_html(right, answered, room.asked))
    st.html(room_check.summary_html(check_questions(room), right_by_question(asked),
                                    room.asked))
    if room.settings.leaderboard in ("end", "each"):
        _ranking(rooms, room, host, top=10)
    names = _names(rooms, room, host)
    marks = {(a.seat, a.question): bool(a.correct) for a in asked if a.correct is not None}
    with st.expander("Each person's results", icon=":material/group:"):
        st.dataframe(pd.DataFrame(room_check.person_rows(names, marks, room.asked)),
                     hide_index=True, width="stretch")
