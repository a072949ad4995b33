"""A played game as a plain-text log: read by a person, read back by the trainer to the
identical record.

Why text and not JSON: a learner shares a game with a teacher or a forum, or keeps it beside
their notes, and both should be able to follow it without the app. So every move is written
twice: in the engine's exact notation (what is read back) and, after `#`, in words with its
turn (what a person reads, and what the importer ignores).

Why the importer is strict: a log may have been edited by hand or cut short in a paste. A
half-read game would be replayed and reviewed as if it were what was played, so any problem
stops the import with the line, what was found there and what was expected; a move is
replayed through the engine at its line, so an illegal one is named where it is. Lines that
only repeat what the moves and the table already say (the names, the result) are checked
against them, so an edit of one without the other is caught too.

The format, version 1::

    coup-trainer game log 1
    game: 7kq2mbx9tr4e
    learner: b-5f0c9a1e
    rule set: base
    seed: 1234
    seats: you, honest, bluffer
    names: You, Ana, Ben
    started: 2025-03-01T18:04:05.123456Z
    finished: 2025-03-01T18:09:41.500000Z
    resigned: no
    result: Ana won
    moves:
    1. P0:income  # You: income (turn 1)
    2. P1:tax  # Ana claims Duke: tax (turn 2)
    3. P0:challenge | stated 40% | coach  # You challenge (turn 2)

`finished` is "-" while the game goes on; `resigned` is yes or no; `result` is "You won",
"Ana won", "You resigned", "a tie: nobody won" or "unfinished". A header value is the rest of
its line; on a move line everything after `#` is a comment. Blank lines and lines starting
with `#` are ignored anywhere. `stated` is the chance of a bluff the learner gave before that
decision (a whole percent, as the match keeps it; a finer one is written as finely as it is
held); `coach` marks a decision made with the coach open.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

from annotated_types import MaxLen
from pydantic import ValidationError

from trainer.engine.errors import MoveError
from trainer.engine.game import Game
from trainer.engine.notation import NotationError, move_text, parse
from trainer.i18n import N_, formats, tr, tr_n
from trainer.i18n.fields import field_problem
from trainer.play.record import GAME_ID, GameRecord, fresh_game
from trainer.play.setup import LEARNER, MAX_SEED, Setup, SetupError

VERSION = 1
MAGIC = "coup-trainer game log"
FIRST_LINE = f"{MAGIC} {VERSION}"
MOVES = "moves:"
NOT_YET = "-"
# The header's keys, in the order they are written, with what each holds (in the reader's
# words through `key_expected`; the keys themselves are the file's and stay as written).
KEYS: dict[str, str] = {
    "game": N_("the game's id: 12 lowercase letters and digits"),
    "learner": N_("the learner's id: 1 to 64 characters"),
    "rule set": N_("a rule set's description: a variant (base, draft, inquisitor, reformation, "
                   "reformation-inquisitor, mcguire, forum), house rules switched with + or -, "
                   "table rules in brackets, like {example}"),
    "seed": N_("a whole number from 0 to {most}"),
    "seats": N_("one persona per seat separated by commas, {learner} once"),
    "names": N_("the players' names in seat order, separated by commas"),
    "started": N_("a time in ISO 8601 with its zone, like 2025-03-01T18:04:05Z"),
    "finished": N_("a time in ISO 8601 with its zone, or {not_yet} while the game goes on"),
    "resigned": N_("yes or no"),
    "result": N_("who won, in words"),
}
_FIELD_KEYS = {"game_id": "game", "learner": "learner", "variant": "rule set", "seed": "seed",
               "seats": "seats", "started_at": "started", "finished_at": "finished",
               "resigned": "resigned"}
_MOVE_LINE = re.compile(r"(\d+)\.\s+(\S.*)")
_STATED = re.compile(r"stated\s+(\d+(?:\.\d+)?)\s*%")
# The most seats a saved game holds (a bot's name for each); the rule sets allow more.
MAX_SEATS = next(m.max_length for m in GameRecord.model_fields["seats"].metadata
                 if isinstance(m, MaxLen))
_SHOWN_LEGAL = 12  # the legal moves listed when one is refused (a forum table has dozens)
# The longest log read. Why a limit: a file that is not a log (a photo, a database, a paste of
# megabytes on one line) must be refused at once, not read through; a six-player game's log
# is some 10,000 characters, so this leaves room for a long game with notes.
MAX_CHARS = 200_000
# What an error quotes of the file at most; a longer field is cut, with its length said.
SHOWN = 40


class LogError(ValueError):
    """A log that cannot be read back: the line, what was found there and what was expected,
    so the person who edited it can fix that line."""

    def __init__(self, line: int, found: str, expected: str, what: str = "") -> None:
        super().__init__(
            tr("line {line}: {what}: found {found}; expected {expected}", line=line, what=what,
               found=found, expected=expected) if what else
            tr("line {line}: found {found}; expected {expected}", line=line, found=found,
               expected=expected))
        self.line = line
        self.found = found
        self.expected = expected


def key_expected(key: str) -> str:
    """What the header line `key` holds, in the reader's words."""
    return tr(KEYS[key], most=MAX_SEED, learner=repr(LEARNER), not_yet=repr(NOT_YET),
              example="base+pay_five(challengers=all)")


