"""The presenter screen: what the projector shows the class, and nothing that steers the room.

Why a page of its own, opened by a screen key: the projector is photographed, so its address
and every element it draws must be free of the host key. The screen holds only the room's
screen key (`trainer.rooms.codes.screen_token`), which reads what the class may see; the
store refuses it the answers to an open question unless the room's answers are live. The
controls are on the host's remote (`trainer.ui.room_host`), and the screen follows the room
as phones do, by polling the room once a second.

Why the whole screen is one polled fragment that draws everything afresh, and never reruns
the page: a page rerun started from a poll can cross another poll's run or the next tick of
its own. Under load (two workers and a full test run beside them) the projector was then
left blank, with nothing that would redraw it: first in the lobby, later during a question
while answers came in. One fragment, run only by its own timer, has no other run to cross;
the store's reads it makes each second are small, and the drawings are cached.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from trainer.i18n import tr
from trainer.quiz.bank import Item
from trainer.quiz.solved import Solved
from trainer.rooms.check import CheckQuestion
from trainer.rooms.codes import screen_code
from trainer.rooms.model import Room, RoomAnswer
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
from trainer.rooms.store import RoomError, RoomStore, ScreenOnly, expired
from trainer.ui.links import public_base_url
from trainer.ui.rooms import (
    check_question,
    check_questions,
    check_version,
    draw_check,
    draw_question,
    lesson_titles,
    namer,
    network_note,
    room_item,
    room_questions,
)
from trainer.views import room_charts, room_check, room_remote, room_text
from trainer.views.calibration_charts import reliability_chart
from trainer.views.qr import qr_svg

POLL_SECONDS = 1


def join_link(code: str) -> str:
    return f"{public_base_url()}/room?{room_remote.query(code=code)}"


@dataclass(frozen=True)
class Reads:
    """The screen's reads of one room, each checked against its screen key by the store."""

    rooms: RoomStore
    code: str
    screen: str

    def names(self) -> dict[str, str]:
        return self.rooms.screen_names(self.code, self.screen)

    def tally(self, question: int) -> tuple[int, int]:
        return self.rooms.screen_tally(self.code, self.screen, question)

    def answers(self, question: int | None = None) -> list[RoomAnswer]:
        return self.rooms.screen_answers(self.code, self.screen, question)


def screen(rooms: RoomStore, code: str, key: str) -> None:
    """The screen view of room `code` for the page holding its screen key `key`: one
    fragment, redrawn every second from what the store says now."""
    st.fragment(_now, run_every=POLL_SECONDS)(rooms, code, key)


def _now(rooms: RoomStore, code: str, key: str) -> None:
    try:
        room = rooms.screen_room(code, key)
    except ScreenOnly as e:
        st.error(str(e), icon=":material/lock:")
        return
    except RoomError as e:  # no such room, or a damaged one: said as it is
        st.error(str(e), icon=":material/error:")
        return
    if room.status == "closed":
        st.info(tr("Room {code} is closed.", code=code), icon=":material/door_front:")
        return
    if expired(room):
        st.warning(tr(room_remote.EXPIRED_SCREEN, code=code), icon=":material/timer_off:")
        return
    reads = Reads(rooms, code, key)
    st.markdown("**" + tr("Room {code}", code=code) + "** · "
                f"{room_text.source_title(room.source, lesson_titles())}")
    if room.source.kind == "check":
        _check_screen(reads, room)
        return
    questions = room_questions(room)
    if questions is None:
        return
    if room.source.kind == "drill" and (rules := room_text.rules_line(
            room.source.rule_set)) is not None:  # the line above names the rule set
        st.caption(rules)
    if room.status == "lobby":
        _lobby(room, tuple(reads.names().values()))
    elif room.status == "finished":
        _finished(reads, room)
    else:
        found = room_item(room, questions)
        if found is not None:
            _question(reads, room, *found)


def _join_panel(room: Room, large: bool) -> None:
    """Large in the lobby; during a question a strip, so late arrivals can still join while
    the table keeps the screen."""
    link = join_link(room.code)
    code = screen_code(room.join_secret) if room.settings.screen_code else None
    if not large:
        st.html('<div style="display:flex;gap:1.2rem;align-items:center">'
                + qr_svg(link, size_px=96, label=tr("Join room {code}", code=room.code))
                + room_text.join_strip_html(room.code, link, code) + "</div>")
        return
    network_note(host=True)
    left, right = st.columns([3, 2], vertical_alignment="center")
    with left:
        st.html(room_text.code_html(room.code) + room_text.join_html(link))
        if code is not None:
            st.html(room_text.screen_code_html(code))
    with right:
        st.html(qr_svg(link, size_px=320, label=tr("Join room {code}", code=room.code)))


def _lobby(room: Room, names: tuple[str, ...]) -> None:
    _join_panel(room, large=True)
    st.html(f'<p class="room-count">{room_text.joined_line(len(names))}</p>'
            + room_text.names_html(list(names)))


def _question(reads: Reads, room: Room, item: Item, solved: Solved | None) -> None:
    if room.status == "question":  # late arrivals can still join
        _join_panel(room, False)
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
            _live(reads, room, item)
            return
        answers = reads.answers(room.question)
        best = solved.best if solved is not None else item.best.label
        _reveal(reads, room, item, solved, answers, best)
    with table:  # the charts under the compact table, so the screen shows all at once
        if answers:
            st.altair_chart(room_charts.grade_chart(grade_counts(answers)))
        _charts(answers, item, best, room.bank_version)


