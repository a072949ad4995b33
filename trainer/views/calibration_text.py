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

from trainer.i18n import tr, tr_n
from trainer.i18n.formats import number, percent
from trainer.learners.history_csv import ImportReport
from trainer.quiz.bank import theme_words
from trainer.quiz.findings import CLEARLY, HIGH, LOW, ZONE_MIN, Findings, Leaning, Zone
from trainer.quiz.scoring import VERDICT_AT, Murphy, Summary
from trainer.verdicts.grades import GRADES
from trainer.verdicts.words import grade_word

EARLY = VERDICT_AT  # judged claims below which the numbers are early signs
SHOWN_ERRORS = 10  # lines of a CSV import's errors listed one by one


def pct(x: float | None, signed: bool = False) -> str:
    if x is None:
        return "–"
    text = percent(abs(x)) if signed else percent(x)
    return ("+" if x >= 0 else "−") + text if signed else _minus(text)


def num(x: float | None, fmt: str = ".3f") -> str:
    return "–" if x is None else _minus(format(x, fmt))


def _minus(text: str) -> str:
    """A typographic minus: a hyphen before a number reads as a dash on a phone."""
    return text.replace("-", "−")


# --------------------------------------------------------------------------- the opening


def times(n: int) -> str:
    if n == 1:
        return tr("once")
    if n == 2:
        return tr("twice")
    return tr_n("{n} time", "{n} times", n)


def _were(k: int, n: int, bluff: bool) -> str:
    """How many of n answers were a bluff (`bluff`) or honest: "7 were bluffs", "1 was a
    bluff", "none were bluffs"; of a single answer, "it was a bluff" or "it was honest"."""
    if n == 1:
        return tr("it was a bluff") if bool(k) == bluff else tr("it was honest")
    if k == 0:
        return tr("none were bluffs") if bluff else tr("none were honest")
    return (tr_n("{n} was a bluff", "{n} were bluffs", k) if bluff
            else tr_n("{n} was honest", "{n} were honest", k))


def _leaning_sentences(who: str | None, lean: Leaning, scale: bool = True) -> list[str]:
    """What a forecaster said (`who`: None for the reader, else a name such as "the bot" or
    "The class"), counted the way a learner remembers clicking it; `scale` adds which chances
    count as "likely", said once on the page."""
    out = []
    if lean.said_bluff:
        over = " " + tr("(over 50%)") if scale else ""
        outcome = _were(lean.were_bluffs, lean.said_bluff, True)
        out.append(tr("You said “likely a bluff”{over} {times}; {outcome}.", over=over,
                      times=times(lean.said_bluff), outcome=outcome) if who is None else
                   tr("{who} said “likely a bluff”{over} {times}; {outcome}.", who=who,
                      over=over, times=times(lean.said_bluff), outcome=outcome))
    if lean.said_honest:
        under = " " + tr("(under 50%)") if scale else ""
        outcome = _were(lean.were_honest, lean.said_honest, False)
        out.append(tr("You said “likely honest”{under} {times}; {outcome}.", under=under,
                      times=times(lean.said_honest), outcome=outcome) if who is None else
                   tr("{who} said “likely honest”{under} {times}; {outcome}.", who=who,
                      under=under, times=times(lean.said_honest), outcome=outcome))
    if lean.even:
        out.append(tr("You said 50% (can't tell) {times}.", times=times(lean.even))
                   if who is None else
                   tr("{who} said 50% (can't tell) {times}.", who=who, times=times(lean.even)))
    return out