def _move_words(n: int) -> str:
    return tr("move {n}", n=n)


# ---------------------------------------------------------------------- writing
def export_text(record: GameRecord) -> str:
    """The game as a log; `import_text` reads it back to a record equal to `record`. A record
    whose moves the rules refuse is a ValueError naming the move (nothing half-written)."""
    if any(c in record.learner for c in "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
        raise ValueError(f"learner: {record.learner!r} holds a line break; a log cannot "
                         "carry it")
    game = fresh_game(record.setup())
    lines = []
    for k, move in enumerate(record.parsed()):
        notes = [record.moves[k]]
        if k in record.stated:
            notes.append(f"stated {_percent(record.stated[k])}%")
        if k in record.coached:
            notes.append("coach")
        words = game.describe(move)
        turn = game.turn
        try:
            game.apply(move)
        except MoveError as e:
            raise ValueError(f"moves: move {k + 1} {record.moves[k]!r} is not legal there: "
                             f"{e}") from None
        lines.append(f"{k + 1}. {' | '.join(notes)}  # {words} (turn {turn})")
    header = {
        "game": record.game_id, "learner": record.learner, "rule set": record.variant,
        "seed": str(record.seed), "seats": ", ".join(record.seats),
        "names": ", ".join(record.names), "started": _time(record.started_at),
        "finished": NOT_YET if record.finished_at is None else _time(record.finished_at),
        "resigned": "yes" if record.resigned else "no", "result": result_words(record, game),
    }
    out = [FIRST_LINE, *(f"{key}: {header[key]}" for key in KEYS), MOVES, *lines]
    return "\n".join(out) + "\n"


def result_words(record: GameRecord, game: Game | None = None) -> str:
    """How the game stands, as the log and the list of games say it. `game` is the record's
    game after its moves, when the caller has it already."""
    if record.resigned:
        return "You resigned"
    game = game if game is not None else record.game()
    if not game.is_over:
        return "unfinished"
    if game.winner is None:
        return "a tie: nobody won"
    return f"{record.names[game.winner]} won"


def _time(t: datetime) -> str:
    return t.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _percent(p: float) -> str:
    """The chance as a percent written exactly: 0.4 → "40", 0.333 → "33.3" (the record keeps
    whole percents; anything finer is written as finely as it is held)."""
    return f"{(Decimal(repr(p)) * 100).normalize():f}"


# ---------------------------------------------------------------------- reading
@dataclass
class _Move:
    line: int
    text: str
    stated: float | None
    coached: bool


def import_text(text: str, learner: str | None = None) -> GameRecord:
    """The record a log holds, checked line by line (LogError on the first problem).
    `learner`, when given, replaces the log's learner: an imported game belongs to whoever
    imports it, whoever played it."""
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_CHARS:
        _too_long(text)
    lines = text.splitlines()
    header: dict[str, tuple[int, str]] = {}
    moves: list[_Move] = []
    state = "first"
    moves_line = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if state == "first":
            _first_line(number, line)
            state = "header"
        elif state == "header":
            if line == MOVES:
                state, moves_line = "moves", number
                continue
            key, colon, value = line.partition(":")
            key = key.strip()
            if not colon or key not in KEYS:
                raise LogError(number, _shown(line),
                               tr("a header line 'key: value' with a key of {keys}, or {moves}",
                                  keys=", ".join(KEYS), moves=repr(MOVES)))
            if key in header:
                raise LogError(number, tr("{key} again", key=repr(key)),
                               tr("each header key once (it was on line {line})",
                                  line=header[key][0]))
            header[key] = (number, value.strip())
        else:
            moves.append(_move_line(number, line, len(moves) + 1))
    end = max(1, len(lines))  # an empty file's problem is on its first line
    if state == "first":
        raise LogError(end, tr("no header"),
                       tr("{first} on the first line", first=repr(FIRST_LINE)))
    if state == "header":
        raise LogError(end, tr("the end of the file"),
                       tr("a {moves} line after the header", moves=repr(MOVES)))
    missing = [k for k in KEYS if k not in header]
    if missing:
        raise LogError(moves_line, tr("{moves} with no {key} line before it",
                                      moves=repr(MOVES), key=repr(missing[0])),
                       tr("a header line '{key}: ...' ({what})", key=missing[0],
                          what=key_expected(missing[0])))
    record = _record(header, moves, learner)
    _replay(record, header, moves, moves_line)
    return record


def _too_long(text: str) -> None:
    """A text over `MAX_CHARS` refused at the line that reaches the limit, quoting only its
    start. Only the text up to the limit is split into lines: what follows is never read."""
    head = text[:MAX_CHARS + 1].splitlines()
    last = head[-1] if head else ""
    quoted = repr(last) if len(last) <= SHOWN else f"{last[:SHOWN // 2]!r}..."
    raise LogError(len(head), tr("{start} going on past the first {most} characters (the file "
                                 "holds {size})", start=quoted, most=formats.number(MAX_CHARS),
                                 size=formats.number(len(text))),
                   tr("a game log of at most {most} characters (a long game's log holds some "
                      "{some}): the log a game's review downloads",
                      most=formats.number(MAX_CHARS), some=formats.number(10_000)))


def _first_line(number: int, line: str) -> None:
    if line == FIRST_LINE:
        return
    found = re.fullmatch(re.escape(MAGIC) + r"\s+(\d+)", line)
    if found:
        raise LogError(number, tr("a log of version {version}",
                                  version=_number(found.group(1))),
                       tr("version {version}, the one this program reads", version=VERSION))
    raise LogError(number, _shown(line), tr("{first}: this is not a Coup Trainer game log",
                                            first=repr(FIRST_LINE)))


def _move_line(number: int, line: str, expected: int) -> _Move:
    body = line.split("#", 1)[0].strip()
    found = _MOVE_LINE.fullmatch(body)
    if not found:
        raise LogError(number, _shown(body), tr("move {n} as '{n}. <move>', like "
                                                "'{n}. {example}'", n=expected,
                                                example="P0:income"))
    digits = found.group(1)
    if _whole(digits, expected) != expected:
        raise LogError(number, tr("move number {number}", number=_number(digits)),
                       tr("{n}: moves are numbered from 1 in order", n=expected))
    text, *notes = (part.strip() for part in found.group(2).split("|"))
    try:
        move = parse(text)
    except NotationError as e:
        raise LogError(number, _shown(text), e.expected, _move_words(expected)) from None
    if move_text(move) != text:
        raise LogError(number, _shown(text), repr(move_text(move)), _move_words(expected))
    stated: float | None = None
    coached = False
    for note in notes:
        chance = _STATED.fullmatch(note)
        if chance and stated is None:
            stated = _chance(number, chance.group(1))
        elif note == "coach" and not coached:
            coached = True
        else:
            raise LogError(number, _shown(note), tr("'stated NN%' or 'coach' after '|', each "
                                                    "once"), _move_words(expected))
    return _Move(number, text, stated, coached)


def _whole(text: str, most: int) -> int | None:
    """`text` as a whole number from 0 to `most`, else None. Why not `int(text)` alone: a
    number of more than 4,300 digits is a ValueError of Python's own (the limit on converting
    long strings), and one a little shorter takes time for nothing; a number longer than
    `most` is out of range whatever its digits."""
    if not re.fullmatch(r"\d+", text):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(most)):
        return None
    value = int(digits)
    return value if value <= most else None


