"""The End-game page's words, option rows and heat map, with no Streamlit in sight.

Why apart from the page: everything the page says about a duel (the position in sentences,
each option's figures, what a link asked for and why it could not be read) is a function of
plain values, so it is tested without a browser, and the page script only arranges it.

The duel: two players left, each has lost one card (it lies face up) and holds one. The
solvers number the players 0 and 1; here player 0 is always "you" and player 1 "them", and
every probability shown is your chance of winning unless a sentence says otherwise. Losses
against the best option are in percentage points, as the quiz grades moves.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import Any, Literal

import altair as alt
import numpy as np
import pandas as pd

from trainer.endgame import settled as settledness
from trainer.endgame.claims import ClaimFigures, claim_figures, claimed
from trainer.endgame.hidden import Option, Solution, Step
from trainer.endgame.hidden_tables import StoredSolution, compared_exchanges
from trainer.endgame.known import MAX_COINS
from trainer.engine.cards import Action, Character
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import action_word, card_name
from trainer.engine.variants import get_variant
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.catalogue import CLOSE, OPEN
from trainer.i18n.formats import number
from trainer.i18n.formats import percent as _percent
from trainer.verdicts import Horizons, Solves, Valuation, judge, words
from trainer.views.move_labels import your_move
from trainer.views.styles import read_css
from trainer.views.table_art import mini_card

VARIANT = "base"
CHARACTERS: tuple[Character, ...] = tuple(get_variant(VARIANT).characters)
_COURT = Counter(get_variant(VARIANT).court(2))

Turn = Literal["you", "them"]
Mode = Literal["hidden", "faceup"]
Outcome = Literal["wins", "loses", "card", "play"]

MODES: dict[Mode, str] = {"hidden": N_("Cards hidden (real play)"),
                          "faceup": N_("Both cards face up")}
TURNS: dict[Turn, str] = {"you": N_("You"), "them": N_("They")}
HORIZONS = (1, 2, 3, 4)
# read from the stored table (trainer.endgame.hidden_tables), where a position still moving
# at four turns ahead may have been solved deeper: its figures then say so
DEFAULT_HORIZON = 4
# Measured on a shared 2-core machine over bench/endgame.py's ten positions, each with its
# check two turns shorter and the page's figures (median, slowest CPU seconds): 0.02 s one
# turn ahead, 0.03 s two, 0.11 s and 0.39 s three, 0.62 s and 1.0 s four.
HORIZON_NOTE = N_("Four turns ahead comes from a table solved in advance, so it is instant; "
                  "fewer turns are worked out now (well under a second). With 7 coins or more "
                  "the one to act is not in the table, and four turns take about a second. A "
                  "position worked out once is instant after.")
OUTCOMES: dict[Outcome, str] = {"wins": N_("wins for sure"), "loses": N_("loses for sure"),
                                "card": N_("depends on their card"),
                                "play": N_("depends on play")}
# A chance this close to 0 or 1 counts as certain: the solver stops within 0.1 points of
# perfect play, and a figure shown as "100%" must not be called "depends on play".
CERTAIN = 0.005
# The chance an option must be played with to count as part of a mix: below it, a share
# is the solver's averaging still fading out, not a move worth naming.
PLAYED = 0.02

# The win colours shared by the option strip and the heat map: red where they win, blue
# where you do, a muted brown for an even duel (readable with light text on the dark theme,
# and a red-blue pair stays apart for most colour-blind readers).
LOSE, EVEN, WIN = "#b5394a", "#5b4843", "#2f74b5"

STYLE = f"<style>{read_css('endgame.css')}</style>"

INTRO = N_("The last duel of a game: two players left, each has lost one card and holds "
           "one. Set up a position to see how often you win if you both play perfectly, and "
           "what each move is worth.")

LINK_KEYS = ("card", "lost", "coins", "turn", "mode", "their", "horizon")


@dataclass(frozen=True)
class Choice:
    """A position as picked on the page: your card, the card each player lost (yours,
    theirs), the coins (yours, theirs), who acts, the mode, their card (shown in face-up
    mode and used by the heat map) and how many turns ahead the hidden-card solve looks."""

    card: Character = Character.DUKE
    lost: tuple[Character, Character] = (Character.AMBASSADOR, Character.CONTESSA)
    coins: tuple[int, int] = (2, 2)
    turn: Turn = "you"
    mode: Mode = "hidden"
    their: Character = Character.CAPTAIN
    horizon: int = DEFAULT_HORIZON

    @property
    def first(self) -> int:
        """Who acts, as the solvers number the players (you are player 0)."""
        return 0 if self.turn == "you" else 1

    def switched(self) -> Choice:
        """The same duel from the other chair: their lost card and coins become yours, the
        turn passes to "you" if it was theirs. Your card stays as it was: the card they hold
        is unknown, so the reader picks the one to study."""
        turn: Turn = "you" if self.turn == "them" else "them"
        return replace(self, lost=(self.lost[1], self.lost[0]),
                       coins=(self.coins[1], self.coins[0]), turn=turn)


# --------------------------------------------------------------------------------- links


def _card_names() -> str:
    """The cards as a link writes them (identifiers: a link's words are English)."""
    return ", ".join(c.value for c in CHARACTERS)


def _card(text: str) -> Character:
    card = Character.parse(text)
    if card not in CHARACTERS:
        raise ValueError(card)
    return card


def _problem(param: str, expected: str, got: str, kept: str) -> str:
    shown = got if len(got) <= 40 else got[:40] + "…"
    return tr("The link's `{param}` could not be read: expected {expected}; it says "
              "“{shown}”. Showing {kept} instead.", param=param, expected=expected,
              shown=shown, kept=kept)


def _expected(key: str, names: str) -> str:
    """What a link's parameter should hold (the link's own words stay as typed)."""
    if key == "card":
        return tr("your card, one of {names}", names=names)
    if key == "their":
        return tr("their card, one of {names}", names=names)
    if key == "lost":
        return tr("two cards, the one you lost then the one they lost, each one of {names} "
                  "(like lost=Ambassador,Contessa)", names=names)
    if key == "coins":
        return tr("two whole numbers from 0 to {most}, your coins then theirs (like "
                  "coins=2,6)", most=MAX_COINS)
    if key == "turn":
        return tr("you or them (who acts now)")
    if key == "mode":
        return tr("hidden (cards hidden, real play) or faceup (both cards face up)")
    return tr("how many turns ahead to look, {low} to {high}", low=HORIZONS[0],
              high=HORIZONS[-1])


def read_link(params: Mapping[str, str], base: Choice) -> tuple[Choice, list[str]]:
    """The position a link asks for, on top of `base` (what the page shows now) for every
    parameter it leaves out, and one message per parameter it gets wrong, naming it and
    what it should hold. A wrong parameter changes nothing."""
    found: dict[str, Any] = {}
    errors: list[str] = []
    names = _card_names()
    for key in LINK_KEYS:
        raw = params.get(key)
        if raw is None:
            continue
        text = str(raw).strip()
        try:
            if key in ("card", "their"):
                found[key] = _card(text)
            elif key == "lost":
                parts = text.split(",")
                if len(parts) != 2:
                    raise ValueError(parts)
                found[key] = (_card(parts[0]), _card(parts[1]))
            elif key == "coins":
                parts = text.split(",")
                if len(parts) != 2:
                    raise ValueError(parts)
                coins = (int(parts[0].strip()), int(parts[1].strip()))
                if not all(0 <= n <= MAX_COINS for n in coins):
                    raise ValueError(coins)
                found[key] = coins
            elif key == "turn":
                if text.lower() not in TURNS:
                    raise ValueError(text)
                found[key] = text.lower()
            elif key == "mode":
                word = text.lower().replace("-", "").replace("_", "")
                if word not in MODES:
                    raise ValueError(text)
                found[key] = word
            elif key == "horizon":
                if text not in {str(h) for h in HORIZONS}:
                    raise ValueError(text)
                found[key] = int(text)
        except ValueError:
            now = link_params(base)[key]
            errors.append(_problem(key, _expected(key, names), text, now))
    return replace(base, **found), errors


def link_params(choice: Choice) -> dict[str, str]:
    """The query parameters that open the page on `choice`, for a link to share."""
    return {"card": choice.card.value, "lost": f"{choice.lost[0].value},{choice.lost[1].value}",
            "coins": f"{choice.coins[0]},{choice.coins[1]}", "turn": choice.turn,
            "mode": choice.mode, "their": choice.their.value, "horizon": str(choice.horizon)}


# ------------------------------------------------------------------------ the court's cards


def _too_many(cards: Sequence[Character]) -> Character | None:
    used = Counter(cards)
    return next((c for c in CHARACTERS if used[c] > _COURT[c]), None)


def impossible(choice: Choice) -> str | None:
    """Why the deck cannot deal this position (the court holds 3 of each character), or
    None. Your card and the two lost cards always fit; their card in face-up mode may not."""
    shown = [choice.card, *choice.lost]
    over = _too_many(shown)
    if over is not None:
        return tr_n("This position cannot happen: the deck has {n} {card}, and your card and "
                    "the two lost cards use more.",
                    "This position cannot happen: the deck has {n} {card}, and your card and "
                    "the two lost cards use more.", _COURT[over], card=plural(over))
    if choice.mode == "faceup":
        return their_card_problem(choice)
    return None


def their_card_problem(choice: Choice) -> str | None:
    """Why they cannot hold `choice.their` here, or None."""
    if _too_many([choice.card, *choice.lost, choice.their]) is None:
        return None
    return tr_n("They cannot hold {a_card} here: the deck has only {n} {card}, and your card "
                "and the two lost cards already show them all. Pick another card for them.",
                "They cannot hold {a_card} here: the deck has only {n} {card}, and your card "
                "and the two lost cards already show them all. Pick another card for them.",
                _COURT[choice.their], a_card=article(choice.their), card=plural(choice.their))


def their_chances(choice: Choice) -> dict[Character, float]:
    """The chance of each card they may hold, from what you can see: the deck minus your
    card and the two lost cards, every card left equally likely."""
    left = Counter(_COURT)
    left.subtract([choice.card, *choice.lost])
    total = sum(n for n in left.values() if n > 0)
    return {c: left[c] / total for c in CHARACTERS if left[c] > 0}


# ---------------------------------------------------------------------------------- words


# A card with its indefinite article ("a Duke", "an Ambassador"), chosen by the card (the
# article goes with the English name; a translation words both the same way if it likes).
_AN = frozenset({Character.ASSASSIN, Character.AMBASSADOR, Character.INQUISITOR,
                 Character.INHERITANCE})
CARD_PLURALS: dict[Character, str] = {
    Character.DUKE: N_("Dukes"), Character.ASSASSIN: N_("Assassins"),
    Character.CAPTAIN: N_("Captains"), Character.AMBASSADOR: N_("Ambassadors"),
    Character.CONTESSA: N_("Contessas"), Character.INQUISITOR: N_("Inquisitors"),
}


def article(card: Character) -> str:
    """"a Duke", "an Ambassador"."""
    if card in _AN:
        return tr("an {card}", card=card_name(card))
    return tr("a {card}", card=card_name(card))


def plural(card: Character) -> str:
    """The card's name for several of it ("Dukes")."""
    found = CARD_PLURALS.get(card)
    return tr(found) if found is not None else card_name(card)


def percent(p: float) -> str:
    """A chance as whole percent: "24%". Values within rounding of 0 or 1 read 0% and
    100%, as the certain outcomes they are taken for."""
    return _percent(p)


def percent_band(b: settledness.Band) -> str:
    """A chance known only as a range: "52–55%"; one figure when both ends round alike."""
    low, high = percent(b.low), percent(b.high)
    if low == high:
        return low
    return tr("{low}–{high}", low=number(100 * b.low), high=high)


def turns_words(n: int) -> str:
    return tr_n("{n} turn", "{n} turns", n)


def coins_words(n: int) -> str:
    return tr("no coins") if n == 0 else tr_n("{n} coin", "{n} coins", n)


def position_lines(choice: Choice) -> list[str]:
    """The position in three short sentences, the newcomer's first read."""
    you, them = choice.coins
    turn = (tr("It is your turn.") if choice.turn == "you" else
            tr("It is their turn: they act first, then you."))
    return [tr("You hold the **{card}** and have {your_coins}; they have {their_coins}.",
               card=card_name(choice.card), your_coins=coins_words(you),
               their_coins=coins_words(them)),
            tr("You lost {a_card}, they lost {their_card}: both lie face up. One more lost "
               "card ends the game.", a_card=article(choice.lost[0]),
               their_card=article(choice.lost[1])),
            turn]


def card_chances(chances: Mapping[Character, float]) -> str:
    """"Duke 20%, Captain 30%": each card with its chance."""
    return ", ".join(f"{card_name(c)} {percent(p)}" for c, p in chances.items())


def chances_line(chances: Mapping[Character, float]) -> str:
    """What they may hold, and how likely each card is from what you can see."""
    return tr("Their card, from what you can see (the chance they hold each): {parts}.",
              parts=card_chances(chances))


# ----------------------------------------------------------------------------- face up


def faceup_lines(choice: Choice, value: float, turns: int | None) -> list[str]:
    """The known-role table's verdict on the position, in words."""
    mine, theirs = card_name(choice.card), card_name(choice.their)
    head = (tr("With both cards face up (your {card} against their {their}, you to act):",
               card=mine, their=theirs) if choice.turn == "you" else
            tr("With both cards face up (your {card} against their {their}, they to act):",
               card=mine, their=theirs))
    if turns is not None and value >= 1 - CERTAIN:
        verdict = tr("You **win for sure**, within {turns} (counting this one), whatever they "
                     "do.", turns=turns_words(turns))
    elif turns is not None and value <= CERTAIN:
        verdict = tr("You **lose for sure**: they win within {turns} (counting this one), "
                     "whatever you do.", turns=turns_words(turns))
    else:
        verdict = tr("You win **{chance}** of the time if you both play perfectly: no one can "
                     "force the win, and the cards drawn in an Exchange decide.",
                     chance=percent(value))
    return [head, verdict,
            tr("In a real game you cannot see their card: switch to “{mode}” to see how "
               "bluffing changes this.", mode=tr("Cards hidden"))]


# ------------------------------------------------------------------------------ hidden


@dataclass(frozen=True)
class Solved:
    """What the page shows of a hidden-card solve, small and picklable so it can be kept
    per position: the mover's options per card they may hold, the chances of the other
    player's card from each of them, your chance per card you may hold, and the figures
    that say how exact it is."""

    horizon: int
    mover: int
    value: float
    card_values: dict[Character, float]  # your chance holding each card
    options: dict[Character, tuple[Option, ...]]  # the mover's, by the mover's card
    against: dict[Character, dict[Character, float]]  # by the mover's card
    exploitability: float
    iterations: int
    tree_nodes: int
    cut_nodes: int
    seconds: float
    moved: float | None = None  # the deeper look-ahead's value minus the shallower's
    # the most likely line after each option, by the mover's card (fresh solves only)
    lines: dict[Character, dict[Move, tuple[Step, ...]]] = field(default_factory=dict)
    chances: dict[Character, float] = field(default_factory=dict)  # the mover's card
    # each root claim's bluff rate and break-even beliefs (fresh solves only: None)
    claims: dict[Move, ClaimFigures] | None = None
    # Settled between `shorter` and `horizon` turns ahead (`trainer.endgame.settled`)? None
    # when no other look-ahead was solved. `shorter` is the look-ahead compared: two turns
    # shorter, or for a stored position checked deeper (it did not settle between those),
    # one turn longer; `between_agreed` then says whether the look-ahead in between agreed
    # with `horizon` (None: not known).
    # Unsettled figures are shown as the range over the two: your chance per card, and each
    # of the mover's options per card.
    settled: bool | None = None
    shorter: int | None = None
    card_values_prev: dict[Character, float] = field(default_factory=dict)
    options_prev: dict[Character, dict[Move, float]] = field(default_factory=dict)
    stored: bool = False  # read from the table solved ahead
    between_agreed: bool | None = None
    # the look-ahead of `lines` and `claims` when it is not `horizon`: a stored position
    # solved deeper than the page can solve on request keeps the table's figures, and its
    # lines come from a solve `lines_horizon` turns ahead
    lines_horizon: int | None = None
    # each option's win chance per card in a second, separate solve of the same duel (a
    # stored position's twin: the face-up cards swapped); a grade holds only what both say
    options_twin: dict[Character, dict[Move, float]] = field(default_factory=dict)
    # not settled because a second Exchange in a line moves the figures (a stored position:
    # `hidden_tables.exchange_check`): `shorter` is then `horizon`, and `*_prev` are the
    # figures with two Exchanges allowed
    by_exchange: bool = False
    # checked with a second Exchange allowed in a line (a stored position); a fresh solve is not
    exchange_checked: bool = False
    # the Exchanges a line may hold in these figures: 1, or 3 for a stored position a second
    # Exchange moved that settled with two (`hidden_tables.more_exchanges`); `shorter` is
    # then `horizon`, and `*_prev` are the figures with two
    exchanges: int = 1

    @property
    def unsettled(self) -> bool:
        return self.settled is False

    def chance_band(self, card: Character) -> settledness.Band:
        """Your chance holding `card`: one figure when settled, else the range."""
        now = self.card_values[card]
        if not self.unsettled or card not in self.card_values_prev:
            return settledness.band(now)
        return settledness.band(now, self.card_values_prev[card])


def shorter_horizon(horizon: int) -> int | None:
    """The look-ahead a solve `horizon` turns deep is checked against: two turns fewer, so
    the same player acts at both cuts (none below three turns)."""
    return horizon - 2 if horizon >= 3 else None


def distil(solution: Solution | StoredSolution, horizon: int, seconds: float,
           shallow: Solution | None = None) -> Solved:
    """The page's part of a solution, for every card the mover may hold (the options of
    all five cost about a tenth of a second after a solve). `shallow`: the same position
    solved `shorter_horizon(horizon)` turns ahead, to say whether the figures settled (a
    stored solution carries its own)."""
    mover = solution.mover
    cards = list(solution.card_chance(mover))
    options = {c: tuple(solution.options(c)) for c in cards}
    settled: bool | None = None
    shorter: int | None = None
    moved: float | None = None
    values_prev: dict[Character, float] = {}
    options_prev: dict[Character, dict[Move, float]] = {}
    if isinstance(solution, StoredSolution):
        settled, shorter, moved = solution.settled, solution.check_horizon, solution.moved
        values_prev, options_prev = solution.card_values_prev, solution.options_prev
    elif shallow is not None:
        shorter, moved = shorter_horizon(horizon), solution.value - shallow.value
        values_prev = dict(shallow.card_values)
        options_prev = {c: {o.move: o.value for o in shallow.options(c)} for c in cards}
        moves = list(solution.tree.moves[0]) if solution.tree.kind[0] == 0 else []
        last = np.array([[next((o.value for o in options[c] if o.move == m), np.nan)
                          for m in moves] for c in cards]).reshape(len(cards), len(moves))
        prev = np.array([[options_prev[c].get(m, np.nan) for m in moves] for c in cards]
                        ).reshape(len(cards), len(moves))
        settled = settledness.compare(shallow.value, solution.value, prev, last).settled
    return Solved(horizon, mover, solution.value, dict(solution.card_values), options,
                  {c: solution.against(c) for c in cards},
                  solution.exploitability, solution.iterations, solution.tree_nodes,
                  solution.cut_nodes, seconds, moved,
                  {} if isinstance(solution, StoredSolution) else
                  {c: {o.move: tuple(solution.line(c, o.move)) for o in solution.options(c)}
                   for c in cards},
                  dict(solution.card_chance(mover)),
                  None if isinstance(solution, StoredSolution) else
                  {m: f for m in solution.tree.moves[0]
                   if (f := claim_figures(solution, m)) is not None},
                  settled, shorter, values_prev, options_prev,
                  isinstance(solution, StoredSolution),
                  solution.agreed_h3 if isinstance(solution, StoredSolution) else None,
                  options_twin=dict(solution.options_twin)
                  if isinstance(solution, StoredSolution) else {},
                  by_exchange=isinstance(solution, StoredSolution) and solution.by_exchange,
                  exchange_checked=isinstance(solution, StoredSolution)
                  and solution.exchange_checked,
                  exchanges=solution.exchanges if isinstance(solution, StoredSolution) else 1)


def outcome_class(against: Mapping[Any, float], tol: float = CERTAIN) -> Outcome:
    """An option's outcome from its win chance against each card they may hold: certain
    against every card, certain against each but not the same, or left to later play."""
    values = list(against.values())
    if values and all(v >= 1 - tol for v in values):
        return "wins"
    if values and all(v <= tol for v in values):
        return "loses"
    if values and all(v <= tol or v >= 1 - tol for v in values):
        return "card"
    return "play"


def ranged_outcome(against: Mapping[Any, float], win: float, win_prev: float | None
                   ) -> Outcome:
    """`outcome_class` of an option whose figures may not have settled: the squares under it
    come from the page's look-ahead only, so where the other look-ahead gives it another
    chance ("You win 83–100%") nothing is sure, and the outcome is left to later play."""
    if win_prev is not None and abs(win_prev - win) > settledness.TOLERANCE:
        return "play"
    return outcome_class(against)


@dataclass(frozen=True)
class Cell:
    """One card they may hold: how likely they hold it, your chance with this option if so."""

    card: Character
    held: float
    win: float


@dataclass(frozen=True)
class OptionRow:
    label: str
    claim: Character | None  # the character the move claims, if any
    bluff: bool  # it claims a character you do not hold
    win: float
    lost_pp: float
    grade: str
    frequency: float
    outcome: Outcome
    strip: tuple[Cell, ...]
    engine_text: str
    line: str = ""  # the most likely line of play after it, in words ("" if not known)
    # the win chance at the other look-ahead: every option of an unsettled position, and of
    # a settled one an option the two grade differently (`shows_range`)
    win_prev: float | None = None
    verdict: str = ""  # unsettled and the look-aheads disagree: what the grade depends on
    # two solves of the same duel grade it differently (`verdicts.Solves`): the smaller loss
    by_solves: bool = False
    win_other: float | None = None  # then the win chance in the other solve

    @property
    def band(self) -> settledness.Band:
        return settledness.band(self.win, *(x for x in (self.win_prev, self.win_other)
                                            if x is not None))


# After "n points below the best: ", the quiz's grade of that loss.
GRADE_WORDS = {"best": N_("as good"), "good": N_("good"), "inaccuracy": N_("an inaccuracy"),
               "mistake": N_("a mistake"), "blunder": N_("a blunder")}


def _label_game(choice: Choice) -> Game:
    """An engine game of the position with the players named for the page, to word moves
    with `move_labels` (their card is any card the deck can still deal: labels never read
    it)."""
    variant = get_variant(VARIANT)
    theirs = next(iter(their_chances(choice)), choice.card)
    rest = Counter(_COURT)
    rest.subtract([choice.card, theirs, *choice.lost])
    deck = sorted(c for c, n in rest.items() if n > 0 for _ in range(n))
    return Game(names=[tr("you"), tr("them")], hands=[[choice.card], [theirs]],
                revealed=[[choice.lost[0]], [choice.lost[1]]], coins=list(choice.coins),
                deck=deck, first=choice.first, variant=variant)


def move_label(game: Game, move: Move) -> tuple[str, Character | None]:
    """A move as your button would read, and the character it claims (if any)."""
    label = your_move(game, move)  # a steal says what it takes from this target
    spec = next((s for s in game.variant.actions if s.action is move.action), None)
    claim = spec.claim if spec is not None and not spec.inverted else None
    return label, claim


def option_rows(choice: Choice, solved: Solved) -> list[OptionRow]:
    """Your options holding your card, best first, when you act."""
    options = solved.options.get(choice.card, ())
    chances = solved.against.get(choice.card, {})
    game = _label_game(choice)
    # Graded by the verdict layer: each option's loss against the solution's best, and only
    # the loss both look-aheads agree on (a settled position agrees on its best move and
    # value, not on how much every weaker move gives away), then both solves: as the quiz
    # and the Play review grade the same duel.
    before = solved.options_prev.get(choice.card, {})
    horizons = (Horizons(solved.shorter, solved.horizon,
                         {str(i): before[o.move] for i, o in enumerate(options)},
                         solved.by_exchange or solved.exchanges > 1,
                         (solved.exchanges, compared_exchanges(solved.exchanges)))
                if solved.shorter is not None and options
                and all(o.move in before for o in options) else None)
    twin = solved.options_twin.get(choice.card, {})
    solves = (Solves({str(i): twin[o.move] for i, o in enumerate(options)})
              if options and all(o.move in twin for o in options) else None)
    valuation = Valuation.solved({str(i): o.value for i, o in enumerate(options)},
                                 horizons=horizons, solves=solves) if options else None
    rows = []
    for i, o in enumerate(options):
        label, claim = move_label(game, o.move)
        assert valuation is not None
        v = judge(valuation, str(i))
        prev = before.get(o.move) if shows_range(solved.unsettled, v.reason) else None
        rows.append(OptionRow(
            label, claim, claim is not None and claim != choice.card, o.value, v.lost_pp,
            v.grade, o.frequency, ranged_outcome(o.against, o.value, prev),
            tuple(Cell(c, p, o.against.get(c, 0.0)) for c, p in chances.items()), o.text,
            line_text(solved.lines.get(choice.card, {}).get(o.move, ()), solved.mover), prev,
            words.short_headline(v) if v.reason in ("horizon", "solves") and not v.sound
            else "", v.solves is not None, twin.get(o.move) if v.solves is not None else None))
    return rows


def shows_range(unsettled: bool, reason: str | None) -> bool:
    """Whether an option shows its chance as the range over both look-aheads: every option
    of an unsettled position, and of a settled one each option the two grade differently."""
    return unsettled or reason == "horizon"


WEAKER_NOTE = N_("Settled: looking {shorter} and {longer} turns ahead gives the same best "
                 "move and the same chance to win. How much a weaker move gives away is less "
                 "firm: where the two grade it differently, its chance is shown as the range "
                 "between them, and it is called worse only by what both agree on.")


def weaker_note(settled: bool | None, shorter: int | None, longer: int,
                rows: Sequence[OptionRow]) -> str | None:
    """Said above the options of a settled position when the look-aheads grade some weaker
    option differently (an unsettled position says why everything is a range instead)."""
    if not settled or shorter is None or not any(r.win_prev is not None for r in rows):
        return None
    low, high = sorted((shorter, longer))
    return tr(WEAKER_NOTE, shorter=low, longer=high)


SOLVES_NOTE = N_("This duel was solved twice, each time on its own (here it changes nothing "
                 "which player’s card lies face up), and the two solves value some weaker "
                 "options differently: a duel can have more than one perfect way to play. "
                 "Such an option counts only the smaller loss, and its chance shows the range "
                 "over both solves.")


def solves_note(rows: Sequence[OptionRow]) -> str | None:
    """Said above the options when two solves of the duel grade some option differently."""
    return tr(SOLVES_NOTE) if any(r.by_solves for r in rows) else None


# A move of a line, by who makes it: (yours, theirs).
_ACTS: dict[Action, tuple[str, str]] = {
    Action.INCOME: (N_("you take Income"), N_("they take Income")),
    Action.FOREIGN_AID: (N_("you take Foreign Aid"), N_("they take Foreign Aid")),
    Action.TAX: (N_("you claim the Duke for Tax"), N_("they claim the Duke for Tax")),
    Action.STEAL: (N_("you claim the Captain to steal"), N_("they claim the Captain to steal")),
    Action.ASSASSINATE: (N_("you claim the Assassin to assassinate"),
                         N_("they claim the Assassin to assassinate")),
    Action.EXCHANGE: (N_("you claim the Ambassador to exchange"),
                      N_("they claim the Ambassador to exchange")),
    Action.COUP: (N_("you launch a Coup"), N_("they launch a Coup")),
}
_PASSES: dict[Phase, tuple[str, str]] = {
    Phase.CHALLENGE_ACTION: (N_("you let the claim stand"), N_("they let the claim stand")),
    Phase.BLOCK: (N_("you do not block"), N_("they do not block")),
    Phase.CHALLENGE_BLOCK: (N_("you accept the block"), N_("they accept the block")),
}


def step_words(step: Step, you: int) -> str:
    """One move of a line, from your seat: "you claim the Duke for Tax", "they challenge"."""
    mine = step.player == you
    m = step.move
    if m.kind is MoveKind.ACT and m.action is not None:
        pair = _ACTS.get(m.action)
        if pair is None:
            return (tr("you {action}", action=action_word(m.action)) if mine
                    else tr("they {action}", action=action_word(m.action)))
        return tr(pair[0] if mine else pair[1])
    if m.kind is MoveKind.CHALLENGE:
        return tr("you challenge") if mine else tr("they challenge")
    if m.kind is MoveKind.BLOCK and m.character is not None:
        card = card_name(m.character)
        return (tr("you block as the {card}", card=card) if mine
                else tr("they block as the {card}", card=card))
    if m.kind is MoveKind.PASS:
        pair = _PASSES.get(step.phase, (N_("you pass"), N_("they pass")))
        return tr(pair[0] if mine else pair[1])
    who = tr("you") if mine else tr("they")
    return f"{who} {m.kind.value}"


def line_text(steps: Sequence[Step], you: int) -> str:
    """The most likely line after an option, in words joined by arrows."""
    if not steps:
        return ""
    words = [step_words(s, you) for s in steps]
    return tr("Likely line: {moves} …", moves=" → ".join(words))


def frequency_words(f: float) -> str:
    """How often perfect play picks an option, as a sentence's end."""
    if f >= 1 - CERTAIN:
        return tr("perfect play always picks it")
    if f < CERTAIN:
        return tr("perfect play never picks it")
    return tr("perfect play picks it {chance} of the time", chance=percent(f))


def short_name(row: OptionRow) -> str:
    """"Tax" of "Tax: claim Duke, take 3" (a translation keeps the name before the colon; the
    pseudo-language's marks cut open by the split are closed again)."""
    head = row.label.split(":")[0]
    return head + CLOSE * max(0, head.count(OPEN) - head.count(CLOSE))


def mix_note(rows: Sequence[OptionRow]) -> str | None:
    """Said once when perfect play mixes options: why they show (nearly) the same chance."""
    played = [r for r in rows if r.frequency >= PLAYED]
    if len(played) < 2:
        return None
    names = [f"{short_name(r)} ({percent(r.frequency)})" for r in played]
    return tr("Perfect play mixes {first} and {last}. Options played in a mix win equally "
              "often (any gap is rounding): mixing keeps the other player from reading your "
              "card from your move.", first=", ".join(names[:-1]), last=names[-1])


def lead_you_act(choice: Choice, solved: Solved, rows: Sequence[OptionRow]) -> list[str]:
    """The sentences above your options: the chance, then what perfect play does, in
    words (a mix of options named as such: no one of them is "the" best move)."""
    chance = percent_band(solved.chance_band(choice.card))
    lines = [tr("If you both play perfectly, you win **{chance}** of the time.", chance=chance)]
    played = [r for r in rows if r.frequency >= PLAYED] or list(rows[:1])
    before = [r.win_prev for r in rows if r.win_prev is not None]
    changed = settledness.best_changes(before, [r.win for r in rows])
    if changed is not None and solved.by_exchange:
        lines.append(tr("Which move is best depends on how many Exchanges a line of play may "
                        "hold before the solver stops it: **{best}** with one, **{other}** "
                        "with two.", best=short_name(rows[0]), other=short_name(rows[changed])))
        return lines
    if changed is not None and solved.shorter is not None:
        # no verdict on which move is best: the two look-aheads name different ones
        lines.append(tr("Which move is best depends on how far ahead perfect play looks: "
                        "**{best}** looking {horizon} turns ahead, **{other}** looking "
                        "{shorter}.", best=short_name(rows[0]), horizon=solved.horizon,
                        other=short_name(rows[changed]), shorter=solved.shorter))
        return lines
    if len(played) == 1:
        lines.append(best_move_line(played[0]))
    elif played:
        lines.append(mixes_line(played))
    return lines


def best_move_line(best: OptionRow) -> str:
    """"Your best move: **Tax: ...**", saying when it is a bluff."""
    if best.bluff and best.claim is not None:
        return tr("Your best move: **{move}** (a bluff: you do not hold the {card}).",
                  move=best.label, card=card_name(best.claim))
    return tr("Your best move: **{move}**.", move=best.label)


def mixes_line(played: Sequence[OptionRow]) -> str:
    names = [f"**{short_name(r)}**" for r in played]
    return tr("Perfect play mixes {first} and {last}: they win equally often.",
              first=", ".join(names[:-1]), last=names[-1])


def lead_they_act(choice: Choice, solved: Solved) -> list[str]:
    """Their turn: your chance with your card, and how to study their options honestly
    (their best move depends on the card they hold, which you cannot see)."""
    mine = solved.card_values[choice.card]
    lines = [tr("If you both play perfectly, you win **{chance}** of the time.",
                chance=percent_band(solved.chance_band(choice.card)))]
    average = solved.value
    fields = {"card": card_name(choice.card), "average": percent(average)}
    if mine > average + 0.05:
        lines.append(tr("The {card} is better than most cards here (a random card would win "
                        "{average}).", **fields))
    elif mine < average - 0.05:
        lines.append(tr("The {card} is worse than most cards here (a random card would win "
                        "{average}).", **fields))
    else:
        lines.append(tr("The {card} is about as good as any card here (a random card would "
                        "win {average}).", **fields))
    lines.append(tr("What they should do depends on the card they hold, which you cannot "
                    "see. To study their options, switch seats: you then sit in their chair "
                    "and pick the card they might hold."))
    return lines


CLAIMS_HEADING = N_("Bluffs and challenges")
CLAIMS_NOTE = N_("The break-even belief: if they think you are bluffing more often than this, "
                 "challenging pays; less often, they should let the claim stand. It depends "
                 "on the card they hold, so the figure is their average.")


def bluff_rate(solved: Solved, move: Move) -> float | None:
    """How often perfect play's `move` is a bluff, over the deal (None if never played)."""
    claim = claimed(move, VARIANT)
    if claim is None:
        return None
    made = bluffed = 0.0
    for card, chance in solved.chances.items():
        freq = next((o.frequency for o in solved.options.get(card, ()) if o.move == move), 0.0)
        made += chance * freq
        bluffed += chance * freq if card != claim else 0.0
    return bluffed / made if made > 1e-9 else None


def claim_lines(solved: Solved, rows: Sequence[OptionRow]) -> list[str]:
    """One sentence per claim you can make: how often perfect play's claim is a bluff, and
    (when worked out) the belief above which they should challenge it."""
    lines = []
    for row in rows:
        o = next((o for opts in solved.options.values() for o in opts
                  if o.text == row.engine_text), None)
        if o is None or row.claim is None:
            continue
        rate = bluff_rate(solved, o.move)
        fields = {"move": short_name(row), "card": card_name(row.claim)}
        figures = (solved.claims or {}).get(o.move)
        p_star = figures.p_star if figures is not None else None
        if rate is None and p_star is None:
            said = tr("**{move}** (claims the {card}): perfect play never makes this claim.",
                      **fields)
        elif rate is None:
            said = tr("**{move}** (claims the {card}): perfect play never makes this claim; "
                      "they should challenge when they think a bluff more likely than "
                      "**{threshold}**.", threshold=percent(p_star or 0.0), **fields)
        elif p_star is None:
            said = tr("**{move}** (claims the {card}): when perfect play makes it, it is a "
                      "bluff {rate} of the time.", rate=percent(rate), **fields)
        else:
            said = tr("**{move}** (claims the {card}): when perfect play makes it, it is a "
                      "bluff {rate} of the time; they should challenge when they think a "
                      "bluff more likely than **{threshold}**.", rate=percent(rate),
                      threshold=percent(p_star), **fields)
        lines.append(said)
    return lines


def horizon_note(solved: Solved) -> str | None:
    """Said when the solve stopped short of the game's end somewhere."""
    if solved.cut_nodes == 0:
        return None
    if solved.exchanges > 1:
        return tr("These figures look {turns} ahead, and a line of play stops at the turn "
                  "after it has held {n} Exchanges. Where the game goes on longer, they count the "
                  "rest as if both cards were face up, so “for sure” means for sure within "
                  "that.", turns=turns_words(solved.horizon), n=solved.exchanges)
    return tr("These figures look {turns} ahead, and a line of play stops at the turn after "
              "its first Exchange. Where the game goes on longer, they count the rest as if "
              "both cards were face up, so “for sure” means for sure within that.",
              turns=turns_words(solved.horizon))


UNSETTLED_NOTE = N_("Not settled yet: looking {shorter} and {longer} turns ahead gives "
                    "different figures, so a figure that moves is shown as the range between "
                    "the two, and an option is only called worse by what both agree on. The "
                    "squares under each option look {page} turns ahead.")


UNSETTLED_EXCHANGE_NOTE = N_(
    "Not settled yet: the solver stops a line of play at the turn after its first Exchange "
    "(the Ambassador's swap), and letting it go on to a second changes the figures here. So "
    "a figure that moves is shown as the range between the two, and an option is only called "
    "worse by what both agree on. Both look {page} turns ahead.")


def with_lines(stored: Solved, fresh: Solved) -> Solved:
    """A stored position's figures with the likely lines and break-even beliefs of a fresh
    solve (the table keeps neither): the figures, their settledness and their ranges stay
    the table's, so working out the lines never changes the chance shown above them."""
    return replace(stored, lines=fresh.lines, claims=fresh.claims,
                   lines_horizon=None if fresh.horizon == stored.horizon else fresh.horizon)


def lines_note(solved: Solved) -> str | None:
    """Said under the options when the lines look less far ahead than the figures."""
    if solved.lines_horizon is None:
        return None
    return tr("The likely lines and when a challenge pays are worked out {turns} ahead; the "
              "figures above look {deeper} ahead.", turns=turns_words(solved.lines_horizon),
              deeper=turns_words(solved.horizon))


def deeper_note(choice: Choice, solved: Solved) -> str | None:
    """Said under the chance when the stored table looked further ahead than the look-ahead
    chosen (a position that kept moving at four and five turns): the selector says 4, the
    figures are from 6, and the page says why instead of leaving the two to disagree."""
    if not solved.stored or solved.horizon <= choice.horizon:
        return None
    return tr("Looking {chosen} turns ahead did not settle this position, so the table looked "
              "further: these figures look {turns} turns ahead.", chosen=choice.horizon,
              turns=solved.horizon)


def unsettled_note(solved: Solved) -> str | None:
    """Said above the options when the figures did not settle: why they are ranges."""
    if not solved.unsettled or solved.shorter is None:
        return None
    if solved.by_exchange:
        return tr(UNSETTLED_EXCHANGE_NOTE, page=solved.horizon)
    low, high = sorted((solved.shorter, solved.horizon))
    return tr(UNSETTLED_NOTE, shorter=low, longer=high, page=solved.horizon)


def settled_line(solved: Solved) -> str | None:
    """The expert's line on settledness: what was compared and what it showed."""
    if solved.shorter is None or solved.moved is None:
        return tr("Not checked against a shorter look-ahead (that needs at least three turns "
                  "ahead).")
    verdict = (tr("settled: the value moved at most 0.1 points and no card's best option "
                  "changed") if solved.settled else
               tr("not settled: the figures are shown as ranges and graded only where both "
                  "look-aheads agree"))
    if solved.by_exchange:
        return tr("Letting a line of play hold a second Exchange moves the mover's chance by "
                  "{by} (not settled: the figures are shown as ranges and graded only where "
                  "both agree).", by=_points(solved.moved))
    if solved.exchanges > 1:
        fewer = compared_exchanges(solved.exchanges)
        return tr("These figures let a line of play hold up to {n} Exchanges: stopping it after "
                  "its first, as the solver usually does, gives other figures. With {fewer} "
                  "allowed, looking {shorter} ahead agrees, and allowing {more} Exchanges "
                  "changes the mover's chance by {by} ({verdict}).", n=solved.exchanges,
                  fewer=words.count_word(fewer), more=words.count_word(solved.exchanges),
                  shorter=turns_words(solved.horizon - 1), by=_points(solved.moved),
                  verdict=verdict)
    # `moved` is the deeper look-ahead's value minus the shallower's
    shift = solved.moved if solved.shorter > solved.horizon else -solved.moved
    by = _points(shift)
    line = tr("Looking {turns} ahead instead moves the mover's chance by {by} ({verdict}).",
              turns=turns_words(solved.shorter), by=by, verdict=verdict)
    if solved.shorter > solved.horizon:
        line += " " + deeper_reason(solved)
    elif solved.stored and solved.horizon > DEFAULT_HORIZON:
        # a stored position still moving between four and five turns, solved six
        line += " " + tr("It was solved {turns} ahead because {a}, {b} and {c} turns ahead "
                         "gave other figures.", turns=turns_words(solved.horizon),
                         a=solved.horizon - 4, b=solved.horizon - 2, c=solved.shorter)
    if solved.settled and solved.exchange_checked:
        line += " " + tr("Letting a line hold a second Exchange, {turns} ahead, changes "
                         "nothing either.", turns=turns_words(DEFAULT_HORIZON))
    elif solved.settled:
        line += " " + tr("Both look-aheads stop a line at the turn after its first Exchange; "
                         "a second was not tried here.")
    return line


def _points(shift: float) -> str:
    """A signed move of the mover's chance, in points ("less than 0.01 points" where it
    would read as +0.00)."""
    if abs(100 * shift) < 0.005:
        return tr("less than 0.01 points")
    return tr("{points} points", points=("+" if shift > 0 else "-" if shift < 0 else "")
              + number(abs(100 * shift), 2))


def deeper_reason(solved: Solved) -> str:
    """Why a stored position was checked one turn deeper, and what the look-ahead between
    the page's and the one two turns shorter said."""
    two, between = solved.horizon - 2, solved.horizon - 1
    if solved.between_agreed is False:
        return tr("It was checked that far because {two} and {between} ahead gave other "
                  "figures.", two=two, between=turns_words(between))
    if solved.between_agreed is None:
        return tr("It was checked that far because {turns} ahead gave other figures.",
                  turns=turns_words(two))
    if solved.settled:
        return tr("It was checked that far because {turns} ahead gave other figures; "
                  "{between} ahead agrees too.", turns=turns_words(two),
                  between=turns_words(between))
    return tr("It was checked that far because {turns} ahead gave other figures ({between} "
              "ahead agreed with {horizon}).", turns=turns_words(two),
              between=turns_words(between), horizon=solved.horizon)



def expert_lines(solved: Solved) -> list[str]:
    """The figures that say how exact the solve is, for those who want them."""
    exploit = tr("Exploitability: {points} points. On average, a player could win no more "
                 "often than that by changing their play against these strategies.",
                 points=number(100 * solved.exploitability, 2))
    seat = tr("Your seat averaged over the deal: {chance}.", chance=percent(solved.value))
    if solved.stored:
        return [
            tr("From the stored table, solved ahead {turns} deep.",
               turns=turns_words(solved.horizon)),
            exploit,
            *[line for line in (settled_line(solved),) if line],
            seat,
        ]
    return [
        exploit,
        tr("Iterations of the solver (discounted CFR): {n}, in {seconds} s.",
           n=number(solved.iterations), seconds=number(solved.seconds, 1)),
        tr("Public tree: {nodes} nodes, {cut} of them cut at the horizon ({turns}) and valued "
           "by the face-up table.", nodes=number(solved.tree_nodes),
           cut=number(solved.cut_nodes), turns=turns_words(solved.horizon)),
        *[line for line in (settled_line(solved),) if line],
        seat,
    ]


def progress_start(horizon: int) -> str:
    """Before the first report: most of a deep solve is laying out every line of play."""
    return tr("Working out perfect play {turns} ahead: first every line of play, then rounds "
              "of better and better play…", turns=turns_words(horizon))


def progress_text(iteration: int, exploitability: float) -> str:
    return tr_n("Working out perfect play… {n} round, within {points} points of perfect",
                "Working out perfect play… {n} rounds, within {points} points of perfect",
                iteration, points=number(100 * exploitability, 1))


def progress_fraction(iteration: int, exploitability: float, first: float,
                      target: float = 1e-3, most: int = 2000) -> float:
    """How far a solve has come: the distance to perfect play closed so far, on a log
    scale from the first check (`first`) to the target, or the rounds used, whichever is
    further."""
    by_rounds = iteration / most
    if exploitability <= target:
        return 1.0
    if first <= target or exploitability >= first:
        return min(1.0, by_rounds)
    closed = math.log(first / exploitability) / math.log(first / target)
    return min(1.0, max(by_rounds, closed))


# ------------------------------------------------------------------------------- HTML


def _mix(a: str, b: str, t: float) -> str:
    x = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    y = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(p + (q - p) * t):02x}" for p, q in zip(x, y, strict=True))


