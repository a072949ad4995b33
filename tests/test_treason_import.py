"""Treason's game dump read as people's claims: hand-written games in the format of
`db/DATABASE.md` (octachrome/treason), replayed through the engine and checked against
Treason's own states; bad records named and skipped, never a crash."""

from __future__ import annotations

import base64
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

from trainer.cli import main
from trainer.engine.cards import Character
from trainer.engine.moves import MoveKind
from trainer.tables import treason
from trainer.tables.treason import (
    Skipped,
    TreasonGame,
    game_claims,
    import_claims,
    read_game,
    read_games,
    replay,
)

# --------------------------------------------------------------------------- writing games


def seat(cash: int, *roles: str) -> dict[str, Any]:
    """A player's state: "!duke" is a Duke face up."""
    return {"cash": cash, "influence": [{"role": r.lstrip("!"), "revealed": r.startswith("!")}
                                        for r in roles]}


def start(turn: int, *seats: dict[str, Any]) -> dict[str, Any]:
    return {"type": "START_OF_TURN", "whoseTurn": turn, "playerStates": list(seats)}


def over(*seats: dict[str, Any]) -> dict[str, Any]:
    return {"type": "GAME_OVER", "playerStates": list(seats)}


def act(action: str, target: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "ACTION", "action": action}
    if target is not None:
        event["target"] = target
    return event


def challenge(caught: bool, challenger: int, challenged: int) -> dict[str, Any]:
    return {"type": "CHALLENGE_SUCCESS" if caught else "CHALLENGE_FAIL",
            "challenger": challenger, "challenged": challenged}


def block(player: int, role: str) -> dict[str, Any]:
    return {"type": "BLOCK", "blockingPlayer": player, "blockingRole": role}


def left(player: int) -> dict[str, Any]:
    return {"type": "PLAYER_LEFT", "player": player}


def game(game_id: str, events: list[dict[str, Any]], *, game_type: str = "original",
         ids: list[str] | None = None) -> dict[str, Any]:
    n = len(events[0]["playerStates"])
    return {"gameId": game_id, "gameType": game_type, "playerCount": n,
            "playerIds": ids or [f"person{p}" for p in range(n)], "winner": 0,
            "playerRank": list(range(n)), "events": events}


# Two players, to the end: tax, income, an assassination, an unchallenged steal, a coup-free
# finish by a second assassination.
PLAIN = game("plain", [
    start(0, seat(1, "duke", "assassin"), seat(2, "captain", "contessa")),
    act("tax"),
    start(1, seat(4, "duke", "assassin"), seat(2, "captain", "contessa")),
    act("income"),
    start(0, seat(4, "duke", "assassin"), seat(3, "captain", "contessa")),
    act("assassinate", 1),
    start(1, seat(1, "duke", "assassin"), seat(3, "!captain", "contessa")),
    act("steal", 0),
    start(0, seat(0, "duke", "assassin"), seat(4, "!captain", "contessa")),
    act("income"),
    start(1, seat(1, "duke", "assassin"), seat(4, "!captain", "contessa")),
    act("assassinate", 0),
    start(0, seat(1, "!duke", "assassin"), seat(1, "!captain", "contessa")),
    act("income"),
    start(1, seat(2, "!duke", "assassin"), seat(1, "!captain", "contessa")),
    act("income"),
    start(0, seat(2, "!duke", "assassin"), seat(2, "!captain", "contessa")),
    act("tax"),
    start(1, seat(5, "!duke", "assassin"), seat(2, "!captain", "contessa")),
    act("income"),
    start(0, seat(5, "!duke", "assassin"), seat(3, "!captain", "contessa")),
    act("assassinate", 1),
    over(seat(2, "!duke", "assassin"), seat(3, "!captain", "!contessa")),
])

