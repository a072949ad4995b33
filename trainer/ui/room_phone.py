"""A participant's phone: join in two steps, answer, see their own feedback.

Why the seat lives in the address (`?code=…&seat=…`): a reload, a closed tab, a dropped
network or a restarted server all come back to the same address, and the database still has
the seat and its answers. Why only `pulse` in the polled fragment: it runs every two seconds
on every phone, so it reads two integers and reruns the page only when the host changed
something.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime

import streamlit as st

from trainer.i18n import current_language, tr
from trainer.learners import identity
from trainer.learners.answers import now as clock_now
from trainer.quiz.bank import Item
from trainer.quiz.feedback import AnswerError, Feedback, feedback, grade
from trainer.quiz.solved import Solved
from trainer.rooms.check import CheckQuestion, rules_fields
from trainer.rooms.codes import SCREEN_CODE_DIGITS, code_problem, normalise_code
from trainer.rooms.model import Room, RoomAnswer, Seat
from trainer.rooms.nicknames import generated_name
from trainer.rooms.questions import grade_answer, resolve
from trainer.rooms.results import answer_points
from trainer.rooms.store import NameTaken, RoomError, RoomGone, RoomStore, usable
from trainer.ui.quiz_parts import verdict_box
from trainer.ui.rooms import (
    Questions,
    check_question,
    check_questions,
    draw_check,
    draw_question,
    history_fold,
    namer,
    network_note,
    pulse,
    room_at,
    room_item,
    room_questions,
    room_store,
)
from trainer.ui.state import session_state
from trainer.verdicts.rules import RulesAnswerError
from trainer.views import quiz_text, room_check, room_text

POLL_SECONDS = 2
ERROR = "room_phone_error"
NOTICE = "room_phone_notice"  # which answer counts, for a tab whose answer came second


def enter_code() -> None:
    """Step one without a QR: type the code."""
    st.title(tr(room_text.JOIN_TITLE))
    network_note(host=False)
    with st.form("room_code_form", border=False):
        st.text_input(tr("Room code"), max_chars=12, placeholder="ABC234", key="room_typed_code",
                      help=tr(room_text.JOIN_INTRO))
        st.form_submit_button(tr("Next"), type="primary", width="stretch", on_click=_code_typed)
    if (error := session_state().pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _code_typed() -> None:
    typed = str(session_state().get("room_typed_code") or "")
    problem = code_problem(typed)
    if problem:
        session_state()[ERROR] = problem
    else:
        st.query_params["code"] = normalise_code(typed)


def join(rooms: RoomStore, code: str) -> None:
    """Step two: a name (typed or generated), the screen code if the host asked for one."""
    try:
        room = rooms.live_room(code)
    except RoomGone as e:
        st.error(str(e), icon=":material/door_front:")
        _try_another_code()
        return
    st.title(tr("Join room {code}", code=code))
    network_note(host=False)
    if not room.open:
        st.info(tr("Room {code} has finished. Ask the host for the next code.", code=code))
        return
    state = session_state()
    key = f"room_suggested_{code}"
    if key not in state:
        state[key] = generated_name(random.Random(), rooms.taken_names(code))
    with st.form("room_join_form", border=False):
        if room.settings.names == "names":
            st.text_input(tr("Your name on the screen"), value=state[key], max_chars=20,
                          key="room_typed_name")
        else:
            st.markdown(tr("You will be **{name}** in this room (names are anonymous).",
                           name=state[key]))
        if room.settings.screen_code:
            st.text_input(room_text.screen_code_label(SCREEN_CODE_DIGITS),
                          max_chars=SCREEN_CODE_DIGITS, key="room_typed_screen")
        st.form_submit_button(tr("Join"), type="primary", width="stretch", on_click=_join,
                              args=(rooms, room, key))
    if (error := state.pop(ERROR, None)) is not None:
        st.error(error, icon=":material/error:")


def _join(rooms: RoomStore, room: Room, suggested: str) -> None:
    state = session_state()
    name = state.get("room_typed_name") if room.settings.names == "names" else None
    typed = room.settings.names == "names" and name
    for _ in range(3):  # a generated name taken a moment ago: another, without a click
        try:
            seat = rooms.join(room.code, str(name or state[suggested]),
                              state.get("room_typed_screen"), browser=_browser())
            break
        except NameTaken as e:  # someone has the name: a typed one is said, a drawn one redrawn
            state[suggested] = generated_name(random.Random(), rooms.taken_names(room.code))
            if typed:
                state[ERROR] = str(e)
                return
            name = None
        except RoomError as e:
            state[ERROR] = str(e)
            return
    else:
        state[ERROR] = tr("Joining failed three times: press Join again.")
        return
    st.query_params["seat"] = seat.token


def _browser() -> str:
    """This browser's own id (its learner cookie, or the one this tab drew): the store gives
    a browser its seat back rather than a new one, so a page that lost `seat=` from its
    address, or a reload of the join page, never fills the room."""
    return identity.browser_learner(session_state(), st.context.cookies.get(identity.COOKIE))


def _try_another_code() -> None:
    st.button(tr("Type another code"), icon=":material/keyboard:", key="room_other_code",
              on_click=_leave, args=("code", "seat"))


def _leave(*params: str) -> None:
    for p in params:
        st.query_params.pop(p, None)


def _watch(code: str, seen: int) -> None:
    """Polled: reruns the page when the host has changed the room."""
    now = pulse(code)
    if now is None or now[0] != seen:
        st.rerun(scope="app")


def seat_view(rooms: RoomStore, code: str, token: str) -> None:
    now = pulse(code)
    seat = _seat(code, token, now[0] if now else 0)
    if seat is None:
        st.error(tr("This link's seat is not in room {code}. Join again with the code.",
                    code=code), icon=":material/error:")
        st.button(tr("Join again"), type="primary", key="room_join_again", on_click=_leave,
                  args=("seat",))
        return
    try:
        room = usable(room_at(code, now[0]) if now else rooms.room(code))
    except RoomError as e:  # gone, closed, expired, or a damaged row: said as it is
        st.info(str(e), icon=":material/door_front:")
        return
    if seat.kicked:
        st.warning(tr("The host removed you from this room."), icon=":material/person_remove:")
        return
    st.fragment(_watch, run_every=POLL_SECONDS)(code, room.version)
    st.caption(room_text.phone_header(code, seat.nickname))
    if (rules := room_text.room_rules(room.source)) is not None:
        st.caption(rules)
    if room.status == "lobby":
        st.info(tr(room_text.WAITING_START), icon=":material/hourglass_top:")
        return
    if room.source.kind == "check":
        _check_seat(rooms, room, token)
        return
    questions = room_questions(room)
    if questions is None:
        return
    mine = rooms.my_answers(code, token)
    if room.status == "finished":
        _my_results(room, mine, questions)
        return
    found = room_item(room, questions)
    if found is None:
        return
    item, solved = found
    st.subheader(room_text.question_header(room))
    if (rules := room_text.question_rules_line(item.variant, room.source.rule_set)) is not None:
        st.caption(rules)
    words = draw_question(item, questions.version, compact=True)
    if words is None:
        return
    line, question, seat_name = words
    st.caption(room_text.seat_line(seat_name))
    st.markdown(f"**{line}**  \n{question}")
    answer = mine.get(room.question)
    say = namer(questions.version, item)
    if room.status == "question" and answer is None:
        _controls(rooms, room, token, item, solved, questions.version)
    elif room.status == "question":
        _first_counts()
        st.markdown(room_text.my_answer_line(say(answer.action), answer.stated))  # type: ignore[union-attr]
        st.info(tr(room_text.WAITING_REVEAL), icon=":material/hourglass_top:")
    else:
        _my_feedback(item, answer, solved, questions.version)
        st.caption(tr(room_text.WAITING_NEXT))
    history_fold(item, questions.version)


@st.cache_data(show_spinner=False, max_entries=5000)
def _seat(code: str, token: str, version: int) -> Seat | None:
    """The seat as of the room's `version` (a kick changes the version)."""
    rooms, _ = room_store()
    return None if rooms is None else rooms.seat(code, token)


