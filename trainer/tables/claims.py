"""What people's decisions say about the bot's bluff estimates: one record per claim a person
judged, and the report a host reads after some games.

Why a record per judged claim: the bot's chance of a bluff is only worth showing to people if
it is closer to the truth about *people* than counting cards alone, and the one way to know is
to score both on claims whose truth the game knows. Every decision at which a person could
challenge a claim (or, at a block decision, let the action's own claim through) is such a
claim; the engine's hidden cards say whether it was a bluff.

The estimates are made exactly as the Play review makes them (`trainer.play.review.positions`):
each person seat has its own `Belief` over the default behaviour model, fed that seat's own
observation before every move, and at the decision `p_holds` gives the chance that the
claimant holds the card (the bot's, with the belief; counting's, without). A bluff is the
claimant holding no card that proves the claim (`trainer.engine.cards.proves`).

The report scores both with the Brier score (the mean squared distance between the chance and
what happened, 0 for a perfect forecaster, 0.25 for always saying 50%) and gives 95%
intervals from a bootstrap over *games*, not claims: the claims of one game share players,
cards and habits, so resampling claims one by one would make the intervals too narrow.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields

import numpy as np
import pandas as pd

from trainer.engine.cards import proves
from trainer.engine.game import Game, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.observation import Observation
from trainer.engine.variants import rules_text
from trainer.estimates.posterior import Belief, mixture, p_holds
from trainer.estimates.report import DEFAULT_MODEL
from trainer.i18n import tr, tr_n
from trainer.i18n.formats import number, percent
from trainer.learners.csvsafe import neutral
from trainer.play.assess import judged_claim

SOURCES = ("table", "treason")
# The two kinds of decision that judge a claim: a challenge window (the action's claim, a
# block, a claim out of turn), or a block decision, where the claim judged is the action's own
# (a Captain's steal the target may let through or block).
KINDS = ("challenge", "block")
# A confident estimate: a chance of a bluff of at most CONFIDENT, or at least 1 − CONFIDENT.
# A confident miss is one the cards contradict (at least 80% on an honest claim, at most 20%
# on a bluff): the estimate a person would most regret trusting.
CONFIDENT = 0.2
LEVEL = 0.95
RESAMPLES = 2000
SEED = 20260501
# Resampled game indices drawn at once: chunks of at most this many numbers keep the
# bootstrap's memory flat on the hundreds of thousands of games of Treason's dump.
_CHUNK_CELLS = 4_000_000


@dataclass(frozen=True, slots=True)
class ClaimRecord:
    """One claim judged by one person: who judged whose claim of which character, whether it
    was a bluff, the bot's and counting's chances of a bluff, and what the person did.

    `challenged` is what the person did at the decision: at a challenge window (`kind`
    "challenge") that they challenged; at a block decision (`kind` "block", where the claim
    judged is the action's own) that they blocked rather than let the action through.
    `stated` is the chance of a bluff the person gave before deciding, when they gave one."""

    source: str
    game: str
    index: int  # the index of the decision's move in the game's moves
    variant: str  # the rule set's compact description (`trainer.engine.variants.rules_text`)
    players: int
    decider: int
    claimant: int
    character: str
    kind: str
    bluff: bool
    bot: float
    counting: float
    challenged: bool
    stated: float | None = None


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(ClaimRecord))


def claim_records(start: Game, moves: Sequence[Move], people: Collection[int], *,
                  source: str, game_id: str, stated: Mapping[int, float] | None = None,
                  until: Mapping[int, int] | None = None) -> list[ClaimRecord]:
    """Every claim a seat of `people` judged while `moves` are replayed from a copy of
    `start` (which is left as it is): each decision of theirs where
    `trainer.play.assess.judged_claim` names a claim and there was more than one legal move.

    `stated` maps a move's index to the chance of a bluff its person stated before it.
    `until` maps a seat to the index of the first move from which its decisions are left out:
    where the record no longer says what that seat saw (Treason's dump does not say which card
    an interrogation showed), its beliefs from there on would be of another game.

    A block decision after the claim was already challenged is left out: the claim was proven
    (its card shown and replaced), so the cards in hand no longer say whether it was a bluff.
    """
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}; expected one of {', '.join(SOURCES)}")
    game = start.clone()
    variant = rules_text(game.variant, game.options)
    seats = sorted({s for s in people if 0 <= s < game.n})
    beliefs = {s: Belief(s, mixture(DEFAULT_MODEL), game.variant.cards) for s in seats}
    stop = dict(until or {})
    out: list[ClaimRecord] = []
    for index, move in enumerate(moves):
        if game.is_over:
            raise ValueError(f"move {index} ({move}) comes after the end of the game")
        seat = game.decider
        views = {s: game.observation(s) for s in seats}
        if seat in beliefs and index < stop.get(seat, len(moves)) \
                and len(game.legal_moves()) > 1:
            record = _judged(game, views[seat], beliefs[seat], move, index, variant,
                             source, game_id, stated)
            if record is not None:
                out.append(record)
        for s, belief in beliefs.items():
            obs = views[s]  # the seat's own observation, made before the move
            belief.observe(obs, move)
        game.apply(move)
    return out


def _judged(game: Game, obs: Observation, belief: Belief, move: Move, index: int, variant: str,
            source: str, game_id: str, stated: Mapping[int, float] | None
            ) -> ClaimRecord | None:
    """The record of the pending decision, or None when it judges no claim."""
    judged = judged_claim(game)
    pending = game.pending
    if judged is None or pending is None:
        return None
    claimant, role = judged
    seat = game.decider
    if claimant == seat:
        return None  # McGuire's rule 7 off: a claimant may challenge themselves
    block = pending.phase is Phase.BLOCK
    if block and game.challenger is not None:
        return None
    bot = 1.0 - p_holds(obs, belief, claimant, role)
    counting = 1.0 - p_holds(obs, None, claimant, role)
    acted = move.kind is (MoveKind.BLOCK if block else MoveKind.CHALLENGE)
    said = None if stated is None else stated.get(index)
    return ClaimRecord(
        source=source, game=game_id, index=index, variant=variant, players=game.n,
        decider=seat, claimant=claimant, character=str(role),
        kind="block" if block else "challenge",
        bluff=not any(proves(c, role) for c in game.hidden[claimant]),
        bot=_unit(bot), counting=_unit(counting), challenged=acted,
        stated=None if said is None else float(said))


def _unit(p: float) -> float:
    """A chance kept inside [0, 1] (sums of floats can stray by an ulp)."""
    return min(1.0, max(0.0, float(p)))


# --------------------------------------------------------------------------- the report


@dataclass(frozen=True)
class Interval:
    """A 95% interval from the bootstrap over games."""

    low: float
    high: float

    @property
    def holds_zero(self) -> bool:
        return self.low <= 0.0 <= self.high

    def __contains__(self, x: object) -> bool:
        return isinstance(x, float | int) and self.low <= x <= self.high


@dataclass(frozen=True)
class Forecaster:
    """One forecaster's figures over the records: its Brier score with an interval (None for
    fewer than two games, where resampling games says nothing), and its confident misses."""

    name: str
    brier: float
    interval: Interval | None
    confident: int  # estimates at most CONFIDENT or at least 1 − CONFIDENT
    misses: int  # of which the cards contradicted


@dataclass(frozen=True)
class PeopleReport:
    """How the bot's bluff estimates did on people's claims, against counting alone."""

    n: int
    games: int
    bluffs: int
    bot: Forecaster | None  # None without records
    counting: Forecaster | None
    difference: float | None  # Brier(bot) − Brier(counting): negative, the bot was closer
    difference_interval: Interval | None
    judged: int  # claims met at a challenge window
    challenges: int  # of which the person challenged
    caught: int  # of which the claim was a bluff
    passed_bluffs: int  # claims let pass at a challenge window that were bluffs
    stated: int  # claims with a chance the person stated
    stated_brier: float | None
    bot_brier_on_stated: float | None  # the bot's Brier on those same claims
    level: float = LEVEL
    resamples: int = RESAMPLES
    seed: int = SEED

    @property
    def base_rate(self) -> float | None:
        """The share of the claims that were bluffs."""
        return self.bluffs / self.n if self.n else None

    @property
    def catch_rate(self) -> float | None:
        """How often a person's challenge caught a bluff."""
        return self.caught / self.challenges if self.challenges else None

    @property
    def passed(self) -> int:
        return self.judged - self.challenges


