"""Running many independent jobs (a bank build's positions, an end-game table's parts): on Ray
(this machine's cores, or a cluster), or one after the other in this process.

Why Ray: each job takes seconds (a position's rollouts, a table's solve) and the jobs are
independent, so a build scales with the processes given to it. Ray runs the same code on this
machine (`ray.init(num_cpus=...)`) and on a cluster (`ray.init(address=...)`, or the `RAY_ADDRESS`
variable), and hands results back as they finish (`ray.wait`), which is what lets the caller
save each one at once and show progress.

Why optional: Ray is a large install with its own processes and a few seconds of start-up, so
it is the `batch` extra (`pip install 'coup-trainer[batch]'`). Without it the `auto` executor
runs every job in this process: the app's small in-app build still works, only on one core.

On a cluster every node must be able to import `trainer` (the same version installed there),
since the jobs are module-level functions sent by reference.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

EXECUTORS = ("auto", "ray", "local")

K = TypeVar("K")
A = TypeVar("A")
R = TypeVar("R")

# One Ray run at a time per process: the app's sessions share the server's process, and one
# session's `ray.shutdown()` must not end another's cluster in the middle of its build.
_RAY_LOCK = threading.Lock()


class ExecutorError(RuntimeError):
    """An executor that cannot run here (Ray asked for but not installed, an unknown name)."""


def ray_available() -> bool:
    """True when Ray can be imported (without importing it: that alone takes a second)."""
    return importlib.util.find_spec("ray") is not None


def choose(executor: str, processes: int, address: str | None) -> str:
    """The executor `auto` stands for: Ray when it is installed and there is more than one
    process to use (or a cluster to reach), else this process, which saves Ray's start-up on
    a one-core build. An explicit choice is checked, not changed."""
    if executor not in EXECUTORS:
        raise ExecutorError(f"unknown executor {executor!r}; expected one of "
                            f"{', '.join(EXECUTORS)}")
    if executor == "local":
        if address is not None:
            raise ExecutorError("a cluster address needs the ray executor")
        return "local"
    if executor == "ray" or address is not None:
        if not ray_available():
            raise ExecutorError("Ray is not installed: pip install 'coup-trainer[batch]' "
                                "(or run with the local executor)")
        return "ray"
    return "ray" if processes > 1 and ray_available() else "local"


def run(fn: Callable[[A], R], jobs: Iterable[tuple[K, A]], *, executor: str = "auto",
        processes: int = 1, address: str | None = None) -> Iterator[tuple[K, R]]:
    """`(key, fn(arg))` for every `(key, arg)` of `jobs`, in the order they finish. `fn` must
    be a module-level function (Ray sends it by reference). Stopping early (an interrupt, or
    closing the iterator) stops the Ray cluster this call started; results already handed
    back are the caller's to keep."""
    kind = choose(executor, processes, address)
    if kind == "local":
        for key, arg in jobs:
            yield key, fn(arg)
        return
    yield from _run_on_ray(fn, jobs, processes, address)


def _run_on_ray(fn: Callable[[A], R], jobs: Iterable[tuple[K, A]], processes: int,
                address: str | None) -> Iterator[tuple[K, R]]:
    """Submit jobs a few at a time (twice the cluster's CPUs in flight, so an interrupt loses
    little queued work and memory stays flat), take each result as it finishes."""
    import ray

    with _RAY_LOCK:
        started = not ray.is_initialized()
        if started:
            ray.init(address=address, num_cpus=None if address else max(1, processes),
                     include_dashboard=False, logging_level=logging.WARNING,
                     log_to_driver=False)
        try:
            remote: Any = ray.remote(fn)
            api: Any = ray  # cluster_resources() is not typed
            cpus = int(api.cluster_resources().get("CPU", processes))
            limit = 2 * max(1, cpus)
            queue = iter(jobs)
            pending: dict[Any, K] = {}

            def submit() -> None:
                while len(pending) < limit:
                    job = next(queue, None)
                    if job is None:
                        return
                    pending[remote.remote(job[1])] = job[0]

            submit()
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    key = pending.pop(ref)
                    result: R = ray.get(ref)
                    yield key, result
                submit()
        finally:
            if started:
                ray.shutdown()
