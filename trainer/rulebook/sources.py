"""The rule texts a scenario may quote, and a check that a quote really is in its text.

Why: a lesson that quotes the rulebook is only as good as the quote. Misquoting (or quoting the
wrong file) is easy when copying by hand, so the scenario checker looks every quote up in its
source whenever the texts are available on this machine.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from trainer.i18n import N_
from trainer.i18n.said import Said, said
from trainer.paths import CHECKOUT

# The five texts of shared/rules beside the checkout (see its README.md), by file name.
RULE_SOURCES: dict[str, str] = {
    "000_6e655cddb6a19b32.txt": N_("McGuire house rules and strategy advice"),
    "001_efafd3cbf19ea30b.txt": N_("the official rulebook (core game and Reformation)"),
    "002_85f950dd113ab156.txt": N_("a play-by-post forum variant"),
    "003_696deabcbb3041af.txt": N_("Treason, an open-source web version"),
    "004_7a51b40b357838ae.txt": N_("the Philippine edition's English rulebook (with the "
                                   "example play)"),
}

RULES_DIR_ENV = "COUP_RULES_DIR"
# The project's rule texts live in shared/rules next to the checkout (also in CI).
_DEFAULT_DIRS = ((CHECKOUT.parent / "shared" / "rules", CHECKOUT / "rules") if CHECKOUT
                 else (Path.cwd() / "rules",))


def rules_dir() -> Path | None:
    """Where the rule texts are: $COUP_RULES_DIR, else ../shared/rules beside the checkout,
    else ./rules; None when none of them holds the texts (quotes are then not checked)."""
    env = os.environ.get(RULES_DIR_ENV)
    candidates = (Path(env),) if env else _DEFAULT_DIRS
    for d in candidates:
        if d.is_dir() and any((d / name).is_file() for name in RULE_SOURCES):
            return d
    return None


def normalise(text: str) -> str:
    """Fold the differences a copy by hand introduces: curly quotes, dashes, spacing, case."""
    text = (text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"')
            .replace("\u201d", '"').replace("\u2013", "-").replace("\u2014", "-"))
    text = re.sub(r"[*_#>`]", "", text)  # markdown emphasis in 001 ("__Note:__")
    return re.sub(r"\s+", " ", text).strip().lower()


def quote_in_text(quote: str, text: str) -> bool:
    """True if `quote` appears in `text`; "..." in a quote stands for left-out words."""
    haystack = normalise(text)
    pos = 0
    for part in re.split(r"\.\.\.|\u2026", quote):
        part = normalise(part)
        if not part:
            continue
        found = haystack.find(part, pos)
        if found < 0:
            return False
        pos = found + len(part)
    return True


def missing_quote(quote: str, source: str, directory: Path) -> Said | None:
    """None if the quote is in the source file; otherwise what is wrong, worded when shown
    (`.words()`, in the reader's language: the lesson library is checked once, in English)."""
    path = directory / source
    if not path.is_file():
        return said(N_("the rule text {source} is not in {directory}"), source=source,
                    directory=str(directory))
    if quote_in_text(quote, path.read_text(encoding="utf-8")):
        return None
    return said(N_("the quote {quote} is not in {source}; copy it word for word (use ... for "
                   "left-out words)"), quote=repr(_short(quote)), source=source)


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"
