"""The scenario file format as pydantic models, and the JSON schema generated from them.

Why pydantic: every key of a hand-written file is checked (``extra="forbid"`` turns a typo into
an error instead of a silently ignored lesson), values are converted once into the engine's own
types (`Character`, `Action`, `Phase`), and the same models give the JSON schema that editors
use to complete and check YAML as it is typed.

These models only describe the *shape* of a file. Whether the moves are legal and the
checkpoints true is decided by replaying the scenario through the engine
(`trainer.scenarios.replay`).

Run ``python -m trainer schema [PATH]`` to (re)write ``docs/scenario.schema.json``.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    create_model,
    field_validator,
    model_validator,
)

from trainer.engine.cards import Action, Allegiance, Character
from trainer.engine.errors import RuleSetError
from trainer.engine.game import Phase
from trainer.engine.rules import Options
from trainer.engine.variants import HOUSE_RULE_NAMES, VARIANTS, parse_rules
from trainer.i18n import N_
from trainer.i18n.said import SaidValueError, said, said_each
from trainer.rulebook.sources import RULE_SOURCES
from trainer.scenarios.facts import FACTS
from trainer.scenarios.hints import card_named, did_you_mean

SCHEMA_PATH = "docs/scenario.schema.json"
SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


def _refuse(message: str, /, **fields: Any) -> SaidValueError:
    """A validator's refusal, worded in the reader's language when shown."""
    return SaidValueError(said(message, **fields))


def _card(value: Any) -> Any:
    if isinstance(value, Character):
        return value
    if not isinstance(value, str):
        raise _refuse(N_("expected a card name, one of {cards}; found {found}"),
                      cards=", ".join(c.value for c in Character), found=repr(value))
    return card_named(value, cutoff=0.6)


def _action(value: Any) -> Any:
    if isinstance(value, Action):
        return value
    if not isinstance(value, str):
        raise _refuse(N_("expected an action name; found {found}"), found=repr(value))
    try:
        return Action.parse(value)
    except ValueError:
        raise _refuse(N_("unknown action {word}; expected one of {actions}{hint}"),
                      word=repr(value.strip()), actions=", ".join(a.label for a in Action),
                      hint=did_you_mean(value.strip(), [a.label for a in Action], 0.6)) from None


_PHASE_ALIASES = {"lose": Phase.LOSE, "over": Phase.OVER, "challenge": None}


def _phase(value: Any) -> Any:
    if isinstance(value, Phase):
        return value
    key = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    if _PHASE_ALIASES.get(key):
        return _PHASE_ALIASES[key]
    for p in Phase:
        if p.value == key:
            return p
    raise _refuse(N_("unknown phase {word}; expected one of {phases}"), word=repr(value),
                  phases=", ".join(p.value for p in Phase))


def _whole(message: str, keys: tuple[str, ...], /, **fields: Any) -> SaidValueError:
    """A whole file's refusal, pointing at the first of `keys` the file holds."""
    return SaidValueError(said(message, **fields), keys=keys)


def _rule_set_problem(value: str) -> str:
    """The engine's reason for refusing a rule set, in the current language."""
    try:
        parse_rules(value)
    except RuleSetError as e:
        return e.reason
    return ""


def _slug(value: str) -> str:
    if not re.match(SLUG, value):
        raise _refuse(N_("{word} is not a slug: use lowercase letters, digits and single "
                         "dashes, like 'double-danger'"), word=repr(value))
    return value


def _variant(value: str) -> str:
    """A rule set's compact description: a variant, house rules switched with + and -, table
    rules in brackets (``base+pay_five``, ``mcguire-inheritance``); kept as written, read by
    the engine's own parser so a file can never name rules the engine does not play."""
    try:
        parse_rules(value)
    except RuleSetError:
        raise SaidValueError(said_each(partial(_rule_set_problem, value))) from None
    return value.strip()


