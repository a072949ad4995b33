"""The End-game page's parts: the position picker kept in the address, the hidden-card
solve with its progress bar, the face-up verdict and the heat map.

The address and the picker: a link (`/endgame?card=Duke&lost=Ambassador,Contessa&coins=2,2
&turn=you&mode=hidden`) sets the picker when it differs from what the page last wrote, so a
shared or pasted link wins; after every run the page writes the picker back, so the address
is always a link to what is on screen. A parameter that cannot be read changes nothing and
its message stays until the reader changes the position.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import asdict
from typing import Any, Generic, TypeVar

import streamlit as st

from trainer.endgame import hidden_tables
from trainer.endgame.hidden import Solution, solve
from trainer.endgame.known import MAX_COINS
from trainer.endgame.tables import known_values
from trainer.engine.names import card_name
from trainer.i18n import tr, tr_n
from trainer.ui.chrome import LARGE
from trainer.ui.state import session_state
from trainer.views import endgame_view as view
from trainer.views.endgame_view import CHARACTERS, HORIZONS, MODES, TURNS, Choice, Solved
from trainer.views.table_art import TABLE_CSS

# Widget keys, by the field of `Choice` they set (the coins and lost cards are two each).
KEYS = {"card": "eg_card", "lost0": "eg_lost_you", "lost1": "eg_lost_them",
        "coins0": "eg_coins_you", "coins1": "eg_coins_them", "turn": "eg_turn",
        "mode": "eg_mode", "their": "eg_their", "horizon": "eg_horizon"}
LINK = "eg_link"  # the parameters the page last wrote (or read)
KEPT = "eg_kept"  # the last position, kept across page switches (widget state is not)
ERRORS = "eg_link_errors"
CLAIMS = "eg_claims"  # a stored position's break-even beliefs, worked out on request
# The button that works them out: a key of its own, as a button keeps its own value (False) in
# the session state under its key, which `CLAIMS` would then read as worked-out lines.
WORK_OUT = "eg_work_out"

Key = tuple[tuple[str, str], tuple[int, int], int, int]
K = TypeVar("K")
V = TypeVar("V")


def _widget_values(choice: Choice) -> dict[str, Any]:
    return {KEYS["card"]: choice.card, KEYS["lost0"]: choice.lost[0],
            KEYS["lost1"]: choice.lost[1], KEYS["coins0"]: choice.coins[0],
            KEYS["coins1"]: choice.coins[1], KEYS["turn"]: choice.turn,
            KEYS["mode"]: choice.mode, KEYS["their"]: choice.their,
            KEYS["horizon"]: choice.horizon}


def _from_state() -> Choice:
    s = session_state()
    return Choice(card=s[KEYS["card"]], lost=(s[KEYS["lost0"]], s[KEYS["lost1"]]),
                  coins=(int(s[KEYS["coins0"]]), int(s[KEYS["coins1"]])), turn=s[KEYS["turn"]],
                  mode=s[KEYS["mode"]], their=s[KEYS["their"]], horizon=int(s[KEYS["horizon"]]))


def _kept() -> Choice:
    kept = session_state().get(KEPT)
    if not isinstance(kept, dict):
        return Choice()
    try:
        return Choice(**kept)
    except TypeError:
        return Choice()


def follow_link() -> None:
    """Set the picker from the address when the address says something the page did not
    write itself (a link opened, pasted or reloaded); otherwise keep what the reader
    picked. Called before any widget of the picker is drawn."""
    state = session_state()
    for key, value in _widget_values(_kept()).items():
        state.setdefault(key, value)
    address = {k: st.query_params[k] for k in view.LINK_KEYS if k in st.query_params}
    if address and address != state.get(LINK):
        choice, errors = view.read_link(address, _from_state())
        state.update(_widget_values(choice))
        state[ERRORS] = errors


def _changed() -> None:
    session_state().pop(ERRORS, None)


def _switch_seats() -> None:
    state = session_state()
    state.update(_widget_values(_from_state().switched()))
    state.pop(ERRORS, None)


def link_messages() -> None:
    for message in session_state().get(ERRORS) or []:
        st.warning(message, icon=":material/link_off:")


def row() -> list[Any]:
    """Two side by side, you on the left and them on the right, on a phone too: the
    picker reads like the table, and stacking would put the pairs a screen apart. In large
    type two no longer fit across a phone (they would scroll sideways): there they stack."""
    large = bool(session_state().get(LARGE))
    return list(st.columns(2, gap="small", wrap=large, vertical_alignment="bottom"))


def position_picker() -> Choice:
    """The position: each player's cards and coins, who acts, the mode, the look-ahead."""
    state = session_state()
    faceup = state[KEYS["mode"]] == "faceup"
    with st.container(border=True, key="eg_picker"):
        if not session_state().get(LARGE):  # stacked, the headings would stand alone
            you, them = row()
            you.markdown("**" + tr("You") + "**")
            them.markdown("**" + tr("They") + "**")
        you, them = row()
        you.selectbox(tr("Your card"), CHARACTERS, key=KEYS["card"], on_change=_changed,
                      format_func=card_name, help=tr("Hidden from them, as in a real game."))
        with them:
            if faceup:
                their_card_select(tr("Their card"))
            else:
                st.markdown(tr("Their card: **hidden**"),
                            help=tr("In a real game you cannot see it: the page works out "
                                    "what each card they may hold means."))
        you, them = row()
        you.selectbox(tr("Card you lost"), CHARACTERS, key=KEYS["lost0"], on_change=_changed,
                      format_func=card_name,
                      help=tr("Face up on the table: both players see it."))
        them.selectbox(tr("Card they lost"), CHARACTERS, key=KEYS["lost1"], on_change=_changed,
                       format_func=card_name,
                       help=tr("Face up on the table: both players see it."))
        you, them = row()
        you.number_input(tr("Your coins"), 0, MAX_COINS, step=1, key=KEYS["coins0"],
                         on_change=_changed)
        them.number_input(tr("Their coins"), 0, MAX_COINS, step=1, key=KEYS["coins1"],
                          on_change=_changed)
        turn_col, ahead_col = row()
        turn_col.segmented_control(tr("Who acts now"), list(TURNS), format_func=_turn_word,
                                   key=KEYS["turn"], required=True, on_change=_changed)
        if not faceup:
            ahead_col.selectbox(tr("Look ahead"), HORIZONS, key=KEYS["horizon"],
                                format_func=_horizon_words, on_change=_changed,
                                help=tr("How many turns ahead to work out perfect play; past "
                                        "them, the rest is counted as if both cards were face "
                                        "up."))
        st.segmented_control(tr("Mode"), list(MODES), format_func=_mode_word,
                             key=KEYS["mode"], required=True, on_change=_changed,
                             help=tr("In a real game you cannot see the other player's card. "
                                     "Face up, the duel is a race that the cards and coins "
                                     "alone decide."))
        if not faceup:
            st.caption(tr(view.HORIZON_NOTE))
    choice = _from_state()
    state[KEPT] = asdict(choice)
    return choice