def _zone_sentence(z: Zone, group: str | None = None) -> str:
    """One confident end of the scale: what was said, what the cards showed, and the word
    for the gap (only called once there are enough answers to judge). `group` is None on the
    Calibration page (the reader), the group's name in a room's report ("the class")."""
    high = z.side == "high"
    fields = {"said": percent(z.mean_said), "rate": percent(z.rate), "bluffs": z.bluffs,
              "n": z.n}
    if z.within_noise:
        if group is None:
            return (tr("When you gave a bluff a chance of 70% or more, you said {said} on "
                       "average, and {rate} were bluffs ({bluffs} of {n}): about right, within "
                       "what chance alone gives.", **fields) if high else
                    tr("When you gave a bluff a chance of 30% or less, you said {said} on "
                       "average, and {rate} were bluffs ({bluffs} of {n}): about right, within "
                       "what chance alone gives.", **fields))
        return (tr("When {group} gave a bluff a chance of 70% or more, {group} said {said} on "
                   "average, and {rate} were bluffs ({bluffs} of {n}): about right, within "
                   "what chance alone gives.", group=group, **fields) if high else
                tr("When {group} gave a bluff a chance of 30% or less, {group} said {said} on "
                   "average, and {rate} were bluffs ({bluffs} of {n}): about right, within "
                   "what chance alone gives.", group=group, **fields))
    clearly = abs(z.gap) >= CLEARLY
    over = z.gap > 0
    if group is None:
        judged = ((tr("you are clearly overconfident there") if over
                   else tr("you are clearly underconfident there")) if clearly else
                  (tr("you are a little overconfident there") if over
                   else tr("you are a little underconfident there")))
        return (tr("When you gave a bluff a chance of 70% or more, you said {said} on average, "
                   "but {rate} were bluffs ({bluffs} of {n}): {judged}.", judged=judged,
                   **fields) if high else
                tr("When you gave a bluff a chance of 30% or less, you said {said} on average, "
                   "but {rate} were bluffs ({bluffs} of {n}): {judged}.", judged=judged,
                   **fields))
    judged = ((tr("{group} is clearly overconfident there", group=group) if over
               else tr("{group} is clearly underconfident there", group=group)) if clearly else
              (tr("{group} is a little overconfident there", group=group) if over
               else tr("{group} is a little underconfident there", group=group)))
    return (tr("When {group} gave a bluff a chance of 70% or more, {group} said {said} on "
               "average, but {rate} were bluffs ({bluffs} of {n}): {judged}.", group=group,
               judged=judged, **fields) if high else
            tr("When {group} gave a bluff a chance of 30% or less, {group} said {said} on "
               "average, but {rate} were bluffs ({bluffs} of {n}): {judged}.", group=group,
               judged=judged, **fields))


def _confidence_sentences(f: Findings) -> list[str]:
    if not f.enough:
        return [tr("It is too early to say whether you are overconfident: that takes {needed} "
                   "judged claims, and you have {n}.", needed=f.verdict_at, n=f.n_scored)]
    zones = f.judged_zones()
    if not zones:
        return [tr("You rarely gave a bluff a chance of {high} or more, or {low} or less "
                   "(fewer than {few} times each), so it is too early to say whether you are "
                   "overconfident.", high=percent(HIGH), low=percent(LOW), few=ZONE_MIN)]
    # Only the ends that are off, to keep the opening short; both right is said once.
    off = [z for z in zones if not z.within_noise]
    if off or len(zones) == 1:
        return [_zone_sentence(z) for z in off or zones]
    return [tr("When you gave a bluff a chance of {high} or more, or of {low} or less, the "
               "cards bore you out: about right, within what chance alone gives.",
               high=percent(HIGH), low=percent(LOW))]


def _bot_sentences(f: Findings) -> list[str]:
    if f.bot is None or f.gap is None:
        return []
    if f.n_vs_bot == f.n_scored:
        same = (tr("On the same claim") if f.n_vs_bot == 1
                else tr("On the same {n} claims", n=f.n_vs_bot))
    else:
        same = (tr("On the one of these claims the bot judged") if f.n_vs_bot == 1
                else tr("On the {n} of these claims the bot judged", n=f.n_vs_bot))
    # One sentence of the bot's counts, for scale; the learner's own come first and in full.
    counts = _leaning_sentences(tr("the bot"), f.bot, scale=False)
    out = [tr("{same}, {counts}", same=same, counts=counts[0]) if counts
           else tr("{same}, the bot gave its own chances.", same=same)]
    if not f.enough_vs_bot:
        out.append(tr("Too few claims yet to say which of you judges better: that takes "
                      "{needed}.", needed=f.verdict_at))
    elif f.gap.within_noise:
        out.append(tr("You are about as good as the bot: the difference between you is within "
                      "what chance alone gives."))
    elif f.gap.low > 0:
        out.append(tr("The bot did better: its chances were closer to what the cards showed, "
                      "by more than chance alone gives."))
    else:
        out.append(tr("You did better than the bot: your chances were closer to what the "
                      "cards showed, by more than chance alone gives."))
    return out


