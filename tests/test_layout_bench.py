"""benchmarks/layout_bench.py over the corpus: several runs say in how many each target
was met (a target met on the line counts as met), and an option that needs --corpus is
refused without it."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "layout_bench.py"


def _module():
    spec = importlib.util.spec_from_file_location("layout_bench", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd, env={**os.environ, "XDG_CACHE_HOME": str(cwd / "cache")})


def test_runs_summary_counts_the_runs_that_met_each_target() -> None:
    bench = _module()
    results = [{"median_ratio": m, "worst_ratio": w} for m, w in ((1.9, 2.5), (2.0, 3.0), (2.01, 3.2))]
    summary = bench.runs_summary(results)
    assert (summary["runs"], summary["median_met"], summary["worst_met"]) == (3, 2, 2)
    assert summary["medians"] == [1.9, 2.0, 2.01] and summary["worsts"] == [2.5, 3.0, 3.2]


def test_several_corpus_runs_give_each_run_and_the_count(tmp_path: Path) -> None:
    run = _run("--corpus", "--runs", "2", "--repeats", "1", "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    medians, worsts = summary["medians"], summary["worsts"]
    assert summary["runs"] == len(medians) == len(worsts) == 2
    assert all(0 < m <= w for m, w in zip(medians, worsts))
    assert summary["median_met"] == sum(m <= 2 for m in medians)
    assert summary["worst_met"] == sum(w <= 3 for w in worsts)


def test_the_runs_are_printed_one_a_line_then_the_counts(capsys) -> None:
    bench = _module()
    bench.print_runs(bench.runs_summary([{"median_ratio": 1.9, "worst_ratio": 2.5},
                                         {"median_ratio": 2.04, "worst_ratio": 3.1}]), repeats=9)
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "corpus, 2 runs, median of 9 rounds per paper in each (wall clock)",
        "  run 1: median 1.90x, worst 2.50x",
        "  run 2: median 2.04x, worst 3.10x",
        "  median <= 2x in 1 of 2 runs (1.90-2.04x); worst <= 3x in 1 of 2 runs (2.50-3.10x)",
    ]


def test_runs_without_the_corpus_is_refused(tmp_path: Path) -> None:
    run = _run("--runs", "2", cwd=tmp_path)
    assert run.returncode == 2
    assert "--runs goes with --corpus" in run.stderr
