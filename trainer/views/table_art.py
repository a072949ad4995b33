"""The table drawn as HTML and CSS: seats with coins and cards, the court deck, the Treasury,
and the claims in the air as speech bubbles. Built from a `TableView`, so it can only draw what
the viewer may see: another player's face-down card is a card back, never a name. The
stylesheet is `css/table.css`.
"""

from __future__ import annotations

from functools import cache
from html import escape

from trainer.engine.cards import Allegiance, Character
from trainer.engine.explain import seat_name
from trainer.engine.names import allegiance_name, card_name
from trainer.engine.variants import parse_rules
from trainer.i18n import N_, current_language, tr, trc
from trainer.rulebook.reference import action_name, character_roles
from trainer.views.cardart import _vars, emblem_img
from trainer.views.styles import read_css
from trainer.views.table_view import Badge, SeatView, TableView

# A modified card's power in a word, for a card that has no room for the sentence.
_POWER_NAMES: dict[Character, str] = {
    Character.INHERITANCE: N_("Inheritance"),
    Character.VENGEANCE: N_("Vengeance"),
    Character.TREATY: N_("Treaty"),
}


def role_lines(variant_name: str) -> dict[str, tuple[str, str]]:
    """Per card of the rule set (a description, table rules and all): its action(s) and what
    it blocks, in a few words, in the reader's language."""
    return _role_lines(variant_name, current_language())


@cache
def _role_lines(variant_name: str, language: str) -> dict[str, tuple[str, str]]:
    out = {}
    for r in character_roles(parse_rules(variant_name).variant):
        acts = " · ".join(action_name(s.action) for s in r.actions)
        parts = []
        if r.blocks:
            parts.append(tr("blocks {actions}",
                            actions=" · ".join(action_name(s.action) for s in r.blocks)))
        if r.reduces:
            parts.append(tr("halves {actions}",
                            actions=" · ".join(action_name(s.action) for s in r.reduces)))
        if r.power:
            power = _POWER_NAMES.get(r.character)
            parts.append(tr(power) if power is not None else tr("claims a share"))
        out[r.name] = (acts or tr("No action"), " · ".join(parts))
    return out


def mini_card(name: str | None, state: str = "hidden",
              role: tuple[str, str] | None = None) -> str:
    """A small card: a back (name None), the viewer's own face-down card, or a face-up one,
    with its action and counteraction in a few words when `role` is given."""
    if name is None:
        return ('<div class="ct-mini ct-mini--back" data-card="back" '
                f'aria-label="{escape(tr("face-down card"))}"><span aria-hidden="true">C</span>'
                '</div>')
    shown = card_name(name)
    label = {"own": tr("{card}, your face-down card", card=shown),
             "revealed": tr("{card}, face-up, lost", card=shown)}.get(
        state, tr("{card}, card", card=shown))
    lines = ""
    title = escape(shown)
    if role is not None:
        lines = "".join(f'<span class="ct-mini__role">{escape(x)}</span>' for x in role if x)
        title = escape(f"{shown}: {role[0]}" + (f"; {role[1]}" if role[1] else ""))
    # The longest word's letters size the name to fit the card (css/table.css, .ct-mini__name).
    word = max(len(w) for w in shown.split())
    return (f'<div class="ct-mini ct-mini--{state}" style="{_vars(name)}" '
            f'data-card="{escape(name)}" aria-label="{escape(label)}" title="{title}">'
            f'{emblem_img(name)}<span class="ct-mini__name" style="--ct-word:{word}">'
            f'{escape(shown)}</span>{lines}</div>')


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

    def tag(kind: str, text: str) -> str:
        return f'<span class="ct-tag ct-tag--{kind}">{escape(text)}</span>'

    if s.is_viewer:
        tags.append(tag("me", trc("tag", "you")))
    if s.is_actor:
        tags.append(tag("turn", trc("tag", "turn")))
    if s.is_target:
        tags.append(tag("target", trc("tag", "target")))
    if s.is_decider:
        tags.append(tag("decide", trc("tag", "deciding")))
    if not s.alive:
        tags.append(tag("out", trc("tag", "exiled")))
    if s.allegiance:
        side = (allegiance_name(Allegiance(s.allegiance))
                if s.allegiance in (Allegiance.LOYALIST, Allegiance.REFORMIST) else s.allegiance)
        tags.append(tag("side", side))
    roles = roles or {}
    cards = "".join(mini_card(c, "own", roles.get(c)) if c else mini_card(None)
                    for c in s.hidden)
    cards += "".join(mini_card(c, "revealed", roles.get(c)) for c in s.revealed)
    bubbles = "".join(_bubble(b) for b in s.badges)
    return (
        f'<section class="{" ".join(classes)}" data-seat="{escape(s.name)}">'
        f'<header class="ct-seat__head"><span class="ct-seat__name">'
        f'{escape(seat_name(s.name))}</span>'
        f'{"".join(tags)}<span class="ct-coins" title="{escape(tr("coins"))}">'
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
        f'<div>{tr("<b>{n}</b> in the Court deck", n=view.deck_size)}</div></div>',
    ]
    coin = '<span class="ct-coin ct-coin--big"></span>'
    if view.treasury is not None:
        court.append(f'<div class="ct-pile" data-pile="treasury">{coin}'
                     f'<div>{tr("<b>{n}</b> in the Treasury", n=view.treasury)}</div></div>')
    else:
        court.append(f'<div class="ct-pile" data-pile="treasury">{coin}'
                     f'<div>{escape(tr("Treasury: unlimited"))}</div></div>')
    if view.reserve:
        court.append(f'<div class="ct-pile" data-pile="reserve">{coin}'
                     f'<div>{tr("<b>{n}</b> on the Reserve", n=view.reserve)}</div></div>')
    if view.mat_up or view.mat_face_down:
        mat = "".join(mini_card(c, "revealed") for c in view.mat_up)
        mat += "".join(mini_card(None) for _ in range(view.mat_face_down))
        court.append(f'<div class="ct-pile" data-pile="mat"><div class="ct-seat__cards">{mat}'
                     f'</div><div>{escape(tr("Event mat"))}</div></div>')
    if view.removed:
        court.append(f'<div class="ct-pile" data-pile="removed">{mini_card(None)}'
                     f'<div>{tr("<b>{n}</b> out of the game", n=view.removed)}</div></div>')
    if view.winner:
        status = escape(tr("{name} wins the game", name=seat_name(view.winner)))
    elif view.tie:
        status = escape(tr("The game ends in a tie"))
    else:
        status = escape(view.question or "")
    if view.draft_set:
        offer = "".join(mini_card(c, "own", roles.get(c)) for c in view.draft_set)
        court.append(f'<div class="ct-pile" data-pile="draft-set"><div class="ct-seat__cards">'
                     f'{offer}</div><div>{escape(tr("Your draft set: keep one"))}</div></div>')
    return (
        '<div class="ct-root"><div class="ct-table" role="group" '
        f'aria-label="{escape(tr("The table"))}">'
        f'<div class="ct-seats">{"".join(seat_html(s, roles) for s in others)}</div>'
        f'<div class="ct-court">{"".join(court)}</div>'
        f'<div class="ct-seats ct-seats--me">{"".join(seat_html(s, roles) for s in mine)}'
        f'</div>'
        f'<div class="ct-status" data-status="{"over" if view.winner or view.tie else "on"}">'
        f'{status}</div>{_private(view)}</div></div>'
    )