def lead(f: Findings, n_answers: int) -> list[str]:
    """The page's opening paragraphs: what the learner said and what the cards showed, where
    they lean too far, and how they compare with the bot on the same claims.

    Counts come first because a reader can check them against memory; judgements only once
    `Findings.enough` says there are enough answers for them to mean something.
    """
    if f.n_scored == 0:
        none = (tr("Your one answer did not judge a claim") if n_answers == 1
                else tr("None of your {n} answers judged a claim yet", n=n_answers))
        return [tr("{none}. This page fills in once you have said how likely a claim is to be "
                   "a bluff.", none=none)]
    return [
        " ".join([tr_n("You judged {n} claim.", "You judged {n} claims.", f.n_scored),
                  *_leaning_sentences(None, f.you)]),
        " ".join(_confidence_sentences(f)),
        *filter(None, [" ".join(_bot_sentences(f))]),
    ]


def class_lead(f: Findings, who: str | None = None) -> list[str]:
    """The same opening for a group's answers (a room's class, in its printed report): what
    it said and what the cards showed, then a judgement only once `Findings.enough` says
    there are enough judged claims; below that, that there are too few to tell, and no
    figure. `who` names the group as a sentence's subject (by default "The class")."""
    who = who or tr("The class")
    low = tr("the class") if who == tr("The class") else who
    if f.n_scored == 0:
        return [tr("{who} judged no claim: no question asked gave a chance of a bluff to check "
                   "against the cards.", who=who)]
    out = [" ".join([tr_n("{who} judged {n} claim.", "{who} judged {n} claims.", f.n_scored,
                          who=who),
                     *_leaning_sentences(who, f.you)])]
    if not f.enough:
        return [*out, tr("Too few answers to tell how well {group} judges bluffs, or how it "
                         "compares with the bot: that takes {needed} judged claims, and there "
                         "are {n}. Read the counts above as counts, not a verdict.",
                         group=low, needed=f.verdict_at, n=f.n_scored)]
    zones = f.judged_zones()
    if not zones:
        out.append(tr("{who} rarely gave a bluff a chance of {high} or more, or {low} or less "
                      "(fewer than {few} times each), so it is too early to say whether "
                      "{group} is overconfident.", who=who, high=percent(HIGH),
                      low=percent(LOW), few=ZONE_MIN, group=low))
    else:
        out.append(" ".join(_zone_sentence(z, low) for z in zones))
    gap = f.gap
    if gap is None:
        return out
    if not f.enough_vs_bot:
        out.append(tr("Too few claims the bot judged too to compare {group} with the bot: that "
                      "takes {needed}, and there are {n}.", group=low, needed=f.verdict_at,
                      n=f.n_vs_bot))
    elif gap.within_noise:
        out.append(tr("{who} is about as good as the bot on the same claims: the difference is "
                      "within what chance alone gives.", who=who))
    elif gap.low > 0:
        out.append(tr("The bot did better than {group}: its chances were closer to what the "
                      "cards showed, by more than chance alone gives.", group=low))
    else:
        out.append(tr("{who} did better than the bot: its chances were closer to what the "
                      "cards showed, by more than chance alone gives.", who=who))
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
    vs_bot = _skill(s.skill_vs_bot, s.n_vs_bot, f.verdict_at, tr("the bot's"))
    vs_base = _skill(s.skill_vs_base, s.n_scored, f.verdict_at, tr("that of the base rate"))
    lines = [
        tr("**Claims judged: {judged}** of {answers}. Bluffs among them (the base rate): "
           "{base}.", judged=s.n_scored, answers=tr_n("{n} answer", "{n} answers", s.n),
           base=pct(s.base_rate)),
        tr("**Brier score: {brier}** (the bot: {bot} on {judged}). Mean of (stated − truth)², "
           "truth 1 for a bluff; 0 is perfect, always saying 50% scores 0.250; lower is better.",
           brier=num(s.brier), bot=num(s.bot_brier),
           judged=tr_n("{n} claim", "{n} claims", s.n_vs_bot)),
    ]
    if gap is not None and f.enough_vs_bot:
        lines.append(tr(
            "**Brier, you − the bot: {diff}** ({level} interval {low} to {high}, {resamples} "
            "paired resamples of the same {judged}). Below 0 you beat the bot; an interval that "
            "holds 0 is within noise.", diff=num(gap.diff, "+.3f"), level=percent(gap.level),
            low=num(gap.low, "+.3f"), high=num(gap.high, "+.3f"),
            resamples=number(gap.resamples), judged=tr_n("{n} claim", "{n} claims", gap.n)))
    elif gap is not None:
        lines.append(tr(
            "**Brier, you − the bot:** too few claims to tell. Comparing you with the bot takes "
            "{needed} claims it judged too; you have {n}.", needed=f.verdict_at, n=f.n_vs_bot))
    error_rate = ("–" if s.error_rate is None
                  else tr("{x} points", x=number(s.error_rate, 1)))
    lines += [
        tr("**Skill vs the bot{skill} 1 − your Brier ÷ the bot's on the same claims; above 0 "
           "beats the bot.", skill=vs_bot),
        tr("**Skill vs the base rate{skill} 1 − your Brier ÷ the Brier of always saying the "
           "base rate.", skill=vs_base),
        tr("**Log score: {score}.** Metaculus style, 100 · (1 + log₂ p(what happened)), stated "
           "p clamped to 1–99%; 0 for always 50%, higher is better.",
           score=num(s.log_score, ".1f")),
        tr("**Overconfidence: {over}.** On answers that leaned one way: mean confidence minus "
           "how often the lean was right; above 0 is overconfident.",
           over=pct(s.overconfidence, True)),
        tr("**Expected calibration error: {ece}.** The reliability chart's mean distance from "
           "the diagonal, weighted by answers per bin.", ece=num(s.ece)),
        tr("**Discrimination (AUC): {auc}.** The chance a random bluff got a higher p than a "
           "random honest claim (0.5: no separation). Mean p on bluffs − on honest claims: "
           "{gap}.", auc=num(s.auc, ".2f"), gap=num(s.discrimination, "+.2f")),
        tr("**Action error rate: {rate}.** Mean win-% lost per decision, over {decisions} where "
           "the choice mattered (trivial ones left out, as GNU Backgammon does).",
           rate=error_rate,
           decisions=tr_n("{n} decision", "{n} decisions", s.n_decisions)),
    ]
    return lines


