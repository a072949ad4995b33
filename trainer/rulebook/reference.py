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
from trainer.engine.explain import PHASE_QUESTION
from trainer.engine.game import Phase
from trainer.engine.rules import ActionSpec, Options, Variant
from trainer.engine.variants import CARD_POWERS

# ------------------------------------------------------------------------------------ words


def action_name(action: Action) -> str:
    """`Action.FOREIGN_AID` -> "Foreign aid"."""
    return action.label[:1].upper() + action.label[1:]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def join_words(words: list[str] | tuple[str, ...], last: str = "or") -> str:
    """["a"] -> "a"; ["a", "b"] -> "a or b"; ["a", "b", "c"] -> "a, b or c"."""
    words = list(words)
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def first_sentence(text: str) -> str:
    """The first sentence of a rule text (for a card face, where space is short)."""
    match = re.match(r"(.+?[.!?])(\s|$)", text.strip())
    return match.group(1) if match else text.strip()


_SOURCE_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt \(([^)]*)\)")


def source_label(source: str) -> str:
    """A source note for people: "001_efafd3cbf19ea30b.txt (official rulebook)" -> "the official
    rulebook". The raw note (with the file names) stays available for citation."""
    text = _SOURCE_FILE.sub(lambda m: f"the {m.group(1)}", source)
    return text[:1].upper() + text[1:]


def blocker_text(blockers: tuple[Character, ...], scope: str) -> str:
    """Who may block and with which character, e.g. "The target, claiming Ambassador or
    Captain"; "Nobody" when the action cannot be blocked."""
    if not blockers or scope == "nobody":
        return "Nobody"
    who = "The target" if scope == "target" else "Any other player"
    return f"{who}, claiming {join_words([c.value for c in blockers])}"


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
            return f"NOT holding the {self.character.value}"
        return self.character.value if self.character else "None (anyone may)"

    @property
    def cost_text(self) -> str:
        text = f"{self.cost} coin{'s' if self.cost != 1 else ''}" if self.cost else "Free"
        if self.other_cost:
            text += f" ({self.other_cost} for another player)"
        return text

    @property
    def target_text(self) -> str:
        if self.other_cost:
            return "Yourself or one other player"
        if self.targeted and self.self_target:
            return "Any player, yourself included"
        return "One other player" if self.targeted else "No target"

    @property
    def block_text(self) -> str:
        return blocker_text(self.blockers, self.block_scope)

    @property
    def challenge_text(self) -> str:
        if self.challengeable and self.inverted:
            return f"Yes, the other way round: a {self.character} holder must concede"
        return f"Yes: the {self.character} claim" if self.challengeable else "No"


