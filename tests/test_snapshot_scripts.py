"""scripts/extraction_snapshot.py and scripts/layout_snapshot.py: the before/after checks
for changes to extraction, and to the layout reader and the normalizer, that should
change nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from quotelocate.normalize import PRESETS

REPO = Path(__file__).resolve().parent.parent
EXTRACTION = REPO / "scripts" / "extraction_snapshot.py"
LAYOUT = REPO / "scripts" / "layout_snapshot.py"


def _run(script: Path, *args: str, papers: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "QUOTELOCATE_PAPERS": str(papers), "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, env=env, cwd=cwd)


def test_an_extraction_snapshot_compares_equal_and_names_what_differs(tmp_path):
    papers = tmp_path / "papers"
    papers.mkdir()
    first = _run(EXTRACTION, "--out", "before.json", papers=papers, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    snap = json.loads((tmp_path / "before.json").read_text())
    assert sorted(snap) == ["synthetic.pdf/in-process", "synthetic.pdf/workers"]
    assert snap["synthetic.pdf/in-process"] == snap["synthetic.pdf/workers"]  # both ways, one document
    same = _run(EXTRACTION, "--compare", "before.json", papers=papers, cwd=tmp_path)
    assert same.returncode == 0 and same.stdout.strip().endswith("2 extractions compared, 0 differ")
    snap["synthetic.pdf/workers"] = "0" * 64
    (tmp_path / "changed.json").write_text(json.dumps(snap))
    changed = _run(EXTRACTION, "--compare", "changed.json", papers=papers, cwd=tmp_path)
    assert changed.returncode == 1
    assert "differs: synthetic.pdf/workers" in changed.stdout and "1 differ" in changed.stdout


def test_a_layout_snapshot_covers_each_part_compares_equal_and_names_what_differs(tmp_path):
    papers = tmp_path / "papers"
    papers.mkdir()
    first = _run(LAYOUT, "--out", "before.json", papers=papers, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    snap = json.loads((tmp_path / "before.json").read_text())
    parts = ["roles", "furniture", "reading order", *(f"normalized {name}" for name in PRESETS)]
    assert sorted(snap) == sorted(f"synthetic.pdf/{part}" for part in parts)
    # the presets normalize differently, so their parts differ
    assert len({snap[f"synthetic.pdf/normalized {name}"] for name in PRESETS}) == len(PRESETS)
    same = _run(LAYOUT, "--compare", "before.json", papers=papers, cwd=tmp_path)
    assert same.returncode == 0 and same.stdout.strip().endswith(f"{len(parts)} layout parts compared, 0 differ")
    snap["synthetic.pdf/reading order"] = "0" * 64
    (tmp_path / "changed.json").write_text(json.dumps(snap))
    changed = _run(LAYOUT, "--compare", "changed.json", papers=papers, cwd=tmp_path)
    assert changed.returncode == 1
    assert "differs: synthetic.pdf/reading order" in changed.stdout and "1 differ" in changed.stdout


@pytest.mark.parametrize("script", [EXTRACTION, LAYOUT], ids=["extraction", "layout"])
def test_an_earlier_snapshot_is_never_replaced(tmp_path, script):
    (tmp_path / "before.json").write_text("{}")
    done = _run(script, "--out", "before.json", papers=tmp_path, cwd=tmp_path)
    assert done.returncode == 2 and "already exists" in done.stderr and "Traceback" not in done.stderr
    assert (tmp_path / "before.json").read_text() == "{}"
