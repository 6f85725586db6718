"""A valid run store whose JSON columns hold the wrong type: every reader names the store
and the run in one line (``runs``, ``report``, ``compare``, the library) and the
workbench's Runs view shows the error and keeps working."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from quotelocate.data.quoteset import Quote, QuoteSet
from quotelocate.document import Document
from quotelocate.errors import RunStoreError
from quotelocate.evaluation import Evaluation, evaluate
from quotelocate.evaluation.runstore import RunStore
from quotelocate.interface.cli import main as cli_main

from _quote_sets import PAPER_TEXT

REPO = Path(__file__).resolve().parent.parent

# kind -> (column, wrong but valid JSON written there, the readers that must refuse it)
LOADS, LISTS = {"load", "compare", "report"}, {"list", "runs"}
WRONG = {
    "meta-list": ("meta", "[1, 2]", LOADS | LISTS),
    "meta-n-quotes-text": ("meta", '{"n_quotes": "many"}', LISTS),
    "fingerprints-list": ("fingerprints", "[1, 2]", LISTS),
    "fingerprints-string": ("fingerprints", '"ql1-0"', LISTS),
    "metrics-string": ("metrics", '"fast"', LOADS),
    "metrics-list-of-numbers": ("metrics", "[1, 2, 3]", LOADS),
    "metrics-wrong-value": ("metrics", '[{"false_reject_rate": {"a": 1}}]', LOADS),
    "frames-list": ("frames", "[]", LOADS),
    "frames-by-tag-number": ("frames", '{"by_tag": 5}', LOADS),
}


@pytest.fixture(scope="module")
def small_run() -> Evaluation:
    doc = Document.from_text(PAPER_TEXT, name="paper.txt")
    quotes = [Quote(id=f"x{i}", text=f"nothing like this {i} is in the paper", label="fabricated",
                    tags=("invented-tail",)) for i in range(20)]
    return evaluate(QuoteSet.from_quotes(quotes, document=doc, name="small"), ["exact"], repeats=1)


def _store(tmp_path: Path, small_run: Evaluation, kind: str) -> Path:
    path = tmp_path / "runs.sqlite3"
    store = RunStore(path)
    store.save(small_run)
    store.save(small_run)
    column, value, _ = WRONG[kind]
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE runs SET {column} = ? WHERE id = 2", (value,))
    db.close()
    return path


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return cli_main(list(argv), out=out, err=err), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("kind", list(WRONG))
def test_wrong_type_json_is_an_error_naming_store_and_run(tmp_path, small_run, kind):
    path = _store(tmp_path, small_run, kind)
    refusing = WRONG[kind][2]
    library = {"load": lambda s: s.load(2), "compare": lambda s: s.compare(1, 2), "list": RunStore.list_runs}
    for name, call in library.items():
        if name not in refusing:
            continue
        with pytest.raises(RunStoreError) as info:
            call(RunStore(path))
        message = str(info.value)
        assert message.startswith(f"{path}: run 2: ") and "\n" not in message, (name, message)
    assert RunStore(path).load(1).metrics is not None  # the good run still loads
    commands = {"compare": ["compare", "1", "2", "--store", str(path)],
                "report": ["report", "2", "--store", str(path), "--out", str(tmp_path / "r.html")],
                "runs": ["runs", "--store", str(path)]}
    for name, argv in commands.items():
        if name not in refusing:
            continue
        code, _, err = _cli(*argv)
        assert code == 2, (argv, err)
        assert err.count("\n") == 1 and f"{path}: run 2: " in err and "Traceback" not in err, (argv, err)


def test_the_workbench_runs_view_names_the_bad_run_and_keeps_working(tmp_path, small_run, monkeypatch):
    from streamlit.testing.v1 import AppTest

    path = _store(tmp_path, small_run, "metrics-list-of-numbers")
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(path))
    monkeypatch.chdir(REPO)
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120).run()
    at.session_state["view"] = "Runs"
    at.run()
    assert not at.exception
    assert "That run could not be loaded." in [e.value for e in at.error]
    assert any(f"{path}: run 2: " in c.value for c in at.code)
    at.selectbox(key="run_pick").select(1).run()  # the good run still shows
    assert not at.exception and "That run could not be loaded." not in [e.value for e in at.error]
