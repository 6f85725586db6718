"""QuoteEvaluator with real llama-index-core objects: TextNode, NodeWithScore, Response and
the SentenceSplitter a pipeline chunks with (its tokenizer ships with the package; no model
is called and nothing is downloaded)."""

from __future__ import annotations

import asyncio

import pymupdf
import pytest
from llama_index.core import Document as LlamaDocument
from llama_index.core.base.response.schema import Response
from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.schema import NodeWithScore, TextNode

from conftest import document, paper_path
from quotelocate.errors import ConfigError
from quotelocate.integrations.llamaindex import QuoteEvaluator

CROSSING = (
    "self-attention layers are faster than recurrent layers when the sequence "
    "length n is smaller than the representation dimensionality d"
)  # crosses from page 6 to page 7 over the page number
ABSTRACT = "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task"
ABSTRACT_LINE = "Our model achieves 28.4 BLEU on the WMT 2014"  # the line break comes after "English-"


@pytest.fixture(scope="module")
def v7():
    return document("1706.03762v7.pdf")


@pytest.fixture(scope="module")
def evaluator(v7):
    return QuoteEvaluator(v7)


def _node_around(doc, needle: str, *, before: int = 300, after: int = 300, offsets: bool = True) -> NodeWithScore:
    at = doc.text.find(needle)
    assert at >= 0, needle
    s, e = max(0, at - before), at + len(needle) + after
    node = TextNode(text=doc.text[s:e], start_char_idx=s if offsets else None, end_char_idx=e if offsets else None)
    return NodeWithScore(node=node, score=0.8)


def test_is_a_llamaindex_evaluator(evaluator):
    assert isinstance(evaluator, BaseEvaluator) and evaluator.get_prompts() == {}


def test_quote_inside_the_source_nodes_passes_across_a_page_break(v7, evaluator):
    nodes = [_node_around(v7, "self-attention layers are faster"), _node_around(v7, "Scaled Dot-Product Attention")]
    response = Response(response=f'The authors note that "{CROSSING}".', source_nodes=nodes)
    result = evaluator.evaluate_response(query="When is self-attention faster?", response=response)
    assert isinstance(result, EvaluationResult)
    assert result.passing is True and result.score == 1.0, result.feedback
    assert "1 of 1 quote(s) in" in result.feedback and len(result.contexts) == 2
    check = evaluator.check(response.response, nodes)
    assert [p.how for p in check.placements] == ["offsets", "offsets"]
    assert check.verdicts[0].pages == (6, 7) and "layout" in check.verdicts[0].rules


def test_a_real_sentence_the_model_was_not_shown_is_rejected(v7, evaluator):
    nodes = [_node_around(v7, "self-attention layers are faster")]
    response = Response(response=f'It says "{ABSTRACT}" and "{CROSSING}".', source_nodes=nodes)
    result = evaluator.evaluate_response(response=response)
    assert result.passing is False and result.score == 0.5
    assert "outside the cited material" in result.feedback and "(cause: outside-material)" in result.feedback
    assert "page 1" in result.feedback
    # with no nodes at all the same quotes are checked against the whole paper
    whole = evaluator.evaluate_response(response=Response(response=response.response, source_nodes=[]))
    assert whole.passing is False  # an empty retrieval showed the model nothing
    direct = asyncio.run(evaluator.aevaluate(response=response.response, contexts=None))
    assert direct.passing is True and "checked against the whole paper" in direct.feedback


def test_an_invented_number_fails_with_cause_and_diff(v7, evaluator):
    nodes = [_node_around(v7, ABSTRACT_LINE)]
    invented = ABSTRACT.replace("28.4", "28.3")
    result = evaluator.evaluate_response(response=Response(response=f'"{invented}"', source_nodes=nodes))
    assert result.passing is False and result.score == 0.0
    assert "(cause: number-changed)" in result.feedback and "28.[-4-]{+3+}" in result.feedback


