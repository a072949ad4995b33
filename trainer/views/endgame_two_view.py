"""The End-game page's duel of two cards against one, in words and option rows, with no
Streamlit in sight.

The duel: two players left, one still holding two cards, the other down to one (their first lost
card lies face up). The solver (`trainer.endgame.hidden_two`) seats the two-card player as
player 0; here "you" may be either, and every probability shown is your chance of winning
unless a sentence says otherwise.

How far it looks: two turns, checked against one. The one-card duel is checked two turns
shorter, so that the same player acts at both cuts; here four turns take over a minute and
three about twenty seconds (measured on this 2-core machine, a cold start), so the page solves
two turns ahead and one, and any figure the two disagree on (by more than
`trainer.endgame.settled.TOLERANCE`) is shown as their range, with no verdict beyond what both
agree on. Where a line of play reaches the horizon both hands are valued face up (the
known-role tables), which is the figures' main approximation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Literal

from trainer.endgame import hidden_two, hidden_two_tables
from trainer.endgame import settled as settledness
from trainer.endgame.hidden_two import HandOption, TwoSolution
from trainer.endgame.hidden_two_tables import TwoEntry
from trainer.endgame.known import MAX_COINS
from trainer.endgame.practice import Practice
from trainer.endgame.public_two import TwoCardGraph, two_card_graph
from trainer.engine.cards import Character
from trainer.engine.game import Game
from trainer.engine.moves import Move
from trainer.engine.names import card_name
from trainer.engine.variants import get_variant
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import number
from trainer.verdicts import Horizons, Valuation, judge, words
from trainer.views.endgame_view import (
    CHARACTERS,
    PLAYED,
    VARIANT,
    Cell,
    OptionRow,
    article,
    best_move_line,
    coins_words,
    mixes_line,
    move_label,
    percent,
    percent_band,
    plural,
    ranged_outcome,
    short_name,
    shows_range,
    turns_words,
    weaker_note,
)
from trainer.views.practice_view import start_line
from trainer.views.table_art import mini_card

Turn = Literal["you", "them"]
HORIZON = 2  # turns ahead, worked out on request
SHORTER = 1  # the check
DEEPER = hidden_two_tables.CHECK  # the stored table's second check, where SHORTER disagreed
DEEPEST = hidden_two_tables.DEEPEST  # its third, where HORIZON and DEEPER disagreed too
_COURT = Counter(get_variant(VARIANT).court(2))

INTRO = N_("The more common end of a real game: one player still holds two cards, the other "
           "is down to one. Set it up to see how often you win if you both play perfectly, "
           "and what each move is worth.")


def how_far() -> str:
    """How far the figures look, and what they were checked against: the four-turn step is
    named only where the stored table holds duels solved that far."""
    share = hidden_two_tables.settled_share(VARIANT)
    if share is not None and share.solved_deepest:
        return tr("Worked out {horizon} ahead and checked against {shorter} (in the stored "
                  "table, where those disagree, against {deeper}, and where those disagree "
                  "too, {deepest} ahead against {deeper}): where the two last looked at "
                  "disagree you see a range, and a move is only called worse than another by "
                  "what both agree on. Looking further ahead takes minutes here, so these "
                  "figures are less certain than the one-card duel's.",
                  horizon=turns_words(HORIZON), shorter=turns_words(SHORTER),
                  deeper=turns_words(DEEPER), deepest=turns_words(DEEPEST))
    return tr("Worked out {horizon} ahead and checked against {shorter} (in the stored table, "
              "where those disagree, against {deeper}): where the two last looked at disagree "
              "you see a range, and a move is only called worse than another by what both "
              "agree on. Looking further ahead takes minutes here, so these figures are less "
              "certain than the one-card duel's.", horizon=turns_words(HORIZON),
              shorter=turns_words(SHORTER), deeper=turns_words(DEEPER))


TIME_NOTE = N_("Every position is worked out ahead, so it shows at once.")
TIME_NOTE_SOLVING = N_("A new position takes a few seconds to work out; one worked out before "
                       "shows at once.")


def time_note() -> str:
    """How long a position takes to show: at once from the stored table, else solved now."""
    return tr(TIME_NOTE if hidden_two_tables.has_table(VARIANT) else TIME_NOTE_SOLVING)


@dataclass(frozen=True)
class TwoChoice:
    """A duel of two cards against one as picked on the page: who holds two cards, your
    hidden cards (two, or one), the one-card player's lost card, the coins (yours, theirs)
    and who acts."""

    two: Turn = "you"
    hand: tuple[Character, ...] = (Character.DUKE, Character.CAPTAIN)
    lost: Character = Character.CONTESSA
    coins: tuple[int, int] = (2, 2)
    turn: Turn = "you"

    @property
    def seat(self) -> int:
        """Your seat as the solver numbers it (the two-card player is player 0)."""
        return 0 if self.two == "you" else 1

    @property
    def solver_coins(self) -> tuple[int, int]:
        return self.coins if self.seat == 0 else (self.coins[1], self.coins[0])

    @property
    def first(self) -> int:
        """Who acts, as the solver numbers the players."""
        you_act = self.turn == "you"
        return self.seat if you_act else 1 - self.seat

    def with_hand(self, hand: Sequence[Character]) -> TwoChoice:
        return replace(self, hand=tuple(hand))

    def key(self) -> tuple[object, ...]:
        return (self.two, tuple(sorted(c.value for c in self.hand)), self.lost, self.coins,
                self.turn)


# ----------------------------------------------------------------------------- links

LINK_KEYS = ("two", "hand", "lost", "coins", "turn")


def link_params(choice: TwoChoice) -> dict[str, str]:
    """The query parameters that open the section on `choice`, for a link to share."""
    return {"tab": "two", "two": choice.two, "hand": ",".join(c.value for c in choice.hand),
            "lost": choice.lost.value, "coins": f"{choice.coins[0]},{choice.coins[1]}",
            "turn": choice.turn}


def read_link(params: dict[str, str], base: TwoChoice) -> tuple[TwoChoice, list[str]]:
    """The duel a link asks for, on top of `base` for every parameter it leaves out, and one
    message per parameter it gets wrong, naming it and what it should hold (a wrong parameter
    changes nothing)."""
    names = ", ".join(c.value for c in CHARACTERS)
    found: dict[str, object] = {}
    errors: list[str] = []
    for key in LINK_KEYS:
        raw = params.get(key)
        if raw is None:
            continue
        text = raw.strip()
        try:
            if key in ("two", "turn"):
                if text.lower() not in ("you", "them"):
                    raise ValueError(text)
                found[key] = text.lower()
            elif key == "hand":
                cards = tuple(_card(part) for part in text.split(","))
                if not 1 <= len(cards) <= 2:
                    raise ValueError(text)
                found[key] = cards
            elif key == "lost":
                found[key] = _card(text)
            else:
                parts = text.split(",")
                coins = (int(parts[0].strip()), int(parts[1].strip())) if len(parts) == 2 \
                    else (-1, -1)
                if not all(0 <= n <= MAX_COINS for n in coins):
                    raise ValueError(text)
                found[key] = coins
        except ValueError:
            shown = text if len(text) <= 40 else text[:40] + "…"
            errors.append(tr("The link's `{param}` could not be read: expected {expected}; it "
                             "says “{shown}”. Showing {kept} instead.", param=key,
                             expected=_expected(key, names), shown=shown,
                             kept=link_params(base)[key]))
    choice = replace(base, **found)  # type: ignore[arg-type]
    want = 2 if choice.two == "you" else 1
    if len(choice.hand) != want:
        hand = (*choice.hand, *base.hand, Character.CAPTAIN)[:want]
        shown_hand = ",".join(c.value for c in hand)
        errors.append(tr_n("The link's `hand` has {n} card, but you hold two in this duel. "
                           "Showing {hand} instead.",
                           "The link's `hand` has {n} cards, but you hold two in this duel. "
                           "Showing {hand} instead.", len(choice.hand), hand=shown_hand)
                      if want == 2 else
                      tr_n("The link's `hand` has {n} card, but you hold one in this duel. "
                           "Showing {hand} instead.",
                           "The link's `hand` has {n} cards, but you hold one in this duel. "
                           "Showing {hand} instead.", len(choice.hand), hand=shown_hand))
        choice = replace(choice, hand=hand)
    return choice, errors


def _expected(key: str, names: str) -> str:
    """What a link's parameter should hold (the link's own words stay as typed)."""
    if key == "two":
        return tr("you or them (who still holds two cards)")
    if key == "hand":
        return tr("your hidden cards, one or two of {names} (like hand=Duke,Captain)",
                  names=names)
    if key == "lost":
        return tr("the card the one-card player lost, one of {names}", names=names)
    if key == "coins":
        return tr("two whole numbers from 0 to {most}, your coins then theirs (like "
                  "coins=2,6)", most=MAX_COINS)
    return tr("you or them (who acts now)")


def _card(text: str) -> Character:
    card = Character.parse(text)
    if card not in CHARACTERS:
        raise ValueError(card)
    return card


def impossible(choice: TwoChoice) -> str | None:
    """Why the deck cannot deal this (3 of each character), or None."""
    want = 2 if choice.two == "you" else 1
    if len(choice.hand) != want:
        return (tr("Pick 2 cards for your hand: you hold two cards in this duel.") if want == 2
                else tr("Pick 1 card for your hand: you hold one card in this duel."))
    if not all(0 <= n <= MAX_COINS for n in choice.coins):
        return tr("Coins run from 0 to {most}.", most=MAX_COINS)
    used = Counter([*choice.hand, choice.lost])
    over = next((c for c in CHARACTERS if used[c] > _COURT[c]), None)
    if over is not None:
        if want == 2:
            return tr_n("This position cannot happen: the deck has {n} {card}, and your cards "
                        "and the lost card use more.",
                        "This position cannot happen: the deck has {n} {card}, and your cards "
                        "and the lost card use more.", _COURT[over], card=plural(over))
        return tr_n("This position cannot happen: the deck has {n} {card}, and your card and "
                    "the lost card use more.",
                    "This position cannot happen: the deck has {n} {card}, and your card and "
                    "the lost card use more.", _COURT[over], card=plural(over))
    return None


def position_lines(choice: TwoChoice) -> list[str]:
    """The position in short sentences, the newcomer's first read."""
    you, them = choice.coins
    names = [card_name(c) for c in choice.hand]
    if choice.two == "you" and len(names) == 2:
        held = tr("You hold **two cards**, the **{first} and the {second}**; they are down to "
                  "one card, having lost {a_card} (face up).", first=names[0],
                  second=names[1], a_card=article(choice.lost))
    elif choice.two == "you":
        held = tr("You hold **two cards**, the **{card}**; they are down to one card, having "
                  "lost {a_card} (face up).", card=names[0], a_card=article(choice.lost))
    else:
        held = tr("You are down to **one card**, the **{card}**, having lost {a_card} (face "
                  "up); they still hold two cards.", card=" / ".join(names),
                  a_card=article(choice.lost))
    turn = (tr("It is your turn.") if choice.turn == "you" else
            tr("It is their turn: they act first, then you."))
    return [held, tr("You have {your_coins}, they have {their_coins}.",
                     your_coins=coins_words(you), their_coins=coins_words(them)),
            tr("The player who loses every card is out.") + " " + turn]


