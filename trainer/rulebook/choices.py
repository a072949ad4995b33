"""A page's choice of rules, kept in the tab's state: the rule set, McGuire's house rules as
switches, the table rules (the open points of the rulebook, `trainer.engine.rules.Options`)
and the player count.

Why plain functions on a mapping: the Rules page, the Play set-up and a room's set-up draw the
same choice with the same widgets, and each widget's value lives in the state under a key of
its page (`RuleKeys`). Some widgets sit below the text they shape, so their values are read from
the state before the widgets are drawn; a switch that cannot apply to the rule set is brought
back to the rule set's own value; a new rule set starts from its own switches; a player count
chosen for one rule set is brought into the next one's range; and a link's description
(``base+pay_five(challengers=all)``) fills the whole choice. All of it is tested on a dict,
without Streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from trainer.engine.errors import RuleSetError
from trainer.engine.rules import Options, Variant
from trainer.engine.variants import (
    HOUSE_RULES,
    VARIANTS,
    HouseRule,
    RuleSet,
    compose,
    house_rule_text,
    house_rules_on,
    parse_rules,
    title_words,
)
from trainer.i18n import N_, tr, tr_n
from trainer.rulebook.reference import OptionRow, option_rows

PLAYERS = "players"
DEFAULT_PLAYERS = 4
DEFAULT_FAMILY = "base"
SELF_TARGET = "no_self_target"  # rule 7: on in every rule set, since every text says so


@dataclass(frozen=True, slots=True)
class RuleKeys:
    """The state keys of one page's choice of rules: the rule set's picker (`family`), a
    switch per house rule and a choice per table rule, all under the page's `prefix`."""

    prefix: str = ""
    family: str = "variant"

    def house(self, name: str) -> str:
        return f"{self.prefix}hr_{name}"

    def option(self, name: str) -> str:
        return f"{self.prefix}opt_{name}"

    @property
    def owner(self) -> str:
        """The rule set the switches now in the state were set for."""
        return f"{self.prefix}hr_of"

    @property
    def loaded(self) -> str:
        """The last description read from, or written to, the address."""
        return f"{self.prefix}rules_loaded"


RULES_PAGE = RuleKeys()
PLAY = RuleKeys("play_", "play_rules")
ROOM = RuleKeys("room_new_", "room_new_rules")
TABLE = RuleKeys("table_new_", "table_new_rules")


def option_key(name: str) -> str:
    """The state key of a table rule's widget on the Rules page."""
    return RULES_PAGE.option(name)


# ------------------------------------------------------------------------ the choice
def family(state: Mapping[str, Any], keys: RuleKeys = RULES_PAGE) -> Variant:
    """The registered rule set picked (the base game if nothing, or nothing known, is)."""
    return VARIANTS.get(str(state.get(keys.family) or DEFAULT_FAMILY), VARIANTS[DEFAULT_FAMILY])


def chosen(state: MutableMapping[str, Any], keys: RuleKeys = RULES_PAGE) -> RuleSet:
    """The rule set and table rules in force: the widgets' values, or the rule set's own on a
    first visit and whenever another rule set is picked (written to the state, so the widgets
    start there). A house rule that cannot apply to the rule set is held at its value there;
    a table rule that cannot change it is left at the rulebook's default."""
    fam = family(state, keys)
    _put(state, keys.family, fam.name)
    own = house_rules_on(fam)
    if state.get(keys.owner) != fam.name:
        for rule in HOUSE_RULES:
            _put(state, keys.house(rule.name), own[rule.name])
        state[keys.owner] = fam.name
    switches = {}
    for rule in HOUSE_RULES:
        key = keys.house(rule.name)
        if rule.unfit(fam) or not isinstance(state.get(key), bool):
            _put(state, key, own[rule.name])
        switches[rule.name] = bool(state[key])
    variant = compose(fam, switches)
    defaults = Options.defaults().as_dict()
    for name, value in defaults.items():
        state.setdefault(keys.option(name), value)
    info = Options.info()
    changes = {}
    for name in Options.defaults().relevant(variant):
        value = state[keys.option(name)]
        if value not in info[name].choices:  # not one of its choices: the rulebook's
            _put(state, keys.option(name), value := defaults[name])
        changes[name] = value
    return RuleSet(variant, Options.defaults().with_(**changes))


