"""Lessons the learner plays: screens per question, the free game against an honest bot, and
the words on the answer buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import shipped_library
from trainer.engine.cards import Action
from trainer.engine.errors import IllegalMoveError
from trainer.engine.moves import Move
from trainer.scenarios import ScenarioError, check_file, parse_scenario
from trainer.scenarios.lesson_game import line_moves, practice
from trainer.scenarios.replay import replay
from trainer.scenarios.screens import screens
from trainer.views.move_labels import your_move

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = shipped_library()
GAME = ROOT / "scenarios" / "learn-first-game.yaml"


def lesson(lesson_id: str):
    found = LIBRARY.get(lesson_id)
    assert found is not None, lesson_id
    return found


# ------------------------------------------------------------------------- screens
def test_a_play_lesson_has_one_screen_per_question() -> None:
    coins = lesson("learn-coins")
    assert [s.kind for s in screens(coins.run)] == ["play"] * coins.prompts


def test_the_replies_play_between_two_questions() -> None:
    first, second, _ = screens(lesson("learn-blocks").run)
    assert first.shown == 1 and first.result == second.shown == 3
    assert first.after == ("Ben challenges your block.",)


def test_the_last_screen_plays_the_lesson_to_its_end() -> None:
    coins = lesson("learn-coins")
    assert screens(coins.run)[-1].result == coins.steps


def test_a_lesson_to_watch_has_a_screen_per_step_and_the_set_up() -> None:
    example = lesson("rulebook-example-play")
    assert [s.number for s in screens(example.run)] == list(range(example.steps + 1))


# ------------------------------------------------------------------------- the game
def test_the_first_games_line_wins() -> None:
    s = lesson("learn-first-game").scenario
    assert practice(s, line_moves(s)).won


def test_the_honest_bot_plays_the_same_game_every_time() -> None:
    s = lesson("learn-first-game").scenario
    line = line_moves(s)
    assert practice(s, line[:1]).bot_moves == practice(s, line[:1]).bot_moves


def test_a_move_out_of_turn_is_refused() -> None:
    s = lesson("learn-first-game").scenario
    with pytest.raises(IllegalMoveError):
        practice(s, [Move.act(1, Action.INCOME)])


def test_a_line_that_does_not_win_names_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "learn-first-game.yaml"
    last = '    - "Ana claims Assassin: assassinate Ben"\n'
    head, tail = GAME.read_text().rsplit(last, 1)
    bad.write_text(head + '    - "Ana: income"\n' + tail)
    with pytest.raises(ScenarioError) as e:
        check_file(bad)
    assert "practice: the line does not win for Ana: after it the game is not over" in str(e.value)
    assert str(e.value).startswith(f"{bad}:")


def test_a_line_with_a_typo_names_the_entry_and_the_card(tmp_path: Path) -> None:
    bad = tmp_path / "learn-first-game.yaml"
    bad.write_text(GAME.read_text().replace("Ana loses Duke", "Ana loses Duek"))
    with pytest.raises(ScenarioError) as e:
        check_file(bad)
    line = next(i for i, t in enumerate(bad.read_text().splitlines(), 1) if "Duek" in t)
    assert str(e.value).startswith(f"{bad}:{line}: practice: cannot read the move")


def test_a_game_lesson_needs_its_practice_section() -> None:
    text = GAME.read_text().split("practice:")[0]
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text)
    assert "a 'game' lesson needs a `practice:` section" in str(e.value)


def test_a_play_lesson_needs_a_question() -> None:
    text = (ROOT / "scenarios" / "first-block.yaml").read_text()
    text = text.replace("order: 40", "order: 40\nmode: play")
    text = text.split("    prompt:")[0] + "\n"
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text)
    assert "a 'play' lesson needs at least one step with a `prompt:`" in str(e.value)


# ------------------------------------------------------------------------- labels
@pytest.mark.parametrize(("text", "label"), [
    ("Ana: income", "Income: take 1"),
    ("Ana: foreign aid", "Foreign aid: take 2"),
    ("Ana claims Duke: tax", "Tax: claim Duke, take 3"),
    ("Ana claims Captain: steal Ben", "Steal from Ben: claim Captain, take 2"),
    ("Ana claims Ambassador: exchange", "Exchange: claim Ambassador"),
])
def test_an_action_button_names_its_claim_and_its_coins(text: str, label: str) -> None:
    from trainer.scenarios.move_text import parse_move_text

    s = lesson("learn-characters").scenario
    game = replay(s, 0)
    move = parse_move_text(text, game.names, game.variant).move
    assert move is not None and your_move(game, move) == label


def test_a_challenge_button_names_the_claimant() -> None:
    s = lesson("learn-challenges").scenario
    game = replay(s, 2)  # Ben's Duke, open to Ana's challenge
    labels = {your_move(game, m) for m in game.legal_moves()}
    assert labels == {"Challenge Ben", "Don't challenge"}
