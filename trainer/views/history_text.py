"""The game so far in plain words, turn by turn, as one player saw it.

Why: the bot's estimate of a claim conditions on every earlier public decision (claims, blocks
and the blocks not made, challenges and passes, proofs, exchanges, which card each player gave
up), while the drawn table shows only the turn in progress. A learner who is graded against
that estimate must be able to read the same facts. The rows are built from the viewer's
`Observation` only (like `table_view`), so nothing another player holds face down can reach the
page; the viewer's own private events (what they drew, what they kept) are shown and marked
"only you saw this".

Each phrase keeps the indices of the observation's events it words, so a test can prove that
no public event the estimate used was left out, and the Learn page can reuse the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from trainer.engine.cards import Action, Character
from trainer.engine.game import Event, Phase
from trainer.engine.moves import CHOICE_TEXT, Move, MoveKind
from trainer.engine.observation import Observation
from trainer.engine.rules import ActionSpec, Options
from trainer.engine.variants import VENGEANCE_SPEC
from trainer.views.styles import read_css

HISTORY_CSS = f"<style>{read_css('history.css')}</style>"

PRIVATE = "only you saw this"

# The decision a pass declines, by the window it was made in.
_DECLINED = {
    "challenge": ("didn't challenge", "nobody challenged"),
    "challenge the block": ("didn't challenge the block", "nobody challenged the block"),
    "challenge the claim": ("didn't challenge the claim", "nobody challenged the claim"),
    "block": ("didn't block", "nobody blocked"),
}

# The window a pass was made in, from the decision the log records with it.
_WINDOW = {Phase.CHALLENGE_ACTION: "challenge", Phase.BLOCK: "block",
           Phase.CHALLENGE_BLOCK: "challenge the block", Phase.CLAIM: "claim",
           Phase.CHALLENGE_CLAIM: "challenge the claim"}

_LOSS_REASON = {"couped": " to the Coup", "assassinated": " to the assassination"}


@dataclass(frozen=True, slots=True)
class Phrase:
    """One thing that happened, in words, with the observation's events it words."""

    text: str
    events: tuple[int, ...]
    private: bool = False  # seen only by the viewer


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One turn (turn 0: before the first turn). The first phrase of a turn is what its
    player did; the rest is how the table answered."""

    turn: int
    actor: int | None
    phrases: tuple[Phrase, ...]
    current: bool  # the turn still being played: the decision on the table

    @property
    def label(self) -> str:
        return f"Turn {self.turn}" if self.turn else "Start"

    @property
    def events(self) -> tuple[int, ...]:
        """Every event index this row words."""
        return tuple(i for p in self.phrases for i in p.events)

    @property
    def text(self) -> str:
        """"Turn 4 · Ana: Steal from Cris (claims Captain) — Cris challenged; …"."""
        return f"{self.label} · {_sentence(self)}"


def _sentence(row: HistoryRow) -> str:
    words = [p.text for p in row.phrases]
    if row.turn and len(words) > 1:
        return f"{words[0]} — {'; '.join(words[1:])}"
    return "; ".join(words)


def _a(card: object) -> str:
    name = str(card)
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"


def _cards(cards: Sequence[object]) -> str:
    return " and ".join(str(c) for c in cards)


def _coins(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


def _names(who: list[str]) -> str:
    if len(who) <= 1:
        return "".join(who)
    return f"{', '.join(who[:-1])} and {who[-1]}"


class _Turns:
    """Reads the events in order and words them, one turn at a time.

    The pass of a player says nothing by itself: it matters which question it declined (a
    challenge, a block, a challenge of the block). The log records the decision each pass
    answered; the rest is followed from the public sequence: a claimed action opens a
    challenge window, a block opens a challenge of the block, a lost challenge or a proof
    closes the challenge window, and a player who passes twice in the same kind of window
    (a Graverobber's claimants, challenged one by one) is answering the next one.
    """

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.viewer = obs.player
        self.names = [s.name for s in obs.seats]
        self.variant = obs.rule_set
        self.options = Options().with_(**obs.options)
        self.rows: list[HistoryRow] = []
        self.turn = 0
        self.actor: int | None = None
        self.phrases: list[Phrase] = []
        self.skip: set[int] = set()  # events already worded with the move before them
        self._reset_turn()

    # ------------------------------------------------------------------ state of a turn
    def _reset_turn(self) -> None:
        self.spec: ActionSpec | None = None
        self.window: str | None = None
        self.passers: list[int] = []
        self.pass_events: list[int] = []
        self.claimed: Character | None = None  # the character under challenge
        self.claimant: int | None = None
        self.challenged = False
        self.after_challenge: str | None = None
        self.seen: set[int] = set()  # who has answered the window open now
        self.queue: list[int] = []  # Graverobber claimants whose claim is still to be tested

    def open_window(self, window: str | None) -> None:
        self.flush_passes(closed=True)
        self.window = window
        self.seen = set()
        if window == "challenge the claim" and self.queue:
            self.claimant = self.queue.pop(0)

    def who(self, p: int) -> str:
        return "you" if p == self.viewer else self.names[p]

    def add(self, text: str, events: Sequence[int], private: bool = False) -> None:
        if private:
            text = f"{text} ({PRIVATE})"
        self.phrases.append(Phrase(text[:1].upper() + text[1:] if not self.phrases else text,
                                   tuple(events), private))

    def close_row(self) -> None:
        self.flush_passes(closed=True)
        if self.phrases:
            self.rows.append(HistoryRow(self.turn, self.actor, tuple(self.phrases), False))
        self.phrases = []

    # ------------------------------------------------------------------ passes
    def flush_passes(self, closed: bool, answered: bool = False) -> None:
        """Word the passes gathered in the current window. `closed`: the window ended with
        everyone passing; `answered`: someone then challenged, blocked or claimed."""
        if not self.passers:
            return
        one, nobody = _DECLINED.get(self.window or "", ("passed", "everyone passed"))
        if self.window == "challenge the claim" and self.claimant is not None:
            whose = "your" if self.claimant == self.viewer else f"{self.names[self.claimant]}'s"
            one, nobody = (f"didn't challenge {whose} claim",
                           f"nobody challenged {whose} claim")
        if self.window == "claim":
            card = self.claimed or "the card"
            one, nobody = f"didn't claim the {card}", f"nobody claimed the {card}"
        who = [self.who(p) for p in self.passers]
        everyone = closed and not answered and len(who) > 1
        self.add(nobody if everyone else f"{_names(who)} {one}", self.pass_events)
        self.passers, self.pass_events = [], []

    def pass_(self, move: Move, i: int, phase: Phase | None = None) -> None:
        window = _WINDOW.get(phase) if phase is not None else None
        if window is not None and window != self.window:
            # The log says which question this pass declined: a window the public sequence
            # alone does not open (McGuire's Treaty Contessa after a challenged block).
            if window == "claim" and self.window == "challenge the block":
                self.claimed = Character.TREATY
            self.open_window(window)
        elif move.player in self.seen:  # a second answer: the next window
            treaty = self.window == "challenge the block"
            self.open_window({"challenge": "block", "challenge the block": "claim",
                              "claim": "challenge the claim"}.get(self.window or "",
                                                                  self.window))
            if treaty:
                self.claimed = Character.TREATY  # McGuire: the Treaty Contessa's override
        self.seen.add(move.player)
        self.passers.append(move.player)
        self.pass_events.append(i)

    # ------------------------------------------------------------------ moves
    def move(self, move: Move, i: int, events: tuple[Event, ...]) -> None:
        k = move.kind
        if k is MoveKind.PASS:
            self.pass_(move, i, events[i].data.get("phase"))
            return
        # Someone answered the window the passes were in (rather than a new window opening).
        window = self.window or ""
        answered = ((k is MoveKind.CHALLENGE and window.startswith("challenge"))
                    or (k is MoveKind.BLOCK and window == "block")
                    or (k is MoveKind.CLAIM and window == "claim"))
        self.flush_passes(closed=True, answered=answered)
        me = self.who(move.player)
        if k is MoveKind.ACT and move.action is not None:
            self.act(move, i)
        elif k is MoveKind.CHALLENGE:
            what = {"challenge the block": " the block",
                    "challenge the claim": " the claim"}.get(self.window or "", "")
            self.add(f"{me} challenged{what}", [i])
            self.challenged = True
            self.after_challenge = (
                "block" if self.window == "challenge" and self.spec and self.spec.blockers
                else "challenge the claim" if self.window == "challenge the claim"
                and self.queue else None)
        elif k is MoveKind.BLOCK:
            self.add(f"{me} blocked with {_a(move.character)}", [i])
            self.open_window("challenge the block")
            self.claimed, self.claimant = move.character, move.player
        elif k is MoveKind.CLAIM:
            self.add(f"{me} claimed the {move.character}", [i])
            self.claimed = move.character
            if self.window == "claim" and self.claimed == Character.GRAVEROBBER:
                self.seen.add(move.player)  # answered the Graverobber's poll
                self.queue.append(move.player)
            else:  # a Treaty override is challenged at once
                self.claimant = move.player
                self.open_window("challenge the claim")
        elif k is MoveKind.SHOW:
            shown = _cards(move.cards) if move.cards else _a(move.character)
            new = "new cards" if move.cards else "a new card"
            drew = next((j for j in range(i + 1, min(i + 3, len(events)))
                         if events[j].kind == "draw" and events[j].visible_to == self.viewer
                         and events[j].data.get("why") == "replacement"), None)
            if drew is None:
                self.add(f"{me} showed {shown} and drew {new}", [i])
            else:  # the viewer's own proof: they saw what they drew
                self.skip.add(drew)
                self.add(f"{me} showed {shown} and drew {new}: "
                         f"{_cards(events[drew].data['cards'])} ({PRIVATE})", [i, drew])
            self.end_challenge()
        elif k is MoveKind.LOSE:
            self.lose(move, i, events)
        elif k is MoveKind.PAY:
            paid = next((j for j in range(i + 1, min(i + 3, len(events)))
                         if events[j].kind == "paid"), None)
            coins = f" {_coins(events[paid].data['coins'])}" if paid is not None else ""
            self.add(f"{me} paid{coins} instead of losing a card",
                     [i] if paid is None else [i, paid])
            if paid is not None:
                self.skip.add(paid)
            self.end_challenge()
        elif k is MoveKind.KEEP:
            if move.player == self.viewer and move.cards is not None:
                self.add(f"you kept {_cards(move.cards)}", [i], private=True)
            else:
                self.add(f"{me} kept cards from the deck", [i])
        elif k is MoveKind.CHOOSE:
            choice = move.choice or ""
            text = CHOICE_TEXT.get(choice, f"chose {choice}")
            self.add(f"{me} {text}", [i])
        elif k is MoveKind.OFFER:
            card = _a(move.character)
            self.add(f"{me} showed {card} to the Inquisitor", [i], private=move.player ==
                     self.viewer)

    def act(self, move: Move, i: int) -> None:
        assert move.action is not None
        action = move.action
        spec: ActionSpec | None
        try:
            spec = self.variant.spec(action)
        except KeyError:
            spec = VENGEANCE_SPEC if action is Action.VENGEANCE else None
        word = self.options.action_label(action)
        word = word[:1].upper() + word[1:]
        if move.target is not None:
            joint = {Action.STEAL: " from ", Action.COUP: " against "}.get(action, " ")
            word += joint + self.who(move.target)
        elif action is Action.CONVERT:
            word += " (own team)"
        if spec is not None and spec.claim is not None:
            word += f" (claims {'no ' if spec.inverted else ''}{spec.claim})"
        self.spec = spec
        self.claimed = spec.claim if spec is not None else None
        self.claimant = move.player
        self.challenged = False
        if spec is not None and spec.claim is not None:
            self.open_window("challenge")
        else:
            self.open_window("block" if spec is not None and spec.blockers else None)
        self.add(f"{self.who(move.player)}: {word}", [i])

    def lose(self, move: Move, i: int, events: tuple[Event, ...]) -> None:
        me = self.who(move.player)
        lost = next((j for j in range(i + 1, min(i + 3, len(events)))
                     if events[j].kind == "lost" and events[j].data["player"] == move.player),
                    None)
        reason = _LOSS_REASON.get(events[lost].data.get("reason", ""), "") if lost else ""
        covered = [i] if lost is None else [i, lost]
        if lost is not None:
            self.skip.add(lost)
        if self.challenged and move.player == self.claimant and self.claimed is not None:
            text = f"{me} did not show {_a(self.claimed)} and lost {_a(move.character)}"
        else:
            text = f"{me} lost {_a(move.character)}{reason}"
        self.add(text, covered)
        if self.challenged:
            self.end_challenge()

    def end_challenge(self) -> None:
        if self.challenged:
            self.challenged = False
            self.open_window(self.after_challenge)

    # ------------------------------------------------------------------ other events
    def event(self, e: Event, i: int) -> None:
        d = e.data
        mine = e.visible_to == self.viewer
        if e.kind == "deal":
            self.add(f"you were dealt {_cards(d['cards'])}", [i], private=True)
        elif e.kind == "draw":
            why = d.get("why")
            where = " in its place" if why == "replacement" else ""
            self.add(f"you drew {_cards(d['cards'])}{where}", [i], private=True)
        elif e.kind == "return":
            self.add(f"you put back {_cards(d['cards'])}", [i], private=True)
        elif e.kind == "discard":
            self.add(f"you put {_cards(d['cards'])} out of the game", [i], private=True)
        elif e.kind == "peek":
            self.add(f"you saw the top and bottom cards of the deck: {_cards(d['cards'])}",
                     [i], private=True)
        elif e.kind == "examined":
            self.add(f"{self.names[d['player']]} showed you {_a(d['cards'][0])}", [i],
                     private=True)
        elif e.kind == "offer":
            self.add(f"your draft set: {_cards(d['cards'])}", [i], private=True)
        elif e.kind == "exchanged":
            if d["player"] == self.viewer:
                self.add("you exchanged cards with the deck", [i])
            else:
                who = self.names[d["player"]]
                self.add(f"{who} exchanged cards with the Court deck (which, only {who} knows)",
                         [i])
        elif e.kind == "lost":
            reason = _LOSS_REASON.get(d.get("reason", ""), "")
            self.add(f"{self.who(d['player'])} lost {_a(d['card'])}{reason}", [i])
        elif e.kind == "eliminated":
            self.add(f"{self.who(d['player'])} {'are' if d['player'] == self.viewer else 'is'}"
                     " out of the game", [i])
        elif e.kind == "paid":
            self.add(f"{self.who(d['player'])} paid {_coins(d['coins'])} instead of losing a "
                     "card", [i])
        elif e.kind == "allegiances":
            sides = ", ".join(f"{self.who(p)} {side}" for p, side in enumerate(d["sides"]))
            self.add(f"teams: {sides}", [i])
        elif e.kind == "converted":
            self.add(f"{self.who(d['player'])} joined the {d['side']} team", [i])
        elif e.kind == "mat":
            if "card" in d:
                self.add(f"the mat turned up {_a(d['card'])}", [i])
            else:
                self.add(f"{self.who(d['player'])} took {_coins(d['coins'])} from the mat", [i])
        elif e.kind == "grave":
            self.open_window("claim")
            self.claimed, self.queue = Character.GRAVEROBBER, []
            self.add(f"{self.who(d['player'])}'s {_coins(d['coins'])} are up for a Graverobber",
                     [i])
        elif e.kind == "graverobbed":
            who = [self.who(p) for p in d["claimants"]]
            text = (f"{_names(who)} took {_coins(d['each'])} each" if who
                    else "nobody took the coins")
            self.add(text, [i])
        elif e.kind == "chosen_blocker":  # foreign_aid_blockers="random"
            among = [self.who(p) for p in d["among"]]
            self.add(f"{_names(among)} wanted to block; {self.who(d['player'])} was drawn "
                     f"at random to block", [i])
        elif e.kind == "inheritance":
            self.add(f"{self.who(d['player'])}'s Inheritance paid out", [i])
        elif e.kind == "vengeance":
            self.add(f"{self.who(d['player'])} may take Vengeance", [i])
        elif e.kind == "game_over":
            winner = d.get("winner")
            self.add("the game ended in a tie" if winner is None
                     else f"{self.who(winner)} won", [i])
        else:  # a kind of event added later: say it rather than drop it
            self.add(e.kind.replace("_", " "), [i], private=mine)

    # ------------------------------------------------------------------ the whole log
    def read(self) -> list[HistoryRow]:
        events = self.obs.events
        for i, e in enumerate(events):
            if i in self.skip:
                continue
            if e.visible_to is not None and e.visible_to != self.viewer:
                continue  # never another player's private event
            if e.kind == "turn":
                self.close_row()
                self._reset_turn()
                self.turn, self.actor = e.data["turn"], e.data["player"]
            elif e.kind == "move":
                self.move(e.data["move"], i, events)
            else:
                self.event(e, i)
        self.flush_passes(closed=self.obs.pending is None)
        if self.phrases:
            self.rows.append(HistoryRow(self.turn, self.actor, tuple(self.phrases),
                                        self.obs.pending is not None))
        return self.rows


def history_rows(obs: Observation) -> tuple[HistoryRow, ...]:
    """The game so far as `obs.player` saw it, one row per turn, oldest first; the last row
    is the turn in progress (`current`) while the game goes on."""
    return tuple(_Turns(obs).read())


def earlier_turns(rows: Sequence[HistoryRow]) -> int:
    """How many finished turns the rows hold (the setup row and the current turn aside)."""
    return sum(1 for r in rows if r.turn and not r.current)


def history_title(rows: Sequence[HistoryRow], over: bool = False) -> str:
    """The fold's label: "What happened before (6 turns)"; on the first turn, "What happened
    so far (first turn)"; once the game is `over`, "What happened (7 turns)", its last turn
    counted (nothing comes after it)."""
    n = earlier_turns(rows)
    if over:
        return f"What happened ({n} turn{'s' if n != 1 else ''})"
    if n == 0:
        return "What happened so far (first turn)"
    return f"What happened before ({n} turn{'s' if n != 1 else ''})"


def history_html(rows: Sequence[HistoryRow]) -> str:
    """The rows as a compact list (newest last), the current turn marked, the viewer's own
    private events in italics."""
    if not rows:
        return '<p class="ct-history-empty">Nothing has happened yet.</p>'
    items = []
    for row in rows:
        words = []
        for n, p in enumerate(row.phrases):
            text = escape(p.text)
            if p.private:
                text = f'<em class="ct-history-private">{text}</em>'
            sep = "" if n == 0 else (" — " if n == 1 and row.turn else "; ")
            words.append(f"{sep}{text}")
        cls = "ct-history-row ct-history-current" if row.current else "ct-history-row"
        items.append(f'<li class="{cls}"><span class="ct-history-turn">{escape(row.label)}'
                     f'</span> {"".join(words)}</li>')
    return f'<ol class="ct-history">{"".join(items)}</ol>'


def history_markdown(rows: Sequence[HistoryRow]) -> str:
    """The rows as a Markdown list, one line per turn (the current turn in bold)."""
    lines = []
    for row in rows:
        text = row.text.replace("*", r"\*")
        lines.append(f"- **{text}**" if row.current else f"- {text}")
    return "\n".join(lines)
