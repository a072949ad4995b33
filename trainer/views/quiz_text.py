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
from trainer.estimates.report import DEFAULT_MODEL, persona_name
from trainer.i18n import N_, tr, tr_n
from trainer.i18n.formats import number, percent
from trainer.learners.answers import Answer
from trainer.quiz.bank import DIFFICULTIES, DIFFICULTY_WORDS, END_GAME, Bank, Item, theme_words
from trainer.quiz.building import PEOPLE
from trainer.quiz.drills import MODES
from trainer.quiz.feedback import Feedback
from trainer.quiz.labels import and_list
from trainer.quiz.review import DueSummary
from trainer.quiz.solved import Solved, SolvedGrades
from trainer.rulebook import choices
from trainer.verdicts.words import Labeller
from trainer.views.styles import read_css
from trainer.views.table_art import character_overview, mini_card


def verdict_notes(fb: Feedback) -> list[str]:
    """The small print under a verdict: what it rests on, why it is a range, and where the
    evidence is thin."""
    basis = fb.basis + (f" {fb.unsettled}" if fb.unsettled else "")
    return [x for x in (basis, fb.range_note, fb.evidence) if x]


def grading() -> str:
    """How the Quiz grades, under "Where the questions come from"."""
    return tr(
        "Grades compare your move's chance to win with the best move's, in percentage points of "
        "your chance to win: best ≤ 1, good ≤ 5, inaccuracy ≤ 10, mistake ≤ 15, blunder > 15. "
        "Win chances come from playing each option out many times with the bots; each item "
        "shows its noise. When the grade depends on something the bot cannot settle (how often "
        "the claimant bluffs) or the gap is within the noise, the verdict says what it depends "
        "on, or “Too close to call”, instead of one grade. End-game items where two players are "
        "left with one card each from the start of the turn are graded against perfect play "
        "instead, solved exactly with every unseen card equally likely (what was claimed before "
        "this turn is not read), when the solve has settled: looking two turns less far ahead "
        "leaves the best option and its value in place. Difficulty ({levels}) is how close the "
        "best two options are.",
        levels=", ".join(tr(DIFFICULTY_WORDS[d]) for d in DIFFICULTIES))


def status_line(answers: Sequence[Answer], item: Item, game: Game) -> str:
    """Answers so far with the learner's Brier score, and what the table is."""
    errors = [(a.stated or 0) - float(bool(a.bluff)) for a in answers if a.scored]
    parts = [tr_n("{n} answered", "{n} answered", len(answers))]
    if errors:
        parts[0] += " · " + tr("your Brier score {score}",
                               score=number(sum(e * e for e in errors) / len(errors), 3))
    # No difficulty here: it is read from the bot's estimate, so shown before the answer it
    # would hint at the bot's belief (the feedback names it afterwards).
    table = tr_n("{rules}, {n} player", "{rules}, {n} players", item.players,
                 rules=rules_words(item.variant))
    if item.source == PEOPLE:
        table += " · " + tr("from a game between people")
    return " · ".join([
        *parts, table, tr("you are **{name}**", name=game.names[item.viewer]),
        tr("themes: {themes}", themes=", ".join(theme_words(t) for t in item.themes))])


def mode_name(mode: str) -> str:
    """A drill's name (`drills.MODES`) in the reader's language."""
    return tr(MODES[mode])


def rules_words(rules: str) -> str:
    """The rules of an item in a few words: "Coup (base game), official rules", or the rule
    set's title with the house rules and table rules in force."""
    ruleset = parse_rules(rules)
    if ruleset.text == ruleset.variant.name and not ruleset.variant.family:
        return tr("{rule_set}, official rules", rule_set=ruleset.variant.title)
    return f"{ruleset.variant.title} ({choices.in_force_line(ruleset).rstrip('.')})"


