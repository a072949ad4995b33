"""The rules a newcomer must know, named, so a lesson can say which it teaches and which its
questions rely on.

Why names: the five-minute path promises that every question can be answered from what the
screens before it showed. A lesson file marks the facts a screen states (`teaches:`) and the
facts a question needs (`uses:`); a test walks the path in order and fails on a question that
relies on a fact no earlier screen (or its own words) taught. A typo in a fact's name is an
error with the file and line, like any other key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the schema reads FACTS from here
    from trainer.scenarios.replay import PromptView
    from trainer.scenarios.schema import Scenario

FACTS: dict[str, str] = {
    "influence": "Each face-down card is a life (influence); lose both and you are out.",
    "income": "Income takes 1 coin, and nobody can stop it.",
    "foreign-aid": "Foreign Aid takes 2 coins; a player claiming the Duke may block it.",
    "coup": "A Coup costs 7 coins and takes an influence; it cannot be blocked or challenged.",
    "forced-coup": "Starting a turn with 10 coins or more, a Coup is the only move allowed.",
    "exile": "A lost card turns face up and stays out of the game; with none face down, a "
             "player is out, and the last one left wins.",
    "characters": "The five characters and what each does and blocks.",
    "deck": "The deck holds 15 cards, 3 of each character.",
    "claim": "Anyone may claim any character, held or not; a claim without the card is a bluff.",
    "exchange": "An exchange draws 2 cards from the deck; the player keeps 2 and returns 2.",
    "block": "Claiming the right character blocks an action; no card is shown unless someone "
             "challenges.",
    "challenge": "Any claim may be challenged; whoever is wrong loses an influence.",
    "replacement": "A card shown to win a challenge goes back into the deck, and its owner "
                   "draws a new one.",
    "counting": "Counting the cards in sight tells how likely a claim is true.",
    "lose-choice": "A player who loses an influence chooses which card to turn face up.",
    "deal": "Each player is dealt 2 cards and 2 coins; in a two-player game the first player "
            "gets 1 coin.",
}


def gaps(path: Sequence[Scenario]) -> list[str]:
    """Every question of the path (in order) that relies on a fact not yet taught: by an
    earlier screen, or by the question's own step. A game lesson's `uses` are checked after its
    summary. Empty when every answer follows from what came before."""
    taught: set[str] = set()
    out: list[str] = []

    def check(where: str, uses: Sequence[str], also: Sequence[str] = ()) -> None:
        missing = [f for f in uses if f not in taught and f not in also]
        if missing:
            out.append(f"{where} relies on {', '.join(missing)}, which no earlier screen "
                       f"teaches")

    for s in path:
        taught.update(s.teaches)
        if s.intro is not None:
            taught.update(s.intro.teaches)
        for n, step in enumerate(s.steps, start=1):
            if step.prompt is not None:
                check(f"{s.id} step {n}", step.prompt.uses, step.teaches)
            taught.update(step.teaches)
        if s.practice is not None:
            check(f"{s.id} (the game)", s.practice.uses)
    return out


def taught_by(path: Sequence[Scenario]) -> set[str]:
    """Every fact the path teaches, on any screen."""
    out: set[str] = set()
    for s in path:
        out.update(s.teaches)
        if s.intro is not None:
            out.update(s.intro.teaches)
        for step in s.steps:
            out.update(step.teaches)
    return out


def guessing(prompts: Sequence[PromptView]) -> tuple[float, float]:
    """What guessing would score on these questions, as expected numbers right at the first
    try: picking any answer at random, and picking at random among the moves the rules allow
    (a reader who knows only which moves are legal). The baseline a learner's score is read
    against."""
    anything = sum(1 / len(p.options) for p in prompts if p.options)
    legal = sum(1 / max(1, sum(1 for o in p.options if o.legal)) for p in prompts if p.options)
    return anything, legal
