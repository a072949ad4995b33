"""Rules: the reference card of the chosen rules, generated from the engine's own tables."""

from collections import Counter

import streamlit as st

from trainer.engine.variants import title_words
from trainer.i18n import tr
from trainer.rulebook import choices
from trainer.rulebook import reference as ref
from trainer.rulebook.variant_rules import changes_heading, variant_rules
from trainer.ui.router import hand_over
from trainer.ui.rule_choice import (
    chosen,
    family_picker,
    follow_link,
    house_rule_switches,
    keep_in_link,
    table_rule_choices,
)
from trainer.views import cardart

hand_over("pages/rules.py", "rules")
KEYS = choices.RULES_PAGE

# ------------------------------------------------------------------------- header and setup
st.title(tr("Rules of Coup"))
st.caption(tr("Built from the trainer's rules engine, so this is exactly the game the trainer "
              "plays."))
st.html(cardart.stylesheet())  # large type is the router's switch, for every page

# The address holds the whole choice (`?rules=base+pay_five&players=4`; old links say
# `?variant=base`); the switches and table rules further down shape the text above, so the
# choice is read from the state before they are drawn.
follow_link(KEYS, old="variant")
variant_col, players_col = st.columns([2, 3], gap="medium", vertical_alignment="bottom")
family_picker(KEYS, container=variant_col)
ruleset = chosen(KEYS)
variant, options = ruleset.variant, ruleset.options

choices.fit_players(st.session_state, variant, options)
top = variant.most_players(options)
if variant.min_players == top:  # the draft: a slider needs a range
    players = variant.min_players
    players_col.markdown(tr("**Players:** {n} — {rules} is for exactly {n}.", n=players,
                            rules=title_words(variant)))
else:
    players = players_col.slider(
        tr("Players"), variant.min_players, top, value=choices.default_players(variant),
        key=choices.PLAYERS, bind="query-params",
    )
keep_in_link(ruleset, KEYS, old="variant")

facts = ref.setup_facts(variant, players, options)

with st.container(border=True):
    st.markdown(f"**{title_words(variant)}**")
    st.markdown(choices.summary(variant))
    st.html(cardart.source_note(variant.source))

st.markdown(choices.header_line(ruleset))
st.html(cardart.fact_tiles(ref.setup_tiles(variant, players, options)))
st.markdown(ref.setup_text(facts, options.finite_treasury))

# ------------------------------------------------------------------------------ reference
st.header(tr("The characters"), anchor="characters")
st.caption(tr("Anyone may claim any character, whether they hold it or not. Each card shows "
              "the action it claims and the actions it blocks."))
st.html(cardart.card_grid(ref.character_roles(variant),
                          copies=Counter(variant.court(players))))

rules_here = variant_rules(variant)
if rules_here:
    st.header(changes_heading(variant), anchor="variant-rules")
    st.caption(tr("Everything else is as in the base game. Each change quotes the text it "
                  "comes from."))
    st.html(cardart.variant_rule_list(rules_here))

st.header(tr("Actions"), anchor="actions")
st.caption(tr("On your turn, take exactly one action. Claiming a character's action is allowed "
              "without holding the card; any player may challenge the claim."))
st.html(cardart.action_table(ref.action_rows(variant, options)))

st.header(tr("A turn, step by step"), anchor="turn")
st.html(cardart.turn_flow(ref.turn_steps(variant, options)))

challenge_col, coup_col = st.columns(2, gap="large")
with challenge_col:
    st.subheader(tr("Challenges"), anchor="challenges")
    st.html(cardart.rule_list(ref.challenge_rules(variant, options)))
with coup_col:
    st.subheader(tr("Coups"), anchor="coups")
    st.html(cardart.rule_list(ref.coup_rules(variant)))

# ------------------------------------------------------------------------ house rules
st.header(tr("House rules"), anchor="house-rules")
st.caption(tr(choices.HOUSE_RULES_PAGE_INTRO))
with st.expander(tr("McGuire's house rules: {summary}",
                    summary=choices.choice_summary_house(variant)),
                 icon=":material/toggle_on:", key="house_rules_expander",
                 expanded=bool(choices.house_rules_in_force(variant))
                 or choices.self_targeting(variant)):
    house_rule_switches(ruleset, KEYS, detailed=True)

# ------------------------------------------------------------------------------ options
st.header(tr("Table rules"), anchor="table-rules")
st.caption(tr(choices.TABLE_INTRO) + " " + tr("Every choice names the text it comes from."))
rows = ref.option_rows(options, variant)
st.html(cardart.active_options(rows))

with st.expander(tr("Change the table rules"), icon=":material/tune:",
                 expanded=any(r.changed for r in rows), key="options_expander"):
    table_rule_choices(ruleset, KEYS, detailed=True)
