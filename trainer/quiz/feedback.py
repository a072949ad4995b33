"""The quiz's verdict on one answer: the answer record with its grade, and what the feedback says.

Two scores from one answer (`../shared/notes/trainer-anchors.md`): the learner's belief (the
stated probability that the claim is a bluff, scored against the revealed card) and their
action (the win-% it lost against the best option, graded like Lichess grades moves). Showing
the learner's p, the bot's p and the break-even p* side by side separates "my belief was off"
from "my belief was fine but I acted on it wrongly".
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path

from trainer.engine.cards import Character
from trainer.engine.explain import LOSE_LINE, LOSE_QUESTION, action_noun, action_verb
from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.estimates.bayes_steps import BayesStep, TracedBelief, bayes_steps
from trainer.estimates.claims import pending_claim
from trainer.quiz.bank import Item
from trainer.quiz.solved import ROLLOUT_BASIS, SOLVED_BASIS, Solved
from trainer.verdicts import (
    Answer,
    Decision,
    DecisionError,
    Doubt,
    Grade,
    Horizons,
    OptionValue,
    Source,
    Valuation,
    Verdict,
    judge,
    now,
    parse_kind,
    record,
    words,
)
from trainer.verdicts.words import Tone


class AnswerError(ValueError):
    """An answer the item cannot take: which field, and what was expected."""


def new_answer_id() -> str:
    """One per showing of an item; saving the same answer again (a rerun) is then a no-op."""
    return uuid.uuid4().hex


# The bots the playouts play against, in the words of a verdict's source.
ROLLOUT_MODEL = "the bots"


def item_valuation(item: Item, solved: Solved | None = None, who: str = "the claimant",
                   moves_seen: int | None = None) -> Valuation:
    """The item's options as the verdict layer values them: the solver's exact values when
    the item is solved, else its playouts, with the doubt about the claimant (`who`) when
    the bot's chance of a bluff is a range and a challenge's value moves with it."""
    if solved is not None:
        # Settled means the best option and its value hold at both look-aheads; another
        # option's loss may still differ between them, and only what both agree on counts.
        agree = (Horizons(solved.shorter, solved.horizon, solved.before)
                 if set(solved.before) == set(solved.values)
                 and solved.shorter != solved.horizon else None)
        return Valuation.solved(solved.values, solved.exploitability, agree)
    options = tuple(OptionValue(o.label, o.win, o.se, o.diff_se) for o in item.options)
    return Valuation(options, Source("playouts", item.rollouts, ROLLOUT_MODEL),
                     doubt=_doubt(item, who, moves_seen))


def _doubt(item: Item, who: str, moves_seen: int | None) -> Doubt | None:
    """A challenge-or-pass item's values at both ends of the bot's range for the chance of
    a bluff: a challenge's win chance moves by (w_win − w_lose) per unit of that chance,
    around its playout value at the bot's own estimate; passing does not depend on it."""
    if (item.bot is None or item.bot_low is None or item.bot_high is None
            or item.w_win is None or item.w_lose is None or item.claimant is None
            or {o.label for o in item.options} != {"Challenge", "Pass"}):
        return None
    challenge, passing = item.option("Challenge").win, item.option("Pass").win
    slope = item.w_win - item.w_lose

    def at(p: float) -> dict[str, float]:
        return {"Challenge": challenge + (p - item.bot) * slope, "Pass": passing}  # type: ignore[operator]

    return Doubt(who, item.bot_low, item.bot_high, at(item.bot_low), at(item.bot_high),
                 moves_seen)


def item_decision(item: Item, game: Game | None = None) -> Decision:
    return Decision(game, item.viewer, parse_kind(item.kind), tuple(o.label for o in item.options))


