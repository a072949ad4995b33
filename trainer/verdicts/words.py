"""The words of a verdict: one headline vocabulary, one box colour rule, and "points" defined.

Why here and nowhere else: the Quiz, the Play review, End-game practice, Rooms and the Kiosk
all show verdicts, and a learner moving between them must read the same words for the same
thing. Three rules hold everywhere:
- a single grade is one word ("Mistake"); a range is never two grade words joined by "to"
  ("Best to blunder" reads as a contradiction): it says what it depends on ("Depends on Dee:
  right if Dee rarely bluffs, a serious error if Dee often does") or that the figures cannot
  tell ("Too close to call");
- a range never gets a green box: green promises a sound move, and a range cannot promise it;
- the first "points" a page shows says what they are: percentage points of your chance to win.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import number, percent
from trainer.verdicts.grades import GRADES, Grade
from trainer.verdicts.verdict import Verdict

Tone = Literal["success", "info", "warning", "error"]

# Every text here is English, marked for the catalogue (`N_`): shown through `tr()` (or
# `grade_word`), never as it is, so a Filipino reader sees the glossary's grade words.
POINTS_MEANING = N_("percentage points of your chance to win")
# How the grades read as a headline, and as one side of a range (no grade word there, so a
# range headline can never hold two of them).
HEADLINES: dict[Grade, str] = {
    "best": N_("Best move"), "good": N_("Good"), "inaccuracy": N_("Inaccuracy"),
    "mistake": N_("Mistake"), "blunder": N_("Blunder"),
}
RANGE_WORDS: dict[Grade, str] = {
    "best": N_("right"), "good": N_("close to right"), "inaccuracy": N_("a small error"),
    "mistake": N_("an error"), "blunder": N_("a serious error"),
}
CLOSE_CALL = N_("Too close to call")
NOT_GRADED = N_("Not graded")
# A label as the reader sees it: an option's stored label (the answer record's identifier)
# to its words in the reader's language; the identity where the caller has none.
Labeller = Callable[[str], str]
TONES: dict[Grade, Tone] = {
    "best": "success", "good": "success", "inaccuracy": "warning", "mistake": "warning",
    "blunder": "error",
}
# A standard error (in points) from which the figures are called rough on the page.
ROUGH_NOISE_PP = 2.5
# A range of the bot's chance of a bluff this wide is called rough.
WIDE = 0.1
FEW_MOVES = 3


def _same(label: str) -> str:
    return label


def _range_word(grade: Grade) -> str:
    return tr(RANGE_WORDS[grade])


def count_word(n: int) -> str:
    """A small count in words ("two Exchanges"), a figure beyond four."""
    words = {1: N_("one"), 2: N_("two"), 3: N_("three"), 4: N_("four")}
    return tr(words[n]) if n in words else number(n, 0)


def points(x: float, *, first: bool) -> str:
    """"3.0 points", with what points are the first time a page says it."""
    if first:
        return tr("{x} percentage points of your chance to win", x=number(x, 1))
    return tr("{x} points", x=number(x, 1))


def headline(v: Verdict) -> str:
    """The verdict in a few words: one grade, or what a range depends on."""
    if v.reason == "doubt" and v.doubt is not None and v.rarely and v.often:
        who = v.doubt.who
        if v.sound:
            return tr("Sound however often {who} bluffs", who=who)
        return tr("Depends on {who}: {rarely} if {who} rarely bluffs, {often} if {who} often "
                  "does", who=who, rarely=_range_word(v.rarely), often=_range_word(v.often))
    if v.reason == "horizon" and v.horizons is not None and v.shorter and v.longer:
        h = v.horizons
        if v.sound:
            return tr("Sound however far ahead you look")
        if h.exchanges:
            # `shorter` is the reading of `before`, `longer` the valuation's own
            (few, few_grade), (many, many_grade) = sorted(
                ((h.allowed[1], v.shorter), (h.allowed[0], v.longer)))
            return tr("Depends on the Exchanges a line may hold: {fewer_word} with {fewer}, "
                      "{more_word} with {more}", fewer_word=_range_word(few_grade),
                      fewer=count_word(few), more_word=_range_word(many_grade),
                      more=count_word(many))
        # the nearer look-ahead first (a stored position may be checked one turn deeper)
        (near, near_grade), (far, far_grade) = sorted(
            ((h.shorter, v.shorter), (h.longer, v.longer)))
        return tr("Depends on how far ahead you look: {near_word} looking {near}, {far_word} "
                  "looking {far} turns ahead", near_word=_range_word(near_grade), near=near,
                  far_word=_range_word(far_grade), far=far)
    if v.reason == "solves" and v.other_solve and v.this_solve:
        if v.sound:
            return tr("Sound however they play perfectly")
        return tr("Depends on which perfect play: {one} in one, {other} in another",
                  one=_range_word(v.this_solve), other=_range_word(v.other_solve))
    if v.is_range:
        return tr(CLOSE_CALL)
    return tr(HEADLINES[v.grade])


def short_headline(v: Verdict) -> str:
    """The headline in a tag's room (a move list on a phone): what a range depends on, without
    the two sides."""
    if v.reason == "doubt" and v.doubt is not None:
        return tr("Sound either way") if v.sound else tr("Depends on {who}", who=v.doubt.who)
    if v.reason == "horizon":
        return tr("Sound either way") if v.sound else tr("Depends on look-ahead")
    if v.reason == "solves":
        return tr("Sound either way") if v.sound else tr("Depends on perfect play")
    return headline(v)


def tone(v: Verdict) -> Tone:
    """The colour of the verdict's box: never green for a range."""
    return "info" if v.is_range else TONES[v.grade]