def win_colour(p: float) -> str:
    """Red (they win) through brown (even) to blue (you win), as on the heat map."""
    p = min(1.0, max(0.0, p))
    return _mix(LOSE, EVEN, p / 0.5) if p < 0.5 else _mix(EVEN, WIN, (p - 0.5) / 0.5)


STRIP_LEGEND = N_("Under each option, one square per card they may hold: how likely they "
                  "hold it, and how often you win with this option if they do.")
OUTCOME_NOTE = N_("“Depends on their card”: a sure win against some of their cards, a sure "
                  "loss against the others. “Depends on play”: the moves after this one "
                  "decide.")


def options_html(rows: Sequence[OptionRow]) -> str:
    """Your options as a numbered list of cards, best first: words first, figures after,
    the strip last. A list rather than a table: on a phone a wide table scrolls sideways
    and hides the figures a reader compares."""
    items = []
    bluff, honest = escape(tr("bluff")), escape(tr("true claim"))
    said = False  # whether a row has said what points are
    for i, r in enumerate(rows):
        tag = (f'<span class="eg-tag eg-tag--bluff">{bluff}</span>' if r.bluff
               else f'<span class="eg-tag eg-tag--honest">{honest}</span>'
               if r.claim is not None else "")
        if i == 0:
            loss = tr("the best move")
        elif r.lost_pp < 0.05 and not r.verdict:
            loss = tr("as good as the best")  # a mix: "0.0 points below" says nothing more
        else:
            points = words.points(r.lost_pp, first=not said)
            if r.verdict:
                loss = tr("at least {points} below the best: {verdict}", points=points,
                          verdict=r.verdict.lower())
            else:
                loss = tr("{points} below the best: {grade}", points=points,
                          grade=tr(GRADE_WORDS[r.grade]))
            said = True
        cells = "".join(
            f'<div class="eg-cell" style="background:{win_colour(c.win)}" '
            f'data-card="{escape(c.card.value)}" title="{escape(_cell_title(c))}">'
            f'<span class="eg-cell__card">{escape(card_name(c.card))}</span>'
            f'<span class="eg-cell__held">{escape(_likely(c.held))}'
            f'</span><span class="eg-cell__win">{escape(_win(c.win))}</span></div>'
            for c in r.strip)
        you_win = tr("You win <b>{chance}</b>", chance=escape(percent_band(r.band)))
        items.append(
            f'<li class="eg-option eg-option--{r.outcome}" data-rank="{i + 1}">'
            f'<div class="eg-option__head"><span class="eg-rank">{i + 1}</span>'
            f'<span class="eg-option__label">{escape(r.label)}</span>{tag}</div>'
            f'<div class="eg-option__figures"><span class="eg-win">{you_win}'
            f'</span><span>{escape(loss)}</span>'
            f'<span>{escape(frequency_words(r.frequency))}</span></div>'
            f'<div class="eg-outcome eg-outcome--{r.outcome}">{escape(tr(OUTCOMES[r.outcome]))}'
            '</div>'
            f'<div class="eg-strip">{cells}</div>'
            + (f'<div class="eg-line">{escape(r.line)}</div>' if r.line else "") + '</li>')
    return f'<ol class="eg-options">{"".join(items)}</ol>'


