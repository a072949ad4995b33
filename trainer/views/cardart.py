"""The app's card art and reference panels as HTML strings (no Streamlit, no external assets).

Card faces are drawn with CSS (`css/cards.css`) and small inline SVG emblems written here, so
the app needs no images and no hosting. Every piece of text is escaped with `html.escape`. All
classes start with `ct-`; `stylesheet()` returns the one <style> block the panels need, so a
page emits it once.

Used by the Rules page today and meant for the Learn page: `card_face` draws one character,
`card_grid` a row of them.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from trainer.engine.cards import ROLES, Character
from trainer.engine.names import card_name
from trainer.i18n import tr
from trainer.rulebook.reference import (
    ActionRow,
    CharacterRole,
    Fact,
    OptionRow,
    Step,
    action_name,
    first_sentence,
    source_label,
)
from trainer.rulebook.sources import RULE_SOURCES
from trainer.rulebook.variant_rules import VariantRule
from trainer.views.styles import read_css

# ------------------------------------------------------------------------------- palette

GOLD = "#d9a84e"
IVORY = "#f6e3b4"
PARCHMENT = "#f5ecd7"
INK = "#24190f"


@dataclass(frozen=True, slots=True)
class Look:
    """How a character's card is painted: a light and a dark tone, and an emblem."""

    light: str
    dark: str
    emblem: str  # key into EMBLEMS


LOOKS: dict[str, Look] = {
    "Duke": Look("#6f3fa0", "#2c1445", "crown"),
    "Assassin": Look("#4a474f", "#131215", "dagger"),
    "Captain": Look("#2f68b3", "#122a52", "anchor"),
    "Ambassador": Look("#2f8150", "#10381f", "letter"),
    "Contessa": Look("#b8283d", "#4c0b17", "fan"),
    # Reformation / Inquisitor characters, ready for variants that add them.
    "Inquisitor": Look("#1f7a7a", "#0b3434", "eye"),
    "Graverobber": Look("#7a5a2f", "#33240f", "spade"),
}

_SPARE = (("#8a5a2b", "#3a2410"), ("#5d6b2f", "#262d11"), ("#7a2f6b", "#33112c"),
          ("#2f5f7a", "#112a38"))


def look(character: Character | str) -> Look:
    """The look of a character; unknown characters get a stable colour and a shield."""
    name = str(character)
    if name in LOOKS:
        return LOOKS[name]
    if name in ROLES:  # a modified card looks like its character
        return LOOKS[ROLES[name]]
    light, dark = _SPARE[hashlib.sha1(name.encode()).digest()[0] % len(_SPARE)]
    return Look(light, dark, "shield")


# Emblems: 64×64 viewBox, drawn in currentColor; `emblem_img` paints them ivory on the card.
_STROKE = ('fill="none" stroke="currentColor" stroke-width="4" stroke-linecap="round" '
           'stroke-linejoin="round"')
EMBLEMS: dict[str, str] = {
    "crown": (
        '<path d="M10 46 L8 20 L21 31 L32 12 L43 31 L56 20 L54 46 Z" fill="currentColor"/>'
        '<rect x="9" y="49" width="46" height="6" rx="2" fill="currentColor"/>'
        '<circle cx="8" cy="18" r="3.5" fill="currentColor"/>'
        '<circle cx="32" cy="10" r="3.5" fill="currentColor"/>'
        '<circle cx="56" cy="18" r="3.5" fill="currentColor"/>'
    ),
    "dagger": (
        '<path d="M32 4 L38 13 L36 39 L28 39 L26 13 Z" fill="currentColor"/>'
        '<rect x="17" y="39" width="30" height="5" rx="2.5" fill="currentColor"/>'
        '<rect x="29" y="44" width="6" height="11" rx="1.5" fill="currentColor"/>'
        '<circle cx="32" cy="58" r="4" fill="currentColor"/>'
    ),
    "anchor": (
        f'<circle cx="32" cy="11" r="5" {_STROKE}/>'
        f'<path d="M32 16 V56 M21 25 H43 M11 36 C12 50 22 56 32 56 C42 56 52 50 53 36" '
        f'{_STROKE}/>'
        f'<path d="M7 41 L11 35 L17 39 M57 41 L53 35 L47 39" {_STROKE}/>'
    ),
    "letter": (
        f'<rect x="8" y="15" width="48" height="34" rx="3" {_STROKE}/>'
        f'<path d="M9 17 L32 35 L55 17" {_STROKE}/>'
        '<circle cx="32" cy="41" r="7" fill="currentColor"/>'
    ),
    "fan": (
        '<path d="M32 54 L6 30 A36 36 0 0 1 58 30 Z" fill="currentColor"/>'
        '<path d="M32 54 L14 21 M32 54 L23 15 M32 54 L32 13 M32 54 L41 15 M32 54 L50 21" '
        'stroke="@DARK@" stroke-width="2.2" stroke-linecap="round"/>'
        '<circle cx="32" cy="54" r="4" fill="currentColor"/>'
    ),
    "eye": (
        f'<path d="M4 32 C14 16 50 16 60 32 C50 48 14 48 4 32 Z" {_STROKE}/>'
        '<circle cx="32" cy="32" r="8" fill="currentColor"/>'
    ),
    "spade": (
        '<path d="M32 6 L46 20 V34 H18 V20 Z" fill="currentColor"/>'
        '<rect x="29" y="34" width="6" height="18" rx="2" fill="currentColor"/>'
        '<rect x="21" y="50" width="22" height="6" rx="3" fill="currentColor"/>'
    ),
    "shield": (
        '<path d="M32 6 L54 14 V30 C54 44 44 53 32 58 C20 53 10 44 10 30 V14 Z" '
        'fill="currentColor"/>'
    ),
}