def people_report(records: Iterable[ClaimRecord], *, resamples: int = RESAMPLES,
                  seed: int = SEED, level: float = LEVEL) -> PeopleReport:
    """The report over `records`: the same records give the same figures (the bootstrap is
    seeded), in any order."""
    rows = sorted(records, key=lambda r: (r.source, r.game, r.index, r.decider))
    n = len(rows)
    bluff = np.array([r.bluff for r in rows], dtype=float)
    bot = np.array([r.bot for r in rows], dtype=float)
    counting = np.array([r.counting for r in rows], dtype=float)
    keys = [(r.source, r.game) for r in rows]
    group = _groups(keys)
    games = int(group.max()) + 1 if n else 0
    challenge = np.array([r.kind == "challenge" for r in rows], dtype=bool)
    acted = np.array([r.challenged for r in rows], dtype=bool)
    said = [(r.stated, r.bot, r.bluff) for r in rows if r.stated is not None]
    stated_brier = bot_on_stated = None
    if said:
        s = np.array(said, dtype=float)
        stated_brier = float(np.mean((s[:, 0] - s[:, 2]) ** 2))
        bot_on_stated = float(np.mean((s[:, 1] - s[:, 2]) ** 2))
    def made(bot_f: Forecaster | None, count_f: Forecaster | None, diff: float | None,
             ci: Interval | None) -> PeopleReport:
        return PeopleReport(
            n=n, games=games, bluffs=int(bluff.sum()), bot=bot_f, counting=count_f,
            difference=diff, difference_interval=ci, judged=int(challenge.sum()),
            challenges=int((challenge & acted).sum()),
            caught=int((challenge & acted & (bluff == 1)).sum()),
            passed_bluffs=int((challenge & ~acted & (bluff == 1)).sum()),
            stated=len(said), stated_brier=stated_brier, bot_brier_on_stated=bot_on_stated,
            level=level, resamples=resamples, seed=seed)

    if not n:
        return made(None, None, None, None)
    err_bot = (bot - bluff) ** 2
    err_count = (counting - bluff) ** 2
    intervals: tuple[Interval, Interval, Interval] | None = None
    if games >= 2:
        intervals = _bootstrap(group, games, err_bot, err_count, resamples=resamples,
                               seed=seed, level=level)
    forecasters = []
    for name, p, err, k in (("bot", bot, err_bot, 0), ("counting", counting, err_count, 1)):
        confident, misses = confident_misses(p, bluff)
        forecasters.append(Forecaster(name, float(err.mean()),
                                      intervals[k] if intervals else None, confident, misses))
    return made(forecasters[0], forecasters[1], float(err_bot.mean() - err_count.mean()),
                intervals[2] if intervals else None)


