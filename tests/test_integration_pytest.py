"""quotelocate.testing.assert_quoted and the pytest plugin, run by real pytest sessions (pytester)."""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

import pytest

from quotelocate import Chunking, Document, Locator, preset
from quotelocate.errors import ConfigError, DocumentError
from quotelocate.testing import assert_quoted

from conftest import REPO, document, paper_path

pytest_plugins = ["pytester"]

PLUGIN = "quotelocate.integrations.pytest_plugin"
TEXT = "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task [12].\n"


def _entry_point_value() -> str:
    meta = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return meta["project"]["entry-points"]["pytest11"]["quotelocate"]


def test_accepted_quote_returns_the_verdict():
    doc = Document.from_text(TEXT, name="summary.txt")
    v = assert_quoted("achieves 28.4 BLEU on the WMT 2014 English-to-German", doc)
    assert v.accepted and v.status == "exact" and TEXT[v.start : v.end] == "achieves 28.4 BLEU on the WMT 2014 English-to-German"


@pytest.mark.parametrize(
    "quote, cause, diff",
    [
        ("achieves 28.3 BLEU on the WMT 2014 English-to-German", "number-changed", "28.[-4-]{+3+} BLEU"),
        ("translation task.", None, None),  # too short: invalid, no diff
        ("the WMT 2014 english-to-German translation task [12]", "case-differs", "[-E-]{+e+}nglish"),
        ("English-to-German translation task.", "marker-missing", "translation task{+.+}"),
    ],
    ids=["number", "too-short", "case", "marker"],
)
def test_rejection_message_names_cause_and_diff(quote, cause, diff):
    doc = Document.from_text(TEXT, name="summary.txt")
    with pytest.raises(AssertionError) as info:
        assert_quoted(quote, doc)
    message = str(info.value)
    assert "summary.txt" in message and repr(quote) in message
    if cause is None:
        assert "(cause: too-short)" in message and "diff:" not in message
    else:
        assert f"(cause: {cause})" in message
        assert diff in message.split("diff:", 1)[1]


def test_cited_chunk_outside_material_fails_and_says_where():
    text = "".join(f"Sentence number {i} says something about topic {i * 7}. " for i in range(200))
    doc = Document.from_text(text, name="long.txt")
    quote = "Sentence number 150 says something about topic 1050."
    assert assert_quoted(quote, doc).accepted
    with pytest.raises(AssertionError, match=r"outside the cited material of long\.txt \(cause: outside-material\)\n.*\n  found:   page 1"):
        assert_quoted(quote, doc, cited_chunk=0)


def test_rules_are_applied_and_a_mismatched_locator_is_refused():
    doc = Document.from_text("The model uses trans-\nduction in the making step.")
    quote = "uses transduction in the making step"
    with pytest.raises(AssertionError, match="not found"):
        assert_quoted(quote, doc, rules="exact")
    assert assert_quoted(quote, doc, rules=preset("recommended")).rules == ("hyphenation:drop",)
    with pytest.raises(ConfigError, match="other rules"):
        assert_quoted(quote, Locator(doc, "exact"))
    with pytest.raises(ConfigError, match="expected a Document"):
        assert_quoted(quote, 42)  # type: ignore[arg-type]


def test_a_path_is_opened_and_a_missing_one_is_named(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(TEXT, encoding="utf-8")
    assert assert_quoted("the WMT 2014 English-to-German translation task [12]", path).accepted
    assert assert_quoted("the WMT 2014 English-to-German translation task [12]", str(path)).accepted
    with pytest.raises(DocumentError, match="missing.pdf: no such file"):
        assert_quoted("anything at all here", tmp_path / "missing.pdf")


def test_real_pdf_with_layout_and_diff():
    doc = document("1706.03762v7.pdf")
    v = assert_quoted(
        "self-attention layers are faster than recurrent layers when the sequence "
        "length n is smaller than the representation dimensionality d",
        doc,
    )
    assert v.pages == (6, 7) and "layout" in v.rules
    with pytest.raises(AssertionError) as info:
        assert_quoted("Our model achieves 28.3 BLEU on the WMT 2014 English-to-German translation task", doc)
    assert "(cause: number-changed)" in str(info.value)
    assert "closest: page 1" in str(info.value) and "28.[-4-]{+3+}" in str(info.value)


def test_entry_point_names_the_plugin_module():
    value = _entry_point_value()
    assert value == PLUGIN
    __import__(value)
    assert hasattr(sys.modules[value], "quotelocate_doc")


def _install_entry_point(pytester: pytest.Pytester) -> None:
    """A distribution whose only content is pyproject's pytest11 entry point, on sys.path,
    so pytest's own plugin discovery loads the plugin as an installed package would."""
    dist = pytester.path / "site" / "quotelocate_entrypoint_probe-0.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: quotelocate-entrypoint-probe\nVersion: 0.0\n")
    (dist / "entry_points.txt").write_text(f"[pytest11]\nquotelocate = {_entry_point_value()}\n")
    pytester.syspathinsert(pytester.path / "site")


