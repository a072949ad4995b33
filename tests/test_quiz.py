"""Grading and feedback: the action by win-% lost, the belief against the revealed card."""

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from trainer.engine.moves import Move
from trainer.learners.answers import Answer, grade_for
from trainer.learners.history import History
from trainer.learners.storage import MemoryStore, StorageError
from trainer.quiz.bank import Bank, Item, Option, new_game
from trainer.quiz.drills import candidates, is_mistake, next_item
from trainer.quiz.feedback import AnswerError, feedback, grade
from trainer.quiz.review import DAY


def claim_item(item_id: str = "duke-1", *, bluff: bool = False, challenge: float = 0.40,
               passing: float = 0.60, themes: tuple[str, ...] = ("Duke claims",)) -> Item:
    return Item(
        id=item_id, source="persona game", kind="challenge", variant="base", players=2,
        viewer=1, themes=themes, difficulty="medium",
        options=(Option(Move.challenge(1), "Challenge", challenge, 0.02, 0.01),
                 Option(Move.pass_(1), "Pass", passing, 0.02, 0.0)),
        rollouts=1000, seed=1, claimant=0, claim="Duke", bluff=bluff,
        claimant_hand=("Captain", "Contessa") if bluff else ("Duke", "Contessa"),
        bot=0.3, prior=0.55, explanation="counting", p_star=0.45, w_win=0.8, w_lose=0.3)


def answer_to(item: Item, action: str, stated: float | None = 0.5, n: int = 0) -> Answer:
    return grade(item, action=action, stated=stated, learner="ann", bank="b-1",
                 answer_id=f"answer{n:04d}")


GAME = new_game(2, 1, "base")


@pytest.mark.parametrize(("lost", "expected"), [
    (0.0, "best"), (1.0, "best"), (1.01, "good"), (5.0, "good"), (5.01, "inaccuracy"),
    (10.0, "inaccuracy"), (15.0, "mistake"), (15.01, "blunder"), (60.0, "blunder"),
])
def test_grades_follow_the_win_percent_lost(lost, expected):
    assert grade_for(lost) == expected


def test_the_best_option_loses_nothing():
    a = answer_to(claim_item(), "Pass")
    assert (a.lost_pp, a.grade, a.best) == (0.0, "best", "Pass")


def test_a_worse_option_loses_the_difference_in_points():
    a = answer_to(claim_item(), "Challenge")
    assert (a.lost_pp, a.grade) == (20.0, "blunder")


def test_a_claim_item_needs_a_probability():
    with pytest.raises(AnswerError, match="stated: .*1% to 99%"):
        answer_to(claim_item(), "Pass", stated=None)


def test_a_probability_outside_one_to_ninety_nine_percent_is_refused():
    with pytest.raises(AnswerError, match=r"got 100%"):
        answer_to(claim_item(), "Pass", stated=1.0)


def test_an_answer_that_is_not_an_option_names_the_options():
    with pytest.raises(AnswerError, match="'Block' is not an answer.*'Challenge', 'Pass'"):
        answer_to(claim_item(), "Block")


def test_an_item_without_a_claim_records_no_probability():
    item = replace(claim_item(), kind="lose", claim=None, bluff=None, bot=None, prior=None)
    assert answer_to(item, "Pass", stated=0.7).stated is None


def test_the_answer_carries_truth_and_both_estimates():
    a = answer_to(claim_item(bluff=True), "Pass", stated=0.2)
    assert (a.stated, a.bluff, a.bot, a.prior) == (0.2, True, 0.3, 0.55)


def test_feedback_reveals_the_claimants_hand():
    fb = feedback(claim_item(bluff=True), answer_to(claim_item(bluff=True), "Pass"), GAME)
    assert fb.truth == "Ana held Captain and Contessa: the Duke claim was a bluff."


def test_good_decision_bad_outcome_is_called_out():
    # Passing was best, but this time the claim was a bluff that went through.
    item = claim_item(bluff=True)
    fb = feedback(item, answer_to(item, "Pass"), GAME)
    assert fb.call_out is not None and fb.call_out.startswith("Good decision, bad outcome")


