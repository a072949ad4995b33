"""The Play page's review: the grades, the win-% graph, every step with what you knew or all the
cards, and a retry of each mistake as a quiz question.

Why the review reads only the record and the valued decisions: it must be the same after the
game, after a restart and for an imported log, and a saved game's review costs nothing to open
again (its decisions are stored with it).
"""

from __future__ import annotations

import streamlit as st

from trainer.i18n import tr
from trainer.learners.history import History
from trainer.learners.storage import Store
from trainer.play.assess import rollouts
from trainer.play.match import Match
from trainer.play.review import BANK, Review, Step, answers, review
from trainer.quiz.feedback import (
    describe_pending,
    feedback,
    grade,
    new_answer_id,
    option_namer,
)
from trainer.ui.play import PlayTab, valuer
from trainer.ui.quiz_parts import options_panel, verdict_box
from trainer.views import play_text, quiz_text
from trainer.views.play_charts import win_chart
from trainer.views.table_art import table_html
from trainer.views.table_view import revealing, table_view

REVIEWS = "play_reviews"  # game id → Review, this tab's
RETRY = "play_retry"  # the step being retried, by move index
RETRY_ANSWER = "play_retry_answer"
MOMENT = "play_moment"
ALL_CARDS = "play_all_cards"
RETRY_P = "play_retry_p"
# Whose moves besides the learner's the review speaks of: a code, never shown (the table's
# review passes `OTHER_PLAYERS`, a table of people); each is worded by whole sentences.
BOTS = "the bots'"
OTHER_PLAYERS = "the other players'"


def the_review(tab: PlayTab, match: Match, history: History, store: Store | None) -> Review:
    """The game's review, valued with a progress bar the first time, then kept; its graded
    claims go to the learner's answers (once: the ids are the game's and the move's)."""
    reviews = tab.state.setdefault(REVIEWS, {})
    record = match.record
    key = (record.game_id, len(record.moves))
    if key not in reviews:
        bar = st.progress(0.0, text=tr("Reviewing your decisions…"))

        def progress(done: int, total: int) -> None:
            bar.progress(done / max(1, total),
                         text=tr("Reviewing your decisions… {done} of {total}", done=done,
                                 total=total))

        valued = tab.finish_valuing(record, progress)
        rev = review(record, valued, rollouts=rollouts())
        bar.empty()
        for answer in answers(rev, tab.learner):
            history.add(store, answer)
        reviews[key] = rev
        valuer().forget(record.game_id)  # saved with the game, kept in this tab's review
    result: Review = reviews[key]
    return result


def summary(rev: Review, others: str = BOTS) -> None:
    """`others`: whose moves the chart's caption names (`OTHER_PLAYERS` at a table of
    people)."""
    st.markdown(play_text.summary_line(rev))
    st.html(play_text.grade_chips(rev.counts()))
    if rev.steps:
        st.altair_chart(win_chart(rev), width="stretch")
        if others == OTHER_PLAYERS:
            st.caption(tr("The grey dashes are what each position was worth with the best "
                          "move; the gold line what your move kept. A dotted rule marks where "
                          "the other players' moves and the cards changed your chance to win "
                          "by 15 percentage points or more."))
        else:
            st.caption(tr("The grey dashes are what each position was worth with the best "
                          "move; the gold line what your move kept. A dotted rule marks where "
                          "the bots' moves and the cards changed your chance to win by 15 "
                          "percentage points or more."))
    with st.expander(tr("How the review grades"), icon=":material/help:"):
        st.markdown(play_text.accuracy_note())


def key_moments(tab: PlayTab, rev: Review) -> None:
    """The mistakes, each with its verdict and a retry; the unlucky good decisions."""
    mistakes = rev.mistakes()
    lucky = [s for s in rev.steps if s.call_out]
    if not mistakes and not lucky:
        st.success(tr("No mistakes the estimates can prove. Well played."),
                   icon=":material/task_alt:")
        return
    for n, s in enumerate(mistakes):
        with st.container(border=True):  # points are defined in the first one only
            st.markdown(f"**{play_text.step_title(s)}**  \n"
                        f"{play_text.step_verdict(s, first=n == 0)}")
            st.button(tr("Retry this decision"), key=f"play_retry_{s.index}",
                      icon=":material/replay:", on_click=_retry, args=(tab, s.index))
    for s in lucky:
        said = tr(s.call_out) if s.call_out else ""
        st.info(f"**{play_text.step_title(s)}** · {said}", icon=":material/casino:")


