"""Where batches of games are played: in this process, in local worker processes, or on Ray.

Every backend takes a plan and a list of ``(start, stop)`` batches and yields
``(start, records)`` as batches finish, in any order; the caller puts them back in order.
Ray is imported only by :func:`run_ray`, so it stays an optional extra
(``pip install boneyard[ray]``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .runner import Plan, SimulationError, play_batch

Batch = tuple[int, int]
Done = tuple[int, list[dict[str, Any]]]


def run_inline(plan: Plan, work: Sequence[Batch]) -> Iterator[Done]:
    """Play the batches one after another in this process."""
    for start, stop in work:
        yield start, play_batch(plan, start, stop)


def _context() -> Any:
    import multiprocessing

    # forkserver: workers start from a clean process, not a fork of one running threads
    # (the progress bar's); spawn where forkserver does not exist.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def run_local(plan: Plan, work: Sequence[Batch], workers: int) -> Iterator[Done]:
    """Play the batches on ``workers`` local processes (inline when ``workers`` is 1)."""
    if workers <= 1:
        yield from run_inline(plan, work)
        return
    # Imported here: ``import boneyard`` should not pay for the process machinery.
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    pending = list(reversed(work))
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        running: dict[Future[list[dict[str, Any]]], int] = {}

        def submit() -> None:
            # Keep a few batches queued per worker so memory stays bounded on huge runs.
            while pending and len(running) < 3 * workers:
                start, stop = pending.pop()
                running[pool.submit(play_batch, plan, start, stop)] = start

        try:
            submit()
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    start = running.pop(future)
                    yield start, future.result()
                submit()
        finally:
            # Stopped early (an error, Ctrl-C): drop the queued batches instead of playing them.
            pool.shutdown(wait=True, cancel_futures=True)


def ray_module() -> Any:
    """The ``ray`` module, or ``SimulationError`` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise SimulationError(
            "the ray backend needs Ray: pip install 'boneyard[ray]' (or pip install 'ray>=2.9')"
        ) from None
    return ray


def run_ray(plan: Plan, work: Sequence[Batch], workers: int, address: str | None = None) -> Iterator[Done]:
    """Play the batches as Ray tasks.

    An already initialised Ray is used as it is. Otherwise Ray connects to ``address``
    (or ``RAY_ADDRESS``) when one is given, else starts a local Ray with ``workers`` CPUs,
    and is shut down again at the end. The cluster's workers must have boneyard installed.
    """
    ray = ray_module()
    started = False
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        started = True
    running: dict[Any, int] = {}
    try:
        task = ray.remote(num_cpus=1)(play_batch)
        plan_ref = ray.put(plan)
        pending = list(reversed(work))
        limit = 3 * max(1, workers)
        while pending or running:
            while pending and len(running) < limit:
                start, stop = pending.pop()
                running[task.remote(plan_ref, start, stop)] = start
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                start = running.pop(ref)
                yield start, ray.get(ref)
    finally:
        for ref in running:  # stopped early: do not leave batches running
            ray.cancel(ref)
        if started:
            ray.shutdown()


def _local(plan: Plan, work: Sequence[Batch], workers: int, address: str | None) -> Iterator[Done]:
    return run_local(plan, work, workers)


def _ray(plan: Plan, work: Sequence[Batch], workers: int, address: str | None) -> Iterator[Done]:
    return run_ray(plan, work, workers, address)


# backend name -> runner(plan, batches, workers, address)
BACKENDS_RUN: dict[str, Callable[[Plan, Sequence[Batch], int, str | None], Iterator[Done]]] = {
    "local": _local,
    "ray": _ray,
}
