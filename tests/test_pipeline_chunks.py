"""A pipeline's own chunks placed on the paper by aligning their text: the three input
shapes, per-chunk errors, and real llama-index ``SentenceSplitter`` and LangChain
``RecursiveCharacterTextSplitter`` output over pymupdf and pypdf text of v7, made here
by those libraries (the ``chunkers`` extra) with the network shut off."""

from __future__ import annotations

import io
import json
import re
import socket
from contextlib import contextmanager
from pathlib import Path

import pytest

from quotelocate.chunks import Chunking, group_of
from quotelocate.data.quoteset import load_quote_set
from quotelocate.document import Document
from quotelocate.errors import ChunkError
from quotelocate.interface.cli import main
from quotelocate.locate import Locator
from quotelocate.normalize import preset
from quotelocate.pipeline_chunks import (
    PipelineChunk,
    load_pipeline_chunks,
    place_chunks,
    read_pipeline_chunks,
)
from quotelocate.pipeline_chunks import _squeeze as squeeze

TEXT = (
    "Attention Is All You Need\n"
    "The dominant sequence trans-\nduction models are based on complex recurrent or\n"
    "convolutional neural networks that include an encoder and a decoder.\f"
    "We propose a new simple network architecture, the Trans\ufb01ormer, based\n"
    "solely on attention mechanisms, dispensing with recurrence entirely.\n"
)
DOC = Document.from_text(TEXT)


def write_lines(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


# -- reading ------------------------------------------------------------------------------


def test_every_input_shape_is_read(tmp_path):
    records = [
        {"text": "The dominant sequence transduction models", "page": 1, "start": 5, "end": 47, "id": "c0"},
        {"id_": "node-1", "text": "are based on complex recurrent", "start_char_idx": 60, "end_char_idx": 90,
         "metadata": {"page_label": "1"}, "class_name": "TextNode"},
        {"page_content": "We propose a new simple network architecture", "metadata": {"page": 1, "start_index": 0}},
        {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "document", "Document"],
         "kwargs": {"page_content": "solely on attention mechanisms", "metadata": {"page_label": "2", "start_index": 70}}},
    ]
    chunks, errors = read_pipeline_chunks(write_lines(tmp_path / "c.jsonl", records))
    assert errors == ()
    assert [(c.index, c.page, c.start, c.end, c.id) for c in chunks] == [
        (0, 1, 5, 47, "c0"), (1, 1, 60, 90, "node-1"), (2, 2, 0, 44, ""), (3, 2, 70, 100, "")
    ]
    assert [c.line for c in chunks] == [1, 2, 3, 4]
    (tmp_path / "list.json").write_text(json.dumps(records), encoding="utf-8")
    as_list, _ = read_pipeline_chunks(tmp_path / "list.json")
    assert [c.text for c in as_list] == [c.text for c in chunks]


@pytest.mark.parametrize(
    "record, words",
    [
        ({"txt": "no text field"}, "no chunk text"),
        ({"text": "   "}, "the chunk text is empty"),
        ({"text": "dominant sequence", "index": 5}, "'index' is 5 but the chunk is number 1"),
        ({"text": "dominant sequence", "start": -3}, "offset start must be a whole number >= 0"),
        ({"page_content": "x", "metadata": "page 1"}, "'metadata' must be an object"),
        (["a", "list"], "expected a JSON object, got list"),
    ],
    ids=["no-text", "blank", "index", "negative-offset", "metadata", "not-object"],
)
def test_a_bad_record_is_an_error_of_that_chunk_only(tmp_path, record, words):
    path = write_lines(tmp_path / "c.jsonl", [{"text": "The dominant sequence"}, record, {"text": "solely on attention mechanisms"}])
    placed = load_pipeline_chunks(path, DOC, min_run=12)
    assert [e.index for e in placed.errors] == [1]
    assert str(placed.errors[0]).startswith("line 2: chunk 1: ") and words in str(placed.errors[0])
    assert len(placed.chunks) == 3 and placed.chunks[1].start == placed.chunks[1].end
    assert TEXT[placed.chunks[2].start : placed.chunks[2].end] == "solely on attention mechanisms"


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "no chunks"),
        (b'{"text": "a"}\n{not json\n', "line 2: invalid JSON"),
        (b'{"text": "\xff"}\n', "line 1: not valid UTF-8"),
    ],
    ids=["empty", "bad-json", "bad-utf8"],
)
def test_an_unreadable_file_names_file_and_line(tmp_path, content, words):
    path = tmp_path / "c.jsonl"
    path.write_bytes(content)
    with pytest.raises(ChunkError, match=re.escape(str(path)) + ".*" + re.escape(words)):
        read_pipeline_chunks(path)
    with pytest.raises(ChunkError, match="no such chunk file"):
        read_pipeline_chunks(tmp_path / "missing.jsonl")


