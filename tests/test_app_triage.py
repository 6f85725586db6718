"""The workbench's Triage view, driven in-process with ``streamlit.testing.v1.AppTest``:
an uploaded outputs file gives the distributions, the ranked review
list with the page of a selected item, and the false-reject estimate; a bad or
oversized file gives an error and the session goes on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from quotelocate.interface import workbench
from test_app import metric, ok  # the workbench tests' own helpers

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
OUTPUTS = REPO / "tests" / "data" / "triage-outputs.jsonl"
SYNTHETIC = str(REPO / "datasets" / "synthetic")
INJECTED = "<img src=x onerror=alert(1)> the tide **bold** $x$"


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(tmp_path / "runs.sqlite3"))
    monkeypatch.setenv("QUOTELOCATE_SETS", str(tmp_path / "sets"))
    monkeypatch.chdir(REPO)
    # the outputs name papers by file name, found on the server's papers search path
    shared = os.environ.get("QUOTELOCATE_PAPERS", str(REPO.parent / "shared" / "papers"))
    monkeypatch.setenv("QUOTELOCATE_PAPERS", shared + os.pathsep + SYNTHETIC)



def triage_view(data: bytes | None = None, name: str = "outputs.jsonl") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({"view": "Triage"})
    ok(at.run())
    if data is not None:
        at.get("file_uploader")[0].set_value((name, data, "application/octet-stream"))
        ok(at.run())
    return at


def texts(at: AppTest) -> str:
    return "\n".join([t.value for t in at.text] + [c.value for c in at.code])


def test_triage_view_shows_distributions_ranked_list_page_and_estimate():
    at = triage_view(OUTPUTS.read_bytes())
    assert not at.error, [e.value for e in at.error]
    assert (metric(at, "Quotes"), metric(at, "Accepted"), metric(at, "Rejected"), metric(at, "To review")) == (
        "8", "3", "5", "5")
    assert metric(at, "Estimated false-reject rate") == "33.3% [6.1, 79.2]"
    assert metric(at, "Labelled sample") == "5 (3 faithful)"
    frames = [df.value for df in at.dataframe]
    per_paper = frames[0]
    assert per_paper.loc[0, "paper"] == "synthetic.pdf" and per_paper.loc[0, "not-found"] == 3
    ranked = next(f for f in frames if "rank" in f.columns)
    assert list(ranked["id"]) == ["gauges", "case", "added", "fallback", "outside"]
    assert list(ranked["kind"]) == ["near-miss"] * 3 + ["group-fallback", "outside-material"]
    # the first item is selected: its closest passage, the diff and the page with the passage highlighted
    shown = texts(at)
    assert "On a benchmark of 41 gauges" in shown and "4[-1-]{+4+}" in shown
    images = at.get("image")
    assert len(images) == 1 and images[0].proto.imgs[0].caption == "page 1: closest passage highlighted"
    plain = images[0].proto.imgs[0].url
    at.selectbox(key="triage_rank").set_value(5)
    ok(at.run())
    shown = texts(at)
    assert "#5 outside-material · outside (line 3)" in shown and "Passage found, page 2:" in shown
    assert at.get("image")[0].proto.imgs[0].caption == "page 2: passage highlighted"
    outside_page = at.get("image")[0].proto.imgs[0].url
    assert outside_page != plain
    at.toggle(key="triage_overlay").set_value(True)
    ok(at.run())
    assert at.get("image")[0].proto.imgs[0].url != outside_page and not at.error  # the overlay is drawn


def test_triage_view_reads_a_csv_and_shows_quotes_literally():
    csv = ("paper,quote,id\n" f'synthetic.pdf,"{INJECTED}",inj\n').encode("utf-8")
    at = triage_view(csv, "out.csv")
    assert not at.error, [e.value for e in at.error]
    assert metric(at, "Rejected") == "1"
    assert any(INJECTED in c.value for c in at.code)  # shown as code, never as Markdown or HTML
    assert all(INJECTED not in m.value for m in at.markdown)
    assert "cannot be estimated" in texts(at)


@pytest.mark.parametrize("data, name, expected", [
    (b'{"paper": "synthetic.pdf", "quote": "a quote"}\n{"paper": 3, "quote": "q"}\n', "mine.jsonl",
     "mine.jsonl: line 2: 'paper' is required"),
    (b'paper,quote\nnowhere.pdf,"a quote of words"\n', "mine.csv", "line 2: paper 'nowhere.pdf' is not on"),
    (b"\xff\xfe", "mine.csv", "mine.csv: line 1: not valid UTF-8"),
])
def test_a_bad_outputs_file_shows_an_error_naming_the_line_and_the_session_goes_on(data, name, expected):
    at = triage_view(data, name)
    shown = "\n".join([e.value for e in at.error] + [c.value for c in at.code])
    assert at.error and expected in shown
    assert "outputs-" not in shown  # the staged path on the server is never shown
    at.get("file_uploader")[0].set_value(("good.jsonl", OUTPUTS.read_bytes(), "application/octet-stream"))
    ok(at.run())
    assert not at.error and metric(at, "Quotes") == "8"


def test_an_oversized_outputs_upload_is_refused_before_it_is_written(monkeypatch, tmp_path):
    monkeypatch.setattr(workbench, "MAX_UPLOAD_BYTES", 100)
    at = triage_view(OUTPUTS.read_bytes())
    assert "exceeds the upload limit" in "\n".join(e.value for e in at.error) + texts(at)
    folder = at.session_state["_upload_dir"] if "_upload_dir" in at.session_state else None  # no .get on it
    assert folder is None or not list(Path(folder).glob("outputs-*"))


def test_the_view_reads_no_path_typed_by_a_visitor():
    """A shared workbench must not read files on the server for a visitor: the outputs
    come only as an upload, the papers only from the server's search path."""
    at = triage_view()
    assert not at.text_input and not at.radio
    assert at.get("file_uploader")


def test_load_outputs_upload_stages_under_a_fixed_name(tmp_path):
    records = workbench.load_outputs_upload(tmp_path, OUTPUTS.read_bytes(), "../../evil name.jsonl")
    assert len(records) == 8
    staged = [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()]
    assert len(staged) == 1 and staged[0].startswith("outputs-") and staged[0].endswith("/outputs.jsonl")
    with pytest.raises(Exception, match="exceeds the upload limit"):
        workbench.load_outputs_upload(tmp_path / "other", b"x" * 10, "a.csv", max_bytes=5)
    assert not (tmp_path / "other").exists()
