"""The Play page's state and its game screen: the table, the bots' moves at a pace a person can
follow, the learner's decision with its buttons and keys, and the coach.

Why callbacks (`on_click`) for every move: a click's move is applied before the page is drawn
again, once, whatever reruns follow; the page then shows the bots' answers one by one.

Why every move carries the version it was chosen at: a click or a key press while the bots
play starts a new run of the page at once, while the old run is still moving the bots, and
both hold the same match. A button's move is played only if the game is still where it was
when the button was drawn, and a run whose bot move finds the game moved on stops (`Stale`):
the newer run shows the game as it is. Saves are compare-and-set on the number of moves too.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import MutableMapping
from functools import partial
from typing import Any

import streamlit as st

from trainer.engine.cards import Action
from trainer.engine.errors import MoveError
from trainer.engine.game import Phase
from trainer.engine.moves import Move
from trainer.i18n import tr
from trainer.i18n.formats import percent
from trainer.play.assess import judged_claim, kind_of, rollouts
from trainer.play.match import Match, NotYourTurn, Stale
from trainer.play.record import GameRecord
from trainer.play.review import decision_indices
from trainer.play.setup import (
    BOTS,
    LEARNER,
    MAX_SEED,
    Setup,
    SetupError,
    mixed_seats,
    table_sizes,
)
from trainer.play.store import PlayStore, PlayStoreError, StaleGameError
from trainer.play.worker import Valuer
from trainer.quiz.feedback import describe_pending
from trainer.rulebook.choices import PLAY, url_value
from trainer.ui.rule_choice import chosen, family_picker, follow_link, rules_expander
from trainer.ui.state import session_state
from trainer.ui.store import store_beside_answers
from trainer.views import play_text
from trainer.views.history_text import HISTORY_CSS, history_html, history_rows, history_title
from trainer.views.move_labels import your_action, your_move
from trainer.views.table_art import table_html
from trainer.views.table_view import table_view

MATCH = "play_match"
PICK = "play_pick"  # an action chosen whose target is still to choose
ERROR = "play_error"
COACH = "play_coach"
SPEED = "play_speed"
SAY = "play_say"  # whether the learner states a chance before a claim decision
CHANCE = "play_p"
DEFAULT_SPEED = "Normal"
DRAWN = "play_drawn_deal"  # the deal number the set-up form offers
KEPT = "play_kept"  # (game, move) of the decisions already saved with their values
LINK_KEYS = ("rules", "seats", "deal")  # a deal's link: /play?rules=base&seats=you,rule&deal=42


@st.cache_resource(show_spinner=False)
def valuer() -> Valuer:
    """The worker processes that value decisions beside the games, one set per server."""
    return Valuer()


def play_store() -> tuple[PlayStore | None, str | None]:
    """Saved games, on the answers' database; None and why when it cannot be reached."""
    return store_beside_answers(PlayStore, PlayStoreError)


