"""Read YAML into plain data while remembering the line every key and list item came from.

Why: a teacher edits scenario files by hand, and an error that says only "step 7 is wrong" makes
them count list items. PyYAML throws the positions away once it has built Python objects, so we
compose the node tree (which keeps them) and build the data ourselves, recording the 1-based
line of each location as a path such as ``("steps", 6, "checkpoint", "coins", "Cris")``.

Deliberate differences from ``yaml.safe_load``:

* mapping keys are kept as the text written, so a player called ``No`` or ``On`` stays a name
  instead of turning into a boolean, and ``1:`` stays ``"1"``; as values too, only ``true``
  and ``false`` are booleans (as in YAML 1.2), so ``name: No`` is a name;
* a key written twice in one mapping is an error, where PyYAML silently keeps the last one (a
  key brought in by a merge, ``<<: *defaults``, may still be overridden: that is what merges
  are for);
* the loader is bounded. Lesson folders come from teachers, and the Learn page reads every file
  in one: a few hundred bytes of nested aliases (a "billion laughs") would otherwise build
  billions of values. A file is read only up to `MAX_BYTES`, the data built from it (every copy
  an alias or a merge makes included) holds at most `MAX_NODES` values, and nesting stops at
  `MAX_DEPTH` levels; past any limit the load stops at once with the line to look at.

Every problem is a `Said`, worded where it is shown: the lesson library is checked once per
process, in English, and its errors are read in every visitor's language. PyYAML's own
problems (its English) are said through a table of the ones a teacher meets; any other is
shown as PyYAML wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from string import Formatter
from typing import Any

import yaml

from trainer.i18n import DEFAULT, N_, use_language
from trainer.i18n.formats import number
from trainer.i18n.said import Said, as_said, said

Loc = tuple[str | int, ...]

# The largest scenario shipped is a few kilobytes and about two thousand values; these limits
# are far above any lesson and far below what would hurt the page that reads a whole folder.
MAX_BYTES = 1_000_000
MAX_NODES = 100_000
MAX_DEPTH = 64

_MERGE_TAG = "tag:yaml.org,2002:merge"
_BOOL_TAG = "tag:yaml.org,2002:bool"

# PyYAML's problems (its context and problem, joined by a space) as our catalogue's messages,
# so a teacher reads them in their own language; a {field} stands for what PyYAML fills in (a
# character, a token, a name), kept as PyYAML wrote it. The English is PyYAML's, unchanged.
# (A "block" of YAML is no Coup block: those problems are said in our own words below.)
_YAML_TROUBLES = (
    N_("while scanning a simple key could not find expected ':'"),
    N_("while scanning for the next token found character {char} that cannot start any token"),
    N_("found undefined alias {name}"),
    N_("found duplicate anchor {name}; first occurrence second occurrence"),
    N_("expected a single document in the stream but found another document"),
    N_("while parsing a flow sequence expected ',' or ']', but got {token}"),
    N_("while parsing a flow mapping expected ',' or '}}', but got {token}"),
    N_("while scanning a quoted scalar found unexpected end of stream"),
    N_("while scanning a quoted scalar found unexpected document separator"),
    N_("while scanning a double-quoted scalar found unknown escape character {char}"),
    N_("while scanning an anchor expected alphabetic or numeric character, but found {char}"),
    N_("while scanning an alias expected alphabetic or numeric character, but found {char}"),
    N_("sequence entries are not allowed here"),
    N_("mapping keys are not allowed here"),
    N_("could not determine a constructor for the tag {tag}"),
)
# PyYAML's problems said in our own words: a key or list item out of line with its neighbours,
# a value that is missing or starts with a character YAML keeps for itself.
_YAML_OWN_WORDS = (
    (re.compile(r"while parsing a block (collection|mapping) expected <block end>, but found .*"),
     N_("this line is not lined up with the keys or list items around it: check the spaces "
        "before it")),
    (re.compile(r"while parsing a (block|flow) node expected the node content, but found "
                r"(?P<token>.+)"),
     N_("a value is missing here, or starts with {token}, which YAML keeps for itself; put the "
        "value in quotes")),
)
# The one a teacher meets most: an unquoted move with a colon ("Ely claims Duke: tax").
_COLON = "mapping values are not allowed here"
_COLON_HINTED = N_("mapping values are not allowed here (a move that contains ':' must be "
                   "quoted, e.g. {example})")
_COLON_EXAMPLE = 'move: "Maria claims Duke: tax"'  # file syntax: the same in every language


def _pattern(message: str) -> re.Pattern[str]:
    """A regular expression matching what `message` says once its fields are filled in."""
    parts = []
    for literal, name, _, _ in Formatter().parse(message):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P<{name}>.+)")
    return re.compile("".join(parts))


_TROUBLE_PATTERNS = tuple((_pattern(message), message) for message in _YAML_TROUBLES)


def yaml_trouble(problem: str) -> Said:
    """PyYAML's problem text as one of our messages, or as PyYAML's English when it is not one
    we know."""
    if problem == _COLON:
        return said(_COLON_HINTED, example=_COLON_EXAMPLE)
    for pattern, message in (*_YAML_OWN_WORDS, *_TROUBLE_PATTERNS):
        found = pattern.fullmatch(problem)
        if found:
            return said(message, **found.groupdict())
    return as_said(problem)


# Python's reasons for bytes that are not UTF-8 (`UnicodeDecodeError.reason`).
_DECODE_TROUBLES = frozenset({
    N_("invalid start byte"),
    N_("invalid continuation byte"),
    N_("unexpected end of data"),
})


def decode_trouble(error: UnicodeDecodeError) -> Said:
    """Why bytes are not UTF-8 text, in the reader's words (Python's English otherwise)."""
    return said(error.reason) if error.reason in _DECODE_TROUBLES else as_said(error.reason)


class YamlSyntaxError(ValueError):
    """The text is not valid YAML (or breaks one of our extra rules); `line` is 1-based.

    `message` is a `Said`, worded where it is shown; `str()` is the current language's."""

    def __init__(self, line: int, message: Said) -> None:
        with use_language(DEFAULT):
            super().__init__(message.words())
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return self.message.words()

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.line, self.message))


