"""The Learn page's parts: the library, a lesson screen, the practice game, the keys.

Why here and not in the page script: a lesson screen has three kinds (an intro, a question
the learner answers by making the move, a step to watch) and a game; the page picks one and
this module draws it, so the page stays a list of calls.

Keys, the same on every screen: → or Space for Next, ← for Back, 1–9 for the answers. A
presenter's clicker sends → and ←.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from trainer.engine.game import Game
from trainer.i18n import N_, tr, tr_n
from trainer.scenarios.lesson_game import PracticeState, practice
from trainer.scenarios.lesson_session import LessonSession, shown_lessons, shuffled
from trainer.scenarios.lessons import CHECK, WATCH_NEXT, Lesson, Library, Progress
from trainer.scenarios.replay import PromptView, replay
from trainer.scenarios.screens import Screen, screens
from trainer.views import lesson_text
from trainer.views.history_text import HISTORY_CSS, history_html, history_rows
from trainer.views.move_labels import your_move
from trainer.views.table_art import character_overview, table_html
from trainer.views.table_view import table_view

KEYS_HINT = N_("Keys: → or Space next · ← back · 1–9 answer")


def library(walk: LessonSession, lib: Library, path_caption: str,
            minutes: Callable[[Lesson], float]) -> None:
    """The lessons: the five-minute path first, then every lesson by rule set."""
    from trainer.engine.variants import parse_rules, title_words

    done = walk.progress
    st.title(tr("Learn Coup"))
    st.markdown(tr(lesson_text.WELCOME))
    if (missing := walk.asked_for_missing()) is not None:
        st.warning(lesson_text.missing_lesson(missing))
    if not lib.lessons:  # a teacher's folder where nothing loaded: say so, then why
        st.info(tr("No lesson could be loaded from the lesson folder."),
                icon=":material/folder_off:")
        _broken(lib)
        return
    path = lib.five_minutes()
    if path:  # a teacher's folder may hold none of the path's lessons
        _path_box(walk, lib, path, path_caption)

    titles = {"all": tr("All"),
              **{v: title_words(parse_rules(v).variant) for v in lib.variants()}}
    st.subheader(tr("All lessons"), anchor="all-lessons")
    chosen = st.pills(tr("Rule set"), list(titles), format_func=titles.__getitem__,
                      default="all", key="variant_filter")
    shown = shown_lessons(lib, chosen)
    st.caption(tr_n("{n} lesson, in the recommended order.",
                    "{n} lessons, in the recommended order.", len(shown)))
    grid = st.columns(3, gap="small")
    for i, x in enumerate(shown):
        with grid[i % 3].container(border=True):
            st.markdown(lesson_text.lesson_card(x, done, minutes(x)))
            st.caption(tr(x.scenario.summary))
            st.button(tr("Open"), key=f"open_{x.id}", on_click=walk.open, args=(x.id,),
                      width="stretch")
    _broken(lib)


def _path_box(walk: LessonSession, lib: Library, path: list[Lesson], path_caption: str
              ) -> None:
    """The five-minute path: where the learner is on it, and the way on."""
    done = walk.progress
    with st.container(border=True, key="path_box"):
        st.subheader(tr("Learn Coup in five minutes"), anchor="five-minutes")
        st.caption(path_caption)
        if (start := walk.start(path)) is not None:
            label, nxt = start
            st.button(f"{tr(label)}: {tr(nxt.title)}", icon=":material/play_arrow:", type="primary",
                      on_click=walk.open, args=(nxt.id,), key="start_path", shortcut="right",
                      width="stretch")
        st.markdown("  \n".join(f"{done.mark(x)} {i}. {tr(x.title)}"
                                for i, x in enumerate(path, start=1)))
        if (check := lib.check()) is not None:
            st.button(f"{tr(check.title)}: {lesson_text.check_score(*done.first_tries(check))}",
                      key="check_yourself", icon=":material/fact_check:", type="tertiary",
                      on_click=walk.open, args=(check.id,))
        if (example := lib.get(WATCH_NEXT)) is not None:
            st.button(tr("Then watch a real game: {title}", title=tr(example.title)),
                      key="watch_example",
                      icon=":material/visibility:", type="tertiary", on_click=walk.open,
                      args=(example.id,))


def _broken(lib: Library) -> None:
    """Each lesson file that did not load, and why. The library is checked once, in English;
    the problem (file, line, field and what is wrong) is worded again here in the reader's
    language from the error's fields, naming the file, not its server path (a Learn page may
    be on a projector)."""
    for b in lib.broken:
        st.error(tr("This lesson file could not be loaded: {message}",
                    message=b.words(b.file_name)), icon=":material/error:")


def header(walk: LessonSession, lib: Library, lesson: Lesson, number: int, total: int,
           done: float | None = None) -> None:
    """The lesson's title, where the learner is, and the way back to the library. `done`:
    the share of the lesson behind the learner (default: `number` of `total` screens)."""
    path = [x.id for x in lib.five_minutes()]
    place = (path.index(lesson.id) + 1, len(path)) if lesson.id in path else None
    # One row that stays a row on a phone: every line above the table pushes Next down.
    with st.container(horizontal=True, wrap=False, vertical_alignment="center",
                      key="lesson_head"):
        st.markdown(f"## {tr(lesson.title)}")
        st.button(tr("Lessons"), icon=":material/arrow_back:", on_click=walk.open,
                  args=(None,), key="to_library", type="tertiary", width="content",
                  help=tr("All lessons and the five-minute path"))
    if done is None:
        done = min(number / total, 1.0) if total else 1.0
    st.progress(done, text=lesson_text.screen_caption(lesson, number, total, place))


def table(game: Game, learner: int, latest: int = 1) -> None:
    st.html(table_html(table_view(game.observation(learner), latest=latest), compact=True))


def _next_button(label: str, on_click: Callable[..., Any], args: tuple[Any, ...],
                 disabled: bool, blocked: bool) -> None:
    """Next, with → as its key; a twin hidden by CSS carries Space (a button takes one key)."""
    help_text = tr("Answer the question first") if blocked else tr("Key: → or Space")
    st.button(label, icon=":material/chevron_right:", on_click=on_click, args=args,
              disabled=disabled, key="next", type="primary", width="stretch",
              shortcut="right", help=help_text)
    st.button(label, on_click=on_click, args=args, disabled=disabled, key="next_space",
              shortcut="space")


def nav(back: Callable[..., Any] | None, back_args: tuple[Any, ...], next_label: str,
        forward: Callable[..., Any] | None, next_args: tuple[Any, ...], blocked: bool,
        back_label: str = N_("Back")) -> None:
    """The Back and Next row; the labels are catalogue messages, translated here."""
    # A row that stays a row on a phone (columns would stack, pushing Next down).
    with st.container(horizontal=True, wrap=False, key="lesson_nav", gap="small"):
        st.button(tr(back_label), icon=":material/chevron_left:", on_click=back,
                  args=back_args, disabled=back is None, key="back", width="content",
                  shortcut="left", help=tr("Key: ←"))
        _next_button(tr(next_label), forward or (lambda: None), next_args,
                     forward is None or blocked, blocked)


def _options_box(count: int) -> Any:
    """The answers' box: two to a row when there are many (a phone keeps Next in view)."""
    return st.container(key="lesson_options_many" if count > 3 else "lesson_options",
                        gap="small")


