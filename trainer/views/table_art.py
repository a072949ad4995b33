"""The table drawn as HTML and CSS: seats with coins and cards, the court deck, the Treasury,
and the claims in the air as speech bubbles. Built from a `TableView`, so it can only draw what
the viewer may see: another player's face-down card is a card back, never a name. The
stylesheet is `css/table.css`.
"""

from __future__ import annotations

from functools import cache
from html import escape

from trainer.engine.variants import parse_rules
from trainer.rulebook.reference import action_name, character_roles
from trainer.views.cardart import _vars, emblem_img
from trainer.views.styles import read_css
from trainer.views.table_view import Badge, SeatView, TableView


@cache
def role_lines(variant_name: str) -> dict[str, tuple[str, str]]:
    """Per card of the rule set (a description, table rules and all): its action(s) and what
    it blocks, in a few words."""
    out = {}
    for r in character_roles(parse_rules(variant_name).variant):
        acts = " · ".join(action_name(s.action) for s in r.actions)
        parts = []
        if r.blocks:
            parts.append("blocks " + " · ".join(action_name(s.action) for s in r.blocks))
        if r.reduces:
            parts.append("halves " + " · ".join(action_name(s.action) for s in r.reduces))
        if r.power:
            parts.append(r.power.split(":")[0] if ":" in r.power else "claims a share")
        out[r.name] = (acts or "No action", " · ".join(parts))
    return out


def mini_card(name: str | None, state: str = "hidden",
              role: tuple[str, str] | None = None) -> str:
    """A small card: a back (name None), the viewer's own face-down card, or a face-up one,
    with its action and counteraction in a few words when `role` is given."""
    if name is None:
        return ('<div class="ct-mini ct-mini--back" data-card="back" '
                'aria-label="face-down card"><span aria-hidden="true">C</span></div>')
    label = {"own": "your face-down card", "revealed": "face-up, lost"}.get(state, "card")
    lines = ""
    title = escape(name)
    if role is not None:
        lines = "".join(f'<span class="ct-mini__role">{escape(x)}</span>' for x in role if x)
        title = escape(f"{name}: {role[0]}" + (f"; {role[1]}" if role[1] else ""))
    # The longest word's letters size the name to fit the card (css/table.css, .ct-mini__name).
    word = max(len(w) for w in name.split())
    return (f'<div class="ct-mini ct-mini--{state}" style="{_vars(name)}" '
            f'data-card="{escape(name)}" aria-label="{escape(name)}, {label}" title="{title}">'
            f'{emblem_img(name)}<span class="ct-mini__name" style="--ct-word:{word}">'
            f'{escape(name)}</span>{lines}</div>')


def _bubble(b: Badge) -> str:
    cls = f"ct-bubble ct-bubble--{b.kind}" + (" ct-bubble--latest" if b.latest else "")
    return f'<div class="{cls}" data-kind="{b.kind}">{escape(b.text)}</div>'


def seat_html(s: SeatView, roles: dict[str, tuple[str, str]] | None = None) -> str:
    classes = ["ct-seat"]
    for flag, name in ((s.is_actor, "actor"), (s.is_decider, "decider"), (not s.alive, "out"),
                       (s.is_viewer, "me"), (s.is_target, "target")):
        if flag:
            classes.append(f"ct-seat--{name}")
    tags = []
    if s.is_viewer:
        tags.append('<span class="ct-tag ct-tag--me">you</span>')
    if s.is_actor:
        tags.append('<span class="ct-tag ct-tag--turn">turn</span>')
    if s.is_target:
        tags.append('<span class="ct-tag ct-tag--target">target</span>')
    if s.is_decider:
        tags.append('<span class="ct-tag ct-tag--decide">deciding</span>')
    if not s.alive:
        tags.append('<span class="ct-tag ct-tag--out">exiled</span>')
    if s.allegiance:
        tags.append(f'<span class="ct-tag ct-tag--side">{escape(s.allegiance)}</span>')
    roles = roles or {}
    cards = "".join(mini_card(c, "own", roles.get(c)) if c else mini_card(None)
                    for c in s.hidden)
    cards += "".join(mini_card(c, "revealed", roles.get(c)) for c in s.revealed)
    bubbles = "".join(_bubble(b) for b in s.badges)
    return (
        f'<section class="{" ".join(classes)}" data-seat="{escape(s.name)}">'
        f'<header class="ct-seat__head"><span class="ct-seat__name">{escape(s.name)}</span>'
        f'{"".join(tags)}<span class="ct-coins" title="coins">'
        f'<span class="ct-coin"></span>{s.coins}</span></header>'
        f'<div class="ct-seat__cards">{cards}</div>'
        f'<div class="ct-bubbles">{bubbles}</div></section>'
    )