def _put(state: MutableMapping[str, Any], key: str, value: Any) -> None:
    """Set a widget's value only when it differs: a widget already drawn in this run may not
    be written to, even with its own value."""
    if key not in state or state[key] != value or type(state[key]) is not type(value):
        state[key] = value


def chosen_options(state: MutableMapping[str, Any], keys: RuleKeys = RULES_PAGE) -> Options:
    """Every table rule's widget value (the rulebook's default on a first visit)."""
    for name, value in Options.defaults().as_dict().items():
        state.setdefault(keys.option(name), value)
    return Options.defaults().with_(**{name: state[keys.option(name)]
                                       for name in Options.info()})


def load(state: MutableMapping[str, Any], text: str, keys: RuleKeys = RULES_PAGE) -> RuleSet:
    """Set the whole choice from a description (``mcguire-inheritance(challengers=all)``);
    RuleSetError, naming the part at fault, leaves the state as it was."""
    ruleset = parse_rules(text)
    v = ruleset.variant
    name = v.family or v.name
    state[keys.family] = name
    state[keys.owner] = name
    for rule, on in house_rules_on(v).items():
        state[keys.house(rule)] = on
    for option, value in ruleset.options.as_dict().items():
        state[keys.option(option)] = value
    return ruleset


def follow_link(state: MutableMapping[str, Any], text: str | None,
                keys: RuleKeys = RULES_PAGE) -> str | None:
    """Load the address's description when it is new to this tab (a link just opened, or an
    address typed), and say what is wrong with it when it cannot be read (None otherwise).
    The choice stays as it was after a bad link; the address is rewritten from it."""
    if text is None or text == state.get(keys.loaded):
        return None
    state[keys.loaded] = text
    try:
        load(state, by_title(text), keys)
    except RuleSetError as e:
        return tr("The link's rules cannot be read: {reason}.", reason=str(e).rstrip("."))
    return None


def by_title(text: str) -> str:
    """A rule set named by its title, as the Rules page's links did before descriptions
    (``?variant=Reformation with the Inquisitor``), as its name; any other text as it is."""
    wanted = " ".join(text.split()).casefold()
    return next((name for name, v in VARIANTS.items() if v.title.casefold() == wanted), text)


def url_value(ruleset: RuleSet | str) -> str:
    """The description as the address carries it: a query string decodes ``+`` as a space,
    so the description is written with spaces, which the address shows as ``+`` and
    `parse_rules` reads back (``?rules=base+pay_five``)."""
    text = ruleset if isinstance(ruleset, str) else ruleset.text
    return text.replace("+", " ")


def written(state: MutableMapping[str, Any], value: str, keys: RuleKeys = RULES_PAGE) -> None:
    """Note the value just written to the address, so the next run does not load it back."""
    state[keys.loaded] = value


def reset_options(state: MutableMapping[str, Any], keys: RuleKeys = RULES_PAGE) -> None:
    """Every table rule back to the rulebook's default."""
    for name, value in Options.defaults().as_dict().items():
        state[keys.option(name)] = value


def reset_house_rules(state: MutableMapping[str, Any], keys: RuleKeys = RULES_PAGE) -> None:
    """Every house rule back to the rule set's own (none for the base game, all for McGuire's)."""
    for rule, on in house_rules_on(family(state, keys)).items():
        state[keys.house(rule)] = on


def fit_players(state: MutableMapping[str, Any], variant: Variant,
                options: Options | None = None, key: str = PLAYERS,
                most: int | None = None) -> None:
    """Bring a player count left over from another rule set into this one's range (up to
    `most`, when the page allows fewer than the rules)."""
    kept = state.get(key)
    top = players_range(variant, options, most)
    if kept is not None and (not isinstance(kept, int) or kept not in top):
        number = kept if isinstance(kept, int) else DEFAULT_PLAYERS
        state[key] = min(max(number, top[0]), top[-1])


