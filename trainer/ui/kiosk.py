"""The kiosk's Streamlit parts: the loop that plays itself, and the one-decision station.

Why fragments on a timer: the loop must move on with nobody touching the screen, and
Streamlit pushes nothing to a browser by itself. A fragment with `run_every` reruns only
itself, once a second: it reads the clock, and draws the slide up now from HTML cached per
slide and phase, so a tick costs no replay and no solve. The station has a slower timer of its
own that gives the screen back to the loop after a minute without a touch.

The kiosk's state machine is `trainer.rooms.kiosk.Kiosk`; the time comes from `clock` (a
test sets its own). A kiosk is a shared screen: no answer given here is saved anywhere.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import streamlit as st

from trainer.i18n import current_language, tr
from trainer.quiz.bank import DEFAULT_BANK, Bank, Item
from trainer.quiz.feedback import feedback, option_namer
from trainer.quiz.solved import SolvedGrades
from trainer.rooms import kiosk as rk
from trainer.scenarios.lessons import Library
from trainer.ui.links import public_base_url
from trainer.ui.quiz_parts import verdict_box
from trainer.ui.resources import lesson_library, question_bank, solved_grades
from trainer.ui.state import session_state
from trainer.views import cardart, quiz_text
from trainer.views import kiosk_text as kt
from trainer.views.qr import qr_svg
from trainer.views.table_art import TABLE_CSS

SEED = 0  # the loop's order: the same on every kiosk and after every restart
QR_PX = 240


def clock() -> float:
    """The kiosk's clock, in seconds."""
    return time.time()


def _kiosk() -> rk.Kiosk:
    # The clock is looked up at each call, so a test that replaces `clock` is heard.
    return rk.Kiosk(session_state(), lambda: clock())


@dataclass(frozen=True)
class Deck:
    """What the kiosk plays: the lessons, the bank and its exact grades, the loop, and the
    decisions "Try it" draws from."""

    library: Library
    bank: Bank
    grades: SolvedGrades
    playlist: tuple[rk.Slide, ...]
    pool: tuple[Item, ...]


@st.cache_resource(show_spinner=False, max_entries=4)
def _deck(version: str, library: int, solved: int, _library: Library, _bank: Bank,
          _grades: SolvedGrades) -> Deck:
    return Deck(_library, _bank, _grades,
                rk.build_playlist(_library, _bank, _grades, SEED),
                tuple(rk.station_pool(_bank)))


def deck() -> Deck:
    """The shipped bank and the lesson folder's lessons, built into a loop once per
    version of either (the library is loaded anew, as a new object, when a file changes)."""
    library = lesson_library()
    bank = question_bank(DEFAULT_BANK)
    grades = solved_grades(DEFAULT_BANK, bank)
    return _deck(bank.version, id(library), len(grades), library, bank, grades)


def style() -> None:
    st.html(cardart.stylesheet() + TABLE_CSS + kt.KIOSK_CSS)


def mode() -> rk.Mode:
    return _kiosk().mode


# ------------------------------------------------------------------------ the loop
@st.cache_resource(show_spinner=False, max_entries=512)
def _qr(link: str) -> str:
    return qr_svg(link, size_px=QR_PX, label=link)


def slide_link(d: Deck, slide: rk.Slide, base: str) -> tuple[str, str]:
    """Where the slide's QR leads and what it says: a lesson's own page, or the first
    lesson of the five-minute path after a decision."""
    if isinstance(slide, rk.LessonSlide):
        lesson = d.library.get(slide.lesson)
        if lesson is not None:
            return rk.lesson_link(base, lesson.id), kt.lesson_qr_caption(lesson)
    path = d.library.five_minutes()
    first = path[0].id if path else None
    link = rk.lesson_link(base, first) if first else f"{base}/{rk.LEARN_PATH}"
    return link, tr(kt.FIRST_LESSON_CAPTION)


@st.cache_resource(show_spinner=False, max_entries=512)
def _slide_html(key: str, phase: rk.Phase, link: str, caption: str, language: str, _d: Deck,
                _slide: rk.Slide) -> str:
    """One slide's HTML in `language` (a kiosk's screen and a visitor's phone on one server
    may each read their own)."""
    qr = kt.qr_box(_qr(link), caption)
    if isinstance(_slide, rk.LessonSlide):
        lesson = _d.library.get(_slide.lesson)
        assert lesson is not None  # the playlist is built from this library
        return kt.lesson_slide(lesson, _slide, phase, qr)
    item = _d.bank.get(_slide.item)
    solved = _d.grades.entry(item) if item is not None else None
    assert item is not None and solved is not None  # the playlist holds solved items only
    return kt.decision_slide(item, item.game(), solved, phase, qr)


def slide_html(d: Deck, slide: rk.Slide, phase: rk.Phase, base: str) -> str:
    """The slide drawn whole (table, words and QR), once per slide, phase, address and
    language."""
    link, caption = slide_link(d, slide, base)
    key = f"{d.bank.version}:{id(d.library)}:{slide!r}"
    return _slide_html(key, phase, link, caption, current_language(), d, slide)


