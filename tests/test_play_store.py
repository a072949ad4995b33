"""Played games in the database: a game comes back as it was saved, only to its learner, and a
damaged row is refused or left out with its name, never half-loaded. Each runs on SQLite and
on PostgreSQL (db_url)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import create_engine, inspect, update

from tests.i18n_sweep import unmarked
from trainer.i18n import use_language
from trainer.learners.storage import Store
from trainer.play.assess import Valued
from trainer.play.match import Match
from trainer.play.record import GameRecord
from trainer.play.review import value_job
from trainer.play.setup import Setup, mixed_seats
from trainer.play.store import (
    GameSummary,
    PlayStore,
    PlayStoreError,
    decisions_table,
    games_table,
)
from trainer.quiz.solved import Solved

ROLLOUTS = 20


@pytest.fixture
def plays(db_url: str) -> Iterator[PlayStore]:
    store = Store(db_url)
    yield PlayStore(store.engine)
    store.close()


@pytest.fixture
def ann() -> str:
    """A learner of this test alone: the PostgreSQL database outlives a test."""
    return f"ann-{uuid.uuid4().hex[:12]}"


def play(learner: str, seed: int = 3, moves: int | None = None, *, players: int = 3,
         note: bool = True) -> Match:
    """A game against bots, the learner taking the first legal move each time and (with
    `note`) stating a chance at every other decision and opening the coach at every third."""
    match = Match.start(Setup("base", seed, mixed_seats(players, 0, seed)), learner)
    while not match.over and (moves is None or match.index < moves):
        if match.bot_to_move:
            match.bot_move()
        else:
            k = match.index
            match.play(match.game.legal_moves()[0],
                       stated=0.37 if note and k % 2 == 0 else None,
                       coached=note and k % 3 == 0)
    return match


def first_decision(record: GameRecord) -> tuple[int, Valued]:
    """The learner's first decision that has a choice, valued with few rollouts."""
    for k in record.learner_moves():
        valued = value_job((record, k, ROLLOUTS))
        if valued is not None:
            return k, valued
    raise AssertionError("the learner never had a choice")


def damage(plays: PlayStore, game_id: str, **values: object) -> None:
    with plays.engine.begin() as conn:
        conn.execute(update(games_table).where(games_table.c.game_id == game_id)
                     .values(**values))


# ---------------------------------------------------------------------- the tables
def test_the_tables_and_the_learners_index_are_made(plays: PlayStore) -> None:
    found = inspect(plays.engine)
    assert {"played_games", "played_decisions"} <= set(found.get_table_names())
    assert [ix["column_names"] for ix in found.get_indexes("played_games")] == [["learner"]]
    assert found.get_pk_constraint("played_decisions")["constrained_columns"] == [
        "game_id", "move_index", "rollouts"]


def test_a_database_that_cannot_take_the_tables_is_a_play_store_error(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'missing' / 'games.db'}")
    with pytest.raises(PlayStoreError, match="tables could not be made"):
        PlayStore(engine)
    engine.dispose()


# ---------------------------------------------------------------------- games
def test_a_record_takes_a_rule_set_description_of_up_to_512_characters(ann: str) -> None:
    record = play(ann, moves=0).record.model_dump()
    description = ("reformation-inquisitor+low_start(challenge_order=target_first,challengers=all,"
                   "foreign_aid_blockers=random,gainless_actions=refused,vocabulary=treason)")
    try:  # whether the table takes this rule set is the setup's call, never the length's
        GameRecord.model_validate({**record, "variant": description})
    except ValidationError as e:
        assert all(err["type"] != "string_too_long" for err in e.errors())
    with pytest.raises(ValidationError) as caught:
        GameRecord.model_validate({**record, "variant": "base" + "+pay_five" * 57})
    assert [(err["loc"], err["msg"]) for err in caught.value.errors()] == [
        (("variant",), "String should have at most 512 characters")]


