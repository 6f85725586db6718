"""The notebooks run top to bottom on the embedded ``synthetic`` set, are committed
without outputs, and only use the public ``quotelocate`` API."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
NAMES = [p.name for p in NOTEBOOKS]


def test_the_two_notebooks_exist():
    assert {"tune_rules.ipynb", "time_savings.ipynb"} <= set(NAMES)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: a code cell has outputs; clear them before committing"
            assert cell.execution_count is None, f"{path.name}: a code cell has an execution count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_imports_only_public_api_and_defines_nothing(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source)
        for node in ast.walk(tree):
            assert not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Lambda)), (
                f"{path.name}: notebooks hold no logic of their own; move it into quotelocate"
            )
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] in {"quotelocate", "os"}, node.module
                assert not any(a.name.startswith("_") for a in node.names), f"{path.name}: private import"
                assert not any(part.startswith("_") for part in node.module.split(".")), node.module


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_executes_on_the_synthetic_set(path, tmp_path, monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setenv("QUOTELOCATE_SET", "synthetic")
    monkeypatch.setenv("QUOTELOCATE_REPEATS", "1")
    monkeypatch.setenv("QUOTELOCATE_PAPERS", os.environ.get("QUOTELOCATE_PAPERS", str(REPO.parent / "shared" / "papers")))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=240,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "\n".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    if path.name == "time_savings.ipynb":
        assert "of the time spent with exact" in text
    # nothing was written back: the committed file still has no outputs
    assert all(not c.get("outputs") for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
