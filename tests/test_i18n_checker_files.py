"""A lesson file that is not YAML, and an answers CSV the csv module cannot read, said in the
reader's language.

Why: the checker reads a teacher's file once, in English, and the Learn page shows its problem
to readers of every language, so each problem is a message kept with its fields (a `Said`).
PyYAML's and the csv module's own problems are English: the common ones are said through our
catalogue, the rest shown as the library wrote them. In the pseudo-language a problem must be
catalogued all the way down (an outer catalogued frame would hide English data inside it, so
the `Said` itself is walked); in Filipino two messages are checked word for word.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.i18n_sweep import assert_marked, uncatalogued
from trainer.i18n import use_language
from trainer.i18n.catalogue import OPEN
from trainer.learners.answers import COLUMNS
from trainer.learners.history_csv import _csv_problem, import_csv
from trainer.learners.storage import MemoryStore
from trainer.scenarios import lessons
from trainer.scenarios.errors import ScenarioError
from trainer.scenarios.lessons import BrokenLesson, load_library
from trainer.scenarios.yaml_lines import YamlSyntaxError, decode_trouble, load_with_lines

LESSON = Path(__file__).resolve().parents[1] / "scenarios" / "challenged-steal-block.yaml"
NAME = LESSON.name
COLON_EXAMPLE = 'move: "Maria claims Duke: tax"'  # file syntax, the same in every language


# No message met here is looked up without a Filipino translation.
pytestmark = pytest.mark.usefixtures("fil_complete")


def broken_lesson(tmp_path: Path, old: str, new: str) -> BrokenLesson:
    text = LESSON.read_text(encoding="utf-8")
    assert old in text
    (tmp_path / NAME).write_text(text.replace(old, new, 1), encoding="utf-8")
    [broken] = load_library(tmp_path).broken  # checked once, in English, for every reader
    return broken


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def assert_said_whole(broken: BrokenLesson, tmp_path: Path) -> None:
    """The problem went through the catalogue all the way down, and reads marked in the
    pseudo-language once the file's path and the move example (data) are taken out."""
    assert broken.error is not None
    assert uncatalogued(broken.error.said) == [], broken.message
    assert broken.words() == broken.message  # English: as the command line says it
    with use_language("qps"):
        said = broken.words()
    assert_marked(said.replace(str(tmp_path / NAME), "").replace(COLON_EXAMPLE, ""))


# ------------------------------------------------------------------ YAML a teacher may break
FIRST = "  first: Dan"
BAD_YAML = {
    "colon": ('"Dan claims Captain: steal Eva"', "Dan claims Captain: steal Eva"),
    "no colon": (FIRST, FIRST + "\n  oops"),
    "tab": (FIRST, "\tfirst: Dan"),
    "indentation": (FIRST, " first: Dan"),
    "open quote": ("next: {player: Dan, phase: action}", "next: \"Dan"),
    "alias": (FIRST, "  first: *x"),
    "twice": (FIRST, FIRST + "\n  first: Eva"),
    "too deep": (FIRST, FIRST + "\n  removed: " + "[" * 200 + "]" * 200),
    "recursive": (FIRST, FIRST + "\n  removed: &loop [*loop]"),
    "merges itself": (FIRST, FIRST + "\n  extra: &m {<<: *m}"),
    "no date": ("order: 80", "order: 2024-13-01"),
    "control": (FIRST, FIRST + "\x01"),
}


@pytest.mark.parametrize("old, new", BAD_YAML.values(), ids=BAD_YAML.keys())
def test_a_lesson_file_that_is_not_yaml_is_said_whole(tmp_path: Path, old: str,
                                                       new: str) -> None:
    assert_said_whole(broken_lesson(tmp_path, old, new), tmp_path)