def _rule_source(value: str) -> str:
    if value not in RULE_SOURCES:
        raise _refuse(N_("unknown rule text {word}{hint}; expected one of {texts}"),
                      word=repr(value), hint=did_you_mean(value, list(RULE_SOURCES), 0.6),
                      texts=", ".join(RULE_SOURCES))
    return value


Card = Annotated[Character, BeforeValidator(_card)]
ActionName = Annotated[Action, BeforeValidator(_action)]
PhaseName = Annotated[Phase, BeforeValidator(_phase)]
Name = Annotated[str, Field(min_length=1, description="A player's name as given in setup.")]
Text = Annotated[str, Field(min_length=1)]


def _fact(value: Any) -> str:
    """A rule named in `trainer.scenarios.facts`: a misspelt name is an error, not a gap."""
    if not isinstance(value, str) or value not in FACTS:
        raise _refuse(N_("unknown fact {word}{hint}; expected one of {facts}"),
                      word=repr(value), hint=did_you_mean(str(value), list(FACTS), 0.6),
                      facts=", ".join(FACTS))
    return value


Fact = Annotated[str, BeforeValidator(_fact),
                 Field(description="A rule a newcomer must know, by name: "
                                   + ", ".join(FACTS) + ".")]
Facts = list[Fact]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _options_model() -> type[BaseModel]:
    """One field per `trainer.engine.rules.Options` field, so the schema can never drift from it."""
    defaults = Options()
    fields: dict[str, Any] = {}
    for name, info in Options.info().items():
        choices = tuple(info.choices)
        fields[name] = (
            Literal[choices],
            Field(default=getattr(defaults, name),
                  description=f"{info.title}. {info.question} Source: {info.source}"),
        )
    model: type[BaseModel] = create_model(
        "RuleOptions", __config__=ConfigDict(extra="forbid", frozen=True),
        __doc__="Answers to the points the rule texts leave open (trainer.engine.rules.Options). "
                "Leave out an option to keep the official default.",
        **fields,
    )
    model.__module__ = __name__
    return model


RuleOptions = _options_model()


class NextDecision(_Model):
    """Whose decision comes next, and optionally which question they face."""

    player: Name
    phase: PhaseName | None = Field(
        None, description="The phase of the decision: " + ", ".join(p.value for p in Phase))

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        return {"player": data} if isinstance(data, str) else data


class Checkpoint(_Model):
    """Facts that must hold after the step (or, under `setup`, before the first step).

    Only the keys written are checked; per-player keys check only the players listed.
    Card lists are compared as multisets (order does not matter).
    """

    coins: dict[Name, int] | None = Field(None, description="Coins per player.")
    influence: dict[Name, int] | None = Field(
        None, description="Number of face-down cards per player.")
    hidden: dict[Name, list[Card]] | None = Field(
        None, description="Face-down cards per player (any order).")
    revealed: dict[Name, list[Card]] | None = Field(
        None, description="Face-up (lost) cards per player (any order).")
    face_up: list[Card] | None = Field(
        None, description="Every face-up card on the table, all players together.")
    alive: list[Name] | None = Field(
        None, description="Exactly the players still in the game.")
    treasury: int | None = Field(None, description="Coins in the Treasury.")
    deck_size: int | None = Field(None, description="Cards in the court deck.")
    deck: list[Card] | None = Field(
        None, description="The court deck's contents (any order).")
    next: NextDecision | None = Field(
        None, description="Whose decision is next: a name, or {player, phase}.")
    legal_actions: list[ActionName] | None = Field(
        None, description="Exactly the actions the next player may choose (only when a "
                          "player is choosing an action), e.g. [coup] at 10 coins.")
    winner: Name | None = Field(None, description="The game is over and this player won.")
    tie: bool | None = Field(None, description="true: the game is over with nobody left "
                                               "(McGuire's Vengeance).")
    allegiances: dict[Name, Allegiance] | None = Field(
        None, description="Reformation: allegiance per player (Loyalist or Reformist).")
    reserve: int | None = Field(None, description="Reformation: coins on the Treasury Reserve.")
    mat_up: list[Card] | None = Field(
        None, description="McGuire: the cards flipped face up on the mat (any order).")


