"""``quotelocate locate FOLDER --quotes FILE``: a batch of quotes over many papers, one
task per paper, in local worker processes or on a Dask cluster.

Each quote line names its ``paper``, a file name in the folder. The quotes are grouped
by paper; each task opens its paper (through the extraction cache), builds one
Locator, locates its quotes and returns the JSON records ``locate --json`` prints.
The records come back in the order of the input. Only JSON crosses between processes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..chunks import Chunking
from ..errors import ConfigError, QuoteInputError
from ..limits import Limits
from ..normalize import Rules


def locate_task(task: Mapping[str, Any]) -> list[dict]:
    """Locate the quotes of one paper (a task dict, see :func:`locate_corpus`); the
    records ``locate --json`` prints for them, in the task's order."""
    from ..document import Document
    from ..extraction_cache import ExtractionCache
    from ..locate import Locator
    from .cli import verdict_record

    cache = ExtractionCache(task["cache_dir"]) if task.get("cache_dir") else None
    doc = Document.open(
        task["paper_path"],
        allow_textless_pages=task["allow_textless_pages"],
        limits=Limits(*task["limits"]),
        cache=cache,
    )
    locator = Locator(doc, Rules.from_dict(task["rules"]), chunking=Chunking(**task["chunking"]))
    out = []
    for item in task["quotes"]:
        try:
            verdict = locator.locate(item["quote"], cited_chunk=item["cited_chunk"], scope=task["scope"])
        except ConfigError as exc:
            raise QuoteInputError(f"{task['source']}: line {item['line']}: {exc}") from None
        record = verdict_record(verdict, qid=item["id"], locator=locator)
        out.append(record)
    return out


def locate_corpus(
    folder: str | os.PathLike,
    items: Sequence[Mapping[str, Any]],
    *,
    source: str,
    rules: Rules,
    chunking: Chunking,
    scope: str | None,
    limits: Limits,
    allow_textless_pages: bool,
    cache_dir: str | None,
    workers: int,
    cluster: str | None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict]:
    """The records of every quote in ``items`` (each with ``paper``, a file in
    ``folder``), in input order, one task per paper."""
    root = Path(folder)
    groups: dict[str, list[int]] = {}
    for i, item in enumerate(items):
        paper = item.get("paper")
        if not isinstance(paper, str) or not paper or Path(paper).name != paper or paper in (".", ".."):
            raise QuoteInputError(
                f"{source}: line {item['line']}: 'paper' must be the file name of a paper in {root} "
                f"(a quote batch over a folder names each quote's paper)"
            )
        if not (root / paper).is_file():
            raise QuoteInputError(f"{source}: line {item['line']}: paper {paper!r} is not in {root}")
        groups.setdefault(paper, []).append(i)
    tasks = [
        {
            "paper_path": str((root / paper).resolve()),
            "quotes": [dict(items[i]) for i in idx],
            "rules": rules.to_dict(),
            "chunking": {"size": chunking.size, "overlap": chunking.overlap, "group_size": chunking.group_size},
            "scope": scope,
            "limits": [limits.seconds, limits.memory_mb, limits.max_pages, limits.max_file_bytes],
            "allow_textless_pages": allow_textless_pages,
            "cache_dir": cache_dir,
            "source": source,
        }
        for paper, idx in groups.items()
    ]
    if cluster is not None:
        from ..evaluation.dask_runner import run_on_dask

        results = run_on_dask(cluster, locate_task, tasks, progress=progress)
    else:
        results = _run_local(tasks, workers, progress)
    records: list[dict | None] = [None] * len(items)
    for idx, recs in zip(groups.values(), results):
        for i, rec in zip(idx, recs):
            records[i] = rec
    return [r for r in records if r is not None]


def _run_local(
    tasks: list[dict],
    workers: int,
    progress: Callable[[int, int], None] | None,
    fn: Callable[[Mapping[str, Any]], Any] = locate_task,
) -> list:
    """``fn`` (default :func:`locate_task`) of every task, in task order, on ``workers``
    local processes (0: one per CPU), the largest papers first."""
    from ..pool import file_weight, run_tasks

    n = min(workers or (os.cpu_count() or 1), len(tasks))
    return run_tasks(fn, tasks, n, weights=[file_weight(t["paper_path"]) for t in tasks], progress=progress)
