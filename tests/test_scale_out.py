"""Scaling out: the extraction cache (hits, corrupt and partial entries, the size bound,
``cache clear``), a set of several papers evaluated one paper per task in local
processes, and the same tasks on a real ``dask.distributed.LocalCluster`` with two
workers on loopback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from quotelocate.data.quoteset import load_quote_set
from quotelocate.document import Document, pages_cache_key
from quotelocate.errors import CacheError, ConfigError
from quotelocate.evaluation import evaluate
from quotelocate.evaluation.corpus import evaluate_corpus
from quotelocate.evaluation.dask_runner import run_on_dask
from quotelocate.evaluation.savings import SavingsAssumptions
from quotelocate.extraction_cache import ExtractionCache
from quotelocate.interface.cli import main
from quotelocate.locate import Locator
from quotelocate.normalize import preset

from test_multi_paper import write_attention_pair

V7 = "1706.03762v7.pdf"
COLUMNS = ["config", "id", "paper", "accepted", "status", "cause", "start", "end", "page", "anchor_ok"]
FAST = SavingsAssumptions(baseline="recommended")  # no extra `exact` run just for the savings table


def v7_path() -> Path:
    return load_quote_set("attention-v7").paper_path


# -- the cache itself ----------------------------------------------------------------------


def test_entries_round_trip_and_count(tmp_path):
    cache = ExtractionCache(tmp_path / "c")
    key = {"kind": "pages", "sha256": "0" * 64}
    assert cache.get(key) is None and cache.misses == 1
    cache.put(key, {"pages": [[1, "é\ud7ff", 1.5]]})
    assert cache.get(key) == {"pages": [[1, "é\ud7ff", 1.5]]} and cache.hits == 1
    assert cache.get({**key, "sha256": "1" * 64}) is None
    assert [f.suffix for f in (tmp_path / "c").iterdir()] == [".json"]


@pytest.mark.parametrize("damage", ["truncated", "edited", "other-key", "not-json", "empty"])
def test_a_damaged_entry_is_dropped_and_rebuilt(tmp_path, damage):
    cache = ExtractionCache(tmp_path)
    key, other = {"kind": "pages", "sha256": "a" * 64}, {"kind": "pages", "sha256": "b" * 64}
    cache.put(key, {"pages": list(range(1000))})
    cache.put(other, {"pages": [1]})
    f = cache._file(key)
    raw = f.read_bytes()
    if damage == "truncated":  # a writer killed half way (without the rename it could not happen)
        f.write_bytes(raw[: len(raw) // 2])
    elif damage == "edited":
        f.write_bytes(raw.replace(b"999", b"998"))
    elif damage == "other-key":
        f.write_bytes(cache._file(other).read_bytes())
    elif damage == "not-json":
        f.write_bytes(b"\x80\x81 not json")
    else:
        f.write_bytes(b"")
    assert cache.get(key) is None
    assert cache.dropped == 1 and not f.exists()
    cache.put(key, {"pages": [2]})
    assert cache.get(key) == {"pages": [2]}


def test_the_cache_is_bounded_least_recently_used_first(tmp_path):
    import os
    import time

    roomy = ExtractionCache(tmp_path, max_bytes=1 << 20)
    keys = [{"kind": "pages", "sha256": str(i) * 64} for i in range(5)]
    for i, key in enumerate(keys):
        roomy.put(key, {"pages": "x" * 900})
        os.utime(roomy._file(key), (time.time() - 100 + i, time.time() - 100 + i))
    assert roomy.get(keys[0]) is not None  # used again: now the most recent
    small = ExtractionCache(tmp_path, max_bytes=3000)
    small.put({"kind": "pages", "sha256": "f" * 64}, {"pages": "y" * 900})
    st = small.stats()
    assert st.bytes <= 3000 and 1 < st.entries < 6
    assert small.get(keys[0]) is not None and small.get(keys[1]) is None


def test_clear_removes_entries_and_leftovers(tmp_path):
    cache = ExtractionCache(tmp_path)
    cache.put({"k": 1}, [1])
    cache.put({"k": 2}, [2])
    (tmp_path / ".entry.abc.part").write_bytes(b"half")
    (tmp_path / "keep.txt").write_text("not ours")
    gone = cache.clear()
    assert gone.entries == 2 and gone.bytes > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_a_file_where_the_folder_should_be_is_an_error(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(CacheError, match="must be a folder"):
        ExtractionCache(tmp_path / "f")


# -- the cache under Document and the layout --------------------------------------------------


def test_second_open_skips_extraction_and_the_layout_build(tmp_path):
    cache = ExtractionCache(tmp_path)
    path = v7_path()
    first = Document.open(path, cache=cache)
    Locator(first, preset("recommended"))
    # the pages, the reading order, and the prepared text with its index
    assert (cache.hits, cache.misses) == (0, 3) and cache.stats().entries == 3
    again = ExtractionCache(tmp_path)
    second = Document.open(path, cache=again)
    assert (again.hits, again.misses) == (1, 0)  # the pages
    loc = Locator(second, preset("recommended"))
    assert (again.hits, again.misses) == (2, 0)  # and the prepared text (no reading order needed)
    v = loc.locate(
        "self-attention layers are faster than recurrent layers when the sequence length n is smaller "
        "than the representation dimensionality d"
    )
    assert v.accepted
    plain = Document.open(path)
    assert (second.text, second.pages, second.lines, second.hidden) == (plain.text, plain.pages, plain.lines, plain.hidden)
    assert second.warnings == plain.warnings


def test_a_corrupt_pages_entry_is_never_trusted(tmp_path):
    cache = ExtractionCache(tmp_path)
    path = v7_path()
    data = path.read_bytes()
    Document.open(path, cache=cache)
    f = cache._file(pages_cache_key(data))
    header = json.loads(f.read_bytes().partition(b"\n")[0])
    # well-formed JSON with a matching hash, but not page records: rebuilt, not used
    from quotelocate.extraction_cache import _canonical
    import hashlib

    body = _canonical({"pages": [["not", "a", "page"]], "warnings": []})
    header.update(payload_bytes=len(body), payload_sha256=hashlib.sha256(body).hexdigest())
    f.write_bytes(_canonical(header) + b"\n" + body)
    again = ExtractionCache(tmp_path)
    doc = Document.open(path, cache=again)
    assert again.dropped == 1 and doc.text == Document.open(path).text
    assert ExtractionCache(tmp_path).get(pages_cache_key(data))["pages"][0][0] == 1  # rebuilt


# -- one paper per task ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pair_path(tmp_path_factory):
    return write_attention_pair(tmp_path_factory.mktemp("pair"))


@pytest.fixture(scope="module")
def reference(pair_path):
    return evaluate(load_quote_set(pair_path), ["recommended"], repeats=1, savings=FAST)


def test_local_processes_give_the_in_process_evaluation(pair_path, reference, tmp_path):
    cache = ExtractionCache(tmp_path)
    seen = []
    ev = evaluate_corpus(pair_path, ["recommended"], repeats=1, workers=2, cache=cache, savings=FAST,
                         progress=lambda done, total: seen.append((done, total)))
    assert ev.verdicts[COLUMNS].equals(reference.verdicts[COLUMNS])
    for col in ("paper", "n_faithful", "n_fabricated", "false_reject", "false_accept", "anchor_accuracy"):
        assert list(ev.by_paper[col]) == list(reference.by_paper[col]), col
    for col in ("n_faithful", "n_fabricated", "false_reject", "fr_low", "fr_high", "false_accept", "fa_high"):
        assert list(ev.metrics[col]) == list(reference.metrics[col]), col
    assert ev.meta["set_hash"] == reference.meta["set_hash"] and ev.meta["papers"] == reference.meta["papers"]
    par = ev.meta["parallel"]
    assert par["backend"] == "local" and par["workers"] == 2 and len(par["pids"]) == 2
    # per paper: the pages, the reading order, the prepared text and index, and for the
    # rejections the furniture lines and the text read without the layout
    assert par["cache"] == {"hits": 0, "misses": 10, "dropped": 0}
    assert seen == [(1, 2), (2, 2)]
    warm = evaluate_corpus(pair_path, ["recommended"], repeats=1, workers=2, cache=cache, savings=FAST)
    assert warm.meta["parallel"]["cache"] == {"hits": 8, "misses": 0, "dropped": 0}  # no reading order needed
    assert warm.verdicts[COLUMNS].equals(reference.verdicts[COLUMNS])


@pytest.fixture(scope="module")
def dask_cluster():
    """A real Dask scheduler with two worker processes, on loopback."""
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", silence_logs=40) as cluster:
        assert len(cluster.workers) == 2 and cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        yield cluster.scheduler_address.replace("tcp://", "dask://")


def test_a_real_dask_cluster_runs_the_papers_as_tasks(pair_path, reference, tmp_path, dask_cluster):
    seen = []
    address = dask_cluster
    ev = evaluate_corpus(pair_path, ["recommended"], repeats=1, cluster=address, cache=ExtractionCache(tmp_path),
                         savings=FAST, progress=lambda done, total: seen.append((done, total)))
    assert ev.verdicts[COLUMNS].equals(reference.verdicts[COLUMNS])
    assert list(ev.by_paper["false_reject"]) == list(reference.by_paper["false_reject"])
    assert ev.meta["parallel"]["backend"] == "dask" and ev.meta["parallel"]["scheduler"] == address
    assert seen == [(1, 2), (2, 2)]


def test_an_unreachable_scheduler_is_one_clear_error():
    with pytest.raises(ConfigError, match=r"cluster dask://127.0.0.1:9: cannot reach the Dask scheduler"):
        run_on_dask("dask://127.0.0.1:9", len, [[1]], timeout=2)
    with pytest.raises(ConfigError, match="has no HOST:PORT"):
        run_on_dask("dask://", len, [[1]])


# -- command line ---------------------------------------------------------------------------


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out=out, err=err), out.getvalue(), err.getvalue()


def test_cli_eval_runs_papers_as_local_tasks_and_cache_clear(pair_path, tmp_path):
    cache_dir = str(tmp_path / "cache")
    code, out, err = run_cli("eval", str(pair_path), "--preset", "recommended", "--repeats", "1", "--no-store",
                             "--workers", "2", "--cache-dir", cache_dir)
    assert code == 0, err
    # as above, and the prepared text of the `exact` baseline too
    assert "2 papers as tasks on 2 local process(es)" in err and "extraction cache: 0 hits, 12 misses" in err
    assert "per paper (quotes: faithful + fabricated)" in out
    code, out, err = run_cli("cache", "info", "--cache-dir", cache_dir)
    assert code == 0 and ": 12 entries," in out
    code, out, err = run_cli("cache", "clear", "--cache-dir", cache_dir)
    assert code == 0 and "removed 12 entries" in out
    assert run_cli("cache", "info", "--cache-dir", cache_dir)[1].split(": ")[1].startswith("0 entries")


def test_cli_cluster_errors_are_one_line(pair_path, monkeypatch):
    import quotelocate.evaluation.dask_runner as dask_runner

    monkeypatch.setattr(dask_runner, "CONNECT_TIMEOUT", 2.0)
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "dask://127.0.0.1:9")
    code, out, err = run_cli("eval", str(pair_path), "--preset", "recommended", "--repeats", "1", "--no-store", "--no-cache")
    assert code == 2 and "cannot reach the Dask scheduler" in err and len(err.strip().splitlines()) == 1, err
    code, out, err = run_cli("eval", str(pair_path), "--ablation", "--no-store")
    assert code == 2 and "--ablation needs every paper in this process" in err


QUOTES = [
    {"id": "a", "paper": "1706.03762v7.pdf", "quote": "We propose a new simple network architecture, the Transformer"},
    {"id": "b", "paper": "1706.03762v5.pdf", "quote": "We propose a new simple network architecture, the Transformer"},
    {"id": "c", "paper": "1706.03762v7.pdf",
     "quote": "Our model achieves 28.3 BLEU on the WMT 2014 English-to-German translation task"},
]


def write_quotes(path: Path, quotes: list[dict]) -> Path:
    path.write_text("".join(json.dumps(q) + "\n" for q in quotes), encoding="utf-8")
    return path


def test_cli_locate_over_a_folder_one_task_per_paper(tmp_path):
    folder = v7_path().parent
    quotes = write_quotes(tmp_path / "q.jsonl", QUOTES)
    code, out, err = run_cli("locate", str(folder), "--quotes", str(quotes), "--json", "--workers", "2")
    assert code == 1, err
    recs = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"], r["paper"], r["accepted"]) for r in recs] == [
        ("a", "1706.03762v7.pdf", True), ("b", "1706.03762v5.pdf", True), ("c", "1706.03762v7.pdf", False)
    ]
    assert recs[2]["cause"] == "number-changed" and recs[0]["start"] != recs[1]["start"]
    single = run_cli("locate", str(v7_path()), QUOTES[0]["quote"], "--json")[1]
    assert json.loads(single)["start"] == recs[0]["start"]
    missing = write_quotes(tmp_path / "m.jsonl", [QUOTES[0], {**QUOTES[1], "paper": "nope.pdf"}])
    code, out, err = run_cli("locate", str(folder), "--quotes", str(missing))
    assert code == 2 and f"{missing}: line 2: paper 'nope.pdf' is not in {folder}" in err
    code, out, err = run_cli("locate", str(folder), "some quote")
    assert code == 2 and f"{folder}: is a directory; to check quotes over a folder of papers, give --quotes FILE" in err


def test_locate_batch_on_the_dask_cluster(tmp_path, dask_cluster):
    from quotelocate.chunks import Chunking
    from quotelocate.interface.batch import locate_corpus
    from quotelocate.limits import DEFAULT_LIMITS

    items = [{**q, "cited_chunk": None, "line": i + 1} for i, q in enumerate(QUOTES)]
    kwargs = dict(source="q.jsonl", rules=preset("recommended"), chunking=Chunking(), scope=None, limits=DEFAULT_LIMITS,
                  allow_textless_pages=False, cache_dir=str(tmp_path))
    folder = v7_path().parent
    on_cluster = locate_corpus(folder, items, workers=1, cluster=dask_cluster, **kwargs)
    here = locate_corpus(folder, items, workers=1, cluster=None, **kwargs)
    assert [(r["id"], r["accepted"], r["start"]) for r in on_cluster] == [(r["id"], r["accepted"], r["start"]) for r in here]