def when(later: datetime, now: datetime) -> str:
    """How far off a review is, in the words a person would use ("tomorrow", "in 3 days")."""
    hours = (later - now).total_seconds() / 3600
    if hours < 1:
        return tr("within the hour")
    if hours < 18:
        return tr_n("in {n} hour", "in {n} hours", round(hours))
    if hours < 36:
        return tr("tomorrow")
    return tr_n("in {n} day", "in {n} days", round(hours / 24))


def due_line(due: DueSummary) -> str | None:
    """One line on what is due: "3 mistakes are due for review today; next one tomorrow."
    None before the learner has missed anything (there is nothing to schedule)."""
    if due.due:
        if due.next_due is None:
            return tr_n("{n} mistake is due for review today.",
                        "{n} mistakes are due for review today.", due.due)
        return tr_n("{n} mistake is due for review today; next one {when}.",
                    "{n} mistakes are due for review today; next one {when}.", due.due,
                    when=when(due.next_due, due.now))
    if due.next_due is None:
        return None
    return tr("No mistake is due for review yet; next one {when}.",
              when=when(due.next_due, due.now))


def no_review_left(due: DueSummary) -> str:
    """The mistakes drill with nothing due: when the next review is, or why there is none."""
    if due.next_due is None:
        return tr("No mistakes to review. An item you miss comes back here the next day, then "
                  "after longer and longer gaps while you answer it well. Try a mixed drill.")
    return tr("Nothing to review now: your next mistake is due {when}. Try a mixed drill "
              "meanwhile.", when=when(due.next_due, due.now))


# Why an item is shown again the same day: only when the learner asked, or nothing else is left.
REPEAT_NOTE = N_("You have answered every item of this drill in the last day, so here is one "
                 "again.")
RETRY_NOTE = N_("Once more, as you asked. Only a miss changes when it comes back: a right "
                "answer now is practice.")
RETRY = N_("Try it again")


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
    """An answer's button (`label`: the option's words); once answered, the chosen one says so
    (every button is greyed)."""
    return tr("{option} · your answer", option=label) if chosen else label


def sources_label(rule_set: str, bank: str) -> str:
    """The button that opens the rule set and bank choices, saying what is chosen."""
    return tr("{rule_set} · bank: {bank}", rule_set=rule_set_title(rule_set), bank=bank)


def built_line(built: int, path: str) -> str:
    """The bank builder's last word: how many items it wrote, and where."""
    return tr_n("Done: {n} item in {path}", "Done: {n} items in {path}", built, path=path)


def building_line(done: int, total: int) -> str:
    """The bank builder's progress bar while it works."""
    return tr("Building… {done} of {total} items", done=done, total=total)


def rule_set_title(name: str) -> str:
    """A rule set of the bank by name: its title and the table rules it changes."""
    return tr("All rule sets") if name == "all" else choices.title(parse_rules(name))


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
    last = min(9, len(item.options))
    if item.has_claim:
        return tr("Keys: 1–{last} answer · J/K move the slider", last=last)
    return tr("Keys: 1–{last} answer", last=last)


NEXT_KEYS = N_("Keys: → or Space for the next item (N works too)")
QUIZ_CSS = f"<style>{read_css('quiz.css')}</style>"


def call_out(text: str) -> str:
    """"Good decision, bad outcome: …" with its first words in bold (every call-out's
    translation keeps the colon after its head)."""
    head, _, rest = text.partition(":")
    rest = rest.strip()
    return f"**{head}.** {rest[:1].upper()}{rest[1:]}"


def claimant_hand(item: Item) -> str:
    """The claimant's cards, face up, as revealed after the answer."""
    return ('<div class="ct-seat__cards">'
            + "".join(mini_card(c, "shown") for c in item.claimant_hand) + "</div>")


def hands_line(hands: Sequence[tuple[str, Sequence[str]]]) -> str:
    listed = " · ".join(f"{name}: {and_list(list(cards))}" for name, cards in hands)
    return tr("Every hidden hand at that moment: {hands}.", hands=listed)


def options_title(item: Item, solved: Solved | None = None) -> str:
    if solved is not None:
        return tr("**Win chance of each option** (perfect play by both from the start of this "
                  "turn)")
    return tr("**Win chance of each option** (from {count} rollouts each, bots playing on)",
              count=item.playouts)


