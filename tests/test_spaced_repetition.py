"""Spaced repetition in the Quiz: FSRS schedules the learner's items from their answers.

Every time here comes from a fake clock handed to the code; nothing reads the real time.
"""

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Rating

from trainer.engine.moves import Move
from trainer.learners.answers import Answer, Grade, grade_for
from trainer.learners.history import History
from trainer.quiz import review
from trainer.quiz.bank import Bank, Item, Option
from trainer.quiz.drills import REVIEW_SHARE, candidates, pick
from trainer.quiz.review import DAY, DueSummary, cards, rating, replay
from trainer.quiz.session import MODE, RULE_SET, QuizSession
from trainer.views.quiz_text import due_line, no_review_left, when

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)


def item(item_id: str, variant: str = "base") -> Item:
    """A claim where passing is best (60%) and challenging loses 20 points (a blunder)."""
    return Item(
        id=item_id, source="persona game", kind="challenge", variant=variant, players=2,
        viewer=1, themes=("Duke claims",), difficulty="medium",
        options=(Option(Move.challenge(1), "Challenge", 0.40, 0.02, 0.01),
                 Option(Move.pass_(1), "Pass", 0.60, 0.02, 0.0)),
        rollouts=1000, seed=1, claimant=0, claim="Duke", bluff=False,
        claimant_hand=("Duke", "Contessa"), bot=0.3, prior=0.55, explanation="counting",
        p_star=0.45, w_win=0.8, w_lose=0.3)


BANK = Bank("sr", tuple(item(c) for c in "abcdefgh"), {})
LOST_PP: dict[Grade, float] = {"best": 0.0, "good": 3.0, "inaccuracy": 8.0, "mistake": 12.0,
                               "blunder": 20.0}
_ids = iter(range(10**6))


def answer(item_id: str, when: datetime, grade: Grade = "best", stated: float | None = 0.3,
           bank: Bank = BANK) -> Answer:
    lost = LOST_PP[grade]
    assert grade_for(lost) == grade
    return Answer(answer_id=f"answer{next(_ids):06d}", learner="ann", item_id=item_id,
                  bank=bank.version, kind="challenge", answered_at=when, stated=stated,
                  bluff=False, action="Pass", best="Pass", lost_pp=lost, grade=grade)


# ------------------------------------------------------------------------ grade → rating
@pytest.mark.parametrize(("grade", "expected"), [
    ("best", Rating.Easy), ("good", Rating.Good), ("inaccuracy", Rating.Hard),
    ("mistake", Rating.Again), ("blunder", Rating.Again),
])
def test_each_grade_maps_to_an_fsrs_rating(grade: Grade, expected: Rating) -> None:
    assert rating(answer("a", T0, grade)) == expected


def test_a_belief_miss_is_again_whatever_the_action() -> None:
    # Said 90% bluff on an honest claim: 90 points from the truth, though the move was best.
    assert rating(answer("a", T0, "best", stated=0.9)) == Rating.Again
    assert rating(answer("a", T0, "best", stated=0.55)) == Rating.Easy


# ------------------------------------------------------------------------ the intervals
def intervals(grades: list[Grade]) -> list[float]:
    """Answer one item with these grades, each on the day it falls due; the intervals in
    days the scheduler gives after each answer."""
    answers: list[Answer] = []
    out: list[float] = []
    when = T0
    for g in grades:
        answers.append(answer("a", when, g))
        card = replay(answers)
        assert card is not None
        out.append(card.interval / DAY)
        when = card.due
    return out


def test_intervals_grow_after_successive_right_answers() -> None:
    got = intervals(["blunder", "good", "good", "good", "good"])
    # fsrs 6.3 with its default parameters: 1, 2, 6, 17 and 44 days.
    assert got[0] == 1  # a miss comes back the next day
    assert all(b > a for a, b in zip(got, got[1:], strict=False))
    assert got[-1] > 30


def test_an_easy_answer_waits_longer_than_a_good_one() -> None:
    assert intervals(["best"]) > intervals(["good"]) > intervals(["inaccuracy"])


def test_a_mistake_shrinks_the_interval() -> None:
    got = intervals(["good", "good", "good", "mistake", "good"])
    # fsrs 6.3: 2, 11, 46, then 3 days after the mistake, then 8.
    assert got[3] < got[2] / 10 and got[3] <= 3
    assert got[4] < got[2]  # stability was lost: the next interval starts shorter


