"""The End-game page's Practice: deal a puzzle (or the explorer's position), play it out
against perfect play with buttons, see each decision graded, and the accuracy chart.

The duel lives in the tab's session state: the engine game with the real cards, the solution
the opponent plays, the draw that dealt them, and the buttons' words at each decision (for the
grades). The address names the puzzle (`?tab=practice&puzzle=<id>`) or the position, never the
draw: a seed in the address told anyone who knew how the deal is drawn the opponent's card, so
each tab that opens a link deals afresh on the server, and *Play it again* replays the tab's
own draw. Every graded decision is saved at once as an answer of the learner, so leaving
mid-duel loses nothing already graded.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass, field, replace

import streamlit as st

from trainer.endgame import practice as duel
from trainer.endgame.hidden import Solution, solve
from trainer.endgame.puzzles import KINDS, Puzzle, find, puzzles
from trainer.i18n import N_, tr
from trainer.learners.answers import now
from trainer.ui.learner import current_learner
from trainer.ui.state import session_state
from trainer.views import endgame_view as view
from trainer.views import practice_view as pview
from trainer.views.table_art import TABLE_CSS

HORIZON = 4
STATE = "eg_practice"
KIND_KEY, LEVEL_KEY = "eg_practice_kind", "eg_practice_level"
LINK_ERRORS = "eg_practice_errors"
NOTE = "eg_practice_note"  # said once, above the next duel
ANY = "any"
LEVELS = ("easy", "medium", "hard")


# The parameters of a practice link that name its duel; anything else (an old link's `seed`,
# the explorer's face-up `their` card, which a duel of hidden cards never reads) is dropped.
_DUEL_PARAMS = ("tab", "puzzle", "card", "lost", "coins", "turn", "mode", "horizon")


@dataclass
class Running:
    """A duel in this tab: what it came from (the link, which never holds the draw), the
    server's draw that dealt it (for *Play it again*), the duel itself, the buttons' words at
    each graded decision, and the learner's moment of each offer."""

    source: dict[str, str]
    puzzle: Puzzle | None
    game: duel.Practice
    seed: int = 0
    labels: list[list[str]] = field(default_factory=list)
    asked_at: float = field(default_factory=time.monotonic)
    uid: str = field(default_factory=lambda: uuid.uuid4().hex[:12])


def _running() -> Running | None:
    found = session_state().get(STATE)
    return found if isinstance(found, Running) else None


@st.cache_resource(show_spinner=False, max_entries=24)
def _solution(lost: tuple[str, str], coins: tuple[int, int], first: int) -> Solution:
    """A duel's first solve, shared by every tab (the opponent's later solves depend on the
    moves played, so they are not kept)."""
    from trainer.engine.cards import Character

    return solve((Character(lost[0]), Character(lost[1])), coins, first, horizon=HORIZON)


def _start(source: dict[str, str], puzzle: Puzzle | None, choice: view.Choice,
           seed: int) -> None:
    with st.spinner(tr("Working out perfect play for this duel (a few seconds)…")):
        s = _solution((choice.lost[0].value, choice.lost[1].value), choice.coins,
                      choice.first)
        goal = puzzle.goal if puzzle is not None else duel.Goal()
        game = duel.start(choice.lost, choice.coins, choice.first, 0, card=choice.card,
                          goal=goal, seed=seed, horizon=HORIZON, solution=s)
    session_state()[STATE] = Running(source, puzzle, game, seed=seed)
    session_state().pop(LINK_ERRORS, None)


def _new_seed() -> int:
    """A new duel's draw, made on the server and kept in the tab: never in the address."""
    return random.SystemRandom().randrange(1, 10**6)


def deal_puzzle() -> None:
    """A random puzzle of the chosen kind and difficulty."""
    state = session_state()
    kind, level = state.get(KIND_KEY, ANY), state.get(LEVEL_KEY, ANY)
    pool = [p for p in puzzles() if kind in (ANY, p.kind) and level in (ANY, p.difficulty)]
    if not pool:
        pool = [p for p in puzzles() if kind in (ANY, p.kind)] or list(puzzles())
        state[NOTE] = pview.no_puzzle_words(kind, level)
    p = random.SystemRandom().choice(pool)
    _start({"tab": "practice", "puzzle": p.id}, p, pview.puzzle_choice(p), _new_seed())


def practise_position(choice: view.Choice) -> None:
    """The explorer's position, played out from your seat."""
    _start(_position_source(replace(choice, mode="hidden")), None, replace(choice, mode="hidden"),
           _new_seed())


def _position_source(choice: view.Choice) -> dict[str, str]:
    """The address of a position's duel: the position, with no card of theirs."""
    params = {"tab": "practice", **view.link_params(choice)}
    return {k: v for k, v in params.items() if k in _DUEL_PARAMS}