class RuleRef(_Model):
    """The rule that applies to a step, quoted word for word from one of the rule texts."""

    quote: Text = Field(description="The rule's words; '...' stands for left-out words.")
    source: Annotated[str, AfterValidator(_rule_source)] = Field(
        description="The rule text's file name: " + ", ".join(RULE_SOURCES))
    section: str | None = Field(None, description="The heading the quote is under.")


class WrongOption(_Model):
    """A move the learner might pick instead, and why it is worse (or not even allowed)."""

    move: Text = Field(description="A move by the learner, in the move grammar.")
    explanation: Text


class Prompt(_Model):
    """Stop before the step and ask the learner to choose; the step's own move is correct."""

    question: Text
    explanation: Text = Field(description="Why the step's move is the right choice.")
    wrong: list[WrongOption] = Field(min_length=1, description="At least one wrong option.")
    uses: Facts = Field(default_factory=list, description="The rules the right answer relies "
                        "on; each must be taught by an earlier screen of the path or by this "
                        "question's own words (see `teaches`).")


_STEP_KEYS = ("move", "illegal", "because", "narration", "rule", "tip", "draw", "replacement",
              "prompt", "checkpoint", "teaches")


class Step(_Model):
    """One line of the story: a move, the cards chance must deal, the words around it.

    Or, with `illegal` instead of `move`, moves the rules refuse at this point (and, with
    `because`, words the engine's reason must contain): the replay checks each is refused and
    the game does not move on. Why in a step: a rule often says what may *not* be done ("a
    player may not pass"), and a lesson or rule case should pin that down as firmly as a move."""

    move: Text | None = Field(
        None, description="The move, e.g. 'Ely claims Duke: tax' or 'No one challenges'. A "
                          "step may also be just this text.")
    illegal: Text | list[Text] | None = Field(
        None, description="Instead of `move`: a move (or a list of moves) the rules refuse "
                          "here, e.g. 'Ben challenges'. The game does not move on.")
    because: Text | None = Field(
        None, description="With `illegal`: words the engine's reason for refusing each move "
                          "must contain (any capitalisation), e.g. 'cannot be challenged'.")
    narration: str | None = Field(None, description="What happens, in plain words.")
    rule: RuleRef | None = None
    tip: RuleRef | None = Field(
        None, description="A strategy note this step makes concrete, quoted from its source "
                          "(e.g. the McGuire text's strategic advice).")
    draw: list[Card] | None = Field(
        None, description="The cards an exchange draws, if this step triggers one (or an "
                          "earlier step of the same turn).")
    replacement: Card | None = Field(
        None, description="The card drawn after a proven claim (shown and replaced).")
    prompt: Prompt | None = None
    checkpoint: Checkpoint | None = None
    teaches: Facts = Field(default_factory=list, description="The rules this step's words "
                           "(its question, explanation or narration) state.")

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        """Accept a bare move, and rebuild `- Maria: income` that YAML read as a mapping."""
        if isinstance(data, str):
            return {"move": data}
        if isinstance(data, dict) and "move" not in data and "illegal" not in data:
            stray = [k for k in data if k not in _STEP_KEYS]
            if len(stray) == 1 and isinstance(data[stray[0]], str):
                key = stray[0]
                rebuilt = {k: v for k, v in data.items() if k != key}
                return {"move": f"{key}: {data[key]}", **rebuilt}
        return data

    @field_validator("illegal", mode="before")
    @classmethod
    def _moves(cls, value: Any) -> Any:
        """One message for every wrong shape (pydantic would report each member of the union)."""
        if value is None or (isinstance(value, str) and value.strip()):
            return value
        if isinstance(value, list) and value and all(
                isinstance(m, str) and m.strip() for m in value):
            return value
        raise _refuse(N_("`illegal:` is a move, e.g. {example}, or a list of moves; found "
                         "{found}"), example="'Ben challenges'", found=repr(value))

    @model_validator(mode="after")
    def _move_or_illegal(self) -> Step:
        if self.move is None and self.illegal is None:
            raise _refuse(N_("a step needs `move:` (the move played) or `illegal:` (moves "
                             "the rules refuse here)"))
        if self.move is not None and self.illegal is not None:
            raise _refuse(N_("a step has `move:` (a move played) or `illegal:` (moves the "
                             "rules refuse here), not both"))
        if self.because is not None and self.illegal is None:
            raise _refuse(N_("`because:` belongs to an `illegal:` step (the words of the "
                             "engine's reason for refusing the move)"))
        if self.illegal is not None:
            extra = [k for k in ("draw", "replacement", "prompt") if getattr(self, k) is not None]
            if extra:
                raise _refuse(N_("an `illegal:` step plays no move, so it has no `{key}:`"),
                              key=extra[0])
        return self

    @property
    def illegal_moves(self) -> tuple[str, ...]:
        """The moves an `illegal:` step says the rules refuse (none for a played step)."""
        if self.illegal is None:
            return ()
        return (self.illegal,) if isinstance(self.illegal, str) else tuple(self.illegal)

    @property
    def text(self) -> str:
        """The step as the messages and the Learn page quote it: its move, or
        ``illegal: Ben challenges`` for moves the rules refuse."""
        if self.move is not None:
            return self.move
        return "illegal: " + "; ".join(self.illegal_moves)


