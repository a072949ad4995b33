"""The Quiz and Calibration pages under AppTest: answer, feedback, saving, history, charts."""

import re
from html import escape
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import sample_answers, shipped_bank
from trainer.learners.identity import BROWSER, is_browser_id
from trainer.learners.storage import Store
from trainer.quiz.bank import load_bank
from trainer.views.estimate_text import ESTIMATE_TITLE
from trainer.views.history_text import history_rows, history_title

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
BANK = shipped_bank()
# The learner of the test's browser, as its cookie would name it (AppTest sends no cookies, so
# the tab is given its learner the way a tab remembers it).
ANN = "b-" + "a0" * 16


@pytest.fixture
def db_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    return url


def open_page(page: str, learner: str | None = "ann", **state) -> AppTest:
    """`page` for `learner`: a browser id is this tab's own learner, anything else is given
    in the address (?learner=, an old name link)."""
    at = AppTest.from_file(APP, default_timeout=30)
    if is_browser_id(learner):
        at.session_state[BROWSER] = learner
    elif learner:
        at.query_params["learner"] = learner
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def quiz(learner: str | None = ANN, **state) -> AppTest:
    return open_page("pages/quiz.py", learner, **state)


def current_item(at: AppTest):
    return BANK.get(at.session_state["quiz_current"]["item"])


def option_buttons(at: AppTest):
    return [b for b in at.button if (b.key or "").startswith("quiz_option_")]


def test_the_quiz_shows_a_table_and_one_button_per_option(db_url):
    """One button per option, each in the reader's words for its move (the stored label is
    the answer record's English identifier: "Foreign aid" reads "Foreign Aid")."""
    from trainer.quiz.feedback import option_namer

    at = quiz()
    item = current_item(at)
    said = option_namer(item, item.game())
    assert [b.label for b in option_buttons(at)] == [said(o.label) for o in item.options]
    assert any("ct-table" in h.proto.body for h in at.get("html"))


def test_a_claim_item_asks_how_likely_a_bluff_is(db_url):
    at = quiz(quiz_mode="theme", quiz_theme="Duke claims")
    assert current_item(at).has_claim
    assert at.slider(key="quiz_p").value == 50


def test_an_answer_is_graded_and_saved_once(db_url):
    at = quiz(quiz_mode="theme", quiz_theme="Duke claims")
    item = current_item(at)
    at.slider(key="quiz_p").set_value(80).run()
    at.button(key="quiz_option_0").click().run()
    at.run()  # a rerun must not save it again
    saved, problems = Store(db_url).answers(ANN)
    assert problems == [] and len(saved) == 1
    assert (saved[0].item_id, saved[0].stated, saved[0].action) == (
        item.id, 0.8, item.options[0].label)
    grades = [e.value for e in (*at.success, *at.info, *at.warning, *at.error)]
    # "**Mistake**", or a range on thin evidence: "**Depends on Ana: …**", "**Too close…**"
    assert any(re.match(r"\*\*(Best move|Good|Inaccuracy|Mistake|Blunder|Depends on .+"
                        r"|Sound however often .+|Too close to call)\*\* · ", g)
               for g in grades)


def test_feedback_reveals_the_claimants_cards_only_after_answering(db_url):
    at = quiz(quiz_mode="theme", quiz_theme="Duke claims")
    item = current_item(at)
    before = " ".join(m.value for m in at.markdown)
    assert "The truth" not in before and "held" not in before
    at.button(key="quiz_option_0").click().run()
    after = " ".join(m.value for m in at.markdown)
    assert f"held {' and '.join(item.claimant_hand)}" in after


def test_how_the_bots_estimate_was_built_is_one_click_away_after_answering(db_url):
    at = quiz(quiz_mode="theme", quiz_theme="Duke claims")
    item = current_item(at)
    assert item.has_claim
    assert not [e for e in at.expander if e.label == ESTIMATE_TITLE]  # not before the answer
    at.button(key="quiz_option_0").click().run()
    assert not at.exception, at.exception
    said = " ".join(m.value for m in at.markdown)
    # The bot's figure as the feedback says it elsewhere ("the bot says 12%").
    bot = re.search(r"the bot says (\d+%)", said)
    assert bot is not None and bot.group(1) == f"{item.bot:.0%}"
    summary = f"Card counting alone: {item.prior:.0%} chance of a bluff."
    assert any(m.value.startswith(summary) and m.value.endswith(f"the bot says {bot.group(1)}.")
               for m in at.markdown)
    folds = [e for e in at.expander if e.label == ESTIMATE_TITLE]
    assert len(folds) == 1 and not folds[0].markdown  # folded: nothing computed yet
    # Opened (the fold keeps its state under a key of this showing), the table is there.
    at.session_state[f"quiz_estimate_{at.session_state['quiz_current']['answer_id']}"] = True
    at.run()
    assert not at.exception, at.exception
    fold = next(e for e in at.expander if e.label == ESTIMATE_TITLE)
    table = next(m.value for m in fold.markdown if m.value.startswith("| What"))
    rows = table.splitlines()
    first, last = rows[2], rows[-1]
    assert "Card counting alone" in first and first.rstrip(" |").endswith(f"{item.prior:.0%}")
    assert "The bot's estimate" in last and last.rstrip(" |").endswith(bot.group(1))
    assert any(c.value.startswith("**LR** (likelihood ratio)") for c in fold.caption)


