"""The words of the host's remote and of the screen view's links, and the button that copies
the remote's link without showing it.

Why the remote link is copied and never printed: whatever the host's page shows may end up
on the projector (a mirrored laptop, a shared tab), and the remote link carries the host
key, with which anyone could reveal, remove people, end the room and read every answer.
"""

from __future__ import annotations

import html
import json
from urllib.parse import urlencode

from trainer.i18n import N_, tr

REMOTE_TITLE = N_("Your remote for room {code}")
REMOTE_INTRO = N_("Start, reveal and move on from here: this page is your remote. Put the "
                  "**screen view** on the projector; it shows the room and never this page's "
                  "controls or key.")
PROJECT_THIS = N_("Open the screen view (project this)")
PROJECT_HELP = N_("A page for the projector: the join code, the questions, the count and, when "
                  "you reveal, the room's answers. Its address holds a screen key that shows "
                  "the room and controls nothing.")
NOT_THIS_PAGE = N_("Do not project this page: its address holds your host key. Project the "
                   "screen view instead.")
PHONE_REMOTE = N_("Use your phone as the remote")
PHONE_REMOTE_NOTE = N_("Copy the remote's link into a message to yourself, or show its QR code "
                       "here (not on the projector) and scan it with your phone.")
COPY = N_("Copy the remote's link")
COPIED = N_("Copied: paste it only where the class cannot see it.")
COPY_FAILED = N_("This browser did not allow copying; show the QR code instead.")
SHOW_QR = N_("Show the remote's QR code")
HIDE_QR = N_("Hide the QR code")
QR_NOTE = N_("Scan with your phone. The code hides itself once a phone opens the remote.")
QR_SCANNED = N_("A phone opened the remote, so the QR code is hidden again.")
QR_TIMED_OUT = N_("The QR code was hidden after {seconds} seconds.")
EXPIRED_SCREEN = N_("Room {code} has expired. The host can reopen it from the remote; this "
                    "screen follows.")
OLD_LINK = N_("This host link now opens your **remote**. Open the screen view below on the "
              "projector; it shows the room to the class and carries no host key.")
LOBBY_STATUS = N_("In the lobby: {joined}. Press **Start** when everyone is in.")
QUESTION_STATUS = N_("{header}: {count}.")
REVEALED_STATUS = N_("{header}: revealed on the screen ({count}).")
FINISHED_STATUS = N_("The room has finished; the screen shows how it did.")


def query(**params: str) -> str:
    """A Room page's query string."""
    return urlencode(params)


def copy_button_html(link: str, label: str | None = None) -> str:
    """A button that puts `link` on the clipboard and says so; the link is in the script,
    never in the page's text. Falls back to a hidden text area and `execCommand` where the
    clipboard API is missing (a page served over plain HTTP on the LAN is not a secure
    context, and `navigator.clipboard` is undefined there)."""
    label = tr(COPY) if label is None else label
    copied, failed = tr(COPIED), tr(COPY_FAILED)
    return f"""<style>body{{margin:0}}
#copy{{width:100%;min-height:2.5rem;padding:.25rem .75rem;border-radius:.5rem;
 border:1px solid rgba(250,250,250,.2);background:transparent;color:#fafafa;
 font:400 1rem "Source Sans","Source Sans Pro",system-ui,sans-serif;cursor:pointer}}
#copy:hover{{border-color:#d9a84e;color:#d9a84e}}</style>
<div style="font-family:'Source Sans','Source Sans Pro',system-ui,sans-serif">
<button id="copy" type="button">{html.escape(label)}</button>
<p id="said" role="status" style="color:#c8c8c8;margin:.35rem 0 0;font-size:.9rem"></p>
<script>
const link = {json.dumps(link)};
const said = document.getElementById("said");
function fallback() {{
  const area = document.createElement("textarea");
  area.value = link; area.setAttribute("readonly", "");
  area.style.position = "fixed"; area.style.opacity = "0";
  document.body.appendChild(area); area.select();
  let ok = false;
  try {{ ok = document.execCommand("copy"); }} catch (e) {{ ok = false; }}
  area.remove();
  return ok;
}}
document.getElementById("copy").addEventListener("click", async () => {{
  let ok = false;
  try {{ await navigator.clipboard.writeText(link); ok = true; }}
  catch (e) {{ ok = fallback(); }}
  said.textContent = ok ? {json.dumps(copied)} : {json.dumps(failed)};
}});
</script></div>"""
