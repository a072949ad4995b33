"""The End-game page's duel of two cards against one: the picker, the two solves with their
progress bar, and the options, in the one-card explorer's look.

Why solved on request and kept per process (not a stored table): a table of every position
takes hours of CPU at two turns ahead (`docs/endgame.md`), while one position takes seconds and
nearby positions share the public graph the first one laid out.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

import streamlit as st

from trainer.endgame import hidden_two, hidden_two_tables
from trainer.endgame import practice as played
from trainer.endgame.known import MAX_COINS
from trainer.engine.names import card_name
from trainer.i18n import N_, tr
from trainer.learners.answers import now
from trainer.ui.endgame import Shelf, row
from trainer.ui.learner import current_learner
from trainer.ui.state import session_state
from trainer.views import endgame_two_view as view
from trainer.views import endgame_view as one
from trainer.views import practice_view as pview
from trainer.views.endgame_two_view import TwoChoice, TwoSolved
from trainer.views.table_art import TABLE_CSS

PREFIX = "eg2_"
KEYS = {"two": "eg2_two", "card0": "eg2_card0", "card1": "eg2_card1", "lost": "eg2_lost",
        "coins0": "eg2_coins_you", "coins1": "eg2_coins_them", "turn": "eg2_turn"}
WHO = {"you": N_("You"), "them": N_("They")}
TARGET = 1e-4  # a tenth of the settled test's tolerance, as the stored one-card table


def _defaults() -> dict[str, Any]:
    c = TwoChoice()
    return {KEYS["two"]: c.two, KEYS["card0"]: c.hand[0], KEYS["card1"]: c.hand[1],
            KEYS["lost"]: c.lost, KEYS["coins0"]: c.coins[0], KEYS["coins1"]: c.coins[1],
            KEYS["turn"]: c.turn}


def _from_state() -> TwoChoice:
    s = session_state()
    two = s[KEYS["two"]]
    hand = (s[KEYS["card0"]], s[KEYS["card1"]]) if two == "you" else (s[KEYS["card0"]],)
    return TwoChoice(two=two, hand=hand, lost=s[KEYS["lost"]],
                     coins=(int(s[KEYS["coins0"]]), int(s[KEYS["coins1"]])), turn=s[KEYS["turn"]])


LINK = "eg2_link"  # the parameters the section last wrote (or read)
ERRORS = "eg2_link_errors"


def _widget_values(choice: TwoChoice) -> dict[str, Any]:
    hand = (*choice.hand, choice.hand[0])[:2]
    return {KEYS["two"]: choice.two, KEYS["card0"]: hand[0], KEYS["card1"]: hand[1],
            KEYS["lost"]: choice.lost, KEYS["coins0"]: choice.coins[0],
            KEYS["coins1"]: choice.coins[1], KEYS["turn"]: choice.turn}


def follow_link() -> None:
    """Set the picker from the address when it says something the section did not write
    itself (a link opened, pasted or reloaded); a parameter that cannot be read is named."""
    state = session_state()
    for key, value in _defaults().items():
        state.setdefault(key, value)
    address = {k: st.query_params[k] for k in view.LINK_KEYS if k in st.query_params}
    if address and address != state.get(LINK):
        choice, errors = view.read_link(address, _from_state())
        state.update(_widget_values(choice))
        state[ERRORS] = errors
        state[LINK] = address


def link_messages() -> None:
    for message in session_state().get(ERRORS) or []:
        st.warning(message, icon=":material/link_off:")


def keep_link(choice: TwoChoice) -> None:
    """Write the duel into the address, so the link in the bar opens it as it is now."""
    wanted = view.link_params(choice)
    for key, value in wanted.items():
        if st.query_params.get(key) != value:
            st.query_params[key] = value
    session_state()[LINK] = {k: v for k, v in wanted.items() if k in view.LINK_KEYS}


def _changed() -> None:
    session_state().pop(ERRORS, None)


def picker() -> TwoChoice:
    """Who holds two cards, your hidden cards, the lost card, the coins and who acts."""
    state = session_state()
    for key, value in _defaults().items():
        state.setdefault(key, value)
    with st.container(border=True, key="eg2_picker"):
        st.segmented_control(tr("Who still holds two cards?"), list(WHO), format_func=_who,
                             key=KEYS["two"], required=True, on_change=_changed,
                             help=tr("The other player has lost one card already: it lies "
                                     "face up."))
        two = state[KEYS["two"]] == "you"
        hidden, face_up = (tr("Hidden from them, as in a real game."),
                           tr("Face up on the table: both players see it."))
        you, them = row()
        you.markdown("**" + tr("You") + "**")
        them.markdown("**" + tr("They") + "**")
        you, them = row()
        if two:
            you.selectbox(tr("Your first card"), one.CHARACTERS, key=KEYS["card0"],
                          on_change=_changed, format_func=card_name, help=hidden)
            them.markdown(tr("Their card: **hidden**"))
            you, them = row()
            you.selectbox(tr("Your second card"), one.CHARACTERS, key=KEYS["card1"],
                          on_change=_changed, format_func=card_name, help=hidden)
            them.selectbox(tr("Card they lost"), one.CHARACTERS, key=KEYS["lost"],
                           on_change=_changed, format_func=card_name, help=face_up)
        else:
            you.selectbox(tr("Your card"), one.CHARACTERS, key=KEYS["card0"],
                          on_change=_changed, format_func=card_name, help=hidden)
            them.markdown(tr("Their two cards: **hidden**"))
            you, _ = row()
            you.selectbox(tr("Card you lost"), one.CHARACTERS, key=KEYS["lost"],
                          on_change=_changed, format_func=card_name, help=face_up)
        you, them = row()
        you.number_input(tr("Your coins"), 0, MAX_COINS, step=1, key=KEYS["coins0"],
                        on_change=_changed)
        them.number_input(tr("Their coins"), 0, MAX_COINS, step=1, key=KEYS["coins1"],
                         on_change=_changed)
        st.segmented_control(tr("Who acts now"), list(WHO), format_func=_who,
                             key=KEYS["turn"], required=True, on_change=_changed)
        st.caption(view.time_note())
    return _from_state()


def _who(key: str) -> str:
    return tr(WHO[key])


@st.cache_resource(show_spinner=False)
def _shelf() -> Shelf[tuple[object, ...], TwoSolved]:
    return Shelf(128)


def solved(choice: TwoChoice) -> TwoSolved:
    """The duel worked out two turns ahead and one: read from the stored table, else solved
    now with a progress bar; kept per process either way."""
    shelf = _shelf()
    found = shelf.get(choice.key())
    if found is not None:
        return found
    start = time.perf_counter()
    entry = hidden_two_tables.lookup(choice.lost, choice.solver_coins, choice.first)
    if entry is not None:
        result = view.from_table(choice, entry, time.perf_counter() - start)
        shelf.put(choice.key(), result)
        session_state()[PREFIX + "kept"] = asdict(choice)
        return result
    bar = st.progress(0.0, text=tr("Laying out every line of play, one turn ahead…"))
    prev = hidden_two.solve(choice.lost, choice.solver_coins, choice.first,
                            horizon=view.SHORTER, target=TARGET)
    bar.progress(0.2, text=tr("Laying out every line of play, two turns ahead…"))
    first: list[float] = []

    def progress(iteration: int, exploitability: float) -> None:
        if not first:
            first.append(exploitability)
        fraction = one.progress_fraction(iteration, exploitability, first[0], TARGET)
        bar.progress(0.4 + 0.6 * fraction, text=one.progress_text(iteration, exploitability))

    last = hidden_two.solve(choice.lost, choice.solver_coins, choice.first,
                            horizon=view.HORIZON, target=TARGET, progress=progress)
    result = view.distil(choice, last, prev, time.perf_counter() - start)
    shelf.put(choice.key(), result)
    session_state()[PREFIX + "kept"] = asdict(choice)
    bar.empty()
    return result


def duel(choice: TwoChoice) -> None:
    """The position in words, your chance, your options (your turn) or what they do."""
    with st.container(key="eg2_position"):
        st.markdown(" ".join(view.position_lines(choice)))
    result = solved(choice)
    rows = view.option_rows(result)
    with st.container(key="eg2_lead"):
        for line in view.lead_lines(result, rows):
            st.markdown(line)
        st.caption(view.their_hand_line(result))
        if (note := view.unsettled_note(result, rows)) is not None:
            st.caption(note)
    if rows:
        st.subheader(tr("Your options, best first"))
        if result.choice.two == "you":
            st.caption(tr(one.STRIP_LEGEND))
        st.html(one.options_html(rows))
        st.caption(tr(one.OUTCOME_NOTE))
        if (mix := one.mix_note(rows)) is not None:
            st.caption(mix)
    st.caption(view.how_far())
    play_it_out(choice)
    with st.expander(tr("Expert figures: how exact this is"), icon=":material/functions:"):
        st.markdown("\n".join(f"- {line}" for line in view.expert_lines(result)))
        if rows:
            st.caption(tr("The engine's names for the options (the two-card player is P1): "
                          "{names}.", names="; ".join(r.engine_text for r in rows)))


# ------------------------------------------------------------------------- played out

DUEL = "eg2_duel"


@dataclass
class Running:
    """A duel of two cards against one in this tab: the position it came from, the duel,
    the buttons' words at each graded decision, and the moment each offer was made."""

    choice: TwoChoice
    seed: int
    game: played.Practice
    labels: list[list[str]] = field(default_factory=list)
    asked_at: float = field(default_factory=time.monotonic)
    uid: str = field(default_factory=lambda: uuid.uuid4().hex[:12])