def alias_bomb(tmp_path: Path) -> None:
    """A "billion laughs" of about 400 bytes (tests/test_scenario_errors.py's)."""
    rows = ['lol: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        rows.append(f"{name}{name}{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    (tmp_path / NAME).write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_too_many_values_are_said_whole(tmp_path: Path) -> None:
    alias_bomb(tmp_path)
    [broken] = load_library(tmp_path).broken
    assert "too many aliases/expanded nodes: expanding '*e' here builds more than 100,000" \
        in broken.message
    assert_said_whole(broken, tmp_path)


def test_too_many_plain_values_are_said_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("trainer.scenarios.yaml_lines.MAX_NODES", 10)
    with pytest.raises(YamlSyntaxError) as caught:
        load_with_lines("a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]\n")
    assert str(caught.value).startswith("too many values: the file builds more than 10 values")
    assert uncatalogued(caught.value.message) == []
    with use_language("qps"):
        assert_marked(str(caught.value))


def test_a_file_too_big_or_not_utf8_is_said_whole(tmp_path: Path) -> None:
    (tmp_path / NAME).write_text("# " + "x" * 1_000_000 + "\n", encoding="utf-8")
    [broken] = load_library(tmp_path).broken
    assert broken.message.endswith(": the file is 1,000,003 bytes; expected a lesson file of "
                                   "at most 1,000,000 bytes (is it really a scenario?)")
    assert_said_whole(broken, tmp_path)
    with use_language("fil"):
        assert ": ang file ay 1,000,003 byte;" in broken.words()


def test_why_bytes_are_not_utf8_is_said_through_the_catalogue() -> None:
    for data in (b"\xff", b"\xc3(", b"\xc3"):
        with pytest.raises(UnicodeDecodeError) as caught:
            data.decode("utf-8")
        said = decode_trouble(caught.value)
        assert said.catalogued and said.words() == caught.value.reason
        with use_language("qps"):
            assert_marked(said.words())


def test_a_lesson_file_not_utf8_is_said_whole(tmp_path: Path) -> None:
    (tmp_path / NAME).write_bytes(LESSON.read_bytes().replace(b"Dan", b"D\xe1n", 1))
    [broken] = load_library(tmp_path).broken
    assert broken.message.endswith(": the file is not UTF-8 text (invalid continuation byte)")
    assert broken.error is not None
    with use_language("qps"):  # Python's reason is a message of its own inside the sentence
        assert broken.error.said.words().count(OPEN) == 2


def test_an_engine_error_the_checker_does_not_word_is_still_catalogued(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.engine.errors import ChanceError

    def refuse(*_: object) -> None:
        raise ChanceError("x")

    monkeypatch.setattr(lessons, "run_scenario", refuse)
    (tmp_path / NAME).write_text(LESSON.read_text(encoding="utf-8"), encoding="utf-8")
    [broken] = load_library(tmp_path).broken
    assert isinstance(broken.error, ScenarioError)
    assert broken.message == (f"{tmp_path / NAME}: the engine refused this lesson: x (the "
                              f"checker does not explain this case yet; please report it)")
    with use_language("qps"):
        assert_marked(broken.error.said.words())


def test_a_yaml_problem_is_said_in_filipino(tmp_path: Path) -> None:
    broken = broken_lesson(tmp_path, *BAD_YAML["twice"])
    text = (tmp_path / NAME).read_text(encoding="utf-8")
    with use_language("fil"):
        said = broken.words()
    assert said == (f"{tmp_path / NAME}:{line_of(text, 'first: Eva')}: dalawang beses "
                    f"lumalabas dito ang key na 'first' (una sa linya "
                    f"{line_of(text, 'first: Dan')}); alisin ang isa")
    colon = broken_lesson(tmp_path, *BAD_YAML["colon"])
    with use_language("fil"):
        said = colon.words()
    assert said.endswith(": mali sa syntax ng YAML: hindi puwede ang mapping value dito "
                         "(kailangang naka-quote ang galaw na may ':', hal. "
                         f"{COLON_EXAMPLE})")


# ------------------------------------------------------------------ an answers CSV
def test_a_csv_the_csv_module_cannot_read_is_said_whole() -> None:
    text = ",".join(COLUMNS) + "\n" + "x" * 200_000 + "\n"
    report = import_csv(text, "ann", MemoryStore())
    assert report.errors == [
        "line 2: not readable as CSV (field larger than field limit (131072)); expected a CSV "
        "file whose first line is the header: " + ",".join(COLUMNS)]
    with use_language("qps"):
        [error] = import_csv(text, "ann", MemoryStore()).errors
    assert_marked(error)
    assert error.count(OPEN) == 3  # the sentence, the csv module's problem and the header's
    with use_language("fil"):
        [error] = import_csv(text, "ann", MemoryStore()).errors
    assert error.startswith("linya 2: hindi mabasa bilang CSV (lampas sa hangganan na 131072 "
                            "character ang isang cell); inaasahan ang CSV file")


@pytest.mark.parametrize("problem", [
    "line contains NUL", "unexpected end of data", "field larger than field limit (42)",
    "new-line character seen in unquoted field - do you need to open the file with "
    "newline=''?"])
def test_every_problem_of_the_csv_module_known_is_said_through_the_catalogue(
        problem: str) -> None:
    with use_language("en"):
        assert _csv_problem(csv.Error(problem)) == problem
    with use_language("qps"):
        assert_marked(_csv_problem(csv.Error(problem)))
