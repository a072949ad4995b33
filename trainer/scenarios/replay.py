"""Replaying a scenario through the engine, step by step, checking everything a step claims.

A scenario (format: `trainer.scenarios.schema`, guide: docs/scenarios.md) sets up a position
and tells a short story move by move. Every move is played on a real `Game`, so a lesson can
never teach a rule the engine does not implement: every move must be legal, every scripted draw
possible and every checkpoint true.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from trainer.engine.cards import Character
from trainer.engine.chance import ScriptedChance
from trainer.engine.errors import (
    AmbiguousMoveError,
    ChanceError,
    IllegalMoveError,
    SetupError,
)
from trainer.engine.explain import PHASE_QUESTION
from trainer.engine.game import Decision, Event, Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.notation import complete
from trainer.i18n import DEFAULT, use_language
from trainer.rulebook.sources import missing_quote, rules_dir
from trainer.scenarios.checkpoints import cards_text, checkpoint_failures, count_text, plural
from trainer.scenarios.errors import ScenarioError, error_at
from trainer.scenarios.loader import compile_plan, load_scenario
from trainer.scenarios.move_text import MovePhrase
from trainer.scenarios.schema import Checkpoint, RuleRef, Scenario
from trainer.scenarios.yaml_lines import Loc


@dataclass(frozen=True, slots=True)
class PromptOption:
    """One answer the learner can pick. `label` is the move as the engine prints it."""

    label: str
    move: Move
    correct: bool
    explanation: str
    legal: bool
    why_illegal: str | None = None


@dataclass(frozen=True, slots=True)
class PromptView:
    """The question asked before step `step` (1-based), from `player`'s point of view.

    `options` lists the correct answer first, then the wrong ones in file order; shuffle them
    for display.
    """

    step: int
    player: int
    player_name: str
    question: str
    options: tuple[PromptOption, ...]

    @property
    def correct(self) -> PromptOption:
        return next(o for o in self.options if o.correct)

    def judge(self, move: Move) -> PromptOption | None:
        """The option `move` is (None if the learner chose something the teacher did not list)."""
        if move.kind is MoveKind.KEEP and move.cards is not None:
            move = Move.keep(move.player, move.cards)
        return next((o for o in self.options if o.move == move), None)


@dataclass(frozen=True, slots=True)
class StepResult:
    """What one step did. `decision` is the question pending before it; `events` are the log
    entries it added (private ones included: filter with `visible_to` before showing them)."""

    number: int
    text: str
    moves: tuple[Move, ...]
    described: tuple[str, ...]
    turn: int
    actor: int
    decision: Decision | None
    narration: str | None
    rule: RuleRef | None
    prompt: PromptView | None
    checkpoint: Checkpoint | None
    events: tuple[Event, ...]


@dataclass(frozen=True)
class ScenarioRun:
    """A scenario replayed to the end: plain, immutable and picklable (session state).

    Games are not stored (they are cheap to rebuild and their internals may change);
    `game_before`/`game_after` replay on demand.
    """

    scenario: Scenario
    names: tuple[str, ...]
    learner: int
    steps: tuple[StepResult, ...]

    def step(self, number: int) -> StepResult:
        """Step `number`, counting from 1 as the messages do."""
        if not 1 <= number <= len(self.steps):
            raise IndexError(f"steps are numbered 1 to {len(self.steps)}, not {number}")
        return self.steps[number - 1]

    def step_texts(self) -> list[str]:
        return [s.text for s in self.steps]

    def prompts(self) -> list[PromptView]:
        return [s.prompt for s in self.steps if s.prompt is not None]

    def game_before(self, number: int) -> Game:
        return replay(self.scenario, number - 1)

    def game_after(self, number: int) -> Game:
        return replay(self.scenario, number)


@dataclass
class _Scripted:
    """A draw a step scripted, waiting in the ScriptedChance queue until a draw uses it."""

    step: int
    key: str  # "draw" or "replacement"
    cards: tuple[Character, ...]
    turn: int


_WINDOWS = {
    "challenge": (Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK, Phase.CHALLENGE_CLAIM),
    "block": (Phase.BLOCK,),
    "claim": (Phase.CLAIM,),
    "any": (Phase.CHALLENGE_ACTION, Phase.BLOCK, Phase.CHALLENGE_BLOCK, Phase.CLAIM,
            Phase.CHALLENGE_CLAIM),
}
# Which engine draws each scripted key may feed.
_DRAW_WHY = {"draw": ("exchange", "examine swap", "deal", "examined at random"),
             "replacement": ("replacement",)}


class _Replayer:
    """Plays a scenario's steps on a Game, checking everything a step claims."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.plan = compile_plan(scenario)
        self.chance = ScriptedChance()
        self.game = self._new_game()
        self.pending: list[_Scripted] = []
        if scenario.setup.checkpoint:
            self._checkpoint(scenario.setup.checkpoint, ("setup", "checkpoint"))

    # -- set-up
    def _new_game(self) -> Game:
        s, plan = self.scenario.setup, self.plan
        n = len(plan.names)
        # Coins left out are the rules' starting coins, or none for a player already out (who
        # returned them to the Treasury).
        coins = [p.coins if p.coins is not None
                 else 0 if p.revealed and not p.hidden
                 else plan.variant.starting_coins(n, (i - plan.first) % n, plan.options)
                 for i, p in enumerate(s.players)]
        sides = [p.allegiance for p in s.players]
        if any(sides) and not all(sides):
            i = sides.index(None)
            raise error_at(self.scenario, ("setup", "players", i),
                         f"setup: {s.players[i].name} has no allegiance; give every player "
                         f"one, or none to start with the first player's choice")
        drafting = plan.variant.draft and not any(p.hidden or p.revealed for p in s.players)
        try:
            return Game(names=plan.names, hands=[p.hidden for p in s.players], coins=coins,
                        deck=s.deck, first=plan.first, variant=plan.variant,
                        options=plan.options, chance=self.chance,
                        revealed=[p.revealed for p in s.players], treasury=s.treasury,
                        offers=[list(plan.variant.characters) for _ in s.players]
                        if drafting else None,
                        removed=s.removed,
                        allegiances=[a for a in sides if a is not None] if all(sides) else None,
                        reserve=s.reserve,
                        mat=list(s.mat.items()) if s.mat is not None else None,
                        mat_up=s.mat_up)
        except SetupError as e:
            loc, hint = self._setup_blame(e)
            label = "setup"
            if e.seat is not None and e.expected is not None and e.field in ("hands", "coins"):
                # a seat that cannot be (cards, or coins while out): name the player's entry
                label = f"setup > player {e.seat + 1} ({s.players[e.seat].name})"
            raise error_at(self.scenario, loc, f"{label}: {e}{hint}") from None

    def _setup_blame(self, e: SetupError) -> tuple[Loc, str]:
        """Where in the file a set-up error points, read from the error's fields (the engine
        names the argument at fault and the seat; this maps them to the file's keys)."""
        s, v = self.scenario.setup, self.plan.variant
        players: Loc = ("setup", "players")
        if e.field == "hands" and e.seat is not None and e.expected is not None:
            return (*players, e.seat), ""  # the seat's cards face down and up together
        if e.field == "cards":
            court = Counter(v.court(len(s.players)))
            used = Counter(c for p in s.players for c in (*p.hidden, *p.revealed))
            over = {c: used[c] - court[c] for c in court if used[c] > court[c]}
            if over:
                return players, (
                    "; the players' cards alone already hold too many: "
                    + ", ".join(f"{k} extra {plural(c, k)}" for c, k in over.items()))
            mat = [c for c in (s.mat or {}).values() if c is not None]
            need = court - used - Counter(mat) - Counter(s.removed)
            besides = " and ".join(x for x in ("hands", "mat" if mat else "",
                                                "removed cards" if s.removed else "") if x)
            return ("setup", "deck"), (
                f"; with these {besides} the court deck must hold exactly "
                f"{count_text(need)} ({sum(need.values())} cards)")
        per_player = {"hands": "hidden", "revealed": "revealed", "coins": "coins",
                      "allegiances": "allegiance"}
        if e.field in per_player:
            if e.seat is None:
                return players, ""
            return (*players, e.seat, per_player[e.field]), ""
        if e.field == "treasury" or (e.field == "coins" and s.treasury is not None
                                     and e.seat is None):
            return ("setup", "treasury"), ""
        if e.field in ("deck", "first", "mat", "removed", "reserve"):
            return ("setup", e.field), ""
        return players, ""

    # -- steps
    def play(self, i: int) -> StepResult:
        step = self.scenario.steps[i]
        phrase = self.plan.phrases[i]
        game = self.game
        decision, turn, actor, start = game.pending, game.turn, game.actor, len(game.log)
        if phrase is None:  # an `illegal:` step: nothing is played
            self._refused(i)
            if step.checkpoint is not None:
                self._checkpoint(step.checkpoint, ("steps", i, "checkpoint"))
            return StepResult(
                number=i + 1, text=step.text, moves=(), described=(), turn=turn, actor=actor,
                decision=decision, narration=step.narration, rule=step.rule, prompt=None,
                checkpoint=step.checkpoint, events=())
        if step.replacement is not None:
            self._push(i, "replacement", (step.replacement,))
        if step.draw is not None:
            self._push(i, "draw", tuple(step.draw))
        queued = len(self.chance.queue)
        prompt = None
        if phrase.group is not None:
            moves = self._play_group(i, phrase)
        else:
            move = self._resolve(i, phrase)
            if step.prompt is not None:
                prompt = self._prompt(i, move)
            self._apply(i, move, queued)
            moves = [move]
        self._account_draws(i, start, queued - len(self.chance.queue))
        self._unused(i, finished=False)
        if step.checkpoint is not None:
            self._checkpoint(step.checkpoint, ("steps", i, "checkpoint"))
        return StepResult(
            number=i + 1, text=step.text, moves=tuple(moves),
            described=tuple(game.describe(m) for m in moves), turn=turn, actor=actor,
            decision=decision, narration=step.narration, rule=step.rule, prompt=prompt,
            checkpoint=step.checkpoint, events=tuple(game.log[start:]))

    def finish(self) -> None:
        self._unused(len(self.scenario.steps) - 1, finished=True)

    def _fail(self, i: int, message: str, loc: Loc | None = None) -> ScenarioError:
        return error_at(self.scenario, loc or ("steps", i, "move"), message)

    def _busy(self) -> str:
        g = self.game
        if g.is_over:
            return ("the game is over: a tie" if g.winner is None
                    else f"the game is over: {g.names[g.winner]} has won")
        return f"it is {g.names[g.decider]}'s decision now ({PHASE_QUESTION[g.phase]})"

    def _play_group(self, i: int, phrase: MovePhrase) -> list[Move]:
        g = self.game
        phases = _WINDOWS[phrase.group or "any"]
        if g.is_over or g.phase not in phases:
            verb = {"challenge": "challenge", "block": "block", "claim": "claim",
                    "any": "challenge, block or claim"}
            raise self._fail(i, f"nobody is being asked to {verb[phrase.group or 'any']} at "
                                f"this point: {self._busy()}")
        window, turn, moves = g.phase, g.turn, []
        while not g.is_over and g.phase is window and g.turn == turn:
            move = Move.pass_(g.decider)
            self._apply(i, move, len(self.chance.queue))
            moves.append(move)
        return moves

    def _resolve(self, i: int, phrase: MovePhrase) -> Move:
        """The engine move for a single-move phrase, after the checks the phrase implies."""
        g, move = self.game, phrase.move
        assert move is not None
        names = g.names
        if move.kind is MoveKind.PASS and phrase.scope != "any" and not g.is_over \
                and g.decider == move.player and g.phase not in _WINDOWS[phrase.scope]:
            raise self._fail(i, f"{names[move.player]} is not being asked to {phrase.scope} "
                                f"now; {names[move.player]} must {PHASE_QUESTION[g.phase]}")
        if move.kind is MoveKind.SHOW and g.phase is Phase.EXAMINE_OFFER \
                and g.decider == move.player and move.character is not None:
            move = Move.offer(move.player, move.character)  # "Ben shows Contessa to Ana"
        if move.kind is MoveKind.CHALLENGE and g.phase in _WINDOWS["challenge"] \
                and g.decider == move.player:
            d = g.pending
            assert d is not None
            claimant = (d.actor if g.phase is Phase.CHALLENGE_ACTION else d.blocker
                        if g.phase is Phase.CHALLENGE_BLOCK else d.claimant)
            claim = d.claim if g.phase is not Phase.CHALLENGE_BLOCK else d.block_character
            assert claimant is not None  # a challenge window is always about someone's claim
            if phrase.challenged is not None and phrase.challenged != claimant:
                raise self._fail(i, f"the claim open to challenge is {names[claimant]}'s "
                                    f"({claim}), not {names[phrase.challenged]}'s")
            if phrase.challenged_card is not None and phrase.challenged_card != claim:
                raise self._fail(i, f"the claim open to challenge is {names[claimant]}'s "
                                    f"{claim}, not a {phrase.challenged_card}")
        if phrase.infer_card and not g.is_over and g.decider == move.player:
            try:
                return complete(g, move)
            except AmbiguousMoveError as e:
                raise self._fail(i, e.reason) from None
            except IllegalMoveError:
                return move  # played as given, so the engine says why it is illegal
        return move

    def _refused(self, i: int) -> None:
        """Check that the engine refuses every move of an `illegal:` step, for a reason that
        contains the step's `because` words; the game is left as it was."""
        step, g = self.scenario.steps[i], self.game
        listed = not isinstance(step.illegal, str)
        for j, (text, phrase) in enumerate(zip(step.illegal_moves, self.plan.illegal[i],
                                               strict=True)):
            loc: Loc = ("steps", i, "illegal", j) if listed else ("steps", i, "illegal")
            move = phrase.move
            assert move is not None  # the loader lets only single moves through
            if move.kind is MoveKind.SHOW and g.phase is Phase.EXAMINE_OFFER \
                    and g.decider == move.player and move.character is not None:
                move = Move.offer(move.player, move.character)
            try:
                if phrase.infer_card:
                    complete(g, move)
                else:
                    g.as_legal(move)
            except AmbiguousMoveError:
                pass  # several cards would do: legal, reported below
            except IllegalMoveError as e:
                reason = e.reason
                if step.because is not None and _words(step.because) not in _words(reason):
                    raise self._fail(i, f"the engine refuses {text!r}, but for another reason: "
                                        f"{reason!r}; `because: {step.because}` is not in it",
                                     ("steps", i, "because")) from None
                continue
            # (a move after the game ended is always refused, so the game is on here)
            raise self._fail(i, f"illegal: {text!r} is a legal move here "
                                f"({g.names[g.decider]} may {PHASE_QUESTION[g.phase]}); an "
                                f"`illegal:` step needs a move the rules refuse at this point",
                             loc)

    def _apply(self, i: int, move: Move, queued: int) -> None:
        try:
            self.game.apply(move)
        except IllegalMoveError as e:
            raise self._fail(i, f"illegal move: {e}") from None
        except ChanceError as e:
            used = queued - len(self.chance.queue)  # the failing draw was popped too
            if used >= 1 and self.pending:
                bad = self.pending[used - 1]
                raise self._bad_draw(bad, i, str(e)) from None
            raise self._fail(i, f"bad scripted draw: {e}") from None

    def _bad_draw(self, bad: _Scripted, at: int, problem: str) -> ScenarioError:
        where = "" if bad.step == at else \
            f" (the draw happens at step {at + 1}, {self.scenario.steps[at].move!r})"
        hint = ""
        if "card(s); this draw takes" in problem:
            hint = ("; `replacement:` scripts the one card drawn after a proven claim, `draw:` "
                    "the cards an exchange takes")
        return self._fail(bad.step, f"bad scripted draw ({bad.key}: {cards_text(bad.cards)}): "
                                    f"{problem}{hint}{where}", ("steps", bad.step, bad.key))

    def _push(self, i: int, key: str, cards: tuple[Character, ...]) -> None:
        self.chance.push(cards)
        self.pending.append(_Scripted(i, key, cards, self.game.turn))

    def _account_draws(self, i: int, start: int, used: int) -> None:
        draws = [e for e in self.game.log[start:] if e.kind == "draw"][:used]
        for event in draws:
            item = self.pending.pop(0)
            if event.data.get("why") not in _DRAW_WHY[item.key]:
                raise self._bad_draw(item, i, f"it was used by a {event.data.get('why')} draw")

    def _unused(self, i: int, finished: bool) -> None:
        g = self.game
        for item in self.pending:
            if finished or g.is_over or g.turn != item.turn:
                end = "the scenario ends" if finished else "the turn ends"
                raise self._fail(item.step, f"the scripted draw ({item.key}: "
                                            f"{cards_text(item.cards)}) is never used: {end} "
                                            f"before any card is drawn",
                                 ("steps", item.step, item.key))

    # -- prompts
    def _prompt(self, i: int, correct: Move) -> PromptView:
        g, step = self.game, self.scenario.steps[i]
        assert step.prompt is not None
        legal = g.legal_moves()
        options = [PromptOption(g.describe(correct), correct, True, step.prompt.explanation,
                                correct in legal)]
        for opt, phrase in zip(step.prompt.wrong, self.plan.wrong[i], strict=True):
            move = phrase.move
            assert move is not None
            if phrase.infer_card:
                found = [m for m in legal if m.kind is move.kind and m.player == move.player]
                move = found[0] if len(found) == 1 else move
            if move == correct:
                raise self._fail(i, f"prompt: the wrong option {opt.move!r} is the step's own "
                                    f"(correct) move",
                                 ("steps", i, "prompt", "wrong", step.prompt.wrong.index(opt)))
            ok = move in legal
            label = g.describe(move) if (move.character or not phrase.infer_card) else opt.move
            options.append(PromptOption(label, move, False, opt.explanation, ok,
                                        None if ok else g.why_illegal(move)))
        return PromptView(i + 1, self.plan.learner, g.names[self.plan.learner],
                          step.prompt.question, tuple(options))

    # -- checkpoints
    def _checkpoint(self, cp: Checkpoint, loc: Loc) -> None:
        failures = checkpoint_failures(self.game, cp)
        if failures:
            first_loc = loc + failures[0][0]
            raise error_at(self.scenario, first_loc,
                         ("setup: " if loc[0] == "setup" else "")
                         + "checkpoint failed: " + "; ".join(m for _, m in failures))


