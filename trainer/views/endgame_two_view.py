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
from trainer.engine.variants import get_variant
from trainer.verdicts import Horizons, Valuation, judge, words
from trainer.views.endgame_view import (
    CHARACTERS,
    PLAYED,
    VARIANT,
    Cell,
    OptionRow,
    article,
    coins_words,
    move_label,
    percent,
    percent_band,
    plural,
    ranged_outcome,
    short_name,
    turns_words,
)
from trainer.views.table_art import mini_card

Turn = Literal["you", "them"]
HORIZON = 2  # turns ahead, worked out on request
SHORTER = 1  # the check
DEEPER = hidden_two_tables.CHECK  # the stored table's second check, where SHORTER disagreed
_COURT = Counter(get_variant(VARIANT).court(2))

INTRO = ("The more common end of a real game: one player still holds two cards, the other is "
         "down to one. Set it up to see how often you win if you both play perfectly, and "
         "what each move is worth.")
HOW_FAR = (f"Worked out {turns_words(HORIZON)} ahead and checked against {turns_words(SHORTER)}"
           f" (in the stored table, where those disagree, against {turns_words(DEEPER)}): "
           "where the two last looked at disagree you see a range, and a move is only called "
           "worse than another by what both agree on. Looking further ahead takes minutes "
           "here, so these figures are less certain than the one-card duel's.")
TIME_NOTE = "Every position is worked out ahead, so it shows at once."
TIME_NOTE_SOLVING = ("A new position takes a few seconds to work out; one worked out before "
                     "shows at once.")


def time_note() -> str:
    """How long a position takes to show: at once from the stored table, else solved now."""
    return TIME_NOTE if hidden_two_tables.has_table(VARIANT) else TIME_NOTE_SOLVING


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
            expected = {
                "two": "you or them (who still holds two cards)",
                "hand": f"your hidden cards, one or two of {names} (like hand=Duke,Captain)",
                "lost": f"the card the one-card player lost, one of {names}",
                "coins": f"two whole numbers from 0 to {MAX_COINS}, your coins then theirs "
                         "(like coins=2,6)",
                "turn": "you or them (who acts now)",
            }[key]
            shown = text if len(text) <= 40 else text[:40] + "…"
            errors.append(f"The link's `{key}` could not be read: expected {expected}; it "
                          f"says “{shown}”. Showing {link_params(base)[key]} instead.")
    choice = replace(base, **found)  # type: ignore[arg-type]
    want = 2 if choice.two == "you" else 1
    if len(choice.hand) != want:
        hand = (*choice.hand, *base.hand, Character.CAPTAIN)[:want]
        errors.append(f"The link's `hand` has {len(choice.hand)} card"
                      f"{'s' if len(choice.hand) != 1 else ''}, but "
                      f"{'you hold two' if want == 2 else 'you hold one'} in this duel. "
                      f"Showing {','.join(c.value for c in hand)} instead.")
        choice = replace(choice, hand=hand)
    return choice, errors


def _card(text: str) -> Character:
    card = Character.parse(text)
    if card not in CHARACTERS:
        raise ValueError(card)
    return card


def impossible(choice: TwoChoice) -> str | None:
    """Why the deck cannot deal this (3 of each character), or None."""
    want = 2 if choice.two == "you" else 1
    if len(choice.hand) != want:
        return (f"Pick {want} card{'s' if want > 1 else ''} for your hand: you hold "
                f"{'two cards' if want == 2 else 'one card'} in this duel.")
    if not all(0 <= n <= MAX_COINS for n in choice.coins):
        return f"Coins run from 0 to {MAX_COINS}."
    used = Counter([*choice.hand, choice.lost])
    over = next((c for c in CHARACTERS if used[c] > _COURT[c]), None)
    if over is not None:
        return (f"This position cannot happen: the deck has {_COURT[over]} {plural(over)}, "
                f"and your {'cards' if want == 2 else 'card'} and the lost card use more.")
    return None