@dataclass(frozen=True)
class TwoSolved:
    """What the page shows of the two solves, small and picklable so it can be kept per
    position."""

    choice: TwoChoice
    you_act: bool
    chance: float  # your chance of winning holding your hand, two turns ahead
    chance_prev: float  # one turn ahead
    average: float  # your seat's chance averaged over the hands you might have been dealt
    settled: bool
    options: tuple[HandOption, ...]  # yours, best first (empty when they act)
    options_prev: dict[Move, float]
    their_moves: tuple[tuple[Move, float], ...]  # when they act: how often each, to your eyes
    their_chances: dict[tuple[Character, ...], float]  # the other hand, from what you see
    exploitability: float
    iterations: int
    tree_nodes: int
    cut_nodes: int
    seconds: float
    moved: float = 0.0  # how far the value over the deal moved between the look-aheads
    swapped: int = 0  # the mover's hands whose best move changed between them
    stored: bool = False  # read from the table built ahead (`hidden_two_tables`)
    check: int = SHORTER  # the look-ahead `*_prev` come from: SHORTER, or DEEPER (stored)
    # the look-ahead of the figures: HORIZON, or for a stored duel still moving between
    # HORIZON and DEEPER, DEEPEST (then `check` is DEEPER, the shorter of the two)
    horizon: int = HORIZON
    # the Exchanges after which the solves cut a line (0: none, as `hidden_two.solve` does;
    # a table built before that cut at the first)
    exchange_cut: int = 0

    @property
    def band(self) -> settledness.Band:
        return (settledness.band(self.chance) if self.settled
                else settledness.band(self.chance, self.chance_prev))


