"""Start-up time of the command line, as a ratio to a bare Python interpreter.

In one run, interleaved round by round, the median wall time of:
* ``python -c pass`` (the floor every command pays);
* ``quotelocate --version``;
* ``quotelocate locate synthetic.pdf QUOTE`` (open a PDF, index it, locate one quote).

Target: ``--version`` within 3x bare Python. Run from the repository with the project's
virtualenv: ``python benchmarks/startup_bench.py [--repeats N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PDF = REPO / "datasets" / "synthetic" / "synthetic.pdf"
QUOTE = "Sparse Lattice Attention for Tide Forecasting"


def _wall(argv: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    script = shutil.which("quotelocate", path=str(Path(sys.executable).parent)) or shutil.which("quotelocate")
    if script is None:
        sys.exit("the quotelocate command is not installed in this environment")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "quotelocate --version": [script, "--version"],
        "quotelocate locate (synthetic PDF)": [script, "locate", str(PDF), QUOTE],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for name, cmd in commands.items():  # warm the file cache once
        _wall(cmd)
    for _ in range(args.repeats):
        for name, cmd in commands.items():
            times[name].append(_wall(cmd))
    base = statistics.median(times["python -c pass"])
    res = {
        "repeats": args.repeats,
        "cpus": os.cpu_count(),
        "median_s": {name: statistics.median(t) for name, t in times.items()},
    }
    res["ratio_to_python"] = {name: m / base for name, m in res["median_s"].items()}
    if args.json:
        print(json.dumps(res, indent=2))
        return
    print(f"median wall time over {args.repeats} interleaved rounds")
    for name, m in res["median_s"].items():
        print(f"  {name:38s} {1000 * m:8.1f} ms   {res['ratio_to_python'][name]:5.1f}x bare Python")
    print("  target: quotelocate --version <= 3x bare Python")


if __name__ == "__main__":
    main()
