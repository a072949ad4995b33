"""A lesson that replays wrongly is reported in the reader's language.

The library is replayed once per process, in English, and its errors read later by people of
every language: each problem the replayer finds (a move the engine refuses, a checkpoint that
does not hold, a scripted draw that cannot happen, a set-up the engine refuses, a misquoted
rule) keeps its message and fields and is worded when shown. Each case is a shipped lesson with
one line replaced, read back in the pseudo-language: every word must come through the
catalogue, except the file's own data (player names, the move text it quotes).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.i18n_sweep import assert_marked
from trainer.i18n import use_language
from trainer.i18n.catalogue import CLOSE, OPEN
from trainer.rulebook.sources import missing_quote
from trainer.scenarios.errors import ScenarioError
from trainer.scenarios.lessons import BrokenLesson, load_library
from trainer.scenarios.loader import load_scenario
from trainer.scenarios.replay import check_quotes

ROOT = Path(__file__).resolve().parents[1]
LESSON = ROOT / "scenarios" / "challenged-steal-block.yaml"
NAMES = {"Dan", "Eva", "Finn"}
INCOME = '  - move: "Eva: income"\n'
AFTER_INCOME = "      coins: {Eva: 3}\n"

# (old line(s), new line(s), a piece of the English problem: the branch it reaches)
BAD_LESSONS = [
    # checkpoints
    (AFTER_INCOME, "      coins: {Eva: 4}\n", "Eva coins expected 4, found 3"),
    (AFTER_INCOME, AFTER_INCOME + "      influence: {Eva: 1}\n",
     "Eva influence expected 1, found 2"),
    ("      hidden: {Eva: [Duke, Contessa]}", "      hidden: {Eva: [Duke, Duke]}",
     "Eva face-down cards expected Duke, Duke, found Duke, Contessa"),
    ("      revealed: {Dan: [Ambassador]}", "      revealed: {Dan: []}",
     "Dan face-up cards expected none, found Ambassador"),
    (AFTER_INCOME, AFTER_INCOME + "      face_up: [Duke]\n",
     "face-up cards on the table expected Duke, found Ambassador"),
    (AFTER_INCOME, AFTER_INCOME + "      alive: [Eva]\n",
     "players in the game expected Eva, found Dan, Eva, Finn"),
    ("      treasury: 43", "      treasury: 40", "treasury expected 40, found 43"),
    (AFTER_INCOME, AFTER_INCOME + "      deck_size: 2\n", "deck size expected 2, found 9"),
    (AFTER_INCOME, AFTER_INCOME + "      deck: [Duke, Duke, Duke]\n",
     "(missing 1 Duke; not expected 3 Assassins, 1 Captain, 1 Ambassador, 2 Contessas)"),
    ("      next: {player: Dan, phase: challenge_block}",
     "      next: {player: Finn, phase: challenge_block}",
     "next decision expected Finn's, found Dan's (challenge the block or pass)"),
    ("      next: {player: Dan, phase: challenge_block}",
     "      next: {player: Dan, phase: block}",
     "Dan's next decision expected phase block (block or pass), found challenge_block "
     "(challenge the block or pass)"),
    (AFTER_INCOME, AFTER_INCOME + "      legal_actions: [income]\n",
     "legal actions for Finn expected Income, found Income, Foreign Aid, Tax, Steal, Exchange"),
    ("      next: {player: Eva, phase: block}",
     "      next: {player: Eva, phase: block}\n      legal_actions: [income]",
     "now Eva must block or pass"),
    (AFTER_INCOME, AFTER_INCOME + "      winner: Eva\n",
     "winner expected Eva, but the game is not over (Finn must choose an action)"),
    (AFTER_INCOME, AFTER_INCOME + "      tie: true\n", "a tie expected"),
    ("  learner: Finn\n", "  learner: Finn\n  checkpoint:\n    coins: {Dan: 3}\n",
     "setup: checkpoint failed: Dan coins expected 3, found 2"),
    # moves
    (INCOME, '  - move: "Finn: income"\n',
     "illegal move: it is Eva's decision now (choose an action), not Finn's"),
    (INCOME, '  - illegal: "Eva: income"\n',
     "illegal: 'Eva: income' is a legal move here (Eva may choose an action)"),
    (INCOME, '  - illegal: "Finn: income"\n    because: no coins\n' + INCOME,
     "the engine refuses 'Finn: income', but for another reason: \"it is Eva's decision now"),
    (INCOME, "  - move: No one blocks\n",
     "nobody is being asked to block at this point: it is Eva's decision now (choose an "
     "action)"),
    (INCOME, "  - move: Eva does not block\n",
     "Eva is not being asked to block now; Eva must choose an action"),
    ("  - move: Dan challenges\n", "  - move: Dan challenges Finn\n",
     "the claim open to challenge is Eva's (Captain), not Finn's"),
    ("  - move: Dan loses Ambassador\n", "  - move: Dan loses\n",
     "say which card: Dan could lose Captain or Ambassador"),
    # scripted draws
    ("    replacement: Contessa\n", "    draw: [Contessa, Duke]\n",
     "bad scripted draw (draw: Duke, Contessa): the scripted draw Contessa, Duke has 2 card(s); "
     "this draw takes 1; `replacement:` scripts"),
    ("    replacement: Contessa\n", "    draw: [Contessa]\n",
     "bad scripted draw (draw: Contessa): it was used by a replacement draw"),
    (INCOME, INCOME + "    replacement: Duke\n",
     "the scripted draw (replacement: Duke) is never used: the turn ends before any card is "
     "drawn"),
    # the set-up the engine refuses
    ("      hidden: [Captain, Duke]", "      hidden: [Captain, Duke, Duke]",
     "setup > player 2 (Eva): Eva has 3 face-down cards and no face-up card; every player has "
     "2 cards"),
    ("  deck: [Contessa, Duke,", "  deck: [Duke,",
     "setup: there must be 3 Contessa cards in play (hands, revealed and deck) for 3 players; "
     "found 2; with these hands the court deck must hold exactly 2 Dukes, 3 Assassins, "
     "1 Ambassador, 3 Contessas (9 cards)"),
    ("      hidden: [Captain, Ambassador]", "      hidden: [Captain, Captain]",
     "the players' cards alone already hold too many: 1 extra Captain"),
    ("  first: Dan\n", "  first: Dan\n  treasury: 3\n",
     "setup: players hold 6 coins and the treasury 3; together they must make the 50 coins in "
     "the box"),
    ("    - name: Finn\n      coins: 2\n      hidden: [Captain, Ambassador]",
     "    - name: Finn\n      coins: 2\n      hidden: []\n      revealed: [Captain, Ambassador]",
     "Finn is out of the game (every card face up) but has 2 coins"),
]


def broken_by(tmp_path: Path, old: str, new: str) -> BrokenLesson:
    text = LESSON.read_text(encoding="utf-8")
    assert old in text, old
    (tmp_path / LESSON.name).write_text(text.replace(old, new, 1), encoding="utf-8")
    [broken] = load_library(tmp_path).broken  # checked once, in English, for every reader
    return broken


def english_left(text: str, data: set[str]) -> list[str]:
    """The words of a pseudo-language text that were not accented by the catalogue (file
    syntax in `backticks` aside), other than the file's own words in `data`."""
    text = re.sub(r"`[^`]*`", " ", text.replace(OPEN, " ").replace(CLOSE, " "))
    return [w for w in re.findall(r"\b[A-Za-z]{2,}\b", text) if w not in data]


