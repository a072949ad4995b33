"""The hints every part of the lesson-file checker gives: "did you mean ...?" and an unknown card.

Why one module: the schema, the move grammar and the checkpoints all meet a misspelt card or
name, and a teacher should read the same sentence, in their own language, wherever it was
found. Each is a `Said`, worded when shown (the library is checked once, in English).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from trainer.engine.cards import Character
from trainer.i18n import N_
from trainer.i18n.said import Said, SaidValueError, said


def closest(word: str, choices: Sequence[str], cutoff: float = 0.7) -> str | None:
    """The choice `word` most likely misspells (any capitals), or None."""
    lowered = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=cutoff)
    return lowered[close[0]] if close else None


def did_you_mean(word: str, choices: Sequence[str], cutoff: float = 0.7) -> Said:
    """"; did you mean 'X'?" when `word` is close to a choice, else nothing (an empty Said)."""
    near = closest(word, choices, cutoff)
    return said(N_("; did you mean {near}?"), near=repr(near)) if near else _NOTHING


def unknown_card(word: str, cutoff: float = 0.7) -> Said:
    """A card name that is no card, with the cards there are and the likely one."""
    names = [c.value for c in Character]
    return said(N_("unknown card {word}; expected one of {cards}{hint}"), word=repr(word.strip()),
                cards=", ".join(names), hint=did_you_mean(word.strip(), names, cutoff))


def card_named(word: str, cutoff: float = 0.7) -> Character:
    """The card `word` names (any capitals, the engine's aliases); otherwise a
    `SaidValueError` (a pydantic validator may let it through; the move grammar rewraps it)."""
    try:
        return Character.parse(word)
    except ValueError:
        raise SaidValueError(unknown_card(word, cutoff)) from None


_NOTHING = Said("", catalogued=False)
