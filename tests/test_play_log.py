"""A played game as a text log: written for a person, read back to the identical record, and
any problem in an edited log refused at its line with what was expected there."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.notation import move_text
from trainer.engine.variants import VARIANTS, get_variant
from trainer.play.log import (
    FIRST_LINE,
    MAX_CHARS,
    MAX_SEATS,
    LogError,
    export_text,
    import_text,
)
from trainer.play.match import Match
from trainer.play.record import GameRecord, new_game_id
from trainer.play.setup import MAX_SEED, Setup, mixed_seats

# Where the lines of an exported log are (the header's order is fixed).
GAME, LEARNER, RULES, SEED, SEATS, NAMES, STARTED, FINISHED, RESIGNED, RESULT, MOVES = \
    range(2, 13)
FIRST_MOVE = 13


def play(variant: str = "base", seed: int = 3, players: int = 3, *, learner_seat: int = 0,
         stop: int | None = None, resign: bool = False, choices: int = 0) -> GameRecord:
    """A game against bots: the learner picks among the legal moves with a stream fixed by
    `choices`, states a chance now and then and opens the coach now and then; `stop` leaves
    it unfinished after that many moves, `resign` then resigns."""
    rng = random.Random(choices)
    match = Match.start(Setup(variant, seed, mixed_seats(players, learner_seat, seed)), "ann")
    while not match.over and (stop is None or match.index < stop):
        if match.bot_to_move:
            match.bot_move()
        else:
            legal = match.game.legal_moves()
            match.play(rng.choice(legal),
                       stated=rng.choice([None, rng.random()]),
                       coached=rng.random() < 0.3)
    if resign:
        match.resign()
    return match.record


def lines_of(record: GameRecord) -> list[str]:
    return export_text(record).splitlines()


def refused(lines: list[str]) -> LogError:
    with pytest.raises(LogError) as e:
        import_text("\n".join(lines) + "\n")
    return e.value


def assert_refused_at(lines: list[str], line: int, *expected: str) -> LogError:
    """The import fails naming `line`, and the message says each of `expected`."""
    e = refused(lines)
    assert e.line == line, str(e)
    assert str(e).startswith(f"line {line}: "), str(e)
    for words in expected:
        assert words in str(e), str(e)
    return e


def a_learners_move(record: GameRecord) -> int:
    return record.learner_moves()[0]


def a_bots_move(record: GameRecord) -> int:
    return next(k for k, m in enumerate(record.parsed()) if m.player != record.learner_seat)


# ---------------------------------------------------------------------- round trip
def random_game(variant: str, seed: int, players: int, *, learner_seat: int = 0,
                stop: int | None = None, resign: bool = False, choices: int = 0) -> GameRecord:
    """A game of random legal moves at a table of `mixed_seats`, noted as a match notes the
    learner's decisions. Faster than the bots at six seats, and the log does not care who
    chose a move."""
    rng = random.Random(choices)
    record = GameRecord(game_id=new_game_id(), learner="ann", variant=variant, seed=seed,
                        seats=mixed_seats(players, learner_seat, seed))
    game = record.game()
    while not game.is_over and (stop is None or len(record.moves) < stop):
        move = rng.choice(game.legal_moves())
        game.apply(move)
        k = record.add(move)
        if move.player == learner_seat:
            if rng.random() < 0.4:
                record.stated[k] = round(min(0.99, max(0.01, rng.random())), 2)
            if rng.random() < 0.3:
                record.coached.append(k)
    record.resigned = resign and not game.is_over
    if game.is_over or record.resigned:
        record.finished_at = datetime.now(UTC)
    return record


def table_sizes(variant: str) -> list[int]:
    """Every table size a saved game of the rule set can have."""
    v = get_variant(variant)
    return list(range(v.min_players, min(v.max_players, MAX_SEATS) + 1))


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("ending", ["finished", "unfinished", "resigned"])
def test_every_rule_set_reads_back_identical(variant: str, ending: str) -> None:
    for players in table_sizes(variant):
        for seed in (0, 17):
            record = random_game(variant, seed, players, learner_seat=seed % players,
                                 stop=None if ending == "finished" else 9,
                                 resign=ending == "resigned", choices=seed)
            assert (record.finished_at is None) == (ending == "unfinished")
            assert import_text(export_text(record)) == record


@settings(max_examples=300, deadline=None)
@given(variant=st.sampled_from(list(VARIANTS)), seed=st.integers(0, MAX_SEED),
       size=st.integers(0, 10), seat=st.integers(0, 10),
       stop=st.none() | st.integers(0, 80), resign=st.booleans(), choices=st.integers(0, 2**32))
def test_any_game_reads_back_identical(variant: str, seed: int, size: int, seat: int,
                                       stop: int | None, resign: bool, choices: int) -> None:
    sizes = table_sizes(variant)
    players = sizes[size % len(sizes)]
    record = random_game(variant, seed, players, learner_seat=seat % players, stop=stop,
                         resign=resign, choices=choices)
    assert import_text(export_text(record)) == record


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_game_against_the_bots_reads_back_identical(variant: str) -> None:
    v = get_variant(variant)
    record = play(variant, 5, min(v.max_players, 3), choices=2)
    assert record.finished_at is not None
    assert import_text(export_text(record)) == record


def test_a_game_with_no_moves_reads_back_identical() -> None:
    record = play(stop=0)
    assert record.moves == [] and import_text(export_text(record)) == record


def test_a_log_says_the_table_and_the_result_in_words() -> None:
    record = play("base", 5, 3, resign=True, stop=6)
    lines = lines_of(record)
    assert lines[0] == FIRST_LINE
    assert lines[RULES - 1] == "rule set: base"
    assert lines[SEATS - 1] == f"seats: {', '.join(record.seats)}"
    assert lines[NAMES - 1] == "names: You, Ana, Ben"
    assert lines[RESIGNED - 1] == "resigned: yes"
    assert lines[RESULT - 1] == "result: You resigned"
    assert lines[MOVES - 1] == "moves:"


def test_each_move_is_written_in_notation_and_in_words_with_its_turn() -> None:
    record = play(stop=1)
    [line] = lines_of(record)[FIRST_MOVE - 1:]
    game = record.game(0)
    move = record.parsed()[0]
    assert line.startswith(f"1. {move_text(move)}")
    assert line.endswith(f"  # {game.describe(move)} (turn 1)")


def test_the_learners_own_moves_read_in_the_second_person() -> None:
    record = play(stop=1)
    [line] = lines_of(record)[FIRST_MOVE - 1:]
    assert "You claims" not in line and "You passes" not in line


def test_a_stated_chance_and_the_coach_are_written_on_the_move() -> None:
    record = play(stop=30, choices=1)
    record.stated = {}
    record.coached = []
    k = a_learners_move(record)
    record.stated[k] = 0.4
    record.coached.append(k)
    line = lines_of(record)[FIRST_MOVE - 1 + k]
    assert f"{k + 1}. {record.moves[k]} | stated 40% | coach  # " in line


def test_comments_and_blank_lines_are_ignored() -> None:
    record = play(stop=20)
    lines = lines_of(record)
    lines.insert(RESULT, "")
    lines.insert(MOVES, "# a note of the teacher's")
    lines.insert(len(lines) - 2, "    ")
    lines = [line.replace("(turn", "(at turn") for line in lines]
    assert import_text("\r\n".join(lines)) == record


def test_the_importer_becomes_the_learner_of_the_game() -> None:
    record = play(stop=10)
    mine = import_text(export_text(record), learner="b-0123456789abcdef")
    assert mine.learner == "b-0123456789abcdef"
    assert mine == record.model_copy(update={"learner": "b-0123456789abcdef"})


# ---------------------------------------------------------------------- the header
def test_a_file_that_is_not_a_log_is_refused_at_its_first_line() -> None:
    e = assert_refused_at(["game,learner,moves", "x,y,z"], 1, repr(FIRST_LINE))
    assert "not a Coup Trainer game log" in str(e)


def test_a_log_of_a_later_version_is_refused() -> None:
    lines = lines_of(play(stop=3))
    lines[0] = "coup-trainer game log 2"
    assert_refused_at(lines, 1, "version 2", "version 1")


def test_an_empty_file_is_refused() -> None:
    with pytest.raises(LogError, match="expected 'coup-trainer game log 1'"):
        import_text("\n\n# nothing\n")


def test_an_unknown_header_key_is_refused_naming_the_keys() -> None:
    lines = lines_of(play(stop=3))
    lines.insert(SEED, "colour: blue")
    assert_refused_at(lines, SEED + 1, "'colour: blue'", "rule set", "seed", "moves:")


def test_a_header_key_given_twice_is_refused() -> None:
    lines = lines_of(play(stop=3))
    lines.insert(SEED, "seed: 4")
    assert_refused_at(lines, SEED + 1, "'seed' again", f"line {SEED}")


@pytest.mark.parametrize("key", ["game", "learner", "rule set", "seed", "seats", "names",
                                 "started", "finished", "resigned", "result"])
def test_a_missing_header_key_is_refused_at_the_moves_line(key: str) -> None:
    lines = [line for line in lines_of(play(stop=3)) if not line.startswith(f"{key}:")]
    assert_refused_at(lines, MOVES - 1, f"no '{key}' line", f"'{key}: ...'")


def test_a_log_without_its_moves_line_is_refused_at_the_end() -> None:
    lines = lines_of(play(stop=0))
    assert lines[-1] == "moves:"
    assert_refused_at(lines[:-1], MOVES - 1, "the end of the file", "'moves:' line")


@pytest.mark.parametrize("seed", ["abc", "-1", "1.5", str(MAX_SEED + 1), ""])
def test_a_bad_seed_is_refused(seed: str) -> None:
    lines = lines_of(play(stop=3))
    lines[SEED - 1] = f"seed: {seed}"
    assert_refused_at(lines, SEED, "seed:", repr(seed), f"a whole number from 0 to {MAX_SEED}")


@pytest.mark.parametrize("seed", ["9" * 5000, "1" * 11, "1" + "0" * 4999])
def test_a_seed_of_thousands_of_digits_is_refused_quickly_and_named_by_its_length(
        seed: str) -> None:
    lines = lines_of(play(stop=3))
    lines[SEED - 1] = f"seed: {seed}"
    e = assert_refused_at(lines, SEED, "seed:", f"a whole number from 0 to {MAX_SEED}")
    assert len(str(e)) < 200
    if len(seed) > 40:
        assert f"({len(seed):,} digits)" in str(e)


def test_a_seed_with_leading_zeros_reads_as_its_number() -> None:
    record = play(stop=3)
    lines = lines_of(record)
    lines[SEED - 1] = f"seed: {'0' * 5000}{record.seed}"
    assert import_text("\n".join(lines) + "\n").seed == record.seed


FIVE_MB = 5 * 1024 * 1024


def longest_run(text: str) -> int:
    """The longest stretch of one character repeated: how much of a filler an error quotes."""
    best = run = 0
    for a, b in zip(text, text[1:], strict=False):
        run = run + 1 if a == b else 0
        best = max(best, run + 1)
    return best


@pytest.mark.parametrize("text", [
    "x" * FIVE_MB,
    FIRST_LINE + " " + "x" * FIVE_MB,
    "coup-trainer game log " + "9" * FIVE_MB,
])
def test_a_five_megabyte_file_on_one_line_is_refused_at_once_quoting_a_few_characters(
        text: str) -> None:
    started = time.perf_counter()
    with pytest.raises(LogError) as e:
        import_text(text)
    assert time.perf_counter() - started < 0.5
    message = str(e.value)
    assert message.startswith("line 1: ") and e.value.line == 1
    assert f"at most {MAX_CHARS:,} characters" in message
    assert f"{len(text):,}" in message and "..." in message
    assert longest_run(message) <= 20 and len(message) < 300, message


@pytest.mark.parametrize(("line", "key", "value"), [
    (RULES, "rule set", "base+" + "a" * 100_000),
    (RULES, "rule set", "base(" + "a" * 100_000 + ")"),
    (RULES, "rule set", "x" * 100_000),
    (SEATS, "seats", "you, " + "a" * 100_000),
    (STARTED, "started", "2025-03-01T18:04:05" + "x" * 100_000),
])
def test_a_long_field_is_named_and_quoted_in_a_few_characters(line: int, key: str,
                                                               value: str) -> None:
    lines = lines_of(play(stop=3))
    lines[line - 1] = f"{key}: {value}"
    started = time.perf_counter()
    e = assert_refused_at(lines, line, f"{key}: found ", "expected ")
    assert time.perf_counter() - started < 0.5
    assert longest_run(str(e)) <= 20 and len(str(e)) < 1000, str(e)


def test_a_log_of_a_version_with_thousands_of_digits_is_refused_in_a_few_characters() -> None:
    e = refused(["coup-trainer game log " + "9" * 100_000, "game: abc"])
    assert e.line == 1 and "(100,000 digits)" in str(e) and len(str(e)) < 200


def test_a_move_number_of_thousands_of_digits_is_refused_at_its_line() -> None:
    lines = lines_of(play(stop=3))
    lines[FIRST_MOVE - 1] = f"{'9' * 5000}. P0:income"
    e = assert_refused_at(lines, FIRST_MOVE, "move number", "(5,000 digits)", "expected 1")
    assert len(str(e)) < 200


@pytest.mark.parametrize("game_id", ["ABCDEFGHIJKL", "short", "abcdefghijk!", ""])
def test_a_bad_game_id_is_refused(game_id: str) -> None:
    lines = lines_of(play(stop=3))
    lines[GAME - 1] = f"game: {game_id}"
    assert_refused_at(lines, GAME, "game:", "12 lowercase letters and digits")


def test_an_empty_learner_is_refused() -> None:
    lines = lines_of(play(stop=3))
    lines[LEARNER - 1] = "learner:"
    assert_refused_at(lines, LEARNER, "learner:", "1 to 64 characters")


def test_an_unknown_rule_set_is_refused_naming_the_rule_sets() -> None:
    lines = lines_of(play(stop=3))
    lines[RULES - 1] = "rule set: chess"
    assert_refused_at(lines, RULES, "'chess'", "base, draft")


@pytest.mark.parametrize(("seats", "expected"), [
    ("you, dragon, honest", "unknown bot 'dragon'"),
    ("you, you, honest", "exactly one seat 'you'"),
    ("honest, rule, skeptic", "exactly one seat 'you'"),
    ("you", "players, not 1"),
    ("you, honest, rule, skeptic, bluffer, random, honest", "at most 6 seats"),
])
def test_a_table_the_rules_do_not_allow_is_refused_at_the_seats(seats: str,
                                                                expected: str) -> None:
    lines = lines_of(play(stop=0))
    lines[SEATS - 1] = f"seats: {seats}"
    assert_refused_at(lines, SEATS, "seats:", expected)


def test_a_table_too_big_for_the_rule_set_is_refused_at_the_seats() -> None:
    lines = lines_of(play("draft", 2, 2, stop=0))
    lines[SEATS - 1] = "seats: you, honest, rule"
    assert_refused_at(lines, SEATS, "2–2 players, not 3")


def test_names_that_do_not_match_the_seats_are_refused() -> None:
    lines = lines_of(play(stop=3))
    lines[NAMES - 1] = "names: You, Bob, Ben"
    assert_refused_at(lines, NAMES, "'You, Bob, Ben'", "'You, Ana, Ben'")


@pytest.mark.parametrize(("line", "value", "expected"), [
    (STARTED, "yesterday", "ISO 8601"),
    (STARTED, "2025-03-01T18:04:05", "no zone"),
    (FINISHED, "soon", "or '-'"),
])
def test_a_bad_time_is_refused(line: int, value: str, expected: str) -> None:
    lines = lines_of(play(stop=3))
    key = lines[line - 1].split(":")[0]
    lines[line - 1] = f"{key}: {value}"
    assert_refused_at(lines, line, f"{key}:", expected)


def test_a_time_in_another_zone_is_read_as_the_same_moment() -> None:
    record = play(stop=3)
    lines = lines_of(record)
    utc = record.started_at
    lines[STARTED - 1] = f"started: {utc.astimezone().isoformat()}"
    assert import_text("\n".join(lines)).started_at == utc


def test_resigned_other_than_yes_or_no_is_refused() -> None:
    lines = lines_of(play(stop=3))
    lines[RESIGNED - 1] = "resigned: maybe"
    assert_refused_at(lines, RESIGNED, "'maybe'", "yes or no")


def test_a_result_the_moves_do_not_give_is_refused() -> None:
    lines = lines_of(play(stop=3))
    lines[RESULT - 1] = "result: You won"
    assert_refused_at(lines, RESULT, "'You won'", "'unfinished'")


def test_a_resignation_that_the_result_does_not_say_is_refused() -> None:
    lines = lines_of(play(stop=3))
    lines[RESIGNED - 1] = "resigned: yes"
    assert_refused_at(lines, RESULT, "'unfinished'", "'You resigned'")


# ---------------------------------------------------------------------- the moves
def test_a_move_that_does_not_parse_is_refused_with_what_was_expected() -> None:
    lines = lines_of(play(stop=5))
    lines[FIRST_MOVE + 1] = "3. P1:fly  # flies"
    assert_refused_at(lines, FIRST_MOVE + 2, "move 3", "'P1:fly'", "an action (income")


def test_a_move_without_its_number_is_refused() -> None:
    lines = lines_of(play(stop=5))
    lines[FIRST_MOVE + 1] = lines[FIRST_MOVE + 1].removeprefix("3. ")
    assert_refused_at(lines, FIRST_MOVE + 2, "'3. <move>'")


def test_moves_out_of_order_are_refused() -> None:
    lines = lines_of(play(stop=5))
    lines[FIRST_MOVE + 1] = lines[FIRST_MOVE + 1].replace("3. ", "4. ", 1)
    assert_refused_at(lines, FIRST_MOVE + 2, "move number 4", "expected 3")


def test_a_move_the_rules_refuse_there_is_refused_with_the_legal_moves() -> None:
    record = play(stop=5)
    lines = lines_of(record)
    game = record.game(2)
    wrong = "P0:coup>P1"
    assert wrong not in [move_text(m) for m in game.legal_moves()]
    lines[FIRST_MOVE + 1] = f"3. {wrong}"
    e = assert_refused_at(lines, FIRST_MOVE + 2, "move 3", repr(wrong), "rules refuse")
    assert f"a legal move: {move_text(game.legal_moves()[0])}" in str(e)


def test_a_move_after_the_end_of_the_game_is_refused() -> None:
    record = play(seed=1)
    assert record.game().is_over
    lines = lines_of(record)
    n = len(record.moves) + 1
    lines.append(f"{n}. P0:income")
    assert_refused_at(lines, len(lines), f"move {n}", "no more moves", "won")


def test_a_move_in_another_spelling_is_refused_with_the_exact_one() -> None:
    record = play(seed=1)
    k = next(k for k, text in enumerate(record.moves) if "/" in text)
    lines = lines_of(record)
    verb, card = record.moves[k].split("/")
    lines[FIRST_MOVE - 1 + k] = f"{k + 1}. {verb}/{card.lower()}"
    assert_refused_at(lines, FIRST_MOVE + k, f"move {k + 1}", "expected")


@pytest.mark.parametrize("percent", ["0", "100", "150", "0.5", "99.5"])
def test_a_stated_chance_outside_1_to_99_percent_is_refused(percent: str) -> None:
    record = play(stop=20)
    k = a_learners_move(record)
    lines = lines_of(record)
    lines[FIRST_MOVE - 1 + k] = f"{k + 1}. {record.moves[k]} | stated {percent}%"
    assert_refused_at(lines, FIRST_MOVE + k, f"{percent}%", "from 1% to 99%")


def test_a_stated_chance_on_a_bots_move_is_refused() -> None:
    record = play(stop=20)
    k = a_bots_move(record)
    lines = lines_of(record)
    lines[FIRST_MOVE - 1 + k] = f"{k + 1}. {record.moves[k]} | stated 40%"
    assert_refused_at(lines, FIRST_MOVE + k, f"move {k + 1}", "only on the learner's moves")


@pytest.mark.parametrize("note", ["stated forty", "coached", "stated 40% | stated 50%",
                                  "coach | coach"])
def test_an_unknown_or_repeated_note_on_a_move_is_refused(note: str) -> None:
    record = play(stop=20)
    k = a_learners_move(record)
    lines = lines_of(record)
    lines[FIRST_MOVE - 1 + k] = f"{k + 1}. {record.moves[k]} | {note}"
    assert_refused_at(lines, FIRST_MOVE + k, "'stated NN%' or 'coach'")


def test_a_stated_chance_finer_than_a_percent_reads_back_exactly() -> None:
    record = play(stop=20)
    record.stated = {a_learners_move(record): 0.333}
    text = export_text(record)
    assert "stated 33.3%" in text
    assert import_text(text) == record


def test_a_learner_with_a_line_break_cannot_be_exported() -> None:
    record = play(stop=3)
    record.learner = "ann\nresult: You won"
    with pytest.raises(ValueError, match="line break"):
        export_text(record)


@pytest.mark.parametrize("rules", ["base+pay_five(challengers=all)",
                                   "mcguire-mat(challengers=all)",
                                   "base+mat(more_players=web)", "base-no_self_target"])
def test_a_game_under_house_and_table_rules_reads_back_identically(rules: str) -> None:
    record = random_game(rules, 11, 4, choices=2)
    lines = lines_of(record)
    assert lines[RULES - 1] == f"rule set: {rules}"
    back = import_text("\n".join(lines) + "\n")
    assert back == record
    game = back.game()
    assert (game.variant, game.options) == (record.game().variant, record.game().options)
    assert game.options.text() == rules.partition("(")[2].rstrip(")")  # "" for none


def test_a_rule_set_description_the_rules_refuse_is_named_at_its_line() -> None:
    lines = lines_of(play(stop=3))
    lines[RULES - 1] = "rule set: base+pay5"
    assert_refused_at(lines, RULES, "'base+pay5'", "unknown house rule 'pay5'",
                      "base+pay_five(challengers=all)")


@pytest.mark.parametrize("text", ["", "\n", "\ufeff"])
def test_an_empty_log_is_refused_at_its_first_line(text: str) -> None:
    with pytest.raises(LogError) as e:
        import_text(text)
    assert e.value.line == 1
    assert str(e.value) == ("line 1: found no header; expected 'coup-trainer game log 1' on "
                            "the first line")
