"""The Play page's words: the table's set-up, the coach, the result and the review.

Written for someone who has never played: short sentences first, figures one click away, and
every probability says what it is the chance of.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trainer.engine.cards import Character
from trainer.engine.explain import variant_title
from trainer.engine.game import Game
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import card_name
from trainer.engine.variants import parse_rules
from trainer.estimates.knowledge import knowledge
from trainer.estimates.report import DEFAULT_MODEL, explain
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import number, percent
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

INTRO = N_("Play a whole game of Coup against bots. Each bot plays by its own habits; the "
            "coach can tell you what it thinks, and after the game a review grades your "
            "decisions.")
NO_UNDO = N_("There is no undo: Coup is a bluffing game, and a bluff once seen cannot be "
             "taken back. You can resign or start a new game at any time.")
MIXED_TITLE = N_("A mixed table")
MIXED_HELP = N_("Each bot seat gets a bot drawn at random (fixed by the deal's number), from "
                "every bot that plays to win.")
SEED_HELP = N_("The deal's number: the same number deals the same cards, and the bots decide "
               "the same way as long as you do. Share the game's link to replay it.")
DELAY_HELP = N_("How long each bot move stays on screen before the next one: slow 2 s, "
                "normal 0.8 s, fast 0.3 s, instant none.")
COACH_HELP = N_("At each of your decisions: the bot's chance that a claim is a bluff, and how "
                "often each option wins when played out many times. Key: H. Using the coach "
                "is noted in the review.")
STATE_HELP = N_("Optional. Your chance, from 1% to 99%, that the claim is a bluff (the player "
                "does not hold the card). Stated chances feed the Calibration page. "
                "J and K move it by 5.")


# How long each bot move stays on screen, in seconds, by the speed's name (the names are
# the control's values, kept in the session: identifiers, worded by `speed_word`).
SPEEDS = {"Slow": 2.0, "Normal": 0.8, "Fast": 0.3, "Instant": 0.0}
SPEED_WORDS = {"Slow": N_("Slow"), "Normal": N_("Normal"), "Fast": N_("Fast"),
               "Instant": N_("Instant")}
PACE_WORDS = {"Slow": N_("Bots: slow"), "Normal": N_("Bots: normal"),
              "Fast": N_("Bots: fast"), "Instant": N_("Bots: instant")}


def speed_word(speed: str) -> str:
    """A speed as its button reads ("Slow")."""
    return tr(SPEED_WORDS.get(speed, speed))


def pace_label(speed: str | None) -> str:
    return tr(PACE_WORDS.get(speed or "Normal", PACE_WORDS["Normal"]))


def grade_word(grade: Grade) -> str:
    """A grade's headline ("Mistake"), in the reader's language."""
    return tr(GRADE_WORDS[grade])


def grade_chips(counts: dict[Grade, int]) -> str:
    """The grade counts as one wrapping row of labelled chips (five metrics would stack into
    five screens on a phone)."""
    import html

    chips = "".join(f'<span class="coup-tag {g} big">{html.escape(grade_word(g))} '
                    f'<b>{number(n)}</b></span>' for g, n in counts.items())
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
        title = tr("7. Self-targeting allowed.")
        lines.append(f"**{title}** {choices.plain_sentence_off()}")
    lines += [f"**{r.title}.** {r.active_text}" for r in choices.table_rules_in_force(rules)]
    return lines


BOTS_MEASURED = N_("The bots' strengths were measured in the base game with the rulebook's "
                   "table rules; under these rules they may win more or less often.")


def strength_title(variant: str) -> str:
    """The fold of the bots' strengths, saying where they were measured when it matters."""
    if parse_rules(variant).text == "base":
        return tr("How strong are these bots?")
    return tr("How strong are these bots? (measured in the base game)")


def bots_note(variant: str) -> str | None:
    """Said wherever strengths are shown for a game under other rules than the base game's."""
    return None if parse_rules(variant).text == "base" else tr(BOTS_MEASURED)


def seat_label(key: str) -> str:
    return tr("You") if key == LEARNER else bot_title(key)


