"""Calibration and action scores, each checked against arithmetic done by hand in the test."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as hs

from trainer.learners.answers import Answer, grade_for
from trainer.quiz.scoring import (
    VERDICT_AT,
    auc,
    brier,
    discrimination,
    ece,
    first_last,
    frame,
    log_score,
    murphy,
    over_time,
    overconfidence,
    per_theme,
    reliability,
    skill,
    summary,
)
from trainer.views.calibration_charts import (
    PANELS,
    PERCENT_TICKS,
    UNCLEAR_NOTE,
    over_time_charts,
    reliability_chart,
    theme_chart,
    theme_lost_chart,
)

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def answer(i: int, stated: float | None = None, bluff: bool | None = None,
           bot: float | None = None, lost: float = 0.0, trivial: bool = False,
           themes: tuple[str, ...] = (), minute: float | None = None) -> Answer:
    """Answer number i, answered i minutes after T0 unless told otherwise."""
    return Answer(
        answer_id=f"answer{i:04d}", learner="ann", item_id=f"item{i}", bank="test-1",
        kind="challenge", themes=themes,
        answered_at=T0 + timedelta(minutes=i if minute is None else minute),
        stated=stated, bot=bot, bluff=bluff, action="challenge", best="pass",
        lost_pp=lost, grade=grade_for(lost), trivial=trivial)


def answers(ps: list[float], os: list[int], bots: list[float] | None = None) -> list[Answer]:
    return [answer(i, stated=p, bluff=bool(o), bot=None if bots is None else bots[i])
            for i, (p, o) in enumerate(zip(ps, os, strict=True))]


# --------------------------------------------------------------------------- frame


def test_frame_is_sorted_by_answer_time_with_themes_kept_as_tuples():
    late = answer(1, stated=0.3, bluff=False, themes=("Duke claims", "End-game"), minute=10)
    early = answer(2, stated=0.6, bluff=True, minute=1)
    df = frame([late, early])
    assert df["answer_id"].tolist() == ["answer0002", "answer0001"]
    assert df.index.tolist() == [0, 1]
    assert df.loc[1, "themes"] == ("Duke claims", "End-game")


def test_frame_keeps_every_one_of_five_thousand_answers():
    many = [answer(i, stated=0.5, bluff=i % 2 == 0, bot=0.4, lost=i % 7,
                   themes=("Duke claims",)) for i in range(5000)]
    df = frame(many)
    assert len(df) == 5000
    assert df["bluff"].sum() == 2500


# --------------------------------------------------------------------------- Brier and log score


def test_brier_is_the_mean_squared_distance_from_the_truth():
    # (0.2 − 0)² + (0.7 − 1)² + (0.9 − 0)² = 0.04 + 0.09 + 0.81 = 0.94; 0.94 / 3 = 0.31333
    assert brier([0.2, 0.7, 0.9], [0, 1, 0]) == pytest.approx(0.94 / 3)


def test_brier_of_always_fifty_percent_is_a_quarter():
    # (0.5 − o)² = 0.25 whatever the truth
    assert brier([0.5] * 5, [1, 0, 0, 1, 1]) == pytest.approx(0.25)


def test_scores_refuse_forecasts_and_outcomes_of_different_lengths():
    with pytest.raises(ValueError, match="2 forecasts but 3 outcomes"):
        brier([0.2, 0.3], [0, 1, 1])


def test_scores_refuse_an_empty_list_rather_than_return_nan():
    with pytest.raises(ValueError, match="no forecasts"):
        brier([], [])


def test_log_score_is_one_hundred_times_one_plus_log2_of_the_outcome_probability():
    # p = 0.5 on a bluff: 100·(1 + log2 0.5) = 0
    # p = 0.75 on a bluff: 100·(1 + log2 0.75) = 100·(1 − 0.4150375) = 58.49625
    # p = 0.25 on an honest claim: p(outcome) = 0.75 → 58.49625 again
    # mean = (0 + 58.49625 + 58.49625) / 3 = 38.99750
    expected = (0 + 2 * 100 * (1 + math.log2(0.75))) / 3
    assert log_score([0.5, 0.75, 0.25], [1, 1, 0]) == pytest.approx(expected)
    assert expected == pytest.approx(38.9975, abs=1e-4)


def test_log_score_clamps_to_one_and_ninety_nine_percent():
    # p = 0 on a bluff is clamped to 0.01: 100·(1 + log2 0.01) = 100·(1 − 6.643856) = −564.3856
    assert log_score([0.0], [1]) == pytest.approx(100 * (1 + math.log2(0.01)))
    assert log_score([0.0], [1]) == pytest.approx(-564.3856, abs=1e-4)
    # p = 1 on a bluff is clamped to 0.99: 100·(1 + log2 0.99) = 98.55004
    assert log_score([1.0], [1]) == pytest.approx(100 * (1 + math.log2(0.99)))


# --------------------------------------------------------------------------- Murphy decomposition


def test_murphy_terms_add_up_exactly_when_forecasts_equal_within_bins():
    # bin 20–30%: four answers of 0.25, two bluffs → f = 0.25, o = 0.5
    # bin 70–80%: four answers of 0.75, four bluffs → f = 0.75, o = 1.0; base rate ō = 6/8 = 0.75
    # REL = (4·(0.25 − 0.5)² + 4·(0.75 − 1)²) / 8 = (0.25 + 0.25) / 8 = 0.0625
    # RES = (4·(0.5 − 0.75)² + 4·(1 − 0.75)²) / 8 = 0.0625
    # UNC = 0.75 · 0.25 = 0.1875
    # BS = (2·0.0625 + 2·0.5625 + 4·0.0625) / 8 = 1.5 / 8 = 0.1875 = REL − RES + UNC
    m = murphy([0.25] * 4 + [0.75] * 4, [0, 0, 1, 1, 1, 1, 1, 1])
    assert m.rel == pytest.approx(0.0625)
    assert m.res == pytest.approx(0.0625)
    assert m.unc == pytest.approx(0.1875)
    assert m.brier == pytest.approx(0.1875)
    assert m.residual == pytest.approx(0.0, abs=1e-12)


def test_murphy_residual_shows_spread_within_bins():
    # 0.10 and 0.19 share the 10–20% bin: f = 0.145, o = 0.5, ō = 0.5
    # REL = (0.145 − 0.5)² = 0.126025, RES = 0, UNC = 0.25 → REL − RES + UNC = 0.376025
    # BS = (0.10² + (0.19 − 1)²) / 2 = (0.01 + 0.6561) / 2 = 0.33305
    # residual = 0.33305 − 0.376025 = −0.042975
    m = murphy([0.10, 0.19], [0, 1])
    assert m.rel == pytest.approx(0.126025)
    assert m.res == pytest.approx(0.0)
    assert m.brier == pytest.approx(0.33305)
    assert m.residual == pytest.approx(-0.042975)


def test_bins_are_closed_on_the_left_and_the_last_bin_takes_one():
    # 0.1 opens the 10–20% bin (not 0–10%), 0.7 opens 70–80% despite 0.7·10 = 7.000000000000001,
    # and p = 1.0 falls in 90–100%
    df = frame(answers([0.1, 0.7, 0.99], [0, 1, 1]))
    table = reliability(df)
    assert table["label"].tolist() == ["10–20%", "70–80%", "90–100%"]
    assert table["bin"].tolist() == [1, 7, 9]
    assert murphy([1.0], [1]).rel == pytest.approx(0.0)


# --------------------------------------------------------------------------- over/underconfidence


def test_overconfidence_is_mean_confidence_minus_hit_rate():
    # confidence in the leaned direction: 0.9, 0.8, 1 − 0.3 = 0.7 → mean 0.8
    # leaned right: 0.9 on a bluff yes, 0.8 on an honest claim no, 0.3 on an honest claim yes
    # → 2/3; overconfidence = 0.8 − 0.66667 = 0.13333
    assert overconfidence([0.9, 0.8, 0.3], [1, 0, 0]) == pytest.approx(0.8 - 2 / 3)


def test_overconfidence_counts_only_leaning_answers():
    # two 50% answers added: they lean neither way, so the result stays 0.13333
    lean = overconfidence([0.9, 0.8, 0.3], [1, 0, 0])
    assert overconfidence([0.9, 0.5, 0.8, 0.3, 0.5], [1, 1, 0, 0, 0]) == pytest.approx(lean)


def test_underconfidence_is_negative():
    # confidence 0.6 and 0.6, both right → 0.6 − 1.0 = −0.4
    assert overconfidence([0.6, 0.4], [1, 0]) == pytest.approx(-0.4)


def test_overconfidence_is_none_when_no_answer_leans():
    assert overconfidence([0.5, 0.5], [1, 0]) is None


def test_ece_weighs_each_bins_gap_by_its_share_of_answers():
    # bin 10–20%: 0.12, 0.18, both honest → f = 0.15, o = 0 → gap 0.15, weight 2/6
    # bin 80–90%: four of 0.8, three bluffs → f = 0.8, o = 0.75 → gap 0.05, weight 4/6
    # ECE = (2·0.15 + 4·0.05) / 6 = 0.5 / 6 = 0.083333
    assert ece([0.12, 0.18, 0.8, 0.8, 0.8, 0.8], [0, 0, 1, 1, 1, 0]) == pytest.approx(0.5 / 6)


# --------------------------------------------------------------------------- discrimination


def test_discrimination_is_mean_p_on_bluffs_minus_mean_p_on_honest_claims():
    # bluffs: (0.8 + 0.6) / 2 = 0.7; honest: (0.3 + 0.1) / 2 = 0.2; 0.7 − 0.2 = 0.5
    assert discrimination([0.8, 0.6, 0.3, 0.1], [1, 1, 0, 0]) == pytest.approx(0.5)


def test_discrimination_needs_both_bluffs_and_honest_claims():
    assert discrimination([0.8, 0.6], [1, 1]) is None


def test_auc_counts_ties_as_half():
    # bluffs 0.6, 0.4 against honest 0.4, 0.2: pairs (0.6 > 0.4) 1, (0.6 > 0.2) 1,
    # (0.4 = 0.4) ½, (0.4 > 0.2) 1 → 3.5 / 4 = 0.875
    assert auc([0.6, 0.4, 0.4, 0.2], [1, 1, 0, 0]) == pytest.approx(0.875)


def test_auc_of_a_constant_forecast_is_a_half():
    # every pair is a tie → ½
    assert auc([0.3] * 4, [1, 0, 1, 0]) == pytest.approx(0.5)


def test_auc_needs_both_bluffs_and_honest_claims():
    assert auc([0.2, 0.4], [0, 0]) is None


def test_skill_is_the_share_of_the_reference_error_avoided():
    # 1 − 0.15 / 0.20 = 0.25; worse than the reference is negative: 1 − 0.3 / 0.2 = −0.5
    assert skill(0.15, 0.20) == pytest.approx(0.25)
    assert skill(0.30, 0.20) == pytest.approx(-0.5)


def test_skill_against_a_perfect_or_missing_reference_is_none():
    assert skill(0.1, 0.0) is None
    assert skill(None, 0.2) is None


# --------------------------------------------------------------------------- reliability table


def test_reliability_standard_error():
    # bin 70–80%: four answers of 0.75, three bluffs → o = 0.75
    # se = √(0.75 · 0.25 / 4) = √0.046875 = 0.216506; lower = 0.533494, upper = 0.966506
    df = frame(answers([0.75] * 4, [1, 1, 1, 0]))
    row = reliability(df).iloc[0]
    assert row["n"] == 4
    assert row["forecast"] == pytest.approx(0.75)
    assert row["observed"] == pytest.approx(0.75)
    assert row["se"] == pytest.approx(math.sqrt(0.046875))
    assert row["lower"] == pytest.approx(0.75 - 0.216506, abs=1e-6)
    assert row["upper"] == pytest.approx(0.75 + 0.216506, abs=1e-6)


def test_small_bins_are_flagged():
    # 9 answers in 20–30% are fewer than 10; 10 answers in 60–70% are enough
    df = frame(answers([0.25] * 9 + [0.65] * 10, [0, 1] * 9 + [1]))
    table = reliability(df).set_index("label")
    assert bool(table.loc["20–30%", "small"]) is True
    assert bool(table.loc["60–70%", "small"]) is False


def test_reliability_leaves_out_answers_without_a_claim_and_empty_bins():
    df = frame([answer(0, stated=0.35, bluff=False), answer(1), answer(2, stated=0.35)])
    table = reliability(df)
    assert table["n"].tolist() == [1]
    assert table["label"].tolist() == ["30–40%"]


def test_reliability_of_the_bot_reads_its_column_and_says_bot():
    df = frame(answers([0.35, 0.35], [0, 1], bots=[0.91, 0.92]))
    table = reliability(df, "bot")
    assert table["who"].tolist() == ["bot"]
    assert table["label"].tolist() == ["90–100%"]
    assert reliability(df)["who"].tolist() == ["you"]


# --------------------------------------------------------------------------- summary


def test_summary_compares_the_learner_with_the_bot_and_the_base_rate():
    # p = 0.2, 0.7, 0.9 on o = 0, 1, 0 → BS = 0.31333 (as above); ō = 1/3
    # bot 0.1, 0.9, 0.5 → (0.01 + 0.01 + 0.25) / 3 = 0.09
    # skill vs bot = 1 − 0.31333 / 0.09 = −2.48148
    # base-rate forecaster: ō(1 − ō) = 2/9 → skill = 1 − 0.31333 / 0.22222 = −0.41
    # (three claims are too few for a skill on the page: `enough` lowers the bar to check
    # the arithmetic)
    s = summary(frame(answers([0.2, 0.7, 0.9], [0, 1, 0], bots=[0.1, 0.9, 0.5])), enough=3)
    assert (s.n, s.n_scored, s.n_vs_bot) == (3, 3, 3)
    assert s.base_rate == pytest.approx(1 / 3)
    assert s.brier == pytest.approx(0.94 / 3)
    assert s.bot_brier == pytest.approx(0.09)
    assert s.skill_vs_bot == pytest.approx(1 - (0.94 / 3) / 0.09)
    assert s.skill_vs_base == pytest.approx(1 - (0.94 / 3) / (2 / 9))
    assert s.skill_vs_base == pytest.approx(-0.41)


def test_summary_compares_with_the_bot_only_where_the_bot_answered():
    # the bot estimated only the first item: you (0.2 − 0)² = 0.04 against the bot's
    # (0.4 − 0)² = 0.16 → skill = 1 − 0.04 / 0.16 = 0.75, although your overall BS is 0.31333
    s = summary(frame([answer(0, stated=0.2, bluff=False, bot=0.4),
                       answer(1, stated=0.7, bluff=True),
                       answer(2, stated=0.9, bluff=False)]), enough=1)
    assert s.n_vs_bot == 1
    assert s.bot_brier == pytest.approx(0.16)
    assert s.skill_vs_bot == pytest.approx(0.75)


def test_no_skill_is_given_on_fewer_claims_than_a_verdict_takes():
    # The bot near-perfect on three claims (Brier (0.01 + 0.0016 + 0.0064) / 3 = 0.006), the
    # learner not (0.3133): a skill of 1 − 0.3133 / 0.006 = −5,122% would read as a finding.
    # Below VERDICT_AT claims there is none, against the bot or the base rate; from VERDICT_AT
    # on, both are computed.
    few = summary(frame(answers([0.2, 0.7, 0.9], [0, 1, 0], bots=[0.1, 0.96, 0.08])))
    assert few.brier == pytest.approx(0.94 / 3) and few.bot_brier is not None
    assert few.skill_vs_bot is None and few.skill_vs_base is None
    k = VERDICT_AT // 3
    enough = summary(frame(answers([0.2, 0.7, 0.9] * k, [0, 1, 0] * k,
                                   bots=[0.1, 0.96, 0.08] * k)))
    assert enough.n_vs_bot == VERDICT_AT
    assert enough.skill_vs_bot == pytest.approx(1 - 0.94 / 0.018)
    assert enough.skill_vs_base == pytest.approx(-0.41)
    just_short = summary(frame(answers([0.2, 0.7, 0.9] * k, [0, 1, 0] * k,
                                       bots=[0.1, 0.96, 0.08] * (k - 1) + [0.1, 0.96, None])))
    assert just_short.n_vs_bot == VERDICT_AT - 1
    assert just_short.skill_vs_bot is None and just_short.skill_vs_base is not None


def test_error_rate_leaves_out_trivial_decisions():
    # non-trivial: 4 and 6 points lost → 5.0; the trivial 0.5 would pull it to 3.5
    s = summary(frame([answer(0, lost=4.0), answer(1, lost=6.0),
                       answer(2, lost=0.5, trivial=True)]))
    assert s.error_rate == pytest.approx(5.0)
    assert s.n_decisions == 2


def test_grades_are_counted_in_order_from_best_to_blunder():
    # lost 0 → best, 3 → good, 12 → mistake, 40 → blunder, 0.5 → best
    s = summary(frame([answer(i, lost=x) for i, x in enumerate([0, 3, 12, 40, 0.5])]))
    assert list(s.grades.items()) == [("best", 2), ("good", 1), ("inaccuracy", 0),
                                      ("mistake", 1), ("blunder", 1)]


def test_summary_of_no_answers():
    s = summary(frame([]))
    assert (s.n, s.n_scored) == (0, 0)
    assert s.brier is None and s.murphy is None and s.auc is None
    assert s.error_rate is None
    assert sum(s.grades.values()) == 0


def test_summary_of_answers_without_claims_still_has_an_error_rate():
    s = summary(frame([answer(0, lost=2.0), answer(1, lost=8.0)]))
    assert s.n_scored == 0 and s.brier is None and s.base_rate is None
    assert s.error_rate == pytest.approx(5.0)


def test_summary_without_bluffs_has_no_discrimination_or_base_rate_skill():
    # all honest: ō = 0 → the base-rate forecaster is perfect, skill is undefined
    s = summary(frame(answers([0.2, 0.3], [0, 0])))
    assert s.discrimination is None and s.auc is None and s.skill_vs_base is None
    assert s.brier == pytest.approx((0.04 + 0.09) / 2)


# --------------------------------------------------------------------------- over time


def test_over_time_has_a_moving_average_per_metric():
    # Brier per answer: (0.2)² = 0.04, (0.7 − 1)² = 0.09, (0.9)² = 0.81
    # window 2 with min_periods 1: 0.04, (0.04 + 0.09)/2 = 0.065, (0.09 + 0.81)/2 = 0.45
    long = over_time(frame(answers([0.2, 0.7, 0.9], [0, 1, 0])), window=2)
    you = long[long["metric"] == "Brier (you)"]
    assert you["n"].tolist() == [1, 2, 3]
    assert you["value"].tolist() == pytest.approx([0.04, 0.09, 0.81])
    assert you["moving"].tolist() == pytest.approx([0.04, 0.065, 0.45])


def test_over_time_scores_only_answers_that_have_the_metric():
    # answer 2 has no claim: no Brier or log score, but it has a win-% lost;
    # answer 3 is trivial: no win-% lost
    df = frame([answer(0, stated=0.5, bluff=True, lost=4.0), answer(1, lost=2.0),
                answer(2, stated=0.75, bluff=True, lost=9.0, trivial=True)])
    long = over_time(df, window=5)
    by = {m: g["n"].tolist() for m, g in long.groupby("metric")}
    assert by["Brier (you)"] == [1, 3]
    assert by["log score"] == [1, 3]
    assert by["win-% lost"] == [1, 2]
    assert "Brier (bot)" not in by  # the bot estimated nothing
    log = long[long["metric"] == "log score"]["value"].tolist()
    assert log == pytest.approx([0.0, 100 * (1 + math.log2(0.75))])


# --------------------------------------------------------------------------- themes


def test_an_answer_with_two_themes_counts_in_both():
    df = frame([answer(0, stated=0.2, bluff=False, themes=("Duke", "End-game")),
                answer(1, stated=0.6, bluff=True, themes=("Duke",)),
                answer(2, lost=3.0)])  # no theme: left out
    table = per_theme(df).set_index("theme")
    assert table["n"].to_dict() == {"Duke": 2, "End-game": 1}
    # Duke: (0.2)² = 0.04 and (0.6 − 1)² = 0.16 → 0.10
    assert table.loc["Duke", "brier"] == pytest.approx(0.10)
    assert table.loc["End-game", "brier"] == pytest.approx(0.04)
    assert per_theme(df)["theme"].tolist() == ["Duke", "End-game"]  # most answers first


def test_theme_with_fewer_than_three_bluffs_is_unclear():
    # "Duke": 2 bluffs and 4 honest claims → unclear; "Captain": 3 and 3 → clear
    duke = [answer(i, stated=0.5, bluff=i < 2, themes=("Duke",)) for i in range(6)]
    captain = [answer(10 + i, stated=0.5, bluff=i < 3, themes=("Captain",)) for i in range(6)]
    table = per_theme(frame(duke + captain)).set_index("theme")
    assert table.loc["Duke", ["bluffs", "honest"]].tolist() == [2, 4]
    assert bool(table.loc["Duke", "unclear"]) is True
    assert bool(table.loc["Captain", "unclear"]) is False


def test_theme_mean_lost_leaves_out_trivial_decisions():
    df = frame([answer(0, lost=4.0, themes=("Duke",)),
                answer(1, lost=0.2, trivial=True, themes=("Duke",))])
    assert per_theme(df).loc[0, "mean_lost"] == pytest.approx(4.0)


def test_theme_table_of_no_answers_is_empty_with_its_columns():
    table = per_theme(frame([]))
    assert table.empty
    assert "unclear" in table.columns


# --------------------------------------------------------------------------- first and latest


def test_first_and_latest_need_two_windows():
    # 59 answers: the first 30 and the latest 30 would share answer 30 → None
    assert first_last(frame([answer(i, stated=0.5, bluff=True) for i in range(59)])) is None
    table = first_last(frame([answer(i, stated=0.5, bluff=True) for i in range(60)]))
    assert table is not None
    assert table["window"].tolist() == ["first 30", "latest 30"]
    assert table["n"].tolist() == [30, 30]


def test_first_and_latest_score_each_window_on_its_own():
    # k = 2. first: p 0.2, 0.4 on honest → BS (0.04 + 0.16)/2 = 0.10; lost 2, 4 → 3.0
    # latest: p 0.9, 0.7 on bluffs → BS (0.01 + 0.09)/2 = 0.05; lost 1, 1 → 1.0
    # overconfidence first: confidence 0.8, 0.6 → 0.7, both right → −0.3
    df = frame([answer(0, stated=0.2, bluff=False, lost=2.0),
                answer(1, stated=0.4, bluff=False, lost=4.0),
                answer(2, stated=0.9, bluff=True, lost=1.0),
                answer(3, stated=0.7, bluff=True, lost=1.0)])
    table = first_last(df, k=2)
    assert table is not None
    assert table.loc["first 2", "brier"] == pytest.approx(0.10)
    assert table.loc["latest 2", "brier"] == pytest.approx(0.05)
    assert table.loc["first 2", "error_rate"] == pytest.approx(3.0)
    assert table.loc["latest 2", "error_rate"] == pytest.approx(1.0)
    assert table.loc["first 2", "overconfidence"] == pytest.approx(-0.3)


# --------------------------------------------------------------------------- charts


def sample(n: int = 200) -> pd.DataFrame:
    """A learner who leans the right way, with themes, bot estimates and a few trivial items."""
    out = []
    for i in range(n):
        bluff = i % 3 == 0
        p = (0.55 if bluff else 0.3) + (i % 5) * 0.05
        out.append(answer(i, stated=round(p, 2), bluff=bluff, bot=0.6 if bluff else 0.25,
                          lost=float(i % 17), trivial=i % 11 == 0,
                          themes=(("Duke", "Captain", "Assassin")[i % 3],)))
    return frame(out)


def rows_with(spec: dict, column: str) -> list[dict]:
    """The inline dataset that has `column` (a layered spec also holds the diagonal's data)."""
    return next(v for v in spec["datasets"].values() if v and column in v[0])


def reliability_table(df: pd.DataFrame) -> pd.DataFrame:
    return pd.concat([reliability(df, "stated"), reliability(df, "bot")], ignore_index=True)


def test_reliability_chart_has_the_bin_selection_the_diagonal_and_error_bars():
    spec = reliability_chart(reliability_table(sample())).to_dict()
    params = {p["name"]: p for p in spec.get("params", [])}
    assert params["bin"]["select"]["fields"] == ["who", "bin"]
    marks = [layer["mark"] for layer in spec["layer"]]
    assert any(m["type"] == "line" and m.get("strokeDash") for m in marks)  # dashed diagonal
    rule = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rule")
    assert rule["encoding"]["y"]["field"] == "lower"
    assert rule["encoding"]["y2"]["field"] == "upper"
    points = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point")
    assert points["encoding"]["x"]["title"] == "chance of a bluff that was given"
    assert points["encoding"]["x"]["scale"]["domain"] == [0, 1]
    assert points["encoding"]["x"]["axis"] == {"format": ".0%", "values": PERCENT_TICKS}
    assert points["encoding"]["size"]["field"] == "n"
    assert {t["field"] for t in points["encoding"]["tooltip"]} >= {
        "label", "n", "forecast", "observed", "se"}


def test_reliability_chart_names_greyed_small_bins_in_the_legend():
    df = frame(answers([0.25] * 3 + [0.65] * 12, [0, 1, 0] + [1, 0, 1] * 4))
    spec = reliability_chart(reliability(df)).to_dict()
    values = rows_with(spec, "series")
    assert {v["series"] for v in values} == {"you", "you, few answers"}
    points = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point")
    # Only the series drawn are in the legend, and colour and shape share it: one legend
    # whose symbols are the chart's own marks.
    assert points["encoding"]["color"]["scale"]["domain"] == ["you", "you, few answers"]
    assert points["encoding"]["shape"]["field"] == "series"
    assert points["encoding"]["shape"]["scale"] == {
        "domain": ["you", "you, few answers"], "range": ["circle", "circle"]}
    assert points["encoding"]["opacity"]["field"] == "small"


def test_reliability_chart_passes_only_the_columns_it_draws():
    spec = reliability_chart(reliability_table(sample())).to_dict()
    for values in spec["datasets"].values():
        assert "lo" not in values[0] and "hi" not in values[0]


def test_over_time_gives_each_scale_its_own_chart():
    charts = over_time_charts(over_time(sample()))
    titles = [c.to_dict()["title"]["text"] for c in charts]
    assert titles == list(dict.fromkeys(PANELS.values()))
    spec = charts[0].to_dict()
    assert spec["layer"][0]["encoding"]["x"]["title"] == "answer number"


def test_over_time_chart_thins_dots_but_keeps_the_latest_answer():
    long = over_time(sample(200))
    spec = over_time_charts(long, max_points=50)[0].to_dict()
    values = rows_with(spec, "metric")
    you = [v["n"] for v in values if v["metric"] == "Brier (you)"]
    assert len(you) <= 51
    assert you[-1] == 200
    assert "answered_at" not in values[0]


def test_theme_chart_greys_unclear_themes_and_says_why():
    theme_df = per_theme(sample(20))  # about 7 answers a theme: too few bluffs in each
    spec = theme_chart(theme_df).to_dict()
    values = rows_with(spec, "status")
    assert any(v["unclear"] for v in values)
    assert all(v["status"] == UNCLEAR_NOTE for v in values if v["unclear"])
    assert UNCLEAR_NOTE == "fewer than 3 bluffs or 3 honest claims"
    bars = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "bar")
    assert bars["encoding"]["strokeDash"]["condition"]["test"] == "datum.unclear"
    ticks = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "tick")
    assert ticks["encoding"]["x"]["field"] == "bot_brier"
    lost = theme_lost_chart(theme_df).to_dict()
    assert lost["encoding"]["x"]["field"] == "mean_lost"