def _likely(p: float) -> str:
    return tr("{chance} likely", chance=percent(p))


def _win(p: float) -> str:
    return tr("win {chance}", chance=percent(p))


def _cell_title(c: Cell) -> str:
    return tr("They hold {a_card} {held} of the time; then you win {win} with this option.",
              a_card=article(c.card), held=percent(c.held), win=percent(c.win))


def hands_html(choice: Choice) -> str:
    """The two players' cards as on the table: each a hidden card and a lost one face up
    (their hidden card shown only in face-up mode)."""
    theirs = mini_card(choice.their.value, "shown") if choice.mode == "faceup" else \
        mini_card(None)
    seats = [(tr("You"), mini_card(choice.card.value, "own"), choice.lost[0],
              choice.coins[0], choice.turn == "you"),
             (tr("They"), theirs, choice.lost[1], choice.coins[1], choice.turn == "them")]
    out = []
    for name, hidden, lost, coins, acts in seats:
        to_act = " · " + escape(tr("to act")) if acts else ""
        out.append(f'<div class="eg-seat{" eg-seat--acts" if acts else ""}">'
                   f'<div class="eg-seat__name">{escape(name)} · {escape(coins_words(coins))}'
                   f'{to_act}</div>'
                   f'<div class="eg-seat__cards">{hidden}{mini_card(lost.value, "revealed")}'
                   '</div></div>')
    return f'<div class="eg-hands">{"".join(out)}</div>'


