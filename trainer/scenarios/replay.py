"""Scenarios: load a lesson file, replay it through the engine, and check it.

A scenario is a YAML file (format: `trainer.scenarios.schema`, guide: docs/scenarios.md) that sets
up a position and tells a short story move by move. This module turns it into engine moves and
plays them on a real `Game`, so a lesson can never teach a rule the engine does not implement:
every move must be legal, every scripted draw possible and every checkpoint true.

The Learn page uses:

    load_scenario(path) -> Scenario            parse and statically check one file
    load_scenarios(directory) -> [Scenario]    every *.yaml there, in lesson order
    run_scenario(scenario) -> ScenarioRun      replay everything; per-step results and prompts
    replay(scenario, upto_step) -> Game        the game after the first `upto_step` steps
    step_texts(scenario) -> [str]              the moves as written
    prompt_for(scenario, step) -> PromptView   the question asked before a step, if any

`python -m trainer check FILE...` calls `check_main`, which prints one line per file and never
a traceback. Every problem is a `ScenarioError` whose message starts with ``file:line:``.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from trainer.engine.cards import Action, Character
from trainer.engine.chance import ScriptedChance
from trainer.engine.errors import ChanceError, CoupError, IllegalMoveError, SetupError
from trainer.engine.game import PHASE_QUESTION, Decision, Event, Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.rules import Options, Variant, get_variant
from trainer.rulebook.sources import missing_quote, rules_dir
from trainer.scenarios.move_text import MovePhrase, MoveTextError, parse_move_text
from trainer.scenarios.schema import (
    Checkpoint,
    RuleRef,
    Scenario,
    allowed_keys,
)
from trainer.scenarios.yaml_lines import Loc, YamlSyntaxError, line_of, load_with_lines

__all__ = [
    "PromptOption", "PromptView", "Scenario", "ScenarioError", "ScenarioRun", "StepResult",
    "check_file", "check_main", "load_scenario", "load_scenarios", "parse_scenario",
    "prompt_for", "replay", "run_scenario", "step_texts",
]


# ====================================================================== errors
class ScenarioError(CoupError):
    """One problem in a scenario file, located as precisely as we can.

    `str(error)` is the whole message: ``path:line: step N ("move text"): what is wrong``.
    `step` is 1-based; `line` and `step` are None when they do not apply.
    """

    def __init__(self, message: str, *, path: str = "<scenario>", line: int | None = None,
                 step: int | None = None, step_text: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.step = step
        self.step_text = step_text

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        if self.step is not None:
            where += f"step {self.step}"
            where += f' ("{self.step_text}"): ' if self.step_text else ": "
        return where + self.message

    def __reduce__(self) -> Any:
        return (_rebuild_error, (self.message, self.path, self.line, self.step, self.step_text))


def _rebuild_error(message: str, path: str, line: int | None, step: int | None,
                   step_text: str | None) -> ScenarioError:
    return ScenarioError(message, path=path, line=line, step=step, step_text=step_text)


def _error(scenario: Scenario, loc: Loc, message: str) -> ScenarioError:
    """An error at `loc`; a loc under ("steps", i) names the step and its move."""
    step = text = None
    if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
        step, text = loc[1] + 1, scenario.steps[loc[1]].move
    return ScenarioError(message, path=scenario.path, line=line_of(scenario._lines, loc, 0) or None,
                         step=step, step_text=text)


# ====================================================================== loading
def load_scenario(path: str | Path) -> Scenario:
    """Read, validate and statically check one scenario file (it is not replayed here)."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(f"cannot read the file: {e.strerror or e}", path=name) from None
    except UnicodeDecodeError as e:
        raise ScenarioError(f"the file is not UTF-8 text ({e.reason})", path=name) from None
    scenario = parse_scenario(text, path=name)
    stem = Path(path).stem
    if scenario.id != stem:
        raise _error(scenario, ("id",), f"the id {scenario.id!r} must match the file name "
                                        f"{stem!r} (so every lesson has its own id)")
    return scenario


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    """Validate scenario text; `path` only labels error messages."""
    try:
        data, lines = load_with_lines(text)
    except YamlSyntaxError as e:
        raise ScenarioError(e.message, path=path, line=e.line) from None
    if not isinstance(data, dict):
        raise ScenarioError(
            "a scenario file is a mapping with the keys id, title, summary, setup and steps",
            path=path, line=1)
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as e:
        raise _schema_error(e, data, lines, path) from None
    scenario._path = path
    scenario._lines = lines
    _compile(scenario)  # names, moves and prompts make sense before any replay
    return scenario