def grade(item: Item, *, action: str, stated: float | None, learner: str, bank: str,
          answer_id: str, mode: str = "mixed", seconds: float | None = None,
          solved: Solved | None = None) -> Answer:
    """The answer record for `action` (an option's label) and the stated P(bluff) (a claim
    item needs one, 0.01–0.99; other items take none), graded by the verdict layer. With
    `solved` (the item's exact end-game grade) the points lost, the grade and the best option
    are the solver's, not the playouts'."""
    try:
        verdict = item_decision(item).judge(item_valuation(item, solved), action)
    except DecisionError as e:
        raise AnswerError(str(e)) from None
    if item.asks_chance:
        if stated is None:
            raise AnswerError("stated: this item asks how likely the claim is a bluff; "
                              "expected a probability from 1% to 99%")
        if not 0.01 <= stated <= 0.99:
            raise AnswerError(f"stated: expected a probability from 1% to 99% (got "
                              f"{stated:.0%})")
    else:
        stated = None
    return record(verdict, answer_id=answer_id, learner=learner, item_id=item.id, bank=bank,
                  mode=mode, kind=item.kind, themes=item.themes, variant=item.variant,
                  answered_at=now(), seconds=seconds, stated=stated, bot=item.bot,
                  prior=item.prior, bluff=item.bluff)


@dataclass(frozen=True)
class Feedback:
    """Everything shown after an answer."""

    judged: Verdict  # the verdict: its grade, or the range it could be and why
    headline: str  # "Mistake", "Depends on Dee: …", "Too close to call"
    tone: Tone  # the box's colour: never green for a range
    verdict: str  # a sentence or two: what the grade means here, points defined
    truth: str | None  # "Ben had no Duke: a bluff."
    outcome: str | None  # what the chosen action did, given the truth
    call_out: str | None  # "Good decision, bad outcome" and the like
    belief: str | None  # the stated p against the bot's p and p*
    hands: tuple[tuple[str, tuple[str, ...]], ...]  # every hidden hand, revealed
    range_note: str | None = None  # why the grade is a range, with its figures
    evidence: str | None = None  # where the figures rest on little evidence
    # What the grade rests on, in plain words: perfect play (an End-game item solved
    # exactly) or playouts against the bots.
    basis: str = ROLLOUT_BASIS
    solved: bool = False
    # A solved grade whose values still moved with the look-ahead says so.
    unsettled: str | None = None

    @property
    def grade(self) -> Grade:
        return self.judged.grade

    @property
    def lost_pp(self) -> float:
        return self.judged.lost_pp

    @property
    def noise_pp(self) -> float:
        return self.judged.noise_pp

    @property
    def best(self) -> str:
        return self.judged.best

    @property
    def grade_range(self) -> tuple[Grade, Grade] | None:
        """The kindest and the harshest grade when the evidence cannot settle one."""
        return (self.judged.low, self.judged.high) if self.judged.is_range else None


# The bot's range of a bluff's chance is worth a mention from this width on.
WIDE = words.WIDE


def claimant_moves(game: Game, viewer: int, claimant: int) -> int:
    """How many moves of the claimant's the viewer has seen: what the bot's read rests on."""
    return sum(1 for e in game.observation(viewer).events
               if e.kind == "move" and e.data["move"].player == claimant)


