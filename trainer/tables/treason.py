"""Treason's game dump read as people's claims: the one public record of many human games.

Treason (treason.thebrown.net, github.com/octachrome/treason) is a web version of Coup whose
recorded games, about 600,000 of them, its authors published (`db/DATABASE.md` there): a JSON
array of games, each with the players' ids (an AI player's id is "ai") and its events: every
player's roles and cash at each start of turn and at the end, each action with its target,
each block, each challenge's outcome, and players leaving. `games.json.gz` packs a game's
events into a base64 string (`game-tracker.js`, ported faithfully here); `games_full.json.gz`
has them decoded as JSON objects. Both are read, gzipped or not, one game at a time from the
stream, so the 8 GB decoded file never has to fit in memory.

Each game where every seat is a person is replayed through the engine and turned into the
claim records of a table's games (`trainer.tables.claims`), so the same report says how the
bot's bluff estimates did on Treason's players.

How a game becomes engine moves:

- The rules: "original" is the base game and "inquisitors" the Inquisitor variant, both with
  Treason's readings of the open points (`TREASON_RULES`): an unlimited Treasury and, for the
  Inquisitor's look, a card picked at random. Treason lets the target of a steal or an
  assassination block even after a failed challenge (its FINAL_ACTION_RESPONSE, since 2015),
  which is the engine's default.
- The start: every player's two roles and cash at the first START_OF_TURN, the player whose
  turn it is first, and the rest of the deck (the court for that many players less the cards
  dealt) as the court deck.
- Windows: the engine asks the players one at a time (clockwise from the actor), Treason all
  at once. A recorded challenge is the challenger's "challenge" and every player asked before
  them passed; a recorded block likewise; a window with nothing recorded is passed by all.
- Cards: which card a player lost is read from the next state's `revealed` flags, what an
  exchange kept from the next state's hand. Every draw (a proven card's replacement, an
  exchange, the Inquisitor's look and swap) is scripted from the next state's hands; the part
  of a draw no record shows (the cards an exchange put back) is a random card of the deck,
  seeded by the game's id. A second replay scripts exactly those draws with the engine's
  `ScriptedChance`, and that replay makes the claim records.
- Every START_OF_TURN and the GAME_OVER are checked against the replay: whose turn, each
  player's face-down and face-up cards, and the cash of every player still in.

Where the record stops saying what happened, the replay stops there and keeps the claims made
before (`Replay.stopped` says why): a player still in the game leaving (the engine has no such
move; Treason turns their cards face up), a foreign aid blocked by a player Treason did not
record (its bug: `blockingPlayer` -1), and an assassin's coins kept after a successful
challenge (Treason's rule before June 2017; the engine gives them back). An interrogation
whose target kept both (different) cards does not say which card the Inquisitor saw, so that
player's later decisions are left out (`Replay.until`). A player who is already out leaving
changes nothing and is passed over.

Everything else that cannot be replayed (an unknown role or action, a malformed field, a move
the engine refuses, a state that differs from the replay) makes the game a `Skipped` record
naming the game id, the event number and the field, never an exception out of the reader.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import io
import json
import random
import re
import time
import zlib
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, TypeGuard, cast

from trainer.engine.cards import Action, Character, proves
from trainer.engine.chance import ScriptedChance
from trainer.engine.errors import ChanceError, CoupError
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move
from trainer.engine.variants import parse_rules
from trainer.tables.claims import ClaimRecord, claim_records

SOURCE = "treason"
# Treason's readings of the rule texts' open points (`trainer.engine.rules.Options`).
TREASON_RULES: dict[str, str] = {
    "original": "base(finite_treasury=no)",
    "inquisitors": "inquisitor(finite_treasury=no,examine_pick=random)",
}
ROLES: dict[str, Character] = {
    "duke": Character.DUKE, "captain": Character.CAPTAIN, "assassin": Character.ASSASSIN,
    "ambassador": Character.AMBASSADOR, "contessa": Character.CONTESSA,
    "inquisitor": Character.INQUISITOR,
}
ACTIONS: dict[str, Action] = {
    "income": Action.INCOME, "foreign-aid": Action.FOREIGN_AID, "coup": Action.COUP,
    "tax": Action.TAX, "assassinate": Action.ASSASSINATE, "steal": Action.STEAL,
    "exchange": Action.EXCHANGE, "interrogate": Action.EXAMINE,
}
TARGETED = frozenset({Action.COUP, Action.ASSASSINATE, Action.STEAL, Action.EXAMINE})
# game-tracker.js's event type codes.
EVENT_TYPES: dict[int, str] = {
    1: "START_OF_TURN", 2: "ACTION", 3: "CHALLENGE_SUCCESS", 4: "CHALLENGE_FAIL", 5: "BLOCK",
    6: "PLAYER_LEFT", 7: "GAME_OVER",
}
STATES = ("START_OF_TURN", "GAME_OVER")
CHALLENGES = ("CHALLENGE_SUCCESS", "CHALLENGE_FAIL")
AI = "ai"
# The longest a single game's JSON may be before the reader calls it broken rather than
# waiting for more of it (a decoded game is some 13 KB).
MAX_RECORD = 64 << 20
_CHUNK = 1 << 20
# A line that starts a value of the top-level array: where reading resumes after a broken one.
_RESUME = re.compile(r"\n[ \t\r]*[{\]n]")
Progress = Callable[[int, int], object]  # (bytes read, file size)


class BadRecord(ValueError):
    """A game that cannot be replayed, with where: the game, the event and the field."""

    def __init__(self, reason: str, *, game: str | None = None, event: int | None = None,
                 field: str | None = None) -> None:
        self.reason = reason
        self.game = game
        self.event = event
        self.field = field
        where = [f"game {game}" if game is not None else "a game without an id"]
        if event is not None:
            where.append(f"event {event}")
        if field is not None:
            where.append(field)
        super().__init__(f"{', '.join(where)}: {reason}")


# --------------------------------------------------------------------------- the records


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's state at a START_OF_TURN or GAME_OVER: cash and (role, revealed) cards."""

    cash: int
    cards: tuple[tuple[Character, bool], ...]

    @property
    def hidden(self) -> list[Character]:
        return sorted(c for c, up in self.cards if not up)

    @property
    def revealed(self) -> list[Character]:
        return sorted(c for c, up in self.cards if up)


@dataclass(frozen=True, slots=True)
class Event:
    """One event, its fields checked: `number` is its index in the game's events."""

    number: int
    type: str
    whose_turn: int | None = None
    states: tuple[Seat, ...] = ()
    action: Action | None = None
    target: int | None = None
    player: int | None = None  # who blocked (-1: not recorded) or left
    role: Character | None = None  # the blocking role
    challenger: int | None = None
    challenged: int | None = None


