"""Build hook: compile the rules engine's inner loop with mypyc when a C compiler is at hand,
and ship the lesson files inside the wheel.

`trainer/engine/game.py` is plain, fully typed Python; mypyc turns the same source into a C
extension that plays about three times as fast (`python bench/engine.py`), which is what
bots and end-game solvers need. What a rollout runs at every decision besides the engine, a
player's observation (`trainer/engine/observation.py`, with the records it is made of,
`trainer/engine/frozen.py`) and the personas' policies (`trainer/policies/personas.py`), is
compiled with it: a playout then costs about 0.6 of its
plain-Python cost (`python bench/playout.py`), and the review of a played game waits for
thousands of them. Set COUP_TRAINER_PURE_PYTHON=1 to skip compilation (the package then runs
as ordinary Python).

The lessons live in the checkout's top-level `scenarios/` folder, where the app and the
teachers look for them. A wheel has no checkout, so the build copies `scenarios/*.yaml` to
`trainer/scenarios/library/` inside the package, where `trainer.paths` finds them when the
package is installed. The copy exists only in the build directory, never in the source tree.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
COMPILED = ["trainer/engine/game.py", "trainer/engine/observation.py",
            "trainer/engine/frozen.py", "trainer/policies/personas.py"]
LESSONS = HERE / "scenarios"
LESSONS_IN_PACKAGE = Path("trainer", "scenarios", "library")


class build_py_with_lessons(build_py):
    """build_py, plus a copy of scenarios/*.yaml in trainer/scenarios/library/."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the checkout, which has scenarios/
        lessons = sorted(LESSONS.glob("*.yaml"))
        if not lessons:
            raise SystemExit(f"error: no lesson files in {LESSONS}: the package would ship "
                             "without its lessons (is scenarios/ missing from the sdist?)")
        target = Path(self.build_lib) / LESSONS_IN_PACKAGE
        target.mkdir(parents=True, exist_ok=True)
        for path in lessons:
            shutil.copyfile(path, target / path.name)
        self.announce(f"copied {len(lessons)} lesson files to {target}", level=2)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if getattr(self, "editable_mode", False):
            return outputs
        target = Path(self.build_lib) / LESSONS_IN_PACKAGE
        return outputs + [str(target / p.name) for p in sorted(LESSONS.glob("*.yaml"))]


# Commands that only write metadata or pack the source: they never build the extension, and
# mypycify (which type-checks and translates the modules as soon as it is called, about six
# seconds) would be wasted. A build front end calls setup.py for each of them before the wheel.
SOURCE_ONLY = {"egg_info", "dist_info", "sdist"}
command = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), None)

ext_modules = []
if os.environ.get("COUP_TRAINER_PURE_PYTHON") != "1" and command not in SOURCE_ONLY:
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules, cmdclass={"build_py": build_py_with_lessons})