def feedback(item: Item, answer: Answer, game: Game | None = None,
             solved: Solved | None = None, unsettled: Solved | None = None) -> Feedback:
    """What happened and why, after the answer is in (never before: it reveals the cards).
    With `solved` (a settled exact grade), the verdict is against perfect play and says so;
    with `unsettled` (an exact grade that did not settle), it stays the playouts' and says
    why the solver's is not used."""
    game = game or item.game()
    names = game.names
    chosen = answer.action
    who = names[item.claimant] if item.claimant is not None else "the claimant"
    seen = (claimant_moves(game, item.viewer, item.claimant)
            if item.claimant is not None and solved is None else None)
    valuation = item_valuation(item, solved, who, seen)
    v = judge(valuation, chosen)
    truth = outcome = call_out = belief = None
    if item.has_claim and item.claimant is not None:
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
            if v.sound and not good_outcome:
                call_out = ("Good decision, bad outcome: on what you could see, this was a sound "
                            "call; the cards fell the other way this time.")
            elif v.unsound and good_outcome and not v.is_range:
                call_out = ("Bad decision, good outcome: it worked this time, but over many such "
                            "spots it loses.")
            elif v.grade == "inaccuracy" and good_outcome and not v.is_range:
                call_out = ("A small slip, a good outcome: it worked this time, but "
                            f"{v.best} wins a little more often here.")
        if answer.stated is not None and item.bot is not None:
            # Every figure is the chance of a bluff, never its complement beside it. Where a
            # challenge pays is said of a challenge decision only: at a block the claim can no
            # longer be challenged.
            star = ("" if item.kind != "challenge"
                    else f" A challenge pays when the chance of a bluff is above "
                         f"{item.p_star:.0%}." if item.p_star is not None
                    else " Here a challenge never pays.")
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
    note = None
    if solved is None and unsettled is not None:
        note = (f"The exact end-game solver did not settle this position: looking "
                f"{unsettled.horizon} turns ahead instead of {unsettled.shorter} "
                f"moved the options' values by up to {100 * unsettled.moved:.1f} points, so "
                "the grade comes from playing each option out instead.")
    return Feedback(v, words.headline(v), words.tone(v), words.sentence(v), truth, outcome,
                    call_out, belief, hands, words.range_note(v),
                    words.evidence_note(v, None if solved is not None else item.playouts),
                    SOLVED_BASIS if solved is not None else valuation.source.words(),
                    solved is not None,
                    note)


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
    and for the other decisions of a whole game ("action", "prove", "other"). Actions read as
    verbs after "wants to" and as nouns after "blocks your" (`trainer.engine.explain`), and a
    block never names its blocker twice."""
    d = game.pending
    assert d is not None
    names = game.names

    def who(p: int | None) -> str:
        return "you" if p == you else (names[p] if p is not None else "someone")

    def whose(p: int | None) -> str:
        return "your" if p == you else f"{who(p)}'s"

    def says(p: int | None, verb: str) -> str:
        """"Ana blocks", "You block": the subject with its verb."""
        if p == you:
            return f"You {verb}"
        return f"{names[p] if p is not None else 'Someone'} {verb}s"

    def to_do() -> str:
        """What the actor does, as a verb phrase: "take foreign aid", "steal from you"."""
        if d.action is None:
            return "act"
        return action_verb(game, d.action, None if d.target is None else who(d.target))

    if kind == "challenge":
        by, role = pending_claim(game)
        if d.blocker is not None and d.block_character is not None and d.phase.name.endswith(
                "BLOCK") and d.action is not None:
            # A block is made by the player the action aims at: named once, as the blocker.
            aimed = None if d.target in (None, d.blocker) else who(d.target)
            line = (f"{says(by, 'block')} {whose(d.actor)} {action_noun(game, d.action, aimed)} "
                    f"with the {d.block_character}.")
        elif d.action is not None and d.claimant is None:
            line = f"{says(by, 'claim')} the {role} to {to_do()}."
        else:
            line = f"{says(by, 'claim')} the {role}."
        if by == you:  # only where the table rules let a player challenge their own claim
            return line, "Challenge your own claim, or pass?"
        claimant = names[by] if by is not None else "someone"
        return line, (f"How likely is it that {claimant} is bluffing? Then: challenge or "
                      f"pass?")
    if kind == "block":
        spec = game.variant.spec(d.action) if d.action is not None else None
        if spec is not None and spec.claim and not spec.inverted:
            line = f"{says(d.actor, 'claim')} the {spec.claim} to {to_do()}."
        else:
            line = f"{says(d.actor, 'want')} to {to_do()}."
        return line, "Do you block, and with which card?"
    if kind in ("bluff", "action"):
        return ("Your turn.", "What do you do? A claim you cannot back is a bluff.")
    if kind == "lose":
        return (LOSE_LINE, LOSE_QUESTION)
    if kind == "keep":
        return ("You are exchanging with the Court deck.", "Which cards do you keep?")
    if kind == "prove" and d.challenger is not None:
        return (f"{who(d.challenger).capitalize()} challenges your claim.",
                "Show the card (you then swap it for a new one), or give up an influence?")
    # The engine's question is about "their" choice; here it is the reader's own.
    question = d.question.replace("their ", "your ")
    return (f"{question[:1].upper()}{question[1:]}.", "Choose your move.")


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
