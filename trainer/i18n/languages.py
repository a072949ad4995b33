"""The languages the trainer speaks, one line each.

Adding a language is one catalogue file (`locales/<code>.po`) and one line here. `code` is the
catalogue's file name and the `?lang=` value; `aliases` are the browser tags that mean it
(Filipino is also sent as Tagalog, `tl`, by many browsers and phones).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Language:
    """One language: its code, its own name for itself (what the switch shows), the
    browser tags that also mean it, and Babel's locale for numbers, dates and plurals."""

    code: str
    name: str
    aliases: tuple[str, ...] = ()
    babel: str = ""

    @property
    def locale(self) -> str:
        return self.babel or self.code


DEFAULT = "en"

# The pseudo-language: every catalogued string marked and accented, so a sweep of the pages
# finds any word that did not come through the catalogue. Reachable as ?lang=qps, never listed
# in the switch.
PSEUDO = "qps"

LANGUAGES: tuple[Language, ...] = (
    Language("en", "English"),
    Language("fil", "Filipino", aliases=("tl",)),
)

_PSEUDO_LANGUAGE = Language(PSEUDO, "Pseudo", babel="en")


def language_named(code: str) -> Language:
    """The language with this code (the pseudo-language included); KeyError otherwise."""
    for language in (*LANGUAGES, _PSEUDO_LANGUAGE):
        if language.code == code:
            return language
    raise KeyError(code)
