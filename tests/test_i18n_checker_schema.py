"""A lesson file whose shape is wrong is refused in the reader's language: every validator of
the scenario schema and every kind of pydantic error a teacher meets, said through the
catalogue (the library is checked once, in English, and worded again for each reader).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n_sweep import assert_marked, uncatalogued
from trainer.i18n import tr, use_language
from trainer.quiz.bank import BANK_DIR, Item, ItemLost, load_bank
from trainer.scenarios.lessons import BrokenLesson, load_library

# No message met here is looked up without a Filipino translation.
pytestmark = pytest.mark.usefixtures("fil_complete")

LESSON = Path(__file__).resolve().parents[1] / "scenarios" / "challenged-steal-block.yaml"
STEP = '  - move: "Dan claims Captain: steal Eva"\n'
# The smallest lesson: the whole-file checks are met by changing one line of it.
SMALL = """id: challenged-steal-block
title: One income
summary: Dan takes income.
setup:
  players:
    - {name: Dan, coins: 2, hidden: [Captain, Duke]}
    - {name: Eva, coins: 2, hidden: [Contessa, Duke]}
  deck: [Duke, Assassin, Assassin, Assassin, Captain, Captain, Ambassador, Ambassador,
         Ambassador, Contessa, Contessa]
  first: Dan
  learner: Eva
steps:
  - move: "Dan: income"