# -- placing --------------------------------------------------------------------------------


def test_text_from_another_extraction_is_placed_under_the_normalization_rules():
    chunks = [
        PipelineChunk(0, "Attention Is All You Need The dominant sequence transduction models"),  # dehyphenated
        PipelineChunk(1, "convolutional  neural networks that include an encoder\nand a decoder."),
        PipelineChunk(2, "the Transfiormer, based solely on attention mechanisms,"),  # ligature spelled out
    ]
    placed = place_chunks(chunks, DOC, min_run=16)
    assert placed.errors == () and placed.exact == 0
    texts = [TEXT[c.start : c.end] for c in placed.chunks]
    assert texts == [
        "Attention Is All You Need\nThe dominant sequence trans-\nduction models",
        "convolutional neural networks that include an encoder and a decoder.",
        "the Trans\ufb01ormer, based\nsolely on attention mechanisms,",
    ]


def test_a_chunk_from_elsewhere_gets_an_error_and_cites_nothing():
    chunks = [
        PipelineChunk(0, "The dominant sequence transduction models are based on complex recurrent", line=1),
        PipelineChunk(1, "We describe a convolutional model for image classification on ImageNet.", line=2),
        PipelineChunk(2, "We propose a new simple network architecture", line=3),
    ]
    placed = place_chunks(chunks, DOC, min_run=16)
    assert [str(e) for e in placed.errors] == [
        "line 2: chunk 1: none of its text occurs in the document, even normalized (16-character runs of "
        "'We describe a convolutional model for image classification o…' were searched): it was cut from "
        "other text or another paper"
    ]
    loc = Locator(DOC, preset("recommended"), chunking=Chunking(group_size=1), chunks=placed.chunks)
    assert loc.locate("We propose a new simple network architecture", cited_chunk=2).accepted
    v = loc.locate("We propose a new simple network architecture", cited_chunk=1)
    assert not v.accepted and v.status == "outside-material"


def test_a_placed_chunk_never_holds_more_than_its_own_text():
    # the pipeline's page header is not in the paper: the chunk starts where its text does
    chunk = PipelineChunk(0, "Journal of Things, vol. 3\nThe dominant sequence transduction models are based on")
    (c,) = place_chunks([chunk], DOC, min_run=16).chunks
    assert TEXT[c.start : c.end] == "The dominant sequence trans-\nduction models are based on"


# -- real splitters over v7 ------------------------------------------------------------------