def emblem_svg(character: Character | str, colour: str = IVORY) -> str:
    """The character's emblem as a standalone SVG document drawn in `colour`."""
    lk = look(character)
    body = EMBLEMS[lk.emblem].replace("@DARK@", lk.dark).replace("currentColor", colour)
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">{body}</svg>'


def emblem_img(character: Character | str) -> str:
    """The emblem as an <img> with an inline data URI: st.html sanitises away inline <svg>,
    and a data URI needs no file or hosting. Decorative, so the alt text is empty."""
    data = base64.b64encode(emblem_svg(character).encode()).decode()
    return f'<img class="ct-emblem" alt="" src="data:image/svg+xml;base64,{data}">'


def _vars(character: Character | str) -> str:
    lk = look(character)
    return f"--ct-light:{lk.light};--ct-dark:{lk.dark};"


def chip(character: Character | str) -> str:
    """A small coloured name tag for a character, for tables and lists."""
    return (f'<span class="ct-chip" style="{_vars(character)}">'
            f'<span class="ct-chip__dot"></span>{escape(card_name(character))}</span>')


# ---------------------------------------------------------------------------- card faces


def card_face(role: CharacterRole, copies: int | None = None) -> str:
    """One character card: name, emblem, what it does and what it blocks.

    `copies` (cards of this character in the Court deck) is printed at the foot when given.
    """
    name = escape(role.title)
    ident = escape(role.name)

    def line(tag: str, body: str) -> str:
        return (f'<div class="ct-card__line"><span class="ct-card__tag">{escape(tag)}</span>'
                f'{body}</div>')

    def none(text: str) -> str:
        return f'<span class="ct-card__none">{escape(text)}</span>'

    lines = []
    if role.actions:
        for spec in role.actions:
            lines.append(line(tr("Action"), f'<b>{escape(action_name(spec.action))}</b> '
                                             f'{escape(first_sentence(tr(spec.effect)))}'))
    else:
        lines.append(line(tr("Action"), none(tr("No action of its own"))))
    if role.reduces:
        reduced = " · ".join(f"<b>{escape(action_name(s.action))}</b>" for s in role.reduces)
        lines.append(line(tr("Reduces"), tr("{actions} to 1 coin", actions=reduced)))
    if role.power:
        lines.append(line(tr("Power"), escape(role.power)))
    if role.blocks:
        blocked = " · ".join(f"<b>{escape(action_name(s.action))}</b>" for s in role.blocks)
        lines.append(line(tr("Blocks"), blocked))
    elif role.reduces or role.power:
        pass
    else:
        lines.append(line(tr("Blocks"), none(tr("Nothing"))))
    foot = (f'<div class="ct-card__foot">'
            f'{escape(tr("{n} in the Court deck", n=copies))}</div>'
            if copies is not None else "")
    return (
        f'<article class="ct-card" style="{_vars(role.character)}" '
        f'aria-label="{escape(tr("{card} card", card=role.title))}" data-character="{ident}">'
        f'<div class="ct-card__name">{name}</div>'
        f'<div class="ct-card__art"><div class="ct-card__medal">{emblem_img(role.character)}'
        f'</div></div>'
        f'<div class="ct-card__text">{"".join(lines)}</div>'
        f'{foot}</article>'
    )


