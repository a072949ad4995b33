"""A language's catalogue: its `.po` file read once per process, and the pseudo-language.

Why gettext's `.po` format: it is what translators' tools (Poedit, Weblate, Lokalize) open,
it carries plural forms with the language's own rule, and Babel reads and checks it. A lookup
that finds no translation returns the English and is remembered (`missing`), so a test can
fail on any English shown to a Filipino visitor.
"""

from __future__ import annotations

import gettext
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from trainer.i18n.languages import DEFAULT, PSEUDO

LOCALES = Path(__file__).with_name("locales")

Key = tuple[str | None, str]


def catalogue_path(code: str) -> Path:
    return LOCALES / f"{code}.po"


def english_plural(n: int) -> int:
    return 0 if n == 1 else 1


@dataclass
class Catalogue:
    """One language's translations: (context, English) to the translation, or to its plural
    forms in the order of the file's plural rule."""

    code: str
    messages: dict[Key, str | tuple[str, ...]] = field(default_factory=dict)
    plural_index: Callable[[int], int] = english_plural
    missing: set[Key] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _miss(self, key: Key) -> None:
        if self.code != DEFAULT and key not in self.missing:
            with self._lock:
                self.missing.add(key)

    def text(self, context: str | None, message: str) -> str:
        if self.code == DEFAULT:
            return message
        if self.code == PSEUDO:
            return pseudo(message)
        found = self.messages.get((context, message))
        if isinstance(found, str) and found:
            return found
        self._miss((context, message))
        return message

    def plural(self, singular: str, plural: str, n: int) -> str:
        english = singular if n == 1 else plural
        if self.code == DEFAULT:
            return english
        if self.code == PSEUDO:
            return pseudo(english)
        found = self.messages.get((None, singular))
        if isinstance(found, tuple) and all(found):
            index = self.plural_index(n)
            return found[min(index, len(found) - 1)]
        self._miss((None, singular))
        return english


def read(code: str, path: Path | None = None) -> Catalogue:
    """The catalogue of `code` from its `.po` file (English and the pseudo-language have
    none). Fuzzy entries (a translator's unchecked guess) are not used."""
    if code in (DEFAULT, PSEUDO):
        return Catalogue(code)
    from babel.messages.pofile import read_po

    source = path or catalogue_path(code)
    with source.open("rb") as handle:
        po = read_po(handle, locale=None)
    messages: dict[Key, str | tuple[str, ...]] = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms = message.string if isinstance(message.string, tuple | list) else ()
            messages[(message.context, str(message.id[0]))] = tuple(str(s) for s in forms)
        else:
            messages[(message.context, str(message.id))] = str(message.string or "")
    plural_forms = po.plural_forms or "nplurals=2; plural=(n != 1);"
    expression = re.search(r"plural=(.+?);?\s*$", plural_forms)
    index = gettext.c2py(expression.group(1)) if expression else english_plural
    return Catalogue(code, messages, index)


@cache
def catalogue(code: str) -> Catalogue:
    """The catalogue of `code`, read once per process (an unknown code reads as English)."""
    if code in (DEFAULT, PSEUDO) or not catalogue_path(code).exists():
        return Catalogue(code if code == PSEUDO else DEFAULT)
    return read(code)


# The pseudo-language: letters accented, the whole wrapped in ⟦ ⟧. What is not text is kept:
# {fields}, HTML tags and entities, Streamlit's :material/icons: and :color[...] directives,
# markdown link targets and `code`.
OPEN, CLOSE = "⟦", "⟧"
_KEEP = re.compile(r"\{[^{}]*\}|<[^<>]*>|&[#a-zA-Z0-9]+;|:material/[a-z_]+:|:[a-z]+\[|\]\([^)]*\)"
                   r"|`[^`]*`|https?://\S+|\\n")
_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀɃÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")


# A line's markdown lead (a heading's #, a list's bullet or number, a quote) stays in front
# of the mark, so the line still renders as what it is.
_LEAD = re.compile(r"^(\s*(?:#{1,6}\s+|[-*+]\s+|>\s*|\d+\.\s+)*)(.*)$", re.DOTALL)


def _accent(text: str) -> str:
    out: list[str] = []
    last = 0
    for kept in _KEEP.finditer(text):
        out.append(text[last:kept.start()].translate(_ACCENTS))
        out.append(kept.group(0))
        last = kept.end()
    out.append(text[last:].translate(_ACCENTS))
    return "".join(out)


def pseudo(message: str) -> str:
    """`message` in the pseudo-language: readable, visibly marked line by line, fields and
    markup kept."""
    lines = []
    for line in message.split("\n"):
        lead, rest = _LEAD.match(line).groups()  # type: ignore[union-attr]
        lines.append(lead + (OPEN + _accent(rest) + CLOSE if rest.strip() else rest))
    return "\n".join(lines)