def test_a_right_retry_the_same_day_does_not_move_the_schedule() -> None:
    retried = T0 + 5 * MINUTE
    missed = replay([answer("a", T0, "blunder")])
    again = replay([answer("a", T0, "blunder"), answer("a", retried, "best")])
    assert missed is not None and again is not None
    assert (again.stability, again.interval) == (missed.stability, missed.interval)
    assert (again.answers, again.reviews) == (2, 1)
    # ... but it is not asked again within a day of the retry either.
    assert (missed.due, again.due) == (T0 + DAY, retried + DAY)
    answers = [answer("a", T0, "blunder"), answer("a", retried, "best")]
    assert candidates(BANK, "mistakes", answers, now=T0 + DAY + MINUTE) == []
    assert [i.id for i in candidates(BANK, "mistakes", answers, now=retried + DAY)] == ["a"]


def test_a_miss_on_a_retry_the_same_day_counts() -> None:
    first = [answer("a", T0, "good")]
    missed = [*first, answer("a", T0 + HOUR, "blunder")]
    assert replay(missed).due < replay(first).due  # type: ignore[union-attr]


# ------------------------------------------------------------------------ my mistakes
def test_a_mistaken_item_comes_back_when_due_and_not_before() -> None:
    answers = [answer("a", T0, "blunder"), answer("b", T0, "best")]
    for hours in (0, 1, 12, 23):
        now = T0 + hours * HOUR
        assert candidates(BANK, "mistakes", answers, now=now) == []
        assert pick(BANK, "mistakes", answers, random.Random(0), now=now) is None
    back = pick(BANK, "mistakes", answers, random.Random(0), now=T0 + DAY)
    assert back is not None and (back.item.id, back.why) == ("a", "review")


def test_a_right_answer_on_review_sends_the_mistake_further_off() -> None:
    answers = [answer("a", T0, "blunder"), answer("a", T0 + DAY, "good")]
    assert candidates(BANK, "mistakes", answers, now=T0 + 2 * DAY + HOUR) == []
    assert [i.id for i in candidates(BANK, "mistakes", answers, now=T0 + 3 * DAY)] == ["a"]


def test_the_mistakes_review_takes_the_most_overdue_first() -> None:
    answers = [answer("c", T0, "blunder"), answer("a", T0 + 2 * HOUR, "mistake"),
               answer("b", T0 + HOUR, "blunder")]
    now = T0 + 3 * DAY
    assert [i.id for i in candidates(BANK, "mistakes", answers, now=now)] == ["c", "b", "a"]
    chosen = pick(BANK, "mistakes", answers, random.Random(5), now=now)
    assert chosen is not None and chosen.item.id == "c"


def test_the_mistakes_review_keeps_to_the_rule_set() -> None:
    bank = Bank("rs", (item("a"), item("b", "inquisitor")), {})
    answers = [answer("a", T0, "blunder", bank=bank), answer("b", T0, "blunder", bank=bank)]
    ids = [i.id for i in candidates(bank, "mistakes", answers, rule_set="base", now=T0 + DAY)]
    assert ids == ["a"]


def test_answers_to_another_bank_are_not_scheduled_here() -> None:
    other = Bank("other", BANK.items, {})
    answers = [answer("a", T0, "blunder", bank=other)]
    assert candidates(BANK, "mistakes", answers, now=T0 + 5 * DAY) == []


# ------------------------------------------------------------------------ every drill
def test_a_due_review_is_preferred_in_a_share_of_the_draws() -> None:
    answers = [answer("a", T0, "blunder")]
    rng = random.Random(3)
    whys = [pick(BANK, "mixed", answers, rng, now=T0 + DAY).why for _ in range(400)]  # type: ignore[union-attr]
    share = whys.count("review") / len(whys)
    assert abs(share - REVIEW_SHARE) < 0.06 and set(whys) == {"review", "new"}


