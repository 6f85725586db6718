"""Triage of a pipeline's outputs, as a library call and as ``quotelocate triage``.

The outputs file ``tests/data/triage-outputs.jsonl`` is built on the synthetic paper
so that every kind of verdict occurs once or more: an exact and a normalized quote, a
group-fallback quote, a faithful quote cited to the wrong chunk (outside-material, a
false reject), three near misses (a changed number, a case change, an added word) and
an invalid one; five records carry a label.
"""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from quotelocate.data.outputs import read_outputs
from quotelocate.errors import PaperNotFoundError, QuoteInputError
from quotelocate.evaluation.stats import wilson
from quotelocate.evaluation.triage import triage
from quotelocate.interface.cli import main

REPO = Path(__file__).resolve().parent.parent
OUTPUTS = REPO / "tests" / "data" / "triage-outputs.jsonl"
SYNTHETIC = str(REPO / "datasets" / "synthetic")


@pytest.fixture(scope="module")
def result():
    return triage(read_outputs(OUTPUTS), papers_path=SYNTHETIC, source=str(OUTPUTS))


def test_distributions_per_paper_and_chunk(result):
    (paper,) = result.by_paper
    assert (paper.paper, paper.n, paper.accepted) == ("synthetic.pdf", 8, 3)
    assert dict(paper.statuses) == {"not-found": 3, "exact": 1, "group-fallback": 1, "outside-material": 1,
                                    "invalid": 1, "normalized": 1}
    assert dict(paper.causes) == {"outside-material": 1, "number-changed": 1, "word-added": 1,
                                  "case-differs": 1, "too-short": 1}
    chunks = {d.cited_chunk: d for d in result.by_chunk}
    assert [d.cited_chunk for d in result.by_chunk] == [0, 1, 3, 7, 20, 21, None]  # no-citation last
    assert (chunks[1].n, chunks[1].accepted, dict(chunks[1].causes)) == (2, 0, {"number-changed": 1, "word-added": 1})
    assert dict(chunks[3].statuses) == {"group-fallback": 1}
    assert dict(chunks[None].statuses) == {"invalid": 1}
    assert sum(d.n for d in result.by_chunk) == len(result.records) == 8
    assert result.rejected == 5


def test_queue_ranks_near_misses_by_similarity_then_fallback_then_outside(result):
    q = result.queue
    assert [(it.rank, it.kind, it.record.id) for it in q] == [
        (1, "near-miss", "gauges"), (2, "near-miss", "case"), (3, "near-miss", "added"),
        (4, "group-fallback", "fallback"), (5, "outside-material", "outside"),
    ]
    sims = [it.similarity for it in q if it.kind == "near-miss"]
    assert sims == sorted(sims, reverse=True) and sims[0] > 98
    gauges = q[0]
    assert "41 gauges" in gauges.passage and "'41' in the document, '44' in the quote" in gauges.reason
    assert gauges.page == 1
    doc = result.documents["synthetic.pdf"]
    # the span a page image highlights is the passage shown (which is read under the rules: one space a line break)
    assert " ".join(doc.text[gauges.start:gauges.end].split()) == gauges.passage
    outside = q[4]
    assert outside.similarity is None and outside.passage == outside.record.quote and outside.verdict.cause == "outside-material"
    # accepted quotes in their chunk, and rejections without a close passage, are not queued
    assert {"plain", "abstract", "trivial"}.isdisjoint(it.record.id for it in q)


def test_false_reject_estimate_and_its_intervals(result):
    e = result.estimate
    assert (e.sample, e.faithful, e.fabricated, e.false_rejects, e.sample_rejected, e.rejected, e.false_accepts) == (
        5, 3, 2, 1, 3, 5, 0)
    assert (e.rate, e.low, e.high) == wilson(1, 3)
    assert (e.share, e.share_low, e.share_high) == wilson(1, 3)
    assert round(e.low, 3) == 0.061 and round(e.high, 3) == 0.792
    text = " ".join(e.sentences())
    assert "33.3% [6.1, 79.2]" in text and "labelled sample of 5" in text and "random sample" in text
    assert "of all 5 rejections that suggests 0 to 4 are false" in text


