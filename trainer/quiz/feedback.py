"""The quiz's verdict on one answer: the answer record with its grade, and what the feedback says.

Two scores from one answer (`../shared/notes/trainer-anchors.md`): the learner's belief (the
stated probability that the claim is a bluff, scored against the revealed card) and their
action (the win-% it lost against the best option, graded like Lichess grades moves). Showing
the learner's p, the bot's p and the break-even p* side by side separates "my belief was off"
from "my belief was fine but I acted on it wrongly".
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from trainer.engine.cards import Character
from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.estimates.bayes_steps import BayesStep, TracedBelief, bayes_steps
from trainer.estimates.claims import pending_claim
from trainer.learners.answers import Answer, Grade, Kind, grade_for, now
from trainer.quiz.bank import Item
from trainer.quiz.solved import ROLLOUT_BASIS, SOLVED_BASIS, Solved


class AnswerError(ValueError):
    """An answer the item cannot take: which field, and what was expected."""


def new_answer_id() -> str:
    """One per showing of an item; saving the same answer again (a rerun) is then a no-op."""
    return uuid.uuid4().hex


def grade(item: Item, *, action: str, stated: float | None, learner: str, bank: str,
          answer_id: str, mode: str = "mixed", seconds: float | None = None,
          solved: Solved | None = None) -> Answer:
    """The answer record for `action` (an option's label) and the stated P(bluff) (a claim
    item needs one, 0.01–0.99; other items take none). With `solved` (the item's exact
    end-game grade) the points lost, the grade and the best option are the solver's, not
    the rollouts'."""
    labels = [o.label for o in item.options]
    if action not in labels:
        raise AnswerError(f"action: {action!r} is not an answer to this item; expected one of "
                          f"{', '.join(repr(x) for x in labels)}")
    if item.has_claim:
        if stated is None:
            raise AnswerError("stated: this item asks how likely the claim is a bluff; "
                              "expected a probability from 1% to 99%")
        if not 0.01 <= stated <= 0.99:
            raise AnswerError(f"stated: expected a probability from 1% to 99% (got "
                              f"{stated:.0%})")
    else:
        stated = None
    if solved is not None:
        lost, best, trivial = round(solved.lost_pp(action), 2), solved.best, solved.trivial
    else:
        lost, best, trivial = round(item.lost_pp(action), 2), item.best.label, item.trivial
    return Answer(
        answer_id=answer_id, learner=learner, item_id=item.id, bank=bank, mode=mode,
        kind=cast(Kind, item.kind), themes=item.themes, variant=item.variant, answered_at=now(),
        seconds=None if seconds is None else round(min(seconds, 86_400), 2),
        stated=stated, bot=item.bot, prior=item.prior, bluff=item.bluff, action=action,
        best=best, lost_pp=lost, grade=grade_for(lost), trivial=trivial,
    )


@dataclass(frozen=True)
class Feedback:
    """Everything shown after an answer."""

    grade: Grade
    lost_pp: float
    noise_pp: float
    best: str
    verdict: str  # one line: what the grade means here
    truth: str | None  # "Ben had no Duke: a bluff."
    outcome: str | None  # what the chosen action did, given the truth
    call_out: str | None  # "Good decision, bad outcome" and the like
    belief: str | None  # the stated p against the bot's p and p*
    hands: tuple[tuple[str, tuple[str, ...]], ...]  # every hidden hand, revealed
    # When the bot cannot tell what kind of player the claimant is, the grade is a range:
    # the kindest and the harshest grade over that doubt, and a sentence saying why.
    grade_range: tuple[Grade, Grade] | None = None
    range_note: str | None = None
    # What the grade rests on, in plain words: perfect play (an End-game item solved
    # exactly) or rollouts against the bots.
    basis: str = ROLLOUT_BASIS
    solved: bool = False
    # A solved grade whose values still moved with the look-ahead says so.
    unsettled: str | None = None

    @property
    def grade_label(self) -> str:
        """"Mistake", or "Good to blunder" when the evidence cannot settle it."""
        if self.grade_range is None:
            return self.grade.capitalize()
        low, high = self.grade_range
        return f"{low.capitalize()} to {high}"


# The bot's range of a bluff's chance is worth a mention from this width on.
WIDE = 0.1

GRADE_WORDS = {
    "best": "Best move", "good": "Good", "inaccuracy": "Inaccuracy", "mistake": "Mistake",
    "blunder": "Blunder",
}


