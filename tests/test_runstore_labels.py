"""Runs a team can live with: names, notes, tags and deletion in the run store, the
schema-1 -> 2 migration that never loses or rewrites a stored run, and review timings."""

from __future__ import annotations

import sqlite3

import pytest

from quotelocate import Document
from quotelocate.data.quoteset import Anchor, Quote, QuoteSet
from quotelocate.errors import RunStoreError
from quotelocate.evaluation import evaluate
from quotelocate.evaluation.runstore import SCHEMA_VERSION, RunStore

TEXT = "The tide model predicts the water level at every gauge.\nIt was trained on ten years of records."
SCHEMA_1 = """
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, set_name TEXT NOT NULL,
    set_hash TEXT NOT NULL, paper_sha256 TEXT NOT NULL, text_sha256 TEXT NOT NULL, fingerprints TEXT NOT NULL,
    package_version TEXT NOT NULL, pymupdf_version TEXT NOT NULL, machine TEXT NOT NULL, metrics TEXT NOT NULL,
    frames TEXT NOT NULL, meta TEXT NOT NULL);
CREATE TABLE verdicts (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, config TEXT NOT NULL,
    fingerprint TEXT NOT NULL, quote_id TEXT NOT NULL, label TEXT NOT NULL, tags TEXT NOT NULL,
    accepted INTEGER NOT NULL, status TEXT NOT NULL, cause TEXT NOT NULL, rules TEXT NOT NULL, scope TEXT NOT NULL,
    start INTEGER, "end" INTEGER, page INTEGER, anchor_ok INTEGER, latency_ms REAL, text TEXT NOT NULL,
    PRIMARY KEY (run_id, config, quote_id));
CREATE INDEX runs_by_set ON runs (set_name, created);
PRAGMA user_version = 1;
"""
"""The run store as schema 1 created it (what stores in the field hold)."""


@pytest.fixture(scope="module")
def ev():
    doc = Document.from_text(TEXT, name="tide.txt")
    start = TEXT.index("It was")
    quotes = [
        Quote(id="f1", text="It was trained on ten years of records.", tags=("plain",),
              anchor=Anchor(page=1, start=start, end=len(TEXT), text=TEXT[start:])),
        Quote(id="f2", text="predicts the water level at every  gauge. It was", tags=("linebreak",),
              anchor=Anchor(page=1, start=15, end=start + 6, text=TEXT[15 : start + 6])),
        Quote(id="x1", text="It was trained on twenty years of records.", label="fabricated", tags=("number",)),
    ]
    return evaluate(QuoteSet.from_quotes(quotes, document=doc, name="tide"), ["exact", "recommended"])


def _dump(path) -> list:
    with sqlite3.connect(path) as con:
        return [con.execute("SELECT * FROM runs ORDER BY id").fetchall(),
                con.execute("SELECT * FROM verdicts ORDER BY rowid").fetchall()]


def test_runs_have_a_name_notes_and_tags_and_are_listed_by_name(tmp_path, ev):
    store = RunStore(tmp_path / "runs.sqlite3")
    first = store.save(ev, name="before the layout change", notes="baseline for the PR", tags=["baseline", "v7"])
    second = store.save(ev)
    runs = store.list_runs().set_index("id")
    assert runs.loc[first, "title"] == "before the layout change" and runs.loc[first, "tags"] == "baseline,v7"
    assert runs.loc[second, "title"] == f"run {second}" and runs.loc[second, "name"] == ""
    store.label(second, name="after", tags=["candidate"])
    assert store.info(second) == {"id": second, "name": "after", "title": "after", "notes": "", "tags": ["candidate"]}
    store.label(second, notes="layout on")  # other fields stay
    assert store.info(second)["name"] == "after" and store.info(second)["notes"] == "layout on"
    with pytest.raises(RunStoreError, match="one line"):
        store.label(first, name="two\nlines")
    with pytest.raises(RunStoreError, match="without commas"):
        store.save(ev, tags=["a,b"])
    assert list(store.list_runs().id) == [first, second]  # the refused save stored nothing


