"""Drills: which items a learner is asked, and in which order.

Why apart from grading: what to ask next depends only on the bank and the learner's past
answers, and the quiz session, the rooms and tests all choose items the same way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from trainer.learners.answers import Answer, Grade
from trainer.quiz.bank import END_GAME, Bank, Item

MODES = {
    "mixed": "Mixed",
    "theme": "By theme",
    "end-game": "End-game",
    "mistakes": "My mistakes",
}
# An answer to replay: an action graded this badly, or a belief this far from the truth.
MISTAKE_GRADES: tuple[Grade, ...] = ("inaccuracy", "mistake", "blunder")
BELIEF_MISS = 0.6  # stated P(bluff) at least 60 points from what happened


def is_mistake(a: Answer) -> bool:
    if a.grade in MISTAKE_GRADES:
        return True
    return a.scored and abs((a.stated or 0) - float(bool(a.bluff))) >= BELIEF_MISS


# The rule set a drill starts with: a newcomer meets the base game's five characters, and
# chooses another rule set (its cards explained first) before its items appear.
DEFAULT_RULE_SET = "base"
ALL_RULE_SETS = "all"


def rule_sets(bank: Bank) -> list[str]:
    """The rule sets the bank has items of, the base game first, then "all"."""
    found = sorted({i.variant for i in bank.items}, key=lambda v: (v != DEFAULT_RULE_SET, v))
    return [*found, ALL_RULE_SETS] if len(found) > 1 else found


def candidates(bank: Bank, mode: str, answers: Sequence[Answer], theme: str | None = None,
               rule_set: str = ALL_RULE_SETS) -> list[Item]:
    """The items a mode draws from, of one rule set (or all). Replay-my-mistakes takes the
    items whose latest answer was a mistake (a right answer on replay takes the item off the
    list)."""
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
        latest: dict[str, Answer] = {}
        for a in answers:
            if a.bank == bank.version:
                latest[a.item_id] = a
        return [i for i in items if i.id in latest and is_mistake(latest[i.id])]
    return items


def next_item(bank: Bank, mode: str, answers: Sequence[Answer], rng: random.Random,
              theme: str | None = None, exclude: str | None = None,
              rule_set: str = ALL_RULE_SETS) -> Item | None:
    """An item the learner has seen least often (never, preferably), at random among those;
    never the one just answered when there is another."""
    pool = candidates(bank, mode, answers, theme, rule_set)
    if exclude is not None and len(pool) > 1:
        pool = [i for i in pool if i.id != exclude]
    if not pool:
        return None
    seen: dict[str, int] = {}
    for a in answers:
        seen[a.item_id] = seen.get(a.item_id, 0) + 1
    if mode == "mistakes":
        return rng.choice(pool)
    fewest = min(seen.get(i.id, 0) for i in pool)
    return rng.choice([i for i in pool if seen.get(i.id, 0) == fewest])
