"""Play: a whole game against the bots, with a coach on request and a review afterwards."""

import streamlit as st

from trainer.i18n import tr
from trainer.play.match import Match
from trainer.play.record import GameRecord
from trainer.ui.learner import current_learner, learner_box
from trainer.ui.play import (
    COACH,
    DEFAULT_SPEED,
    SPEED,
    coach_panel,
    decision_panel,
    final_table,
    play_tab,
    result_box,
    rules_button,
    rules_of_the_game,
    setup_form,
    share_link,
    table_and_history,
)
from trainer.ui.play_games import saved_games
from trainer.ui.play_review import (
    RETRY,
    explorer,
    export_button,
    key_moments,
    retry_panel,
    summary,
    the_review,
)
from trainer.ui.router import hand_over
from trainer.views import cardart, play_text
from trainer.views.table_art import TABLE_CSS

hand_over("pages/play.py", "play")
me = current_learner()
tab = play_tab(me.key)

st.html(cardart.stylesheet() + TABLE_CSS + play_text.PLAY_CSS)
st.title(tr("Play"))
learner_box(st.container(), me)
if (refused := tab.error) is not None:
    st.error(refused, icon=":material/error:")

match = tab.match
if match is None:
    st.markdown(tr(play_text.INTRO))
    setup_form(tab)
    saved_games(tab)
    st.stop()

live: Match = match
record: GameRecord = match.record
if match.learner_out and match.bot_to_move:
    tab.play_out()  # before anything is drawn: the page shows the game's end
share_link(record.setup())
st.caption(play_text.table_line(record.setup(), table_rules=False))
rules_of_the_game(record.setup())
bar = st.container(horizontal=True, key="play_bar", vertical_alignment="center")
if not match.over:
    bar.toggle(tr("Coach"), key=COACH, help=tr(play_text.COACH_HELP))
    with bar.popover(play_text.pace_label(st.session_state.get(SPEED)), icon=":material/speed:"):
        st.segmented_control(tr("Bot speed"), list(play_text.SPEEDS), default=DEFAULT_SPEED,
                             key=SPEED, help=tr(play_text.DELAY_HELP),
                             format_func=play_text.speed_word)
    with bar.popover(tr("Resign"), icon=":material/flag:"):
        st.markdown(tr(play_text.NO_UNDO))
        st.button(tr("Resign this game"), key="play_resign", type="primary",
                  on_click=tab.resign)
bar.button(tr("New game"), key="play_new", icon=":material/add:", on_click=tab.new_game)
rules_button(record.setup(), bar)

if not match.over:
    with st.container(key="play_keys"):  # hidden: H turns the coach on or off
        st.button(tr("Coach (H)"), key="play_coach_key", on_click=tab.toggle_coach, shortcut="H")
    table_col, side_col = st.columns([3, 2], gap="medium")
    table_slot = table_col.empty()
    status = table_col.empty()
    decision_box = side_col.container()  # filled once the bots have moved
    history_slot = side_col.empty()

    def draw() -> None:
        table_and_history(live, table_slot, history_slot)

    draw()
    if match.bot_to_move:
        status.caption(play_text.thinking_line(match.game))
        tab.bots_play(draw, play_text.SPEEDS.get(st.session_state.get(SPEED) or DEFAULT_SPEED,
                                                 0.8))
        status.empty()
    if match.over:  # a bot's move ended it: drawn again as a finished game, without the bar
        st.rerun()

tab.keep_valued()
if match.learner_to_move:
    with decision_box, st.container(border=True, key="play_decision"):
        decision_panel(tab, match)
    if st.session_state.get(COACH):
        with decision_box, st.container(border=True, key="play_coach_box"):
            st.markdown("**" + tr("Coach") + "**")
            coach_panel(match)
    st.stop()

result_box(match)
final_table(match)
rev = the_review(tab, match, me.history, me.store)
st.header(tr("Review"), anchor=play_text.REVIEW_ANCHOR)
summary(rev)
key_moments(tab, rev)
if st.session_state.get(RETRY) is not None:
    retry_panel(tab, match, rev, me.history, me.store)
st.subheader(tr("Step through the game"))
explorer(tab, match, rev)
export_button(match)