def action_rows(variant: Variant, options: Options | None = None) -> list[ActionRow]:
    """The variant's action table, one row per action, in the table's order (named in the
    options' vocabulary)."""
    words = options or Options()
    return [
        ActionRow(
            action=s.action, name=_capital(words.action_label(s.action)), character=s.claim,
            cost=s.cost,
            targeted=s.targeted, blockers=s.blockers, block_scope=s.block_scope,
            challengeable=s.challengeable, effect=s.effect, counter=s.counter,
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
        return self.character.value


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
            power=CARD_POWERS.get(c, "") if (c in variant.specials or c not in CARD_POWERS
                                            or c is Character.GRAVEROBBER) else "",
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
            return f"{coins[0]} each"
        rest = set(coins[1:])
        if len(rest) == 1:
            return f"{coins[0]} for the first player, {rest.pop()} for the others"
        return ", ".join(f"seat {i + 1}: {c}" for i, c in enumerate(coins))

    @property
    def court_text(self) -> str:
        text = ", ".join(f"{n} {c.value}" for c, n in self.court)
        if len(self.specials) == 1:
            text += f" (one of them the {self.specials[0].value})"
        elif self.specials:
            text += (" (among them one each of the "
                     + join_words([c.value for c in self.specials], "and") + ")")
        return text


def setup_facts(variant: Variant, players: int, options: Options | None = None) -> SetupFacts:
    """Deck, hands and coins for `players` players; ValueError outside the rule set's range
    (up to 20 players with the web version's deck, `Options.more_players`)."""
    most = variant.most_players(options)
    if not variant.min_players <= players <= most:
        raise ValueError(
            f"{variant.title} is for {variant.min_players}–{most} players, not {players}"
        )
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


def _unit(n: int, word: str) -> str:
    return word if n == 1 else f"{word}s"


def setup_text(facts: SetupFacts, finite_treasury: bool = True) -> str:
    """The deal in one paragraph (markdown: the player count in bold)."""
    if finite_treasury:
        left = facts.coins_total - sum(facts.starting_coins) - facts.mat_coins
        treasury = (f"the Treasury holds {facts.coins_total} coins ({left} after everyone takes "
                    f"their starting coins)")
    else:
        treasury = "the Treasury never runs out (a table rule)"
    if facts.draft:
        return (
            f"With **{facts.players} players**: {facts.court_text} are split into three sets of "
            f"one of each. Each player keeps one card of their own set and puts four out of the "
            f"game; the third set deals one card to each and leaves {facts.deck_size - 12} in "
            f"the Court deck. Starting coins: {facts.starting_coins_text}; {treasury}."
        )
    mat = ""
    if facts.mat_cards:
        mat = (f" {facts.mat_cards} more go face down on the event mat with "
               f"{facts.mat_coins} coin{'s' if facts.mat_coins != 1 else ''}.")
    return (
        f"With **{facts.players} players**: {facts.court_text} make a Court deck of "
        f"{facts.deck_size}. Deal {facts.hand_size} face down to each player ({facts.dealt} "
        f"cards).{mat} That leaves {facts.left_in_deck} in the deck. Starting coins: "
        f"{facts.starting_coins_text}; {treasury}."
    )


def copies_text(variant: Variant, options: Options | None = None) -> str:
    """How the deck grows with the table, e.g. "3 for 2–6 players, 4 for 7–8, 5 for 9–10"."""
    groups: list[list[int]] = []  # [copies, first, last]
    for n in range(variant.min_players, variant.most_players(options) + 1):
        c = variant.copies(n)
        if groups and groups[-1][0] == c:
            groups[-1][2] = n
        else:
            groups.append([c, n, n])
    parts = [f"{c} for {a}–{b}" if a != b else f"{c} for {a}" for c, a, b in groups]
    if parts:
        parts[0] += " players"
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
    coup_note = ("cannot be blocked or challenged"
                 if coup and not coup.blockable and not coup.challengeable
                 else "the target loses an influence")
    return [
        Fact("copies", "Each character", str(f.copies), "copies" if f.copies != 1 else "copy",
             copies_text(variant, options)),
        Fact("deck", "Court deck", str(f.deck_size), _unit(f.deck_size, "card"),
             f"{len(variant.characters)} characters × {f.copies}"
             + (f", {len(f.specials)} with a power" if f.specials else "")),
        Fact("hand", "Cards in hand", str(f.hand_size), "", "each card is one influence"),
        Fact("coins", "Starting coins", " or ".join(str(c) for c in coins),
             _unit(coins[-1], "coin"),
             "for every player" if len(coins) == 1 else f.starting_coins_text),
        Fact("coup", "Coup costs", str(f.coup_cost), _unit(f.coup_cost, "coin"), coup_note),
        Fact("forced", "Must coup at", f"{f.forced_coup_at}+", "coins",
             "at the start of a turn"),
    ]


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
            name=name, title=info.title, question=info.question,
            choices=tuple(Choice(v, text, v == defaults[name], v == active[name])
                          for v, text in info.choices.items()),
            default=defaults[name], active=active[name], source=info.source,
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


def _paid(specs: list[ActionSpec], plural: str = "are", singular: str = "is") -> str:
    """"the 3 coins paid for Assassinate are" (the verb agrees with the coins)."""
    many = len(specs) > 1 or specs[0].cost != 1
    return join_words([f"the {s.cost} coin{'s' if s.cost != 1 else ''} paid for "
                       f"{action_name(s.action)}" for s in specs], "and") + (
        f" {plural}" if many else f" {singular}")


def _claimed(variant: Variant) -> list[ActionSpec]:
    return [s for s in variant.actions if s.challengeable]


def _gainless_words(variant: Variant) -> str:
    """The actions that can gain nothing in this rule set, for the `gainless_actions` rule."""
    names = {s.action for s in variant.actions}
    bits = []
    if Action.STEAL in names:
        bits.append("a steal from a player with no coins")
    if Action.EMBEZZLE in names:
        bits.append("embezzling from an empty Treasury Reserve")
    bits.append("income, foreign aid or tax from an empty Treasury")
    return join_words(bits)


def turn_steps(variant: Variant, options: Options | None = None) -> list[Step]:
    """The flow of one turn under the variant's table and the options in force."""
    options = options or Options()
    claimed = _claimed(variant)
    blockable = [s for s in variant.actions if s.blockable]
    costly = [s for s in variant.actions if s.cost]
    claim_refund = [s for s in claimed if s.cost]

    cost_words = join_words([f"{action_name(s.action)} costs {s.cost}" for s in costly], "and")
    step1 = (
        f"The player whose turn it is announces one action and pays its cost ({cost_words}). "
        f"Anyone may announce any action: claiming a character needs no proof. With "
        f"{variant.forced_coup_at} or more coins at the start of the turn the only action "
        f"allowed is a coup."
    )
    if variant.self_target:
        step1 += " A player may even coup or assassinate themselves (house rule 7 is off)."
    if options.gainless_actions == "refused":
        step1 += (f" An action that would gain nothing ({_gainless_words(variant)}) may not be "
                  f"taken: it would be a pass, and a player may not pass.")

    if options.challenge_order == "target_first":
        order = "The target (if any) is asked first, then the others in clockwise order"
    else:
        order = "The other players are asked one at a time, clockwise from the acting player"
    who = ("any player may challenge the claim, the claimant too (asked last)"
           if variant.self_target else "any other player may challenge the claim")
    settle = ("everyone who wants to challenges (see the challenge rules)"
              if options.challengers == "all"
              else "the first one who challenges settles it (see the challenge rules)")
    step2 = (
        f"If the action claims a character, {who}. {order}; {settle}. If the claim falls, "
        f"the action fails"
        + (f" and {_paid(claim_refund)} returned" if claim_refund else "")
        + "; if it stands, the turn goes on."
    )

    block_bits = []
    for s in blockable:
        full = tuple(c for c in s.blockers if c not in variant.reducers)
        bit = f"{action_name(s.action)}: {_lower_first(blocker_text(full, s.block_scope))}"
        half = [c.value for c in s.blockers if c in variant.reducers]
        if half:
            bit += f", while claiming {join_words(half)} only reduces it to 1 coin"
        block_bits.append(bit)
    after_lost = (
        "A target who challenged and lost may still block."
        if options.block_after_lost_challenge
        else "An action that was challenged can no longer be blocked."
    )
    step3 = (
        f"If the action can be blocked, players may block it by claiming a character "
        f"({'; '.join(block_bits)}). {after_lost}"
    )
    shared = [s for s in blockable if s.block_scope == "anyone"]
    if shared:
        what = join_words([action_name(s.action) for s in shared])
        step3 += " " + {
            "first": f"If several want to block {what}, the first one asked blocks.",
            "queue": f"If several want to block {what}, the first one asked blocks; if that "
                     f"block falls, the players not yet asked may still block, one after "
                     f"another.",
            "random": f"If several want to block {what}, one of them is picked at random.",
        }[options.foreign_aid_blockers]

    kept = [s for s in blockable if s.cost]
    asked = ("The acting player is asked first, then the others clockwise, the blocker last"
             if variant.self_target
             else "The acting player is asked first, then the others clockwise")
    step4 = (
        f"A block is a character claim too, so it can be challenged. {asked}. If the block "
        f"stands, the action fails"
        + (f" and {_paid(kept, 'stay', 'stays')} spent" if kept else "")
        + "; if the block falls, the action goes ahead."
    )
    if Character.TREATY in variant.specials:
        step4 += (" When a Duke's block of foreign aid stands, the acting player may claim "
                  "the Treaty Contessa to override it; that claim can be challenged too.")

    step5 = (
        "If nothing stopped it, the action takes effect. A player who must lose an influence "
        "chooses one of their face-down cards and turns it face up; a player with no face-down "
        "cards is out of the game. The last player with influence wins."
    )
    if variant.pay_instead:
        step5 = step5.replace(
            "turns it face up;",
            f"turns it face up (after a lost challenge they may pay {variant.pay_instead} "
            f"coins instead);")

    q = PHASE_QUESTION
    return [
        Step("Action", step1, (), (q[Phase.ACTION],)),
        Step("Challenge the action", step2,
             tuple(action_name(s.action) for s in claimed),
             (q[Phase.CHALLENGE_ACTION], q[Phase.PROVE_ACTION])),
        Step("Block", step3, tuple(action_name(s.action) for s in blockable), (q[Phase.BLOCK],)),
        Step("Challenge the block", step4, tuple(action_name(s.action) for s in blockable),
             (q[Phase.CHALLENGE_BLOCK], q[Phase.PROVE_BLOCK])),
        Step("Resolution", step5, (), (q[Phase.LOSE], q[Phase.EXCHANGE])),
    ]


def challenge_rules(variant: Variant, options: Options | None = None) -> list[str]:
    """The challenge rules as short sentences, naming the rule set's own actions and numbers
    and following the table rules in force."""
    options = options or Options()
    claimed = _claimed(variant)
    unclaimed = [s for s in variant.actions if not s.challengeable]
    refund = [s for s in claimed if s.cost]
    extra = ", every block and the Treaty claim" if Character.TREATY in variant.specials \
        else ", and every block"
    rules = [
        "Only a claim to hold a character can be challenged: the actions "
        + join_words([f"{action_name(s.action)} ({s.claim})" for s in claimed], "and")
        + extra + ".",
    ]
    if unclaimed:
        rules.append(
            join_words([action_name(s.action) for s in unclaimed], "and")
            + " claim no character, so they can never be challenged."
        )
    if options.challengers == "all":
        rules.append("When several players want to challenge the same claim, all of them do. "
                     "If the claim is proven, each of them loses an influence, in table order; "
                     "if not, only the claimant loses one.")
    else:
        rules.append("When several players want to challenge the same claim, only the first "
                     "one asked challenges.")
    rules += [
        "If the challenged player shows the claimed card, the challenger loses an influence. "
        "The shown card is shuffled back into the Court deck and its owner draws a "
        "replacement, so the proof does not give their hand away; the action or block goes "
        "ahead.",
        "If they cannot (or choose not to) show it, they lose an influence and the action or "
        "block fails"
        + (f"; {_paid(refund)} returned." if refund else "."),
        "Bluffing is allowed at any time. A lie only costs something when it is challenged.",
    ]
    inverted = [s for s in variant.actions if s.inverted]
    for spec in inverted:
        rules.append(f"{action_name(spec.action)} claims NOT to hold the {spec.claim}: a "
                     f"challenged player who holds one must concede; one who does not shows "
                     f"every face-down card, and those cards are shuffled back and replaced.")
    if variant.challenge_bounty:
        rules.append(f"Whoever challenges takes {variant.challenge_bounty} coin from the "
                     f"Treasury at once, win or lose.")
    if variant.pay_instead:
        rules.append(f"The loser of a challenge may pay {variant.pay_instead} coins instead of "
                     f"losing a card, if they have them.")
    if variant.self_target:
        rules.append("House rule 7 is off: a player may challenge their own claim or block "
                     "(they are asked last). Either way it goes, they lose an influence.")
    if variant.graverobber:
        rules.append("Graverobber claims, made after a player is exiled, can be challenged "
                     "one by one like any claim.")
    return rules


def coup_rules(variant: Variant) -> list[str]:
    """The coup and the forced coup, with the variant's numbers."""
    coup = next((s for s in variant.actions if s.action == Action.COUP), None)
    rules = [
        f"A coup costs {variant.coup_cost} coins and makes the target lose an influence"
        + (f". {coup.counter}" if coup else "."),
        f"A player who starts their turn with {variant.forced_coup_at} or more coins must "
        f"launch a coup.",
    ]
    if variant.self_target:
        rules.append("House rule 7 is off: a player may also coup themselves.")
    if Character.VENGEANCE in variant.specials:
        rules.append("A player whose Vengeance Assassin is killed by a Coup makes a free "
                     "assassination against anyone, even if now exiled; a Contessa can block "
                     "it. If it takes the last player's last card, the game is a tie.")
    if variant.allegiances:
        rules.append("A coup may not target a player of your own allegiance while another "
                     "allegiance is still in the game.")
    return rules
