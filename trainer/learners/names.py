"""Display names: what the page calls a learner, kept apart from the key their answers are
saved under.

Why apart: when the typed name was the key, anyone who typed "ann" in another browser saw
Ann's answers. The key is now a random per-browser id (`trainer.learners.identity`); a name is
only shown, so two browsers may both call their learner "Ann" without meeting.

Answers saved before that change are keyed by a name ("ann") or a guest id ("guest-b38f30");
`is_old_key` recognises those keys, which a `?learner=` link still opens.
"""

from __future__ import annotations

import hashlib
import re

from trainer.i18n import N_, tr

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,39}$")
EXPECTED = N_("1 to 40 letters, digits, spaces, '.', '_' or '-', starting with a letter or "
              "digit")
MAX_NAME = 40


def check_name(name: str) -> str:
    """The name, trimmed; a ValueError saying what is expected when it is not a name."""
    name = name.strip()
    if not _NAME.match(name):
        raise ValueError(tr("That is not a name: expected {expected}", expected=tr(EXPECTED)))
    return name


def is_old_key(key: str) -> bool:
    """Whether `key` has the form of the keys answers were saved under before browser ids (a
    typed name or a guest id). A browser id has that form too: check for one first
    (`trainer.learners.identity.is_browser_id`)."""
    return bool(_NAME.match(key))


def default_name(key: str) -> str:
    """The name a learner is shown under until they choose one: "Guest" and four characters
    derived from the key (a hash, so the name gives nothing of the key away), in the reader's
    language."""
    return tr("Guest {code}", code=hashlib.sha256(key.encode()).hexdigest()[:4].upper())
