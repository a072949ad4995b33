"""The words of the lesson files a visitor reads, for the catalogues.

Why the catalogue and not a second language inside each file: a teacher writes a lesson in
English as today, and its words are translated once, with the rest of the trainer, by the
same glossary; a lesson nobody has translated yet shows its English. The page translates
each of these fields where it shows them (`tr(step.narration)`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

from trainer.paths import scenarios_dir
from trainer.scenarios.loader import load_scenario

# The fields of a lesson file that are words for the reader (the rest are moves, names,
# cards and settings, worded by the engine).
TEXT_FIELDS = frozenset({"title", "summary", "text", "goal", "hint", "narration", "question",
                         "explanation", "quote", "section"})


def _walk(value: object) -> Iterator[str]:
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            item = getattr(value, name)
            if name in TEXT_FIELDS and isinstance(item, str) and item.strip():
                yield item
            else:
                yield from _walk(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _walk(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)


def lesson_words(directory: Path | None = None) -> Iterator[tuple[str, str]]:
    """(text, file) for every reader's word of every lesson and rule-case file."""
    root = directory or scenarios_dir()
    for path in sorted(root.rglob("*.yaml")):
        place = f"scenarios/{path.relative_to(root)}"
        for text in _walk(load_scenario(path)):
            yield text, place
