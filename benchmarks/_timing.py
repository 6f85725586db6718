"""Timing helpers shared by the benchmark scripts: medians over repeated runs."""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable


def timed(fn: Callable[[], Any], repeats: int, *, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median seconds of ``repeats`` calls of ``fn``, wall-clock by default; pass
    ``clock=time.process_time`` for this process's CPU time (steadier on a busy machine,
    blind to child processes)."""
    times = []
    for _ in range(repeats):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times)