def distil(choice: TwoChoice, last: TwoSolution, prev: TwoSolution, seconds: float) -> TwoSolved:
    """The page's part of the two solves of `choice`'s duel."""
    seat = choice.seat
    hand = tuple(sorted(choice.hand, key=CHARACTERS.index))
    mine = last.win_chances(seat)[hand]
    mine_prev = prev.win_chances(seat)[hand]
    you_act = last.tree.kind[0] == 0 and last.mover == seat
    options = tuple(last.options(hand)) if you_act else ()
    options_prev = {o.move: o.value for o in prev.options(hand)} if you_act else {}
    theirs = their_chances(last.graph, seat, hand)
    moves: tuple[tuple[Move, float], ...] = ()
    if last.tree.kind[0] == 0 and not you_act:
        moves = _their_mix({h: [(o.move, o.frequency) for o in last.options(h)]
                            for h in theirs}, theirs)
    average = last.value if seat == 0 else 1.0 - last.value
    compared = hidden_two.settledness(last, prev)
    return TwoSolved(choice, you_act, mine, mine_prev, average, compared.settled, options,
                     options_prev, moves, theirs, last.exploitability, last.iterations,
                     last.tree_nodes, last.cut_nodes, seconds, abs(compared.moved),
                     len(compared.swapped))