def test_no_labels_means_no_estimate_and_a_fabricated_accept_is_flagged(tmp_path):
    rows = [json.loads(line) for line in OUTPUTS.read_text(encoding="utf-8").splitlines()]
    for r in rows:
        r.pop("label", None)
    p = tmp_path / "unlabelled.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    e = triage(read_outputs(p), papers_path=SYNTHETIC).estimate
    assert e.sample == 0 and math.isnan(e.rate) and "cannot be estimated" in e.sentences()[0]
    assert e.to_dict()["rate"] is None
    rows[0]["label"] = "fabricated"  # an exact quote someone labelled fabricated: an accept to check first
    p.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    e = triage(read_outputs(p), papers_path=SYNTHETIC).estimate
    assert e.false_accepts == 1 and math.isnan(e.rate) and any("accepted" in s for s in e.sentences())


def test_paper_filter_and_bad_references(tmp_path):
    records = read_outputs(OUTPUTS)
    with pytest.raises(QuoteInputError, match="no record names the paper 'other.pdf'"):
        triage(records, papers_path=SYNTHETIC, paper="other.pdf")
    p = tmp_path / "out.jsonl"
    p.write_text('{"paper": "synthetic.pdf", "quote": "a quote of some words"}\n'
                 '{"paper": "missing.pdf", "quote": "a quote of some words"}\n', encoding="utf-8")
    with pytest.raises(PaperNotFoundError, match=r"out.jsonl: line 2: paper 'missing.pdf' is not on the papers search path"):
        triage(read_outputs(p), papers_path=SYNTHETIC, source=str(p))
    only = triage(read_outputs(p), papers_path=SYNTHETIC, paper="synthetic.pdf")
    assert len(only.records) == 1 and set(only.documents) == {"synthetic.pdf"}
    p.write_text('{"paper": "synthetic.pdf", "quote": "a quote of some words", "cited_chunk": 999}\n', encoding="utf-8")
    with pytest.raises(QuoteInputError, match=r"line 1: cited_chunk 999 is not a chunk of synthetic.pdf \(0\.\.23"):
        triage(read_outputs(p), papers_path=SYNTHETIC, source=str(p))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_text_report():
    code, out, err = run("triage", str(OUTPUTS), "--papers", SYNTHETIC, "--top", "2", "--no-cache")
    assert code == 1, err  # some quote was rejected
    assert "8 quotes in 1 paper under recommended: 3 accepted, 5 rejected" in out
    assert "synthetic.pdf chunk 1: 2 quotes, 0 accepted: not-found 2; rejected for number-changed 1, word-added 1" in out
    chunk_lines = out.split("Per cited chunk")[1].split("Review first")[0].strip().splitlines()[1:]
    assert [line.split(":")[0].strip() for line in chunk_lines] == [
        "synthetic.pdf chunk 1", "synthetic.pdf chunk 20", "synthetic.pdf chunk 21", "synthetic.pdf no chunk cited",
        "3 other chunks"]  # most rejections first; the chunks where every quote was accepted are only counted
    assert "Review first (2 of 5" in out
    assert "1. near-miss: gauges (line 4) synthetic.pdf chunk 1, 98.5% similar, page 1, labelled fabricated" in out
    assert "2. near-miss: case (line 6)" in out and "3. near-miss" not in out
    assert "False-reject rate: 33.3% [6.1, 79.2] (Wilson 95%)" in out and "Assumes the labelled records" in out


