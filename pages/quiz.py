"""Quiz: judge a claim, choose a move, see the truth, the bot's view and a grade."""

import os
import random
import time
from pathlib import Path

import streamlit as st

from trainer.engine.variants import get_variant
from trainer.estimates.report import DEFAULT_MODEL
from trainer.learners.answers import Answer
from trainer.learners.history import Connection, History, configured_url, session_history
from trainer.learners.names import check_learner, resolve
from trainer.paths import data_dir
from trainer.quiz.bank import BANK_DIR, DIFFICULTIES, Bank, BankError, Item, load_bank
from trainer.quiz.building import build, persona_tasks
from trainer.quiz.drills import MODES, next_item
from trainer.quiz.feedback import (
    AnswerError,
    describe_decision,
    feedback,
    grade,
    highlighted,
    new_answer_id,
)
from trainer.scenarios import ScenarioError
from trainer.views import cardart
from trainer.views.table_art import TABLE_CSS, mini_card, table_html
from trainer.views.table_view import table_view

if not st.session_state.pop("_routed", False):
    # Opened by Streamlit's legacy pages/ mode (first visit to a fresh server via a deep link):
    # registering a navigation switches that mode off; the rerun goes through the router. The
    # default page is listed too, or this page (not the default) would be "not found".
    st.navigation([st.Page("pages/learn.py", default=True),
                   st.Page("pages/quiz.py", url_path="quiz")], position="hidden")
    st.rerun()

# Banks built in the app; COUP_TRAINER_BANK_DIR points elsewhere (a shared folder, tests).
USER_BANKS = Path(os.environ.get("COUP_TRAINER_BANK_DIR") or data_dir() / "banks")
state = st.session_state


# ---------------------------------------------------------------------------- resources
shared_store = st.cache_resource(show_spinner=False)(Connection)


@st.cache_resource(show_spinner="Loading the question bank…")
def bank_at(path: str, stamp: float) -> Bank:
    return load_bank(path)


def banks() -> dict[str, Path]:
    found = sorted(BANK_DIR.glob("*.jsonl")) + sorted(USER_BANKS.glob("*.jsonl"))
    return {p.stem: p for p in found}


def kept(learner: str) -> History:
    """This learner's answers: read from the database once per browser tab, then kept here."""
    db, error = shared_store(configured_url(lambda: st.secrets.to_dict())).get()
    return session_history(state, learner, db, error)


# ---------------------------------------------------------------------------- callbacks
def show_next(bank: Bank, exclude: str | None = None, showing: str | None = None) -> None:
    """`showing` is the answer id of the item whose button was clicked: a second click that
    reaches the server after the page has moved on must not skip the item now shown."""
    current = state.get("quiz_current")
    if showing is not None and current is not None and current.get("answer_id") != showing:
        return
    rng = random.Random()
    h = state.get("history")
    item = next_item(bank, state.get("quiz_mode") or "mixed", h.answers if h else [], rng,
                     theme=state.get("quiz_theme"), exclude=exclude)
    state["quiz_current"] = None if item is None else {
        "item": item.id, "bank": bank.version, "answer_id": new_answer_id(),
        "shown": time.time(),
    }
    state.pop("quiz_answer", None)
    state.pop("quiz_error", None)
    state["quiz_p"] = 50


def submit(item: Item, bank: Bank, label: str, learner: str, showing: str) -> None:
    current = state.get("quiz_current") or {}
    if current.get("answer_id") != showing:
        return  # a click meant for an item no longer shown
    done = state.get("quiz_answer")
    if done is not None and done.answer_id == current.get("answer_id"):
        return  # a second click on the same showing: already graded and saved
    stated = state.get("quiz_p", 50) / 100 if item.has_claim else None
    try:
        answer = grade(item, action=label, stated=stated, learner=learner,
                       bank=bank.version, answer_id=current["answer_id"],
                       mode=state.get("quiz_mode") or "mixed",
                       seconds=time.time() - current.get("shown", time.time()))
    except (AnswerError, KeyError, ValueError) as e:
        state["quiz_error"] = f"That answer could not be taken: {e}"
        return
    db, _ = shared_store(configured_url(lambda: st.secrets.to_dict())).get()
    kept(learner).add(db, answer)
    state["quiz_answer"] = answer


def rename() -> None:
    try:
        name = check_learner(state.get("new_name", ""))
    except ValueError as e:
        state["name_error"] = str(e)
        return
    state.pop("name_error", None)
    state["learner"] = name
    st.query_params["learner"] = name
    state.pop("quiz_current", None)


def nudge(delta: int) -> None:
    state["quiz_p"] = min(99, max(1, state.get("quiz_p", 50) + delta))