def test_bad_decision_good_outcome_is_called_out():
    item = claim_item(bluff=True)
    fb = feedback(item, answer_to(item, "Challenge"), GAME)
    assert fb.call_out is not None and fb.call_out.startswith("Bad decision, good outcome")


def test_a_good_decision_with_a_good_outcome_needs_no_call_out():
    item = claim_item(bluff=False)
    assert feedback(item, answer_to(item, "Pass"), GAME).call_out is None


def test_feedback_sets_the_belief_beside_the_bots_and_p_star():
    item = claim_item()
    fb = feedback(item, answer_to(item, "Pass", stated=0.6), GAME)
    assert fb.belief == ("Chance it is a bluff: you said 60%, the bot says 30%, card counting "
                         "alone gives 55%. A challenge pays when the chance of a bluff is above "
                         "45%.")


def test_the_verdict_is_plain_words_and_the_noise_stays_with_the_figures():
    item = claim_item()
    fb = feedback(item, answer_to(item, "Challenge"), GAME)
    assert fb.verdict == ("Challenge gives up 20.0 percentage points of your chance to win, "
                          "compared with Pass.")
    assert fb.noise_pp == pytest.approx(1.0, abs=0.05)


def test_a_small_slip_with_a_good_outcome_says_so() -> None:
    item = claim_item(bluff=True, challenge=0.53, passing=0.60)
    fb = feedback(item, answer_to(item, "Challenge"), GAME)
    assert fb.grade == "inaccuracy"
    assert fb.call_out == ("A small slip, a good outcome: it worked this time, but Pass wins a "
                           "little more often here.")


def test_a_challenge_wins_more_as_the_chance_of_a_bluff_grows() -> None:
    # Challenge 40%, pass 60% at the bot's 30%; w_win − w_lose = 0.5 per unit of chance.
    item = replace(claim_item(), bot_low=0.1, bot_high=0.7)
    assert item.lost_range("Challenge") == pytest.approx((0.0, 30.0))  # 0 past 70%: 40+20=60
    assert item.lost_range("Pass") == pytest.approx((0.0, 0.0))
    lo, hi = item.lost_range("Challenge") or (0, 0)
    assert lo <= item.lost_pp("Challenge") <= hi


def test_an_item_without_a_range_has_no_lost_range() -> None:
    assert claim_item().lost_range("Challenge") is None


def test_on_thin_evidence_the_grade_is_a_range_not_a_confident_blunder() -> None:
    item = replace(claim_item(bluff=True), bot_low=0.1, bot_high=0.7)
    fb = feedback(item, answer_to(item, "Challenge"), GAME)
    assert fb.grade == "blunder"  # at the bot's own estimate
    assert fb.grade_range == ("best", "blunder")
    assert fb.headline == ("Depends on Ana: a serious error if Ana rarely bluffs, right if "
                           "Ana often does")
    assert fb.tone == "info"
    assert fb.range_note is not None and "from 10% to 70%" in fb.range_note
    assert "between 0.0 and 30.0 points" in fb.range_note
    assert fb.evidence is not None and "rests on no move by Ana" in fb.evidence
    # Not "a bad decision" when the evidence cannot say so.
    assert fb.call_out is None
    assert fb.belief is not None and \
        "the bot says 30% (10% to 70%, by what kind of player Ana is)" in fb.belief


def test_a_good_decision_is_not_called_one_when_its_range_reaches_a_mistake() -> None:
    # Passing a bluff: best at the bot's 30%, a mistake if Ana bluffs 90% of the time.
    item = replace(claim_item(bluff=True), bot_low=0.1, bot_high=0.9)
    fb = feedback(item, answer_to(item, "Pass"), GAME)
    assert fb.grade == "best" and fb.grade_range is not None
    assert fb.grade_range[1] == "mistake"
    assert fb.call_out is None