class PlayerSetup(_Model):
    """A seat at the table, in clockwise order."""

    name: Name
    coins: int | None = Field(
        None, ge=0, description="Leave out for the rules' starting coins (2; 1 for the first "
                                "player of a two-player game).")
    hidden: list[Card] = Field(description="Face-down cards (influence). In the two-player "
                                           "draft, [] to start with the draft.")
    revealed: list[Card] = Field(default_factory=list, description="Face-up (lost) cards.")
    allegiance: Allegiance | None = Field(
        None, description="Reformation: Loyalist or Reformist. Leave out on every player to "
                          "start with the first player's choice.")


MatEvent = Literal["flip_turn_1", "coin_turn_2", "flip_turn_3", "flip_death_1", "flip_death_2"]


class Setup(_Model):
    """The position before the first step."""

    variant: Annotated[str, AfterValidator(_variant)] = Field(
        "base", description="Rule set: one of " + ", ".join(VARIANTS) + ", then any of "
        "McGuire's house rules switched on with + or off with - (" + ", ".join(HOUSE_RULE_NAMES)
        + "), e.g. base+pay_five or mcguire-inheritance. Table rules go under `options`.")
    options: RuleOptions = Field(default_factory=RuleOptions)  # type: ignore[valid-type]
    players: list[PlayerSetup] = Field(min_length=2)
    deck: list[Card] = Field(description="The court deck, top card first. Unscripted draws "
                                         "take from the top; returned cards go to the bottom.")
    first: Name | None = Field(None, description="Who takes the first turn (default: the "
                                                 "first player listed).")
    learner: Name = Field(description="Whose point of view the learner takes.")
    treasury: int | None = Field(None, ge=0, description="Default: 50 minus the players' "
                                                         "coins.")
    reserve: int = Field(0, ge=0, description="Reformation: coins on the Treasury Reserve.")
    mat: dict[MatEvent, Card | None] | None = Field(
        None, description="McGuire: the mat events still to come, each with its face-down "
                          "card (null for the coin event). Leave out for a mid-game position "
                          "with nothing left on the mat.")
    mat_up: list[Card] = Field(
        default_factory=list, description="McGuire: the cards already flipped face up on the "
                                          "mat (out of play, seen by everyone). The mat holds a "
                                          "card per flip event for the player count, face "
                                          "down under `mat` or face up here.")
    removed: list[Card] = Field(default_factory=list, description="Two-player draft: the cards "
                                                                  "already out of the game.")
    checkpoint: Checkpoint | None = Field(None, description="Checked before the first step.")