# ---------------------------------------------------------------------------- the page
learner, bad_name = resolve(st.query_params, state)
st.html(cardart.stylesheet() + TABLE_CSS)
head, who_col = st.columns([3, 2], vertical_alignment="bottom")
head.title("Quiz")
who_col.caption(f"Answering as **{learner}** · bookmark this page to keep your history "
                f"([calibration](/calibration?learner={learner}))")
with who_col.popover("Your name", icon=":material/badge:"):
    st.text_input("Name", key="new_name", max_chars=40,
                  help="Letters, digits, spaces, dots, dashes; up to 40.")
    st.button("Use this name", key="use_name", on_click=rename)
    st.caption("Answers are kept under this name: use the same name (or bookmark the page) "
               "to find them again. Anyone who types the name sees them, so pick one of "
               "your own.")
    if state.get("name_error"):
        st.error(state["name_error"], icon=":material/badge:")
if bad_name:
    st.warning(bad_name, icon=":material/badge:")

available = banks()
if not available:
    st.error(f"No question bank was found in {BANK_DIR}. Build one with "
             "`python -m trainer bank build`.")
    st.stop()
if state.get("quiz_new_bank") in available:
    state["quiz_bank"] = state.pop("quiz_new_bank")
    state.pop("quiz_current", None)
bank_name = state.get("quiz_bank") if state.get("quiz_bank") in available else (
    "default" if "default" in available else next(iter(available)))
try:
    bank = bank_at(str(available[bank_name]), available[bank_name].stat().st_mtime)
except BankError as e:
    st.error(f"The question bank could not be read: {e}", icon=":material/error:")
    st.stop()

mine = kept(learner)
answers = mine.answers
if mine.offline:
    st.warning(f"Answers are kept in memory in this browser tab only. {mine.offline}",
               icon=":material/cloud_off:")
for problem in mine.problems[:5]:
    st.warning(f"A saved answer was skipped: {problem}", icon=":material/report:")

controls = st.columns([3, 2, 2], vertical_alignment="bottom")
mode = controls[0].segmented_control("Drill", list(MODES), format_func=MODES.__getitem__,
                                     default="mixed", key="quiz_mode",
                                     on_change=lambda: state.pop("quiz_current", None)
                                     ) or "mixed"
themes = [t for t, _ in bank.themes().most_common()]
if mode == "theme":
    controls[1].selectbox("Theme", themes, key="quiz_theme",
                          on_change=lambda: state.pop("quiz_current", None))
state["quiz_bank"] = bank_name
controls[2].selectbox("Question bank", list(available), key="quiz_bank",
                      on_change=lambda: state.pop("quiz_current", None))

current = state.get("quiz_current")
if current is None or current.get("bank") != bank.version or bank.get(current["item"]) is None:
    show_next(bank)
    current = state.get("quiz_current")
if current is None:
    if mode == "mistakes":
        st.success("No mistakes to replay: every item you missed has since been answered "
                   "well. Try a mixed drill.", icon=":material/task_alt:")
    else:
        st.info("No items match this drill in this bank.", icon=":material/search_off:")
    st.stop()

item = bank.get(current["item"])
assert item is not None
try:
    game = item.game()
except (ScenarioError, ValueError, IndexError, OSError) as e:
    # A lesson question whose scenario file has since changed or gone: say so, move on.
    st.error(f"Item {item.id} of bank {bank.version} could not be rebuilt: {e}",
             icon=":material/error:")
    st.button("Next item", key="quiz_skip", type="primary", on_click=show_next,
              args=(bank, item.id, current["answer_id"]))
    st.stop()
obs = game.observation(item.viewer)
answer: Answer | None = state.get("quiz_answer")
if answer is not None and answer.answer_id != current["answer_id"]:
    answer = None

errors = [(a.stated or 0) - float(bool(a.bluff)) for a in answers if a.scored]
brier = f" · your Brier score {sum(e * e for e in errors) / len(errors):.3f}" if errors else ""
st.caption(f"{len(answers)} answered{brier} · {get_variant(item.variant).title}, official "
           f"rules, {item.players} players · you are **{game.names[item.viewer]}** · "
           f"{item.difficulty} · themes: {', '.join(item.themes)}")

table_col, side_col = st.columns([3, 2], gap="medium")
with table_col:
    st.html(table_html(table_view(obs, latest=highlighted(item, obs))))