def test_charts_serialise_with_and_without_answers():
    for df in (sample(), frame([])):
        reliability_chart(reliability_table(df)).to_dict()
        for chart in over_time_charts(over_time(df)):
            chart.to_dict()
        theme_chart(per_theme(df)).to_dict()
        theme_lost_chart(per_theme(df)).to_dict()


def test_charts_of_five_thousand_answers_stay_within_altairs_row_limit():
    # Speed is measured by bench/quiz.py; here only that the specs stay small enough to draw.
    df = sample(5000)
    assert summary(df).n == 5000
    for chart in (reliability_chart(reliability_table(df)), *over_time_charts(over_time(df)),
                  theme_chart(per_theme(df)), theme_lost_chart(per_theme(df))):
        spec = chart.to_dict()
        rows = sum(len(v) for v in spec.get("datasets", {}).values())
        assert 0 < rows < 5000


# --------------------------------------------------------------------------- properties

forecasts = hs.lists(hs.tuples(hs.integers(1, 99), hs.booleans()), min_size=2, max_size=60)


@given(forecasts)
def test_murphy_is_exact_when_every_answer_in_a_bin_states_the_same_number(pairs):
    # Snap each forecast to its bin's centre: then BS = REL − RES + UNC with no remainder.
    p = [(min(x, 99) // 10) / 10 + 0.05 for x, _ in pairs]
    o = [float(b) for _, b in pairs]
    m = murphy(p, o)
    assert abs(m.residual) < 1e-12
    assert abs(m.rel - m.res + m.unc - brier(p, o)) < 1e-12


@given(forecasts)
def test_the_brier_score_stays_between_zero_and_one(pairs):
    p = [x / 100 for x, _ in pairs]
    o = [float(b) for _, b in pairs]
    assert 0.0 <= brier(p, o) <= 1.0


@given(forecasts)
def test_turning_every_forecast_around_turns_the_auc_around(pairs):
    p = [x / 100 for x, _ in pairs]
    o = [float(b) for _, b in pairs]
    a, b = auc(p, o), auc([1 - x for x in p], o)
    if a is None:
        assert b is None
    else:
        assert abs(a + b - 1) < 1e-12
