"""Changing any checked fact of a shipped rule case makes `trainer check` fail, at that fact.

Why: a rule case is worth shipping only if it pins its rule down. A checkpoint that would
also pass with another value, or an `illegal:` step whose move the engine refuses for some
unrelated reason, proves nothing. So for every file in scenarios/rules/ this lists every
checked fact (each value of each checkpoint, each move an `illegal:` step names, each
`because`) and makes one mutated copy per fact: a number one higher, another card, another
player or phase, an action added, an allegiance turned, the illegal move replaced by a move
that is legal there, the last word of `because` changed. `check_file` must raise
ScenarioError for the copy, and at the line of the mutated fact (so that the copy fails for
the change, not for something else the rewrite broke).

No sampling: every mutation of every file runs. With 58 files that is about 400 mutations (2
to 14 a file), each one `check_file` of a small file that replays in milliseconds: about 10 s
on one core (the copies are made with `deepcopy`, not a YAML round trip, which took a third
of the time), so leaving facts out would save little and could hide a fact that pins
nothing. An illegal move after the game has ended cannot be replaced by
a legal one (there is none); its `because` is still mutated. The unmutated rewrite of each
file must check OK first, which shows the rewrite itself changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from trainer.engine.cards import Action, Character
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import get_variant
from trainer.scenarios import ScenarioError, check_file, load_scenario, replay
from trainer.scenarios.move_text import MoveTextError, parse_move_text
from trainer.scenarios.yaml_lines import Loc, line_of, load_with_lines

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "scenarios" / "rules").glob("*.yaml"))
# The kinds of fact every run must have mutated at least once across the files.
REQUIRED_KINDS = {"coins", "influence", "hidden", "revealed", "alive", "next", "next.phase",
                  "winner", "treasury", "deck_size", "deck", "legal_actions", "face_up",
                  "allegiances", "reserve", "illegal", "because"}


@dataclass(frozen=True)
class Mutation:
    """One checked fact changed: `kind` names the fact, `loc` where the replay must fail."""

    kind: str
    loc: Loc
    data: Any

    @property
    def label(self) -> str:
        return f"{self.kind} at {'/'.join(map(str, self.loc))}"


def _get(data: Any, loc: Loc) -> Any:
    for part in loc:
        data = data[part]
    return data


def _with(data: Any, loc: Loc, value: Any) -> Any:
    """A deep copy of `data` with the value at `loc` replaced (the rest, key order included,
    as it was: the mutated file differs from the unmutated rewrite in that fact alone)."""
    changed = deepcopy(data)
    _get(changed, loc[:-1])[loc[-1]] = value
    return changed


def _other(items: list[Any], avoid: Any) -> Any:
    return next(x for x in items if x != avoid)


class Mutator:
    """Every mutation of one rule case's plain data (as `load_with_lines` reads it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data, _ = load_with_lines(path.read_text(encoding="utf-8"))
        self.scenario = load_scenario(path)
        self.variant = get_variant(self.scenario.setup.variant)
        self.names = [p["name"] for p in self.data["setup"]["players"]]
        self.cards = [str(c) for c in self.variant.cards]

    def mutations(self) -> Iterator[Mutation]:
        setup_cp = self.data["setup"].get("checkpoint")
        if setup_cp:
            yield from self._checkpoint(("setup", "checkpoint"), setup_cp)
        for i, step in enumerate(self.data.get("steps") or []):
            if not isinstance(step, dict):
                continue
            if "illegal" in step:
                yield from self._illegal(i, step)
            if step.get("checkpoint"):
                yield from self._checkpoint(("steps", i, "checkpoint"), step["checkpoint"])

    def _cards_changed(self, cards: list[str]) -> list[str]:
        if not cards:
            return [self.cards[0]]
        return [_other(self.cards, cards[0].title()), *cards[1:]]

    def _checkpoint(self, at: Loc, cp: dict[str, Any]) -> Iterator[Mutation]:
        d = self.data
        for key, value in cp.items():
            here = at + (key,)
            if key in ("coins", "influence"):
                for name, n in value.items():
                    yield Mutation(key, here + (name,), _with(d, here + (name,), n + 1))
            elif key in ("treasury", "deck_size", "reserve"):
                yield Mutation(key, here, _with(d, here, value + 1))
            elif key in ("hidden", "revealed"):
                for name, cards in value.items():
                    yield Mutation(key, here + (name,),
                                   _with(d, here + (name,), self._cards_changed(cards)))
            elif key in ("face_up", "deck", "mat_up"):
                yield Mutation(key, here, _with(d, here, self._cards_changed(value)))
            elif key == "alive":
                changed = value[:-1] if len(value) > 1 else [*value, _other(self.names, value[0])]
                yield Mutation(key, here, _with(d, here, changed))
            elif key == "next":
                player = value if isinstance(value, str) else value["player"]
                other = _other(self.names, player)
                yield Mutation(key, here, _with(d, here, other if isinstance(value, str)
                                                else {**value, "player": other}))
                if isinstance(value, dict) and "phase" in value:
                    phase = _other([str(p) for p in Phase], value["phase"])
                    yield Mutation("next.phase", here, _with(d, here, {**value, "phase": phase}))
            elif key == "legal_actions":
                spoken = {Action.parse(a) for a in value}
                extra = next((s.action for s in self.variant.actions if s.action not in spoken),
                             None)
                changed = [*value, extra.label] if extra is not None else value[:-1]
                yield Mutation(key, here, _with(d, here, changed))
            elif key == "winner":
                yield Mutation(key, here, _with(d, here, _other(self.names, value)))
            elif key == "tie":
                yield Mutation(key, here, _with(d, here, not value))
            elif key == "allegiances":
                for name, side in value.items():
                    turned = "Reformist" if side.lower() == "loyalist" else "Loyalist"
                    yield Mutation(key, here + (name,), _with(d, here + (name,), turned))
            else:
                raise AssertionError(f"{self.path.name}: no mutation for checkpoint key {key!r}")

    def _illegal(self, i: int, step: dict[str, Any]) -> Iterator[Mutation]:
        listed = isinstance(step["illegal"], list)
        moves = step["illegal"] if listed else [step["illegal"]]
        legal = self._legal_text(i)
        for j in range(len(moves)):
            loc: Loc = ("steps", i, "illegal", j) if listed else ("steps", i, "illegal")
            if legal is not None:  # after the game ends no move is legal: `because` remains
                yield Mutation("illegal", loc, _with(self.data, loc, legal))
        if "because" in step:
            words = step["because"].split()
            words[-1] = "elsewhere" if words[-1] != "elsewhere" else "nowhere"
            loc = ("steps", i, "because")
            yield Mutation("because", loc, _with(self.data, loc, " ".join(words)))

    def _legal_text(self, i: int) -> str | None:
        """A move that is legal before step `i`, written so that the grammar reads it back
        (None once the game is over)."""
        game = replay(self.scenario, i)
        if game.is_over:
            return None
        for move in game.legal_moves():
            if move.kind is MoveKind.OFFER:  # the engine words it privately, without the card
                text, written = (f"{self.names[move.player]} shows {move.character}",
                                 Move.show(move.player, move.character))
            else:
                text, written = game.describe(move), move
            try:
                phrase = parse_move_text(text, self.names, self.variant)
            except MoveTextError:
                continue
            if phrase.move == written and not phrase.infer_card:
                return text
        raise AssertionError(f"{self.path.name}: no legal move before step {i + 1} reads back")