def from_table(choice: TwoChoice, entry: TwoEntry, seconds: float) -> TwoSolved:
    """The same figures read from the stored table (`hidden_two_tables`), solved ahead at the
    same look-aheads and exactness as a fresh solve."""
    seat = choice.seat
    hand = tuple(sorted(choice.hand, key=CHARACTERS.index))
    mover = entry.first
    you_act = bool(entry.options) and mover == seat
    options: tuple[HandOption, ...] = ()
    options_prev: dict[Move, float] = {}
    if you_act:
        stored = entry.options[hand]
        best = max(o.value for o in stored)
        options = tuple(HandOption(o.move, o.text, o.value, best - o.value, o.frequency,
                                   dict(o.against)) for o in stored)
        options_prev = {o.move: o.value_prev for o in stored}
    graph = two_card_graph(choice.lost, VARIANT)
    theirs = their_chances(graph, seat, hand)
    moves: tuple[tuple[Move, float], ...] = ()
    if entry.options and not you_act:
        moves = _their_mix({h: [(o.move, o.frequency) for o in entry.options.get(h, ())]
                            for h in theirs}, theirs)
    average = entry.value if seat == 0 else 1.0 - entry.value
    return TwoSolved(choice, you_act, entry.win[seat][hand], entry.win_prev[seat][hand],
                     average, entry.settled, options, options_prev, moves, theirs,
                     entry.exploitability, entry.iterations, entry.tree_nodes,
                     entry.cut_nodes, seconds, abs(entry.moved), entry.swapped, stored=True,
                     check=entry.check, horizon=entry.horizon, exchange_cut=entry.exchange_cut)


def their_chances(graph: TwoCardGraph, seat: int, hand: tuple[Character, ...]
                  ) -> dict[tuple[Character, ...], float]:
    """The other player's hand as you see it at the start: the deal given your hand."""
    k = graph.label(seat, hand)
    weights: dict[int, float] = {}
    for w in graph.worlds:
        if w[seat] == k:
            weights[w[1 - seat]] = weights.get(w[1 - seat], 0.0) + graph.deal_chance(w)
    total = sum(weights.values())
    return {graph.labels[1 - seat][e]: p / total for e, p in weights.items() if p > 0}


def _their_mix(options: Mapping[tuple[Character, ...], Sequence[tuple[Move, float]]],
               theirs: Mapping[tuple[Character, ...], float]
               ) -> tuple[tuple[Move, float], ...]:
    """How often perfect play picks each of their options (`options[hand]`: each move with
    its frequency), averaged over the hands they may hold as you see them."""
    mix: dict[Move, float] = {}
    for hand, p in theirs.items():
        for move, frequency in options.get(hand, ()):
            mix[move] = mix.get(move, 0.0) + p * frequency
    return tuple(sorted(mix.items(), key=lambda kv: -kv[1]))