@contextmanager
def no_network():
    """Any attempt to open a connection fails the test (a tokenizer download, say)."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access while chunking: {args[:2]}")

    saved = (socket.socket.connect, socket.create_connection, socket.getaddrinfo)
    socket.socket.connect, socket.create_connection, socket.getaddrinfo = refuse, refuse, refuse  # type: ignore[assignment]
    try:
        yield
    finally:
        socket.socket.connect, socket.create_connection, socket.getaddrinfo = saved  # type: ignore[assignment]


def word_tokens(text: str) -> list[str]:
    """A tokenizer that ships with nothing: words and punctuation marks."""
    return re.findall(r"\w+|[^\w\s]", text)


def page_texts(path: Path, extractor: str) -> list[str]:
    if extractor == "pymupdf":
        import pymupdf

        with pymupdf.open(path) as pdf:
            return [page.get_text() for page in pdf]
    import pypdf

    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


def sentence_splitter_records(pages: list[str], cache: Path, monkeypatch) -> list[dict]:
    """llama-index SentenceSplitter 512/64 over one Document per page, as node dicts."""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))  # an empty cache: a tiktoken load would download
    with no_network():
        from llama_index.core import Document as LlamaDocument
        from llama_index.core.node_parser import SentenceSplitter

        splitter = SentenceSplitter(chunk_size=512, chunk_overlap=64, tokenizer=word_tokens)
        docs = [LlamaDocument(text=t, metadata={"page_label": str(i + 1)}) for i, t in enumerate(pages)]
        nodes = splitter.get_nodes_from_documents(docs)
    return [node.to_dict() for node in nodes]


def recursive_splitter_records(pages: list[str]) -> list[dict]:
    """LangChain RecursiveCharacterTextSplitter over one Document per page (0-based page, as loaders write it)."""
    with no_network():
        from langchain_core.documents import Document as LangChainDocument
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(chunk_size=2000, chunk_overlap=200, add_start_index=True)
        docs = [LangChainDocument(page_content=t, metadata={"page": i}) for i, t in enumerate(pages)]
        out = splitter.split_documents(docs)
    return [{"page_content": d.page_content, "metadata": d.metadata} for d in out]


@pytest.fixture(scope="module")
def v7():
    return load_quote_set("attention-v7")


PIPELINES = [("sentence", "pymupdf"), ("sentence", "pypdf"), ("recursive", "pymupdf"), ("recursive", "pypdf")]


_BUILT: dict[tuple[str, str], tuple] = {}


def built(splitter: str, extractor: str, v7, folder: Path) -> tuple:
    """The pipeline's chunk file (made once per session): (splitter, extractor, path, records)."""
    key = (splitter, extractor)
    if key not in _BUILT:
        pages = page_texts(v7.paper_path, extractor)
        with pytest.MonkeyPatch.context() as mp:
            if splitter == "sentence":
                records = sentence_splitter_records(pages, folder / "tiktoken", mp)
            else:
                records = recursive_splitter_records(pages)
        _BUILT[key] = (splitter, extractor, write_lines(folder / f"{splitter}-{extractor}.jsonl", records), records)
    return _BUILT[key]


@pytest.fixture(scope="module", params=PIPELINES, ids=[f"{s}-{e}" for s, e in PIPELINES])
def pipeline(request, v7, tmp_path_factory):
    return built(*request.param, v7, tmp_path_factory.mktemp("chunks"))


def test_real_pipeline_chunks_are_all_placed(pipeline, v7):
    splitter, extractor, path, records = pipeline
    doc = v7.document()
    placed = load_pipeline_chunks(path, doc)
    assert placed.errors == ()
    assert len(placed.chunks) == len(records) >= 15
    text = doc.text
    for c, rec in zip(placed.chunks, records):
        own = squeeze(rec.get("text") or rec.get("page_content"))
        there = squeeze(text[c.start : c.end])
        # the placed span reads the chunk's own text, give or take what the extractions differ in
        assert 0.8 * len(own) <= len(there) <= len(own) + 8, (c, len(own), len(there))
    if extractor == "pymupdf":
        # the splitters' own offsets (into each page's text) read most spans exactly (not
        # where the two pymupdf calls differ, e.g. a glyph without Unicode: U+FFFD or its code)
        assert placed.exact >= 0.9 * len(records)
        stripped = [PipelineChunk(c.index, c.text, c.page) for c in read_pipeline_chunks(path)[0]]
        assert place_chunks(stripped, doc).chunks == placed.chunks


GROUP = 8


