"""The rules reference as data: rows, facts and steps built from the engine's own tables.

Everything here is derived from `trainer.engine.rules` (the variant's action table, its
numbers and the open-point options) so the Rules page can never drift from the game the engine
plays. Pure functions with no Streamlit import: pages lay the results out,
`trainer.views.cardart` draws them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pandas as pd

from trainer.engine.cards import Action, Character
from trainer.engine.explain import (
    join_and,
    join_or,
    phase_question,
    vocabulary_word,
)
from trainer.engine.game import Phase
from trainer.engine.names import action_word, card_name
from trainer.engine.rules import SOURCE_FIELDS, ActionSpec, OptionInfo, Options, Variant
from trainer.engine.variants import CARD_POWERS, title_words
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.catalogue import CLOSE, OPEN

# ------------------------------------------------------------------------------------ words


def action_name(action: Action) -> str:
    """`Action.FOREIGN_AID` -> "Foreign aid", in the reader's language."""
    return _capital(action_word(action))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def join_words(words: list[str] | tuple[str, ...], last: str = "or") -> str:
    """["a"] -> "a"; ["a", "b"] -> "a or b"; ["a", "b", "c"] -> "a, b or c"."""
    return join_and(words) if last == "and" else join_or(words)


def first_sentence(text: str) -> str:
    """The first sentence of a rule text (for a card face, where space is short)."""
    match = re.match(r"(.+?[.!?])(\s|$)", text.strip())
    first = match.group(1) if match else text.strip()
    # A marked message (the pseudo-language's ⟦...⟧) stays marked when it is cut.
    return first + CLOSE * (first.count(OPEN) - first.count(CLOSE))


_SOURCE_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt \(([^)]*)\)")
# The rule texts by the words a source note gives them, as a reader names them.
_SOURCE_NAMES: dict[str, str] = {
    "official rulebook": N_("the official rulebook"),
    "Philippine edition rulebook": N_("the Philippine edition rulebook"),
    "Treason web version": N_("the Treason web version"),
    "McGuire house rules": N_("the McGuire house rules"),
    "forum variant": N_("the forum variant"),
}
_COUPML = N_("coupml 0.1.1 (an independent Python engine of the base game)")


def _source_name(what: str) -> str:
    known = _SOURCE_NAMES.get(what)
    return tr(known) if known is not None else tr("the {text}", text=what)


def source_label(source: str) -> str:
    """A source note for people: "001_efafd3cbf19ea30b.txt (official rulebook)" -> "the official
    rulebook", in the reader's language. The raw note (with the file names) stays available
    for citation."""
    text = _SOURCE_FILE.sub(lambda m: _source_name(m.group(1)), source)
    return _capital(text)


def source_words(info: OptionInfo) -> str:
    """A table rule's source note for people: its words with the rule texts named as
    `source_label` names them, in the reader's language."""
    if not info.source_words:
        return source_label(info.source)
    names = {key: (tr(_COUPML) if key == "coupml" else source_label(value)[:1].lower()
                   + source_label(value)[1:]) for key, value in SOURCE_FIELDS.items()}
    return _capital(tr(info.source_words, **names))


def blocker_text(blockers: tuple[Character, ...], scope: str) -> str:
    """Who may block and with which character, e.g. "The target, claiming Ambassador or
    Captain"; "Nobody" when the action cannot be blocked."""
    if not blockers or scope == "nobody":
        return tr("Nobody")
    cards = join_or([card_name(c) for c in blockers])
    if scope == "target":
        return tr("The target, claiming {cards}", cards=cards)
    return tr("Any other player, claiming {cards}", cards=cards)


