"""The documentation names every open point the engine makes an option."""

from __future__ import annotations

from pathlib import Path

from trainer.rules import Options

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_option_is_documented_with_its_default():
    text = (DOCS / "engine.md").read_text()
    for name, info in Options.info().items():
        default = getattr(Options(), name)
        assert f"`{name}`" in text, name
        assert f"`{default}`" in text or f"`{str(default)}`" in text, (name, default)
        assert info.source
