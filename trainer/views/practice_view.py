"""The End-game page's Practice: a duel played out against perfect play, in words and charts.

Why apart from the page: what the page says during a duel (the goal, each button, what the
opponent did, the grade of each decision, the summary) and the accuracy chart are functions of
plain values, tested without a browser. You are always player 0, as on the explorer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import altair as alt
import pandas as pd

from trainer.endgame.hidden_tables import lookup
from trainer.endgame.practice import Event, Goal, Graded, Offer, Practice
from trainer.endgame.puzzles import Puzzle
from trainer.engine.cards import Action, Character
from trainer.engine.explain import LOSE_LINE, LOSE_QUESTION
from trainer.engine.game import Game, Phase
from trainer.engine.moves import MoveKind
from trainer.quiz.bank import END_GAME
from trainer.verdicts import Answer, Grade, record, words
from trainer.verdicts.endgame import practice_kind, practice_verdict
from trainer.verdicts.words import Tone
from trainer.views.endgame_view import (
    Choice,
    Turn,
    percent,
    step_words,
)
from trainer.views.move_labels import your_move

PRACTICE_THEME = "End-game practice"
KIND_TITLES = {"bluff": "A bluff wins it", "trap": "The obvious move loses",
               "hold": "Hold on"}
KIND_HINTS = {
    "bluff": "Every honest move here loses more often. Find the lie that wins.",
    "trap": "The move that looks natural costs you. Find the better one.",
    "hold": "You are behind. Stay in the duel for two of their turns, and win if you can.",
}
DIFFICULTY_WORDS = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
GRADE_WORDS: dict[Grade, str] = words.HEADLINES
GRADE_ICONS: dict[Grade, str] = {"best": ":material/star:", "good": ":material/check:",
                                 "inaccuracy": ":material/info:",
                                 "mistake": ":material/warning:",
                                 "blunder": ":material/error:"}
INTRO = ("Play a duel to the end against an opponent who plays perfectly: it holds a real "
         "card, bluffs as often as the solution says and calls your bluffs the same way. "
         "Every decision you make is graded by how much of your chance to win it gives away.")
REPLAY_NOTE = ("This page's link shares the duel, not the cards: opened again, it deals their "
               "card afresh. At the end, “Play it again” replays these same cards.")


def puzzle_label(p: Puzzle) -> str:
    """One line of the puzzle list: kind, position, difficulty."""
    return (f"{KIND_TITLES[p.kind]} · your {p.card.value}, {p.coins[0]} coins against "
            f"{p.coins[1]} · {DIFFICULTY_WORDS[p.difficulty]}")


def no_puzzle_words(kind: str, level: str) -> str:
    """Said when the table has no puzzle of that kind and difficulty."""
    what = KIND_TITLES.get(kind, "these").lower() if kind in KIND_TITLES else "any kind"
    return (f"The table has no {DIFFICULTY_WORDS.get(level, level).lower()} puzzle of the kind "
            f"“{what}”: here is one of another difficulty.")


def puzzle_choice(p: Puzzle) -> Choice:
    return Choice(card=p.card, lost=p.lost, coins=p.coins, turn="you")


def goal_line(goal: Goal) -> str:
    return f"**Goal:** {goal.describe()}"


UNSETTLED_PRACTICE = ("This position is not settled: looking 2 and 4 turns ahead gives "
                      "different values, so the grades here, against perfect play 4 turns "
                      "ahead, could change with a deeper look. Puzzles use settled positions "
                      "only.")


def settled_note(choice: Choice) -> str | None:
    """Said over a duel played out from the explorer when its start is not settled
    (`trainer.endgame.settled`); None when it is, or when the table does not hold it (a
    player to act with 7 coins or more coups and wins: nothing to settle)."""
    entry = lookup(choice.lost, choice.coins, 0, choice.first)
    return UNSETTLED_PRACTICE if entry is not None and not entry.settled else None


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
        return ("You both have 7 coins or more: whoever acts next can launch a Coup, which "
                "nothing blocks, and win.")
    if theirs >= 7:
        return ("They have 7 coins: on their next turn they can launch a Coup, which nothing "
                "blocks, and win. Can you stop that first?")
    if mine >= 7:
        return "You have 7 coins or more: a Coup, which nothing blocks, wins on your turn."
    return None


def _threat_two(game: Game, you: int, mine: int, theirs: int) -> str | None:
    """The same in a duel where a player still holds two cards: a Coup takes one card."""
    def takes(p: int) -> str:
        return ("and win" if len(game.hidden[1 - p]) == 1
                else "and take one of the two cards")

    if theirs >= 7:
        return (f"They have {theirs} coins: on their next turn they can launch a Coup, which "
                f"nothing blocks, {takes(1 - you)}.")
    if mine >= 7:
        return f"You have {mine} coins: a Coup, which nothing blocks, can {takes(you)[4:]}."
    return None


def offer_label(game: Game, offer: Offer) -> str:
    """A button: what pressing it does."""
    if offer.kept is not None:
        return f"Keep the {offer.kept.value}"
    if offer.hand is not None:
        return "Keep the " + " and the ".join(c.value for c in offer.hand)
    assert offer.move is not None
    return your_move(game, offer.move)


def situation(game: Game) -> str:
    """The question in front of you, in a sentence that says what it is about."""
    phase = game.phase
    d = game.pending
    action = d.action if d is not None else None
    act = _ACT_WORDS.get(action, "act") if action is not None else "act"
    if phase is Phase.ACTION:
        return "Your turn: choose an action."
    if phase is Phase.EXCHANGE:
        pool = ", ".join(c.value for c in game.exchange_pool())
        keep = "one card" if len(game.hidden[game.decider]) == 1 else "two cards"
        return f"Your Exchange: you hold {pool} for a moment. Keep {keep}."
    if phase is Phase.LOSE:
        return f"{LOSE_LINE} {LOSE_QUESTION}"
    if phase in (Phase.PROVE_ACTION, Phase.PROVE_BLOCK):
        return ("They challenged, and you do not hold the card you claimed. "
                f"{LOSE_LINE} {LOSE_QUESTION}")
    if phase is Phase.CHALLENGE_ACTION and d is not None and d.claim is not None:
        return f"They claim the {d.claim.value} to {act}. Do you challenge?"
    if phase is Phase.BLOCK:
        return f"They {act}. Do you block?"
    if phase is Phase.CHALLENGE_BLOCK and d is not None and d.block_character is not None:
        return (f"They block by claiming the {d.block_character.value}. Do you challenge the "
                "block?")
    return "Your decision."


_ACT_WORDS = {Action.INCOME: "take Income", Action.FOREIGN_AID: "take Foreign Aid",
              Action.TAX: "take Tax", Action.STEAL: "steal from you",
              Action.ASSASSINATE: "assassinate you", Action.EXCHANGE: "exchange"}


def event_words(event: Event, you: int = 0) -> str:
    """One move of the duel, from your seat; their Exchange keeps its cards secret."""
    if event.move.kind is MoveKind.KEEP:
        if event.player == you and event.hand is not None:
            return "you keep the " + " and the ".join(c.value for c in event.hand)
        if event.player == you and event.kept is not None:
            return f"you keep the {event.kept.value}"
        kept = len(event.move.cards or ())
        return f"they keep {'one card' if kept <= 1 else 'two cards'} (you do not see which)"
    if event.move.kind is MoveKind.LOSE and event.move.character is not None:
        who = "you give up" if event.player == you else "they give up"
        return f"{who} the {event.move.character.value}"
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
    name, best_name = f"“{v.chosen}”", f"“{v.best}”"
    text = [f"**{words.headline(v)}.**"]
    if g.lost_pp < 0.05:
        text.append(f"{name} keeps your chance of winning at {percent(chosen.value)}.")
        if g.mixed:
            text.append("Perfect play mixes it with another move of the same value, so your "
                        "opponent cannot tell which is coming.")
    else:
        text.append(f"{name} gives you {percent(chosen.value)} to win; {best_name} gives "
                    f"{percent(best.value)}. You gave away {words.points(v.lost_pp, first=True)}.")
    return [" ".join(text)]


def option_lines(g: Graded, labels: Sequence[str]) -> list[str]:
    """Every option of a graded decision, best first: its win chance and how often perfect
    play picks it."""
    lines = []
    for i, o in sorted(enumerate(g.offers), key=lambda io: -io[1].value):
        mark = " ← your choice" if i == g.chosen else ""
        freq = (f"; perfect play picks it {percent(o.frequency)} of the time"
                if o.frequency >= 0.02 else "; perfect play never picks it")
        lines.append(f"- {labels[i]}: you win {percent(o.value)}{freq}{mark}")
    return lines


BELIEF_NOTE = ("Worked out from the cards you can see and from how often perfect play makes "
               "each move with each card. A move that perfect play only makes with one card "
               "gives that card away.")


def belief_line(belief: Mapping[Character, float]) -> str:
    """What their moves so far say of their card."""
    parts = ", ".join(f"{c.value} {percent(p)}" for c, p in
                      sorted(belief.items(), key=lambda kv: -kv[1]) if p >= 0.005)
    return f"The chance they hold each card: {parts}."


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
    result = "**You won the duel.**" if s.won else "**You lost the duel.**"
    goal = "Goal reached." if s.goal_met else "Goal missed."
    card = (f"You held {article_word(s.my_card)}; they held {article_word(s.their_card)}.")
    if s.decisions == 0:
        graded = "You had no decision to make: the duel was over before your turn."
    elif s.decisions == 1:
        how = ("sound (best or good)" if s.accurate
               else "costly (an inaccuracy, a mistake or a blunder)")
        graded = (f"Your one decision was {how}: it gave away {s.lost_pp:.1f} points of "
                  "winning chance.")
    else:
        graded = (f"{s.accurate} of your {s.decisions} decisions were best or good; in all "
                  f"you gave away {s.lost_pp:.1f} points of winning chance.")
    start = (f"With perfect play from the start you would win {percent(s.start_value)} of "
             "the time: a duel can be lost with every move right, and won with mistakes.")
    return [f"{result} {goal}", card, graded, start]


def article_word(name: str) -> str:
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"


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


def accuracy_chart(frame: pd.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """The share of end-game decisions that were best or good, day by day; each point sized
    by how many decisions that day held."""
    base = alt.Chart(frame).encode(
        x=alt.X("day:T", title="Day", axis=alt.Axis(format="%b %d")),
        y=alt.Y("accuracy:Q", title="Best or good decisions", scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%")),
        tooltip=[alt.Tooltip("day:T", title="Day"),
                 alt.Tooltip("decisions:Q", title="Decisions"),
                 alt.Tooltip("accuracy:Q", title="Best or good", format=".0%"),
                 alt.Tooltip("lost:Q", title="Points given away, on average", format=".1f")])
    line = base.mark_line(color="#2f74b5")
    points = base.mark_circle(color="#2f74b5", opacity=0.9).encode(
        size=alt.Size("decisions:Q", title="Decisions", legend=None,
                      scale=alt.Scale(range=[40, 300])))
    return alt.layer(line, points).properties(height=240)


def accuracy_sentence(frame: pd.DataFrame) -> str:
    if frame.empty:
        return ("No end-game decisions yet. Play a practice duel or the quiz's End-game drill "
                "and your accuracy appears here, day by day.")
    total = int(frame["decisions"].sum())
    overall = float((frame["accuracy"] * frame["decisions"]).sum() / total)
    last = frame.iloc[-1]
    days = len(frame)
    decisions = "one end-game decision" if total == 1 else f"{total} end-game decisions"
    latest = ("" if days == 1 else
              f" On your latest day, {percent(float(last['accuracy']))} of "
              f"{int(last['decisions'])}.")
    return f"Over {decisions}, {percent(overall)} {'was' if total == 1 else 'were'} best or " \
           f"good.{latest}"


def practice_answer(learner: str, practice_id: str, g: Graded, labels: Sequence[str],
                    when: datetime, seconds: float | None = None) -> Answer:
    """A graded decision as the answer record the calibration page and the chart read."""
    return record(practice_verdict(g, labels), answer_id=f"eg-{practice_id}-{g.number}"[:64],
                  learner=learner, item_id=f"endgame-{practice_id}"[:64],
                  bank="endgame-solver", mode="endgame-practice", kind=practice_kind(g),
                  themes=(PRACTICE_THEME,), variant="base", answered_at=when,
                  seconds=seconds)