def table_html(view: TableView, compact: bool = False) -> str:
    """The whole table: the other seats, the court in the middle, the viewer's seat below.

    `compact`: every seat on one row (the viewer's last), small cards, the court on one line
    and no status line; sized so a phone shows the table, a lesson's words and its buttons on
    one screen."""
    others = [s for s in view.seats if not s.is_viewer]
    mine = [s for s in view.seats if s.is_viewer]
    roles = role_lines(view.variant_name)
    if compact:
        return _compact_table(view, others + mine, roles)
    court = [
        f'<div class="ct-pile" data-pile="deck">{mini_card(None)}'
        f'<div><b>{view.deck_size}</b> in the Court deck</div></div>',
    ]
    if view.treasury is not None:
        court.append(f'<div class="ct-pile" data-pile="treasury"><span class="ct-coin '
                     f'ct-coin--big"></span><div><b>{view.treasury}</b> in the Treasury</div>'
                     f'</div>')
    else:
        court.append('<div class="ct-pile" data-pile="treasury"><span class="ct-coin '
                     'ct-coin--big"></span><div>Treasury: unlimited</div></div>')
    if view.reserve:
        court.append(f'<div class="ct-pile" data-pile="reserve"><span class="ct-coin '
                     f'ct-coin--big"></span><div><b>{view.reserve}</b> on the Reserve</div>'
                     f'</div>')
    if view.mat_up or view.mat_face_down:
        mat = "".join(mini_card(c, "revealed") for c in view.mat_up)
        mat += "".join(mini_card(None) for _ in range(view.mat_face_down))
        court.append(f'<div class="ct-pile" data-pile="mat"><div class="ct-seat__cards">{mat}'
                     f'</div><div>Event mat</div></div>')
    if view.removed:
        court.append(f'<div class="ct-pile" data-pile="removed">{mini_card(None)}'
                     f'<div><b>{view.removed}</b> out of the game</div></div>')
    if view.winner:
        status = f"{escape(view.winner)} wins the game"
    elif view.tie:
        status = "The game ends in a tie"
    else:
        status = escape(view.question or "")
    if view.draft_set:
        offer = "".join(mini_card(c, "own", roles.get(c)) for c in view.draft_set)
        court.append(f'<div class="ct-pile" data-pile="draft-set"><div class="ct-seat__cards">'
                     f'{offer}</div><div>Your draft set: keep one</div></div>')
    notes = "".join(f'<li>{escape(n)}</li>' for n in view.private_notes)
    private = (f'<ul class="ct-private" aria-label="seen only by you">{notes}</ul>'
               if notes else "")
    return (
        '<div class="ct-root"><div class="ct-table" role="group" aria-label="The table">'
        f'<div class="ct-seats">{"".join(seat_html(s, roles) for s in others)}</div>'
        f'<div class="ct-court">{"".join(court)}</div>'
        f'<div class="ct-seats ct-seats--me">{"".join(seat_html(s, roles) for s in mine)}'
        f'</div>'
        f'<div class="ct-status" data-status="{"over" if view.winner or view.tie else "on"}">'
        f'{status}</div>{private}</div></div>'
    )


def _compact_table(view: TableView, seats: list[SeatView],
                   roles: dict[str, tuple[str, str]]) -> str:
    court = f'<span data-pile="deck"><b>{view.deck_size}</b> cards in the Court deck</span>'
    if view.treasury is not None:
        court += (f'<span data-pile="treasury"><span class="ct-coin"></span> '
                  f'<b>{view.treasury}</b> in the Treasury</span>')
    status = ""
    if view.winner:
        status = f'<div class="ct-status" data-status="over">{escape(view.winner)} wins</div>'
    # What only the viewer sees (the cards an exchange drew, a draft set) stays on the table.
    notes = "".join(f"<li>{escape(n)}</li>" for n in view.private_notes)
    private = (f'<ul class="ct-private" aria-label="seen only by you">{notes}</ul>'
               if notes else "")
    if view.draft_set:
        offer = "".join(mini_card(c, "own", roles.get(c)) for c in view.draft_set)
        private += (f'<div class="ct-pile" data-pile="draft-set"><div class="ct-seat__cards">'
                    f'{offer}</div><div>Your draft set: keep one</div></div>')
    return (
        '<div class="ct-root"><div class="ct-table ct-table--compact" role="group" '
        'aria-label="The table">'
        f'<div class="ct-seats">{"".join(seat_html(s, roles) for s in seats)}</div>'
        f'<div class="ct-court">{court}</div>{private}{status}</div></div>'
    )


def character_overview(variant_name: str, cards: list[str]) -> str:
    """Each character with its card and, in a few words, what it does and blocks: the one
    screen a newcomer reads before claiming any of them."""
    roles = role_lines(variant_name)
    rows = "".join(
        f'<li class="ct-overview__row">{mini_card(c, "own")}<div><b>{escape(c)}</b>'
        f'<span>{escape(roles[c][0])}</span>'
        f'{f"<span>{escape(_capital(roles[c][1]))}</span>" if roles[c][1] else ""}</div></li>'
        for c in cards)
    return (f'<div class="ct-root"><ul class="ct-overview" aria-label="The characters">'
            f'{rows}</ul></div>')


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


TABLE_CSS = f"<style>\n{read_css('table.css')}</style>"