def card_grid(roles: Iterable[CharacterRole],
              copies: int | Mapping[Character, int] | None = None) -> str:
    """Several card faces in a responsive grid; `copies` is one count for every card or a
    count per card (a variant with modified cards has one of each of those)."""
    faces = "".join(card_face(r, copies.get(r.character) if isinstance(copies, Mapping)
                              else copies) for r in roles)
    return f'<div class="ct-root"><div class="ct-cards">{faces}</div></div>'


# ------------------------------------------------------------------------- reference panels


def _yes_no(flag: bool, yes: str = "", no: str = "") -> str:
    cls = "ct-pill ct-pill--yes" if flag else "ct-pill ct-pill--no"
    text = (yes or tr("Yes")) if flag else (no or tr("No"))
    return f'<span class="{cls}">{escape(text)}</span>'


def action_table(rows: Sequence[ActionRow]) -> str:
    """The action table; on narrow screens each row becomes a small card of label/value pairs."""
    head = (tr("Action"), tr("Character"), tr("Cost"), tr("Target"), tr("Who may block"),
            tr("Challenge?"), tr("Effect"), tr("Counteraction"))
    th = "".join(f'<th scope="col">{escape(h)}</th>' for h in head)

    def muted(text: str) -> str:
        return f'<span class="ct-muted">{escape(text)}</span>'

    body = []
    for r in rows:
        claim = chip(r.character) if r.character else muted(tr("None"))
        if r.blockers:
            who = tr("The target") if r.block_scope == "target" else tr("Any other player")
            block = (f'<span class="ct-who">{escape(who)}</span> '
                     + " ".join(chip(c) + (" " + muted(tr("only reduces it"))
                                           if c in r.reducers else "")
                                for c in r.blockers))
        else:
            block = muted(tr("Nobody"))
        cells = (
            (head[0], f'<span class="ct-act">{escape(r.name)}</span>', "ct-td-act"),
            (head[1], claim, ""),
            (head[2], escape(r.cost_text) if r.cost else muted(tr("Free")), "ct-td-nowrap"),
            (head[3], escape(tr("Any player, you too") if r.self_target else tr("One player"))
             if r.targeted else '<span class="ct-muted">—</span>', "ct-td-nowrap"),
            (head[4], block, ""),
            (head[5], _yes_no(r.challengeable), ""),
            (head[6], escape(r.effect), "ct-td-wide"),
            (head[7], escape(r.counter), "ct-td-wide"),
        )
        tds = "".join(f'<td data-label="{escape(label)}" class="{cls}">'
                      f'<div class="ct-val">{value}</div></td>' for label, value, cls in cells)
        body.append(f'<tr data-action="{escape(r.action.value)}">{tds}</tr>')
    return (
        '<div class="ct-root"><div class="ct-tablewrap">'
        f'<table class="ct-table" aria-label="{escape(tr("Actions"))}">'
        f'<thead><tr>{th}</tr></thead><tbody>{"".join(body)}</tbody></table></div></div>'
    )


def turn_flow(steps: Sequence[Step]) -> str:
    """The turn as a numbered timeline."""
    items = []
    for i, s in enumerate(steps, 1):
        applies = (
            '<div class="ct-step__meta"><span class="ct-step__label">'
            f'{escape(tr("Only for"))}</span>'
            + "".join(f'<span class="ct-tagchip">{escape(a)}</span>' for a in s.applies_to)
            + "</div>"
            if s.applies_to else ""
        )
        decisions = (
            '<div class="ct-step__meta"><span class="ct-step__label">'
            f'{escape(tr("Decisions"))}</span>'
            + " · ".join(escape(d[:1].upper() + d[1:]) for d in s.decisions)
            + "</div>"
            if s.decisions else ""
        )
        items.append(
            f'<li class="ct-step"><div class="ct-step__num" aria-hidden="true">{i}</div>'
            f'<div class="ct-step__body"><div class="ct-step__title">{escape(s.title)}</div>'
            f'<p class="ct-step__text">{escape(s.text)}</p>{applies}{decisions}</div></li>'
        )
    return f'<div class="ct-root"><ol class="ct-flow">{"".join(items)}</ol></div>'


def rule_list(rules: Sequence[str]) -> str:
    """A short bulleted list of rule sentences."""
    lis = "".join(f"<li>{escape(r)}</li>" for r in rules)
    return f'<div class="ct-root"><ul class="ct-rules">{lis}</ul></div>'