# Three players: a challenge of an action lost (the Duke was there, and is replaced), one won
# (a bluffed steal), a block proven against its challenger, an exchange, and a foreign aid
# blocked by a player Treason left unrecorded (-1) but who was then challenged.
CHALLENGES = game("challenges", [
    start(0, seat(2, "duke", "captain"), seat(2, "assassin", "contessa"),
          seat(2, "ambassador", "duke")),
    act("tax"),
    challenge(False, 1, 0),
    start(1, seat(5, "contessa", "captain"), seat(2, "!assassin", "contessa"),
          seat(2, "ambassador", "duke")),
    act("steal", 2),
    challenge(True, 0, 1),
    start(2, seat(5, "contessa", "captain"), seat(2, "!assassin", "!contessa"),
          seat(2, "ambassador", "duke")),
    act("steal", 0),
    block(0, "captain"),
    challenge(False, 2, 0),
    start(0, seat(5, "contessa", "assassin"), seat(2, "!assassin", "!contessa"),
          seat(2, "!ambassador", "duke")),
    act("exchange"),
    start(2, seat(5, "duke", "contessa"), seat(2, "!assassin", "!contessa"),
          seat(2, "!ambassador", "duke")),
    act("foreign-aid"),
    block(-1, "duke"),
    challenge(False, 2, 0),
    over(seat(5, "captain", "contessa"), seat(2, "!assassin", "!contessa"),
         seat(2, "!ambassador", "!duke")),
])

# Three players: player 1 is out and leaves (nothing changes), then player 2, still in the
# game, leaves on their turn: the replay stops there, keeping the claims before.
LEAVING = game("leaving", [
    start(0, seat(2, "duke", "captain"), seat(2, "assassin", "contessa"),
          seat(2, "ambassador", "ambassador")),
    act("tax"),
    start(1, seat(5, "duke", "captain"), seat(2, "assassin", "contessa"),
          seat(2, "ambassador", "ambassador")),
    act("tax"),
    challenge(True, 0, 1),
    start(2, seat(5, "duke", "captain"), seat(2, "!assassin", "contessa"),
          seat(2, "ambassador", "ambassador")),
    act("income"),
    start(0, seat(5, "duke", "captain"), seat(2, "!assassin", "contessa"),
          seat(3, "ambassador", "ambassador")),
    act("assassinate", 1),
    start(2, seat(2, "duke", "captain"), seat(2, "!assassin", "!contessa"),
          seat(3, "ambassador", "ambassador")),
    left(1),
    act("income"),
    start(0, seat(2, "duke", "captain"), seat(2, "!assassin", "!contessa"),
          seat(4, "ambassador", "ambassador")),
    act("income"),
    start(2, seat(3, "duke", "captain"), seat(2, "!assassin", "!contessa"),
          seat(4, "ambassador", "ambassador")),
    left(2),
    over(seat(3, "duke", "captain"), seat(2, "!assassin", "!contessa"),
         seat(4, "!ambassador", "!ambassador")),
])

# The Inquisitor's game: an interrogation that forces a swap, one that hands the card back
# (which card was seen is not recorded), a steal blocked with the Inquisitor, the Inquisitor's
# exchange of one card, and a failed challenge of an assassination that costs both cards.
INQUISITORS = game("inquisitors", game_type="inquisitors", events=[
    start(0, seat(1, "inquisitor", "duke"), seat(2, "captain", "contessa")),
    act("interrogate", 1),
    start(1, seat(1, "inquisitor", "duke"), seat(2, "assassin", "contessa")),
    act("income"),
    start(0, seat(1, "inquisitor", "duke"), seat(3, "assassin", "contessa")),
    act("interrogate", 1),
    start(1, seat(1, "inquisitor", "duke"), seat(3, "assassin", "contessa")),
    act("steal", 0),
    block(0, "inquisitor"),
    start(0, seat(1, "inquisitor", "duke"), seat(3, "assassin", "contessa")),
    act("exchange"),
    start(1, seat(1, "inquisitor", "captain"), seat(3, "assassin", "contessa")),
    act("assassinate", 0),
    challenge(False, 0, 1),
    over(seat(1, "!inquisitor", "!captain"), seat(0, "duke", "contessa")),
])

HUMAN_GAMES = (PLAIN, CHALLENGES, LEAVING, INQUISITORS)