def players_range(variant: Variant, options: Options | None = None,
                  most: int | None = None) -> range:
    """The table sizes of a rule set under these table rules (the web deck takes 20)."""
    top = variant.most_players(options)
    if most is not None:
        top = min(top, most)
    return range(variant.min_players, max(top, variant.min_players) + 1)


def default_players(variant: Variant) -> int:
    return min(max(DEFAULT_PLAYERS, variant.min_players), variant.max_players)


# ------------------------------------------------------------------------ in plain words
# A table rule in a few words, for a line that lists those in force (their full text is one
# click away). Every choice other than the rulebook's has one; a test checks it.
SHORT: dict[tuple[str, Any], str] = {
    ("challenge_order", "target_first"): N_("the target is asked first whether to challenge"),
    ("block_after_lost_challenge", False): N_("no block after a challenge"),
    ("steal_from_eliminated", False): N_("an exiled target's coins go back to the Treasury"),
    ("finite_treasury", False): N_("the Treasury never runs out"),
    ("challengers", "all"): N_("everyone who wants to may challenge"),
    ("foreign_aid_blockers", "queue"): N_("after a failed Duke block, others may still block"),
    ("foreign_aid_blockers", "random"): N_("a random one of the willing Dukes blocks"),
    ("gainless_actions", "refused"): N_("no action that would gain nothing"),
    ("more_players", "web"): N_("up to 20 players"),
    ("two_player_start", "two_coins"): N_("2 coins each in a two-player game"),
    ("examine_pick", "random"): N_("Examine shows a random card"),
    ("vocabulary", "treason"): N_("Treason's words (team, interrogate)"),
}


# Catalogued: show with `tr(...)`.
HOUSE_INTRO = N_("Optional rules from one designer's house-rule sheet (McGuire's). Each one is "
                 "its own switch; the base game has none of them on.")
HOUSE_RULES_PAGE_INTRO = N_(
    "Optional rules from one designer's house-rule sheet (McGuire's). Each is its own switch "
    "on top of the rule set above, and every section of this page follows it. The McGuire "
    "rule set is the base game with all of them on.")
TABLE_INTRO = N_("Points the rulebooks leave open. The trainer follows the official rulebook "
                 "unless you change them.")

# What each switch does, in one plain sentence (the full rule is one click away).
PLAIN: dict[str, str] = {
    "ambassador_reduces": N_("Claiming the Ambassador against a steal only cuts it to 1 coin "
                          "instead of blocking it."),
    "low_start": N_("The first player starts with 0 coins and everyone else with 1."),
    "bounty": N_("Whoever challenges takes 1 coin at once, right or wrong."),
    "pay_five": N_("Whoever loses a challenge may pay 5 coins instead of losing a card."),
    "inheritance": N_("One Ambassador pays its owner 4 coins when it is killed."),
    "vengeance": N_("One Assassin, when killed by a coup, makes a free assassination."),
    "treaty": N_("One Contessa can override a Duke's block of your foreign aid."),
    "mat": N_("A mat of five events turns cards face up and gives the first player a coin."),
    "no_self_target": N_("On in every rule set, because every rule text says \u201canother "
                      "player\u201d. Switched off, a player may challenge their own claim, "
                      "and assassinate or coup themselves."),
}


def plain_sentence(rule: HouseRule) -> str:
    if rule.name in PLAIN:
        return tr(PLAIN[rule.name])
    return house_rule_text(rule)


def plain_text(rule: HouseRule) -> str:
    """A house rule's full plain words (a switch's help), in the reader's language."""
    return house_rule_text(rule)


def plain_sentence_off() -> str:
    """What rule 7 switched off allows."""
    return tr("A player may challenge their own claim or block (asked last), and assassinate "
              "or coup themselves.")


