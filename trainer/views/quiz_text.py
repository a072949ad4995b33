"""What the Quiz page says, as Markdown strings, rows and HTML (no Streamlit).

Why apart from the page: the page script only arranges boxes; the sentences, the rows of the
options table and the cards shown after an answer are built here, where a test can read them
and a change of wording touches no layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from trainer.engine.game import Game
from trainer.engine.variants import parse_rules
from trainer.estimates.report import DEFAULT_MODEL
from trainer.learners.answers import Answer
from trainer.quiz.bank import DIFFICULTIES, END_GAME, Bank, Item
from trainer.quiz.building import PEOPLE
from trainer.quiz.feedback import Feedback
from trainer.quiz.review import DueSummary
from trainer.quiz.solved import Solved, SolvedGrades
from trainer.rulebook import choices
from trainer.views.plurals import count
from trainer.views.styles import read_css
from trainer.views.table_art import character_overview, mini_card


def verdict_notes(fb: Feedback) -> list[str]:
    """The small print under a verdict: what it rests on, why it is a range, and where the
    evidence is thin."""
    basis = fb.basis + (f" {fb.unsettled}" if fb.unsettled else "")
    return [x for x in (basis, fb.range_note, fb.evidence) if x]

GRADING = (
    "Grades compare your move's chance to win with the best move's, in percentage points of "
    "your chance to win: best ≤ 1, good ≤ 5, inaccuracy ≤ 10, mistake ≤ 15, blunder > 15. "
    "Win chances come from playing each option out many times with the bots; each item shows "
    "its noise. When the grade depends on something the bot cannot settle (how often the "
    "claimant bluffs) or the gap is within the noise, the verdict says what it depends on, or "
    "“Too close to call”, instead of one grade. "
    "End-game items where two players are left with one card each from the start of the "
    "turn are graded against perfect play instead, solved exactly with every unseen card "
    "equally likely (what was claimed before this turn is not read), when the solve has "
    "settled: looking two turns less far ahead leaves the best option and its value in place. "
    f"Difficulty ({', '.join(DIFFICULTIES)}) is how close the best two options are.")


def status_line(answers: Sequence[Answer], item: Item, game: Game) -> str:
    """Answers so far with the learner's Brier score, and what the table is."""
    errors = [(a.stated or 0) - float(bool(a.bluff)) for a in answers if a.scored]
    brier = (f" · your Brier score {sum(e * e for e in errors) / len(errors):.3f}"
             if errors else "")
    # No difficulty here: it is read from the bot's estimate, so shown before the answer it
    # would hint at the bot's belief (the feedback names it afterwards).
    origin = " · from a game between people" if item.source == PEOPLE else ""
    return (f"{len(answers)} answered{brier} · {rules_words(item.variant)}, "
            f"{item.players} players{origin} · you are **{game.names[item.viewer]}** · "
            f"themes: {', '.join(item.themes)}")


def rules_words(rules: str) -> str:
    """The rules of an item in a few words: "Coup (base game), official rules", or the rule
    set's title with the house rules and table rules in force."""
    ruleset = parse_rules(rules)
    if ruleset.text == ruleset.variant.name and not ruleset.variant.family:
        return f"{ruleset.variant.title}, official rules"
    return f"{ruleset.variant.title} ({choices.in_force_line(ruleset).rstrip('.')})"


def when(later: datetime, now: datetime) -> str:
    """How far off a review is, in the words a person would use ("tomorrow", "in 3 days")."""
    hours = (later - now).total_seconds() / 3600
    if hours < 1:
        return "within the hour"
    if hours < 18:
        return f"in {round(hours)} hour{'s' if round(hours) != 1 else ''}"
    if hours < 36:
        return "tomorrow"
    return f"in {round(hours / 24)} days"


def due_line(due: DueSummary) -> str | None:
    """One line on what is due: "3 mistakes are due for review today; next one tomorrow."
    None before the learner has missed anything (there is nothing to schedule)."""
    later = "" if due.next_due is None else f"; next one {when(due.next_due, due.now)}"
    if due.due:
        verb = "is" if due.due == 1 else "are"
        return (f"{due.due} mistake{'s' if due.due != 1 else ''} {verb} due for review "
                f"today{later}.")
    return None if due.next_due is None else f"No mistake is due for review yet{later}."