def load_scenarios(directory: str | Path = "scenarios") -> list[Scenario]:
    """Every scenario in `directory`, ordered by `order` (unset last), then title."""
    found = [load_scenario(p) for p in sorted(Path(directory).glob("*.yaml"))]
    return sorted(found, key=lambda s: (s.order is None, s.order or 0, s.title))


def _schema_error(exc: ValidationError, data: Any, lines: dict[Loc, int],
                  path: str) -> ScenarioError:
    """The first problem (by line) of a pydantic error, said the way a teacher would fix it."""
    errors = sorted(exc.errors(include_url=False), key=lambda e: line_of(lines, e["loc"]))
    err = errors[0]
    loc: Loc = tuple(err["loc"])
    kind = err["type"]
    found = err.get("input")
    if kind == "extra_forbidden":
        where, key = loc[:-1], str(loc[-1])
        allowed = allowed_keys(where) or []
        message = f"unknown key {key!r}{_did_you_mean(key, allowed)}; allowed keys: " \
                  f"{', '.join(allowed)}"
    elif kind == "missing":
        where = loc[:-1]
        message = f"missing key {loc[-1]!r}"
        allowed = allowed_keys(where)
        if allowed:
            message += f" (keys here: {', '.join(allowed)})"
    else:
        where = loc
        msg = err["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        if kind in ("model_type", "dict_type", "model_attributes_type"):
            keys = allowed_keys(loc)
            message = "expected a mapping (key: value lines)" + (
                f" with keys {', '.join(keys)}" if keys else "") + f", found {found!r}"
        elif kind == "value_error":
            message = msg
        else:
            message = f"{msg} (found {found!r})" if "input" in err else msg
    step = text = None
    if len(where) >= 2 and where[0] == "steps" and isinstance(where[1], int):
        step = where[1] + 1
        text = _raw_move(data, where[1])
        where = where[2:]
    label = _where(where, data)
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem(s) in this file)"
    return ScenarioError(f"{label}: {message}" if label else message, path=path,
                         line=line_of(lines, loc), step=step, step_text=text)


def _raw_move(data: Any, index: int) -> str | None:
    try:
        item = data["steps"][index]
    except (KeyError, IndexError, TypeError):
        return None
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and isinstance(item.get("move"), str):
        return item["move"]
    return None


_ITEM_NAMES = {"players": "player", "wrong": "wrong option", "steps": "step"}


def _where(loc: Loc, data: Any) -> str:
    """A location as words: ``setup > player 2 (Cris) > hidden > item 3``."""
    parts: list[str] = []
    node = data
    for part in loc:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
        if not isinstance(part, int):
            parts.append(str(part))
            continue
        noun = _ITEM_NAMES.get(parts[-1]) if parts else None
        if noun is None:
            parts.append(f"item {part + 1}")
            continue
        label = f"{noun} {part + 1}"
        if isinstance(node, dict) and isinstance(node.get("name"), str):
            label += f" ({node['name']})"
        parts[-1] = label
    return " > ".join(parts)


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


# ====================================================================== compiling
@dataclass(frozen=True)
class _Plan:
    """What the file means for the engine: seats, the variant and every move parsed."""

    names: tuple[str, ...]
    first: int
    learner: int
    variant: Variant
    options: Options
    phrases: tuple[MovePhrase, ...]
    wrong: dict[int, tuple[MovePhrase, ...]]


