"""Saves that never rewrite a game's history, and saved games that no longer replay: repaired
to their last legal move or set aside with what is wrong, never dropped without a word."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import update

from trainer.learners.storage import Store
from trainer.play.match import Match
from trainer.play.setup import Setup
from trainer.play.store import PlayStore, StaleGameError, games_table
from trainer.views.play_text import damaged_line


@pytest.fixture
def plays(db_url: str) -> Iterator[PlayStore]:
    store = Store(db_url)
    yield PlayStore(store.engine)
    store.close()


@pytest.fixture
def ann() -> str:
    return f"ann-{uuid.uuid4().hex[:12]}"


def played(learner: str, moves: int, seed: int = 3) -> Match:
    match = Match.start(Setup("base", seed, ("you", "honest", "rule")), learner)
    while not match.over and match.index < moves:
        if match.bot_to_move:
            match.bot_move()
        else:
            match.play(match.game.legal_moves()[0])
    return match


def test_a_save_from_the_moves_last_saved_extends_the_game(plays: PlayStore, ann: str) -> None:
    match = played(ann, 4)
    plays.save(match.record, after=0)
    first = len(match.record.moves)
    match = Match.resume(match.record)
    while match.index < first + 3 and not match.over:
        match.bot_move() if match.bot_to_move else match.play(match.game.legal_moves()[0])
    plays.save(match.record, after=first)
    assert plays.get(match.record.game_id, ann).moves == match.record.moves


def test_a_save_from_a_copy_that_fell_behind_leaves_the_game_as_it_is(plays: PlayStore,
                                                                        ann: str) -> None:
    match = played(ann, 6)
    plays.save(match.record, after=0)
    ahead = match.record.model_copy(deep=True)
    behind = match.record.model_copy(deep=True)
    ahead.moves.append("P0:income")  # only the text matters to the store
    plays.save(ahead, after=len(match.record.moves))
    behind.moves.append("P0:foreign_aid")
    with pytest.raises(StaleGameError):
        plays.save(behind, after=len(match.record.moves))
    assert plays.get(ahead.game_id, ann).moves == ahead.moves


def test_saving_the_same_record_twice_is_not_a_conflict(plays: PlayStore, ann: str) -> None:
    match = played(ann, 5)
    plays.save(match.record, after=0)
    plays.save(match.record, after=0)  # a retry of the same save
    assert plays.get(match.record.game_id, ann).moves == match.record.moves


def break_move(plays: PlayStore, game_id: str, moves: list[str], at: int) -> int:
    """Put a move the rules refuse in place of the first bot move from index `at` on, as the
    overlapping runs did; its index."""
    at = next(k for k in range(at, len(moves)) if not moves[k].startswith("P0:"))
    bad = [*moves[:at], "P2:lose/Ambassador", *moves[at + 1:]]
    with plays.engine.begin() as conn:
        conn.execute(update(games_table).where(games_table.c.game_id == game_id)
                     .values(moves=json.dumps(bad)))
    return at


def test_a_saved_game_that_no_longer_replays_is_listed_with_what_is_wrong(plays: PlayStore,
                                                                          ann: str) -> None:
    match = played(ann, 12)
    plays.save(match.record)
    at = break_move(plays, match.record.game_id, match.record.moves, 5)
    found = plays.games(ann)
    assert found.damaged == (match.record.game_id,)
    problem = found.problems[match.record.game_id]
    assert f"move {at + 1} 'P2:lose/Ambassador' is not legal there" in problem
    text, repairable = damaged_line(match.record.game_id, problem)
    assert repairable
    assert f"stops at move {at + 1}" in text and f"moves 1 to {at}" in text


def test_a_repaired_game_keeps_every_move_before_the_first_illegal_one(plays: PlayStore,
                                                                       ann: str) -> None:
    match = played(ann, 14)
    mine = match.record.learner_moves()
    before, after = mine[0], mine[-1]
    match.record.stated[before] = 0.4
    match.record.stated[after] = 0.6
    plays.save(match.record)
    at = break_move(plays, match.record.game_id, match.record.moves, before + 1)
    assert at < after
    record, problem = plays.repair(match.record.game_id, ann)
    assert problem is not None and f"move {at + 1} " in problem
    assert record.moves == match.record.moves[:at]
    assert record.stated == {before: 0.4}
    assert plays.games(ann).damaged == ()
    again = Match.resume(plays.get(match.record.game_id, ann))
    assert again.version == at and not again.over


def test_a_game_that_cannot_be_read_is_set_aside_not_repaired(plays: PlayStore,
                                                              ann: str) -> None:
    match = played(ann, 4)
    plays.save(match.record)
    with plays.engine.begin() as conn:
        conn.execute(update(games_table).where(games_table.c.game_id == match.record.game_id)
                     .values(seats="not json"))
    found = plays.games(ann)
    text, repairable = damaged_line(match.record.game_id,
                                    found.problems[match.record.game_id])
    assert not repairable
    assert "cannot be opened" in text and "kept as it is" in text