def feedback(item: Item, answer: Answer, game: Game | None = None,
             solved: Solved | None = None) -> Feedback:
    """What happened and why, after the answer is in (never before: it reveals the cards).
    With `solved`, the verdict is against perfect play and says so."""
    game = game or item.game()
    names = game.names
    lost = answer.lost_pp
    chosen = answer.action
    if solved is not None:
        # Exact up to the solver's exploitability: that is all the noise there is.
        noise, best = 100 * solved.exploitability, solved.best
    else:
        noise, best = item.noise_pp(), item.best.label
    if answer.grade == "best":
        verdict = f"{chosen} is the best option here (within a point of the top)."
    else:
        # Plain words first: the noise of the win chances is in the options table.
        verdict = f"{chosen} wins {lost:.1f} points less often than {best}."
    truth = outcome = call_out = belief = None
    # The bot's doubt about the claimant moves a rollout estimate, not a solved value.
    grades, note = (None, None) if solved is not None else _grade_range(item, chosen, names)
    # With the grade a range, "a bad decision" is not certain enough to say.
    settled = grades is None
    if item.has_claim and item.claimant is not None:
        who = names[item.claimant]
        held = " and ".join(item.claimant_hand) or "no cards"
        truth = (f"{who} held {held}: the {item.claim} claim was "
                 f"{'a bluff' if item.bluff else 'true'}.")
        # A block judges the action's claim too; what the move did then is the table's.
        if item.kind == "challenge":
            challenged = chosen == "Challenge"
            good_outcome = bool(item.bluff) == challenged
            if challenged:
                outcome = (f"Your challenge caught the bluff: {who} loses a card." if item.bluff
                           else f"{who} shows the {item.claim}: you lose the challenge and a card.")
            else:
                outcome = ("The bluff went through unchallenged." if item.bluff
                           else "The claim was true: passing lost you no card.")
            # "A good decision" must hold at every end of a grade range, as "a bad one" must.
            sound = settled or (grades is not None and grades[1] in ("best", "good"))
            if answer.grade in ("best", "good") and not good_outcome and sound:
                call_out = ("Good decision, bad outcome: on what you could see, this was a sound "
                            "call; the cards fell the other way this time.")
            elif answer.grade in ("mistake", "blunder") and good_outcome and settled:
                call_out = ("Bad decision, good outcome: it worked this time, but over many such "
                            "spots it loses.")
            elif answer.grade == "inaccuracy" and good_outcome and settled:
                call_out = ("A small slip, a good outcome: it worked this time, but "
                            f"{best} wins a little more often here.")
        if answer.stated is not None and item.bot is not None:
            # Every figure is the chance of a bluff, never its complement beside it.
            star = (f" A challenge pays when the chance of a bluff is above {item.p_star:.0%}."
                    if item.p_star is not None else " Here a challenge never pays.")
            spread = ""
            if item.bot_low is not None and item.bot_high is not None \
                    and item.bot_high - item.bot_low >= WIDE:
                spread = (f" ({item.bot_low:.0%} to {item.bot_high:.0%}, by what kind of "
                          f"player {who} is)")
            belief = (f"Chance it is a bluff: you said {answer.stated:.0%}, the bot says "
                      f"{item.bot:.0%}{spread}, card counting alone gives {item.prior:.0%}."
                      f"{star}")
    hands = tuple((names[p], tuple(str(c) for c in game.hidden[p]))
                  for p in range(game.n) if p != item.viewer and game.hidden[p])
    unsettled = None
    if solved is not None and not solved.settled:
        unsettled = (f"Looking {solved.horizon} turns ahead instead of "
                     f"{max(1, solved.horizon - 2)} moved these values by up to "
                     f"{100 * solved.moved:.1f} points, so a deeper look could still change "
                     f"them.")
    return Feedback(answer.grade, lost, noise, best, verdict, truth, outcome,
                    call_out, belief, hands, grades, note,
                    SOLVED_BASIS if solved is not None else ROLLOUT_BASIS, solved is not None,
                    unsettled)


def _grade_range(item: Item, chosen: str, names: Sequence[str]
                 ) -> tuple[tuple[Grade, Grade] | None, str | None]:
    """The grade as a range when the bot's doubt about the claimant's kind of play spans more
    than one grade: an estimate resting on little evidence must not give a confident
    blunder."""
    lost = item.lost_range(chosen)
    if lost is None or item.claimant is None or item.bot_low is None or item.bot_high is None:
        return None, None
    low, high = grade_for(lost[0]), grade_for(lost[1])
    if low == high:
        return None, None
    who = names[item.claimant]
    note = (f"How much this costs depends on what kind of player {who} is, and {who}'s moves "
            f"so far do not settle it: over the kinds of player {who} might be, the chance "
            f"of a bluff runs from {item.bot_low:.0%} to {item.bot_high:.0%}, so {chosen} "
            f"loses between {lost[0]:.1f} and {lost[1]:.1f} points.")
    return (low, high), note


