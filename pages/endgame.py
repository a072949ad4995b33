"""End-game: the last duel of a two-player game, each player down to one card. Explore a
position (how often you win if both play perfectly, and what each move is worth), the duel
of two cards against one, or play duels out against perfect play with every decision
graded."""

import streamlit as st

from trainer.i18n import tr
from trainer.ui import endgame as ui
from trainer.ui import endgame_practice as practice
from trainer.ui import endgame_two as two
from trainer.ui.router import hand_over
from trainer.views import endgame_two_view as two_view
from trainer.views import endgame_view as view
from trainer.views import practice_view as pview

hand_over("pages/endgame.py", "endgame")

st.html(view.STYLE)
st.title(tr("End-game"))
section = practice.section()
if section == "practice":
    st.markdown(tr(pview.INTRO))
    practice.follow_link()
    practice.link_messages()
    # A laptop shows the puzzle picker beside the duel; a phone stacks them, picker first.
    left, right = st.columns([2, 3], gap="large")
    with left:
        practice.picker()
    with right:
        practice.duel_view()
    practice.accuracy()
    st.stop()

if section == "two":
    st.markdown(tr(two_view.INTRO))
    two.follow_link()
    two.link_messages()
    left, right = st.columns([2, 3], gap="large")
    playing = two.running()
    # during a duel the picker folds away, so on a phone the duel is not a screen down
    with left, (st.expander(tr("The position"), icon=":material/tune:") if playing is not None
                else st.container()):
        two_choice = two.picker()
    two.keep_link(two_choice)
    with right:
        if playing is not None:
            two.duel_view(playing)
        elif (problem := two_view.impossible(two_choice)) is not None:
            st.error(problem, icon=":material/block:")
        else:
            two.duel(two_choice)
    st.stop()

st.markdown(tr(view.INTRO))
ui.follow_link()
ui.link_messages()

# A laptop shows the picker beside what it means; a phone stacks them, picker first.
left, right = st.columns([2, 3], gap="large")
with left:
    choice = ui.position_picker()
ui.keep_link(choice)
with right:
    if (problem := view.impossible(choice)) is not None:
        st.error(problem, icon=":material/block:")
        st.stop()
    ui.hands(choice)
    with st.container(key="eg_position"):
        st.markdown(" ".join(view.position_lines(choice)))
    if choice.mode == "hidden":
        ui.hidden_mode(choice)
        practice.play_it_out(choice)
    else:
        ui.face_up_mode(choice)
ui.heat_map(choice)
if choice.mode == "hidden":
    ui.hidden_against_face_up(choice)