# ---------------------------------------------------------------------------- heat map


HEAT_TITLE = N_("your chance of winning")
HEAT_HEADING = N_("How the coins change it")
# The notes of a square with no sure winner (marked here, translated where the chart is drawn).
BLUFFS_INCLUDED = N_("perfect play, bluffs included")
FACE_UP_AVERAGED = N_("face up, averaged over their card")
CARDS_HIDDEN = N_("cards hidden")
CARDS_FACE_UP = N_("cards face up")


def heat_frame(values: np.ndarray, distances: np.ndarray | None,
               note_text: str = BLUFFS_INCLUDED,
               unsettled: tuple[np.ndarray, np.ndarray] | None = None) -> pd.DataFrame:
    """One row per pair of coin counts (`values[yours, theirs]`): your chance, and (face
    up) the turns within which the sure winner wins (-1: nobody can force it). Without
    distances the squares are notes on play with the cards hidden, and squares with no
    figure (NaN) are left out. `unsettled`: (settled flags, the values at the shorter
    look-ahead) of the stored hidden-card table; an unsettled square's note gives its range
    and its row is marked."""
    rows = []
    for a in range(values.shape[0]):
        for b in range(values.shape[1]):
            v = float(values[a, b])
            if math.isnan(v):
                continue
            d = -1 if distances is None else int(distances[a, b])
            loose = unsettled is not None and unsettled[0][a, b] == 0.0
            if loose and unsettled is not None:
                span = percent_band(settledness.band(v, float(unsettled[1][a, b])))
                note = tr("not settled: {span}, by how far the solver follows the play", span=span)
            elif distances is None:
                note = tr("the one to act coups") if v in (0.0, 1.0) else tr(note_text)
            elif v >= 1 - CERTAIN and d >= 0:
                note = tr("you win within {turns}", turns=turns_words(d))
            elif v <= CERTAIN and d >= 0:
                note = tr("they win within {turns}", turns=turns_words(d))
            else:
                note = tr("the draw of an Exchange decides")
            rows.append({"you": a, "them": b, "win": round(v, 4),
                         "label": "" if v >= 1 - CERTAIN or v <= CERTAIN else f"{100 * v:.0f}",
                         "note": note, "unsettled": loose})
    return pd.DataFrame(rows)