@st.fragment(run_every=rk.TICK_SECONDS)
def _slides(d: Deck, base: str) -> None:
    cursor, phase = _kiosk().cursor(d.playlist)
    slide = d.playlist[cursor.index]
    with st.container(key="kiosk_slide"):
        st.html(slide_html(d, slide, phase, base))


def loop(d: Deck) -> None:
    """The headline, "Try it", and the slides, moving on by themselves."""
    with st.container(horizontal=True, vertical_alignment="center", key="kiosk_head",
                      gap="medium"):
        st.markdown(f"### {tr(kt.LOOP_HEADLINE)}  \n{tr(kt.LOOP_LINE)}", width="stretch")
        st.button(tr(kt.TRY_IT), key="kiosk_try", type="primary", icon=":material/touch_app:",
                  on_click=_kiosk().try_it, args=(d.pool,), help=tr(kt.TRY_IT_HELP),
                  width="content", disabled=not d.pool)
    if not d.playlist:
        st.info(tr("There are no lessons and no solved decisions to show."),
                icon=":material/info:")
        return
    _slides(d, public_base_url())


# ------------------------------------------------------------------------ the station
@st.fragment(run_every=rk.IDLE_CHECK_SECONDS)
def _idle_watch() -> None:
    k = _kiosk()
    if k.idle():
        k.back_to_loop()
        st.rerun(scope="app")


def _answer_controls(k: rk.Kiosk, d: Deck, item: Item) -> None:
    """The Quiz's controls: the chance of a bluff on a claim, then one button per option;
    once answered, only the answer given stays, so the grade comes up into view."""
    answer = k.answer()
    done = answer is not None
    if item.has_claim and not done:
        st.slider(tr("Chance it is a bluff"), 1, 99, key=rk.STATED, format="%d%%",
                  on_change=k.touch,
                  help=tr("Your guess that the claimant does not hold the card."))
        with st.container(horizontal=True, gap="small"):
            for delta in (-5, 5):
                st.button(f"{delta:+d}%".replace("-", "−"), key=f"kiosk_nudge_{delta}",
                          on_click=k.nudge, args=(delta,), width="stretch")
    solved = d.grades.entry(item)
    say = option_namer(item, item.game())
    for i, option in enumerate(item.options):
        chosen = answer is not None and answer.action == option.label
        if done and not chosen:
            continue
        st.button(quiz_text.option_label(say(option.label), chosen), key=f"kiosk_option_{i}",
                  on_click=k.submit, args=(item, d.bank.version, option.label, solved),
                  disabled=done, width="stretch", type="primary" if chosen else "secondary",
                  icon=":material/check_circle:" if chosen else None)


def _feedback(k: rk.Kiosk, d: Deck, item: Item) -> None:
    """The grade, what the cards were, every option's chance of winning, then the guess
    against the bot's: what matters most first, as the screen is read from afar."""
    answer = k.answer()
    if answer is None:
        st.caption(tr(kt.IDLE_NOTE))
        return
    solved = d.grades.entry(item)
    fb = feedback(item, answer, item.game(), solved)
    with st.container(key="kiosk_grade"):
        verdict_box(fb)
    if fb.truth:
        st.markdown("**" + tr("The truth.") + f"** {fb.truth} {fb.outcome}")
    st.html(kt.station_chances(item, solved, answer.action))
    if fb.belief:
        st.markdown("**" + tr("Your guess.") + f"** {fb.belief}")
    if fb.call_out:
        st.info(quiz_text.call_out(fb.call_out), icon=":material/casino:")


def station(d: Deck) -> None:
    """One decision from a real game: the table as the visitor's seat sees it, the Quiz's
    answer controls, then the grade and every option's chance of winning."""
    k = _kiosk()
    item = d.bank.get(k.item_id() or "")
    if item is None:  # the bank changed under the station: back to the loop
        k.back_to_loop()
        st.rerun()
    assert item is not None
    game = item.game()
    with st.container(key="kiosk_station"):
        with st.container(horizontal=True, vertical_alignment="center", gap="medium"):
            st.markdown(f"### {tr(kt.STATION_TITLE)}", width="stretch")
            st.button(tr(kt.AGAIN), key="kiosk_again", icon=":material/refresh:",
                      on_click=k.try_it, args=(d.pool,), width="content")
            st.button(tr(kt.BACK), key="kiosk_back", icon=":material/slideshow:",
                      on_click=k.back_to_loop, width="content")
        table_col, side_col = st.columns([5, 4], gap="medium")
        table_col.html(kt.station_table(item, game))
        with side_col, st.container(border=True, key="kiosk_card"):
            st.markdown(kt.station_intro(item, game))
            _answer_controls(k, d, item)
            _feedback(k, d, item)
    _idle_watch()
