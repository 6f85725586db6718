"""The promptfoo assertion's logic, called as promptfoo calls it (the real CLI runs it in e2e/)."""

from __future__ import annotations

import importlib.util

import pytest

from conftest import REPO
from quotelocate.integrations.promptfoo import get_assert
from quotelocate.integrations.quotes import quoted_passages

PAPER_TEXT = "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task [12].\n" + "".join(
    f"Sentence number {i} says something about topic {i * 7}. " for i in range(200)
)


@pytest.fixture()
def paper(tmp_path):
    path = tmp_path / "paper.txt"
    path.write_text(PAPER_TEXT, encoding="utf-8")
    return str(path)


def test_shipped_file_exposes_get_assert(paper):
    spec = importlib.util.spec_from_file_location("quotelocate_assert", REPO / "integrations" / "promptfoo" / "quotelocate_assert.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.get_assert('It said "achieves 28.4 BLEU on the WMT 2014".', {"vars": {"paper": paper}})
    assert (result["pass"], result["score"], result["reason"]) == (True, 1.0, f"1 of 1 quote(s) found in {paper}: page 1 (exact)")
    assert [v["status"] for v in result["metadata"]["verdicts"]] == ["exact"]


def test_score_is_the_share_of_quotes_accepted(paper):
    output = '"achieves 28.4 BLEU on the WMT 2014" and "achieves 28.3 BLEU on the WMT 2014" and “Sentence number 7 says something”'
    result = get_assert(output, {"config": {"paper": paper}})
    assert result["pass"] is False and result["score"] == pytest.approx(2 / 3)
    assert result["reason"].startswith("1 of 3 quote(s) rejected")
    assert "(cause: number-changed)" in result["reason"] and "28.[-4-]{+3+}" in result["reason"]


def test_whole_output_mode_and_rules(paper):
    quote = "Sentence   number 3 says\nsomething"
    assert get_assert(quote, {"config": {"paper": paper, "quotes": "whole"}})["pass"] is True
    exact = get_assert(quote, {"config": {"paper": paper, "quotes": "whole", "rules": "exact"}})
    assert exact["pass"] is False and "not found" in exact["reason"]


def test_cited_chunk_from_vars_limits_the_material(paper):
    output = '"Sentence number 150 says something about topic 1050."'
    assert get_assert(output, {"vars": {"paper": paper}})["pass"] is True
    result = get_assert(output, {"vars": {"paper": paper, "cited_chunk": "0"}})
    assert result["pass"] is False and "outside-material" in result["reason"]
    wide = get_assert(output, {"vars": {"paper": paper, "cited_chunk": 0, "scope": "document"}})
    assert wide["pass"] is True


def test_config_overrides_vars_and_min_quotes(paper):
    ctx = {"vars": {"paper": "elsewhere.pdf"}, "config": {"paper": paper, "min_quotes": 2}}
    result = get_assert('only "achieves 28.4 BLEU on the WMT 2014" here', ctx)
    assert result == {
        "pass": False, "score": 0.0, "reason": "1 quoted passage(s) in the output; at least 2 expected",
        "metadata": {"paper": paper, "verdicts": []},
    }  # fmt: skip
    assert get_assert("no quotes", {"config": {"paper": paper, "min_quotes": 0}})["pass"] is True


@pytest.mark.parametrize(
    "config, message",
    [
        ({}, "paper: name the paper"),
        ({"paper": "x.pdf", "rule": "exact"}, "unknown option(s) rule"),
        ({"paper": "PAPER", "quotes": "all"}, "quotes: 'all' is not"),
        ({"paper": "PAPER", "min_quotes": "two"}, "min_quotes: expected a whole number"),
        ({"paper": "PAPER", "cited_chunk": True}, "cited_chunk: expected a whole number"),
        ({"paper": "PAPER", "cited_chunk": 9999}, "cited_chunk: 9999 is not a chunk index"),
        ({"paper": "PAPER", "rules": "lenient"}, "lenient"),
        ({"paper": "PAPER", "chunking": {"size": 100, "overlap": 200}}, "chunking.overlap"),
        ({"paper": "no-such-paper.pdf"}, "no-such-paper.pdf: no such file here nor on the papers search path"),
    ],
)
def test_bad_options_fail_with_a_reason_naming_them(paper, config, message):
    config = {k: (paper if v == "PAPER" else v) for k, v in config.items()}
    result = get_assert('"achieves 28.4 BLEU on the WMT 2014"', {"config": config})
    assert result == {"pass": False, "score": 0.0, "reason": result["reason"]}  # no verdicts on a bad option
    assert result["reason"].startswith("quotelocate: ") and message in result["reason"]


def test_quoted_passages_reads_double_marks_not_apostrophes():
    text = "The model's claim: \"first one\", “second one”, „third one“ and « fourth one »; 'not this'."
    assert [q.text for q in quoted_passages(text)] == ["first one", "second one", "third one", "fourth one"]
    for q in quoted_passages(text):
        assert text[q.start : q.end] == q.text


# -- the verdicts are verify's, attached in the published schema form -------------------


def _verdict_validator():
    import jsonschema

    from quotelocate.schema import load_schema

    return jsonschema.Draft202012Validator(load_schema("verdict"), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


@pytest.mark.parametrize(
    "output, options",
    [
        ('"achieves 28.4 BLEU on the WMT 2014" and "achieves 28.3 BLEU on the WMT 2014" and “Sentence number 7 says”', {}),
        ('"Sentence number 150 says something about topic 1050." and "Sentence number 1 says"', {"cited_chunk": "0"}),
        ('"Sentence number 150 says something about topic 1050."', {"cited_chunk": 0, "scope": "document", "rules": "exact"}),
        ('"Sentence number 15 says something about topic 105."', {"cited_chunk": 1, "chunking": {"size": 900, "overlap": 0, "group_size": 1}}),
    ],
    ids=["mixed", "outside-material", "scope-and-rules", "chunking"],
)
def test_verdicts_are_verifys_and_valid_against_the_published_schema(paper, output, options):
    from quotelocate.chunks import Chunking
    from quotelocate.verify import verdict_record, verify

    result = get_assert(output, {"config": {"paper": paper, **options}})
    quotes = [q.text for q in quoted_passages(output)]
    item = {k: v for k, v in options.items() if k != "chunking"}
    if "cited_chunk" in item:
        item["cited_chunk"] = int(item["cited_chunk"])
    if "chunking" in options:
        item["chunking"] = Chunking(**options["chunking"])
    want = verify({"paper": paper}, [{"doc": "paper", "quote": q, **item} for q in quotes])
    records = result["metadata"]["verdicts"]
    assert records == [verdict_record(v) for v in want] and [r["quote"] for r in records] == quotes
    assert [c["metadata"]["verdict"] for c in result["componentResults"]] == records
    assert [c["pass"] for c in result["componentResults"]] == [v.accepted for v in want]
    assert result["pass"] is all(v.accepted for v in want) and result["score"] == pytest.approx(sum(v.accepted for v in want) / len(want))
    validator = _verdict_validator()
    for record in records:
        assert [e.message for e in validator.iter_errors(record)] == []
    assert [r["cited_chunk"] for r in records] == [item.get("cited_chunk")] * len(quotes)
