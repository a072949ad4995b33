"""The Learn page in the visitor's language: every word of the page and of the lessons through
the catalogue (the pseudo-language shows any that is not), and in Filipino no message of the
Learn page or of a lesson file left untranslated.

One screen of each kind, not every screen of every lesson: the library and the five-minute
path, an intro, a question, a wrong answer (one the rules refuse), the end of a lesson and its
stars, a step to watch with its rule quote and a question in it, the "check yourself" quiz, the
free game and its end.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import shipped_library
from tests.i18n_sweep import own_messages, page_strings, unmarked
from trainer.i18n import LANGUAGES
from trainer.i18n.catalogue import catalogue
from trainer.scenarios.lesson_session import shuffled
from trainer.scenarios.words import lesson_words

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "streamlit_app.py")
LIBRARY = shipped_library()

# Data, not words: the players' names, and what every page's header shows (the language
# switch's pseudo-language and its address; a button's key shortcut).
ALLOWED = {"ana", "ben", "cat", "maria", "cris", "ely", "pseudo", "lang", "qps", "right",
           "left", "space"}
# Streamlit's colour directive (`:gray[...]`) is markup, not a word.
MARKUP = {"gray"}
# Drawn by other parts of the trainer and swept by their own tests: the table, the character
# overview and the game's history. (The Learn page's own words around them are checked here.)
OTHERS = ('class="ct-table', 'class="ct-overview', "ct-history")

# The files of the Learn page: their messages and the lesson files' are the ones checked.
OWN_FILES = ("pages/learn.py", "trainer/ui/learn.py", "trainer/views/lesson_text.py",
             "trainer/scenarios/lesson_session.py", "trainer/scenarios/lessons.py")


@pytest.fixture(autouse=True)
def _root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def opened(lang: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def leaks(at: AppTest) -> list[str]:
    """The Learn page's strings with a word outside the pseudo-language's marks."""
    fine = ALLOWED | MARKUP | {language.name.lower() for language in LANGUAGES}
    found = []
    for text in page_strings(at):
        if any(mark in text for mark in OTHERS):
            continue
        words = [w for w in unmarked(text) if w.lower() not in fine]
        if words:
            found.append(f"{' '.join(words)}  <-  {text[:160]!r}")
    return sorted(set(found))


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def option(lesson_id: str, n: int, correct: bool, legal: bool | None = None) -> str:
    """The button key of an answer to the `n`th question (1-based) of a lesson, as the page
    shuffles them."""
    lesson = LIBRARY.get(lesson_id)
    assert lesson is not None
    prompt = lesson.run.prompts()[n - 1]
    shown = shuffled(prompt.options, lesson.id, prompt.step)
    i = next(i for i, o in enumerate(shown)
             if o.correct == correct and (legal is None or o.legal == legal))
    return f"option_{i}"


def walk(lang: str) -> Iterator[tuple[str, AppTest]]:
    """The sample of screens, each with its name."""
    at = opened(lang)
    yield "the library and the path", at
    click(at, "open_learn-characters")
    yield "an intro", at
    click(at, "next")
    yield "a question", at

    at = opened(lang, lesson="learn-ten-coins")
    click(at, option("learn-ten-coins", 1, correct=False, legal=False))
    assert len(at.error) == 1
    yield "a wrong answer the rules refuse", at
    click(at, option("learn-ten-coins", 1, correct=True))
    assert len(at.success) == 1 and "★☆☆" in "".join(m.value for m in at.markdown)
    yield "the end of a lesson", at
    click(at, "to_library")
    yield "the library with a finished lesson", at

    at = opened(lang, lesson="learn-coins")
    click(at, option("learn-coins", 1, correct=False))
    assert len(at.error) == 1
    yield "a wrong answer", at

    at = opened(lang, lesson="rulebook-example-play")
    yield "a lesson to watch: the set-up", at
    click(at, "next")
    assert [e for e in at.expander if e.proto.icon == ":material/menu_book:"]
    yield "a step to watch with its rule", at
    at = opened(lang, lesson="rulebook-example-play", step="19")
    assert [b for b in at.button if b.key and b.key.startswith("option_")]
    yield "a question while watching", at

    at = opened(lang, lesson="learn-check")
    yield "check yourself", at

    at = opened(lang, lesson="learn-first-game")
    yield "the game", at
    played: list[str] = []
    for label in ("Tax: claim Duke, take 3", "Challenge Ben"):  # Ben never bluffs
        click(at, game_option(played, label))
        played.append(label)
    assert len(at.info) == 1
    yield "a mistake in the game", at
    for label in ("Give up Duke", "Tax: claim Duke, take 3", "Challenge Ben"):
        click(at, game_option(played, label))
        played.append(label)
    assert len(at.warning) == 1
    yield "a lost game", at


def game_option(played: list[str], label: str) -> str:
    """The button key of the first game's move `label` (English) after the moves `played`."""
    from trainer.engine.moves import Move
    from trainer.i18n import use_language
    from trainer.scenarios.lesson_game import practice
    from trainer.views.move_labels import your_move

    lesson = LIBRARY.get("learn-first-game")
    assert lesson is not None
    with use_language("en"):
        moves: list[Move] = []
        for done in played:
            state = practice(lesson.scenario, moves)
            moves.append(next(m for m in state.legal if your_move(state.game, m) == done))
        state = practice(lesson.scenario, moves)
        words = [your_move(state.game, m) for m in state.legal]
    return f"option_{words.index(label)}"


def test_every_word_of_the_learn_page_comes_through_the_catalogue() -> None:
    found = {name: leaks(at) for name, at in walk("qps")}
    assert {name: words for name, words in found.items() if words} == {}


def _own_messages() -> set[tuple[str | None, str]]:
    keys = own_messages(ROOT, OWN_FILES)
    keys.update((None, text) for text, _place in lesson_words(ROOT / "scenarios"))
    return keys


def test_in_filipino_nothing_of_the_learn_page_is_missing() -> None:
    fil = catalogue("fil")
    fil.missing.clear()
    seen = []
    for _name, at in walk("fil"):
        seen.append("\n".join(page_strings(at)))
    missing = fil.missing & _own_messages()
    assert not missing, sorted(m for _c, m in missing)[:20]
    page = "\n".join(seen)
    for word in ("Matuto", "aralin", "Susunod"):
        assert word in page, word
