"""Learn: short lessons where the learner makes the moves, on a drawn table, one screen each."""

import streamlit as st

from trainer.learners.lesson_progress import ProgressKeeper
from trainer.scenarios.lesson_session import LessonSession
from trainer.ui import learn
from trainer.ui.learner import current_learner
from trainer.ui.resources import lesson_library, lesson_minutes, path_time
from trainer.ui.router import hand_over
from trainer.views import cardart, lesson_text
from trainer.views.table_art import TABLE_CSS

hand_over("pages/learn.py", "learn")
me = current_learner()
keeper = ProgressKeeper(me.store, me.key)  # stars and finished lessons outlive the tab
walk = LessonSession(st.query_params, st.session_state, keeper)

st.html(cardart.stylesheet() + TABLE_CSS + lesson_text.LEARN_CSS)  # large type: the router's
lib = lesson_library()  # COUP_TRAINER_SCENARIOS points elsewhere (a teacher's own folder)
lesson = walk.lesson(lib)
progress = walk.progress  # read from the database once per tab, before anything is drawn
if keeper.problem:
    st.warning(lesson_text.progress_unsaved(keeper.problem), icon=":material/cloud_off:")

if lesson is None:
    screens, minutes = path_time()
    learn.library(walk, lib, lesson_text.path_caption(lib.five_minutes(), screens, minutes),
                  lesson_minutes())
    st.stop()

learn.lesson_page(walk, lib, lesson)
