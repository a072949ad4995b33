"""The End-game page's Practice: a duel played out against perfect play, in words and charts.

Why apart from the page: what the page says during a duel (the goal, each button, what the
opponent did, the grade of each decision, the summary) and the accuracy chart are functions of
plain values, tested without a browser. You are always player 0, as on the explorer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import altair as alt
import pandas as pd

from trainer.endgame.hidden_tables import lookup
from trainer.endgame.practice import HORIZON, Event, Goal, Graded, Offer, Practice
from trainer.endgame.puzzles import Puzzle
from trainer.endgame.settled import best_changes
from trainer.engine.cards import Action, Character
from trainer.engine.explain import LOSE_LINE, LOSE_QUESTION
from trainer.engine.game import Game, Phase
from trainer.engine.moves import MoveKind
from trainer.engine.names import card_name
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import date, months, number
from trainer.quiz.bank import END_GAME
from trainer.verdicts import Answer, Grade, record, words
from trainer.verdicts.endgame import practice_kind, practice_verdict
from trainer.verdicts.words import Tone
from trainer.views.endgame_view import (
    Choice,
    Turn,
    article,
    percent,
    step_words,
)
from trainer.views.move_labels import your_move

PRACTICE_THEME = "End-game practice"
KIND_TITLES = {"bluff": N_("A bluff wins it"), "trap": N_("The obvious move loses"),
               "hold": N_("Hold on")}
KIND_HINTS = {
    "bluff": N_("Every honest move here loses more often. Find the lie that wins."),
    "trap": N_("The move that looks natural costs you. Find the better one."),
    "hold": N_("You are behind. Stay in the duel for two of their turns, and win if you can."),
}
DIFFICULTY_WORDS = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard")}
GRADE_WORDS: dict[Grade, str] = words.HEADLINES
GRADE_ICONS: dict[Grade, str] = {"best": ":material/star:", "good": ":material/check:",
                                 "inaccuracy": ":material/info:",
                                 "mistake": ":material/warning:",
                                 "blunder": ":material/error:"}
INTRO = N_("Play a duel to the end against an opponent who plays perfectly: it holds a real "
           "card, bluffs as often as the solution says and calls your bluffs the same way. "
           "Every decision you make is graded by how much of your chance to win it gives "
           "away.")
REPLAY_NOTE = N_("This page's link shares the duel, not the cards: opened again, it deals "
                 "their card afresh. At the end, “Play it again” replays these same cards.")


def puzzle_label(p: Puzzle) -> str:
    """One line of the puzzle list: kind, position, difficulty."""
    position = tr_n("your {card}, {n} coin against {theirs}",
                    "your {card}, {n} coins against {theirs}", p.coins[0],
                    card=card_name(p.card), theirs=p.coins[1])
    return f"{tr(KIND_TITLES[p.kind])} · {position} · {tr(DIFFICULTY_WORDS[p.difficulty])}"


# "The table has no easy puzzle ...": the difficulty as the sentence says it.
_LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def no_puzzle_words(kind: str, level: str) -> str:
    """Said when the table has no puzzle of that kind and difficulty."""
    what = tr(KIND_TITLES[kind]).lower() if kind in KIND_TITLES else tr("any kind")
    return tr("The table has no {level} puzzle of the kind “{kind}”: here is one of another "
              "difficulty.", level=tr(_LEVEL_WORDS[level]) if level in _LEVEL_WORDS else level,
              kind=what)


def puzzle_choice(p: Puzzle) -> Choice:
    return Choice(card=p.card, lost=p.lost, coins=p.coins, turn="you")


def goal_line(goal: Goal) -> str:
    return "**" + tr("Goal:") + "** " + goal.describe()


UNSETTLED_PRACTICE = N_("This position is not settled: looking {shorter} and {longer} turns "
                        "ahead gives different values, so the grades here, against perfect "
                        "play {page} turns ahead, could change with a deeper look. Puzzles use "
                        "settled positions only.")


PRACTICE_SHORTER = N_("The End-game page looks {longer} turns ahead at this position. Practice "
                     "looks {page} turns ahead, and there another move is best for the card you "
                     "hold, so a grade here can differ from the page's.")


PRACTICE_FEWER_EXCHANGES = N_("The End-game page lets a line of play at this position hold "
                              "up to {n} Exchanges. Practice stops a line after its first, "
                              "and there another move is best for the card you hold, so a "
                              "grade here can differ from the page's.")


UNSETTLED_EXCHANGE_PRACTICE = N_("This position is not settled: letting a line of play hold a "
                                 "second Exchange changes its values, so the grades here, "
                                 "against perfect play {page} turns ahead that stops a line "
                                 "after its first Exchange, could change. Puzzles use settled "
                                 "positions only.")


def settled_note(choice: Choice) -> str | None:
    """Said over a duel played out from the explorer when its start is not settled
    (`trainer.endgame.settled`), or when it is settled only further ahead than practice looks
    (or with more Exchanges in a line than practice's solve allows) and the learner's best
    first move is another one there; None otherwise, or when the table
    does not hold it (a player to act with 7 coins or more coups and wins: nothing to
    settle)."""
    entry = lookup(choice.lost, choice.coins, 0, choice.first)
    if entry is None:
        return None
    if entry.settled:
        mine = entry.options.get(choice.card, [])
        four = entry.options_h4.get(choice.card, {})
        further = entry.horizon > HORIZON or entry.exchanges > 1
        if not further or not mine or len(four) != len(mine):
            return None
        page = [value for _, value, _, _ in mine]
        here = [four[move] for move, _, _, _ in mine]
        if best_changes(page, here) is None:
            return None
        if entry.exchanges > 1:
            return tr(PRACTICE_FEWER_EXCHANGES, n=entry.exchanges)
        return tr(PRACTICE_SHORTER, longer=entry.horizon, page=HORIZON)
    if entry.by_exchange:
        return tr(UNSETTLED_EXCHANGE_PRACTICE, page=HORIZON)
    # the two look-aheads the table compared: 2 and 4, 4 and 5, or 5 and 6 turns
    low, high = sorted((entry.check, entry.horizon))
    return tr(UNSETTLED_PRACTICE, shorter=low, longer=high, page=HORIZON)


def position_choice(practice: Practice) -> Choice:
    """The duel now, as the explorer's position (for the drawn table)."""
    g = practice.game
    turn: Turn = "you" if not g.is_over and g.decider == 0 else "them"
    return Choice(card=practice.my_card, lost=practice.revealed, coins=(g.coins[0], g.coins[1]),
                  turn=turn)


def threat_line(game: Game, you: int = 0) -> str | None:
    """The coin count a newcomer must not miss: 7 coins pay for a Coup, which no card
    blocks, so it ends the duel on that player's next turn (`you`: your seat)."""
    if game.is_over:
        return None
    mine, theirs = game.coins[you], game.coins[1 - you]
    if len(game.hidden[you]) > 1 or len(game.hidden[1 - you]) > 1:
        return _threat_two(game, you, mine, theirs)
    if theirs >= 7 and mine >= 7:
        return tr("You both have 7 coins or more: whoever acts next can launch a Coup, which "
                  "nothing blocks, and win.")
    if theirs >= 7:
        return tr("They have 7 coins: on their next turn they can launch a Coup, which "
                  "nothing blocks, and win. Can you stop that first?")
    if mine >= 7:
        return tr("You have 7 coins or more: a Coup, which nothing blocks, wins on your turn.")
    return None


def _threat_two(game: Game, you: int, mine: int, theirs: int) -> str | None:
    """The same in a duel where a player still holds two cards: a Coup takes one card."""
    def last(p: int) -> bool:
        """Whether a Coup by `p` takes the other player's last card."""
        return len(game.hidden[1 - p]) == 1

    if theirs >= 7:
        if last(1 - you):
            return tr("They have {n} coins: on their next turn they can launch a Coup, which "
                      "nothing blocks, and win.", n=theirs)
        return tr("They have {n} coins: on their next turn they can launch a Coup, which "
                  "nothing blocks, and take one of the two cards.", n=theirs)
    if mine >= 7:
        if last(you):
            return tr("You have {n} coins: a Coup, which nothing blocks, can win.", n=mine)
        return tr("You have {n} coins: a Coup, which nothing blocks, can take one of the two "
                  "cards.", n=mine)
    return None


def offer_label(game: Game, offer: Offer) -> str:
    """A button: what pressing it does."""
    if offer.kept is not None:
        return tr("Keep the {card}", card=card_name(offer.kept))
    if offer.hand is not None:
        return keep_words(offer.hand, you=True, button=True)
    move = offer.move
    assert move is not None
    return worded(game, lambda: your_move(game, move))


# The duel's players are named "you" and "them" in the engine game (words the move labels put
# in: "Steal from them"): named in the reader's language while a label is worded.
PLAYER_WORDS = {"you": N_("you"), "them": N_("them")}


def worded(game: Game, say: Callable[[], str]) -> str:
    """`say()` with the duel's players named in the reader's language."""
    names = game.names
    game.names = [tr(PLAYER_WORDS[n]) if n in PLAYER_WORDS else n for n in names]
    try:
        return say()
    finally:
        game.names = names


def situation(game: Game) -> str:
    """The question in front of you, in a sentence that says what it is about."""
    phase = game.phase
    d = game.pending
    action = d.action if d is not None else None
    if phase is Phase.ACTION:
        return tr("Your turn: choose an action.")
    if phase is Phase.EXCHANGE:
        pool = ", ".join(card_name(c) for c in game.exchange_pool())
        if len(game.hidden[game.decider]) == 1:
            return tr("Your Exchange: you hold {pool} for a moment. Keep one card.", pool=pool)
        return tr("Your Exchange: you hold {pool} for a moment. Keep two cards.", pool=pool)
    if phase is Phase.LOSE:
        return f"{tr(LOSE_LINE)} {tr(LOSE_QUESTION)}"
    if phase in (Phase.PROVE_ACTION, Phase.PROVE_BLOCK):
        return (tr("They challenged, and you do not hold the card you claimed.")
                + f" {tr(LOSE_LINE)} {tr(LOSE_QUESTION)}")
    if phase is Phase.CHALLENGE_ACTION and d is not None and d.claim is not None:
        return tr("They claim the {card} to {act}. Do you challenge?", card=card_name(d.claim),
                  act=_act(action))
    if phase is Phase.BLOCK:
        return tr("They {act}. Do you block?", act=_act(action))
    if phase is Phase.CHALLENGE_BLOCK and d is not None and d.block_character is not None:
        return tr("They block by claiming the {card}. Do you challenge the block?",
                  card=card_name(d.block_character))
    return tr("Your decision.")


_ACT_WORDS = {Action.INCOME: N_("take Income"), Action.FOREIGN_AID: N_("take Foreign Aid"),
              Action.TAX: N_("take Tax"), Action.STEAL: N_("steal from you"),
              Action.ASSASSINATE: N_("assassinate you"), Action.EXCHANGE: N_("exchange")}


def _act(action: Action | None) -> str:
    """Their action inside a sentence ("steal from you"), after "They"."""
    if action is None or action not in _ACT_WORDS:
        return tr("act")
    return tr(_ACT_WORDS[action])


def keep_words(hand: Sequence[Character], *, you: bool, button: bool = False) -> str:
    """"Keep the Duke and the Captain" (a button), "you keep the Duke and the Captain"."""
    cards = [card_name(c) for c in hand]
    if len(cards) == 1:
        return (tr("Keep the {card}", card=cards[0]) if button
                else tr("you keep the {card}", card=cards[0]))
    if button:
        return tr("Keep the {first} and the {second}", first=cards[0], second=cards[1])
    return tr("you keep the {first} and the {second}", first=cards[0], second=cards[1])


def event_words(event: Event, you: int = 0) -> str:
    """One move of the duel, from your seat; their Exchange keeps its cards secret."""
    if event.move.kind is MoveKind.KEEP:
        if event.player == you and event.hand is not None:
            return keep_words(event.hand, you=True)
        if event.player == you and event.kept is not None:
            return tr("you keep the {card}", card=card_name(event.kept))
        kept = len(event.move.cards or ())
        return (tr("they keep one card (you do not see which)") if kept <= 1
                else tr("they keep two cards (you do not see which)"))
    if event.move.kind is MoveKind.LOSE and event.move.character is not None:
        card = card_name(event.move.character)
        return (tr("you give up the {card}", card=card) if event.player == you
                else tr("they give up the {card}", card=card))
    from trainer.endgame.hidden import Step

    return step_words(Step(event.player, event.move, event.phase), you)


def events_text(events: Sequence[Event], you: int = 0) -> str:
    """The whole duel so far, oldest first, joined by arrows."""
    return " → ".join(event_words(e, you) for e in events)


def grade_of(g: Graded) -> Grade:
    """The decision's grade, as the verdict layer gives it."""
    return practice_verdict(g).grade


def graded_tone(g: Graded) -> Tone:
    """The colour of the decision's box, as the verdict layer gives it."""
    return words.tone(practice_verdict(g))


def graded_lines(g: Graded, labels: Sequence[str]) -> list[str]:
    """The verdict on one decision: the grade, what it cost, and the best option
    (`labels`: the buttons as they read when the decision was made)."""
    v = practice_verdict(g, labels)
    chosen = g.offers[g.chosen]
    best = g.best
    text = [f"**{words.headline(v)}.**"]
    if g.lost_pp < 0.05:
        text.append(tr("“{move}” keeps your chance of winning at {chance}.", move=v.chosen,
                       chance=percent(chosen.value)))
        if g.mixed:
            text.append(tr("Perfect play mixes it with another move of the same value, so "
                           "your opponent cannot tell which is coming."))
    else:
        text.append(tr("“{move}” gives you {chance} to win; “{best}” gives {best_chance}. You "
                       "gave away {points}.", move=v.chosen, chance=percent(chosen.value),
                       best=v.best, best_chance=percent(best.value),
                       points=words.points(v.lost_pp, first=True)))
    return [" ".join(text)]


def option_lines(g: Graded, labels: Sequence[str]) -> list[str]:
    """Every option of a graded decision, best first: its win chance and how often perfect
    play picks it."""
    lines = []
    for i, o in sorted(enumerate(g.offers), key=lambda io: -io[1].value):
        fields = {"option": labels[i], "chance": percent(o.value),
                  "often": percent(o.frequency)}
        if o.frequency >= 0.02:
            line = tr("{option}: you win {chance}; perfect play picks it {often} of the time",
                      **fields)
        else:
            line = tr("{option}: you win {chance}; perfect play never picks it", **fields)
        mark = " ← " + tr("your choice") if i == g.chosen else ""
        lines.append(f"- {line}{mark}")
    return lines


BELIEF_NOTE = N_("Worked out from the cards you can see and from how often perfect play makes "
                 "each move with each card. A move that perfect play only makes with one card "
                 "gives that card away.")


def belief_line(belief: Mapping[Character, float]) -> str:
    """What their moves so far say of their card."""
    parts = ", ".join(f"{card_name(c)} {percent(p)}" for c, p in
                      sorted(belief.items(), key=lambda kv: -kv[1]) if p >= 0.005)
    return tr("The chance they hold each card: {parts}.", parts=parts)


@dataclass(frozen=True)
class Summary:
    won: bool
    goal_met: bool
    decisions: int
    accurate: int  # best or good
    lost_pp: float
    start_value: float
    their_card: str
    my_card: str


def summary(practice: Practice) -> Summary:
    graded = practice.graded
    accurate = sum(1 for g in graded if grade_of(g) in ("best", "good"))
    theirs = practice.their_card
    return Summary(practice.won, bool(practice.goal_met), len(graded), accurate,
                   sum(g.lost_pp for g in graded), practice.start_value,
                   theirs.value if theirs else "?", practice.my_card.value)


def summary_lines(s: Summary) -> list[str]:
    result = "**" + (tr("You won the duel.") if s.won else tr("You lost the duel.")) + "**"
    goal = tr("Goal reached.") if s.goal_met else tr("Goal missed.")
    card = tr("You held {mine}; they held {theirs}.", mine=article_word(s.my_card),
              theirs=article_word(s.their_card))
    points = number(s.lost_pp, 1)
    if s.decisions == 0:
        graded = tr("You had no decision to make: the duel was over before your turn.")
    elif s.decisions == 1:
        graded = (tr("Your one decision was sound (best or good): it gave away {points} points "
                     "of winning chance.", points=points) if s.accurate else
                  tr("Your one decision was costly (an inaccuracy, a mistake or a blunder): it "
                     "gave away {points} points of winning chance.", points=points))
    else:
        graded = tr_n("{accurate} of your {n} decision was best or good; in all you gave away "
                      "{points} points of winning chance.",
                      "{accurate} of your {n} decisions were best or good; in all you gave away "
                      "{points} points of winning chance.", s.decisions, accurate=s.accurate,
                      points=points)
    return [f"{result} {goal}", card, graded, start_line(s.start_value)]


def start_line(value: float) -> str:
    return tr("With perfect play from the start you would win {chance} of the time: a duel can "
              "be lost with every move right, and won with mistakes.", chance=percent(value))


def article_word(name: str) -> str:
    """"a Duke", "an Ambassador" of a card's identifier ("?" when not known)."""
    try:
        return article(Character(name))
    except ValueError:
        return name


# ---------------------------------------------------------------------- accuracy over time


def is_end_game(a: Answer) -> bool:
    """An answer about the last duel: a practice decision or an End-game quiz item."""
    return PRACTICE_THEME in a.themes or END_GAME in a.themes


def accuracy_frame(answers: Sequence[Answer]) -> pd.DataFrame:
    """One row per day with end-game answers: how many, the share best or good, and the
    mean points given away."""
    rows = [{"day": a.answered_at.date(), "accurate": a.grade in ("best", "good"),
             "lost": a.lost_pp, "source": "Practice" if PRACTICE_THEME in a.themes else "Quiz"}
            for a in answers if is_end_game(a) and not a.trivial]
    if not rows:
        return pd.DataFrame(columns=["day", "decisions", "accuracy", "lost"])
    df = pd.DataFrame(rows)
    out = df.groupby("day").agg(decisions=("accurate", "size"), accuracy=("accurate", "mean"),
                                lost=("lost", "mean")).reset_index()
    out["day"] = pd.to_datetime(out["day"])
    return out


def day_label_expr() -> str:
    """A date axis's labels in the reader's language ("Nob 27"): Vega writes month names in
    English, so the names come from Babel (CLDR) and Vega picks one by the month's number."""
    names = json.dumps(months(), ensure_ascii=False)
    return f"{names}[month(datum.value)] + ' ' + date(datum.value)"


def accuracy_chart(frame: pd.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """The share of end-game decisions that were best or good, day by day; each point sized
    by how many decisions that day held."""
    day, decisions = tr("Day"), tr("Decisions")
    frame = frame.assign(said=[date(d.date(), "medium") for d in frame["day"]])
    base = alt.Chart(frame).encode(
        x=alt.X("day:T", title=day, axis=alt.Axis(labelExpr=day_label_expr())),
        y=alt.Y("accuracy:Q", title=tr("Best or good decisions"),
                scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        tooltip=[alt.Tooltip("said:N", title=day),
                 alt.Tooltip("decisions:Q", title=decisions),
                 alt.Tooltip("accuracy:Q", title=tr("Best or good"), format=".0%"),
                 alt.Tooltip("lost:Q", title=tr("Points given away, on average"),
                             format=".1f")])
    line = base.mark_line(color="#2f74b5")
    points = base.mark_circle(color="#2f74b5", opacity=0.9).encode(
        size=alt.Size("decisions:Q", title=decisions, legend=None,
                      scale=alt.Scale(range=[40, 300])))
    return alt.layer(line, points).properties(height=240)


def accuracy_sentence(frame: pd.DataFrame) -> str:
    if frame.empty:
        return tr("No end-game decisions yet. Play a practice duel or the quiz's End-game "
                  "drill and your accuracy appears here, day by day.")
    total = int(frame["decisions"].sum())
    overall = float((frame["accuracy"] * frame["decisions"]).sum() / total)
    last = frame.iloc[-1]
    days = len(frame)
    if total == 1:
        said = tr("Over one end-game decision, {share} was best or good.",
                  share=percent(overall))
    else:
        said = tr_n("Over {n} end-game decision, {share} were best or good.",
                    "Over {n} end-game decisions, {share} were best or good.", total,
                    share=percent(overall))
    if days == 1:
        return said
    return said + " " + tr("On your latest day, {share} of {n}.",
                           share=percent(float(last["accuracy"])), n=int(last["decisions"]))


def practice_answer(learner: str, practice_id: str, g: Graded, labels: Sequence[str],
                    when: datetime, seconds: float | None = None) -> Answer:
    """A graded decision as the answer record the calibration page and the chart read."""
    return record(practice_verdict(g, labels), answer_id=f"eg-{practice_id}-{g.number}"[:64],
                  learner=learner, item_id=f"endgame-{practice_id}"[:64],
                  bank="endgame-solver", mode="endgame-practice", kind=practice_kind(g),
                  themes=(PRACTICE_THEME,), variant="base", answered_at=when,
                  seconds=seconds)