def pipeline_citations(v7, chunk_texts: list[str]) -> tuple[list[tuple], list[str]]:
    """(quote, cited pipeline chunk) pairs: a faithful quote cites the pipeline chunk that
    holds it (or holds its start, when its end is in the same group); a fabricated one
    cites the pipeline chunk that holds the middle of the chunk it cited. Quotes no
    pipeline group could have shown whole, and outside-material quotes that the
    pipeline's group does hold, are left out (their labels do not carry over)."""
    sk = [squeeze(t) for t in chunk_texts]
    doc = v7.document()
    own = v7.chunks
    rows, left_out = [], []

    def group_members(i: int) -> list[str]:
        g = group_of(i, GROUP)
        return sk[g * GROUP : (g + 1) * GROUP]

    for q in v7.quotes:
        if q.cited_chunk is None:
            rows.append((q, None))
            continue
        s = squeeze(q.text)
        if q.faithful:
            holders = [i for i, c in enumerate(sk) if s in c]
            if not holders:
                holders = [i for i, c in enumerate(sk) if s[:30] in c and any(s[-30:] in m for m in group_members(i))]
            if not holders:
                left_out.append(q.id)
                continue
            rows.append((q, holders[0]))
        else:
            c = own[q.cited_chunk]
            holders = []
            for at in range(c.start, c.end - 60, 30):  # a piece of the cited chunk the pipeline has too
                piece = squeeze(doc.text[at : at + 60])
                holders = [i for i, t in enumerate(sk) if piece in t]
                if holders:
                    break
            assert holders, q.id
            if "outside-material" in q.tags and any(s in m for m in group_members(holders[0])):
                left_out.append(q.id)
                continue
            rows.append((q, holders[0]))
    return rows, left_out


def rates(locator: Locator, rows: list[tuple], *, own: bool) -> tuple[float, float]:
    fr = fa = nf = nx = 0
    for q, i in rows:
        cited = q.cited_chunk if own else i
        v = locator.locate(q.text, cited_chunk=cited) if cited is not None else locator.locate(q.text)
        if q.faithful:
            nf += 1
            fr += not v.accepted
        else:
            nx += 1
            fa += v.accepted
    return fr / nf, fa / nx


def test_pipeline_chunks_as_cited_chunks_keep_the_rates(pipeline, v7):
    splitter, extractor, path, records = pipeline
    doc = v7.document()
    placed = load_pipeline_chunks(path, doc)
    rows, left_out = pipeline_citations(v7, [r.get("text") or r.get("page_content") for r in records])
    assert len(left_out) <= 0.1 * len(v7.quotes), left_out
    rules = preset("recommended")
    fr, fa = rates(Locator(doc, rules, chunking=Chunking(group_size=GROUP), chunks=placed.chunks), rows, own=False)
    fr_own, fa_own = rates(Locator(doc, rules, chunking=v7.chunking), rows, own=True)
    assert fa == 0.0 and fa_own == 0.0
    assert fr <= fr_own + 0.02, (fr, fr_own)


def test_cli_locate_with_sentence_splitter_nodes(v7, tmp_path):
    splitter, extractor, path, records = built("sentence", "pymupdf", v7, tmp_path)
    quote = "We propose a new simple network architecture, the Transformer"
    holder = next(i for i, r in enumerate(records) if quote in " ".join(r["text"].split()))
    bad = tmp_path / "with-bad-line.jsonl"
    bad.write_text(path.read_text(encoding="utf-8") + json.dumps({"text": "no such sentence is in the paper at all, not anywhere"}) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["locate", str(v7.paper_path), quote, "--chunks", str(bad), "--group-size", "8",
                 "--cited-chunk", str(holder), "--scope", "chunk"], out=out, err=err)
    assert code == 0, out.getvalue() + err.getvalue()
    assert out.getvalue().startswith("ACCEPTED")
    assert f"line {len(records) + 1}: chunk {len(records)}: none of its text occurs in the document" in err.getvalue()
