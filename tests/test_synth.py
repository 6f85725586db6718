"""The synthetic paper and its quote set (quotelocate.data.synthetic, datasets/synthetic/).

The checks here are written independently of the generator's own bookkeeping: they
read the committed files, re-extract the PDF and normalize text with a small
reference function of their own.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pymupdf
import pytest
import yaml

from quotelocate.data import synthetic as synth
from quotelocate.document import EXTRACT_FLAGS, Document

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "datasets" / "synthetic"
PDF = COMMITTED / "synthetic.pdf"
SET = COMMITTED / "synthetic.yaml"

# From datasets/README.md ("Tags").
FAITHFUL_TAGS = set(
    "plain linebreak ligature hyphen-keep hyphen-drop page-number page-break chunk-boundary "
    "neighbour-chunk smart-quote nfkc float-interleave footnote caption running-header "
    "margin-stamp two-column table".split()
)
FABRICATED_TAGS = set(
    "number case negation marker-dropped splice paraphrase word-swap word-missing word-added "
    "version-drift trivial lookalike invented-tail punctuation outside-material cross-flow "
    "cross-column".split()
)
# What the set must cover: every artifact class and every kind of fabrication.
REQUIRED_FAITHFUL = set(
    "linebreak ligature hyphen-keep hyphen-drop page-number page-break running-header "
    "margin-stamp footnote table float-interleave two-column smart-quote nfkc plain "
    "chunk-boundary".split()
)
REQUIRED_FABRICATED = set(
    "number case negation marker-dropped splice paraphrase word-swap trivial lookalike "
    "invented-tail punctuation cross-flow cross-column".split()
)
# Tags whose artifact survives ligature folding, straight quotes and whitespace collapse.
NOT_FOLDABLE = {
    "hyphen-drop", "hyphen-keep", "page-number", "page-break", "running-header",
    "margin-stamp", "table", "float-interleave",
}
LIGATURE_POINTS = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
HEADER = "Synthetic Test Paper \u2014 Draft"
STAMP = "arXiv:2601.00001v1 [cs.CL] 1 Jan 2026"


def reference_normalize(text: str) -> str:
    """Ligatures to letters, curly quotes to straight ones, whitespace runs to a space."""
    for glyph, letters in LIGATURE_POINTS.items():
        text = text.replace(glyph, letters)
    text = text.replace("\u2018", "'").replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip()


def generous_fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", reference_normalize(text))
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def qset() -> dict:
    with SET.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def doc() -> Document:
    return Document.open(PDF)


@pytest.fixture(scope="module")
def quotes(qset: dict) -> list[dict]:
    return qset["quotes"]


def _same_pymupdf(qset: dict) -> bool:
    return str(qset["paper"]["text"]["extractor_version"]) == str(pymupdf.VersionBind)


# -- generation ---------------------------------------------------------------------


def test_generation_is_deterministic_and_matches_committed(tmp_path: Path, qset: dict) -> None:
    a = synth.write_synthetic(tmp_path / "a")
    b = synth.write_synthetic(tmp_path / "b")
    assert [p.name for p in a] == ["synthetic.pdf", "synthetic.yaml"]
    digest = [hashlib.sha256(p.read_bytes()).hexdigest() for p in a]
    assert digest == [hashlib.sha256(p.read_bytes()).hexdigest() for p in b]
    if _same_pymupdf(qset):
        assert a[0].read_bytes() == PDF.read_bytes(), "regenerate with `quotelocate synth`"
        assert a[1].read_text(encoding="utf-8") == SET.read_text(encoding="utf-8")
    else:  # another pymupdf may write other bytes, but the text must not move
        assert Document.open(a[0]).text == Document.open(PDF).text


def test_drawn_lines_are_what_pymupdf_extracts() -> None:
    paper = synth.build_synthetic()
    assert paper.document.text == synth.expected_text(paper.lines)
    assert paper.document.text == Document.from_pdf_bytes(PDF.read_bytes()).text


def test_pdf_has_no_dates_or_random_id() -> None:
    with pymupdf.open(PDF) as pdf:
        assert pdf.metadata["creationDate"] == "" and pdf.metadata["modDate"] == ""
        assert "ID" not in pdf.xref_get_keys(-1)


# -- the paper's artifacts ------------------------------------------------------------


def test_paper_shape(doc: Document) -> None:
    assert 4 <= len(doc.pages) <= 6
    for glyph in "\ufb00\ufb01\ufb02\ufb03":
        assert glyph in doc.text, f"no U+{ord(glyph):04X} in the extracted text"
    for needle in ("\u2019", "\u201c", "\u201d", "10\u00b2", "\u00bd", "[12]", "[^3]", "computa-\ntion",
                   "state-\nof-the-art"):
        assert needle in doc.text, needle


def test_header_and_page_number_on_every_page(doc: Document) -> None:
    for page in doc.pages:
        lines = doc.text[page.start:page.end].splitlines()
        assert lines[0] == HEADER, page.number
        assert lines[-1] == str(page.number), page.number


def test_rotated_stamp_on_page_one_only(doc: Document) -> None:
    stamps = [ln for ln in doc.lines if doc.text[ln.start:ln.end] == STAMP]
    assert len(stamps) == 1
    assert stamps[0].page == 1 and stamps[0].direction != (1.0, 0.0)


def test_two_column_page(doc: Document) -> None:
    pages_with_columns = set()
    for page in doc.pages:
        body = [ln for ln in doc.lines if ln.page == page.number and ln.size >= 9.5 and ln.bbox[1] > 60]
        mid = page.width / 2
        if any(ln.bbox[2] < mid for ln in body) and any(ln.bbox[0] > mid for ln in body):
            pages_with_columns.add(page.number)
    assert pages_with_columns == {4}


# -- the quote set --------------------------------------------------------------------


def test_set_header(qset: dict, doc: Document) -> None:
    assert qset["format"] == 1 and qset["name"] == "synthetic"
    paper = qset["paper"]
    assert paper["file"] == "synthetic.pdf"
    assert paper["sha256"] == hashlib.sha256(PDF.read_bytes()).hexdigest()
    assert paper["url"] == "file:datasets/synthetic/synthetic.pdf" and paper["version"] == "1"
    text = paper["text"]
    assert text["extractor"] == "pymupdf" and isinstance(text["extractor_version"], str)
    assert text["flags"] == EXTRACT_FLAGS == 67 and text["sha256"] == doc.text_sha256
    assert qset["chunking"] == {"size": 512, "overlap": 64, "group_size": 3}


def test_yaml_has_no_aliases_or_tags() -> None:
    events = list(yaml.parse(SET.read_text(encoding="utf-8"), Loader=yaml.SafeLoader))
    for ev in events:
        assert getattr(ev, "anchor", None) is None
        assert not isinstance(ev, yaml.AliasEvent)
        if isinstance(ev, yaml.ScalarEvent):
            assert ev.tag is None


def test_ids_unique_and_well_formed(quotes: list[dict]) -> None:
    ids = [q["id"] for q in quotes]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+", i) for i in ids)


def test_counts_and_tag_vocabulary(quotes: list[dict]) -> None:
    faithful = [q for q in quotes if q["label"] == "faithful"]
    fabricated = [q for q in quotes if q["label"] == "fabricated"]
    assert len(faithful) + len(fabricated) == len(quotes)
    assert len(faithful) >= 40 and len(fabricated) >= 25
    seen_f = Counter(t for q in faithful for t in q["tags"])
    seen_x = Counter(t for q in fabricated for t in q["tags"])
    assert set(seen_f) <= FAITHFUL_TAGS and set(seen_x) <= FABRICATED_TAGS
    assert REQUIRED_FAITHFUL <= set(seen_f), REQUIRED_FAITHFUL - set(seen_f)
    assert REQUIRED_FABRICATED <= set(seen_x), REQUIRED_FABRICATED - set(seen_x)


def test_every_anchor_verifies(quotes: list[dict], doc: Document) -> None:
    for q in quotes:
        if q["label"] == "fabricated":
            assert "anchor" not in q, q["id"]
            continue
        a = q["anchor"]
        assert doc.text[a["start"]:a["end"]] == a["text"], q["id"]
        assert doc.page_at(a["start"]) == a["page"], q["id"]
        assert doc.text.count(a["text"]) == 1, q["id"]


def test_faithful_quotes_are_written_like_a_model(quotes: list[dict]) -> None:
    for q in quotes:
        if q["label"] != "faithful":
            continue
        text = q["text"]
        assert not set(text) & set(LIGATURE_POINTS), q["id"]
        assert "\n" not in text and "  " not in text and text == text.strip(), q["id"]
        assert HEADER not in text and STAMP not in text, q["id"]


def test_artifacts_are_exercised(quotes: list[dict]) -> None:
    """Folding ligatures, quotes and whitespace is enough for some quotes and not for others."""
    differ = 0
    for q in quotes:
        if q["label"] != "faithful":
            continue
        raw = reference_normalize(q["anchor"]["text"])
        model = reference_normalize(q["text"])
        if set(q["tags"]) & NOT_FOLDABLE:
            assert raw != model, q["id"]
            differ += 1
        else:
            assert raw == model, q["id"]
        if set(q["tags"]) & {"ligature", "smart-quote"}:
            assert q["anchor"]["text"] != q["text"], q["id"]
    assert differ >= 12


def test_body_lines_read_as_the_quote(quotes: list[dict], doc: Document) -> None:
    """An independent oracle for the hard cases: keep only horizontal body-size lines of
    the anchor (furniture, footnotes, captions and tables are set smaller or rotated) and
    join end-of-line hyphens whichever way continues the quote."""
    for q in quotes:
        if q["label"] != "faithful" or not set(q["tags"]) & NOT_FOLDABLE:
            continue
        s, e = q["anchor"]["start"], q["anchor"]["end"]
        target = reference_normalize(q["text"])
        pieces = [
            doc.text[max(ln.start, s):min(ln.end, e)]
            for ln in doc.lines
            if ln.end > s and ln.start < e and ln.size > 9.0 and ln.direction == (1.0, 0.0)
        ]
        joined = ""
        for piece in pieces:
            if joined.endswith("-"):
                options = [joined + piece, joined[:-1] + piece]
                fits = [o for o in options if target.startswith(reference_normalize(o))]
                assert len(fits) == 1, q["id"]
                joined = fits[0]
            else:
                joined = f"{joined} {piece}" if joined else piece
        assert reference_normalize(joined) == target, q["id"]


def test_fabricated_quotes_are_not_in_the_paper(quotes: list[dict], doc: Document) -> None:
    keep = doc.text.replace("-\n", "-")
    drop = doc.text.replace("-\n", "")
    no_furniture = "\n".join(
        ln for ln in doc.text.replace("\f", "\n").split("\n")
        if ln not in {HEADER, STAMP} and not ln.isdigit()
    )
    hays = [generous_fold(t) for t in (doc.text, keep, drop)]
    for q in quotes:
        if q["label"] != "fabricated" or "trivial" in q["tags"]:
            continue
        needle = generous_fold(q["text"])
        assert all(needle not in hay for hay in hays), q["id"]
        if "cross-flow" not in q["tags"]:  # those may run on once the furniture is gone
            assert needle not in generous_fold(no_furniture), q["id"]


def test_cited_chunks(quotes: list[dict], doc: Document, qset: dict) -> None:
    size, overlap, group = (qset["chunking"][k] for k in ("size", "overlap", "group_size"))
    stride = size - overlap
    n = len(doc.text)

    def span(i: int) -> tuple[int, int]:
        return i * stride, min(i * stride + size, n)

    last_chunk = max(i for i in range(n) if i * stride < n)
    for q in quotes:
        if q["label"] != "faithful":
            continue
        c = q["cited_chunk"]
        assert 0 <= c <= last_chunk, q["id"]
        s, e = q["anchor"]["start"], q["anchor"]["end"]
        c0, c1 = span(c)
        g = c // group
        g0, g1 = span(g * group)[0], span(min(g * group + group - 1, last_chunk))[1]
        inside_cited = c0 <= s and e <= c1
        assert g0 <= s and e <= g1, f"{q['id']}: not in the cited chunk's group"
        if "chunk-boundary" in q["tags"]:
            assert not any(span(i)[0] <= s and e <= span(i)[1] for i in range(last_chunk + 1)), q["id"]
            assert c0 <= s < c1 < e, q["id"]
        elif "neighbour-chunk" in q["tags"]:
            assert not inside_cited, q["id"]
        else:
            assert inside_cited, q["id"]
