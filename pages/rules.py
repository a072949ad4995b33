"""Rules: the reference card of the chosen variant, generated from the engine's own tables."""

from collections import Counter

import streamlit as st

from trainer.engine.variants import VARIANTS
from trainer.rulebook import choices
from trainer.rulebook import reference as ref
from trainer.rulebook.variant_rules import variant_rules
from trainer.ui.router import hand_over
from trainer.views import cardart

hand_over("pages/rules.py", "rules")

# ------------------------------------------------------------------------- header and setup
st.title("Rules of Coup")
st.caption("Built from the trainer's rules engine, so this is exactly the game the trainer "
           "plays.")

titles = {name: v.title for name, v in VARIANTS.items()}
variant_col, players_col = st.columns([2, 3], gap="medium", vertical_alignment="bottom")
st.html(cardart.stylesheet())  # large type is the router's switch, for every page
variant_name = variant_col.selectbox(
    "Variant", list(titles), format_func=titles.__getitem__, key="variant",
    bind="query-params",
)
variant = VARIANTS[variant_name]

choices.fit_players(st.session_state, variant)
if variant.min_players == variant.max_players:  # the draft: a slider needs a range
    players = variant.min_players
    players_col.markdown(f"**Players:** {players} — {variant.title} is for exactly {players}.")
else:
    players = players_col.slider(
        "Players", variant.min_players, variant.max_players,
        value=choices.default_players(variant), key=choices.PLAYERS, bind="query-params",
    )

# The option widgets sit at the foot of the page but shape the text above: read them first.
options = choices.chosen_options(st.session_state)
facts = ref.setup_facts(variant, players, options)

with st.container(border=True):
    st.markdown(f"**{variant.title}**")
    if variant.summary:
        st.markdown(variant.summary)
    st.html(cardart.source_note(variant.source))

st.html(cardart.fact_tiles(ref.setup_tiles(variant, players)))

st.markdown(ref.setup_text(facts, options.finite_treasury))

changed = [r for r in ref.option_rows(options, variant) if r.changed]
st.markdown(choices.house_rules_line(changed))

# ------------------------------------------------------------------------------ reference
st.header("The characters", anchor="characters")
st.caption("Anyone may claim any character, whether they hold it or not. Each card shows the "
           "action it claims and the actions it blocks.")
st.html(cardart.card_grid(ref.character_roles(variant),
                          copies=Counter(variant.court(players))))

rules_here = variant_rules(variant)
if rules_here:
    st.header(f"What {variant.title} changes", anchor="variant-rules")
    st.caption("Everything else is as in the base game. Each change quotes the text it comes "
               "from.")
    st.html(cardart.variant_rule_list(rules_here))

st.header("Actions", anchor="actions")
st.caption("On your turn, take exactly one action. Claiming a character's action is allowed "
           "without holding the card; any player may challenge the claim.")
st.html(cardart.action_table(ref.action_rows(variant, options)))

st.header("A turn, step by step", anchor="turn")
st.html(cardart.turn_flow(ref.turn_steps(variant, options)))

challenge_col, coup_col = st.columns(2, gap="large")
with challenge_col:
    st.subheader("Challenges", anchor="challenges")
    st.html(cardart.rule_list(ref.challenge_rules(variant)))
with coup_col:
    st.subheader("Coups", anchor="coups")
    st.html(cardart.rule_list(ref.coup_rules(variant)))

# ------------------------------------------------------------------------------ options
st.header("Table rules", anchor="table-rules")
st.caption("Points the rulebooks leave open. The trainer follows the official rulebook unless "
           "you change them here; every choice names the text it comes from.")
rows = ref.option_rows(options, variant)
st.html(cardart.active_options(rows))

with st.expander("Change the table rules", icon=":material/tune:", expanded=bool(changed),
                 key="options_expander"):
    option_cols = st.columns(2, gap="medium")
    for i, row in enumerate(rows):
        with option_cols[i % 2].container(border=True):
            st.markdown(f"**{row.title}**")
            st.caption(row.question)
            labels = {c.value: c.text + (" (rulebook default)" if c.is_default else "")
                      for c in row.choices}
            st.radio(row.title, list(labels), format_func=labels.__getitem__,
                     key=choices.option_key(row.name), label_visibility="collapsed",
                     persist_state="session")
            st.html(cardart.source_note(row.source))
    st.button("Reset to rulebook defaults", icon=":material/restart_alt:",
              on_click=choices.reset_options, args=(st.session_state,), disabled=not changed,
              key="reset_options")
