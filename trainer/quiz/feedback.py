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
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.engine.observation import Observation
from trainer.estimates.bayes_steps import BayesStep, TracedBelief, bayes_steps
from trainer.estimates.claims import pending_claim
from trainer.i18n import N_, tr
from trainer.i18n.formats import number, percent
from trainer.quiz.bank import Item
from trainer.quiz.labels import and_list, option_words
from trainer.quiz.solved import ROLLOUT_BASIS, SOLVED_BASIS, Solved
from trainer.verdicts import (
    Answer,
    Decision,
    DecisionError,
    Doubt,
    Grade,
    Horizons,
    OptionValue,
    Solves,
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
ROLLOUT_MODEL = N_("the bots")


def item_valuation(item: Item, solved: Solved | None = None, who: str = "the claimant",
                   moves_seen: int | None = None) -> Valuation:
    """The item's options as the verdict layer values them: the solver's exact values when
    the item is solved, else its playouts, with the doubt about the claimant (`who`) when
    the bot's chance of a bluff is a range and a challenge's value moves with it."""
    if solved is not None:
        # Settled means the best option and its value hold at both look-aheads; another
        # option's loss may still differ between them, and only what both agree on counts.
        agree = (Horizons(solved.shorter, solved.horizon, solved.before, solved.exchanges,
                          solved.allowed)
                 if set(solved.before) == set(solved.values)
                 and (solved.shorter != solved.horizon or solved.exchanges) else None)
        # A second solve of the same duel may value a weaker option otherwise: the same.
        other = Solves(solved.other) if set(solved.other) == set(solved.values) else None
        return Valuation.solved(solved.values, solved.exploitability, agree, other)
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
            raise AnswerError(tr("stated: this item asks how likely the claim is a bluff; "
                                 "expected a chance of a bluff from 1% to 99%"))
        if not 0.01 <= stated <= 0.99:
            raise AnswerError(tr("stated: expected a chance of a bluff from 1% to 99% (got "
                                 "{stated})", stated=percent(stated)))
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
    basis: str = ROLLOUT_BASIS  # English: `feedback` gives it in the reader's language
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


def option_namer(item: Item, game: Game) -> words.Labeller:
    """An option's stored label (the answer record's identifier, English) to its words in
    the reader's language, built from the option's move at the item's position."""
    said = {o.label: option_words(game, o.move) for o in item.options}

    def name(label: str) -> str:
        return said.get(label, label)

    return name


def feedback(item: Item, answer: Answer, game: Game | None = None,
             solved: Solved | None = None, unsettled: Solved | None = None) -> Feedback:
    """What happened and why, after the answer is in (never before: it reveals the cards).
    With `solved` (a settled exact grade), the verdict is against perfect play and says so;
    with `unsettled` (an exact grade that did not settle), it stays the playouts' and says
    why the solver's is not used."""
    game = game or item.game()
    names = game.names
    chosen = answer.action
    say = option_namer(item, game)
    who = names[item.claimant] if item.claimant is not None else tr("the claimant")
    seen = (claimant_moves(game, item.viewer, item.claimant)
            if item.claimant is not None and solved is None else None)
    valuation = item_valuation(item, solved, who, seen)
    v = judge(valuation, chosen)
    truth = outcome = call_out = belief = None
    if item.has_claim and item.claimant is not None:
        held = and_list([card_name(c) for c in item.claimant_hand]) or tr("no cards")
        claim = card_name(item.claim or "")
        truth = (tr("{who} held {held}: the {card} claim was a bluff.", who=who, held=held,
                    card=claim) if item.bluff else
                 tr("{who} held {held}: the {card} claim was true.", who=who, held=held,
                    card=claim))
        # A block judges the action's claim too; what the move did then is the table's.
        if item.kind == "challenge":
            challenged = chosen == "Challenge"
            good_outcome = bool(item.bluff) == challenged
            if challenged:
                outcome = (tr("Your challenge caught the bluff: {who} loses a card.", who=who)
                           if item.bluff else
                           tr("{who} shows the {card}: you lose the challenge and a card.",
                              who=who, card=claim))
            else:
                outcome = (tr("The bluff went through unchallenged.") if item.bluff
                           else tr("The claim was true: passing lost you no card."))
            # "A good decision" must hold at every end of a grade range, as "a bad one" must.
            # Each call-out is its head, a colon, and the rest (the page sets the head in bold).
            if v.sound and not good_outcome:
                call_out = tr("Good decision, bad outcome: on what you could see, this was a "
                              "sound call; the cards fell the other way this time.")
            elif v.unsound and good_outcome and not v.is_range:
                call_out = tr("Bad decision, good outcome: it worked this time, but over many "
                              "such spots it loses.")
            elif v.grade == "inaccuracy" and good_outcome and not v.is_range:
                call_out = tr("A small slip, a good outcome: it worked this time, but {best} "
                              "wins a little more often here.", best=say(v.best))
        if answer.stated is not None and item.bot is not None:
            # Every figure is the chance of a bluff, never its complement beside it. Where a
            # challenge pays is said of a challenge decision only: at a block the claim can no
            # longer be challenged.
            star = "" if item.kind != "challenge" else words.break_even_line(item.p_star)
            prior = percent(item.prior) if item.prior is not None else "–"
            if item.bot_low is not None and item.bot_high is not None \
                    and item.bot_high - item.bot_low >= WIDE:
                belief = tr("Chance it is a bluff: you said {you}, the bot says {bot} ({low} to "
                            "{high}, by what kind of player {who} is), card counting alone "
                            "gives {prior}.", you=percent(answer.stated),
                            bot=percent(item.bot), low=percent(item.bot_low),
                            high=percent(item.bot_high), who=who, prior=prior)
            else:
                belief = tr("Chance it is a bluff: you said {you}, the bot says {bot}, card "
                            "counting alone gives {prior}.", you=percent(answer.stated),
                            bot=percent(item.bot), prior=prior)
            if star:
                belief = f"{belief} {star}"
    hands = tuple((names[p], tuple(card_name(c) for c in game.hidden[p]))
                  for p in range(game.n) if p != item.viewer and game.hidden[p])
    note = None
    if solved is None and unsettled is not None and unsettled.exchanges:
        note = tr("The exact end-game solver did not settle this position: letting a line of "
                  "play hold a second Exchange before it stops moved the options' values by up "
                  "to {moved} points, so the grade comes from playing each option out instead.",
                  moved=number(100 * unsettled.moved, 1))
    elif solved is None and unsettled is not None:
        note = tr("The exact end-game solver did not settle this position: looking {far} turns "
                  "ahead instead of {near} moved the options' values by up to {moved} points, "
                  "so the grade comes from playing each option out instead.",
                  far=unsettled.horizon, near=unsettled.shorter,
                  moved=number(100 * unsettled.moved, 1))
    return Feedback(v, words.headline(v), words.tone(v), words.sentence(v, label=say), truth,
                    outcome, call_out, belief, hands, words.range_note(v, label=say),
                    words.evidence_note(v, None if solved is not None else item.playouts),
                    tr(SOLVED_BASIS) if solved is not None else valuation.source.words(),
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


# What the reader is asked at a decision no other line words, in the second person.
YOUR_QUESTION: dict[Phase, str] = {
    Phase.ACTION: N_("Choose an action."),
    Phase.CHALLENGE_ACTION: N_("Challenge the claim or pass."),
    Phase.PROVE_ACTION: N_("Show the claimed card or lose the challenge."),
    Phase.BLOCK: N_("Block or pass."),
    Phase.CHALLENGE_BLOCK: N_("Challenge the block or pass."),
    Phase.PROVE_BLOCK: N_("Show the claimed card or lose the challenge."),
    Phase.LOSE: N_("Choose an influence to lose."),
    Phase.EXCHANGE: N_("Choose the cards to keep."),
    Phase.DRAFT: N_("Choose one card of your draft set to keep."),
    Phase.ALLEGIANCE: N_("Choose your starting allegiance."),
    Phase.EXAMINE_OFFER: N_("Choose a card to show the Inquisitor."),
    Phase.EXAMINE_DECIDE: N_("Hand the card back or force a swap."),
    Phase.CLAIM: N_("Claim the character or pass."),
    Phase.CHALLENGE_CLAIM: N_("Challenge the claim or pass."),
    Phase.PROVE_CLAIM: N_("Show the claimed card or lose the challenge."),
    Phase.VENGEANCE: N_("Choose the target of the Vengeance."),
    Phase.OVER: N_("Nothing: the game is over."),
}


def describe_pending(game: Game, you: int, kind: str) -> tuple[str, str]:
    """The pending decision of `you` in one line, and the question: for a quiz item's kind,
    and for the other decisions of a whole game ("action", "prove", "other"). Actions read as
    verbs after "wants to" and as nouns after "blocks your" (`trainer.engine.explain`), and a
    block never names its blocker twice. Each line is one whole sentence of the catalogue,
    you or another player as its subject."""
    d = game.pending
    assert d is not None
    names = game.names

    def name(p: int | None) -> str:
        return names[p] if p is not None else tr("Someone")

    def who(p: int | None) -> str:
        """A target inside a verb phrase: "you", a name, or "someone"."""
        return tr("you") if p == you else (names[p] if p is not None else tr("someone"))

    def to_do() -> str:
        """What the actor does, as a verb phrase: "take foreign aid", "steal from you"."""
        if d.action is None:
            return tr("act")
        return action_verb(game, d.action, None if d.target is None else who(d.target))

    def claims(p: int | None, card: str, todo: str | None) -> str:
        if todo is None:
            return (tr("You claim the {card}.", card=card) if p == you else
                    tr("{name} claims the {card}.", name=name(p), card=card))
        return (tr("You claim the {card} to {todo}.", card=card, todo=todo) if p == you else
                tr("{name} claims the {card} to {todo}.", name=name(p), card=card, todo=todo))

    if kind == "challenge":
        by, role = pending_claim(game)
        if d.blocker is not None and d.block_character is not None and d.phase.name.endswith(
                "BLOCK") and d.action is not None:
            # A block is made by the player the action aims at: named once, as the blocker.
            aimed = None if d.target in (None, d.blocker) else who(d.target)
            action = action_noun(game, d.action, aimed)
            card = card_name(d.block_character)
            if by == you:
                line = tr("You block {actor}'s {action} with the {card}.", actor=who(d.actor),
                          action=action, card=card)
            elif d.actor == you:
                line = tr("{name} blocks your {action} with the {card}.", name=name(by),
                          action=action, card=card)
            else:
                line = tr("{name} blocks {actor}'s {action} with the {card}.", name=name(by),
                          actor=who(d.actor), action=action, card=card)
        elif d.action is not None and d.claimant is None:
            line = claims(by, card_name(role) if role is not None else "", to_do())
        else:
            line = claims(by, card_name(role) if role is not None else "", None)
        if by == you:  # only where the table rules let a player challenge their own claim
            return line, tr("Challenge your own claim, or pass?")
        return line, tr("How likely is it that {name} is bluffing? Then: challenge or pass?",
                        name=who(by))
    if kind == "block":
        spec = game.variant.spec(d.action) if d.action is not None else None
        if spec is not None and spec.claim and not spec.inverted:
            line = claims(d.actor, card_name(spec.claim), to_do())
        elif d.actor == you:
            line = tr("You want to {todo}.", todo=to_do())
        else:
            line = tr("{name} wants to {todo}.", name=name(d.actor), todo=to_do())
        return line, tr("Do you block, and with which card?")
    if kind in ("bluff", "action"):
        return (tr("Your turn."), tr("What do you do? A claim you cannot back is a bluff."))
    if kind == "lose":
        return (tr(LOSE_LINE), tr(LOSE_QUESTION))
    if kind == "keep":
        return (tr("You are exchanging with the Court deck."), tr("Which cards do you keep?"))
    if kind == "prove" and d.challenger is not None:
        return (tr("{name} challenges your claim.", name=name(d.challenger)),
                tr("Show the card (you then swap it for a new one), or give up an influence?"))
    return (tr(YOUR_QUESTION[d.phase]), tr("Choose your move."))


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
