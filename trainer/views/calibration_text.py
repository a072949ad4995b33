"""What the Calibration page says: its opening sentences, the expert figures with their
explanations, the tables beside the charts, and the captions around them (no Streamlit).

Why apart from the page: the sentences are the page's point, and a test can check each of them
against answers counted by hand without a browser; each number is formatted with its
explanation in one place (a missing number is "–", never "nan").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from trainer.learners.history_csv import ImportReport
from trainer.quiz.findings import CLEARLY, HIGH, LOW, ZONE_MIN, Findings, Leaning, Zone
from trainer.quiz.scoring import VERDICT_AT, Murphy, Summary
from trainer.views.plurals import count

EARLY = VERDICT_AT  # judged claims below which the numbers are early signs
SHOWN_ERRORS = 10  # lines of a CSV import's errors listed one by one


def pct(x: float | None, signed: bool = False) -> str:
    return "–" if x is None else _minus(f"{x:+.0%}" if signed else f"{x:.0%}")


def num(x: float | None, fmt: str = ".3f") -> str:
    return "–" if x is None else _minus(format(x, fmt))


def _minus(text: str) -> str:
    """A typographic minus: a hyphen before a number reads as a dash on a phone."""
    return text.replace("-", "−")


# --------------------------------------------------------------------------- the opening


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _were(k: int, n: int, what: str, other: str) -> str:
    """How many of n answers were `what`: "7 were bluffs", "1 was a bluff", "none were
    bluffs"; of a single answer, "it was a bluff" or "it was honest"."""
    if n == 1:
        return f"it was {what if k else other}"
    if k == 0:
        return f"none were {_plural(what)}"
    return f"1 was {what}" if k == 1 else f"{k} were {_plural(what)}"


def _plural(what: str) -> str:
    return "bluffs" if what == "a bluff" else what


def _leaning_sentences(who: str, lean: Leaning, scale: bool = True) -> list[str]:
    """What a forecaster said, counted the way a learner remembers clicking it; `scale` adds
    which chances count as "likely", said once on the page."""
    over, under = (" (over 50%)", " (under 50%)") if scale else ("", "")
    out = []
    if lean.said_bluff:
        out.append(f"{who} said “likely a bluff”{over} {times(lean.said_bluff)}; "
                   f"{_were(lean.were_bluffs, lean.said_bluff, 'a bluff', 'honest')}.")
    if lean.said_honest:
        out.append(f"{who} said “likely honest”{under} {times(lean.said_honest)}; "
                   f"{_were(lean.were_honest, lean.said_honest, 'honest', 'a bluff')}.")
    if lean.even:
        out.append(f"{who} said 50% (can't tell) {times(lean.even)}.")
    return out


def _zone_sentence(z: Zone, who: str = "you") -> str:
    """One confident end of the scale: what was said, what the cards showed, and the word
    for the gap (only called once there are enough answers to judge). `who` is "you" on the
    Calibration page, "the class" in a room's report."""
    where = "70% or more" if z.side == "high" else "30% or less"
    if z.within_noise:
        judged = "and", "about right, within what chance alone gives"
    else:
        size = "a little" if abs(z.gap) < CLEARLY else "clearly"
        are = "are" if who == "you" else "is"
        judged = "but", f"{who} {are} {size} {'over' if z.gap > 0 else 'under'}confident there"
    return (f"When {who} gave a bluff a chance of {where}, {who} said {z.mean_said:.0%} on "
            f"average, {judged[0]} {z.rate:.0%} were bluffs ({z.bluffs} of {z.n}): "
            f"{judged[1]}.")


def _confidence_sentences(f: Findings) -> list[str]:
    if not f.enough:
        return [f"It is too early to say whether you are overconfident: that takes "
                f"{f.verdict_at} judged claims, and you have {f.n_scored}."]
    zones = f.judged_zones()
    if not zones:
        return [f"You rarely gave a bluff a chance of {HIGH:.0%} or more, or {LOW:.0%} or "
                f"less (fewer than {ZONE_MIN} times each), so it is too early to say whether "
                f"you are overconfident."]
    # Only the ends that are off, to keep the opening short; both right is said once.
    off = [z for z in zones if not z.within_noise]
    if off or len(zones) == 1:
        return [_zone_sentence(z) for z in off or zones]
    return [f"When you gave a bluff a chance of {HIGH:.0%} or more, or of {LOW:.0%} or less, "
            f"the cards bore you out: about right, within what chance alone gives."]


