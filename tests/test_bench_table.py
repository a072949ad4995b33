"""The game-table bench's counting (bench/table_load.py): reading a page's marker, classing a
press against the move rows, the delay until a tab showed a move. No server, no timing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from agentapi import percentile  # noqa: E402
from table_load import (  # noqa: E402
    Frame,
    MoveRow,
    Press,
    Shown,
    at_of,
    classify,
    log_problems,
    page_outcome,
    seen_delays,
)

from trainer.views.table_text import at_html  # noqa: E402


def test_the_marker_the_pages_draw_is_read_back() -> None:
    page = ["<style>.x{}</style>" + at_html(2, 17), "**Your turn.**"]
    assert at_of(page) == (2, 17)
    assert at_of(["no marker here"]) is None


def test_what_the_page_said_after_a_press() -> None:
    assert page_outcome(["**Table AB12CD**"]) == "accepted"
    assert page_outcome(["The table moved on before your press arrived: here it is "
                         "now."]) == "stale"
    assert page_outcome(["It is Ben's decision, not yours."]) == "not_yours"
    assert page_outcome(["That move cannot be made now: you have 2 coins"]) == "illegal"


def rows(*made: tuple[int, str, float]) -> dict[int, MoveRow]:
    return {i: MoveRow(i, seat, by, at) for i, (seat, by, at) in enumerate(made)}


def press(seat: int, version: int, sent: float) -> Press:
    return Press("AB12CD", seat, 1, version, sent, 0.05, True, "accepted")


def test_a_press_is_stored_stale_or_lost() -> None:
    game = rows((0, "person", 10.0), (5, "bot", 11.0), (1, "forced", 12.5),
                (2, "person", 14.0))
    assert classify(press(2, 3, 13.9), game) == "stored"
    # the page showed 1 move when the game had 2 already: behind
    assert classify(press(1, 1, 11.5), game) == "behind"
    # the table played the forced loss after the press left: raced
    assert classify(press(1, 2, 12.4), game) == "raced"
    # once the forced loss was written, the page showing 2 moves was behind
    assert classify(press(1, 2, 12.6), game) == "behind"
    # on the current move, and not written as this seat's: lost
    assert classify(press(1, 2, 12.4), rows((0, "person", 10.0), (5, "bot", 11.0))) == "lost"
    assert classify(press(3, 4, 15.0), game) == "lost"
    # another person's row after the press left is no excuse
    assert classify(press(4, 3, 13.9), game) == "lost"


def test_the_first_frame_showing_a_move_counts() -> None:
    frames = [Frame(1.0, 1, 0), Frame(2.0, 1, 1), Frame(2.5, 1, 1), Frame(4.0, 1, 3),
              Frame(3.0, 1, 2)]  # out of order: sorted by time
    shown = Shown.of(frames)
    assert shown.first(1, 1) == 2.0
    assert shown.first(1, 2) == 3.0
    assert shown.first(1, 3) == 4.0
    assert shown.first(1, 4) is None
    assert shown.first(0, 9) == 1.0  # a later game has passed every move of an earlier one
    game = {1: [MoveRow(0, 0, "person", 1.5), MoveRow(1, 5, "bot", 2.8),
                MoveRow(2, 1, "person", 3.9), MoveRow(3, 2, "person", 4.5)]}
    delays, unseen = seen_delays(game, frames)
    assert delays == pytest.approx([0.5, 0.2, 0.1])
    assert unseen == 1
    assert percentile(delays, 0.5) == pytest.approx(0.2)


def test_tracebacks_in_a_log_are_counted() -> None:
    log = ("starting\nTraceback (most recent call last):\n  File \"x.py\", line 1\n"
           "    boom()\nValueError: no\nfine\nTraceback (most recent call last):\n"
           "  File \"y.py\"\nKeyError: 'k'\n")
    assert log_problems(log) == (2, ["ValueError: no", "KeyError: 'k'"])
    assert log_problems("all quiet") == (0, [])