def too_big(size: int) -> Said:
    """The message for a file over `MAX_BYTES` (the loader checks the size before reading)."""
    return said(N_("the file is {size} bytes; expected a lesson file of at most {limit} bytes "
                   "(is it really a scenario?)"), size=partial(number, size),
                limit=partial(number, MAX_BYTES))


def _syntax(problem: Said) -> Said:
    return said(N_("YAML syntax error: {problem}"), problem=problem)


def load_with_lines(text: str) -> tuple[Any, dict[Loc, int]]:
    """Parse one YAML document; return the data and a map from location to line.

    A mapping entry is recorded at the line of its key, a list item at the line where it starts
    (for an alias, the line of the alias).
    """
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise YamlSyntaxError(1, too_big(size))
    try:
        loader = _Loader(text)  # PyYAML refuses control characters here, before parsing
    except yaml.reader.ReaderError as e:
        raise YamlSyntaxError(text.count("\n", 0, e.position) + 1, _unacceptable(e)) from None
    try:
        node = loader.get_single_node()
        data = None if node is None else _Builder(loader).build(node)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = " ".join(p for p in (e.context, e.problem) if p)
        raise YamlSyntaxError(line, _syntax(yaml_trouble(problem) if problem
                                            else said(N_("invalid YAML")))) from None
    except yaml.YAMLError as e:
        raise YamlSyntaxError(1, _syntax(as_said(str(e)))) from None
    except RecursionError:  # a safety net: _Loader and _Builder stop at MAX_DEPTH first
        raise YamlSyntaxError(1, said(N_("the file nests lists and mappings too deeply; "
                                         "expected a lesson file at most {depth} levels deep"),
                                      depth=MAX_DEPTH)) from None
    finally:
        loader.dispose()
    return data, loader.lines


def _unacceptable(error: yaml.reader.ReaderError) -> Said:
    """A character YAML does not allow in a file (a control character), as PyYAML names it."""
    char = error.character
    code = f"{char:04x}" if isinstance(char, int) else repr(char)
    return _syntax(said(N_("unacceptable character #x{code}: special characters are not "
                           "allowed"), code=code))