def test_other_players_cards_are_backs_on_the_table(db_url):
    at = quiz()
    item = current_item(at)
    game = item.game()
    table = next(h.proto.body for h in at.get("html") if "ct-table" in h.proto.body)
    seats = [s.split("</section>")[0] for s in table.split('<section class="ct-seat')[1:]]
    others = [s for s in seats if not s.startswith(" ct-seat--me") and "ct-seat--me" not in
              s.split(">")[0]]
    backs = sum(s.count('data-card="back"') for s in others)
    assert backs == sum(len(game.hidden[p]) for p in range(game.n) if p != item.viewer)
    assert all("ct-mini--own" not in s for s in others)


def test_the_game_so_far_is_on_the_page_before_answering(db_url):
    # What the bot's estimate weighed, turn by turn, folded under the table before any answer.
    at = quiz(quiz_mode="theme", quiz_theme="Duke claims")
    item = current_item(at)
    assert not any(b.disabled for b in option_buttons(at))
    rows = history_rows(item.game().observation(item.viewer))
    folds = [e for e in at.expander if e.label.startswith("What happened")]
    assert [f.label for f in folds] == [history_title(rows)]
    body = next(h.proto.body for h in folds[0].get("html") if "ct-history" in h.proto.body)
    assert body.count("<li") == len(rows) > 0
    assert all(escape(p.text) in body for r in rows for p in r.phrases)


def test_the_next_item_is_a_new_question(db_url):
    at = quiz()
    first = at.session_state["quiz_current"]
    at.button(key="quiz_option_0").click().run()
    at.button(key="quiz_next").click().run()
    second = at.session_state["quiz_current"]
    assert second["answer_id"] != first["answer_id"] and second["item"] != first["item"]


def _moved_on(at: AppTest) -> dict:
    """The state after the page has already moved to another showing of the item, as when a
    second click reaches the server after the first one's rerun."""
    moved = {**at.session_state["quiz_current"], "answer_id": "a-later-showing"}
    at.session_state["quiz_current"] = moved
    return moved


def test_a_late_second_next_click_does_not_skip_the_item_shown(db_url):
    at = quiz()
    at.button(key="quiz_option_0").click().run()
    moved = _moved_on(at)
    at.button(key="quiz_next").click().run()
    assert at.session_state["quiz_current"] == moved


def test_a_late_click_on_an_earlier_items_option_is_not_saved(db_url):
    at = quiz()
    _moved_on(at)
    at.button(key="quiz_option_0").click().run()
    assert Store(db_url).answers(ANN) == ([], [])
    assert not at.exception


def test_a_returning_learner_gets_their_history_back(db_url):
    at = quiz()
    at.button(key="quiz_option_0").click().run()
    again = quiz()
    assert any(c.value.startswith("1 answered") for c in again.caption)


