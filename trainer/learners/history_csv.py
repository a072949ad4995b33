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
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import ValidationError

from trainer.i18n import N_, tr, tr_n
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
    return tr("expected a CSV file whose first line is the header: {header}",
              header=",".join(COLUMNS))


# What Python's csv reader says of a file it cannot read (its English), in the reader's words.
# Only the field limit can be met here (a NUL is refused before reading, and lines are split
# by the reader's own newline handling); the others are kept for a future change of the reader.
_CSV_TROUBLES = frozenset({
    N_("line contains NUL"),
    N_("new-line character seen in unquoted field - do you need to open the file with "
       "newline=''?"),
    N_("unexpected end of data"),
})
_FIELD_LIMIT = re.compile(r"field larger than field limit \((\d+)\)")


def _csv_problem(error: csv.Error) -> str:
    """The csv module's problem in the reader's language; Python's English when unknown."""
    problem = str(error)
    if problem in _CSV_TROUBLES:
        return tr(problem)
    limit = _FIELD_LIMIT.fullmatch(problem)
    if limit:
        return tr("field larger than field limit ({limit})", limit=limit[1])
    return problem


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
            report.errors.append(tr("the file is not UTF-8 text (byte {byte}); {expected}",
                                    byte=e.start, expected=_expected()))
            return report
    text = text.removeprefix("\ufeff")  # a spreadsheet's byte-order mark
    if not text.strip():
        report.errors.append(tr("the file is empty; {expected}", expected=_expected()))
        return report
    if "\x00" in text:
        report.errors.append(tr("the file is binary, not CSV text; {expected}",
                                expected=_expected()))
        return report

    reader = csv.reader(io.StringIO(text, newline=""))
    answers: list[Answer] = []
    try:
        header = [h.strip() for h in next(reader)]
        missing = [c for c in REQUIRED_HEADER if c not in header]
        unknown = [h for h in header if h not in COLUMNS]
        repeated = sorted({h for h in header if header.count(h) > 1})
        if missing or unknown or repeated:
            wrong = "; ".join(words for words, names in (
                (tr("missing: {columns}", columns=", ".join(missing)), missing),
                (tr("unknown: {columns}", columns=", ".join(unknown)), unknown),
                (tr("repeated: {columns}", columns=", ".join(repeated)), repeated)) if names)
            report.errors.append(tr("line {line}: wrong columns ({wrong}); {expected}", line=1,
                                    wrong=wrong, expected=_expected()))
            return report
        line = reader.line_num + 1
        for cells in reader:
            start, line = line, reader.line_num + 1  # a quoted cell may span several lines
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                report.errors.append(tr_n("line {line}: expected {n} cell as in the header, "
                                          "found {found}",
                                          "line {line}: expected {n} cells as in the header, "
                                          "found {found}", len(header), line=start,
                                          found=len(cells)))
                continue
            formulas = [name for name, value in zip(header, cells, strict=True)
                        if is_formula(value)]
            if formulas:
                report.errors.extend(
                    tr("line {line}: {column}: starts with {sign}, which a spreadsheet runs as "
                       "a formula; not imported (a ' in front keeps it as text)", line=start,
                       column=name, sign=repr(cells[header.index(name)][:1]))
                    for name in formulas)
                continue
            data: dict[str, object] = {
                name: None if value == "" and name in NULLABLE else value
                for name, value in zip(header, cells, strict=True)}
            data["learner"] = learner
            try:
                answers.append(Answer.model_validate(data))
            except ValidationError as e:
                report.errors.extend(
                    describe_error(e, tr("line {line}", line=start)).splitlines())
    except csv.Error as e:
        report.errors.append(tr("line {line}: not readable as CSV ({problem}); {expected}",
                                line=reader.line_num, problem=_csv_problem(e),
                                expected=_expected()))
        return report

    flags = store.save_many(answers)
    report.added = sum(flags)
    report.duplicates = len(flags) - report.added
    return report
