"""Room codes, seat and host tokens, and the rotating screen code.

Why four kinds of secret: the room code is read aloud and typed on phones, so it is short
and unambiguous, and anyone in the room knows it. Control of the room therefore rests on a
separate host token that cannot be derived from the code (random, 192 bits, stored only as a
hash), and a participant's seat on a seat token of their own. The projected screen has a screen
token that shows the room and controls nothing (`screen_token`). The optional screen code rotates
every half minute and is shown only on the presenter screen: a code passed on outside the
room is useless a minute later. It has six digits, and the store counts a room's wrong codes
and makes joins wait after a few: four digits with nothing counted were guessed in 13 s.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time

from trainer.i18n import tr

# No 0/O, 1/I/L: a code is read off a projector and typed on a phone.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
_CODE = re.compile(f"^[{ALPHABET}]{{{CODE_LENGTH}}}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
SCREEN_CODE_SECONDS = 30
SCREEN_CODE_DIGITS = 6  # a million codes; wrong ones are counted per room (store.join)


def new_room_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(typed: str) -> str:
    """What a person typed, as a code: spaces and dashes dropped, upper case."""
    return re.sub(r"[\s-]", "", typed).upper()


def is_room_code(code: str) -> bool:
    return bool(_CODE.match(code))


def code_problem(typed: str) -> str | None:
    """Why `typed` is not a room code, in words for a phone; None when it is one."""
    code = normalise_code(typed)
    if not code:
        return tr("Type the room code shown on the screen: {length} letters and digits.",
                  length=CODE_LENGTH)
    if len(code) != CODE_LENGTH:
        return tr("A room code has {length} letters and digits; {typed} has {count}.",
                  length=CODE_LENGTH, typed=repr(typed.strip()), count=len(code))
    bad = sorted({c for c in code if c not in ALPHABET})
    if bad:
        return tr("A room code never contains {letters} (no 0, 1, O, I or L, so they are not "
                  "confused); check the code on the screen.", letters=", ".join(bad))
    return None


def new_token() -> str:
    """A seat or host token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def is_token(value: str) -> bool:
    return bool(_TOKEN.match(value))


def screen_token(join_secret: str) -> str:
    """The presenter screen's key, derived from the room's join secret (which never leaves
    the server): it lets a page show what the class may see, the rotating screen code among
    it, and nothing else. Why a key of its own: the projector's address is on view, so it
    must never carry the host key, and why derived: no new column, and a room made before
    it has one too."""
    digest = hmac.new(join_secret.encode(), b"presenter-screen", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def token_hash(token: str) -> str:
    """What the database keeps of a host token: a leaked table gives no control of a room."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_token(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(token_hash(token), stored_hash)


def screen_code(secret: str, at: float | None = None) -> str:
    """The screen code of the half minute `at` falls in (now by default)."""
    window = int((time.time() if at is None else at) // SCREEN_CODE_SECONDS)
    digest = hmac.new(secret.encode(), str(window).encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest[:4], "big") % 10 ** SCREEN_CODE_DIGITS
    return f"{number:0{SCREEN_CODE_DIGITS}d}"


def screen_code_ok(secret: str, typed: str, at: float | None = None) -> bool:
    """The current code, or the one before it: a phone that read it just before it changed
    still gets in."""
    now = time.time() if at is None else at
    typed = typed.strip()
    return any(hmac.compare_digest(screen_code(secret, now - back), typed)
               for back in (0, SCREEN_CODE_SECONDS))
