"""quotelocate.verify: many quotes over many documents in one call, with the verdicts
Locator.locate gives, in input order."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml

import quotelocate
from quotelocate import Chunking, Document, Locator, preset
from quotelocate.chunks import Chunk
from quotelocate.errors import ChunkError, QuoteInputError
from quotelocate.verify import Verifier, verify, verify_frame

from conftest import REPO, locator, paper_path

V7 = "1706.03762v7.pdf"
SYNTH_PDF = REPO / "datasets" / "synthetic" / "synthetic.pdf"


def _set_quotes(path: Path) -> list[dict]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [{"quote": q["text"], "cited_chunk": q.get("cited_chunk")} for q in data["quotes"]]


def test_package_exports_the_function_not_the_module():
    import sys

    import quotelocate.verify  # noqa: F401  binds the module name on the package

    assert quotelocate.verify is sys.modules["quotelocate.verify"].verify
    assert quotelocate.locate is not None and callable(quotelocate.locate)
    assert quotelocate.Locator  # importing quotelocate.locate must not shadow the function
    assert callable(quotelocate.locate) and callable(quotelocate.normalize)


def test_same_verdicts_as_locator_on_two_real_papers_interleaved():
    v7_items = [{"doc": "v7", **q} for q in _set_quotes(REPO / "datasets" / "attention-v7.yaml")]
    synth_items = [{"doc": "synth", **q} for q in _set_quotes(REPO / "datasets" / "synthetic" / "synthetic.yaml")]
    items = [x for pair in zip(v7_items, synth_items) for x in pair] + v7_items[len(synth_items):]
    docs = {"v7": paper_path(V7), "synth": SYNTH_PDF.read_bytes()}  # one path, one as bytes

    verdicts = verify(docs, items)

    assert len(verdicts) == len(items)
    expected_v7 = locator(V7)
    expected_synth = Locator(Document.open(SYNTH_PDF), preset("recommended"))
    statuses = set()
    for item, got in zip(items, verdicts):
        loc = expected_v7 if item["doc"] == "v7" else expected_synth
        want = loc.locate(item["quote"], cited_chunk=item["cited_chunk"])
        assert got == want, item["quote"]
        assert got.to_dict() == want.to_dict()
        statuses.add(got.status)
    # the sets exercise accepts and rejects of several kinds, so equality is not trivial
    assert {"normalized", "not-found", "outside-material"} <= statuses


def test_one_locator_per_document_and_rules():
    doc = Document.from_text("The encoder maps an input sequence to a sequence of continuous representations.")
    verifier = Verifier({"a": doc, "b": doc})
    items = [{"doc": "a", "quote": "maps an input sequence"}] * 3 + [
        {"doc": "b", "quote": "maps an input sequence"},
        {"doc": "a", "quote": "maps an input sequence", "rules": "exact"},
    ]
    verdicts = verifier.verify(items)
    assert [v.accepted for v in verdicts] == [True] * 5
    assert len(verifier._locators) == 3  # (a, recommended), (b, recommended), (a, exact)
    assert verdicts[4].fingerprint == preset("exact").fingerprint != verdicts[0].fingerprint
    verifier.verify(items)  # a second batch reuses them
    assert len(verifier._locators) == 3


def test_explicit_chunks_and_cited_chunk():
    text = "Alpha beta gamma delta epsilon.\nZeta eta theta iota kappa lambda."
    chunks = ["Alpha beta gamma delta epsilon.", "Zeta eta theta iota kappa lambda."]
    docs = {"d": text.encode()}
    inside, outside = verify(docs, [
        {"doc": "d", "quote": "Zeta eta theta iota", "cited_chunk": 1, "chunks": chunks, "scope": "chunk"},
        {"doc": "d", "quote": "Alpha beta gamma delta", "cited_chunk": 1, "chunks": chunks, "scope": "chunk"},
    ])  # fmt: skip
    assert (inside.accepted, inside.status, inside.chunks) == (True, "exact", (1,))
    assert (outside.accepted, outside.status, outside.start) == (False, "outside-material", 0)
    with pytest.raises(ChunkError, match=r"items\[0\]\.chunks\[1\]"):
        verify(docs, [{"doc": "d", "quote": "Zeta eta theta iota", "chunks": ["Alpha beta", "not in it"]}])


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([{"quote": "a b c d e f"}], r"items\[0\]\.doc"),
        ([{"doc": "nope", "quote": "a b c d e f"}], r"items\[0\]\.doc: no document with id 'nope'"),
        ([{"doc": "d", "quote": 3}], r"items\[0\]\.quote: expected a string"),
        ([{"doc": "d", "quote": "x y z w", "cited_chunk": "1"}], r"items\[0\]\.cited_chunk"),
        ([{"doc": "d", "quote": "x y z w", "cited_chunk": 99}], r"items\[0\]: cited_chunk: 99"),
        ([{"doc": "d", "quote": "x y z w", "rules": "loose"}], r"items\[0\]\.rules"),
        ([{"doc": "d", "quote": "x y z w", "colour": "red"}], r"items\[0\]: unknown field 'colour'"),
        (["just a quote"], r"items\[0\]: expected a mapping"),
        ("a string", r"items: expected a sequence"),
    ],
)
def test_bad_items_name_the_item(items, message):
    with pytest.raises(QuoteInputError, match=message):
        verify({"d": Document.from_text("some words in a document here")}, items)


def test_bad_documents_name_the_id():
    with pytest.raises(QuoteInputError, match=r"^d: line 1: not valid UTF-8"):
        verify({"d": b"\xff\xfe not text"}, [{"doc": "d", "quote": "a b c d e f g"}])
    with pytest.raises(QuoteInputError, match=r"^d: expected a path, bytes or a Document"):
        verify({"d": 42}, [{"doc": "d", "quote": "a b c d e f g"}])
    with pytest.raises(QuoteInputError, match=r"^d: a string is read as a path, and this one looks like document text"):
        verify({"d": "Some text\nof a document"}, [{"doc": "d", "quote": "a b c d e f g"}])
    with pytest.raises(quotelocate.QuotelocateError, match="no such file"):
        verify({"d": "/nonexistent/paper.pdf"}, [{"doc": "d", "quote": "a b c d e f g"}])


def test_verify_frame_adds_columns_and_keeps_the_frame():
    v7 = locator(V7)
    real = ("self-attention layers are faster than recurrent layers when the sequence "
            "length n is smaller than the representation dimensionality d")  # crosses a page number
    frame = pd.DataFrame({
        "doc": ["v7", "v7", "v7"],
        "quote": [real, "Our model achieves 28.3 BLEU on the WMT 2014 English-to-German translation task", "too short"],
        "cited_chunk": [None, 2, None],  # pandas stores this as float with NaN
        "note": ["a", "b", "c"],
    })  # fmt: skip
    out = verify_frame(frame, {"v7": v7.document})
    assert list(frame.columns) == ["doc", "quote", "cited_chunk", "note"]  # the input is not changed
    assert list(out.columns) == [*frame.columns, "accepted", "status", "page", "start", "end", "cause", "reason", "fingerprint"]
    assert out["accepted"].tolist() == [True, False, False]
    assert out["status"].tolist() == ["normalized", "not-found", "invalid"]
    assert out["cause"].tolist()[1:] == ["number-changed", "too-short"]
    assert out["page"].tolist()[0] == 6 and pd.isna(out["page"].tolist()[1])
    want = [v7.locate(frame.quote[0]), v7.locate(frame.quote[1], cited_chunk=2), v7.locate(frame.quote[2])]
    assert out["start"].tolist()[0] == want[0].start and out["reason"].tolist() == [w.reason for w in want]
    with pytest.raises(QuoteInputError, match="column 'status' already exists"):
        verify_frame(out.drop(columns=["accepted"]), {"v7": v7.document})
    assert "v_status" in verify_frame(out, {"v7": v7.document}, prefix="v_").columns
    numbered = verify_frame(pd.DataFrame({"doc": [7], "quote": [real]}), {7: v7.document})  # an int64 column
    assert numbered["status"].tolist() == ["normalized"]
    with pytest.raises(QuoteInputError, match="missing column 'quote'"):
        verify_frame(frame.drop(columns=["quote"]), {"v7": v7.document})


# -- what the framework adapters need of a Verifier ------------------------------------


def test_a_given_locator_is_used_as_it_is_and_other_rules_are_refused():
    doc = Document.from_text("The model uses trans-\nduction in the making step of every layer.")
    given = Locator(doc, "exact")
    verifier = Verifier({"d": given}, rules="exact")
    assert verifier.locator("d") is given and verifier.document("d") is doc
    [v] = verifier.verify([{"doc": "d", "quote": "uses transduction in the making step"}])
    assert v == given.locate("uses transduction in the making step") and v.status == "not-found"
    with pytest.raises(QuoteInputError, match=r"items\[0\]: rules: the Locator given for 'd' has other rules"):
        verifier.verify([{"doc": "d", "quote": "uses transduction in the making step", "rules": "recommended"}])
    with pytest.raises(QuoteInputError, match=r"items\[0\]: chunking: the Locator given for 'd' is cut into other chunks"):
        verifier.verify([{"doc": "d", "quote": "in the making step", "chunking": {"size": 20, "overlap": 0}}])
    assert not verifier._locators  # nothing was built beside the given locator


def test_explicit_chunks_share_the_documents_index_and_give_the_verdicts_of_a_locator_built_on_them():
    """A set's quotes cited against explicit chunks (texts or spans): the verdicts of a
    Locator built on those chunks, from one index of the paper."""
    v7 = locator(V7)
    cut = Chunking(size=700, overlap=100, group_size=2)
    spans = [(c.start, c.end) for c in Locator(v7.document, v7.rules, chunking=cut).chunks]
    texts = [v7.document.text[a:b] for a, b in spans]
    want_locator = Locator(v7.document, v7.rules, chunking=cut, chunks=[Chunk(i, a, b) for i, (a, b) in enumerate(spans)])
    quotes = [q for q in _set_quotes(REPO / "datasets" / "attention-v7.yaml") if q["cited_chunk"] is not None]
    quotes = [{**q, "cited_chunk": q["cited_chunk"] % len(spans)} for q in quotes]
    verifier = Verifier({"v7": v7}, chunking=None)
    by_text = verifier.verify([{"doc": "v7", **q, "chunks": texts, "chunking": {"group_size": 2}} for q in quotes])
    with pytest.raises(QuoteInputError, match="other chunks"):  # the given locator has the default chunking
        verifier.verify([{"doc": "v7", **quotes[0], "chunking": cut}])
    by_span = Verifier({"v7": v7.document}, chunking=Chunking(group_size=2)).verify(
        [{"doc": "v7", **q, "chunks": spans} for q in quotes]
    )
    statuses = set()
    for q, a, b in zip(quotes, by_text, by_span):
        want = want_locator.locate(q["quote"], cited_chunk=q["cited_chunk"])
        assert a.to_dict() == want.to_dict() == b.to_dict(), q["quote"]
        statuses.add(a.status)
    assert {"exact", "normalized", "outside-material", "not-found"} <= statuses
    cut_locator = verifier.locator("v7", chunks=spans)
    assert cut_locator.norm is v7.norm and cut_locator.chunks == want_locator.chunks[: len(spans)]


def test_bad_spans_and_chunking_name_the_item():
    docs = {"d": Document.from_text("some words in a document here, and some more words after them")}
    with pytest.raises(ChunkError, match=r"items\[0\]\.chunks\[1\]: span \[5, 900\] is not within"):
        verify(docs, [{"doc": "d", "quote": "some words in a", "chunks": [[0, 10], [5, 900]]}])
    with pytest.raises(ChunkError, match=r"items\[0\]\.chunks\[0\]: expected chunk texts, or \[start, end\] spans"):
        verify(docs, [{"doc": "d", "quote": "some words in a", "chunks": [[0, 10, 3]]}])
    with pytest.raises(QuoteInputError, match=r"items\[0\]\.chunking: unknown field 'step'"):
        verify(docs, [{"doc": "d", "quote": "some words in a", "chunking": {"step": 3}}])
    with pytest.raises(QuoteInputError, match=r"items\[0\]\.chunking: chunking\.overlap"):
        verify(docs, [{"doc": "d", "quote": "some words in a", "chunking": {"size": 10, "overlap": 20}}])


def test_cache_size_keeps_the_documents_used_last_and_forgets_added_ones():
    texts = {f"d{i}": f"Document number {i} holds a sentence about topic {i * 3} here." for i in range(4)}
    verifier = Verifier({k: t.encode() for k, t in texts.items()}, cache_size=2)
    for doc_id in ("d0", "d1", "d0", "d2"):
        [v] = verifier.verify([{"doc": doc_id, "quote": f"number {doc_id[1]} holds a sentence about topic"}])
        assert v.accepted
    assert verifier.opened == ("d0", "d2") and {k[0] for k in verifier._locators} == {"d0", "d2"}
    first = verifier.locator("d0")
    verifier.document("d3")
    verifier.add("extra", Document.from_text("An added document with a sentence in it."))
    assert verifier.opened == ("d3",) and "d0" not in {k[0] for k in verifier._locators}
    assert verifier.locator("d0") is not first  # opened and built again when named again
    assert "extra" in verifier
    verifier.document("d1")
    assert verifier.opened == ("d0", "d1") and "extra" not in verifier  # the added one was forgotten
    with pytest.raises(QuoteInputError, match="no document with id 'extra'"):
        verifier.verify([{"doc": "extra", "quote": "a sentence in it"}])
    with pytest.raises(quotelocate.QuotelocateError, match="cache_size"):
        Verifier({}, cache_size=0)
