"""Spaced repetition: when each item the learner has answered should come back.

Why derived, not stored: every answer is already saved with its item, time and grade, so an
item's card (its FSRS stability, difficulty and due time) is a pure function of the answers.
Replaying them through the scheduler in time order needs no table of its own, cannot drift
from the answers (an import, a deletion or *Forget my answers* is reflected at once) and
gives the same schedule on every machine. The scheduler is FSRS (the py-fsrs package), a
maintained, published model of memory; this module only maps quiz grades to its ratings.

Why no learning steps: FSRS's default steps (1 and 10 minutes) suit flash cards; a quiz item
shown again minutes later is remembered, not recalled, and a learner never gets the same item
twice in a day unless they ask. So every review is scheduled in whole days (one at least).

Why a same-day repeat moves the schedule only when it is a miss: a retry right after the
answer was shown tests short-term memory, so a right answer then says little; a wrong one
still says the item is not learned.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from fsrs import Card, Rating, Scheduler

from trainer.learners.answers import Answer, Grade

DAY = timedelta(days=1)
# One showing per item per day: an item answered less than this long ago is not drawn again
# (unless the learner asks for a retry, or nothing else is left).
SAME_DAY = DAY

# The quiz grade of the action → the FSRS rating. A belief miss (see drills.is_mistake) is
# Again whatever the action's grade.
RATINGS: dict[Grade, Rating] = {
    "best": Rating.Easy,
    "good": Rating.Good,
    "inaccuracy": Rating.Hard,
    "mistake": Rating.Again,
    "blunder": Rating.Again,
}
# A stated P(bluff) this far from what happened is a miss (drills.is_mistake uses it too).
BELIEF_MISS = 0.6

# Fuzzing off: the schedule must be the same on every replay of the same answers.
SCHEDULER = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def belief_miss(a: Answer) -> bool:
    """The stated chance of a bluff was 60 points or more from what the card showed."""
    return a.scored and abs((a.stated or 0) - float(bool(a.bluff))) >= BELIEF_MISS


def rating(a: Answer) -> Rating:
    """The FSRS rating of one answer: Again for a belief miss, else by the action's grade."""
    return Rating.Again if belief_miss(a) else RATINGS[a.grade]


@dataclass(frozen=True)
class ItemCard:
    """One item's schedule for one learner, after replaying their answers to it."""

    item_id: str
    due: datetime  # when it should be asked again (a day after it was last shown at least)
    stability: float  # FSRS: days until recall falls to 90%
    reviews: int  # answers that moved the schedule
    answers: int  # every answer, same-day repeats included
    lapses: int  # answers rated Again
    last_seen: datetime  # the latest answer
    interval: timedelta  # from the last review that moved the schedule to `due`

    @property
    def mistaken(self) -> bool:
        """Ever missed: the item belongs to the learner's mistakes."""
        return self.lapses > 0

    def is_due(self, now: datetime) -> bool:
        return self.due <= now

    def seen_today(self, now: datetime) -> bool:
        return now - self.last_seen < SAME_DAY


def replay(answers: Iterable[Answer], scheduler: Scheduler = SCHEDULER) -> ItemCard | None:
    """The card of one item from its answers (any order; replayed by time). None when the
    item was never answered."""
    card: Card | None = None
    item_id = ""
    counted: datetime | None = None  # the last answer that moved the schedule
    last_seen: datetime | None = None
    reviews = total = lapses = 0
    for a in sorted(answers, key=lambda a: (a.answered_at, a.answer_id)):
        r = rating(a)
        item_id = a.item_id
        total += 1
        lapses += r == Rating.Again
        last_seen = a.answered_at
        if card is not None and counted is not None and (
                a.answered_at - counted < SAME_DAY and r != Rating.Again):
            continue  # a right answer on a same-day retry: practice, not a review
        card = card or Card(card_id=0, due=a.answered_at)
        card, _ = scheduler.review_card(card, r, a.answered_at)
        counted = a.answered_at
        reviews += 1
    if card is None or last_seen is None or counted is None:
        return None
    # Never due within a day of the last showing, even after a same-day retry the schedule
    # left out: the drills and the page's count of due items then agree.
    due = max(card.due, last_seen + SAME_DAY)
    return ItemCard(item_id, due, float(card.stability or 0.0), reviews, total, lapses,
                    last_seen, card.due - counted)


def _derive(answers: Iterable[Answer]) -> dict[str, ItemCard]:
    by_item: dict[str, list[Answer]] = {}
    for a in answers:
        by_item.setdefault(a.item_id, []).append(a)
    cards = {item_id: replay(group) for item_id, group in by_item.items()}
    return {k: v for k, v in cards.items() if v is not None}


@dataclass(frozen=True)
class _Derived:
    bank: str
    answers: tuple[Answer, ...]  # frozen records: equal answers give equal cards
    cards: dict[str, ItemCard]


# The cards last derived, newest last. A tab's history only grows between two draws, so a
# new answer replays its own item only: about 40 ms for 5,000 answers from scratch, a few ms
# after an answer, under one when nothing changed (the answers are the same objects, which
# the tuple comparison checks first). Small: a few tabs at a time.
_CACHE: list[_Derived] = []
_CACHE_SIZE = 16
_LOCK = threading.Lock()


def cards(answers: Sequence[Answer], bank: str) -> dict[str, ItemCard]:
    """Every answered item's card in bank version `bank`, by item id."""
    mine = tuple(a for a in answers if a.bank == bank)
    with _LOCK:  # the app's tabs run their scripts in threads of one process
        for k in range(len(_CACHE) - 1, -1, -1):
            old = _CACHE[k]
            n = len(old.answers)
            if old.bank != bank or n > len(mine) or mine[:n] != old.answers:
                continue
            del _CACHE[k]
            if n == len(mine):
                found = old.cards
            else:  # answers were added: only their items change
                touched = {a.item_id for a in mine[n:]}
                found = {**old.cards, **_derive(a for a in mine if a.item_id in touched)}
            break
        else:
            found = _derive(mine)
        _CACHE.append(_Derived(bank, mine, found))
        del _CACHE[:-_CACHE_SIZE]
    return found


def due_mistakes(cards_by_id: dict[str, ItemCard], item_ids: Iterable[str],
                 now: datetime) -> list[ItemCard]:
    """The mistaken items among `item_ids` due now, most overdue first."""
    found = [c for i in item_ids if (c := cards_by_id.get(i)) is not None
             and c.mistaken and c.is_due(now)]
    return sorted(found, key=lambda c: (c.due, c.item_id))


@dataclass(frozen=True)
class DueSummary:
    """What the Quiz page says about reviews: how many mistakes are due now, when the next."""

    due: int
    next_due: datetime | None  # the earliest mistake not yet due; None when there is none
    now: datetime


def due_summary(cards_by_id: dict[str, ItemCard], item_ids: Iterable[str],
                now: datetime) -> DueSummary:
    mistaken = [c for i in item_ids if (c := cards_by_id.get(i)) is not None and c.mistaken]
    later = [c.due for c in mistaken if not c.is_due(now)]
    return DueSummary(sum(c.is_due(now) for c in mistaken), min(later, default=None), now)
