"""Learn: short lessons where the learner makes the moves, on a drawn table, one screen each."""

import streamlit as st

from trainer.scenarios.lesson_session import LessonSession
from trainer.ui import learn
from trainer.ui.resources import lesson_library, lesson_minutes, path_figures
from trainer.ui.router import hand_over
from trainer.views import cardart, lesson_text
from trainer.views.table_art import TABLE_CSS

hand_over("pages/learn.py", "learn")
walk = LessonSession(st.query_params, st.session_state)

large = st.toggle("Large type", key="large_type", bind="query-params",
                  help="Bigger text for a projector or a room.")
st.html(cardart.stylesheet(large=large) + TABLE_CSS + lesson_text.LEARN_CSS)
lib = lesson_library()  # COUP_TRAINER_SCENARIOS points elsewhere (a teacher's own folder)
lesson = walk.lesson(lib)
done = walk.progress

if lesson is None:
    figures = path_figures(lib)
    learn.library(walk, lib, lesson_text.path_caption(lib.five_minutes(), len(figures.screens),
                                                      figures.minutes_text()),
                  lesson_minutes(lib))
    st.stop()

# ---------------------------------------------------------------------------- one lesson
mode, intro = lesson.scenario.mode, lesson.scenario.intro
n = walk.step(lesson)
screens = learn.screen_list(lesson)
last = 1 if mode == "game" else screens[-1].number
first = screens[0].number if screens else 1
following = walk.following(lib, current=lesson.id)
learn.header(walk, lib, lesson, n if mode != "game" or n == 0 else last, last)


def finish() -> None:
    done.finish(lesson.id)
    walk.open(following.id if following is not None else None)


next_label = "Next" if n < last else ("Next lesson" if following is not None else "Finish")
back = (walk.go, (n - 1,)) if n > first else (None, ())
if mode == "game" and (n == 1 or intro is None):
    state = learn.game_screen(walk, lesson)
    moves = walk.practice_moves(lesson.id)
    if state.won:
        done.finish(lesson.id)
        forward, args = finish, ()
    elif state.over:
        forward, args, next_label = walk.restart, (lesson.id,), "Start again"
    else:
        forward, args = None, ()
    back_action = (walk.take_back, (lesson.id,)) if moves else back
    learn.nav(back_action[0], back_action[1], next_label, forward, args,
              blocked=not state.over, back_label="Take back" if moves else "Back")
elif intro is not None and n == 0:
    learn.intro_screen(lesson)
    learn.nav(None, (), "Next", walk.go, (1,), blocked=False)
elif mode == "play":
    screen = next(sc for sc in screens if sc.number == n)
    answered = learn.play_screen(walk, lesson, screen, first=n == first and intro is None)
    if answered and n == last:
        done.finish(lesson.id)
        st.markdown(lesson_text.lesson_complete(done.mark(lesson)))
    learn.nav(back[0], back[1], next_label, finish if n == last else walk.go,
              () if n == last else (n + 1,), blocked=not answered)
    learn.rule_note(lesson, screen.shown + 1, screen.result if answered else screen.shown)
    learn.timeline(lesson, screen.result if answered else screen.shown)
else:
    ready = learn.watch_screen(walk, lesson, n)
    if n >= last:
        done.finish(lesson.id)
        st.markdown(lesson_text.lesson_complete(done.mark(lesson)))
    learn.nav(back[0], back[1], next_label, finish if n >= last else walk.go,
              () if n >= last else (n + 1,), blocked=not ready)
    learn.rule_note(lesson, n, n)
    learn.timeline(lesson, n, walk=walk, current=n)
