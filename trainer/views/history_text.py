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

from trainer.engine.cards import Action, Allegiance, Character
from trainer.engine.game import Event, Phase
from trainer.engine.moves import Move, MoveKind
from trainer.engine.names import action_title, allegiance_name, card_name
from trainer.engine.observation import Observation
from trainer.engine.rules import ActionSpec, Options
from trainer.engine.variants import VENGEANCE_SPEC
from trainer.i18n import N_, tr, tr_n
from trainer.quiz.labels import and_list
from trainer.views.styles import read_css

HISTORY_CSS = f"<style>{read_css('history.css')}</style>"

PRIVATE = N_("only you saw this")

# The decision a pass declines, by the window it was made in: what one or more players did
# (`{who}`: the names, "you" among them), and what the whole table did.
_DECLINED = {
    "challenge": (N_("{who} didn't challenge"), N_("nobody challenged")),
    "challenge the block": (N_("{who} didn't challenge the block"),
                            N_("nobody challenged the block")),
    "challenge the claim": (N_("{who} didn't challenge the claim"),
                            N_("nobody challenged the claim")),
    "block": (N_("{who} didn't block"), N_("nobody blocked")),
}
_PASSED = (N_("{who} passed"), N_("everyone passed"))
# How a player's influence was lost, when not to a challenge.
_LOSS_REASON = {"couped": N_("{who} lost {card} to the Coup"),
                "assassinated": N_("{who} lost {card} to the assassination")}
# A choice of the Inquisitor's examination.
_CHOICE = {"return": N_("{who} handed the card back"),
           "swap": N_("{who} forced a swap with the Court deck")}

# The window a pass was made in, from the decision the log records with it.
_WINDOW = {Phase.CHALLENGE_ACTION: "challenge", Phase.BLOCK: "block",
           Phase.CHALLENGE_BLOCK: "challenge the block", Phase.CLAIM: "claim",
           Phase.CHALLENGE_CLAIM: "challenge the claim"}



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
        return tr("Turn {n}", n=self.turn) if self.turn else tr("Start")

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


def _card(card: object) -> str:
    return card_name(str(card))


def _a(card: object) -> str:
    """"a Duke", "an Assassin": the card with its article (English picks it by the English
    name's first letter; another language translates both messages its own way)."""
    name = str(card)
    return (tr("an {card}", card=card_name(name)) if name[:1] in "AEIOU"
            else tr("a {card}", card=card_name(name)))


def _cards(cards: Sequence[object]) -> str:
    return and_list([card_name(str(c)) for c in cards])


def _coins(n: int) -> str:
    return tr_n("{n} coin", "{n} coins", n)


def _side(side: object) -> str:
    """A team's name ("Loyalist"), in the reader's language."""
    try:
        return allegiance_name(Allegiance(str(side)))
    except ValueError:
        return str(side)


