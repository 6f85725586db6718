"""Chunks and groups, and explicit chunk files with their error messages."""

from __future__ import annotations

import json

import pytest

from quotelocate import Chunking, Document, Locator
from quotelocate.chunks import Chunk, group_span, load_chunks_file, make_chunks
from quotelocate.errors import ChunkError, ConfigError

TEXT = "".join(f"Sentence number {i} is here. " for i in range(60))


def test_chunks_cover_the_text_with_overlap():
    chunks = make_chunks(TEXT, Chunking(size=100, overlap=20, group_size=3))
    assert chunks[0].start == 0 and chunks[-1].end == len(TEXT)
    assert all(b.start == a.start + 80 for a, b in zip(chunks, chunks[1:]))
    assert all(a.end - b.start == 20 for a, b in zip(chunks[:-2], chunks[1:-1]))
    assert group_span(chunks, 1, 3) == (chunks[3].start, chunks[5].end)


@pytest.mark.parametrize("kwargs", [{"size": 0}, {"overlap": 512}, {"overlap": -1}, {"group_size": 0}, {"size": True}])
def test_bad_chunking(kwargs):
    with pytest.raises(ConfigError):
        Chunking(**kwargs)


def test_scopes_chunk_group_document():
    doc = Document.from_text(TEXT)
    loc = Locator(doc, "recommended", chunking=Chunking(size=100, overlap=20, group_size=3))
    i = TEXT.index("Sentence number 2 is")
    quote = "Sentence number 2 is here."
    inside = loc.chunks_containing(i, i + len(quote))
    assert inside
    cited = inside[0]
    assert loc.locate(quote, cited_chunk=cited, scope="chunk").status == "exact"
    far = len(loc.chunks) - 1
    v = loc.locate(quote, cited_chunk=far)
    assert v.status == "outside-material" and not v.accepted and v.start == i
    # crossing a chunk boundary inside the group: group-fallback
    c0 = loc.chunks[0]
    cross = TEXT[c0.end - 30 : c0.end + 30].strip()
    cross = cross[cross.index(" ") + 1 : cross.rindex(" ")]
    v = loc.locate(cross, cited_chunk=0)
    assert v.status == "group-fallback" and v.accepted
    assert not loc.locate(cross, cited_chunk=0, scope="chunk").accepted
    with pytest.raises(ConfigError):
        loc.locate(quote, scope="chunk")
    with pytest.raises(ConfigError):
        loc.locate(quote, cited_chunk=10_000)


def test_chunks_containing_lists_every_chunk_holding_the_span():
    # with overlapping chunks a span in an overlap lies in two chunks, one elsewhere in
    # one, and one crossing a boundary in none; a locator sharing the index with other
    # chunks answers for its own chunks
    loc = Locator(Document.from_text(TEXT), "recommended", chunking=Chunking(size=100, overlap=20, group_size=3))

    def every(chunks, start, end):
        return tuple(c.index for c in chunks if c.start <= start and end <= c.end)

    seen = set()
    for start in range(0, len(TEXT) - 12, 7):
        for width in (1, 12, 19, 40):
            got = loc.chunks_containing(start, start + width)
            assert got == every(loc.chunks, start, start + width), (start, width)
            seen.add(len(got))
    assert seen == {0, 1, 2}
    other = loc.with_chunks([Chunk(0, 0, 300), Chunk(1, 250, 700), Chunk(2, 260, 400)])
    assert other.chunks_containing(270, 290) == (0, 1, 2)
    assert other.chunks_containing(310, 390) == (1, 2)
    assert other.chunks_containing(10, 20) == (0,)
    assert loc.chunks_containing(270, 290) == every(loc.chunks, 270, 290)


def _write(tmp_path, lines):
    path = tmp_path / "chunks.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_explicit_chunks_are_found_in_order(tmp_path):
    first, second = TEXT[:200], TEXT[150:400]
    path = _write(tmp_path, [json.dumps({"index": 0, "text": first}), json.dumps({"index": 1, "text": second})])
    chunks = load_chunks_file(path, TEXT)
    assert [(c.start, c.end) for c in chunks] == [(0, 200), (150, 400)]


@pytest.mark.parametrize(
    "lines,message",
    [
        (["{not json"], "line 1: invalid JSON"),
        (['{"index": 0}'], "line 1: expected an object with a string 'text'"),
        (['{"index": 1, "text": "Sentence"}'], "line 1: 'index' must be 0"),
        (['{"index": 0, "text": "not in the document at all"}'], "line 1: chunk 0 does not occur"),
        (['{"index": 0, "text": "Sentence", "start": 5, "end": 13}'], "differs from the document at 5:13"),
        (['"a string"'], "line 1: expected a JSON object"),
        ([""], "no chunks"),
    ],
)
def test_bad_chunk_files(tmp_path, lines, message):
    with pytest.raises(ChunkError, match=message.replace("(", r"\(")):
        load_chunks_file(_write(tmp_path, lines), TEXT)


def test_missing_chunk_file(tmp_path):
    with pytest.raises(ChunkError, match="no such file"):
        load_chunks_file(tmp_path / "nope.jsonl", TEXT)