def _controls(rooms: RoomStore, room: Room, token: str, item: Item, solved: Solved | None,
              bank_version: str) -> None:
    """The Quiz's controls: the chance of a bluff for a claim, then one button per move."""
    slider = f"room_p_{room.code}_{room.question}"
    if item.has_claim:
        st.slider(tr("Chance it is a bluff"), 1, 99, 50, key=slider, format="%d%%",
                  help=tr("Your probability that the claimant does not hold the card."))
    say = namer(bank_version, item)
    for i, option in enumerate(item.options):
        st.button(say(option.label), key=f"room_option_{room.question}_{i}", width="stretch",
                  on_click=_submit, args=(rooms, room, token, item, option.label, solved,
                                          bank_version, slider))
    error = session_state().pop(ERROR, None)
    if error:
        st.error(error, icon=":material/error:")


def _submit(rooms: RoomStore, room: Room, token: str, item: Item, label: str,
            solved: Solved | None, bank_version: str, slider: str) -> None:
    state = session_state()
    stated = state.get(slider, 50) / 100 if item.has_claim else None
    started: datetime | None = room.question_at
    seconds = (clock_now() - started).total_seconds() if started else None
    try:
        fields = grade_answer(item, label, stated, solved, seconds, bank_version)
        stored = rooms.submit(room.code, token, room.question, **fields)  # type: ignore[arg-type]
    except (AnswerError, RoomError) as e:
        state[ERROR] = str(e)
        return
    if not stored:
        _told_which_counts(rooms, room, token, namer(bank_version, item))