def _bot_sentences(f: Findings) -> list[str]:
    if f.bot is None or f.gap is None:
        return []
    if f.n_vs_bot == f.n_scored:
        same = "On the same claim" if f.n_vs_bot == 1 else f"On the same {f.n_vs_bot} claims"
    else:
        same = ("On the one of these claims the bot judged" if f.n_vs_bot == 1
                else f"On the {f.n_vs_bot} of these claims the bot judged")
    # One sentence of the bot's counts, for scale; the learner's own come first and in full.
    counts = _leaning_sentences("the bot", f.bot, scale=False)
    out = [f"{same}, {counts[0]}" if counts else f"{same}, the bot gave its own chances."]
    if not f.enough_vs_bot:
        out.append(f"Too few claims yet to say which of you judges better: that takes "
                   f"{f.verdict_at}.")
    elif f.gap.within_noise:
        out.append("You are about as good as the bot: the difference between you is within "
                   "what chance alone gives.")
    elif f.gap.low > 0:
        out.append("The bot did better: its chances were closer to what the cards showed, "
                   "by more than chance alone gives.")
    else:
        out.append("You did better than the bot: your chances were closer to what the cards "
                   "showed, by more than chance alone gives.")
    return out


def lead(f: Findings, n_answers: int) -> list[str]:
    """The page's opening paragraphs: what the learner said and what the cards showed, where
    they lean too far, and how they compare with the bot on the same claims.

    Counts come first because a reader can check them against memory; judgements only once
    `Findings.enough` says there are enough answers for them to mean something.
    """
    if f.n_scored == 0:
        none = ("Your one answer did not judge a claim" if n_answers == 1
                else f"None of your {n_answers} answers judged a claim yet")
        return [f"{none}. This page fills in once you have said how likely a claim is to be "
                f"a bluff."]
    return [
        " ".join([f"You judged {count(f.n_scored, 'claim')}.",
                  *_leaning_sentences("You", f.you)]),
        " ".join(_confidence_sentences(f)),
        *filter(None, [" ".join(_bot_sentences(f))]),
    ]


def class_lead(f: Findings, who: str = "The class") -> list[str]:
    """The same opening for a group's answers (a room's class, in its printed report): what
    it said and what the cards showed, then a judgement only once `Findings.enough` says
    there are enough judged claims; below that, that there are too few to tell, and no
    figure."""
    low = who[0].lower() + who[1:]
    if f.n_scored == 0:
        return [f"{who} judged no claim: no question asked gave a chance of a bluff to "
                f"check against the cards."]
    out = [" ".join([f"{who} judged {count(f.n_scored, 'claim')}.",
                     *_leaning_sentences(who, f.you)])]
    if not f.enough:
        return [*out, f"Too few answers to tell how well {low} judges bluffs, or how it "
                      f"compares with the bot: that takes {f.verdict_at} judged claims, and "
                      f"there are {f.n_scored}. Read the counts above as counts, not a "
                      f"verdict."]
    zones = f.judged_zones()
    if not zones:
        out.append(f"{who} rarely gave a bluff a chance of {HIGH:.0%} or more, or {LOW:.0%} "
                   f"or less (fewer than {ZONE_MIN} times each), so it is too early to say "
                   f"whether {low} is overconfident.")
    else:
        out.append(" ".join(_zone_sentence(z, low) for z in zones))
    gap = f.gap
    if gap is None:
        return out
    if not f.enough_vs_bot:
        out.append(f"Too few claims the bot judged too to compare {low} with the bot: that "
                   f"takes {f.verdict_at}, and there are {f.n_vs_bot}.")
    elif gap.within_noise:
        out.append(f"{who} is about as good as the bot on the same claims: the difference is "
                   f"within what chance alone gives.")
    elif gap.low > 0:
        out.append(f"The bot did better than {low}: its chances were closer to what the "
                   f"cards showed, by more than chance alone gives.")
    else:
        out.append(f"{who} did better than the bot: its chances were closer to what the "
                   f"cards showed, by more than chance alone gives.")
    return out