def position_lines(choice: TwoChoice) -> list[str]:
    """The position in short sentences, the newcomer's first read."""
    you, them = choice.coins
    cards = " and the ".join(c.value for c in choice.hand)
    if choice.two == "you":
        held = (f"You hold **two cards**, the **{cards}**; they are down to one card, having "
                f"lost {article(choice.lost)} (face up).")
    else:
        held = (f"You are down to **one card**, the **{cards}**, having lost "
                f"{article(choice.lost)} (face up); they still hold two cards.")
    turn = ("It is your turn." if choice.turn == "you" else
            "It is their turn: they act first, then you.")
    return [held, f"You have {coins_words(you)}, they have {coins_words(them)}.",
            "The player who loses every card is out. " + turn]


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
                     check=entry.check)


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
    horizons = (Horizons(solved.check, HORIZON, {str(i): before[o.move]
                                             for i, o in enumerate(options)})
                if not solved.settled and all(o.move in before for o in options) else None)
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
        rows.append(OptionRow(
            label, claim, claim is not None and claim not in hand, o.value, v.lost_pp, v.grade,
            o.frequency,
            ranged_outcome(o.against, o.value,
                           before.get(o.move) if horizons is not None else None),
            strip, o.text, "", before.get(o.move) if horizons is not None else None,
            words.short_headline(v) if v.reason == "horizon" and not v.sound else ""))
    return rows


def lead_lines(solved: TwoSolved, rows: Sequence[OptionRow]) -> list[str]:
    """The sentences above the options: your chance, then what perfect play does."""
    lines = [f"If you both play perfectly, you win **{percent_band(solved.band)}** of the "
             "time."]
    if not solved.you_act:
        if solved.their_moves:
            top = [(m, f) for m, f in solved.their_moves if f >= PLAYED][:3]
            game = _label_game(solved.choice)
            said = ", ".join(f"**{move_label(game, m)[0].split(':')[0]}** {percent(f)}"
                             for m, f in top)
            lines.append(f"What they do, as far as you can tell (their cards are hidden): "
                         f"{said} of the time.")
        return lines
    before = [r.win_prev for r in rows if r.win_prev is not None]
    changed = settledness.best_changes(before, [r.win for r in rows])
    if changed is not None:
        lines.append(f"Which move is best depends on how far ahead perfect play looks: "
                     f"**{short_name(rows[0])}** looking {turns_words(HORIZON)} ahead, "
                     f"**{short_name(rows[changed])}** looking {turns_words(solved.check)}.")
        return lines
    played = [r for r in rows if r.frequency >= PLAYED] or list(rows[:1])
    if len(played) == 1:
        best = played[0]
        what = (f" (a bluff: you do not hold the {best.claim.value})"
                if best.bluff and best.claim is not None else "")
        lines.append(f"Your best move: **{best.label}**{what}.")
    else:
        names = [f"**{short_name(r)}**" for r in played]
        lines.append(f"Perfect play mixes {', '.join(names[:-1])} and {names[-1]}: they win "
                     "equally often.")
    return lines


def their_hand_line(solved: TwoSolved) -> str:
    """What the other player may hold, from what you can see."""
    items = sorted(solved.their_chances.items(), key=lambda kv: -kv[1])
    if solved.choice.two == "you":
        parts = ", ".join(f"{h[0].value} {percent(p)}" for h, p in items)
        return f"Their card, from what you can see (the chance they hold each): {parts}."
    top = ", ".join(f"{' + '.join(c.value for c in h)} {percent(p)}" for h, p in items[:4])
    return (f"Their two cards, from what you can see: {len(items)} hands are possible; the "
            f"likeliest are {top}.")


def unsettled_note(solved: TwoSolved, rows: Sequence[OptionRow]) -> str | None:
    """Said when a figure on screen is a range, or a grade holds back for the look-aheads:
    what the ranges are (the expert figures say why the duel as a whole is not settled)."""
    if solved.settled:
        return None
    shown = [solved.band, *(r.band for r in rows)]
    if not any(percent_band(b) != percent(b.low) for b in shown) and not any(
            r.verdict for r in rows):
        return None
    low, high = sorted((solved.check, HORIZON))
    squares = (f" The squares under each move look {turns_words(HORIZON)} ahead."
               if any(r.strip for r in rows) else "")
    return (f"Looking {turns_words(low)} and {turns_words(high)} ahead gives different "
            "figures here, so each is shown as the range between them, and a move is called "
            "worse than the best only by the points both look-aheads agree on." + squares)


def expert_lines(solved: TwoSolved) -> list[str]:
    how = (f"Solved ahead by discounted CFR to {100 * solved.exploitability:.2f} points of "
           f"perfect play in {solved.iterations} rounds, and read from the stored table of "
           f"every such duel ({1000 * solved.seconds:.0f} ms)." if solved.stored else
           f"Solved by discounted CFR to {100 * solved.exploitability:.2f} points of perfect "
           f"play in {solved.iterations} rounds ({solved.seconds:.1f} s).")
    return [
        how,
        f"Public tree: {solved.tree_nodes:,} nodes, {solved.cut_nodes:,} of them cut "
        f"{turns_words(HORIZON)} ahead and valued with both hands face up (the known-role "
        "tables of two cards against one and of one card each).",
        _chances_words(solved) + " " + _settled_words(solved),
        f"Your seat averaged over every hand you might have been dealt: "
        f"{percent(solved.average)}.",
    ]