# ------------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One action of the summary card, ready to print."""

    action: Action
    name: str
    character: Character | None
    cost: int
    targeted: bool
    blockers: tuple[Character, ...]
    block_scope: str
    challengeable: bool
    effect: str
    counter: str
    other_cost: int = 0
    inverted: bool = False
    self_target: bool = False  # McGuire's rule 7 switched off: a player may target themselves
    reducers: tuple[Character, ...] = ()  # claims that only reduce it (McGuire's Ambassador)

    @property
    def character_text(self) -> str:
        if self.character and self.inverted:
            return tr("NOT holding the {card}", card=card_name(self.character))
        return card_name(self.character) if self.character else tr("None (anyone may)")

    @property
    def cost_text(self) -> str:
        text = tr_n("{n} coin", "{n} coins", self.cost) if self.cost else tr("Free")
        if self.other_cost:
            text = tr("{cost} ({other} for another player)", cost=text, other=self.other_cost)
        return text

    @property
    def target_text(self) -> str:
        if self.other_cost:
            return tr("Yourself or one other player")
        if self.targeted and self.self_target:
            return tr("Any player, yourself included")
        return tr("One other player") if self.targeted else tr("No target")

    @property
    def block_text(self) -> str:
        return blocker_text(self.blockers, self.block_scope)

    @property
    def challenge_text(self) -> str:
        if self.challengeable and self.inverted:
            return tr("Yes, the other way round: a {card} holder must concede",
                      card=card_name(self.character or ""))
        if self.challengeable:
            return tr("Yes: the {card} claim", card=card_name(self.character or ""))
        return tr("No")


def action_rows(variant: Variant, options: Options | None = None) -> list[ActionRow]:
    """The variant's action table, one row per action, in the table's order (named in the
    options' vocabulary)."""
    words = options or Options()
    return [
        ActionRow(
            action=s.action, name=_capital(vocabulary_word(words.vocabulary, s.action)),
            character=s.claim, cost=s.cost,
            targeted=s.targeted, blockers=s.blockers, block_scope=s.block_scope,
            challengeable=s.challengeable, effect=tr(s.effect), counter=tr(s.counter),
            other_cost=s.other_cost, inverted=s.inverted,
            self_target=variant.self_target and s.action in (Action.COUP, Action.ASSASSINATE),
            reducers=tuple(c for c in s.blockers if c in variant.reducers),
        )
        for s in variant.actions
    ]


ACTION_COLUMNS = ("Action", "Character", "Cost", "Target", "Blocked by", "Challenge?",
                  "Effect", "Counteraction")


def action_frame(variant: Variant) -> pd.DataFrame:
    """The action table as a DataFrame with readable column names (one row per action)."""
    rows = [
        {
            "Action": r.name, "Character": r.character_text, "Cost": r.cost_text,
            "Target": r.target_text, "Blocked by": r.block_text,
            "Challenge?": r.challenge_text, "Effect": r.effect, "Counteraction": r.counter,
        }
        for r in action_rows(variant)
    ]
    return pd.DataFrame(rows, columns=list(ACTION_COLUMNS))


# ---------------------------------------------------------------------------- characters


@dataclass(frozen=True, slots=True)
class CharacterRole:
    """What one character lets its holder (or a bluffer) do, derived from the action table."""

    character: Character
    actions: tuple[ActionSpec, ...]  # actions that claim this character
    blocks: tuple[ActionSpec, ...]  # actions this character blocks
    power: str = ""  # what it does beyond the action table (modified cards, Graverobber)
    reduces: tuple[ActionSpec, ...] = ()  # actions it only reduces (McGuire's Ambassador)

    @property
    def name(self) -> str:
        """The card's identifier ("Duke"); `title` is its name for a reader."""
        return self.character.value

    @property
    def title(self) -> str:
        return card_name(self.character)


def character_roles(variant: Variant) -> list[CharacterRole]:
    """Every card of the variant, with the actions it claims and the actions it blocks."""
    roles = []
    for c in variant.cards:
        role = c.role
        claimed = tuple(s for s in variant.actions if s.claim == role and not s.inverted)
        stops = tuple(s for s in variant.actions if role in s.blockers)
        reduces = tuple(s for s in stops if role in variant.reducers)
        roles.append(CharacterRole(
            character=c, actions=claimed,
            blocks=tuple(s for s in stops if s not in reduces),
            power=tr(CARD_POWERS[c]) if c in CARD_POWERS and (
                c in variant.specials or c is Character.GRAVEROBBER) else "",
            reduces=reduces,
        ))
    return roles


