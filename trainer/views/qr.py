"""QR codes as inline SVG images: a classroom or shop LAN may have no internet, so nothing is
fetched to show one, and SVG stays sharp at projector size.

Why a data-URI image rather than an <svg> element: Streamlit's HTML sanitiser keeps <img> with
a data: source, and an image scales as one block however the page's CSS treats SVG.
"""

from __future__ import annotations

import base64
import html

import segno


def qr_svg(link: str, *, size_px: int = 320, dark: str = "#15100f", light: str = "#f3ead8",
           label: str | None = None) -> str:
    """An image encoding `link`, `size_px` wide, dark modules on a light quiet zone (phones
    read dark-on-light far more reliably than the reverse). `label` becomes its alt text;
    the link itself by default."""
    code = segno.make(link, error="m")
    svg = code.svg_inline(scale=1, border=2, dark=dark, light=light, omitsize=True)
    svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1) \
        if "xmlns=" not in svg else svg
    data = base64.b64encode(svg.encode()).decode()
    name = html.escape(label if label is not None else link, quote=True)
    return (f'<img class="coup-qr" role="img" aria-label="{name}" alt="{name}" '
            f'src="data:image/svg+xml;base64,{data}" '
            f'style="width:{size_px}px;max-width:100%;height:auto;display:block;'
            f'image-rendering:pixelated">')