def test_when_no_new_item_is_left_the_due_reviews_come_first() -> None:
    bank = Bank("small", (item("a"), item("b"), item("c")), {})
    answers = [answer("a", T0, "best", bank=bank), answer("b", T0, "blunder", bank=bank),
               answer("c", T0, "good", bank=bank)]
    chosen = pick(bank, "mixed", answers, random.Random(0), now=T0 + DAY)
    assert chosen is not None and (chosen.item.id, chosen.why) == ("b", "review")


def simulate_a_day(mode: str = "mixed", n: int = 30) -> list[tuple[str, str]]:
    """A learner answers `n` items within a day in one tab (a minute each), missing every
    second one; the (item, why) shown in turn, on a fake clock."""
    bank = Bank("day", tuple(item(c) for c in "abcde"), {})
    clock = [T0.timestamp()]
    state: dict[str, object] = {MODE: mode}
    quiz = QuizSession(state, History("ann"), None, rng=random.Random(1),
                       clock=lambda: clock[0])
    # Yesterday's answers: two items fall due today.
    yesterday = T0 - DAY - HOUR
    quiz.history.answers += [answer("a", yesterday, "blunder", bank=bank),
                             answer("b", yesterday, "mistake", bank=bank)]
    shown: list[tuple[str, str]] = []
    for k in range(n):
        shown_item = quiz.item_shown(bank)
        assert shown_item is not None
        shown.append((shown_item.id, quiz.why))
        quiz.submit(shown_item, bank, "Challenge" if k % 2 else "Pass", quiz.showing)
        clock[0] += 60
        quiz.show_next(bank, shown_item.id, quiz.showing)
    return shown


def test_no_item_twice_in_a_day_while_another_is_left() -> None:
    shown = simulate_a_day()
    first_round = [i for i, _ in shown[:5]]
    assert sorted(first_round) == ["a", "b", "c", "d", "e"]
    assert {w for _, w in shown[:5]} == {"new", "review"}
    # Then every item of the drill has been seen today: repeats, and said so.
    assert all(w == "repeat" for _, w in shown[5:])
    assert [i for i, _ in shown[5:10]] == first_round  # the longest ago first


def test_the_mistakes_drill_asks_each_due_mistake_once_a_day() -> None:
    bank = Bank("day", tuple(item(c) for c in "abcde"), {})
    clock = [T0.timestamp()]
    quiz = QuizSession({MODE: "mistakes"}, History("ann"), None, rng=random.Random(1),
                       clock=lambda: clock[0])
    quiz.history.answers += [answer("a", T0 - DAY, "blunder", bank=bank),
                             answer("b", T0 - DAY - HOUR, "mistake", bank=bank)]
    seen = []
    while (shown := quiz.item_shown(bank)) is not None:
        seen.append(shown.id)
        quiz.submit(shown, bank, "Challenge", quiz.showing)  # missed again
        clock[0] += 60
        quiz.show_next(bank, shown.id, quiz.showing)
        assert len(seen) < 10
    assert seen == ["b", "a"]
    summary = quiz.due(bank)
    assert summary.due == 0 and summary.next_due is not None
    assert summary.next_due - quiz.now < DAY + HOUR


def test_a_retry_shows_the_same_item_again_and_says_so() -> None:
    bank = Bank("retry", (item("a"), item("b")), {})
    clock = [T0.timestamp()]
    state: dict[str, object] = {MODE: "mistakes"}
    quiz = QuizSession(state, History("ann"), None, rng=random.Random(0),
                       clock=lambda: clock[0])
    quiz.history.answers.append(answer("a", T0 - DAY, "blunder", bank=bank))
    shown = quiz.item_shown(bank)
    assert shown is not None and shown.id == "a" and quiz.can_retry()
    first = quiz.showing
    quiz.submit(shown, bank, "Challenge", first)
    quiz.retry(bank, "an-earlier-showing")  # a late click is ignored
    assert quiz.showing == first
    quiz.retry(bank, first)
    assert quiz.current is not None and quiz.current["item"] == "a"
    assert quiz.showing != first and quiz.why == "retry" and quiz.answer() is None


def test_the_session_stamps_answers_with_its_own_clock() -> None:
    clock = [T0.timestamp()]
    quiz = QuizSession({}, History("ann"), None, rng=random.Random(0), clock=lambda: clock[0])
    shown = quiz.item_shown(BANK)
    assert shown is not None
    quiz.submit(shown, BANK, "Pass", quiz.showing)
    assert quiz.history.answers[-1].answered_at == T0