def test_cli_json_and_paper_filter():
    code, out, _ = run("triage", str(OUTPUTS), "--papers", SYNTHETIC, "--json", "--top", "0", "--paper", "synthetic.pdf",
                       "--no-cache")
    assert code == 1
    data = json.loads(out)
    assert data["config"] == "recommended" and data["records"] == 8 and data["rejected"] == 5
    assert [i["id"] for i in data["queue"]] == ["gauges", "case", "added", "fallback", "outside"]
    assert data["queue"][0]["similarity"] == 98.51 and data["queue"][0]["passage"].startswith("On a benchmark of 41")
    assert data["estimate"]["sample"] == 5 and round(data["estimate"]["low"], 3) == 0.061
    assert data["by_chunk"][-1] == {"paper": "synthetic.pdf", "cited_chunk": None, "n": 1, "accepted": 0,
                                    "statuses": {"invalid": 1}, "causes": {"too-short": 1}}


def test_cli_exit_zero_when_every_quote_is_accepted(tmp_path):
    p = tmp_path / "ok.csv"
    p.write_text("paper,quote,cited_chunk\nsynthetic.pdf,to cut the quadratic cost of attention on long sequences,7\n",
                 encoding="utf-8")
    code, out, _ = run("triage", str(p), "--papers", SYNTHETIC, "--no-cache")
    assert code == 0 and "1 accepted, 0 rejected" in out and "nothing: no near miss" in out


@pytest.mark.parametrize("content, message", [
    ('{"paper": "synthetic.pdf", "quote": "x y z w"}\n{"paper": "synthetic.pdf"}\n', "line 2: 'quote' must be a string"),
    ('{"paper": "synthetic.pdf", "quote": "a quote", "label": "true"}\n', "line 1: 'label' must be one of"),
    ('{"paper": "nowhere.pdf", "quote": "a quote"}\n', "line 1: paper 'nowhere.pdf' is not on the papers search path"),
    ("{broken\n", "line 1: invalid JSON"),
])
def test_cli_bad_input_exits_2_naming_file_and_line(tmp_path, content, message):
    p = tmp_path / "bad.jsonl"
    p.write_text(content, encoding="utf-8")
    code, out, err = run("triage", str(p), "--papers", SYNTHETIC, "--no-cache")
    assert code == 2 and out == ""
    assert err.startswith(f"quotelocate: error: {p}: {message}") and err.count("\n") == 1


def test_cli_usage_errors_exit_2():
    assert run("triage", str(OUTPUTS), "--top", "-1")[0] == 2
    code, _, err = run("triage", str(OUTPUTS), "--preset", "nonsense")
    assert code == 2 and "invalid choice" in err


def test_triage_help_loads_nothing_heavy():
    script = (
        "import sys\n"
        "from quotelocate.interface.cli import main\n"
        "try:\n    main(['triage', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('pymupdf', 'pandas', 'numpy', 'statsmodels') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "OUTPUTS" in proc.stdout and "--papers" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == "[]"


def test_two_papers_each_opened_once_with_their_own_counts(tmp_path):
    from conftest import paper_path

    v7 = paper_path("1706.03762v7.pdf")
    rows = [
        {"paper": v7.name, "quote": "self-attention layers are faster than recurrent layers when the sequence length n "
                                    "is smaller than the representation dimensionality d", "label": "faithful"},
        {"paper": v7.name, "quote": "Our model achieves 28.3 BLEU on the WMT 2014 English-to-German translation task"},
        {"paper": "synthetic.pdf", "quote": "to cut the quadratic cost of attention on long sequences", "cited_chunk": 7},
    ]
    p = tmp_path / "two.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = triage(read_outputs(p), papers_path=[str(v7.parent), SYNTHETIC])
    assert [(d.paper, d.n, d.accepted, dict(d.causes)) for d in result.by_paper] == [
        (v7.name, 2, 1, {"number-changed": 1}), ("synthetic.pdf", 1, 1, {})]
    assert set(result.documents) == {v7.name, "synthetic.pdf"}
    (item,) = result.queue
    assert item.kind == "near-miss" and item.record.line == 2 and "28.4 BLEU" in item.passage
    assert result.estimate.sample == 1 and result.estimate.rate == 0.0
