"""A rule set's full rules as plain text, for `python -m trainer rules DESCRIPTION`.

The same generated tables and variant notes as the Rules page, so a host can print or read the
exact rules a game of the trainer follows without opening the app.
"""

from __future__ import annotations

import textwrap

from trainer.engine.rules import Options, Variant
from trainer.engine.variants import RuleSet
from trainer.engine.variants import rules_text as description
from trainer.rulebook import choices
from trainer.rulebook import reference as ref
from trainer.rulebook.variant_rules import changes_heading, variant_rules

WIDTH = 92


def _wrap(text: str, indent: str = "") -> str:
    return textwrap.fill(text, WIDTH, initial_indent=indent,
                         subsequent_indent=" " * len(indent))


def _low(text: str) -> str:
    return text[:1].lower() + text[1:]


def rules_text(variant: Variant, players: int | None = None,
               options: Options | None = None) -> str:
    """The rules of `variant` under the table rules `options`, with the set-up of a table of
    `players`: the same sections as the Rules page, in the same words."""
    options = options or Options()
    if players is None:
        players = min(max(4, variant.min_players), variant.max_players)
    facts = ref.setup_facts(variant, players, options)
    ruleset = RuleSet(variant, options)
    out = [variant.title.upper(), f"({description(variant, options)}; {variant.min_players}–"
                                  f"{variant.most_players(options)} players)", ""]
    out += [_wrap(choices.in_force_line(ruleset)), ""]
    out += [_wrap(choices.summary(variant)), "", "SET-UP", _wrap(
        ref.setup_text(facts, options.finite_treasury).replace("**", "")), ""]
    out.append("CHARACTERS")
    copies = {c: variant.court(players).count(c) for c in variant.cards}
    for role in ref.character_roles(variant):
        does = "; ".join(f"{ref.action_name(s.action)}: "
                         f"{ref.first_sentence(s.effect).rstrip('.')}"
                         for s in role.actions) or "no action of its own"
        blocks = ref.join_words([ref.action_name(s.action) for s in role.blocks], "and")
        extra = [f"blocks {blocks}"] if role.blocks else []
        if role.reduces:
            extra.append("reduces " + ref.join_words(
                [ref.action_name(s.action) for s in role.reduces], "and") + " to 1 coin")
        if role.power:
            extra.append(role.power.rstrip("."))
        out.append(_wrap(f"{role.name} ({copies[role.character]} in the Court deck): {does}"
                         + (f"; {'; '.join(extra)}" if extra else "") + ".", "  * "))
    out += ["", "ACTIONS"]
    for row in ref.action_rows(variant, options):
        out.append(_wrap(f"{row.name} — character: {row.character_text}; cost: "
                         f"{row.cost_text}; target: {_low(row.target_text)}; blocked by: "
                         f"{_low(row.block_text)}; challenge: {_low(row.challenge_text)}.",
                         "  * "))
        out.append(_wrap(row.effect, "      "))
    out += ["", "A TURN, STEP BY STEP"]
    for i, step in enumerate(ref.turn_steps(variant, options), 1):
        out.append(_wrap(f"{step.title}: {step.text}", f"  {i}. "))
    out += ["", "CHALLENGES"] + [_wrap(r, "  * ")
                                 for r in ref.challenge_rules(variant, options)]
    out += ["", "COUPS"] + [_wrap(r, "  * ") for r in ref.coup_rules(variant)]
    changes = variant_rules(variant)
    if changes:
        out += ["", changes_heading(variant).upper()]
        for r in changes:
            out.append(_wrap(f"{r.title}: {r.text}", "  * "))
            out.append(_wrap(f"\u201c{r.quote}\u201d ({r.source})", "      "))
    out += ["", "HOUSE RULES (McGuire's, each a switch; * marks those on)"]
    for switch in choices.house_rule_choices(variant):
        mark = "*" if switch.on else " "
        why = f" Cannot apply here: {switch.unfit}." if switch.unfit else ""
        out.append(_wrap(f"{switch.label} ({switch.name}): "
                         f"{choices.plain_sentence(switch.rule)}{why}", f"  {mark} "))
    out += ["", "TABLE RULES (open points; * marks the one in force)"]
    for option in ref.option_rows(options, variant):
        out.append(_wrap(f"{option.title}: {option.question}", "  * "))
        for c in option.choices:
            mark = "*" if c.is_active else " "
            default = " (rulebook default)" if c.is_default else ""
            out.append(_wrap(f"{c.text}{default}", f"     {mark} "))
        out.append(_wrap(f"Source: {option.source}", "       "))
    return "\n".join(out) + "\n"

