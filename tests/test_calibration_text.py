"""The Calibration page's opening sentences, checked against answers counted by hand; the paired
bootstrap behind "about as good as the bot"; and what the charts promise a phone reader."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pandas as pd
import pytest

from trainer.learners.answers import Answer, grade_for
from trainer.quiz.findings import VERDICT_AT, findings
from trainer.quiz.scoring import brier_gap, frame, over_time, per_theme, reliability, summary
from trainer.views.calibration_charts import (
    DIAGONAL_NOTE,
    integer_ticks,
    over_time_charts,
    reliability_chart,
    theme_chart,
    theme_lost_chart,
)
from trainer.views.calibration_text import expert_figures, lead

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def claim(i: int, stated: float | None, bluff: bool | None, bot: float | None = None,
          lost: float = 0.0) -> Answer:
    return Answer(
        answer_id=f"answer{i:04d}", learner="ann", item_id=f"item{i}", bank="test-1",
        kind="challenge", answered_at=T0 + timedelta(minutes=i), stated=stated, bot=bot,
        bluff=bluff, action="challenge", best="pass", lost_pp=lost, grade=grade_for(lost))


def claims(*groups: tuple[int, float, int, float | None]) -> list[Answer]:
    """(how many, stated, how many of them were bluffs, the bot's estimate) per group."""
    out: list[Answer] = []
    for n, stated, bluffs, bot in groups:
        out += [claim(len(out) + k, stated, k < bluffs, bot) for k in range(n)]
    return out


def paragraphs(answers: list[Answer]) -> list[str]:
    return lead(findings(frame(answers)), len(answers))


# Twelve "likely a bluff" answers (80%), seven of them bluffs; nine "likely honest" answers
# (20%), one of them a bluff, so eight honest. The bot said 70% and 30% on the same claims.
TWENTY_ONE = claims((12, 0.8, 7, 0.7), (9, 0.2, 1, 0.3))


# --------------------------------------------------------------------------- what was said


def test_the_first_sentences_count_what_the_learner_said_and_what_the_cards_showed():
    assert paragraphs(TWENTY_ONE)[0] == (
        "You judged 21 claims. You said “likely a bluff” (over 50%) 12 times; 7 were bluffs. "
        "You said “likely honest” (under 50%) 9 times; 8 were honest.")


def test_fifty_percent_answers_are_counted_apart_as_cant_tell():
    first = paragraphs(claims((3, 0.6, 2, None), (2, 0.5, 1, None)))[0]
    assert first == ("You judged 5 claims. You said “likely a bluff” (over 50%) 3 times; "
                     "2 were bluffs. You said 50% (can't tell) twice.")


def test_a_single_answer_on_a_side_says_what_it_turned_out_to_be():
    first = paragraphs(claims((1, 0.7, 0, None), (1, 0.4, 1, None)))[0]
    assert first == ("You judged 2 claims. You said “likely a bluff” (over 50%) once; it was "
                     "honest. You said “likely honest” (under 50%) once; it was a bluff.")


def test_no_bluff_among_the_likely_bluffs_is_said_as_none():
    first = paragraphs(claims((4, 0.9, 0, None)))[0]
    assert first == ("You judged 4 claims. You said “likely a bluff” (over 50%) 4 times; "
                     "none were bluffs.")


def test_answers_without_a_claim_say_there_is_nothing_to_judge_yet():
    answers = [claim(0, None, None, lost=3.0), claim(1, None, None)]
    assert paragraphs(answers) == [
        "None of your 2 answers judged a claim yet. This page fills in once you have said "
        "how likely a claim is to be a bluff."]


# --------------------------------------------------------------------------- before the threshold


def test_before_thirty_claims_there_is_no_verdict_on_confidence():
    assert paragraphs(TWENTY_ONE)[1] == ("It is too early to say whether you are "
                                         "overconfident: that takes 30 judged claims, and you "
                                         "have 21.")


def test_before_thirty_claims_the_bot_is_only_counted_not_compared():
    assert paragraphs(TWENTY_ONE)[2] == (
        "On the same 21 claims, the bot said “likely a bluff” 12 times; 7 were bluffs. "
        "Too few claims yet to say which of you judges better: that takes 30.")


def test_a_large_gap_on_twenty_nine_claims_is_still_no_verdict():
    # 29 claims where the learner is far better than the bot and far off at 90%: still no
    # word about either, because 29 is below the threshold.
    text = " ".join(paragraphs(claims((20, 0.9, 10, 0.5), (9, 0.1, 0, 0.5))))
    assert VERDICT_AT == 30
    for verdict in ("overconfident there", "underconfident there", "did better",
                    "about as good", "about right"):
        assert verdict not in text
    assert "too early" in text and "Too few claims yet" in text


# --------------------------------------------------------------------------- confidence


def test_said_ninety_percent_and_sixty_percent_were_bluffs_is_clearly_overconfident():
    # High end: 20 answers at 90%, 12 bluffs = 60%; the gap, 30 points, is more than chance
    # gives on 20 answers (1.96 · √(0.9 · 0.1 / 20) ≈ 13 points) and at least 15: "clearly".
    # Low end: 10 answers at 20%, 2 bluffs = 20%: no gap, so not mentioned.
    assert paragraphs(claims((20, 0.9, 12, None), (10, 0.2, 2, None)))[1] == (
        "When you gave a bluff a chance of 70% or more, you said 90% on average, but 60% were "
        "bluffs (12 of 20): you are clearly overconfident there.")


def test_one_end_about_right_is_said_with_its_counts():
    # 30 answers at 80%, 25 bluffs = 83%: 3 points off, within 1.96 · √(0.16 / 30) ≈ 14.
    assert paragraphs(claims((30, 0.8, 25, None)))[1] == (
        "When you gave a bluff a chance of 70% or more, you said 80% on average, and 83% were "
        "bluffs (25 of 30): about right, within what chance alone gives.")


def test_both_ends_about_right_are_said_in_one_sentence():
    assert paragraphs(claims((20, 0.8, 16, None), (10, 0.2, 2, None)))[1] == (
        "When you gave a bluff a chance of 70% or more, or of 30% or less, the cards bore you "
        "out: about right, within what chance alone gives.")


def test_a_ten_point_gap_on_a_hundred_answers_is_a_little_overconfident():
    # 100 answers at 80%, 70 bluffs: 10 points off, more than 1.96 · √(0.16 / 100) ≈ 8.
    assert paragraphs(claims((100, 0.8, 70, None)))[1] == (
        "When you gave a bluff a chance of 70% or more, you said 80% on average, but 70% were "
        "bluffs (70 of 100): you are a little overconfident there.")


def test_fewer_bluffs_than_a_low_chance_said_is_underconfident():
    # 40 answers at 30%, 2 bluffs = 5%: the learner could have said much less.
    assert paragraphs(claims((40, 0.3, 2, None)))[1] == (
        "When you gave a bluff a chance of 30% or less, you said 30% on average, but 5% were "
        "bluffs (2 of 40): you are clearly underconfident there.")


def test_an_end_with_fewer_than_ten_answers_is_not_judged_on_its_own():
    # 35 claims, but only 5 at 70% or more and none at 30% or less.
    assert paragraphs(claims((30, 0.5, 15, None), (5, 0.9, 0, None)))[1] == (
        "You rarely gave a bluff a chance of 70% or more, or 30% or less (fewer than 10 "
        "times each), so it is too early to say whether you are overconfident.")


# --------------------------------------------------------------------------- against the bot


def test_within_noise_is_said_when_the_bootstrap_interval_holds_zero():
    # 30 bluffs: on the first 15 the learner said 80% and the bot 60%, on the last 15 the
    # other way round, so the two Brier scores are equal and the difference is 0.
    answers = claims((15, 0.8, 15, 0.6)) + [claim(15 + i, 0.6, True, 0.8) for i in range(15)]
    f = findings(frame(answers))
    assert f.gap is not None and f.gap.low <= 0 <= f.gap.high
    assert paragraphs(answers)[2] == (
        "On the same 30 claims, the bot said “likely a bluff” 30 times; 30 were bluffs. "
        "You are about as good as the bot: the difference between you is within what chance "
        "alone gives.")


def test_a_learner_closer_to_the_truth_on_every_claim_did_better_than_the_bot():
    # Learner 90% on bluffs and 10% on honest claims; the bot 50% on all 30.
    text = paragraphs(claims((15, 0.9, 15, 0.5), (15, 0.1, 0, 0.5)))[2]
    assert text.endswith("You did better than the bot: your chances were closer to what the "
                         "cards showed, by more than chance alone gives.")


def test_a_bot_closer_to_the_truth_on_every_claim_did_better_than_the_learner():
    text = paragraphs(claims((15, 0.5, 15, 0.9), (15, 0.5, 0, 0.1)))[2]
    assert text == ("On the same 30 claims, the bot said “likely a bluff” 15 times; 15 were "
                    "bluffs. The bot did better: its chances were closer to what the cards "
                    "showed, by more than chance alone gives.")


def test_claims_the_bot_did_not_judge_are_named_as_fewer():
    answers = TWENTY_ONE + [claim(21, 0.6, True, None)]
    assert paragraphs(answers)[2].startswith("On the 21 of these claims the bot judged, ")


def test_without_any_bot_estimate_there_is_no_bot_sentence():
    assert len(paragraphs(claims((5, 0.6, 3, None)))) == 2


# --------------------------------------------------------------------------- the bootstrap


def noisy(n: int = 60, seed: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    o = (rng.random(n) < 0.4).astype(float)
    p = np.clip(0.4 + 0.3 * (o - 0.4) + rng.normal(0, 0.2, n), 0.01, 0.99)
    bot = np.clip(0.4 + 0.4 * (o - 0.4) + rng.normal(0, 0.15, n), 0.01, 0.99)
    return p, bot, o


def test_the_bootstrap_interval_is_the_same_on_every_run():
    p, bot, o = noisy()
    assert brier_gap(p, bot, o) == brier_gap(p, bot, o)


def test_the_bootstrap_interval_brackets_the_observed_difference():
    p, bot, o = noisy()
    gap = brier_gap(p, bot, o)
    assert gap.diff == pytest.approx(np.mean((p - o) ** 2) - np.mean((bot - o) ** 2))
    assert gap.low < gap.diff < gap.high
    assert (gap.n, gap.resamples, gap.level) == (60, 2000, 0.95)


def test_the_bootstrap_interval_narrows_with_more_claims():
    small = brier_gap(*noisy(30))
    large = brier_gap(*noisy(600))
    assert large.high - large.low < (small.high - small.low) / 2


def test_an_interval_holding_zero_is_within_noise_and_one_beside_it_is_not():
    assert brier_gap([0.8, 0.6], [0.6, 0.8], [1, 1]).within_noise
    # Every item 0.24 better than the bot: the interval is that single value.
    better = brier_gap([0.9, 0.1], [0.5, 0.5], [1, 0])
    assert (better.low, better.high) == pytest.approx((-0.24, -0.24))
    assert not better.within_noise


def test_the_expert_figures_give_the_interval_of_the_difference_from_the_bot():
    df = frame(TWENTY_ONE + TWENTY_ONE)
    f = findings(df)
    assert f.gap is not None
    line = next(x for x in expert_figures(summary(df), f) if "you − the bot" in x)
    # Brier: you (7 · 0.04 + 5 · 0.64 + 1 · 0.64 + 8 · 0.04) / 21 = 4.44 / 21;
    # the bot (7 · 0.09 + 5 · 0.49 + 1 · 0.49 + 8 · 0.09) / 21 = 4.29 / 21 → 0.15 / 21 = 0.007
    assert line.startswith("**Brier, you − the bot: +0.007** (95% interval −")
    assert f"to +{f.gap.high:.3f}, 2,000 paired resamples of the same 42 claims)" in line


def test_before_thirty_claims_the_expert_figures_say_too_few_to_tell():
    df = frame(TWENTY_ONE)
    lines = expert_figures(summary(df), findings(df))
    versus = next(x for x in lines if "you − the bot" in x)
    assert versus == ("**Brier, you − the bot:** too few claims to tell. Comparing you with "
                      "the bot takes 30 claims it judged too; you have 21.")
    assert "interval" not in " ".join(lines)
    assert next(x for x in lines if "Skill vs the bot" in x).startswith(
        "**Skill vs the bot:** too few claims to tell (it takes 30; you have 21).")


def test_a_skill_far_below_the_bots_is_said_as_how_many_times_its_error():
    # Thirty claims on which the bot was near-perfect: your Brier (0.64 · 20 + 0.04 · 10) / 30
    # = 0.44, the bot's 0.0025: skill 1 − 0.44 / 0.0025 = −17,500%, said as 176 times its error.
    df = frame(claims((20, 0.2, 20, 0.95), (10, 0.2, 0, 0.05)))
    s = summary(df)
    assert s.skill_vs_bot == pytest.approx(1 - 0.44 / 0.0025)
    line = next(x for x in expert_figures(s, findings(df)) if "Skill vs the bot" in x)
    assert line.startswith("**Skill vs the bot: below −100%** (your Brier score is 176 times "
                           "the bot's)."), line


# --------------------------------------------------------------------------- the charts


def sample_frame():
    return frame(claims((12, 0.8, 7, 0.7), (9, 0.2, 1, 0.3), (40, 0.45, 15, 0.4)))


def titles(spec: dict) -> list[str]:
    """A chart's title and every subtitle line."""
    title = spec.get("title", {})
    if isinstance(title, str):
        return [title]
    sub = title.get("subtitle", [])
    return [title.get("text", ""), *([sub] if isinstance(sub, str) else sub)]


def test_every_chart_title_line_fits_a_phone():
    # About 7 px a character at the title's 13–14 px: 40 characters fill ~280 px of the
    # ~330 px a chart gets on a 390 px phone, beside nothing else.
    df = sample_frame()
    table = reliability(df, "stated")
    charts = [reliability_chart(table), *over_time_charts(over_time(df)),
              theme_chart(per_theme(df)), theme_lost_chart(per_theme(df))]
    for chart in charts:
        for line in titles(chart.to_dict()):
            assert len(line) <= 40, line


def test_the_reliability_legend_pairs_circle_with_you_and_square_with_the_bot():
    df = sample_frame()
    table = pd.concat([reliability(df, "stated"), reliability(df, "bot")], ignore_index=True)
    spec = reliability_chart(table).to_dict()
    points = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point")
    shape = points["encoding"]["shape"]["scale"]
    assert dict(zip(shape["domain"], shape["range"], strict=True)) == {
        "you": "circle", "the bot": "square", "you, few answers": "circle",
        "bot, few answers": "square"}
    assert points["encoding"]["color"]["field"] == points["encoding"]["shape"]["field"]
    assert spec["title"]["subtitle"] == ["circle: you · square: the bot",
                                         "dashed line: perfectly calibrated"]


def test_the_diagonal_is_labelled_on_the_chart():
    spec = reliability_chart(reliability(sample_frame(), "stated")).to_dict()
    text = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "text")
    label = next(v for v in spec["datasets"].values() if v and "text" in v[0])
    assert label[0]["text"] == DIAGONAL_NOTE == "perfectly calibrated"
    assert "atan2(height, width)" in text["mark"]["angle"]["expr"]


def test_integer_ticks_never_fall_between_whole_numbers():
    assert integer_ticks(3) == [0, 1, 2, 3]
    assert integer_ticks(0.4) == [0, 1]
    assert integer_ticks(12) == [0, 5, 10, 15]
    assert integer_ticks(12, cover=False) == [0, 5, 10]
    assert integer_ticks(5000, cover=False) == [0, 1000, 2000, 3000, 4000, 5000]


def test_the_answer_number_axis_has_whole_ticks_up_to_the_last_answer():
    charts = over_time_charts(over_time(frame(TWENTY_ONE[:6])))
    x = charts[0].to_dict()["layer"][0]["encoding"]["x"]
    assert x["axis"] == {"format": "d", "values": [0, 2, 4, 6]}
    assert x["scale"]["domain"] == [0, 6]


def test_percent_axes_of_the_reliability_chart_are_whole_percentages():
    spec = reliability_chart(reliability(sample_frame(), "stated")).to_dict()
    points = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point")
    for channel in ("x", "y"):
        assert points["encoding"][channel]["axis"]["format"] == ".0%"
        assert all(round(v * 100) == v * 100 for v in points["encoding"][channel]["axis"]
                   ["values"])


def test_the_quiz_guide_quotes_the_opening_for_twenty_one_claims():
    from pathlib import Path

    guide = Path(__file__).resolve().parent.parent / "docs" / "quiz.md"
    text = " ".join(guide.read_text(encoding="utf-8").replace("\n>", "\n").split())
    for paragraph in paragraphs(TWENTY_ONE):
        assert paragraph in text, paragraph


def test_a_run_of_answers_that_lost_nothing_keeps_the_win_axis_from_zero_to_one():
    charts = over_time_charts(over_time(frame(TWENTY_ONE)))  # every lost_pp is 0
    y = charts[-1].to_dict()["layer"][0]["encoding"]["y"]
    assert y["axis"] == {"format": "d", "values": [0, 1]}
    assert y["scale"] == {"domain": [0, 1], "nice": False}
