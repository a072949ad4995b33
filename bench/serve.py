"""How many users one app process serves: a loopback load test through the real server.

Starts the app (`streamlit run streamlit_app.py`, agent API on, a temporary SQLite database)
once per page and user count, so each cell starts from the same state, then lets N users loose
at once, each one agent-API session (one browser tab) doing a fixed number of interactions:

- quiz: open /quiz, then move the bluff slider `quiz_p` (items with a claim), answer with
  `quiz_option_0`, go on with `quiz_next`, and so on;
- learn: open the lesson library, open the first lesson of the path, then answer (each
  `option_i` in turn until one is right) and step on with `next`;
- calibration: open /calibration for a learner with `--answers` saved answers (a ?learner=
  link; seeded before the server starts), then rerun it (a new answer elsewhere, a refresh).

Every request is one script run (plus the runs its callbacks trigger). Reported per page and
user count: runs/s (requests answered per second of wall time, all users together), p50 and
p95 latency of a request, the server's CPU per request and its resident memory (VmRSS)
before and after the load. A warm-up session opens each page first (imports, caches).

`--gc` picks the garbage-collection setting under test:
  on         Streamlit's default: a full `gc.collect(2)` after every script run
             (`--runner.postScriptGC true`);
  off        `--runner.postScriptGC false`: Python's own generational collector only;
  freeze     off, and `trainer.ui.serving.freeze_loaded_heap()` at the start of every run:
             `gc.freeze()` once a page's modules are imported and its caches filled (moved
             out of the collector's generations);
  on-freeze  on, with the same freeze.
The freeze is switched with COUP_TRAINER_GC_FREEZE (1 in the freeze modes, 0 in the others),
so `on` and `off` stay what they say if streamlit_app.py calls the freeze itself.

    .venv/bin/python bench/serve.py [--gc freeze|off|on|on-freeze] [--users 1,15,30,60]
        [--pages quiz,learn,calibration] [--steps 5] [--quick] [--timeout 540]
        [--db sqlite|postgresql] [--workers 1]

`--workers N` (N > 1, with `--db postgresql`): the app as `python -m trainer serve --workers N`
serves it, N processes behind HAProxy; each agent-API session keeps HAProxy's cookie, so it
stays on its worker as a browser does. CPU per request is the workers' together.

Bounded: at most `--steps` requests per user, a hard overall `--timeout` (cells not reached
are skipped), and the server is stopped at the end, also on error or Ctrl-C. Loopback only.
Last line: `serve quiz_p95_s_30 <x> learn_p95_s_30 <y> ... quiz_runs_per_s_30 <w> ...`, one
pair per page and user count.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from agentapi import (  # noqa: E402
    GC_STATS_LAUNCHER,
    Server,
    Session,
    Timed,
    database,
    gc_stats,
    percentile,
    run_users,
    serve,
    serve_workers,
)

from trainer.ui.serving import ENV as FREEZE_ENV  # noqa: E402

PAGES = ("quiz", "learn", "calibration")
URL_PATH = {"quiz": "quiz", "learn": "", "calibration": "calibration"}  # Learn is the default

# Installed in the server process for the freeze modes: trainer.ui.serving.freeze_loaded_heap()
# at the start of every script run, as a call at the top of streamlit_app.py would make it.
# (Through Streamlit's internal runner hook, so the app file need not change to compare.)
FREEZE_LAUNCHER = """
import sys
import streamlit.runtime.scriptrunner.script_runner as _runner
from trainer.ui.serving import freeze_loaded_heap
_exec = _runner.exec_func_with_error_handling
def _run(func, ctx):
    if freeze_loaded_heap():
        import gc
        print(f"bench: gc.freeze() holds {gc.get_freeze_count()} objects", file=sys.stderr,
              flush=True)
    return _exec(func, ctx)
