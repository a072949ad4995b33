"""A variant's full rules as plain text, for `python -m trainer rules NAME`.

The same generated tables and variant notes as the Rules page, so a host can print or read the
exact rules a game of the trainer follows without opening the app.
"""

from __future__ import annotations

import textwrap

from trainer.engine.rules import Options, Variant
from trainer.rulebook import reference as ref
from trainer.rulebook.variant_rules import variant_rules

WIDTH = 92


def _wrap(text: str, indent: str = "") -> str:
    return textwrap.fill(text, WIDTH, initial_indent=indent,
                         subsequent_indent=" " * len(indent))


def _low(text: str) -> str:
    return text[:1].lower() + text[1:]


def rules_text(variant: Variant, players: int | None = None,
               options: Options | None = None) -> str:
    options = options or Options()
    if players is None:
        players = min(max(4, variant.min_players), variant.max_players)
    facts = ref.setup_facts(variant, players, options)
    out = [variant.title.upper(), f"({variant.name}; {variant.min_players}–"
                                  f"{variant.max_players} players)", ""]
    out += [_wrap(variant.summary), "", "SET-UP", _wrap(
        ref.setup_text(facts, options.finite_treasury).replace("**", "")), ""]
    out.append("ACTIONS")
    for row in ref.action_rows(variant):
        out.append(_wrap(f"{row.name} — character: {row.character_text}; cost: "
                         f"{row.cost_text}; target: {_low(row.target_text)}; blocked by: "
                         f"{_low(row.block_text)}; challenge: {_low(row.challenge_text)}.",
                         "  * "))
        out.append(_wrap(row.effect, "      "))
    out += ["", "CHALLENGES"] + [_wrap(r, "  * ") for r in ref.challenge_rules(variant)]
    out += ["", "COUPS"] + [_wrap(r, "  * ") for r in ref.coup_rules(variant)]
    changes = variant_rules(variant)
    if changes:
        out += ["", f"WHAT {variant.title.upper()} CHANGES"]
        for r in changes:
            out.append(_wrap(f"{r.title}: {r.text}", "  * "))
            out.append(_wrap(f"\u201c{r.quote}\u201d ({r.source})", "      "))
    out += ["", "TABLE RULES (open points; * marks the one in force)"]
    for option in ref.option_rows(options, variant):
        out.append(_wrap(f"{option.title}: {option.question}", "  * "))
        for c in option.choices:
            mark = "*" if c.is_active else " "
            default = " (rulebook default)" if c.is_default else ""
            out.append(_wrap(f"{c.text}{default}", f"     {mark} "))
        out.append(_wrap(f"Source: {option.source}", "       "))
    return "\n".join(out) + "\n"