def _words(text: str) -> str:
    """Text compared as words: any capitals, curly quotes, spacing and final stop."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-")
    return " ".join(text.lower().split()).rstrip(".")


def replay(scenario: Scenario, upto_step: int | None = None) -> Game:
    """The game after the first `upto_step` steps (0: the set-up; None: every step).

    Checkpoints on the way are checked; a problem raises ScenarioError.
    """
    total = len(scenario.steps)
    k = total if upto_step is None else upto_step
    if not 0 <= k <= total:
        raise IndexError(f"{scenario.id} has steps 1 to {total}; cannot replay {k} of them")
    r = _Replayer(scenario)
    for i in range(k):
        r.play(i)
    if k == total:
        r.finish()
    return r.game


def run_scenario(scenario: Scenario) -> ScenarioRun:
    """Replay every step, checking moves, draws and checkpoints; raise ScenarioError if any
    fails. The result holds each step's moves, events and prompt.

    Its words (`StepResult.described`, an option's `label` and `why_illegal`, an error's
    message) are English whoever runs it: a run is plain data, cached and shared by every
    reader; a page words a move again from the game, in its reader's language."""
    with use_language(DEFAULT):
        r = _Replayer(scenario)
        results = tuple(r.play(i) for i in range(len(scenario.steps)))
        r.finish()
    return ScenarioRun(scenario, r.plan.names, r.plan.learner, results)


