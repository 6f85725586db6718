"""A paper-summary pipeline's quote check, replaced by quotelocate: rates on a labelled set.

The pipeline: pymupdf's plain text page by page, LlamaIndex's ``SentenceSplitter``
(512 tokens, 64 overlap, its bundled tokenizer) over each page, the nodes shown to the
model in groups of 8, and one cited node per quote. Its check is ``quote in
chunk.text`` on the cited node. This script measures, on every quote of a labelled set
(default ``attention-v7``), the false-reject rate (faithful quotes rejected) and the
false-accept rate (fabricated quotes accepted), with 95% Wilson intervals, of:

* ``substring``: ``quote in chunk.text``, the pipeline's check;
* ``whitespace-collapse``: both sides' whitespace runs collapsed to one space first;
* ``quotelocate + PDF``: the PDF opened with layout on (``recommended``), the nodes
  placed in it (``QuoteEvaluator.place``: page offsets, else text), the quote checked
  in the cited node's group of 8 (``scope=group``) and in the whole document;
* ``quotelocate text only``: no PDF, only the pipeline's page texts (joined by form
  feeds, so page numbers at page boundaries are still known), ``recommended`` without
  layout, nodes placed by their offsets, the same two scopes.

The cited node is the one holding the middle of the chunk the set's ``cited_chunk``
names (the set cites chunks of its own chunking), the same rule for faithful and
fabricated quotes. A fabricated quote tagged ``outside-material`` is real text from
outside the model's material in the set's chunking; the pipeline's groups of 8 nodes
are larger, so one whose text lies inside the cited node's group here is left out and
counted.

    python benchmarks/recipe_bench.py [--set attention-v7] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pymupdf  # noqa: E402
from llama_index.core import Document as LlamaDocument  # noqa: E402
from llama_index.core.node_parser import SentenceSplitter  # noqa: E402

from quotelocate import Document, Locator, preset  # noqa: E402
from quotelocate.chunks import Chunk, Chunking, group_of  # noqa: E402
from quotelocate.data.quoteset import load_quote_set  # noqa: E402
from quotelocate.document import PAGE_SEPARATOR  # noqa: E402
from quotelocate.evaluation.formatting import format_rate  # noqa: E402
from quotelocate.evaluation.stats import wilson  # noqa: E402
from quotelocate.integrations.llamaindex import QuoteEvaluator  # noqa: E402

GROUP = 8


def pipeline_nodes(pdf_path: Path) -> tuple[list[str], list]:
    """The pipeline's per-page texts and its SentenceSplitter nodes over them, in order."""
    with pymupdf.open(pdf_path) as pdf:
        pages = [p.get_text() for p in pdf]
    docs = [LlamaDocument(text=t, metadata={"page_label": str(i + 1)}) for i, t in enumerate(pages)]
    nodes = SentenceSplitter(chunk_size=512, chunk_overlap=64).get_nodes_from_documents(docs)
    return pages, nodes


def chunks_from(spans: list[tuple[int, int] | None]) -> list[Chunk]:
    """Chunks in node order; a node that could not be placed is an empty span (verifies nothing)."""
    out, last = [], 0
    for i, span in enumerate(spans):
        if span is None or span[0] < last:
            span = (last, last) if span is None else span
        out.append(Chunk(i, span[0], span[1]))
        last = span[0]
    return out