def _skill(x: float | None, n: int, enough: int, ref: str) -> str:
    """A skill figure's bold head and value, up to its explanation: too few claims said as
    such; far below the reference (under −100%, more than twice its error) said as how many
    times the reference's error, since "−5,122%" reads as a misprint."""
    if n and n < enough:
        return tr(":** too few claims to tell (it takes {needed}; you have {n}).",
                  needed=enough, n=n)
    if x is not None and x < -1:
        times = number(1 - x) if 1 - x >= 10 else number(1 - x, 1)
        return tr(": below −100%** (your Brier score is {times} times {ref}).", times=times,
                  ref=ref)
    return f": {pct(x, True)}.**"


def early_signs(n_scored: int) -> str | None:
    """A warning while there are too few judged claims to read the numbers as a verdict."""
    if n_scored >= EARLY:
        return None
    return tr_n("{n} judged claim so far: with fewer than {needed}, read these numbers as "
                "early signs, not a verdict.",
                "{n} judged claims so far: with fewer than {needed}, read these numbers as "
                "early signs, not a verdict.", n_scored, needed=EARLY)


def forget_label(n: int) -> str:
    """The box ticked before deleting every answer: "Yes, delete my answer" for one."""
    return tr_n("Yes, delete my answer", "Yes, delete my {n} answers", n)


