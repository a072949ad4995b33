"""A database that cannot be used is said on the page in plain words, never with the server's
path to it or its URL (a password above all): every visitor reads the page, a phone in a room
among them. The whole message goes to the server's log."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.learners.history import Connection
from trainer.learners.storage import StorageError, Store

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
PG = "postgresql://user:secret@127.0.0.1:1/x"


def page_text(at: AppTest) -> str:
    parts = [str(e.value) for kind in (at.markdown, at.error, at.warning, at.info, at.success,
                                       at.caption, at.exception, at.title, at.subheader)
             for e in kind]
    parts += [h.proto.body for h in at.get("html")]
    return "\n".join(parts)


def opened(page: str, url: str, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("COUP_TRAINER_DB_URL", url)
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def a_folder_where_the_file_should_be(tmp_path: Path) -> tuple[str, str]:
    where = tmp_path / "secret-place" / "answers.db"
    where.mkdir(parents=True)  # a folder where the database file is expected
    return f"sqlite:///{where}", str(tmp_path)


CASES = [("pages/room.py", {}), ("pages/room.py", {"code": "ABC234"}),
         ("pages/calibration.py", {})]


@pytest.mark.parametrize(("page", "params"), CASES)
def test_an_unusable_database_file_is_said_without_its_path(
        page: str, params: dict[str, str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    url, path = a_folder_where_the_file_should_be(tmp_path)
    text = page_text(opened(page, url, monkeypatch, **params))
    assert "cannot be opened" in text or "Could not open" in text, text
    assert path not in text and "secret-place" not in text and "sqlite://" not in text


@pytest.mark.parametrize(("page", "params"), CASES)
def test_a_postgresql_url_and_its_password_are_never_on_the_page(
        page: str, params: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = page_text(opened(page, PG, monkeypatch, **params))
    assert "database" in text
    assert "secret" not in text and "postgresql://" not in text and "127.0.0.1:1" not in text
    assert "user:" not in text


def test_the_whole_message_goes_to_the_server_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    url, path = a_folder_where_the_file_should_be(tmp_path)
    with caplog.at_level(logging.WARNING):
        store, error = Connection(url).get()
    assert store is None and error is not None and path not in error
    assert path in caplog.text  # where it is, for whoever runs the server


@pytest.mark.parametrize("url", [PG, "postgresql+psycopg://user:secret@127.0.0.1:1/x",
                                 "postgresql://user:secret@host:notaport/x",
                                 "nosuchdb://user:secret@host/x"])
def test_the_public_words_name_no_url_and_no_password(url: str) -> None:
    with pytest.raises(StorageError) as caught:
        Store(url)
    public = caught.value.public
    assert "secret" not in public and "://" not in public and "host" not in public.split()
    assert "127.0.0.1" not in public and "user" not in public


def test_an_error_without_public_words_shows_none_of_its_message() -> None:
    e = StorageError("Could not save in the database at sqlite:////srv/coup/answers.db: "
                     "disk I/O error.")
    assert "/srv/coup" not in e.public and "database" in e.public
