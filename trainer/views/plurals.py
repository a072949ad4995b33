"""A count with its noun, in the number the count takes: "1 answer", "0 answers", "2 claims".

Why one function for every page: a reader who has answered once meets "1 answers" on the very
first visit, and a plural spelled out by hand in each f-string is the slip that lets it
through; counts of answers, claims, items and questions all go through here.
"""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, the noun plural unless n is exactly 1 ("0 answers", "1 answer")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """The noun alone, in the number of `n` (for "on the same claim" / "the same 3 claims")."""
    return singular if n == 1 else plural or singular + "s"
