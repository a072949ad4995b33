"""Which language a visitor gets: the link's `?lang=`, else their saved choice (a cookie),
else what their browser asks for, else English.

Why this order: a link a teacher shares ("?lang=fil") must open in that language on every
phone; a visitor who switched once keeps it on their next visit; a first visit follows the
phone's own language. A value that names no language we speak is ignored, never guessed.
"""

from __future__ import annotations

from trainer.i18n.languages import DEFAULT, LANGUAGES, PSEUDO


def language_from_tag(tag: object) -> str | None:
    """The code of the language a browser or link tag means ("fil-PH", "tl", "en_US", "FIL"),
    or None when we do not speak it."""
    if not isinstance(tag, str):
        return None
    primary = tag.strip().replace("_", "-").split("-")[0].lower()
    if not primary:
        return None
    if primary == PSEUDO:
        return PSEUDO
    for language in LANGUAGES:
        if primary == language.code or primary in language.aliases:
            return language.code
    return None


def from_accept_language(header: object) -> str | None:
    """The first language we speak in an Accept-Language header, by the browser's weights."""
    if not isinstance(header, str):
        return None
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if (code := language_from_tag(tag)) is not None and code != PSEUDO and weight > 0:
            ranked.append((-weight, order, code))
    return min(ranked)[2] if ranked else None


def choose(address: object = None, cookie: object = None, browser: object = None,
           accept_language: object = None) -> str:
    """The visitor's language, by the order above."""
    for code in (language_from_tag(address), language_from_tag(cookie)):
        if code is not None:
            return code
    browsed = language_from_tag(browser)
    if browsed is not None and browsed != PSEUDO:
        return browsed
    return from_accept_language(accept_language) or DEFAULT