def character_frame(variant: Variant) -> pd.DataFrame:
    """One row per character: its action(s) and what it blocks."""
    rows = [
        {
            "Character": r.name,
            "Action": "; ".join(f"{action_name(s.action)}: {first_sentence(s.effect)}"
                                for s in r.actions) or "None",
            "Blocks": join_words([action_name(s.action) for s in r.blocks], "and") or "Nothing",
        }
        for r in character_roles(variant)
    ]
    return pd.DataFrame(rows, columns=["Character", "Action", "Blocks"])


# --------------------------------------------------------------------------------- setup


@dataclass(frozen=True, slots=True)
class SetupFacts:
    """The numbers of a table of `players` under one variant."""

    players: int
    copies: int
    deck_size: int
    court: tuple[tuple[Character, int], ...]  # character, copies
    hand_size: int
    dealt: int
    left_in_deck: int
    starting_coins: tuple[int, ...]  # by seat, from the first player
    coins_total: int
    coup_cost: int
    forced_coup_at: int
    exchange_draw: int
    specials: tuple[Character, ...] = ()
    mat_cards: int = 0
    mat_coins: int = 0
    draft: bool = False

    @property
    def starting_coins_text(self) -> str:
        coins = self.starting_coins
        if len(set(coins)) == 1:
            return tr("{n} each", n=coins[0])
        rest = set(coins[1:])
        if len(rest) == 1:
            return tr("{first} for the first player, {others} for the others", first=coins[0],
                      others=rest.pop())
        return ", ".join(tr("seat {seat}: {n}", seat=i + 1, n=c) for i, c in enumerate(coins))

    @property
    def court_text(self) -> str:
        text = ", ".join(tr("{n} {card}", n=n, card=card_name(c)) for c, n in self.court)
        if len(self.specials) == 1:
            text = tr("{cards} (one of them the {card})", cards=text,
                      card=card_name(self.specials[0]))
        elif self.specials:
            text = tr("{cards} (among them one each of the {specials})", cards=text,
                      specials=join_and([card_name(c) for c in self.specials]))
        return text


def setup_facts(variant: Variant, players: int, options: Options | None = None) -> SetupFacts:
    """Deck, hands and coins for `players` players; ValueError outside the rule set's range
    (up to 20 players with the web version's deck, `Options.more_players`)."""
    most = variant.most_players(options)
    if not variant.min_players <= players <= most:
        raise ValueError(tr("{rules} is for {low}–{high} players, not {n}",
                            rules=title_words(variant), low=variant.min_players, high=most,
                            n=players))
    court = variant.court(players)
    counts = tuple((c, sum(1 for k in court if k.role == c)) for c in variant.characters)
    dealt = players * variant.hand_size
    events = variant.mat_events(players)
    on_mat = sum(1 for e in events if e.startswith("flip"))
    return SetupFacts(
        players=players,
        copies=variant.copies(players),
        deck_size=len(court),
        court=counts,
        hand_size=variant.hand_size,
        dealt=dealt,
        left_in_deck=len(court) - dealt - on_mat,
        starting_coins=tuple(variant.starting_coins(players, s, options)
                             for s in range(players)),
        coins_total=variant.coins_total,
        coup_cost=variant.coup_cost,
        forced_coup_at=variant.forced_coup_at,
        exchange_draw=variant.exchange_draw,
        specials=variant.specials,
        mat_cards=on_mat,
        mat_coins=sum(1 for e in events if e.startswith("coin")),
        draft=variant.draft,
    )


def setup_text(facts: SetupFacts, finite_treasury: bool = True) -> str:
    """The deal in one paragraph (markdown: the player count in bold)."""
    if finite_treasury:
        left = facts.coins_total - sum(facts.starting_coins) - facts.mat_coins
        treasury = tr("the Treasury holds {total} coins ({left} after everyone takes their "
                      "starting coins)", total=facts.coins_total, left=left)
    else:
        treasury = tr("the Treasury never runs out (a table rule)")
    if facts.draft:
        return tr(
            "With **{players} players**: {court} are split into three sets of one of each. "
            "Each player keeps one card of their own set and puts four out of the game; the "
            "third set deals one card to each and leaves {left} in the Court deck. Starting "
            "coins: {coins}; {money}.", players=facts.players, court=facts.court_text,
            left=facts.deck_size - 12, coins=facts.starting_coins_text, money=treasury)
    deal = tr("With **{players} players**: {court} make a Court deck of {deck}. Deal {hand} "
              "face down to each player ({dealt} cards).", players=facts.players,
              court=facts.court_text, deck=facts.deck_size, hand=facts.hand_size,
              dealt=facts.dealt)
    if facts.mat_cards:
        deal += " " + tr_n("{cards} more go face down on the event mat with {n} coin.",
                           "{cards} more go face down on the event mat with {n} coins.",
                           facts.mat_coins, cards=facts.mat_cards)
    return deal + " " + tr("That leaves {left} in the deck. Starting coins: {coins}; "
                           "{money}.", left=facts.left_in_deck,
                           coins=facts.starting_coins_text, money=treasury)


