"""Who is answering: a name or an anonymous id, kept in the page address.

Why the address: what a page remembers dies with the browser tab and with a server restart; a
`?learner=` parameter survives both (and a bookmark), so the database can give a returning
learner their history back without accounts or passwords. The parameter is read from the
browser, so it is validated like any other input.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import MutableMapping
from typing import Any

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,39}$")
EXPECTED = "1 to 40 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit"
# Where the name a learner types waits for "Use this name", and why it was refused.
TYPED = "new_name"
REFUSED = "name_error"


def check_learner(name: str) -> str:
    name = name.strip()
    if not _NAME.match(name):
        raise ValueError(f"{name!r} is not a learner name: expected {EXPECTED}")
    return name


def anonymous() -> str:
    return f"guest-{secrets.token_hex(3)}"


def resolve(params: MutableMapping[str, Any], state: MutableMapping[str, Any]
            ) -> tuple[str, str | None]:
    """The learner of this page view, and a warning when the address held a bad name.

    Order: the address, then what this tab remembers, then a new anonymous id. The result is
    written back to both, so the address can be bookmarked and other pages keep it."""
    warning = None
    given = params.get("learner")
    if given:
        try:
            learner = check_learner(str(given))
        except ValueError as e:
            warning = f"{e}. Using {'the name in use' if state.get('learner') else 'a guest id'}."
        else:
            state["learner"] = learner
            return learner, None
    learner = state.get("learner") or anonymous()
    state["learner"] = learner
    params["learner"] = learner
    return learner, warning


def rename(params: MutableMapping[str, Any], state: MutableMapping[str, Any]) -> bool:
    """Take the name typed under `TYPED` as the learner's, in this tab and in the address (a
    bookmark keeps it). A bad name is refused with what is expected, under `REFUSED`, and the
    learner stays who they were. True when the name was taken."""
    try:
        name = check_learner(str(state.get(TYPED, "")))
    except ValueError as e:
        state[REFUSED] = str(e)
        return False
    state.pop(REFUSED, None)
    state["learner"] = name
    params["learner"] = name
    return True