def grade_word(grade: Grade | None) -> str:
    """A grade's headline word alone (a tag, a table cell), in the reader's language; "Not
    graded" for none."""
    return tr(HEADLINES[grade]) if grade is not None else tr(NOT_GRADED)


def sentence(v: Verdict, *, first: bool = True, label: Labeller = _same) -> str:
    """What the verdict means here, in one or two sentences; `first`: the page has not yet
    said what points are; `label` words an option's label for the reader."""
    chosen, best = label(v.chosen), label(v.best)
    if v.reason == "doubt" and v.doubt is not None:
        who = v.doubt.who
        if v.lost_pp <= 1.0:
            return tr("At the bot's best guess about {who}, {chosen} is the best option: no "
                      "option beats it by more than 1 percentage point of your chance to win.",
                      who=who, chosen=chosen)
        return tr("At the bot's best guess about {who}, {chosen} gives up {points}, compared "
                  "with {best}.", who=who, chosen=chosen,
                  points=points(v.lost_pp, first=first), best=best)
    if v.reason == "horizon" and v.horizons is not None and v.lost_range is not None:
        h = v.horizons
        if v.lost_range[1] <= 1.0:
            return tr("{chosen} is the best option at both look-aheads: no option beats it by "
                      "more than 1 percentage point of your chance to win.", chosen=chosen)
        if h.exchanges:
            return tr("{chosen} gives up {low} or {high} points compared with the best option, "
                      "depending on whether a line of play may hold {more} Exchanges or only "
                      "{fewer} before the solver stops it; only the smaller loss is counted.",
                      chosen=chosen, low=points(v.lost_range[0], first=first),
                      high=number(v.lost_range[1], 1), fewer=count_word(min(h.allowed)),
                      more=count_word(max(h.allowed)))
        return tr("{chosen} gives up {low} or {high} points compared with the best option, "
                  "depending on whether the solver looks {near} or {far} turns ahead; only "
                  "the smaller loss is counted.", chosen=chosen,
                  low=points(v.lost_range[0], first=first), high=number(v.lost_range[1], 1),
                  near=min(h.shorter, h.longer), far=max(h.shorter, h.longer))
    if v.reason == "solves" and v.lost_range is not None:
        return tr("{chosen} gives up {low} or {high} points compared with the best option, "
                  "depending on which of two ways of playing perfectly the other player "
                  "follows; only the smaller loss is counted.", chosen=chosen,
                  low=points(v.lost_range[0], first=first), high=number(v.lost_range[1], 1))
    if v.reason == "noise":
        return tr("By these playouts {chosen} gives up {points} against {best}, but their noise "
                  "is about ±{noise} points, so they cannot tell the two apart.",
                  chosen=chosen, points=points(v.lost_pp, first=first), best=best,
                  noise=number(2 * v.noise_pp, 1))
    if v.lost_pp <= 1.0:
        return tr("{chosen} is the best option here: no option beats it by more than 1 "
                  "percentage point of your chance to win.", chosen=chosen)
    if v.within_noise:
        return tr("{chosen} is as good as {best} as far as the figures can tell (the gap of "
                  "{points} is within their noise).", chosen=chosen, best=best,
                  points=points(v.lost_pp, first=first))
    return tr("{chosen} gives up {points}, compared with {best}.", chosen=chosen,
              points=points(v.lost_pp, first=first), best=best)