WITH_AI = game("with-ai", ids=["person0", "ai"], events=PLAIN["events"])

# A foreign aid blocked by a player nobody recorded or challenged (Treason's bug).
UNKNOWN_BLOCKER = game("unknown-blocker", [
    start(0, seat(1, "duke", "captain"), seat(2, "duke", "contessa")),
    act("tax"),
    start(1, seat(4, "duke", "captain"), seat(2, "duke", "contessa")),
    act("foreign-aid"),
    block(-1, "duke"),
    start(0, seat(4, "duke", "captain"), seat(2, "duke", "contessa")),
    act("income"),
    over(seat(5, "duke", "captain"), seat(2, "!duke", "!contessa")),
])


def assassin_bluff_caught(cash_after: int) -> dict[str, Any]:
    """An assassination caught as a bluff; since June 2017 Treason gives the 3 coins back
    (`cash_after` 4), before it kept them (1)."""
    return game(f"refund-{cash_after}", [
        start(0, seat(1, "duke", "captain"), seat(2, "contessa", "ambassador")),
        act("tax"),
        start(1, seat(4, "duke", "captain"), seat(2, "contessa", "ambassador")),
        act("income"),
        start(0, seat(4, "duke", "captain"), seat(3, "contessa", "ambassador")),
        act("assassinate", 1),
        challenge(True, 1, 0),
        start(1, seat(cash_after, "duke", "!captain"), seat(3, "contessa", "ambassador")),
        act("assassinate", 0),
        over(seat(cash_after, "!duke", "!captain"), seat(0, "contessa", "ambassador")),
    ])


def write(path: Path, games: list[Any], *, zipped: bool = False) -> Path:
    """A dump file as Treason writes it: one game a line, then `null]`."""
    text = "[\n" + "".join(json.dumps(g) + ",\n" for g in games) + "null]"
    if zipped:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


def read_one(record: dict[str, Any]) -> TreasonGame:
    found = read_game(record)
    assert isinstance(found, TreasonGame), found
    return found


# --------------------------------------------------------------------------- game-tracker.js
# Its `pack` (the other half of the `unpack` the reader ports), written here to make packed
# games: an event type in the high four bits, a player in the low four.

_ROLE_CODES = {"duke": 1, "captain": 2, "assassin": 3, "ambassador": 4, "inquisitor": 4,
               "contessa": 5}
_ACTION_CODES = {"tax": 1 << 4, "foreign-aid": 9 << 4, "steal": 2 << 4, "assassinate": 3 << 4,
                 "exchange": 4 << 4, "interrogate": 12 << 4, "coup": 5 << 4, "income": 13 << 4}
_TYPES = {"START_OF_TURN": 1, "ACTION": 2, "CHALLENGE_SUCCESS": 3, "CHALLENGE_FAIL": 4,
          "BLOCK": 5, "PLAYER_LEFT": 6, "GAME_OVER": 7}


def pack(events: list[dict[str, Any]], observer_at: int | None = None) -> str:
    """`GameTracker.prototype.pack`, base64; `observer_at` seats an observer (no cash, no
    cards) at that index of every state, as Treason's states include them."""

    def index(p: int) -> int:
        return p + 1 if observer_at is not None and p >= observer_at else p

    def influence(card: dict[str, Any]) -> int:
        return (8 if card["revealed"] else 0) | _ROLE_CODES[card["role"]]

    out = bytearray()
    for e in events:
        kind = _TYPES[e["type"]]
        if kind in (1, 7):
            out.append(kind << 4 | (index(e.get("whoseTurn", 0)) & 0xF))
            states = [(s["cash"], influence(s["influence"][0]) << 4
                       | influence(s["influence"][1])) for s in e["playerStates"]]
            if observer_at is not None:
                states.insert(observer_at, (0, 0))
            for cash, cards in states:
                out += bytes([cash & 0xFF, cards])
        elif kind == 2:
            out.append(_ACTION_CODES[e["action"]] | (index(e.get("target", 0)) & 0xF))
        elif kind in (3, 4):
            out.append(kind << 4 | index(e["challenger"]) & 0xF)
            out.append(index(e["challenged"]) & 0xF)
        elif kind == 5:
            out.append(kind << 4)  # Treason recorded the blocking player wrongly: always 0
            out.append(_ROLE_CODES[e["blockingRole"]])
        else:
            out.append(kind << 4 | index(e["player"]) & 0xF)
    return base64.b64encode(bytes(out)).decode()


