#!/usr/bin/env bash
# The release works: build the source distribution and the wheel from it, install the wheel into
# a clean virtual environment outside the checkout, and use it there.
#
#   scripts/check-wheel.sh [BUILDER]   BUILDER: a Python with the `build` package (.venv/bin/python)
#
# The new environment is made by $PYTHON (python3 by default) and pip installs the wheel's
# dependencies from the usual package index, reusing pip's cache. When a C compiler is present
# the wheel must carry the compiled engine, and the installed package must run it. Any problem
# fails the script with a message; the work folder is removed either way.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
BUILDER="${1:-$REPO/.venv/bin/python}"
PYTHON="${PYTHON:-python3}"

say() { echo "check-wheel: $*"; }
fail() { echo "check-wheel: FAILED: $*" >&2; exit 1; }
show_log() { echo "--- last lines of $1:" >&2; tail -n "${2:-40}" "$1" >&2; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/coup-trainer-wheel.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

if command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then
    COMPILER=1
else
    COMPILER=0
fi

# The trainer's settings of whoever runs this must not leak into the check.
unset COUP_TRAINER_PURE_PYTHON COUP_TRAINER_SCENARIOS COUP_TRAINER_DB_URL PYTHONPATH

lessons=$(cd "$REPO/scenarios" && ls -- *.yaml | sort)
n_lessons=$(echo "$lessons" | wc -l)

# --- build --------------------------------------------------------------------------------------
# From a copy of the source as the checkout has it (committed or not, but without what git
# ignores): setuptools would otherwise put into the sdist whatever an earlier build listed in
# the checkout's coup_trainer.egg-info, and hide a file missing from MANIFEST.in.
start=$SECONDS
SRC="$WORK/src"
mkdir -p "$SRC"
if git -C "$REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$REPO" && git ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
        | tar --null -T - -cf -) | tar -xf - -C "$SRC" || fail "cannot copy the source to $SRC"
else
    tar -C "$REPO" --exclude=./.venv --exclude=./.git --exclude=./build --exclude=./dist \
        --exclude='*.egg-info' --exclude=./data --exclude='*.so' -cf - . | tar -xf - -C "$SRC" \
        || fail "cannot copy the source to $SRC"
fi
"$BUILDER" -m build --outdir "$WORK/dist" "$SRC" >"$WORK/build.log" 2>&1 \
    || { show_log "$WORK/build.log"; fail "building the sdist and the wheel failed"; }
