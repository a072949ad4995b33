"""Absolute links to this app that another device can open: a QR on a shop's screen or on a
classroom projector is read by a phone, which cannot reach "localhost".

Why the LAN address: a kiosk or a class is often served from the machine in front of the
screen and opened there as http://localhost:8501. A phone on the same network reaches that
machine by its LAN address, which the operating system says when asked which interface
would carry a UDP packet to an outside address (`connect` on a UDP socket sends nothing). The
server must then listen on that interface too (`--server.address 0.0.0.0`).
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import streamlit as st

from trainer.views import room_text

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0", "::"})
# Any routable address will do: nothing is sent to it.
_PROBE = ("10.255.255.255", 1)


def lan_address() -> str | None:
    """This machine's address on the local network, or None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_PROBE)
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def is_loopback(host: str) -> bool:
    return host.lower() in LOOPBACK or host.startswith("127.")


def base_url(url: str | None, *, lan: str | None, port: int, base_path: str = "") -> str:
    """The app's absolute address from the address the browser shows (`url`, None when not
    known): its scheme, host and port, the host swapped for `lan` when it is this machine's
    loopback, and the server's `base_path`; no trailing slash. Without `url`, plain HTTP on
    `port`."""
    parts = urlsplit(url) if url else None
    scheme = (parts.scheme if parts is not None else "") or "http"
    host = (parts.hostname if parts is not None else None) or "localhost"
    shown_port = parts.port if parts is not None else port
    if is_loopback(host) and lan:
        host = lan
    netloc = f"[{host}]" if ":" in host else host
    if shown_port is not None:
        netloc += f":{shown_port}"
    path = base_path.strip("/")
    return f"{scheme}://{netloc}" + (f"/{path}" if path else "")


def public_base_url() -> str:
    """The address a phone opens this app by, with no trailing slash: the browser's scheme,
    host and port (http://localhost:8501 becomes this machine's LAN address, e.g.
    http://192.168.1.20:8501) and the server's base path. Append a page's url_path and
    query to link to a page."""
    return base_url(st.context.url, lan=lan_address(),
                    port=int(st.get_option("server.port")),
                    base_path=str(st.get_option("server.baseUrlPath") or ""))


# The address browsers reach this process through, when a load balancer listens in front of it
# and the process itself only on loopback (`python -m trainer serve --workers N` sets it).
PUBLIC_ADDRESS_ENV = "COUP_TRAINER_PUBLIC_ADDRESS"


def lan_command() -> str:
    """The command that opens this app to the network: `make serve`'s when several
    processes serve it behind HAProxy (`python -m trainer serve` sets the public address),
    else `make run`'s."""
    served = bool(os.environ.get(PUBLIC_ADDRESS_ENV, "").strip())
    return room_text.SERVE_LAN_COMMAND if served else room_text.LAN_COMMAND


def reachable_from_lan() -> bool:
    """Whether other devices can open this server: False when it listens on loopback only
    (`--server.address 127.0.0.1`), so a page can say so before a class scans a QR code that
    leads nowhere. Behind `python -m trainer serve`'s HAProxy, what counts is the address
    HAProxy listens on ($COUP_TRAINER_PUBLIC_ADDRESS), not the worker's own."""
    address = (os.environ.get(PUBLIC_ADDRESS_ENV, "").strip()
               or str(st.get_option("server.address") or "")).lower()
    return not (address in ("localhost", "::1") or address.startswith("127."))
