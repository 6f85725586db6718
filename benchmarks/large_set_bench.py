"""Loading a large quote set: time and peak memory against the synthetic paper.

Writes a set of N quotes (default 100,000: the synthetic set's quotes without their
notes, repeated under new ids, faithful ones with their anchors, so every anchor is
checked against the paper; 30 MB, within the 32 MB limit for a set) in a temporary
folder beside a copy of ``synthetic.pdf``, then loads it with
:func:`~quotelocate.data.quoteset.load_quote_set` in a fresh process and reports that
process's wall-clock time, CPU time and peak resident memory (``ru_maxrss``), which
include starting Python, importing the package and opening the paper. Target: under
30 s and under 1 GB. On a busy machine wall-clock time includes waiting for a core;
CPU time does not.

    python benchmarks/large_set_bench.py [--quotes N] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from quotelocate.data.quoteset import load_quote_set, quote_set_yaml  # noqa: E402

SYNTH = REPO / "datasets" / "synthetic"
TARGET_S = 30.0
TARGET_MB = 1024.0

LOAD = """
import resource, sys, time
t = time.perf_counter()
from quotelocate.data.quoteset import load_quote_set
qs = load_quote_set(sys.argv[1])
elapsed = time.perf_counter() - t
u = resource.getrusage(resource.RUSAGE_SELF)
print(len(qs.quotes), elapsed, u.ru_maxrss / 1024, u.ru_utime + u.ru_stime)
"""


def write_set(folder: Path, n: int) -> Path:
    base = load_quote_set(SYNTH / "synthetic.yaml")
    quotes = [replace(q, id=f"{q.id}.{i // len(base.quotes)}", note="") for i, q in zip(range(n), _cycle(base.quotes))]
    text = quote_set_yaml(name="large", description=f"{n} quotes for the load benchmark", paper=base.paper,
                          quotes=quotes, chunking=base.chunking)
    shutil.copy(SYNTH / "synthetic.pdf", folder / base.paper.file)
    path = folder / "large.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _cycle(items):
    while True:
        yield from items


def measure(path: Path) -> dict:
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", LOAD, str(path)], capture_output=True, text=True, cwd=REPO,
                         env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "QUOTELOCATE_PAPERS": str(path.parent)})
    wall = time.perf_counter() - t
    if out.returncode != 0:
        raise SystemExit(out.stderr[-2000:])
    quotes, load_s, rss_mb, cpu_s = out.stdout.split()
    return {"quotes": int(quotes), "bytes": path.stat().st_size, "load_s": round(float(load_s), 2),
            "process_s": round(wall, 2), "process_cpu_s": round(float(cpu_s), 2), "peak_rss_mb": round(float(rss_mb), 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quotes", type=int, default=100_000)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="quotelocate-large-") as tmp:
        path = write_set(Path(tmp), args.quotes)
        result = measure(path)
    result["holds"] = result["process_s"] < TARGET_S and result["peak_rss_mb"] < TARGET_MB
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['quotes']:,} quotes, {result['bytes'] / 2**20:.1f} MB of YAML: loaded in {result['load_s']:.1f} s "
              f"({result['process_s']:.1f} s with the process start, {result['process_cpu_s']:.1f} s of CPU), peak {result['peak_rss_mb']:.0f} MB"
              f" -> {'meets' if result['holds'] else 'misses'} the target (< {TARGET_S:.0f} s, < {TARGET_MB:.0f} MB)")
    return 0 if result["holds"] else 1


if __name__ == "__main__":
    sys.exit(main())