class PlayTab:
    """This tab's game: the match, and the calls the page's buttons make."""

    def __init__(self, state: MutableMapping[str, Any], learner: str,
                 store: PlayStore | None) -> None:
        self.state = state
        self.learner = learner
        self.store = store

    @property
    def match(self) -> Match | None:
        match: Match | None = self.state.get(MATCH)
        if match is not None and match.record.learner != self.learner:
            return None  # another learner's game stays theirs
        return match

    @property
    def error(self) -> str | None:
        """The last refusal, shown once."""
        message: str | None = self.state.pop(ERROR, None)
        return message

    def save(self, match: Match) -> None:
        """Into the database when there is one, compare-and-set on the moves the database
        held at the last save (under the match's lock, so two runs of this tab save in
        order); a failure is said once, the game goes on."""
        if self.store is None:
            return
        with match.lock:
            record, after = match.saved_copy()
            try:
                self.store.save(record, after=after)
            except StaleGameError:
                self.state[ERROR] = tr("This game was played on in another tab or window, so "
                                       "this copy is no longer saved. Open it from Your games "
                                       "to go on from there.")
                return
            except PlayStoreError as e:
                self.state[ERROR] = tr("The game could not be saved: {reason}", reason=e)
                return
            match.mark_saved(len(record.moves))

    # ---------------------------------------------------------------- starting
    def start(self, setup: Setup) -> None:
        try:
            match = Match.start(setup, self.learner)
        except ValueError as e:  # a table the saved game refuses: said, never a crash
            self.state[ERROR] = tr("The game could not be started: {reason}", reason=e)
            return
        match.saved = 0  # a new game: the first save inserts it
        self.state[MATCH] = match
        self.state.pop(PICK, None)
        self.state.pop(ERROR, None)
        self.save(match)

    def open(self, record: GameRecord, saved: bool = False) -> None:
        """A saved (`saved`: as the database holds it) or imported game: resumed where it
        stopped, or reviewed if it is over."""
        try:
            match = Match.resume(record)
        except ValueError as e:
            self.state[ERROR] = tr("The game {game} could not be rebuilt: {reason}",
                                   game=record.game_id, reason=e)
            return
        if saved:
            match.saved = len(record.moves)
        self.state[MATCH] = match
        self.state.pop(PICK, None)
        self.state.pop(ERROR, None)

    def open_saved(self, game_id: str) -> None:
        if self.store is None:
            return
        try:
            self.open(self.store.get(game_id, self.learner), saved=True)
        except PlayStoreError as e:
            self.state[ERROR] = str(e)

    def repair_saved(self, game_id: str) -> None:
        """Cut a saved game that no longer replays back to its last legal move, and open it."""
        if self.store is None:
            return
        try:
            record, _ = self.store.repair(game_id, self.learner)
        except PlayStoreError as e:
            self.state[ERROR] = str(e)
            return
        self.open(record, saved=True)

    def new_game(self) -> None:
        for key in LINK_KEYS:  # the address no longer names the game that was left
            st.query_params.pop(key, None)
        self.state.pop(MATCH, None)
        self.state.pop(PICK, None)
        self.state.pop(ERROR, None)
        self.state.pop(DRAWN, None)

    # ---------------------------------------------------------------- moves
    def move(self, move: Move, version: int | None = None) -> None:
        """The learner's move, from a button drawn when the game was at `version`: a click
        that arrives after the game moved on (a button of a page already out of date) is
        dropped quietly, and the page shows the game as it is."""
        match = self.match
        if match is None:
            return
        stated = None
        if self.state.get(SAY) and judged_claim(match.game) is not None:
            stated = int(self.state.get(CHANCE, 50)) / 100
        index = match.index
        try:
            match.play(move, stated=stated, coached=bool(self.state.get(COACH)),
                       version=version)
        except Stale:
            return
        except (MoveError, NotYourTurn) as e:
            self.state[ERROR] = tr("That move cannot be made now: {reason}",
                                   reason=str(e))  # worded for the reader's seat
            return
        self.state.pop(PICK, None)
        self.state.pop(ERROR, None)
        self.state[SAY] = False
        valuer().submit(match.record, index, rollouts())  # valued while the game goes on
        self.save(match)

    def keep_valued(self) -> None:
        """Decisions the workers have finished valuing go into the database at once, so a
        game resumed after a restart keeps them and its review need not value them again."""
        match = self.match
        if match is None or self.store is None:
            return
        record, pool, n = match.record, valuer(), rollouts()
        kept: set[tuple[str, int]] = self.state.setdefault(KEPT, set())
        for k in record.learner_moves():
            if (record.game_id, k) in kept or not pool.ready(record, k, n):
                continue
            valued = pool.result(record, k, n, timeout=0)
            if valued is not None:
                with contextlib.suppress(PlayStoreError):  # valued again at the review
                    self.store.save_valued(record.game_id, k, valued)
            kept.add((record.game_id, k))

    def pick(self, action: Action | None) -> None:
        self.state[PICK] = action

    def resign(self) -> None:
        match = self.match
        if match is not None:
            match.resign()
            self.save(match)

    def toggle_coach(self) -> None:
        self.state[COACH] = not self.state.get(COACH, False)

    def nudge(self, by: int) -> None:
        self.state[SAY] = True
        self.state[CHANCE] = max(1, min(99, int(self.state.get(CHANCE, 50)) + by))

    def bots_play(self, draw: Any, delay: float) -> None:
        """The bots move one at a time, each shown for `delay` seconds, until the learner
        decides or the game ends. `draw()` redraws the table in place."""
        match = self.match
        if match is None:
            return
        version = match.version
        while match.bot_to_move:
            started = time.monotonic()
            try:
                match.bot_move(version)
            except (Stale, NotYourTurn):  # another run of this tab moved first: it goes on
                return
            # the bot's move, and the learner's loss it forced if any (a last card)
            version = match.version
            if match.learner_out:  # nothing left for the learner to follow: play it out
                continue
            self.save(match)
            # The bot's thinking counts towards its pause: the move shows after `delay`.
            wait = delay - (time.monotonic() - started)
            if wait > 0:
                time.sleep(wait)
            if match.version != version:  # the learner's click, in a newer run, moved it
                return
            draw()
        self.save(match)

    def play_out(self) -> None:
        """Once the learner is out, the bots finish the game at once, before anything is
        drawn: the page then shows the game's end (the table, the last turn, the result)
        rather than a table where the others still hold cards and someone is to move."""
        self.bots_play(lambda: None, 0.0)

    def finish_valuing(self, record: GameRecord, progress: Any) -> dict[int, Any]:
        """Every real decision of the game valued (most already are, beside the game), with
        `progress(done, total)`; each new one saved with the game."""
        indices = decision_indices(record)
        saved = {} if self.store is None else self._saved_values(record.game_id)
        pool = valuer()
        pool.submit_all(record, [k for k in indices if k not in saved], rollouts())
        out = {}
        for done, k in enumerate(indices, start=1):
            valued = saved.get(k)
            if valued is None:
                valued = pool.result(record, k, rollouts())
                if valued is not None and self.store is not None:
                    # kept in this tab if the database refuses; valued again next time
                    with contextlib.suppress(PlayStoreError):
                        self.store.save_valued(record.game_id, k, valued)
            if valued is not None:
                out[k] = valued
            progress(done, len(indices))
        return out

    def _saved_values(self, game_id: str) -> dict[int, Any]:
        assert self.store is not None
        try:
            return dict(self.store.valued(game_id))
        except PlayStoreError:
            return {}