def _retry(tab: PlayTab, index: int) -> None:
    tab.state[RETRY] = index
    tab.state.pop(RETRY_ANSWER, None)


def retry_panel(tab: PlayTab, match: Match, rev: Review, history: History,
                store: Store | None) -> None:
    """A mistake asked again as a quiz question: the table as it was, the same options,
    graded as the quiz grades (the chance of a bluff asked where there was a claim)."""
    index = tab.state.get(RETRY)
    step = next((s for s in rev.steps if s.index == index), None)
    if step is None:
        return
    item, solved = step.valued.item, step.valued.solved
    game = match.record.game(index)
    with st.container(border=True, key="play_retry_box"):
        st.markdown("#### " + tr("Retry decision {number}", number=step.number))
        st.html(table_html(table_view(game.observation(match.learner)), compact=True))
        line, question = describe_pending(game, match.learner, step.kind)
        st.markdown(f"**{line}**  \n{question}")
        answer = tab.state.get(RETRY_ANSWER)
        if item.asks_chance:  # a claim to judge; a block decision only blocks or lets through
            st.slider(tr("Chance it is a bluff"), 1, 99, 50, key=RETRY_P, format="%d%%",
                      disabled=answer is not None)
        said = option_namer(item, game)  # the stored labels are English identifiers
        for i, option in enumerate(item.options):
            chosen = answer is not None and answer.action == option.label
            st.button(quiz_text.option_label(said(option.label), chosen),
                      key=f"play_retry_option_{i}",
                      width="stretch", disabled=answer is not None, on_click=_answer_retry,
                      args=(tab, step, option.label, history, store),
                      type="primary" if chosen else "secondary",
                      icon=":material/check_circle:" if chosen else None)
        if answer is not None:
            fb = feedback(item, answer, game, solved, step.valued.unsettled)
            verdict_box(fb)
            if fb.truth:
                st.markdown(f"{fb.truth} {fb.outcome or ''}")
            if fb.belief:
                st.markdown(fb.belief)
            options_panel(item, answer, solved)
        st.button(tr("Close the retry"), key="play_retry_close", icon=":material/close:",
                  on_click=_retry, args=(tab, None))


def _answer_retry(tab: PlayTab, step: Step, label: str, history: History,
                  store: Store | None) -> None:
    item = step.valued.item
    stated = int(tab.state.get(RETRY_P, 50)) / 100 if item.asks_chance else None
    answer = grade(item, action=label, stated=stated, learner=tab.learner, bank=BANK,
                   answer_id=new_answer_id(), mode="play retry", solved=step.valued.solved)
    tab.state[RETRY_ANSWER] = answer
    history.add(store, answer)


def explorer(tab: PlayTab, match: Match, rev: Review, others: str = BOTS) -> None:
    """Any moment of the game, as you saw it or with every card face up; the moves listed
    with the bots' bluffs and your grades."""
    record = match.record
    total = len(record.moves)
    # Opened on the first mistake, just made: its line is the one marked in the list below.
    first = rev.mistakes()[0].index + 1 if rev.mistakes() else 0
    cols = st.columns([3, 2], vertical_alignment="bottom")
    at = cols[0].slider(tr("After move"), 0, total, first, key=f"{MOMENT}_{record.game_id}",
                        help=tr("0 is the deal; each step is one move."))
    every = cols[1].toggle(tr("All the cards"), key=ALL_CARDS,
                           help=tr("Off: the table as you saw it. On: every hand face up, and "
                                   "the other players' bluffs marked.")
                           if others == OTHER_PLAYERS else
                           tr("Off: the table as you saw it. On: every hand face up, and the "
                              "bots' bluffs marked."))
    game = record.game(at)
    view = table_view(game.observation(match.learner))
    if every:
        view = revealing(view, [tuple(h) for h in game.hidden])
    st.html(table_html(view, compact=True))
    lines = play_text.timeline(record.parsed(), record.game(0), match.learner, rev.steps,
                               every)
    with st.container(height=320, key="play_timeline"):
        st.html(play_text.timeline_html(lines, current=at - 1 if at else None))


def export_button(match: Match) -> None:
    from trainer.play.log import export_text

    record = match.record
    st.download_button(tr("Download the game log"), export_text(record),
                       file_name=f"coup-game-{record.game_id}.txt", mime="text/plain",
                       icon=":material/download:", key="play_export",
                       help=tr("A plain-text log of every move; import it on this page to "
                               "replay and review the same game."))