_runner.exec_func_with_error_handling = _run
"""

GC_MODES: dict[str, tuple[list[str], bool]] = {
    "on": (["--runner.postScriptGC", "true"], False),
    "off": (["--runner.postScriptGC", "false"], False),
    "freeze": (["--runner.postScriptGC", "false"], True),
    "on-freeze": (["--runner.postScriptGC", "true"], True),
}


def learner_key(i: int) -> str:
    return f"bench-serve-{i}"


# ------------------------------------------------------------------------ what users do
def quiz_user(steps: int) -> Callable[[int, Session], None]:
    def work(i: int, s: Session) -> None:
        rng = random.Random(i)
        s.open(URL_PATH["quiz"])
        moved = False  # the slider of the item shown was moved already
        while len(s.timings) < steps:
            triggers, values = s.actions("trigger"), s.actions("value")
            if "quiz_next" in triggers:
                s.click("quiz_next")
                moved = False
            elif "quiz_p" in values and not moved:
                s.set("quiz_p", rng.randint(5, 95))
                moved = True
            elif "quiz_option_0" in triggers:
                s.click("quiz_option_0")
            else:
                s.rerun()
    return work


def learn_user(steps: int) -> Callable[[int, Session], None]:
    def work(i: int, s: Session) -> None:
        s.open(URL_PATH["learn"])
        tried = 0  # options tried on the screen shown
        while len(s.timings) < steps:
            triggers = s.actions("trigger")
            options = [k for k in triggers if k.startswith("option_")]
            if "start_path" in triggers:
                s.click("start_path")
            elif "next" in triggers:
                s.click("next")
                tried = 0
            elif options:
                s.click(options[tried % len(options)])
                tried += 1
            else:
                s.rerun()
    return work


def calibration_user(steps: int) -> Callable[[int, Session], None]:
    def work(i: int, s: Session) -> None:
        s.open(URL_PATH["calibration"], {"learner": [learner_key(i)]})
        while len(s.timings) < steps:
            s.rerun()
    return work


USERS = {"quiz": quiz_user, "learn": learn_user, "calibration": calibration_user}


def check_calibration(s: Session, answers: int) -> None:
    """The warm-up's calibration page must show the seeded learner's answers."""
    text = json.dumps(s.snapshot.get("tree", {}))
    if f"You judged {answers} claims" not in text:
        raise RuntimeError("the Calibration page did not show the seeded answers")


# ------------------------------------------------------------------------------ a cell
def warm_up(server: Server, answers: int) -> None:
    """One session opens every page once (module imports, cached banks and lessons), then
    reruns the last (a freeze mode freezes at the start of the run after an import)."""
    for page in PAGES:
        s = Session(server.base)
        q = {"learner": [learner_key(0)]} if page == "calibration" else None
        t = s.open(URL_PATH[page], q)
        if not t.ok:
            raise RuntimeError(f"warm-up: opening {page} failed: {t.error}")
        if page == "calibration":
            check_calibration(s, answers)
        else:
            s.close()
    if not s.rerun().ok:
        raise RuntimeError("warm-up: a rerun failed")
    s.close()


# With several workers the collector's figures are not read (no hook in the workers).
NO_GC = {"cpu_s": [float("nan")] * 3, "n": [0, 0, 0], "max_s": float("nan"),
         "tracked": 0, "frozen": 0}


def cell(page: str, users: int, args: argparse.Namespace, db_url: str, tmp: Path,
         deadline: float) -> dict[str, Any]:
    options, freeze = GC_MODES[args.gc]
    log = tmp / f"server-{page}-{users}.log"
    env = {"COUP_TRAINER_DB_URL": db_url, FREEZE_ENV: "1" if freeze else "0"}
    launcher = GC_STATS_LAUNCHER + (FREEZE_LAUNCHER if freeze else "")
    many = args.workers > 1
    starting = (serve_workers(args.workers, options, env=env, log=log) if many
                else serve(options, env=env, log=log, launcher=launcher))
    with starting as server:
        warm_up(server, args.answers)
        if many:  # every worker's first runs (imports, caches), as the one server's above
            for _ in range(2 * args.workers):
                warm_up(server, args.answers)
        if freeze and not many and "gc.freeze()" not in log.read_text():
            raise RuntimeError("the server did not report its gc.freeze()")
        gc_before = NO_GC if many else gc_stats(server)
        rss_before, cpu_before = server.rss_mib(), server.cpu()
        timings, wall = run_users(users, USERS[page](args.steps), server.base, deadline,
                                  timeout=args.request_timeout)
        cpu = server.cpu() - cpu_before
        rss_after = server.rss_mib()
        gc_after = NO_GC if many else gc_stats(server)
    return summarise(page, users, timings, wall, cpu, rss_before, rss_after, gc_before,
                     gc_after)


def summarise(page: str, users: int, timings: list[Timed], wall: float, cpu: float,
              rss_before: float, rss_after: float, gc_before: dict[str, Any],
              gc_after: dict[str, Any]) -> dict[str, Any]:
    done = [t for t in timings if t.label != "user"]
    ok = [t.seconds for t in done if t.ok]
    errors = [t.error for t in timings if not t.ok]
    gc_cpu = sum(gc_after["cpu_s"]) - sum(gc_before["cpu_s"])
    return {
        "page": page, "users": users, "requests": len(done), "errors": len(errors),
        "first_error": errors[0] if errors else "",
        "wall_s": wall, "runs_per_s": len(done) / wall if wall > 0 else float("nan"),
        "p50_s": percentile(ok, 0.50), "p95_s": percentile(ok, 0.95),
        "max_s": max(ok) if ok else float("nan"),
        "mean_s": statistics.fmean(ok) if ok else float("nan"),
        "cpu_ms_per_run": 1000 * cpu / len(done) if done else float("nan"),
        "rss_before_mib": rss_before, "rss_after_mib": rss_after,
        "gc_ms_per_run": 1000 * gc_cpu / len(done) if done else float("nan"),
        "full_collections": gc_after["n"][2] - gc_before["n"][2],
        "longest_collection_ms": 1000 * gc_after["max_s"],
        "gc_tracked": gc_after["tracked"], "gc_frozen": gc_after["frozen"],
    }


# ------------------------------------------------------------------------------- main
def seed_learners(db_url: str, learners: int, answers: int) -> None:
    """`answers` saved answers for each calibration learner (bench-serve-0, 1, ...)."""
    from tests.helpers import sample_answers
    from trainer.learners.storage import Store

    store = Store(db_url)
    for i in range(learners):
        store.save_many(sample_answers(learner_key(i), answers, seed=i))


def print_row(r: dict[str, Any]) -> None:
    print(f"{r['page']:<12}{r['users']:>6}{r['requests']:>6}{r['errors']:>5}"
          f"{r['wall_s']:>8.1f}{r['runs_per_s']:>8.1f}{r['p50_s']:>8.2f}{r['p95_s']:>8.2f}"
          f"{r['max_s']:>8.2f}{r['cpu_ms_per_run']:>8.0f}{r['gc_ms_per_run']:>7.0f}"
          f"{r['full_collections']:>6}{r['longest_collection_ms']:>7.0f}"
          f"{r['rss_before_mib']:>7.0f}{r['rss_after_mib']:>7.0f}", flush=True)
    if r["first_error"]:
        print(f"    first error: {r['first_error']}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gc", choices=list(GC_MODES), default="freeze",
                        help="garbage-collection setting under test (default: freeze, the "
                             "setting chosen in docs/serving.md)")
    parser.add_argument("--users", default="1,15,30,60",
                        help="simultaneous users, comma-separated (default 1,15,30,60)")
    parser.add_argument("--pages", default=",".join(PAGES),
                        help="pages to load, comma-separated (default quiz,learn,calibration)")
    parser.add_argument("--steps", type=int, default=5,
                        help="requests per user, the opening included (default 5)")
    parser.add_argument("--answers", type=int, default=200,
                        help="saved answers of each calibration learner (default 200)")
    parser.add_argument("--timeout", type=float, default=540.0,
                        help="hard limit for the whole run, seconds (default 540)")
    parser.add_argument("--request-timeout", type=float, default=120.0,
                        help="limit for one request, seconds (default 120)")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite",
                        help="the database (PostgreSQL: as bench/room.py finds one)")
    parser.add_argument("--workers", type=int, default=1,
                        help="app processes: above 1, `python -m trainer serve --workers N` "
                             "(HAProxy in front, sticky by cookie; needs --db postgresql); "
                             "CPU is the workers' together, the collector's figures are not "
                             "read")
    parser.add_argument("--quick", action="store_true",
                        help="1 and 10 users, 3 requests each (a smoke test)")
    args = parser.parse_args()
    if args.quick:
        args.users, args.steps = "1,10", 3
    users = [int(u) for u in args.users.split(",") if u]
    pages = [p for p in args.pages.split(",") if p]
    if unknown := set(pages) - set(PAGES):
        parser.error(f"unknown page(s): {', '.join(sorted(unknown))}")
    if args.steps < 1 or not users or min(users) < 1:
        parser.error("--steps and every --users value must be at least 1")
    if args.workers > 1 and args.db != "postgresql":
        parser.error("--workers above 1 needs --db postgresql (one database, several processes)")

    start = time.monotonic()
    deadline = start + args.timeout
    results: list[dict[str, Any]] = []
    print(f"gc={args.gc}, db {args.db}, app processes {args.workers}"
          f"{' behind HAProxy' if args.workers > 1 else ''}: {args.steps} requests per user, "
          f"users {users}, "
          f"calibration learners with {args.answers} answers", flush=True)
    print(f"{'page':<12}{'users':>6}{'reqs':>6}{'errs':>5}{'wall s':>8}{'runs/s':>8}"
          f"{'p50 s':>8}{'p95 s':>8}{'max s':>8}{'cpu ms':>8}{'gc ms':>7}{'full':>6}"
          f"{'gc max':>7}{'rss0':>7}{'rss1':>7}",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="coup-serve-") as tmpdir, \
            database(args.db, Path(tmpdir)) as db_url:
        tmp = Path(tmpdir)
        # (the warm-up opens Calibration for learner 0 whichever pages are measured)
        seed_learners(db_url, max(users) if "calibration" in pages else 1, args.answers)
        for page in pages:
            for n in users:
                if time.monotonic() > deadline - 20:
                    print(f"{page:<12}{n:>6}  skipped: the overall --timeout is near", flush=True)
                    continue
                r = cell(page, n, args, db_url, tmp, deadline)
                results.append(r)
                print_row(r)
    print("runs/s: requests answered per second, all users together; p50/p95/max: latency of "
          "one request; cpu ms: server CPU per request, gc ms the collector's share; full: "
          "full collections during the load, gc max the longest collection (ms); rss0/rss1: "
          f"server MiB before/after the load. {time.monotonic() - start:.0f} s in all.",
          flush=True)
    if args.json:
        args.json.write_text(json.dumps({"gc": args.gc, "steps": args.steps,
                                         "results": results}, indent=1))
    pairs = []
    for r in results:
        pairs += [f"{r['page']}_p95_s_{r['users']} {r['p95_s']:.3f}",
                  f"{r['page']}_runs_per_s_{r['users']} {r['runs_per_s']:.2f}"]
    print("serve " + " ".join(pairs))


if __name__ == "__main__":
    main()
