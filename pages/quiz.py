"""Quiz: judge a claim, choose a move, see the truth, the bot's view and a grade."""

import streamlit as st

from trainer.i18n import tr
from trainer.quiz.bank import BANK_DIR, BankError, available_banks, theme_words
from trainer.quiz.drills import MODES, rule_sets
from trainer.quiz.feedback import describe_decision, feedback, highlighted, option_namer
from trainer.quiz.session import QuizSession
from trainer.scenarios import ScenarioError
from trainer.ui.learner import answers_warnings, bad_name_warning, current_learner, learner_box
from trainer.ui.quiz_parts import bank_builder, options_panel, verdict_box
from trainer.ui.resources import item_estimate_steps, question_bank, solved_grades
from trainer.ui.router import hand_over
from trainer.views import cardart, estimate_text, quiz_text
from trainer.views.history_text import HISTORY_CSS, history_html, history_rows, history_title
from trainer.views.table_art import TABLE_CSS, table_html
from trainer.views.table_view import table_view

hand_over("pages/quiz.py", "quiz")
me = current_learner()
quiz = QuizSession(st.session_state, me.history, me.store)

st.html(cardart.stylesheet() + TABLE_CSS + quiz_text.QUIZ_CSS)
st.title(tr("Quiz"))
learner_box(st.container(), me, on_change=quiz.forget_item)
bad_name_warning(me)

available = available_banks()
if not available:
    st.error(tr("No question bank was found in {folder}. Build one with "
                "`python -m trainer bank build`.", folder=BANK_DIR))
    st.stop()
bank_name = quiz.choose_bank(available)
try:
    bank = question_bank(available[bank_name])
except BankError as e:
    st.error(tr("The question bank could not be read: {error}", error=e),
             icon=":material/error:")
    st.stop()
answers_warnings(me)
# Exact grades for the End-game items that can be solved; a missing or damaged file leaves
# every item graded by rollouts, and the End-game drill says so.
grades = solved_grades(available[bank_name], bank)

controls = st.columns([3, 2], vertical_alignment="bottom")
mode = controls[0].segmented_control(tr("Drill"), list(MODES),
                                     format_func=quiz_text.mode_name, default="mixed",
                                     key="quiz_mode", on_change=quiz.forget_item) or "mixed"
# The rule set and the bank change seldom: one button, so a phone reaches the question sooner.
with controls[1].popover(quiz_text.sources_label(quiz.rule_set, bank_name),
                         icon=":material/tune:", width="stretch"):
    st.selectbox(tr("Rule set"), rule_sets(bank), key="quiz_rule_set",
                 format_func=quiz_text.rule_set_title, on_change=quiz.forget_item,
                 help=tr("The base game until you choose another; its new cards are shown "
                         "first."))
    st.selectbox(tr("Question bank"), list(available), key="quiz_bank",
                 on_change=quiz.forget_item)
if mode == "theme":
    st.selectbox(tr("Theme"), [t for t, _ in bank.themes().most_common()], key="quiz_theme",
                 format_func=theme_words, on_change=quiz.forget_item)
if (cards := quiz_text.new_cards(quiz.rule_set)) is not None:
    note, overview = cards
    st.info(note, icon=":material/style:")
    if overview:  # a rule set of the base game's cards has none to show
        st.html(overview)

due = quiz.due(bank)
if (due_line := quiz_text.due_line(due)) is not None:
    st.caption(due_line)
if grades.problem and (mode == "end-game" or len(grades)):
    st.caption(grades.problem)

item = quiz.item_shown(bank)
if item is None:
    if mode == "mistakes":
        st.success(quiz_text.no_review_left(due), icon=":material/task_alt:")
    else:
        st.info(tr("No items match this drill in this bank."), icon=":material/search_off:")
    st.stop()
showing = quiz.showing
solved = grades.entry(item)
try:
    game = item.game()
except (ScenarioError, ValueError, IndexError, OSError) as e:
    # A lesson question whose scenario file has since changed or gone: say so, move on.
    st.error(tr("Item {item} of bank {bank} could not be rebuilt: {error}", item=item.id,
                bank=bank.version, error=e), icon=":material/error:")
    st.button(tr("Next item"), key="quiz_skip", type="primary", on_click=quiz.show_next,
              args=(bank, item.id, showing))
    st.stop()
obs = game.observation(item.viewer)
answer = quiz.answer()
say = option_namer(item, game)  # an option's label in the reader's words
st.caption(quiz_text.status_line(me.history.answers, item, game))
if quiz.why == "repeat":
    st.info(tr(quiz_text.REPEAT_NOTE), icon=":material/replay:")
elif quiz.why == "retry":
    st.caption(tr(quiz_text.RETRY_NOTE))

table_col, side_col = st.columns([3, 2], gap="medium")
with table_col:
    # The compact table: on a phone the question follows it on the first screen.
    st.html(table_html(table_view(obs, latest=highlighted(item, obs)), compact=True))