def _compile(scenario: Scenario) -> _Plan:
    setup = scenario.setup
    names = tuple(p.name for p in setup.players)
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n.lower() in seen:
            raise _error(scenario, ("setup", "players", i, "name"),
                         f"setup: two players are called {n!r}; names must be different")
        seen[n.lower()] = i

    def seat(name: str, loc: Loc, what: str) -> int:
        s = seen.get(name.strip().lower())
        if s is None:
            raise _error(scenario, loc, f"{what}: no player named {name!r}"
                         f"{_did_you_mean(name, names)}; the players are {', '.join(names)}")
        return s

    first = seat(setup.first, ("setup", "first"), "setup: first") if setup.first else 0
    learner = seat(setup.learner, ("setup", "learner"), "setup: learner")
    variant = get_variant(setup.variant)
    rule_options = Options().with_(**setup.options.model_dump())
    if setup.checkpoint:
        _check_names(setup.checkpoint, ("setup", "checkpoint"), seat)
    phrases: list[MovePhrase] = []
    wrong: dict[int, tuple[MovePhrase, ...]] = {}
    for i, step in enumerate(scenario.steps):
        phrase = _parse(scenario, step.move, names, variant, ("steps", i, "move"))
        phrases.append(phrase)
        if step.checkpoint:
            _check_names(step.checkpoint, ("steps", i, "checkpoint"), seat)
        if step.prompt:
            if phrase.move is None or phrase.move.player != learner:
                who = "nobody in particular" if phrase.move is None else names[phrase.player]
                raise _error(scenario, ("steps", i, "prompt"),
                             f"a prompt asks the learner ({names[learner]}) to choose this "
                             f"step's move, but the move is {who}'s; put the prompt on a step "
                             f"where {names[learner]} makes a single move")
            parsed: list[MovePhrase] = []
            for j, opt in enumerate(step.prompt.wrong):
                loc = ("steps", i, "prompt", "wrong", j, "move")
                p = _parse(scenario, opt.move, names, variant, loc)
                if p.move is None or p.move.player != learner:
                    raise _error(scenario, loc, f"prompt: the wrong option {opt.move!r} must be "
                                                f"a single move by the learner, "
                                                f"{names[learner]}")
                if p.move == phrase.move and not p.infer_card:
                    raise _error(scenario, loc, f"prompt: the wrong option {opt.move!r} is the "
                                                f"step's own (correct) move")
                if any(p.move == q.move for q in parsed):
                    raise _error(scenario, loc, f"prompt: the wrong option {opt.move!r} is "
                                                f"listed twice")
                parsed.append(p)
            wrong[i] = tuple(parsed)
    return _Plan(names, first, learner, variant, rule_options, tuple(phrases), wrong)


def _parse(scenario: Scenario, text: str, names: Sequence[str], variant: Variant,
           loc: Loc) -> MovePhrase:
    try:
        return parse_move_text(text, names, variant)
    except MoveTextError as e:
        raise _error(scenario, loc, f"cannot read the move: {e}") from None


def _check_names(cp: Checkpoint, loc: Loc, seat: Any) -> None:
    for key in ("coins", "influence", "hidden", "revealed", "allegiances"):
        for name in getattr(cp, key) or {}:
            seat(name, loc + (key, name), f"checkpoint {key}")
    for j, name in enumerate(cp.alive or ()):
        seat(name, loc + ("alive", j), "checkpoint alive")
    if cp.next:
        seat(cp.next.player, loc + ("next",), "checkpoint next")
    if cp.winner:
        seat(cp.winner, loc + ("winner",), "checkpoint winner")


# ====================================================================== results
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