def test_a_quote_running_past_the_node_is_rejected(v7, evaluator):
    # the model saw the text up to the end of the node; a quote that runs on is not in its material
    at = v7.text.find(ABSTRACT_LINE)
    node = TextNode(text=v7.text[at - 200 : at + 40], start_char_idx=at - 200, end_char_idx=at + 40)
    result = evaluator.evaluate_response(response=Response(response=f'"{ABSTRACT}"', source_nodes=[NodeWithScore(node=node)]))
    assert result.passing is False and "(cause: outside-material)" in result.feedback


def test_contexts_without_offsets_are_placed_by_their_text(v7, evaluator):
    node = _node_around(v7, ABSTRACT_LINE, offsets=False)
    result = evaluator.evaluate(response=f'"{ABSTRACT}"', contexts=[node.node.get_content()])
    assert result.passing is True, result.feedback
    assert evaluator.check(f'"{ABSTRACT}"', [node]).placements[0].how == "text"


def test_a_node_from_elsewhere_verifies_nothing(v7, evaluator):
    stranger = NodeWithScore(node=TextNode(text="This node comes from some other paper about gardening and tides entirely."))
    result = evaluator.evaluate_response(response=Response(response=f'"{ABSTRACT}"', source_nodes=[stranger]))
    assert result.passing is False
    assert "source node(s) 0 could not be placed" in result.feedback


def test_pipeline_nodes_from_per_page_text_and_sentence_splitter(v7, evaluator):
    """The usual pipeline: pymupdf's text page by page, SentenceSplitter 512/64, page labels."""
    with pymupdf.open(paper_path("1706.03762v7.pdf")) as pdf:
        pages = [LlamaDocument(text=p.get_text(), metadata={"page_label": str(i + 1)}) for i, p in enumerate(pdf)]
    nodes = SentenceSplitter(chunk_size=512, chunk_overlap=64).get_nodes_from_documents(pages)
    placements = [evaluator.place(i, n) for i, n in enumerate(nodes)]
    hows = {p.how for p in placements}
    assert hows <= {"offsets", "page-offsets", "text", "anchors", "unplaced"} and "page-offsets" in hows
    placed = [p for p in placements if p.start is not None]
    assert len(placed) >= 0.9 * len(nodes), [(p.index, p.how) for p in placements]
    for p in placed:  # a placement covers a real stretch of the node's page(s)
        assert p.end - p.start >= 0.5 * len(nodes[p.index].get_content()) or p.how == "anchors"
    # the node holding the abstract sentence verifies a quote of it, and a neighbour does not
    holder = next(i for i, n in enumerate(nodes) if "28.4 BLEU" in n.get_content())
    ok = evaluator.evaluate_response(response=Response(response=f'"{ABSTRACT}"', source_nodes=[NodeWithScore(node=nodes[holder])]))
    assert ok.passing is True, ok.feedback
    far = next(i for i, n in enumerate(nodes) if n.metadata["page_label"] == "9")
    no = evaluator.evaluate_response(response=Response(response=f'"{ABSTRACT}"', source_nodes=[NodeWithScore(node=nodes[far])]))
    assert no.passing is False and "outside-material" in no.feedback


def test_min_quotes_and_bad_arguments(v7, evaluator):
    nodes = [_node_around(v7, ABSTRACT_LINE)]
    none = evaluator.evaluate_response(response=Response(response="No quotes here.", source_nodes=nodes))
    assert none.passing is False and "0 quoted passage(s) in the response; at least 1 expected" in none.feedback
    lenient = QuoteEvaluator(evaluator.locator, min_quotes=0)
    assert lenient.evaluate_response(response=Response(response="No quotes here.", source_nodes=nodes)).passing is True
    with pytest.raises(ConfigError, match="min_quotes"):
        QuoteEvaluator(v7, min_quotes=-1)
    with pytest.raises(ConfigError, match="response"):
        evaluator.evaluate_response(response=None)
    with pytest.raises(ConfigError, match="other rules"):
        QuoteEvaluator(evaluator.locator, rules="exact")


def test_a_path_or_paper_name_opens_the_document():
    ev = QuoteEvaluator("1706.03762v7.pdf", rules="exact")
    assert ev.locator.document.name.endswith("1706.03762v7.pdf")
    assert asyncio.run(ev.aevaluate(response=f'"{ABSTRACT_LINE}"')).passing is True
    assert asyncio.run(ev.aevaluate(response=f'"{ABSTRACT}"')).passing is False  # a line break "exact" does not fold


