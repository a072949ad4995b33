"""What both sides of a room share: the room store on the answers' database, the room's
question bank, the cheap poll, and the question drawn on a table.

Why the poll is cached for a second across every tab: 60 phones asking "has anything changed?"
every two seconds would be 30 queries a second; shared, it is one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from trainer.i18n import current_language, tr
from trainer.quiz.bank import Bank, BankError, Item, available_banks
from trainer.quiz.feedback import describe_decision, highlighted, option_namer
from trainer.quiz.solved import Solved, SolvedGrades
from trainer.rooms import check
from trainer.rooms.check import CheckQuestion
from trainer.rooms.model import Room
from trainer.rooms.questions import resolve
from trainer.rooms.store import RoomError, RoomStore
from trainer.scenarios import ScenarioError
from trainer.ui.links import lan_command, reachable_from_lan
from trainer.ui.resources import lesson_library, question_bank, solved_grades
from trainer.ui.store import store_beside_answers
from trainer.views import cardart, room_text
from trainer.views.history_text import HISTORY_CSS, history_html, history_rows, history_title
from trainer.views.room_check import CHECK_CSS, Drawn, drawn
from trainer.views.room_text import ROOM_CSS
from trainer.views.table_art import TABLE_CSS, table_html
from trainer.views.table_view import table_view


def room_store() -> tuple[RoomStore | None, str | None]:
    """The rooms, on the answers' database; None and why when it cannot be reached."""
    return store_beside_answers(RoomStore, RoomError)


@st.cache_data(ttl=1, show_spinner=False, max_entries=1000)
def pulse(code: str) -> tuple[int, str] | None:
    """The room's version and status, at most a second old: what phones poll."""
    rooms, _ = room_store()
    return None if rooms is None else rooms.pulse(code)


@st.cache_data(show_spinner=False, max_entries=1000)
def room_at(code: str, version: int) -> Room:
    """The room as of `version`: every phone of a process shares one read per change of the
    room (the version comes from `pulse`). RoomGone when the code names no room."""
    rooms, problem = room_store()
    if rooms is None:
        raise RoomError(problem or tr("the database cannot be reached"))
    return rooms.room(code)


@dataclass(frozen=True)
class Questions:
    bank: Bank
    grades: SolvedGrades
    version: str  # the bank's, computed once (it hashes every item id)


@st.cache_resource(show_spinner=False, ttl=30)
def _questions(name: str) -> Questions:
    banks = available_banks()
    if name not in banks:
        raise BankError(tr("the question bank {name} is no longer on this server; expected one "
                           "of {banks}", name=repr(name), banks=", ".join(banks) or tr("none")))
    bank = question_bank(banks[name])
    return Questions(bank, solved_grades(banks[name], bank), bank.version)


def forget_banks() -> None:
    """Read the banks afresh (a bank was just made or added to)."""
    _questions.clear()


def room_bank(name: str) -> Questions:
    """The bank a room draws from, with its exact end-game grades; BankError when gone.
    Looked up at most every 30 s: every phone asks on every run."""
    return _questions(name)


def room_questions(room: Room) -> Questions | None:
    """The room's bank, or None after saying on the page why it cannot be read."""
    try:
        return room_bank(room.source.bank)
    except BankError as e:
        st.error(tr("The room's questions cannot be read: {problem}", problem=e),
                 icon=":material/error:")
        return None


def lesson_titles() -> dict[str, str]:
    """Each lesson's title as its file writes it, in English (the catalogue's key): shown
    through `tr()`."""
    return {lesson.id: lesson.title for lesson in lesson_library().lessons}


def room_item(room: Room, questions: Questions) -> tuple[Item, Solved | None] | None:
    """The question on the screen and its exact grade if it has one, or None (and a message)
    when it cannot be found."""
    if room.item_id is None:
        return None
    found = resolve(questions.bank, questions.grades, room.item_id, room.source.rule_set)
    if found is None:
        st.error(tr("Question {number} ({item}) cannot be found: the question bank or the "
                    "end-game table changed after this room was made. Move on to the next "
                    "question.", number=room.question + 1, item=room.item_id),
                 icon=":material/error:")
    return found