def packed(record: dict[str, Any], observer_at: int | None = None) -> dict[str, Any]:
    """The game as `games.json.gz` holds it (CouchDB's fields)."""
    return {"_id": record["gameId"], "type": "game", "gameType": record["gameType"],
            "players": record["playerCount"], "humanPlayers": record["playerCount"],
            "playerRank": [f"person{p}" for p in range(record["playerCount"])],
            "events": pack(record["events"], observer_at)}


# --------------------------------------------------------------------------- replays


@pytest.mark.parametrize("record", HUMAN_GAMES, ids=lambda g: g["gameId"])
def test_a_human_game_replays_through_the_engine(record: dict[str, Any]) -> None:
    r = replay(read_one(record))
    assert r.moves
    assert r.turns >= 4


def test_a_game_replays_to_the_same_draws_every_time() -> None:
    first, again = replay(read_one(CHALLENGES)), replay(read_one(CHALLENGES))
    assert first.moves == again.moves
    assert first.start.chance.queue == again.start.chance.queue  # type: ignore[attr-defined]


def test_a_plain_game_replays_to_its_end_and_agrees_with_every_state() -> None:
    r = replay(read_one(PLAIN))
    assert r.stopped is None
    assert r.turns == 11
    game = r.start.clone()
    for move in r.moves:
        game.apply(move)
    assert game.is_over and game.winner == 0
    assert game.revealed[1] == [Character.CAPTAIN, Character.CONTESSA]


def test_the_replayed_game_ends_with_treasons_final_hands() -> None:
    r = replay(read_one(CHALLENGES))
    game = r.start.clone()
    for move in r.moves:
        game.apply(move)
    assert game.is_over
    assert sorted(game.hidden[0]) == [Character.CAPTAIN, Character.CONTESSA]


def test_a_lost_challenge_of_an_action_is_the_challenger_losing_a_card() -> None:
    moves = replay(read_one(CHALLENGES)).moves
    assert moves[1].kind is MoveKind.CHALLENGE and moves[1].player == 1
    assert moves[2].kind is MoveKind.SHOW and moves[2].character is Character.DUKE
    assert moves[3].kind is MoveKind.LOSE and moves[3].character is Character.ASSASSIN


def test_a_won_challenge_is_the_bluffer_losing_a_card_after_the_others_passed() -> None:
    moves = replay(read_one(CHALLENGES)).moves
    steal = next(k for k, m in enumerate(moves) if m.action is not None and m.player == 1)
    assert [m.kind for m in moves[steal + 1:steal + 4]] == [
        MoveKind.PASS, MoveKind.CHALLENGE, MoveKind.LOSE]
    assert moves[steal + 1].player == 2 and moves[steal + 2].player == 0


def test_a_block_then_its_failed_challenge_proves_the_blocker() -> None:
    moves = replay(read_one(CHALLENGES)).moves
    blocks = [k for k, m in enumerate(moves) if m.kind is MoveKind.BLOCK]
    first = blocks[0]
    assert moves[first].player == 0 and moves[first].character is Character.CAPTAIN
    assert moves[first + 1].kind is MoveKind.CHALLENGE and moves[first + 1].player == 2
    assert moves[first + 2].kind is MoveKind.SHOW


def test_an_unrecorded_foreign_aid_blocker_is_the_player_challenged() -> None:
    moves = replay(read_one(CHALLENGES)).moves
    last_block = [m for m in moves if m.kind is MoveKind.BLOCK][-1]
    assert last_block.player == 0 and last_block.character is Character.DUKE


def test_an_exchange_keeps_the_cards_of_the_next_state() -> None:
    moves = replay(read_one(CHALLENGES)).moves
    keep = next(m for m in moves if m.kind is MoveKind.KEEP)
    assert keep.cards == (Character.CONTESSA, Character.DUKE)


