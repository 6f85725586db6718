"""Corpus throughput: many papers, one task per paper, cold and warm extraction cache.

The corpus is every PDF on the papers search path's ``corpus/`` folder, the two
Attention copies and the synthetic paper, repeated in turn up to ``--docs`` documents
(200 by default). Each document gets ``--quotes`` quotes (half verbatim passages of its
own text, half the same passages with one digit or letter changed), located under
``recommended`` by :func:`quotelocate.interface.batch.locate_task`, the code behind
``quotelocate locate FOLDER --quotes``.

Reported, in one run: papers/s and quotes/s with no cache, with an empty cache (cold)
and with the cache filled (warm), for 1 and 2 local worker processes; the ratio of
the cold time per paper to pymupdf's raw extraction of the same files
(``page.get_text()`` on every page); the CPU seconds each run used (this process and
its workers), which a loaded machine inflates less than the wall time; the load average
before and after (``os.getloadavg()``: on a shared machine a 2-worker figure says little
when the load is above the cores); and each worker's peak resident memory (VmHWM) after
each of its papers, the first half of a worker's papers against the second half, to
show whether it grows with the corpus.

    python benchmarks/corpus_bench.py [--docs 200] [--quotes 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from quotelocate.data.papers import papers_search_path  # noqa: E402
from quotelocate.interface.batch import _run_local, locate_task  # noqa: E402
from quotelocate.limits import DEFAULT_LIMITS  # noqa: E402
from quotelocate.normalize import preset  # noqa: E402


def corpus_files() -> list[Path]:
    """The corpus PDFs, the Attention copies and the synthetic paper, each once."""
    files: list[Path] = []
    for folder in papers_search_path():
        pattern = "*.pdf" if folder.name == "corpus" else "1706.03762v*.pdf"
        for f in sorted(folder.glob(pattern)):
            if f.name not in {g.name for g in files}:
                files.append(f)
    synthetic = ROOT / "datasets" / "synthetic" / "synthetic.pdf"
    if synthetic.is_file():
        files.append(synthetic)
    return files


def quotes_for(path: Path, n: int, rng: random.Random) -> list[dict]:
    import pymupdf

    with pymupdf.open(path) as pdf:
        text = " ".join(" ".join(page.get_text().split()) for page in pdf)
    out = []
    for i in range(n):
        start = rng.randrange(0, max(1, len(text) - 200))
        start = text.find(" ", start) + 1
        passage = text[start : start + rng.randrange(60, 160)].rsplit(" ", 1)[0]
        if i % 2:
            j = next((k for k, ch in enumerate(passage) if ch.isdigit() or ch.isalpha()), 0)
            ch = passage[j]
            passage = passage[:j] + ("7" if ch.isdigit() and ch != "7" else "Q" if ch != "Q" else "R") + passage[j + 1 :]
        out.append({"id": f"{path.stem}-{i}", "quote": passage, "cited_chunk": None, "line": i + 1})
    return out


def tasks_for(files: list[Path], docs: int, n_quotes: int, cache_dir: str | None) -> list[dict]:
    rng = random.Random(1706)
    quotes = {f: quotes_for(f, n_quotes, rng) for f in files}
    rules = preset("recommended").to_dict()
    lim = DEFAULT_LIMITS
    return [
        {
            "paper_path": str(f),
            "quotes": quotes[f],
            "rules": rules,
            "chunking": {"size": 512, "overlap": 64, "group_size": 3},
            "scope": None,
            "limits": [lim.seconds, lim.memory_mb, lim.max_pages, lim.max_file_bytes],
            "allow_textless_pages": True,
            "cache_dir": cache_dir,
            "source": "corpus_bench",
        }
        for f in (files[i % len(files)] for i in range(docs))
    ]


def raw_extraction_seconds(files: list[Path], docs: int) -> float:
    import pymupdf

    t = time.perf_counter()
    for i in range(docs):
        with pymupdf.open(files[i % len(files)]) as pdf:
            for page in pdf:
                page.get_text()
    return time.perf_counter() - t


def _measured_task(task: dict) -> tuple[int, int]:
    """:func:`locate_task`, then (this process id, its peak resident memory in kB)."""
    locate_task(task)
    hwm = 0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    return os.getpid(), hwm


def _cpu() -> float:
    return sum(
        r.ru_utime + r.ru_stime
        for r in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN))
    )


def run(tasks: list[dict], workers: int) -> tuple[float, float, list[tuple[int, int]]]:
    """(wall seconds, CPU seconds, (pid, peak kB) after each task in order of completion)."""
    t, c = time.perf_counter(), _cpu()
    marks = _run_local(tasks, workers, None, fn=_measured_task)
    return time.perf_counter() - t, _cpu() - c, marks


def memory_growth(marks: list[tuple[int, int]]) -> dict:
    """Per worker: peak MB over its first half of papers and over all of them."""
    by_pid: dict[int, list[int]] = {}
    for pid, hwm in marks:
        by_pid.setdefault(pid, []).append(hwm)
    return {
        str(pid): {"papers": len(v), "first_half_peak_mb": v[max(len(v) // 2 - 1, 0)] / 1024, "final_peak_mb": v[-1] / 1024}
        for pid, v in by_pid.items()
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--quotes", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    files = corpus_files()
    if not files:
        raise SystemExit("no papers found: set QUOTELOCATE_PAPERS to the folder holding the papers and corpus/")
    load_before = os.getloadavg()
    raw = raw_extraction_seconds(files, args.docs)
    rows = []
    memory = {}
    for workers in (1, 2):
        cache_dir = tempfile.mkdtemp(prefix="quotelocate-bench-cache-")
        row: dict = {"workers": workers}
        try:
            cached = tasks_for(files, args.docs, args.quotes, cache_dir)
            # no cache; cold: an empty cache (a document repeated later in the run finds
            # its first copy's entry); warm: the cache the cold run filled
            for label, tasks in (("no_cache", tasks_for(files, args.docs, args.quotes, None)), ("cold", cached),
                                 ("warm", cached)):
                wall, cpu, marks = run(tasks, workers)
                row[f"{label}_s"], row[f"{label}_cpu_s"] = wall, cpu
                if label == "no_cache" and workers == 2:
                    memory = memory_growth(marks)
        finally:
            shutil.rmtree(cache_dir, ignore_errors=True)
        rows.append(row)
    n_quotes = args.docs * args.quotes
    result = {
        "documents": args.docs,
        "distinct_files": len(files),
        "quotes": n_quotes,
        "raw_extraction_s": raw,
        "runs": rows,
        "cold_vs_raw_per_paper": rows[0]["cold_s"] / raw,
        "no_cache_vs_raw_per_paper": rows[0]["no_cache_s"] / raw,
        "warm_speedup_vs_cold": rows[0]["cold_s"] / rows[0]["warm_s"],
        "warm_speedup_vs_cold_cpu": rows[0]["cold_cpu_s"] / rows[0]["warm_cpu_s"],
        "two_workers_speedup_no_cache": rows[0]["no_cache_s"] / rows[1]["no_cache_s"],
        "two_workers_cpu_ratio_no_cache": rows[1]["no_cache_cpu_s"] / rows[0]["no_cache_cpu_s"],
        "worker_memory_2_workers_no_cache": memory,
        "cpus": os.cpu_count(),
        "loadavg_before": load_before,
        "loadavg_after": os.getloadavg(),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.docs} documents ({len(files)} distinct files), {n_quotes} quotes, {os.cpu_count()} CPUs")
    print("load average before: {:.1f} {:.1f} {:.1f}; after: {:.1f} {:.1f} {:.1f}".format(
        *result["loadavg_before"], *result["loadavg_after"]))
    print(f"raw pymupdf extraction: {raw:.2f}s ({args.docs / raw:.1f} papers/s)")
    for r in rows:
        for label in ("no_cache", "cold", "warm"):
            s = r[f"{label}_s"]
            print(f"  {r['workers']} worker(s) {label:9s} {s:7.2f}s  {args.docs / s:6.2f} papers/s  "
                  f"{n_quotes / s:8.1f} quotes/s  CPU {r[f'{label}_cpu_s']:7.2f}s")
    print(f"cold vs raw extraction, per paper: {result['cold_vs_raw_per_paper']:.2f}x "
          f"(no cache: {result['no_cache_vs_raw_per_paper']:.2f}x)")
    print(f"warm vs cold: {result['warm_speedup_vs_cold']:.2f}x faster (CPU: {result['warm_speedup_vs_cold_cpu']:.2f}x)")
    print(f"2 workers vs 1 (no cache): {result['two_workers_speedup_no_cache']:.2f}x wall; "
          f"CPU 2 workers / 1 worker {result['two_workers_cpu_ratio_no_cache']:.2f}")
    for pid, m in memory.items():
        print(f"  worker {pid}: {m['papers']} papers, peak RSS {m['first_half_peak_mb']:.0f} MB after the first half, "
              f"{m['final_peak_mb']:.0f} MB at the end")


if __name__ == "__main__":
    main()