# -- chunks cut the way a LlamaIndex pipeline cuts them ---------------------------------


@pytest.fixture(scope="module")
def splitter_chunks(v7, tmp_path_factory):
    """The chunker's output with an empty TIKTOKEN_CACHE_DIR and no network: its tokenizer
    must come from llama-index-core's own copy."""
    import socket

    from quotelocate.integrations.llamaindex import sentence_splitter_chunks

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access while chunking: {args[:2]}")

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path_factory.mktemp("empty-tiktoken-cache")))
        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket, "create_connection", refuse)
        mp.setattr(socket, "getaddrinfo", refuse)
        return sentence_splitter_chunks(v7, chunk_size=512, chunk_overlap=64)


def test_sentence_splitter_chunks_are_the_pipelines_own(v7, splitter_chunks, monkeypatch):
    """Same boundaries as SentenceSplitter(512, 64) with its default tokenizer over one
    document per page, every chunk placed on the paper by its offsets."""
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)  # llama-index then uses its bundled copy
    pages = [LlamaDocument(text=v7.text[p.start : p.end], metadata={"page_label": str(p.number)}) for p in v7.pages]
    nodes = SentenceSplitter(chunk_size=512, chunk_overlap=64).get_nodes_from_documents(pages)
    placed = splitter_chunks
    assert not placed.errors and placed.exact == len(placed.chunks) == len(nodes) > 20
    assert [v7.text[c.start : c.end] for c in placed.chunks] == [n.get_content() for n in nodes]
    assert all(v7.pages_for(c.start, c.end) == (int(n.metadata["page_label"]),) for c, n in zip(placed.chunks, nodes))


def test_sentence_splitter_chunks_as_cited_chunks_keep_the_rates(splitter_chunks):
    """A faithful quote cites the pipeline chunk that holds most of its anchor, a
    fabricated one the pipeline chunk that best covers the chunk it cites in the set:
    what the model would have been shown. With groups of 8 the false-reject rate stays
    within 2 points of quotelocate's own chunking and nothing fabricated is accepted.

    Labels are relative to the material shown, so a quote is left out where the
    pipeline's fixed groups show something else: a faithful quote that runs past the
    group of its chunk (the model could not have copied it from that group), and a real
    sentence labelled fabricated because the set's chunk did not show it, which the
    pipeline's larger group does show."""
    from quotelocate import Chunking, Locator, preset
    from quotelocate.chunks import group_of, group_span
    from quotelocate.data.quoteset import load_quote_set

    qs = load_quote_set("attention-v7")
    doc, rules = qs.document(), preset("recommended")
    own = Locator(doc, rules, chunking=qs.chunking)
    theirs = Locator(doc, rules, chunking=Chunking(group_size=8), chunks=splitter_chunks.chunks)

    def best(start: int, end: int) -> int:
        overlap = [max(0, min(end, t.end) - max(start, t.start)) for t in theirs.chunks]
        return overlap.index(max(overlap))

    def group_holds(chunk: int, start: int, end: int) -> bool:
        lo, hi = group_span(theirs.chunks, group_of(chunk, 8), 8)
        return lo <= start and end <= hi

    rows, left_out = [], []
    for q in (q for q in qs.quotes if q.cited_chunk is not None):
        if q.faithful:
            chunk = best(q.anchor.start, q.anchor.end)
            fits = group_holds(chunk, q.anchor.start, q.anchor.end)
        else:
            c = own.chunks[q.cited_chunk]
            chunk = best(c.start, c.end)
            fits = "outside-material" not in q.tags or theirs.locate(q.text, cited_chunk=chunk).status == "outside-material"
        (rows if fits else left_out).append((q, chunk))
    assert len(rows) > 100 and len(left_out) <= 0.1 * (len(rows) + len(left_out)), [q.id for q, _ in left_out]
    fr = {"own": 0, "theirs": 0}
    fa = {"own": 0, "theirs": 0}
    for q, chunk in rows:
        for name, loc, cited in (("own", own, q.cited_chunk), ("theirs", theirs, chunk)):
            v = loc.locate(q.text, cited_chunk=cited)
            if q.faithful:
                fr[name] += not v.accepted
            else:
                fa[name] += v.accepted
    n = sum(q.faithful for q, _ in rows)
    assert fa == {"own": 0, "theirs": 0}
    assert fr["theirs"] / n <= fr["own"] / n + 0.02, fr


