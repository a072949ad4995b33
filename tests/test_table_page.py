"""The game table's pages as the host, a phone and the screen use them (AppTest): opening a
table, joining by the code typed on the Room page, a phone's decision played by its button,
and every wrong code, key or seat said in a sentence, never a crash."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import create_engine
from streamlit.testing.v1 import AppTest

from tests.test_room_page import db_url, open_room
from trainer.rooms.codes import screen_token
from trainer.tables.model import TableSettings
from trainer.tables.store import TableStore

__all__ = ["db_url"]  # the Room page tests' database: a SQLite file of this test's own


@pytest.fixture
def store(db_url: str) -> TableStore:
    return TableStore(create_engine(db_url))


def texts(at: AppTest) -> str:
    return " ".join([m.value for m in at.markdown] + [e.value for e in at.error]
                    + [i.value for i in at.info] + [c.value for c in at.caption])


def dealt(store: TableStore, **settings: object) -> tuple[str, str, list[str]]:
    t, host = store.create(TableSettings(seats=2, bot_pace=0.0, **settings))  # type: ignore[arg-type]
    tokens = [store.join(t.code, name)[1] for name in ("Ann", "Ben")]
    store.deal(t.code, host, seed=3)
    return t.code, host, tokens


def test_the_host_opens_a_table_from_the_form(db_url: str, store: TableStore) -> None:
    at = open_room(table="", host="")
    assert at.title[0].value == "Open a game table"
    at.button(key="table_make").click().run()
    code, host = at.query_params["table"], at.query_params["host"]
    assert store.is_host(str(code), str(host))


def test_a_code_that_is_not_one_is_said(db_url: str) -> None:
    at = open_room(table="AB!")
    assert "is not a table code" in texts(at)


def test_a_table_that_does_not_exist_is_said(db_url: str) -> None:
    at = open_room(table="ABCDEF")
    assert "There is no table ABCDEF" in texts(at)


def test_a_code_typed_on_the_room_page_finds_a_table(db_url: str, store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=3))
    at = open_room(code=t.code.lower())
    assert at.query_params["table"] == t.code
    assert any(h.value == f"Join table {t.code}" for h in at.title)


def test_a_phone_joins_and_gets_a_seat(db_url: str, store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=3))
    at = open_room(table=t.code)
    at.text_input(key="table_typed_name").input("Zoe")
    at.button[0].click().run()
    seat = store.my_seat(t.code, str(at.query_params["seat"]))
    assert seat is not None and seat.nickname == "Zoe"


def test_a_wrong_seat_is_said_with_a_way_back(db_url: str, store: TableStore) -> None:
    code, _, _ = dealt(store)
    at = open_room(table=code, seat="x" * 32)
    assert "seat is not at table" in texts(at)
    assert at.button(key="table_join_again")


def test_a_wrong_host_key_controls_nothing(db_url: str, store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=2))
    at = open_room(table=t.code, host="y" * 32)
    assert "host key" in texts(at)
    assert not at.button


def test_a_wrong_screen_key_shows_nothing(db_url: str, store: TableStore) -> None:
    code, _, _ = dealt(store)
    at = open_room(table=code, screen="z" * 32)
    assert "screen key" in texts(at)


def test_the_deciding_phone_plays_by_its_button(db_url: str, store: TableStore) -> None:
    code, _, tokens = dealt(store)
    game = store.game(code)
    assert game is not None and game.moves == 0
    at = open_room(table=code, seat=tokens[0])  # seat 1 plays first
    at.button(key="table_move_0").click().run()
    assert not at.exception
    assert store.game(code).moves >= 1  # type: ignore[union-attr]


def test_the_other_phone_is_told_whom_it_waits_for(db_url: str, store: TableStore) -> None:
    code, _, tokens = dealt(store, turn_seconds=60)
    at = open_room(table=code, seat=tokens[1])
    html = " ".join(h.proto.body for h in at.get("html"))
    assert "Ann" in html and "table-clock" in html
    assert not any(b.key and str(b.key).startswith("table_move") for b in at.button)


def test_the_screen_shows_the_table_without_a_hand(db_url: str, store: TableStore) -> None:
    code, _, _ = dealt(store)
    key = screen_token(store.table(code).join_secret)
    at = open_room(table=code, screen=key)
    html = " ".join(h.proto.body for h in at.get("html"))
    assert 'data-seat="Ann"' in html and 'data-seat="Ben"' in html
    assert not re.search(r'class="ct-seat[^"]*ct-seat--me', html)  # nobody's own seat


def test_the_host_makes_quiz_questions_from_the_finished_games(
        db_url: str, store: TableStore, tmp_path: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from tests.test_table_live import Seated, play_out
    from trainer.quiz.bank import load_bank
    from trainer.tables.live import Tables

    monkeypatch.setenv("COUP_TRAINER_BANK_DIR", str(tmp_path))
    monkeypatch.setenv("COUP_TRAINER_PEOPLE_ROLLOUTS", "4")
    code, host, tokens = dealt(store)
    play_out(Tables(store), Seated(code, host, tokens), random.Random(1))
    at = open_room(table=code, host=host)
    at.button(key="table_make_quiz").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("in the bank *people*" in s.value for s in at.success)
    assert load_bank(f"{tmp_path}/people.jsonl.gz").items


def test_a_phone_states_its_chance_before_a_challenge(db_url: str, store: TableStore) -> None:
    from trainer.engine.cards import Action
    from trainer.engine.moves import Move
    from trainer.tables.live import Tables

    code, _, tokens = dealt(store)
    Tables(store).play(code, tokens[0], Move.act(0, Action.TAX), 0)  # Ann claims the Duke
    at = open_room(table=code, seat=tokens[1])
    at.toggle(key="table_phone_say").set_value(True).run()
    at.slider(key="table_phone_chance").set_value(70).run()
    at.button(key="table_move_1").click().run()  # "Don't challenge"
    assert not at.exception, [e.value for e in at.exception]
    moves = store.moves(code, 1)
    assert moves[1].seat == 1 and moves[1].stated == 0.7


def test_the_host_deals_at_once_after_seating_a_bot(db_url: str, store: TableStore) -> None:
    """The Deal button carries the version the page drew: seating a bot and pressing Deal in
    the next moment deals, rather than being refused as a table that changed since."""
    t, host = store.create(TableSettings(seats=2, bot_pace=0.0))
    store.join(t.code, "Ann")
    at = open_room(table=t.code, host=host)
    at.button(key="table_add_1").click().run()
    at.button(key="table_deal").click().run()
    assert "changed since" not in texts(at)
    assert store.table(t.code).status == "playing"
