"""The prepared text and k-gram index kept in the extraction cache: a Locator built from
the cache gives the verdicts a Locator built from scratch gives (every field, bundled
sets and corpus papers), damaged or foreign entries are rebuilt, and the key moves
with the rules, the version and the code. Also the local pool the corpus runs use."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from quotelocate import prepared_cache
from quotelocate.data.quoteset import load_quote_set
from quotelocate.document import Document
from quotelocate.extraction_cache import ExtractionCache
from quotelocate.locate import Locator
from quotelocate.normalize import preset
from quotelocate.pool import run_tasks

CORPUS = [
    "acl2020_specter.pdf",
    "arxiv2015_influential_nodes_rotated.pdf",
    "pldi2009_tracemonkey.pdf",
]


def _corpus_paper(name: str) -> Path:
    for folder in os.environ.get("QUOTELOCATE_PAPERS", "").split(os.pathsep):
        for candidate in (Path(folder) / name, Path(folder) / "corpus" / name):
            if candidate.is_file():
                return candidate
    pytest.fail(f"{name} is not on QUOTELOCATE_PAPERS (the corpus folder of shared/papers)")


def _fields(v) -> dict:
    d = v.to_dict()
    d["near_miss"] = v.near_miss.to_dict() if v.near_miss is not None else None
    d["quote"] = v.quote
    return d


def _probes(text: str) -> list[str]:
    """Quotes cut from the text (verbatim and with one letter changed), and a made-up one."""
    words = text.split()
    out = ["quotelocate invented sentence that appears in no paper whatsoever, surely"]
    for i in range(0, max(len(words) - 20, 1), max(len(words) // 12, 1)):
        passage = " ".join(words[i : i + 18])
        out.append(passage)
        j = next((k for k, ch in enumerate(passage) if ch.isalpha()), 0)
        out.append(passage[:j] + ("Q" if passage[j:j + 1] != "Q" else "R") + passage[j + 1 :])
    return out


def _same_verdicts(path: Path, cache_dir: Path, rules_names=("recommended", "exact")) -> int:
    """Check cold, warm and uncached Locators agree on every verdict field; the quotes checked."""
    plain = Document.open(path)
    checked = 0
    for name in rules_names:
        rules = preset(name)
        reference = Locator(plain, rules)
        quotes = _probes(plain.text)
        want = [_fields(reference.locate(q)) for q in quotes]
        cold_cache = ExtractionCache(cache_dir)
        cold = Locator(Document.open(path, cache=cold_cache), rules)
        assert [_fields(cold.locate(q)) for q in quotes] == want
        warm_cache = ExtractionCache(cache_dir)
        warm_doc = Document.open(path, cache=warm_cache)
        before = warm_cache.hits
        warm = Locator(warm_doc, rules)
        assert warm_cache.hits == before + 1 and warm_cache.misses == 0  # the prepared entry, nothing rebuilt
        assert warm.norm.text == reference.norm.text and warm.norm.starts == reference.norm.starts
        assert warm.norm.ends == reference.norm.ends  # the index is built from that same text
        assert [_fields(warm.locate(q)) for q in quotes] == want
        checked += len(quotes)
    return checked


@pytest.mark.parametrize("set_name", ["attention-v7", "attention-v5", "synthetic"])
def test_bundled_sets_give_the_same_verdicts_warm_and_cold(set_name, tmp_path):
    qs = load_quote_set(set_name)
    path = qs.paper_path
    cache_dir = tmp_path / "c"
    kw = {"chunking": qs.chunking, "chunks": qs.explicit_chunks}
    for rules_name in ("recommended", "exact"):
        rules = preset(rules_name)
        reference = Locator(Document.open(path), rules, **kw)
        Locator(Document.open(path, cache=ExtractionCache(cache_dir)), rules, **kw)  # cold: fills the cache
        warm_cache = ExtractionCache(cache_dir)
        warm = Locator(Document.open(path, cache=warm_cache), rules, **kw)
        assert warm_cache.misses == 0
        for q in qs.quotes:
            cited = q.cited_chunk
            scope = "group" if cited is not None else "document"
            assert _fields(warm.locate(q.text, cited_chunk=cited, scope=scope)) == _fields(
                reference.locate(q.text, cited_chunk=cited, scope=scope)
            ), q.id


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_papers_give_the_same_verdicts_warm_and_cold(name, tmp_path):
    assert _same_verdicts(_corpus_paper(name), tmp_path / "c") > 20


def _v7(tmp_path) -> tuple[Path, Path]:
    return load_quote_set("attention-v7").paper_path, tmp_path / "c"


def _prepared_file(cache: ExtractionCache, path: Path, rules_name: str = "recommended") -> Path:
    doc = Document.open(path, cache=cache)
    return cache._file(prepared_cache.prepared_key(doc, preset(rules_name)))


def test_the_prepared_entry_round_trips(tmp_path):
    path, cache_dir = _v7(tmp_path)
    cold_cache = ExtractionCache(cache_dir)
    cold = Locator(Document.open(path, cache=cold_cache), preset("recommended"))
    f = _prepared_file(cold_cache, path)
    assert f.is_file()
    header = json.loads(f.read_bytes().partition(b"\n")[0])
    assert header["key"]["kind"] == "prepared" and header["key"]["rules"] == preset("recommended").fingerprint
    assert header["key"]["prepared_version"] == prepared_cache.PREPARED_VERSION
    assert header["key"]["code"] == prepared_cache.code_digest()
    loaded = prepared_cache.load(Document.open(path, cache=ExtractionCache(cache_dir)), preset("recommended"))
    assert loaded is not None
    norm = loaded
    assert (norm.text, norm.starts, norm.ends, list(norm.flags), list(norm.gaps)) == (
        cold.norm.text, cold.norm.starts, cold.norm.ends, list(cold.norm.flags), list(cold.norm.gaps),
    )
    assert all(type(p) is int for p in norm.starts[:100] + norm.ends[:100])


def _rewrite_payload(f: Path, change) -> None:
    """Edit an entry's payload and re-sign it, as a writer that knows the format would:
    the sha256 holds, so only the payload's own checks can catch it."""
    import hashlib

    from quotelocate.extraction_cache import _canonical

    head, _, body = f.read_bytes().partition(b"\n")
    header, payload = json.loads(head), json.loads(body)
    change(payload)
    body = _canonical(payload)
    header.update(payload_bytes=len(body), payload_sha256=hashlib.sha256(body).hexdigest())
    f.write_bytes(_canonical(header) + b"\n" + body)