def _told_which_counts(rooms: RoomStore, room: Room, token: str,
                       say: Callable[[str], str] = str) -> None:
    """This seat had already answered (another tab of it, or a tap a moment earlier): the
    first answer stored counts, and this tab is told which it was rather than left to think
    its own tap counted."""
    first = rooms.my_answers(room.code, token).get(room.question)
    if first is not None:
        session_state()[NOTICE] = room_text.first_answer_counts(say(first.action), first.stated)


def _first_counts() -> None:
    if (notice := session_state().pop(NOTICE, None)) is not None:
        st.warning(notice, icon=":material/info:")


@st.cache_data(show_spinner=False, max_entries=2000)
def _feedback(version: str, item_id: str, action: str, stated: float | None, language: str,
              _item: Item, _solved: Solved | None) -> Feedback:
    """The feedback on one answer: the same for every phone of one language that gave it,
    and it replays the game, so it is worked out once per process and language, not on each
    phone's every redraw."""
    record = grade(_item, action=action, stated=stated, learner="room-seat", bank=version,
                   answer_id="room-answer", mode="room", solved=_solved)
    return feedback(_item, record, solved=_solved)


def _my_feedback(item: Item, answer: RoomAnswer | None, solved: Solved | None,
                 bank_version: str) -> None:
    if answer is None:
        st.info(tr("You did not answer this one."), icon=":material/timer_off:")
        if item.has_claim and item.claimant is not None and item.claim is not None:
            st.markdown(room_text.truth_line(item.game().names[item.claimant], item.claim,
                                             bool(item.bluff)))
        return
    fb = _feedback(bank_version, item.id, answer.action, answer.stated, current_language(),
                   item, solved)
    say = namer(bank_version, item)
    st.markdown(room_text.my_answer_line(say(answer.action), answer.stated))
    verdict_box(fb)
    if fb.truth:
        st.markdown("**" + tr("The truth.") + f"** {fb.truth} {fb.outcome}")
    if fb.belief:
        st.markdown("**" + tr("Your belief.") + f"** {fb.belief}")
    if fb.call_out:
        st.info(quiz_text.call_out(fb.call_out), icon=":material/casino:")


def _my_results(room: Room, mine: dict[int, RoomAnswer], questions: Questions) -> None:
    st.subheader(tr("Your results"))
    points = sum(answer_points(a) for a in mine.values())
    asked = room.asked
    st.markdown(room_text.my_total_line(points, len(mine), asked))
    if (early := room_text.ended_early_line(asked, len(room.questions))) is not None:
        st.caption(early)
    lines = []
    for q in range(asked):  # the questions the room reached, not those it never asked
        a = mine.get(q)
        lines.append(room_text.my_result_line(q + 1, a.action if a else None,
                                              a.grade if a else None, a.best if a else None,
                                              a.stated if a else None,
                                              _questionnamer(room, questions, q)))
    if lines:
        st.markdown("\n".join(f"- {line}" for line in lines))
    st.caption(tr(room_text.RANKING_RULE))


