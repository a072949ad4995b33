"""Every word a person reads, in the visitor's language: English or Filipino.

Why one package at the bottom of the layers: the engine's move sentences, a lesson's
narration, a grade's headline and a button's label are all read by the same person, so they
come from one catalogue (`locales/<language>.po`, gettext's format, read with Babel) through
one function, and every layer above may call it. English is the source: a message's English
text is its key, so the code reads as it renders, and a message with no translation is
reported by `python -m trainer i18n check` (and by the tests) instead of silently shown in
English.

    tr("Join the game")                       -> "Sumali sa laro"
    tr("{name} claims the Duke.", name="Ann") -> the sentence with the name put in
    tr_n("{n} coin", "{n} coins", 3)          -> the plural form the language's rule picks
    N_("Open a game table")                   -> the text unchanged, marked for the catalogue

Which language: `use_language` for a block of code (tests, the command line, a thread), or,
in the app, the visitor's choice read by a resolver the Streamlit layer registers
(`set_resolver`), so two visitors in two languages on one server each see their own.
"""

from trainer.i18n.core import (
    N_,
    current_language,
    set_resolver,
    tr,
    tr_n,
    trc,
    use_language,
)
from trainer.i18n.languages import DEFAULT, LANGUAGES, PSEUDO, Language, language_named

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "Language",
    "current_language",
    "language_named",
    "set_resolver",
    "tr",
    "tr_n",
    "trc",
    "use_language",
]
