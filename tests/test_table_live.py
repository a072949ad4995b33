"""A game table played by people and bots: every move checked by the engine at the version it
was made on, written once, rebuilt after a restart, moved on by the clock and the stand-in,
and never showing a phone or the screen a hidden card that is not theirs.

Each test runs on SQLite and on PostgreSQL (`db_url`)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine

from trainer.engine.cards import Action
from trainer.engine.errors import MoveError
from trainer.engine.game import Phase
from trainer.engine.moves import Move, MoveKind
from trainer.rooms.codes import screen_token
from trainer.tables.live import NotYourTurn, Tables, timeout_move
from trainer.tables.model import TableSettings
from trainer.tables.store import HostOnly, ScreenOnly, Stale, TableError, TableStore


@pytest.fixture
def store(db_url: str) -> Iterator[TableStore]:
    engine = create_engine(db_url)
    yield TableStore(engine)
    engine.dispose()


class Clock:
    """A clock the test moves by hand (the store's own timestamps use the real one)."""

    def __init__(self) -> None:
        self.at = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.at


@dataclass
class Seated:
    code: str
    host: str
    tokens: list[str]


def table_of(store: TableStore, people: int, bots: int, *, seed: int = 7,
             **settings: Any) -> Seated:
    t, host = store.create(TableSettings(seats=people + bots, bot_pace=0.0, **settings))
    tokens = [store.join(t.code, name)[1] for name in ("Ann", "Ben", "Cris", "Dee")[:people]]
    for i in range(people, people + bots):
        store.seat_bot(t.code, host, i, "honest")
    store.deal(t.code, host, seed=seed)
    return Seated(t.code, host, tokens)


def deciding(tables: Tables, seated: Seated) -> tuple[str, int] | None:
    """(token, version) of the person whose decision it is, after the bots have moved."""
    tables.tick(seated.code)
    for token in seated.tokens:
        view = tables.seat_view(seated.code, token)
        if view.observation is not None and view.observation.legal_moves:
            return token, view.version
    return None


def play_out(tables: Tables, seated: Seated, rng: random.Random, limit: int = 600) -> int:
    for _ in range(limit):
        found = deciding(tables, seated)
        if found is None:
            if tables.tick(seated.code):  # the bots play on after the people are out
                continue
            return tables.seat_view(seated.code, seated.tokens[0]).version
        token, version = found
        legal = tables.seat_view(seated.code, token).observation.legal_moves  # type: ignore[union-attr]
        tables.play(seated.code, token, rng.choice(legal), version)
    raise AssertionError("the game did not end")


def test_a_game_of_people_and_bots_is_played_to_its_end(store: TableStore) -> None:
    seated = table_of(store, 2, 1)
    tables = Tables(store)
    moves = play_out(tables, seated, random.Random(3))
    assert store.pulse(seated.code)[1] == "over"  # type: ignore[index]
    game = store.game(seated.code)
    assert game is not None and game.moves == moves and game.finished_at is not None
    assert game.winner is not None
    assert [m.index for m in store.moves(seated.code, 1)] == list(range(moves))


def test_every_move_kind_is_recorded_with_who_made_it(store: TableStore) -> None:
    seated = table_of(store, 1, 2)
    play_out(Tables(store), seated, random.Random(5))
    made = {m.made_by for m in store.moves(seated.code, 1)}
    assert {"person", "bot"} <= made


def test_a_second_press_on_the_same_version_is_refused(store: TableStore) -> None:
    seated = table_of(store, 2, 0)
    tables = Tables(store)
    token, version = deciding(tables, seated)  # type: ignore[misc]
    legal = tables.seat_view(seated.code, token).observation.legal_moves  # type: ignore[union-attr]
    tables.play(seated.code, token, legal[0], version)
    with pytest.raises(Stale):
        tables.play(seated.code, token, legal[0], version)
    assert store.game(seated.code).moves >= 1  # type: ignore[union-attr]
    assert len(store.moves(seated.code, 1)) == store.game(seated.code).moves  # type: ignore[union-attr]


def test_presses_at_once_from_two_servers_make_exactly_one_move(store: TableStore) -> None:
    """Two processes (two `Tables` over the same database) and eight threads press the same
    move on the same version at once: one move is written, the others are refused."""
    seated = table_of(store, 2, 0)
    servers = [Tables(store), Tables(TableStore(store.engine))]
    token, version = deciding(servers[0], seated)  # type: ignore[misc]
    legal = servers[0].seat_view(seated.code, token).observation.legal_moves  # type: ignore[union-attr]
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def press(k: int) -> None:
        barrier.wait()
        try:
            servers[k % 2].play(seated.code, token, legal[k % len(legal)], version)
            outcomes.append("moved")
        except (Stale, NotYourTurn):
            outcomes.append("refused")

    threads = [threading.Thread(target=press, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("moved") == 1
    written = store.moves(seated.code, 1)
    assert [m.index for m in written] == list(range(len(written)))
    assert written[version].seat == written[version].seat  # one move at that number
    # both servers read the same game afterwards
    views = [s.seat_view(seated.code, token) for s in servers]
    assert views[0].version == views[1].version


def test_a_move_out_of_turn_is_refused_and_changes_nothing(store: TableStore) -> None:
    seated = table_of(store, 2, 0)
    tables = Tables(store)
    token, version = deciding(tables, seated)  # type: ignore[misc]
    other = next(t for t in seated.tokens if t != token)
    seat = store.my_seat(seated.code, other)
    assert seat is not None
    with pytest.raises(NotYourTurn):
        tables.play(seated.code, other, Move.act(seat.seat, Action.INCOME), version)
    assert store.game(seated.code).moves == version  # type: ignore[union-attr]


def test_an_illegal_move_is_the_engines_error_and_changes_nothing(store: TableStore) -> None:
    seated = table_of(store, 2, 0)
    tables = Tables(store)
    token, version = deciding(tables, seated)  # type: ignore[misc]
    seat = store.my_seat(seated.code, token)
    assert seat is not None
    with pytest.raises(MoveError):
        tables.play(seated.code, token, Move.act(seat.seat, Action.COUP, 1 - seat.seat),
                    version)  # 2 coins: no coup
    assert store.game(seated.code).moves == version  # type: ignore[union-attr]


def test_a_restarted_server_goes_on_with_the_same_game(store: TableStore) -> None:
    seated = table_of(store, 1, 2)
    first = Tables(store)
    rng = random.Random(11)
    for _ in range(6):
        found = deciding(first, seated)
        if found is None:
            break
        token, version = found
        legal = first.seat_view(seated.code, token).observation.legal_moves  # type: ignore[union-attr]
        first.play(seated.code, token, rng.choice(legal), version)
    before = first.seat_view(seated.code, seated.tokens[0])
    restarted = Tables(TableStore(create_engine(store.engine.url)))
    after = restarted.seat_view(seated.code, seated.tokens[0])
    assert after.version == before.version
    assert after.observation.hand == before.observation.hand  # type: ignore[union-attr]
    assert after.observation.seats == before.observation.seats  # type: ignore[union-attr]
    play_out(restarted, seated, rng)
    assert store.pulse(seated.code)[1] == "over"  # type: ignore[index]


def test_the_screen_sees_no_hidden_card_until_the_game_is_over(store: TableStore) -> None:
    seated = table_of(store, 2, 1)
    tables = Tables(store)
    key = screen_token(store.table(seated.code).join_secret)
    view = tables.public_view(seated.code, key)
    assert view.observation is not None
    assert view.observation.hand == () and view.observation.legal_moves == ()
    assert all(e.visible_to is None for e in view.observation.events)
    assert view.hands is None
    play_out(tables, seated, random.Random(2))
    done = tables.public_view(seated.code, key)
    assert done.hands is not None and len(done.hands) == 3


def test_the_screen_key_is_required(store: TableStore) -> None:
    seated = table_of(store, 1, 1)
    with pytest.raises(ScreenOnly):
        Tables(store).public_view(seated.code, seated.tokens[0])


def test_a_phone_sees_only_its_own_hand(store: TableStore) -> None:
    seated = table_of(store, 2, 0)
    tables = Tables(store)
    for token in seated.tokens:
        view = tables.seat_view(seated.code, token)
        obs = view.observation
        assert obs is not None and obs.player == view.seat.seat
        assert all(e.visible_to in (None, view.seat.seat) for e in obs.events)


def test_a_turn_that_times_out_is_income(store: TableStore) -> None:
    seated = table_of(store, 2, 0, turn_seconds=30)
    clock = Clock()
    tables = Tables(store, clock=clock)
    assert tables.tick(seated.code) == 0
    clock.at += timedelta(seconds=31)
    assert tables.tick(seated.code) >= 1
    first = store.moves(seated.code, 1)[0]
    assert first.made_by == "timeout" and first.move.endswith(":income")


def test_the_time_out_rule_coups_a_random_player_when_a_coup_is_forced() -> None:
    from trainer.engine.game import Game

    game = Game.new(3, seed=1)
    while not (game.phase is Phase.ACTION and game.coins[game.decider] >= 10):
        p = game.decider
        legal = game.legal_moves()
        pick = next((m for m in legal if m.kind is MoveKind.ACT and m.action is Action.INCOME),
                    None) or next((m for m in legal if m.kind is MoveKind.PASS), legal[0])
        game.apply(pick)
        assert p is not None
    move = timeout_move(game, random.Random(0))
    assert move is not None and move.action is Action.COUP


def test_the_time_out_rule_passes_in_a_window() -> None:
    from trainer.engine.game import Game

    game = Game.new(3, seed=1)
    game.apply(Move.act(0, Action.TAX))
    assert game.phase is Phase.CHALLENGE_ACTION
    move = timeout_move(game, random.Random(0))
    assert move is not None and move.kind is MoveKind.PASS


def test_a_person_gone_too_long_is_played_by_the_stand_in_and_comes_back(
        store: TableStore) -> None:
    seated = table_of(store, 2, 0, stand_in_after=60)
    clock = Clock()
    tables = Tables(store, clock=clock)
    token, version = deciding(tables, seated)  # type: ignore[misc]
    seat = store.my_seat(seated.code, token)
    assert seat is not None
    clock.at = datetime.now(UTC) + timedelta(seconds=61)
    tables.tick(seated.code)
    assert store.my_seat(seated.code, token).away  # type: ignore[union-attr]
    tables.tick(seated.code)
    made = store.moves(seated.code, 1)
    assert made and made[version].made_by == "stand_in"
    tables.seen(seated.code, token)
    assert not store.my_seat(seated.code, token).away  # type: ignore[union-attr]


def test_a_table_deals_only_with_every_seat_filled(store: TableStore) -> None:
    t, host = store.create(TableSettings(seats=3))
    store.join(t.code, "Ann")
    with pytest.raises(TableError, match="seat 2 is empty"):
        store.deal(t.code, host)


def test_only_the_host_deals(store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=2))
    _, token = store.join(t.code, "Ann")
    with pytest.raises(HostOnly):
        store.deal(t.code, token)


def test_two_people_cannot_share_a_name(store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=3))
    store.join(t.code, "Ann")
    with pytest.raises(TableError):
        store.join(t.code, "ann")


def test_a_full_table_says_so(store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=2))
    store.join(t.code, "Ann")
    store.join(t.code, "Ben")
    with pytest.raises(TableError, match="full"):
        store.join(t.code, "Cris")


