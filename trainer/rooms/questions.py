"""The questions a room asks: drawn once, when the room is made, from a quiz drill or a
lesson's questions.

Why fixed at creation: every phone and the screen must show the same question, and a room
that survives a server restart must ask the same ones; the room keeps the item ids, and the
bank's version says whether they still mean the same thing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection

from trainer.endgame.puzzles import puzzles
from trainer.quiz.bank import Bank, Item
from trainer.quiz.drills import candidates
from trainer.quiz.feedback import grade
from trainer.quiz.puzzle_items import is_puzzle_id, puzzle_item
from trainer.quiz.solved import Solved, SolvedGrades
from trainer.rooms.settings import Source

ALL_LESSONS = "*"


def lesson_ids(bank: Bank) -> list[str]:
    """The lessons the bank holds questions of."""
    return sorted({i.scenario for i in bank.items if i.source == "lesson" and i.scenario})


def choose(bank: Bank, source: Source, solved: Collection[str] = (),
           lesson_order: Callable[[str], int] | None = None) -> list[Item]:
    """The room's questions. A drill draws `count` items by the source's seed, leaving out
    items where every answer is about as good (nothing to discuss) and, in the End-game
    drill, preferring items graded by perfect play (`solved` ids). A lesson source takes its
    lesson's questions in the lesson's order (every lesson's, in `lesson_order`, for "*")."""
    rng = random.Random(source.seed)
    if source.kind == "puzzles":
        fitting = [p for p in puzzles(source.rule_set) if source.puzzles in ("any", p.kind)]
        chosen = rng.sample(fitting, min(source.count, len(fitting)))
        found = (puzzle_item(f"puzzle:{p.id}", source.rule_set) for p in chosen)
        return [f[0] for f in found if f is not None]
    if source.kind == "lesson":
        pool = [i for i in bank.items if i.source == "lesson" and i.scenario
                and (source.lesson in (None, ALL_LESSONS) or i.scenario == source.lesson)]
        order = lesson_order or (lambda _s: 0)
        pool.sort(key=lambda i: (order(i.scenario or ""), i.scenario or "", i.step or 0))
        return pool[:source.count]
    pool = candidates(bank, source.drill, [], source.theme, source.rule_set)
    pool = [i for i in pool if i.source != "lesson"] or pool
    worth = [i for i in pool if not i.trivial] or pool
    if source.drill == "end-game":
        exact = [i for i in worth if i.id in solved]
        rest = [i for i in worth if i.id not in solved]
        rng.shuffle(exact)
        rng.shuffle(rest)
        return (exact + rest)[:source.count]
    picked = rng.sample(worth, min(source.count, len(worth)))
    return picked


def resolve(bank: Bank, grades: SolvedGrades, item_id: str, variant: str = "base"
            ) -> tuple[Item, Solved | None] | None:
    """A room's question by id, with its exact grade where there is one: a bank item (its
    End-game grade, if solved) or an end-game puzzle (always exact); None when gone."""
    if is_puzzle_id(item_id):
        return puzzle_item(item_id, variant)
    item = bank.get(item_id)
    return None if item is None else (item, grades.entry(item))


def grade_answer(item: Item, action: str, stated: float | None, solved: Solved | None,
                 seconds: float | None, bank_version: str) -> dict[str, object]:
    """The fields a room stores for an answer, graded as the Quiz grades it (the same
    `grade`, so a room's grades mean what the Quiz's mean); AnswerError names a bad field."""
    a = grade(item, action=action, stated=stated, learner="room-seat", bank=bank_version,
              answer_id="room-answer", mode="room", seconds=seconds, solved=solved)
    return {"item_id": item.id, "action": a.action, "stated": a.stated, "bot": a.bot,
            "bluff": a.bluff, "best": a.best, "lost_pp": a.lost_pp, "grade": a.grade,
            "seconds": a.seconds}


