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