def no_review_left(due: DueSummary) -> str:
    """The mistakes drill with nothing due: when the next review is, or why there is none."""
    if due.next_due is None:
        return ("No mistakes to review. An item you miss comes back here the next day, then "
                "after longer and longer gaps while you answer it well. Try a mixed drill.")
    return (f"Nothing to review now: your next mistake is due {when(due.next_due, due.now)}. "
            "Try a mixed drill meanwhile.")


# Why an item is shown again the same day: only when the learner asked, or nothing else is left.
REPEAT_NOTE = ("You have answered every item of this drill in the last day, so here is one "
               "again.")
RETRY_NOTE = ("Once more, as you asked. Only a miss changes when it comes back: a right answer "
              "now is practice.")
RETRY = "Try it again"


# Run once right after an answer: the grade (under the answer buttons) scrolls into view, so
# it is seen at once even when the buttons sat low on the screen.
SCROLL_TO_GRADE = ("<script>(function () { var e = document.querySelector("
                   "'.st-key-quiz_grade'); if (e) { e.scrollIntoView({block: 'center', "
                   "behavior: 'smooth'}); } })();</script>")


# Run once when an item is first shown: the page opens at its top. Streamlit scrolls its main
# area, not the window, and keeps it where it was across a rerun, so after "Next item" the new
# item opened where the last grade had been scrolled to, its top out of sight.
SCROLL_TO_TOP = ("<script>(function () { var m = document.querySelector("
                 "'[data-testid=\"stMain\"]'); if (m) { m.scrollTo({top: 0}); } "
                 "window.scrollTo({top: 0}); })();</script>")


def option_label(label: str, chosen: bool) -> str:
    """An answer's button; once answered, the chosen one says so (every button is greyed)."""
    return f"{label} · your answer" if chosen else label


def sources_label(rule_set: str, bank: str) -> str:
    """The button that opens the rule set and bank choices, saying what is chosen."""
    return f"{rule_set_title(rule_set)} · bank: {bank}"


def built_line(built: int, path: str) -> str:
    """The bank builder's last word: how many items it wrote, and where."""
    return f"Done: {count(built, 'item')} in {path}"


def rule_set_title(name: str) -> str:
    """A rule set of the bank by name: its title and the table rules it changes."""
    return "All rule sets" if name == "all" else choices.title(parse_rules(name))


def new_cards(rule_set: str) -> tuple[str, str] | None:
    """For a rule set other than the base game: a sentence and the cards it adds (or changes),
    each with what it does, shown before any of its items."""
    if rule_set in ("base", "all"):
        return None
    ruleset = parse_rules(rule_set)
    variant = ruleset.variant
    base = set(parse_rules("base").variant.characters)
    extra = [str(c) for c in variant.cards if c not in base]
    note = f"**{variant.title}.** {choices.summary(variant)}"
    if ruleset.text != variant.name or variant.family:
        note += f" {choices.in_force_line(ruleset)}"
    return note, character_overview(rule_set, extra) if extra else ""


def keys_hint(item: Item) -> str:
    return ("Keys: 1–" + str(min(9, len(item.options))) + " answer"
            + (" · J/K move the slider" if item.has_claim else ""))


NEXT_KEYS = "Keys: → or Space for the next item (N works too)"
QUIZ_CSS = f"<style>{read_css('quiz.css')}</style>"


def call_out(text: str) -> str:
    """"Good decision, bad outcome: …" with its first words in bold."""
    head, _, rest = text.partition(":")
    rest = rest.strip()
    return f"**{head}.** {rest[:1].upper()}{rest[1:]}"


def claimant_hand(item: Item) -> str:
    """The claimant's cards, face up, as revealed after the answer."""
    return ('<div class="ct-seat__cards">'
            + "".join(mini_card(c, "shown") for c in item.claimant_hand) + "</div>")


def hands_line(hands: Sequence[tuple[str, Sequence[str]]]) -> str:
    listed = " · ".join(f"{name}: {' and '.join(cards)}" for name, cards in hands)
    return f"Every hidden hand at that moment: {listed}."


def options_title(item: Item, solved: Solved | None = None) -> str:
    if solved is not None:
        return ("**Win chance of each option** (perfect play by both from the start of this "
                "turn)")
    return ("**Win chance of each option** (from "
            f"{item.playouts} rollouts each, bots playing on)")