def _label_game(choice: TwoChoice) -> Game:
    """An engine game of the duel with the players named for the page, to word moves (the
    other hand is any the deck can deal: labels never read it)."""
    variant = get_variant(VARIANT)
    rest = Counter(_COURT)
    rest.subtract([*choice.hand, choice.lost])
    pool = sorted(c for c, n in rest.items() if n > 0 for _ in range(n))
    other = pool[:2] if choice.two == "them" else pool[:1]
    for c in other:
        rest[c] -= 1
    deck = sorted(c for c, n in rest.items() if n > 0 for _ in range(n))
    if choice.seat == 0:
        names, hands_, revealed = ["you", "them"], [list(choice.hand), other], [[], [choice.lost]]
    else:
        names, hands_, revealed = ["them", "you"], [other, list(choice.hand)], [[], [choice.lost]]
    names = [tr("you") if n == "you" else tr("them") for n in names]
    return Game(names=names, hands=hands_, revealed=revealed, coins=list(choice.solver_coins),
                deck=deck, first=choice.first, variant=variant)


def option_rows(solved: TwoSolved) -> list[OptionRow]:
    """Your options holding your hand, best first, graded by the verdict layer: each one's
    loss against the best, and where the two look-aheads disagree, only the loss both agree
    on."""
    options = solved.options
    if not options:
        return []
    game = _label_game(solved.choice)
    before = solved.options_prev
    horizons = (Horizons(solved.check, solved.horizon, {str(i): before[o.move]
                                             for i, o in enumerate(options)})
                if before and all(o.move in before for o in options) else None)
    valuation = Valuation.solved({str(i): o.value for i, o in enumerate(options)},
                                 horizons=horizons)
    hand = set(solved.choice.hand)
    one_each = solved.choice.two == "you"  # they hold one card: a square per card
    rows = []
    for i, o in enumerate(options):
        label, claim = move_label(game, o.move)
        v = judge(valuation, str(i))
        strip = tuple(Cell(h[0], p, o.against.get(h, 0.0))
                      for h, p in solved.their_chances.items()) if one_each else ()
        prev = before.get(o.move) if shows_range(not solved.settled, v.reason) else None
        rows.append(OptionRow(
            label, claim, claim is not None and claim not in hand, o.value, v.lost_pp, v.grade,
            o.frequency, ranged_outcome(o.against, o.value, prev), strip, o.text, "", prev,
            words.short_headline(v) if v.reason == "horizon" and not v.sound else ""))
    return rows


def lead_lines(solved: TwoSolved, rows: Sequence[OptionRow]) -> list[str]:
    """The sentences above the options: your chance, then what perfect play does."""
    lines = [tr("If you both play perfectly, you win **{chance}** of the time.",
                chance=percent_band(solved.band))]
    if not solved.you_act:
        if solved.their_moves:
            top = [(m, f) for m, f in solved.their_moves if f >= PLAYED][:3]
            game = _label_game(solved.choice)
            said = ", ".join(f"**{_short(move_label(game, m)[0])}** {percent(f)}"
                             for m, f in top)
            lines.append(tr("What they do, as far as you can tell (their cards are hidden): "
                            "{moves} of the time.", moves=said))
        return lines
    before = [r.win_prev for r in rows if r.win_prev is not None]
    changed = settledness.best_changes(before, [r.win for r in rows])
    if changed is not None:
        lines.append(tr("Which move is best depends on how far ahead perfect play looks: "
                        "**{best}** looking {horizon} ahead, **{other}** looking {shorter}.",
                        best=short_name(rows[0]), horizon=turns_words(solved.horizon),
                        other=short_name(rows[changed]), shorter=turns_words(solved.check)))
        return lines
    played = [r for r in rows if r.frequency >= PLAYED] or list(rows[:1])
    if len(played) == 1:
        lines.append(best_move_line(played[0]))
    else:
        lines.append(mixes_line(played))
    return lines


def _short(label: str) -> str:
    """A move label's name before its colon (see `endgame_view.short_name`)."""
    return short_name(OptionRow(label, None, False, 0.0, 0.0, "best", 0.0, "play", (), ""))


def their_hand_line(solved: TwoSolved) -> str:
    """What the other player may hold, from what you can see."""
    items = sorted(solved.their_chances.items(), key=lambda kv: -kv[1])
    if solved.choice.two == "you":
        parts = ", ".join(f"{card_name(h[0])} {percent(p)}" for h, p in items)
        return tr("Their card, from what you can see (the chance they hold each): {parts}.",
                  parts=parts)
    top = ", ".join(f"{' + '.join(card_name(c) for c in h)} {percent(p)}"
                    for h, p in items[:4])
    return tr_n("Their two cards, from what you can see: {n} hand is possible; the likeliest "
                "are {top}.",
                "Their two cards, from what you can see: {n} hands are possible; the likeliest "
                "are {top}.", len(items), top=top)