def forgotten(n: int) -> str:
    return tr_n("Deleted {n} answer.", "Deleted {n} answers.", n)


def first_last_later(n: int, window: int = 30) -> str:
    """Before there are two windows of answers to compare: when they appear."""
    return tr("Your first {window} answers against your latest {window} appear after {needed} "
              "answers ({n} so far).", window=window, needed=2 * window, n=n)


def murphy_table(m: Murphy) -> pd.DataFrame:
    return pd.DataFrame([
        {"term": tr("reliability (lower is better)"), "value": m.rel},
        {"term": tr("resolution (higher is better)"), "value": m.res},
        {"term": tr("uncertainty (the items' own)"), "value": m.unc},
        {"term": tr("Brier = rel − res + unc + rest"), "value": m.brier},
    ])


def murphy_caption(m: Murphy, ece: float | None) -> str:
    return tr("Murphy's decomposition over ten bins of 10 points. It is exact only when every "
              "answer in a bin states the same number; the rest, {rest}, is the spread of "
              "answers within bins. Expected calibration error: {ece}.",
              rest=num(m.residual, "+.4f"), ece=num(ece, ".3f"))


def grades_table(s: Summary) -> pd.DataFrame:
    return pd.DataFrame({"grade": [grade_word(g) if g in GRADES else g for g in s.grades],
                         "answers": list(s.grades.values())})


def reliability_help(few: int = 10) -> str:
    """How to read the reliability chart, beside it: a reader who never saw one needs the
    axes, the line and the marks in words before the point sizes and bars mean anything."""
    return "\n".join([
        tr("**How to read it**"),
        "- " + tr("Each point is a band of chances of a bluff, such as 70–80%. Across: the "
                  "chance given, on average. Up: how often those claims were bluffs."),
        "- " + tr("On the dashed line, the chances were right. Below it, there were fewer "
                  "bluffs than said; above it, more."),
        "- " + tr("Circles are you, squares the bot on the same claims."),
        "- " + tr("Bigger points hold more answers. Grey ones hold fewer than {few}: read them "
                  "as noise. The bar through a point shows how far luck alone could move it.",
                  few=few),
        "- " + tr("Click a point to list its answers."),
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
    low, high = percent(k / bins), percent((k + 1) / bins)
    if who == "you":
        return tr("**Answers where you said {low}–{high}** ({n})", low=low, high=high, n=n)
    return tr("**Answers where the bot said {low}–{high}** ({n})", low=low, high=high, n=n)


def import_messages(report: ImportReport) -> tuple[str, list[str], str | None]:
    """What a CSV import did, its first errors, and how many more there were (if any)."""
    more = len(report.errors) - SHOWN_ERRORS
    added = tr_n("Imported {n} answer", "Imported {n} answers", report.added)
    return (tr_n("{added} ({n} was already there).", "{added} ({n} were already there).",
                 report.duplicates, added=added),
            report.errors[:SHOWN_ERRORS],
            tr_n("… and {n} more line with errors.", "… and {n} more lines with errors.", more)
            if more > 0 else None)


def bin_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """The answers of a clicked point, the columns the page lists, their themes and grades in
    the reader's words (the answer's option stays as it was recorded)."""
    out = rows[["answered_at", "themes", "stated", "bot", "bluff", "action", "grade",
                "lost_pp"]].copy()
    out["themes"] = [", ".join(theme_words(t) for t in str(x).split("|") if t)
                     if isinstance(x, str) else ", ".join(theme_words(t) for t in x)
                     for x in out["themes"]]
    out["grade"] = [grade_word(g) if g in GRADES else g for g in out["grade"]]
    return out


def first_last_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The before-and-after table with its windows named in the reader's words."""
    out = table.copy()
    k = int(out["n"].iloc[0])
    out["window"] = [tr("first {n}", n=k), tr("latest {n}", n=k)]
    return out