# --------------------------------------------------------------------------- expert figures


def expert_figures(s: Summary, f: Findings) -> list[str]:
    """The scores a statistician would ask for, one line each: the name and value in bold,
    then what it measures. Plain numbers without colours or verdicts: the opening sentences
    say what they mean, and only once there are enough answers.

    A comparison (you against the bot, or against the base rate) waits for as many claims as
    the opening's verdicts do: on three claims a bootstrap interval and a skill of −236% look
    like findings and are luck. Before then each says that there are too few claims to tell,
    how many it takes and how many there are (`Summary` gives no skill then)."""
    gap = f.gap
    vs_bot = _skill(s.skill_vs_bot, s.n_vs_bot, f.verdict_at, "the bot's")
    vs_base = _skill(s.skill_vs_base, s.n_scored, f.verdict_at, "that of the base rate")
    lines = [
        f"**Claims judged: {s.n_scored}** of {count(s.n, 'answer')}. Bluffs among them (the "
        f"base rate): {pct(s.base_rate)}.",
        f"**Brier score: {num(s.brier)}** (the bot: {num(s.bot_brier)} on "
        f"{count(s.n_vs_bot, 'claim')}). Mean of (stated − truth)², truth 1 for a bluff; 0 is "
        f"perfect, always saying 50% scores 0.250; lower is better.",
    ]
    if gap is not None and f.enough_vs_bot:
        lines.append(
            f"**Brier, you − the bot: {num(gap.diff, '+.3f')}** ({gap.level:.0%} interval "
            f"{num(gap.low, '+.3f')} to {num(gap.high, '+.3f')}, {gap.resamples:,} paired "
            f"resamples of the same {count(gap.n, 'claim')}). Below 0 you beat the bot; an "
            f"interval that holds 0 is within noise.")
    elif gap is not None:
        lines.append(
            f"**Brier, you − the bot:** too few claims to tell. Comparing you with the bot "
            f"takes {f.verdict_at} claims it judged too; you have {f.n_vs_bot}.")
    lines += [
        f"**Skill vs the bot{vs_bot} 1 − "
        f"your Brier ÷ the bot's on the same claims; above 0 beats the bot.",
        f"**Skill vs the base rate{vs_base} 1 − "
        f"your Brier ÷ the Brier of always saying the base rate.",
        f"**Log score: {num(s.log_score, '.1f')}.** Metaculus style, 100 · (1 + log₂ "
        f"p(what happened)), stated p clamped to 1–99%; 0 for always 50%, higher is better.",
        f"**Overconfidence: {pct(s.overconfidence, True)}.** On answers that leaned one way: "
        f"mean confidence minus how often the lean was right; above 0 is overconfident.",
        f"**Expected calibration error: {num(s.ece)}.** The reliability chart's mean "
        f"distance from the diagonal, weighted by answers per bin.",
        f"**Discrimination (AUC): {num(s.auc, '.2f')}.** The chance a random bluff got a "
        f"higher p than a random honest claim (0.5: no separation). Mean p on bluffs − on "
        f"honest claims: {num(s.discrimination, '+.2f')}.",
        f"**Action error rate: "
        f"{'–' if s.error_rate is None else f'{s.error_rate:.1f} points'}.** Mean win-% "
        f"lost per decision, over {count(s.n_decisions, 'decision')} where the choice "
        f"mattered (trivial ones left out, as GNU Backgammon does).",
    ]
    return lines


def _skill(x: float | None, n: int, enough: int, ref: str) -> str:
    """A skill figure's bold head and value, up to its explanation: too few claims said as
    such; far below the reference (under −100%, more than twice its error) said as how many
    times the reference's error, since "−5,122%" reads as a misprint."""
    if n and n < enough:
        return f":** too few claims to tell (it takes {enough}; you have {n})."
    if x is not None and x < -1:
        times = f"{1 - x:.0f}" if 1 - x >= 10 else f"{1 - x:.1f}"
        return f": below −100%** (your Brier score is {times} times {ref})."
    return f": {pct(x, True)}.**"