def active_options(rows: Sequence[OptionRow]) -> str:
    """The table rules in force, each marked as the rulebook's default or changed."""
    items = []
    for r in rows:
        badge = (f'<span class="ct-pill ct-pill--house">{escape(tr("Changed"))}</span>'
                 if r.changed else
                 f'<span class="ct-pill ct-pill--default">{escape(tr("Rulebook default"))}'
                 f'</span>')
        items.append(
            f'<li class="ct-opt{" ct-opt--changed" if r.changed else ""}" '
            f'data-option="{escape(r.name)}" data-changed="{str(r.changed).lower()}">'
            f'<div class="ct-opt__head"><span class="ct-opt__title">{escape(r.title)}</span>'
            f'{badge}</div><div class="ct-opt__value">{escape(r.active_text)}</div>'
            + (f'<div class="ct-opt__default">'
               f'{escape(tr("Rulebook: {choice}", choice=r.default_text))}</div>'
               if r.changed else "")
            + "</li>"
        )
    return f'<div class="ct-root"><ul class="ct-opts">{"".join(items)}</ul></div>'


def variant_rule_list(rules: Sequence[VariantRule]) -> str:
    """What a variant changes: a title, the rule in plain words, the quote (in the reader's
    language: our own translation of it) and its source."""
    items = "".join(
        f'<li class="ct-opt" data-hook="{escape(r.hook)}">'
        f'<div class="ct-opt__head"><span class="ct-opt__title">{escape(r.title_words)}</span>'
        f'</div><div class="ct-opt__value">{escape(r.text_words)}</div>'
        f'<blockquote class="ct-quote">{escape(tr("“{quote}”", quote=r.quote_words))}'
        f'<small class="ct-source-line"> — <span class="ct-source" title="{escape(r.source)}">'
        f'{escape(source_label(r.source))}</span></small></blockquote></li>'
        for r in rules
    )
    return f'<div class="ct-root"><ul class="ct-opts">{items}</ul></div>'


def fact_tiles(facts: Sequence[Fact]) -> str:
    """Setup numbers as tiles: 6 in a row on a wide screen, 3 on a projector, 2 on a phone."""
    tiles = "".join(
        f'<div class="ct-fact" data-fact="{escape(f.key)}">'
        f'<div class="ct-fact__label">{escape(f.label)}</div>'
        f'<div class="ct-fact__value">{escape(f.value)}'
        f'<span class="ct-fact__unit">{escape(f.unit)}</span></div>'
        f'<div class="ct-fact__note">{escape(f.note)}</div></div>'
        for f in facts
    )
    return f'<div class="ct-root"><div class="ct-facts">{tiles}</div></div>'


def quote_block(quote: str, source: str, section: str | None = None) -> str:
    """A rule quoted, with the text (and heading) it comes from: the English word for word,
    or in another language our own translation of it (`quote` as the reader reads it: the
    caller translates it, `tr(rule.quote)`)."""
    described = RULE_SOURCES.get(source)
    where = (_capital(tr(described)) if described else source_label(source))
    if section:
        where = tr("{source}, “{section}”", source=where, section=section)
    return (f'<div class="ct-root"><blockquote class="ct-quote">'
            f'{escape(tr("“{quote}”", quote=quote))}'
            f'<small class="ct-source-line"> — <span class="ct-source" '
            f'title="{escape(source)}">{escape(where)}</span></small></blockquote></div>')


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def source_note(source: str, words: str | None = None) -> str:
    """A source reference for people (`words`, else the source named as `source_label` names
    it), keeping the exact note (file names) in a tooltip."""
    shown = words if words is not None else source_label(source)
    return (f'<div class="ct-root"><small class="ct-source-line">{escape(tr("Source:"))} '
            f'<span class="ct-source" title="{escape(source)}">'
            f'{escape(shown)}</span></small></div>')


# ------------------------------------------------------------------------------ stylesheet

# The colours above, written into the stylesheet where it says @GOLD@ and the like.
_CSS = read_css("cards.css")
for _token, _colour in (("@GOLD@", GOLD), ("@IVORY@", IVORY), ("@PARCHMENT@", PARCHMENT),
                        ("@INK@", INK)):
    _CSS = _CSS.replace(_token, _colour)
_LARGE = read_css("large.css")


def stylesheet(large: bool = False) -> str:
    """The <style> block for every panel in this module; `large` scales the whole app up for
    a projector (Streamlit sizes its own text in rem, so one root size moves everything)."""
    return f"<style>{_CSS}{_LARGE if large else ''}</style>"