def _shown(text: str) -> str:
    """A field's text as an error quotes it: whole if short, else its start and its length
    (never more than some 60 characters, whatever the file holds)."""
    if len(text) <= SHOWN:
        return repr(text)
    start = repr(text[:SHOWN // 2])
    if text.isdigit():
        return tr_n("{start}... ({n} digit)", "{start}... ({n} digits)", len(text),
                    start=start, n=formats.number(len(text)))
    return tr_n("{start}... ({n} character)", "{start}... ({n} characters)", len(text),
                start=start, n=formats.number(len(text)))


def _number(digits: str) -> str:
    """A number found in the log, as an error says it: whole if short, else as `_shown`."""
    return digits if len(digits) <= SHOWN else _shown(digits)


def _quotes_cut(reason: str) -> str:
    """Another layer's reason, which may quote the field whole ("unknown house rule '...'"),
    with every long quotation cut as `_shown` cuts it."""
    longer = SHOWN + 1
    return re.sub(rf"'([^']{{{longer},}})'|\"([^\"]{{{longer},}})\"",
                  lambda m: _shown(m.group(1) or m.group(2)), reason)


def _chance(number: int, digits: str) -> float:
    percent = Decimal(digits)  # digits and one point, as the pattern admits
    if not 1 <= percent <= 99:
        raise LogError(number, tr("a stated chance of {digits}%", digits=digits),
                       tr("a chance from 1% to 99%"))
    return float(percent / 100)


def _record(header: dict[str, tuple[int, str]], moves: list[_Move],
            learner: str | None) -> GameRecord:
    """The header's fields, each checked at its own line, made into a record."""
    def value(key: str) -> str:
        return header[key][1]

    def fail(key: str, expected: str | None = None) -> LogError:
        return LogError(header[key][0], _shown(value(key)), expected or key_expected(key), key)

    if not re.fullmatch(GAME_ID, value("game")):
        raise fail("game")
    if not value("learner") or len(value("learner")) > 64:
        raise fail("learner")
    seed = _whole(value("seed"), MAX_SEED)
    if seed is None:
        raise fail("seed")
    seats = tuple(s.strip() for s in value("seats").split(","))
    if len(seats) > MAX_SEATS:
        raise fail("seats", tr_n("at most {n} seat (a saved game's limit), not {found}",
                                 "at most {n} seats (a saved game's limit), not {found}",
                                 MAX_SEATS, found=len(seats)))
    try:
        setup = Setup(value("rule set"), seed, seats)
    except SetupError as e:
        key = {"variant": "rule set"}.get(e.field, e.field)
        raise LogError(header[key][0], tr("{value}, which the rules refuse ({reason})",
                                          value=_shown(value(key)),
                                          reason=_quotes_cut(e.reason)),
                       key_expected(key), key) from None
    names = ", ".join(setup.names)
    if value("names") != names:
        raise fail("names", tr("{names}, the names of these seats", names=repr(names)))
    started = _parse_time(header, "started")
    finished = None if value("finished") == NOT_YET else _parse_time(header, "finished")
    if value("resigned") not in ("yes", "no"):
        raise fail("resigned")
    seat = setup.learner
    for k, m in enumerate(moves):
        mover = parse(m.text).player
        if (m.stated is not None or m.coached) and mover != seat:
            raise LogError(m.line, tr("a note on a move of {name}'s (P{seat})",
                                      name=setup.names[mover], seat=mover),
                           tr("'stated' and 'coach' only on the learner's moves (P{seat})",
                              seat=seat), _move_words(k + 1))
    data = {
        "game_id": value("game"), "learner": value("learner") if learner is None else learner,
        "variant": setup.variant, "seed": setup.seed, "seats": setup.seats,
        "moves": [m.text for m in moves],
        "stated": {k: m.stated for k, m in enumerate(moves) if m.stated is not None},
        "coached": [k for k, m in enumerate(moves) if m.coached],
        "resigned": value("resigned") == "yes", "started_at": started, "finished_at": finished,
    }
    try:
        return GameRecord.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        field = str(err["loc"][0]) if err["loc"] else ""
        ctx = err.get("ctx") or {}
        reason = _quotes_cut(str(ctx["error"]) if err["type"] == "value_error" and "error" in ctx
                             else field_problem(err))
        if field == "learner" and learner is not None:
            raise ValueError(f"learner: the importing learner {learner!r}: {reason}") from None
        at = _FIELD_KEYS.get(field)
        if at is None:  # a rule across fields; the checks above leave none to the model
            raise LogError(header["game"][0],
                           tr("a game the record refuses ({reason})", reason=reason),
                           tr("a game the record accepts")) from None
        raise fail(at, reason) from None


def _parse_time(header: dict[str, tuple[int, str]], key: str) -> datetime:
    line, text = header[key]
    try:
        t = datetime.fromisoformat(text)
    except ValueError:
        raise LogError(line, _shown(text), key_expected(key), key) from None
    if t.tzinfo is None:
        raise LogError(line, tr("{value} with no zone", value=_shown(text)), key_expected(key),
                       key)
    return t.astimezone(UTC)


def _replay(record: GameRecord, header: dict[str, tuple[int, str]], moves: list[_Move],
            moves_line: int) -> None:
    """Every move through the engine at its own line, then the result line against the
    game the moves make."""
    game = fresh_game(record.setup())
    for k, (m, move) in enumerate(zip(moves, record.parsed(), strict=True)):
        if game.is_over:
            raise LogError(m.line, _shown(m.text),
                           tr("no more moves: the game ended at move {n} ({result})", n=k,
                              result=result_words(record, game)), _move_words(k + 1))
        try:
            game.apply(move)
        except MoveError as e:
            legal = [move_text(x) for x in game.legal_moves()]
            shown = ", ".join(legal[:_SHOWN_LEGAL]) + (", ..." if len(legal) > _SHOWN_LEGAL
                                                       else "")
            raise LogError(m.line, tr("{move}, which the rules refuse there ({reason})",
                                      move=repr(m.text), reason=e.reason),
                           tr("a legal move: {moves}", moves=shown), _move_words(k + 1)) from None
    words = result_words(record, game)
    line, found = header["result"]
    if found != words:
        raise LogError(line, _shown(found),
                       tr("{words}, what the moves and the header give", words=repr(words)),
                       "result")
