"""Learn: step through scripted scenarios on a drawn table, one decision at a time."""

import streamlit as st

from trainer.engine.variants import get_variant
from trainer.scenarios import replay
from trainer.scenarios.lesson_session import LessonSession, shown_lessons, shuffled
from trainer.ui.resources import lesson_library
from trainer.ui.router import hand_over
from trainer.views import cardart, lesson_text
from trainer.views.table_art import TABLE_CSS, table_html
from trainer.views.table_view import table_view

hand_over("pages/learn.py", "learn")
walk = LessonSession(st.query_params, st.session_state)

large = st.toggle("Large type", key="large_type", bind="query-params",
                  help="Bigger text for a projector or a room.")
st.html(cardart.stylesheet(large=large) + TABLE_CSS)
lib = lesson_library()  # COUP_TRAINER_SCENARIOS points elsewhere (a teacher's own folder)
lesson = walk.lesson(lib)
done = walk.progress

if lesson is None:
    # ------------------------------------------------------------------------ the library
    st.title("Learn Coup")
    if (missing := walk.asked_for_missing()) is not None:
        st.warning(lesson_text.missing_lesson(missing))
    path = lib.five_minutes()
    with st.container(border=True):
        st.subheader("Learn Coup in five minutes", anchor="five-minutes")
        st.caption(lesson_text.path_caption(path))
        for col, x in zip(st.columns(len(path) or 1), path, strict=False):
            col.markdown(f"{done.mark(x)} **{x.title}**")
        if (start := walk.start(path)) is not None:
            label, nxt = start
            st.button(f"{label}: {nxt.title}", icon=":material/play_arrow:", type="primary",
                      on_click=walk.open, args=(nxt.id,), key="start_path")

    titles = {"all": "All", **{v: get_variant(v).title for v in lib.variants()}}
    chosen = st.pills("Rule set", list(titles), format_func=titles.__getitem__,
                      default="all", key="variant_filter")
    shown = shown_lessons(lib, chosen)
    st.caption(f"{len(shown)} lessons, in the recommended order.")
    grid = st.columns(3, gap="small")
    for i, x in enumerate(shown):
        with grid[i % 3].container(border=True):
            st.markdown(lesson_text.lesson_card(x, done))
            st.caption(x.scenario.summary)
            st.button("Open", key=f"open_{x.id}", on_click=walk.open, args=(x.id,),
                      width="stretch")
    for b in lib.broken:
        st.error(f"This lesson file could not be loaded: {b.message}", icon=":material/error:")
    st.stop()

# ---------------------------------------------------------------------------- one lesson
run, total = lesson.run, lesson.steps
step = walk.step(lesson)

top_left, top_right = st.columns([4, 1], vertical_alignment="center")
top_left.title(lesson.title)
top_right.button("Library", icon=":material/arrow_back:", on_click=walk.open, args=(None,),
                 key="to_library", width="stretch")
st.caption(lesson_text.step_caption(lesson, step))
st.progress(step / total)

game = replay(lesson.scenario, step)
obs = game.observation(run.learner)
result = run.step(step) if step else None
view = table_view(obs, turn=result.turn if result else None,
                  latest=len(result.moves) if result else 0)

table_col, side_col = st.columns([3, 2], gap="medium")
with table_col:
    st.html(table_html(view))
with side_col:
    with st.container(border=True):
        if result is None:
            st.markdown(f"**The set-up.** {lesson.scenario.summary}")
        else:
            st.markdown(f"**Step {step}: {result.text}**")
            if result.narration:
                st.markdown(result.narration)
            if result.rule is not None:
                st.html(cardart.quote_block(result.rule.quote, result.rule.source,
                                            result.rule.section))
            tip = lesson.scenario.steps[step - 1].tip
            if tip is not None:
                st.markdown(":material/lightbulb: **Strategy**")
                st.html(cardart.quote_block(tip.quote, tip.source, tip.section))

    upcoming = run.step(step + 1).prompt if step < total else None
    answered = upcoming is not None and done.solved(lesson.id, step + 1)
    if upcoming is not None and not answered:
        with st.container(border=True):
            st.markdown(f"**Your move, {upcoming.player_name}.** {upcoming.question}")
            options = shuffled(upcoming.options, lesson.id, step)
            for i, option in enumerate(options):
                st.button(option.label, key=f"option_{i}", width="stretch", on_click=walk.answer,
                          args=(lesson.id, step + 1, option.label, option.correct))
            wrong = next((o for o in options if o.label == walk.picked and not o.correct), None)
            if wrong is not None:
                st.error(lesson_text.not_quite(wrong), icon=":material/close:")
    elif upcoming is not None:
        st.success(lesson_text.right(upcoming), icon=":material/check:")

    st.markdown(f"**Timeline** · [link to this step](?lesson={lesson.id}&step={step})")
    with st.container(height=300, key="timeline"):
        for n, text in enumerate(["Set-up", *run.step_texts()[:walk.seen(lesson, step)]]):
            st.button(lesson_text.timeline_label(n, text), key=f"jump_{n}", on_click=walk.go,
                      args=(n,), type="primary" if n == step else "tertiary")

nav = st.columns(4)
nav[0].button("First", icon=":material/first_page:", on_click=walk.go, args=(0,),
              disabled=step == 0, key="first", width="stretch")
nav[1].button("Back", icon=":material/chevron_left:", on_click=walk.go, args=(step - 1,),
              disabled=step == 0, key="back", width="stretch")
blocked = upcoming is not None and not answered
nav[2].button("Next", icon=":material/chevron_right:", on_click=walk.go, args=(step + 1,),
              disabled=step >= total or blocked, key="next", type="primary", width="stretch",
              help="Answer the question first" if blocked else None)
if step >= total:
    done.finish(lesson.id)
    if (following := walk.following(lib)) is not None:
        nav[3].button(f"Next lesson: {following.title}", on_click=walk.open,
                      args=(following.id,), key="next_lesson", width="stretch")
    st.success(f"Lesson complete {done.mark(lesson)}", icon=":material/celebration:")
