"""Drills: which items a learner is asked, and in which order.

Why apart from grading: what to ask next depends only on the bank and the learner's past
answers, and the quiz session, the rooms and tests all choose items the same way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from trainer.i18n import N_
from trainer.learners.answers import Answer, Grade
from trainer.learners.answers import now as clock_now
from trainer.quiz.bank import END_GAME, Bank, Item
from trainer.quiz.review import ItemCard, belief_miss, cards, due_mistakes

# The drills by identifier, with their names (shown through `tr`).
MODES = {
    "mixed": N_("Mixed"),
    "theme": N_("By theme"),
    "end-game": N_("End-game"),
    "mistakes": N_("My mistakes"),
}
# An answer to replay: an action graded this badly, or a belief this far from the truth.
MISTAKE_GRADES: tuple[Grade, ...] = ("inaccuracy", "mistake", "blunder")
# In every drill, this share of the draws takes a due review before a new item.
REVIEW_SHARE = 0.25


def is_mistake(a: Answer) -> bool:
    """An answer the learner should see again soon: a poor action or a belief miss (a stated
    P(bluff) 60 points or more from what happened, review.BELIEF_MISS)."""
    return a.grade in MISTAKE_GRADES or belief_miss(a)


# The rule set a drill starts with: a newcomer meets the base game's five characters, and
# chooses another rule set (its cards explained first) before its items appear.
DEFAULT_RULE_SET = "base"
ALL_RULE_SETS = "all"


def rule_sets(bank: Bank) -> list[str]:
    """The rule sets the bank has items of, the base game first, then "all"."""
    found = sorted({i.variant for i in bank.items}, key=lambda v: (v != DEFAULT_RULE_SET, v))
    return [*found, ALL_RULE_SETS] if len(found) > 1 else found


def candidates(bank: Bank, mode: str, answers: Sequence[Answer], theme: str | None = None,
               rule_set: str = ALL_RULE_SETS, now: datetime | None = None) -> list[Item]:
    """The items a mode draws from, of one rule set (or all). My mistakes is a review: the
    items the learner has missed whose next review (by the FSRS schedule of review.py) is due
    at `now`, most overdue first; a right answer sends an item further off each time."""
    if mode not in MODES:
        raise ValueError(f"unknown quiz mode {mode!r}; expected one of {', '.join(MODES)}")
    items = [i for i in bank.items if rule_set in (ALL_RULE_SETS, i.variant)]
    if mode == "theme":
        if not theme:
            raise ValueError("the by-theme drill needs a theme")
        return [i for i in items if theme in i.themes]
    if mode == "end-game":
        return [i for i in items if END_GAME in i.themes]
    if mode == "mistakes":
        by_id = {i.id: i for i in items}
        due = due_mistakes(cards(answers, bank.version), by_id, now or clock_now())
        return [by_id[c.item_id] for c in due]
    return items


Why = Literal["new", "review", "early", "repeat"]


@dataclass(frozen=True)
class Pick:
    """The item drawn and why: never answered (new), due for review, answered before but not
    due yet and not today (early), or already answered today because nothing else is left in
    the drill (repeat: the page says so)."""

    item: Item
    why: Why


def pick(bank: Bank, mode: str, answers: Sequence[Answer], rng: random.Random,
         theme: str | None = None, exclude: str | None = None,
         rule_set: str = ALL_RULE_SETS, now: datetime | None = None) -> Pick | None:
    """The next item of a drill. Never one answered in the last day while another is left
    (and never `exclude`, the one just answered, when there is another). My mistakes takes the
    most overdue review. Other drills take a due review (most overdue first) in REVIEW_SHARE
    of the draws and a new item otherwise; when no new item is left, the due reviews, then the
    items seen least often; only then one answered today, the longest ago."""
    at = now or clock_now()
    pool = candidates(bank, mode, answers, theme, rule_set, at)
    if exclude is not None and len(pool) > 1:
        pool = [i for i in pool if i.id != exclude]
    if not pool:
        return None
    known = cards(answers, bank.version)
    fresh = [i for i in pool if i.id not in known or not known[i.id].seen_today(at)]
    if not fresh:
        if mode == "mistakes":
            return None
        return Pick(min(pool, key=lambda i: (known[i.id].last_seen, i.id)), "repeat")
    if mode == "mistakes":
        return Pick(fresh[0], "review")
    due = sorted((known[i.id] for i in fresh if i.id in known and known[i.id].is_due(at)),
                 key=lambda c: (c.due, c.item_id))
    new = [i for i in fresh if i.id not in known]
    if due and (not new or rng.random() < REVIEW_SHARE):
        return Pick(bank.get(due[0].item_id) or fresh[0], "review")
    if new:
        return Pick(rng.choice(new), "new")
    return Pick(_least_seen(fresh, known, rng), "early")


def _least_seen(pool: list[Item], known: dict[str, ItemCard], rng: random.Random) -> Item:
    fewest = min(known[i.id].answers for i in pool)
    return rng.choice([i for i in pool if known[i.id].answers == fewest])


def next_item(bank: Bank, mode: str, answers: Sequence[Answer], rng: random.Random,
              theme: str | None = None, exclude: str | None = None,
              rule_set: str = ALL_RULE_SETS, now: datetime | None = None) -> Item | None:
    """The item `pick` draws, without the reason."""
    chosen = pick(bank, mode, answers, rng, theme, exclude, rule_set, now)
    return None if chosen is None else chosen.item
