"""The shipped catalogues against the code: every message a visitor can read is translated,
with the same fields and HTML tags as its English and the glossary's terms."""

from __future__ import annotations

from collections import Counter

import pytest

from trainer.cli.i18n import sources
from trainer.i18n import DEFAULT, LANGUAGES
from trainer.i18n.check import Source, problems


@pytest.fixture(scope="module")
def found() -> dict[tuple[str | None, str], Source]:
    return sources()


@pytest.mark.parametrize("language", [lang.code for lang in LANGUAGES if lang.code != DEFAULT])
def test_every_message_is_translated_and_fits(language: str, found) -> None:
    wrong = problems(language, found)
    assert not wrong, (f"{len(wrong)} problems ({dict(Counter(p.kind for p in wrong))}); run "
                       "python -m trainer i18n check:\n" + "\n".join(map(str, wrong[:30])))


def test_the_code_and_the_lessons_are_both_in_the_catalogue(found) -> None:
    places = {place.split("/")[0] for source in found.values() for place in source.places}
    assert {"trainer", "pages", "scenarios", "streamlit_app.py"} <= places
    assert len(found) > 2500