def early_signs(n_scored: int) -> str | None:
    """A warning while there are too few judged claims to read the numbers as a verdict."""
    if n_scored >= EARLY:
        return None
    return (f"{n_scored} judged claim{'s' if n_scored != 1 else ''} so far: with fewer than "
            f"{EARLY}, read these numbers as early signs, not a verdict.")


def forget_label(n: int) -> str:
    """The box ticked before deleting every answer: "Yes, delete my answer" for one."""
    return "Yes, delete my answer" if n == 1 else f"Yes, delete my {n} answers"


def forgotten(n: int) -> str:
    return f"Deleted {count(n, 'answer')}."


def first_last_later(n: int, window: int = 30) -> str:
    """Before there are two windows of answers to compare: when they appear."""
    return (f"Your first {window} answers against your latest {window} appear after "
            f"{2 * window} answers ({n} so far).")


def murphy_table(m: Murphy) -> pd.DataFrame:
    return pd.DataFrame([
        {"term": "reliability (lower is better)", "value": m.rel},
        {"term": "resolution (higher is better)", "value": m.res},
        {"term": "uncertainty (the items' own)", "value": m.unc},
        {"term": "Brier = rel − res + unc + rest", "value": m.brier},
    ])


def murphy_caption(m: Murphy, ece: float | None) -> str:
    return (f"Murphy's decomposition over ten bins of 10 points. It is exact only when every "
            f"answer in a bin states the same number; the rest, {num(m.residual, '+.4f')}, is the "
            f"spread of answers within bins. Expected calibration error: {num(ece, '.3f')}.")


def grades_table(s: Summary) -> pd.DataFrame:
    return pd.DataFrame({"grade": list(s.grades), "answers": list(s.grades.values())})


def reliability_help(few: int = 10) -> str:
    """How to read the reliability chart, beside it: a reader who never saw one needs the
    axes, the line and the marks in words before the point sizes and bars mean anything."""
    return "\n".join([
        "**How to read it**",
        "- Each point is a band of chances of a bluff, such as 70–80%. Across: the chance "
        "given, on average. Up: how often those claims were bluffs.",
        "- On the dashed line, the chances were right. Below it, there were fewer bluffs "
        "than said; above it, more.",
        "- Circles are you, squares the bot on the same claims.",
        f"- Bigger points hold more answers. Grey ones hold fewer than {few}: read them as "
        f"noise. The bar through a point shows how far luck alone could move it.",
        "- Click a point to list its answers.",
    ])


def clicked_bin(selection: Mapping[str, Any] | None) -> tuple[str, int] | None:
    """The point clicked on the reliability chart (its selection is named "bin"): whose
    curve ("you" or "bot") and which bin, or None when nothing is selected."""
    points = [p for p in (selection or {}).get("bin", []) if isinstance(p, dict)]
    if not points:
        return None
    return str(points[0].get("who")), int(points[0].get("bin") or 0)


def bin_column(who: str) -> str:
    """The answers' column behind a curve of the reliability chart."""
    return "stated" if who == "you" else "bot"


def bin_title(who: str, k: int, n: int, bins: int = 10) -> str:
    whose = "you said" if who == "you" else "the bot said"
    return f"**Answers where {whose} {k / bins:.0%}–{(k + 1) / bins:.0%}** ({n})"


def import_messages(report: ImportReport) -> tuple[str, list[str], str | None]:
    """What a CSV import did, its first errors, and how many more there were (if any)."""
    more = len(report.errors) - SHOWN_ERRORS
    already = "was" if report.duplicates == 1 else "were"
    return (f"Imported {count(report.added, 'answer')} ({report.duplicates} {already} "
            f"already there).",
            report.errors[:SHOWN_ERRORS],
            f"… and {more} more lines with errors." if more > 0 else None)