def test_an_assassination_loses_the_card_turned_face_up() -> None:
    moves = replay(read_one(PLAIN)).moves
    lost = [m for m in moves if m.kind is MoveKind.LOSE]
    assert lost[0].player == 1 and lost[0].character is Character.CAPTAIN


def test_an_inquisitor_game_replays_its_swap_block_and_exchange() -> None:
    r = replay(read_one(INQUISITORS))
    assert r.stopped is None
    choices = [m.choice for m in r.moves if m.kind is MoveKind.CHOOSE]
    assert choices == ["swap", "return"]
    blocked = next(m for m in r.moves if m.kind is MoveKind.BLOCK)
    assert blocked.character is Character.INQUISITOR


def test_an_interrogation_that_hands_the_card_back_leaves_out_the_inquisitors_later_claims(
) -> None:
    r = replay(read_one(INQUISITORS))
    assert set(r.until) == {0}
    records = game_claims(read_one(INQUISITORS))
    assert records
    assert not [c for c in records if c.decider == 0 and c.index >= r.until[0]]
    assert [c for c in records if c.decider == 1 and c.index >= r.until[0]]


def test_a_player_already_out_leaving_changes_nothing() -> None:
    r = replay(read_one(LEAVING))
    assert r.turns == 6


def test_a_player_leaving_while_still_in_stops_the_replay_and_keeps_the_claims_before(
) -> None:
    r = replay(read_one(LEAVING))
    assert r.stopped is not None and "player 2 left" in r.stopped
    assert not r.start.clone().is_over
    records = game_claims(read_one(LEAVING))
    assert records and max(c.index for c in records) < len(r.moves)


def test_an_unrecorded_foreign_aid_blocker_stops_the_replay_before_that_turn() -> None:
    r = replay(read_one(UNKNOWN_BLOCKER))
    assert r.stopped is not None and "blockingPlayer -1" in r.stopped
    assert len(r.moves) == 2  # the first turn: a tax, passed by the other player
    assert r.turns == 1


def test_an_assassins_coins_kept_after_a_caught_bluff_stop_the_replay_after_that_turn(
) -> None:
    r = replay(read_one(assassin_bluff_caught(1)))
    assert r.stopped is not None and "June 2017" in r.stopped
    assert r.moves[-1].kind is MoveKind.LOSE and r.turns == 3
    refunded = replay(read_one(assassin_bluff_caught(4)))
    assert refunded.stopped is None


def test_claims_from_a_treason_game_are_the_tables_claim_records() -> None:
    records = game_claims(read_one(CHALLENGES))
    assert {c.source for c in records} == {"treason"}
    assert {c.game for c in records} == {"challenges"}
    assert {c.variant for c in records} == {"base(finite_treasury=no)"}
    first = records[0]
    assert (first.decider, first.claimant, first.character) == (1, 0, "Duke")
    assert first.challenged and not first.bluff


def test_the_inquisitor_rules_are_treasons() -> None:
    records = game_claims(read_one(INQUISITORS))
    assert {c.variant for c in records} == {
        "inquisitor(finite_treasury=no,examine_pick=random)"}


# --------------------------------------------------------------------------- bad records


def test_a_game_with_an_ai_seat_is_skipped_and_says_so() -> None:
    found = read_game(WITH_AI, 3)
    assert isinstance(found, Skipped) and found.kind == "ai"
    assert "player 1 is an AI player" in found.reason and found.number == 3


def test_an_unknown_role_is_named_with_its_game_event_and_field() -> None:
    record = json.loads(json.dumps(PLAIN))
    record["events"][2]["playerStates"][1]["influence"][0]["role"] = "jester"
    found = read_game(record)
    assert isinstance(found, Skipped) and found.kind == "bad"
    assert "game plain" in found.reason and "event 2" in found.reason
    assert "playerStates[1].influence[0].role" in found.reason and "jester" in found.reason