def test_a_good_decision_across_its_whole_range_is_still_called_one() -> None:
    item = replace(claim_item(bluff=True), bot_low=0.1, bot_high=0.75)
    fb = feedback(item, answer_to(item, "Pass"), GAME)
    assert fb.grade_range == ("best", "good")
    assert fb.call_out is not None and fb.call_out.startswith("Good decision, bad outcome")


def test_a_call_out_reads_as_a_bold_head_and_a_sentence() -> None:
    from trainer.views.quiz_text import call_out

    assert call_out("Good decision, bad outcome: on what you could see, it was sound.") == (
        "**Good decision, bad outcome.** On what you could see, it was sound.")


def test_a_narrow_range_keeps_a_single_grade() -> None:
    item = replace(claim_item(), bot_low=0.29, bot_high=0.31)
    fb = feedback(item, answer_to(item, "Challenge"), GAME)
    assert fb.grade_range is None and fb.range_note is None
    assert (fb.headline, fb.tone) == ("Blunder", "error")


# ------------------------------------------------------------------------------ modes
BANK = Bank("b", (claim_item("a"), claim_item("b", themes=("Captain steals",)),
                  claim_item("c", themes=("Duke claims", "End-game 1-v-1"))), {})


def bank_answer(item_id: str, action: str, n: int, stated: float = 0.5) -> Answer:
    item = BANK.get(item_id)
    assert item is not None
    return grade(item, action=action, stated=stated, learner="ann", bank=BANK.version,
                 answer_id=f"answer{n:04d}")


def test_a_theme_drill_draws_only_that_theme():
    assert [i.id for i in candidates(BANK, "theme", [], "Captain steals")] == ["b"]


def test_end_game_drill_draws_only_end_game_items():
    assert [i.id for i in candidates(BANK, "end-game", [])] == ["c"]


T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def at(answer: Answer, when: datetime) -> Answer:
    return answer.model_copy(update={"answered_at": when})


def test_replay_my_mistakes_takes_items_answered_badly_once_due():
    answers = [at(bank_answer("a", "Challenge", 1), T0), at(bank_answer("b", "Pass", 2), T0)]
    assert candidates(BANK, "mistakes", answers, now=T0 + timedelta(hours=1)) == []
    assert [i.id for i in candidates(BANK, "mistakes", answers, now=T0 + DAY)] == ["a"]


def test_a_mistake_answered_well_on_review_waits_longer():
    answers = [at(bank_answer("a", "Challenge", 1), T0), at(bank_answer("a", "Pass", 2), T0 + DAY)]
    assert candidates(BANK, "mistakes", answers, now=T0 + 2 * DAY) == []


def test_a_confident_wrong_belief_counts_as_a_mistake():
    assert is_mistake(bank_answer("a", "Pass", 1, stated=0.9))  # said 90%, it was true


def test_the_next_item_is_one_not_yet_seen():
    answers = [bank_answer("a", "Pass", 1), bank_answer("b", "Pass", 2)]
    assert next_item(BANK, "mixed", answers, random.Random(0)).id == "c"


def test_the_next_item_is_never_the_one_just_answered():
    for seed in range(20):
        assert next_item(BANK, "mixed", [], random.Random(seed), exclude="a").id != "a"


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="unknown quiz mode 'speed'"):
        candidates(BANK, "speed", [])


# ------------------------------------------------------------------------------ history
class BrokenStore(MemoryStore):
    def save(self, answer: Answer) -> bool:
        raise StorageError("Could not reach the database at sqlite:///gone: disk I/O error.",
                           public="Could not save in the answers' database: a disk error.")


def test_saving_the_same_answer_twice_counts_it_once():
    store, h = MemoryStore(), History("ann")
    a = bank_answer("a", "Pass", 1)
    assert h.add(store, a) and not h.add(store, a)
    assert (len(h.answers), store.count("ann")) == (1, 1)