def test_plugin_fixture_through_the_entry_point(pytester: pytest.Pytester):
    _install_entry_point(pytester)
    (pytester.path / "paper.txt").write_text(TEXT, encoding="utf-8")
    pytester.makepyfile(
        test_quotes="""
        from quotelocate.testing import assert_quoted

        def test_faithful(quotelocate_doc):
            doc = quotelocate_doc("paper.txt")
            assert assert_quoted("the WMT 2014 English-to-German translation task [12]", doc).accepted

        def test_same_document_object(quotelocate_doc):
            assert quotelocate_doc("paper.txt") is quotelocate_doc("./paper.txt")
            assert len(quotelocate_doc) == 1

        def test_invented(quotelocate_doc):
            assert_quoted("Our model achieves 28.3 BLEU on the WMT 2014", quotelocate_doc("paper.txt"))

        def test_the_error_carries_the_schema_form_verdict(quotelocate_doc):
            import pytest

            with pytest.raises(AssertionError) as info:
                assert_quoted("Our model achieves 28.3 BLEU on the WMT 2014", quotelocate_doc("paper.txt"))
            record = info.value.record
            assert record == {"quote": "Our model achieves 28.3 BLEU on the WMT 2014", **info.value.verdict.to_dict()}
            assert (record["status"], record["cause"], record["near_miss"]["page"]) == ("not-found", "number-changed", 1)
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*AssertionError: quote not found in *paper.txt (cause: number-changed)",
            "*quote:   'Our model achieves 28.3 BLEU on the WMT 2014'",
            "*diff:    Our model achieves 28.[[]-4-[]]{+3+} BLEU on the WMT 2014",
        ]
    )
    # the failing line shown is the test's own call, not a line inside quotelocate
    assert "quotelocate/testing.py" not in result.stdout.str()


def test_plugin_finds_a_bare_name_on_the_papers_path_and_names_a_missing_file(pytester: pytest.Pytester, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_PAPERS", str(paper_path("1706.03762v7.pdf").parent))
    pytester.makepyfile(
        test_paper="""
        import pytest
        from quotelocate.errors import DocumentError
        from quotelocate.testing import assert_quoted

        def test_paper(quotelocate_doc):
            doc = quotelocate_doc("1706.03762v7.pdf")
            assert doc.kind == "pdf" and len(doc.pages) == 15
            assert_quoted("The Transformer follows this overall architecture", doc)

        def test_missing(quotelocate_doc):
            with pytest.raises(DocumentError, match="nope.pdf: no such file here nor on the papers search path"):
                quotelocate_doc("nope.pdf")
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_without_the_plugin_the_fixture_is_unknown(pytester: pytest.Pytester):
    pytester.makepyfile("def test_x(quotelocate_doc):\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:quotelocate")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'quotelocate_doc' not found*"])


def test_plugin_module_imports_nothing_heavy():
    import subprocess

    code = f"import sys, {PLUGIN}; print(sorted(m for m in ('fitz', 'pymupdf', 'numpy', 'pandas') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=Path(REPO))
    assert out.stdout.strip() == "[]"


# -- the verdict is verify's, and the failure carries it in the published schema form ----


def _verdict_validator():
    import jsonschema

    from quotelocate.schema import load_schema

    return jsonschema.Draft202012Validator(load_schema("verdict"), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


@pytest.mark.parametrize(
    "quote, options",
    [
        ("self-attention layers are faster than recurrent layers when the sequence length n is smaller than the representation dimensionality d", {}),
        ("Our model achieves 28.3 BLEU on the WMT 2014 English-to-German translation task", {}),
        ("The Transformer follows this overall architecture", {"cited_chunk": 0}),
        ("The Transformer follows this overall architecture", {"cited_chunk": 0, "scope": "document", "rules": "exact"}),
        ("The Transformer follows this overall architecture", {"cited_chunk": 1, "chunking": Chunking(size=2000, overlap=0, group_size=2)}),
    ],
    ids=["accepted-across-pages", "number-changed", "outside-material", "scope-and-rules", "chunking"],
)
def test_assert_quoted_gives_verifys_verdict_and_a_schema_valid_record(quote, options):
    from quotelocate.verify import verdict_record, verify

    doc = document("1706.03762v7.pdf")
    [want] = verify({"v7": doc}, [{"doc": "v7", "quote": quote, **options}])
    try:
        got = assert_quoted(quote, doc, **options)
    except AssertionError as exc:
        assert not want.accepted
        got = exc.verdict
        assert exc.record == verdict_record(want) and exc.record["quote"] == quote
        errors = [e.message for e in _verdict_validator().iter_errors(exc.record)]
        assert errors == []
    else:
        assert want.accepted
    assert got == want and got.to_dict() == want.to_dict()


def test_assertions_against_one_document_share_one_locator(tmp_path):
    from quotelocate.testing import locator_for, open_document, shared_verifier

    doc = Document.from_text(TEXT, name="summary.txt")
    first = locator_for(doc)
    assert_quoted("achieves 28.4 BLEU on the WMT 2014 English-to-German", doc)
    with pytest.raises(AssertionError):
        assert_quoted("achieves 28.3 BLEU on the WMT 2014 English-to-German", doc)
    assert locator_for(doc) is first and locator_for(doc, rules="exact") is not first
    path = tmp_path / "notes.md"
    path.write_text(TEXT, encoding="utf-8")
    assert open_document(path) is open_document(str(path))
    assert locator_for(path) is locator_for(str(path))
    path.write_text(TEXT + "A second line changes the file.\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))  # a file that changed is opened again
    assert "second line" in open_document(path).text
    assert len(shared_verifier().opened) <= 8