sdist=$(ls "$WORK"/dist/*.tar.gz 2>/dev/null | head -n 1)
wheel=$(ls "$WORK"/dist/*.whl 2>/dev/null | head -n 1)
[ -n "$sdist" ] && [ -n "$wheel" ] || fail "the build made no sdist or no wheel"
say "built $(basename "$sdist") and $(basename "$wheel") in $((SECONDS - start)) s"

# --- what they hold -----------------------------------------------------------------------------
in_sdist=$(tar tzf "$sdist" | sed -n 's|^[^/]*/scenarios/\([^/]*\.yaml\)$|\1|p' | sort)
[ "$in_sdist" = "$lessons" ] \
    || fail "the sdist's scenarios/ differs from the checkout's: $(diff <(echo "$lessons") <(echo "$in_sdist") | tr '\n' ' ')"
say "sdist: scenarios/ holds the $n_lessons lesson files"

wheel_files=$("$PYTHON" -m zipfile -l "$wheel" | awk 'NR > 1 {print $1}')
in_wheel=$(echo "$wheel_files" | sed -n 's|^trainer/scenarios/library/\([^/]*\.yaml\)$|\1|p' | sort)
[ "$in_wheel" = "$lessons" ] \
    || fail "the wheel's trainer/scenarios/library/ differs from scenarios/: $(diff <(echo "$lessons") <(echo "$in_wheel") | tr '\n' ' ')"
say "wheel: trainer/scenarios/library/ holds the $n_lessons lesson files"
grep -q '^trainer/quiz/banks/default\.jsonl\.gz$' <<<"$wheel_files" \
    || fail "the wheel has no trainer/quiz/banks/default.jsonl.gz"
say "wheel: trainer/quiz/banks/default.jsonl.gz"
grep -q '^trainer/quiz/banks/default\.solved\.json$' <<<"$wheel_files" \
    || fail "the wheel has no trainer/quiz/banks/default.solved.json (the exact end-game grades)"
say "wheel: trainer/quiz/banks/default.solved.json"
grep -q '^trainer/bots/data/tournament\.csv$' <<<"$wheel_files" \
    || fail "the wheel has no trainer/bots/data/tournament.csv (the bots' measured strength)"
say "wheel: trainer/bots/data/tournament.csv"
for f in env.py script.py.mako; do
    grep -q "^trainer/database/migrations/${f//./\\.}\$" <<<"$wheel_files" \
        || fail "the wheel has no trainer/database/migrations/$f (the stores' migrations)"
done
revisions=$(cd "$REPO/trainer/database/migrations/versions" && ls -- *.py | sort)
revisions_in_wheel=$(echo "$wheel_files" | sed -n 's|^trainer/database/migrations/versions/\([^/]*\.py\)$|\1|p' | sort)
[ "$revisions_in_wheel" = "$revisions" ] \
    || fail "the wheel's database revisions differ from the checkout's: $(diff <(echo "$revisions") <(echo "$revisions_in_wheel") | tr '\n' ' ')"
say "wheel: trainer/database/migrations/ with its $(echo "$revisions" | wc -l) revisions"
extensions=$(echo "$wheel_files" | grep '^trainer/engine/game.*\.so$' || true)
if [ "$COMPILER" = 1 ]; then
    [ -n "$extensions" ] || fail "a C compiler is present but the wheel has no compiled engine (trainer/engine/game*.so)"
    say "wheel: the compiled engine ($(echo "$extensions" | xargs -n 1 basename | tr '\n' ' '))"
else
    say "wheel: no C compiler here, so a plain-Python engine"
fi
strays=$(echo "$wheel_files" | grep -E '^(tests|pages|bench|scenarios|docs)/' || true)
[ -z "$strays" ] || fail "the wheel carries files outside the package: $(echo "$strays" | head -n 5 | tr '\n' ' ')"

# --- install it into a clean environment --------------------------------------------------------
start=$SECONDS
"$PYTHON" -m venv "$WORK/venv" || fail "$PYTHON -m venv failed"
VPY="$WORK/venv/bin/python"
# --no-compile: pip would byte-compile every installed module of every dependency (a third of the
# install's time); the check imports what it uses, which compiles that.
"$VPY" -m pip install --disable-pip-version-check --no-compile "$wheel" >"$WORK/install.log" 2>&1 \
    || { show_log "$WORK/install.log"; fail "pip install of the wheel and its dependencies failed"; }
say "installed the wheel and its dependencies into a new virtual environment in $((SECONDS - start)) s"

# --- use it, from outside the checkout ----------------------------------------------------------
# -I: neither the current folder nor PYTHONPATH nor user site-packages on the path, so only the
# installed package can be imported.
cd "$WORK"
export COUP_TRAINER_DATA_DIR="$WORK/data"
"$VPY" -I - "$COMPILER" <<'PY' || fail "the installed package does not work (see above)"
import importlib
import pkgutil
import sys
import traceback
import warnings
from pathlib import Path

# A warning from the trainer itself (such as a stale compiled engine) is a failure.
warnings.filterwarnings("error", module=r"trainer(\..*)?$")
compiler = sys.argv[1] == "1"


def say(text: str) -> None:
    print(f"check-wheel: {text}", flush=True)


import trainer  # noqa: E402
from trainer import paths  # noqa: E402

where = Path(trainer.__file__).resolve()
assert Path(sys.prefix).resolve() in where.parents, f"trainer imported from {where}, not the venv"
assert paths.CHECKOUT is None, f"the installed package thinks it runs from a checkout ({paths.CHECKOUT})"
assert paths.scenarios_dir() == paths.PACKAGED_SCENARIOS, paths.scenarios_dir()
say(f"trainer imported from {where.parent}")

failed: list[str] = []


def record(name: str) -> None:
    failed.append(name)
    traceback.print_exc()


names = []
for info in pkgutil.walk_packages(trainer.__path__, "trainer.", onerror=record):
    if info.name.endswith("__mypyc"):
        continue  # the compiled engine's support library, loaded by trainer.engine.game
    names.append(info.name)
    try:
        importlib.import_module(info.name)
    except Exception:
        record(info.name)
if failed:
    sys.exit(f"cannot import: {', '.join(failed)}")
say(f"imported all {len(names)} modules of the package")

from trainer.engine.build import engine_build  # noqa: E402

build = engine_build()
if compiler and build != "compiled":
    sys.exit(f"a C compiler is present but the installed engine runs as {build}")
say(f"engine build: {build}")

from trainer.quiz.bank import DEFAULT_BANK, load_bank  # noqa: E402

bank = load_bank(DEFAULT_BANK)
lesson_items = [i for i in bank.items if i.scenario is not None]
if not lesson_items:
    sys.exit(f"the default bank {DEFAULT_BANK} has no lesson item")
item = lesson_items[0]
game = item.game()
say(f"default bank: {len(bank.items)} items; lesson item {item.id} replays "
    f"{item.scenario!r} to step {item.step} ({len(game.log)} events)")

from trainer.play.setup import BOTS, strength  # noqa: E402

measured = [key for key in BOTS if strength(key, 4) is not None]
if measured != list(BOTS):
    sys.exit(f"the Play page's bot strengths are missing for {set(BOTS) - set(measured)}")
say(f"play: every bot's measured strength reads ({len(measured)} bots)")

from sqlalchemy import inspect  # noqa: E402

from trainer.database.migrate import current, head  # noqa: E402
from trainer.learners.storage import Store  # noqa: E402
from trainer.play.store import PlayStore  # noqa: E402
from trainer.rooms.store import RoomStore  # noqa: E402

store = Store(f"sqlite:///{Path('migrated.db').resolve()}")
RoomStore(store.engine)
PlayStore(store.engine)
with store.engine.connect() as conn:
    revision = current(conn)
tables = len(inspect(store.engine).get_table_names()) - 1  # less alembic_version
store.close()
if revision != head():
    sys.exit(f"a new database was migrated to revision {revision}, not the head {head()}")
say(f"database: a new SQLite database migrated to revision {revision} ({tables} tables)")
PY

out=$("$VPY" -I -m trainer variants 2>&1) || { echo "$out" >&2; fail "python -m trainer variants failed"; }
[ -n "$out" ] || fail "python -m trainer variants printed nothing"
say "python -m trainer variants: $(echo "$out" | wc -l) lines"

library=$("$VPY" -I -c 'from trainer.paths import PACKAGED_SCENARIOS; print(PACKAGED_SCENARIOS)')
out=$("$VPY" -I -m trainer check "$library"/*.yaml 2>&1) \
    || { echo "$out" >&2; fail "python -m trainer check failed on the shipped lesson files"; }
replayed=$(echo "$out" | grep -c '^OK ' || true)
[ "$replayed" = "$n_lessons" ] || { echo "$out" >&2; fail "python -m trainer check replayed $replayed of $n_lessons lesson files"; }
say "python -m trainer check: the $n_lessons shipped lesson files replay"
say "the wheel works"