def test_a_table_of_more_seats_than_the_rules_allow_is_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        TableSettings(rules="draft", seats=4)


def test_a_finished_game_is_a_play_record_from_each_seat(store: TableStore) -> None:
    seated = table_of(store, 2, 1)
    tables = Tables(store)
    token, version = deciding(tables, seated)  # type: ignore[misc]
    seat = store.my_seat(seated.code, token)
    assert seat is not None
    view = tables.seat_view(seated.code, token)
    tables.play(seated.code, token, view.observation.legal_moves[0], version,  # type: ignore[union-attr]
                stated=0.3)
    play_out(tables, seated, random.Random(8))
    game = store.game(seated.code)
    assert game is not None
    for p in range(3):
        record = tables.finished_record(seated.code, 1, p)
        replayed = record.game()
        assert replayed.is_over and replayed.winner == game.winner
        assert record.names[p] == "You"
        assert [n for q, n in enumerate(record.names) if q != p] == [
            n for q, n in enumerate(game.names) if q != p]
    mine = tables.finished_record(seated.code, 1, seat.seat)
    assert mine.stated.get(version) == 0.3


def test_the_record_of_a_game_waits_for_its_end(store: TableStore) -> None:
    seated = table_of(store, 2, 0)
    with pytest.raises(TableError, match="over"):
        Tables(store).finished_record(seated.code, 1, 0)


