"""A message worded where it is shown, not where it is made.

Why: some words are made once and read by many people. The lesson library is checked once
per process (in English) and its errors are shown to readers of every language; a lesson
file's move that cannot be read is found by the checker long before anybody opens the page.
Such a message keeps the catalogue's key and its fields, and `words()` says it in the
language of whoever reads it.

    said(N_("missing key {key}"), key="'title'")          a catalogued message and its fields
    said_n("{n} problem", "{n} problems", 3)               a counted one (the reader's plural)
    said_each(lambda: game.why_illegal(move))             another layer's words, made now in
                                                          every language (kept, never re-run)
    Said(text, catalogued=False)                          words that are data (a file's text)

A field may be a `Said` itself (worded in turn), a tuple of them (joined with " > ", a place
in a file) or a function of no arguments that words it (`partial(title_words, variant)`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from trainer.i18n.core import current_language, tr, tr_n, use_language
from trainer.i18n.languages import DEFAULT, LANGUAGES, PSEUDO


@dataclass(frozen=True)
class Said:
    """A message and its fields, said in the current language by `words()`. A message not
    `catalogued` is shown as it is; `plural` makes it counted by the field `n`; `texts` holds
    words made in each language at once (`said_each`)."""

    message: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    catalogued: bool = True
    plural: str | None = None
    texts: Mapping[str, str] | None = None

    def words(self) -> str:
        """The message in the current language."""
        if self.texts is not None:
            return self.texts.get(current_language(), self.texts.get(DEFAULT, self.message))
        if not self.catalogued:
            return self.message
        worded = {k: _worded(v) for k, v in self.fields.items()}
        if self.plural is not None:
            n = int(worded.pop("n"))
            return tr_n(self.message, self.plural, n, **worded)
        return tr(self.message, **worded)

    def __str__(self) -> str:
        return self.words()


def said(message: str, /, **fields: Any) -> Said:
    """A catalogued message (mark its text with `N_`) and its fields."""
    return Said(message, fields)


def said_n(singular: str, plural: str, n: int, /, **fields: Any) -> Said:
    """A counted catalogued message (literal texts, read by the catalogue's extractor as
    `tr_n`'s): the reader's plural rule picks the form for `n` when it is shown."""
    return Said(singular, {"n": n, **fields}, plural=plural)


def said_each(word: Callable[[], str]) -> Said:
    """Words another layer makes in the current language (an engine's reason, a rule text's
    problem), made now once per language and kept: the thing they describe may be gone or
    changed by the time they are shown, and a kept text travels (it pickles)."""
    texts: dict[str, str] = {}
    for code in (*(language.code for language in LANGUAGES), PSEUDO):
        with use_language(code):
            texts[code] = word()
    return Said(texts[DEFAULT], catalogued=False, texts=texts)


def as_said(message: str | Said) -> Said:
    """`message` as a `Said` (a plain string is data, shown as it is)."""
    return message if isinstance(message, Said) else Said(message, catalogued=False)


class SaidValueError(ValueError):
    """A ValueError whose reason is a `Said`: a pydantic validator raises it so that the
    reader, not the process that validated, chooses the language (`fields.field_said` finds
    it in the error's context). `keys` names the file keys the problem is about, most telling
    first, when the validator knows them (a whole-model check pointing at `practice:`)."""

    def __init__(self, message: Said, *, keys: tuple[str, ...] = ()) -> None:
        with use_language(DEFAULT):
            super().__init__(message.words())
        self.said = message
        self.keys = keys

    def __str__(self) -> str:
        return self.said.words()


def _worded(value: Any) -> Any:
    if isinstance(value, Said):
        return value.words()
    if callable(value):  # words of another layer, said when shown (a rule set's title)
        return value()
    if isinstance(value, tuple) and all(isinstance(v, Said) for v in value):
        return " > ".join(v.words() for v in value)
    return value