class Intro(_Model):
    """A screen before the first move: a few sentences and, optionally, cards to look at.

    Why: an overview (the five characters, say) is read once, before the learner uses it;
    it is not a move, so it is not a step."""

    text: Text = Field(description="One or two short sentences.")
    cards: list[Card] = Field(default_factory=list,
                              description="Characters to show, each with its powers.")
    teaches: Facts = Field(default_factory=list, description="The rules this screen states.")


class Practice(_Model):
    """A game lesson: from the set-up (and any steps), the learner plays freely against bots.

    Why a scripted `line`: the game is not scripted, but the lesson promises it can be won
    with what the path taught; the line is that proof (`python -m trainer check` plays it
    against the bots and fails if it does not win), and the path's time model reads it."""

    bot: Literal["honest"] = Field(
        "honest", description="How the other players play: 'honest' never bluffs, never "
                              "challenges a claim it cannot disprove, and always takes its "
                              "most likely move, so the game is the same every time.")
    goal: Text = Field(description="What the learner must do, in one sentence.")
    hint: str | None = Field(None, description="A nudge shown with the first decision.")
    line: list[Text] = Field(min_length=1, description="A winning line: the learner's moves, "
                                                      "in the move grammar.")
    uses: Facts = Field(default_factory=list, description="The rules the game relies on.")


Mode = Literal["watch", "play", "game", "rule"]


class Scenario(_Model):
    """A lesson: a position, a scripted line of play, and what the learner should see in it."""

    id: Annotated[str, AfterValidator(_slug)] = Field(
        description="A slug equal to the file name without .yaml.",
        json_schema_extra={"pattern": SLUG})
    title: Text
    summary: Text = Field(description="What the scenario teaches, in a sentence or two.")
    teaches: Facts = Field(default_factory=list, description="The rules the summary states (a "
                           "lesson shows it on its first screen).")
    order: int | None = Field(None, description="Position in the lesson list (low first).")
    tags: list[str] = Field(default_factory=list)
    mode: Mode = Field(
        "watch", description="'watch': one screen per step, the learner clicks Next and answers "
                             "the prompts. 'play': one screen per prompt; the learner makes "
                             "each move the lesson is about and the other moves play "
                             "themselves. 'game': after the steps (if any), the learner plays "
                             "on freely against bots (see `practice`). 'rule': a rule case, not a "
                             "lesson: a set-up and the checks that pin one rule down (`rule:` "
                             "quotes it); `steps` may be empty.")
    rule: RuleRef | None = Field(
        None, description="The rule the file is about, quoted word for word (required in a "
                          "rule case, where there may be no step to put it on).")
    intro: Intro | None = Field(None, description="A screen shown before the first move.")
    setup: Setup
    steps: list[Step] = Field(default_factory=list)
    practice: Practice | None = Field(None, description="The free game of a 'game' lesson.")

    # Where the scenario came from, for error messages: the file and the line of each key.
    _path: str = PrivateAttr("<scenario>")
    _lines: dict[tuple[str | int, ...], int] = PrivateAttr(default_factory=dict)

    @property
    def path(self) -> str:
        return self._path

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str]) -> list[str]:
        return [t.strip().lower() for t in tags]

    @model_validator(mode="after")
    def _mode_fits(self) -> Scenario:
        if self.mode == "game" and self.practice is None:
            raise _whole(N_("a 'game' lesson needs a `practice:` section (the bots, the goal "
                            "and a winning line)"), ("practice",))
        if self.mode != "game" and self.practice is not None:
            raise _whole(N_("`practice:` belongs to a lesson with `mode: game`, not {mode}"),
                         ("practice", "mode"), mode=repr(self.mode))
        if self.mode not in ("game", "rule") and not self.steps:
            raise _whole(N_("`steps:` needs at least one step (a file that only sets up a "
                            "position and checks it is a rule case: `mode: rule`)"),
                         ("steps", "mode"))
        if self.mode == "rule" and self.rule is None:
            raise _whole(N_("a rule case (`mode: rule`) quotes the rule it pins down: add "
                            "`rule:` with `quote:` and `source:`"),
                         ("mode", "rule", "quote", "source"))
        if self.mode == "rule" and not self.checks():
            raise _whole(N_("a rule case (`mode: rule`) needs something to check: a "
                            "`checkpoint:` (under `setup:` or on a step) or an `illegal:` step"),
                         ("mode", "checkpoint", "setup", "illegal"))
        if self.mode == "play" and not any(s.prompt is not None for s in self.steps):
            raise _whole(N_("a 'play' lesson needs at least one step with a `prompt:` (one "
                            "screen per prompt)"), ("prompt",))
        return self


    def checks(self) -> int:
        """How many things a replay checks beyond the moves being legal: checkpoints and
        moves asserted illegal (what `python -m trainer check` counts for a rule case)."""
        points = [self.setup.checkpoint, *(s.checkpoint for s in self.steps)]
        return (sum(1 for c in points if c is not None)
                + sum(len(s.illegal_moves) for s in self.steps))