def test_the_venue_report_counts_only_peoples_own_decisions(store: TableStore) -> None:
    from trainer.tables.venue import game_records, venue_report

    seated = table_of(store, 2, 1)
    play_out(Tables(store), seated, random.Random(4))
    records = game_records(store, seated.code, 1)
    assert records  # people judged claims in this game
    made = {m.index: m for m in store.moves(seated.code, 1)}
    assert all(made[r.index].made_by == "person" for r in records)
    game = store.game(seated.code)
    assert game is not None
    people = {p for p, k in enumerate(game.kinds) if k == "person"}
    assert all(r.decider in people for r in records)
    report, kept = venue_report(store)
    assert report.n == len(kept) >= len(records)


@pytest.mark.parametrize("rules", ["inquisitor", "reformation", "mcguire", "forum",
                                   "base+pay_five"])
def test_a_table_plays_a_whole_game_under_every_rule_set(store: TableStore, rules: str) -> None:
    seated = table_of(store, 2, 1, rules=rules)
    tables = Tables(store)
    moves = play_out(tables, seated, random.Random(6))
    game = store.game(seated.code)
    assert game is not None and game.finished_at is not None and game.moves == moves
    record = tables.finished_record(seated.code, 1, 0)
    assert record.game().is_over


def test_a_browser_that_joins_again_gets_its_own_seat_back(store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=3))
    seat, first = store.join(t.code, "Ann", browser="browser-1")
    again, second = store.join(t.code, "Someone else", browser="browser-1")
    assert again.seat == seat.seat and again.nickname == "Ann"
    assert store.my_seat(t.code, second) is not None
    assert store.my_seat(t.code, first) is None  # the old link no longer holds the seat
    assert len(store.table(t.code).open_seats) == 2