def _rewrite(tmp: Path, path: Path, data: Any) -> tuple[Path, str]:
    """`data` written as the rule case's file (its id names it) in a folder of its own."""
    tmp.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    out = tmp / path.name
    out.write_text(text, encoding="utf-8")
    return out, text


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_every_checked_fact_of_a_rule_case_is_load_bearing(path, tmp_path):
    mutator = Mutator(path)
    same, _ = _rewrite(tmp_path / "same", path, mutator.data)
    check_file(same)  # the rewrite alone changes nothing
    mutations = list(mutator.mutations())
    assert len(mutations) >= 2, f"{path.name} checks too little to pin its rule down"
    survived = []
    for k, mutation in enumerate(mutations):
        copy, text = _rewrite(tmp_path / str(k), path, mutation.data)
        _, lines = load_with_lines(text)
        try:
            check_file(copy)
        except ScenarioError as e:
            if e.line != line_of(lines, mutation.loc):
                survived.append(f"{mutation.label} failed elsewhere: {e}")
            continue
        survived.append(f"{mutation.label} still checks OK")
    assert not survived, "\n".join(survived)


def test_the_mutations_change_every_kind_of_checked_fact():
    kinds = {m.kind for path in RULES for m in Mutator(path).mutations()}
    assert kinds >= REQUIRED_KINDS, sorted(REQUIRED_KINDS - kinds)


def test_a_mutated_card_is_another_card_of_the_variant():
    mutator = Mutator(ROOT / "scenarios" / "rules" / "exchange-draws-two.yaml")
    assert mutator._cards_changed(["Duke", "Assassin"]) == ["Assassin", "Assassin"]
    assert Character.parse(mutator._cards_changed([])[0]) in mutator.variant.cards