@dataclass(frozen=True)
class TreasonGame:
    """One game of the dump where every seat is a person, its events read and checked."""

    number: int  # its place in the file, from 1
    game_id: str
    game_type: str
    players: int
    events: tuple[Event, ...]
    packed: bool = False  # read from `games.json.gz`'s base64 events

    @property
    def rules(self) -> str:
        return TREASON_RULES[self.game_type]


@dataclass(frozen=True)
class Skipped:
    """A game left out, and why: `kind` "ai" for a game with an AI seat, "bad" for one that
    cannot be read or replayed."""

    number: int
    game_id: str | None
    kind: Literal["ai", "bad"]
    reason: str


# --------------------------------------------------------------------------- reading


def read_games(path: str | Path, *, limit: int | None = None,
               progress: Progress | None = None) -> Iterator[TreasonGame | Skipped]:
    """The games of a dump file (`.json` or gzipped, decoded or packed events), one at a time
    and in order: each human-only game read and checked, every other one a `Skipped` saying
    why. `limit`: at most this many games are read. `progress` is told the bytes read so far
    (of the file as stored) and the file's size. Treason's closing `null` is no game."""
    source = Path(path)
    size = source.stat().st_size
    number = 0
    with source.open("rb") as raw:
        text = _text(raw)
        for value in _values(text, lambda: progress(raw.tell(), size) if progress else None):
            if value is None:
                continue
            if limit is not None and number >= limit:
                return
            number += 1
            if isinstance(value, _Broken):
                yield Skipped(number, None, "bad", value.reason)
                continue
            yield read_game(value, number)
        if progress is not None:
            progress(size, size)


def read_game(value: Any, number: int = 1) -> TreasonGame | Skipped:
    """One game of the dump (a decoded JSON value): the game, or why it is skipped."""
    game_id = None
    try:
        if not isinstance(value, dict):
            raise BadRecord(f"a game is a JSON object, not {_kind(value)}")
        raw_id = value.get("gameId", value.get("_id"))
        if not isinstance(raw_id, str | int) or isinstance(raw_id, bool) or raw_id == "":
            raise BadRecord("the game has no id", field="gameId")
        game_id = str(raw_id)
        ai = _ai_seat(value, game_id)
        if ai is not None:
            return Skipped(number, game_id, "ai", ai)
        game_type = value.get("gameType")
        if not isinstance(game_type, str) or game_type not in TREASON_RULES:
            raise BadRecord(f"gameType {game_type!r} is not one this reader replays (its rules: "
                            f"{', '.join(TREASON_RULES)})", game=game_id, field="gameType")
        players = value.get("playerCount", value.get("players"))
        if not _is_int(players) or not 2 <= players <= 10:
            raise BadRecord(f"the player count {players!r} is not a number from 2 to 10",
                            game=game_id, field="playerCount")
        events = value.get("events")
        packed = isinstance(events, str)
        if packed:
            assert isinstance(events, str)
            events = unpack(_base64(events, game_id), players, game_type, game_id=game_id)
        if not isinstance(events, list) or not events:
            raise BadRecord("no events", game=game_id, field="events")
        parsed = tuple(_event(e, k, players, game_id) for k, e in enumerate(events))
        return TreasonGame(number, game_id, game_type, players, parsed, packed)
    except BadRecord as e:
        if e.game is None:
            e = BadRecord(e.reason, game=game_id or f"number {number} of the file",
                          event=e.event, field=e.field)
        return Skipped(number, game_id, "bad", str(e))
    except Exception as e:  # a record must never stop the reading of the rest
        where = f"game {game_id}" if game_id is not None else f"game number {number}"
        return Skipped(number, game_id, "bad",
                       f"{where}: cannot be read ({type(e).__name__}: {e})")


def _ai_seat(value: dict[str, Any], game_id: str) -> str | None:
    """Why the game has an AI seat, or None when every seat is a person."""
    ids = value.get("playerIds")
    if isinstance(ids, list):
        seats = [k for k, i in enumerate(ids) if i == AI]
        if seats:
            return f"game {game_id}: player {seats[0]} is an AI player (playerIds)"
        return None
    rank = value.get("playerRank")
    humans, players = value.get("humanPlayers"), value.get("players")
    if isinstance(rank, list) and AI in rank:
        return f"game {game_id}: an AI player took part (playerRank)"
    if _is_int(humans) and _is_int(players) and humans < players:
        return f"game {game_id}: {players - humans} of {players} players were AI (humanPlayers)"
    if value.get("onlyHumans") is False:
        return f"game {game_id}: an AI player took part (onlyHumans)"
    if "playerIds" in value or not isinstance(rank, list):
        raise BadRecord("playerIds is missing, so people cannot be told from AI players",
                        game=game_id, field="playerIds")
    return None


def _event(e: Any, number: int, n: int, game_id: str) -> Event:
    """One event, its fields checked against the game's player count."""

    def bad(reason: str, name: str) -> BadRecord:
        return BadRecord(reason, game=game_id, event=number, field=name)

    if not isinstance(e, dict):
        raise bad(f"an event is a JSON object, not {_kind(e)}", "events")
    raw = e.get("type")
    kind = EVENT_TYPES.get(raw) if _is_int(raw) else raw
    if not isinstance(kind, str) or kind not in EVENT_TYPES.values():
        raise bad(f"unknown event type {raw!r}", "type")

    def seat(name: str, allow_unknown: bool = False) -> int:
        value = e.get(name)
        if allow_unknown and value == -1:
            return -1
        if not _is_int(value) or not 0 <= value < n:
            raise bad(f"{value!r} is not a player of this {n}-player game", name)
        return int(value)

    if kind in STATES:
        states = e.get("playerStates")
        if not isinstance(states, list) or len(states) != n:
            count = len(states) if isinstance(states, list) else _kind(states)
            raise bad(f"expected one state per player ({n}), found {count}", "playerStates")
        seats = tuple(_seat(s, k, bad) for k, s in enumerate(states))
        whose = seat("whoseTurn") if kind == "START_OF_TURN" else None
        return Event(number, kind, whose_turn=whose, states=seats)
    if kind == "ACTION":
        name = e.get("action")
        action = ACTIONS.get(name) if isinstance(name, str) else None
        if action is None:
            raise bad(f"unknown action {name!r} (Treason's: {', '.join(ACTIONS)})", "action")
        target = seat("target") if action in TARGETED else None
        return Event(number, kind, action=action, target=target)
    if kind == "BLOCK":
        player = seat("blockingPlayer", allow_unknown=True)
        return Event(number, kind, player=player,
                     role=_role(e.get("blockingRole"), bad, "blockingRole"))
    if kind in CHALLENGES:
        return Event(number, kind, challenger=seat("challenger"),
                     challenged=seat("challenged"))
    return Event(number, kind, player=seat("player"))


