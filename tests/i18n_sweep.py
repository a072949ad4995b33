"""The pseudo-language sweep: every word on a page came through the catalogue.

Why: a page run with `?lang=qps` shows every catalogued message marked ⟦like this⟧; any word
left outside a mark was written in English by the code and would show in English to a
Filipino visitor. `leaks(at)` lists those words for one AppTest run, reading every string a
person can see in the element tree: bodies, labels, help texts, options, placeholders, alerts,
HTML (without its tags, styles and scripts) and chart titles.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from google.protobuf.message import Message
from streamlit.testing.v1 import AppTest

from trainer.i18n import LANGUAGES
from trainer.i18n.catalogue import CLOSE, OPEN
from trainer.i18n.check import python_messages
from trainer.i18n.said import Said

# Proto fields that are never words for a person.
_NOT_TEXT = frozenset({
    "id", "form_id", "key", "icon", "url", "page", "page_script_hash", "page_name",
    "element_hash", "data", "arrow_data", "styler", "vega_lite_chart", "spec", "datasets",
    "use_container_width", "theme", "selection_mode", "format", "css_class", "anchor",
    "dtype", "type", "width_config", "height_config", "text_alignment_config", "file_id",
    "mimetype", "deploy_params", "scripts", "src", "alt", "markdown_id", "unsafe_allow_html",
    "is_initialized", "set_value", "value", "raw_value", "column_config", "columns",
    "editing_mode", "disabled", "stack_trace", "message_is_markdown", "error_type",
    "shortcut", "query_string",
})
_WORD = re.compile(r"[A-Za-zÀ-ɏ]{2,}")
_SPAN = re.compile(re.escape(OPEN) + r"[^" + re.escape(OPEN + CLOSE) + r"]*" + re.escape(CLOSE))
_HTML_DROP = re.compile(r"<(style|script)\b.*?</\1>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[^<>]*>")
_ENTITY = re.compile(r"&[#a-zA-Z0-9]+;")
# Streamlit's icon and emoji codes, and the name of a colour or badge directive (`:gray[...]`).
_ICON = re.compile(r":material/[a-z_]+:|:[a-z_]+:|:[a-z]+(?=\[)")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def unmarked(text: str) -> list[str]:
    """The words of `text` outside every ⟦mark⟧ (marks nest when a marked message is put into
    another)."""
    text = _HTML_DROP.sub(" ", text)
    text = _LINK_TARGET.sub("]", text)
    while True:
        stripped = _SPAN.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    text = _ENTITY.sub(" ", _TAG.sub(" ", text))
    text = _ICON.sub(" ", text)
    return _WORD.findall(text)


def _strings(message: Message) -> Iterator[str]:
    for field, value in message.ListFields():
        if field.name in _NOT_TEXT:
            continue
        repeated = not isinstance(value, str | Message) and hasattr(value, "__len__")
        items = value if repeated else [value]
        for item in items:
            if isinstance(item, Message):
                yield from _strings(item)
            elif isinstance(item, str):
                yield item


def _chart_titles(spec: Any) -> Iterator[str]:
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key in ("title", "description") and isinstance(value, str):
                yield value
            elif key == "title" and isinstance(value, dict) and isinstance(value.get("text"),
                                                                          str):
                yield value["text"]
            else:
                yield from _chart_titles(value)
    elif isinstance(spec, list):
        for item in spec:
            yield from _chart_titles(item)


def _nodes(node: Any) -> Iterator[Any]:
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _nodes(child)


def page_strings(at: AppTest) -> Iterator[str]:
    """Every string a person can read on the page AppTest drew."""
    for node in _nodes(at._tree):
        proto = getattr(node, "proto", None)
        if isinstance(proto, Message):
            yield from _strings(proto)
            spec = getattr(proto, "spec", None)
            if isinstance(spec, str) and spec.startswith("{"):
                try:
                    chart = json.loads(spec)
                except ValueError:
                    continue
                yield from _chart_titles(chart)


def leaks(at: AppTest, allowed: Iterable[str] = ()) -> list[str]:
    """The strings of the page with words outside the catalogue's marks ("Ann", a room code
    and the like are data: pass them as `allowed`)."""
    fine = {word.lower() for word in allowed} | {language.name.lower() for language in LANGUAGES}
    found = []
    for text in page_strings(at):
        words = [w for w in unmarked(text) if w.lower() not in fine]
        if words:
            found.append(f"{' '.join(words)}  <-  {text[:160]!r}")
    return sorted(set(found))


def assert_marked(text: str) -> None:
    """Fail naming `text` if any of its words came from outside the catalogue (run the code
    that made it under `use_language("qps")`)."""
    assert unmarked(text) == [], text


def own_messages(root: Path, files: Iterable[str]) -> set[tuple[str | None, str]]:
    """The catalogue keys of the messages written in `files` (paths under `root`): what a
    page's Filipino test requires to be found translated (`catalogue("fil").missing` lists
    every key looked up without a translation, whichever file asked)."""
    keys: set[tuple[str | None, str]] = set()
    for name in files:
        for context, text, _plural in python_messages(root / name):
            keys.add((context, text))
    return keys


def uncatalogued(said: Said, data: Iterable[str] = ()) -> list[str]:
    """The parts of `said` shown as they are instead of through the catalogue (a library's
    English among them), other than the `data` allowed (a file's key names, a player's name).
    The pseudo-language cannot show these: a catalogued frame marks everything put into it,
    so a message kept for later (`Said`) is walked instead. Words made in every language at
    once (`said_each`) count as catalogued."""
    allowed = set(data)
    if said.texts is not None:
        return []
    if not said.catalogued:
        return [said.message] if said.message and said.message not in allowed else []
    found: list[str] = []
    for value in said.fields.values():
        for part in value if isinstance(value, tuple) else (value,):
            if isinstance(part, Said):
                found.extend(uncatalogued(part, allowed))
    return found
