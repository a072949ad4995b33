"""Building a bank: resumable after a kill, written by one function for the app and the command
line, and the same bank whether the items were graded in this process or on Ray.

Builds here are tiny (a few items, a few dozen rollouts) and only one test starts Ray."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import shipped_bank
from trainer.batch import ExecutorError, choose, ray_available
from trainer.cli import main
from trainer.quiz import bankfile, building
from trainer.quiz.bank import Bank, load_bank
from trainer.quiz.bankfile import work_path, write_bank
from trainer.quiz.building import build, persona_tasks, task_key
from trainer.quiz.session import QuizSession

ROOT = Path(__file__).resolve().parent.parent
ROLLOUTS = 30


def command(out: Path, items: int = 8) -> list[str]:
    return ["bank", "build", "--items", str(items), "--seed", "21", "--rollouts", str(ROLLOUTS),
            "--no-lessons", "--executor", "local", "--jobs", "1", "--resume", "--name", "t",
            "--out", str(out)]


def items_of(path: Path) -> list[str]:
    """The item lines of a bank file (its header names how it was built)."""
    return path.read_text(encoding="utf-8").splitlines()[1:]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted build of the command the tests interrupt."""
    out = tmp_path_factory.mktemp("reference") / "bank.jsonl"
    assert main(command(out)) == 0
    return out


