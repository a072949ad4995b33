"""How fast the question bank builds on this machine, through the executor the command line uses.

Builds `--items` persona-game items of the default recipe (the shipped bank's: mostly the base
game, half challenges, 1,000 rollouts per option) into a temporary folder with
`trainer.quiz.bankfile.write_bank`, on Ray over `--jobs` processes (two: this machine's cores)
or in this process (`--executor local`). Ray's start-up is timed apart: it is paid once per
build, so it does not belong in the rate a long build runs at. The default size takes about a
minute on two cores.

    python bench/bank.py [--items 24] [--rollouts 1000] [--jobs 2] [--executor ray]

Also times reading the shipped bank (`trainer/quiz/banks/default.jsonl.gz`, best of three):
the Quiz page pays it once per server.

Last line: `items_per_min <n>` (items graded per minute once Ray is up).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.batch import choose  # noqa: E402
from trainer.quiz.bank import DEFAULT_BANK, load_bank  # noqa: E402
from trainer.quiz.bankfile import write_bank  # noqa: E402
from trainer.quiz.building import DEFAULT_VARIANTS, persona_tasks  # noqa: E402

SHIPPED_ITEMS = 2000  # the size of the bank the estimate below is for


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--items", type=int, default=24)
    ap.add_argument("--rollouts", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--executor", choices=("auto", "ray", "local"), default="ray")
    args = ap.parse_args(argv)
    executor = choose(args.executor, args.jobs, None)
    tasks = list(persona_tasks(args.items, seed=args.seed, variants=DEFAULT_VARIANTS))
    ray_start = 0.0
    if executor == "ray":
        import ray

        t0 = time.perf_counter()
        ray.init(num_cpus=args.jobs, include_dashboard=False, logging_level=logging.WARNING,
                 log_to_driver=False)
        ray_start = time.perf_counter() - t0
    try:
        with tempfile.TemporaryDirectory() as folder, \
                tqdm(total=len(tasks), unit="item", file=sys.stderr) as bar:
            t0 = time.perf_counter()
            bank = write_bank(tasks, Path(folder) / "bench.jsonl", header={},
                              rollouts=args.rollouts, executor=executor, jobs=args.jobs,
                              progress=lambda done, _: bar.update(done - bar.n))
            seconds = time.perf_counter() - t0
    finally:
        if executor == "ray":
            ray.shutdown()
    per_min = 60 * len(bank.items) / seconds
    where = f"Ray, {args.jobs} processes" if executor == "ray" else "this process only"
    print(f"executor: {where}; {args.rollouts} rollouts per option")
    print(f"items: {len(bank.items)} of {len(tasks)} tasks")
    print(f"Ray start-up: {ray_start:.1f} s" if executor == "ray" else "Ray start-up: none")
    print(f"grading: {seconds:.1f} s, {seconds / max(1, len(bank.items)):.2f} s per item")
    print(f"a {SHIPPED_ITEMS}-item bank at this rate: "
          f"{SHIPPED_ITEMS / per_min:.0f} min")
    loads = []
    for _ in range(3):
        t0 = time.perf_counter()
        shipped = load_bank(DEFAULT_BANK)
        loads.append(time.perf_counter() - t0)
    print(f"shipped bank: {len(shipped.items)} items, {DEFAULT_BANK.stat().st_size / 1e6:.2f} MB "
          f"compressed, read in {min(loads):.2f} s")
    print(f"items_per_min {per_min:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
