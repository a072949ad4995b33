"""Looking a message up in the visitor's language and putting its fields in.

Why the language is looked up at every call rather than fixed per process: Streamlit serves
every visitor from one process, each visitor's script on its own thread, so the language is
the visitor's (`set_resolver`, registered by the app) or the block's (`use_language`, for
tests, the command line and worker threads), never a global.

Fields are put in after translation with `str.format_map`, so a translation may move them
("{name} claims the Duke." -> "Naghahayag si {name} ng Duke."). A message called with fields
writes a literal brace as `{{`; without fields it is returned as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from trainer.i18n.catalogue import catalogue
from trainer.i18n.languages import DEFAULT

_chosen: ContextVar[str | None] = ContextVar("trainer_language", default=None)
_resolver: Callable[[], str | None] | None = None


def set_resolver(resolver: Callable[[], str | None] | None) -> None:
    """The app's way to say which language the running visitor chose: called on every lookup
    outside a `use_language` block; None from it (no visitor here, e.g. a worker thread)
    means English."""
    global _resolver
    _resolver = resolver


def current_language() -> str:
    """The language of this block, else of this visitor, else English."""
    chosen = _chosen.get()
    if chosen is not None:
        return chosen
    if _resolver is not None:
        return _resolver() or DEFAULT
    return DEFAULT


@contextmanager
def use_language(code: str) -> Iterator[None]:
    """Speak `code` inside the block (on this thread or task only)."""
    token = _chosen.set(code)
    try:
        yield
    finally:
        _chosen.reset(token)


def N_(message: str) -> str:
    """Mark `message` for the catalogue and return it unchanged: for text kept in a constant
    and translated where it is shown, with `tr(CONSTANT)`."""
    return message


def _fill(text: str, fields: dict[str, Any]) -> str:
    return text.format_map(fields) if fields else text


def tr(message: str, /, **fields: Any) -> str:
    """`message` in the current language, with `fields` put in."""
    return _fill(catalogue(current_language()).text(None, message), fields)


def trc(context: str, message: str, /, **fields: Any) -> str:
    """`message` as meant in `context`, for the rare English word that other languages say
    two ways (a "Pass" button and a "pass" in a sentence)."""
    return _fill(catalogue(current_language()).text(context, message), fields)


def tr_n(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form of a counted message the language's plural rule picks for `n`, with `n` and
    `fields` put in ("1 coin", "2 coins"; Filipino's rule differs from English's)."""
    text = catalogue(current_language()).plural(singular, plural, n)
    return text.format_map({"n": n, **fields})
