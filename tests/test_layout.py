"""Only the command line talks to the terminal: the library returns data and raises errors, so
the app, the tests and the command line can all use it without output appearing from nowhere."""

from __future__ import annotations

import ast
from pathlib import Path

TRAINER = Path(__file__).resolve().parent.parent / "trainer"
CLI = TRAINER / "cli"


def _terminal_use(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for every print call, argparse import and sys.argv read in `tree`."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == "print") or (
                    isinstance(f, ast.Attribute) and f.attr == "print"
                    and isinstance(f.value, ast.Name) and f.value.id == "builtins"):
                found.append((node.lineno, "calls print("))
        elif isinstance(node, ast.Import):
            if any(a.name.split(".")[0] == "argparse" for a in node.names):
                found.append((node.lineno, "imports argparse"))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and (node.module or "").split(".")[0] == "argparse":
                found.append((node.lineno, "imports argparse"))
        elif (isinstance(node, ast.Attribute) and node.attr == "argv"
              and isinstance(node.value, ast.Name) and node.value.id == "sys"):
            found.append((node.lineno, "reads sys.argv"))
    return sorted(found)


def _library_modules() -> list[Path]:
    return sorted(p for p in TRAINER.rglob("*.py") if CLI not in p.parents)


def test_only_the_command_line_prints_or_parses_arguments():
    root = TRAINER.parent
    problems = [f"{path.relative_to(root)}:{line}: {what} (belongs in trainer/cli/)"
                for path in _library_modules()
                for line, what in _terminal_use(ast.parse(path.read_text(encoding="utf-8"),
                                                          filename=str(path)))]
    assert not problems, "\n".join(problems)


def test_the_check_finds_what_it_looks_for():
    # A check that never fires would pass forever: make sure each pattern is caught.
    source = ("import sys\nimport argparse as ap\nfrom argparse import Namespace\n"
              "print('x')\nimport builtins\nbuiltins.print('y')\nargs = sys.argv[1:]\n")
    assert _terminal_use(ast.parse(source)) == [
        (2, "imports argparse"), (3, "imports argparse"), (4, "calls print("),
        (6, "calls print("), (7, "reads sys.argv")]
    assert _library_modules() and all(CLI not in p.parents for p in _library_modules())
