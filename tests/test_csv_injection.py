"""An answers file opened in a spreadsheet never runs a formula: text cells that would are
written with a leading ' and refused on import, naming the line and the column."""

from __future__ import annotations

import pytest

from tests.test_storage import answer
from trainer.learners.csvsafe import is_formula, neutral
from trainer.learners.history_csv import export_csv, import_csv
from trainer.learners.storage import MemoryStore


@pytest.mark.parametrize(("cell", "formula"), [
    ("=HYPERLINK(\"http://x\",\"y\")", True),
    ("@SUM(A1:A2)", True),
    ("+1+2", True),
    ("-cmd|' /C calc'!A0", True),
    ("\t=1+2", True),
    ("\r=1+2", True),
    ("-0.25", False),  # a number
    ("+3", False),
    ("Challenge", False),
    ("'=already text", False),
    ("", False),
])
def test_a_cell_is_a_formula_only_when_a_spreadsheet_would_run_it(cell: str,
                                                                   formula: bool) -> None:
    assert is_formula(cell) is formula
    assert neutral(cell) == ("'" + cell if formula else cell)


def test_text_that_would_run_as_a_formula_is_exported_as_text() -> None:
    row = export_csv([answer("ann", 1, action="=HYPERLINK(\"http://x\")", bank="@SUM(1)")])
    assert "'=HYPERLINK" in row and "'@SUM(1)" in row
    assert ",=" not in row and ",@" not in row


def test_numbers_are_exported_as_numbers() -> None:
    row = export_csv([answer("ann", 1, lost_pp=-0.0, stated=0.35)]).splitlines()[1]
    assert ",'" not in row


def test_a_formula_cell_is_refused_on_import_naming_its_line_and_column() -> None:
    good = export_csv([answer("ann", 1)]).splitlines()
    bad = good[1].replace(",Challenge,", ",=HYPERLINK(\"http://x\"),", 1)
    report = import_csv("\n".join([good[0], good[1].replace("ann-000001", "ann-000002"), bad])
                        + "\n", "ann", MemoryStore())
    assert report.added == 1
    assert report.errors == ["line 3: action: starts with '=', which a spreadsheet runs as a "
                             "formula; not imported (a ' in front keeps it as text)"]


def test_an_exported_file_with_neutralised_cells_imports_and_exports_the_same() -> None:
    first = export_csv([answer("ann", 1, action="=1+2")])
    store = MemoryStore()
    assert import_csv(first, "ann", store).errors == []
    again = export_csv(store.answers("ann")[0])
    assert again.splitlines()[1:] == first.splitlines()[1:]
