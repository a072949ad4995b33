"""Learn: step through scripted scenarios on a drawn table, one decision at a time."""

import random

import streamlit as st

from trainer.engine.variants import get_variant
from trainer.paths import scenarios_dir
from trainer.scenarios import ScenarioRun, replay
from trainer.scenarios.lessons import Library, Progress, load_library
from trainer.views import cardart
from trainer.views.table_art import TABLE_CSS, table_html
from trainer.views.table_view import table_view

if not st.session_state.pop("_routed", False):
    # Opened by Streamlit's legacy pages/ mode (first visit to a fresh server via a deep link):
    # registering a navigation switches that mode off; the rerun goes through the router.
    st.navigation([st.Page("pages/learn.py", url_path="learn")], position="hidden")
    st.rerun()

# The lesson files; COUP_TRAINER_SCENARIOS points elsewhere (a teacher's own folder, tests).
SCENARIOS = scenarios_dir()


@st.cache_resource(show_spinner="Checking the lessons…")
def library(stamp: tuple[tuple[str, float], ...]) -> Library:
    """Every lesson, replayed once per process and again whenever a file changes."""
    return load_library(SCENARIOS)


def current_library() -> Library:
    stamp = tuple((p.name, p.stat().st_mtime) for p in sorted(SCENARIOS.glob("*.yaml")))
    return library(stamp)


def progress() -> Progress:
    return st.session_state.setdefault("learn_progress", Progress())


def open_lesson(lesson_id: str | None, step: int = 0) -> None:
    # Only the lesson's own parameters: large type is bound to its toggle and stays as it is.
    for key in ("lesson", "step"):
        if key in st.query_params:
            del st.query_params[key]
    if lesson_id:
        st.query_params["lesson"] = lesson_id
        st.query_params["step"] = str(step)
    st.session_state.pop("answer", None)


def answer(lesson_id: str, step: int, label: str, correct: bool) -> None:
    st.session_state["answer"] = label
    progress().answer(lesson_id, step, correct)


def go(step: int) -> None:
    st.query_params["step"] = str(step)
    st.session_state.pop("answer", None)


# ---------------------------------------------------------------------------- the page
large = st.toggle("Large type", key="large_type", bind="query-params",
                  help="Bigger text for a projector or a room.")
st.html(cardart.stylesheet(large=large) + TABLE_CSS)
lib = current_library()
lesson = lib.get(st.query_params.get("lesson", ""))

if lesson is None:
    # ------------------------------------------------------------------------ the library
    st.title("Learn Coup")
    if "lesson" in st.query_params:
        st.warning(f"There is no lesson called {st.query_params['lesson']!r}; here is the "
                   f"library.")
    done = progress()
    path = lib.five_minutes()
    with st.container(border=True):
        st.subheader("Learn Coup in five minutes", anchor="five-minutes")
        minutes = sum(x.minutes for x in path)
        st.caption(f"{len(path)} short lessons · {sum(x.steps for x in path)} steps · "
                   f"{sum(x.words for x in path)} words · about {minutes:.0f} minutes")
        cols = st.columns(len(path) or 1)
        for col, x in zip(cols, path, strict=False):
            col.markdown(f"{done.mark(x)} **{x.title}**")
        nxt = next((x for x in path if not done.finished(x.id)), path[0] if path else None)
        if nxt is not None:
            label = "Start" if nxt is path[0] and not done.finished(nxt.id) else "Continue"
            st.button(f"{label}: {nxt.title}", icon=":material/play_arrow:", type="primary",
                      on_click=open_lesson, args=(nxt.id,), key="start_path")

    variants = lib.variants()
    titles = {"all": "All", **{v: get_variant(v).title for v in variants}}
    chosen = st.pills("Rule set", list(titles), format_func=titles.__getitem__,
                      default="all", key="variant_filter")
    shown = [x for x in lib.lessons if chosen in (None, "all") or x.variant == chosen]
    st.caption(f"{len(shown)} lessons, in the recommended order.")
    grid = st.columns(3, gap="small")
    for i, x in enumerate(shown):
        with grid[i % 3].container(border=True):
            st.markdown(f"{done.mark(x)} **{x.title}**  \n:gray[{x.variant_title} · "
                        f"{x.steps} steps · {x.prompts} "
                        f"question{'s' if x.prompts != 1 else ''} · "
                        f"about {max(1, round(x.minutes))} min]")
            st.caption(x.scenario.summary)
            st.button("Open", key=f"open_{x.id}", on_click=open_lesson, args=(x.id,),
                      width="stretch")
    for b in lib.broken:
        st.error(f"This lesson file could not be loaded: {b.message}", icon=":material/error:")
    st.stop()