def house_rules_switched(variant: Variant) -> bool:
    """Whether any house rule differs from the registered rule set's own."""
    return bool(variant.family)


@dataclass(frozen=True, slots=True)
class HouseRuleChoice:
    """One of McGuire's house rules on a page: on or off in the rule set chosen, whether the
    rule set's own value, and why it cannot apply ("" when it can)."""

    rule: HouseRule
    on: bool
    own: bool  # the registered rule set's value
    unfit: str

    @property
    def name(self) -> str:
        return self.rule.name

    @property
    def label(self) -> str:
        """The switch's label: its number and title ("4. Paying instead of losing a card")."""
        return tr(self.rule.title)


def house_rule_choices(variant: Variant) -> list[HouseRuleChoice]:
    """Every house rule, in the designer's order, as the chosen rule set has it."""
    fam = VARIANTS.get(variant.family or variant.name, variant)
    own = house_rules_on(fam)
    return [HouseRuleChoice(r, r.is_on(variant), own[r.name], r.unfit(fam))
            for r in HOUSE_RULES]


def house_rules_in_force(variant: Variant) -> list[HouseRule]:
    """The house rules on, other than rule 7 (every text's reading), in the designer's order."""
    return [r for r in HOUSE_RULES if r.name != SELF_TARGET and r.is_on(variant)]


def self_targeting(variant: Variant) -> bool:
    """Rule 7 switched off: a player may challenge, assassinate or coup themselves."""
    return not house_rules_on(variant)[SELF_TARGET]


def table_rules_in_force(ruleset: RuleSet) -> list[OptionRow]:
    """The table rules that differ from the rulebook and can change this rule set."""
    return [r for r in option_rows(ruleset.options, ruleset.variant) if r.changed]


def short_option(row: OptionRow) -> str:
    short = SHORT.get((row.name, row.active))
    if short is not None:
        return tr(short)
    return tr("{rule}: {choice}", rule=row.title[:1].lower() + row.title[1:],
              choice=row.active_text)


def _mcguire(variant: Variant) -> tuple[str, list[HouseRule]]:
    """How the house rules in force read: "all" of McGuire's, "without" a few of them, or
    "each" one named; and the rules to name."""
    on = house_rules_in_force(variant)
    fitting = [c.rule for c in house_rule_choices(variant)
               if not c.unfit and c.name != SELF_TARGET]
    missing = [r for r in fitting if r not in on]
    if len(on) > 4 and not missing:
        return "all", []
    if len(on) > 4 and len(missing) < len(on):
        return "without", missing
    return "each", on


def house_rules_words(variant: Variant, short: bool = False,
                      house_rules: bool = False) -> list[str]:
    """The house rules in force in a few words each ("4. Paying instead of losing a card"),
    with rule 7 switched off as "self-targeting allowed" (`house_rules`: "McGuire's house
    rules" rather than "McGuire's")."""
    how, rules = _mcguire(variant)
    named = ", ".join(tr(r.phrase if short else r.title) for r in rules)
    if how == "all":
        words = [tr("all of McGuire's house rules") if house_rules else tr("all of McGuire's")]
    elif how == "without":
        words = [tr("McGuire's house rules without {rules}", rules=named) if house_rules
                 else tr("McGuire's without {rules}", rules=named)]
    else:
        words = [tr(r.phrase if short else r.title) for r in rules]
    if self_targeting(variant):
        words.append(tr("self-targeting allowed") if short else tr("7. Self-targeting allowed"))
    return words


def in_force_line(ruleset: RuleSet | str) -> str:
    """The house rules and table rules in force, in one line of plain words: what a set-up,
    a game screen or a room says under the rule set's name."""
    rs = parse_rules(ruleset) if isinstance(ruleset, str) else ruleset
    house = house_rules_words(rs.variant)
    table = [short_option(r) for r in table_rules_in_force(rs)]
    if not house and not table:
        return tr("No house rules; every table rule as in the rulebook.")
    parts = []
    if house:
        parts.append(tr("House rules: {rules}", rules=" · ".join(house)))
    if table:
        parts.append(tr("Table rules: {rules}", rules="; ".join(table)))
    return ". ".join(parts) + "."