def collapse(text: str) -> str:
    return " ".join(text.split())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="attention-v7", help="labelled quote set (default attention-v7)")
    ap.add_argument("--json", action="store_true", help="print the rates as JSON")
    args = ap.parse_args()

    t0 = time.perf_counter()
    qs = load_quote_set(args.set)
    set_chunks = qs.chunks
    pages, nodes = pipeline_nodes(qs.paper_path)
    node_text = [n.get_content() for n in nodes]

    # with the PDF: layout on, nodes placed in the extracted text
    pdf_doc = qs.document()
    evaluator = QuoteEvaluator(pdf_doc)
    placements = [evaluator.place(i, n) for i, n in enumerate(nodes)]
    pdf_chunks = chunks_from([(p.start, p.end) if p.start is not None else None for p in placements])
    pdf_loc = Locator(pdf_doc, preset("recommended"), chunks=pdf_chunks, chunking=Chunking(group_size=GROUP))

    # text only: the pipeline's page texts, no geometry; nodes placed by their offsets
    text = PAGE_SEPARATOR.join(pages)
    page_starts, at = [], 0
    for t in pages:
        page_starts.append(at)
        at += len(t) + len(PAGE_SEPARATOR)
    text_doc = Document.from_text(text, name=f"{qs.paper.file} (pipeline text)")
    text_spans = [
        (page_starts[int(n.metadata["page_label"]) - 1] + n.start_char_idx, page_starts[int(n.metadata["page_label"]) - 1] + n.end_char_idx)
        for n in nodes
    ]
    assert all(text[a:b] == node_text[i] for i, (a, b) in enumerate(text_spans)), "node offsets do not index the page text"
    text_rules = dataclasses.replace(preset("recommended"), layout=False)
    text_loc = Locator(text_doc, text_rules, chunks=chunks_from(text_spans), chunking=Chunking(group_size=GROUP))

    def cited_node(q) -> int:
        c = set_chunks[q.cited_chunk] if q.cited_chunk is not None else set_chunks[0]
        middle = (c.start + c.end) // 2
        inside = [i for i, ch in enumerate(pdf_chunks) if ch.start <= middle < ch.end]
        if inside:
            return inside[0]
        return min(range(len(pdf_chunks)), key=lambda i: abs((pdf_chunks[i].start + pdf_chunks[i].end) // 2 - middle))

    checks = {
        "substring (cited chunk)": lambda q, i: q.text in node_text[i],
        "whitespace-collapse (cited chunk)": lambda q, i: collapse(q.text) in collapse(node_text[i]),
        "quotelocate + PDF, layout (cited group of 8)": lambda q, i: pdf_loc.locate(q.text, cited_chunk=i, scope="group").accepted,
        "quotelocate + PDF, layout (document)": lambda q, i: pdf_loc.locate(q.text).accepted,
        "quotelocate text only, no layout (cited group of 8)": lambda q, i: text_loc.locate(q.text, cited_chunk=i, scope="group").accepted,
        "quotelocate text only, no layout (document)": lambda q, i: text_loc.locate(q.text).accepted,
    }
    counts = {name: {"faithful": [0, 0], "fabricated": [0, 0]} for name in checks}  # [wrong, n]
    wrong_ids: dict[str, list[str]] = {name: [] for name in checks}
    left_out = []
    for q in qs.quotes:
        i = cited_node(q)
        if not q.faithful and "outside-material" in q.tags:
            real = pdf_loc.locate(q.text)
            if real.accepted and any(
                group_of(j, GROUP) == group_of(i, GROUP) for j in pdf_loc.chunks_containing(real.start, real.end)
            ):
                left_out.append(q.id)
                continue
        for name, check in checks.items():
            accepted = bool(check(q, i))
            wrong = (not accepted) if q.faithful else accepted
            c = counts[name][q.label]
            c[0] += int(wrong)
            if wrong:
                wrong_ids[name].append(q.id)
            c[1] += 1
    rows = []
    for name, c in counts.items():
        fr = wilson(*c["faithful"])
        fa = wilson(*c["fabricated"])
        rows.append({"check": name, "false_reject": fr, "false_accept": fa, "n_faithful": c["faithful"][1], "n_fabricated": c["fabricated"][1]})
    placed = {h: sum(p.how == h for p in placements) for h in sorted({p.how for p in placements})}
    meta = {
        "set": qs.name,
        "nodes": len(nodes),
        "node_placement": placed,
        "left_out_outside_material": left_out,
        "wrong": {name: ids for name, ids in wrong_ids.items() if not name.startswith(("substring", "whitespace"))},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    if args.json:
        print(json.dumps({"meta": meta, "rows": rows}, indent=1))
        return
    print(f"{qs.name}: {rows[0]['n_faithful']} faithful, {rows[0]['n_fabricated']} fabricated quotes; "
          f"{len(nodes)} SentenceSplitter nodes (512/64 tokens), groups of {GROUP}; nodes placed in the PDF text: {placed}")
    if left_out:
        print(f"left out (real text inside the cited node's group of {GROUP}, so not outside this pipeline's material): {', '.join(left_out)}")
    print()
    print("| check | false reject [95% CI] | false accept [95% CI] |")
    print("| --- | --- | --- |")
    for r in rows:
        print(f"| {r['check']} | {format_rate(*r['false_reject'])} | {format_rate(*r['false_accept'])} |")
    print("\nquotes quotelocate got wrong:")
    for name, ids in meta["wrong"].items():
        print(f"  {name}: {', '.join(ids) or 'none'}")
    print(f"\n({meta['seconds']} s)")


if __name__ == "__main__":
    main()
