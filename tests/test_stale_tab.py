"""A phone's tab left open across a server restart: its poll reaches a new session that never
drew the page, carrying the state of the slider it shows. No traceback may follow, on this
poll or any later one."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest, local_script_runner

from tests.helpers import shipped_bank
from trainer.learners.storage import Store
from trainer.rooms.questions import choose
from trainer.rooms.settings import RoomSettings, Source
from trainer.rooms.store import RoomStore

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
OPTION = "runner.enforceSerializableSessionState"


@pytest.fixture
def served_config() -> Iterator[None]:
    """The option as the served app has it (.streamlit/config.toml), not the tests' own."""
    shipped = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    before = config.get_option(OPTION)
    config.set_option(OPTION, shipped["runner"]["enforceSerializableSessionState"])
    yield
    config.set_option(OPTION, before)


@pytest.fixture
def rooms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RoomStore:
    url = f"sqlite:///{tmp_path / 'answers.db'}"
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    return RoomStore(Store(url).engine)


def phone_on_a_claim(rooms: RoomStore) -> tuple[AppTest, str]:
    """A phone that joined, on a claim question, its slider moved: what a restart finds."""
    bank = shipped_bank()
    items = [i for i in choose(bank, Source(count=3, seed=7)) if i.has_claim][:1]
    room, host = rooms.create(Source(count=3, seed=7), RoomSettings(), [i.id for i in items],
                              bank.version)
    seat = rooms.join(room.code, "Ann")
    rooms.start(room.code, host)
    phone = AppTest.from_file(APP, default_timeout=60)
    phone.query_params["code"] = room.code
    phone.query_params["seat"] = seat.token
    phone.run()
    phone.switch_page("pages/room.py").run()
    slider = f"room_p_{room.code}_0"
    phone.slider(key=slider).set_value(70).run()
    assert not phone.exception, [e.value for e in phone.exception]
    return phone, slider


def test_a_poll_from_a_tab_left_open_across_a_restart_raises_nothing(
        rooms: RoomStore, served_config: None, monkeypatch: pytest.MonkeyPatch) -> None:
    phone, slider = phone_on_a_claim(rooms)
    states = phone._tree.get_widget_states()
    assert any(w.id.endswith(slider) for w in states.widgets)  # the browser sends it back
    polls = list(phone._fragment_storage._fragments)  # the page's polled fragment
    assert polls
    # The restarted server: a new session (no widget drawn, no fragment registered) gets the
    # tab's automatic poll with the widget states the browser still holds.
    restarted = AppTest.from_file(APP, default_timeout=60)
    restarted.query_params.update(phone.query_params)
    monkeypatch.setattr(local_script_runner, "RerunData", functools.partial(
        local_script_runner.RerunData, fragment_id_queue=polls, is_auto_rerun=True))
    for _ in range(3):  # every poll, not only the first
        restarted._run(states)
        assert not restarted.exception, [e.value for e in restarted.exception]