def _seat(s: Any, k: int, bad: Callable[[str, str], BadRecord]) -> Seat:
    where = f"playerStates[{k}]"
    if not isinstance(s, dict):
        raise bad(f"a player's state is a JSON object, not {_kind(s)}", where)
    cash = s.get("cash")
    if not _is_int(cash) or cash < 0:
        raise bad(f"cash {cash!r} is not a number of coins", f"{where}.cash")
    influence = s.get("influence")
    if not isinstance(influence, list) or len(influence) != 2:
        raise bad("expected two influences", f"{where}.influence")
    cards = []
    for j, card in enumerate(influence):
        at = f"{where}.influence[{j}]"
        if not isinstance(card, dict) or not isinstance(card.get("revealed"), bool):
            raise bad("an influence is {role, revealed}", at)
        cards.append((_role(card.get("role"), bad, f"{at}.role"), bool(card["revealed"])))
    return Seat(int(cash), tuple(cards))


def _role(name: Any, bad: Callable[[str, str], BadRecord], where: str) -> Character:
    role = ROLES.get(name) if isinstance(name, str) else None
    if role is None:
        raise bad(f"unknown role {name!r} (Treason's: {', '.join(ROLES)})", where)
    return role


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _kind(x: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", type(None): "null",
            bool: "a boolean"}.get(type(x), "a number")