def test_the_command_line_cuts_chunks_with_the_sentence_splitter(v7, splitter_chunks, capsys):
    import json

    from quotelocate.interface.cli import main

    paper = str(paper_path("1706.03762v7.pdf"))
    assert main(["chunks", paper, "--chunker", "sentence-splitter", "--group-size", "8", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["start"], r["end"]) for r in rows] == [(c.start, c.end) for c in splitter_chunks.chunks]
    assert [r["group"] for r in rows[:9]] == [0] * 8 + [1]
    c = next(c for c in splitter_chunks.chunks if ABSTRACT_LINE in v7.text[c.start : c.end])
    code = main(["locate", paper, ABSTRACT, "--chunker", "sentence-splitter", "--cited-chunk", str(c.index), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["accepted"] and out["cited_chunk"] == c.index


# -- the verdicts are verify's, attached in the published schema form -------------------


def test_verdicts_are_verifys_and_the_result_carries_them_in_schema_form(v7, evaluator):
    import jsonschema

    from quotelocate.integrations.llamaindex import QuoteEvaluationResult
    from quotelocate.schema import load_schema
    from quotelocate.verify import verdict_record, verify

    nodes = [_node_around(v7, "self-attention layers are faster"), _node_around(v7, "Scaled Dot-Product Attention")]
    invented = ABSTRACT.replace("28.4", "28.3")
    quotes = [CROSSING, ABSTRACT, invented, "Scaled Dot-Product Attention"]
    response = Response(response=" and ".join(f'"{q}"' for q in quotes), source_nodes=nodes)
    result = evaluator.evaluate_response(response=response)
    assert isinstance(result, QuoteEvaluationResult) and isinstance(result, EvaluationResult)
    check = evaluator.check(response.response, nodes)
    assert result.verdicts == [verdict_record(v) for v in check.verdicts]
    assert [r["quote"] for r in result.verdicts] == quotes
    assert [r["status"] for r in result.verdicts] == ["normalized", "outside-material", "not-found", "exact"]

    # verify's verdicts for the same quotes: against the whole paper, and with the nodes'
    # spans as the chunks a quote found in the paper must lie in
    spans = [(n.node.start_char_idx, n.node.end_char_idx) for n in nodes]
    ordered = sorted(spans)  # chunks are numbered in order of start
    whole = verify({"v7": v7}, [{"doc": "v7", "quote": q} for q in quotes])
    in_node = verify({"v7": v7}, [
        {"doc": "v7", "quote": q, "chunks": ordered, "cited_chunk": ordered.index(spans[node]), "scope": "chunk"}
        for q, node in ((CROSSING, 0), ("Scaled Dot-Product Attention", 1))
    ])  # fmt: skip
    assert check.verdicts[0] == in_node[0] and check.verdicts[3] == in_node[1]
    assert check.verdicts[2] == whole[2]  # not in the paper at all: the whole paper's verdict
    outside = check.verdicts[1]  # in the paper, in no node: where verify found it, rejected
    assert (outside.start, outside.end, outside.pages, outside.spans) == (whole[1].start, whole[1].end, whole[1].pages, whole[1].spans)
    assert not outside.accepted and outside.cause == "outside-material"

    validator = jsonschema.Draft202012Validator(load_schema("verdict"), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    for record in result.verdicts:
        assert [e.message for e in validator.iter_errors(record)] == []
    # without nodes the verdicts are the whole paper's
    direct = asyncio.run(evaluator.aevaluate(response=response.response, contexts=None))
    assert direct.verdicts == [verdict_record(v) for v in whole]