def _chances_words(solved: TwoSolved) -> str:
    """Your chance at the two look-aheads compared, the shorter first."""
    if solved.check < HORIZON:
        return (f"Your chance {turns_words(solved.check)} ahead: {percent(solved.chance_prev)}; "
                f"{turns_words(HORIZON)} ahead: {percent(solved.chance)}.")
    return (f"Your chance {turns_words(HORIZON)} ahead: {percent(solved.chance)}; "
            f"{turns_words(solved.check)} ahead: {percent(solved.chance_prev)} (looked at "
            f"because {turns_words(SHORTER)} and {turns_words(HORIZON)} ahead disagreed).")


def _settled_words(solved: TwoSolved) -> str:
    """Why the figures count as settled or not, in `trainer.endgame.settled`'s terms."""
    if solved.settled:
        return ("Over every hand, the two look-aheads agree within 0.1 points and name the "
                "same best moves: settled.")
    why = []
    if solved.moved > settledness.TOLERANCE:
        why.append(f"the value over every hand moves {100 * solved.moved:.1f} points")
    if solved.swapped:
        why.append(f"the best move changes for {solved.swapped} of the hands the player to "
                   "act may hold")
    return "Not settled: " + " and ".join(why) + "."


# ------------------------------------------------------------------------- played out

DUEL_HEADING = "Your duel, played out"
DUEL_INTRO = ("Your cards are dealt as picked, theirs from what is left; they play perfectly, "
              "and each of your decisions is graded. Every two turns the duel is worked out "
              "again from what the moves so far say of the cards (a few seconds).")


def duel_hands_html(p: Practice) -> str:
    """The table of a duel played out: your hidden cards, theirs face down (face up once
    the duel is over), each player's lost cards face up, the coins and who acts."""
    g = p.game
    out = []
    for seat, name in ((p.learner, "You"), (1 - p.learner, "They")):
        acts = not g.is_over and g.decider == seat
        if seat == p.learner:
            hidden = "".join(mini_card(c.value, "own") for c in p.my_hand)
        elif g.is_over and p.their_hand:
            hidden = "".join(mini_card(c.value, "shown") for c in p.their_hand)
        else:
            hidden = "".join(mini_card(None) for _ in g.hidden[seat])
        lost = "".join(mini_card(c.value, "revealed") for c in g.revealed[seat])
        out.append(f'<div class="eg-seat{" eg-seat--acts" if acts else ""}">'
                   f'<div class="eg-seat__name">{name} · {coins_words(g.coins[seat])}'
                   f'{" · to act" if acts else ""}</div>'
                   f'<div class="eg-seat__cards">{hidden}{lost}</div></div>')
    return f'<div class="eg-hands">{"".join(out)}</div>'


def belief_hands_line(hands: Mapping[tuple[Character, ...], float]) -> str:
    """What their moves so far say of their hand: by card when they hold one, else their
    likeliest hands."""
    items = sorted(hands.items(), key=lambda kv: -kv[1])
    if all(len(h) == 1 for h, _ in items):
        parts = ", ".join(f"{h[0].value} {percent(p)}" for h, p in items if p >= 0.005)
        return f"The chance they hold each card: {parts}."
    top = [(h, p) for h, p in items if p >= 0.005][:4]
    parts = ", ".join(f"{' + '.join(c.value for c in h)} {percent(p)}" for h, p in top)
    return f"Their likeliest hands: {parts}."


def duel_summary_lines(p: Practice, accurate: int, lost_pp: float) -> list[str]:
    """The end of a duel played out: the result, both hands, how the decisions went."""
    result = "**You won the duel.**" if p.won else "**You lost the duel.**"
    mine = " and the ".join(c.value for c in p.my_hand)
    theirs = " and the ".join(c.value for c in p.their_hand or ())
    hands = f"You held the {mine}; they held the {theirs}." if theirs else ""
    n = len(p.graded)
    if n == 0:
        graded = "You had no decision to make: the duel was over before your turn."
    else:
        graded = (f"{accurate} of your {n} decision{'s' if n != 1 else ''} "
                  f"{'were' if n != 1 else 'was'} best or good; in all you gave away "
                  f"{lost_pp:.1f} points of winning chance.")
    start = (f"With perfect play from the start you would win {percent(p.start_value)} of "
             "the time: a duel can be lost with every move right, and won with mistakes.")
    return [result, hands, graded, start]