line, question = describe_decision(item, game)
with side_col, st.container(border=True, key="quiz_card"):
    st.markdown(f"**{line}**  \n{question}")
    if item.has_claim:
        st.slider("Chance it is a bluff", 1, 99, key="quiz_p", format="%d%%",
                  disabled=answer is not None,
                  help="Your probability that the claimant does not hold the card "
                       "(J and K move it by 5).")
        nudges = st.columns(2)
        nudges[0].button("−5%", key="quiz_minus", on_click=nudge, args=(-5,), shortcut="J",
                         disabled=answer is not None, width="stretch")
        nudges[1].button("+5%", key="quiz_plus", on_click=nudge, args=(5,), shortcut="K",
                         disabled=answer is not None, width="stretch")
    for i, option in enumerate(item.options):
        chosen = answer is not None and answer.action == option.label
        st.button(option.label, key=f"quiz_option_{i}", on_click=submit,
                  args=(item, bank, option.label, learner, current["answer_id"]), width="stretch",
                  shortcut=str(i + 1) if i < 9 else None, disabled=answer is not None,
                  type="primary" if chosen else "secondary")
    if state.get("quiz_error"):
        st.error(state["quiz_error"], icon=":material/error:")
    if answer is None:
        st.caption("Keys: 1–" + str(min(9, len(item.options))) + " answer"
                   + (" · J/K move the slider" if item.has_claim else ""))

if answer is not None:
    fb = feedback(item, answer, game)
    shown = {"best": st.success, "good": st.success, "inaccuracy": st.warning,
             "mistake": st.warning, "blunder": st.error}[fb.grade]
    with st.container(border=True, key="quiz_feedback"):
        shown(f"**{fb.grade.capitalize()}** · {fb.verdict}", icon=":material/grading:")
        if fb.call_out:
            st.info(f"**{fb.call_out.split(':')[0]}.** {fb.call_out.split(':', 1)[1]}",
                    icon=":material/casino:")
        left, right = st.columns(2)
        with left:
            if fb.truth:
                st.markdown(f"**The truth.** {fb.truth} {fb.outcome}")
                st.html('<div class="ct-seat__cards">' + "".join(
                    mini_card(c, "shown") for c in item.claimant_hand) + "</div>")
            if fb.belief:
                st.markdown(f"**Your belief.** {fb.belief}")
                st.caption(item.explanation)
            hands = " · ".join(f"{n}: {' and '.join(cards)}" for n, cards in fb.hands)
            st.caption(f"Every hidden hand at that moment: {hands}.")
        with right:
            st.markdown("**Win chance of each option** (from "
                        f"{item.rollouts} rollouts each, bots playing on)")
            st.dataframe(
                [{"option": o.label + (" ← you" if o.label == answer.action else ""),
                  "wins": round(100 * o.win, 1), "±": round(100 * o.se, 1),
                  "lost (points)": round(max(0.0, 100 * (item.best.win - o.win)), 1)}
                 for o in sorted(item.options, key=lambda o: -o.win)],
                hide_index=True, width="stretch",
                column_config={"wins": st.column_config.NumberColumn(format="%.1f%%")})
    st.button("Next item", key="quiz_next", type="primary", icon=":material/skip_next:",
              on_click=show_next, args=(bank, item.id, current["answer_id"]), shortcut="N",
              width="stretch", help="Key: N")

with st.expander("Where the questions come from"):
    share = bank.bluff_share()
    people = ", ".join(f"{name} {w / sum(DEFAULT_MODEL.values()):.0%}"
                       for name, w in DEFAULT_MODEL.items())
    st.markdown(
        f"Bank **{bank.name}** ({bank.version}): {len(bank.items)} decision points from games "
        f"between bot personas ({people}; the Rule bot bluffs in half its games) and from the "
        f"Learn lessons' questions. Decisions are picked by kind, never by their truth, so "
        f"the share of bluffs is what such players produce: "
        f"**{share:.0%}** of the claims in this bank." if share is not None else "")
    st.markdown(
        "Grades compare your move's win chance with the best move's, in percentage points: "
        "best ≤ 1, good ≤ 5, inaccuracy ≤ 10, mistake ≤ 15, blunder > 15. Win chances come "
        "from playing each option out many times with the bots; each item shows its noise. "
        f"Difficulty ({', '.join(DIFFICULTIES)}) is how close the best two options are.")

with st.expander("Build a bigger question bank"):
    st.caption("New items from fresh bot games, graded by rollouts (about 1 s per item). "
               "The command line does the same with `python -m trainer bank build`.")
    count = st.number_input("Items", 5, 200, 20, step=5, key="build_items")
    seed = st.number_input("Seed", 0, 10**6, 1000, key="build_seed")
    st.button("Build", key="build_bank", icon=":material/construction:",
              on_click=lambda: state.update(build_requested=True))
    if state.pop("build_requested", False):
        bar = st.progress(0.0, text="Building…")
        tasks = list(persona_tasks(int(count), seed=int(seed)))
        items = build(tasks, rollouts=400, progress=lambda done, _: bar.progress(
            done / len(tasks), text=f"Building… {done} of {len(tasks)} items"))
        path = USER_BANKS / f"bank-s{int(seed)}-n{int(count)}.jsonl"
        Bank(path.stem, tuple(items), {"seed": int(seed), "rollouts": 400}).save(path)
        bar.progress(1.0, text=f"Done: {len(items)} items in {path}")
        state["quiz_new_bank"] = path.stem  # selected at the start of the next run
        st.rerun()
