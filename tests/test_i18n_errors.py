"""The errors a visitor can meet, worded whole in the visitor's language.

Why: an error's frame ("The game log could not be read: …") was translated, but its details
(the line, the field, what was expected) were English inside it. Each family of errors is
raised here from one bad input in the pseudo-language, where every word must sit inside a
⟦mark⟧ (so no part of the message was glued from English), and in Filipino, where the
message must be Filipino and still name the line, the field or the value at fault. The
English wording is checked by each module's own tests.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.i18n_sweep import assert_marked
from trainer.endgame import hidden, practice
from trainer.endgame.practice import PracticeError
from trainer.engine.cards import Character as C
from trainer.engine.errors import RuleSetError
from trainer.engine.variants import parse_rules
from trainer.i18n import tr, use_language
from trainer.learners.answers import Answer, describe_error
from trainer.learners.history_csv import export_csv, import_csv
from trainer.learners.storage import MemoryStore
from trainer.play.log import LogError, export_text, import_text
from trainer.play.match import Match
from trainer.play.setup import Setup, SetupError
from trainer.rulebook.choices import follow_link
from trainer.scenarios.lessons import load_library
from trainer.verdicts.answers import field_problem

# No message met here is looked up without a Filipino translation.
pytestmark = pytest.mark.usefixtures("fil_complete")


def raised(make: Callable[[], object], kind: type[Exception]) -> str:
    with pytest.raises(kind) as caught:
        make()
    return str(caught.value)


# ------------------------------------------------------------------ rule sets (a link's ?rules=)
BAD_RULES = ["bas", "base+pay5", "base+bounty-bounty", "base(nope=1)", "base(challengers=some)",
             "base(challengers=all", "inquisitor+ambassador_reduces", "draft+mat"]


@pytest.mark.parametrize("text", BAD_RULES)
def test_a_bad_rule_set_is_said_whole_in_the_pseudo_language(text: str) -> None:
    with use_language("qps"):
        assert_marked(raised(lambda: parse_rules(text), RuleSetError))
        said = follow_link({}, text)
    assert said is not None
    assert_marked(said)


def test_a_bad_rule_set_is_said_in_filipino_naming_the_part() -> None:
    with use_language("fil"):
        said = follow_link({}, "bas")
        table = raised(lambda: parse_rules("base(challengers=some)"), RuleSetError)
    assert said is not None
    assert said.startswith("Hindi mabasa ang mga patakaran ng link: hindi kilalang variant: 'bas'")
    assert "('base' ba ang ibig mong sabihin?)" in said
    assert table.startswith("hindi puwedeng 'some' ang patakaran ng mesa na 'challengers'")


# ------------------------------------------------------------------ a game log (Play page import)
@cache
def game_log() -> list[str]:
    with use_language("en"):
        match = Match.start(Setup("base", 3, ("you", "honest", "rule")), "ann")
        while match.index < 4:
            if match.bot_to_move:
                match.bot_move()
            else:
                match.play(match.game.legal_moves()[0])
        return export_text(match.record).splitlines()


def broken(line: int, text: str) -> str:
    lines = list(game_log())
    lines[line - 1] = text
    return "\n".join(lines) + "\n"


BAD_LOGS = [
    (1, "hello"), (1, "coup-trainer game log 7"), (3, "nonsense"), (5, "seed: 12x"),
    (4, "rule set: bas"), (6, "seats: you, nobot, honest"), (7, "names: A, B, C"),
    (8, "started: 2025-03-01T18:04:05"), (10, "resigned: maybe"), (11, "result: Ann won"),
    (13, "garbage"), (13, "7. P0:income"), (13, "1. P0:income | stated 100%"),
    (13, "1. P0:income | foo"), (13, "1. P0:coup/P1"), (3, "learner: " + "x" * 70),
]


@pytest.mark.parametrize("line, text", BAD_LOGS)
def test_a_bad_game_log_is_said_whole_in_the_pseudo_language(line: int, text: str) -> None:
    log = broken(line, text)
    with use_language("qps"):
        reason = raised(lambda: import_text(log), LogError)
        assert_marked(tr("The game log could not be read: {reason}", reason=reason))


def test_a_bad_game_log_is_said_in_filipino_naming_the_line_and_the_key() -> None:
    with use_language("fil"):
        seed = raised(lambda: import_text(broken(5, "seed: 12x")), LogError)
        notes = raised(lambda: import_text(broken(13, "1. P0:income | stated 100%")), LogError)
        move = raised(lambda: import_text(broken(13, "1. P0:block/Dook")), LogError)
    assert seed == ("linya 5: seed: nakita ang '12x'; inaasahan ang buong numero mula 0 "
                    "hanggang 2147483647")
    assert notes == ("linya 13: nakita ang sinabing tsansa na 100%; inaasahan ang tsansa mula "
                     "1% hanggang 99%")
    assert move.startswith("linya 13: galaw 1: nakita ang 'P0:block/Dook'; inaasahan ang "
                           "pangalan ng baraha (Duke, ")
    assert move.endswith("), hindi 'Dook'")


def test_a_saved_game_whose_moves_the_rules_refuse_is_said_in_the_visitors_words() -> None:
    """A saved game (or an imported one) replayed to repair it: what stopped the replay."""
    with use_language("en"):
        record = import_text("\n".join(game_log()) + "\n")
    bad = record.model_copy(update={"moves": ["P1:income", *record.moves[1:]]})
    with use_language("qps"):
        _match, problem = Match.rebuild(bad)
    assert problem is not None
    assert_marked(problem.replace("'P1:income'", ""))
    with use_language("fil"):
        _match, problem = Match.rebuild(bad)
    assert problem is not None and problem.startswith(
        "moves: hindi puwede roon ang galaw 1 'P1:income': ")


def test_a_table_the_rules_refuse_is_said_in_the_visitors_words() -> None:
    with use_language("qps"):
        assert_marked(raised(lambda: Setup("base", 1, ("you",)), SetupError))
        assert_marked(raised(lambda: Setup("base", 1, ("you", "zz")), SetupError))
    with use_language("fil"):
        said = raised(lambda: Setup("base", 1, ("you",)), SetupError)
    assert said == "mga upuan: nilalaro dito ang Coup (batayang laro) ng 2–6 manlalaro, hindi 1"


# ------------------------------------------------------------------ answers CSV (Quiz, Calibration)
@cache
def answers_csv() -> tuple[str, str]:
    from datetime import UTC, datetime

    a = Answer.model_validate(dict(
        answer_id="ann-000001", learner="ann", item_id="item-1", bank="bank-1",
        kind="challenge", answered_at=datetime(2025, 3, 1, tzinfo=UTC), stated=0.35,
        bluff=True, action="Challenge", best="Pass", lost_pp=3.5, grade="good"))
    head, row = export_csv([a]).splitlines()
    return head, row


def bad_csv() -> str:
    head, row = answers_csv()
    cells = dict(zip(head.split(","), row.split(","), strict=True))

    def changed(**values: str) -> str:
        return ",".join({**cells, **values}.values())

    rows = [changed(stated="7"), changed(grade="weird"), changed(kind="counterattack"),
            changed(seconds="abc"), changed(bluff="maybe"), changed(answered_at="2025-13-01"),
            changed(answer_id="x"), changed(action="=1+2"), changed(mode="m" * 70), row + ",1"]
    return "\n".join([head, *rows]) + "\n"


def test_csv_import_errors_are_said_whole_in_the_pseudo_language() -> None:
    head, _ = answers_csv()
    with use_language("qps"):
        report = import_csv(bad_csv(), "ann", MemoryStore())
        wrong = import_csv(head.replace("stated", "confidence") + "\n", "ann", MemoryStore())
        empty = import_csv("", "ann", MemoryStore())
    assert len(report.errors) == 10
    for error in [*report.errors, *wrong.errors, *empty.errors]:
        assert_marked(error)


def test_csv_import_errors_are_said_in_filipino_naming_line_and_column() -> None:
    with use_language("fil"):
        errors = import_csv(bad_csv(), "ann", MemoryStore()).errors
    assert errors[0] == "linya 2: stated: Dapat ay 0.99 o mas mababa (natanggap: '7')"
    assert errors[1] == ("linya 3: grade: Dapat ay 'best', 'good', 'inaccuracy', 'mistake' o "
                         "'blunder' (natanggap: 'weird')")
    assert errors[3].startswith("linya 5: seconds: Dapat ay numero")
    assert errors[5].startswith("linya 7: answered_at: Dapat ay wastong petsa at oras: wala sa")
    assert errors[-1] == "linya 11: inaasahan ang 19 cell gaya ng sa header, nakita: 20"


def test_pydantic_errors_of_every_type_met_are_worded_by_us() -> None:
    with pytest.raises(ValidationError) as caught:
        Answer.model_validate({"zz": 1, "answer_id": "x" * 70, "lost_pp": -1, "grade": "?"})
    kinds = {err["type"] for err in caught.value.errors()}
    assert {"missing", "extra_forbidden", "string_too_long", "greater_than_equal",
            "literal_error"} <= kinds
    with use_language("en"):
        assert [field_problem(err) for err in caught.value.errors()] == \
            [err["msg"] for err in caught.value.errors()]
    with use_language("qps"):
        for line in describe_error(caught.value, tr("line {line}", line=4)).splitlines():
            assert_marked(line)


def test_pydantic_messages_we_word_read_in_english_exactly_as_pydantic_writes_them() -> None:
    """Each fixed message of ours is pydantic's own for its error type (so English readers see
    no change), and each has a Filipino translation."""
    from pydantic_core import _pydantic_core

    from trainer.i18n.fields import _FIXED

    templates = {e["type"]: e["message_template_python"]
                 for e in _pydantic_core.list_all_errors()}
    assert {kind: text for kind, text in _FIXED.items() if templates.get(kind) != text} == {}
    with use_language("fil"):  # a message without a translation fails `fil_complete`
        assert all(tr(text) for text in _FIXED.values())


# ------------------------------------------------------------------ end-game practice
@cache
def duel_solution() -> hidden.Solution:
    return hidden.solve((C.AMBASSADOR, C.CONTESSA), (2, 2), 0, horizon=2)


def test_a_practice_refusal_is_said_in_the_visitors_words() -> None:
    p = practice.start((C.AMBASSADOR, C.CONTESSA), (2, 2), 0, 0, seed=1, horizon=2,
                       solution=duel_solution())
    with use_language("qps"):
        assert_marked(raised(lambda: p.play(99), PracticeError))
        assert_marked(raised(lambda: practice.start((C.AMBASSADOR, C.CONTESSA), (2, 2), 0, 0,
                                                    card=C.INQUISITOR, horizon=2,
                                                    solution=duel_solution()), PracticeError))
    with use_language("fil"):
        said = raised(lambda: p.play(99), PracticeError)
        card = raised(lambda: practice.start((C.AMBASSADOR, C.CONTESSA), (2, 2), 0, 0,
                                             card=C.INQUISITOR, horizon=2,
                                             solution=duel_solution()), PracticeError)
    assert said.startswith("walang opsyon na 99; inaasahan ang 0 hanggang ")
    assert card.startswith("hindi puwedeng hawak mo ang Inquisitor dito: wala ito sa Korte")


# ------------------------------------------------------------------ a teacher's lesson file (Learn)
LESSON = Path(__file__).resolve().parents[1] / "scenarios" / "challenged-steal-block.yaml"
BAD_LESSONS = [
    ("title:", "titel:"), ("title:", "nonsense:"),
    ("      coins: 2\n      hidden: [Captain, Duke]",
     "      coins: 2\n      hiden: [Captain, Duke]"),
    ("      coins: 2\n      hidden: [Captain, Duke]", "      coins: 2"),
    ("      next: {player: Eva, phase: block}", "      next: 5"),
    ("id: challenged-steal-block", "id: another-id"),
    ("  learner: Finn", "  learner: Fin"), ("    - name: Eva", "    - name: Dan"),
    ("  learner: Finn", "  learner: Finn\n  options: {examine_pick: random}"),
    ("  - move: No one challenges", "  - illegal: No one challenges"),
]


@pytest.mark.parametrize("old, new", BAD_LESSONS)
def test_a_broken_lesson_is_worded_at_display_in_the_readers_language(
        tmp_path: Path, old: str, new: str) -> None:
    (tmp_path / "challenged-steal-block.yaml").write_text(LESSON.read_text().replace(old, new))
    library = load_library(tmp_path)  # checked once, in English, for every reader
    [broken] = library.broken
    assert broken.words() == broken.message
    with use_language("qps"):
        assert_marked(tr("This lesson file could not be loaded: {message}",
                         message=broken.words()).replace(str(tmp_path), ""))


def test_a_broken_lesson_is_said_in_filipino_naming_file_line_and_key(tmp_path: Path) -> None:
    lesson = LESSON.read_text().replace(*BAD_LESSONS[2])
    (tmp_path / "challenged-steal-block.yaml").write_text(lesson)
    [broken] = load_library(tmp_path).broken
    with use_language("fil"):
        said = broken.words()
    assert said == (f"{tmp_path / 'challenged-steal-block.yaml'}:16: setup > manlalaro 2 (Eva): "
                    "hindi kilalang key: 'hiden' ('hidden' ba ang ibig mong sabihin?); mga "
                    "puwedeng key: name, coins, hidden, revealed, allegiance")


def test_a_lesson_option_that_does_not_apply_is_said_in_filipino(tmp_path: Path) -> None:
    lesson = LESSON.read_text().replace(*BAD_LESSONS[8])
    (tmp_path / "challenged-steal-block.yaml").write_text(lesson)
    [broken] = load_library(tmp_path).broken
    assert "`examine_pick` does not apply to Coup (base game): it has no Examine" in broken.message
    with use_language("fil"):
        said = broken.words()
    assert ": setup > options: hindi angkop ang `examine_pick` sa Coup (batayang laro): wala " \
        "itong aksyong pagsisiyasat" in said