def choice_summary(ruleset: RuleSet, room: int = 80) -> str:
    """What an expander of house and table rules says while closed: what is on, in a few
    words when they fit in `room` characters, else counted."""
    words = house_rules_words(ruleset.variant, short=True, house_rules=True)
    n = len(house_rules_in_force(ruleset.variant)) + self_targeting(ruleset.variant)
    table = [short_option(r) for r in table_rules_in_force(ruleset)]
    if not n and not table:
        return tr("none (as in the rulebook)")
    named = "; ".join(words + table)
    if len(named) <= room:
        return named
    house = ""
    if _mcguire(ruleset.variant)[0] == "all":
        house = (tr("all of McGuire's house rules and self-targeting allowed")
                 if self_targeting(ruleset.variant) else tr("all of McGuire's house rules"))
    elif n:
        house = tr_n("{n} house rule", "{n} house rules", n)
    changed = tr_n("{n} table rule changed", "{n} table rules changed", len(table)) \
        if table else ""
    if house and changed:
        return tr("{first} and {last}", first=house, last=changed)
    return house or changed


def choice_summary_house(variant: Variant) -> str:
    """The house-rule switches in a few words: "none on", "2 on (3, 4)", "all on"."""
    on = house_rules_in_force(variant)
    fitting = [c for c in house_rule_choices(variant) if not c.unfit and c.name != SELF_TARGET]
    if not on:
        text = tr("none on")
    elif len(on) == len(fitting):
        text = tr("all on")
    else:
        numbers = list(dict.fromkeys(str(r.number) for r in on))
        text = tr_n("{count} on (rule {numbers})", "{count} on (rules {numbers})",
                    len(numbers), count=len(on), numbers=", ".join(numbers))
    if self_targeting(variant):
        text = tr("{rules}; self-targeting allowed", rules=text)
    return text


def summary(variant: Variant) -> str:
    """The rule set in a short paragraph for the Rules page's header: the registered rule
    set's own summary (the house rules switched on it are listed under it, each with its
    quote), or for McGuire's, a sentence pointing at them."""
    fam = VARIANTS.get(variant.family or variant.name, variant)
    if fam.name == "mcguire":
        return tr("The base game with McGuire's house rules on top. Each one in force is "
                  "explained below, with the sentence it comes from.")
    return tr(fam.summary)


def title(ruleset: RuleSet | str) -> str:
    """A rule set's name for a list or a heading: its title, and the table rules it changes
    in a few words ("Coup (base game) · everyone who wants to may challenge")."""
    rs = parse_rules(ruleset) if isinstance(ruleset, str) else ruleset
    table = [short_option(r) for r in table_rules_in_force(rs)]
    return title_words(rs.variant) + ("" if not table else " · " + "; ".join(table))


def header_line(ruleset: RuleSet) -> str:
    """The badge line under the Rules page's set-up: the house rules and table rules in force,
    or that there are none, each linking to its section."""
    house = house_rules_words(ruleset.variant)
    n = len(house_rules_in_force(ruleset.variant)) + self_targeting(ruleset.variant)
    table = [short_option(r) for r in table_rules_in_force(ruleset)]
    parts = []
    if house:
        parts.append(":orange-badge[" + tr_n("{n} house rule", "{n} house rules", n) + "] "
                     + " · ".join(house))
    else:
        parts.append(":gray-badge[" + tr("No house rules") + "]")
    if table:
        parts.append(":blue-badge[" + tr_n("{n} table rule changed", "{n} table rules changed",
                                           len(table)) + "] " + " · ".join(table))
    else:
        parts.append(":gray-badge[" + tr("Table rules as in the rulebook") + "]")
    return " ".join(parts) + " — " + tr("see [House rules](#house-rules) and [Table "
                                        "rules](#table-rules)")
