"""QR codes drawn as inline SVG: a classroom or shop LAN may have no internet, so nothing is
fetched to show one, and SVG stays sharp at projector size."""

from __future__ import annotations

import html

import segno


def qr_svg(link: str, *, size_px: int = 320, dark: str = "#15100f", light: str = "#f3ead8",
           label: str | None = None) -> str:
    """An SVG element encoding `link`, `size_px` wide, light quiet zone around dark modules
    (phones read dark-on-light far more reliably than the reverse). `label` becomes its
    accessible name; the link itself by default."""
    code = segno.make(link, error="m")
    svg = code.svg_inline(scale=1, border=2, dark=dark, light=light, omitsize=True)
    svg = svg.replace("<svg ", '<svg style="width:100%;height:auto;display:block" ', 1)
    name = html.escape(label if label is not None else link, quote=True)
    return (f'<div class="coup-qr" role="img" aria-label="{name}" '
            f'style="width:{size_px}px;max-width:100%;line-height:0">{svg}</div>')