def test_a_saved_game_comes_back_identical(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    assert record.finished_at is not None and record.stated and record.coached
    plays.save(record)
    assert plays.get(record.game_id, ann) == record


def test_an_unfinished_game_comes_back_identical(plays: PlayStore, ann: str) -> None:
    record = play(ann, moves=7).record
    assert record.finished_at is None
    plays.save(record)
    assert plays.get(record.game_id, ann) == record


def test_a_saved_game_resumes_as_the_same_match(plays: PlayStore, ann: str) -> None:
    match = play(ann, seed=11, moves=9)
    plays.save(match.record)
    resumed = Match.resume(plays.get(match.record.game_id, ann))
    for m in (match, resumed):
        while not m.over:
            m.bot_move() if m.bot_to_move else m.play(m.game.legal_moves()[0])
    assert resumed.record.moves == match.record.moves


def test_saving_after_every_move_keeps_one_row_with_the_last_moves(plays: PlayStore,
                                                                   ann: str) -> None:
    match = Match.start(Setup("base", 5, mixed_seats(3, 0, 5)), ann)
    while not match.over:
        match.bot_move() if match.bot_to_move else match.play(match.game.legal_moves()[0])
        plays.save(match.record)
    listed = plays.games(ann)
    assert [g.game_id for g in listed] == [match.record.game_id]
    assert plays.get(match.record.game_id, ann) == match.record


def test_a_resigned_game_comes_back_resigned(plays: PlayStore, ann: str) -> None:
    match = play(ann, moves=6)
    match.resign()
    plays.save(match.record)
    back = plays.get(match.record.game_id, ann)
    assert back.resigned and back.finished_at == match.record.finished_at


def test_another_learners_game_is_refused(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    with pytest.raises(PlayStoreError, match=f"no saved game {record.game_id} for this "
                                             "learner"):
        plays.get(record.game_id, ann + "-other")


def test_a_game_never_saved_is_refused_with_its_id(plays: PlayStore, ann: str) -> None:
    with pytest.raises(PlayStoreError, match="no saved game abcdefghijk2 for this learner"):
        plays.get("abcdefghijk2", ann)


def test_another_learner_cannot_overwrite_a_game_by_its_id(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    theirs = play(ann + "-other", seed=8).record.model_copy(update={"game_id": record.game_id})
    with pytest.raises(PlayStoreError, match="belongs to another learner"):
        plays.save(theirs)
    assert plays.get(record.game_id, ann) == record


def test_the_list_holds_only_the_learners_own_games_newest_first(plays: PlayStore,
                                                                 ann: str) -> None:
    old, new = play(ann, seed=1).record, play(ann, seed=2).record
    old.started_at = new.started_at - timedelta(hours=1)
    plays.save(new)
    plays.save(old)
    plays.save(play(ann + "-other", seed=4).record)
    listed = plays.games(ann)
    assert [g.game_id for g in listed] == [new.game_id, old.game_id]
    assert listed.skipped == 0


def test_a_limited_list_holds_the_newest_games_only(plays: PlayStore, ann: str) -> None:
    old, new = play(ann, seed=1).record, play(ann, seed=2).record
    old.started_at = new.started_at - timedelta(hours=1)
    plays.save(old)
    plays.save(new)
    assert [g.game_id for g in plays.games(ann, limit=1)] == [new.game_id]


def test_the_list_says_who_won_and_how_many_moves(plays: PlayStore, ann: str) -> None:
    match = play(ann, seed=6)
    plays.save(match.record)
    [line] = plays.games(ann)
    winner = match.game.winner
    assert winner is not None
    assert line == GameSummary(match.record.game_id, "base", 3, match.record.seats,
                               match.record.started_at, match.record.finished_at,
                               len(match.record.moves), False, match.record.names[winner])


def test_the_list_names_no_winner_while_a_game_goes_on(plays: PlayStore, ann: str) -> None:
    going = play(ann, seed=1, moves=5)
    plays.save(going.record)
    [line] = plays.games(ann)
    assert line.winner_name is None and line.finished_at is None and line.moves == 5


def test_the_list_names_no_winner_after_a_resignation(plays: PlayStore, ann: str) -> None:
    resigned = play(ann, seed=2, moves=5)
    resigned.resign()
    plays.save(resigned.record)
    [line] = plays.games(ann)
    assert line.resigned and line.winner_name is None and line.finished_at is not None


@pytest.mark.parametrize(("column", "value", "field"), [
    ("moves", "[not json", "moves"),
    ("stated", '{"0": 1.5}', "stated"),
    ("seats", '["you", "dragon", "honest"]', "seats"),
    ("moves", '["P0:income", "P1:fly"]', "moves"),
    ("coached", '{"a": 1}', "coached"),
])
def test_a_damaged_row_is_refused_naming_the_game_and_the_field(
        plays: PlayStore, ann: str, column: str, value: str, field: str) -> None:
    record = play(ann, moves=4, note=False).record
    plays.save(record)
    damage(plays, record.game_id, **{column: value})
    with pytest.raises(PlayStoreError) as e:
        plays.get(record.game_id, ann)
    assert record.game_id in str(e.value) and f"{field}:" in str(e.value)


def test_a_damaged_row_is_left_out_of_the_list_and_counted(plays: PlayStore, ann: str) -> None:
    good, bad = play(ann, seed=1).record, play(ann, seed=2).record
    plays.save(good)
    plays.save(bad)
    damage(plays, bad.game_id, seats="{")
    listed = plays.games(ann)
    assert [g.game_id for g in listed] == [good.game_id]
    assert listed.skipped == 1 and listed.damaged == (bad.game_id,)


def test_a_game_whose_moves_the_rules_refuse_is_left_out_of_the_list(plays: PlayStore,
                                                                     ann: str) -> None:
    record = play(ann, seed=1).record
    plays.save(record)
    damage(plays, record.game_id, moves='["P0:income", "P0:income"]', stated="{}",
           coached="[]")
    listed = plays.games(ann)
    assert list(listed) == [] and listed.skipped == 1


def test_deleting_a_game_deletes_its_decisions(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    index, valued = first_decision(record)
    plays.save_valued(record.game_id, index, valued)
    assert plays.delete(record.game_id, ann) is True
    assert plays.games(ann) == [] and plays.valued(record.game_id) == {}
    with plays.engine.connect() as conn:
        left = conn.execute(decisions_table.select().where(
            decisions_table.c.game_id == record.game_id)).all()
    assert left == []


def test_another_learner_cannot_delete_a_game(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    assert plays.delete(record.game_id, ann + "-other") is False
    assert plays.get(record.game_id, ann) == record


# ---------------------------------------------------------------------- decisions
def test_a_valued_decision_comes_back_identical(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    index, valued = first_decision(record)
    assert plays.save_valued(record.game_id, index, valued) is True
    assert plays.valued(record.game_id) == {index: valued}


def test_a_solved_decision_keeps_its_exact_values(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    index, valued = first_decision(record)
    labels = [o.label for o in valued.item.options]
    values = {label: 0.25 + 0.5 * (k == 0) for k, label in enumerate(labels)}
    solved = Solved(values, horizon=6, exploitability=0.002, settled=True, moved=0.001,
                    before={label: v - 0.001 for label, v in values.items()})
    plays.save_valued(record.game_id, index, Valued(valued.item, solved))
    back = plays.valued(record.game_id)[index]
    assert back.solved == solved and back.best == labels[0]


def test_an_exact_grade_that_did_not_settle_is_kept_beside_the_playouts_that_grade(
        plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    index, valued = first_decision(record)
    labels = [o.label for o in valued.item.options]
    values = {label: 0.25 + 0.5 * (k == 0) for k, label in enumerate(labels)}
    loose = Solved(values, horizon=4, exploitability=0.0001, settled=False, moved=0.2,
                   before={label: 0.5 for label in labels})
    plays.save_valued(record.game_id, index, Valued.of(valued.item, loose))
    back = plays.valued(record.game_id)[index]
    assert back.solved is None and back.unsettled == loose
    assert back.best == valued.item.best.label  # graded by the playouts


def test_a_second_save_of_the_same_decision_is_a_no_op(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    index, valued = first_decision(record)
    plays.save_valued(record.game_id, index, valued)
    other = Valued(valued.item, Solved({o.label: 0.5 for o in valued.item.options}, 2, 0.0,
                                       True, 0.0, {o.label: 0.5 for o in valued.item.options}))
    assert plays.save_valued(record.game_id, index, other) is False
    assert plays.valued(record.game_id)[index] == valued


def test_the_valuation_with_the_most_rollouts_is_read(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    index, shallow = first_decision(record)
    deep = value_job((record, index, 2 * ROLLOUTS))
    assert deep is not None
    plays.save_valued(record.game_id, index, deep)
    plays.save_valued(record.game_id, index, shallow)
    assert plays.valued(record.game_id)[index].rollouts == 2 * ROLLOUTS


def test_a_damaged_decision_is_passed_over_for_a_readable_one(plays: PlayStore,
                                                              ann: str) -> None:
    record = play(ann).record
    plays.save(record)
    index, shallow = first_decision(record)
    deep = value_job((record, index, 2 * ROLLOUTS))
    assert deep is not None
    plays.save_valued(record.game_id, index, shallow)
    plays.save_valued(record.game_id, index, deep)
    with plays.engine.begin() as conn:
        conn.execute(update(decisions_table).where(
            decisions_table.c.game_id == record.game_id,
            decisions_table.c.rollouts == 2 * ROLLOUTS).values(item='{"id": "x"}'))
    assert plays.valued(record.game_id) == {index: shallow}


def test_a_decision_of_a_game_never_saved_is_refused(plays: PlayStore, ann: str) -> None:
    record = play(ann).record
    index, valued = first_decision(record)
    with pytest.raises(PlayStoreError, match="save the game before its decisions"):
        plays.save_valued(record.game_id, index, valued)


# ---------------------------------------------------------------------- in the reader's words
@pytest.mark.parametrize(("column", "value"), [("stated", '{"0": 1.5}'), ("moves", "[not json")])
def test_a_damaged_row_is_said_in_the_readers_language_through_the_catalogue(
        plays: PlayStore, ann: str, column: str, value: str) -> None:
    record = play(ann, moves=4, note=False).record
    plays.save(record)
    damage(plays, record.game_id, **{column: value})
    with use_language("qps"), pytest.raises(PlayStoreError) as e:
        plays.get(record.game_id, ann)
    assert unmarked(str(e.value).replace(record.game_id, "")) == [], str(e.value)
    with use_language("fil"), pytest.raises(PlayStoreError) as e:
        plays.get(record.game_id, ann)
    assert str(e.value).startswith(f"sira ang na-save na larong {record.game_id}: {column}: ")


def test_a_database_failure_names_what_was_tried_never_the_databases_own_words(
        tmp_path: Path, ann: str) -> None:
    """SQLAlchemy's text holds the SQL, the file and the address: the log has it, the page
    reads what could not be done, in its language."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    plays = PlayStore(store.engine)
    with plays.engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE played_decisions")
    with use_language("fil"), pytest.raises(PlayStoreError) as e:
        plays.valued("g1")
    assert str(e.value) == "Hindi mabasa mula sa database ang mga desisyon ng larong g1."
    assert "played_decisions" not in str(e.value) and str(tmp_path) not in str(e.value)
    store.close()
