"""Kiosk: a shop window's screen. A loop of lessons and solved decisions plays by itself in
large type, each with a QR that opens it on a visitor's phone; "Try it" turns the screen into
one decision to answer, and a minute without a touch brings the loop back."""

from trainer.ui import kiosk
from trainer.ui.router import hand_over

hand_over("pages/kiosk.py", "kiosk")

kiosk.style()
deck = kiosk.deck()
if kiosk.mode() == "station":
    kiosk.station(deck)
else:
    kiosk.loop(deck)