def unsettled_note(solved: TwoSolved, rows: Sequence[OptionRow]) -> str | None:
    """Said when a figure on screen is a range, or a grade holds back for the look-aheads:
    what the ranges are (the expert figures say why the duel as a whole is not settled)."""
    if solved.settled:
        return weaker_note(True, solved.check, solved.horizon, rows)
    shown = [solved.band, *(r.band for r in rows)]
    if not any(percent_band(b) != percent(b.low) for b in shown) and not any(
            r.verdict for r in rows):
        return None
    low, high = sorted((solved.check, solved.horizon))
    squares = (" " + tr("The squares under each move look {turns} ahead.",
                        turns=turns_words(solved.horizon)) if any(r.strip for r in rows)
               else "")
    return tr("Looking {low} and {high} ahead gives different figures here, so each is shown "
              "as the range between them, and a move is called worse than the best only by "
              "the points both look-aheads agree on.", low=turns_words(low),
              high=turns_words(high)) + squares


def expert_lines(solved: TwoSolved) -> list[str]:
    points = number(100 * solved.exploitability, 2)
    how = (tr_n("Solved ahead by discounted CFR to {points} points of perfect play in {n} "
                "round, and read from the stored table of every such duel ({ms} ms).",
                "Solved ahead by discounted CFR to {points} points of perfect play in {n} "
                "rounds, and read from the stored table of every such duel ({ms} ms).",
                solved.iterations, points=points, ms=number(1000 * solved.seconds))
           if solved.stored else
           tr_n("Solved by discounted CFR to {points} points of perfect play in {n} round "
                "({seconds} s).",
                "Solved by discounted CFR to {points} points of perfect play in {n} rounds "
                "({seconds} s).", solved.iterations, points=points,
                seconds=number(solved.seconds, 1)))
    return [
        how,
        tr("Public tree: {nodes} nodes, {cut} of them cut {turns} ahead and valued with both "
           "hands face up (the known-role tables of two cards against one and of one card "
           "each).", nodes=number(solved.tree_nodes), cut=number(solved.cut_nodes),
           turns=turns_words(solved.horizon)) + " " + _exchange_words(solved),
        _chances_words(solved) + " " + _settled_words(solved),
        tr("Your seat averaged over every hand you might have been dealt: {chance}.",
           chance=percent(solved.average)),
    ]


def _exchange_words(solved: TwoSolved) -> str:
    """Whether a line was followed through its Exchanges: a look-ahead that stops a line at
    its first Exchange can agree with another on lines neither followed."""
    if solved.exchange_cut == 0:
        return tr(EXCHANGES_FOLLOWED)
    return tr(EXCHANGE_CUT_NOTE)


EXCHANGES_FOLLOWED = N_("Every line is followed through all its Exchanges to the cut.")
EXCHANGE_CUT_NOTE = N_("A line is also cut at the turn after its first Exchange, so the "
                       "look-aheads compared may agree on lines neither followed.")


def _chances_words(solved: TwoSolved) -> str:
    """Your chance at the two look-aheads compared, the shorter first."""
    if solved.horizon > DEEPER:
        return tr("Your chance {deeper} ahead: {chance_deeper}; {deepest} ahead: {chance} "
                  "(looked at because {shorter} and {horizon} ahead disagreed, and then "
                  "{horizon} and {deeper}).", deeper=turns_words(solved.check),
                  chance_deeper=percent(solved.chance_prev),
                  deepest=turns_words(solved.horizon), chance=percent(solved.chance),
                  shorter=turns_words(SHORTER), horizon=turns_words(HORIZON))
    if solved.check < HORIZON:
        return tr("Your chance {shorter} ahead: {chance_shorter}; {longer} ahead: "
                  "{chance_longer}.", shorter=turns_words(solved.check),
                  chance_shorter=percent(solved.chance_prev), longer=turns_words(HORIZON),
                  chance_longer=percent(solved.chance))
    return tr("Your chance {horizon} ahead: {chance}; {deeper} ahead: {chance_deeper} (looked "
              "at because {shorter} and {horizon} ahead disagreed).",
              horizon=turns_words(HORIZON), chance=percent(solved.chance),
              deeper=turns_words(solved.check), chance_deeper=percent(solved.chance_prev),
              shorter=turns_words(SHORTER))