def test_a_state_that_differs_from_the_replay_is_named() -> None:
    record = json.loads(json.dumps(PLAIN))
    record["events"][4]["playerStates"][1]["cash"] = 9
    with pytest.raises(treason.BadRecord) as caught:
        replay(read_one(record))
    assert caught.value.event == 4 and caught.value.field == "START_OF_TURN.playerStates[1].cash"
    assert "9 coins in Treason's record, 3 in the replay" in str(caught.value)


def test_a_move_the_engine_refuses_is_named() -> None:
    record = json.loads(json.dumps(PLAIN))
    record["events"][1] = act("coup", 1)  # with 1 coin
    with pytest.raises(treason.BadRecord) as caught:
        replay(read_one(record))
    assert caught.value.event == 1 and "refuses" in str(caught.value)


def test_a_challenge_that_no_window_asked_for_is_named() -> None:
    record = json.loads(json.dumps(PLAIN))
    record["events"].insert(4, challenge(True, 0, 1))  # income cannot be challenged
    with pytest.raises(treason.BadRecord) as caught:
        replay(read_one(record))
    assert caught.value.event == 4


def test_events_after_game_over_are_named() -> None:
    record = json.loads(json.dumps(PLAIN))
    record["events"][10:10] = [over(*record["events"][10]["playerStates"])]
    with pytest.raises(treason.BadRecord) as caught:
        replay(read_one(record))
    assert caught.value.event == 11 and "after GAME_OVER" in str(caught.value)


def test_an_outcome_never_raises_and_keeps_the_reason() -> None:
    record = json.loads(json.dumps(PLAIN))
    record["events"][4]["playerStates"][0]["influence"][0]["role"] = "captain"
    result = treason.outcome(read_one(record))
    assert result.records == () and result.error is not None
    assert "game plain, event 4" in result.error


def test_malformed_records_are_skipped_and_reading_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_text("[\n" + json.dumps(PLAIN) + ",\n"
                    '{"gameId": "cut", "events": [ {"type": \n'
                    + json.dumps({"gameId": 7, "gameType": "original"}) + ",\n"
                    + '"just text",\n'
                    + json.dumps(CHALLENGES) + ",\nnull]")
    found = list(read_games(path))
    assert [type(f).__name__ for f in found] == [
        "TreasonGame", "Skipped", "Skipped", "Skipped", "TreasonGame"]
    reasons = [f.reason for f in found if isinstance(f, Skipped)]
    assert "not valid JSON" in reasons[0]
    assert "game 7" in reasons[1] and "playerIds" in reasons[1]
    assert "a game is a JSON object, not a string" in reasons[2]


def test_a_file_cut_short_ends_with_one_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text("[\n" + json.dumps(PLAIN) + ",\n" + json.dumps(CHALLENGES)[:300])
    found = list(read_games(path))
    assert isinstance(found[0], TreasonGame)
    assert len(found) == 2 and isinstance(found[1], Skipped)


# --------------------------------------------------------------------------- files


def test_a_gzipped_file_reads_as_the_plain_one(tmp_path: Path) -> None:
    plain = list(read_games(write(tmp_path / "a.json", list(HUMAN_GAMES))))
    zipped = list(read_games(write(tmp_path / "a.json.gz", list(HUMAN_GAMES), zipped=True)))
    assert plain == zipped and len(plain) == len(HUMAN_GAMES)


def test_limit_reads_only_the_first_games(tmp_path: Path) -> None:
    path = write(tmp_path / "a.json", [WITH_AI, *HUMAN_GAMES])
    found = list(read_games(path, limit=2))
    assert [f.number for f in found] == [1, 2]
    assert isinstance(found[0], Skipped) and isinstance(found[1], TreasonGame)


def test_progress_reaches_the_files_size(tmp_path: Path) -> None:
    path = write(tmp_path / "a.json.gz", list(HUMAN_GAMES), zipped=True)
    seen: list[tuple[int, int]] = []
    list(read_games(path, progress=lambda done, total: seen.append((done, total))))
    size = path.stat().st_size
    assert seen[-1] == (size, size) and all(total == size for _, total in seen)