def test_a_failing_database_keeps_answers_in_memory_and_says_why():
    h = History("ann")
    h.add(BrokenStore(), bank_answer("a", "Pass", 1))
    assert len(h.answers) == 1 and h.offline is not None and "a disk error" in h.offline
    assert "sqlite:///gone" not in h.offline  # the page's words, not the log's


def test_history_is_read_back_from_the_database_once():
    store = MemoryStore()
    store.save(bank_answer("a", "Pass", 1))
    h = History("ann")
    h.load(store)
    store.save(bank_answer("b", "Pass", 2))
    h.load(store)
    assert [a.item_id for a in h.answers] == ["a"]


def test_a_block_of_the_learners_own_action_reads_as_yours():
    from tests.helpers import shipped_bank
    from trainer.quiz.feedback import describe_decision

    lines = [describe_decision(i, i.game())[0] for i in shipped_bank().items
             if i.scenario is None]
    assert not [line for line in lines if "you's" in line]
    assert any(line.startswith(tuple("ABCDEF")) and " blocks your " in line for line in lines)


# ------------------------------------------------------------------------------ rule sets
def test_a_drill_starts_with_the_base_game_only() -> None:
    from dataclasses import replace

    from trainer.quiz.drills import DEFAULT_RULE_SET, rule_sets

    bank = Bank("v", (claim_item("a"), replace(claim_item("b"), variant="inquisitor")), {})
    assert DEFAULT_RULE_SET == "base"
    assert [i.id for i in candidates(bank, "mixed", [], rule_set="base")] == ["a"]
    assert rule_sets(bank) == ["base", "inquisitor", "all"]


def test_the_quiz_session_draws_from_the_base_game_until_told_otherwise() -> None:
    from dataclasses import replace

    from trainer.learners.history import History
    from trainer.quiz.session import RULE_SET, QuizSession

    bank = Bank("v", (replace(claim_item("a"), variant="inquisitor"), claim_item("b")), {})
    state: dict[str, object] = {}
    quiz = QuizSession(state, History("ann"), None, rng=random.Random(0))
    for _ in range(5):
        quiz.show_next(bank)
        assert quiz.current is not None and quiz.current["item"] == "b"
    state[RULE_SET] = "inquisitor"
    quiz.show_next(bank)
    assert quiz.current is not None and quiz.current["item"] == "a"


def test_another_rule_set_explains_its_new_cards_first() -> None:
    from trainer.views.quiz_text import new_cards

    assert new_cards("base") is None
    found = new_cards("inquisitor")
    assert found is not None
    note, overview = found
    assert "The Inquisitor replaces the Ambassador" in note and 'data-card="Inquisitor"' in overview


def test_nothing_before_the_answer_names_the_items_difficulty() -> None:
    from trainer.views.quiz_text import status_line

    item = claim_item()
    assert item.difficulty not in status_line([], item, GAME)


def test_a_block_item_with_the_actions_claim_asks_no_chance_and_says_nothing_of_challenges():
    # A played game's block decision carries the action's claim (its truth, the bot's read).
    item = replace(claim_item(), kind="block", p_star=None,
                   options=(Option(Move.block(1, "Contessa"), "Block with Contessa", 0.5,
                                   0.02, 0.01),
                            Option(Move.pass_(1), "Don't block", 0.4, 0.02, 0.0)))
    assert item.has_claim and not item.asks_chance
    a = answer_to(item, "Don't block", stated=None)
    assert a.stated is None and a.kind == "block"
    assert answer_to(item, "Don't block", stated=0.7).stated is None
    fb = feedback(item, a.model_copy(update={"stated": 0.7}), GAME)
    said = " ".join(x for x in (fb.verdict, fb.truth, fb.outcome, fb.belief) if x)
    assert "challenge" not in said.lower(), said
    assert fb.truth == "Ana held Duke and Contessa: the Duke claim was true."
    # A challenge item still asks, and says where a challenge pays.
    assert claim_item().asks_chance
    fb = feedback(claim_item(), answer_to(claim_item(), "Pass", stated=0.5), GAME)
    assert fb.belief is not None and "A challenge pays when" in fb.belief