def copies_text(variant: Variant, options: Options | None = None) -> str:
    """How the deck grows with the table, e.g. "3 for 2–6 players, 4 for 7–8, 5 for 9–10"."""
    groups: list[list[int]] = []  # [copies, first, last]
    for n in range(variant.min_players, variant.most_players(options) + 1):
        c = variant.copies(n)
        if groups and groups[-1][0] == c:
            groups[-1][2] = n
        else:
            groups.append([c, n, n])
    parts = [tr("{copies} for {low}–{high}", copies=c, low=a, high=b) if a != b
             else tr("{copies} for {n}", copies=c, n=a) for c, a, b in groups]
    if parts:
        parts[0] = tr("{range} players", range=parts[0])
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Fact:
    """One number of the setup, for a tile: a key, a label, the value and its unit, a note."""

    key: str
    label: str
    value: str
    unit: str
    note: str


def setup_tiles(variant: Variant, players: int, options: Options | None = None) -> list[Fact]:
    """The setup numbers worth a glance, for `players` players under these table rules."""
    f = setup_facts(variant, players, options)
    coins = sorted(set(f.starting_coins))
    coup = next((s for s in variant.actions if s.action == Action.COUP), None)
    coup_note = (tr("cannot be blocked or challenged")
                 if coup and not coup.blockable and not coup.challengeable
                 else tr("the target loses an influence"))
    deck_note = tr("{characters} characters × {copies}", characters=len(variant.characters),
                   copies=f.copies)
    if f.specials:
        deck_note = tr("{deck}, {n} with a power", deck=deck_note, n=len(f.specials))
    return [
        Fact("copies", tr("Each character"), str(f.copies),
             tr_n("copy", "copies", f.copies),
             copies_text(variant, options)),
        Fact("deck", tr("Court deck"), str(f.deck_size), _unit(f.deck_size, "card"), deck_note),
        Fact("hand", tr("Cards in hand"), str(f.hand_size), "",
             tr("each card is one influence")),
        Fact("coins", tr("Starting coins"), join_or([str(c) for c in coins]),
             _unit(coins[-1], "coin"),
             tr("for every player") if len(coins) == 1 else f.starting_coins_text),
        Fact("coup", tr("Coup costs"), str(f.coup_cost), _unit(f.coup_cost, "coin"), coup_note),
        Fact("forced", tr("Must coup at"), f"{f.forced_coup_at}+", _unit(2, "coin"),
             tr("at the start of a turn")),
    ]


def _unit(n: int, word: str) -> str:
    """A tile's unit after its number: "card"/"cards", "coin"/"coins"."""
    if word == "card":
        return tr_n("card", "cards", n)
    return tr_n("coin", "coins", n)


# ------------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Choice:
    value: Any
    text: str
    is_default: bool
    is_active: bool


@dataclass(frozen=True, slots=True)
class OptionRow:
    """One open point of the rules, with its default and the answer now in force."""

    name: str
    title: str
    question: str
    choices: tuple[Choice, ...]
    default: Any
    active: Any
    source: str
    source_text: str = ""  # the source note for people (`source_words`)

    @property
    def changed(self) -> bool:
        return bool(self.active != self.default)

    @property
    def active_text(self) -> str:
        return next(c.text for c in self.choices if c.is_active)

    @property
    def default_text(self) -> str:
        return next(c.text for c in self.choices if c.is_default)