def play_tab(learner: str) -> PlayTab:
    store, _ = play_store()
    return PlayTab(session_state(), learner, store)


# -------------------------------------------------------------------- the set-up form
def setup_form(tab: PlayTab) -> None:
    """Rule set with its house rules and table rules, table size, seat, bots (each with its
    measured strength) and the deal."""
    from trainer.play.setup import strength

    params = st.query_params
    linked = _linked_setup(params)
    if linked is not None:
        st.info(tr("This link deals a game: {table}.", table=play_text.table_line(linked)),
                icon=":material/link:")
        st.button(tr("Play this deal"), key="play_linked", type="primary",
                  icon=":material/play_arrow:", on_click=tab.start, args=(linked,))
    follow_link(PLAY)  # a link's rules fill the form too (`/play?rules=base+pay_five`)
    family_picker(PLAY, label=tr("Rule set"))
    ruleset = chosen(PLAY)
    rules_expander(ruleset, PLAY)
    variant = ruleset.text
    allowed = list(table_sizes(ruleset))
    cols = st.columns(2)
    players = cols[0].select_slider(tr("Players"), allowed, value=4 if 4 in allowed
                                    else allowed[-1],
                                    key=f"play_players_{allowed[0]}_{allowed[-1]}")
    seat = cols[1].select_slider(tr("Your seat"), list(range(1, players + 1)), value=1,
                                 key=f"play_seat_{players}",
                                 help=tr("Seat 1 plays first; the others follow "
                                         "clockwise.")) - 1
    mixed = st.toggle(tr(play_text.MIXED_TITLE), value=True, key="play_mixed",
                      help=tr(play_text.MIXED_HELP))
    # A new deal drawn once per form (a new game draws another); the field keeps what the
    # learner types over it.
    drawn = tab.state.setdefault(DRAWN, random.randrange(10_000))
    seed = int(st.number_input(tr("Deal number"), 0, MAX_SEED, value=drawn,
                               key=f"play_seed_{drawn}", help=tr(play_text.SEED_HELP)))
    if mixed:
        seats = mixed_seats(players, seat, seed)
    else:
        chosen_bots = []
        for i in range(players):
            if i == seat:
                chosen_bots.append(LEARNER)
                continue
            name = Setup(variant, seed, mixed_seats(players, seat, seed)).names[i]
            chosen_bots.append(st.selectbox(tr("Seat {n}: {name}", n=i + 1, name=name), BOTS,
                                            key=f"play_bot_{i}",
                                            format_func=partial(play_text.bot_choice,
                                                                players=players)))
        seats = tuple(chosen_bots)
    try:
        setup = Setup(variant, seed, seats)
    except SetupError as e:
        st.error(str(e), icon=":material/error:")
        return
    with st.expander(play_text.strength_title(variant), icon=":material/leaderboard:"):
        for key in dict.fromkeys(s for s in seats if s != LEARNER):
            st.markdown("- " + play_text.strength_line(key, players, strength(key, players)))
        if (note := play_text.bots_note(variant)) is not None:
            st.caption(note)
    st.caption(play_text.table_line(setup))
    st.button(tr("Start the game"), key="play_start", type="primary", icon=":material/play_arrow:",
              on_click=tab.start, args=(setup,), width="stretch")