# ====================================================================== replay
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
        self.plan = _compile(scenario)
        self.chance = ScriptedChance()
        self.game = self._new_game()
        self.pending: list[_Scripted] = []
        if scenario.setup.checkpoint:
            self._checkpoint(scenario.setup.checkpoint, ("setup", "checkpoint"))

    # -- set-up
    def _new_game(self) -> Game:
        s, plan = self.scenario.setup, self.plan
        n = len(plan.names)
        for i, p in enumerate(s.players):  # before the card counts, which it would upset
            held = len(p.hidden) + len(p.revealed)
            if held > plan.variant.hand_size:
                raise _error(self.scenario, ("setup", "players", i),
                             f"setup: {p.name} holds {held} cards (face down and face up); a "
                             f"player is dealt {plan.variant.hand_size}")
        coins = [p.coins if p.coins is not None
                 else plan.variant.starting_coins(n, (i - plan.first) % n, plan.options)
                 for i, p in enumerate(s.players)]
        sides = [p.allegiance for p in s.players]
        if any(sides) and not all(sides):
            i = sides.index(None)
            raise _error(self.scenario, ("setup", "players", i),
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
                        removed=s.removed, allegiances=sides if all(sides) else None,
                        reserve=s.reserve,
                        mat=list(s.mat.items()) if s.mat is not None else None)
        except SetupError as e:
            loc, hint = self._setup_blame(str(e))
            raise _error(self.scenario, loc, f"setup: {e}{hint}") from None

    def _setup_blame(self, message: str) -> tuple[Loc, str]:
        s, v = self.scenario.setup, self.plan.variant
        if "cards in play" in message or "is not a card" in message:
            court = Counter(v.court(len(s.players)))
            used = Counter(c for p in s.players for c in (*p.hidden, *p.revealed))
            over = {c: used[c] - court[c] for c in court if used[c] > court[c]}
            if over:
                return ("setup", "players"), (
                    "; the players' cards alone already hold too many: "
                    + ", ".join(f"{k} extra {_plural(c, k)}" for c, k in over.items()))
            need = court - used
            return ("setup", "deck"), (
                f"; with these hands the court deck must hold exactly "
                f"{_count_cards(need)} ({sum(need.values())} cards)")
        if "holds more than" in message:
            for i, p in enumerate(s.players):
                if message.startswith(p.name):
                    return ("setup", "players", i), ""
        if "treasury" in message:
            return (("setup", "treasury") if s.treasury is not None else ("setup", "players")), ""
        if "first player" in message:
            return ("setup", "first"), ""
        return ("setup", "players"), ""

    # -- steps
    def play(self, i: int) -> StepResult:
        step = self.scenario.steps[i]
        phrase = self.plan.phrases[i]
        game = self.game
        decision, turn, actor, start = game.pending, game.turn, game.actor, len(game.log)
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
            number=i + 1, text=step.move, moves=tuple(moves),
            described=tuple(game.describe(m) for m in moves), turn=turn, actor=actor,
            decision=decision, narration=step.narration, rule=step.rule, prompt=prompt,
            checkpoint=step.checkpoint, events=tuple(game.log[start:]))

    def finish(self) -> None:
        self._unused(len(self.scenario.steps) - 1, finished=True)

    def _fail(self, i: int, message: str, loc: Loc | None = None) -> ScenarioError:
        return _error(self.scenario, loc or ("steps", i, "move"), message)

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
            if phrase.challenged is not None and phrase.challenged != claimant:
                raise self._fail(i, f"the claim open to challenge is {names[claimant]}'s "
                                    f"({claim}), not {names[phrase.challenged]}'s")
            if phrase.challenged_card is not None and phrase.challenged_card != claim:
                raise self._fail(i, f"the claim open to challenge is {names[claimant]}'s "
                                    f"{claim}, not a {phrase.challenged_card}")
        if phrase.infer_card:
            choices = [m for m in g.legal_moves() if m.kind is move.kind
                       and m.player == move.player]
            if len(choices) == 1:
                return choices[0]
            if len(choices) > 1:
                cards = " or ".join(str(m.character) for m in choices)
                raise self._fail(i, f"say which card: {names[move.player]} could "
                                    f"{move.kind} {cards}")
        return move

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
        return self._fail(bad.step, f"bad scripted draw ({bad.key}: {_cards(bad.cards)}): "
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
                                            f"{_cards(item.cards)}) is never used: {end} "
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
        failures = _checkpoint_failures(self.game, cp)
        if failures:
            first_loc = loc + failures[0][0]
            raise _error(self.scenario, first_loc,
                         ("setup: " if loc[0] == "setup" else "")
                         + "checkpoint failed: " + "; ".join(m for _, m in failures))


def _checkpoint_failures(g: Game, cp: Checkpoint) -> list[tuple[Loc, str]]:
    """Every way the game differs from the checkpoint, as (location in the checkpoint, text)."""
    out: list[tuple[Loc, str]] = []
    seat = {n.lower(): i for i, n in enumerate(g.names)}

    def who(name: str) -> tuple[int, str]:
        s = seat[name.strip().lower()]
        return s, g.names[s]

    for name, expected in (cp.coins or {}).items():
        s, n = who(name)
        if g.coins[s] != expected:
            out.append((("coins", name), f"{n} coins expected {expected}, found {g.coins[s]}"))
    for name, expected in (cp.influence or {}).items():
        s, n = who(name)
        if len(g.hidden[s]) != expected:
            out.append((("influence", name), f"{n} influence expected {expected}, "
                                             f"found {len(g.hidden[s])}"))
    for key, pile, label in (("hidden", g.hidden, "face-down cards"),
                             ("revealed", g.revealed, "face-up cards")):
        for name, expected in (getattr(cp, key) or {}).items():
            s, n = who(name)
            if Counter(pile[s]) != Counter(expected):
                out.append(((key, name), f"{n} {label} expected {_cards(expected)}, "
                                         f"found {_cards(pile[s])}"))
    if cp.face_up is not None:
        table = [c for r in g.revealed for c in r]
        if Counter(table) != Counter(cp.face_up):
            out.append((("face_up",), f"face-up cards on the table expected "
                                      f"{_cards(cp.face_up)}, found {_cards(table)}"))
    if cp.alive is not None:
        expected_seats = sorted(who(n)[0] for n in cp.alive)
        if expected_seats != g.living():
            out.append((("alive",), "players in the game expected "
                        f"{_names(g, expected_seats)}, found {_names(g, g.living())}"))
    if cp.treasury is not None and g.treasury != cp.treasury:
        out.append((("treasury",), f"treasury expected {cp.treasury}, found {g.treasury}"))
    if cp.deck_size is not None and len(g.deck) != cp.deck_size:
        out.append((("deck_size",), f"deck size expected {cp.deck_size}, found {len(g.deck)}"))
    if cp.deck is not None and Counter(g.deck) != Counter(cp.deck):
        missing = Counter(cp.deck) - Counter(g.deck)
        extra = Counter(g.deck) - Counter(cp.deck)
        detail = "; ".join(p for p in (
            f"missing {_count_cards(missing)}" if missing else "",
            f"not expected {_count_cards(extra)}" if extra else "") if p)
        out.append((("deck",), f"deck expected {_cards(cp.deck)}, found {_cards(g.deck)} "
                               f"({detail})"))
    if cp.next is not None:
        s, n = who(cp.next.player)
        if g.is_over:
            result = "a tie" if g.winner is None else f"{g.names[g.winner]} won"
            out.append((("next",), f"next decision expected {n}'s, but the game is over "
                                   f"({result})"))
        elif g.decider != s:
            out.append((("next",), f"next decision expected {n}'s, found "
                                   f"{g.names[g.decider]}'s ({PHASE_QUESTION[g.phase]})"))
        elif cp.next.phase is not None and cp.next.phase is not g.phase:
            out.append((("next",), f"{n}'s next decision expected phase {cp.next.phase} "
                                   f"({PHASE_QUESTION[cp.next.phase]}), found {g.phase} "
                                   f"({PHASE_QUESTION[g.phase]})"))
    if cp.legal_actions is not None:
        if g.is_over or g.phase is not Phase.ACTION:
            busy = "the game is over" if g.is_over else \
                f"{g.names[g.decider]} must {PHASE_QUESTION[g.phase]}"
            out.append((("legal_actions",), f"legal actions can be checked only when a player "
                                             f"chooses an action; now {busy}"))
        else:
            found = {m.action for m in g.legal_moves() if m.kind is MoveKind.ACT}
            if found != set(cp.legal_actions):
                show = lambda acts: ", ".join(a.label for a in sorted(acts, key=_ACTIONS.index))
                out.append((("legal_actions",), f"legal actions for {g.names[g.decider]} "
                                                f"expected {show(set(cp.legal_actions))}, "
                                                f"found {show(found)}"))
    if cp.winner is not None:
        s, n = who(cp.winner)
        if not g.is_over:
            out.append((("winner",), f"winner expected {n}, but the game is not over "
                                     f"({g.names[g.decider]} must {PHASE_QUESTION[g.phase]})"))
        elif g.winner != s:
            found = "a tie" if g.winner is None else g.names[g.winner]
            out.append((("winner",), f"winner expected {n}, found {found}"))
    if cp.tie is not None and cp.tie != g.is_tie:
        out.append((("tie",), "a tie expected" if cp.tie else "no tie expected"))
    for name, side in (cp.allegiances or {}).items():
        s, n = who(name)
        found_side = g.sides[s] if g.sides else None
        if found_side != side:
            out.append((("allegiances", name), f"{n} allegiance expected {side}, found "
                                               f"{found_side or 'none (not chosen yet)'}"))
    if cp.reserve is not None and g.reserve != cp.reserve:
        out.append((("reserve",), f"Treasury Reserve expected {cp.reserve}, found {g.reserve}"))
    if cp.mat_up is not None and Counter(g.mat_up) != Counter(cp.mat_up):
        out.append((("mat_up",), f"face-up mat cards expected {_cards(cp.mat_up)}, found "
                                 f"{_cards(g.mat_up)}"))
    return out


# ====================================================================== public API
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
    fails. The result holds each step's moves, events and prompt."""
    r = _Replayer(scenario)
    results = tuple(r.play(i) for i in range(len(scenario.steps)))
    r.finish()
    return ScenarioRun(scenario, r.plan.names, r.plan.learner, results)


def step_texts(scenario: Scenario) -> list[str]:
    """Each step's move as written in the file."""
    return [s.move for s in scenario.steps]


def prompt_for(scenario: Scenario, step: int) -> PromptView | None:
    """The prompt shown before step `step` (1-based), or None if the step has none."""
    if scenario.steps[step - 1].prompt is None:
        return None
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
    for i, step in enumerate(scenario.steps):
        for key in ("rule", "tip"):
            ref = getattr(step, key)
            if ref is not None:
                problem = missing_quote(ref.quote, ref.source, directory)
                if problem:
                    raise _error(scenario, ("steps", i, key, "quote"), f"{key}: {problem}")


def check_file(path: str | Path) -> ScenarioRun:
    """Everything `python -m trainer check` checks for one file; raises ScenarioError."""
    scenario = load_scenario(path)
    run = run_scenario(scenario)
    check_quotes(scenario)
    return run


def check_main(files: list[str]) -> int:
    """Check each file; print `OK file (N steps)` or one error line per file. Exit status 1 if
    any file failed."""
    failed = 0
    for name in files:
        try:
            run = check_file(name)
        except ScenarioError as e:
            failed += 1
            print(str(e), file=sys.stderr, flush=True)
            continue
        except Exception as e:  # never a traceback for a teacher: say what broke, in one line
            failed += 1
            print(f"{name}: internal error while checking ({type(e).__name__}: {e}); please "
                  f"report it", file=sys.stderr, flush=True)
            continue
        print(f"OK {name} ({len(run.steps)} steps)", flush=True)
    return 1 if failed else 0


# ====================================================================== formatting
_ORDER = list(Character)
_ACTIONS = list(Action)


def _cards(cards: Iterable[Character]) -> str:
    cards = sorted(cards, key=_ORDER.index)
    return ", ".join(cards) if cards else "none"


def _plural(card: Character, k: int) -> str:
    return str(card) if k == 1 else f"{card}s"


def _count_cards(counts: Counter[Character]) -> str:
    return ", ".join(f"{counts[c]} {_plural(c, counts[c])}" for c in _ORDER if counts[c] > 0)


def _names(g: Game, seats: Iterable[int]) -> str:
    return ", ".join(g.names[s] for s in seats) or "nobody"