def _live(reads: Reads, room: Room, item: Item) -> None:
    joined, answered = reads.tally(room.question)
    st.html(room_text.count_html(answered, joined))
    if room.settings.live != "live":
        st.caption(tr(room_text.HIDDEN_UNTIL_REVEAL))
        return
    try:
        answers = reads.answers(room.question)
    except RoomError:  # the host hid the answers between the poll and this read
        return
    _charts(answers, item, None, room.bank_version)


def _charts(answers: list[RoomAnswer], item: Item, best: str | None, version: str) -> None:
    if not answers:
        st.caption(tr(room_text.NO_ANSWERS_YET))
        return
    if item.has_claim:
        st.altair_chart(room_charts.stated_chart(stated_histogram(answers)))
    st.altair_chart(room_charts.action_chart(
        action_counts(answers, [o.label for o in item.options]), best,
        namer(version, item)))


def _reveal(reads: Reads, room: Room, item: Item, solved: Solved | None,
            answers: list[RoomAnswer], best: str) -> None:
    joined, answered = reads.tally(room.question)
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
    say = namer(room.bank_version, item)
    share = sum(a.action == best for a in answers) / len(answers) if answers else None
    st.markdown(room_text.best_line(say(best), share))
    if (line := room_text.wrong_line(popular_wrong(answers), say)) is not None:
        st.markdown(line)
    if solved is None:
        close = [say(o.label) for o in item.options if o.label != best
                 and (r := item.lost_range(o.label)) is not None and r[0] < 1.0]
        if close and item.claimant is not None:
            st.caption(room_text.doubt_line(item.game().names[item.claimant], close))
    if room.settings.leaderboard == "each":
        _ranking(reads, room, top=5)


def _ranking(reads: Reads, room: Room, top: int | None) -> None:
    table = standings(reads.answers(), reads.names())
    st.markdown("**" + tr("Leaderboard") + "**")
    check_room = room.source.kind == "check"
    rows = room_check.ranking_rows(table, top) if check_room \
        else room_text.standings_rows(table, top)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(tr(room_check.RANKING_RULE) if check_room else tr(room_text.RANKING_RULE))


def _finished(reads: Reads, room: Room) -> None:
    answers = reads.answers()
    st.header(tr("How the room did"))
    if (early := room_text.ended_early_line(room.asked, len(room.questions))) is not None:
        st.caption(early)
    left, right = st.columns([3, 2], gap="large")
    with left:
        table = reliability_table(answers)
        if table.empty:
            st.info(tr("No chance of a bluff was given, so there is no calibration chart."))
        else:
            st.altair_chart(reliability_chart(table, you=tr("the class")), width="stretch",
                            height=400)
    with right:
        for line in room_text.scores_lines(class_scores(answers)):
            st.markdown(line)
        if answers:
            st.altair_chart(room_charts.grade_chart(grade_counts(answers)))
    if room.settings.leaderboard in ("end", "each"):
        _ranking(reads, room, top=10)


# ------------------------------------------------------------------ "Check yourself" rooms
def _check_screen(reads: Reads, room: Room) -> None:
    """The screen of a rules room: the lesson file's questions, no question bank."""
    if room.bank_version != check_version():
        st.warning(tr(room_check.CHANGED), icon=":material/warning:")
    if room.status == "lobby":
        _lobby(room, tuple(reads.names().values()))
    elif room.status == "finished":
        _check_finished(reads, room)
    elif (question := check_question(room)) is not None:
        _check_on_screen(reads, room, question)


def _check_on_screen(reads: Reads, room: Room, question: CheckQuestion) -> None:
    if room.status == "question":
        _join_panel(room, False)
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
                _check_live_options(reads, room, question, drawn.labels)
            else:
                st.html(room_check.options_html(question, drawn.labels, None,
                                                revealed=False))
        with side:
            _check_count(reads, room)
        return
    answers = reads.answers(room.question)
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
            _ranking(reads, room, top=5)


def _check_count(reads: Reads, room: Room) -> None:
    """How many have answered."""
    joined, answered = reads.tally(room.question)
    st.html(room_text.count_html(answered, joined))
    if room.settings.live != "live":
        st.caption(tr(room_text.HIDDEN_UNTIL_REVEAL))


def _check_live_options(reads: Reads, room: Room, question: CheckQuestion,
                        labels: tuple[str, ...]) -> None:
    """In a room whose answers are live: the count per option (which one is right
    is said only at the reveal)."""
    try:
        answers = reads.answers(room.question)
    except RoomError:  # the room moved on between the poll and this read
        return
    st.html(room_check.options_html(question, labels, Counter(a.action for a in answers),
                                    revealed=False))


def _check_finished(reads: Reads, room: Room) -> None:
    """The end: the class's score and each question's share right. Each person's results
    are on the host's remote, not on the projector."""
    answers = reads.answers()
    st.header(tr("How the room did"))
    if (early := room_text.ended_early_line(room.asked, len(room.questions))) is not None:
        st.caption(early)
    asked = [a for a in answers if a.question < room.asked]
    right, answered = right_count(asked)
    st.html(room_check.total_html(right, answered, room.asked))
    st.html(room_check.summary_html(check_questions(room), right_by_question(asked),
                                    room.asked))
    if room.settings.leaderboard in ("end", "each"):
        _ranking(reads, room, top=10)