# The options tables' columns: keys of the rows (the page's column settings name them), and
# the headings a reader sees.
OPTION = "option"
WINS = "wins"
NOISE = "±"
LOST = "lost"
SOLVED = "solved"
ROLLOUTS = "rollouts"
GAP = "gap"


def column_titles() -> dict[str, str]:
    """The headings of the options tables' columns, in the reader's language."""
    return {OPTION: tr("option"), WINS: tr("wins"), LOST: tr("lost (points)"),
            SOLVED: tr("solved"), ROLLOUTS: tr("rollouts"), GAP: tr("rollouts − solved")}


def option_rows(item: Item, answer: Answer, solved: Solved | None = None,
                say: Labeller | None = None) -> list[dict[str, Any]]:
    """The options table, best first: win-%, its noise and the points lost against the best,
    the learner's choice marked. Solved, the win-% is perfect play's and has no noise (the
    rollouts' figures are in `solved_rows`). `say` words an option's label."""
    word = say or _same

    def named(label: str) -> str:
        return tr("{option} ← you", option=word(label)) if label == answer.action else word(label)

    if solved is not None:
        return [{OPTION: named(label), WINS: round(100 * solved.values[label], 1),
                 LOST: round(solved.lost_pp(label), 1)}
                for label in sorted(solved.values, key=lambda k: -solved.values[k])]
    return [{OPTION: named(o.label), WINS: round(100 * o.win, 1), NOISE: round(100 * o.se, 1),
             LOST: round(max(0.0, 100 * (item.best.win - o.win)), 1)}
            for o in sorted(item.options, key=lambda o: -o.win)]


def _same(label: str) -> str:
    return label


SOLVED_TITLE = N_("Expert figures: the exact solve beside the rollouts")


def solved_rows(item: Item, solved: Solved, say: Labeller | None = None
                ) -> list[dict[str, Any]]:
    """For the expert: each option's exact win-% beside the rollouts' estimate against the
    bots (with its noise), best solved option first."""
    word = say or _same
    return [{OPTION: word(o.label), SOLVED: round(100 * solved.values[o.label], 1),
             ROLLOUTS: round(100 * o.win, 1), NOISE: round(100 * o.se, 1),
             GAP: round(100 * (o.win - solved.values[o.label]), 1)}
            for o in sorted(item.options, key=lambda o: -solved.values[o.label])]


def solved_note(item: Item, solved: Solved, say: Labeller | None = None) -> str:
    """How the exact figures were found and how far to trust them, in a few sentences."""
    word = say or _same
    best_rollout = item.best.label
    agree = (tr("The rollouts pick the same best option.") if best_rollout == solved.best
             or solved.lost_pp(best_rollout) <= 1.0 else
             tr("The rollouts pick {rollout_best}, which perfect play rates {lost} points "
                "below {best}: the bots do not play the rest of the duel perfectly.",
                rollout_best=word(best_rollout), lost=number(solved.lost_pp(best_rollout), 1),
                best=word(solved.best)))
    settled = (tr("The values are settled: they let a line of play hold up to {n} Exchanges "
                  "before the solver stops it, and one Exchange fewer, or looking one turn "
                  "less far ahead with that, moves the best option's value by at most a tenth "
                  "of a point and leaves it best.", n=solved.exchanges_at)
               if solved.settled and solved.exchanges_at > 1 else
               tr("The values are settled: looking {shorter} turns ahead instead of {horizon} "
                  "moves the best option's value by at most a tenth of a point and leaves it "
                  "best.", shorter=solved.shorter, horizon=solved.horizon)
               if solved.settled else
               tr("The values are not settled: letting a line of play hold a second Exchange "
                  "before the solver stops it moves one by {moved} points, so a deeper look "
                  "could still change them.", moved=number(100 * solved.moved, 1))
               if solved.exchanges else
               tr("The values are not settled: looking {shorter} turns ahead instead of "
                  "{horizon} moves one by {moved} points, so a deeper look could still change "
                  "them.", shorter=solved.shorter, horizon=solved.horizon,
                  moved=number(100 * solved.moved, 1)))
    return tr("Solved {horizon} turns ahead from the start of this turn, both players' cards "
              "hidden; after that, both cards are valued as if face up. The deal is what a "
              "shuffled deck gives: every card you cannot see is equally likely, and what was "
              "claimed before this turn is not read. Exploitability {exploitability} points. "
              "{settled} {agree}", horizon=solved.horizon,
              exploitability=number(100 * solved.exploitability, 2), settled=settled,
              agree=agree)


