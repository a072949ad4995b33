"""`make run` serves this computer only; `make run LAN=1` opens it to the network, and the Room
page says which is on and what phones need (read from Streamlit's `server.address`)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config

from tests.test_room_page import db_url
from tests.test_room_page import open_room as room_page

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["db_url"]  # the fixture, shared with the Room page's tests


def run_command(*variables: str) -> str:
    """The `streamlit run` line `make run` would execute (nothing is run: `make -n`)."""
    out = subprocess.run(["make", "-n", "-s", "run", *variables], cwd=ROOT, text=True,
                         capture_output=True, check=True, timeout=300).stdout
    joined = out.replace("\\\n", " ")
    lines = [line for line in joined.splitlines() if "streamlit run" in line]
    assert len(lines) == 1, out
    return lines[0]


def address(command: str) -> str:
    found = re.findall(r"--server\.address[ =](\S+)", command)
    assert len(found) == 1, command
    return found[0]


@pytest.mark.parametrize(("variables", "expected"), [
    ((), "127.0.0.1"), (("LAN=1",), "0.0.0.0"), (("LAN=0",), "127.0.0.1"),
    (("LAN=",), "127.0.0.1")])
def test_make_run_serves_this_computer_only_unless_lan_is_asked_for(
        variables: tuple[str, ...], expected: str) -> None:
    assert address(run_command(*variables)) == expected


@pytest.fixture(params=["127.0.0.1", "0.0.0.0"])
def served_on(request: pytest.FixtureRequest) -> Iterator[str]:
    """The address the server listens on, as `--server.address` sets it (for this test)."""
    before = config.get_option("server.address")
    config.set_option("server.address", request.param)
    try:
        yield str(request.param)
    finally:
        config.set_option("server.address", before)


def test_the_host_is_told_whether_phones_can_reach_the_app(db_url: str, served_on: str) -> None:
    at = room_page(host="")
    warnings = " ".join(str(w.value) for w in at.warning)
    captions = " ".join(c.value for c in at.caption)
    if served_on == "127.0.0.1":
        assert "Phones cannot join" in warnings and "`make run LAN=1`" in warnings
        assert "can join" not in captions
    else:
        assert not any("Phones cannot" in str(w.value) for w in at.warning)
        assert "phones on the same network as this computer" in captions
        assert "can join" in captions


def test_the_phone_join_page_says_which_mode_is_on(db_url: str, served_on: str) -> None:
    captions = " ".join(c.value for c in room_page().caption)
    if served_on == "127.0.0.1":
        assert "served to its own computer only" in captions and "make run LAN=1" in captions
    else:
        assert "Phones on the same network as the screen can join." in captions
        assert "LAN=1" not in captions


def test_behind_make_serve_the_host_is_told_to_restart_make_serve_with_lan(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m trainer serve` without --lan: HAProxy listens on this computer only, and
    `make run LAN=1` would start one process instead of the school's several."""
    monkeypatch.setenv("COUP_TRAINER_PUBLIC_ADDRESS", "127.0.0.1")
    warnings = " ".join(str(w.value) for w in room_page(host="").warning)
    assert "`make serve LAN=1`" in warnings and "make run" not in warnings