def option_rows(options: Options | None = None,
                variant: Variant | None = None) -> list[OptionRow]:
    """The options from `Options.info()` (only those that matter to `variant`, when given),
    marking the default and the active choice."""
    options = options or Options()
    defaults = Options.defaults().as_dict()
    active = options.as_dict()
    rows = []
    infos = options.relevant(variant) if variant is not None else Options.info()
    for name, info in infos.items():
        rows.append(OptionRow(
            name=name, title=tr(info.title), question=tr(info.question),
            choices=tuple(Choice(v, tr(text), v == defaults[name], v == active[name])
                          for v, text in info.choices.items()),
            default=defaults[name], active=active[name], source=info.source,
            source_text=source_words(info),
        ))
    return rows


def option_frame(options: Options | None = None) -> pd.DataFrame:
    """The options as a table: title, the answer in force, whether it is the default, source."""
    rows = [
        {"Option": r.title, "In force": r.active_text,
         "Rulebook default": "yes" if not r.changed else f"no (default: {r.default_text})",
         "Source": source_label(r.source)}
        for r in option_rows(options)
    ]
    return pd.DataFrame(rows, columns=["Option", "In force", "Rulebook default", "Source"])


# ------------------------------------------------------------------------- turn and rules


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a turn: a title, what happens, and the decisions the engine asks for."""

    title: str
    text: str
    applies_to: tuple[str, ...]  # action names; empty = every action
    decisions: tuple[str, ...]  # from the engine's PHASE_QUESTION table


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _paid(specs: list[ActionSpec]) -> tuple[str, bool]:
    """"the 3 coins paid for Assassinate", and whether the verb after it is plural."""
    many = len(specs) > 1 or specs[0].cost != 1
    return join_and([tr_n("the {n} coin paid for {action}", "the {n} coins paid for {action}",
                          s.cost, action=action_name(s.action)) for s in specs]), many


def _claimed(variant: Variant) -> list[ActionSpec]:
    return [s for s in variant.actions if s.challengeable]


def _gainless_words(variant: Variant) -> str:
    """The actions that can gain nothing in this rule set, for the `gainless_actions` rule."""
    names = {s.action for s in variant.actions}
    bits = []
    if Action.STEAL in names:
        bits.append(tr("a steal from a player with no coins"))
    if Action.EMBEZZLE in names:
        bits.append(tr("embezzling from an empty Treasury Reserve"))
    bits.append(tr("income, foreign aid or tax from an empty Treasury"))
    return join_or(bits)


def turn_steps(variant: Variant, options: Options | None = None) -> list[Step]:
    """The flow of one turn under the variant's table and the options in force."""
    options = options or Options()
    claimed = _claimed(variant)
    blockable = [s for s in variant.actions if s.blockable]
    costly = [s for s in variant.actions if s.cost]
    claim_refund = [s for s in claimed if s.cost]

    cost_words = join_and([tr("{action} costs {cost}", action=action_name(s.action),
                              cost=s.cost) for s in costly])
    step1 = tr(
        "The player whose turn it is announces one action and pays its cost ({costs}). "
        "Anyone may announce any action: claiming a character needs no proof. With {forced} "
        "or more coins at the start of the turn the only action allowed is a coup.",
        costs=cost_words, forced=variant.forced_coup_at)
    if variant.self_target:
        step1 += " " + tr("A player may even coup or assassinate themselves (house rule 7 is "
                          "off).")
    if options.gainless_actions == "refused":
        step1 += " " + tr("An action that would gain nothing ({actions}) may not be taken: it "
                          "would be a pass, and a player may not pass.",
                          actions=_gainless_words(variant))

    if options.challenge_order == "target_first":
        order = tr("The target (if any) is asked first, then the others in clockwise order")
    else:
        order = tr("The other players are asked one at a time, clockwise from the acting "
                   "player")
    who = (tr("any player may challenge the claim, the claimant too (asked last)")
           if variant.self_target else tr("any other player may challenge the claim"))
    settle = (tr("everyone who wants to challenges (see the challenge rules)")
              if options.challengers == "all"
              else tr("the first one who challenges settles it (see the challenge rules)"))
    step2 = tr("If the action claims a character, {who}. {order}; {settle}.", who=who,
               order=order, settle=settle) + " "
    if claim_refund:
        paid, many = _paid(claim_refund)
        step2 += (tr("If the claim falls, the action fails and {paid} are returned; if it "
                     "stands, the turn goes on.", paid=paid) if many else
                  tr("If the claim falls, the action fails and {paid} is returned; if it "
                     "stands, the turn goes on.", paid=paid))
    else:
        step2 += tr("If the claim falls, the action fails; if it stands, the turn goes on.")

    block_bits = []
    for s in blockable:
        full = tuple(c for c in s.blockers if c not in variant.reducers)
        bit = tr("{action}: {who}", action=action_name(s.action),
                 who=_lower_first(blocker_text(full, s.block_scope)))
        half = [card_name(c) for c in s.blockers if c in variant.reducers]
        if half:
            bit = tr("{who}, while claiming {cards} only reduces it to 1 coin", who=bit,
                     cards=join_or(half))
        block_bits.append(bit)
    after_lost = (
        tr("A target who challenged and lost may still block.")
        if options.block_after_lost_challenge
        else tr("An action that was challenged can no longer be blocked.")
    )
    step3 = tr("If the action can be blocked, players may block it by claiming a character "
               "({blocks}).", blocks="; ".join(block_bits)) + " " + after_lost
    shared = [s for s in blockable if s.block_scope == "anyone"]
    if shared:
        what = join_or([action_name(s.action) for s in shared])
        if options.foreign_aid_blockers == "first":
            several = tr("If several want to block {what}, the first one asked blocks.",
                         what=what)
        elif options.foreign_aid_blockers == "queue":
            several = tr("If several want to block {what}, the first one asked blocks; if that "
                         "block falls, the players not yet asked may still block, one after "
                         "another.", what=what)
        else:
            several = tr("If several want to block {what}, one of them is picked at random.",
                         what=what)
        step3 += " " + several

    kept = [s for s in blockable if s.cost]
    asked = (tr("The acting player is asked first, then the others clockwise, the blocker last")
             if variant.self_target
             else tr("The acting player is asked first, then the others clockwise"))
    step4 = tr("A block is a character claim too, so it can be challenged. {asked}.",
               asked=asked) + " "
    if kept:
        paid, many = _paid(kept)
        step4 += (tr("If the block stands, the action fails and {paid} stay spent; if the "
                     "block falls, the action goes ahead.", paid=paid) if many else
                  tr("If the block stands, the action fails and {paid} stays spent; if the "
                     "block falls, the action goes ahead.", paid=paid))
    else:
        step4 += tr("If the block stands, the action fails; if the block falls, the action "
                    "goes ahead.")
    if Character.TREATY in variant.specials:
        step4 += " " + tr("When a Duke's block of foreign aid stands, the acting player may "
                          "claim the Treaty Contessa to override it; that claim can be "
                          "challenged too.")

    if variant.pay_instead:
        step5 = tr(
            "If nothing stopped it, the action takes effect. A player who must lose an "
            "influence chooses one of their face-down cards and turns it face up (after a lost "
            "challenge they may pay {pay} coins instead); a player with no face-down cards is "
            "out of the game. The last player with influence wins.", pay=variant.pay_instead)
    else:
        step5 = tr(
            "If nothing stopped it, the action takes effect. A player who must lose an "
            "influence chooses one of their face-down cards and turns it face up; a player "
            "with no face-down cards is out of the game. The last player with influence wins.")

    def q(phase: Phase) -> str:
        return phase_question(phase)

    return [
        Step(tr("Action"), step1, (), (q(Phase.ACTION),)),
        Step(tr("Challenge the action"), step2,
             tuple(action_name(s.action) for s in claimed),
             (q(Phase.CHALLENGE_ACTION), q(Phase.PROVE_ACTION))),
        Step(tr("Block"), step3, tuple(action_name(s.action) for s in blockable),
             (q(Phase.BLOCK),)),
        Step(tr("Challenge the block"), step4, tuple(action_name(s.action) for s in blockable),
             (q(Phase.CHALLENGE_BLOCK), q(Phase.PROVE_BLOCK))),
        Step(tr("Resolution"), step5, (), (q(Phase.LOSE), q(Phase.EXCHANGE))),
    ]