def _horizon_words(h: int) -> str:
    """"4 turns": short enough for a phone's half-width column; how long each takes is in
    the note below the choices."""
    return tr_n("{n} turn", "{n} turns", h)


def _turn_word(turn: str) -> str:
    return tr(TURNS[turn])  # type: ignore[index]


def _mode_word(mode: str) -> str:
    return tr(MODES[mode])  # type: ignore[index]


def their_card_select(label: str) -> None:
    st.selectbox(label, CHARACTERS, key=KEYS["their"], on_change=_changed,
                 format_func=card_name)


def keep_link(choice: Choice) -> None:
    """Write the position into the address, so the link in the bar opens this page as it
    is now; parameters of other parts of the app (large type) are left alone."""
    wanted = view.link_params(choice)
    for key, value in wanted.items():
        if st.query_params.get(key) != value:
            st.query_params[key] = value
    session_state()[LINK] = wanted


def hands(choice: Choice) -> None:
    st.html(TABLE_CSS + view.hands_html(choice))


# ------------------------------------------------------------------------------ hidden


class Shelf(Generic[K, V]):
    """Solved positions of this server process, the most recent kept (the one-card explorer's
    and the two-card duel's). Why not `st.cache_data` around the solve itself: the solve draws
    its progress bar as it goes, and a cached function that draws into an element made
    outside it cannot be replayed."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: K, solved: V) -> None:
        with self.lock:
            self.items[key] = solved
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _shelf() -> Shelf[Key, Solved]:
    return Shelf(256)


def solved(choice: Choice) -> Solved:
    """The hidden-card solve of the position: from the shelf, from the stored table (four
    turns ahead, instant), or worked out now with a progress bar (a second or so three
    turns ahead, a few seconds four)."""
    key: Key = ((choice.lost[0].value, choice.lost[1].value), choice.coins, choice.first,
                choice.horizon)
    kept = session_state().get(CLAIMS)
    if kept is not None and kept[0] == _fresh_key(choice) and isinstance(kept[1], Solved):
        return kept[1]  # worked out on request: the likely lines and break-even beliefs
    shelf = _shelf()
    found = shelf.get(key)
    if found is not None:
        return found
    if choice.horizon == hidden_tables.HORIZON:
        stored = hidden_tables.stored_solution(choice.lost, choice.coins, choice.first)
        if stored is not None:
            # a position that kept moving at four turns was solved further: its own depth
            result = view.distil(stored, stored.horizon, 0.0)
            shelf.put(key, result)
            return result
    bar = st.progress(0.0, text=view.progress_start(choice.horizon))
    first: list[float] = []

    def progress(iteration: int, exploitability: float) -> None:
        if not first:
            first.append(exploitability)
        bar.progress(view.progress_fraction(iteration, exploitability, first[0]),
                     text=view.progress_text(iteration, exploitability))

    start = time.perf_counter()
    solution = solve(choice.lost, choice.coins, choice.first, horizon=choice.horizon,
                     progress=progress)
    result = view.distil(solution, choice.horizon, time.perf_counter() - start,
                         _shallow(choice))
    shelf.put(key, result)
    bar.empty()
    return result


def _shallow(choice: Choice) -> Solution | None:
    """The same position two turns less deep, to see whether the figures settled (a small
    tree: a tenth of the deep solve's time)."""
    shorter = view.shorter_horizon(choice.horizon)
    if shorter is None:
        return None
    return solve(choice.lost, choice.coins, choice.first, horizon=shorter)


def hidden_mode(choice: Choice) -> None:
    """Cards hidden: the chance with your card, then your options (your turn) or how to
    study theirs (their turn); expert figures in an expander."""
    result = solved(choice)
    with st.container(key="eg_lead"):
        if choice.turn == "you":
            rows = view.option_rows(choice, result)
            for line in view.lead_you_act(choice, result, rows):
                st.markdown(line)
        else:
            rows = []
            for line in view.lead_they_act(choice, result):
                st.markdown(line)
        st.caption(view.chances_line(view.their_chances(choice)))
        if (deeper := view.deeper_note(choice, result)) is not None:
            st.caption(deeper)
        if (unsettled := view.unsettled_note(result)) is not None:
            st.caption(unsettled)
        if (weaker := view.weaker_note(result.settled, result.shorter, result.horizon,
                                       rows)) is not None:
            st.caption(weaker)
    if choice.turn == "you":
        st.subheader(tr("Your options, best first"))
        st.caption(tr(view.STRIP_LEGEND))
        if (solves := view.solves_note(rows)) is not None:
            st.caption(solves)
        st.html(view.options_html(rows))
        st.caption(tr(view.OUTCOME_NOTE))
        if (mix := view.mix_note(rows)) is not None:
            st.caption(mix)
        claims(choice, result, rows)
    else:
        st.button(tr("Switch seats"), key="eg_switch", icon=":material/swap_horiz:",
                  on_click=_switch_seats,
                  help=tr("Swap the lost cards and coins and take their turn."))
    if (note := view.horizon_note(result)) is not None:
        st.caption(note)
    with st.expander(tr("Expert figures: how exact this is"), icon=":material/functions:"):
        st.markdown("\n".join(f"- {line}" for line in view.expert_lines(result)))
        if rows:
            st.caption(tr("The engine's names for the options (you are P1, they are P2): "
                          "{names}.", names="; ".join(r.engine_text for r in rows)))


def _fresh_key(choice: Choice) -> tuple[object, ...]:
    return ("fresh", (choice.lost[0].value, choice.lost[1].value), choice.coins, choice.first,
            choice.horizon)


def _work_out_claims(choice: Choice) -> None:
    """A fresh solve of a stored position, for what the table does not keep: the
    break-even belief of each claim."""
    with st.spinner(tr("Working out when a challenge pays…")):
        start = time.perf_counter()
        solution = solve(choice.lost, choice.coins, choice.first, horizon=choice.horizon)
        fresh = view.distil(solution, choice.horizon, time.perf_counter() - start,
                            _shallow(choice))
    stored = (hidden_tables.stored_solution(choice.lost, choice.coins, choice.first)
              if choice.horizon == hidden_tables.HORIZON else None)
    if stored is not None:
        fresh = view.with_lines(view.distil(stored, stored.horizon, 0.0), fresh)
    session_state()[CLAIMS] = (_fresh_key(choice), fresh)


def claims(choice: Choice, result: Solved, rows: list[view.OptionRow]) -> None:
    """Each claim's bluff rate and break-even belief; for a stored position (which keeps
    neither the likely lines nor the break-even beliefs) a button works them out."""
    if result.claims is None:
        st.button(tr("Work out the likely lines and when to challenge (about a second)"),
                  key=WORK_OUT, on_click=_work_out_claims, args=(choice,),
                  icon=":material/calculate:",
                  help=tr("The stored table keeps each option's figures; this solves the "
                          "position again to follow the lines of play."))
    if (note := view.lines_note(result)) is not None:
        st.caption(note)
    if not any(r.claim is not None for r in rows):
        return
    with st.expander(tr(view.CLAIMS_HEADING), icon=":material/theater_comedy:"):
        st.markdown("\n".join(f"- {line}" for line in view.claim_lines(result, rows)))
        if result.claims is not None:
            st.caption(tr(view.CLAIMS_NOTE))


# ----------------------------------------------------------------------------- face up


def face_up_mode(choice: Choice) -> None:
    """Both cards face up: the table's value and how many turns the sure winner needs."""
    table = known_values(choice.lost)
    cards = (choice.card, choice.their)
    value = table.value(cards, choice.coins, choice.first)
    turns = table.turns(cards, choice.coins, choice.first)
    with st.container(key="eg_lead"):
        for line in view.faceup_lines(choice, value, turns):
            st.markdown(line)


def heat_map(choice: Choice) -> None:
    """Every coin count at once, both cards face up, for your card against a chosen one."""
    st.subheader(tr(view.HEAT_HEADING))
    words, drawing = st.columns([2, 3], gap="large")
    with words:
        if choice.mode == "hidden":
            their_card_select(tr("Their card, for this map"))
        if (problem := view.their_card_problem(choice)) is not None:
            st.info(problem, icon=":material/block:")
            return
        st.markdown(view.heat_sentence(choice))
    table = known_values(choice.lost)
    c0, c1 = table.characters.index(choice.card), table.characters.index(choice.their)
    chart = view.heat_chart(table.values[c0, c1, :, :, choice.first],
                            table.distances[c0, c1, :, :, choice.first], choice.coins)
    drawing.altair_chart(chart, width="stretch", height=380, key="eg_heat")


def hidden_against_face_up(choice: Choice) -> None:
    """The stored hidden-card table beside the face-up one, for your card, every coin
    count: what hiding your card is worth."""
    st.subheader(tr(view.HIDDEN_HEADING))
    hidden = hidden_tables.win_grid(choice.lost, choice.card, choice.first)
    if hidden is None:
        st.caption(view.hidden_missing())
        return
    st.markdown(view.hidden_sentence(choice))
    shown = hidden_tables.face_up_grid(choice.lost, choice.card, choice.first)
    flags = hidden_tables.settled_grid(choice.lost, choice.first)
    before = hidden_tables.win_grid(choice.lost, choice.card, choice.first, shorter=True)
    marks = (flags, before) if flags is not None and before is not None else None
    left, right = st.columns(2, gap="medium")
    left.altair_chart(view.heat_chart(hidden, None, choice.coins, view.CARDS_HIDDEN, 320,
                                      labels=False, unsettled=marks),
                      width="stretch", height=320, key="eg_hidden_heat")
    right.altair_chart(view.heat_chart(shown, None, choice.coins, view.CARDS_FACE_UP, 320,
                                       view.FACE_UP_AVERAGED, labels=False),
                       width="stretch", height=320, key="eg_faceup_heat")