def heat_chart(values: np.ndarray, distances: np.ndarray | None, coins: tuple[int, int],
               title: str | None = None, height: int = 400,
               note_text: str = BLUFFS_INCLUDED, labels: bool = True,
               unsettled: tuple[np.ndarray, np.ndarray] | None = None
               ) -> alt.LayerChart | alt.FacetChart:
    """Your coins across, theirs up; colour your chance with both cards face up. Squares
    where nobody can force the win carry their percentage; the current position is
    outlined; with `unsettled` (see `heat_frame`), a dot marks each unsettled square."""
    data = heat_frame(values, distances, note_text, unsettled)
    ticks = list(range(0, values.shape[0], 2))
    yours, theirs, heat = tr("your coins"), tr("their coins"), tr(HEAT_TITLE)
    x = alt.X("you:O", title=yours, axis=alt.Axis(labelAngle=0, values=ticks))
    y = alt.Y("them:O", title=theirs, sort="descending", axis=alt.Axis(values=ticks))
    colour = alt.Color("win:Q", title=heat,
                       scale=alt.Scale(domain=[0, 0.5, 1], range=[LOSE, EVEN, WIN]),
                       legend=alt.Legend(orient="bottom", format=".0%", gradientLength=180,
                                         titleLimit=260))
    tooltip = [alt.Tooltip("you:O", title=yours),
               alt.Tooltip("them:O", title=theirs),
               alt.Tooltip("win:Q", title=heat, format=".0%"),
               alt.Tooltip("note:N", title=tr("with best play"))]
    base = alt.Chart(data)
    squares = base.mark_rect(stroke="#15100f", strokeWidth=0.5).encode(
        x=x, y=y, color=colour, tooltip=tooltip)
    numbers = base.mark_text(fontSize=9, color="#f3ead8").encode(x=x, y=y, text="label:N")
    here = alt.Chart(pd.DataFrame([{"you": coins[0], "them": coins[1]}])).mark_rect(
        fill=None, stroke="#f0c970", strokeWidth=3).encode(x=x, y=y)
    layers = [squares, numbers, here] if labels else [squares, here]
    if unsettled is not None:
        dots = base.transform_filter(alt.datum.unsettled).mark_point(
            shape="circle", size=14, filled=True, color="#f3ead8", opacity=0.85).encode(
            x=x, y=y, tooltip=tooltip)
        layers.insert(1, dots)
    chart = alt.layer(*layers).properties(height=height)
    return chart.properties(title=tr(title)) if title else chart