def _settled_words(solved: TwoSolved) -> str:
    """Why the figures count as settled or not, in `trainer.endgame.settled`'s terms."""
    if solved.settled:
        return tr("Over every hand, the two look-aheads agree within 0.1 points and name the "
                  "same best moves: settled.")
    moved = tr("the value over every hand moves {points} points",
               points=number(100 * solved.moved, 1))
    swapped = tr_n("the best move changes for {n} of the hands the player to act may hold",
                   "the best move changes for {n} of the hands the player to act may hold",
                   solved.swapped)
    if solved.moved > settledness.TOLERANCE and solved.swapped:
        return tr("Not settled: {moved} and {swapped}.", moved=moved, swapped=swapped)
    if solved.moved > settledness.TOLERANCE:
        return tr("Not settled: {why}.", why=moved)
    if solved.swapped:
        return tr("Not settled: {why}.", why=swapped)
    return tr("Not settled.")


# ------------------------------------------------------------------------- played out

DUEL_HEADING = N_("Your duel, played out")
DUEL_INTRO = N_("Your cards are dealt as picked, theirs from what is left; they play "
                "perfectly, and each of your decisions is graded. Every two turns the duel is "
                "worked out again from what the moves so far say of the cards (a few "
                "seconds).")


def duel_hands_html(p: Practice) -> str:
    """The table of a duel played out: your hidden cards, theirs face down (face up once
    the duel is over), each player's lost cards face up, the coins and who acts."""
    g = p.game
    out = []
    for seat, name in ((p.learner, tr("You")), (1 - p.learner, tr("They"))):
        acts = not g.is_over and g.decider == seat
        if seat == p.learner:
            hidden = "".join(mini_card(c.value, "own") for c in p.my_hand)
        elif g.is_over and p.their_hand:
            hidden = "".join(mini_card(c.value, "shown") for c in p.their_hand)
        else:
            hidden = "".join(mini_card(None) for _ in g.hidden[seat])
        lost = "".join(mini_card(c.value, "revealed") for c in g.revealed[seat])
        to_act = " · " + escape(tr("to act")) if acts else ""
        out.append(f'<div class="eg-seat{" eg-seat--acts" if acts else ""}">'
                   f'<div class="eg-seat__name">{escape(name)} · '
                   f'{escape(coins_words(g.coins[seat]))}{to_act}</div>'
                   f'<div class="eg-seat__cards">{hidden}{lost}</div></div>')
    return f'<div class="eg-hands">{"".join(out)}</div>'


def belief_hands_line(hands: Mapping[tuple[Character, ...], float]) -> str:
    """What their moves so far say of their hand: by card when they hold one, else their
    likeliest hands."""
    items = sorted(hands.items(), key=lambda kv: -kv[1])
    if all(len(h) == 1 for h, _ in items):
        parts = ", ".join(f"{card_name(h[0])} {percent(p)}" for h, p in items if p >= 0.005)
        return tr("The chance they hold each card: {parts}.", parts=parts)
    top = [(h, p) for h, p in items if p >= 0.005][:4]
    parts = ", ".join(f"{' + '.join(card_name(c) for c in h)} {percent(p)}" for h, p in top)
    return tr("Their likeliest hands: {parts}.", parts=parts)


def duel_summary_lines(p: Practice, accurate: int, lost_pp: float) -> list[str]:
    """The end of a duel played out: the result, both hands, how the decisions went."""
    result = "**" + (tr("You won the duel.") if p.won else tr("You lost the duel.")) + "**"
    hands = (tr("You held the {mine}; they held the {theirs}.", mine=_the_cards(p.my_hand),
                theirs=_the_cards(p.their_hand)) if p.their_hand else "")
    n = len(p.graded)
    if n == 0:
        graded = tr("You had no decision to make: the duel was over before your turn.")
    else:
        graded = tr_n("{accurate} of your {n} decision was best or good; in all you gave away "
                      "{points} points of winning chance.",
                      "{accurate} of your {n} decisions were best or good; in all you gave "
                      "away {points} points of winning chance.", n, accurate=accurate,
                      points=number(lost_pp, 1))
    return [result, hands, graded, start_line(p.start_value)]


def _the_cards(hand: Sequence[Character]) -> str:
    """"Duke and the Captain" (after "the"), or one card's name."""
    names = [card_name(c) for c in hand]
    if len(names) == 2:
        return tr("{first} and the {second}", first=names[0], second=names[1])
    return ", ".join(names)