def step_texts(scenario: Scenario) -> list[str]:
    """Each step's move as written in the file."""
    return [s.text for s in scenario.steps]


def prompt_for(scenario: Scenario, step: int) -> PromptView | None:
    """The prompt shown before step `step` (1-based), or None if the step has none."""
    if scenario.steps[step - 1].prompt is None:
        return None
    with use_language(DEFAULT):  # its labels are identifiers, as `run_scenario`'s
        r = _Replayer(scenario)
        for i in range(step - 1):
            r.play(i)
        return r.play(step - 1).prompt


def check_quotes(scenario: Scenario, directory: Path | None = None) -> None:
    """Raise ScenarioError if a step's rule quote is not in its rule text (skipped when the
    texts are not on this machine)."""
    directory = directory or rules_dir()
    if directory is None:
        return
    if scenario.rule is not None:
        problem = missing_quote(scenario.rule.quote, scenario.rule.source, directory)
        if problem:
            raise error_at(scenario, ("rule", "quote"), f"rule: {problem}")
    for i, step in enumerate(scenario.steps):
        for key in ("rule", "tip"):
            ref = getattr(step, key)
            if ref is not None:
                problem = missing_quote(ref.quote, ref.source, directory)
                if problem:
                    raise error_at(scenario, ("steps", i, key, "quote"), f"{key}: {problem}")


def check_file(path: str | Path) -> ScenarioRun:
    """Everything `python -m trainer check` checks for one file; raises ScenarioError."""
    from trainer.scenarios.lesson_game import check_practice  # it replays through this module

    scenario = load_scenario(path)
    run = run_scenario(scenario)
    check_quotes(scenario)
    check_practice(scenario)
    return run