def _linked_setup(params: Any) -> Setup | None:
    """The deal a link asks for (`?rules=base&seats=you,calibrated,rule&deal=42`), or None;
    a link the rules refuse is said, with the part at fault."""
    if any(key not in params for key in LINK_KEYS[1:]):
        return None
    try:
        seats = tuple(s.strip() for s in str(params["seats"]).split(","))
        return Setup(str(params.get("rules", "base")), int(str(params["deal"])), seats)
    except (ValueError, SetupError) as e:
        st.warning(tr("The link's game cannot be dealt: {reason}", reason=e),
                   icon=":material/link_off:")
        return None


def share_link(setup: Setup) -> None:
    """The address bar holds the deal, so copying it shares a replay of the same deal (the
    description written so that the address shows its `+` signs)."""
    st.query_params.from_dict({"rules": url_value(setup.variant),
                               "seats": ",".join(setup.seats), "deal": str(setup.seed)})


def rules_of_the_game(setup: Setup) -> None:
    """Under a game of other rules than the base game's: the house rules and table rules in
    force, in one line."""
    if setup.variant != "base":
        st.caption(play_text.rules_line(setup))


def rules_button(setup: Setup, bar: Any) -> None:
    """Each house rule and table rule in force in full, one click away in the game's bar."""
    if setup.variant == "base":
        return
    with bar.popover(tr("Rules"), icon=":material/menu_book:"):
        for text in play_text.rules_details(setup):
            st.markdown(text)
        st.page_link("pages/rules.py", label=tr("Every rule of this game"),
                     icon=":material/open_in_new:",
                     query_params={"rules": url_value(setup.variant)})


# -------------------------------------------------------------------- the game
def table_and_history(match: Match, table_slot: Any, history_slot: Any) -> None:
    """The table and the timeline, from the learner's observation only."""
    obs = match.observation()
    table_slot.html(table_html(table_view(obs, latest=1), compact=True))
    rows = history_rows(obs)
    with history_slot.container():
        st.markdown(f"**{history_title(rows, over=match.over)}**")
        st.html(HISTORY_CSS + history_html(tuple(reversed(rows))))


def result_box(match: Match) -> None:
    """How the game ended, with the way to the review below. Why a win alone is green with a
    trophy: a newcomer reads the colour before the words, and a lost or resigned game shown
    like a win reads as one."""
    text = play_text.result_line(match.game, match.learner, match.record.resigned)
    if match.won:
        st.success(text, icon=":material/emoji_events:")
    elif match.won is False:
        st.info(text, icon=":material/sports_score:")
    else:
        st.info(text, icon=":material/handshake:")


