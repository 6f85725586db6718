"""Evaluating a set of many papers with one task per paper, in parallel.

Each task opens one paper of the set (through the extraction cache, when there is one),
evaluates every config on it with :func:`~quotelocate.evaluation.run.evaluate`, and
returns that evaluation as JSON; :func:`~quotelocate.evaluation.run.combine` then makes
the set's evaluation from them. Extraction happens where the task runs, so it is
parallel too, and nothing but a small JSON task and a JSON result crosses between
processes.

Tasks run in local worker processes by default (``workers``, 0 for one per CPU), or on
a Dask distributed cluster (``cluster="dask://HOST:PORT"``; see
:mod:`quotelocate.evaluation.dask_runner`). A cluster's workers must see the set file
and the papers at the paths this process sees them (a shared file system), and have
quotelocate installed.

>>> task = PaperTask(set_path="/sets/corpus.yaml", paper="specter", configs={}, scope=None, repeats=1)
>>> PaperTask.from_json(task.to_json()) == task
True
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Mapping, Sequence

from ..data.quoteset import load_quote_set, set_outline
from ..errors import ConfigError, DatasetError
from ..extraction_cache import DEFAULT_MAX_BYTES, ExtractionCache
from ..normalize import PRESETS, Rules
from .configs import ConfigsArg, resolve_configs
from .locating import _check_workers
from .result import Evaluation
from .run import combine, evaluate
from .savings import SavingsAssumptions

Progress = Callable[[int, int], None]
"""``progress(papers done, papers)``."""

CLUSTER_ENV = "DASK_SCHEDULER_ADDRESS"
"""The scheduler used when no cluster is named (Dask's own variable)."""


@dataclass(frozen=True)
class PaperTask:
    """Everything a worker needs to evaluate one paper of a set; plain JSON values only."""

    set_path: str
    paper: str
    configs: Mapping[str, Mapping[str, Any]]
    scope: str | None
    repeats: int
    papers_path: tuple[str, ...] | None = None
    cache_dir: str | None = None
    cache_max_bytes: int = DEFAULT_MAX_BYTES
    baseline: str = "exact"

    def to_json(self) -> dict:
        d = asdict(self)
        d["configs"] = {k: dict(v) for k, v in self.configs.items()}
        d["papers_path"] = list(self.papers_path) if self.papers_path is not None else None
        return d

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PaperTask":
        d = dict(data)
        if d.get("papers_path") is not None:
            d["papers_path"] = tuple(d["papers_path"])
        return cls(**d)


def run_paper(task: Mapping[str, Any]) -> dict:
    """Evaluate one paper (a :meth:`PaperTask.to_json` dict): ``{"evaluation", "seconds",
    "cache": {"hits", "misses", "dropped"}, "pid"}``. Runs in a worker process or on a
    Dask worker; raises what :func:`load_quote_set` and :func:`evaluate` raise."""
    t = PaperTask.from_json(task)
    t0 = time.perf_counter()
    cache = ExtractionCache(t.cache_dir, max_bytes=t.cache_max_bytes) if t.cache_dir else None
    qs = load_quote_set(t.set_path, papers_path=list(t.papers_path) if t.papers_path else None, paper=t.paper, cache=cache)
    named = {name: Rules.from_dict(dict(d)) for name, d in t.configs.items()}
    ev = evaluate(qs, named, scope=t.scope, repeats=t.repeats, savings=SavingsAssumptions(baseline=t.baseline))
    return {
        "evaluation": ev.to_json(),
        "seconds": time.perf_counter() - t0,
        "cache": {"hits": cache.hits, "misses": cache.misses, "dropped": cache.dropped} if cache else None,
        "pid": os.getpid(),
    }


def evaluate_corpus(
    quote_set: str | os.PathLike,
    configs: ConfigsArg = None,
    *,
    scope: str | None = None,
    repeats: int = 3,
    papers_path: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
    workers: int = 0,
    cluster: str | None = None,
    cache: ExtractionCache | None = None,
    savings: SavingsAssumptions = SavingsAssumptions(),
    progress: Progress | None = None,
) -> Evaluation:
    """Evaluate every paper of ``quote_set`` (a set name or path) as its own task and
    combine the results; the same frames as :func:`evaluate` gives for the whole set.

    ``workers``: local processes (0: one per CPU; 1: in this process). ``cluster``:
    ``dask://HOST:PORT`` (or ``tcp://``) runs the tasks on that Dask scheduler instead.
    ``cache``: the extraction cache the tasks open papers through (by folder, so local
    processes share it). ``meta["parallel"]`` records where the tasks ran, their
    process ids and the cache hits.
    """
    if cluster is not None and not isinstance(cluster, str):
        raise ConfigError(f"cluster: expected an address such as dask://HOST:PORT, got {cluster!r}")
    outline = set_outline(quote_set)
    named = resolve_configs(configs)
    if savings.baseline not in named:
        if savings.baseline not in PRESETS:
            raise ConfigError(f"savings.baseline: {savings.baseline!r} is neither an evaluated config nor a preset")
        named[savings.baseline] = PRESETS[savings.baseline]
    if papers_path is None:
        folders = None
    elif isinstance(papers_path, (str, os.PathLike)):
        folders = tuple(p for p in os.fspath(papers_path).split(os.pathsep) if p)
    else:
        folders = tuple(os.fspath(p) for p in papers_path)
    if folders is not None:
        folders = tuple(os.path.abspath(f) for f in folders)
    tasks = [
        PaperTask(
            set_path=str(outline.path),
            paper=pid,
            configs={name: rules.to_dict() for name, rules in named.items()},
            scope=scope,
            repeats=repeats,
            papers_path=folders,
            cache_dir=str(cache.path.resolve()) if cache is not None else None,
            cache_max_bytes=cache.max_bytes if cache is not None else DEFAULT_MAX_BYTES,
            baseline=savings.baseline,
        ).to_json()
        for pid in outline.labelled_paper_ids  # a paper whose quotes are all unreviewed has nothing to count
    ]
    if not tasks:
        raise DatasetError(
            f"{outline.path}: all {len(outline.quote_ids)} quotes are unreviewed; label some first "
            "(the workbench's Label view) to evaluate"
        )
    t0 = time.perf_counter()
    if cluster is not None:
        from .dask_runner import run_on_dask

        results = run_on_dask(cluster, run_paper, tasks, progress=progress)
        backend = {"backend": "dask", "scheduler": cluster}
    else:
        n = min(_check_workers(workers), len(tasks))
        results = _run_local(tasks, n, progress)
        backend = {"backend": "local", "workers": n}
    parts = [Evaluation.from_json(r["evaluation"]) for r in results]
    set_meta = {
        "set": outline.name,
        "set_path": str(outline.path),
        "set_hash": outline.set_hash,
        "unreviewed": len(outline.unreviewed_ids),
        "parallel": {
            **backend,
            "seconds": time.perf_counter() - t0,
            "paper_seconds": {t["paper"]: r["seconds"] for t, r in zip(tasks, results)},
            "pids": sorted({r["pid"] for r in results}),
            "cache": _sum_cache(results),
        },
    }
    return combine(parts, named=named, savings=savings, quote_order=outline.labelled_ids, set_meta=set_meta)


def _sum_cache(results: Sequence[dict]) -> dict | None:
    counts = [r["cache"] for r in results if r.get("cache")]
    if not counts:
        return None
    return {k: sum(c[k] for c in counts) for k in ("hits", "misses", "dropped")}


def _run_local(tasks: list[dict], workers: int, progress: Progress | None) -> list[dict]:
    """The tasks' results in task order, from ``workers`` forked processes (1: here)."""
    from ..pool import run_tasks

    return run_tasks(run_paper, tasks, workers, progress=progress)