def running() -> Running | None:
    found = session_state().get(DUEL)
    return found if isinstance(found, Running) else None


def _start(choice: TwoChoice, seed: int) -> None:
    hand = tuple(sorted(choice.hand, key=one.CHARACTERS.index))
    with st.spinner(tr("Working out perfect play for this duel (a few seconds)…")):
        game = played.start_two(choice.lost, choice.solver_coins, choice.first, choice.seat,
                              hand=hand, seed=seed, horizon=view.HORIZON)
    session_state()[DUEL] = Running(choice, seed, game)


def _stop() -> None:
    session_state().pop(DUEL, None)


def _again() -> None:
    r = running()
    if r is not None:
        _start(r.choice, r.seed)


def play_it_out(choice: TwoChoice) -> None:
    """The explorer's button: this duel played out against perfect play."""
    st.button(tr("Play it out against perfect play"), key="eg2_play_out",
              icon=":material/sports_esports:", on_click=_start,
              args=(choice, random.SystemRandom().randrange(1, 10**6)),
              help=tr("Your cards are the ones picked; theirs are dealt from what is left."))


def _choose(index: int) -> None:
    """A button pressed: grade it, let the opponent answer (working the duel out again at
    the horizon), save the grade."""
    r = running()
    if r is None or r.game.over:
        return
    labels = [pview.offer_label(r.game.game, o) for o in r.game.offers()]
    seconds = time.monotonic() - r.asked_at
    try:
        with st.spinner(tr("Their move…")):
            graded = r.game.play(index)
    except played.PracticeError as e:
        st.toast(str(e), icon=":material/block:")
        return
    r.labels.append(labels)
    r.asked_at = time.monotonic()
    me = current_learner()
    me.history.add(me.store, pview.practice_answer(me.key, r.uid, graded, labels, now(),
                                                   min(seconds, 86_400.0)))