def _lost(who: str, card: object, reason: str = "") -> str:
    """"Ana lost the Duke", or to what (a Coup, an assassination)."""
    return tr(_LOSS_REASON.get(reason, N_("{who} lost {card}")), who=who, card=_a(card))


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
        return tr("you") if p == self.viewer else self.names[p]

    def add(self, text: str, events: Sequence[int], private: bool = False) -> None:
        if private:
            text = tr("{phrase} (only you saw this)", phrase=text)
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
        one, nobody = _DECLINED.get(self.window or "", _PASSED)
        fields: dict[str, str] = {}
        if self.window == "challenge the claim" and self.claimant is not None:
            if self.claimant == self.viewer:
                one, nobody = (N_("{who} didn't challenge your claim"),
                               N_("nobody challenged your claim"))
            else:
                one, nobody = (N_("{who} didn't challenge {owner}'s claim"),
                               N_("nobody challenged {owner}'s claim"))
                fields["owner"] = self.names[self.claimant]
        if self.window == "claim":
            if self.claimed is None:
                one, nobody = N_("{who} didn't claim the card"), N_("nobody claimed the card")
            else:
                one, nobody = (N_("{who} didn't claim the {card}"),
                               N_("nobody claimed the {card}"))
                fields["card"] = _card(self.claimed)
        who = [self.who(p) for p in self.passers]
        everyone = closed and not answered and len(who) > 1
        self.add(tr(nobody, **fields) if everyone else tr(one, who=and_list(who), **fields),
                 self.pass_events)
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
            said = {"challenge the block": N_("{who} challenged the block"),
                    "challenge the claim": N_("{who} challenged the claim")}.get(
                self.window or "", N_("{who} challenged"))
            self.add(tr(said, who=me), [i])
            self.challenged = True
            self.after_challenge = (
                "block" if self.window == "challenge" and self.spec and self.spec.blockers
                else "challenge the claim" if self.window == "challenge the claim"
                and self.queue else None)
        elif k is MoveKind.BLOCK:
            self.add(tr("{who} blocked with {card}", who=me, card=_a(move.character)), [i])
            self.open_window("challenge the block")
            self.claimed, self.claimant = move.character, move.player
        elif k is MoveKind.CLAIM:
            self.add(tr("{who} claimed the {card}", who=me, card=_card(move.character)), [i])
            self.claimed = move.character
            if self.window == "claim" and self.claimed == Character.GRAVEROBBER:
                self.seen.add(move.player)  # answered the Graverobber's poll
                self.queue.append(move.player)
            else:  # a Treaty override is challenged at once
                self.claimant = move.player
                self.open_window("challenge the claim")
        elif k is MoveKind.SHOW:
            shown = _cards(move.cards) if move.cards else _a(move.character)
            many = bool(move.cards)
            drew = next((j for j in range(i + 1, min(i + 3, len(events)))
                         if events[j].kind == "draw" and events[j].visible_to == self.viewer
                         and events[j].data.get("why") == "replacement"), None)
            if drew is None:
                self.add(tr("{who} showed {cards} and drew new cards", who=me, cards=shown)
                         if many else
                         tr("{who} showed {cards} and drew a new card", who=me,
                            cards=shown), [i])
            else:  # the viewer's own proof: they saw what they drew
                self.skip.add(drew)
                got = _cards(events[drew].data["cards"])
                self.add(tr("{who} showed {cards} and drew new cards: {drawn} (only you "
                            "saw this)", who=me, cards=shown, drawn=got)
                         if many else
                         tr("{who} showed {cards} and drew a new card: {drawn} (only you "
                            "saw this)", who=me, cards=shown, drawn=got), [i, drew])
            self.end_challenge()
        elif k is MoveKind.LOSE:
            self.lose(move, i, events)
        elif k is MoveKind.PAY:
            paid = next((j for j in range(i + 1, min(i + 3, len(events)))
                         if events[j].kind == "paid"), None)
            self.add(tr("{who} paid instead of losing a card", who=me) if paid is None else
                     tr("{who} paid {amount} instead of losing a card", who=me,
                        amount=_coins(events[paid].data["coins"])),
                     [i] if paid is None else [i, paid])
            if paid is not None:
                self.skip.add(paid)
            self.end_challenge()
        elif k is MoveKind.KEEP:
            if move.player == self.viewer and move.cards is not None:
                self.add(tr("you kept {cards}", cards=_cards(move.cards)), [i], private=True)
            else:
                self.add(tr("{who} kept cards from the deck", who=me), [i])
        elif k is MoveKind.CHOOSE:
            choice = move.choice or ""
            self.add(tr(_CHOICE[choice], who=me) if choice in _CHOICE
                     else tr("{who} chose {choice}", who=me, choice=choice), [i])
        elif k is MoveKind.OFFER:
            self.add(tr("{who} showed {card} to the Inquisitor", who=me,
                        card=_a(move.character)), [i], private=move.player == self.viewer)

    def act(self, move: Move, i: int) -> None:
        assert move.action is not None
        action = move.action
        spec: ActionSpec | None
        try:
            spec = self.variant.spec(action)
        except KeyError:
            spec = VENGEANCE_SPEC if action is Action.VENGEANCE else None
        if self.options.vocabulary == "treason":  # the table's own words for its actions
            word = self.options.action_label(action)
            word = word[:1].upper() + word[1:]
        else:
            word = action_title(action)
        if move.target is not None:
            target = self.who(move.target)
            word = (tr("{action} from {target}", action=word, target=target)
                    if action is Action.STEAL else
                    tr("{action} against {target}", action=word, target=target)
                    if action is Action.COUP else
                    tr("{action} {target}", action=word, target=target))
        elif action is Action.CONVERT:
            word = tr("{action} (own team)", action=word)
        if spec is not None and spec.claim is not None:
            word = (tr("{action} (claims no {card})", action=word, card=_card(spec.claim))
                    if spec.inverted else
                    tr("{action} (claims {card})", action=word, card=_card(spec.claim)))
        self.spec = spec
        self.claimed = spec.claim if spec is not None else None
        self.claimant = move.player
        self.challenged = False
        if spec is not None and spec.claim is not None:
            self.open_window("challenge")
        else:
            self.open_window("block" if spec is not None and spec.blockers else None)
        self.add(tr("{who}: {action}", who=self.who(move.player), action=word), [i])

    def lose(self, move: Move, i: int, events: tuple[Event, ...]) -> None:
        me = self.who(move.player)
        lost = next((j for j in range(i + 1, min(i + 3, len(events)))
                     if events[j].kind == "lost" and events[j].data["player"] == move.player),
                    None)
        reason = events[lost].data.get("reason", "") if lost else ""
        covered = [i] if lost is None else [i, lost]
        if lost is not None:
            self.skip.add(lost)
        if self.challenged and move.player == self.claimant and self.claimed is not None:
            text = tr("{who} did not show {proof} and lost {card}", who=me,
                      proof=_a(self.claimed), card=_a(move.character))
        else:
            text = _lost(me, move.character, reason)
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
            self.add(tr("you were dealt {cards}", cards=_cards(d["cards"])), [i],
                     private=True)
        elif e.kind == "draw":
            drawn = _cards(d["cards"])
            self.add(tr("you drew {cards} in its place", cards=drawn)
                     if d.get("why") == "replacement" else
                     tr("you drew {cards}", cards=drawn), [i], private=True)
        elif e.kind == "return":
            self.add(tr("you put back {cards}", cards=_cards(d["cards"])), [i],
                     private=True)
        elif e.kind == "discard":
            self.add(tr("you put {cards} out of the game", cards=_cards(d["cards"])), [i],
                     private=True)
        elif e.kind == "peek":
            self.add(tr("you saw the top and bottom cards of the deck: {cards}",
                        cards=_cards(d["cards"])), [i], private=True)
        elif e.kind == "examined":
            self.add(tr("{name} showed you {card}", name=self.names[d["player"]],
                        card=_a(d["cards"][0])), [i], private=True)
        elif e.kind == "offer":
            self.add(tr("your draft set: {cards}", cards=_cards(d["cards"])), [i],
                     private=True)
        elif e.kind == "exchanged":
            if d["player"] == self.viewer:
                self.add(tr("you exchanged cards with the deck"), [i])
            else:
                self.add(tr("{name} exchanged cards with the Court deck (which, only {name} "
                            "knows)", name=self.names[d["player"]]), [i])
        elif e.kind == "lost":
            self.add(_lost(self.who(d["player"]), d["card"], d.get("reason", "")), [i])
        elif e.kind == "eliminated":
            self.add(tr("you are out of the game") if d["player"] == self.viewer
                     else tr("{name} is out of the game", name=self.names[d["player"]]), [i])
        elif e.kind == "paid":
            self.add(tr("{who} paid {amount} instead of losing a card",
                        who=self.who(d["player"]), amount=_coins(d["coins"])), [i])
        elif e.kind == "allegiances":
            sides = ", ".join(f"{self.who(p)} {_side(side)}" for p, side in enumerate(d["sides"]))
            self.add(tr("teams: {sides}", sides=sides), [i])
        elif e.kind == "converted":
            self.add(tr("{who} joined the {side} team", who=self.who(d["player"]),
                        side=_side(d["side"])), [i])
        elif e.kind == "mat":
            if "card" in d:
                self.add(tr("the mat turned up {card}", card=_a(d["card"])), [i])
            else:
                self.add(tr("{who} took {amount} from the mat", who=self.who(d["player"]),
                            amount=_coins(d["coins"])), [i])
        elif e.kind == "grave":
            self.open_window("claim")
            self.claimed, self.queue = Character.GRAVEROBBER, []
            coins = _coins(d["coins"])
            self.add(tr("your {amount} are up for a Graverobber", amount=coins)
                     if d["player"] == self.viewer else
                     tr("{name}'s {amount} are up for a Graverobber",
                        name=self.names[d["player"]], amount=coins), [i])
        elif e.kind == "graverobbed":
            who = [self.who(p) for p in d["claimants"]]
            self.add(tr("{who} took {amount} each", who=and_list(who), amount=_coins(d["each"]))
                     if who else tr("nobody took the coins"), [i])
        elif e.kind == "chosen_blocker":  # foreign_aid_blockers="random"
            among = [self.who(p) for p in d["among"]]
            self.add(tr("{among} wanted to block; {who} was drawn at random to block",
                        among=and_list(among), who=self.who(d["player"])), [i])
        elif e.kind == "inheritance":
            self.add(tr("your Inheritance paid out") if d["player"] == self.viewer else
                     tr("{name}'s Inheritance paid out", name=self.names[d["player"]]), [i])
        elif e.kind == "vengeance":
            self.add(tr("{who} may take Vengeance", who=self.who(d["player"])), [i])
        elif e.kind == "game_over":
            winner = d.get("winner")
            self.add(tr("the game ended in a tie") if winner is None
                     else tr("{who} won", who=self.who(winner)), [i])
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
        return tr_n("What happened ({n} turn)", "What happened ({n} turns)", n)
    if n == 0:
        return tr("What happened so far (first turn)")
    return tr_n("What happened before ({n} turn)", "What happened before ({n} turns)", n)


def history_html(rows: Sequence[HistoryRow]) -> str:
    """The rows as a compact list (newest last), the current turn marked, the viewer's own
    private events in italics."""
    if not rows:
        return f'<p class="ct-history-empty">{escape(tr("Nothing has happened yet."))}</p>'
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
