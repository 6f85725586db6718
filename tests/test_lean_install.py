"""`pip install quotelocate` with no extras: the locator and `quotelocate locate` work,
and an evaluation command says which extra it needs.

The wheel is built from this checkout and installed into a fresh virtualenv without
touching the network: its only third-party packages are the core dependencies, linked
from the test environment (numpy, pymupdf, rapidfuzz and regex, no pandas, statsmodels,
Streamlit or PyYAML's evaluation users).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SYNTHETIC_PDF = REPO / "datasets" / "synthetic" / "synthetic.pdf"
CORE = ("numpy", "pymupdf", "fitz", "rapidfuzz", "regex")
"""Top-level packages (with their .libs and .dist-info) the lean environment may see."""


def _site_entries() -> list[Path]:
    site = Path(sysconfig.get_paths()["purelib"])
    out = []
    for entry in site.iterdir():
        stem = entry.name.split("-")[0].split(".")[0].lower()
        if stem in CORE:
            out.append(entry)
    return out


@pytest.fixture(scope="module")
def lean(tmp_path_factory):
    root = tmp_path_factory.mktemp("lean")
    # nothing of this checkout may leak in: a PYTHONPATH pointing at it would make pip
    # in the fresh environment think quotelocate is installed already
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "QUOTELOCATE_PAPERS")}
    dist = root / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(dist), str(REPO)],
        check=True, capture_output=True, text=True,
    )
    (wheel,) = dist.glob("quotelocate-*.whl")
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True, text=True, env=environ, cwd=root)
    deps = root / "core-deps"
    deps.mkdir()
    for entry in _site_entries():
        (deps / entry.name).symlink_to(entry)
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True, env=environ, cwd=root).stdout.strip()
    Path(site, "core-deps.pth").write_text(str(deps) + "\n", encoding="utf-8")
    return python, env_dir / "bin" / "quotelocate", wheel, environ, root


def test_the_wheel_holds_the_package_and_nothing_else(lean):
    _, _, wheel, _, _ = lean
    names = zipfile.ZipFile(wheel).namelist()
    assert "quotelocate/locate.py" in names and "quotelocate/interface/cli.py" in names
    assert "quotelocate/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "datasets/", "benchmarks/"))]


def test_no_extra_is_installed(lean):
    python, _, _, environ, root = lean
    probe = "import importlib.util as u; print([m for m in ('pandas', 'statsmodels', 'streamlit', 'altair', 'tqdm') if u.find_spec(m)])"
    out = subprocess.run([python, "-c", probe], check=True, capture_output=True, text=True, env=environ, cwd=root).stdout
    assert out.strip() == "[]"


def test_the_library_locates_a_quote(lean):
    python, _, _, environ, root = lean
    probe = (
        "from quotelocate import Document, Locator, preset\n"
        f"doc = Document.open({str(SYNTHETIC_PDF)!r})\n"
        "v = Locator(doc, preset('recommended')).locate('Sparse Lattice Attention for Tide Forecasting')\n"
        "print(v.accepted, v.status, v.page)\n"
        "import quotelocate, sys\n"
        "print(quotelocate.__file__)\n"
    )
    out = subprocess.run([python, "-c", probe], check=True, capture_output=True, text=True, env=environ, cwd=root).stdout
    lines = out.splitlines()
    assert lines[0] == "True exact 1"
    assert str(REPO) not in lines[1]  # the installed wheel, not this checkout


def test_the_command_line_locates_a_quote(lean):
    _, quotelocate, _, environ, root = lean
    done = subprocess.run([quotelocate, "locate", str(SYNTHETIC_PDF), "Sparse Lattice Attention for Tide Forecasting"],
                          capture_output=True, text=True, env=environ, cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ACCEPTED")


@pytest.mark.parametrize("argv", [["eval", "synthetic"], ["runs"], ["report", "1"]])
def test_an_evaluation_command_names_the_extra(lean, argv):
    _, quotelocate, _, environ, root = lean
    done = subprocess.run([quotelocate, *argv], capture_output=True, text=True, env=environ, cwd=root)
    assert done.returncode == 2
    assert "quotelocate[eval]" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


_GEOMETRY_PROBE = (
    "import hashlib, json, sys\n"
    "from quotelocate import Document\n"
    "out = []\n"
    "for path in sys.argv[1:]:\n"
    "    for isolate in (True, False):\n"
    "        doc = Document.open(path, isolate=isolate)\n"
    "        boxes = [[ln.bbox, ln.spans] for ln in doc.lines]\n"
    "        chars = [doc.char_box(o) for o in range(0, len(doc.text), 97)]\n"
    "        out.append(hashlib.sha256(json.dumps([doc.text, boxes, chars]).encode()).hexdigest())\n"
    "print(json.dumps(out))\n"
)


def test_line_and_glyph_boxes_do_not_depend_on_what_else_is_installed(lean):
    """pymupdf's glyph-box switches are process-wide and left to whoever set them last
    (pymupdf4llm, installed with the layout model in the test extra, turns the ascender
    corrections off when imported): the lean install, without it, must draw the same
    line and character boxes as this one, or the reading order and the highlighted
    boxes of a verdict would change with the extras."""
    python, _, _, environ, root = lean
    from conftest import paper_path

    papers = [str(SYNTHETIC_PDF), str(paper_path("acl2020_specter.pdf"))]
    here = subprocess.run([sys.executable, "-c", _GEOMETRY_PROBE, *papers], check=True, capture_output=True, text=True)
    there = subprocess.run([python, "-c", _GEOMETRY_PROBE, *papers], check=True, capture_output=True, text=True,
                           env=environ, cwd=root)
    probe = "import importlib.util as u; print(bool(u.find_spec('pymupdf4llm')))"
    assert subprocess.run([python, "-c", probe], check=True, capture_output=True, text=True, env=environ,
                          cwd=root).stdout.strip() == "False"
    assert there.stdout == here.stdout
    assert len(set(json.loads(here.stdout)[:2])) == 1  # isolated and in-process agree
