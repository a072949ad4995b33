"""Replaying a scenario through the engine, step by step, checking everything a step claims.

A scenario (format: `trainer.scenarios.schema`, guide: docs/scenarios.md) sets up a position
and tells a short story move by move. Every move is played on a real `Game`, so a lesson can
never teach a rule the engine does not implement: every move must be legal, every scripted draw
possible and every checkpoint true.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from trainer.engine.cards import Character
from trainer.engine.chance import ScriptedChance
from trainer.engine.errors import (
    AmbiguousMoveError,
    ChanceError,
    IllegalMoveError,
    SetupError,
)
from trainer.engine.explain import phase_question
from trainer.engine.game import Decision, Event, Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.engine.notation import WHICH_CARD, complete, either
from trainer.engine.variants import title_words
from trainer.i18n import DEFAULT, N_, tr, use_language
from trainer.i18n.said import Said, as_said, said, said_each, said_n
from trainer.rulebook.sources import missing_quote, rules_dir
from trainer.scenarios.checkpoints import (
    card_counts,
    card_list,
    checkpoint_failures,
    extra_text,
    failures_text,
)
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
# A scripted draw fed to a draw of another kind (the engine's `why` of the draw).
_USED_BY = {"exchange": N_("it was used by an exchange draw"),
            "examine swap": N_("it was used by the draw of an examine swap"),
            "deal": N_("it was used by a deal draw"),
            "examined at random": N_("it was used by the draw of a card examined at random"),
            "replacement": N_("it was used by a replacement draw")}
# Asked to decline a window that is not open: what the step says nobody is asked to do.
_NOBODY_ASKED = {
    "challenge": N_("nobody is being asked to challenge at this point: {busy}"),
    "block": N_("nobody is being asked to block at this point: {busy}"),
    "claim": N_("nobody is being asked to claim at this point: {busy}"),
    "any": N_("nobody is being asked to challenge, block or claim at this point: {busy}"),
}
_NOT_ASKED = {
    "challenge": N_("{name} is not being asked to challenge now; {name} must {question}"),
    "block": N_("{name} is not being asked to block now; {name} must {question}"),
    "claim": N_("{name} is not being asked to claim now; {name} must {question}"),
}
_NOTHING = Said("", catalogued=False)
_SETUP = Said("setup", catalogued=False)  # the file's key, as written


class _Script(ScriptedChance):
    """The steps' scripted draws, remembering the draw asked last (how many cards, and from
    which), so that a draw the engine refuses is worded from these facts in the reader's
    language (the engine's `ChanceError` says it in English only)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: tuple[int, tuple[Character, ...]] = (0, ())

    def draw(self, deck: list[Character], n: int) -> list[Character]:
        self.asked = (n, tuple(deck))
        return super().draw(deck, n)

    def __deepcopy__(self, memo: dict[int, object]) -> _Script:
        twin = _Script()
        twin.queue = deque(list(d) for d in self.queue)
        twin.picks = deque(self.picks)
        twin.asked = self.asked
        return twin


class _Replayer:
    """Plays a scenario's steps on a Game, checking everything a step claims."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.plan = compile_plan(scenario)
        self.chance = _Script()
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
                           said(N_("setup: {name} has no allegiance; give every player one, "
                                   "or none to start with the first player's choice"),
                                name=s.players[i].name))
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
            place: tuple[Said, ...] = (_SETUP,)
            if e.seat is not None and e.expected is not None and e.field in ("hands", "coins"):
                # a seat that cannot be (cards, or coins while out): name the player's entry
                place = (_SETUP, said(N_("player {n} ({name})"), n=e.seat + 1,
                                      name=s.players[e.seat].name))
            raise error_at(self.scenario, loc, said(N_("{place}: {problem}{hint}"), place=place,
                                                    problem=self._setup_problem(e, coins),
                                                    hint=hint)) from None

    def _setup_problem(self, e: SetupError, coins: list[int]) -> Said:
        """What the engine refuses in the set-up, in the reader's words, from the error's
        fields and the file's set-up (the engine's own sentence is English only; it is shown
        as it is for a refusal a lesson file cannot cause)."""
        s, plan, v = self.scenario.setup, self.plan, self.plan.variant
        names, n = plan.names, len(plan.names)
        rules = partial(title_words, v)
        if e.field == "cards" and e.card is not None and e.expected is not None \
                and e.found is not None:
            where = (N_("hands, revealed, deck and mat") if v.event_mat
                     else N_("hands, draft sets, removed cards and deck") if v.draft
                     else N_("hands, revealed and deck"))
            return said_n("there must be {n} {card} card in play ({where}) for {players} "
                          "players; found {found}",
                          "there must be {n} {card} cards in play ({where}) for {players} "
                          "players; found {found}", e.expected, card=partial(card_name, e.card),
                          where=said(where), players=n, found=e.found)
        if e.card is not None and e.expected is None:
            return said(N_("{card} is not a card of {rules} (its cards: {cards})"),
                        card=partial(card_name, e.card), rules=rules,
                        cards=partial(_listed, tuple(v.cards)))
        if e.field == "hands" and e.seat is not None and e.expected is not None:
            p = s.players[e.seat]
            return said_n("{name} has {down} and {up}; every player has {n} card (face down "
                          "while alive, face up once lost)",
                          "{name} has {down} and {up}; every player has {n} cards (face down "
                          "while alive, face up once lost)", e.expected, name=names[e.seat],
                          down=_face_down(len(p.hidden)), up=_face_up(len(p.revealed)))
        if e.field == "coins" and e.seat is not None and e.found is not None:
            return said_n("{name} is out of the game (every card face up) but has {n} coin; a "
                          "player who is out returns all their coins to the Treasury",
                          "{name} is out of the game (every card face up) but has {n} coins; a "
                          "player who is out returns all their coins to the Treasury", e.found,
                          name=names[e.seat])
        if e.field == "mat" and e.expected is not None and e.found is not None:
            up = len(s.mat_up)
            return said_n("McGuire's mat holds {n} card for {players} players (one per flip "
                          "event); found {down} face down and {up} face up (list the flipped "
                          "ones under mat_up)",
                          "McGuire's mat holds {n} cards for {players} players (one per flip "
                          "event); found {down} face down and {up} face up (list the flipped "
                          "ones under mat_up)", e.expected, players=n, down=e.found - up, up=up)
        unknown = [event for event in (s.mat or {}) if event not in v.mat_events(2)]
        if e.field == "mat" and unknown:
            return said(N_("{event} is not an event of the {rules} mat"),
                        event=repr(unknown[0]), rules=rules)
        if e.field == "names" and not v.min_players <= n <= v.most_players(plan.options):
            return said(N_("{rules} is for {low}–{high} players, not {n}"), rules=rules,
                        low=v.min_players, high=v.most_players(plan.options), n=n)
        if e.field == "allegiances" and not v.allegiances:
            return said(N_("{rules} has no allegiances"), rules=rules)
        if e.field == "reserve" and not v.allegiances:
            return said(N_("{rules} has no Treasury Reserve"), rules=rules)
        if e.field == "first":
            return said(N_("the first player (seat {first}) must be a living player"),
                        first=plan.first)
        if e.field in ("coins", "treasury") and e.seat is None and plan.options.finite_treasury:
            mat_coins = sum(1 for event, card in (s.mat or {}).items()
                            if card is None and event.startswith("coin"))
            held = sum(coins) + s.reserve + mat_coins
            left = v.coins_total - held if s.treasury is None else s.treasury
            if left < 0 or held + left != v.coins_total:
                message = (
                    N_("players hold {held} coins and the treasury {left}, the Reserve "
                       "{reserve}, the mat {mat}; together they must make the {total} coins in "
                       "the box") if s.reserve and mat_coins else
                    N_("players hold {held} coins and the treasury {left}, the Reserve "
                       "{reserve}; together they must make the {total} coins in the box")
                    if s.reserve else
                    N_("players hold {held} coins and the treasury {left}, the mat {mat}; "
                       "together they must make the {total} coins in the box") if mat_coins
                    else N_("players hold {held} coins and the treasury {left}; together they "
                            "must make the {total} coins in the box"))
                return said(message, held=sum(coins), left=left, reserve=s.reserve,
                            mat=mat_coins, total=v.coins_total)
        if e.field == "hands" and e.seat is None \
                and sum(1 for p in s.players if p.hidden) < 2 and not plan.variant.draft:
            return said(N_("at least two players must still have influence"))
        return as_said(str(e))  # English only (the engine's); a lesson file cannot cause it

    def _setup_blame(self, e: SetupError) -> tuple[Loc, Said]:
        """Where in the file a set-up error points, read from the error's fields (the engine
        names the argument at fault and the seat; this maps them to the file's keys), and a
        hint to add to the engine's reason."""
        s, v = self.scenario.setup, self.plan.variant
        players: Loc = ("setup", "players")
        if e.field == "hands" and e.seat is not None and e.expected is not None:
            return (*players, e.seat), _NOTHING  # the seat's cards face down and up together
        if e.field == "cards":
            court = Counter(v.court(len(s.players)))
            used = Counter(c for p in s.players for c in (*p.hidden, *p.revealed))
            over = {c: used[c] - court[c] for c in court if used[c] > court[c]}
            if over:
                return players, said(N_("; the players' cards alone already hold too many: "
                                        "{cards}"), cards=partial(extra_text, over))
            mat = [c for c in (s.mat or {}).values() if c is not None]
            need = court - used - Counter(mat) - Counter(s.removed)
            total = sum(need.values())
            if mat and s.removed:
                hint = said_n("; with these hands and mat and removed cards the court deck "
                              "must hold exactly {cards} ({n} card)",
                              "; with these hands and mat and removed cards the court deck "
                              "must hold exactly {cards} ({n} cards)", total,
                              cards=card_counts(need))
            elif mat:
                hint = said_n("; with these hands and mat the court deck must hold exactly "
                              "{cards} ({n} card)",
                              "; with these hands and mat the court deck must hold exactly "
                              "{cards} ({n} cards)", total, cards=card_counts(need))
            elif s.removed:
                hint = said_n("; with these hands and removed cards the court deck must hold "
                              "exactly {cards} ({n} card)",
                              "; with these hands and removed cards the court deck must hold "
                              "exactly {cards} ({n} cards)", total, cards=card_counts(need))
            else:
                hint = said_n("; with these hands the court deck must hold exactly {cards} "
                              "({n} card)",
                              "; with these hands the court deck must hold exactly {cards} "
                              "({n} cards)", total, cards=card_counts(need))
            return ("setup", "deck"), hint
        per_player = {"hands": "hidden", "revealed": "revealed", "coins": "coins",
                      "allegiances": "allegiance"}
        if e.field in per_player:
            if e.seat is None:
                return players, _NOTHING
            return (*players, e.seat, per_player[e.field]), _NOTHING
        if e.field == "treasury" or (e.field == "coins" and s.treasury is not None
                                     and e.seat is None):
            return ("setup", "treasury"), _NOTHING
        if e.field in ("deck", "first", "mat", "removed", "reserve"):
            return ("setup", e.field), _NOTHING
        return players, _NOTHING

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

    def _fail(self, i: int, message: Said, loc: Loc | None = None) -> ScenarioError:
        return error_at(self.scenario, loc or ("steps", i, "move"), message)

    def _busy(self) -> Said:
        g = self.game
        if g.is_over:
            return (said(N_("the game is over: a tie")) if g.winner is None
                    else said(N_("the game is over: {name} has won"), name=g.names[g.winner]))
        return said(N_("it is {name}'s decision now ({question})"), name=g.names[g.decider],
                    question=partial(phase_question, g.phase))

    def _play_group(self, i: int, phrase: MovePhrase) -> list[Move]:
        g = self.game
        phases = _WINDOWS[phrase.group or "any"]
        if g.is_over or g.phase not in phases:
            raise self._fail(i, said(_NOBODY_ASKED[phrase.group or "any"], busy=self._busy()))
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
            raise self._fail(i, said(_NOT_ASKED[phrase.scope], name=names[move.player],
                                     question=partial(phase_question, g.phase)))
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
                raise self._fail(i, said(N_("the claim open to challenge is {name}'s ({card}), "
                                            "not {other}'s"), name=names[claimant],
                                         card=_card(claim), other=names[phrase.challenged]))
            if phrase.challenged_card is not None and phrase.challenged_card != claim:
                raise self._fail(i, said(N_("the claim open to challenge is {name}'s {card}, "
                                            "not a {other}"), name=names[claimant],
                                         card=_card(claim),
                                         other=_card(phrase.challenged_card)))
        if phrase.infer_card and not g.is_over and g.decider == move.player:
            try:
                return complete(g, move)
            except AmbiguousMoveError as e:
                raise self._fail(i, _ambiguous(g, move, e)) from None
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
            except IllegalMoveError:
                if step.because is not None:
                    # `because:` is written in English, whoever replays (the engine's reason
                    # is the same sentence as its `IllegalMoveError`'s, said in English)
                    with use_language(DEFAULT):
                        reason = g.why_illegal(move)
                    if _words(step.because) not in _words(reason):
                        raise self._fail(i, said(
                            N_("the engine refuses {move}, but for another reason: {reason}; "
                               "`because: {because}` is not in it"), move=repr(text),
                            reason=said_each(partial(_why, g, move, True)),
                            because=step.because), ("steps", i, "because")) from None
                continue
            # (a move after the game ended is always refused, so the game is on here)
            raise self._fail(i, said(N_("illegal: {move} is a legal move here ({name} may "
                                        "{question}); an `illegal:` step needs a move the "
                                        "rules refuse at this point"), move=repr(text),
                                     name=g.names[g.decider],
                                     question=partial(phase_question, g.phase)), loc)

    def _apply(self, i: int, move: Move, queued: int) -> None:
        try:
            self.game.apply(move)
        except IllegalMoveError:
            # the game is as it was: the engine says why in each language
            raise self._fail(i, said(N_("illegal move: {reason}"),
                                     reason=said_each(partial(_why, self.game, move)))) from None
        except ChanceError as e:
            used = queued - len(self.chance.queue)  # the failing draw was popped too
            if used >= 1 and self.pending:
                bad = self.pending[used - 1]
                problem, miscounted = _draw_problem(bad.cards, self.chance.asked, e)
                raise self._bad_draw(bad, i, problem, miscounted) from None
            problem, _ = _draw_problem(None, self.chance.asked, e)
            raise self._fail(i, said(N_("bad scripted draw: {problem}"),
                                     problem=problem)) from None

    def _bad_draw(self, bad: _Scripted, at: int, problem: Said,
                  miscounted: bool = False) -> ScenarioError:
        hint = said(N_("; `replacement:` scripts the one card drawn after a proven claim, "
                       "`draw:` the cards an exchange takes")) if miscounted else _NOTHING
        fields = dict(key=bad.key, cards=card_list(bad.cards), problem=problem, hint=hint)
        message = (said(N_("bad scripted draw ({key}: {cards}): {problem}{hint}"), **fields)
                   if bad.step == at else
                   said(N_("bad scripted draw ({key}: {cards}): {problem}{hint} (the draw "
                           "happens at step {step}, {move})"), step=at + 1,
                        move=repr(self.scenario.steps[at].move), **fields))
        return self._fail(bad.step, message, ("steps", bad.step, bad.key))

    def _push(self, i: int, key: str, cards: tuple[Character, ...]) -> None:
        self.chance.push(cards)
        self.pending.append(_Scripted(i, key, cards, self.game.turn))

    def _account_draws(self, i: int, start: int, used: int) -> None:
        draws = [e for e in self.game.log[start:] if e.kind == "draw"][:used]
        for event in draws:
            item = self.pending.pop(0)
            why = event.data.get("why")
            if why not in _DRAW_WHY[item.key]:
                raise self._bad_draw(item, i, said(_USED_BY[why]) if why in _USED_BY else
                                     said(N_("it was used by a {why} draw"), why=str(why)))

    def _unused(self, i: int, finished: bool) -> None:
        g = self.game
        for item in self.pending:
            if finished or g.is_over or g.turn != item.turn:
                message = (N_("the scripted draw ({key}: {cards}) is never used: the scenario "
                              "ends before any card is drawn") if finished else
                           N_("the scripted draw ({key}: {cards}) is never used: the turn "
                              "ends before any card is drawn"))
                raise self._fail(item.step,
                                 said(message, key=item.key, cards=card_list(item.cards)),
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
                raise self._fail(i, said(N_("prompt: the wrong option {move} is the step's "
                                            "own (correct) move"), move=repr(opt.move)),
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
            listed = partial(failures_text, tuple(m for _, m in failures))
            raise error_at(self.scenario, first_loc,
                           said(N_("setup: checkpoint failed: {failures}"), failures=listed)
                           if loc[0] == "setup" else
                           said(N_("checkpoint failed: {failures}"), failures=listed))


def _why(game: Game, move: Move, quoted: bool = False) -> str:
    """Why the engine refuses `move` now, in the current language (quoted as Python would)."""
    reason = game.why_illegal(move)
    return repr(reason) if quoted else reason


def _card(card: Character | str | None) -> partial[str] | str:
    """A card named in the reader's language when shown (a field of a `Said`)."""
    return str(card) if card is None else partial(card_name, card)


def _listed(cards: tuple[Character, ...]) -> str:
    """Cards in the order given, named in the current language."""
    return ", ".join(card_name(c) for c in cards)




def _held(cards: tuple[Character, ...]) -> str:
    """The cards a draw could take, or "nothing"."""
    return ", ".join(card_name(c) for c in cards) or tr("nothing")


def _face_down(k: int) -> Said:
    return said(N_("no face-down card")) if k == 0 else \
        said_n("{n} face-down card", "{n} face-down cards", k)


def _face_up(k: int) -> Said:
    return said(N_("no face-up card")) if k == 0 else \
        said_n("{n} face-up card", "{n} face-up cards", k)


def _ambiguous(game: Game, move: Move, e: AmbiguousMoveError) -> Said:
    """A move that leaves out the card when several would do, from the error's candidates."""
    candidates = tuple(m.character for m in e.candidates
                       if isinstance(m, Move) and m.character is not None)
    if move.kind not in WHICH_CARD or not candidates:
        return as_said(e.reason)  # not a move a step can make
    return said(WHICH_CARD[move.kind], name=game.names[move.player],
                cards=partial(either, candidates))


def _draw_problem(scripted: tuple[Character, ...] | None, asked: tuple[int, tuple[Character, ...]],
                  error: ChanceError) -> tuple[Said, bool]:
    """Why the engine refused a draw, worded from the draw asked (`n` cards from `deck`) and
    the cards scripted for it, checked in the engine's order (`ScriptedChance.draw`); and
    whether the script holds the wrong number of cards."""
    n, deck = asked
    if n > len(deck):
        return said_n("cannot draw {n} card from a deck of {size}",
                      "cannot draw {n} cards from a deck of {size}", n, size=len(deck)), False
    if scripted is not None and len(scripted) != n:
        return said(N_("the scripted draw {cards} has {k} card(s); this draw takes {n}"),
                    cards=partial(_listed, scripted), k=len(scripted), n=n), True
    remaining = list(deck)
    for c in scripted or ():
        if c not in remaining:
            return said(N_("cannot draw {card}: the court deck holds only {cards}"),
                        card=partial(card_name, c),
                        cards=partial(_held, tuple(sorted(remaining)))), False
        remaining.remove(c)
    return as_said(str(error)), False  # English only (the engine's): not a scripted draw's


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
    reader; a page words a move again from the game, in its reader's language, and an error's
    `words()` says its problem again in the reader's language (its `said`)."""
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
        if problem is not None:
            raise error_at(scenario, ("rule", "quote"),
                           said(N_("{place}: {problem}"), place="rule", problem=problem))
    for i, step in enumerate(scenario.steps):
        for key in ("rule", "tip"):
            ref = getattr(step, key)
            if ref is not None:
                problem = missing_quote(ref.quote, ref.source, directory)
                if problem is not None:
                    raise error_at(scenario, ("steps", i, key, "quote"),
                                   said(N_("{place}: {problem}"), place=key, problem=problem))


def check_file(path: str | Path) -> ScenarioRun:
    """Everything `python -m trainer check` checks for one file; raises ScenarioError."""
    from trainer.scenarios.lesson_game import check_practice  # it replays through this module

    scenario = load_scenario(path)
    run = run_scenario(scenario)
    check_quotes(scenario)
    check_practice(scenario)
    return run
