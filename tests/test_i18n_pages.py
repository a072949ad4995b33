"""The visitor's language in the app: from the browser, the link and the switch, kept across
pages, and never shared between two visitors of one server."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.i18n.catalogue import OPEN

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "streamlit_app.py")
SWITCH = "ct_language_switch"
LARGE = "ct_large_type"


def opened(*, locale: str | None = None, lang: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if locale is not None:
        at.context["locale"] = locale
    if lang is not None:
        at.query_params["lang"] = lang
    return at


@pytest.fixture(autouse=True)
def _root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def large_label(at: AppTest) -> str:
    return str(at.toggle(key=LARGE).label)


def test_a_filipino_browser_gets_filipino_and_the_address_says_so() -> None:
    at = opened(locale="fil-PH")
    at.run()
    assert not at.exception
    assert large_label(at) == "Malaking titik"
    assert at.selectbox(key=SWITCH).value == "fil"
    assert at.query_params["lang"] == "fil"


def test_a_tagalog_browser_gets_filipino() -> None:
    at = opened(locale="tl")
    at.run()
    assert large_label(at) == "Malaking titik"


def test_an_english_or_unknown_browser_gets_english_and_a_clean_address() -> None:
    for locale in ("en-US", "de-DE", None):
        at = opened(locale=locale)
        at.run()
        assert large_label(at) == "Large type"
        assert "lang" not in at.query_params


def test_the_link_wins_over_the_browser() -> None:
    at = opened(locale="en-US", lang="fil")
    at.run()
    assert large_label(at) == "Malaking titik"
    at = opened(locale="fil-PH", lang="en")
    at.run()
    assert large_label(at) == "Large type"


def test_the_switch_changes_the_language_and_the_address() -> None:
    at = opened(locale="en-US")
    at.run()
    at.selectbox(key=SWITCH).set_value("fil").run()
    assert large_label(at) == "Malaking titik"
    assert at.query_params["lang"] == "fil"
    at.selectbox(key=SWITCH).set_value("en").run()
    assert large_label(at) == "Large type"
    assert "lang" not in at.query_params


def test_the_language_stays_on_a_page_switch() -> None:
    """Streamlit's navigation drops the address's parameters: the tab keeps the choice."""
    at = opened(lang="fil")
    at.run()
    at.query_params.pop("lang", None)
    at.switch_page("pages/rules.py").run()
    assert large_label(at) == "Malaking titik"
    assert at.query_params["lang"] == "fil"


def test_the_pseudo_language_marks_the_header() -> None:
    at = opened(lang="qps")
    at.run()
    assert large_label(at).startswith(OPEN)
    assert str(at.toggle(key=LARGE).help).startswith(OPEN)
    assert at.selectbox(key=SWITCH).value == "qps"


def test_two_visitors_in_two_languages_each_see_their_own() -> None:
    """Two sessions of one server, their runs interleaved: what one visitor chose never
    reaches the other (the threads of a real server: tests/test_i18n.py and the browser
    test with two contexts)."""
    english, filipino = opened(locale="en-US"), opened(locale="fil-PH")
    for _ in range(3):
        english.run()
        filipino.run()
        assert (large_label(english), large_label(filipino)) == ("Large type",
                                                                 "Malaking titik")
    filipino.selectbox(key=SWITCH).set_value("en").run()
    english.run()
    assert (large_label(english), large_label(filipino)) == ("Large type", "Large type")