def option_rows(item: Item, answer: Answer, solved: Solved | None = None
                ) -> list[dict[str, Any]]:
    """The options table, best first: win-%, its noise and the points lost against the best,
    the learner's choice marked. Solved, the win-% is perfect play's and has no noise (the
    rollouts' figures are in `solved_rows`)."""
    if solved is not None:
        return [{"option": label + (" ← you" if label == answer.action else ""),
                 "wins": round(100 * solved.values[label], 1),
                 "lost (points)": round(solved.lost_pp(label), 1)}
                for label in sorted(solved.values, key=lambda k: -solved.values[k])]
    return [{"option": o.label + (" ← you" if o.label == answer.action else ""),
             "wins": round(100 * o.win, 1), "±": round(100 * o.se, 1),
             "lost (points)": round(max(0.0, 100 * (item.best.win - o.win)), 1)}
            for o in sorted(item.options, key=lambda o: -o.win)]


SOLVED_TITLE = "Expert figures: the exact solve beside the rollouts"


def solved_rows(item: Item, solved: Solved) -> list[dict[str, Any]]:
    """For the expert: each option's exact win-% beside the rollouts' estimate against the
    bots (with its noise), best solved option first."""
    return [{"option": o.label, "solved": round(100 * solved.values[o.label], 1),
             "rollouts": round(100 * o.win, 1), "±": round(100 * o.se, 1),
             "rollouts − solved": round(100 * (o.win - solved.values[o.label]), 1)}
            for o in sorted(item.options, key=lambda o: -solved.values[o.label])]


def solved_note(item: Item, solved: Solved) -> str:
    """How the exact figures were found and how far to trust them, in a few sentences."""
    best_rollout = item.best.label
    agree = ("The rollouts pick the same best option." if best_rollout == solved.best
             or solved.lost_pp(best_rollout) <= 1.0 else
             f"The rollouts pick {best_rollout}, which perfect play rates "
             f"{solved.lost_pp(best_rollout):.1f} points below {solved.best}: the bots do not "
             f"play the rest of the duel perfectly.")
    settled = (f"The values are settled: looking {solved.shorter} turns ahead "
               f"instead of {solved.horizon} moves the best option's value by at most a "
               "tenth of a point and leaves it best."
               if solved.settled else
               f"The values are not settled: looking {solved.shorter} turns "
               f"ahead instead of {solved.horizon} moves one by {100 * solved.moved:.1f} "
               f"points, so a deeper look could still change them.")
    return (f"Solved {solved.horizon} turns ahead from the start of this turn, both "
            f"players' cards hidden; after that, both cards are valued as if face up. The "
            f"deal is what a shuffled deck gives: every card you cannot see is equally "
            f"likely, and what was claimed before this turn is not read. Exploitability "
            f"{100 * solved.exploitability:.2f} points. {settled} {agree}")


def bank_origin(bank: Bank) -> str:
    """Where the bank's items come from and the share of bluffs they hold ("" for a bank
    without claims)."""
    share = bank.bluff_share()
    if share is None:
        return ""
    people = ", ".join(f"{name} {w / sum(DEFAULT_MODEL.values()):.0%}"
                       for name, w in DEFAULT_MODEL.items())
    sizes = sorted({i.players for i in bank.items})
    tables = (f" at {sizes[0]} to {sizes[-1]} players" if len(sizes) > 1
              else f" at {sizes[0]} players")
    return (f"Bank **{bank.name}** ({bank.version}): {count(len(bank.items), 'decision point')} "
            f"from "
            f"games between bot personas{tables} ({people}; the Rule bot bluffs in half its "
            f"games) and from the Learn lessons' questions. Decisions are picked by kind, never by "
            f"their truth, so the share of bluffs is what such players produce: "
            f"**{share:.0%}** of the claims in this bank.")


def solved_origin(grades: SolvedGrades, bank: Bank) -> str:
    """How many of the bank's End-game items are graded against perfect play."""
    end_game = sum(1 for i in bank.items if END_GAME in i.themes)
    if not end_game:
        return ""
    solved_n = len(grades)
    if not solved_n:
        if end_game == 1:
            return ("This bank's one End-game item is not solved exactly: it is graded by "
                    "rollouts.")
        return (f"None of this bank's {end_game} End-game items are solved exactly: all are "
                "graded by rollouts.")
    if end_game == 1:
        which, graded = "This bank's one End-game item is", "it is"
    else:
        verb = "is" if solved_n == 1 else "are"
        which = f"{solved_n} of this bank's {end_game} End-game items {verb}"
        graded = "it is" if solved_n == 1 else "they are"
    rest = " The others are graded by rollouts." if solved_n < end_game else ""
    return (f"{which} solved exactly (the turn started with two players and one card each, "
            f"in the base game): {graded} graded against perfect play.{rest}")