def strength_line(key: str, players: int, strength: Strength | None) -> str:
    """How often a bot wins, in one sentence (with the measurement it rests on)."""
    if strength is None:
        return tr("{bot}: not measured.", bot=bot_title(key))
    fields = {"bot": bot_title(key), "rate": percent(strength.rate),
              "low": percent(strength.low), "high": percent(strength.high),
              "fair": percent(strength.fair), "size": strength.players,
              "interval": percent(0.95)}
    if strength.players == players:
        return tr_n("{bot} wins {rate} of {size}-player games of the base game against a mix "
                    "of the other bots ({low}–{high}, {interval} interval over {n} game; an "
                    "even share is {fair}).",
                    "{bot} wins {rate} of {size}-player games of the base game against a mix "
                    "of the other bots ({low}–{high}, {interval} interval over {n} games; an "
                    "even share is {fair}).", strength.games, **fields)
    return tr_n("{bot} wins {rate} of {size}-player games (the nearest size measured) of the "
                "base game against a mix of the other bots ({low}–{high}, {interval} interval "
                "over {n} game; an even share is {fair}).",
                "{bot} wins {rate} of {size}-player games (the nearest size measured) of the "
                "base game against a mix of the other bots ({low}–{high}, {interval} interval "
                "over {n} games; an even share is {fair}).", strength.games, **fields)


def bot_choice(key: str, players: int) -> str:
    """A bot as a seat's option: its name and how often it wins at this table size."""
    measured = strength(key, players)
    if measured is None:
        return bot_title(key)
    return tr_n("{bot} · wins {rate} at {n} player (base game)",
                "{bot} · wins {rate} at {n} players (base game)", measured.players,
                bot=bot_title(key), rate=percent(measured.rate))


def table_line(setup: Setup, table_rules: bool = True) -> str:
    """The table in one line: the rule set (and the table rules it changes, unless they are
    said on a line of their own), who sits where, the deal."""
    names = setup.names
    seats = ", ".join(tr("{name} ({bot})", name=names[i], bot=seat_label(k))
                      if k != LEARNER else tr("You") for i, k in enumerate(setup.seats))
    rules = (rule_set_title(setup.variant) if table_rules
             else variant_title(setup.rules.variant))
    return f"{rules} · {seats} · " + tr("deal {seed}", seed=setup.seed)


# The Review heading's anchor: the result at the top of a finished game links down to it.
REVIEW_ANCHOR = "review"


def to_the_review() -> str:
    return tr("[The review below](#{anchor}) grades each decision you made.",
              anchor=REVIEW_ANCHOR)


def result_line(game: Game, learner: int, resigned: bool) -> str:
    """How the game ended, said first (won, lost, resigned, a tie), then where the review is:
    the review sits below the final table, out of sight on a phone."""
    if resigned:
        return tr("You resigned this game. It counts as a loss.") + " " + to_the_review()
    if not game.is_over:
        return tr("The game goes on.")
    if game.winner is None:
        return tr("The game ended in a tie: nobody won.") + " " + to_the_review()
    if game.winner == learner:
        return (tr("You won! You are the last player with influence.") + " "
                + to_the_review())
    return tr("You lost. {name} won.", name=game.names[game.winner]) + " " + to_the_review()


def import_note(megabytes: int) -> str:
    """Under the import: what a log is, and the size limit that a file refused by the upload
    itself (a red mark, with no words on a phone) has run into."""
    return tr("A game log is the small text file a game's review downloads. Files over "
              "{mb} MB are refused.", mb=number(megabytes))


def saved_line(game: Any) -> str:
    """A saved game in the list: when, the rule set, the table size, how it went."""
    from trainer.i18n.formats import moment

    when = moment(game.started_at, "dd MMM yyyy HH:mm")
    if game.resigned:
        how = tr("resigned")
    elif game.finished_at is None:
        how = tr_n("unfinished, {n} move", "unfinished, {n} moves", game.moves)
    elif game.winner_name:
        how = (tr("you won") if game.winner_name == "You"
               else tr("{name} won", name=game.winner_name))
    else:
        how = tr("a tie")
    size = tr_n("{n} player", "{n} players", game.players)
    return f"{when} · {rule_set_title(game.variant)}, {size} · {how}"