def confident_misses(p: np.ndarray, bluff: np.ndarray) -> tuple[int, int]:
    """(confident estimates, of which the cards contradicted), by `CONFIDENT`."""
    low, high = p <= CONFIDENT, p >= 1 - CONFIDENT
    wrong = (low & (bluff == 1)) | (high & (bluff == 0))
    return int((low | high).sum()), int(wrong.sum())


def _groups(keys: list[tuple[str, str]]) -> np.ndarray:
    """Each record's game as a number 0, 1, ... in order of first appearance."""
    seen: dict[tuple[str, str], int] = {}
    return np.array([seen.setdefault(k, len(seen)) for k in keys], dtype=np.int64)


def _bootstrap(group: np.ndarray, games: int, err_bot: np.ndarray, err_count: np.ndarray, *,
               resamples: int, seed: int, level: float
               ) -> tuple[Interval, Interval, Interval]:
    """Percentile intervals of Brier(bot), Brier(counting) and their difference, resampling
    whole games with replacement. Each resample scores the claims of the games drawn, so a
    game of many claims weighs as much as it does in the point estimate."""
    count = np.bincount(group, minlength=games).astype(float)
    sum_bot = np.bincount(group, weights=err_bot, minlength=games)
    sum_count = np.bincount(group, weights=err_count, minlength=games)
    rng = np.random.default_rng(seed)
    stats = np.empty((3, resamples))
    chunk = max(1, min(resamples, _CHUNK_CELLS // games))
    for at in range(0, resamples, chunk):
        k = min(chunk, resamples - at)
        drawn = rng.integers(0, games, size=(k, games))
        claims = count[drawn].sum(axis=1)
        b = sum_bot[drawn].sum(axis=1) / claims
        c = sum_count[drawn].sum(axis=1) / claims
        stats[:, at:at + k] = (b, c, b - c)
    tail = (1 - level) / 2 * 100
    bounds = np.percentile(stats, [tail, 100 - tail], axis=1)
    low, high = bounds
    made = [Interval(float(lo), float(hi)) for lo, hi in zip(low, high, strict=True)]
    return made[0], made[1], made[2]


# --------------------------------------------------------------------------- words


def report_lines(report: PeopleReport) -> list[str]:
    """The report as short sentences for someone who never played: what was measured, which
    estimate came closer (only when the interval says so), the confident misses and how
    people's own challenges did."""
    if not report.n or report.bot is None or report.counting is None:
        return [tr("No claims judged by people yet: there is nothing to measure.")]
    lines = [tr_n("Out of {count} claim people judged in {games}, {share} was a bluff.",
                  "Out of {count} claims people judged in {games}, {share} were bluffs.",
                  report.n, count=_int(report.n), games=_games(report.games),
                  share=_percent(report.base_rate or 0.0))]
    lines.append(_comparison(report))
    lines.append(tr("Confident misses (a chance of a bluff of {high} or more when the claim was "
                    "true, or {low} or less when it was a bluff): {bot}; {counting}.",
                    high=_percent(1 - CONFIDENT), low=_percent(CONFIDENT),
                    bot=_misses(report.bot, bot=True), counting=_misses(report.counting,
                                                                         bot=False)))
    lines.append(_challenges(report))
    if report.stated and report.stated_brier is not None \
            and report.bot_brier_on_stated is not None:
        lines.append(tr_n(
            "People gave their own chance of a bluff for {count} claim: Brier {people} on "
            "those, against {bot} for the bot on the same claims.",
            "People gave their own chance of a bluff for {count} claims: Brier {people} on "
            "those, against {bot} for the bot on the same claims.", report.stated,
            count=_int(report.stated), people=_number(report.stated_brier),
            bot=_number(report.bot_brier_on_stated)))
    return lines


def _comparison(report: PeopleReport) -> str:
    assert report.bot is not None and report.counting is not None
    assert report.difference is not None
    scores = tr("Brier {bot} for the bot against {counting} for counting alone",
                bot=_number(report.bot.brier), counting=_number(report.counting.brier))
    ci = report.difference_interval
    if ci is None:
        return tr("The bot's chances and counting cards alone: {scores} (lower is better); one "
                  "game is too few to tell whether the difference is more than luck.",
                  scores=scores)
    said = {"scores": scores, "difference": _signed(report.difference),
              "level": _percent(report.level), "low": _signed(ci.low),
              "high": _signed(ci.high)}
    if ci.high < 0:
        return tr("The bot's chances were closer to the truth than counting cards alone: "
                  "{scores} (lower is better; the difference is {difference}, {level} interval "
                  "{low} to {high}).", **said)
    if ci.low > 0:
        return tr("Counting cards alone was closer to the truth than the bot's chances: "
                  "{scores} (lower is better; the difference is {difference}, {level} interval "
                  "{low} to {high}).", **said)
    return tr("There is no clear difference between the bot's chances and counting cards "
              "alone: {scores} (lower is better; the difference is {difference}, {level} "
              "interval {low} to {high}, which includes no difference).", **said)


def report_figures(report: PeopleReport) -> list[tuple[str, str]]:
    """The report's figures as (label, value) rows, for a table or a terminal."""
    rows = [(tr("claims"), tr("{claims} in {games}", claims=_int(report.n),
                              games=_games(report.games)))]
    if report.base_rate is not None:
        rows.append((tr("bluffs"), f"{_int(report.bluffs)} ({_percent(report.base_rate)})"))
    level = _percent(report.level)
    for f in (report.bot, report.counting):
        if f is None:
            continue
        ci = "" if f.interval is None else " " + tr(
            "({level} interval {low} to {high})", level=level, low=_number(f.interval.low),
            high=_number(f.interval.high))
        rows.append((_figure_name(f, "Brier"), _number(f.brier) + ci))
    if report.difference is not None:
        ci = "" if report.difference_interval is None else " " + tr(
            "({level} interval {low} to {high})", level=level,
            low=_signed(report.difference_interval.low),
            high=_signed(report.difference_interval.high))
        rows.append((tr("Brier, bot − counting"), _signed(report.difference) + ci))
    for f in (report.bot, report.counting):
        if f is not None:
            rows.append((_figure_name(f, "misses"),
                         tr("{misses} of {confident} confident", misses=_int(f.misses),
                            confident=_int(f.confident))))
    rows.append((tr("challenges"), tr("{challenges} of {judged} claims that could be "
                                      "challenged", challenges=_int(report.challenges),
                                      judged=_int(report.judged))))
    if report.catch_rate is not None:
        rows.append((tr("caught a bluff"),
                     f"{_int(report.caught)} ({_percent(report.catch_rate)})"))
    if report.stated_brier is not None:
        rows.append((tr("Brier, people's stated chances"),
                     tr("{brier} on {claims} claims", brier=_number(report.stated_brier),
                        claims=_int(report.stated))))
    return rows


def _figure_name(f: Forecaster, what: str) -> str:
    """"Brier, bot", "confident misses, counting": a forecaster's row of the figures."""
    if what == "Brier":
        return tr("Brier, bot") if f.name == "bot" else tr("Brier, counting")
    return tr("confident misses, bot") if f.name == "bot" else tr("confident misses, counting")


def _misses(f: Forecaster, *, bot: bool) -> str:
    if not f.confident:
        return tr("the bot was never that confident") if bot else \
            tr("counting cards alone was never that confident")
    if bot:
        return tr_n("the bot missed {misses} of its {count} confident chance",
                    "the bot missed {misses} of its {count} confident chances", f.confident,
                    misses=_int(f.misses), count=_int(f.confident))
    return tr_n("counting cards alone missed {misses} of its {count} confident chance",
                "counting cards alone missed {misses} of its {count} confident chances",
                f.confident, misses=_int(f.misses), count=_int(f.confident))


def _challenges(report: PeopleReport) -> str:
    if not report.judged:
        return tr("None of these claims came at a moment to challenge them.")
    judged = _int(report.judged)
    if not report.challenges:
        text = tr_n("People challenged none of the {count} claim they could have challenged",
                    "People challenged none of the {count} claims they could have challenged",
                    report.judged, count=judged)
    else:
        text = tr_n("People challenged {challenges} of the {count} claim they could have "
                    "challenged, and {caught} of their challenges ({share}) caught a bluff",
                    "People challenged {challenges} of the {count} claims they could have "
                    "challenged, and {caught} of their challenges ({share}) caught a bluff",
                    report.judged, challenges=_int(report.challenges), count=judged,
                    caught=_int(report.caught), share=_percent(report.catch_rate or 0.0))
    if report.passed:
        text += tr("; of the claims they let pass, {share} were bluffs",
                   share=_percent(report.passed_bluffs / report.passed))
    return text + "."


def _int(k: int) -> str:
    """A count with the language's grouping ("1,234")."""
    return number(k)


def _games(k: int) -> str:
    return tr_n("{count} game", "{count} games", k, count=_int(k))


def _percent(x: float) -> str:
    return percent(round(100 * x) / 100)


def _number(x: float) -> str:
    """Three decimals with a true minus sign; never "−0.000"."""
    text = number(x, 3)
    if text.lstrip("-") == number(0, 3):
        return number(0, 3)
    return text.replace("-", "−")


def _signed(x: float) -> str:
    text = _number(x)
    return text if text.startswith("−") or text == number(0, 3) else "+" + text


# --------------------------------------------------------------------------- tables


def records_frame(records: Iterable[ClaimRecord]) -> pd.DataFrame:
    """One row per record, the columns in `COLUMNS`' order (an empty frame keeps them)."""
    rows = [asdict(r) for r in records]
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    if not rows:
        return frame.astype({"index": int, "players": int, "decider": int, "claimant": int,
                             "bluff": bool, "bot": float, "counting": float,
                             "challenged": bool, "stated": float})
    return frame


def records_csv(records: Iterable[ClaimRecord]) -> str:
    """The records as CSV, its text cells safe to open in a spreadsheet (a game id from a
    file is text someone else wrote: `trainer.learners.csvsafe`)."""
    frame = records_frame(records)
    for column in ("source", "game", "variant", "character", "kind"):
        frame[column] = frame[column].astype(str).map(neutral)
    text: str = frame.to_csv(index=False, lineterminator="\n")
    return text


def records_from_frame(frame: pd.DataFrame) -> list[ClaimRecord]:
    """Records read back from `records_frame`'s columns (a CSV read with pandas)."""
    missing = [c for c in COLUMNS if c not in frame.columns and c != "stated"]
    if missing:
        raise ValueError(f"missing column(s): {', '.join(missing)}")
    out = []
    for row in frame.to_dict("records"):
        said = row.get("stated")
        out.append(ClaimRecord(
            source=str(row["source"]), game=str(row["game"]), index=int(row["index"]),
            variant=str(row["variant"]), players=int(row["players"]),
            decider=int(row["decider"]), claimant=int(row["claimant"]),
            character=str(row["character"]), kind=str(row["kind"]),
            bluff=_truth(row["bluff"]), bot=float(row["bot"]),
            counting=float(row["counting"]), challenged=_truth(row["challenged"]),
            stated=None if said is None or (isinstance(said, float) and math.isnan(said))
            else float(said)))
    return out


def _truth(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return bool(value)
