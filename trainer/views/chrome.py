"""What every page shows around itself: the page menu for narrow screens and the large-type
switch, as words and one stylesheet (no Streamlit; `trainer.ui.chrome` draws them).

Why large type lives in the address: a host sets it once for a projector and shares the link;
`?large=1` opens any page in large type, and the router writes it back after every page switch
(Streamlit's navigation drops query parameters).
"""

from __future__ import annotations

from trainer.i18n import N_
from trainer.views.styles import read_css

LARGE_PARAM = "large"
OLD_LARGE_PARAM = "large_type"  # links shared before the switch moved to the router
LARGE_LABEL = N_("Large type")
LARGE_HELP = N_("Bigger text on every page, for a projector or a room. Kept in the address.")
MENU_LABEL = N_("Menu")
MENU_HELP = N_("Every page of the trainer.")

_ON = frozenset({"1", "true", "yes", "on"})
_OFF = frozenset({"0", "false", "no", "off"})


def large_from_address(value: object) -> bool | None:
    """What `?large=` asks for: True, False, or None when it says nothing readable (absent,
    empty, repeated or unknown values are ignored rather than guessed)."""
    if not isinstance(value, str):
        return None
    word = value.strip().lower()
    return True if word in _ON else False if word in _OFF else None


def stylesheet(large: bool) -> str:
    """The chrome's <style> block, with large type when asked (sent before any page's)."""
    return f"<style>{read_css('chrome.css')}{read_css('large.css') if large else ''}</style>"
