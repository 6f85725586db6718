"""The README's framework examples run as written and show what they claim."""

from __future__ import annotations

import re

import pytest

from conftest import REPO, paper_path
from quotelocate.integrations.pytest_plugin import DocumentCache

README = (REPO / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## Test and evaluation frameworks", 1)[1].split("\n## ", 1)[0]


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", SECTION, flags=re.S)


@pytest.fixture()
def in_papers_folder(monkeypatch):
    monkeypatch.chdir(paper_path("1706.03762v7.pdf").parent)


def test_pytest_example_fails_with_the_message_shown(in_papers_folder):
    code = _blocks("python")[0]
    namespace: dict = {}
    exec(compile(code, "README pytest example", "exec"), namespace)
    with pytest.raises(AssertionError) as info:
        namespace["test_summary_quotes"](DocumentCache())
    shown = [line[4:].strip() for line in _blocks("text")[0].splitlines() if line.startswith("E   ")]
    message = str(info.value)
    assert shown[0] == "AssertionError: quote not found in …/1706.03762v7.pdf (cause: number-changed)"
    assert message.splitlines()[0] == "quote not found in 1706.03762v7.pdf (cause: number-changed)"
    for line in shown[1:]:
        assert line in message


def test_llamaindex_example_passes(in_papers_folder):
    code = next(b for b in _blocks("python") if "QuoteEvaluator(\"1706.03762v7.pdf\")" in b)
    namespace: dict = {}
    exec(compile(code, "README LlamaIndex example", "exec"), namespace)
    result = namespace["result"]
    assert (result.passing, result.score) == (True, 1.0), result.feedback


def test_recipe_examples_run_with_and_without_the_pdf(in_papers_folder):
    pdf_code, text_code = [b for b in _blocks("python") if "Chunking(group_size=8)" in b]
    quote = "self-attention layers are faster than recurrent layers when the sequence length n is smaller than the representation dimensionality d"
    first = "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks"
    namespace: dict = {"quote": first, "cited_node": 0}
    exec(compile(pdf_code, "README recipe (PDF)", "exec"), namespace)
    assert namespace["verdict"].accepted and namespace["verdict"].pages == (1,)
    nodes, pdf_locator = namespace["nodes"], namespace["locator"]
    cited = next(i for i, n in enumerate(nodes) if "self-attention layers are faster" in n.get_content())
    v = pdf_locator.locate(quote, cited_chunk=cited)
    assert v.accepted and v.pages == (6, 7) and "layout" in v.rules
    far = pdf_locator.locate(quote, cited_chunk=0)
    assert far.status == "outside-material"
    exec(compile(text_code, "README recipe (text only)", "exec"), namespace)
    text_locator = namespace["locator"]
    assert not text_locator.rules.layout
    assert all(text_locator.chunk_text(i) == n.get_content() for i, n in enumerate(nodes))
    assert text_locator.locate(quote, cited_chunk=cited).accepted


def _claim(code: str, expression: str):
    """The value the README's comment gives for ``expression`` (``expression   # value``)."""
    import ast

    line = next(line for line in code.splitlines() if line.startswith(expression) and "#" in line)
    return ast.literal_eval(line.split("#", 1)[1].strip())


def _verdict_errors(record: dict) -> list[str]:
    import jsonschema

    from quotelocate.schema import load_schema

    return [e.message for e in jsonschema.Draft202012Validator(load_schema("verdict")).iter_errors(record)]


def test_pytest_failure_record_example_passes(in_papers_folder):
    code = next(b for b in _blocks("python") if "def test_the_failure_carries_the_verdict" in b)
    namespace: dict = {}
    exec(compile(code, "README pytest record example", "exec"), namespace)
    namespace["test_the_failure_carries_the_verdict"](DocumentCache())


def test_llamaindex_example_shows_its_schema_form_verdicts(in_papers_folder):
    code = next(b for b in _blocks("python") if "QuoteEvaluator(\"1706.03762v7.pdf\")" in b)
    namespace: dict = {}
    exec(compile(code, "README LlamaIndex example", "exec"), namespace)
    verdicts = namespace["result"].verdicts
    shown = _claim(code, '[(v["status"], v["pages"], v["rules"]) for v in result.verdicts]')
    assert [(v["status"], v["pages"], v["rules"]) for v in verdicts] == [tuple(x) for x in shown]
    assert all(_verdict_errors(v) == [] for v in verdicts)


def test_promptfoo_example_returns_the_verdict_shown(in_papers_folder):
    import json

    code = next(b for b in _blocks("python") if "from quotelocate.integrations.promptfoo import get_assert" in b)
    namespace: dict = {}
    exec(compile(code, "README promptfoo example", "exec"), namespace)
    result = namespace["result"]
    assert (result["pass"], result["score"]) == _claim(code, 'result["pass"], result["score"]')
    shown = json.loads(_blocks("json")[0])
    assert result["metadata"]["verdicts"] == [shown] and _verdict_errors(shown) == []
