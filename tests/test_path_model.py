"""The five-minute path, measured from the lesson files with the README's model: 200 words a
minute, 2 seconds a click, the scripted answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import shipped_library
from trainer.engine.cards import Action, Character
from trainer.scenarios.lessons import FIVE_MINUTES
from trainer.views.path_model import (
    SECONDS_PER_CLICK,
    START_CLICKS,
    WORDS_PER_MINUTE,
    count_words,
    path_model,
)

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = shipped_library()
PATH = LIBRARY.five_minutes()
MODEL = path_model(PATH)


def test_every_lesson_of_the_path_loads() -> None:
    assert [x.id for x in PATH] == list(FIVE_MINUTES) and not LIBRARY.broken


def test_the_path_takes_five_minutes_or_less() -> None:
    assert MODEL.seconds <= 300, MODEL.minutes_text()


def test_the_path_has_thirty_screens_or_fewer() -> None:
    assert len(MODEL.screens) <= 30


@pytest.mark.parametrize("screen", MODEL.screens, ids=lambda s: f"{s.lesson}-{s.screen}")
def test_no_screen_of_the_path_holds_more_than_sixty_words(screen) -> None:
    assert screen.words <= 60, screen.text


def test_the_learner_takes_every_action_on_the_path() -> None:
    base = {Action.INCOME, Action.FOREIGN_AID, Action.COUP, Action.TAX, Action.ASSASSINATE,
            Action.STEAL, Action.EXCHANGE}
    assert base <= MODEL.actions


def test_the_learner_claims_every_character_on_the_path() -> None:
    base = {Character.DUKE, Character.ASSASSIN, Character.CAPTAIN, Character.AMBASSADOR,
            Character.CONTESSA}
    assert base <= MODEL.characters


def test_the_rulebook_example_is_not_on_the_path() -> None:
    assert "rulebook-example-play" not in FIVE_MINUTES


def test_the_path_ends_with_a_game_the_learner_wins() -> None:
    assert PATH[-1].scenario.mode == "game"
    assert MODEL.screens[-1].screen == "game won"


def test_time_is_words_at_200_a_minute_plus_two_seconds_a_click() -> None:
    assert (WORDS_PER_MINUTE, SECONDS_PER_CLICK) == (200, 2.0)
    expected = MODEL.words / 200 * 60 + MODEL.clicks * 2
    assert MODEL.seconds == pytest.approx(expected)
    assert MODEL.clicks == START_CLICKS + sum(s.clicks for s in MODEL.screens)


def test_a_question_screen_costs_two_clicks_and_an_intro_one() -> None:
    kinds = {s.screen: s.clicks for s in MODEL.screens if s.lesson == "learn-characters"}
    assert kinds["intro"] == 1 and kinds["1"] == 2


def test_markdown_marks_and_bullets_are_not_words() -> None:
    assert count_words("**Right.** Ben · passes", "·") == 3


def test_each_screen_counts_what_it_shows() -> None:
    first = MODEL.screens[0]
    assert first.lesson == "learn-coins" and first.text.startswith("Coins and the Coup")
    assert "Income: take 1" in first.text and "Coup Ben: pay 7" in first.text
