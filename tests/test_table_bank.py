"""Quiz questions from people's decisions at the tables: one task per decision a person made
(never a bot's), graded into a bank the Quiz page reads, its items saying where they come from
and never naming the people."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from tests.test_table_live import Seated, play_out
from trainer.cli import main
from trainer.quiz.bank import load_bank
from trainer.quiz.building import PEOPLE, task_position
from trainer.tables.bank import build_people_bank, people_tasks
from trainer.tables.live import Tables
from trainer.tables.model import TableSettings
from trainer.tables.store import TableStore

PEOPLE_NAMES = ("Zephyrine", "Quillon")  # no seat of a quiz game is called that


@pytest.fixture
def played(tmp_path: Path) -> tuple[TableStore, str]:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    store = TableStore(create_engine(url))
    t, host = store.create(TableSettings(seats=3, bot_pace=0.0))
    tokens = [store.join(t.code, name)[1] for name in PEOPLE_NAMES]
    store.seat_bot(t.code, host, 2, "honest")
    store.deal(t.code, host, seed=7)
    play_out(Tables(store), Seated(t.code, host, tokens), random.Random(4))
    return store, url


def test_every_task_is_a_persons_own_decision(played: tuple[TableStore, str]) -> None:
    store, _ = played
    tasks = people_tasks(store)
    assert tasks
    code, number = store.finished_games()[0]
    moves = store.moves(code, number)
    for task in tasks:
        made = moves[len(task.moves)]
        assert made.made_by == "person" and made.seat == task.viewer
        assert task.source == PEOPLE


def test_a_task_rebuilds_the_position_the_person_faced(played: tuple[TableStore, str]) -> None:
    store, _ = played
    task = people_tasks(store)[0]
    game, _ = task_position(task)
    assert game.decider == task.viewer and not game.is_over


def test_the_bank_says_its_items_come_from_people_and_names_nobody(
        played: tuple[TableStore, str], tmp_path: Path) -> None:
    store, _ = played
    out = tmp_path / "people.jsonl.gz"
    build_people_bank(store, rollouts=4, out=out, executor="local")
    bank = load_bank(out)
    assert bank.items and all(i.source == PEOPLE for i in bank.items)
    plain = gzip.decompress(out.read_bytes()).decode()
    assert not any(name in plain for name in PEOPLE_NAMES)


def test_the_command_builds_the_bank(played: tuple[TableStore, str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    _, url = played
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    out = tmp_path / "bank.jsonl.gz"
    assert main(["people", "bank", "--rollouts", "4", "--out", str(out),
                 "--executor", "local"]) == 0
    assert load_bank(out).items
    assert "written to" in capsys.readouterr().out


def test_the_command_says_when_there_is_nothing_to_ask(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COUP_TRAINER_DB_URL", f"sqlite:///{tmp_path / 'empty.db'}")
    assert main(["people", "bank", "--out", str(tmp_path / "b.jsonl.gz")]) == 1
    assert "no finished table game" in capsys.readouterr().err


def test_the_quiz_says_a_question_comes_from_a_game_between_people(
        played: tuple[TableStore, str], tmp_path: Path) -> None:
    from trainer.quiz.building import item_task
    from trainer.views.quiz_text import status_line

    store, _ = played
    out = tmp_path / "people.jsonl.gz"
    build_people_bank(store, rollouts=4, out=out, executor="local")
    item = load_bank(out).items[0]
    game, _ = task_position(item_task(item))
    assert "from a game between people" in status_line([], item, game)
    assert item_task(item).source == PEOPLE  # graded again, it stays a people's item


def test_the_command_keeps_an_interrupted_builds_work(played: tuple[TableStore, str],
                                                      tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.quiz.bankfile import work_path

    _, url = played
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    out = tmp_path / "bank.jsonl.gz"
    work_path(out).write_text('{"graded": "before"}\n', encoding="utf-8")
    assert main(["people", "bank", "--out", str(out), "--executor", "local"]) == 2
    assert "--resume" in capsys.readouterr().err
    assert work_path(out).read_text(encoding="utf-8") == '{"graded": "before"}\n'
