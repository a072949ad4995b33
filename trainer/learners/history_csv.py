"""A learner's answers as a CSV file: to keep, to inspect in a spreadsheet, to move elsewhere.

Why import validates line by line: the file may have been edited by hand, or come from another
version of the app. Each bad line is refused with its line number and the field that is wrong,
the good lines are still imported, and a file that is not an answers CSV at all (wrong header,
empty, binary) is one clear message, never an exception for the page to catch.

Cells a spreadsheet would run as formulas are neutralised on export and refused on import
(`trainer.learners.csvsafe`).

The learner column is overridden on import, so a file can move from one learner id to another
(a new browser, a new name). Duplicates (an answer_id already stored) are counted and skipped,
so importing the same file twice is harmless.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import ValidationError

from trainer.learners.answers import COLUMNS, Answer, describe_error
from trainer.learners.csvsafe import is_formula, neutral
from trainer.learners.identity import is_browser_id

if TYPE_CHECKING:  # only the interface: reading a CSV needs no database
    from trainer.learners.storage import AnswerStore

# Empty cells mean "none" only where the model allows none; elsewhere they are kept, so that an
# empty required field is reported as such and an empty string field round-trips unchanged.
NULLABLE = frozenset(name for name, f in Answer.model_fields.items()
                     if not f.is_required() and f.default is None)
REQUIRED_HEADER = tuple(c for c in COLUMNS if c != "learner")  # learner is overridden anyway


@dataclass
class ImportReport:
    added: int = 0
    duplicates: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, str):
        return neutral(value)  # text a spreadsheet would run as a formula gets a leading '
    return str(value)  # floats: str() is the shortest text that reads back exactly


def export_csv(answers: Iterable[Answer]) -> str:
    """Header = COLUMNS; ISO 8601 timestamps in UTC; themes joined by "|".

    A browser's learner id is left out (an empty learner cell): whoever holds it is that
    learner, and an export is a file people send around. The import ignores the cell anyway."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for a in answers:
        row = a.row()
        if is_browser_id(row["learner"]):
            row["learner"] = ""
        writer.writerow(_cell(row[c]) for c in COLUMNS)
    return out.getvalue()


def _expected() -> str:
    return "expected a CSV file whose first line is the header: " + ",".join(COLUMNS)


def import_csv(text: str | bytes, learner: str, store: AnswerStore) -> ImportReport:
    """Validate every line, save the good ones in one go, and report the rest by line number.

    Accepts bytes too (what a file upload gives): undecodable bytes are an error, not an
    exception. A StorageError from the store itself is left to the caller, like a failed save.
    """
    report = ImportReport()
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            report.errors.append(f"the file is not UTF-8 text (byte {e.start}); {_expected()}")
            return report
    text = text.removeprefix("\ufeff")  # a spreadsheet's byte-order mark
    if not text.strip():
        report.errors.append(f"the file is empty; {_expected()}")
        return report
    if "\x00" in text:
        report.errors.append(f"the file is binary, not CSV text; {_expected()}")
        return report

    reader = csv.reader(io.StringIO(text, newline=""))
    answers: list[Answer] = []
    try:
        header = [h.strip() for h in next(reader)]
        missing = [c for c in REQUIRED_HEADER if c not in header]
        unknown = [h for h in header if h not in COLUMNS]
        repeated = sorted({h for h in header if header.count(h) > 1})
        if missing or unknown or repeated:
            wrong = "; ".join(f"{what}: {', '.join(names)}" for what, names in (
                ("missing", missing), ("unknown", unknown), ("repeated", repeated)) if names)
            report.errors.append(f"line 1: wrong columns ({wrong}); {_expected()}")
            return report
        line = reader.line_num + 1
        for cells in reader:
            start, line = line, reader.line_num + 1  # a quoted cell may span several lines
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                report.errors.append(f"line {start}: expected {len(header)} cells as in the "
                                     f"header, found {len(cells)}")
                continue
            formulas = [name for name, value in zip(header, cells, strict=True)
                        if is_formula(value)]
            if formulas:
                report.errors.extend(
                    f"line {start}: {name}: starts with {cells[header.index(name)][:1]!r}, "
                    f"which a spreadsheet runs as a formula; not imported (a ' in front keeps "
                    f"it as text)" for name in formulas)
                continue
            data: dict[str, object] = {
                name: None if value == "" and name in NULLABLE else value
                for name, value in zip(header, cells, strict=True)}
            data["learner"] = learner
            try:
                answers.append(Answer.model_validate(data))
            except ValidationError as e:
                report.errors.extend(describe_error(e, f"line {start}").splitlines())
    except csv.Error as e:
        report.errors.append(f"line {reader.line_num}: not readable as CSV ({e}); {_expected()}")
        return report

    flags = store.save_many(answers)
    report.added = sum(flags)
    report.duplicates = len(flags) - report.added
    return report
