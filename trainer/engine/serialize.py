"""Positions and games as plain data: a snapshot to restart from, a log to replay.

Why plain data: positions travel to files (question banks, lessons), to the browser's session
and between processes, and must read back identically whether the engine runs compiled or as
plain Python. A game is rebuilt by replaying its moves through the engine, never by setting its
fields, so a stored game can never hold a position the rules do not allow.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from trainer.engine.cards import Character
from trainer.engine.chance import Chance, ScriptedChance
from trainer.engine.game import Event, Game
from trainer.engine.rules import Options
from trainer.engine.variants import described, get_variant


def snapshot(game: Game) -> dict[str, Any]:
    """The full position between turns (hidden cards included): enough to restart from."""
    snap: dict[str, Any] = {
        "variant": described(game.variant),
        "options": game.options.as_dict(),
        "names": list(game.names),
        "hands": [list(h) for h in game.hidden],
        "revealed": [list(r) for r in game.revealed],
        "coins": list(game.coins),
        "deck": list(game.deck),
        "treasury": game.treasury,
        "first": game.actor,
    }
    snap.update(game.setup_fields())
    return snap


def from_snapshot(snap: dict[str, Any], chance: Chance | None = None) -> Game:
    """A game starting from a snapshot, every set-up rule checked."""
    mat = snap.get("mat")
    return Game(
        names=snap["names"],
        hands=[[Character(c) for c in h] for h in snap["hands"]],
        revealed=[[Character(c) for c in r] for r in snap["revealed"]],
        coins=snap["coins"],
        deck=[Character(c) for c in snap["deck"]],
        first=snap["first"],
        variant=get_variant(snap["variant"]),
        options=Options().with_(**snap["options"]),
        chance=chance,
        treasury=snap["treasury"],
        offers=[[Character(c) for c in o] for o in snap.get("offers") or []],
        removed=[Character(c) for c in snap.get("removed") or []],
        allegiances=snap.get("allegiances"),
        reserve=snap.get("reserve", 0),
        mat=[(e, Character(c) if c is not None else None) for e, c in mat] if mat else None,
        mat_up=[Character(c) for c in snap.get("mat_up") or []],
        mat_clock=_clock(snap.get("mat_clock")),
    )



def _clock(value: Any) -> tuple[int, int, int] | None:
    if not value:
        return None
    first, rounds, deaths = (int(x) for x in value)
    return first, rounds, deaths


def replay(events: Iterable[Event]) -> Game:
    """Rebuild a game from its complete log: the deal, every move and every draw."""
    events = list(events)
    setup = next(e for e in events if e.kind == "setup")
    draws = [e.data["cards"] for e in events if e.kind == "draw"]
    picks = [e.data["value"] for e in events if e.kind == "pick"]
    game = from_snapshot(setup.data, ScriptedChance(draws, picks))
    for e in events:
        if e.kind == "move":
            game.apply(e.data["move"])
    return game


def setup_snapshot(game: Game, start: tuple[Any, ...]) -> dict[str, Any]:
    """The log's "setup" entry as a snapshot: play records the deal as a bare tuple (cheap in
    the inner loop) and it becomes plain data only when someone reads the log."""
    hands, revealed, coins, deck, treasury, first, extra = start
    snap = {
        "variant": described(game.variant),
        "options": game.options.as_dict(),
        "names": list(game.names),
        "hands": [list(h) for h in hands],
        "revealed": [list(r) for r in revealed],
        "coins": list(coins),
        "deck": list(deck),
        "treasury": treasury,
        "first": first,
    }
    snap.update(extra)
    return snap
