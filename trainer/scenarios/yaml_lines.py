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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

Loc = tuple[str | int, ...]

# The largest scenario shipped is a few kilobytes and about two thousand values; these limits
# are far above any lesson and far below what would hurt the page that reads a whole folder.
MAX_BYTES = 1_000_000
MAX_NODES = 100_000
MAX_DEPTH = 64

_MERGE_TAG = "tag:yaml.org,2002:merge"
_BOOL_TAG = "tag:yaml.org,2002:bool"

_COLON_HINT = (
    " (a move that contains ':' must be quoted, e.g. move: \"Maria claims Duke: tax\")"
)


class YamlSyntaxError(ValueError):
    """The text is not valid YAML (or breaks one of our extra rules); `line` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def too_big(size: int) -> str:
    """The message for a file over `MAX_BYTES` (the loader checks the size before reading)."""
    return (f"the file is {size:,} bytes; expected a lesson file of at most {MAX_BYTES:,} bytes "
            f"(is it really a scenario?)")


def load_with_lines(text: str) -> tuple[Any, dict[Loc, int]]:
    """Parse one YAML document; return the data and a map from location to line.

    A mapping entry is recorded at the line of its key, a list item at the line where it starts
    (for an alias, the line of the alias).
    """
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise YamlSyntaxError(1, too_big(size))
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else _Builder(loader).build(node)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = " ".join(p for p in (e.context, e.problem) if p) or "invalid YAML"
        if "mapping values are not allowed" in problem:
            problem += _COLON_HINT
        raise YamlSyntaxError(line, f"YAML syntax error: {problem}") from None
    except yaml.YAMLError as e:
        raise YamlSyntaxError(1, f"YAML syntax error: {e}") from None
    except RecursionError:  # a safety net: _Loader and _Builder stop at MAX_DEPTH first
        raise YamlSyntaxError(1, f"the file nests lists and mappings too deeply; expected a "
                                 f"lesson file at most {MAX_DEPTH} levels deep") from None
    finally:
        loader.dispose()
    return data, loader.lines


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


def _too_deep() -> str:
    return (f"lists and mappings nest more than {MAX_DEPTH} levels deep here; expected a "
            f"lesson file at most {MAX_DEPTH} levels deep")


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
            raise YamlSyntaxError(line, f"too many values: the file builds more than "
                                        f"{MAX_NODES:,} values (keys, list items, text and "
                                        f"numbers); expected a lesson file of at most "
                                        f"{MAX_NODES:,} nodes")
        at, anchor = alias
        raise YamlSyntaxError(at, f"too many aliases/expanded nodes: expanding '*{anchor}' here "
                                  f"builds more than {MAX_NODES:,} values (every copy an alias "
                                  f"or a merge makes counts); expected a lesson file of at most "
                                  f"{MAX_NODES:,} nodes")

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
            return self.loader.construct_object(node, deep=True)
        if id(node) in self.open:
            at, anchor = alias or (line, "?")
            raise YamlSyntaxError(at, f"the alias '*{anchor}' is used inside the value it names, "
                                      f"which would never end; a lesson file cannot be "
                                      f"recursive")
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return self._sequence(node, path, alias)
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path, alias)
        finally:
            self.open.discard(id(node))
        raise YamlSyntaxError(node.start_mark.line + 1, f"unsupported YAML node {node.tag}")

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
                raise YamlSyntaxError(line, "a key must be a plain word, not a list or mapping")
            key = key_node.value
            if key in written and not merged:
                raise YamlSyntaxError(
                    line, f"the key {key!r} appears twice here (first on line "
                    f"{self.lines[path + (key,)]}); remove one"
                )
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
                    raise YamlSyntaxError(line, "a merge (<<) takes a mapping or a list of "
                                                "mappings, e.g. <<: *defaults")
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
            raise YamlSyntaxError(at, f"the merge of '*{anchor}' includes itself; a lesson "
                                      f"file cannot be recursive")
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
