"""The room's calibration lines wait, like the Calibration page, for enough answers."""

from __future__ import annotations

from trainer.quiz.scoring import VERDICT_AT
from trainer.rooms.results import ClassScores
from trainer.views.room_text import scores_lines


def scores(n: int) -> ClassScores:
    return ClassScores(n=n, brier=0.12, log=30.0, bot_brier=0.2, bot_log=20.0)


def test_a_few_answers_about_bluffs_give_no_figure() -> None:
    lines = scores_lines(scores(3))
    assert lines == [f"On 3 answers about bluffs: too few to tell how well the room judged "
                     f"them (it takes {VERDICT_AT})."]


def test_enough_answers_give_the_room_and_the_bot_s_scores() -> None:
    lines = scores_lines(scores(VERDICT_AT))
    assert lines[0].startswith(f"On {VERDICT_AT} answers about bluffs, the room's Brier score "
                               f"is 0.120")
    assert "the room did better than the bot" in lines[1]