def final_table(match: Match) -> None:
    """The table as the game ended, beside every turn to the last one (the learner's own view,
    as during the game: the bots' cards still face down until the review turns them over)."""
    table_col, side_col = st.columns([3, 2], gap="medium")
    table_and_history(match, table_col.empty(), side_col.empty())


def decision_panel(tab: PlayTab, match: Match) -> None:
    """The learner's decision: the situation, an optional chance of a bluff, the moves."""
    game = match.game
    kind = kind_of(game) or "other"
    line, question = describe_pending(game, match.learner, kind)
    st.markdown(f"**{line}**  \n{question}")
    if judged_claim(game) is not None:
        st.toggle(tr("Say how likely it is a bluff"), key=SAY, help=tr(play_text.STATE_HELP))
        if tab.state.get(SAY):
            st.slider(tr("Chance it is a bluff"), 1, 99, 50, key=CHANCE, format="%d%%")
            nudges = st.columns(2)
            nudges[0].button("−" + percent(0.05), key="play_minus", on_click=tab.nudge,
                             args=(-5,), shortcut="J", width="stretch")
            nudges[1].button("+" + percent(0.05), key="play_plus", on_click=tab.nudge, args=(5,),
                             shortcut="K", width="stretch")
    moves, back = _buttons(tab, match)
    with st.container(key="play_moves", gap="small"):
        for i, (label, on_click, args) in enumerate(moves):
            st.button(label, key=f"play_move_{i}", on_click=on_click, args=args,
                      width="stretch", shortcut=str(i + 1) if i < 9 else None)
        if back:
            st.button(tr("Back to the actions"), key="play_back", icon=":material/undo:",
                      on_click=tab.pick, args=(None,), width="stretch")
    st.caption(tr("Keys: 1–9 press the buttons in order; H turns the coach on or off."))


def _buttons(tab: PlayTab, match: Match) -> tuple[list[tuple[str, Any, tuple[Any, ...]]], bool]:
    """(label, callback, args) per button; on the learner's turn, an action with several
    targets is one button that asks for the target next."""
    game = match.game
    at = match.version  # a button's move is played only if the game is still here
    legal = list(game.legal_moves())
    if game.phase is not Phase.ACTION:
        return [(your_move(game, m), tab.move, (m, at)) for m in legal], False
    picked: Action | None = tab.state.get(PICK)
    if picked is not None:
        targets = [m for m in legal if m.action is picked]
        if targets:
            return [(your_move(game, m), tab.move, (m, at)) for m in targets], True
    by_action: dict[Action | None, list[Move]] = {}
    for m in legal:
        by_action.setdefault(m.action, []).append(m)
    out: list[tuple[str, Any, tuple[Any, ...]]] = []
    for action, group in by_action.items():
        if len(group) == 1 or action is None:
            out.extend((your_move(game, m), tab.move, (m, at)) for m in group)
        else:
            out.append((your_action(game, action) + " …", tab.pick, (action,)))
    return out, False


def coach_panel(match: Match) -> None:
    """The coach's view of the pending decision: the bot's chance of a bluff and the win
    chance of each option with its noise (valued in a worker; the page waits for it)."""
    with st.spinner(tr("The coach is playing each option out…")):
        valued = valuer().result(match.record, match.index, rollouts())
    if valued is None:
        st.caption(tr("Nothing to weigh: this decision has only one real option."))
        return
    belief = play_text.coach_belief(valued, match.game.names)
    if belief:
        st.markdown(belief)
        why = play_text.coach_why(valued, match.game, match.learner)
        if why:
            with st.expander(tr("Why the bot thinks so"), icon=":material/calculate:"):
                st.markdown(why)
    st.markdown(play_text.coach_best(valued))
    st.dataframe(play_text.coach_table(valued), hide_index=True, width="stretch")

