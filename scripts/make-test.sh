#!/usr/bin/env bash
# `make test`: every check, with the slow serial ones beside the main test run.
#
#   scripts/make-test.sh PYTHON HAVE_CC
#
# Why this order: the wheel check (build the sdist and the wheel, compile the engine, install
# into a new environment) and the plain-Python run of the rule tests each keep one process busy
# for one to two minutes, mostly on one core, and the main run leaves a core idle while its
# browser and page tests wait on a server. So they run in the background from the start, beside
# ruff, mypy, import-linter and the main run; their output is printed, in order, once the main
# run is over. The result is a failure when any part fails, and every part runs to its end.
#
# The main run takes two processes, each taking whole test files (their module-level caches stay
# warm), the longest files first (tests/conftest.py: SLOWEST_FIRST), so neither is left alone
# with a long file at the end; the 40 slowest tests are listed at the end of its report, to
# show where the time goes. Nothing is skipped for want of PostgreSQL, HAProxy (the Makefile
# installs it) or (with a C compiler) of the compiled engine: tests/conftest.py fails those
# skips under the COUP_TRAINER_REQUIRE_* variables. The throwaway PostgreSQL
# (scripts/test-postgres.sh) is stopped afterwards whatever pytest's result; pytest's exit
# status 5 (no tests collected) is a failure too.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${1:?the Python of the virtual environment}"
HAVE_CC="${2:-}"

# Compiled bytecode is written (into __pycache__ folders, which git ignores) even where the
# shell sets PYTHONDONTWRITEBYTECODE: a run starts many Python processes (two test workers, a
# server per browser test file and per page test that needs one, Ray workers, the command
# line), and without it each compiles the app again and each worker rewrites every test file
# again. (Not PYTHONPYCACHEPREFIX: Python then looks for the installed libraries' bytecode
# there too, so a first run compiles Streamlit, pandas and Ray again: 7 CPU s to import them
# against 2, in every process started before the cache is written.)
unset PYTHONDONTWRITEBYTECODE

WORK="$(mktemp -d "${TMPDIR:-/tmp}/coup-trainer-test.XXXXXX")"
background=""
cleanup() {
    [ -n "$background" ] && kill -- "-$background" 2>/dev/null
    scripts/test-postgres.sh stop >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# In the background, in a process group of its own (so an interrupted run stops it whole).
set -m
(
    status=0
    echo "The same rule and property tests against the plain-Python build of the engine:"
    COUP_TRAINER_PURE_PYTHON=1 "$PY" -m pytest -q -p no:xdist -p no:cacheprovider \
        tests/test_rules_*.py tests/test_properties.py tests/test_information.py \
        tests/test_perft.py tests/test_playthroughs.py || status=1
    echo
    make --no-print-directory wheel-check || status=1
    exit $status
) >"$WORK/background.log" 2>&1 &
background=$!
set +m

status=0
make --no-print-directory lint typecheck layers || status=1

export COUP_TRAINER_REQUIRE_PG=1 COUP_TRAINER_REQUIRE_COMPILED="$HAVE_CC" \
    COUP_TRAINER_REQUIRE_HAPROXY=1
pg_url=$(scripts/test-postgres.sh start | tail -n 1)
if [ -n "$pg_url" ]; then
    export COUP_TRAINER_TEST_PG_URL="$pg_url"
else
    echo "error: PostgreSQL could not be started: the PostgreSQL tests will fail"
fi
"$PY" -m pytest -n 2 --dist loadfile --no-loadscope-reorder --durations=40 || status=1
scripts/test-postgres.sh stop

echo
echo "--- run beside the tests above:"
wait "$background"
bg_status=$?
background=""
cat "$WORK/background.log"
[ "$bg_status" = 0 ] || status=1
if [ "$status" = 0 ]; then
    echo "make test: every part passed"
else
    echo "make test: FAILED (see above)"
fi
exit $status