def _replay() -> None:
    r = _running()
    if r is None:
        return
    choice = pview.puzzle_choice(r.puzzle) if r.puzzle else _choice_of(r.source)
    _start(r.source, r.puzzle, choice, r.seed)


def _choice_of(source: dict[str, str]) -> view.Choice:
    choice, _ = view.read_link(source, view.Choice())
    return choice


def is_duel_link(params: dict[str, str]) -> bool:
    """Whether an address asks for a practice duel: a puzzle, or a position to play out."""
    return params.get("tab") == "practice" and ("puzzle" in params or "card" in params)


def follow_link() -> None:
    """Open the duel a link names, unless it is the one already on screen. Its opponent's
    card is dealt by this tab's own draw; an old link's `seed` is dropped unread."""
    params = {k: st.query_params[k] for k in st.query_params}
    if not is_duel_link(params):
        return
    params = {k: v for k, v in params.items() if k in _DUEL_PARAMS}
    r = _running()
    if r is not None and all(params.get(k) == v for k, v in r.source.items()):
        return
    if "puzzle" in params:
        p = find(params["puzzle"])
        if p is None:
            session_state()[LINK_ERRORS] = [
                tr("The link's puzzle “{puzzle}” is not in this version's table. Deal a new "
                   "one below.", puzzle=params["puzzle"][:60])]
            st.query_params.pop("seed", None)
            return
        _start({"tab": "practice", "puzzle": p.id}, p, pview.puzzle_choice(p), _new_seed())
        return
    choice, errors = view.read_link(params, view.Choice())
    _start(_position_source(replace(choice, mode="hidden")), None,
           replace(choice, mode="hidden"), _new_seed())
    session_state()[LINK_ERRORS] = errors


def _keep_link(r: Running) -> None:
    """The address says the duel's source and nothing more of practice's: no draw, and none
    of the explorer's parameters the duel does not read (its face-up `their` card above all,
    which a reader could take for the opponent's)."""
    for k in [k for k in st.query_params
              if k in ("seed", "their", *_DUEL_PARAMS) and k not in r.source]:
        st.query_params.pop(k)
    for k, v in r.source.items():
        if st.query_params.get(k) != v:
            st.query_params[k] = v


def _choose(index: int) -> None:
    """A button pressed: grade it, let the opponent answer, save the grade."""
    r = _running()
    if r is None or r.game.over:
        return
    labels = [pview.offer_label(r.game.game, o) for o in r.game.offers()]
    seconds = time.monotonic() - r.asked_at
    try:
        graded = r.game.play(index)
    except duel.PracticeError as e:
        st.toast(str(e), icon=":material/block:")
        return
    r.labels.append(labels)
    r.asked_at = time.monotonic()
    me = current_learner()
    answer = pview.practice_answer(me.key, r.uid, graded, labels, now(),
                                   min(seconds, 86_400.0))
    me.history.add(me.store, answer)


def picker() -> None:
    """The puzzle filters and the button that deals one."""
    state = session_state()
    state.setdefault(KIND_KEY, ANY)
    state.setdefault(LEVEL_KEY, ANY)
    kinds = [ANY, *KINDS]
    levels = [ANY, *LEVELS]
    # During a duel the picker folds away, so on a phone the duel is not a screen down.
    running = _running() is not None
    box = (st.expander(tr("Another puzzle"), icon=":material/playing_cards:") if running
           else st.container(border=True))
    with box, st.container(key="eg_practice_picker"):
        st.segmented_control(tr("Puzzle"), kinds, format_func=_kind_word,
                             key=KIND_KEY, required=True)
        st.segmented_control(tr("Difficulty"), levels, format_func=_level_word,
                             key=LEVEL_KEY, required=True,
                             help=tr("Hard puzzles have a best move only a little better than "
                                     "the next one."))
        st.button(tr("Deal a puzzle"), key="eg_deal", icon=":material/playing_cards:",
                  type="primary", on_click=deal_puzzle)


def _kind_word(kind: str) -> str:
    return tr(N_("Any kind") if kind == ANY else pview.KIND_TITLES[kind])


def _level_word(level: str) -> str:
    return tr(N_("Any") if level == ANY else pview.DIFFICULTY_WORDS[level])


def _header(r: Running) -> None:
    if r.puzzle is not None:
        st.subheader(tr(pview.KIND_TITLES[r.puzzle.kind]))
        st.markdown(tr(pview.KIND_HINTS[r.puzzle.kind]) + " " +
                    f"({tr(pview.DIFFICULTY_WORDS[r.puzzle.difficulty])})")
    else:
        st.subheader(tr("Your position, played out"))
        if (note := pview.settled_note(_choice_of(r.source))) is not None:
            st.caption(note)
    st.markdown(pview.goal_line(r.game.goal))


