"""The step-by-step estimate in words (`trainer.views.estimate_text`): one line per phrase of
the game so far that changed the odds, numbers a learner can follow with a calculator, and the
last line the bot's figure."""

from __future__ import annotations

import math

import pytest

from tests.helpers import kept_item
from trainer.quiz.feedback import estimate_steps
from trainer.views.estimate_text import (
    estimate_lines,
    estimate_moves,
    estimate_summary,
    estimate_table,
)
from trainer.views.history_text import history_rows

ITEM = kept_item("estimate-item")  # 3 players; Ben judges Ana's second Duke claim


def test_each_line_divides_the_odds_of_a_bluff_by_its_ratio() -> None:
    assert ITEM is not None and ITEM.claimant is not None
    steps = estimate_steps(ITEM)
    assert steps is not None
    obs = ITEM.game().observation(ITEM.viewer)
    lines = estimate_lines(steps, obs)
    assert lines[0].what.startswith("Card counting alone") and lines[0].lr is None
    assert lines[-1].what == "The bot's estimate" and lines[-1].p_bluff == steps[-1].p_bluff
    for before, line in zip(lines, lines[1:-1], strict=False):
        assert line.lr is not None
        odds_before = before.p_bluff / (1 - before.p_bluff)
        odds_after = line.p_bluff / (1 - line.p_bluff)
        assert odds_after == pytest.approx(odds_before / line.lr, rel=1e-9)
    # Every line of a move is a phrase of the game so far, in the game's order.
    phrases = [p.text for r in history_rows(obs) for p in r.phrases]
    said = [line.what for line in lines if line.turn is not None]
    at = -1
    for w in said:  # each found after the one before
        at = next(i for i in range(at + 1, len(phrases))
                  if phrases[i][:1].upper() + phrases[i][1:] == w)
    assert len(said) == 7
    assert math.prod(line.lr or 1.0 for line in lines[1:-1]) == pytest.approx(
        (steps[0].p_holds / (1 - steps[0].p_holds)) ** -1
        * (steps[-1].p_holds / (1 - steps[-1].p_holds)), rel=1e-9)
    folded = [line for line in lines if line.what.startswith("Other moves")]
    assert len(folded) == 1 and folded[0].lr == 1.0


def test_the_table_and_the_sentences_say_chance_of_a_bluff() -> None:
    assert ITEM is not None and ITEM.claimant is not None and ITEM.claim == "Duke"
    steps = estimate_steps(ITEM)
    assert steps is not None
    lines = estimate_lines(steps, ITEM.game().observation(ITEM.viewer))
    table = estimate_table(lines, "Ana", "Duke").splitlines()
    assert table[0] == "| What happened | LR | Odds of a bluff | Chance of a bluff |"
    assert table[2] == ("| **Card counting alone (the cards you can see)** |  | "
                        "1.36\u00a0:\u00a01 | 58% |")
    assert table[3] == "| Turn 1 · Ana: Tax (claims Duke) | 1.73 | 0.79\u00a0:\u00a01 | 44% |"
    assert table[-1] == "| **The bot's estimate** |  | 0.22\u00a0:\u00a01 | 18% |"
    assert estimate_summary(0.5769, 0.0516, "Ana") == (
        "Card counting alone: 58% chance of a bluff. What Ana and the others did this game "
        "made a bluff less likely: the bot says 5%.")
    assert estimate_summary(0.42, 0.4249, "Ana").endswith("left a bluff about as likely: "
                                                         "the bot says 42%.")
    assert estimate_moves(lines, ITEM.claimant, "Ana") == (
        "Ana's 2 moves and 5 moves by the other players changed the odds; every other move "
        "changed nothing.")


def test_a_chance_on_a_half_percent_reads_the_same_stored_or_worked_out_again():
    from trainer.views.estimate_text import estimate_summary

    stored, again = 0.625, 0.6250000000000001  # the bank's figure; with float noise
    assert estimate_summary(stored, 0.7, "Ann").startswith("Card counting alone: 62%")
    assert estimate_summary(again, 0.7, "Ann").startswith("Card counting alone: 62%")
