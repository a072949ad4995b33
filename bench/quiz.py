"""How fast the quiz answers and the calibration page draws, measured on the server.

- feedback: the script run that follows a click on an answer (grading, saving to SQLite and
  drawing the feedback), over N answered items; the p95 is the figure (goal ≤ 150 ms). Once
  for a new learner, once for a learner with 5,000 answers to the shipped bank (whose review
  schedule is replayed from them).
- calibration: a new browser tab opening the Calibration page of a learner with 5,000 saved
  answers (reading them from the database, every score and the three Altair charts; goal
  ≤ 1 s), and a rerun of it in the same tab.

Runs the real pages through Streamlit's AppTest (the server's script runner without a
browser), after one warm-up run so module imports are not counted.

    python bench/quiz.py [--items 40] [--answers 5000]

Last line: `feedback_p95_ms <x> calibration_s <y> feedback_history_p95_ms <z>`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from tests.helpers import sample_answers  # noqa: E402
from trainer.learners.identity import BROWSER, is_browser_id, new_browser_id  # noqa: E402
from trainer.learners.storage import Store  # noqa: E402

APP = str(ROOT / "streamlit_app.py")


def page(name: str, learner: str) -> AppTest:
    """`name` for `learner`: a browser id as the tab's own learner (as its cookie would say),
    an older name key through a ?learner= link."""
    at = AppTest.from_file(APP, default_timeout=60)
    if is_browser_id(learner):
        at.session_state[BROWSER] = learner
    else:
        at.query_params["learner"] = learner
    at.run()
    at.switch_page(name)
    return at


def feedback_times(items: int, learner: str | None = None) -> list[float]:
    at = page("pages/quiz.py", learner or new_browser_id())
    at.run()
    times = []
    for _ in tqdm(range(items), desc="answers", file=sys.stderr):
        button = at.button(key="quiz_option_0")
        start = time.perf_counter()
        button.click().run()
        times.append(time.perf_counter() - start)
        assert not at.exception, at.exception
        at.button(key="quiz_next").click().run()
    return times


def seed(url: str, learner: str, n: int) -> None:
    Store(url).save_many(sample_answers(learner, n))


def seed_bank_answers(url: str, learner: str, n: int, seed: int = 7) -> None:
    """`n` answers to the shipped bank's items, one every 55 minutes up to now, graded at
    random: a long history whose reviews the quiz schedules."""
    import random
    from datetime import timedelta

    from trainer.learners.answers import Answer, grade_for, now
    from trainer.quiz.bank import DEFAULT_BANK, load_bank

    bank, rng = load_bank(DEFAULT_BANK), random.Random(seed)
    start = now() - timedelta(minutes=55 * n)
    rows = []
    for i in range(n):
        item, lost = rng.choice(bank.items), abs(rng.gauss(0, 8))
        rows.append(Answer(
            answer_id=f"{learner}-{i:06d}", learner=learner, item_id=item.id,
            bank=bank.version, kind="challenge", answered_at=start + timedelta(minutes=55 * i),
            stated=0.5 if item.has_claim else None, bluff=item.bluff if item.has_claim else None,
            action="Pass", best="Pass", lost_pp=round(lost, 2), grade=grade_for(lost)))
    Store(url).save_many(rows)


def calibration_times(answers: int, repeats: int) -> tuple[list[float], list[float]]:
    first, rerun = [], []
    for r in range(repeats):
        learner = f"bench-cal-{r}"
        seed(os.environ["COUP_TRAINER_DB_URL"], learner, answers)
        at = page("pages/calibration.py", learner)
        start = time.perf_counter()
        at.run()
        first.append(time.perf_counter() - start)
        assert not at.exception, at.exception
        lead = " ".join(m.value for m in at.markdown)
        assert f"You judged {answers} claims." in lead, f"the page did not see {answers} answers"
        start = time.perf_counter()
        at.run()
        rerun.append(time.perf_counter() - start)
    return first, rerun


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--answers", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["COUP_TRAINER_DB_URL"] = f"sqlite:///{tmp}/bench.db"
        times = sorted(feedback_times(args.items))
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"feedback: {len(times)} answers, median {statistics.median(times) * 1000:.0f} ms,"
              f" p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")
        first, rerun = calibration_times(args.answers, args.repeats)
        print(f"calibration with {args.answers} answers: new tab median "
              f"{statistics.median(first):.2f} s (runs {', '.join(f'{x:.2f}' for x in first)}),"
              f" rerun median {statistics.median(rerun):.2f} s")
        learner = new_browser_id()
        seed_bank_answers(os.environ["COUP_TRAINER_DB_URL"], learner, args.answers)
        long = sorted(feedback_times(args.items, learner))
        p95_long = long[min(len(long) - 1, round(0.95 * (len(long) - 1)))]
        print(f"feedback with {args.answers} answers in the history: median "
              f"{statistics.median(long) * 1000:.0f} ms, p95 {p95_long * 1000:.0f} ms")
    print(f"feedback_p95_ms {p95 * 1000:.0f} calibration_s {statistics.median(first):.2f} "
          f"feedback_history_p95_ms {p95_long * 1000:.0f}")


if __name__ == "__main__":
    main()