def estimate_steps(item: Item, model: dict[str, float] | None = None,
                   scenarios: Path | None = None) -> list[BayesStep] | None:
    """How the bot's estimate of the item's claim was built: the counting prior, then every
    move its belief weighed with its likelihood ratio (`trainer.estimates.bayes_steps`), or
    None for an item without a claim. The belief is fed on the bank builder's own path, so the
    last step is the bot's posterior for the item."""
    if not item.has_claim or item.claimant is None or item.claim is None:
        return None
    from trainer.quiz.building import Task, task_position

    task = Task(kind=item.kind, viewer=item.viewer, rollout_seed=0, variant=item.variant,
                players=item.players, seed=item.seed, moves=item.moves,
                scenario=item.scenario, step=item.step)
    game, belief = task_position(task, model, scenarios, belief_type=TracedBelief)
    assert isinstance(belief, TracedBelief)
    role = Character(item.claim)
    return bayes_steps(belief, game.observation(item.viewer), item.claimant, role)


def describe_decision(item: Item, game: Game) -> tuple[str, str]:
    """The situation in one line, and the question put to the learner."""
    return describe_pending(game, item.viewer, item.kind)


def describe_pending(game: Game, you: int, kind: str) -> tuple[str, str]:
    """The pending decision of `you` in one line, and the question: for a quiz item's kind,
    and for the other decisions of a whole game ("action", "prove", "other")."""
    d = game.pending
    assert d is not None
    names = game.names

    def who(p: int | None) -> str:
        return "you" if p == you else (names[p] if p is not None else "someone")

    def whose(p: int | None) -> str:
        return "your" if p == you else f"{who(p)}'s"

    def action_text() -> str:
        if d.action is None:
            return "act"
        word = game.options.action_label(d.action)
        if d.target is None:
            return word
        return f"{word} {'from ' if word == 'steal' else ''}{who(d.target)}"

    if kind == "challenge":
        by, role = pending_claim(game)
        claimant = names[by] if by is not None else "Someone"
        if d.blocker is not None and d.block_character is not None and d.phase.name.endswith(
                "BLOCK"):
            line = (f"{claimant} blocks {whose(d.actor)} {action_text()} with the "
                    f"{d.block_character}.")
        elif d.action is not None and d.claimant is None:
            line = f"{claimant} claims the {role} to {action_text()}."
        else:
            line = f"{claimant} claims the {role}."
        return line, (f"How likely is it that {claimant} is bluffing? Then: challenge or "
                      f"pass?")
    if kind == "block":
        spec = game.variant.spec(d.action) if d.action is not None else None
        if spec is not None and spec.claim:
            line = f"{names[d.actor]} claims the {spec.claim} to {action_text()}."
        else:
            line = f"{names[d.actor]} wants to {action_text()}."
        return line, "Do you block, and with which card?"
    if kind in ("bluff", "action"):
        return ("Your turn.", "What do you do? A claim you cannot back is a bluff.")
    if kind == "lose":
        return ("You must lose an influence.", "Which card do you turn face up?")
    if kind == "keep":
        return ("You are exchanging with the Court deck.", "Which cards do you keep?")
    if kind == "prove" and d.challenger is not None:
        return (f"{who(d.challenger).capitalize()} challenges your claim.",
                "Show the card (you then swap it for a new one), or give up an influence?")
    return (d.question[:1].upper() + d.question[1:], "Choose your move.")


def highlighted(item: Item, obs: Observation) -> int:
    """How many of this turn's latest moves to highlight on the table: from the claim being
    judged (or the action being blocked) to now; on the learner's own turn, none."""
    moves: list[Move] = []
    for e in obs.events:
        if e.kind == "turn":
            moves = []
        elif e.kind == "move":
            moves.append(e.data["move"])
    if item.kind == "bluff":
        return 0
    for back, m in enumerate(reversed(moves), start=1):
        if item.kind == "challenge" and m.player == item.claimant and m.kind in (
                MoveKind.ACT, MoveKind.BLOCK, MoveKind.CLAIM):
            return back
        if item.kind == "block" and m.kind is MoveKind.ACT:
            return back
    return 1 if moves else 0