def test_one_game_a_line_without_brackets_reads_too(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in HUMAN_GAMES))
    assert [g.game_id for g in read_games(path) if isinstance(g, TreasonGame)] == [
        "plain", "challenges", "leaving", "inquisitors"]


def test_the_stream_reader_decodes_values_across_small_chunks() -> None:
    values = [PLAIN, None, {"a": "]},\n{"}, [1, 2], 12345, "x,y"]
    text = "[" + ",\n  ".join(json.dumps(v) for v in values) + "\n]"
    for chunk in (3, 7, 64):
        assert list(treason._values(io.StringIO(text), chunk=chunk)) == values


@pytest.mark.parametrize("record", HUMAN_GAMES, ids=lambda g: g["gameId"])
def test_packed_events_read_as_the_decoded_ones(record: dict[str, Any]) -> None:
    assert game_claims(read_one(packed(record))) == game_claims(read_one(record))


def test_an_observers_state_is_removed_from_packed_events() -> None:
    record = packed(CHALLENGES, observer_at=1)
    assert game_claims(read_one(record)) == game_claims(read_one(CHALLENGES))


def test_a_packed_game_with_an_ai_player_is_skipped() -> None:
    record = packed(PLAIN)
    record["playerRank"] = ["person0", "ai"]
    found = read_game(record)
    assert isinstance(found, Skipped) and found.kind == "ai"


def test_packed_events_that_cannot_be_read_are_named() -> None:
    record = packed(PLAIN)
    record["events"] = base64.b64encode(b"\x10\x01").decode()
    found = read_game(record)
    assert isinstance(found, Skipped) and found.kind == "bad"
    assert "game plain" in found.reason and "packed events" in found.reason


# --------------------------------------------------------------------------- importing


def test_an_import_counts_the_games_used_and_skipped(tmp_path: Path) -> None:
    broken = json.loads(json.dumps(PLAIN))
    broken["gameId"] = "broken"
    broken["events"][4]["playerStates"][1]["cash"] = 9
    path = write(tmp_path / "g.json", [*HUMAN_GAMES, WITH_AI, UNKNOWN_BLOCKER, broken])
    records, summary = import_claims(path, workers=1, executor="local", chunk=2)
    assert (summary.read, summary.used, summary.ai, summary.bad) == (7, 5, 1, 1)
    assert summary.stopped == 2  # a player left; a blocker unrecorded
    assert summary.claims == len(records) > 0
    assert "game broken, event 4" in summary.bad_reasons[0]
    assert [r.game for r in records] == sorted(
        (r.game for r in records), key=["plain", "challenges", "leaving", "inquisitors",
                                        "unknown-blocker"].index)


def test_the_command_prints_the_summary_and_the_report_and_writes_csv(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "games.json.gz", [*HUMAN_GAMES, WITH_AI], zipped=True)
    out = tmp_path / "claims.csv"
    assert main(["people", "import", str(path), "--csv", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "5 games read: 4 used" in text and "1 skipped for an AI seat" in text
    assert "people judged in 4 games" in text
    assert "Brier, bot" in text
    lines = out.read_text().splitlines()
    assert lines[0].startswith("source,game,index,variant,players,decider,claimant")
    assert len(lines) > 10


def test_the_command_reports_again_from_its_csv(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "games.json", list(HUMAN_GAMES))
    out = tmp_path / "claims.csv"
    main(["people", "import", str(path), "--csv", str(out), "--quiet", "--limit", "2"])
    first = capsys.readouterr().out
    assert main(["people", "report", str(out)]) == 0
    again = capsys.readouterr().out
    assert again.strip() and again.strip() in first


def test_the_command_refuses_a_csv_it_cannot_write_before_reading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "games.json", list(HUMAN_GAMES))
    out = tmp_path / "no-such-folder" / "claims.csv"
    assert main(["people", "import", str(path), "--csv", str(out), "--quiet"]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_the_command_refuses_a_missing_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["people", "import", str(tmp_path / "none.json")]) == 2
    assert "no such file" in capsys.readouterr().err
