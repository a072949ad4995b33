"""The Rules page's choices, kept in the tab's state: the player count and the table rules
(the open points of the rulebook, `trainer.engine.rules.Options`).

Why plain functions on a mapping: the table-rule widgets sit at the foot of the page but shape
the text above them, so their values are read from the state before the widgets are drawn; a
player count chosen for one variant must be brought into the next variant's range before its
slider is drawn. Both rules are tested here on a dict, without Streamlit.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import Any

from trainer.engine.rules import Options, Variant
from trainer.rulebook.reference import OptionRow

PLAYERS = "players"
DEFAULT_PLAYERS = 4


def option_key(name: str) -> str:
    """The state key of a table rule's widget."""
    return f"opt_{name}"


def chosen_options(state: MutableMapping[str, Any]) -> Options:
    """The table rules in force: the widgets' values, the rulebook's defaults on a first
    visit (written to the state, so the widgets start there)."""
    for name, value in Options.defaults().as_dict().items():
        state.setdefault(option_key(name), value)
    return Options.defaults().with_(**{name: state[option_key(name)]
                                       for name in Options.info()})


def reset_options(state: MutableMapping[str, Any]) -> None:
    """Every table rule back to the rulebook's default."""
    for name, value in Options.defaults().as_dict().items():
        state[option_key(name)] = value


def fit_players(state: MutableMapping[str, Any], variant: Variant) -> None:
    """Bring a player count left over from another variant into this variant's range."""
    kept = state.get(PLAYERS)
    if kept is not None and not variant.min_players <= kept <= variant.max_players:
        state[PLAYERS] = min(max(kept, variant.min_players), variant.max_players)


def default_players(variant: Variant) -> int:
    return min(max(DEFAULT_PLAYERS, variant.min_players), variant.max_players)


def house_rules_line(changed: Sequence[OptionRow]) -> str:
    """The badge under the setup: the house rules in force, or that there are none."""
    if not changed:
        return (":gray-badge[Rulebook defaults] Every open point follows the official "
                "rulebook — see [Table rules](#table-rules)")
    return (f":orange-badge[{len(changed)} house rule{'s' if len(changed) > 1 else ''}] "
            + " · ".join(r.active_text.rstrip(".") for r in changed)
            + " — see [Table rules](#table-rules)")