def line_of(lines: dict[Loc, int], loc: Sequence[str | int], default: int = 1) -> int:
    """The line of `loc`, or of its nearest recorded ancestor (a missing key has no line)."""
    loc = tuple(loc)
    while loc:
        if loc in lines:
            return lines[loc]
        loc = loc[:-1]
    return default


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader that also notes where each alias is written and how deep the text
    nests. PyYAML resolves an alias to the very node it names, whose marks are those of the
    anchor; the builder needs the alias's own line to point at it."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.lines: dict[Loc, int] = {}
        # (id of the parent node, list index or id of the key node) -> (line, anchor name)
        self.aliases: dict[tuple[int, int], tuple[int, str]] = {}
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        mark = event.start_mark
        line = mark.line + 1 if mark is not None else 1
        if isinstance(event, yaml.AliasEvent) and parent is not None:
            where = index if isinstance(index, int) else id(index)
            self.aliases[(id(parent), where)] = (line, str(event.anchor))
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise YamlSyntaxError(line, _too_deep())
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _too_deep() -> Said:
    return said(N_("lists and mappings nest more than {depth} levels deep here; expected a "
                   "lesson file at most {depth} levels deep"), depth=MAX_DEPTH)


# What a value that PyYAML resolves by its look but cannot build is (a date that is no date:
# "2024-13-01"); Python's ValueError says it only in English.
_VALUE_TROUBLES = {
    "tag:yaml.org,2002:timestamp": N_("the value {value} looks like a date but is not one; "
                                      "put it in quotes to keep it as text"),
    "tag:yaml.org,2002:int": N_("the value {value} is not a whole number; put it in quotes to "
                                "keep it as text"),
    "tag:yaml.org,2002:float": N_("the value {value} is not a number; put it in quotes to keep "
                                  "it as text"),
}


# Where a value was reached through an alias: (the alias's line, the anchor's name), or None.
_Alias = tuple[int, str] | None


