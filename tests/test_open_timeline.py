"""The open-timeline diagnostic patches the extraction module's own functions: a rename
there must show here, not as a script that prints nothing useful."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_open_timeline_shows_every_step_of_the_caller_and_of_each_worker():
    paper = REPO / "datasets" / "synthetic" / "synthetic.pdf"
    run = subprocess.run([sys.executable, str(REPO / "benchmarks" / "open_timeline.py"), str(paper), "--opens", "2"],
                         capture_output=True, text=True, timeout=120, cwd=REPO)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 3, run.stdout
    for timeline in lines[:2]:
        workers = set(re.findall(r"worker (\d+) encode_reply", timeline))
        assert len(workers) >= 1
        for pid in workers:
            for step in ("open_checked", "extract_pages", "encode_reply"):
                assert f"worker {pid} {step} " in timeline, (pid, step, timeline)
            assert re.search(rf"caller read \d+ from {pid} ", timeline), timeline
        for step in ("start", "sent", "decode_replies", "assemble", "end"):
            assert f"caller {step} " in timeline, (step, timeline)
    assert re.fullmatch(r"median over 2 opens: a reply encoded to the caller reading it [\d.]+ ms; "
                        r"the last reply encoded to the end of the open [\d.]+ ms", lines[2]), lines[2]
