"""Read YAML into plain data while remembering the line every key and list item came from.

Why: a teacher edits scenario files by hand, and an error that says only "step 7 is wrong" makes
them count list items. PyYAML throws the positions away once it has built Python objects, so we
compose the node tree (which keeps them) and build the data ourselves, recording the 1-based
line of each location as a path such as ``("steps", 6, "checkpoint", "coins", "Cris")``.

Two deliberate differences from ``yaml.safe_load``:

* mapping keys are kept as the text written, so a player called ``No`` or ``On`` stays a name
  instead of turning into a boolean, and ``1:`` stays ``"1"``;
* a key written twice in one mapping is an error, where PyYAML silently keeps the last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

Loc = tuple[str | int, ...]

_COLON_HINT = (
    " (a move that contains ':' must be quoted, e.g. move: \"Maria claims Duke: tax\")"
)


class YamlSyntaxError(ValueError):
    """The text is not valid YAML (or breaks one of our two extra rules); `line` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def load_with_lines(text: str) -> tuple[Any, dict[Loc, int]]:
    """Parse one YAML document; return the data and a map from location to line.

    A mapping entry is recorded at the line of its key, a list item at the line where it starts.
    """
    lines: dict[Loc, int] = {}
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else _build(loader, node, (), lines)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = " ".join(p for p in (e.context, e.problem) if p) or "invalid YAML"
        if "mapping values are not allowed" in problem:
            problem += _COLON_HINT
        raise YamlSyntaxError(line, f"YAML syntax error: {problem}") from None
    except yaml.YAMLError as e:
        raise YamlSyntaxError(1, f"YAML syntax error: {e}") from None
    finally:
        loader.dispose()
    return data, lines


def line_of(lines: dict[Loc, int], loc: Sequence[str | int], default: int = 1) -> int:
    """The line of `loc`, or of its nearest recorded ancestor (a missing key has no line)."""
    loc = tuple(loc)
    while loc:
        if loc in lines:
            return lines[loc]
        loc = loc[:-1]
    return default


def _build(loader: yaml.SafeLoader, node: yaml.Node, path: Loc, lines: dict[Loc, int]) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_object(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        out = []
        for i, child in enumerate(node.value):
            lines[path + (i,)] = child.start_mark.line + 1
            out.append(_build(loader, child, path + (i,), lines))
        return out
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolve `<<: *anchor` merges the way safe_load does
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlSyntaxError(line, "a key must be a plain word, not a list or mapping")
            key = key_node.value
            if key in result:
                raise YamlSyntaxError(
                    line, f"the key {key!r} appears twice here (first on line "
                    f"{lines[path + (key,)]}); remove one"
                )
            lines[path + (key,)] = line
            result[key] = _build(loader, value_node, path + (key,), lines)
        return result
    raise YamlSyntaxError(node.start_mark.line + 1, f"unsupported YAML node {node.tag}")