line, question = describe_decision(item, game)
with side_col, st.container(border=True, key="quiz_card"):
    st.markdown(f"**{line}**  \n{question}")
    if item.has_claim:
        st.slider(tr("Chance it is a bluff"), 1, 99, key="quiz_p", format="%d%%",
                  disabled=answer is not None,
                  help=tr("Your chance that the claim is a bluff: that the claimant does not "
                          "hold the card (J and K move it by 5)."))
        nudges = st.columns(2)
        nudges[0].button("−5%", key="quiz_minus", on_click=quiz.nudge, args=(-5,),
                         shortcut="J", disabled=answer is not None, width="stretch")
        nudges[1].button("+5%", key="quiz_plus", on_click=quiz.nudge, args=(5,), shortcut="K",
                         disabled=answer is not None, width="stretch")
    for i, option in enumerate(item.options):
        chosen = answer is not None and answer.action == option.label
        st.button(quiz_text.option_label(say(option.label), chosen), key=f"quiz_option_{i}",
                  on_click=quiz.submit, args=(item, bank, option.label, showing, solved),
                  width="stretch", shortcut=str(i + 1) if i < 9 else None,
                  disabled=answer is not None, type="primary" if chosen else "secondary",
                  icon=":material/check_circle:" if chosen else None)
    if quiz.error:
        st.error(quiz.error, icon=":material/error:")
    if answer is None:
        st.caption(quiz_text.keys_hint(item))
    else:
        # The grade and Next sit right under the answer, in view the moment it is given;
        # the details follow below the table.
        fb = feedback(item, answer, game, solved, grades.unsettled(item))
        with st.container(key="quiz_grade"):
            verdict_box(fb)
        if quiz.first_look(answer.answer_id):  # bring the grade into view, once
            st.html(quiz_text.SCROLL_TO_GRADE, unsafe_allow_javascript=True)
        if fb.call_out:
            st.info(quiz_text.call_out(fb.call_out), icon=":material/casino:")
        # No hover tooltip: it opened over the grade, and the keys are said just below.
        st.button(tr("Next item"), key="quiz_next", type="primary", icon=":material/skip_next:",
                  on_click=quiz.show_next, args=(bank, item.id, showing), shortcut="N",
                  width="stretch")
        if quiz.can_retry():
            st.button(tr(quiz_text.RETRY), key="quiz_retry", icon=":material/replay:",
                      on_click=quiz.retry, args=(bank, showing), width="stretch")
        with st.container(key="quiz_next_keys"):  # hidden: → and Space, as on Learn
            for key in ("right", "space"):
                named = "→" if key == "right" else tr("Space")
                st.button(tr("Next item ({key})", key=named), key=f"quiz_next_{key}",
                          on_click=quiz.show_next, args=(bank, item.id, showing),
                          shortcut=key)
        st.caption(tr(quiz_text.NEXT_KEYS))

with side_col:  # under the question: every earlier move the bot's estimate weighed
    history = history_rows(obs)
    with st.expander(history_title(history), icon=":material/history:"):
        st.html(HISTORY_CSS + history_html(history))

if answer is not None:
    with st.container(border=True, key="quiz_feedback"):
        left, right = st.columns(2)
        with left:
            if fb.truth:
                told = " ".join(x for x in (fb.truth, fb.outcome) if x)
                st.markdown(tr("**The truth.** {truth}", truth=told))
                st.html(quiz_text.claimant_hand(item))
            if fb.belief:
                st.markdown(tr("**Your belief.** {belief}", belief=fb.belief))
            st.caption(quiz_text.hands_line(fb.hands))
        with right:
            options_panel(item, answer, solved, say)
        if item.claimant is not None and item.claim and item.bot is not None and item.prior \
                is not None:
            # Bayes made visible: counting, then each move's likelihood ratio, to the bot's p,
            # replayed only once the fold is opened (a long game takes a few tenths of a second).
            claimant = game.names[item.claimant]
            st.markdown(estimate_text.estimate_summary(item.prior, item.bot, claimant))
            fold = st.expander(tr(estimate_text.ESTIMATE_TITLE), icon=":material/calculate:",
                               key=f"quiz_estimate_{answer.answer_id}", on_change="rerun")
            if fold.open and (steps := item_estimate_steps(bank, item)) is not None:
                lines = estimate_text.estimate_lines(steps, obs)
                fold.caption(estimate_text.estimate_explainer(claimant, item.claim))
                fold.markdown(estimate_text.estimate_table(lines, claimant, item.claim))
                fold.caption(estimate_text.estimate_moves(lines, item.claimant, claimant))

with st.expander(tr("Where the questions come from")):
    st.markdown(quiz_text.bank_origin(bank))
    st.markdown(quiz_text.grading())
    if origin := quiz_text.solved_origin(grades, bank):
        st.markdown(origin)

bank_builder(quiz)
if quiz.first_sight(showing):  # an item's first showing opens at its top; last on the page,
    st.html(quiz_text.SCROLL_TO_TOP, unsafe_allow_javascript=True)  # so nothing above moves