def test_a_seat_given_up_is_not_given_back(store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=3))
    _, token = store.join(t.code, "Ann", browser="browser-1")
    store.leave(t.code, token)
    assert store.rejoin(t.code, "browser-1") is None


def test_a_table_game_saved_among_a_players_games_keeps_their_names(
        store: TableStore) -> None:
    from trainer.play.store import PlayStore

    seated = table_of(store, 2, 1)
    play_out(Tables(store), seated, random.Random(8))
    record = Tables(store).finished_record(seated.code, 1, 1).model_copy(
        update={"learner": "learner-b"})
    games = PlayStore(store.engine)
    games.save(record)
    back = games.get(record.game_id, "learner-b")
    assert back.names == record.names and back.names[1] == "You"
    assert back.game().winner == record.game().winner


def test_a_server_keeps_a_bounded_number_of_games_and_rebuilds_the_others(
        store: TableStore, monkeypatch: pytest.MonkeyPatch) -> None:
    import trainer.tables.live as live

    monkeypatch.setattr(live, "KEPT_GAMES", 2)
    tables = Tables(store)
    seated = [table_of(store, 1, 1, seed=s) for s in (1, 2, 3)]
    before = [tables.seat_view(t.code, t.tokens[0]) for t in seated]
    assert len(tables._live) == 2  # noqa: SLF001
    again = tables.seat_view(seated[0].code, seated[0].tokens[0])  # rebuilt from the database
    assert again.version == before[0].version
    assert again.observation.hand == before[0].observation.hand  # type: ignore[union-attr]


def test_nobody_can_take_the_name_you(store: TableStore) -> None:
    t, _ = store.create(TableSettings(seats=3))
    with pytest.raises(TableError, match="another name"):
        store.join(t.code, "You")


def test_a_copy_whose_write_was_refused_is_never_read_again(store: TableStore,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """A process whose write loses to another's has its copy one move ahead of the database:
    a reader that took that copy before it was thrown away gets a fresh one instead."""
    seated = table_of(store, 2, 0)
    tables = Tables(store)
    token, version = deciding(tables, seated)  # type: ignore[misc]
    stale = tables._live[seated.code]  # noqa: SLF001  (what a waiting reader holds)
    legal = tables.seat_view(seated.code, token).observation.legal_moves  # type: ignore[union-attr]

    def refused(*args: object, **kwargs: object) -> None:
        raise Stale("another move came first")

    monkeypatch.setattr(store, "add_move", refused)
    with pytest.raises(Stale):
        tables.play(seated.code, token, legal[0], version)
    monkeypatch.undo()
    assert stale.broken and stale.version == version + 1  # ahead of the database
    monkeypatch.setattr(tables, "_copy", lambda table: stale)  # the reader's old copy...
    seat = store.my_seat(seated.code, token)
    assert seat is not None
    with pytest.raises(TableError, match="busy"):  # ...is refused, never read
        tables.seat_view(seated.code, token)
    monkeypatch.undo()
    assert tables.seat_view(seated.code, token).version == version  # rebuilt: the database's


def test_the_clock_never_times_out_a_decision_on_an_earlier_moves_time(
        store: TableStore) -> None:
    """A tick reads the game's last move time, then the game; if a move came in between, the
    time it read is the earlier move's, and nothing is timed out on it."""
    seated = table_of(store, 2, 0, turn_seconds=30)
    clock = Clock()
    tables = Tables(store, clock=clock)
    token, version = deciding(tables, seated)  # type: ignore[misc]
    row = store.game(seated.code)
    assert row is not None
    legal = tables.seat_view(seated.code, token).observation.legal_moves  # type: ignore[union-attr]
    tables.play(seated.code, token, legal[0], version)  # a move after the row was read
    clock.at += timedelta(seconds=31)
    original = store.game
    store.game = lambda code, number=None: row  # type: ignore[method-assign]
    try:
        assert tables._tick_once(store.table(seated.code)) is False  # noqa: SLF001
    finally:
        store.game = original  # type: ignore[method-assign]
    assert not any(m.made_by == "timeout" for m in store.moves(seated.code, 1))
