"""Questions under a chosen rule set: a small bank of persona-game decisions played under
exactly one description (``base+pay_five(challengers=all)``), for a room or the Quiz.

Why a bank of its own: the shipped bank holds the seven registered rule sets at the rulebook's
table rules, and an item is asked only under the rules it was played and valued under. A host
who picks other rules makes questions for them here, valued as `python -m trainer bank build`
values them (`building.persona_tasks`, graded by `bankfile.write_bank` over `trainer.batch`,
in this process), into the user's bank folder under the rule set's name, where the rooms and
the Quiz find it. Making more later adds to the same file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trainer.engine.variants import parse_rules
from trainer.quiz.bank import KIND_SHARE, Bank, user_bank_dir

# Rollouts per option: the Quiz's own "Build a bigger question bank" uses as many (about a
# second per item), so these questions are graded as finely as the ones a learner builds.
ROLLOUTS = 400
PREFIX = "rules-"
FORMAT_NOTE = "questions under one rule set, made in the app"
def bank_name(rules: str) -> str:
    """The bank's name, from the rule set's description: ``rules-base+pay_five-challengers-all``
    (letters, digits, ``+``, ``-`` and ``_`` only, so it is a plain file name)."""
    text = parse_rules(rules).text
    return PREFIX + re.sub(r"[^a-z0-9+_-]+", "-", text).strip("-")


def bank_path(rules: str, folder: Path | None = None) -> Path:
    return (folder or user_bank_dir()) / f"{bank_name(rules)}.jsonl"


def make_questions(rules: str, count: int, *, seed: int, rollouts: int | None = None,
                   folder: Path | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   problems: list[str] | None = None) -> Bank:
    """`count` new decisions from persona games under `rules`, each option valued by
    `rollouts` rollouts (`ROLLOUTS` by default), added to the rule set's bank (made if
    new); the bank written.
    `progress(done, total)` as each is valued."""
    from trainer.quiz.bankfile import write_bank  # slow to import: on demand
    from trainer.quiz.building import persona_tasks, recipe

    rollouts = rollouts or ROLLOUTS
    text = parse_rules(rules).text
    tasks = list(persona_tasks(count, seed=seed, variants={text: 1.0}))
    path = bank_path(text, folder)
    header: dict[str, Any] = {**recipe(seed=seed, items=count, rollouts=rollouts,
                                       variants={text: 1.0}, kinds=KIND_SHARE, lessons=False),
                              "rule_set": text, "made": FORMAT_NOTE}
    return write_bank(tasks, path, header=header, rollouts=rollouts, name=bank_name(text),
                      add_to=path.exists(), executor="local", jobs=1, progress=progress,
                      problems=problems)