def duel_view(r: Running) -> None:
    """The duel on screen: what happened, the last grade, the buttons or the summary."""
    g = r.game
    st.subheader(tr(view.DUEL_HEADING))
    st.caption(tr(view.DUEL_INTRO))
    st.html(TABLE_CSS + view.duel_hands_html(g))
    if g.events:
        with st.container(key="eg2_events"):
            st.markdown("**" + tr("So far:") + "** " + pview.events_text(g.events, g.learner))
    if g.graded:
        last = g.graded[-1]
        grade = pview.grade_of(last)
        box = {"success": st.success, "info": st.info, "warning": st.warning,
               "error": st.error}[pview.graded_tone(last)]
        box(" ".join(pview.graded_lines(last, r.labels[-1])), icon=pview.GRADE_ICONS[grade])
        with st.expander(tr("Every option of that decision, with its win chance"),
                         icon=":material/functions:"):
            st.markdown("\n".join(pview.option_lines(last, r.labels[-1])))
    if g.over:
        accurate = sum(1 for x in g.graded if pview.grade_of(x) in ("best", "good"))
        for line in view.duel_summary_lines(g, accurate, sum(x.lost_pp for x in g.graded)):
            if line:
                st.markdown(line)
        again, back = st.columns(2)
        again.button(tr("Play it again (same cards)"), key="eg2_again", on_click=_again,
                     icon=":material/replay:")
        back.button(tr("Back to the position"), key="eg2_back", on_click=_stop,
                    icon=":material/arrow_back:")
        return
    if (threat := pview.threat_line(g.game, g.learner)) is not None:
        st.markdown(threat)
    st.markdown(f"**{pview.situation(g.game)}**")
    with st.expander(tr("Hint: what their moves say about their cards"),
                     icon=":material/lightbulb:"):
        st.markdown(view.belief_hands_line(g.belief_hands()))
        st.caption(tr(pview.BELIEF_NOTE))
    with st.container(key="eg2_buttons"):
        for o in g.offers():
            st.button(pview.offer_label(g.game, o), key=f"eg2_offer_{len(g.graded)}_{o.index}",
                      on_click=_choose, args=(o.index,), width="stretch")
    st.button(tr("Back to the position"), key="eg2_stop", on_click=_stop,
              icon=":material/arrow_back:")
