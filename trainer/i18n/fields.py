"""What is wrong with one field of a record or a file, worded by us from pydantic's error.

Why here, at the bottom: pydantic's `msg` is English only, and three doors meet its errors (a
lesson file, an answers CSV, a game log). Its error `type` and context are data, so each door
says the problem in the reader's language from one table. A lesson file is checked once per
process and its problem read by people of every language later, so the problem is a `Said`,
worded when shown. No pydantic import at run time: an error is a plain dictionary.
"""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING

from trainer.i18n.core import N_, tr
from trainer.i18n.said import Said, SaidValueError, as_said, said, said_n

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


# What pydantic says of a bad date and time (its `error`), said in the reader's words.
_DATE_TROUBLES = frozenset({
    N_("input is too short"),
    N_("input is too long"),
    N_("invalid character in year"),
    N_("invalid character in month"),
    N_("invalid character in day"),
    N_("invalid character in hour"),
    N_("invalid character in minute"),
    N_("invalid character in second"),
    N_("invalid date separator, expected `-`"),
    N_("invalid datetime separator, expected `T`, `t`, `_` or space"),
    N_("invalid time separator, expected `:`"),
    N_("month value is outside expected range of 1-12"),
    N_("day value is outside expected range"),
    N_("hour value is outside expected range of 0-23"),
    N_("minute value is outside expected range of 0-59"),
    N_("second value is outside expected range of 0-59"),
    N_("unexpected extra characters at the end of the input"),
    N_("invalid timezone sign"),
})


# The kinds of collection pydantic names in a length error ("List should have at least ...").
_SHAPES = {"List": N_("List"), "Tuple": N_("Tuple"), "Dictionary": N_("Dictionary"),
           "Set": N_("Set"), "Frozenset": N_("Frozenset")}


def _bound(value: object) -> str:
    """A limit as pydantic writes it (1.0 as 1)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _choices(expected: str) -> str:
    """pydantic's list of allowed values ("'a', 'b' or 'c'") with the reader's "or"."""
    items = re.findall(r"'[^']*'", expected)
    if len(items) < 2:
        return expected
    return tr("{first} or {last}", first=", ".join(items[:-1]), last=items[-1])


# pydantic's error types whose message has no field to fill, as pydantic words them (its
# `msg`), each said through the catalogue: the ones a hand-written file, a CSV or a log can
# meet (`pydantic_core.list_all_errors()` lists them all).
_FIXED = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": N_("Input should be a valid integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional "
                         "part"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum "
                           "size"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "float_type": N_("Input should be a valid number"),
    "finite_number": N_("Input should be a finite number"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "bool_type": N_("Input should be a valid boolean"),
    "string_type": N_("Input should be a valid string"),
    "string_unicode": N_("Input should be a valid string, unable to parse raw data as a "
                         "unicode string"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "set_type": N_("Input should be a valid set"),
    "dict_type": N_("Input should be a valid dictionary"),
    "iterable_type": N_("Input should be iterable"),
    "set_item_not_hashable": N_("Set items should be hashable"),
    "invalid_key": N_("Keys should be strings"),
    "none_required": N_("Input should be None"),
    "model_attributes_type": N_("Input should be a valid dictionary or object to extract "
                                "fields from"),
    "date_type": N_("Input should be a valid date"),
    "datetime_type": N_("Input should be a valid datetime"),
    "recursion_loop": N_("Recursion error - cyclic reference detected"),
}


def field_said(err: ErrorDetails) -> Said:
    """What is wrong with one field, from pydantic's error `type` and its context, as our own
    sentence in the reader's language (pydantic's `msg` is English only; it is the fallback
    for a type met nowhere here)."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind in _FIXED:
        return said(_FIXED[kind])
    if kind == "model_type" and "class_name" in ctx:
        return said(N_("Input should be a valid dictionary or instance of {name}"),
                    name=str(ctx["class_name"]))
    if kind == "multiple_of" and "multiple_of" in ctx:
        return said(N_("Input should be a multiple of {n}"), n=_bound(ctx["multiple_of"]))
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return said(N_("Input should be {expected}"),
                    expected=partial(_choices, str(ctx["expected"])))
    if kind == "string_too_long" and "max_length" in ctx:
        return said_n("String should have at most {n} character",
                      "String should have at most {n} characters", int(ctx["max_length"]))
    if kind == "string_too_short" and "min_length" in ctx:
        return said_n("String should have at least {n} character",
                      "String should have at least {n} characters", int(ctx["min_length"]))
    if kind in ("too_short", "too_long") and "actual_length" in ctx:
        n = int(ctx["min_length" if kind == "too_short" else "max_length"])
        what = str(ctx.get("field_type", ""))
        shape = said(_SHAPES[what]) if what in _SHAPES else as_said(what)
        if kind == "too_short":
            return said_n("{shape} should have at least {n} item after validation, not {actual}",
                          "{shape} should have at least {n} items after validation, not "
                          "{actual}", n, shape=shape, actual=int(ctx["actual_length"]))
        return said_n("{shape} should have at most {n} item after validation, not {actual}",
                      "{shape} should have at most {n} items after validation, not {actual}",
                      n, shape=shape, actual=int(ctx["actual_length"]))
    if kind == "string_pattern_mismatch" and "pattern" in ctx:
        return said(N_("String should match pattern '{pattern}'"), pattern=ctx["pattern"])
    if kind == "less_than_equal" and "le" in ctx:
        return said(N_("Input should be less than or equal to {limit}"),
                    limit=_bound(ctx["le"]))
    if kind == "greater_than_equal" and "ge" in ctx:
        return said(N_("Input should be greater than or equal to {limit}"),
                    limit=_bound(ctx["ge"]))
    if kind == "less_than" and "lt" in ctx:
        return said(N_("Input should be less than {limit}"), limit=_bound(ctx["lt"]))
    if kind == "greater_than" and "gt" in ctx:
        return said(N_("Input should be greater than {limit}"), limit=_bound(ctx["gt"]))
    if kind in ("datetime_parsing", "datetime_from_date_parsing") and "error" in ctx:
        trouble = str(ctx["error"])
        return said(N_("Input should be a valid datetime or date, {error}"),
                    error=said(trouble) if trouble in _DATE_TROUBLES else as_said(trouble))
    if kind == "value_error" and "error" in ctx:
        return said(N_("Value error, {reason}"), reason=validator_reason(err))
    return as_said(str(err["msg"]))


def validator_reason(err: ErrorDetails) -> Said:
    """A validator's own reason (a `value_error`), in the reader's words when the validator
    raised a `SaidValueError`; another ValueError's text is shown as it is."""
    error = (err.get("ctx") or {}).get("error")
    return error.said if isinstance(error, SaidValueError) else as_said(str(error))


def field_problem(err: ErrorDetails) -> str:
    """`field_said` in the current language."""
    return field_said(err).words()
