"""Locating every quote of a set under one config: timed, in this process or in a pool.

Both the evaluation and the ablation go through here, so a quote is located the same
way (scope, cited chunk, warm-up) whatever asks for it. A set that spans several papers
is located one paper at a time: each paper has its own Locator (and its own chunks).
"""

from __future__ import annotations

import os
import time
from statistics import median
from typing import Callable

from ..data.quoteset import Quote, QuoteSet
from ..errors import ConfigError
from ..locate import Locator
from ..normalize import Rules

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as quotes x configs are located."""


def _scope_for(q: Quote, scope: str | None) -> str:
    if q.cited_chunk is None:
        return "document"
    return scope or "group"


def _locator(quote_set: QuoteSet, rules: Rules) -> Locator:
    return Locator(quote_set.document(), rules, chunking=quote_set.chunking, chunks=quote_set.explicit_chunks)


_WARMUP = "quotelocate warm-up probe: this sentence is not in any paper at all"


def _run_config(
    quote_set: QuoteSet,
    name: str,
    rules: Rules,
    *,
    scope: str | None,
    repeats: int,
    tick: Callable[[int], None],
) -> tuple[list[tuple], float, list[float]]:
    """(verdict rows, index build seconds, total locate seconds of each timing repeat)."""
    loc = _locator(quote_set, rules)
    build_s = loc.build_seconds
    loc.locate(_WARMUP)
    fp = rules.fingerprint
    rows: list[tuple] = []
    totals = [0.0] * repeats
    perf = time.perf_counter
    for i, q in enumerate(quote_set.quotes):
        qscope = _scope_for(q, scope)
        cited = q.cited_chunk if qscope != "document" else None
        times = []
        v = None
        for _ in range(repeats):
            t0 = perf()
            v = loc.locate(q.text, cited_chunk=cited, scope=qscope)
            times.append(perf() - t0)
        assert v is not None
        for r, t in enumerate(times):
            totals[r] += t
        anchor_ok = None
        a = q.anchor
        if q.faithful and v.accepted and a is not None:
            anchor_ok = bool(v.start is not None and v.start < a.end and a.start < v.end and a.page in v.pages)
        rows.append(
            (
                name,
                fp,
                q.id,
                q.label,
                ",".join(q.tags),
                v.accepted,
                v.status,
                v.cause or "",
                ",".join(v.rules),
                qscope,
                v.start,
                v.end,
                v.page,
                anchor_ok,
                1000.0 * (times[0] if repeats == 1 else median(times)),
                q.text,
                v.near_miss.diff_text() if v.near_miss is not None else "",  # after the timing: not timed
                quote_set.paper_id,
            )
        )
        tick(i + 1)
    return rows, build_s, totals


# -- optional process parallelism (one config per task) ----------------------------------

_WORKER_SET: QuoteSet | None = None


def _worker_init(quote_set: QuoteSet) -> None:
    global _WORKER_SET
    _WORKER_SET = quote_set


def _worker_run(task: tuple[str, str, Rules, str | None, int]) -> tuple[str, str, list[tuple], float, list[float]]:
    """One (paper, config) pair of the set the worker inherited."""
    paper_id, name, rules, scope, repeats = task
    assert _WORKER_SET is not None
    part = _WORKER_SET.for_paper(paper_id)
    rows, build_s, totals = _run_config(part, name, rules, scope=scope, repeats=repeats, tick=lambda i: None)
    return paper_id, name, rows, build_s, totals


def _worker_accepts(task: tuple[Rules, str | None]) -> list[bool]:
    assert _WORKER_SET is not None
    return _accepts(_WORKER_SET, task[0], task[1])


def _pool(quote_set: QuoteSet, workers: int):  # -> concurrent.futures.ProcessPoolExecutor
    """A process pool whose workers inherit the parsed paper (fork), or receive it once
    pickled where fork is unavailable."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init, initargs=(quote_set,))


def _check_workers(workers: int) -> int:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise ConfigError(f"workers: expected a whole number >= 0 (0: one per CPU), got {workers!r}")
    return workers or (os.cpu_count() or 1)


def _accepts(quote_set: QuoteSet, rules: Rules, scope: str | None) -> list[bool]:
    """Whether each quote of the set is accepted, in the set's quote order."""
    by_id: dict[str, bool] = {}
    for part in quote_set.parts:
        loc = _locator(part, rules)
        for q in part.quotes:
            qscope = _scope_for(q, scope)
            cited = q.cited_chunk if qscope != "document" else None
            by_id[q.id] = loc.locate(q.text, cited_chunk=cited, scope=qscope).accepted
    return [by_id[q.id] for q in quote_set.quotes]