def test_a_killed_build_resumes_to_the_same_bank(reference, tmp_path):
    out = tmp_path / "bank.jsonl"
    work = work_path(out)
    run = [sys.executable, "-m", "trainer", *command(out)]
    proc = subprocess.Popen(run, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if work.exists() and work.read_text(encoding="utf-8").count("\n") >= 3:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    finished = work.read_text(encoding="utf-8").count("\n")
    assert not out.exists(), "the build finished before it was killed"
    assert 3 <= finished < 8
    # A kill in the middle of a write leaves half a line: it must be dropped, not kept.
    with work.open("a", encoding="utf-8") as f:
        f.write('{"task":"' + "0" * 16 + '","item":{"id":"tor')
    again = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"resumed: {finished} of 8 tasks from the work file" in again.stderr
    assert out.read_bytes() == reference.read_bytes()
    assert not work.exists()


def test_ctrl_c_keeps_the_finished_tasks_and_says_how_to_go_on(reference, tmp_path, capsys,
                                                                monkeypatch):
    real = building._evaluate_star
    calls: list[int] = []

    def interrupted(args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(args)

    out = tmp_path / "bank.jsonl"
    monkeypatch.setattr(building, "_evaluate_star", interrupted)
    assert main(command(out)) == 130
    assert "interrupted with 2 of 8 tasks" in capsys.readouterr().err
    assert not out.exists()
    monkeypatch.setattr(building, "_evaluate_star", real)
    assert main(command(out)) == 0
    assert "resumed: 2 of 8 tasks" in capsys.readouterr().err
    assert out.read_bytes() == reference.read_bytes()


def test_a_build_without_resume_leaves_an_interrupted_builds_work_alone(tmp_path, capsys):
    out = tmp_path / "bank.jsonl"
    work_path(out).write_text('{"task":"x","problem":"y"}\n', encoding="utf-8")
    args = [a for a in command(out) if a != "--resume"]
    assert main(args) == 2
    assert "add --resume to continue it" in capsys.readouterr().err
    assert work_path(out).read_text(encoding="utf-8") == '{"task":"x","problem":"y"}\n'


def test_a_torn_last_line_is_cut_before_more_are_appended(tmp_path):
    tasks = list(persona_tasks(4, seed=5))
    out = tmp_path / "b.jsonl"

    def stop_at(n: int):
        def progress(done: int, total: int) -> None:
            if done == n:
                raise KeyboardInterrupt
        return progress

    with pytest.raises(KeyboardInterrupt):
        write_bank(tasks, out, header={}, rollouts=8, executor="local", progress=stop_at(2))
    work = work_path(out)
    with work.open("a", encoding="utf-8") as f:
        f.write('{"task":"' + "0" * 16 + '","item":{"id":"tor')
    with pytest.raises(KeyboardInterrupt):
        write_bank(tasks, out, header={}, rollouts=8, executor="local", resume=True,
                   progress=stop_at(3))
    assert len(bankfile.read_work(work)) == 3  # the third line is not glued to the torn one


def test_a_work_file_of_other_rollouts_is_not_taken(tmp_path):
    # The key of a task holds its rollouts: results graded differently are computed again.
    tasks = list(persona_tasks(2, seed=5))
    out = tmp_path / "b.jsonl"
    first = write_bank(tasks, out, header={}, rollouts=8, executor="local")
    work = work_path(out)
    work.write_text("".join(
        json.dumps({"task": task_key(t, 8, bankfile.DEFAULT_MODEL), "item": i.to_data()}) + "\n"
        for t, i in zip(tasks, first.items, strict=True)), encoding="utf-8")
    calls: list[tuple[int, int]] = []
    write_bank(tasks, out, header={}, rollouts=9, executor="local", resume=True,
               progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 2)
    calls.clear()
    work.write_text("".join(
        json.dumps({"task": task_key(t, 8, bankfile.DEFAULT_MODEL), "item": i.to_data()}) + "\n"
        for t, i in zip(tasks, first.items, strict=True)), encoding="utf-8")
    again = write_bank(tasks, out, header={}, rollouts=8, executor="local", resume=True,
                       progress=lambda done, total: calls.append((done, total)))
    assert calls == [(2, 2)]
    assert again.items == first.items


def test_the_app_and_the_command_line_write_through_one_function(tmp_path, monkeypatch):
    # Both paths go through bankfile.write_bank and, from the same tasks, write the same items.
    real = bankfile.write_bank
    outs: list[Path] = []

    def recording(tasks, out, **kw):
        outs.append(out)
        return real(tasks, out, **{**kw, "rollouts": 8, "executor": "local"})

    monkeypatch.setattr(bankfile, "write_bank", recording)
    monkeypatch.setenv("COUP_TRAINER_BANK_DIR", str(tmp_path / "app"))
    path, count = QuizSession({}, history=None, store=None).build_bank(3, seed=9)
    cli = tmp_path / "cli.jsonl"
    assert main(["bank", "build", "--items", "3", "--seed", "9", "--variants", "base",
                 "--no-lessons", "--out", str(cli)]) == 0
    assert outs == [path, cli]
    assert count == 3
    assert items_of(path) == items_of(cli)


def test_adding_to_a_bank_keeps_its_items_and_records_the_addition(tmp_path):
    out = tmp_path / "b.jsonl"
    tasks = list(persona_tasks(3, seed=6))
    write_bank(tasks[:2], out, header={"seed": 6}, rollouts=8, executor="local", name="mine")
    bank = write_bank(tasks[2:], out, header={"seed": 7}, rollouts=8, executor="local",
                      add_to=True)
    again = load_bank(out)
    assert again.name == "mine" and len(again.items) == 3
    assert again.header["additions"] == [{"seed": 7}]
    assert again.items == bank.items


def test_the_executor_is_checked_before_any_work():
    with pytest.raises(ExecutorError, match="unknown executor"):
        choose("threads", 2, None)
    with pytest.raises(ExecutorError, match="needs the ray executor"):
        choose("local", 2, "127.0.0.1:6379")
    assert choose("auto", 1, None) == "local"  # one process: no Ray start-up to pay


@pytest.mark.skipif(not ray_available(), reason="Ray is the batch extra")
def test_ray_on_two_cores_resumes_to_the_same_bank_as_one_process(tmp_path):
    import ray

    tasks = list(persona_tasks(6, seed=13))
    local = Bank("r", tuple(build(tasks, rollouts=ROLLOUTS, executor="local")), {})
    assert len(local.items) == 6
    # Two finished tasks in the work file, out of order, as Ray may leave them.
    out = tmp_path / "r.jsonl"
    lines = [json.dumps({"task": task_key(tasks[i], ROLLOUTS, bankfile.DEFAULT_MODEL),
                         "item": local.items[i].to_data()}) for i in (4, 1)]
    work_path(out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    calls: list[int] = []
    assert choose("auto", 2, None) == "ray"
    try:
        bank = write_bank(tasks, out, header={}, rollouts=ROLLOUTS, name="r", resume=True,
                          executor="ray", jobs=2, progress=lambda done, _: calls.append(done))
        left_running = ray.is_initialized()
    finally:
        ray.shutdown()
    assert not left_running  # the build stops the Ray it started
    assert calls == [2, 3, 4, 5, 6]  # only the four unfinished tasks were graded
    assert bank.items == local.items
    local.save(tmp_path / "local.jsonl")
    assert out.read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_revaluing_grades_one_rule_sets_items_again_in_place(tmp_path, capsys):
    shipped = shipped_bank()
    reform = [i for i in shipped.items if i.variant == "reformation" and i.source != "lesson"]
    base = [i for i in shipped.items if i.variant == "base"][:2]
    path = tmp_path / "small.jsonl"
    Bank("small", (*base, *reform[:2]), {"format": 1}).save(path)
    assert main(["bank", "revalue", str(path), "--variants", "reformation", "--rollouts",
                 str(ROLLOUTS), "--executor", "local", "--jobs", "1"]) == 0
    again = load_bank(path)
    assert [i.id for i in again.items] == [i.id for i in (*base, *reform[:2])]
    assert again.items[:2] == tuple(base)  # other rule sets untouched
    assert all(i.rollouts == ROLLOUTS for i in again.items[2:])
    assert again.header["additions"][-1]["revalued"] == ["reformation"]
    assert "2 items graded again" in capsys.readouterr().out


def test_revaluing_a_rule_set_the_bank_lacks_says_which_it_has(tmp_path, capsys):
    path = tmp_path / "small.jsonl"
    Bank("small", shipped_bank().items[:1], {"format": 1}).save(path)
    assert main(["bank", "revalue", str(path), "--variants", "forum"]) == 2
    assert "no items of forum" in capsys.readouterr().err


def test_estimating_a_bank_again_keeps_its_ids_and_leaves_out_an_item_that_gives_one_away(
        tmp_path, capsys):
    from dataclasses import replace

    shipped = shipped_bank()
    claim = next(i for i in shipped.items
                 if i.has_claim and i.variant == "base" and i.source != "lesson")
    assert claim.claimant is not None
    stale = replace(claim, bot=0.5, bot_low=0.4, bot_high=0.6)  # as an older model said
    # The same game seen from the claimant's seat a move earlier: it shows their hand.
    sibling = replace(claim, id="sibling", viewer=claim.claimant, moves=claim.moves[:-1],
                      claim=None, bluff=None, claimant=None, claimant_hand=(), bot=None,
                      prior=None, bot_low=None, bot_high=None)
    path = tmp_path / "small.jsonl"
    Bank("small", (stale, sibling), {"format": 1}).save(path)
    assert main(["bank", "estimates", str(path)]) == 0
    again = load_bank(path)
    assert [i.id for i in again.items] == [claim.id]
    assert (again.items[0].bot, again.items[0].bot_low, again.items[0].bot_high) == \
        (claim.bot, claim.bot_low, claim.bot_high)
    assert again.items[0].options == claim.options  # the option values are kept
    assert again.header["additions"][-1]["left out"] == 1
    assert "1 item left out" in capsys.readouterr().out


def test_a_lessons_questions_are_graded_again_where_the_lesson_now_asks_them(tmp_path, capsys):
    """An old item of the lesson at a step it no longer asks goes; the lesson's questions as
    the file stands are added; items of other lessons and of games are kept."""
    from dataclasses import replace

    shipped = shipped_bank()
    games = [i for i in shipped.items if i.source != "lesson"][:2]
    other = next(i for i in shipped.items if i.source == "lesson" and i.scenario == "first-block")
    stale = replace(next(i for i in shipped.items if i.scenario == "learn-blocks"),
                    id="stale0000000", step=40)  # a step the lesson does not have
    path = tmp_path / "small.jsonl"
    Bank("small", (*games, other, stale), {"format": 1}).save(path)
    assert main(["bank", "lessons", str(path), "--lessons", "learn-blocks", "--rollouts",
                 str(ROLLOUTS), "--executor", "local", "--jobs", "1"]) == 0
    again = load_bank(path)
    ids = [i.id for i in again.items]
    assert "stale0000000" not in ids
    assert ids[:3] == [*(i.id for i in games), other.id]  # kept as they were
    added = [i for i in again.items if i.scenario == "learn-blocks"]
    tasks = [t for t in building.lesson_tasks(Path("scenarios"), seed=0)
             if t.scenario == "learn-blocks"]
    assert added and sorted(i.step or 0 for i in added) == sorted(t.step or 0 for t in tasks)
    assert again.header["additions"][-1]["lessons"] == ["learn-blocks"]
    assert "1 old item went" in capsys.readouterr().out


def test_grading_a_lesson_that_asks_nothing_the_quiz_grades_says_so(tmp_path, capsys):
    path = tmp_path / "small.jsonl"
    Bank("small", shipped_bank().items[:1], {"format": 1}).save(path)
    assert main(["bank", "lessons", str(path), "--lessons", "no-such-lesson"]) == 2
    assert "no question to grade in no-such-lesson" in capsys.readouterr().err