def _table(r: Running) -> None:
    choice = pview.position_choice(r.game)
    if r.game.over and r.game.their_card is not None:
        choice = replace(choice, mode="faceup", their=r.game.their_card)
    st.html(TABLE_CSS + view.hands_html(choice))


def duel_view() -> None:
    """The duel on screen: what happened, the last grade, the buttons or the summary."""
    r = _running()
    if r is None:
        st.info(tr("Deal a puzzle to start, or set up a position under “Explore” and press "
                   "“Play it out”."), icon=":material/sports_esports:")
        return
    _keep_link(r)
    g = r.game
    if (note := session_state().pop(NOTE, None)) is not None:
        st.info(note, icon=":material/info:")
    _header(r)
    _table(r)
    if g.events:
        with st.container(key="eg_practice_events"):
            st.markdown("**" + tr("So far:") + "** " + pview.events_text(g.events))
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
        s = pview.summary(g)
        for line in pview.summary_lines(s):
            st.markdown(line)
        again, new = st.columns(2)
        again.button(tr("Play it again (same cards)"), key="eg_again", on_click=_replay,
                     icon=":material/replay:")
        if r.puzzle is not None:
            new.button(tr("Next puzzle"), key="eg_next", on_click=deal_puzzle, type="primary",
                       icon=":material/skip_next:")
        return
    if (threat := pview.threat_line(g.game)) is not None:
        st.markdown(threat)
    st.markdown(f"**{pview.situation(g.game)}**")
    with st.expander(tr("Hint: what their moves say about their card"),
                     icon=":material/lightbulb:"):
        st.markdown(pview.belief_line(g.belief()))
        st.caption(tr(pview.BELIEF_NOTE))
    offers = g.offers()
    with st.container(key="eg_practice_buttons"):
        for o in offers:
            st.button(pview.offer_label(g.game, o), key=f"eg_offer_{len(g.graded)}_{o.index}",
                      on_click=_choose, args=(o.index,), width="stretch")
    st.caption(tr(pview.REPLAY_NOTE))


def link_messages() -> None:
    for message in session_state().get(LINK_ERRORS) or []:
        st.warning(message, icon=":material/link_off:")


def accuracy() -> None:
    """The learner's end-game accuracy, day by day (practice and the quiz's drill)."""
    st.subheader(tr("Your end-game accuracy"))
    me = current_learner()
    frame = pview.accuracy_frame(me.history.answers)
    st.markdown(pview.accuracy_sentence(frame))
    if not frame.empty:
        st.altair_chart(pview.accuracy_chart(frame), width="stretch", key="eg_accuracy")


# ------------------------------------------------------------------------------ sections

TAB = "eg_tab"
SECTIONS = {"explore": N_("Explore positions"), "two": N_("Two cards against one"),
            "practice": N_("Practice duels")}
_PRACTICE_ONLY = ("tab", "seed", "puzzle")
# Parameters of the sections' links (the one-card explorer's, the two-card duel's): a section
# opened from the control starts from its own, not the other's (`lost` and `coins` mean
# different things in the two).
_SECTION_PARAMS = ("card", "lost", "coins", "turn", "mode", "their", "horizon", "two", "hand")


def _section_changed() -> None:
    now = session_state().get(TAB)
    if now in ("explore", "two"):
        for k in (*_PRACTICE_ONLY, *_SECTION_PARAMS):
            st.query_params.pop(k, None)
        # each section writes its own again on this run; forget what they last wrote, so
        # what the address then says is read as the section's own
        for k in ("eg_link", "eg2_link"):
            session_state().pop(k, None)


def _section_word(key: str) -> str:
    return tr(SECTIONS[key])


def section() -> str:
    """Explore or Practice, from the address the first time, then from the control."""
    state = session_state()
    wanted = st.query_params.get("tab")
    params = {k: st.query_params[k] for k in st.query_params}
    if wanted in SECTIONS and wanted != state.get(TAB) and is_duel_link(params):
        state[TAB] = wanted
    state.setdefault(TAB, wanted if wanted in SECTIONS else "explore")
    st.segmented_control(tr("Section"), list(SECTIONS), format_func=_section_word,
                         key=TAB, required=True, on_change=_section_changed,
                         label_visibility="collapsed")
    return str(state[TAB])


def play_it_out(choice: view.Choice) -> None:
    """The explorer's button: the same position as a practice duel."""
    def go() -> None:
        session_state()[TAB] = "practice"
        practise_position(choice)

    st.button(tr("Play it out against perfect play"), key="eg_play_out",
              icon=":material/sports_esports:", on_click=go,
              help=tr("Your card is the one picked; theirs is dealt from what is left."))