def options(walk: LessonSession, lesson: Lesson, prompt: PromptView, game: Game,
            question: str) -> None:
    """The question, then its answers as buttons worded for the learner (keys 1–9), in an
    order of their own; a wrong pick says why."""
    st.markdown(question)
    shown = shuffled(prompt.options, lesson.id, prompt.step)
    with _options_box(len(shown)):
        for i, option in enumerate(shown):
            st.button(your_move(game, option.move), key=f"option_{i}", width="stretch",
                      on_click=walk.answer, args=(lesson.id, prompt.step, option.label,
                                                  option.correct),
                      shortcut=str(i + 1) if i < 9 else None)
    wrong = next((o for o in shown if o.label == walk.picked and not o.correct), None)
    if wrong is not None:
        # the engine's reason in the reader's words (the loaded lesson keeps English)
        why = None if wrong.legal else game.why_illegal(wrong.move)
        st.error(lesson_text.not_quite(wrong, why), icon=":material/close:")


def timeline(lesson: Lesson, upto: int, walk: LessonSession | None = None,
             current: int | None = None) -> None:
    """The moves so far, newest first (the current one is always in view); nothing at all
    before the first move. In a lesson to watch, each line jumps to its step."""
    results = lesson.run.steps[:upto]
    if not results:
        return
    game = replay(lesson.scenario, upto)  # for the names and the rules of each move's words
    with st.expander(tr("Moves so far ({n})", n=len(results)), icon=":material/history:"):
        for n in range(len(results), 0, -1):
            label = lesson_text.timeline_label(n, lesson_text.step_words(results[n - 1], game))
            if walk is None:
                st.markdown(f"**{label}**" if n == current else label)
            else:
                st.button(label, key=f"jump_{n}", on_click=walk.go, args=(n,),
                          type="primary" if n == current else "tertiary")


