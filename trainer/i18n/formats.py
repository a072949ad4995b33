"""Numbers, percentages and dates in the current language, through Babel (CLDR's data).

Why not f-strings: "1,234.5", "38%" and "November 27, 2026" are English conventions;
Filipino writes the date "Nobyembre 27, 2026", and the next language may put the percent sign
before the number or use a decimal comma.
"""

from __future__ import annotations

from datetime import date as Date
from datetime import datetime as DateTime
from typing import Literal

from babel.dates import format_date, format_datetime, get_month_names
from babel.numbers import format_decimal, format_percent

from trainer.i18n.core import current_language
from trainer.i18n.languages import language_named


def _locale() -> str:
    try:
        return language_named(current_language()).locale
    except KeyError:
        return "en"


def number(value: float, digits: int = 0) -> str:
    """`value` with `digits` decimals and the language's separators."""
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return format_decimal(value, format=pattern, locale=_locale())


def percent(fraction: float, digits: int = 0) -> str:
    """`fraction` (0.375) as a percentage ("38%", or "37.5%" with one digit)."""
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "") + "%"
    return format_percent(fraction, format=pattern, locale=_locale())


def date(day: Date, length: str = "long") -> str:
    """A day in words ("November 27, 2026"; "Nobyembre 27, 2026")."""
    return format_date(day, format=length, locale=_locale())


def moment(when: DateTime, length: str = "medium") -> str:
    """A date and time of day."""
    return format_datetime(when, format=length, locale=_locale())


def months(width: Literal["abbreviated", "narrow", "wide"] = "abbreviated") -> list[str]:
    """The twelve month names, January first ("Jan", …; "Ene", … in Filipino), for a chart
    whose own month names (Vega's) would be English."""
    names = get_month_names(width, locale=_locale())
    return [str(names[m]) for m in range(1, 13)]