def test_an_unreachable_database_keeps_the_quiz_working_in_memory(monkeypatch):
    monkeypatch.setenv("COUP_TRAINER_DB_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    at = quiz()
    assert any("kept in memory" in w.value for w in at.warning)
    at.button(key="quiz_option_0").click().run()
    assert not at.exception
    assert at.session_state["history"].answers


def test_a_malformed_database_url_is_named(monkeypatch):
    monkeypatch.setenv("COUP_TRAINER_DB_URL", "postgres//oops")
    at = quiz()
    # named by its setting and the form expected, never quoted (a URL may hold a password)
    assert any("COUP_TRAINER_DB_URL" in w.value and "malformed" in w.value
               and "expected an SQLAlchemy URL" in w.value and "postgres//oops" not in w.value
               for w in at.warning), [w.value for w in at.warning]


def test_a_bad_learner_name_in_the_address_is_refused(db_url):
    at = quiz(learner="<b>x</b>")
    assert any("`<b>x</b>`, which is not a learner name" in w.value for w in at.warning)
    assert is_browser_id(at.session_state[BROWSER])
    assert any("Your answers are kept in this browser." in c.value for c in at.caption)


def test_replay_my_mistakes_without_mistakes_says_so(db_url):
    at = quiz(quiz_mode="mistakes")
    assert any("No mistakes to review" in s.value for s in at.success)


def test_a_due_mistake_is_counted_reviewed_and_can_be_retried(db_url):
    from datetime import timedelta

    from trainer.learners.answers import now
    from trainer.quiz.feedback import grade

    def worst(i):
        return max(i.options, key=lambda o: i.lost_pp(o.label)).label

    missed = next(i for i in BANK.items if i.variant == "base" and i.lost_pp(worst(i)) > 15)
    answer = grade(missed, action=worst(missed), stated=0.5, learner=ANN, bank=BANK.version,
                   answer_id="past-miss-0001")
    Store(db_url).save(answer.model_copy(update={"answered_at": now() - timedelta(days=3)}))
    at = quiz(quiz_mode="mistakes")
    assert any(c.value == "1 mistake is due for review today." for c in at.caption)
    assert current_item(at).id == missed.id
    at.button(key="quiz_option_0").click().run()
    assert any("mistake is due" in c.value or "next one" in c.value for c in at.caption)
    at.button(key="quiz_retry").click().run()
    assert current_item(at).id == missed.id  # the same item, not yet answered
    assert not any(b.disabled for b in option_buttons(at))
    assert any(c.value.startswith("Once more, as you asked") for c in at.caption)


def test_end_game_drill_shows_only_end_game_items(db_url):
    at = quiz(quiz_mode="end-game")
    assert "End-game 1-v-1" in current_item(at).themes


# ------------------------------------------------------------------------------ calibration
def seed_answers(url: str, learner: str, n: int) -> None:
    Store(url).save_many(sample_answers(learner, n))


def test_calibration_without_answers_points_to_the_quiz(db_url):
    at = open_page("pages/calibration.py")
    assert any("No answers yet" in i.value for i in at.info)


def test_calibration_compares_first_and_latest_thirty(db_url):
    seed_answers(db_url, "ann", 80)
    at = open_page("pages/calibration.py")
    frames = [d.value for d in at.dataframe]
    assert any("first 30" in str(f.index.tolist()) or "first 30" in f.to_string()
               for f in frames)


def test_calibration_offers_the_history_as_csv(db_url):
    seed_answers(db_url, "ann", 5)
    at = open_page("pages/calibration.py")
    assert any(b.proto.label == "Export as CSV" for b in at.get("download_button"))


def test_building_a_bank_in_the_app_shows_progress_and_selects_it(db_url, tmp_path,
                                                                   monkeypatch):
    monkeypatch.setenv("COUP_TRAINER_BANK_DIR", str(tmp_path / "banks"))
    at = quiz()
    at.number_input(key="build_items").set_value(5)
    at.number_input(key="build_seed").set_value(77)
    at.button(key="build_bank").click().run(timeout=120)
    built = tmp_path / "banks" / "bank-s77-n5.jsonl"
    assert len(load_bank(built).items) == 5
    assert at.session_state["quiz_bank"] == "bank-s77-n5"
    assert BANK.get(at.session_state["quiz_current"]["item"]) is None  # from the new bank


def test_a_lesson_item_whose_scenario_is_gone_is_skipped_with_a_message(db_url, tmp_path,
                                                                         monkeypatch):
    from dataclasses import replace

    from trainer.quiz.bank import Bank

    lesson = next(i for i in BANK.items if i.scenario is not None)
    broken = Bank("broken", (replace(lesson, scenario="no-such-lesson"),), {})
    monkeypatch.setenv("COUP_TRAINER_BANK_DIR", str(tmp_path))
    broken.save(tmp_path / "broken.jsonl")
    at = quiz(quiz_bank="broken")
    assert any("could not be rebuilt" in e.value and "no-such-lesson" in e.value
               for e in at.error)
    assert at.button(key="quiz_skip")


def answering_as(at: AppTest) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Answering as"))


def test_a_learner_can_choose_a_name(db_url):
    at = quiz()
    assert re.match(r"Answering as \*\*Guest [0-9A-F]{4}\*\*", answering_as(at))
    at.text_input(key="new_name").set_value("Ann B")
    at.button(key="use_name").click().run()
    assert answering_as(at).startswith("Answering as **Ann B**")
    assert Store(db_url).name_of(ANN) == "Ann B" and "learner" not in at.query_params
    assert quiz().session_state["learner_browser"] == ANN  # a later visit: the same name
    assert answering_as(quiz()).startswith("Answering as **Ann B**")


def test_a_bad_name_is_refused_with_what_is_expected(db_url):
    at = quiz()
    at.text_input(key="new_name").set_value("<script>")
    at.button(key="use_name").click().run()
    assert any("1 to 40 letters" in e.value for e in at.error)
    assert Store(db_url).name_of(ANN) is None


def test_typing_another_learners_name_does_not_show_their_answers(db_url):
    store = Store(db_url)
    store.save_many(sample_answers(ANN, 4))
    store.set_name(ANN, "Ann")
    bob = quiz(learner="b-" + "b0" * 16)
    bob.text_input(key="new_name").set_value("Ann")
    bob.button(key="use_name").click().run()
    assert answering_as(bob).startswith("Answering as **Ann**")
    assert any(c.value.startswith("0 answered") for c in bob.caption)
    assert store.count(ANN) == 4


def test_not_you_starts_a_new_learner_in_this_browser(db_url):
    Store(db_url).save_many(sample_answers(ANN, 3))
    at = quiz()
    first = at.session_state["quiz_current"]
    assert any(c.value.startswith("3 answered") for c in at.caption)
    at.button(key="new_learner").click().run()
    new = at.session_state[BROWSER]
    assert is_browser_id(new) and new != ANN
    assert any(c.value.startswith("0 answered") for c in at.caption)
    assert at.session_state["quiz_current"]["answer_id"] != first["answer_id"]
    # The router writes the new learner into this browser's cookie.
    script = next(h.proto.body for h in at.get("html") if "coup_trainer_learner" in h.proto.body)
    assert f"coup_trainer_learner={new};" in script


def test_an_old_name_link_still_opens_its_answers_until_the_learner_leaves(db_url):
    Store(db_url).save_many(sample_answers("ann", 3))
    at = quiz(learner="ann")
    assert answering_as(at).startswith("Answering as **ann**, opened from a link")
    assert any(c.value.startswith("3 answered") for c in at.caption)
    at.button(key="own_learner").click().run()
    assert "learner" not in at.query_params
    assert any(c.value.startswith("0 answered") for c in at.caption)
    assert "Your answers are kept in this browser." in answering_as(at)


def test_a_name_nobody_saved_answers_under_opens_nothing(db_url):
    at = quiz(learner="bob")
    assert any("No answers are saved under `bob`" in w.value for w in at.warning)
    assert is_browser_id(at.session_state[BROWSER]) and "learner_linked" not in at.session_state


def test_forget_my_answers_deletes_them(db_url):
    seed_answers(db_url, "ann", 5)
    seed_answers(db_url, "bob", 3)
    at = open_page("pages/calibration.py")
    at.checkbox(key="forget_sure").check().run()
    at.button(key="forget").click().run()
    assert Store(db_url).count("ann") == 0 and Store(db_url).count("bob") == 3
    assert any("Deleted 5 answers" in s.value for s in at.success)


def test_the_quiz_saves_to_postgresql_when_configured(monkeypatch):
    import os
    import secrets

    url = os.environ.get("COUP_TRAINER_TEST_PG_URL")
    if not url:
        pytest.skip("COUP_TRAINER_TEST_PG_URL is not set (make test starts a PostgreSQL)")
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    learner = "b-" + secrets.token_hex(16)
    at = quiz(learner=learner)
    assert not any("kept in memory" in w.value for w in at.warning)
    at.button(key="quiz_option_0").click().run()
    store = Store(url)
    try:
        saved, problems = store.answers(learner)
        assert problems == [] and len(saved) == 1
        assert saved[0].item_id == at.session_state["quiz_current"]["item"]
    finally:
        store.delete_learner(learner)


# ------------------------------------------------------------------------------ exact grades
DUEL = "cbb952d982b6"  # a two-player duel from the start of its turn: challenge or pass


def duel_bank(folder: Path, monkeypatch, grades: dict | None) -> None:
    """A bank of one End-game item in the learner's bank folder, with its exact grades beside
    it when `grades` is given."""
    import json

    from trainer.quiz.bank import Bank

    monkeypatch.setenv("COUP_TRAINER_BANK_DIR", str(folder))
    bank = Bank("duel", (BANK.get(DUEL),), {})
    bank.save(folder / "duel.jsonl")
    if grades is not None:
        (folder / "duel.solved.json").write_text(json.dumps(
            {"format": 1, "bank": bank.version, "horizon": 4, "items": {DUEL: grades}}))


def test_a_solved_end_game_item_is_graded_against_perfect_play(db_url, tmp_path, monkeypatch):
    duel_bank(tmp_path, monkeypatch, {"values": {"Challenge": 0.1, "Pass": 0.6}, "horizon": 4,
                                      "exploitability": 0.0008, "settled": True, "moved": 0,
                                      "before": {"Challenge": 0.1, "Pass": 0.6}})
    at = quiz(quiz_bank="duel", quiz_mode="end-game")
    at.button(key=f"quiz_option_{[o.label for o in BANK.get(DUEL).options].index('Challenge')}"
              ).click().run()
    assert not at.exception, at.exception
    assert any(c.value.startswith("Solved exactly: graded against perfect play")
               for c in at.caption)
    saved, _ = Store(db_url).answers(ANN)
    assert (saved[0].best, saved[0].lost_pp, saved[0].grade) == ("Pass", 50.0, "blunder")


def test_an_exact_grade_a_second_exchange_moved_says_so(db_url, tmp_path, monkeypatch):
    duel_bank(tmp_path, monkeypatch, {"values": {"Challenge": 0.1, "Pass": 0.6}, "horizon": 4,
                                      "exploitability": 0.0008, "settled": False, "moved": 0.15,
                                      "before": {"Challenge": 0.25, "Pass": 0.55},
                                      "compared": 4, "exchanges": True})
    at = quiz(quiz_bank="duel", quiz_mode="end-game")
    at.button(key="quiz_option_0").click().run()
    assert not at.exception, at.exception
    captions = " ".join(c.value for c in at.caption)
    assert ("letting a line of play hold a second Exchange before it stops moved the options' "
            "values by up to 15.0 points") in captions
    assert "Solved exactly" not in captions


def test_an_exact_grade_that_did_not_settle_is_not_used_and_the_feedback_says_why(
        db_url, tmp_path, monkeypatch):
    duel_bank(tmp_path, monkeypatch, {"values": {"Challenge": 0.1, "Pass": 0.6}, "horizon": 4,
                                      "exploitability": 0.0008, "settled": False, "moved": 0.2,
                                      "before": {"Challenge": 0.3, "Pass": 0.5}})
    at = quiz(quiz_bank="duel", quiz_mode="end-game")
    at.button(key="quiz_option_0").click().run()
    assert not at.exception, at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "did not settle this position" in captions and "20.0 points" in captions
    assert "Solved exactly" not in captions
    saved, _ = Store(db_url).answers(ANN)
    item = BANK.get(DUEL)
    assert saved[0].lost_pp == round(item.lost_pp(saved[0].action), 2)  # the playouts' grade


def test_without_its_grades_file_the_end_game_drill_says_so_and_grades_by_rollouts(
        db_url, tmp_path, monkeypatch):
    duel_bank(tmp_path, monkeypatch, None)
    at = quiz(quiz_bank="duel", quiz_mode="end-game")
    assert any("duel.solved.json was not found" in c.value for c in at.caption)
    at.button(key="quiz_option_0").click().run()
    assert not at.exception, at.exception
    assert any(c.value.startswith("Graded by playing each option out ") and
               c.value.endswith(" times against the bots: the win chances are estimates.")
               for c in at.caption)


def test_a_bank_made_under_house_and_table_rules_is_asked_and_graded(db_url, tmp_path,
                                                                      monkeypatch):
    from trainer.quiz import rule_banks
    from trainer.quiz.bank import USER_BANK_ENV

    monkeypatch.setenv(USER_BANK_ENV, str(tmp_path / "banks"))
    rules = "base+pay_five(challengers=all)"
    made = rule_banks.make_questions(rules, 3, seed=3, rollouts=8)
    at = quiz()
    at.selectbox(key="quiz_bank").set_value(made.name).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="quiz_rule_set").options == [
        "Coup (base game) + paying 5 instead of a card · everyone who wants to may challenge"]
    assert any("Table rules: everyone who wants to may challenge" in c.value
               for c in at.caption)
    option_buttons(at)[0].click().run()
    assert not at.exception, at.exception
    answer = at.session_state["quiz_answer"]
    assert answer.variant == rules and answer.grade is not None
