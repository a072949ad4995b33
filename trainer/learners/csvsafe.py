"""Cells a spreadsheet would run as formulas, neutralised.

Why: an answers file is opened in spreadsheets. A text cell that starts with `=`, `+`, `-` or
`@` (or a tab or carriage return, which some spreadsheets skip before reading one of those) is
read as a formula there: `=HYPERLINK(...)` becomes a link that sends data away. OWASP's advice
for CSV injection is followed: on export such a text cell gets a leading `'`, which a
spreadsheet shows as text; on import a cell that still starts with one of them is refused
(with its line and column), so no formula text enters the database to be written out by some
other export later. A number stays a number: `-0.25` is not a formula.
"""

from __future__ import annotations

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def is_formula(cell: str) -> bool:
    """Whether a spreadsheet would read this text cell as a formula."""
    return cell.startswith(FORMULA_START) and not _number(cell.strip())


def neutral(cell: str) -> str:
    """The cell as text a spreadsheet shows as it is: a leading `'` before a formula."""
    return "'" + cell if is_formula(cell) else cell