def test_rule_set_filtering_still_holds_with_reviews() -> None:
    bank = Bank("rs2", (item("a"), item("b", "inquisitor")), {})
    clock = [T0.timestamp()]
    state: dict[str, object] = {}
    quiz = QuizSession(state, History("ann"), None, rng=random.Random(0),
                       clock=lambda: clock[0])
    quiz.history.answers.append(answer("b", T0 - DAY, "blunder", bank=bank))
    for _ in range(8):
        quiz.show_next(bank)
        assert quiz.current is not None and quiz.current["item"] == "a"
    assert quiz.due(bank).due == 0
    state[RULE_SET] = "all"
    assert quiz.due(bank).due == 1


# ------------------------------------------------------------------------ determinism
def test_the_schedule_is_the_same_whatever_the_order_the_answers_arrive_in() -> None:
    answers = [answer(c, T0 + k * 7 * HOUR, g)
               for k, (c, g) in enumerate(zip("abcabcab", ["blunder", "good", "best",
                                                           "good", "mistake", "good",
                                                           "inaccuracy", "best"],
                                              strict=True))]
    shuffled = answers[:]
    random.Random(4).shuffle(shuffled)
    review._CACHE.clear()
    first = cards(answers, BANK.version)
    review._CACHE.clear()
    assert cards(shuffled, BANK.version) == first
    assert cards(answers, BANK.version) is cards(answers, BANK.version)  # cached


def test_the_same_seed_draws_the_same_items() -> None:
    answers = [answer("a", T0, "blunder"), answer("b", T0, "best"), answer("c", T0, "good")]

    def draws(seed: int) -> list[str]:
        rng = random.Random(seed)
        return [pick(BANK, "mixed", answers, rng, now=T0 + 3 * DAY).item.id  # type: ignore[union-attr]
                for _ in range(20)]

    assert draws(7) == draws(7)


# ------------------------------------------------------------------------ the words
def test_the_due_line_says_how_many_and_when_the_next() -> None:
    assert due_line(DueSummary(3, T0 + DAY, T0)) == (
        "3 mistakes are due for review today; next one tomorrow.")
    assert due_line(DueSummary(1, None, T0)) == "1 mistake is due for review today."
    assert due_line(DueSummary(0, T0 + 5 * HOUR, T0)) == (
        "No mistake is due for review yet; next one in 5 hours.")
    assert due_line(DueSummary(0, None, T0)) is None
    assert "in 3 days" in no_review_left(DueSummary(0, T0 + 3 * DAY, T0))
    assert no_review_left(DueSummary(0, None, T0)).startswith("No mistakes to review")


@pytest.mark.parametrize(("delta", "words"), [
    (timedelta(minutes=20), "within the hour"), (HOUR, "in 1 hour"), (17 * HOUR, "in 17 hours"),
    (DAY, "tomorrow"), (2 * DAY, "in 2 days"), (43 * DAY, "in 43 days"),
])
def test_when_a_review_falls_is_said_in_plain_words(delta: timedelta, words: str) -> None:
    assert when(T0 + delta, T0) == words


def test_a_belief_miss_puts_an_item_among_the_mistakes() -> None:
    answers = [answer("a", T0, "best", stated=0.95)]
    assert [i.id for i in candidates(BANK, "mistakes", answers, now=T0 + DAY)] == ["a"]


def test_an_item_never_answered_has_no_card() -> None:
    assert replay([]) is None
    assert cards([answer("a", T0)], BANK.version).keys() == {"a"}
    assert replace(BANK.items[0]).id == "a"


def test_cards_extended_answer_by_answer_equal_cards_derived_from_scratch() -> None:
    rng = random.Random(2)
    grades: list[Grade] = ["best", "good", "inaccuracy", "mistake", "blunder"]
    answers = [answer(rng.choice("abcdefgh"), T0 + k * 5 * HOUR, rng.choice(grades))
               for k in range(60)]
    review._CACHE.clear()
    for n in [*range(0, len(answers), 7), len(answers)]:  # as a tab's history grows
        assert cards(answers[:n], BANK.version) == review._derive(answers[:n])
    assert len(cards(answers, BANK.version)) == 8
