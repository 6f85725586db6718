"""benchmarks/build_ab.py loads an older checkout's package beside this one and times the
two layout builds in alternation: it must run, name each paper, and refuse a folder
that holds no package with a message instead of a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "build_ab.py"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env={**os.environ, "XDG_CACHE_HOME": str(cwd / "cache")})


def test_this_checkout_against_itself_gives_a_ratio_per_paper(tmp_path):
    run = _run(str(REPO), "--paper", "1706.03762v7.pdf", "--repeats", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    row = re.search(r"^  1706\.03762v7\.pdf +([\d.]+) +([\d.]+) +([\d.]+)$", run.stdout, re.M)
    assert row, run.stdout
    old, new, ratio = map(float, row.groups())
    assert old > 0 and new > 0 and ratio > 0
    assert re.search(r"median new/old over the papers: [\d.]+; sum of the new medians / sum of the old: [\d.]+$",
                     run.stdout.strip())


def test_with_open_it_times_the_default_open_and_the_build_of_what_it_opened(tmp_path):
    run = _run(str(REPO), "--paper", "1706.03762v7.pdf", "--repeats", "2", "--open", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("default open + layout build, median of 2 interleaved rounds per paper")
    row = re.search(r"^  1706\.03762v7\.pdf +([\d.]+) +([\d.]+) +([\d.]+)$", run.stdout, re.M)
    assert row and all(float(v) > 0 for v in row.groups()), run.stdout


def test_a_folder_without_the_package_is_refused_by_name(tmp_path):
    run = _run(str(tmp_path), "--paper", "1706.03762v7.pdf", cwd=tmp_path)
    assert run.returncode != 0
    assert f"{tmp_path}: no quotelocate package there" in run.stderr and "Traceback" not in run.stderr


def test_with_extract_it_times_the_in_process_open_alone(tmp_path):
    run = _run(str(REPO), "--paper", "1706.03762v7.pdf", "--repeats", "2", "--extract", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("in-process open, median of 2 interleaved rounds per paper")
    assert re.search(r"^  1706\.03762v7\.pdf +[\d.]+ +[\d.]+ +[\d.]+$", run.stdout, re.M), run.stdout