def allowed_keys(loc: tuple[str | int, ...]) -> list[str] | None:
    """The keys the mapping at `loc` may hold (None if `loc` is not a mapping we know)."""
    model: Any = Scenario
    for part in loc:
        model = _unwrap(model)
        if isinstance(part, int):
            args = getattr(model, "__args__", ())
            model = args[0] if args else None
        elif isinstance(model, type) and issubclass(model, BaseModel):
            field = model.model_fields.get(part)
            model = field.annotation if field else None
        elif getattr(model, "__origin__", None) is dict:
            model = model.__args__[1]
        else:
            return None
    model = _unwrap(model)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return list(model.model_fields)
    return None


def _unwrap(tp: Any) -> Any:
    """Strip Annotated and Optional, preferring the model member of a union."""
    while True:
        if getattr(tp, "__metadata__", None) is not None:  # Annotated
            tp = tp.__origin__
            continue
        args = getattr(tp, "__args__", None)
        if args and type(None) in args:
            members = [a for a in args if a is not type(None)]
            models = [a for a in members if isinstance(a, type) and issubclass(a, BaseModel)]
            tp = (models or members)[0]
            continue
        return tp


_ENUM_DESCRIPTIONS = {
    "Character": "A character card, as printed on the card (any capitalisation is accepted).",
    "Action": "An action, as trainer.engine.cards.Action names it ('foreign aid' is accepted too).",
    "Phase": "The kind of decision pending, as trainer.engine.game.Phase names it.",
}


def scenario_json_schema() -> dict[str, Any]:
    """The JSON schema of a scenario file, including the shorthands the loader accepts."""
    schema = Scenario.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Coup Trainer scenario"
    defs = schema["$defs"]
    # Our own words, not the enums' docstrings: those vary with how the engine was built (a
    # mypyc-compiled trainer.engine.game replaces them), and the committed schema must not.
    for name, text in _ENUM_DESCRIPTIONS.items():
        rest = {k: v for k, v in defs[name].items() if k != "description"}
        defs[name] = {"description": text, **rest}
    # What the model validators add to the shapes: a step plays a move or names illegal ones,
    # and a rule case quotes its rule.
    defs["Step"]["anyOf"] = [{"required": ["move"]}, {"required": ["illegal"]}]
    schema["if"] = {"properties": {"mode": {"const": "rule"}}, "required": ["mode"]}
    schema["then"] = {"required": ["rule"]}
    step_ref = schema["properties"]["steps"]["items"]
    schema["properties"]["steps"]["items"] = {
        "anyOf": [step_ref, {"type": "string", "description": "Just the move."}]}
    nxt = defs["Checkpoint"]["properties"]["next"]
    nxt["anyOf"].insert(0, {"type": "string", "description": "A player's name."})
    return schema


def schema_text() -> str:
    return json.dumps(scenario_json_schema(), indent=2, ensure_ascii=False) + "\n"