def assert_worded(problem: str, new: str) -> None:
    """Every word of `problem` (said in the pseudo-language) came through the catalogue, but
    the player names, the file's key `setup` and the words the teacher wrote (quoted back)."""
    data = NAMES | {"setup"} | set(re.findall(r"[A-Za-z]+", new))
    assert english_left(problem, data) == [], problem


@pytest.mark.parametrize("old, new, english", BAD_LESSONS,
                         ids=[f"{i}-{e[:30]}" for i, (_, _, e) in enumerate(BAD_LESSONS)])
def test_a_lesson_that_replays_wrongly_is_worded_in_the_readers_language(
        tmp_path: Path, old: str, new: str, english: str) -> None:
    broken = broken_by(tmp_path, old, new)
    assert english in broken.message
    assert broken.words() == broken.message  # English again, worded at display
    assert broken.error is not None
    with use_language("qps"):
        assert_marked(broken.words().replace(str(tmp_path), ""))
        assert_worded(broken.error.said.words(), new)


def filipino(tmp_path: Path, old: str, new: str) -> str:
    broken = broken_by(tmp_path, old, new)
    with use_language("fil"):
        return broken.words().replace(str(tmp_path / LESSON.name), "")


def test_a_wrong_checkpoint_is_said_in_filipino(tmp_path: Path) -> None:
    assert filipino(tmp_path, AFTER_INCOME, AFTER_INCOME + "      deck_size: 2\n") == (
        ':80: hakbang 7 ("Eva: income"): bigo ang checkpoint: dami ng baraha sa deck: '
        "inaasahan ang 2, nakita ang 9")


def test_an_illegal_move_gives_the_engines_reason_in_filipino(tmp_path: Path) -> None:
    assert filipino(tmp_path, INCOME, '  - move: "Finn: income"\n') == (
        ':77: hakbang 7 ("Finn: income"): ilegal na galaw: si Eva ang magpapasya ngayon '
        "(pumili ng aksyon), hindi si Finn")


def test_a_set_up_the_engine_refuses_is_said_in_filipino(tmp_path: Path) -> None:
    assert filipino(tmp_path, "  deck: [Contessa, Duke,", "  deck: [Duke,") == (
        ":20: setup: dapat may 3 Contessa sa laro (mga kamay, nakaharap na baraha at deck) para "
        "sa 3 na manlalaro; nakita ang 2; sa mga kamay na ito, dapat eksaktong 2 Duke, "
        "3 Assassin, 1 Ambassador, 3 Contessa ang laman ng deck ng Korte (9 baraha)")


def test_a_misquoted_rule_is_said_in_the_readers_language(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "001_efafd3cbf19ea30b.txt").write_text("Take 2 coins from another player.\n")
    text = LESSON.read_text(encoding="utf-8").replace("Take 2 coins from another player.",
                                                      "Take 3 coins from another player.")
    (tmp_path / LESSON.name).write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        check_quotes(load_scenario(tmp_path / LESSON.name), rules)
    error = caught.value
    assert str(error).endswith(
        "rule: the quote 'Take 3 coins from another player.' is not in "
        "001_efafd3cbf19ea30b.txt; copy it word for word (use ... for left-out words)")
    with use_language("qps"):
        assert_marked(error.words().replace(str(tmp_path), ""))
        assert_worded(error.said.words(), "rule Take coins from another player txt")
    with use_language("fil"):
        assert error.said.words() == (
            "rule: wala sa 001_efafd3cbf19ea30b.txt ang siping 'Take 3 coins from another "
            "player.'; kopyahin ito nang salita por salita (gamitin ang ... para sa mga "
            "salitang inalis)")
    missing = missing_quote("x", "nowhere.txt", rules)
    assert missing is not None
    with use_language("qps"):
        assert_worded(missing.words(), "nowhere txt " + str(rules))