def game_history(game: Game, learner: int) -> None:
    """The game so far in plain words, newest turn first (the current one always in view),
    as the Quiz shows it; nothing at all before anyone has moved."""
    rows = history_rows(game.observation(learner))
    if not any(p for r in rows if r.turn for p in r.phrases):
        return
    # One label throughout: a count that changes with every move is words to read again.
    with st.expander(tr(lesson_text.HISTORY_LABEL), icon=":material/history:"):
        st.html(HISTORY_CSS + history_html(tuple(reversed(rows))))


def rule_note(lesson: Lesson, first: int, last: int) -> None:
    """The rule quotes of steps `first`..`last`, one click away."""
    from trainer.views import cardart

    refs = [s.rule for s in lesson.scenario.steps[first - 1:last] if s.rule is not None]
    tips = [s.tip for s in lesson.scenario.steps[first - 1:last] if s.tip is not None]
    if not refs and not tips:
        return
    with st.expander(tr("What the rulebook says"), icon=":material/menu_book:"):
        for ref in refs + tips:
            st.html(cardart.quote_block(tr(ref.quote), ref.source,
                                        tr(ref.section) if ref.section else ref.section))


# ------------------------------------------------------------------------ the screens
def intro_screen(lesson: Lesson) -> None:
    s = lesson.scenario
    assert s.intro is not None
    st.markdown(f"{tr(s.summary)}  \n{tr(s.intro.text)}")
    st.html(character_overview(s.setup.variant, [str(c) for c in s.intro.cards]))


def play_screen(walk: LessonSession, lesson: Lesson, screen: Screen, first: bool,
                ending: str | None = None) -> bool:
    """A question the learner answers by making the move; True once answered right. `ending`
    (the lesson's last screen, answered) closes the card: inside it, beside the table, it
    takes no height of its own."""
    answered = walk.answered(lesson, screen)
    game = replay(lesson.scenario, screen.result if answered else screen.shown)
    learner = lesson.run.learner
    table_col, side_col = st.columns([3, 2], gap="medium")
    with table_col:
        table(game, learner)
    with side_col, st.container(border=True, key="lesson_card"):
        if first:
            st.markdown(tr(lesson.scenario.summary))
        if screen.before:
            st.markdown(" ".join(tr(x) for x in screen.before))
        prompt = screen.prompt
        assert prompt is not None  # a play screen is a question
        if answered:
            st.success(lesson_text.right(prompt), icon=":material/check:")
            if screen.after or ending:
                after = " ".join(tr(x) for x in screen.after)
                st.markdown("  \n".join(x for x in (after, ending) if x))
        else:
            options(walk, lesson, prompt, replay(lesson.scenario, screen.shown),
                    f"**{tr(prompt.question)}**")
    return answered


def watch_screen(walk: LessonSession, lesson: Lesson, step: int) -> bool:
    """One step of a lesson to watch; True when Next may go on (the next step's question, if
    any, is answered)."""
    run = lesson.run
    game = replay(lesson.scenario, step)
    result = run.step(step) if step else None
    table_col, side_col = st.columns([3, 2], gap="medium")
    with table_col:
        st.html(table_html(table_view(game.observation(run.learner),
                                      turn=result.turn if result else None,
                                      latest=len(result.moves) if result else 0),
                           compact=True))
    with side_col, st.container(border=True, key="lesson_card"):
        if result is None:
            st.markdown(tr("**The set-up.** {summary}", summary=tr(lesson.scenario.summary)))
        else:
            st.markdown(f"**{lesson_text.step_words(result, game)}**"
                        + (f"  \n{tr(result.narration)}" if result.narration else ""))
        upcoming = run.step(step + 1).prompt if step < lesson.steps else None
        if upcoming is None:
            return True
        if walk.progress.solved(lesson.id, step + 1):
            st.success(lesson_text.right(upcoming), icon=":material/check:")
            return True
        options(walk, lesson, upcoming, game,
                tr("**Your move, {name}.** {question}", name=upcoming.player_name,
                   question=tr(upcoming.question)))
        return False


