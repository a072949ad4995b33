"""The Play page's words: the table's set-up, the coach, the result and the review.

Written for someone who has never played: short sentences first, figures one click away, and
every probability says what it is the chance of.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.engine.variants import parse_rules
from trainer.learners.answers import Grade
from trainer.play.assess import Valued
from trainer.play.review import Review, Step, is_bluff
from trainer.play.setup import (
    LEARNER,
    Setup,
    Strength,
    bot_title,
    strength,
)
from trainer.quiz.feedback import item_valuation
from trainer.rulebook import choices
from trainer.verdicts import NOISE_FACTOR, judge, words

PLAY_CSS = """<style>
.st-key-play_keys{display:none !important}
.coup-review-line{display:flex;gap:.5rem;align-items:baseline;padding:.15rem 0;
  border-bottom:1px solid rgba(128,128,128,.15);font-size:.95rem}
.coup-review-line .n{min-width:2.2rem;color:#888;text-align:right}
.coup-review-line.mine{font-weight:600}
.coup-review-line.current{background:rgba(255,200,0,.18)}
.coup-tag{font-size:.75rem;padding:0 .35rem;border-radius:.6rem;white-space:nowrap}
.coup-tag.bluff{background:#fde2e1;color:#9b1c1c}
.coup-tag.best,.coup-tag.good{background:#def7ec;color:#03543f}
.coup-tag.inaccuracy{background:#fdf6b2;color:#723b13}
.coup-tag.mistake,.coup-tag.blunder{background:#fde2e1;color:#9b1c1c}
.coup-tag.coach{background:#e1effe;color:#1e429f}
.coup-tag.close{background:#e5e7eb;color:#374151}
.coup-chips{display:flex;flex-wrap:wrap;gap:.4rem;margin:.2rem 0 .6rem}
.coup-tag.big{font-size:.95rem;padding:.2rem .7rem;border-radius:1rem}
</style>"""

INTRO = ("Play a whole game of Coup against bots. Each bot plays by its own habits; the coach "
         "can tell you what it thinks, and after the game a review grades your decisions.")
NO_UNDO = ("There is no undo: Coup is a bluffing game, and a bluff once seen cannot be "
           "taken back. You can resign or start a new game at any time.")
MIXED_TITLE = "A mixed table"
MIXED_HELP = ("Each bot seat gets a bot drawn at random (fixed by the deal's number), from "
              "every bot that plays to win.")
SEED_HELP = ("The deal's number: the same number deals the same cards, and the bots decide "
             "the same way as long as you do. Share the game's link to replay it.")
DELAY_HELP = ("How long each bot move stays on screen before the next one: slow 2 s, "
              "normal 0.8 s, fast 0.3 s, instant none.")
COACH_HELP = ("At each of your decisions: the bot's chance that a claim is a bluff, and how "
              "often each option wins when played out many times. Key: H. Using the coach "
              "is noted in the review.")
STATE_HELP = ("Optional. Your chance, from 1% to 99%, that the claim is a bluff (the player "
              "does not hold the card). Stated chances feed the Calibration page. "
              "J and K move it by 5.")


# How long each bot move stays on screen, in seconds, by the speed's name.
SPEEDS = {"Slow": 2.0, "Normal": 0.8, "Fast": 0.3, "Instant": 0.0}


def pace_label(speed: str | None) -> str:
    return f"Bots: {(speed or 'Normal').lower()}"


def grade_chips(counts: dict[Grade, int]) -> str:
    """The grade counts as one wrapping row of labelled chips (five metrics would stack into
    five screens on a phone)."""
    chips = "".join(f'<span class="coup-tag {g} big">{GRADE_WORDS[g]} <b>{n}</b></span>'
                    for g, n in counts.items())
    return f'{PLAY_CSS}<div class="coup-chips">{chips}</div>'


def rule_set_title(variant: str) -> str:
    """The rules of a game by name: its rule set's title, and the table rules it changes in a
    few words (a description with table rules is read whole)."""
    return choices.title(parse_rules(variant))


def rules_line(setup: Setup) -> str:
    """The house rules and table rules in force at this table, in one line."""
    return choices.in_force_line(setup.rules)


def rules_details(setup: Setup) -> list[str]:
    """Each house rule and table rule in force, in full (the game screen's details)."""
    rules = setup.rules
    lines = [f"**{r.title}.** {r.text}" for r in choices.house_rules_in_force(rules.variant)]
    if choices.self_targeting(rules.variant):
        lines.append(f"**7. Self-targeting allowed.** {choices.plain_sentence_off()}")
    lines += [f"**{r.title}.** {r.active_text}" for r in choices.table_rules_in_force(rules)]
    return lines


BOTS_MEASURED = ("The bots' strengths were measured in the base game with the rulebook's "
                 "table rules; under these rules they may win more or less often.")


def strength_title(variant: str) -> str:
    """The fold of the bots' strengths, saying where they were measured when it matters."""
    if parse_rules(variant).text == "base":
        return "How strong are these bots?"
    return "How strong are these bots? (measured in the base game)"


def bots_note(variant: str) -> str | None:
    """Said wherever strengths are shown for a game under other rules than the base game's."""
    return None if parse_rules(variant).text == "base" else BOTS_MEASURED


def seat_label(key: str) -> str:
    return "You" if key == LEARNER else bot_title(key)


def strength_line(key: str, players: int, strength: Strength | None) -> str:
    """How often a bot wins, in one sentence (with the measurement it rests on)."""
    if strength is None:
        return f"{bot_title(key)}: not measured."
    where = (f"{strength.players}-player games" if strength.players == players
             else f"{strength.players}-player games (the nearest size measured)")
    return (f"{bot_title(key)} wins {strength.rate:.0%} of {where} of the base game against a "
            f"mix of the other bots ({strength.low:.0%}–{strength.high:.0%}, 95% interval over "
            f"{strength.games} games; an even share is {strength.fair:.0%}).")


def bot_choice(key: str, players: int) -> str:
    """A bot as a seat's option: its name and how often it wins at this table size."""
    measured = strength(key, players)
    if measured is None:
        return bot_title(key)
    return (f"{bot_title(key)} · wins {measured.rate:.0%} at {measured.players} players "
            f"(base game)")


def table_line(setup: Setup, table_rules: bool = True) -> str:
    """The table in one line: the rule set (and the table rules it changes, unless they are
    said on a line of their own), who sits where, the deal."""
    names = setup.names
    seats = ", ".join(f"{names[i]} ({seat_label(k)})" if k != LEARNER else "You"
                      for i, k in enumerate(setup.seats))
    rules = rule_set_title(setup.variant) if table_rules else setup.rules.variant.title
    return f"{rules} · {seats} · deal {setup.seed}"


# The Review heading's anchor: the result at the top of a finished game links down to it.
REVIEW_ANCHOR = "review"
TO_THE_REVIEW = f"[The review below](#{REVIEW_ANCHOR}) grades each decision you made."


def result_line(game: Game, learner: int, resigned: bool) -> str:
    """How the game ended, said first (won, lost, resigned, a tie), then where the review is:
    the review sits below the final table, out of sight on a phone."""
    if resigned:
        return f"You resigned this game. It counts as a loss. {TO_THE_REVIEW}"
    if not game.is_over:
        return "The game goes on."
    if game.winner is None:
        return f"The game ended in a tie: nobody won. {TO_THE_REVIEW}"
    if game.winner == learner:
        return f"You won! You are the last player with influence. {TO_THE_REVIEW}"
    return f"You lost. {game.names[game.winner]} won. {TO_THE_REVIEW}"


def import_note(megabytes: int) -> str:
    """Under the import: what a log is, and the size limit that a file refused by the upload
    itself (a red mark, with no words on a phone) has run into."""
    return (f"A game log is the small text file a game's review downloads. Files over "
            f"{megabytes} MB are refused.")


def saved_line(game: Any) -> str:
    """A saved game in the list: when, the rule set, the table size, how it went."""
    when = game.started_at.strftime("%d %b %Y %H:%M")
    if game.resigned:
        how = "resigned"
    elif game.finished_at is None:
        how = f"unfinished, {game.moves} moves"
    elif game.winner_name:
        how = "you won" if game.winner_name == "You" else f"{game.winner_name} won"
    else:
        how = "a tie"
    return f"{when} · {rule_set_title(game.variant)}, {game.players} players · {how}"


def damaged_line(game_id: str, problem: str) -> tuple[str, bool]:
    """What the list says of a saved game that cannot be rebuilt, and whether keeping the
    moves before the one at fault would repair it (the problem names a move of the game)."""
    found = re.search(r"move (\d+) ('[^']*') (is not legal there|comes after the end)", problem)
    if found is None:
        return (f"Saved game {game_id} cannot be opened: {problem or 'it cannot be read'}. "
                f"It is kept as it is.", False)
    n, move, why = int(found.group(1)), found.group(2), found.group(3)
    reason = "is not allowed there" if why.startswith("is not") else "comes after the end"
    kept = "no moves" if n == 1 else "move 1" if n == 2 else f"moves 1 to {n - 1}"
    return (f"Saved game {game_id} stops at move {n}: {move} {reason}, so the game cannot "
            f"go on from it. It is set aside; you can keep {kept} and play on from there.",
            True)


def thinking_line(game: Game) -> str:
    return f"{game.names[game.decider]} is deciding…"


# ------------------------------------------------------------------------ the coach
@dataclass(frozen=True)
class CoachRow:
    option: str
    win: float
    noise: float


def coach_rows(valued: Valued) -> list[CoachRow]:
    """Each option with its win chance and noise, best first."""
    item = valued.item
    if valued.solved is not None:
        return sorted((CoachRow(o.label, valued.solved.values[o.label],
                                valued.solved.exploitability) for o in item.options),
                      key=lambda r: -r.win)
    return sorted((CoachRow(o.label, o.win, o.se) for o in item.options), key=lambda r: -r.win)


def coach_belief(valued: Valued, names: Sequence[str]) -> str | None:
    """The bot's chance of a bluff, in words, or None without a claim to judge."""
    item = valued.item
    if item.bot is None or item.claimant is None or item.claim is None:
        return None
    who = names[item.claimant]
    return (f"The bot's chance that {who} is bluffing (holds no {item.claim}): "
            f"**{item.bot:.0%}**. Counting cards alone gives {item.prior:.0%}.")


def coach_best(valued: Valued) -> str:
    """The coach's pick, what it rests on, and whether the runner-up is too close to call."""
    rows = coach_rows(valued)
    basis = ("Solved exactly: perfect play from here, every unseen card equally likely."
             if valued.solved is not None else
             f"Each option played out {valued.item.playouts} times against the bots; ± is "
             f"the noise of each figure, in percentage points of your chance to win.")
    close = ""
    if len(rows) > 1 and valued.solved is None:
        v = judge(item_valuation(valued.item), rows[1].option)
        if v.indistinct:
            close = (f" {words.CLOSE_CALL}: {rows[1].option} is within the noise of it, so "
                     "either may be the better one.")
    return (f"The coach's pick: **{rows[0].option}** (wins {rows[0].win:.0%}).{close} "
            f"{basis}")


def coach_table(valued: Valued) -> list[dict[str, Any]]:
    return [{"Option": r.option, "Chance you win": f"{r.win:.0%}",
             "±": f"{100 * r.noise:.1f} points"} for r in coach_rows(valued)]


# ------------------------------------------------------------------------ the review
GRADE_WORDS: dict[Grade, str] = words.HEADLINES
GRADE_PLURALS: dict[Grade, str] = {"best": "best moves", "good": "good",
                                   "inaccuracy": "inaccuracies", "mistake": "mistakes",
                                   "blunder": "blunders"}
ACCURACY_NOTE = (
    "**How the review grades.** Each of your decisions is valued by playing every option out "
    "many times against the bots (a duel of one card each in the base game is solved "
    "exactly). A decision gives up the percentage points of your chance to win that the best "
    "option would have kept: Best move ≤ 1 point, Good ≤ 5, Inaccuracy ≤ 10, Mistake ≤ 15, "
    f"Blunder more. A loss within {NOISE_FACTOR:g} times its noise cannot be told from the "
    f"best: it counts as Good, and reads “{words.CLOSE_CALL}” when the loss alone would have "
    "been worse. Forced and obvious decisions (every option within a point) are left out. "
    "**Accuracy** is Lichess's formula on the points lost, 103.17·e^(−0.0435·lost) − 3.17, "
    "averaged over the graded decisions: 100 for best play, about 50 for a 15-point loss.")


def summary_line(rev: Review) -> str:
    graded = rev.graded()
    if not graded:
        return "None of your decisions in this game had options far enough apart to grade."
    acc = rev.accuracy
    counts = rev.counts()
    parts = [f"{counts[g]} {(GRADE_WORDS if counts[g] == 1 else GRADE_PLURALS)[g].lower()}"
             for g in counts if counts[g]]
    coach = (f" You used the coach at {rev.coached} of your decisions." if rev.coached else "")
    return (f"Accuracy **{acc:.0f}%** over {len(graded)} graded decisions: "
            f"{', '.join(parts)}.{coach}")


def step_headline(step: Step) -> str:
    """The step's verdict in a few words: the verdict layer's headline, "Not graded" for a
    decision left out."""
    if step.grade is None:
        return "Not graded"
    return words.headline(step.verdict) if step.verdict is not None else GRADE_WORDS[step.grade]


def step_title(step: Step) -> str:
    return f"Decision {step.number} (turn {step.turn}): {step.chosen} · {step_headline(step)}"


def step_tag(step: Step) -> str:
    """The step's tag in the move list: a grade's colour, grey for a range (never green)."""
    import html

    v = step.verdict
    cls = "close" if v is not None and v.is_range else str(step.grade)
    short = words.short_headline(v) if v is not None else step_headline(step)
    return (f'<span class="coup-tag {cls}" title="{html.escape(step_headline(step))}">'
            f'{html.escape(short)}</span>')


def step_verdict(step: Step, *, first: bool = True) -> str:
    """What the grade means for this decision, in plain words (`first`: points are not yet
    defined where this is shown)."""
    best = step.valued.best
    if step.grade is None:
        return "Every option was within a point of the best: not graded."
    if step.chosen == best or step.lost_pp <= 1.0:
        return f"{step.chosen} was the best option (you win {step.win_after:.0%} of the time)."
    if step.verdict is not None:
        return (f"{words.sentence(step.verdict, first=first)} You win {step.win_after:.0%} "
                f"of the time against {step.win_before:.0%} with {best}.")
    return (f"{step.chosen} gives up {words.points(step.lost_pp, first=first)}, compared "
            f"with {best} ({step.win_after:.0%} against {step.win_before:.0%}).")


def stated_line(step: Step, names: Sequence[str]) -> str | None:
    item = step.valued.item
    if step.stated is None or item.bot is None or item.claimant is None:
        return None
    truth = "it was a bluff" if item.bluff else "the claim was true"
    return (f"You said {step.stated:.0%} that {names[item.claimant]} was bluffing; the bot "
            f"said {item.bot:.0%}; {truth}.")


@dataclass(frozen=True)
class Line:
    """One move of the game as the review lists it."""

    index: int
    turn: int
    text: str
    mine: bool
    bluff: bool  # shown with every card only
    step: Step | None


def timeline(record_moves: Sequence[Move], game: Game, learner: int, steps: Sequence[Step],
             all_cards: bool) -> list[Line]:
    """Every move in words, from the deal in `game` (a fresh copy: it is played forward).
    With `all_cards` off, another player's choice of cards in an exchange stays hidden, as
    it was at the table, and no bluff is marked."""
    by_index = {s.index: s for s in steps}
    out = []
    for k, move in enumerate(record_moves):
        text = game.describe(move)
        if not all_cards and move.kind is MoveKind.KEEP and move.player != learner:
            text = f"{game.names[move.player]} keeps {len(move.cards or ())} of the cards"
        bluff = all_cards and is_bluff(game, move)
        out.append(Line(k, game.turn, text, move.player == learner, bluff, by_index.get(k)))
        game.apply(move)
    return out


def timeline_html(lines: Sequence[Line], current: int | None = None) -> str:
    """The moves as rows: number, words, and tags for bluffs, grades and the coach."""
    import html

    rows = []
    for line in lines:
        tags = []
        if line.bluff:
            tags.append('<span class="coup-tag bluff">bluff</span>')
        s = line.step
        if s is not None and s.grade is not None:
            tags.append(step_tag(s))
        if s is not None and s.coached:
            tags.append('<span class="coup-tag coach">coach</span>')
        cls = "coup-review-line" + (" mine" if line.mine else "") + (
            " current" if current == line.index else "")
        rows.append(f'<div class="{cls}"><span class="n">{line.index + 1}.</span>'
                    f'<span>{html.escape(line.text)}</span>{"".join(tags)}</div>')
    return PLAY_CSS + "".join(rows)
