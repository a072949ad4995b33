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

from typing import Literal

from trainer.verdicts.grades import GRADES, Grade
from trainer.verdicts.verdict import Verdict

Tone = Literal["success", "info", "warning", "error"]

POINTS_MEANING = "percentage points of your chance to win"
# How the grades read as a headline, and as one side of a range (no grade word there, so a
# range headline can never hold two of them).
HEADLINES: dict[Grade, str] = {
    "best": "Best move", "good": "Good", "inaccuracy": "Inaccuracy", "mistake": "Mistake",
    "blunder": "Blunder",
}
RANGE_WORDS: dict[Grade, str] = {
    "best": "right", "good": "close to right", "inaccuracy": "a small error",
    "mistake": "an error", "blunder": "a serious error",
}
CLOSE_CALL = "Too close to call"
TONES: dict[Grade, Tone] = {
    "best": "success", "good": "success", "inaccuracy": "warning", "mistake": "warning",
    "blunder": "error",
}
# A standard error (in points) from which the figures are called rough on the page.
ROUGH_NOISE_PP = 2.5
# A range of the bot's chance of a bluff this wide is called rough.
WIDE = 0.1
FEW_MOVES = 3


def points(x: float, *, first: bool) -> str:
    """"3.0 points", with what points are the first time a page says it."""
    return f"{x:.1f} {POINTS_MEANING}" if first else f"{x:.1f} points"


def headline(v: Verdict) -> str:
    """The verdict in a few words: one grade, or what a range depends on."""
    if v.reason == "doubt" and v.doubt is not None and v.rarely and v.often:
        who = v.doubt.who
        if v.sound:
            return f"Sound however often {who} bluffs"
        return (f"Depends on {who}: {RANGE_WORDS[v.rarely]} if {who} rarely bluffs, "
                f"{RANGE_WORDS[v.often]} if {who} often does")
    if v.reason == "horizon" and v.horizons is not None and v.shorter and v.longer:
        h = v.horizons
        if v.sound:
            return "Sound however far ahead you look"
        # the nearer look-ahead first (a stored position may be checked one turn deeper)
        (near, near_grade), (far, far_grade) = sorted(
            ((h.shorter, v.shorter), (h.longer, v.longer)))
        return (f"Depends on how far ahead you look: {RANGE_WORDS[near_grade]} looking "
                f"{near}, {RANGE_WORDS[far_grade]} looking {far} turns ahead")
    if v.is_range:
        return CLOSE_CALL
    return HEADLINES[v.grade]


def short_headline(v: Verdict) -> str:
    """The headline in a tag's room (a move list on a phone): what a range depends on, without
    the two sides."""
    if v.reason == "doubt" and v.doubt is not None:
        return "Sound either way" if v.sound else f"Depends on {v.doubt.who}"
    if v.reason == "horizon":
        return "Sound either way" if v.sound else "Depends on look-ahead"
    return headline(v)


def tone(v: Verdict) -> Tone:
    """The colour of the verdict's box: never green for a range."""
    return "info" if v.is_range else TONES[v.grade]


def grade_word(grade: Grade | None) -> str:
    """A grade's headline word alone (a tag, a table cell); "Not graded" for none."""
    return HEADLINES[grade] if grade is not None else "Not graded"


def sentence(v: Verdict, *, first: bool = True) -> str:
    """What the verdict means here, in one or two sentences; `first`: the page has not yet
    said what points are."""
    if v.reason == "doubt" and v.doubt is not None:
        at = f"At the bot's best guess about {v.doubt.who}, "
        if v.lost_pp <= 1.0:
            return (f"{at}{v.chosen} is the best option: no option beats it by more than 1 "
                    "percentage point of your chance to win.")
        return f"{at}{v.chosen} gives up {points(v.lost_pp, first=first)}, compared with {v.best}."
    if v.reason == "horizon" and v.horizons is not None and v.lost_range is not None:
        h = v.horizons
        if v.lost_range[1] <= 1.0:
            return (f"{v.chosen} is the best option at both look-aheads: no option beats it by "
                    "more than 1 percentage point of your chance to win.")
        return (f"{v.chosen} gives up {points(v.lost_range[0], first=first)} or "
                f"{v.lost_range[1]:.1f} points compared with the best option, depending on "
                f"whether the solver looks {min(h.shorter, h.longer)} or "
                f"{max(h.shorter, h.longer)} turns ahead; only the smaller loss is counted.")
    if v.reason == "noise":
        return (f"By these playouts {v.chosen} gives up {points(v.lost_pp, first=first)} "
                f"against {v.best}, but their noise is about ±{2 * v.noise_pp:.1f} points, so "
                f"they cannot tell the two apart.")
    if v.lost_pp <= 1.0 or v.within_noise:
        return (f"{v.chosen} is the best option here: no option beats it by more than 1 "
                "percentage point of your chance to win."
                if v.lost_pp <= 1.0 else
                f"{v.chosen} is as good as {v.best} as far as the figures can tell (the gap of "
                f"{points(v.lost_pp, first=first)} is within their noise).")
    return f"{v.chosen} gives up {points(v.lost_pp, first=first)}, compared with {v.best}."


def range_note(v: Verdict) -> str | None:
    """Why the grade is a range, with its figures (after the sentence: points are defined)."""
    if v.reason == "horizon" and v.horizons is not None:
        h = v.horizons
        return (f"This position is not settled: looking {min(h.shorter, h.longer)} and "
                f"{max(h.shorter, h.longer)} turns ahead gives different values, and nobody "
                "knows yet which is right. The grade counts only what both agree on.")
    if v.reason != "doubt" or v.doubt is None or v.lost_range is None:
        return None
    d = v.doubt
    return (f"How much this costs depends on how often {d.who} bluffs, and {d.who}'s moves so "
            f"far do not settle it: over the kinds of player {d.who} might be, the chance of a "
            f"bluff runs from {d.low:.0%} to {d.high:.0%}, so {v.chosen} gives up between "
            f"{v.lost_range[0]:.1f} and {v.lost_range[1]:.1f} points.")


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
            moves = "no move" if seen == 0 else ("one move" if seen == 1 else f"{seen} moves")
            notes.append(f"The bot's read of {d.who} rests on {moves} by {d.who} so far, so "
                         "it is rough.")
        else:
            notes.append(f"The bot's read of {d.who} is still rough: its chance of a bluff "
                         f"spans {d.low:.0%} to {d.high:.0%}.")
    if not v.solved and v.noise_pp >= ROUGH_NOISE_PP:
        count = f"{playouts:,}" if isinstance(playouts, int) else playouts
        many = f"{count} playouts" if count else "playouts"
        notes.append(f"These win chances come from {many} and may be off by about "
                     f"{v.noise_pp:.1f} points either way.")
    return " ".join(notes) or None


def every_grade_pair() -> list[tuple[Grade, Grade]]:
    """Every (kinder, harsher) pair of grades, equal ones included: what the words must
    cover."""
    return [(a, b) for i, a in enumerate(GRADES) for b in GRADES[i:]]
