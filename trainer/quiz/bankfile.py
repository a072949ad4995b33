"""Writing a bank file: the one function through which the command line and the app save a
bank they built, resumable through a work file.

Why a work file: a 2,000-item build at 1,000 rollouts per option runs for over an hour, and a
Ctrl-C, a kill or a crash must not cost the items already graded. Each finished task is
appended at once to `<bank file>.work` (JSON lines, flushed), keyed by a hash of everything
that decides its result (`building.task_key`: the position, its rollout seed, the rollouts,
the players' model). Built again with `resume`, the tasks found there are not evaluated
again; a line torn by the kill is dropped and its task run anew.

Why the bank does not depend on how it was built: the items are put in the order of the
tasks, never the order in which processes finished them, so a resumed build, a build on one
core and one on a cluster write the same file byte for byte. The bank file itself is written
whole to a temporary file and renamed, so a reader never sees half a bank, and the work file
is removed once the bank is written.

Why one writer: the app's *Build a bigger question bank* and `python -m trainer bank build`
must make the same file from the same tasks; before, each saved its own way.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from trainer.batch import choose
from trainer.estimates.report import DEFAULT_MODEL
from trainer.quiz.bank import Bank, Item, bank_stem, load_bank
from trainer.quiz.building import Task, evaluate_all, extended, ordered_items, task_key

WORK_SUFFIX = ".work"


def work_path(out: Path) -> Path:
    """The work file of the bank file `out`: beside it, with a name the bank lists skip
    (they read `*.jsonl`)."""
    return out.with_name(out.name + WORK_SUFFIX)


def read_work(path: Path) -> dict[str, Item | str]:
    """The finished tasks of a work file: key → item, or why the position could not be
    graded. A line that does not parse (the last one, torn by a kill) is left out: its task
    is simply evaluated again."""
    done: dict[str, Item | str] = {}
    if not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            done[str(json.loads(line)["task"])] = read_entry(line)
        except (json.JSONDecodeError, TypeError, ValueError, KeyError):
            continue
    return done


def _cut_torn_tail(path: Path) -> None:
    """Drop a last line without its newline (a write cut short), so the next line appended
    starts on a line of its own."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)


def _entry(key: str, result: Item | str) -> str:
    body: dict[str, Any] = ({"item": result.to_data()} if isinstance(result, Item)
                            else {"problem": result})
    return json.dumps({"task": key, **body}, separators=(",", ":")) + "\n"


def write_bank(tasks: Sequence[Task], out: Path, *, header: dict[str, Any], rollouts: int,
               name: str | None = None, add_to: bool = False, resume: bool = False,
               executor: str = "auto", jobs: int = 1, address: str | None = None,
               model: dict[str, float] | None = None, scenarios: Path | None = None,
               progress: Callable[[int, int], None] | None = None,
               problems: list[str] | None = None) -> Bank:
    """Grade every task and write the bank to `out`; the bank written.

    `header` is the bank's recipe (with `add_to`, appended to the existing bank's additions,
    whose items are kept unless a new item has the same id). `resume` takes the tasks already
    finished in the work file; without it the work file starts empty. `progress(done, total)`
    is called once before any work (`done` = tasks taken from the work file) and after each
    task. A position that cannot be graded is left out and described in `problems`. Raises
    `BankError` before any work when `add_to` names a file that is not a bank, and
    `ExecutorError` when the executor cannot run here.
    """
    model = model or DEFAULT_MODEL
    executor = choose(executor, jobs, address)
    old = load_bank(out) if add_to else None
    keys = [task_key(t, rollouts, model) for t in tasks]
    work = work_path(out)
    work.parent.mkdir(parents=True, exist_ok=True)
    wanted = set(keys)
    done = {k: r for k, r in read_work(work).items() if k in wanted} if resume else {}
    if resume and work.exists():
        _cut_torn_tail(work)
    else:
        work.write_text("", encoding="utf-8")
    todo: dict[str, Task] = {}
    for key, task in zip(keys, tasks, strict=True):
        if key not in done:
            todo.setdefault(key, task)
    total = len(wanted)
    if progress:
        progress(len(done), total)
    with work.open("a", encoding="utf-8") as f:
        for key, result in evaluate_all(todo.items(), rollouts=rollouts, model=model,
                                        scenarios=scenarios, executor=executor,
                                        processes=jobs, address=address):
            line = _entry(key, result)
            f.write(line)
            f.flush()
            # The same form as a resumed result, so both paths give identical items.
            done[key] = read_entry(line)
            if progress:
                progress(len(done), total)
    items = ordered_items((done[k] for k in keys), problems, scenarios)
    bank = (extended(old, items, header) if old is not None
            else Bank(name or bank_stem(out), tuple(items), header))
    tmp = out.with_name(out.name + ".tmp" + (".gz" if out.suffix == ".gz" else ""))
    bank.save(tmp)
    os.replace(tmp, out)
    work.unlink(missing_ok=True)
    return bank


def read_entry(line: str) -> Item | str:
    """One work-file line's result, as `read_work` reads it."""
    entry = json.loads(line)
    return Item.from_data(entry["item"]) if "item" in entry else str(entry["problem"])
