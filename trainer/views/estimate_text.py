"""How the bot's estimate of a claim was built, in words a learner can follow with a
calculator (no Streamlit).

Why apart from `quiz_text`: these lines turn `trainer.estimates.bayes_steps` (the counting
prior, then every move's likelihood ratio) into a table in "chance it is a bluff" terms, naming
each move as the game so far does (`history_text`), so the table and the history read alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.game import Event
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.engine.observation import Observation
from trainer.estimates.bayes_steps import BayesStep
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import number, percent
from trainer.views.history_text import Phrase, history_rows

ESTIMATE_TITLE = N_("How the bot's estimate was built")


@dataclass(frozen=True)
class EstimateLine:
    """One line of the step-by-step estimate: what happened, its likelihood ratio (None for
    the counting prior and the bot's final figure) and the chance of a bluff after it."""

    turn: int | None  # None: not a move of the game (the prior, the folded moves, the end)
    what: str
    lr: float | None
    p_bluff: float
    player: int | None = None  # who made the move(s) of the line


def _event_of(steps_move: Move, events_before: int, events: Sequence[Event]) -> int | None:
    """The index in the observer's log of the event that records a move decided when the log
    held `events_before` events: the move itself, or (another player's keep, which is
    private) the public "exchanged" event."""
    for j in range(events_before, len(events)):
        e = events[j]
        if steps_move.kind is MoveKind.KEEP and e.kind == "exchanged" \
                and e.data.get("player") == steps_move.player:
            return j
        if e.kind == "move" and e.data.get("move") == steps_move:
            return j
    return None


def _pct(p: float) -> str:
    """A chance in whole percent, the same whether it was stored (to a few decimals) or
    worked out again (with float noise): 0.625 and 0.6250000000000001 both read 62%."""
    return percent(round(p, 6))


def _figure(x: float | None) -> str:
    """A ratio to follow with a calculator: three significant figures, no exponents."""
    if x is None:
        return "—"
    if math.isinf(x):
        return "∞"
    if x == 0:
        return "0"
    if x >= 1000:
        return number(x)
    if x >= 1:
        return f"{x:.3g}"
    return f"{x:.{max(2, 1 - math.floor(math.log10(x)))}f}"


def _bluff_odds(p_bluff: float) -> str:
    """The odds of a bluff, bluff : no bluff, as "x : 1"."""
    # No-break spaces: "4.5 : 1" stays on one line in a narrow column.
    return "∞\u00a0:\u00a01" if p_bluff >= 1 else \
        f"{_figure(p_bluff / (1 - p_bluff))}\u00a0:\u00a01"


def estimate_lines(steps: Sequence[BayesStep], obs: Observation) -> list[EstimateLine]:
    """The steps of `trainer.estimates.bayes_steps` as the learner reads them: the counting
    prior, then one line per phrase of the game so far (`history_text`: the passes of one
    window are one phrase, so their ratios are multiplied into one) that changed the odds,
    the moves that changed nothing folded into one line, and the bot's final figure."""
    events = obs.events
    phrase_of: dict[int, tuple[int, Phrase]] = {}
    for r, row in enumerate(history_rows(obs)):
        for phrase in row.phrases:
            for j in phrase.events:
                phrase_of[j] = (r, phrase)
    names = [s.name for s in obs.seats]
    prior, *moves = steps
    lines = [EstimateLine(None, tr("Card counting alone (the cards you can see)"), None,
                          prior.p_bluff)]
    unchanged = 0
    groups: list[tuple[object, list[BayesStep], str]] = []
    for step in moves:
        assert step.move is not None
        at = _event_of(step.move, step.events_before, events)
        found = phrase_of.get(at) if at is not None else None
        key: object = found[0:1] + (id(found[1]),) if found else ("move", id(step))
        if found:
            text = found[1].text
        else:
            text = (tr("a move by you") if step.move.player == obs.player
                    else tr("a move by {name}", name=names[step.move.player]))
        if groups and groups[-1][0] == key:
            groups[-1][1].append(step)
        else:
            groups.append((key, [step], text[:1].upper() + text[1:]))
    for _, group, text in groups:
        lr: float | None = 1.0
        for step in group:
            lr = None if lr is None or step.lr is None else lr * step.lr
        if lr is not None and abs(lr - 1.0) < 1e-9:
            unchanged += len(group)
            continue
        first = group[0]
        assert first.move is not None
        lines.append(EstimateLine(first.turn, text, lr, group[-1].p_bluff, first.move.player))
    final = steps[-1].p_bluff
    if unchanged:
        lines.append(EstimateLine(None, tr("Other moves ({n}): no change", n=unchanged), 1.0,
                                  final))
    lines.append(EstimateLine(None, tr("The bot's estimate"), None, final))
    return lines


def estimate_explainer(name: str, claim: str) -> str:
    """What the ratio is, in one sentence, and how to follow the table."""
    return tr("**LR** (likelihood ratio): how many times more likely this move was if {name} "
              "held the {card} than if {name} did not. Each line divides the odds of a bluff by "
              "its LR; the chance of a bluff is odds ÷ (1 + odds).", name=name,
              card=card_name(claim))


def estimate_table(lines: Sequence[EstimateLine], name: str, claim: str) -> str:
    """The lines as a Markdown table, in "chance it is a bluff" terms throughout; four
    columns, so that it fits a phone."""
    head = (f"| {tr('What happened')} | {tr('LR')} | {tr('Odds of a bluff')} | "
            f"{tr('Chance of a bluff')} |\n|---|--:|--:|--:|")
    rows = []
    for line in lines:
        what = line.what.replace("|", "\\|").replace("*", "\\*")
        if line.turn is not None:
            what = tr("Turn {n} · {what}", n=line.turn, what=what)
        elif line.lr is None:
            what = f"**{what}**"
        lr = _figure(line.lr) if line.lr is not None else ""
        rows.append(f"| {what} | {lr} | {_bluff_odds(line.p_bluff)} | {_pct(line.p_bluff)} |")
    return "\n".join([head, *rows])


def estimate_summary(prior: float, bot: float, name: str) -> str:
    """One plain line above the table, from the item's own figures (the chance of a bluff by
    counting alone and the bot's), so it costs nothing to draw: where counting stood, which
    way the game moved it, and where the bot ended."""
    start = tr("Card counting alone: {p} chance of a bluff.", p=_pct(prior))
    if _pct(prior) == _pct(bot):
        then = tr("What {name} and the others did this game left a bluff about as likely: the "
                  "bot says {p}.", name=name, p=_pct(bot))
    elif bot < prior:
        then = tr("What {name} and the others did this game made a bluff less likely: the bot "
                  "says {p}.", name=name, p=_pct(bot))
    else:
        then = tr("What {name} and the others did this game made a bluff more likely: the bot "
                  "says {p}.", name=name, p=_pct(bot))
    return f"{start} {then}"


def estimate_moves(lines: Sequence[EstimateLine], claimant: int, name: str) -> str:
    """Whose moves changed the odds, counted: "Ana's 5 moves and 2 by the other players
    changed the odds; every other move changed nothing." """
    moved = [line for line in lines if line.turn is not None]
    own = sum(1 for line in moved if line.player == claimant)
    others = len(moved) - own
    if not moved:
        return tr("No move of this game changed the odds.")
    mine = tr_n("{name}'s {n} move", "{name}'s {n} moves", own, name=name)
    theirs = tr_n("{n} move by the other players", "{n} moves by the other players", others)
    if own and others:
        return tr("{mine} and {theirs} changed the odds; every other move changed nothing.",
                  mine=mine, theirs=theirs)
    who = mine if own else theirs
    return tr("{who} changed the odds; every other move changed nothing.",
              who=who[:1].upper() + who[1:])