def damaged_line(game_id: str, problem: str) -> tuple[str, bool]:
    """What the list says of a saved game that cannot be rebuilt, and whether keeping the
    moves before the one at fault would repair it (the problem names a move of the game)."""
    found = re.search(r"move (\d+) ('[^']*') (is not legal there|comes after the end)", problem)
    if found is None:
        if not problem:
            return (tr("Saved game {game} cannot be opened: it cannot be read. It is kept as "
                       "it is.", game=game_id), False)
        return (tr("Saved game {game} cannot be opened: {problem}. It is kept as it is.",
                   game=game_id, problem=problem), False)
    n, move, why = int(found.group(1)), found.group(2), found.group(3)
    if n == 1:
        kept = tr("you can keep no moves and play on from there")
    elif n == 2:
        kept = tr("you can keep move 1 and play on from there")
    else:
        kept = tr("you can keep moves 1 to {last} and play on from there", last=n - 1)
    if why.startswith("is not"):
        text = tr("Saved game {game} stops at move {n}: {move} is not allowed there, so the "
                  "game cannot go on from it. It is set aside; {kept}.", game=game_id, n=n,
                  move=move, kept=kept)
    else:
        text = tr("Saved game {game} stops at move {n}: {move} comes after the end, so the "
                  "game cannot go on from it. It is set aside; {kept}.", game=game_id, n=n,
                  move=move, kept=kept)
    return text, True


def thinking_line(game: Game) -> str:
    return tr("{name} is deciding…", name=game.names[game.decider])


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
    return tr("The bot's chance that {name} is bluffing (holds no {card}): **{bot}**. "
              "Counting cards alone gives {prior}.", name=who, card=card_name(item.claim),
              bot=percent(item.bot), prior=percent(item.prior or 0.0))


def coach_why(valued: Valued, game: Game, viewer: int) -> str | None:
    """How the bot reached its chance, worded now in the reader's language (the valued item
    was made in a worker process, which words nothing for a visitor), or None without one."""
    item = valued.item
    if item.bot is None or item.prior is None or item.claimant is None or item.claim is None:
        return None
    obs = game.observation(viewer)
    return explain(obs, knowledge(obs), item.claimant, Character(item.claim), 1 - item.prior,
                   1 - item.bot, game.names, DEFAULT_MODEL)


def coach_best(valued: Valued) -> str:
    """The coach's pick, what it rests on, and whether the runner-up is too close to call."""
    rows = coach_rows(valued)
    basis = (tr("Solved exactly: perfect play from here, every unseen card equally likely.")
             if valued.solved is not None else
             _played_out(valued))
    close = ""
    if len(rows) > 1 and valued.solved is None:
        v = judge(item_valuation(valued.item), rows[1].option)
        if v.indistinct:
            close = " " + tr("{close_call}: {option} is within the noise of it, so either may "
                             "be the better one.", close_call=tr(words.CLOSE_CALL),
                             option=rows[1].option)
    pick = tr("The coach's pick: **{option}** (wins {win}).", option=rows[0].option,
              win=percent(rows[0].win))
    return f"{pick}{close} {basis}"


def _played_out(valued: Valued) -> str:
    """How many times each option was played out ("64 to 1,024" when the sequential
    playouts stopped some early), and what ± means."""
    item = valued.item
    counts = sorted({o.n or item.rollouts for o in item.options}) or [item.rollouts]
    if len(counts) == 1:
        return tr_n("Each option played out {count} time against the bots; ± is the noise of "
                    "each figure, in percentage points of your chance to win.",
                    "Each option played out {count} times against the bots; ± is the noise of "
                    "each figure, in percentage points of your chance to win.", counts[0],
                    count=number(counts[0]))
    return tr("Each option played out {low} to {high} times against the bots; ± is the noise "
              "of each figure, in percentage points of your chance to win.",
              low=number(counts[0]), high=number(counts[-1]))


def coach_table(valued: Valued) -> list[dict[str, Any]]:
    option, chance = tr("Option"), tr("Chance you win")
    return [{option: r.option, chance: percent(r.win),
             "±": tr("{points} points", points=number(100 * r.noise, 1))}
            for r in coach_rows(valued)]


# ------------------------------------------------------------------------ the review
GRADE_WORDS: dict[Grade, str] = words.HEADLINES


def grade_count(grade: Grade, n: int) -> str:
    """"2 mistakes", "1 best move", in the number the count takes."""
    if grade == "best":
        return tr_n("{n} best move", "{n} best moves", n)
    if grade == "good":
        return tr_n("{n} good", "{n} good", n)
    if grade == "inaccuracy":
        return tr_n("{n} inaccuracy", "{n} inaccuracies", n)
    if grade == "mistake":
        return tr_n("{n} mistake", "{n} mistakes", n)
    return tr_n("{n} blunder", "{n} blunders", n)