def _private(view: TableView) -> str:
    """What only the viewer saw this turn (the cards an exchange drew, a peek)."""
    notes = "".join(f"<li>{escape(n)}</li>" for n in view.private_notes)
    return (f'<ul class="ct-private" aria-label="{escape(tr("seen only by you"))}">{notes}</ul>'
            if notes else "")


def _compact_table(view: TableView, seats: list[SeatView],
                   roles: dict[str, tuple[str, str]]) -> str:
    court = (f'<span data-pile="deck">'
             f'{tr("<b>{n}</b> cards in the Court deck", n=view.deck_size)}</span>')
    if view.treasury is not None:
        court += (f'<span data-pile="treasury"><span class="ct-coin"></span> '
                  f'{tr("<b>{n}</b> in the Treasury", n=view.treasury)}</span>')
    status = ""
    if view.winner:
        status = (f'<div class="ct-status" data-status="over">'
                  f'{escape(tr("{name} wins", name=seat_name(view.winner)))}</div>')
    # What only the viewer sees (the cards an exchange drew, a draft set) stays on the table.
    private = _private(view)
    if view.draft_set:
        offer = "".join(mini_card(c, "own", roles.get(c)) for c in view.draft_set)
        private += (f'<div class="ct-pile" data-pile="draft-set"><div class="ct-seat__cards">'
                    f'{offer}</div><div>{escape(tr("Your draft set: keep one"))}</div></div>')
    return (
        '<div class="ct-root"><div class="ct-table ct-table--compact" role="group" '
        f'aria-label="{escape(tr("The table"))}">'
        f'<div class="ct-seats">{"".join(seat_html(s, roles) for s in seats)}</div>'
        f'<div class="ct-court">{court}</div>{private}{status}</div></div>'
    )


def character_overview(variant_name: str, cards: list[str]) -> str:
    """Each character with its card and, in a few words, what it does and blocks: the one
    screen a newcomer reads before claiming any of them."""
    roles = role_lines(variant_name)
    rows = "".join(
        f'<li class="ct-overview__row">{mini_card(c, "own")}<div><b>{escape(card_name(c))}</b>'
        f'<span>{escape(roles[c][0])}</span>'
        f'{f"<span>{escape(_capital(roles[c][1]))}</span>" if roles[c][1] else ""}</div></li>'
        for c in cards)
    return (f'<div class="ct-root"><ul class="ct-overview" '
            f'aria-label="{escape(tr("The characters"))}">{rows}</ul></div>')


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


TABLE_CSS = f"<style>\n{read_css('table.css')}</style>"
