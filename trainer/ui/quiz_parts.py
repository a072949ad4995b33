"""Parts of the Quiz page that are more than an arrangement of calls: the options table after
an answer (with the exact grades beside the rollouts' where the item is solved) and the form
that builds a bigger question bank with its progress bar."""

from __future__ import annotations

import streamlit as st

from trainer.i18n import tr
from trainer.learners.answers import Answer
from trainer.quiz.bank import Item
from trainer.quiz.feedback import Feedback
from trainer.quiz.session import QuizSession
from trainer.quiz.solved import Solved
from trainer.verdicts.words import Labeller
from trainer.views import quiz_text


def verdict_box(fb: Feedback, *, notes: bool = True) -> None:
    """The verdict in its box (the colour the verdict layer gives: never green for a range),
    then, with `notes`, what it rests on, why it is a range and where the evidence is thin."""
    box = {"success": st.success, "info": st.info, "warning": st.warning, "error": st.error}
    box[fb.tone](f"**{fb.headline}** · {fb.verdict}", icon=":material/grading:")
    if notes:
        for line in quiz_text.verdict_notes(fb):
            st.caption(line)


def options_panel(item: Item, answer: Answer, solved: Solved | None,
                  say: Labeller | None = None) -> None:
    """Every option with its chance of winning, and the solved figures one click away; `say`
    words an option's label."""
    titles = quiz_text.column_titles()
    number = st.column_config.NumberColumn
    st.markdown(quiz_text.options_title(item, solved))
    st.dataframe(quiz_text.option_rows(item, answer, solved, say), hide_index=True,
                 width="stretch", column_config={
                     quiz_text.OPTION: titles[quiz_text.OPTION],
                     quiz_text.WINS: number(titles[quiz_text.WINS], format="%.1f%%"),
                     quiz_text.LOST: titles[quiz_text.LOST]})
    if solved is not None:
        with st.expander(tr(quiz_text.SOLVED_TITLE), icon=":material/functions:"):
            st.caption(quiz_text.solved_note(item, solved, say))
            st.dataframe(quiz_text.solved_rows(item, solved, say), hide_index=True,
                         width="stretch", column_config={
                             key: titles[key] for key in (quiz_text.OPTION, quiz_text.SOLVED,
                                                          quiz_text.ROLLOUTS, quiz_text.GAP)})


def bank_builder(quiz: QuizSession) -> None:
    """New items from fresh bot games, built in the page's own run with a progress bar."""
    with st.expander(tr("Build a bigger question bank")):
        st.caption(tr("New items from fresh bot games, graded by rollouts (about 1 s per "
                      "item). The command line does the same with `python -m trainer bank "
                      "build`."))
        count = st.number_input(tr("Items"), 5, 200, 20, step=5, key="build_items")
        seed = st.number_input(tr("Seed"), 0, 10**6, 1000, key="build_seed")
        st.button(tr("Build"), key="build_bank", icon=":material/construction:",
                  on_click=quiz.request_build)
        if quiz.build_requested():
            bar = st.progress(0.0, text=tr("Building…"))

            def progress(done: int, total: int) -> None:
                bar.progress(done / total, text=quiz_text.building_line(done, total))

            path, built = quiz.build_bank(int(count), int(seed), progress=progress)
            bar.progress(1.0, text=quiz_text.built_line(built, str(path)))
            st.rerun()