def game_screen(walk: LessonSession, lesson: Lesson) -> PracticeState:
    """The free game: the learner's choices are every legal move, the bots reply at once."""
    s = lesson.scenario
    assert s.practice is not None
    moves = walk.practice_moves(lesson.id)
    state = practice(s, moves)
    table_col, side_col = st.columns([1, 1], gap="medium")  # room for every action
    with table_col:
        table(state.game, state.learner, latest=len(state.bot_moves))
    with side_col, st.container(border=True, key="lesson_card"):
        # One block of words where it can be: each block is a paragraph's gap more, and on
        # a projector's screen Next has no height to spare.
        words = []
        if not moves:
            hint = f" :material/lightbulb: {tr(s.practice.hint)}" if s.practice.hint else ""
            words.append(f"{tr(s.summary)} **{tr(s.practice.goal)}**{hint}")
        if state.bot_moves:
            words.append(lesson_text.bot_moves(state.game, state.bot_moves, state.bot_phases))
        if state.latest and not state.over:
            st.markdown("  \n".join(words))
            st.info(" ".join(lesson_text.mistake(m) for m in state.latest),
                    icon=":material/lightbulb:")
            words = []
        if state.over:
            if words:
                st.markdown("  \n".join(words))
            box = st.success if state.won else st.warning
            after = f"  \n{tr(lesson_text.AFTER_THE_GAME)}" if state.won else ""
            box(lesson_text.game_over(state.game, state.learner, state.mistakes) + after,
                icon=":material/emoji_events:" if state.won else ":material/replay:")
        else:
            if moves:  # the first screen's goal says what to do
                words.append(lesson_text.your_question(state.game, state.learner))
            st.markdown("  \n".join(words))
            with _options_box(len(state.legal)):
                for i, move in enumerate(state.legal):
                    st.button(your_move(state.game, move), key=f"option_{i}",
                              width="stretch", on_click=walk.play, args=(lesson.id, move),
                              shortcut=str(i + 1) if i < 9 else None)
    return state


def _completion(done: Progress, lesson: Lesson) -> str:
    """"Lesson complete" and its stars; for "check yourself", the score too."""
    score = (f" · **{lesson_text.check_score(*done.first_tries(lesson))}**"
             if lesson.id == CHECK else "")
    return lesson_text.lesson_complete(done.mark(lesson)) + score


def lesson_page(walk: LessonSession, lib: Library, lesson: Lesson) -> None:
    """One lesson: its header, the open screen (an intro, a question, a step to watch or the
    game), the Back/Next row and, below it, the rule quotes and the moves so far."""
    done = walk.progress
    s = lesson.scenario
    n = walk.step(lesson)
    scripted = screens(lesson.run)
    playing = s.mode == "game" and (n == 1 or s.intro is None)
    last = 1 if s.mode == "game" else scripted[-1].number
    first = scripted[0].number if scripted else 1
    following = walk.following(lib, current=lesson.id)

    def finish() -> None:
        walk.finish(lesson.id)
        walk.open(following.id if following is not None else None)

    next_label = N_("Next") if n < last else (N_("Next lesson") if following is not None
                                              else N_("Finish"))
    back: tuple[Callable[..., Any] | None, tuple[Any, ...]] = (
        (walk.go, (n - 1,)) if n > first else (None, ()))
    forward: tuple[Callable[..., Any] | None, tuple[Any, ...]] = (
        (finish, ()) if n >= last else (walk.go, (n + 1,)))

    if playing:
        moves = walk.practice_moves(lesson.id)
        line = len(s.practice.line) if s.practice is not None else 1
        header(walk, lib, lesson, 1, 1,
               done=1.0 if done.finished(lesson.id) else min(len(moves) / line, 0.9))
        state = game_screen(walk, lesson)
        forward = (finish, ())  # the game is the lesson's last screen
        next_label = N_("Next lesson") if following is not None else N_("Finish")
        if state.won:
            walk.finish(lesson.id)
        elif state.over:
            forward, next_label = (walk.restart, (lesson.id,)), N_("Start again")
        if moves:
            back = (walk.take_back, (lesson.id,))
        nav(back[0], back[1], next_label, forward[0], forward[1], blocked=not state.over,
            back_label=N_("Take back") if moves else N_("Back"))
        game_history(state.game, state.learner)
        return

    header(walk, lib, lesson, n, last)
    if s.intro is not None and n == 0:
        intro_screen(lesson)
        nav(None, (), N_("Next"), walk.go, (1,), blocked=False)
        return
    if s.mode == "play":
        screen = next(sc for sc in scripted if sc.number == n)
        ending = None
        if n >= last and walk.answered(lesson, screen):
            walk.finish(lesson.id)
            ending = _completion(done, lesson)
        ready = play_screen(walk, lesson, screen, first=n == first and s.intro is None,
                            ending=ending)
        upto = screen.result if ready else screen.shown
        first_step = screen.shown + 1
    else:
        ready = watch_screen(walk, lesson, n)
        upto, first_step = n, n
    if ready and n >= last and s.mode != "play":
        walk.finish(lesson.id)
        st.markdown(_completion(done, lesson))
    nav(back[0], back[1], next_label, forward[0], forward[1], blocked=not ready)
    rule_note(lesson, first_step, upto)
    if s.mode == "play":
        game_history(replay(s, upto), lesson.run.learner)
    else:
        timeline(lesson, walk.seen(lesson, n), walk=walk, current=n)
