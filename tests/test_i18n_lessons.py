"""Every screen of every lesson in the pseudo-language: no word on it outside the catalogue's
marks, the table, the cards and the moves so far included (230 screens of 31 lessons, opened
by their address as a shared link would; about 15 s). The clicks between screens, a wrong
answer's feedback and the free game are walked in tests/test_i18n_learn.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import shipped_library
from tests.i18n_sweep import leaks
from trainer.scenarios.screens import screens

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "streamlit_app.py")


def lesson_screens() -> list[tuple[str, int]]:
    return [(lesson.id, n) for lesson in shipped_library().lessons
            for n in ([s.number for s in screens(lesson.run)] or [0])]


@pytest.fixture(scope="module")
def names() -> set[str]:
    """Players' names are data: every name of every lesson."""
    return {p.name for lesson in shipped_library().lessons
            for p in lesson.scenario.setup.players}


@pytest.mark.parametrize(("lesson", "step"), lesson_screens())
def test_every_word_of_a_lesson_screen_comes_through_the_catalogue(
        lesson: str, step: int, names: set[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"lang": "qps", "lesson": lesson, "step": str(step)})
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert leaks(at, allowed=names | {"lang", "qps", "pseudo", "right", "left", "space"}) == []