"""
# The file's own keys, named in a problem's place as the teacher wrote them.
KEYS = ("setup", "hidden", "checkpoint", "next", "phase", "mode", "rule", "source", "teaches",
        "illegal", "coins", "variant")
RULE = 'rule: {quote: Take 1 coin from the Treasury., source: 001_efafd3cbf19ea30b.txt}\n'

# (what the file said, what the teacher wrote instead, words of the English problem)
BROKEN = [
    ("      hidden: [Captain, Duke]", "      hidden: [Captian, Duke]",
     "unknown card 'Captian'; expected one of Duke, "),
    ("      hidden: [Captain, Duke]", "      hidden: [Captain, 7]",
     "expected a card name, one of Duke, "),
    ("      next: {player: Eva, phase: block}", "      next: {player: Eva, phase: blok}",
     "unknown phase 'blok'; expected one of "),
    ("id: challenged-steal-block\n", "id: challenged-steal-block\nmode: lesson\n",
     "Input should be "),
    ("  learner: Finn", "  learner: Finn\n  variant: bas",
     "setup > variant: "),
    ("      source: 001_efafd3cbf19ea30b.txt\n      section: Captain - Steal",
     "      source: 001_efafd3cbf19ea30.txt\n      section: Captain - Steal",
     "unknown rule text '001_efafd3cbf19ea30.txt'; did you mean '001_efafd3cbf19ea30b.txt'?"),
    ("tags: [steal, block, challenge]", "tags: [steal, block, challenge]\nteaches: [blok]",
     "unknown fact 'blok'; did you mean 'block'?"),
    (STEP, STEP.replace("- move:", "- illegal: []\n    because:"),
     "`illegal:` is a move, e.g. 'Ben challenges', or a list of moves; found []"),
    (STEP, '  - because: nothing\n', "a step needs `move:` (the move played) or"),
    (STEP, STEP + '    illegal: Dan passes\n', "a step has `move:` (a move played) or"),
    (STEP, STEP + '    because: it is not allowed\n', "`because:` belongs to an `illegal:` step"),
    (STEP, '  - illegal: Dan passes\n    replacement: Duke\n',
     "an `illegal:` step plays no move, so it has no `replacement:`"),
    ("order: 80", "order: 80\nmode: game", "a 'game' lesson needs a `practice:` section"),
    ("order: 80", "order: 80\nmode: rule", "a rule case (`mode: rule`) quotes the rule"),
    ("order: 80", "order: 80\npractice: {goal: Win., line: [Dan passes]}",
     "`practice:` belongs to a lesson with `mode: game`, not 'watch'"),
    (SMALL, SMALL + "mode: play\n", "a 'play' lesson needs at least one step with a"),
    (SMALL, SMALL + "mode: rule\n" + RULE, "a rule case (`mode: rule`) needs something to"),
    (SMALL, SMALL.replace('steps:\n  - move: "Dan: income"\n', "steps: []\n"),
     "`steps:` needs at least one step"),
    ("      coins: 2\n      hidden: [Captain, Duke]",
     "      coins: two\n      hidden: [Captain, Duke]",
     "Input should be a valid integer, unable to parse string as an integer (found 'two')"),
]


def _broken(tmp_path: Path, old: str, new: str) -> BrokenLesson:
    text = old if old == SMALL else LESSON.read_text()
    assert old in text
    (tmp_path / LESSON.name).write_text(text.replace(old, new, 1))
    [broken] = load_library(tmp_path).broken
    return broken


@pytest.mark.parametrize(("old", "new", "english"), BROKEN,
                         ids=[english[:40] for _, _, english in BROKEN])
def test_a_lesson_file_of_the_wrong_shape_is_refused_in_the_readers_words(
        tmp_path: Path, old: str, new: str, english: str) -> None:
    broken = _broken(tmp_path, old, new)
    assert english in broken.message
    assert broken.error is not None
    assert uncatalogued(broken.error.said, data=KEYS) == [], broken.message
    with use_language("qps"):
        said = tr("This lesson file could not be loaded: {message}", message=broken.words())
    assert_marked(said.replace(str(tmp_path / LESSON.name), ""))


def test_an_unknown_card_is_said_in_filipino_with_the_likely_card(tmp_path: Path) -> None:
    broken = _broken(tmp_path, *BROKEN[0][:2])
    with use_language("fil"):
        said = broken.words()
    assert said.endswith(":16: setup > manlalaro 2 (Eva) > hidden > item 1: hindi kilalang "
                         "baraha: 'Captian'; inaasahan ang isa sa Duke, Assassin, Captain, "
                         "Ambassador, Contessa, Inquisitor, Graverobber, Inheritance Ambassador, "
                         "Vengeance Assassin, Treaty Contessa; 'Captain' ba ang ibig mong "
                         "sabihin?")


def test_a_whole_file_refusal_points_at_the_key_it_names_in_filipino(tmp_path: Path) -> None:
    [(old, new)] = [(o, n) for o, n, english in BROKEN if english.startswith("`steps:`")]
    broken = _broken(tmp_path, old, new)
    assert broken.error is not None
    assert broken.error.line == 12  # the `steps:` the teacher wrote, not the file's first line
    with use_language("fil"):
        said = broken.words()
    assert said.endswith(":12: kailangan ng `steps:` ng kahit isang hakbang (ang file na "
                         "naghahanda lang ng posisyon at sumusuri nito ay isang kaso ng "
                         "patakaran: `mode: rule`)")


# ------------------------------------------------------------------ a quiz item's lesson file
@pytest.fixture(scope="module")
def lesson_item() -> Item:
    bank = load_bank(BANK_DIR / "default.jsonl.gz")
    return next(i for i in bank.items if i.scenario == LESSON.stem)


def test_a_quiz_item_whose_lesson_file_broke_says_so_by_the_files_name_only(
        tmp_path: Path, lesson_item: Item) -> None:
    (tmp_path / LESSON.name).write_text(LESSON.read_text().replace(*BROKEN[0][:2]))
    with pytest.raises(ItemLost) as lost:
        lesson_item.game(tmp_path)
    with use_language("qps"):
        assert_marked(str(lost.value))
    with use_language("fil"):
        said = str(lost.value)
    assert str(tmp_path) not in said  # a room's shared screen never shows a server's folders
    assert said.startswith("ang file ng aralin nito na challenged-steal-block.yaml ay hindi na "
                           "malaro hanggang dulo: setup > manlalaro 2 (Eva) > hidden > item 1: "
                           "hindi kilalang baraha: 'Captian'")


def test_a_quiz_item_whose_lesson_file_is_gone_or_shorter_says_so(
        tmp_path: Path, lesson_item: Item) -> None:
    with pytest.raises(ItemLost, match=r": cannot read the file: there is no such file$"):
        lesson_item.game(tmp_path)
    text = LESSON.read_text()
    (tmp_path / LESSON.name).write_text(text[:text.index("  - move: Dan challenges")])
    with pytest.raises(ItemLost, match="has fewer steps than it had"):
        lesson_item.game(tmp_path)
