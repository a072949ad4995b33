"""The catalogue against the code: what to translate, what is missing, what does not fit.

Why a check and not trust: a message added to a page without a translation would show English
to a Filipino visitor, and a translation that drops `{name}` or a `<b>` breaks the sentence or
the page. `python -m trainer i18n check` and the tests run this on every catalogue;
`python -m trainer i18n update` adds the new messages to each catalogue for translators.

Messages are found in the source by Babel's extractor (calls of `tr`, `trc`, `tr_n`, `N_`)
and in the lesson files (passed in by the caller); the command line's own output is English
only and is not scanned.
"""

from __future__ import annotations

import ast
import csv
import fcntl
import re
import string
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from trainer.i18n.catalogue import Key, catalogue_path
from trainer.i18n.languages import DEFAULT, LANGUAGES

PACKAGE = Path(__file__).resolve().parents[1]
GLOSSARY = Path(__file__).with_name("glossary.csv")
# Folders whose words no visitor reads: the command line prints English for the people who
# run the server, and the i18n package's own words are its checks'.
NOT_SCANNED = ("cli/", "i18n/check.py")


@dataclass
class Source:
    """One message found in the code: its English (and plural), and where."""

    key: Key
    plural: str | None = None
    places: list[str] = field(default_factory=list)


def _roots(package: Path) -> list[tuple[Path, str]]:
    roots = [(package, package.name + "/")]
    checkout = package.parent
    if (checkout / "pages").is_dir():
        roots.append((checkout / "pages", "pages/"))
    return roots