HIDDEN_HEADING = N_("Hidden cards against face-up cards")


def hidden_sentence(choice: Choice) -> str:
    return tr("The first map is your chance holding the {card} when neither of you sees the "
              "other's card, with perfect play and bluffs included. The second is your chance "
              "if both cards were face up, averaged over the card they may hold. Where the "
              "first is bluer, keeping your card hidden is worth something; point at a square "
              "for its figure. A dot marks a position that is not settled: its figure moves "
              "with how far the solver follows the play (turns ahead, or Exchanges in a "
              "line), and pointing at it gives the range.",
              card=card_name(choice.card))


def hidden_missing() -> str:
    return tr("The table of hidden-card positions is not installed, so this comparison is not "
              "available (build it with {command}).",
              command="python -m trainer endgame build --table hidden")


def heat_sentence(choice: Choice) -> str:
    fields = {"card": card_name(choice.card), "their": card_name(choice.their)}
    if choice.turn == "you":
        return tr("Each square is one pair of coin counts, yours across and theirs up, with "
                  "both cards face up: your {card} against their {their}, you act first. Blue "
                  "squares you win for sure, red ones they do; a number is your chance where no "
                  "one can force the win. The gold square is this position.", **fields)
    return tr("Each square is one pair of coin counts, yours across and theirs up, with both "
              "cards face up: your {card} against their {their}, they act first. Blue squares "
              "you win for sure, red ones they do; a number is your chance where no one can "
              "force the win. The gold square is this position.", **fields)