def accuracy_note() -> str:
    return tr(
        "**How the review grades.** Each of your decisions is valued by playing every option "
        "out many times against the bots (a duel of one card each in the base game is solved "
        "exactly). A decision gives up the percentage points of your chance to win that the "
        "best option would have kept: Best move ≤ 1 point, Good ≤ 5, Inaccuracy ≤ 10, "
        "Mistake ≤ 15, Blunder more. A loss within {factor} times its noise cannot be told "
        "from the best: it counts as Good, and reads “{close_call}” when the loss alone would "
        "have been worse. Forced and obvious decisions (every option within a point) are left "
        "out. **Accuracy** is Lichess's formula on the points lost, "
        "103.17·e^(−0.0435·lost) − 3.17, averaged over the graded decisions: 100 for best "
        "play, about 50 for a 15-point loss.", factor=format(NOISE_FACTOR, "g"),
        close_call=tr(words.CLOSE_CALL))


def summary_line(rev: Review) -> str:
    graded = rev.graded()
    if not graded:
        return tr("None of your decisions in this game had options far enough apart to grade.")
    acc = rev.accuracy
    counts = rev.counts()
    parts = [grade_count(g, counts[g]) for g in counts if counts[g]]
    coach = (" " + tr_n("You used the coach at {n} of your decisions.",
                        "You used the coach at {n} of your decisions.", rev.coached)
             if rev.coached else "")
    head = tr_n("Accuracy **{accuracy}** over {n} graded decision",
                "Accuracy **{accuracy}** over {n} graded decisions", len(graded),
                accuracy=percent((acc or 0.0) / 100))
    return f"{head}: {', '.join(parts)}.{coach}"


def step_headline(step: Step) -> str:
    """The step's verdict in a few words: the verdict layer's headline, "Not graded" for a
    decision left out."""
    if step.grade is None:
        return tr("Not graded")
    return words.headline(step.verdict) if step.verdict is not None else grade_word(step.grade)


def step_title(step: Step) -> str:
    return tr("Decision {number} (turn {turn}): {move} · {verdict}", number=step.number,
              turn=step.turn, move=step.chosen, verdict=step_headline(step))


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
        return tr("Every option was within a point of the best: not graded.")
    if step.chosen == best or step.lost_pp <= 1.0:
        return tr("{move} was the best option (you win {win} of the time).", move=step.chosen,
                  win=percent(step.win_after))
    if step.verdict is not None:
        return (words.sentence(step.verdict, first=first) + " "
                + tr("You win {win} of the time against {best_win} with {best}.",
                     win=percent(step.win_after), best_win=percent(step.win_before),
                     best=best))
    return tr("{move} gives up {points}, compared with {best} ({win} against {best_win}).",
              move=step.chosen, points=words.points(step.lost_pp, first=first), best=best,
              win=percent(step.win_after), best_win=percent(step.win_before))


def stated_line(step: Step, names: Sequence[str]) -> str | None:
    item = step.valued.item
    if step.stated is None or item.bot is None or item.claimant is None:
        return None
    fields = {"stated": percent(step.stated), "name": names[item.claimant],
              "bot": percent(item.bot)}
    if item.bluff:
        return tr("You said {stated} that {name} was bluffing; the bot said {bot}; it was a "
                  "bluff.", **fields)
    return tr("You said {stated} that {name} was bluffing; the bot said {bot}; the claim was "
              "true.", **fields)


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
            text = tr_n("{name} keeps {n} of the cards", "{name} keeps {n} of the cards",
                        len(move.cards or ()), name=game.names[move.player])
        bluff = all_cards and is_bluff(game, move)
        out.append(Line(k, game.turn, text, move.player == learner, bluff, by_index.get(k)))
        game.apply(move)
    return out


def timeline_html(lines: Sequence[Line], current: int | None = None) -> str:
    """The moves as rows: number, words, and tags for bluffs, grades and the coach."""
    import html

    rows = []
    bluff, coach = html.escape(tr("bluff")), html.escape(tr("coach"))
    for line in lines:
        tags = []
        if line.bluff:
            tags.append(f'<span class="coup-tag bluff">{bluff}</span>')
        s = line.step
        if s is not None and s.grade is not None:
            tags.append(step_tag(s))
        if s is not None and s.coached:
            tags.append(f'<span class="coup-tag coach">{coach}</span>')
        cls = "coup-review-line" + (" mine" if line.mine else "") + (
            " current" if current == line.index else "")
        rows.append(f'<div class="{cls}"><span class="n">{line.index + 1}.</span>'
                    f'<span>{html.escape(line.text)}</span>{"".join(tags)}</div>')
    return PLAY_CSS + "".join(rows)
