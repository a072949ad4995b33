"""A lesson file's move that cannot be read, and a practice line that fails, said whole in the
reader's language.

Why: the lesson library is checked once per process, in English, and its problems are read
later by teachers of every language. Each refusal of the move grammar (one bad sentence per
branch) and of the practice line is made here in the pseudo-language, where every word must sit
inside a ⟦mark⟧ and the words a catalogued message puts in a field (an action, a card, a rule
set) must be marked in turn, and in Filipino, where the sentence is Filipino while the
writer's own words and the move syntax to write stay as they are. English wording is checked
by tests/test_move_text.py and tests/test_lesson_game.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.i18n_sweep import assert_marked
from trainer.engine.cards import Character
from trainer.engine.variants import get_variant
from trainer.i18n import use_language
from trainer.scenarios.lessons import BrokenLesson, load_library
from trainer.scenarios.move_text import MoveTextError, parse_move_text

NAMES = ["Maria", "Cris", "Ely"]

# One sentence per refusal of the grammar: (rule set, text).
BAD_MOVES = [
    ("base", ""),                                       # no sentence at all
    ("base", "Mria passes"),                            # no player's name (a near one)
    ("base", "Zed passes"),                             # no player's name
    ("base", "Maria:"),                                 # a name and nothing done
    ("mcguire", "Cris pays 6"),                         # paying is 5
    ("reformation", "Maria chooses blue"),              # no side
    ("base", "Maria claims"),                           # a claim of nothing
    ("base", "Maria claims the"),                       # a claim of an article
    ("reformation", "Maria claims no duke: tax"),       # "claims no" without embezzling
    ("base", "Ely claims Duke"),                        # a claim for nothing
    ("base", "Cris chalenges"),                         # an unknown verb (a near one)
    ("base", "Cris Dances Wildly"),                     # an unknown verb
    ("base", "Maria: steal 3 coins from Ely"),          # a wrong amount
    ("base", "Maria: coup 7 coins Ely"),                # an amount the action never takes
    ("base", "Maria claims Inquisitor: examine Cris"),  # an action of another rule set
    ("base", "Maria: Income Ely"),                      # a target for an untargeted action
    ("base", "Maria: coup Elly"),                       # a target who is no player
    ("base", "Maria: coup Ely NOW please"),             # words after the target
    ("base", "Maria: coup"),                            # no target
    ("base", "Maria claims Duke: coup Ely"),            # a claim of an action without one
    ("reformation", "Maria claims Duke: embezzle"),     # embezzling claims NOT to hold
    ("inquisitor", "Maria claims Duke: examine Cris"),  # the wrong character
    ("base", "Cris challenges Ely's Dukee"),            # an unreadable challenge
    ("base", "Maria blocks with Duke and Captain"),     # a block with two cards
    ("base", "Maria loses Duke and Captain"),           # a loss of two cards
    ("base", "Maria keeps"),                            # keeping nothing
    ("base", "Maria does not dance"),                   # a pass of nothing
    ("base", "Maria loses DUKEE"),                      # an unknown card (a near one)
    ("base", "Maria loses Jester"),                     # an unknown card
]

# Data a message shows as it is: the players and the cards an unknown card could be.
DATA_WORDS = {word for text in [*NAMES, *(c.value for c in Character)]
              for word in text.split()}


# No message met here is looked up without a Filipino translation.
pytestmark = pytest.mark.usefixtures("fil_complete")


def refusal(variant: str, text: str) -> str:
    with pytest.raises(MoveTextError) as caught:
        parse_move_text(text, NAMES, get_variant(variant))
    return str(caught.value)


def english_left(said: str, text: str) -> list[str]:
    """Words the pseudo-language left unaccented, other than data (the writer's sentence
    `text`, a player, a card, a quoted sentence to write): English put into a message without
    the catalogue (an action's identifier in prose, say)."""
    said = re.sub(r"<[^<>]*>", " ", said)  # the syntax's placeholders: <player>, <card>
    said = re.sub(r"(?<!\w)'[^']*?'(?!\w)", " ", said)  # quoted: the sentences to write
    data = DATA_WORDS
    return [w for w in re.findall(r"[A-Za-z]{2,}", said) if w not in data]


@pytest.mark.parametrize("variant, text", BAD_MOVES)
def test_every_refusal_of_the_grammar_is_said_whole_in_the_pseudo_language(
        variant: str, text: str) -> None:
    with use_language("qps"):
        said = refusal(variant, text)
    assert_marked(said)
    assert english_left(said, text) == [], said


def test_the_list_covers_every_refusal_of_the_grammar() -> None:
    """Each `MoveTextError(` of the grammar has its sentence above (one per message, by the
    English key each bad sentence meets)."""
    source = (Path(__file__).resolve().parents[1] / "trainer" / "scenarios"
              / "move_text.py").read_text()
    keys = re.findall(r'N_\("((?:[^"\\]|\\.)*)"(?:\s*"((?:[^"\\]|\\.)*)")?', source)
    messages = {a + b for a, b in keys}
    met = set()
    for variant, text in BAD_MOVES:
        with pytest.raises(MoveTextError) as caught:
            parse_move_text(text, NAMES, get_variant(variant))
        said = caught.value.said
        met.add(said.message)
    # an unknown card is said by trainer.scenarios.hints; every key of this module is met
    assert messages <= met, sorted(messages - met)


def test_a_refusal_is_said_in_filipino_with_the_writers_words_as_written() -> None:
    with use_language("fil"):
        whom = refusal("base", "Maria: coup Elly")
        amount = refusal("base", "Maria: steal 3 coins from Ely")
        claim = refusal("base", "Maria claims Duke: income")
        words = refusal("base", "Maria: Income Ely")
    assert whom == ("sino ang target ng coup? hindi manlalaro ang 'Elly' (Maria, Cris, Ely); "
                    "'Ely' ba ang ibig mong sabihin?")
    assert amount == "hindi puwedeng may 3 ginto ang pagnanakaw; 2 o 1 lang ang puwede"
    # the action named in Filipino; the sentence to write stays the grammar's English
    assert claim == ("walang kailangang karakter ang Kita, kaya walang inihahayag; isulat ang "
                     "'Maria: income'")
    assert words == "may sobrang salitang 'Ely' pagkatapos ng 'Income' (walang target ang Kita)"


def test_the_writers_capitals_are_quoted_in_every_language() -> None:
    for language in ("en", "fil"):
        with use_language(language):
            said = refusal("base", "Cris challenges Ely's BLUE Hat")
        assert "'BLUE Hat'" in said, said


# ------------------------------------------------------------------ the lesson library
ROOT = Path(__file__).resolve().parents[1] / "scenarios"
STEPS = ROOT / "challenged-steal-block.yaml"
GAME = ROOT / "learn-first-game.yaml"


def broken_lesson(tmp_path: Path, lesson: Path, old: str, new: str) -> BrokenLesson:
    text = lesson.read_text()
    assert text.count(old) == 1, old
    (tmp_path / lesson.name).write_text(text.replace(old, new))
    library = load_library(tmp_path)  # checked once, in English, for every reader
    [broken] = library.broken
    assert broken.words() == broken.message
    return broken


def test_a_lesson_move_that_cannot_be_read_is_said_in_the_readers_language(
        tmp_path: Path) -> None:
    broken = broken_lesson(tmp_path, STEPS, "move: Eva blocks with Captain",
                           "move: Eva blocks with Captian")
    with use_language("qps"):
        assert_marked(broken.words().replace(str(tmp_path), ""))
    with use_language("fil"):
        said = broken.words()
    line = STEPS.read_text().splitlines().index("  - move: Eva blocks with Captain") + 1
    assert said == (f"{tmp_path / STEPS.name}:{line}: hakbang 3 (\"Eva blocks with Captian\"): "
                    "hindi mabasa ang galaw: hindi kilalang baraha: 'Captian'; inaasahan ang "
                    "isa sa " + ", ".join(c.value for c in Character)
                    + "; 'Captain' ba ang ibig mong sabihin?")


PRACTICE_LINE = ('    - "Ana claims Duke: tax"\n    - Ana does not challenge\n'
                 '    - "Ana claims Assassin')


@pytest.mark.parametrize("new, english, fil", [
    ('    - "Ana: coup Ben"\n    - Ana does not challenge\n    - "Ana claims Assassin',
     "practice: 'Ana: coup Ben' cannot be played here: coup costs 7 coins and Ana has 1",
     "practice: hindi puwedeng laruin dito ang 'Ana: coup Ben': nagkakahalaga ng 7 ginto ang "
     "coup at 1 ang ginto ni Ana"),
    ('    - "Ben: income"\n    - Ana does not challenge\n    - "Ana claims Assassin',
     "practice: 'Ben: income' must be a single move by the learner, Ana",
     "practice: dapat iisang galaw ng nag-aaral, si Ana, ang 'Ben: income'"),
])
def test_a_practice_line_refusal_is_said_in_the_readers_language(
        tmp_path: Path, new: str, english: str, fil: str) -> None:
    broken = broken_lesson(tmp_path, GAME, PRACTICE_LINE, new)
    where = f"{tmp_path / GAME.name}:28: "
    assert broken.message == where + english
    with use_language("qps"):
        assert_marked(broken.words().replace(str(tmp_path), ""))
    with use_language("fil"):
        assert broken.words() == where + fil
