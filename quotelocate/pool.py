"""Running one task per paper in local worker processes.

:func:`run_tasks` starts the pool once (forked where the platform can, so the workers
inherit the imported modules), gives it the heaviest tasks first so a large paper does
not start last and leave one worker finishing alone, and returns the results in task
order. Each worker extracts its own papers, so each tells the extraction to use one
extraction worker rather than one per core: the pool already uses the cores, and
nested workers would only crowd them. With one worker the tasks run here, one after another.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

Progress = Callable[[int, int], None]
"""``progress(tasks done, tasks)``."""


def _init_worker(children: int) -> None:
    from .document import set_extraction_children

    set_extraction_children(children)


def run_tasks(
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    workers: int,
    *,
    weights: Sequence[float] | None = None,
    progress: Progress | None = None,
) -> list[Any]:
    """``[fn(t) for t in tasks]`` on ``workers`` processes (1 or fewer: here);
    ``weights``: the expected cost of each task (say its file size), heaviest first."""
    total = len(tasks)
    n = min(workers, total)
    if n <= 1:
        out = []
        for i, task in enumerate(tasks, start=1):
            out.append(fn(task))
            if progress is not None:
                progress(i, total)
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    order = sorted(range(total), key=lambda i: -weights[i]) if weights is not None else range(total)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: dict[int, Any] = {}
    with ProcessPoolExecutor(
        max_workers=n, mp_context=ctx, initializer=_init_worker, initargs=(max(1, min(2, cores // n)),)
    ) as pool:
        futures = {pool.submit(fn, tasks[i]): i for i in order}
        for done, fut in enumerate(as_completed(futures), start=1):
            results[futures[fut]] = fut.result()
            if progress is not None:
                progress(done, total)
    return [results[i] for i in range(total)]


def file_weight(path: str) -> float:
    """A task's weight from its paper's size in bytes (0 when it cannot be read)."""
    try:
        return float(os.path.getsize(path))
    except OSError:
        return 0.0