def _shift_starts(p):
    from quotelocate.prepared_cache import _pack, _unpack

    starts = _unpack("i", p["starts"])
    starts[0] = 10**8
    p["starts"] = _pack("i", starts)


def _negative_end(p):
    from quotelocate.prepared_cache import _pack, _unpack

    ends = _unpack("i", p["ends"])
    ends[0] = -3
    p["ends"] = _pack("i", ends)


@pytest.mark.parametrize(
    "damage",
    [
        "truncated",
        "flipped-byte",
        lambda p: p.update(text=p["text"][:-1]),
        lambda p: p.update(gaps=p["flags"]),
        lambda p: p.update(starts=[0, 1, 2]),
        lambda p: p.update(ends=p["ends"][:-8]),
        lambda p: p.update(flags="not base64!"),
        _shift_starts,
        _negative_end,
        lambda p: p.pop("ends"),
    ],
)
def test_a_damaged_prepared_entry_is_dropped_and_rebuilt(tmp_path, damage):
    path, cache_dir = _v7(tmp_path)
    rules = preset("recommended")
    reference = Locator(Document.open(path, cache=ExtractionCache(cache_dir)), rules)
    f = _prepared_file(ExtractionCache(cache_dir), path)
    raw = f.read_bytes()
    if damage == "truncated":
        f.write_bytes(raw[: len(raw) * 2 // 3])
    elif damage == "flipped-byte":
        i = len(raw) - 100
        f.write_bytes(raw[:i] + bytes([raw[i] ^ 1]) + raw[i + 1 :])
    else:
        _rewrite_payload(f, damage)
    cache = ExtractionCache(cache_dir)
    loc = Locator(Document.open(path, cache=cache), rules)
    assert cache.dropped == 1
    assert (loc.norm.text, loc.norm.starts, loc.norm.ends) == (reference.norm.text, reference.norm.starts, reference.norm.ends)
    again = ExtractionCache(cache_dir)
    Locator(Document.open(path, cache=again), rules)
    assert again.dropped == 0 and again.misses == 0  # the rebuilt entry is whole


def test_the_key_moves_with_rules_version_and_code(tmp_path, monkeypatch):
    path, cache_dir = _v7(tmp_path)
    doc = Document.open(path, cache=ExtractionCache(cache_dir))
    base = prepared_cache.prepared_key(doc, preset("recommended"))
    assert prepared_cache.prepared_key(doc, preset("exact")) != base
    assert prepared_cache.prepared_key(doc, preset("recommended").replace(min_words=9)) != base
    Locator(doc, preset("recommended"))
    assert prepared_cache.load(Document.open(path, cache=ExtractionCache(cache_dir)), preset("recommended"))
    monkeypatch.setattr(prepared_cache, "PREPARED_VERSION", prepared_cache.PREPARED_VERSION + 1)
    cache = ExtractionCache(cache_dir)
    assert prepared_cache.load(Document.open(path, cache=cache), preset("recommended")) is None
    assert cache.misses == 1 and cache.dropped == 0  # another version's entry is not found, not damaged
    monkeypatch.undo()
    prepared_cache.code_digest.cache_clear()
    monkeypatch.setattr(prepared_cache, "_CODE_MODULES", prepared_cache._CODE_MODULES[:-1])
    try:
        assert prepared_cache.load(Document.open(path, cache=ExtractionCache(cache_dir)), preset("recommended")) is None
    finally:
        monkeypatch.undo()
        prepared_cache.code_digest.cache_clear()
    assert prepared_cache.load(Document.open(path, cache=ExtractionCache(cache_dir)), preset("recommended"))


def test_a_document_without_a_cache_is_prepared_as_always(tmp_path):
    path, _ = _v7(tmp_path)
    doc = Document.open(path)
    assert prepared_cache.load(doc, preset("recommended")) is None
    Locator(doc, preset("recommended"))  # nothing to store into, nothing raised
    assert prepared_cache.furniture_lines(doc) == prepared_cache.furniture_lines(Document.open(path))


def test_furniture_lines_and_the_diagnosis_text_are_kept(tmp_path):
    from quotelocate.layout import furniture_lines

    path, cache_dir = _v7(tmp_path)
    cold = Document.open(path, cache=ExtractionCache(cache_dir))
    want = furniture_lines(cold)
    assert want and prepared_cache.furniture_lines(cold) == want
    flat_rules = preset("recommended").replace(layout=False)
    text = prepared_cache.prepared_text(cold, flat_rules)
    cache = ExtractionCache(cache_dir)
    warm = Document.open(path, cache=cache)
    assert prepared_cache.furniture_lines(warm) == want
    assert prepared_cache.prepared_text(warm, flat_rules) == text
    assert cache.misses == 0 and cache.hits == 3


# -- the local pool ---------------------------------------------------------------------------


def _pid_and_children(x: int) -> tuple[int, int, int]:
    from quotelocate import document

    return x * x, os.getpid(), document._children()


def test_the_pool_returns_results_in_task_order_heaviest_first():
    seen = []
    out = run_tasks(_pid_and_children, list(range(7)), 2, weights=[1, 9, 3, 7, 5, 2, 8],
                    progress=lambda done, total: seen.append((done, total)))
    assert [r[0] for r in out] == [x * x for x in range(7)]
    assert os.getpid() not in {r[1] for r in out}
    assert seen == [(i, 7) for i in range(1, 8)]
    cores = len(os.sched_getaffinity(0))
    assert {r[2] for r in out} == {max(1, min(2, cores // 2))}


def test_one_worker_runs_here_and_keeps_the_extraction_children():
    from quotelocate import document

    out = run_tasks(_pid_and_children, [3, 4], 1)
    assert out == [(9, os.getpid(), document._children()), (16, os.getpid(), document._children())]