def network_note(*, host: bool) -> None:
    """Whether phones can reach this server, read from the address it listens on
    (`server.address`): a class that scans a QR code leading nowhere has lost the lesson's
    first minutes, so the host sees it before making the room, with the command that fixes
    it; a phone's join page says the same in one line."""
    if reachable_from_lan():
        st.caption(tr(room_text.LAN_OPEN) if host else tr(room_text.PHONE_LAN))
    elif host:
        st.warning(room_text.loopback_only(lan_command()), icon=":material/wifi_off:")
    else:
        st.caption(room_text.phone_loopback(lan_command()))


def styles() -> None:
    st.html(cardart.stylesheet() + TABLE_CSS + HISTORY_CSS + ROOM_CSS + CHECK_CSS)


# ------------------------------------------------------------------ "Check yourself" rooms
def check_ids() -> tuple[list[str], str]:
    """The questions a new "Check yourself" room asks, and their version."""
    library = lesson_library()
    return check.question_ids(library), check.version(library)


def check_version() -> str:
    return check.version(lesson_library())


def check_question(room: Room) -> CheckQuestion | None:
    """The rules question on the screen, or None (and a message) when the lesson file no
    longer asks it."""
    if room.item_id is None:
        return None
    found = check.resolve(lesson_library(), room.item_id)
    if found is None:
        st.error(tr("Question {number} ({item}) cannot be found: the \"Check yourself\" "
                    "lesson file changed after this room was made, and that step no longer "
                    "asks a question. Move on to the next question.",
                    number=room.question + 1, item=room.item_id), icon=":material/error:")
    return found


def check_questions(room: Room) -> dict[int, CheckQuestion | None]:
    """Every question of the room by its index (None for one the lesson no longer asks)."""
    library = lesson_library()
    return {i: check.resolve(library, q) for i, q in enumerate(room.questions)}


@st.cache_data(show_spinner=False, max_entries=64)
def _check_drawn(version: str, item_id: str, language: str, _question: CheckQuestion) -> Drawn:
    """A rules question's table and labels: the same for every phone of one language, drawn
    once per process, version of the lesson file and language."""
    return drawn(_question)


def draw_check(question: CheckQuestion) -> Drawn:
    """The table from the learner's seat (hidden cards stay hidden) and the options' words."""
    return _check_drawn(check_version(), question.id, current_language(), question)


@st.cache_data(show_spinner=False, max_entries=256)
def _drawn(version: str, item_id: str, compact: bool, language: str, _item: Item
           ) -> tuple[str, str, str, str, str]:
    """The table's HTML, the decision's words, the seat's name and the history's HTML of one
    question: the same for every phone of one language, so drawn once per process and
    language (a room's screen and phones may each read their own)."""
    game = _item.game()
    obs = game.observation(_item.viewer)
    table = table_html(table_view(obs, latest=highlighted(_item, obs)), compact=compact)
    line, question = describe_decision(_item, game)
    rows = history_rows(obs)
    return table, line, question, game.names[_item.viewer], history_title(rows) + "\n" + \
        history_html(rows)


def draw_question(item: Item, version: str, *, compact: bool) -> tuple[str, str, str] | None:
    """The table as the viewer sees it (hidden cards stay hidden), the decision's words and
    the name of the seat everyone plays; None, with a message, when the position cannot be
    rebuilt."""
    try:
        table, line, question, seat, _history = _drawn(version, item.id, compact,
                                                       current_language(), item)
    except (ScenarioError, ValueError, IndexError, OSError) as e:
        problem = e.words() if isinstance(e, ScenarioError) else str(e)
        st.error(tr("Question {item} could not be rebuilt: {problem}", item=item.id,
                    problem=problem), icon=":material/error:")
        return None
    st.html(table)
    return line, question, seat


@st.cache_data(show_spinner=False, max_entries=2000)
def _labels(version: str, item_id: str, language: str, _item: Item) -> dict[str, str]:
    """Each option's stored label to its words in `language`: the same for every phone of one
    language, so worked out once per process (it replays the game)."""
    say = option_namer(_item, _item.game())
    return {o.label: say(o.label) for o in _item.options}


def namer(version: str, item: Item) -> Callable[[str], str]:
    """A stored option label to its words in this visitor's language."""
    words = _labels(version, item.id, current_language(), item)
    return lambda label: words.get(label, label)


def history_fold(item: Item, version: str) -> None:
    """Every earlier move, as the Quiz shows it: the facts the bot's estimate used."""
    try:
        drawn = _drawn(version, item.id, True, current_language(), item)
    except (ScenarioError, ValueError, IndexError, OSError):
        return
    title, body = drawn[4].split("\n", 1)
    with st.expander(title, icon=":material/history:"):
        st.html(body)
