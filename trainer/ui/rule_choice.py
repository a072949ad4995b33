"""The widgets that choose the rules, shared by the Rules page, the Play set-up and a room's
set-up: the rule set, McGuire's house rules as switches, the table rules as choices.

Why one module: every page must offer the same switches with the same words and read them
the same way (`trainer.rulebook.choices`, where the state logic lives and is tested without
Streamlit). The Rules page shows each house rule with the sentence it is quoted from and the
switches that cannot apply (greyed, with the reason); the set-ups show only the ones that fit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from trainer.engine.variants import VARIANTS, RuleSet, title_words
from trainer.i18n import tr
from trainer.rulebook import choices
from trainer.rulebook.choices import RuleKeys
from trainer.rulebook.reference import option_rows
from trainer.ui.state import session_state
from trainer.views import cardart


def family_picker(keys: RuleKeys, *, label: str | None = None, container: Any = None,
                  extra: Mapping[str, str] | None = None, help: str | None = None) -> str:
    """The registered rule set (and any `extra` choice, such as a room's "every rule set",
    already in the reader's words), by title."""
    titles = {name: title_words(v) for name, v in VARIANTS.items()} | dict(extra or {})
    label = tr("Rule set") if label is None else label
    state = session_state()
    if state.get(keys.family) not in titles:
        state[keys.family] = choices.DEFAULT_FAMILY
    where = container if container is not None else st
    return str(where.selectbox(label, list(titles), format_func=titles.__getitem__,
                               key=keys.family, help=help, persist_state="session"))


def chosen(keys: RuleKeys) -> RuleSet:
    """The rules chosen on this page so far (read before the widgets below are drawn)."""
    return choices.chosen(session_state(), keys)


def follow_link(keys: RuleKeys, param: str = "rules", old: str | None = None) -> None:
    """Fill the choice from the address's description when it is new to this tab; a warning
    naming what is wrong when it cannot be read."""
    params = st.query_params
    text = params.get(param) if param in params else (
        params.get(old) if old is not None and old in params else None)
    problem = choices.follow_link(session_state(), text, keys)
    if problem is not None:
        st.warning(problem + " " + tr("The rules below are the ones chosen before."),
                   icon=":material/link_off:")


def keep_in_link(ruleset: RuleSet, keys: RuleKeys, param: str = "rules",
                 old: str | None = None) -> None:
    """The address holds the whole choice as one description, so copying it shares it."""
    value = choices.url_value(ruleset)
    if old is not None and old in st.query_params:
        del st.query_params[old]
    if st.query_params.get(param) != value:
        st.query_params[param] = value
    choices.written(session_state(), value, keys)


def _cells(count: int, columns: int) -> list[Any]:
    """`count` places in rows of `columns`, row by row, so that a phone, which stacks the
    columns of a row, keeps them in order."""
    cells: list[Any] = []
    while len(cells) < count:
        cells.extend(st.columns(columns, gap="medium") if columns > 1 else [st.container()])
    return cells[:count]


def house_rule_switches(ruleset: RuleSet, keys: RuleKeys, *, detailed: bool) -> None:
    """A switch per house rule with its number and title and what it does in one sentence.
    `detailed` (the Rules page) adds the sentence it is quoted from and shows the switches
    that cannot apply to the rule set, greyed with the reason; otherwise those are left out."""
    family = VARIANTS.get(ruleset.variant.family or ruleset.variant.name, ruleset.variant)
    shown = [c for c in choices.house_rule_choices(ruleset.variant) if detailed or not c.unfit]
    cells = _cells(len(shown), 2)
    for cell, c in zip(cells, shown, strict=True):
        box = cell.container(border=detailed, key=f"{keys.prefix}switch_{c.name}", gap="small")
        with box:
            st.toggle(f"**{c.label}**" if detailed else c.label, key=keys.house(c.name),
                      disabled=bool(c.unfit), persist_state="session",
                      help=None if detailed else choices.plain_text(c.rule))
            if c.unfit:
                st.caption(tr("Cannot apply to {rules}: {reason}.", rules=title_words(family),
                              reason=c.unfit))
            else:
                st.caption(choices.plain_sentence(c.rule))
            if detailed:
                st.html(cardart.quote_block(tr(c.rule.quote), c.rule.source))
    if detailed:
        st.button(tr("Back to the rule set's own house rules"), icon=":material/restart_alt:",
                  key=f"{keys.prefix}reset_house_rules", on_click=choices.reset_house_rules,
                  args=(session_state(), keys),
                  disabled=not choices.house_rules_switched(ruleset.variant))


SMALL_TABLES_HIDE = frozenset({"more_players"})  # the set-ups' tables have at most six seats


def table_rule_choices(ruleset: RuleSet, keys: RuleKeys, *, detailed: bool,
                       columns: int = 2, hide: frozenset[str] = frozenset()) -> None:
    """A choice per table rule that can change this rule set: its question, its answers with
    the rulebook's marked, and (`detailed`) the texts each answer comes from. A rule in
    `hide` is left out while it is at the rulebook's default."""
    rows = [r for r in option_rows(ruleset.options, ruleset.variant)
            if r.name not in hide or r.changed]
    for cell, row in zip(_cells(len(rows), columns), rows, strict=True):
        with cell.container(border=True):
            st.markdown(f"**{row.title}**")
            st.caption(row.question)
            labels = {c.value: tr("{choice} (rulebook default)", choice=c.text)
                      if c.is_default else c.text for c in row.choices}
            st.radio(row.title, list(labels), format_func=labels.__getitem__,
                     key=keys.option(row.name), label_visibility="collapsed",
                     persist_state="session")
            if detailed:
                st.html(cardart.source_note(row.source, row.source_text))
    st.button(tr("Reset to rulebook defaults"), icon=":material/restart_alt:",
              on_click=choices.reset_options, args=(session_state(), keys),
              disabled=not any(r.changed for r in rows), key=f"{keys.prefix}reset_options")


def rules_expander(ruleset: RuleSet, keys: RuleKeys) -> None:
    """The set-ups' fold of house rules and table rules: closed, one line says what is on.
    A table rule that cannot matter at the tables of a set-up (more than ten players) is
    offered only while it differs from the rulebook."""
    label = tr("House rules and table rules: {summary}",
               summary=choices.choice_summary(ruleset))
    with st.expander(label, icon=":material/tune:", key=f"{keys.prefix}rules_fold"):
        st.caption(tr(choices.HOUSE_INTRO))
        house_rule_switches(ruleset, keys, detailed=False)
        st.markdown(f"**{tr('Table rules')}**")
        st.caption(tr(choices.TABLE_INTRO))
        table_rule_choices(ruleset, keys, detailed=False, hide=SMALL_TABLES_HIDE)