def bank_origin(bank: Bank) -> str:
    """Where the bank's items come from and the share of bluffs they hold ("" for a bank
    without claims)."""
    share = bank.bluff_share()
    if share is None:
        return ""
    people = ", ".join(f"{persona_name(name)} {percent(w / sum(DEFAULT_MODEL.values()))}"
                       for name, w in DEFAULT_MODEL.items())
    sizes = sorted({i.players for i in bank.items})
    decisions = tr_n("{n} decision point", "{n} decision points", len(bank.items))
    if len(sizes) > 1:
        return tr("Bank **{bank}** ({version}): {decisions} from games between bot personas at "
                  "{fewest} to {most} players ({people}; the Rule bot bluffs in half its games) "
                  "and from the Learn lessons' questions. Decisions are picked by kind, never "
                  "by their truth, so the share of bluffs is what such players produce: "
                  "**{share}** of the claims in this bank.", bank=bank.name,
                  version=bank.version, decisions=decisions, fewest=sizes[0], most=sizes[-1],
                  people=people, share=percent(share))
    return tr_n("Bank **{bank}** ({version}): {decisions} from games between bot personas at "
                "{n} player ({people}; the Rule bot bluffs in half its games) and from the "
                "Learn lessons' questions. Decisions are picked by kind, never by their truth, "
                "so the share of bluffs is what such players produce: **{share}** of the "
                "claims in this bank.",
                "Bank **{bank}** ({version}): {decisions} from games between bot personas at "
                "{n} players ({people}; the Rule bot bluffs in half its games) and from the "
                "Learn lessons' questions. Decisions are picked by kind, never by their truth, "
                "so the share of bluffs is what such players produce: **{share}** of the "
                "claims in this bank.", sizes[0], bank=bank.name, version=bank.version,
                decisions=decisions, people=people, share=percent(share))


def solved_origin(grades: SolvedGrades, bank: Bank) -> str:
    """How many of the bank's End-game items are graded against perfect play."""
    end_game = sum(1 for i in bank.items if END_GAME in i.themes)
    if not end_game:
        return ""
    solved_n = len(grades)
    if not solved_n:
        return tr_n("This bank's one End-game item is not solved exactly: it is graded by "
                    "rollouts.",
                    "None of this bank's {n} End-game items are solved exactly: all are "
                    "graded by rollouts.", end_game)
    if end_game == 1:
        return tr("This bank's one End-game item is solved exactly (the turn started with two "
                  "players and one card each, in the base game): it is graded against perfect "
                  "play.")
    if solved_n == end_game:
        return tr_n("{n} of this bank's {total} End-game items is solved exactly (the turn "
                    "started with two players and one card each, in the base game): it is "
                    "graded against perfect play.",
                    "{n} of this bank's {total} End-game items are solved exactly (the turn "
                    "started with two players and one card each, in the base game): they are "
                    "graded against perfect play.", solved_n, total=end_game)
    return tr_n("{n} of this bank's {total} End-game items is solved exactly (the turn started "
                "with two players and one card each, in the base game): it is graded against "
                "perfect play. The others are graded by rollouts.",
                "{n} of this bank's {total} End-game items are solved exactly (the turn "
                "started with two players and one card each, in the base game): they are "
                "graded against perfect play. The others are graded by rollouts.", solved_n,
                total=end_game)
