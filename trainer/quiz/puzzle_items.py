"""End-game puzzles as quiz items: the first decision of a puzzle, graded by its exact values.

Why as items: a room (and anything else that asks one decision) already knows how to draw an
item's table, put its question, take an answer and grade it; a puzzle brings a position and
the solved value of every move, which is all an item needs. The grade is the solver's, worded
as such (`Solved`), never the rollouts'.
"""

from __future__ import annotations

from functools import cache

from trainer.endgame.puzzles import Puzzle, find, options, puzzle_game
from trainer.engine.game import Game
from trainer.quiz.bank import END_GAME, Item, Option
from trainer.quiz.building import option_label
from trainer.quiz.solved import Solved

PUZZLE_SOURCE = "end-game puzzle"
PREFIX = "puzzle:"
NAMES = ["You", "Them"]
KIND_THEMES = {"bluff": "Puzzle: a bluff wins it", "trap": "Puzzle: the obvious move loses",
               "hold": "Puzzle: hold on"}


def is_puzzle_id(item_id: str) -> bool:
    return item_id.startswith(PREFIX)


def item_game(item: Item) -> Game:
    """The position of a puzzle item (`Item.game` hands over here)."""
    p = find(str(item.meta.get("puzzle")), item.variant)
    if p is None:
        raise ValueError(f"puzzle {item.meta.get('puzzle')!r} is not in the {item.variant} "
                         "end-game table")
    return _named(puzzle_game(p, item.variant, int(item.meta.get("deal", 0))))


def _named(game: Game) -> Game:
    game.names = list(NAMES)
    return game


@cache
def puzzle_item(item_id: str, variant: str = "base") -> tuple[Item, Solved] | None:
    """The item for `puzzle:<puzzle id>` and its exact grade; None for an unknown id or a
    missing table."""
    if not is_puzzle_id(item_id):
        return None
    p = find(item_id[len(PREFIX):], variant)
    if p is None:
        return None
    return _item(p, variant)


def _item(p: Puzzle, variant: str) -> tuple[Item, Solved] | None:
    solved = options(p, variant)
    if solved is None:
        return None
    game = _named(puzzle_game(p, variant))
    labels = [option_label(game, m) for m in solved.moves]
    opts = tuple(Option(m, label, value, 0.0, 0.0)
                 for m, label, value in zip(solved.moves, labels, solved.values, strict=True))
    item = Item(id=f"{PREFIX}{p.id}", source=PUZZLE_SOURCE, kind="bluff", variant=variant,
                players=2, viewer=0, themes=(END_GAME, KIND_THEMES[p.kind]),
                difficulty=p.difficulty, options=opts, rollouts=0,
                explanation=p.goal.describe(), meta={"puzzle": p.id, "deal": 0})
    # graded as the End-game page grades the position: only what its two look-aheads and
    # its two solves agree on (a puzzle's position is settled, its weaker moves not always)
    grade = Solved(values=dict(zip(labels, solved.values, strict=True)),
                   horizon=solved.horizon, exploitability=solved.exploitability,
                   settled=True, moved=abs(solved.moved),
                   before=dict(zip(labels, solved.before, strict=True)) if solved.before else {},
                   compared=None if solved.compared in (None, solved.horizon - 2)
                   else solved.compared,
                   other=dict(zip(labels, solved.twin, strict=True)) if solved.twin else {})
    return item, grade
