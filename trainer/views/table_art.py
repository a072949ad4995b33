"""The table drawn as HTML and CSS: seats with coins and cards, the court deck, the Treasury,
and the claims in the air as speech bubbles. Built from a `TableView`, so it can only draw what
the viewer may see: another player's face-down card is a card back, never a name.
"""

from __future__ import annotations

from functools import cache
from html import escape

from trainer.engine.variants import get_variant
from trainer.rulebook.reference import action_name, character_roles
from trainer.views.cardart import _vars, emblem_img
from trainer.views.table_view import Badge, SeatView, TableView


@cache
def role_lines(variant_name: str) -> dict[str, tuple[str, str]]:
    """Per card of the variant: its action(s) and what it blocks, in a few words."""
    out = {}
    for r in character_roles(get_variant(variant_name)):
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
                'aria-label="face-down card"><span>C</span></div>')
    label = {"own": "your face-down card", "revealed": "face-up, lost"}.get(state, "card")
    lines = ""
    title = escape(name)
    if role is not None:
        lines = "".join(f'<span class="ct-mini__role">{escape(x)}</span>' for x in role if x)
        title = escape(f"{name}: {role[0]}" + (f"; {role[1]}" if role[1] else ""))
    return (f'<div class="ct-mini ct-mini--{state}" style="{_vars(name)}" '
            f'data-card="{escape(name)}" aria-label="{escape(name)}, {label}" title="{title}">'
            f'{emblem_img(name)}<span class="ct-mini__name">{escape(name)}</span>{lines}</div>')


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


def table_html(view: TableView) -> str:
    """The whole table: the other seats, the court in the middle, the viewer's seat below."""
    others = [s for s in view.seats if not s.is_viewer]
    mine = [s for s in view.seats if s.is_viewer]
    roles = role_lines(view.variant_name)
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


TABLE_CSS = """
<style>
.ct-table { border: 1px solid rgba(217,168,78,.35); border-radius: 18px; padding: .9rem;
  background: radial-gradient(ellipse at center, #1f3b2c 0%, #14261c 70%, #0f1c15 100%);
  display: grid; gap: .8rem; }
.ct-seats { display: flex; flex-wrap: wrap; gap: .7rem; justify-content: center; }
.ct-seat { background: rgba(10,8,6,.55); border: 1px solid rgba(217,168,78,.3);
  border-radius: 12px; padding: .55rem .65rem; min-width: 11.5rem; max-width: 19rem;
  flex: 1 1 12rem; position: relative; }
.ct-seat--actor { border-color: #d9a84e; box-shadow: 0 0 0 2px rgba(217,168,78,.45); }
.ct-seat--decider { box-shadow: 0 0 0 3px #f6e3b4; }
.ct-seat--out { opacity: .5; filter: grayscale(.7); }
.ct-seat--me { background: rgba(40,28,12,.7); }
.ct-seat__head { display: flex; flex-wrap: wrap; align-items: center; gap: .35rem;
  margin-bottom: .45rem; }
.ct-seat__name { font-weight: 700; color: #f6e3b4; font-size: 1.05rem; margin-right: auto; }
.ct-tag { font-size: .68rem; text-transform: uppercase; letter-spacing: .06em;
  border-radius: 999px; padding: .05rem .45rem; background: rgba(255,255,255,.12);
  color: #f6e3b4; }
.ct-tag--me { background: #d9a84e; color: #24190f; }
.ct-tag--turn { background: #6f3fa0; }
.ct-tag--target { background: #b8283d; }
.ct-tag--decide { background: #f6e3b4; color: #24190f; }
.ct-coins { font-weight: 700; color: #f6e3b4; display: inline-flex; align-items: center;
  gap: .25rem; }
.ct-coin { display: inline-block; width: .9rem; height: .9rem; border-radius: 50%;
  background: radial-gradient(circle at 35% 35%, #ffe9a8, #d9a84e 55%, #8a6420);
  border: 1px solid #6b4c14; }
.ct-coin--big { width: 1.8rem; height: 1.8rem; }
.ct-seat__cards { display: flex; gap: .35rem; flex-wrap: wrap; }
.ct-mini { width: 4.4rem; height: 6.2rem; border-radius: 7px; position: relative;
  display: flex; flex-direction: column; align-items: center; justify-content: center;
  gap: .15rem; border: 2px solid #d9a84e; overflow: hidden;
  background: linear-gradient(160deg, var(--ct-light), var(--ct-dark)); }
.ct-mini .ct-emblem { width: 1.7rem; height: 1.7rem; }
.ct-mini__name { font-size: .5rem; font-weight: 700; color: #f6e3b4; text-align: center;
  line-height: 1.05; padding: 0 .1rem; text-transform: uppercase; overflow-wrap: anywhere; }
.ct-mini__role { font-size: .5rem; line-height: 1.1; color: #f5ecd7; text-align: center;
  padding: 0 .15rem; opacity: .9; }
.ct-mini--back { background: repeating-linear-gradient(45deg, #5a1520 0 6px, #4a0f19 6px 12px);
  border-color: #d9a84e; }
.ct-mini--back span { font-family: Georgia, serif; font-weight: 700; color: #d9a84e;
  font-size: 1.3rem; border: 1px solid #d9a84e; border-radius: 50%; width: 2rem;
  height: 2rem; display: flex; align-items: center; justify-content: center; }
.ct-mini--own { outline: 2px dashed #f6e3b4; outline-offset: 2px; }
.ct-mini--revealed { filter: grayscale(.35) brightness(.8); }
.ct-mini--revealed::after { content: ""; position: absolute; inset: 0;
  background: linear-gradient(to top right, transparent 47%, rgba(246,227,180,.8) 48%,
  rgba(246,227,180,.8) 52%, transparent 53%); }
.ct-bubbles { display: flex; flex-direction: column; gap: .3rem; margin-top: .45rem; }
.ct-bubble { background: #f5ecd7; color: #24190f; border-radius: 10px; padding: .2rem .55rem;
  font-size: .85rem; position: relative; width: fit-content; max-width: 100%; }
.ct-bubble::before { content: ""; position: absolute; top: -5px; left: 12px; border: 5px solid
  transparent; border-top: 0; border-bottom-color: #f5ecd7; }
.ct-bubble--challenge { background: #b8283d; color: #fff; }
.ct-bubble--challenge::before { border-bottom-color: #b8283d; }
.ct-bubble--block { background: #2f68b3; color: #fff; }
.ct-bubble--block::before { border-bottom-color: #2f68b3; }
.ct-bubble--lose { background: #4a474f; color: #fff; }
.ct-bubble--lose::before { border-bottom-color: #4a474f; }
.ct-bubble--pass { background: rgba(245,236,215,.55); }
.ct-bubble--latest { box-shadow: 0 0 0 2px #d9a84e; font-weight: 700; }
.ct-court { display: flex; flex-wrap: wrap; gap: 1.2rem; justify-content: center;
  align-items: center; padding: .5rem; border-radius: 12px;
  border: 1px dashed rgba(217,168,78,.35); }
.ct-pile { display: flex; align-items: center; gap: .5rem; color: #f6e3b4; }
.ct-status { text-align: center; font-weight: 700; color: #f6e3b4; font-size: 1.05rem; }
.ct-private { margin: 0; padding-left: 1.2rem; color: #f6e3b4; font-size: .9rem; }
@media (max-width: 640px) {
  .ct-seat { min-width: 100%; }
  .ct-mini { width: 3.9rem; height: 5.6rem; }
}
</style>
"""
