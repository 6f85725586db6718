"""Raw checks of the bundled quote set ``datasets/attention-v5.yaml``.

Independent of ``quotelocate.data.quoteset``: the YAML is read with ``yaml.safe_load`` and
every anchor is checked against ``Document.text`` of the pinned v5 PDF. The PDF is
looked up in ``$QUOTELOCATE_PAPERS`` (folders separated by ``os.pathsep``), by default
``<repo>/../shared/papers``; the paper-dependent tests fail when it is absent.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from quotelocate.document import Document

from conftest import paper_path

REPO = Path(__file__).resolve().parents[1]
SET_PATH = REPO / "datasets" / "attention-v5.yaml"

STRIDE = 512 - 64




@pytest.fixture(scope="module")
def quote_set() -> dict:
    with open(SET_PATH, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def doc(quote_set) -> Document:
    return Document.open(paper_path(quote_set["paper"]["file"]))


def test_header(quote_set):
    assert quote_set["format"] == 1
    assert quote_set["name"] == "attention-v5"
    paper = quote_set["paper"]
    assert paper["file"] == "1706.03762v5.pdf"
    assert paper["sha256"] == "dc8ec0d1decc63faa8a848d470bbeabeb060ab84b424909e84ea225ca18e720c"
    assert paper["url"] == "https://arxiv.org/pdf/1706.03762v5"
    assert paper["version"] == "v5"
    assert set(paper["text"]) == {"extractor", "extractor_version", "flags", "sha256"}
    assert quote_set["chunking"] == {"size": 512, "overlap": 64, "group_size": 3}


def test_ids_unique_and_counts(quote_set):
    quotes = quote_set["quotes"]
    ids = [q["id"] for q in quotes]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    assert len(quotes) >= 50
    ligature = [q for q in quotes if q["label"] == "faithful" and "ligature" in q["tags"]]
    assert len(ligature) >= 15
    drift = [q for q in quotes if q["label"] == "fabricated" and "version-drift" in q["tags"]]
    assert len(drift) >= 8


def test_labels_and_anchor_presence(quote_set):
    for q in quote_set["quotes"]:
        assert q["label"] in ("faithful", "fabricated"), q["id"]
        assert q["tags"], q["id"]
        assert isinstance(q["text"], str), q["id"]
        if q["label"] == "faithful":
            assert "anchor" in q, q["id"]
        else:
            assert "anchor" not in q, q["id"]
            assert q.get("note"), q["id"]


def test_paper_pin(quote_set, doc):
    assert doc.sha256 == quote_set["paper"]["sha256"]
    assert doc.text_fingerprint == quote_set["paper"]["text"]


def test_anchors(quote_set, doc):
    for q in quote_set["quotes"]:
        if q["label"] != "faithful":
            continue
        a = q["anchor"]
        assert 0 <= a["start"] < a["end"] <= len(doc.text), q["id"]
        assert doc.text[a["start"]:a["end"]] == a["text"], q["id"]
        assert doc.page_at(a["start"]) == a["page"], q["id"]


def test_cited_chunks(quote_set, doc):
    n = len(doc.text)
    for q in quote_set["quotes"]:
        if q["label"] != "faithful" or "cited_chunk" not in q:
            continue
        c = q["cited_chunk"]
        start, end = q["anchor"]["start"], q["anchor"]["end"]
        chunk_start, chunk_end = c * STRIDE, min(c * STRIDE + 512, n)
        group = c // 3
        group_start, group_end = group * 3 * STRIDE, min((group * 3 + 2) * STRIDE + 512, n)
        assert group_start <= start and end <= group_end, f"{q['id']}: leaves group {group}"
        if "chunk-boundary" in q["tags"]:
            assert chunk_start <= start < chunk_end < end, f"{q['id']}: does not cross the end of chunk {c}"
        else:
            assert chunk_start <= start and end <= chunk_end, f"{q['id']}: not inside chunk {c}"
