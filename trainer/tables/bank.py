"""Quiz questions from the decisions people made at the tables: a question bank built like any
other (`trainer.quiz.bankfile.write_bank`: graded by rollouts, on Ray or in this process,
resumable), whose items say they come "from a game between people".

Why a bank and not live items: grading an item plays every option out hundreds of times, which
takes seconds a decision; a bank is graded once, and the Quiz page then asks its items with the
quiz's own grading, feedback and calibration, and shows the history before each decision as it
does for any item.

Why anonymous: a position is rebuilt from the deal's seed and the moves alone, under the quiz's
short seat names (`trainer.quiz.bank.new_game`), so nobody's nickname reaches the quiz; and only
finished games are used, so no live hand is given away.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trainer.engine.notation import parse
from trainer.estimates.report import DEFAULT_MODEL
from trainer.quiz.bank import Bank, new_game, user_bank_dir
from trainer.quiz.bankfile import write_bank
from trainer.quiz.building import PEOPLE, Task, decision_kind
from trainer.tables.store import TableStore

BANK_NAME = "people"  # the bank's file name in the learner's bank folder
# Playouts per option at most when the host makes the questions in the app: a quarter of the
# command's default, so a few games' decisions are graded in minutes on a laptop (the
# sequential rule stops clear decisions far sooner; the feedback states each option's noise).
PEOPLE_ROLLOUTS = 64
ROLLOUTS_ENV = "COUP_TRAINER_PEOPLE_ROLLOUTS"  # another cap (a slow machine, tests)


def app_rollouts() -> int:
    """The cap of playouts per option the host's page grades people's decisions with."""
    raw = os.environ.get(ROLLOUTS_ENV, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else PEOPLE_ROLLOUTS


def people_tasks(store: TableStore, limit: int = 2000) -> list[Task]:
    """One task per decision a person made at a finished table game that the quiz asks about
    (a challenge, a block, a bluff on their turn, which card to lose or keep): never a bot's,
    a stand-in's or the clock's."""
    tasks = []
    for code, number in store.finished_games(limit):
        game = store.game(code, number)
        if game is None:
            continue
        moves = store.moves(code, number)
        played = new_game(len(game.names), game.seed, game.rules)
        parsed = [parse(m.move) for m in moves]
        for m, move in zip(moves, parsed, strict=True):
            if played.is_over:
                break
            kind = decision_kind(played)
            if m.made_by == "person" and kind is not None:
                seed = int(hashlib.sha1(f"{code}:{number}:{m.index}".encode()).hexdigest()[:8],
                           16)
                tasks.append(Task(kind=kind, viewer=m.seat, rollout_seed=seed,
                                  variant=game.rules, players=len(game.names), seed=game.seed,
                                  moves=tuple(parsed[:m.index]), source=PEOPLE))
            played.apply(move)
    return tasks


def bank_path(folder: Path | None = None) -> Path:
    return (folder or user_bank_dir()) / f"{BANK_NAME}.jsonl.gz"


def build_people_bank(store: TableStore, *, rollouts: int, out: Path | None = None,
                      executor: str = "auto", jobs: int = 1, address: str | None = None,
                      resume: bool = False,
                      progress: Callable[[int, int], None] | None = None,
                      problems: list[str] | None = None) -> Bank:
    """Grade every person's decision of the finished table games and write the bank (by
    default `people.jsonl.gz` in the learner's bank folder, where the Quiz page finds it)."""
    tasks = people_tasks(store)
    header: dict[str, Any] = {"source": PEOPLE, "items": len(tasks), "rollouts": rollouts,
                              "model": DEFAULT_MODEL}
    target = out or bank_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_bank(tasks, target, header=header, rollouts=rollouts, name=BANK_NAME,
                      resume=resume, executor=executor, jobs=jobs, address=address,
                      progress=progress, problems=problems)