class _Builder:
    """Builds plain data from the composed nodes, counting every value built (a value reached
    through an alias once per time it is reached) so that a file cannot grow without bound."""

    def __init__(self, loader: _Loader) -> None:
        self.loader = loader
        self.lines = loader.lines
        self.built = 0
        self.merged: dict[int, list[tuple[yaml.Node, yaml.Node]]] = {}
        self.open: set[int] = set()  # the nodes being built: an alias to one of them loops

    def build(self, node: yaml.Node) -> Any:
        return self._build(node, (), None, node.start_mark.line + 1)

    def _spend(self, line: int, alias: _Alias) -> None:
        self.built += 1
        if self.built <= MAX_NODES:
            return
        if alias is None:
            raise YamlSyntaxError(line, said(N_(
                "too many values: the file builds more than {limit} values (keys, list items, "
                "text and numbers); expected a lesson file of at most {limit} nodes"),
                limit=partial(number, MAX_NODES)))
        at, anchor = alias
        raise YamlSyntaxError(at, said(N_(
            "too many aliases/expanded nodes: expanding '*{anchor}' here builds more than "
            "{limit} values (every copy an alias or a merge makes counts); expected a lesson "
            "file of at most {limit} nodes"), anchor=anchor, limit=partial(number, MAX_NODES)))

    def _child(self, parent: yaml.Node, where: int, alias: _Alias,
               fallback: int) -> tuple[_Alias, int]:
        """The alias through which a child is reached (the outermost one wins, since that is
        the line a teacher can change) and the line to record for it."""
        own = self.loader.aliases.get((id(parent), where))
        line = own[0] if own is not None else fallback
        return (alias or own), line

    def _build(self, node: yaml.Node, path: Loc, alias: _Alias,
               line: int) -> Any:
        self._spend(line, alias)
        if len(path) > MAX_DEPTH:
            raise YamlSyntaxError(alias[0] if alias else line, _too_deep())
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _BOOL_TAG and node.value.lower() not in ("true", "false"):
                return node.value  # YAML 1.1's yes/no/on/off: a player may be called "No"
            try:
                return self.loader.construct_object(node, deep=True)
            except (ValueError, TypeError, OverflowError):  # Python's, not PyYAML's: no line
                trouble = _VALUE_TROUBLES.get(node.tag, N_("cannot read the value {value}"))
                raise YamlSyntaxError(line, said(trouble, value=repr(node.value))) from None
        if id(node) in self.open:
            at, anchor = alias or (line, "?")
            raise YamlSyntaxError(at, said(N_("the alias '*{anchor}' is used inside the value it "
                                              "names, which would never end; a lesson file "
                                              "cannot be recursive"), anchor=anchor))
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return self._sequence(node, path, alias)
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path, alias)
        finally:
            self.open.discard(id(node))
        raise YamlSyntaxError(node.start_mark.line + 1, said(N_("unsupported YAML node {tag}"),
                                                             tag=node.tag))

    def _sequence(self, node: yaml.SequenceNode, path: Loc,
                  alias: _Alias) -> list[Any]:
        out = []
        for i, child in enumerate(node.value):
            via, line = self._child(node, i, alias, child.start_mark.line + 1)
            self.lines[path + (i,)] = line
            out.append(self._build(child, path + (i,), via, line))
        return out

    def _mapping(self, node: yaml.MappingNode, path: Loc,
                 alias: _Alias) -> dict[str, Any]:
        result: dict[str, Any] = {}
        written: set[str] = set()
        for key_node, value_node, merge in self._pairs(node, alias):
            line = key_node.start_mark.line + 1
            merged = merge is not None
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlSyntaxError(line, said(N_("a key must be a plain word, not a list or "
                                                    "mapping")))
            key = key_node.value
            if key in written and not merged:
                raise YamlSyntaxError(line, said(
                    N_("the key {key} appears twice here (first on line {line}); remove one"),
                    key=repr(key), line=self.lines[path + (key,)]))
            if merged and key in result:
                continue  # a key written in the mapping overrides the one a merge brings
            if merged:
                via, value_line = merge, line
            else:
                written.add(key)
                via, value_line = self._child(node, id(key_node), alias, line)
            self.lines[path + (key,)] = line
            result[key] = self._build(value_node, path + (key,), via, value_line)
        return result

    def _pairs(self, node: yaml.MappingNode, alias: _Alias
               ) -> list[tuple[yaml.Node, yaml.Node, _Alias]]:
        """The mapping's own entries, then those its merges (``<<: *a`` or ``<<: [*a, *b]``)
        bring in, as (key, value, merge): `merge` is None for an entry written here, else the
        alias it came through (the one to blame if it grows too big). Own entries come first
        so they win; of two merged mappings the earlier wins, as YAML's merge key says."""
        own: list[tuple[yaml.Node, yaml.Node, _Alias]] = []
        extra: list[tuple[yaml.Node, yaml.Node, _Alias]] = []
        for key_node, value_node in node.value:
            if key_node.tag != _MERGE_TAG:
                own.append((key_node, value_node, None))
                continue
            line = key_node.start_mark.line + 1
            via, _ = self._child(node, id(key_node), alias, line)
            sources = value_node.value if isinstance(value_node, yaml.SequenceNode) \
                else [value_node]
            for source in sources:
                if not isinstance(source, yaml.MappingNode):
                    raise YamlSyntaxError(line, said(N_("a merge (<<) takes a mapping or a "
                                                        "list of mappings, e.g. <<: *defaults")))
                merge = via or (line, "?")
                extra.extend((k, v, merge) for k, v in self._flat(source, via, line))
        return own + extra

    def _flat(self, node: yaml.MappingNode, alias: _Alias,
              line: int) -> list[tuple[yaml.Node, yaml.Node]]:
        """Every entry of a merged mapping, its own merges resolved, each key once; computed
        once per mapping, and every entry counted against the budget."""
        done = self.merged.get(id(node))
        if done is not None:
            for _ in done:
                self._spend(line, alias)
            return done
        if id(node) in self.open:
            at, anchor = alias or (line, "?")
            raise YamlSyntaxError(at, said(N_("the merge of '*{anchor}' includes itself; a "
                                              "lesson file cannot be recursive"), anchor=anchor))
        self.open.add(id(node))
        try:
            seen: set[Any] = set()
            out: list[tuple[yaml.Node, yaml.Node]] = []
            for k, v, _ in self._pairs(node, alias):
                self._spend(line, alias)
                key = k.value if isinstance(k, yaml.ScalarNode) else id(k)
                if key not in seen:
                    seen.add(key)
                    out.append((k, v))
        finally:
            self.open.discard(id(node))
        self.merged[id(node)] = out
        return out