def test_delete_removes_a_run_with_its_verdicts_only(tmp_path, ev):
    path = tmp_path / "runs.sqlite3"
    store = RunStore(path)
    keep, drop = store.save(ev, name="keep"), store.save(ev, name="drop")
    store.delete(drop)
    assert list(store.list_runs().id) == [keep]
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM verdicts WHERE run_id = ?", (drop,)).fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM run_info WHERE run_id = ?", (drop,)).fetchone()[0] == 0
    assert len(store.load(keep).verdicts) == len(ev.verdicts)
    with pytest.raises(RunStoreError, match=f"no run {drop}"):
        store.delete(drop)


def test_a_schema_1_store_is_migrated_without_touching_its_runs(tmp_path, ev):
    path = tmp_path / "runs.sqlite3"
    with sqlite3.connect(path) as con:
        con.executescript(SCHEMA_1)
        con.execute(
            "INSERT INTO runs (created, set_name, set_hash, paper_sha256, text_sha256, fingerprints, package_version, "
            "pymupdf_version, machine, metrics, frames, meta) VALUES ('2026-01-01T00:00:00+00:00', 'tide', 'h', 'p', "
            "'t', '{\"exact\": \"ql1-x\"}', '0.1.0', '2.0', 'm', '[]', '{}', '{\"n_quotes\": 1}')")
        con.execute(
            "INSERT INTO verdicts VALUES (1, 'exact', 'ql1-x', 'q1', 'faithful', 'plain', 1, 'exact', '', '', "
            "'document', 0, 5, 1, 1, 0.5, 'The t')")
    before = _dump(path)
    store = RunStore(path)
    # reading an old store changes nothing and shows the old run unnamed
    assert store.list_runs().loc[0, "title"] == "run 1"
    assert store.load(1).verdicts.loc[0, "diff"] == ""
    assert _dump(path) == before
    # the first write migrates: new tables and column, the old run's rows as they were
    second = store.save(ev, name="new")
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert {"run_info", "review_times"} <= {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        old_runs = con.execute("SELECT * FROM runs WHERE id = 1").fetchall()
        old_verdicts = con.execute("SELECT * FROM verdicts WHERE run_id = 1").fetchall()
    assert old_runs == before[0]
    assert old_verdicts == [(*row, "", "") for row in before[1]]  # the added columns (diff, paper) read as their default
    store.label(1, name="from the old store")
    assert list(store.list_runs().title) == ["from the old store", "new"]
    assert store.load(second).verdicts["diff"].tolist() == ev.verdicts["diff"].tolist()
    store.check()


def test_review_times_are_recorded_and_checked(tmp_path):
    store = RunStore(tmp_path / "runs.sqlite3")
    assert store.review_times().empty
    store.record_review(set_name="tide", paper_sha256="p", quote_id="f1", anchor_shown=True, seconds=12.5,
                        decision="accept")
    store.record_review(set_name="tide", paper_sha256="p", quote_id="f2", anchor_shown=False, seconds=70.0,
                        decision="reject")
    t = store.review_times()
    assert list(t.anchor_shown) == [True, False] and list(t.seconds) == [12.5, 70.0]
    for bad in (0, -3, float("nan"), True):
        with pytest.raises(RunStoreError, match="not a duration"):
            store.record_review(set_name="tide", paper_sha256="p", quote_id="f1", anchor_shown=True, seconds=bad,
                                decision="accept")
    with pytest.raises(RunStoreError, match="decision"):
        store.record_review(set_name="tide", paper_sha256="p", quote_id="f1", anchor_shown=True, seconds=3,
                            decision="maybe")
    assert len(store.review_times()) == 2


def test_the_diff_of_a_rejection_is_stored_with_its_verdict(ev):
    v = ev.verdicts.set_index(["config", "id"])
    assert v.loc[("recommended", "x1"), "diff"] == "It was trained on t{+w+}en{+ty+} years of records."
    assert v.loc[("recommended", "f1"), "diff"] == ""


def test_corrupt_tags_are_a_clear_error(tmp_path, ev):
    path = tmp_path / "runs.sqlite3"
    store = RunStore(path)
    rid = store.save(ev, name="x", tags=["a"])
    with sqlite3.connect(path) as con:
        con.execute("UPDATE run_info SET tags = '{not json' WHERE run_id = ?", (rid,))
    with pytest.raises(RunStoreError, match=f"run {rid}: stored tags are corrupt"):
        store.list_runs()