# ---------------------------------------------------------------------------- one lesson
run: ScenarioRun = lesson.run
total = lesson.steps
try:
    step = min(max(int(st.query_params.get("step", "0")), 0), total)
except ValueError:
    step = 0
learner = run.learner

top_left, top_right = st.columns([4, 1], vertical_alignment="center")
top_left.title(lesson.title)
top_right.button("Library", icon=":material/arrow_back:", on_click=open_lesson, args=(None,),
                 key="to_library", width="stretch")
st.caption(f"{lesson.variant_title} · you play **{run.names[learner]}** · step {step} of "
           f"{total}")
st.progress(step / total)

game = replay(lesson.scenario, step)
obs = game.observation(learner)
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
    answered = upcoming is not None and progress().solved(lesson.id, step + 1)
    if upcoming is not None and not answered:
        with st.container(border=True):
            st.markdown(f"**Your move, {upcoming.player_name}.** {upcoming.question}")
            options = list(upcoming.options)
            random.Random(f"{lesson.id}:{step}").shuffle(options)
            pick = st.session_state.get("answer")
            for i, option in enumerate(options):
                st.button(option.label, key=f"option_{i}", width="stretch", on_click=answer,
                          args=(lesson.id, step + 1, option.label, option.correct))
            chosen_option = next((o for o in options if o.label == pick), None)
            if chosen_option is not None and not chosen_option.correct:
                st.error(f"**Not quite.** {chosen_option.explanation}"
                         + (f" (The rules do not allow it: {chosen_option.why_illegal}.)"
                            if chosen_option.why_illegal else "") + " Try again.",
                         icon=":material/close:")
    elif upcoming is not None:
        st.success(f"**Right: {upcoming.correct.label}.** {upcoming.correct.explanation}",
                   icon=":material/check:")

    # The moves so far (all of them once the lesson is finished): the ones still to come
    # would give the questions away.
    seen = total if progress().finished(lesson.id) else step
    st.markdown(f"**Timeline** · [link to this step](?lesson={lesson.id}&step={step})")
    with st.container(height=300, key="timeline"):
        for n, text in enumerate(["Set-up", *run.step_texts()[:seen]]):
            st.button(f"{n}. {text}" if n else text, key=f"jump_{n}", on_click=go, args=(n,),
                      type="primary" if n == step else "tertiary")

nav = st.columns(4)
nav[0].button("First", icon=":material/first_page:", on_click=go, args=(0,),
              disabled=step == 0, key="first", width="stretch")
nav[1].button("Back", icon=":material/chevron_left:", on_click=go, args=(step - 1,),
              disabled=step == 0, key="back", width="stretch")
blocked = upcoming is not None and not answered
nav[2].button("Next", icon=":material/chevron_right:", on_click=go, args=(step + 1,),
              disabled=step >= total or blocked, key="next", type="primary", width="stretch",
              help="Answer the question first" if blocked else None)
if step >= total:
    progress().finish(lesson.id)
    following = next((x for x in lib.five_minutes() + list(lib.lessons)
                      if not progress().finished(x.id)), None)
    if following is not None:
        nav[3].button(f"Next lesson: {following.title}", on_click=open_lesson,
                      args=(following.id,), key="next_lesson", width="stretch")
    st.success(f"Lesson complete {progress().mark(lesson)}", icon=":material/celebration:")

