"""The evaluation engine on a tiny in-memory set whose every verdict is known, the run
store (round trip, concurrent writers, corrupt files, crashes) and the eval commands."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import sqlite3

import pandas as pd
import pytest

from quotelocate.evaluation import runstore
from quotelocate.interface.cli import main
from quotelocate.data.quoteset import Anchor, Quote, QuoteSet, load_quote_set
from quotelocate.document import Document
from quotelocate.errors import ConfigError, RunStoreBusyError, RunStoreError
from quotelocate.evaluation.frames import (
    ABLATION_COLUMNS,
    BY_TAG_COLUMNS,
    METRIC_COLUMNS,
    SAVINGS_COLUMNS,
    VERDICT_COLUMNS,
)
from quotelocate.evaluation import (
    Evaluation,
    SavingsAssumptions,
    compare_evaluations,
    evaluate,
    wilson,
)
from quotelocate.normalize import preset
from quotelocate.evaluation.runstore import RunStore

from _quote_sets import write_tiny_set

TEXT = (
    "Attention is all you\nneed, the authors wrote.\f"
    "The model uses trans-\nduction and the \u2018making\u2019 step. "
    "Results are shown below. Results are shown below.\n"
)


def _anchor(raw: str, *, nth: int = 0) -> Anchor:
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(raw, start + 1)
    page = 1 + TEXT[:start].count("\f")
    return Anchor(page=page, start=start, end=start + len(raw), text=raw)


QUOTES = [
    Quote(id="f1", text="Attention is all you need", label="faithful", tags=("linebreak",), anchor=_anchor("Attention is all you\nneed")),
    Quote(id="f2", text="the authors wrote.", label="faithful", tags=("plain",), anchor=_anchor("the authors wrote.")),
    Quote(
        id="f3",
        text="uses transduction and the 'making' step",
        label="faithful",
        tags=("hyphen-drop", "smart-quote"),
        anchor=_anchor("uses trans-\nduction and the \u2018making\u2019 step"),
    ),
    # the text occurs twice; the anchor is the second occurrence, the locator finds the first
    Quote(id="f4", text="Results are shown below.", label="faithful", tags=("plain",), anchor=_anchor("Results are shown below.", nth=1)),
    Quote(id="x1", text="Attention is all you want", label="fabricated", tags=("word-swap",)),
    Quote(id="x2", text="uses transduction and the 'baking' step", label="fabricated", tags=("word-swap",), cited_chunk=0),
]

# accepted faithful quotes per config (everything else is rejected)
EXPECTED_ACCEPTED = {
    "exact": {"f2", "f4"},
    "whitespace": {"f1", "f2", "f4"},
    "recommended": {"f1", "f2", "f3", "f4"},
}


@pytest.fixture(scope="module")
def tiny() -> QuoteSet:
    return QuoteSet.from_quotes(QUOTES, document=Document.from_text(TEXT, name="tiny.txt"), name="tiny")


@pytest.fixture(scope="module")
def ev(tiny) -> Evaluation:
    return evaluate(tiny, ["exact", "whitespace", "recommended"], repeats=2, ablation=True)


def test_verdict_frame(ev):
    v = ev.verdicts
    assert list(v.columns) == list(VERDICT_COLUMNS)
    assert len(v) == 6 * 3
    for config, accepted in EXPECTED_ACCEPTED.items():
        rows = v[v.config == config]
        assert set(rows[rows.accepted].id) == accepted, config
        assert (rows.fingerprint == preset(config).fingerprint).all()
    rec = v[v.config == "recommended"].set_index("id")
    assert rec.loc["f3", "rules"] == "quotes,hyphenation:drop"
    assert rec.loc["f3", "status"] == "normalized" and rec.loc["f3", "page"] == 2
    assert rec.loc["f3", "start"] == QUOTES[2].anchor.start and rec.loc["f3", "end"] == QUOTES[2].anchor.end
    assert rec.loc["f3", "tags"] == "hyphen-drop,smart-quote"
    assert bool(rec.loc["f1", "anchor_ok"]) is True
    assert bool(rec.loc["f4", "anchor_ok"]) is False  # found, but not where the label says
    assert pd.isna(rec.loc["x1", "anchor_ok"])  # only accepted faithful quotes are scored
    assert rec.loc["x1", "cause"] != "" and rec.loc["f1", "cause"] == ""
    assert rec.loc["x2", "scope"] == "group" and rec.loc["x1", "scope"] == "document"
    assert (v.latency_ms > 0).all()


def test_metric_frame(ev):
    m = ev.metrics.set_index("config")
    assert list(ev.metrics.columns) == list(METRIC_COLUMNS)
    assert m.loc["exact", "n_faithful"] == 4 and m.loc["exact", "n_fabricated"] == 2
    for config, accepted in EXPECTED_ACCEPTED.items():
        rejected = 4 - len(accepted)
        rate, low, high = wilson(rejected, 4)
        assert m.loc[config, "false_reject"] == rate
        assert m.loc[config, "fr_low"] == pytest.approx(low) and m.loc[config, "fr_high"] == pytest.approx(high)
        assert m.loc[config, "false_accept"] == 0.0
        assert m.loc[config, "fa_high"] == pytest.approx(wilson(0, 2)[2])
        # f4 is accepted everywhere but always at the wrong occurrence
        assert m.loc[config, "anchor_accuracy"] == pytest.approx((len(accepted) - 1) / len(accepted))
    assert m.loc["recommended", "rules"] == preset("recommended").describe()
    for col in ("build_ms", "throughput_qps", "p50_ms", "p95_ms", "p99_ms"):
        assert (m[col] > 0).all(), col
    assert (m.p50_ms <= m.p95_ms).all() and (m.p95_ms <= m.p99_ms).all()
    v = ev.verdicts[ev.verdicts.config == "exact"]
    assert m.loc["exact", "throughput_qps"] == pytest.approx(len(v) / (v.latency_ms.sum() / 1000))
    # the spread over the two timing repeats: each repeat's quotes per second
    assert 0 < m.loc["exact", "qps_min"] <= m.loc["exact", "qps_max"] < float("inf")


def test_by_tag_frame(ev):
    t = ev.by_tag
    assert list(t.columns) == list(BY_TAG_COLUMNS)
    exact = t[t.config == "exact"].set_index(["label", "tag"])
    assert exact.loc[("faithful", "linebreak"), "n"] == 1 and exact.loc[("faithful", "linebreak"), "rate"] == 1.0
    assert exact.loc[("faithful", "plain"), "n"] == 2 and exact.loc[("faithful", "plain"), "rate"] == 0.0
    assert exact.loc[("faithful", "smart-quote"), "rate"] == 1.0
    assert exact.loc[("fabricated", "word-swap"), "n"] == 2 and exact.loc[("fabricated", "word-swap"), "rate"] == 0.0
    assert exact.loc[("faithful", "plain"), "high"] == pytest.approx(wilson(0, 2)[2])


def test_savings_frame(ev):
    s = ev.savings.set_index("config")
    assert list(ev.savings.columns) == list(SAVINGS_COLUMNS)
    a = SavingsAssumptions()
    share = 2 / 6
    base = a.cost(0.5, 0.0, share)
    rec = a.cost(0.0, 0.0, share)
    assert s.loc["recommended", "baseline"] == "exact"
    assert s.loc["recommended", "fabricated_share"] == pytest.approx(share)
    assert s.loc["recommended", "cost_s_per_quote"] == pytest.approx(rec)
    assert s.loc["recommended", "baseline_cost_s"] == pytest.approx(base)
    assert s.loc["recommended", "saving"] == pytest.approx(1 - rec / base)
    assert s.loc["recommended", "saving_low"] < s.loc["recommended", "saving"] < s.loc["recommended", "saving_high"]
    assert bool(s.loc["recommended", "holds"]) == (s.loc["recommended", "saving_low"] >= 0.6)


def test_ablation_frame(ev):
    a = ev.ablation
    assert list(a.columns) == list(ABLATION_COLUMNS)
    for side in ("faithful", "fabricated"):  # Holm never lowers a p-value and keeps their order
        raw, adj = a[f"mcnemar_p_{side}"], a[f"holm_p_{side}"]
        assert ((adj >= raw - 1e-12) | raw.isna()).all() and (adj <= 1).all()
        ordered = a.assign(raw=raw, adj=adj).dropna(subset=["raw"]).sort_values("raw")
        assert ordered["adj"].is_monotonic_increasing
    ws = a[a.config == "whitespace"].set_index("change")
    # whitespace off: f1 is lost (1 discordant pair -> exact McNemar p = 1)
    assert ws.loc["-whitespace", "false_reject"] == 0.5
    assert ws.loc["-whitespace", "d_false_reject"] == 0.25
    assert ws.loc["-whitespace", "mcnemar_p_faithful"] == 1.0
    assert ws.loc["-whitespace", "mcnemar_p_fabricated"] == 1.0
    rec = a[a.config == "recommended"].set_index("change")
    assert rec.loc["-quotes", "d_false_reject"] == 0.25  # f3 needs the quote marks folded
    assert "+layout" not in rec.index  # not a PDF
    assert set(rec.index) >= {"-furniture", "-invisible", "-unicode", "-hyphenation", "-whitespace", "-word_boundaries"}


def test_meta(ev, tiny):
    m = ev.meta
    for key in (
        "set", "set_hash", "paper_sha256", "text_sha256", "text_fingerprint", "package_version", "pymupdf_version",
        "python", "machine", "timestamp", "scope", "repeats", "configs", "fingerprints",
    ):  # fmt: skip
        assert key in m, key
    assert m["set"] == "tiny" and m["set_hash"] == tiny.set_hash and m["repeats"] == 2 and m["scope"] is None
    assert m["timestamp"].endswith("+00:00")
    assert ev.configs["recommended"] == preset("recommended")


def test_json_round_trip(ev):
    data = json.loads(json.dumps(ev.to_json(), allow_nan=False))
    back = Evaluation.from_json(data)
    for name in ("verdicts", "metrics", "by_tag", "savings", "ablation"):
        pd.testing.assert_frame_equal(getattr(ev, name), getattr(back, name), obj=name)
    assert back.meta == ev.meta
    with pytest.raises(ConfigError):
        Evaluation.from_json({"format": 99})


def test_workers_give_the_same_verdicts(tiny, ev):
    par = evaluate(tiny, ["exact", "whitespace", "recommended"], repeats=1, workers=2)
    cols = [c for c in VERDICT_COLUMNS if c != "latency_ms"]
    pd.testing.assert_frame_equal(par.verdicts[cols], ev.verdicts[cols])


def test_arguments(tiny):
    calls = []
    ev = evaluate(tiny, ["recommended"], repeats=1, progress=lambda done, total: calls.append((done, total)))
    assert list(ev.metrics.config) == ["recommended", "exact"]  # the savings baseline is added
    assert calls[-1] == (12, 12) and calls == sorted(calls)
    doc_scope = evaluate(tiny, {"mine": "recommended"}, scope="document", repeats=1, savings=SavingsAssumptions(baseline="mine"))
    assert set(doc_scope.verdicts.scope) == {"document"}
    with pytest.raises(ConfigError, match="scope"):
        evaluate(tiny, ["exact"], scope="page")
    with pytest.raises(ConfigError, match="repeats"):
        evaluate(tiny, ["exact"], repeats=0)
    with pytest.raises(ConfigError, match="savings.baseline"):
        evaluate(tiny, ["exact"], savings=SavingsAssumptions(baseline="nope"))


def test_bundled_synthetic_set_evaluates():
    qs = load_quote_set("synthetic")
    ev = evaluate(qs, ["exact", "recommended"], repeats=1)
    assert len(ev.verdicts) == 2 * len(qs)
    assert ev.meta["paper_sha256"] == qs.paper.sha256 or qs.warnings


# ---------------------------------------------------------------------------------------
# Run store


def test_runstore_round_trip_and_compare(tmp_path, tiny, ev):
    store = RunStore(tmp_path / "runs.sqlite3")
    assert len(store.list_runs()) == 0
    a = store.save(ev)
    b = store.save(ev)
    assert (a, b) == (1, 2)
    runs = store.list_runs()
    assert list(runs.id) == [1, 2] and set(runs.set_name) == {"tiny"}
    assert runs.configs[0] == "exact,whitespace,recommended" and runs.n_quotes[0] == 6
    back = store.load(a)
    for name in ("verdicts", "metrics", "by_tag", "savings", "ablation"):
        pd.testing.assert_frame_equal(getattr(ev, name), getattr(back, name), obj=name)
    assert back.meta == ev.meta
    changed, deltas = store.compare(a, b)
    assert len(changed) == 0 and (deltas.n_changed == 0).all()
    with pytest.raises(RunStoreError, match="no run 7"):
        store.load(7)

    run_a = evaluate(tiny, {"cfg": "exact"}, repeats=1, savings=SavingsAssumptions(baseline="cfg"))
    run_b = evaluate(tiny, {"cfg": "recommended"}, repeats=1, savings=SavingsAssumptions(baseline="cfg"))
    ia, ib = store.save(run_a), store.save(run_b)
    changed, deltas = store.compare(ia, ib)
    assert set(changed[changed.accepted_a != changed.accepted_b].id) == {"f1", "f3"}
    row = deltas.set_index("config").loc["cfg"]
    assert not row.same_rules and row.same_set
    assert row.d_false_reject == -0.5
    assert row.mcnemar_p_faithful == 0.5  # two discordant pairs, both one way
    direct = compare_evaluations(run_a, run_b)
    pd.testing.assert_frame_equal(direct[1], deltas)


def test_runstore_default_path(monkeypatch, tmp_path):
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(tmp_path / "x.sqlite3"))
    assert runstore.default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("QUOTELOCATE_RUNS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert runstore.default_path() == tmp_path / "data" / "quotelocate" / "runs.sqlite3"


def _save_many(path: str, payload: dict, n: int, queue) -> None:
    ev = Evaluation.from_json(payload)
    outcomes = []
    for _ in range(n):
        try:
            outcomes.append(RunStore(path, busy_timeout=30).save(ev))
        except RunStoreBusyError:
            outcomes.append("busy")
    queue.put(outcomes)


def test_concurrent_writers(tmp_path, ev):
    path = str(tmp_path / "runs.sqlite3")
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    payload = ev.to_json()
    procs = [ctx.Process(target=_save_many, args=(path, payload, 5, queue)) for _ in range(2)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    saved = [r for out in results for r in out if r != "busy"]
    assert len(saved) == len(set(saved))  # distinct run ids
    store = RunStore(path)
    assert sorted(store.list_runs().id) == sorted(saved)
    assert len(saved) == 10 or any("busy" in out for out in results)
    for rid in saved:
        assert len(store.load(rid).verdicts) == len(ev.verdicts)
    store.check()


def test_busy_store_gives_a_clear_error(tmp_path, ev):
    path = tmp_path / "runs.sqlite3"
    store = RunStore(path, busy_timeout=0.2)
    store.save(ev)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(RunStoreBusyError, match="locked by another process"):
            store.save(ev)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert list(store.list_runs().id) == [1]


@pytest.mark.parametrize(
    "content",
    [
        b"this is not a database at all\n" * 100,
        runstore.SQLITE_HEADER + b"\x00\x01garbage" * 500,
    ],
    ids=["text-file", "sqlite-header-then-garbage"],
)
def test_corrupt_file_is_reported_and_left_untouched(tmp_path, content):
    path = tmp_path / "runs.sqlite3"
    path.write_bytes(content)
    with pytest.raises(RunStoreError) as info:
        store = RunStore(path)
        store.save(Evaluation())
    assert str(path) in str(info.value) and "untouched" in str(info.value)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.sqlite3"]


def test_foreign_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(RunStoreError, match="not a quotelocate run store"):
        RunStore(path)
    assert path.read_bytes() == before


def test_damaged_pages_give_run_store_error(tmp_path, ev):
    path = tmp_path / "runs.sqlite3"
    RunStore(path).save(ev)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = b"\xa5" * (len(data) - page)  # keep page 1 (the schema), wreck the rest
    path.write_bytes(bytes(data))
    with pytest.raises(RunStoreError) as info:
        RunStore(path).load(1)
    assert str(path) in str(info.value)
    assert path.read_bytes() == bytes(data)


def test_exception_inside_save_loses_nothing(tmp_path, ev, monkeypatch):
    store = RunStore(tmp_path / "runs.sqlite3")
    first = store.save(ev)

    original = runstore._verdict_rows

    def broken(run_id, evaluation):
        rows = original(run_id, evaluation)
        yield next(rows)
        yield next(rows)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(runstore, "_verdict_rows", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        store.save(ev)
    monkeypatch.undo()
    assert list(store.list_runs().id) == [first]
    with sqlite3.connect(store.path) as con:
        assert con.execute("SELECT count(*) FROM verdicts").fetchone()[0] == len(ev.verdicts)
    assert store.save(ev) == first + 1  # usable afterwards
    store.check()


def _crash_mid_save(path: str, payload: dict) -> None:
    original = runstore._verdict_rows

    def dying(run_id, evaluation):
        rows = original(run_id, evaluation)
        yield next(rows)
        yield next(rows)
        os._exit(3)  # the process dies inside the transaction

    runstore._verdict_rows = dying
    RunStore(path).save(Evaluation.from_json(payload))


def test_process_crash_mid_save_loses_no_earlier_run(tmp_path, ev):
    path = tmp_path / "runs.sqlite3"
    store = RunStore(path)
    first = store.save(ev)
    ctx = multiprocessing.get_context("fork")
    p = ctx.Process(target=_crash_mid_save, args=(str(path), ev.to_json()))
    p.start()
    p.join(timeout=60)
    assert p.exitcode == 3
    store = RunStore(path)
    assert list(store.list_runs().id) == [first]
    pd.testing.assert_frame_equal(store.load(first).verdicts, ev.verdicts)
    store.check()
    assert store.save(ev) > first


# ---------------------------------------------------------------------------------------
# Command line (in-process)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_eval_runs_compare(tmp_path):
    set_path, papers = write_tiny_set(tmp_path)
    db = str(tmp_path / "runs.sqlite3")
    code, out, err = run("eval", str(set_path), "--papers", str(papers), "--repeats", "1", "--store", db)
    assert code == 0, err
    assert "false reject" in out and "recommended" in out and "[" in out  # intervals
    assert "review time vs exact" in out
    assert f"saved as run 1 in {db}" in err
    code, out, err = run("eval", str(set_path), "--papers", str(papers), "--repeats", "1", "--store", db, "--preset", "exact", "whitespace", "--ablation",
                         "--name", "two presets", "--tag", "ablation", "--tag", "tiny", "--notes", "from the CLI")
    assert code == 0, err
    assert "ablation" in out and "-whitespace" in out
    code, out, _ = run("runs", "--store", db)
    assert code == 0 and "tiny" in out and " 2 " in out
    assert "run 1" in out and "two presets" in out and "ablation,tiny" in out  # listed by name
    code, out, _ = run("runs", "--store", db, "--json")
    assert [json.loads(line)["id"] for line in out.splitlines()] == [1, 2]
    code, out, _ = run("compare", "1", "2", "--store", db)
    assert code == 0 and "exact" in out and "0 of 3 verdicts changed" in out
    code, out, _ = run("compare", "1", "2", "--store", db, "--json")
    assert set(json.loads(out)) == {"changed", "deltas"}


def test_cli_eval_json_no_store(tmp_path):
    set_path, papers = write_tiny_set(tmp_path)
    db = tmp_path / "runs.sqlite3"
    code, out, err = run("eval", str(set_path), "--papers", str(papers), "--repeats", "1", "--json", "--no-store", "--store", str(db), "--grid")
    assert code == 0, err
    data = json.loads(out)
    assert data["run_id"] is None and not db.exists()
    assert "recommended -whitespace" in data["meta"]["configs"]
    assert len(Evaluation.from_json(data).verdicts) == 3 * len(data["meta"]["configs"])


@pytest.mark.parametrize(
    "argv, words",
    [
        (["eval", "no-such-set"], "no such quote set"),
        (["compare", "1", "5"], "no run 1"),
        (["eval", "synthetic", "--scope", "page"], "invalid choice"),
    ],
    ids=["unknown-set", "unknown-run", "bad-scope"],
)
def test_cli_errors_are_one_line_exit_2(tmp_path, argv, words):
    db = tmp_path / "runs.sqlite3"
    RunStore(db)
    code, out, err = run(*argv, "--store", str(db))
    assert code == 2
    assert words in err and err.count("\n") == 1


def test_cli_fetch_already_present(tmp_path):
    set_path, papers = write_tiny_set(tmp_path)
    code, out, err = run("fetch", str(set_path), "--dest", str(papers))
    assert code == 0 and "already present" in out
    set_path.write_text(set_path.read_text().replace("  url: https://example.org/paper.txt\n", ""))
    (papers / "paper.txt").unlink()
    code, out, err = run("fetch", str(set_path), "--dest", str(papers))
    assert code == 2 and "paper.url" in err


def test_corrupt_store_fails_eval_before_the_run(tmp_path):
    set_path, papers = write_tiny_set(tmp_path)
    db = tmp_path / "runs.sqlite3"
    db.write_bytes(b"garbage" * 10)
    code, out, err = run("eval", str(set_path), "--papers", str(papers), "--store", str(db))
    assert code == 2 and str(db) in err and out == ""
    assert db.read_bytes() == b"garbage" * 10


def test_cause_table_on_the_real_set():
    """On attention-v7, recommended names the cause of every number, case, marker and
    look-alike fabrication correctly."""
    from quotelocate.data.quoteset import load_quote_set
    from quotelocate.evaluation import cause_table

    qs = load_quote_set("attention-v7")
    ev = evaluate(qs, ["recommended"], repeats=1)
    table = cause_table(ev.verdicts, "recommended")
    expected = {"number": "number-changed", "case": "case-differs", "marker-dropped": "marker-missing",
                "lookalike": "confusable-character", "outside-material": "outside-material"}
    for tag, cause in expected.items():
        rows = table.loc[(table["label"] == "fabricated") & (table["tag"] == tag)]
        assert set(rows["cause"]) == {cause}, (tag, rows.to_dict("records"))
    assert table.loc[table["label"] == "faithful"].empty  # nothing faithful was rejected