def _base64(text: str, game_id: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as e:
        raise BadRecord(f"the packed events are not base64 ({e})", game=game_id,
                        field="events") from None


# --------------------------------------------------------------------------- the JSON stream


@dataclass(frozen=True)
class _Broken:
    """A value of the array that is not valid JSON."""

    reason: str


def _text(raw: IO[bytes]) -> IO[str]:
    """The file as text, through gzip when it starts with gzip's magic number."""
    head = raw.peek(2)[:2] if isinstance(raw, io.BufferedReader) else b""
    binary = cast(IO[bytes], gzip.GzipFile(fileobj=raw)) if head == b"\x1f\x8b" else raw
    return io.TextIOWrapper(binary, encoding="utf-8", errors="replace")


def _values(stream: IO[str], tick: Callable[[], object] = lambda: None,
            chunk: int = _CHUNK) -> Iterator[Any]:
    """The values of a top-level JSON array (or of values one after another, as JSON Lines),
    decoded one at a time with `json.JSONDecoder.raw_decode` over chunks of the stream. A value
    that is not valid JSON is a `_Broken` and reading resumes at the next line that starts a
    value; a file cut short ends with one."""
    decoder = json.JSONDecoder()
    buf, pos, eof = "", 0, False

    def fill() -> bool:
        nonlocal buf, pos, eof
        if eof:
            return False
        data = stream.read(chunk)
        tick()
        if not data:
            eof = True
            return False
        buf, pos = buf[pos:] + data, 0
        return True

    def skip(chars: str) -> bool:
        """Move past `chars`; False at the end of the file."""
        nonlocal pos
        while True:
            while pos < len(buf) and buf[pos] in chars:
                pos += 1
            if pos < len(buf):
                return True
            if not fill():
                return False

    if not skip(" \t\r\n\ufeff"):
        return
    array = buf[pos] == "["
    if array:
        pos += 1
    while skip(" \t\r\n,"):
        if array and buf[pos] == "]":
            return
        try:
            value, end = decoder.raw_decode(buf, pos)
        except json.JSONDecodeError as e:
            if not eof and len(buf) - pos < MAX_RECORD and fill():
                continue  # perhaps only cut off by the chunk: read on and try again
            yield _Broken(f"not valid JSON ({e.msg})")
            at = pos + 1
            while True:  # resume at the next line that starts a value
                found = _RESUME.search(buf, at)
                if found:
                    pos = found.start() + 1
                    break
                pos = max(pos, len(buf) - 1)  # keep the last character: it may be the "\n"
                if not fill():
                    return
                at = 0
            continue
        if end == len(buf) and not eof and not isinstance(value, dict | list) and fill():
            continue  # a number or word at the very end may go on in the next chunk
        pos = end
        if pos > chunk:
            buf, pos = buf[pos:], 0
        yield value
    if array:
        yield _Broken("the file ends before the array's closing ]")


# --------------------------------------------------------------------------- packed events
# A port of game-tracker.js (GameTracker.prototype.unpack, readPlayerStates,
# looksLikePlayerStateEvent, decodeActionEvent, validateActionEvent, decodeInfluence,
# decodeRole and removeObservers), kept close to the original line by line so that a game
# reads here exactly as Treason's own extract-games.js reads it.


class _PackError(ValueError):
    pass


_ACTION_CODES: dict[int, str] = {1: "tax", 9: "foreign-aid", 2: "steal", 3: "assassinate",
                                 4: "exchange", 12: "interrogate", 5: "coup", 13: "income"}
_TRACKER_TARGETED = {"steal", "assassinate", "interrogate", "coup"}


def unpack(data: bytes, player_count: int, game_type: str, *,
           game_id: str | None = None) -> list[dict[str, Any]]:
    """The events packed in `games.json.gz` (its `events` field, base64-decoded), as the
    decoded file has them: observers removed, types as names. BadRecord when game-tracker.js
    would throw."""
    try:
        events = _unpack(data, player_count, game_type)
        _remove_observers(events, player_count)
    except _PackError as e:
        raise BadRecord(f"the packed events cannot be read: {e}", game=game_id,
                        field="events") from None
    for event in events:
        event["type"] = EVENT_TYPES.get(event["type"], event["type"])
    return events


def _decode_role(code: int, game_type: str) -> str | None:
    return {1: "duke", 2: "captain", 3: "assassin",
            4: "ambassador" if game_type == "original" else "inquisitor",
            5: "contessa"}.get(code)


def _decode_influence(code: int, game_type: str) -> dict[str, Any]:
    return {"revealed": bool(code & 0x8), "role": _decode_role(code & 0x7, game_type)}


def _decode_action(code: int) -> dict[str, Any]:
    action = _ACTION_CODES.get(code >> 4)
    event: dict[str, Any] = {"type": 2, "action": action}
    if action in _TRACKER_TARGETED:
        event["target"] = code & 0xF
    return event


def _validate_action(event: dict[str, Any], state_count: int) -> None:
    if event["action"] is None:
        raise _PackError(f"Unknown action: {event['action']}")
    if event["action"] in _TRACKER_TARGETED and event["target"] >= state_count:
        raise _PackError(f"Unknown player {event['target']} targeted by action "
                         f"{event['action']}")


def _read_player_states(buf: bytes, offset: int, event: dict[str, Any], player_count: int,
                        game_type: str) -> int:
    states = []
    players_found = states_found = 0
    while players_found < player_count:
        if offset + 1 >= len(buf):
            raise _PackError("the events end inside a player's state")
        cash, influence = buf[offset], buf[offset + 1]
        offset += 2
        states.append({"cash": cash,
                       "influence": [_decode_influence(influence >> 4, game_type),
                                     _decode_influence(influence & 0xF, game_type)]})
        if influence != 0 or cash != 0:
            players_found += 1
        states_found += 1
    event["playerStates"] = states
    if states_found > 16:
        raise _PackError("Player overflow")
    return states_found * 2


def _looks_like_player_states(buf: bytes, offset: int, last_start: dict[str, Any] | None,
                              player_count: int, game_type: str) -> bool:
    if last_start is None:
        raise _PackError("No previous start event")
    if offset >= len(buf):
        return False
    kind = buf[offset] >> 4
    offset += 1
    if kind not in (1, 7):
        return False
    event: dict[str, Any] = {}
    try:
        _read_player_states(buf, offset, event, player_count, game_type)
    except _PackError:
        return False
    if len(event["playerStates"]) < len(last_start["playerStates"]):
        return False
    for state1, state2 in zip(event["playerStates"], last_start["playerStates"], strict=False):
        if state1["cash"] != state2["cash"]:
            return False
        for a, b in zip(state1["influence"], state2["influence"], strict=True):
            # Don't check the revealed flag - this can change when a player leaves.
            if a["role"] != b["role"]:
                return False
    return True


def _unpack(buf: bytes, player_count: int, game_type: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    offset = 0
    state_count = 0
    last_start: dict[str, Any] | None = None
    last_action: dict[str, Any] | None = None
    last_block: dict[str, Any] | None = None
    while offset < len(buf):
        first = buf[offset]
        offset += 1
        kind = first >> 4
        event: dict[str, Any] = {"type": kind}
        events.append(event)
        if kind in (1, 7):
            if kind == 7 and offset < len(events):
                raise _PackError("Unexpected game over event")
            last_start, last_action, last_block = event, None, None
            if kind == 1:
                event["whoseTurn"] = first & 0xF
            offset += _read_player_states(buf, offset, event, player_count, game_type)
            states_found = len(event["playerStates"])
            if kind == 1 and event["whoseTurn"] >= states_found:
                raise _PackError("Unknown current player")
            # Skip past any additional observers at the end.
            while offset + 1 < len(buf) and buf[offset] == 0 and buf[offset + 1] == 0:
                states_found += 1
                offset += 2
            state_count = states_found
            # START_OF_TURN is usually followed by ACTION, which has no type code, but
            # PLAYER_LEFT events may come first, and then START_OF_TURN or GAME_OVER.
            while offset < len(buf):
                action = _decode_action(buf[offset])
                offset += 1
                try:
                    _validate_action(action, state_count)
                except _PackError:
                    kind2, player2 = buf[offset - 1] >> 4, buf[offset - 1] & 0xF
                    if kind2 != 6:
                        raise
                    events.append({"type": 6, "player": player2})
                    if _looks_like_player_states(buf, offset, last_start, player_count,
                                                 game_type):
                        break
                else:
                    events.append(action)
                    last_action, last_block = action, None
                    break
        elif kind in (3, 4):
            if offset >= len(buf):
                raise _PackError("the events end inside a challenge")
            event["challenger"] = first & 0xF
            event["challenged"] = buf[offset] & 0xF
            offset += 1
            if event["challenger"] >= state_count:
                raise _PackError("Unknown challenger player")
            if event["challenged"] >= state_count:
                raise _PackError("Unknown challenged player")
            if last_block is not None:
                last_block["blockingPlayer"] = event["challenged"]
        elif kind == 5:
            if offset >= len(buf):
                raise _PackError("the events end inside a block")
            # The blocking player was recorded incorrectly (always zero).
            event["blockingRole"] = _decode_role(buf[offset], game_type)
            offset += 1
            if last_action is not None and "target" in last_action:
                event["blockingPlayer"] = last_action["target"]
            else:
                # Foreign aid: who blocked is known only if they are challenged.
                event["blockingPlayer"] = -1
                if last_action is None:
                    raise _PackError("Block was not preceeded by action")
                if last_action["action"] != "foreign-aid":
                    raise _PackError(f"Unexpected blocked action: {last_action['action']}")
            last_block = event
        elif kind == 6:
            event["player"] = first & 0xF
        else:
            raise _PackError("Unexpected event")
    if not events:
        raise _PackError("No events")
    if events[0]["type"] != 1:
        raise _PackError("Missing initial start of turn event")
    if events[-1]["type"] != 7:
        raise _PackError("Missing final game over event")
    return events


def _remove_observers(events: list[dict[str, Any]], player_count: int) -> None:
    first_states = events[0]["playerStates"]
    player_map: dict[int, int] = {}
    for i, state in enumerate(first_states):
        if state["cash"] > 0:  # real players start with cash
            player_map[i] = len(player_map)
    if len(player_map) != player_count:
        raise _PackError("Incorrect number of players")
    i = 0
    while i < len(events):
        event = events[i]
        kind = event["type"]
        if kind in (1, 7):
            event["playerStates"] = [s for j, s in enumerate(event["playerStates"])
                                     if j in player_map]
            if kind == 1:
                if event["whoseTurn"] not in player_map:
                    raise _PackError(f"Unknown current player {event['whoseTurn']}")
                event["whoseTurn"] = player_map[event["whoseTurn"]]
        elif kind == 2:
            if "target" in event:
                if event["target"] not in player_map:
                    raise _PackError(f"Unknown target player {event['target']}")
                event["target"] = player_map[event["target"]]
        elif kind in (3, 4):
            for name in ("challenger", "challenged"):
                if event[name] not in player_map:
                    raise _PackError(f"Unknown {name} player {event[name]}")
            event["challenger"] = player_map[event["challenger"]]
            event["challenged"] = player_map[event["challenged"]]
        elif kind == 5:
            if event["blockingPlayer"] != -1:  # -1: who blocked foreign aid is not known
                if event["blockingPlayer"] not in player_map:
                    raise _PackError(f"Unknown blocking player {event['blockingPlayer']}")
                event["blockingPlayer"] = player_map[event["blockingPlayer"]]
        elif kind == 6:
            if event["player"] in player_map:
                event["player"] = player_map[event["player"]]
            else:  # an observer left
                del events[i]
                continue
        i += 1


# --------------------------------------------------------------------------- the replay


@dataclass(frozen=True)
class Replay:
    """A game of the dump as engine moves from its starting position, with the draws that a
    `ScriptedChance` in `start` plays again."""

    game: TreasonGame
    start: Game
    moves: tuple[Move, ...]
    turns: int  # turns replayed
    until: dict[int, int] = field(default_factory=dict)  # see `claim_records`
    stopped: str | None = None  # why the replay stopped before the end (None: it did not)


class _Stop(Exception):
    """The record stops saying what happened: the replay ends, keeping what came before."""

    def __init__(self, reason: str, keep_turn: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.keep_turn = keep_turn


class _Unseen:
    """The draws of a first replay: each takes the cards the record says came out, and the
    rest, which no record shows (the cards an exchange put back), at random from the deck.
    Every draw is kept, so a second replay scripts the very same ones.

    Why at random, seeded by the game: the exchanging player remembers the cards they put back
    (until someone draws from the deck), and that memory enters their card counting. Any fixed
    choice (the first card of the deck, say) would always be the same character and bias every
    exchanging player's estimates the same way; a random card of the deck is a fair guess at
    the one they saw, and the seed makes a reading the same every time."""

    def __init__(self, seed: int) -> None:
        self.plan: deque[list[Character]] = deque()
        self.drawn: list[list[Character]] = []
        self.rng = random.Random(seed)

    def draw(self, deck: list[Character], n: int) -> list[Character]:
        if not self.plan:
            raise ChanceError("the engine draws a card where the record shows no draw")
        wanted = self.plan.popleft()
        if len(wanted) > n:
            raise ChanceError(f"the record shows {len(wanted)} cards coming in where the "
                              f"engine draws {n}")
        remaining = list(deck)
        for c in wanted:
            if c not in remaining:
                raise ChanceError(f"cannot draw {c}: the court deck holds only "
                                  f"{', '.join(sorted(remaining)) or 'nothing'}")
            remaining.remove(c)
        unseen = self.rng.sample(remaining, n - len(wanted))
        for c in unseen:
            remaining.remove(c)  # the first of its kind, as `ScriptedChance` takes it
        out = list(wanted) + unseen
        deck[:] = remaining
        self.drawn.append(out)
        return out

    def shuffle(self, deck: list[Character]) -> None:
        return None

    def pick(self, n: int) -> int:
        return n - 1


@dataclass
class _Turn:
    start: Event
    end: Event
    items: list[Event]  # ACTION, CHALLENGE_*, BLOCK and PLAYER_LEFT, in order
    action: Event | None = None
    action_challenge: Event | None = None
    block: Event | None = None
    block_challenge: Event | None = None


def replay(game: TreasonGame) -> Replay:
    """The game as engine moves; BadRecord names the event and field that cannot be."""
    return _Replayer(game).run()


def game_claims(game: TreasonGame) -> list[ClaimRecord]:
    """The claim records of one human-only game: every decision where a player could judge a
    claim, as `trainer.tables.claims.claim_records` makes them for a table's games."""
    return replay_claims(replay(game))


def replay_claims(r: Replay) -> list[ClaimRecord]:
    return claim_records(r.start, r.moves, range(r.game.players), source=SOURCE,
                         game_id=r.game.game_id, until=r.until)


class _Replayer:
    def __init__(self, game: TreasonGame) -> None:
        self.tg = game
        self.id = game.game_id
        ruleset = parse_rules(game.rules)
        self.variant, self.options = ruleset.variant, ruleset.options
        first = game.events[0]
        if first.type != "START_OF_TURN" or first.whose_turn is None:
            raise self.bad("the first event must be a START_OF_TURN", first, "type")
        if game.events[-1].type != "GAME_OVER":
            raise self.bad("the last event must be GAME_OVER", game.events[-1], "type")
        self.hands = [s.hidden for s in first.states]
        self.revealed = [s.revealed for s in first.states]
        self.coins = [s.cash for s in first.states]
        self.first = first.whose_turn
        deck = list(self.variant.court(game.players))
        for p, s in enumerate(first.states):
            for card, _ in s.cards:
                if card not in deck:
                    raise self.bad(f"player {p} holds {card}, of which the deck for "
                                   f"{game.players} players has no more", first,
                                   f"playerStates[{p}].influence")
                deck.remove(card)
        self.deck = deck
        self.chance = _Unseen(zlib.crc32(self.id.encode()))
        try:
            self.game = self._start(self.chance)
        except CoupError as e:
            raise self.bad(str(e), first, "playerStates") from None
        self.moves: list[Move] = []
        self.until: dict[int, int] = {}
        self.actor = self.first  # whose turn is being replayed
        self.number = 0  # the engine's number of that turn
        self.challenge: Event | None = None  # the challenge being answered
        self.choice: str | None = None  # the Inquisitor's "return" or "swap" this turn

    def _start(self, chance: Any) -> Game:
        return Game(names=[f"Player {p}" for p in range(self.tg.players)], hands=self.hands,
                    revealed=self.revealed, coins=self.coins, deck=self.deck, first=self.first,
                    variant=self.variant, options=self.options, chance=chance)

    def bad(self, reason: str, event: Event | None, name: str | None) -> BadRecord:
        return BadRecord(reason, game=self.id,
                         event=None if event is None else event.number,
                         field=None if event is None or name is None
                         else f"{event.type}.{name}")

    def run(self) -> Replay:
        stopped = None
        turns = 0
        for turn in self._turns():
            mark, draws = len(self.moves), len(self.chance.drawn)
            try:
                self._turn(turn)
            except _Stop as stop:
                if not stop.keep_turn:
                    del self.moves[mark:]
                    del self.chance.drawn[draws:]
                    self.until = {p: i for p, i in self.until.items() if i < mark}
                else:
                    turns += 1
                stopped = f"stopped at event {turn.start.number}: {stop.reason}"
                break
            turns += 1
        start = self._start(ScriptedChance(self.chance.drawn))
        return Replay(self.tg, start, tuple(self.moves), turns, dict(self.until), stopped)

    # ----------------------------------------------------------------- turns
    def _turns(self) -> Iterator[_Turn]:
        events = self.tg.events
        start = events[0]
        items: list[Event] = []
        for e in events[1:]:
            if e.type == "GAME_OVER" and e is not events[-1]:
                raise self.bad("an event after GAME_OVER", events[e.number + 1], "type")
            if e.type in STATES:
                yield self._parse_turn(start, e, items)
                if e.type == "GAME_OVER":
                    return
                start, items = e, []
            else:
                items.append(e)

    def _parse_turn(self, start: Event, end: Event, items: list[Event]) -> _Turn:
        """The turn's events in Treason's order: ACTION, then perhaps a challenge of it, then
        perhaps a BLOCK and a challenge of that, with PLAYER_LEFT anywhere."""
        if start.type != "START_OF_TURN":
            raise self.bad("an event after GAME_OVER", end, "type")
        turn = _Turn(start, end, items)
        for e in items:
            if e.type == "PLAYER_LEFT":
                continue
            if e.type == "ACTION":
                if turn.action is not None:
                    raise self.bad("a second ACTION in one turn", e, "type")
                turn.action = e
            elif turn.action is None:
                raise self.bad(f"{e.type} before the turn's ACTION", e, "type")
            elif e.type == "BLOCK":
                if turn.block is not None:
                    raise self.bad("a second BLOCK in one turn", e, "type")
                turn.block = e
            elif turn.block is None:
                if turn.action_challenge is not None:
                    raise self.bad("a second challenge of the action", e, "type")
                turn.action_challenge = e
            else:
                if turn.block_challenge is not None:
                    raise self.bad("a second challenge of the block", e, "type")
                turn.block_challenge = e
        return turn

    def _turn(self, turn: _Turn) -> None:
        g = self.game
        start = turn.start
        if g.is_over or g.phase is not Phase.ACTION or g.actor != start.whose_turn:
            raise self.bad(f"Treason gives the turn to player {start.whose_turn}, the replay "
                           f"to player {g.actor}", start, "whoseTurn")
        items = list(turn.items)
        while items and items[0].type == "PLAYER_LEFT":
            self._left(items.pop(0))
        if turn.action is None:
            raise self.bad("a turn without an ACTION", turn.end, "type")
        if not any(s.action is turn.action.action for s in self.variant.actions):
            raise self.bad(f"{turn.action.action} is not an action of {self.variant.title}",
                           turn.action, "action")
        self.actor, self.number = g.actor, g.turn
        self.challenge = None
        self._plan(turn)
        act = items.pop(0)
        assert act.action is not None
        self._apply(Move.act(g.actor, act.action, act.target), act, "action")
        self._advance(None, final=False, turn=turn)
        for e in items:
            if e.type == "PLAYER_LEFT":
                self._advance(None, final=False, turn=turn)
                self._left(e)
            else:
                self._advance(e, final=False, turn=turn)
        self._advance(None, final=True, turn=turn)
        if self.chance.plan and not self.game.is_over:
            raise self.bad("the record shows a card drawn that the replay never draws",
                           turn.end, "playerStates")
        self._check(turn)

    def _left(self, e: Event) -> None:
        assert e.player is not None
        if self.game.alive[e.player]:
            raise _Stop(f"player {e.player} left the game while still in it (event "
                        f"{e.number}), which the engine has no move for")

    # ----------------------------------------------------------------- the draws
    def _plan(self, turn: _Turn) -> None:
        """Queue the turn's draws, in the order the engine makes them, with the cards the next
        state shows coming in, and note the Inquisitor's choice ("return" or "swap"), if any."""
        g = self.game
        end = turn.end.states
        act = turn.action
        assert act is not None and act.action is not None
        actor, action = g.actor, act.action
        lost = [_minus(s.revealed, g.revealed[p]) for p, s in enumerate(end)]
        for p, s in enumerate(end):
            again = _minus(g.revealed[p], s.revealed)
            if again:
                raise self.bad(f"player {p}'s face-up {_cards(again)} is face down again",
                               turn.end, f"playerStates[{p}].influence")
        shown: dict[int, list[Character]] = {}
        slots: list[tuple[int, int]] = []  # (player, cards drawn), in the engine's order
        claim = self.variant.spec(action).claim
        ac, bc, block = turn.action_challenge, turn.block_challenge, turn.block
        if ac is not None and ac.type == "CHALLENGE_FAIL" and claim is not None:
            shown.setdefault(actor, []).append(claim)
            slots.append((actor, 1))
        blocker = None if block is None else self._blocker(block, bc)
        if bc is not None and bc.type == "CHALLENGE_FAIL" and blocker is not None \
                and block is not None and block.role is not None:
            shown.setdefault(blocker, []).append(block.role)
            slots.append((blocker, 1))
        stands = block is not None and (bc is None or bc.type == "CHALLENGE_FAIL")
        resolves = not (ac is not None and ac.type == "CHALLENGE_SUCCESS") and not stands
        if resolves and action is Action.EXCHANGE:
            slots.append((actor, self.variant.exchange_draw))
        wanted: dict[int, list[Character]] = {}
        for p in {q for q, _ in slots}:
            before = _minus(list(g.hidden[p]), shown.get(p, []))
            wanted[p] = _minus(end[p].hidden + lost[p], before)
        self.chance.plan.clear()
        for p, k in slots:
            take, wanted[p] = wanted[p][:k], wanted[p][k:]
            self.chance.plan.append(take)
        choice = None
        t = act.target
        if resolves and action is Action.EXAMINE and t is not None and end[t].hidden:
            before = _minus(list(g.hidden[t]), lost[t])
            out, new = _minus(before, end[t].hidden), _minus(end[t].hidden, before)
            if out or new:
                if len(out) != 1 or len(new) != 1:
                    raise self.bad(f"player {t}'s cards changed by more than the "
                                   f"interrogation's one swap", turn.end,
                                   f"playerStates[{t}].influence")
                self.chance.plan.extend([out, new])
                choice = "swap"
            else:
                seen = sorted(set(before))
                self.chance.plan.append(seen[:1])
                if len(seen) > 1:  # the record does not say which card was seen
                    self.until.setdefault(actor, len(self.moves))
                choice = "return"
        self.choice = choice

    def _blocker(self, block: Event, challenge: Event | None) -> int:
        """Who blocked: as recorded, or (for Treason's -1) the player whose block was
        challenged; else the record does not say, and the replay stops."""
        assert block.player is not None
        if block.player >= 0:
            return block.player
        if challenge is not None and challenge.challenged is not None:
            return challenge.challenged
        raise _Stop(f"the record does not say who blocked the foreign aid (event "
                    f"{block.number}: blockingPlayer -1)")

    # ----------------------------------------------------------------- the decisions
    def _advance(self, item: Event | None, *, final: bool, turn: _Turn) -> None:
        """Answer the engine's decisions from the record: windows wait for `item` (the next
        challenge or block) and are passed by everyone once nothing more is recorded
        (`final`); losses, proofs, exchanges and the Inquisitor's choice are read from the
        turn's outcome. Returns when the turn is over, or when a window waits for an event
        still to come."""
        g = self.game
        while not g.is_over and not (g.phase is Phase.ACTION and g.turn != self.number):
            p, phase = g.decider, g.phase
            if phase in (Phase.CHALLENGE_ACTION, Phase.CHALLENGE_BLOCK):
                stage = turn.action_challenge if phase is Phase.CHALLENGE_ACTION \
                    else turn.block_challenge
                if item is not None and item is stage:
                    claimant = g.actor if phase is Phase.CHALLENGE_ACTION else g.blocker
                    if item.challenged != claimant:
                        raise self.bad(f"the challenged player is {item.challenged}, but the "
                                       f"claim is player {claimant}'s", item, "challenged")
                    if p == item.challenger:
                        self.challenge = item
                        self._apply(Move.challenge(p), item, "challenger")
                        item = None
                    else:
                        self._apply(Move.pass_(p), item, "challenger")
                elif (item is not None and item is turn.block) or (item is None and final):
                    self._apply(Move.pass_(p), item or turn.end, "type")
                elif item is None:
                    return
                else:
                    raise self.unasked(item, p, phase)
            elif phase is Phase.BLOCK:
                if item is not None and item is turn.block:
                    blocker = self._blocker(item, turn.block_challenge)
                    if p == blocker:
                        assert item.role is not None
                        self._apply(Move.block(p, item.role), item, "blockingRole")
                        item = None
                    else:
                        self._apply(Move.pass_(p), item, "blockingPlayer")
                elif item is None and final:
                    self._apply(Move.pass_(p), turn.end, "type")
                elif item is None:
                    return
                else:
                    raise self.unasked(item, p, phase)
            elif phase in (Phase.PROVE_ACTION, Phase.PROVE_BLOCK):
                ch = self.challenge
                if ch is None:
                    raise self.bad("the engine asks for a proof nobody challenged",
                                   turn.end, "type")
                claim = g.pending.claim if phase is Phase.PROVE_ACTION and g.pending \
                    else g.block_char
                assert claim is not None
                if ch.type == "CHALLENGE_FAIL":
                    self._apply(Move.show(p, claim), ch, "type")
                elif any(proves(c, claim) for c in g.hidden[p]):
                    raise self.bad(f"Treason says the challenge caught a bluff, but player {p} "
                                   f"holds the {claim} claimed", ch, "type")
                else:
                    self._apply(Move.lose(p, self._lost(p, turn)), turn.end,
                                f"playerStates[{p}].influence")
            elif phase is Phase.LOSE:
                self._apply(Move.lose(p, self._lost(p, turn)), turn.end,
                            f"playerStates[{p}].influence")
            elif phase is Phase.EXCHANGE:
                keep = tuple(turn.end.states[p].hidden)
                self._apply(Move.keep(p, keep), turn.end, f"playerStates[{p}].influence")
            elif phase is Phase.EXAMINE_DECIDE and self.choice is not None:
                self._apply(Move.choose(p, self.choice), turn.end,
                            f"playerStates[{g.target}].influence")
            else:
                raise self.bad(f"the engine asks player {p} for a {phase.value} decision, "
                               f"which the record cannot answer", turn.end, "type")
        if item is not None:
            raise self.unasked(item, None, None)

    def unasked(self, item: Event, p: int | None, phase: Phase | None) -> BadRecord:
        who = item.challenger if item.type in CHALLENGES else item.player
        now = (f"the engine asks player {p} for a {phase.value} decision" if phase
               else "the turn is over in the replay")
        return self.bad(f"{item.type} by player {who} does not fit: {now}", item, "type")

    def _lost(self, p: int, turn: _Turn) -> Character:
        """The card p turns face up now: one that is face up in the next state and was not.
        When p loses two different cards this turn, the first is the one that fits the rest
        of the turn: a claim of p's still to be caught as a bluff must not find its card in
        p's hand, one still to be proven must."""
        g = self.game
        up = _minus(turn.end.states[p].revealed, g.revealed[p])
        held = sorted({c for c in up if c in g.hidden[p]})
        if len(held) > 1:
            for ch, claim in self._claims_ahead(turn):
                if ch.challenged != p or claim not in held:
                    continue
                if ch.type == "CHALLENGE_SUCCESS":
                    return claim
                held.remove(claim)
        if held:
            return held[0]
        raise self.bad(f"player {p} loses a card in the replay, but none of their cards "
                       f"{'is' if not up else 'still held is'} newly face up", turn.end,
                       f"playerStates[{p}].influence")

    def _claims_ahead(self, turn: _Turn) -> Iterator[tuple[Event, Character]]:
        """The turn's challenges not yet answered, with the claim each one is about."""
        act, block = turn.action, turn.block
        if turn.action_challenge is not None and self.challenge is None \
                and act is not None and act.action is not None:
            claim = self.variant.spec(act.action).claim
            if claim is not None:
                yield turn.action_challenge, claim
        if turn.block_challenge is not None and self.challenge is not turn.block_challenge \
                and block is not None and block.role is not None:
            yield turn.block_challenge, block.role

    def _apply(self, move: Move, event: Event, name: str) -> None:
        try:
            self.game.apply(move)
        except CoupError as e:
            raise self.bad(f"the engine refuses {self.game.describe(move)}: {e}", event,
                           name) from None
        self.moves.append(move)

    # ----------------------------------------------------------------- the check
    def _check(self, turn: _Turn) -> None:
        """The replay must be where Treason's next state says: whose turn, the cards, the
        cash of every player still in (Treason leaves an exiled player's cash as it was)."""
        g, end = self.game, turn.end
        if end.type == "GAME_OVER" and not g.is_over:
            raise self.bad("Treason's game is over, the replay's is not", end, "type")
        if end.type == "START_OF_TURN" and g.is_over:
            raise self.bad("the replay's game is over, Treason's is not", end, "type")
        refund = self._refund(turn)
        for p, s in enumerate(end.states):
            where = f"playerStates[{p}]"
            if sorted(g.hidden[p]) != s.hidden or sorted(g.revealed[p]) != s.revealed:
                raise self.bad(f"player {p} holds {_cards(s.hidden)} face down and "
                               f"{_cards(s.revealed)} face up in Treason's record, "
                               f"{_cards(g.hidden[p])} and {_cards(g.revealed[p])} in the "
                               f"replay", end, f"{where}.influence")
            if g.alive[p] and g.coins[p] != s.cash:
                if refund and p == self.actor and g.coins[p] - refund == s.cash:
                    raise _Stop("the assassin's coins were kept after a successful "
                                "challenge (Treason's rule before June 2017; the engine "
                                "gives them back)", keep_turn=True)
                raise self.bad(f"player {p} has {s.cash} coins in Treason's record, "
                               f"{g.coins[p]} in the replay", end, f"{where}.cash")
        if end.type == "START_OF_TURN" and g.actor != end.whose_turn:
            raise self.bad(f"Treason gives the next turn to player {end.whose_turn}, the "
                           f"replay to player {g.actor}", end, "whoseTurn")

    def _refund(self, turn: _Turn) -> int:
        """The coins the engine gave back to an actor caught bluffing (0 if none)."""
        act, ac = turn.action, turn.action_challenge
        if act is None or act.action is None or ac is None or ac.type != "CHALLENGE_SUCCESS":
            return 0
        return self.variant.spec(act.action).cost


def _minus(a: Sequence[Character], b: Sequence[Character]) -> list[Character]:
    """The multiset a − b, sorted."""
    rest = Counter(a)
    rest.subtract(Counter(b))
    return sorted(c for c, k in rest.items() for _ in range(max(0, k)))


def _cards(cards: Sequence[Character]) -> str:
    return ", ".join(sorted(cards)) or "nothing"


# --------------------------------------------------------------------------- importing


@dataclass(frozen=True)
class Outcome:
    """What became of one human-only game: its claims, why its replay stopped early, or why
    it could not be replayed (`error`)."""

    number: int
    game_id: str
    records: tuple[ClaimRecord, ...] = ()
    stopped: str | None = None
    error: str | None = None


def outcome(game: TreasonGame) -> Outcome:
    """One game replayed and turned into claims, every failure kept as its reason: a bad
    record is a named skip, never an exception (an engine error included, named as such)."""
    try:
        r = replay(game)
        return Outcome(game.number, game.game_id, tuple(replay_claims(r)), r.stopped)
    except BadRecord as e:
        return Outcome(game.number, game.game_id, error=str(e))
    except Exception as e:  # a record must never stop an import of 600,000 games
        return Outcome(game.number, game.game_id,
                       error=f"game {game.game_id}: the replay failed ({type(e).__name__}: "
                             f"{e})")


def outcomes(games: list[TreasonGame]) -> list[Outcome]:
    """`outcome` of several games: one job of a batch (module-level, so Ray can send it)."""
    return [outcome(g) for g in games]


@dataclass
class Summary:
    """How many games were read, used, skipped with AI seats or as bad, and stopped early,
    with the first few reasons of each kind."""

    read: int = 0
    used: int = 0
    ai: int = 0
    bad: int = 0
    stopped: int = 0
    claims: int = 0
    seconds: float = 0.0
    bad_reasons: list[str] = field(default_factory=list)
    stop_reasons: list[str] = field(default_factory=list)
    ai_reasons: list[str] = field(default_factory=list)
    keep: int = 5

    def add(self, item: Outcome | Skipped) -> None:
        self.read += 1
        if isinstance(item, Skipped):
            if item.kind == "ai":
                self.ai += 1
                _note(self.ai_reasons, item.reason, self.keep)
            else:
                self.bad += 1
                _note(self.bad_reasons, item.reason, self.keep)
            return
        if item.error is not None:
            self.bad += 1
            _note(self.bad_reasons, item.error, self.keep)
            return
        self.used += 1
        self.claims += len(item.records)
        if item.stopped is not None:
            self.stopped += 1
            _note(self.stop_reasons, f"game {item.game_id}: {item.stopped}", self.keep)

    @property
    def rate(self) -> float | None:
        """Claims made per second of the run."""
        return self.claims / self.seconds if self.seconds > 0 else None

    def lines(self) -> list[str]:
        out = [f"{self.read:,} games read: {self.used:,} used ({self.claims:,} claims), "
               f"{self.ai:,} skipped for an AI seat, {self.bad:,} skipped as bad."]
        if self.stopped:
            out.append(f"{self.stopped:,} of the games used stopped before their end (the "
                       f"claims before were kept).")
        for title, reasons in (("Skipped as bad", self.bad_reasons),
                               ("Stopped early", self.stop_reasons)):
            if reasons:
                out.append(f"{title}, the first {len(reasons)}:")
                out.extend(f"  {r}" for r in reasons)
        if self.seconds > 0 and self.rate is not None:
            out.append(f"{self.seconds:.1f} s, {self.rate:,.0f} claims a second.")
        return out


def _note(reasons: list[str], reason: str, keep: int) -> None:
    if len(reasons) < keep:
        reasons.append(reason)


def import_claims(path: str | Path, *, limit: int | None = None, workers: int = 1,
                  executor: str = "auto", chunk: int = 16,
                  progress: Progress | None = None,
                  done: Callable[[Outcome | Skipped], object] | None = None
                  ) -> tuple[list[ClaimRecord], Summary]:
    """The claims of every human-only game of a dump file and a summary of the games read.
    The games are replayed `chunk` at a time in `workers` processes (`trainer.batch`: Ray
    when installed and `workers` > 1), while the file is still being read; the records come
    back in the file's order. `done` is told each game's fate as it is known."""
    from trainer.batch import choose, run

    summary = Summary()
    began = time.perf_counter()
    waiting: list[TreasonGame] = []
    results: dict[int, list[Outcome]] = {}

    def jobs() -> Iterator[tuple[int, list[TreasonGame]]]:
        nonlocal waiting
        for item in read_games(path, limit=limit, progress=progress):
            if isinstance(item, Skipped):
                summary.add(item)
                if done is not None:
                    done(item)
                continue
            waiting.append(item)
            if len(waiting) >= chunk:
                batch, waiting = waiting, []
                yield batch[0].number, batch
        if waiting:
            batch, waiting = waiting, []
            yield batch[0].number, batch

    kind = choose(executor, workers, None)
    for key, found in run(outcomes, jobs(), executor=kind, processes=workers):
        results[key] = found
        for o in found:
            summary.add(o)
            if done is not None:
                done(o)
    records = [r for key in sorted(results) for o in results[key] for r in o.records]
    summary.seconds = time.perf_counter() - began
    return records, summary


def write_records(records: Iterable[ClaimRecord], out: str | Path) -> None:
    """The records as a CSV file (`trainer.tables.claims.records_csv`)."""
    from trainer.tables.claims import records_csv

    Path(out).write_text(records_csv(records), encoding="utf-8")
