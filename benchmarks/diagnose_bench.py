"""Diagnosis latency against quote length on arXiv 1706.03762v7.

For each length (100 to 100,000 characters) a set of rejected quotes of four kinds is
located: a real passage with one character changed, a repeated phrase of the paper, the
paper's words in random order, and random letters. Every quote is rejected, so every
call runs the near-miss search. Two rule sets: ``recommended`` as shipped (a quote over
``max_chars`` = 5,000 characters is ``invalid`` at once), and ``recommended`` with the
length limit off (``max_chars=0``), which measures the search's own bound.

The locator and the diagnoser's probe copies are built before timing
(``Diagnoser.prepare``); that one-time cost is reported on its own. Reports p50 and p99
wall-clock and CPU milliseconds per length (wall-clock includes waiting for a busy
machine; CPU time does not); target: p99 under 50 ms at every length.

    python benchmarks/diagnose_bench.py [--paper PATH] [--quotes N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from quotelocate import Document, Locator, preset  # noqa: E402
from quotelocate.data.papers import find_paper  # noqa: E402
from quotelocate.diagnose import Diagnoser  # noqa: E402

LENGTHS = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
TARGET_MS = 50.0


def quotes_of_length(text: str, length: int, count: int, rng: random.Random) -> list[str]:
    words = text.split()
    flat = " ".join(words)
    out = []
    for n in range(count):
        kind = n % 4
        if kind == 0:  # a real passage (repeated when the paper is shorter) with one change
            source = flat * (length // len(flat) + 2)
            s = rng.randrange(0, len(flat))
            q = source[s : s + length]
            mid = len(q) // 2
            q = q[:mid] + ("X" if q[mid] != "X" else "Y") + q[mid + 1 :]
        elif kind == 1:  # a phrase of the paper, repeated
            s = rng.randrange(0, len(words) - 6)
            q = ((" ".join(words[s : s + 5]) + " ") * (length // 10 + 2))[:length]
        elif kind == 2:  # the paper's words in random order
            q = " ".join(rng.choice(words) for _ in range(length // 3))[:length]
        else:
            q = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz    ") for _ in range(length))
        out.append(q.strip())
    return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default=None, help="PDF (default: 1706.03762v7.pdf on the papers search path)")
    ap.add_argument("--quotes", type=int, default=40, help="quotes per length (default 40)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    path = Path(args.paper) if args.paper else find_paper("1706.03762v7.pdf")
    if path is None:
        print("1706.03762v7.pdf is not on the papers search path (QUOTELOCATE_PAPERS)", file=sys.stderr)
        return 2
    doc = Document.open(path)
    configs = {"recommended": preset("recommended"), "recommended, max_chars=0": preset("recommended").replace(max_chars=0)}
    result = {"paper": path.name, "target_ms": TARGET_MS, "configs": {}}
    for name, rules in configs.items():
        loc = Locator(doc, rules)
        t = time.perf_counter()
        loc._diag = Diagnoser(loc).prepare()
        prepare_ms = (time.perf_counter() - t) * 1000
        rng = random.Random(7)
        rows = []
        for length in LENGTHS:
            wall, cpu, causes = [], [], {}
            for q in quotes_of_length(doc.text, length, args.quotes, rng):
                t, c = time.perf_counter(), time.process_time()
                v = loc.locate(q)
                wall.append((time.perf_counter() - t) * 1000)
                cpu.append((time.process_time() - c) * 1000)
                if v.accepted:
                    raise SystemExit(f"benchmark quote of length {length} was accepted: {q[:80]!r}")
                causes[v.cause] = causes.get(v.cause, 0) + 1
            rows.append({
                "length": length, "quotes": len(wall),
                "p50_ms": round(pct(wall, 50), 2), "p99_ms": round(pct(wall, 99), 2),
                "cpu_p50_ms": round(pct(cpu, 50), 2), "cpu_p99_ms": round(pct(cpu, 99), 2),
                "causes": causes,
            })
        worst = max(r["p99_ms"] for r in rows)
        worst_cpu = max(r["cpu_p99_ms"] for r in rows)
        result["configs"][name] = {"prepare_ms": round(prepare_ms, 1), "rows": rows, "worst_p99_ms": worst,
                                   "worst_cpu_p99_ms": worst_cpu, "met": worst < TARGET_MS}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for name, res in result["configs"].items():
            print(f"{path.name}, {name}: probe copies built once in {res['prepare_ms']:.1f} ms")
            print(f"{'length':>8} {'p50 ms':>8} {'p99 ms':>8} {'cpu p50':>8} {'cpu p99':>8}  causes")
            for r in res["rows"]:
                print(f"{r['length']:>8} {r['p50_ms']:>8} {r['p99_ms']:>8} {r['cpu_p50_ms']:>8} {r['cpu_p99_ms']:>8}  {r['causes']}")
            print(f"worst p99 {res['worst_p99_ms']} ms wall, {res['worst_cpu_p99_ms']} ms CPU; "
                  f"target < {TARGET_MS:.0f} ms: {'met' if res['met'] else 'NOT met'} (wall)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