def range_note(v: Verdict, *, label: Labeller = _same) -> str | None:
    """Why the grade is a range, with its figures (after the sentence: points are defined)."""
    if v.reason == "horizon" and v.horizons is not None:
        h = v.horizons
        note = (tr("Looking {turns} turns ahead, letting a line of play hold {more} Exchanges "
                   "instead of {fewer} values this option differently, and nobody knows yet "
                   "which is right. The grade counts only what both agree on.",
                   turns=h.longer, fewer=count_word(min(h.allowed)),
                   more=count_word(max(h.allowed))) if h.exchanges
                else tr("Looking {near} and {far} turns ahead values this option differently, "
                        "and nobody knows yet which is right. The grade counts only what both "
                        "agree on.", near=min(h.shorter, h.longer),
                        far=max(h.shorter, h.longer)))
        if v.solves is not None:
            note += " " + tr("Two solves of this duel value it differently as well, and the "
                             "grade counts the smaller loss of the two.")
        return note
    if v.reason == "solves":
        return tr("This duel has more than one perfect way to play, and two solves of it "
                  "value this option differently. The grade counts only what both agree on.")
    if v.reason != "doubt" or v.doubt is None or v.lost_range is None:
        return None
    d = v.doubt
    return tr("How much this costs depends on how often {who} bluffs, and {who}'s moves so far "
              "do not settle it: over the kinds of player {who} might be, the chance of a "
              "bluff runs from {low} to {high}, so {chosen} gives up between {least} and "
              "{most} points.", who=d.who, low=percent(d.low), high=percent(d.high),
              chosen=label(v.chosen), least=number(v.lost_range[0], 1),
              most=number(v.lost_range[1], 1))


def evidence_note(v: Verdict, playouts: int | str | None = None) -> str | None:
    """Where the figures rest on little evidence, one sentence saying so; None otherwise.
    `playouts` is a count, or a span in words ("64 to 1024") when the sequential playouts
    stopped some options early."""
    notes = []
    d = v.doubt
    # A range's note already gives the bot's span; a single grade on a wide span says it here.
    few = d is not None and d.moves_seen is not None and d.moves_seen < FEW_MOVES
    if d is not None and d.high - d.low >= WIDE and (v.reason != "doubt" or few):
        seen = d.moves_seen
        if seen is not None and seen < FEW_MOVES:
            if seen == 0:
                notes.append(tr("The bot's read of {who} rests on no move by {who} so far, so "
                                "it is rough.", who=d.who))
            else:
                notes.append(tr_n("The bot's read of {who} rests on one move by {who} so far, "
                                  "so it is rough.",
                                  "The bot's read of {who} rests on {n} moves by {who} so far, "
                                  "so it is rough.", seen, who=d.who))
        else:
            notes.append(tr("The bot's read of {who} is still rough: its chance of a bluff "
                            "spans {low} to {high}.", who=d.who, low=percent(d.low),
                            high=percent(d.high)))
    if not v.solved and v.noise_pp >= ROUGH_NOISE_PP:
        noise = number(v.noise_pp, 1)
        if isinstance(playouts, int):
            notes.append(tr_n("These win chances come from {count} playout and may be off by "
                              "about {noise} points either way.",
                              "These win chances come from {count} playouts and may be off by "
                              "about {noise} points either way.", playouts,
                              count=number(playouts), noise=noise))
        elif playouts:
            notes.append(tr("These win chances come from {count} playouts and may be off by "
                            "about {noise} points either way.", count=playouts, noise=noise))
        else:
            notes.append(tr("These win chances come from playouts and may be off by about "
                            "{noise} points either way.", noise=noise))
    return " ".join(notes) or None


def break_even_line(p_star: float | None) -> str:
    """Where a challenge starts to pay, as a chance of a bluff. The estimate clamps the
    break-even point to 1 when passing beats even a challenge of a sure bluff: that is "never
    pays", not "pays above 100%", which no newcomer could read."""
    if p_star is None or p_star >= 1.0:
        return tr("Here a challenge never pays.")
    return tr("A challenge pays when the chance of a bluff is above {p}.", p=percent(p_star))


def every_grade_pair() -> list[tuple[Grade, Grade]]:
    """Every (kinder, harsher) pair of grades, equal ones included: what the words must
    cover."""
    return [(a, b) for i, a in enumerate(GRADES) for b in GRADES[i:]]