def challenge_rules(variant: Variant, options: Options | None = None) -> list[str]:
    """The challenge rules as short sentences, naming the rule set's own actions and numbers
    and following the table rules in force."""
    options = options or Options()
    claimed = _claimed(variant)
    unclaimed = [s for s in variant.actions if not s.challengeable]
    refund = [s for s in claimed if s.cost]
    actions = join_and([tr("{action} ({card})", action=action_name(s.action),
                           card=card_name(s.claim or "")) for s in claimed])
    rules = [
        tr("Only a claim to hold a character can be challenged: the actions {actions}, every "
           "block and the Treaty claim.", actions=actions)
        if Character.TREATY in variant.specials else
        tr("Only a claim to hold a character can be challenged: the actions {actions}, and "
           "every block.", actions=actions),
    ]
    if unclaimed:
        rules.append(tr("{actions} claim no character, so they can never be challenged.",
                        actions=join_and([action_name(s.action) for s in unclaimed])))
    if options.challengers == "all":
        rules.append(tr("When several players want to challenge the same claim, all of them "
                        "do. If the claim is proven, each of them loses an influence, in table "
                        "order; if not, only the claimant loses one."))
    else:
        rules.append(tr("When several players want to challenge the same claim, only the first "
                        "one asked challenges."))
    rules.append(tr(
        "If the challenged player shows the claimed card, the challenger loses an influence. "
        "The shown card is shuffled back into the Court deck and its owner draws a "
        "replacement, so the proof does not give their hand away; the action or block goes "
        "ahead."))
    if refund:
        paid, many = _paid(refund)
        rules.append(tr("If they cannot (or choose not to) show it, they lose an influence and "
                        "the action or block fails; {paid} are returned.", paid=paid) if many
                     else tr("If they cannot (or choose not to) show it, they lose an "
                             "influence and the action or block fails; {paid} is returned.",
                             paid=paid))
    else:
        rules.append(tr("If they cannot (or choose not to) show it, they lose an influence and "
                        "the action or block fails."))
    rules.append(tr("Bluffing is allowed at any time. A lie only costs something when it is "
                    "challenged."))
    inverted = [s for s in variant.actions if s.inverted]
    for spec in inverted:
        rules.append(tr("{action} claims NOT to hold the {card}: a challenged player who holds "
                        "one must concede; one who does not shows every face-down card, and "
                        "those cards are shuffled back and replaced.",
                        action=action_name(spec.action), card=card_name(spec.claim or "")))
    if variant.challenge_bounty:
        rules.append(tr_n("Whoever challenges takes {n} coin from the Treasury at once, win or "
                          "lose.", "Whoever challenges takes {n} coins from the Treasury at "
                          "once, win or lose.", variant.challenge_bounty))
    if variant.pay_instead:
        rules.append(tr("The loser of a challenge may pay {pay} coins instead of losing a "
                        "card, if they have them.", pay=variant.pay_instead))
    if variant.self_target:
        rules.append(tr("House rule 7 is off: a player may challenge their own claim or block "
                        "(they are asked last). Either way it goes, they lose an influence."))
    if variant.graverobber:
        rules.append(tr("Graverobber claims, made after a player is exiled, can be challenged "
                        "one by one like any claim."))
    return rules


def coup_rules(variant: Variant) -> list[str]:
    """The coup and the forced coup, with the variant's numbers."""
    coup = next((s for s in variant.actions if s.action == Action.COUP), None)
    first = tr("A coup costs {cost} coins and makes the target lose an influence.",
               cost=variant.coup_cost)
    rules = [
        first + (" " + tr(coup.counter) if coup else ""),
        tr("A player who starts their turn with {forced} or more coins must launch a coup.",
           forced=variant.forced_coup_at),
    ]
    if variant.self_target:
        rules.append(tr("House rule 7 is off: a player may also coup themselves."))
    if Character.VENGEANCE in variant.specials:
        rules.append(tr("A player whose Vengeance Assassin is killed by a Coup makes a free "
                        "assassination against anyone, even if now exiled; a Contessa can "
                        "block it. If it takes the last player's last card, the game is a "
                        "tie."))
    if variant.allegiances:
        rules.append(tr("A coup may not target a player of your own allegiance while another "
                        "allegiance is still in the game."))
    return rules