def _questionnamer(room: Room, questions: Questions, q: int) -> Callable[[str], str]:
    """Question `q`'s option labels in this visitor's words (as stored, for a question its
    bank no longer holds)."""
    found = resolve(questions.bank, questions.grades, room.questions[q], room.source.rule_set)
    if found is None:
        return str
    return namer(questions.version, found[0])


# ------------------------------------------------------------------ "Check yourself" rooms
def _check_seat(rooms: RoomStore, room: Room, token: str) -> None:
    """A rules question on a phone: the table from the learner's seat, the question, one
    button per option (no chance of a bluff to give: the rules decide), then its verdict."""
    mine = rooms.my_answers(room.code, token)
    if room.status == "finished":
        _my_check_results(rooms, room, token, mine)
        return
    question = check_question(room)
    if question is None:
        return
    st.subheader(room_text.question_header(room))
    drawn = draw_check(question)
    st.html(drawn.table)
    st.caption(room_check.seat_line(question))
    st.markdown(room_check.question_text(question))
    answer = mine.get(room.question)
    if room.status == "question" and answer is None:
        for i, (option, label) in enumerate(zip(question.options, drawn.labels, strict=True)):
            st.button(label, key=f"room_option_{room.question}_{i}", width="stretch",
                      on_click=_check_submit, args=(rooms, room, token, question,
                                                    option.label))
        if (error := session_state().pop(ERROR, None)) is not None:
            st.error(error, icon=":material/error:")
    elif room.status == "question" and answer is not None:
        _first_counts()
        st.markdown(room_check.my_answer_line(question, drawn.labels, answer.action))
        st.info(tr(room_text.WAITING_REVEAL), icon=":material/hourglass_top:")
    else:
        if answer is None or answer.correct is None:
            st.info(tr("You did not answer this one."), icon=":material/timer_off:")
            st.markdown(room_check.right_line(question, drawn.labels))
        else:
            right, said = room_check.my_verdict(question, drawn.labels, answer.action,
                                                answer.correct)
            if right:
                st.success(said, icon=":material/check:")
            else:
                st.error(said, icon=":material/close:")
                st.markdown(room_check.right_line(question, drawn.labels))
        if (after := room_check.after_line(question)) is not None:
            st.caption(after)
        st.caption(tr(room_text.WAITING_NEXT))


def _check_submit(rooms: RoomStore, room: Room, token: str, question: CheckQuestion,
                  chosen: str) -> None:
    """The answer, judged by the verdict layer and stored once: a second tap, or a tap from a
    tab still showing a question the host has moved past, does not count."""
    started: datetime | None = room.question_at
    seconds = (clock_now() - started).total_seconds() if started else None
    try:
        fields = rules_fields(question, chosen, seconds)
        stored = rooms.submit(room.code, token, room.question, **fields)  # type: ignore[arg-type]
    except (RulesAnswerError, RoomError) as e:
        session_state()[ERROR] = str(e)
        return
    if not stored:
        _told_check_counts(rooms, room, token, question)


def _told_check_counts(rooms: RoomStore, room: Room, token: str,
                       question: CheckQuestion) -> None:
    """As `_told_which_counts`, the stored move worded as this phone's button was."""
    labels = draw_check(question).labels
    _told_which_counts(rooms, room, token,
                       lambda stored: room_check.label_of(question, labels, stored))


def _my_check_results(rooms: RoomStore, room: Room, token: str,
                      mine: dict[int, RoomAnswer]) -> None:
    st.subheader(tr("Your results"))
    asked = room.asked
    marks = {q: a.correct for q, a in mine.items() if q < asked and a.correct is not None}
    st.markdown(room_check.my_total_line(sum(marks.values()), len(marks), asked))
    if (early := room_text.ended_early_line(asked, len(room.questions))) is not None:
        st.caption(early)
    try:
        theirs = rooms.class_right(room.code, token)
    except RoomError:
        theirs = {}
    questions = check_questions(room)
    lines = [room_check.my_summary_line(q + 1, questions.get(q), marks.get(q),
                                        *theirs.get(q, (0, 0))) for q in range(asked)]
    if lines:
        st.markdown("\n".join(f"- {line}" for line in lines))