def extract(package: Path = PACKAGE,
            extra: Iterable[tuple[str, str]] = ()) -> dict[Key, Source]:
    """Every catalogued message of the code, and the `extra` (text, place) pairs found
    elsewhere (the lesson files' words, read by `trainer.scenarios.words`)."""
    found: dict[Key, Source] = {}

    def add(key: Key, plural: str | None, place: str) -> None:
        entry = found.setdefault(key, Source(key, plural))
        entry.plural = entry.plural or plural
        if place not in entry.places:
            entry.places.append(place)

    files = [(path, prefix + path.relative_to(root).as_posix())
             for root, prefix in _roots(package) for path in sorted(root.rglob("*.py"))]
    app = package.parent / "streamlit_app.py"
    if app.exists():
        files.append((app, app.name))
    for path, place in files:
        if place.startswith(tuple(package.name + "/" + n for n in NOT_SCANNED)):
            continue
        for context, message, plural in python_messages(path):
            add((context, message), plural, place)
    for text, place in extra:
        add((None, text), None, place)
    return found


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def python_messages(path: Path) -> Iterator[tuple[str | None, str, str | None]]:
    """(context, message, plural) of every `tr`, `trc`, `tr_n`, `said_n` and `N_` call with literal
    text in a Python file, read from its syntax tree: a call inside an f-string's braces
    (`f"<div>{tr('Coins')}</div>"`) counts too, which a tokenizer does not see. A call with a
    variable (`tr(TITLE)`) shows a message marked where the variable was set."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        name, args = node.func.id, node.args
        if name in ("tr", "N_") and args and (text := _text(args[0])):
            yield None, text, None
        elif name == "trc" and len(args) >= 2 and (text := _text(args[1])):
            yield _text(args[0]), text, None
        elif name in ("tr_n", "said_n") and len(args) >= 2 and (text := _text(args[0])):
            yield None, text, _text(args[1])


_FIELD = string.Formatter()
_FIELD_NAME = re.compile(r"\{[^{}]*\}")
_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")


def fields(text: str) -> set[str]:
    """The `{fields}` of a message ("{name}", "{n}", "{p:.0%}" -> "p")."""
    try:
        return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FIELD.parse(text)
                if name}
    except ValueError:
        return {"<unbalanced braces>"}


def tags(text: str) -> Counter[str]:
    return Counter(t.lower() for t in _TAG.findall(text))


@dataclass
class Problem:
    """One thing wrong with one message of one catalogue."""

    language: str
    kind: str  # missing | fields | tags | obsolete | glossary
    message: str
    detail: str = ""

    def __str__(self) -> str:
        said = self.message if len(self.message) < 90 else self.message[:87] + "..."
        return f"{self.language}: {self.kind}: {said!r}" + (f" ({self.detail})"
                                                             if self.detail else "")


@dataclass(frozen=True)
class Term:
    """A glossary line: the English term and its translation, and, for the terms checked, the
    patterns: where the English matches `when`, the translation must match `must` (a root:
    Filipino's affixes wrap it, so "hadlang" matches hadlangan, humadlang, paghadlang)."""

    english: str
    translation: str
    when: str
    must: str
    note: str

    def wanted(self, source: str, translated: str) -> bool:
        """Whether `translated` keeps this term where `source` has it (a `{field}`'s name is
        not a word of the sentence: "{treasury}" says nothing about the Treasury)."""
        source = _FIELD_NAME.sub("{}", source)
        if not self.when or not re.search(self.when, source, re.IGNORECASE):
            return True
        return re.search(self.must, _FIELD_NAME.sub("{}", translated), re.IGNORECASE) is not None


def glossary(language: str, path: Path = GLOSSARY) -> list[Term]:
    """The glossary's terms for `language` (columns: language, english, translation, when,
    must, note)."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return [Term(row["english"], row["translation"], row["when"], row["must"],
                     row.get("note", ""))
                for row in csv.DictReader(handle) if row["language"] == language]


def read_catalogue(language: str, path: Path | None = None) -> Catalog:
    with (path or catalogue_path(language)).open("rb") as handle:
        return read_po(handle, locale=language)


def _forms(message: Message) -> list[str]:
    if isinstance(message.string, tuple | list):
        return [str(s) for s in message.string]
    return [str(message.string or "")]


def problems(language: str, sources: dict[Key, Source] | None = None,
             path: Path | None = None) -> list[Problem]:
    """Everything wrong with `language`'s catalogue against the code."""
    sources = extract() if sources is None else sources
    po = read_catalogue(language, path)
    terms = glossary(language)
    found: list[Problem] = []
    seen: set[Key] = set()
    for message in po:
        if not message.id:
            continue
        english = str(message.id[0] if isinstance(message.id, tuple | list) else message.id)
        key: Key = (message.context, english)
        seen.add(key)
        if key not in sources:
            found.append(Problem(language, "obsolete", english, "not in the code any more"))
            continue
        forms = _forms(message)
        if message.fuzzy or not all(forms):
            found.append(Problem(language, "missing", english,
                                 "marked fuzzy" if message.fuzzy else "not translated"))
            continue
        source = sources[key]
        wanted = fields(english) | (fields(source.plural) if source.plural else set())
        for form in forms:
            have = fields(form)
            if have - wanted or (wanted - {"n"}) - have:
                found.append(Problem(language, "fields", english,
                                     f"English has {sorted(wanted)}, translation {sorted(have)}"))
            if tags(form) != tags(english):
                found.append(Problem(language, "tags", english,
                                     f"HTML tags differ: {dict(tags(english))} vs "
                                     f"{dict(tags(form))}"))
            for term in terms:
                if not term.wanted(english + " " + (source.plural or ""), form):
                    found.append(Problem(language, "glossary", english,
                                         f"{term.english!r} is {term.translation!r} here"))
    for key, _source in sources.items():
        if key not in seen:
            found.append(Problem(language, "missing", key[1], "not in the catalogue"))
    for message in po.obsolete.values():
        english = message.id[0] if isinstance(message.id, tuple | list) else message.id
        found.append(Problem(language, "obsolete", str(english),
                             "kept as #~ for when it comes back; `i18n update --drop-obsolete`"))
    return found


def all_problems(sources: dict[Key, Source] | None = None) -> list[Problem]:
    sources = extract() if sources is None else sources
    return [p for language in LANGUAGES if language.code != DEFAULT
            for p in problems(language.code, sources)]


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """One writer of a catalogue at a time (a merge and an update started together)."""
    with path.with_suffix(".lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _write(po: Catalog, path: Path) -> None:
    temporary = path.with_suffix(".po.tmp")
    with temporary.open("wb") as handle:
        write_po(handle, po, width=100, include_lineno=False, sort_by_file=True)
    temporary.replace(path)


def new_catalogue(language: str) -> Catalog:
    from trainer.i18n.languages import language_named

    name = language_named(language).name
    return Catalog(locale=language, project="Coup Trainer", version="1", fuzzy=False,
                   header_comment=f"# {name} words of Coup Trainer: every message a visitor "
                                  "reads.\n# English is the key; docs/translating.md says how "
                                  "to add and check translations.",
                   msgid_bugs_address="", last_translator="Coup Trainer",
                   language_team=name)


def update(language: str, sources: dict[Key, Source] | None = None,
           drop_obsolete: bool = False) -> tuple[int, int]:
    """Bring `language`'s catalogue in line with the code: new messages added untranslated;
    a translated message no longer in the code kept as obsolete (`#~`, as gettext's msgmerge
    does: a message edited back, or a file read half-written, gets its translation back) unless
    `drop_obsolete`. Returns (added, no longer used)."""
    sources = extract() if sources is None else sources
    path = catalogue_path(language)
    with locked(path):
        old = read_catalogue(language) if path.exists() else new_catalogue(language)
        created = old.creation_date
        kept: dict[Key, Message] = {}
        for message in [*old.obsolete.values(), *old]:
            if message.id:
                english = message.id[0] if isinstance(message.id, tuple | list) else message.id
                kept[(message.context, str(english))] = message
        po = new_catalogue(language)
        po.creation_date = created  # the header changes only when the messages do
        po.revision_date = old.revision_date
        added = 0
        for key, source in sorted(sources.items(), key=lambda kv: (kv[1].places[0], kv[0][1])):
            previous = kept.get(key)
            ident: str | tuple[str, str] = (key[1], source.plural) if source.plural else key[1]
            string: str | tuple[str, ...]
            if previous is not None and bool(source.plural) == isinstance(previous.id, tuple):
                string = tuple(_forms(previous)) if source.plural else _forms(previous)[0]
            else:
                nplurals = get_plural(language).num_plurals
                string = ("",) * nplurals if source.plural else ""
                added += previous is None
            po.add(ident, string, context=key[0],
                   locations=[(place, 0) for place in source.places],
                   flags=("fuzzy",) if previous is not None and previous.fuzzy else ())
        unused = [message for key, message in kept.items() if key not in sources]
        if not drop_obsolete:
            for message in unused:
                if all(_forms(message)):
                    po.obsolete[message.id if isinstance(message.id, str)
                                else message.id[0]] = message
        _write(po, path)
    return added, len(unused)


def todo(language: str, under: Iterable[str], out: Path, everything: bool = False) -> int:
    """Write the messages found under the places `under` (folders or files, as `i18n stats`
    names them) that `language` lacks (or all of them) to `out`, a `.po` file for a
    translator; `merge` takes it back. Returns how many."""
    prefixes = tuple(under)
    po = read_catalogue(language)
    part = new_catalogue(language)
    for message in po:
        if not message.id or not any(place.startswith(prefixes)
                                     for place, _ in message.locations):
            continue
        if everything or message.fuzzy or not all(_forms(message)):
            part.add(message.id, message.string, context=message.context,
                     locations=message.locations, flags=message.flags)
    _write(part, out)
    return len(part)


def merge(language: str, parts: Iterable[Path]) -> int:
    """Copy the translations of `parts` (a translator's `.po` files) into the catalogue, for
    messages it has; returns how many were taken."""
    path = catalogue_path(language)
    taken = 0
    with locked(path):
        po = read_catalogue(language)
        for part in parts:
            for message in read_catalogue(language, part):
                if not message.id or message.fuzzy or not all(_forms(message)):
                    continue
                mine = po.get(message.id, context=message.context)
                if mine is not None:
                    mine.string = message.string
                    mine.flags.discard("fuzzy")
                    taken += 1
        _write(po, path)
    return taken
