"""Reading a scenario file: YAML with line numbers, the schema, and a static check of names,
moves and prompts before anything is replayed.

Every problem is a `ScenarioError` whose message starts with ``file:line:`` and says what to
write instead, the way a teacher would fix it.
"""

from __future__ import annotations

import difflib
import errno
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from trainer.engine.rules import Options, Variant
from trainer.engine.variants import VARIANTS, parse_rules, title_words
from trainer.i18n import N_
from trainer.i18n.fields import field_said, validator_reason
from trainer.i18n.said import SaidValueError
from trainer.scenarios.errors import Said, ScenarioError, error_at, said
from trainer.scenarios.move_text import MovePhrase, MoveTextError, parse_move_text
from trainer.scenarios.schema import Checkpoint, Scenario, allowed_keys
from trainer.scenarios.yaml_lines import (
    MAX_BYTES,
    Loc,
    YamlSyntaxError,
    decode_trouble,
    line_of,
    load_with_lines,
    too_big,
)

# The operating system's reasons a teacher meets, in our words (its own are English only).
_OS_REASONS = {
    errno.ENOENT: N_("there is no such file"),
    errno.EACCES: N_("the server may not read it (permission denied)"),
    errno.EPERM: N_("the server may not read it (permission denied)"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENAMETOOLONG: N_("its name is too long"),
}


def os_reason(e: OSError) -> Said:
    """Why a file could not be read, in the reader's words where we know the reason."""
    known = _OS_REASONS.get(e.errno or 0)
    return said(known) if known else Said(str(e.strerror or e), catalogued=False)


def load_scenario(path: str | Path) -> Scenario:
    """Read, validate and statically check one scenario file (it is not replayed here)."""
    name = str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_BYTES:  # before reading: a teacher's folder may hold anything
            raise ScenarioError(too_big(size), path=name, line=1)
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(said(N_("cannot read the file: {reason}"), reason=os_reason(e)),
                            path=name) from None
    except UnicodeDecodeError as e:
        raise ScenarioError(said(N_("the file is not UTF-8 text ({reason})"),
                                 reason=decode_trouble(e)),
                            path=name) from None
    scenario = parse_scenario(text, path=name)
    stem = Path(path).stem
    if scenario.id != stem:
        raise error_at(scenario, ("id",), said(N_("the id {id} must match the file name {stem} "
                                                  "(so every lesson has its own id)"),
                                               id=repr(scenario.id), stem=repr(stem)))
    return scenario


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    """Validate scenario text; `path` only labels error messages."""
    try:
        data, lines = load_with_lines(text)
    except YamlSyntaxError as e:
        raise ScenarioError(e.message, path=path, line=e.line) from None
    if not isinstance(data, dict):
        raise ScenarioError(
            said(N_("a scenario file is a mapping with the keys id, title, summary, setup and "
                    "steps")), path=path, line=1)
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as e:
        raise _schema_error(e, data, lines, path) from None
    scenario._path = path
    scenario._lines = lines
    compile_plan(scenario)  # names, moves and prompts make sense before any replay
    return scenario


def load_scenarios(directory: str | Path = "scenarios") -> list[Scenario]:
    """Every scenario in `directory`, ordered by `order` (unset last), then title."""
    found = [load_scenario(p) for p in sorted(Path(directory).glob("*.yaml"))]
    return sorted(found, key=lambda s: (s.order is None, s.order or 0, s.title))


def _schema_error(exc: ValidationError, data: Any, lines: dict[Loc, int],
                  path: str) -> ScenarioError:
    """The first problem of a pydantic error, said the way a teacher would fix it.

    An unknown key comes first, at its own line: a typo in a required key (``titel:``) also
    makes the key missing, and "missing key 'title'" at the parent's line hides the typo. Then
    the other problems by line, and missing keys last (they have no line of their own). A
    missing key that an unknown key beside it is a typo of is the same problem, not another.
    """
    errors = sorted(exc.errors(include_url=False), key=lambda e: (
        0 if e["type"] == "extra_forbidden" else 2 if e["type"] == "missing" else 1,
        line_of(lines, e["loc"])))
    err = errors[0]
    loc: Loc = tuple(err["loc"])
    kind = err["type"]
    found = err.get("input")
    if kind == "extra_forbidden":
        where, key = loc[:-1], str(loc[-1])
        allowed = allowed_keys(where) or []
        missing = [str(e["loc"][-1]) for e in errors
                   if e["type"] == "missing" and tuple(e["loc"][:-1]) == where]
        meant = _did_you_mean(key, missing)
        if meant:  # the typo explains that missing key: one problem, not two
            errors = [e for e in errors if not (
                e["type"] == "missing" and tuple(e["loc"]) == (*where, _close_word(key, missing)))]
        near = _close_word(key, missing) if meant else _close_word(key, allowed)
        message: Said = (
            said(N_("unknown key {key} (did you mean {near}?); allowed keys: {keys}"),
                 key=repr(key), near=repr(near), keys=", ".join(allowed)) if near else
            said(N_("unknown key {key}; allowed keys: {keys}"), key=repr(key),
                 keys=", ".join(allowed)))
    elif kind == "missing":
        where = loc[:-1]
        here = allowed_keys(where)
        message = (said(N_("missing key {key} (keys here: {keys})"), key=repr(loc[-1]),
                        keys=", ".join(here)) if here else
                   said(N_("missing key {key}"), key=repr(loc[-1])))
    else:
        where = loc
        if kind in ("model_type", "dict_type", "model_attributes_type"):
            keys = allowed_keys(loc)
            message = (said(N_("expected a mapping (key: value lines) with keys {keys}, found "
                               "{found}"), keys=", ".join(keys), found=repr(found)) if keys else
                       said(N_("expected a mapping (key: value lines), found {found}"),
                            found=repr(found)))
        elif kind == "value_error":
            message = validator_reason(err)
            if not loc:  # the whole file: point at the first key the validator names
                error = (err.get("ctx") or {}).get("error")
                named = error.keys if isinstance(error, SaidValueError) else ()
                loc = next(((k,) for k in named if (k,) in lines), loc)
        else:
            message = (said(N_("{problem} (found {found})"), problem=field_said(err),
                            found=repr(found)) if "input" in err else field_said(err))
    step = text = None
    if len(where) >= 2 and where[0] == "steps" and isinstance(where[1], int):
        step = where[1] + 1
        text = _raw_move(data, where[1])
        where = where[2:]
    label = _where(where, data)
    if len(errors) > 1:
        message = said(N_("{problem} (and {n} more problem(s) in this file)"),
                       problem=message, n=len(errors) - 1)
    return ScenarioError(said(N_("{place}: {problem}"), place=label, problem=message)
                         if label else message, path=path, line=line_of(lines, loc), step=step,
                         step_text=text)


def _raw_move(data: Any, index: int) -> str | None:
    try:
        item = data["steps"][index]
    except (KeyError, IndexError, TypeError):
        return None
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        move = item.get("move")
        if isinstance(move, str):
            return move
        illegal = item.get("illegal")
        if isinstance(illegal, str):
            return f"illegal: {illegal}"
        if isinstance(illegal, list) and illegal and all(isinstance(m, str) for m in illegal):
            return "illegal: " + "; ".join(illegal)
        return None
    return None


# The item of a list as a place says it: "player 2", "player 2 (Cris)" (the key is the file's).
_ITEM_NAMES = {"players": (N_("player {n}"), N_("player {n} ({name})")),
               "wrong": (N_("wrong option {n}"), N_("wrong option {n} ({name})")),
               "steps": (N_("step {n}"), N_("step {n} ({name})"))}


def _where(loc: Loc, data: Any) -> tuple[Said, ...]:
    """A location as words, worded where it is shown: ``setup > player 2 (Cris) > hidden >
    item 3`` (the keys are the file's own and stay as written)."""
    parts: list[Said] = []
    keys: list[str] = []
    node = data
    for part in loc:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
        if part == "[key]":  # pydantic's place for a mapping's key itself (a name)
            parts.append(said(N_("the name")))
            keys.append("")
            continue
        if not isinstance(part, int):
            parts.append(Said(str(part) or "''", catalogued=False))  # an empty key, visible
            keys.append(str(part))
            continue
        nouns = _ITEM_NAMES.get(keys[-1]) if keys else None
        if nouns is None:
            parts.append(said(N_("item {n}"), n=part + 1))
            keys.append("")
            continue
        if isinstance(node, dict) and isinstance(node.get("name"), str):
            parts[-1] = said(nouns[1], n=part + 1, name=node["name"])
        else:
            parts[-1] = said(nouns[0], n=part + 1)
        keys[-1] = ""
    return tuple(parts)


def _close_word(word: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = _close_word(word, choices)
    return f" (did you mean {close!r}?)" if close else ""


@dataclass(frozen=True)
class _Plan:
    """What the file means for the engine: seats, the variant and every move parsed."""

    names: tuple[str, ...]
    first: int
    learner: int
    variant: Variant
    options: Options
    phrases: tuple[MovePhrase | None, ...]  # None for an `illegal:` step
    wrong: dict[int, tuple[MovePhrase, ...]]
    illegal: dict[int, tuple[MovePhrase, ...]]


def compile_plan(scenario: Scenario) -> _Plan:
    setup = scenario.setup
    names = tuple(p.name for p in setup.players)
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n.lower() in seen:
            raise error_at(scenario, ("setup", "players", i, "name"),
                           said(N_("setup: two players are called {name}; names must be "
                                   "different"), name=repr(n)))
        seen[n.lower()] = i

    def seat(name: str, loc: Loc, what: str) -> int:
        s = seen.get(name.strip().lower())
        if s is None:
            near = _close_word(name, names)
            raise error_at(scenario, loc, said(
                N_("{what}: no player named {name} (did you mean {near}?); the players are "
                   "{players}"), what=what, name=repr(name), near=repr(near),
                players=", ".join(names)) if near else said(
                N_("{what}: no player named {name}; the players are {players}"), what=what,
                name=repr(name), players=", ".join(names)))
        return s

    first = seat(setup.first, ("setup", "first"), "setup: first") if setup.first else 0
    learner = seat(setup.learner, ("setup", "learner"), "setup: learner")
    described = parse_rules(setup.variant)
    variant = described.variant
    chosen: BaseModel = setup.options
    written = {name: getattr(chosen, name) for name in chosen.model_fields_set}
    for name, value in described.options.changed().items():
        if name in written and written[name] != value:
            raise error_at(scenario, ("setup", "options", name),
                           said(N_("setup > options: {name} is {here} here but {there} in the "
                                   "variant's description {rules}; give it once"), name=name,
                                here=repr(written[name]), there=repr(value),
                                rules=repr(setup.variant)))
    rule_options = described.options.with_(**written)
    relevant = rule_options.relevant(variant)
    for name in described.options.changed():
        if name not in relevant:
            raise error_at(scenario, ("setup", "variant"),
                           said(N_("setup > variant: {problem}"),
                                problem=option_does_not_apply(name, variant)))
    for name in sorted(chosen.model_fields_set, key=list(Options.info()).index):
        if name not in relevant:
            raise error_at(scenario, ("setup", "options", name),
                           said(N_("setup > options: {problem}"),
                                problem=option_does_not_apply(name, variant)))
    if setup.checkpoint:
        _check_names(setup.checkpoint, ("setup", "checkpoint"), seat)
    phrases: list[MovePhrase | None] = []
    wrong: dict[int, tuple[MovePhrase, ...]] = {}
    illegal: dict[int, tuple[MovePhrase, ...]] = {}
    for i, step in enumerate(scenario.steps):
        if step.checkpoint:
            _check_names(step.checkpoint, ("steps", i, "checkpoint"), seat)
        if step.move is None:
            phrases.append(None)
            illegal[i] = _illegal_phrases(scenario, i, names, variant)
            continue
        phrase = _parse(scenario, step.move, names, variant, ("steps", i, "move"))
        phrases.append(phrase)
        if step.prompt:
            if phrase.move is None or phrase.move.player != learner:
                raise error_at(scenario, ("steps", i, "prompt"), said(
                    N_("a prompt asks the learner ({learner}) to choose this step's move, but "
                       "the move is nobody in particular's; put the prompt on a step where "
                       "{learner} makes a single move"), learner=names[learner])
                    if phrase.move is None else said(
                    N_("a prompt asks the learner ({learner}) to choose this step's move, but "
                       "the move is {who}'s; put the prompt on a step where {learner} makes a "
                       "single move"), learner=names[learner], who=names[phrase.move.player]))
            parsed: list[MovePhrase] = []
            for j, opt in enumerate(step.prompt.wrong):
                loc = ("steps", i, "prompt", "wrong", j, "move")
                p = _parse(scenario, opt.move, names, variant, loc)
                if p.move is None or p.move.player != learner:
                    raise error_at(scenario, loc, said(
                        N_("prompt: the wrong option {move} must be a single move by the "
                           "learner, {learner}"), move=repr(opt.move), learner=names[learner]))
                if p.move == phrase.move and not p.infer_card:
                    raise error_at(scenario, loc, said(
                        N_("prompt: the wrong option {move} is the step's own (correct) move"),
                        move=repr(opt.move)))
                if any(p.move == q.move for q in parsed):
                    raise error_at(scenario, loc, said(
                        N_("prompt: the wrong option {move} is listed twice"),
                        move=repr(opt.move)))
                parsed.append(p)
            wrong[i] = tuple(parsed)
    return _Plan(names, first, learner, variant, rule_options, tuple(phrases), wrong, illegal)


def _illegal_phrases(scenario: Scenario, i: int, names: Sequence[str],
                     variant: Variant) -> tuple[MovePhrase, ...]:
    """The moves an `illegal:` step names, each one player's single move."""
    step = scenario.steps[i]
    listed = not isinstance(step.illegal, str)
    out: list[MovePhrase] = []
    for j, text in enumerate(step.illegal_moves):
        loc: Loc = ("steps", i, "illegal", j) if listed else ("steps", i, "illegal")
        phrase = _parse(scenario, text, names, variant, loc)
        if phrase.move is None:
            raise error_at(scenario, loc, said(
                N_("illegal: {move} is a whole window declining; an illegal move is one "
                   "player's move, e.g. {example}"), move=repr(text),
                example="'Ben challenges'"))
        if any(phrase.move == q.move for q in out):
            raise error_at(scenario, loc, said(N_("illegal: {move} is listed twice"),
                                               move=repr(text)))
        out.append(phrase)
    return tuple(out)


def option_does_not_apply(name: str, variant: Variant) -> Said:
    """Why a table-rule option means nothing in `variant`, and where it does mean something.

    Why an error: an option that cannot change the game (an Examine rule in a game without the
    Inquisitor) is a teacher's mistake, perhaps the wrong `variant:`; even at its default value
    it tells the reader something false about the lesson."""
    feature = Options.info()[name].feature
    applies = [v.name for v in VARIANTS.values() if v.has(feature)]
    if feature == "examine":
        why = said(N_("it has no Examine action"))
    elif feature == "allegiances":
        why = said(N_("it has no allegiances (Loyalist and Reformist)"))
    elif feature == "two_player_rule" and variant.first_coins is not None:
        why = said(N_("its own rule gives the first player {n} coins at any player count"),
                   n=variant.first_coins)
    elif feature == "two_player_rule" and variant.draft:
        why = said(N_("the draft always gives the starting player {n} coin"),
                   n=variant.two_player_first_coins)
    elif feature == "two_player_rule":
        why = said(N_("it is not played by two players"))
    else:
        why = said(N_("it has no {feature}"), feature=feature)
    return said(N_("`{name}` does not apply to {rules}: {why}; it applies to: {variants} "
                   "(leave it out here)"), name=name, rules=partial(title_words, variant),
                why=why, variants=", ".join(applies))


def _parse(scenario: Scenario, text: str, names: Sequence[str], variant: Variant,
           loc: Loc) -> MovePhrase:
    try:
        return parse_move_text(text, names, variant)
    except MoveTextError as e:
        raise error_at(scenario, loc, said(N_("cannot read the move: {problem}"),
                                           problem=e.said)) from None


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
