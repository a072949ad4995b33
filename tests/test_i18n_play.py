"""The Play and End-game pages in the pseudo-language and in Filipino: every word through the
catalogue, and no message of these pages missing from the Filipino one.

Sampled for time: the Play page's set-up, a game at a decision with the coach on, and the
same game resigned (its result and review); the End-game page's explorer (cards hidden, then
face up), the duel of two cards against one played out, and a practice puzzle with one move.
The test thread speaks the page's language too (`use_language`), so AppTest formats a
select box's value the way the page did.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.i18n_sweep import leaks
from trainer.i18n import use_language
from trainer.i18n.catalogue import catalogue
from trainer.play.setup import BOT_NAMES

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
# Data, not words: the bots' short names, and the language switch's own labels.
ALLOWED = [*BOT_NAMES, "Pseudo", "lang", "qps"]
MINE = ("pages/play.py", "pages/endgame.py", "trainer/ui/play", "trainer/ui/endgame",
        "trainer/views/play_", "trainer/views/endgame", "trainer/views/practice_view",
        "trainer/play/", "trainer/endgame/", "trainer/bots/")


@pytest.fixture(autouse=True)
def quick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COUP_TRAINER_DB_URL", f"sqlite:///{tmp_path / 'answers.db'}")
    monkeypatch.setenv("COUP_TRAINER_PLAY_WORKERS", "0")
    monkeypatch.setenv("COUP_TRAINER_PLAY_ROLLOUTS", "16")


@contextmanager
def app(lang: str, page: str) -> Iterator[AppTest]:
    with use_language(lang):
        at = AppTest.from_file(APP, default_timeout=120)
        at.session_state["play_speed"] = "Instant"
        at.query_params["lang"] = lang
        at.run()
        at.switch_page(page).run()
        ok(at)
        yield at


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def click(at: AppTest, key: str) -> None:
    next(b for b in at.button if b.key == key).click().run()
    ok(at)


def click_first(at: AppTest, prefix: str) -> None:
    next(b for b in at.button if b.key and b.key.startswith(prefix)).click().run()
    ok(at)


def text(at: AppTest) -> str:
    from tests.i18n_sweep import page_strings

    return "\n".join(page_strings(at))


def play_screens(lang: str) -> Iterator[tuple[str, AppTest]]:
    """The Play page: its set-up, a decision with the coach, a resigned game's review."""
    with app(lang, "pages/play.py") as at:
        yield "set-up", at
        at.query_params.update({"rules": "base", "seats": "you,calibrated", "deal": "0"})
        at.run()
        click(at, "play_linked")
        at.toggle(key="play_coach").set_value(True).run()
        ok(at)
        assert any(b.key and b.key.startswith("play_move_") for b in at.button)
        yield "decision", at
        click_first(at, "play_move_")
        click_first(at, "play_move_")
        click(at, "play_resign")
        assert at.header, "the review's heading"
        yield "review", at


def endgame_screens(lang: str, every: bool = True) -> Iterator[tuple[str, AppTest]]:
    """The End-game page: the explorer, the two-card duel played out, a practice puzzle."""
    with app(lang, "pages/endgame.py") as at:
        yield "explore", at
        if every:
            at.session_state["eg_mode"] = "faceup"
            at.run()
            ok(at)
            yield "face up", at
            at.session_state["eg_tab"] = "two"
            at.run()
            ok(at)
            click(at, "eg2_play_out")
            yield "two cards played out", at
        at.session_state["eg_tab"] = "practice"
        at.run()
        click(at, "eg_deal")
        click_first(at, "eg_offer_")
        yield "practice", at


def test_the_play_page_says_every_word_through_the_catalogue() -> None:
    for screen, at in play_screens("qps"):
        assert leaks(at, allowed=ALLOWED) == [], screen


def test_the_end_game_page_says_every_word_through_the_catalogue() -> None:
    for screen, at in endgame_screens("qps"):
        assert leaks(at, allowed=ALLOWED) == [], screen


def _missing_of_mine() -> list[tuple[str | None, str]]:
    """The messages of these pages looked up in Filipino with no translation."""
    from babel.messages.pofile import read_po

    from trainer.i18n.catalogue import catalogue_path

    with catalogue_path("fil").open("rb") as f:
        po = read_po(f)
    missing = catalogue("fil").missing
    out = []
    for context, english in missing:
        message = po.get(english, context)
        # one unknown to the catalogue is another page's, not yet extracted: these pages'
        # messages are all in it (`python -m trainer i18n update`)
        if message is not None and any(path.startswith(MINE) for path, _ in message.locations):
            out.append((context, english))
    return out


def test_in_filipino_the_play_and_end_game_pages_miss_no_message() -> None:
    catalogue("fil").missing.clear()
    seen = []
    for screen, at in play_screens("fil"):
        seen.append((screen, text(at)))
    for screen, at in endgame_screens("fil", every=False):
        seen.append((screen, text(at)))
    words = dict(seen)
    assert "Bagong laro" in words["decision"]
    assert "Pagsusuri" in words["review"]
    assert "Dulo ng laro" in words["explore"]
    assert "perpektong laro" in words["explore"]
    assert "Magbigay ng puzzle" in words["practice"]
    assert _missing_of_mine() == []
