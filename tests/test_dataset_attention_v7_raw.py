"""Raw checks of the bundled quote set ``datasets/attention-v7.yaml``.

These tests use no locator code: they read the YAML with ``yaml.safe_load``, extract the
paper with :class:`quotelocate.document.Document` and check every anchor, cited chunk,
tag and class against the text directly, with a deliberately simple normalizer (NFKC,
straight quotes, whitespace collapse, both joins of end-of-line hyphens).

The paper is found on ``$QUOTELOCATE_PAPERS`` (folders separated by ``os.pathsep``;
relative folders are taken from the repository root), default ``../shared/papers``.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
import yaml

from quotelocate.document import Document

from conftest import paper_path

REPO = Path(__file__).resolve().parents[1]
SET_PATH = REPO / "datasets" / "attention-v7.yaml"

FAITHFUL_TAGS = {
    "plain", "linebreak", "ligature", "hyphen-keep", "hyphen-drop", "page-number",
    "page-break", "chunk-boundary", "neighbour-chunk", "smart-quote", "nfkc",
    "float-interleave", "footnote", "caption", "running-header", "margin-stamp",
    "two-column", "table",
}
FABRICATED_TAGS = {
    "number", "case", "negation", "marker-dropped", "splice", "paraphrase", "word-swap",
    "word-missing", "word-added", "version-drift", "trivial", "lookalike", "invented-tail",
    "punctuation", "outside-material", "cross-flow", "cross-column", "partial-word",
}
# minimum number of quotes per class this set promises
FAITHFUL_MIN = {
    "plain": 5, "linebreak": 5, "hyphen-keep": 5, "hyphen-drop": 5, "page-number": 5,
    "page-break": 5, "smart-quote": 5, "nfkc": 5, "footnote": 5, "caption": 5,
    "float-interleave": 4, "chunk-boundary": 12, "neighbour-chunk": 6,
}
FABRICATED_MIN = {
    "number": 4, "case": 4, "negation": 4, "marker-dropped": 4, "splice": 4,
    "paraphrase": 4, "word-swap": 4, "word-missing": 4, "word-added": 4, "trivial": 4,
    "lookalike": 4, "invented-tail": 4, "punctuation": 4, "outside-material": 3,
    "cross-flow": 3, "partial-word": 3,
}
# fabricated classes whose text is (or may be) real paper text by design
REAL_TEXT = {"trivial", "outside-material", "cross-flow", "partial-word"}
ID_RE = re.compile(r"^[A-Za-z0-9._-]+$")
CURLY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", s).translate(CURLY)).strip()


def hyphen_variants(s: str, tags=()) -> list[str]:
    """Joins of the end-of-line hyphens of ``s``; a quote tagged only hyphen-keep (or only
    hyphen-drop) must join every break that way."""
    joins = {"hyphen-keep": "-", "hyphen-drop": ""}
    allowed = tuple(j for t, j in joins.items() if t in tags) or ("-", "")
    parts = s.split("-\n")
    out = []
    for choice in itertools.product(allowed, repeat=len(parts) - 1):
        out.append(parts[0] + "".join(c + p for c, p in zip(choice, parts[1:])))
    return out


def normalized_views(text: str) -> list[str]:
    views = []
    for t in (text, re.sub(r"\n\d{1,3}\n\f", "\n", text)):
        views.append(norm(t.replace("-\n", "-")))
        views.append(norm(t.replace("-\n", "")))
    return views




@pytest.fixture(scope="module")
def qset() -> dict:
    raw = SET_PATH.read_bytes().decode("utf-8")  # strict UTF-8
    for event in yaml.parse(raw):
        assert not isinstance(event, yaml.AliasEvent), "YAML aliases are not allowed"
        assert getattr(event, "anchor", None) is None, "YAML anchors are not allowed"
        tag = getattr(event, "tag", None)
        assert tag is None or not tag.startswith("tag:yaml.org,2002:python"), tag
    return yaml.safe_load(raw)


@pytest.fixture(scope="module")
def doc(qset) -> Document:
    return Document.open(paper_path(qset["paper"]["file"]))


class Chunks:
    def __init__(self, n: int, size: int, overlap: int, group_size: int):
        step = size - overlap
        self.spans = []
        i = 0
        while True:
            start = i * step
            self.spans.append((start, min(start + size, n)))
            if start + size >= n:
                break
            i += 1
        self.group_size = group_size

    def contains(self, c, start, end):
        cs, ce = self.spans[c]
        return cs <= start and end <= ce

    def group_members(self, c):
        g = c // self.group_size
        return range(g * self.group_size, min((g + 1) * self.group_size, len(self.spans)))

    def group_span(self, c):
        members = self.group_members(c)
        return self.spans[members[0]][0], self.spans[members[-1]][1]


@pytest.fixture(scope="module")
def chunks(qset, doc) -> Chunks:
    ch = qset["chunking"]
    return Chunks(len(doc.text), ch["size"], ch["overlap"], ch["group_size"])


def test_header(qset):
    assert qset["format"] == 1
    assert qset["name"] == "attention-v7"
    paper = qset["paper"]
    assert paper["file"] == "1706.03762v7.pdf"
    assert re.fullmatch(r"[0-9a-f]{64}", paper["sha256"])
    assert paper["sha256"] == "c133bd93df7421f1939c84c525ab5a853886c64f58e18bb802bed65c530acbb3"
    assert paper["url"] == "https://arxiv.org/pdf/1706.03762v7"
    assert paper["version"] == "v7"
    assert set(paper["text"]) == {"extractor", "extractor_version", "flags", "sha256"}
    assert qset["chunking"] == {"size": 512, "overlap": 64, "group_size": 3}


def test_paper_matches_pins(qset, doc):
    paper = qset["paper"]
    assert doc.text_fingerprint == paper["text"]
    assert doc.sha256 == paper["sha256"], "the test papers are the pinned copies"


def test_ids_labels_and_size(qset):
    quotes = qset["quotes"]
    assert len(quotes) >= 150
    ids = [q["id"] for q in quotes]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for q in quotes:
        assert ID_RE.match(q["id"]), q["id"]
        assert isinstance(q["text"], str), q["id"]
        assert q["label"] in {"faithful", "fabricated"}, q["id"]
        assert q["tags"] and len(q["tags"]) == len(set(q["tags"])), q["id"]
        allowed = FAITHFUL_TAGS if q["label"] == "faithful" else FABRICATED_TAGS
        assert set(q["tags"]) <= allowed, (q["id"], q["tags"])
        assert isinstance(q.get("cited_chunk"), int), q["id"]


def test_class_coverage(qset):
    faithful = Counter(t for q in qset["quotes"] if q["label"] == "faithful" for t in q["tags"])
    fabricated = Counter(t for q in qset["quotes"] if q["label"] == "fabricated" for t in q["tags"])
    for tag, n in FAITHFUL_MIN.items():
        assert faithful[tag] >= n, f"faithful {tag}: {faithful[tag]} < {n}"
    for tag, n in FABRICATED_MIN.items():
        assert fabricated[tag] >= n, f"fabricated {tag}: {fabricated[tag]} < {n}"
    assert faithful["ligature"] == 0, "v7 has no ligature glyphs"
    assert fabricated["version-drift"] == 0, "version drift belongs to the v5 set"


def test_anchors(qset, doc):
    for q in qset["quotes"]:
        if q["label"] == "fabricated":
            assert "anchor" not in q, q["id"]
            continue
        a = q["anchor"]
        assert 0 <= a["start"] < a["end"] <= len(doc.text), q["id"]
        assert doc.text[a["start"]:a["end"]] == a["text"], (
            f"{q['id']}: anchor drifted; text there reads {doc.text[a['start']:a['end']]!r}")
        assert a["page"] == doc.page_at(a["start"]), q["id"]


def test_cited_chunks(qset, chunks):
    n = len(chunks.spans)
    for q in qset["quotes"]:
        c = q["cited_chunk"]
        assert 0 <= c < n, q["id"]
        if q["label"] != "faithful":
            continue
        s, e = q["anchor"]["start"], q["anchor"]["end"]
        gs, ge = chunks.group_span(c)
        assert gs <= s and e <= ge, f"{q['id']}: span crosses the cited chunk's group"
        tags = set(q["tags"])
        assert not {"chunk-boundary", "neighbour-chunk"} <= tags, q["id"]
        cs, ce = chunks.spans[c]
        if "chunk-boundary" in tags:
            assert not chunks.contains(c, s, e), q["id"]
            assert cs <= s < ce < e, f"{q['id']}: does not cross the end of chunk {c}"
        elif "neighbour-chunk" in tags:
            assert not chunks.contains(c, s, e), q["id"]
            assert any(chunks.contains(j, s, e) for j in chunks.group_members(c) if j != c), q["id"]
        else:
            assert chunks.contains(c, s, e), f"{q['id']}: span not inside chunk {c}"


def test_chunk_boundary_spans_need_the_group(qset, chunks):
    """Most chunk-boundary quotes lie in no single chunk at all."""
    boundary = [q for q in qset["quotes"] if "chunk-boundary" in q["tags"]]
    outside_all = [q for q in boundary
                   if not any(chunks.contains(c, q["anchor"]["start"], q["anchor"]["end"])
                              for c in range(len(chunks.spans)))]
    assert len(outside_all) >= 12


def test_faithful_quotes_are_their_raw_text(qset):
    for q in qset["quotes"]:
        if q["label"] != "faithful":
            continue
        text, raw, tags = q["text"], q["anchor"]["text"], set(q["tags"])
        # what a model writes: single-spaced, straight quotes, NFKC
        assert text == norm(text), q["id"]
        variants = [norm(v) for v in hyphen_variants(raw, tags)]
        if "plain" in tags:
            assert text == raw and "\n" not in raw and "\f" not in raw, q["id"]
        assert ("\f" in raw) == ("page-break" in tags), q["id"]
        if "hyphen-keep" in tags or "hyphen-drop" in tags:
            assert "-\n" in raw, q["id"]
        if "smart-quote" in tags:
            assert any(ch in raw for ch in "\u2018\u2019\u201c\u201d"), q["id"]
        if "nfkc" in tags:
            assert unicodedata.normalize("NFKC", raw) != raw, q["id"]
        if tags & {"float-interleave", "page-number"}:
            # the quote is a head and a tail of the raw span with material left out between
            assert "\f" in raw, q["id"]
            assert text not in variants, q["id"]
            words = text.split(" ")
            assert any(
                v.startswith(" ".join(words[:k]) + " ") and v.endswith(" " + " ".join(words[k:]))
                for v in variants for k in range(1, len(words))
            ), f"{q['id']}: quote is not head + tail of its anchor"
            if "page-number" in tags:
                assert re.search(r"\n\d{1,3}\n\f", raw), q["id"]
                cleaned = [norm(v) for v in hyphen_variants(re.sub(r"\n\d{1,3}\n\f", "\n", raw), tags)]
                assert text in cleaned, q["id"]
        else:
            assert text in variants, f"{q['id']}: {text!r} is not its normalized anchor"


def test_fabricated_quotes(qset, doc, chunks):
    views = normalized_views(doc.text)
    faithful_texts = {q["text"] for q in qset["quotes"] if q["label"] == "faithful"}
    for q in qset["quotes"]:
        if q["label"] != "fabricated":
            continue
        assert len(q["tags"]) == 1, q["id"]
        kind = q["tags"][0]
        assert q.get("note"), f"{q['id']}: fabricated quotes say what was changed"
        text = norm(q["text"])
        if kind == "trivial":
            assert len(text) < 12 or len(text.split()) < 3, q["id"]
        elif kind == "outside-material":
            assert any(text in v for v in views), f"{q['id']}: outside material must be real text"
            gs, ge = chunks.group_span(q["cited_chunk"])
            assert not any(text in v for v in normalized_views(doc.text[gs:ge])), q["id"]
        elif kind == "cross-flow":
            continue
        elif kind == "partial-word":
            # only ever inside a longer word, never at a word start
            assert any(text in v for v in views), q["id"]
            assert not any(re.search(r"(?<!\w)" + re.escape(text), v) for v in views), q["id"]
        else:
            assert text, q["id"]
            assert q["text"] not in faithful_texts, q["id"]
            for v in views:
                assert text not in v, f"{q['id']}: fabricated quote occurs in the paper"
