"""The README's "What quotelocate guarantees" section: every sentence names tests, and
every test it names exists (pytest collects it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NODE = re.compile(r"`(tests/[\w/]+\.py::[^`\s]+)`")


def _section() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("## What quotelocate guarantees")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _items() -> list[str]:
    return [item.strip() for item in re.split(r"\n- ", _section())[1:]]


def test_every_guarantee_names_a_test():
    items = _items()
    assert len(items) >= 10
    for item in items:
        assert NODE.search(item), f"names no test: {item[:80]}"


def test_every_named_test_exists():
    nodes = sorted({m.group(1) for m in NODE.finditer(_section())})
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *nodes],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    collected = result.stdout
    for node in nodes:
        assert node in collected or any(line.startswith(node + "[") for line in collected.splitlines()), node


def test_a_missing_test_would_be_caught():
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "tests/test_cases.py::test_case[text_unicode:no-such-case]"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode != 0
