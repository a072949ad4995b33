"""Text edited the ways hands edit it, for the tests that feed mangled files to a reader.

Why shared: a lesson file, a game log and an answers CSV are all written or touched by people,
and each reader must answer a mangled one with a located problem, never a crash. The edits
are the same for all: a line lost, doubled or swapped, a word replaced by another of the file,
a character lost, a stray character put in, the file cut short. Positions are drawn from a
seeded `random.Random` (hypothesis hands one over), uniformly over the file, where hypothesis'
own integers would favour the first lines.
"""

from __future__ import annotations

import random
import re

STRAY = ["", ":", "- ", "  ", "\t", "[", "]", "{", "'", '"', "*a", "&a", "!!int", "~", "#",
         ",", "|", "=", "\x07", "\x00", "2024-13-01", "0x_", "é", "null", "yes", "-1", "1e999",
         "99999999999999999999"]
_WORD = re.compile(r"[A-Za-z_]+")


def mangle(text: str, rng: random.Random, edits: int = 3) -> str:
    """`text` with one to `edits` edits."""
    lines = text.split("\n")
    words = sorted(set(_WORD.findall(text))) or ["x"]
    for _ in range(rng.randint(1, edits)):
        at = rng.randrange(len(lines))
        edit = rng.choice(["drop", "double", "swap", "word", "word", "typo", "stray", "cut"])
        line = lines[at]
        if edit == "drop":
            del lines[at]
        elif edit == "double":
            lines.insert(at, line)
        elif edit == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], line
        elif edit == "word" and (found := _WORD.findall(line)):
            lines[at] = line.replace(rng.choice(found), rng.choice(words), 1)
        elif edit == "typo" and line:
            k = rng.randrange(len(line))
            lines[at] = line[:k] + line[k + 1:]
        elif edit == "stray":
            k = rng.randint(0, len(line))
            lines[at] = line[:k] + rng.choice(STRAY) + line[k:]
        elif edit == "cut":
            lines = lines[:at]
        if not lines:
            lines = [""]
    return "\n".join(lines)
