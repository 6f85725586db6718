"""Hostile and broken input, nothing lost: datasets, uploads and the run store.

A catalog, data-driven where it can be:

* the sources never call an unsafe loader (``yaml.load``, ``pickle``, ``eval``…) — a
  static scan, itself tested on snippets that must be caught;
* quote sets that try code execution (``!!python/*`` tags), expansion (anchors and
  aliases), YAML 1.1 coercion (``no``, ``on``, ``1.0``, ``2024-01-01``, ``1:30`` where a
  string is expected), broken text (lone surrogates, invalid UTF-8, control
  characters), duplicate ids and paths out of their folder: each fails fast with one
  line naming the file and the line (and the column, for bytes and characters);
* uploads are size-checked on the server and staged under fixed names;
* Markdown and HTML in quote text, notes, document text and file names are shown
  literally in the app and escaped in the offline report;
* the run store survives a SIGKILL in the middle of a save, and a corrupt, truncated or
  foreign file is reported by path and left byte-for-byte untouched by the library, the
  command line and the app.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import multiprocessing
import os
import signal
import sqlite3
import time
import tomllib
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from quotelocate.evaluation import runstore
from quotelocate.interface import workbench
from quotelocate.interface.cli import main as cli_main
from quotelocate.data.quoteset import Quote, QuoteSet, load_quote_set
from quotelocate.document import Document
from quotelocate.errors import DatasetError, DocumentError, RunStoreError
from quotelocate.evaluation import Evaluation, evaluate
from quotelocate.evaluation.runstore import RunStore

from _quote_sets import PAPER_TEXT, make_pdf, set_yaml, write_tiny_set

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "app.py"

# ---------------------------------------------------------------------------------------
# No unsafe loader anywhere in the sources

BAD_MODULES = {"pickle", "cPickle", "_pickle", "dill", "marshal", "shelve", "jsonpickle", "cloudpickle"}
BAD_YAML = {"load", "load_all", "unsafe_load", "unsafe_load_all", "full_load", "full_load_all",
            "Loader", "FullLoader", "UnsafeLoader", "CLoader", "CFullLoader", "CUnsafeLoader"}


def unsafe_calls(source: str, filename: str = "<snippet>") -> list[str]:
    """Every use of an unsafe deserializer or evaluator in ``source``, as ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("eval", "exec"):
            found.append(f"{line}: {node.func.id}()")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "yaml" \
                and node.attr in BAD_YAML:
            found.append(f"{line}: yaml.{node.attr}")
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in ("FullLoader", "UnsafeLoader", "unsafe_load", "read_pickle", "to_pickle"):
                found.append(f"{line}: {name}")
        if isinstance(node, ast.Import):
            found += [f"{line}: import {a.name}" for a in node.names if a.name.split(".")[0] in BAD_MODULES]
        if isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] in BAD_MODULES:
                found.append(f"{line}: from {node.module} import")
            if node.module == "yaml":
                found += [f"{line}: from yaml import {a.name}" for a in node.names if a.name in BAD_YAML]
        if isinstance(node, ast.keyword) and node.arg in ("unsafe_allow_html", "allow_pickle") \
                and not (isinstance(node.value, ast.Constant) and node.value.value is False):
            found.append(f"{line}: {node.arg}=")
    return found


def _sources() -> list[Path]:
    return sorted((REPO / "quotelocate").rglob("*.py")) + [APP]


def test_sources_use_no_unsafe_loader_or_evaluator():
    offenders = {str(p.relative_to(REPO)): unsafe_calls(p.read_text(encoding="utf-8"), str(p)) for p in _sources()}
    assert len(offenders) > 10  # the scan saw the package
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.parametrize(
    "snippet",
    [
        "import yaml\nyaml.load(open('x'))",
        "import yaml\nyaml.load(s, Loader=yaml.Loader)",
        "import yaml\nyaml.unsafe_load(s)",
        "import yaml\nyaml.full_load(s)",
        "from yaml import FullLoader",
        "from yaml import load\nload(s)",
        "import yaml\nyaml.load(s, Loader=yaml.UnsafeLoader)",
        "import pickle\npickle.loads(b)",
        "from pickle import loads",
        "import pandas as pd\npd.read_pickle('x')",
        "eval(user_text)",
        "exec(code)",
        "import numpy as np\nnp.load('x', allow_pickle=True)",
        "import streamlit as st\nst.markdown(t, unsafe_allow_html=True)",
    ],
)
def test_the_source_scan_catches(snippet):
    assert unsafe_calls(snippet)


@pytest.mark.parametrize(
    "snippet",
    ["import yaml\nyaml.safe_load(s)", "import yaml\nyaml.parse(s, Loader=yaml.SafeLoader)", "def cmd_eval(): pass\ncmd_eval()",
     "import re\nre.compile('x')", "st.markdown('x', unsafe_allow_html=False)"],
)
def test_the_source_scan_lets_safe_code_pass(snippet):
    assert unsafe_calls(snippet) == []


# ---------------------------------------------------------------------------------------
# Hostile quote sets: one change to the valid tiny set each


@dataclass(frozen=True)
class Hostile:
    id: str
    old: str | bytes  # occurs in the valid set
    new: str | bytes
    words: tuple[str, ...]  # each must be in the message; {line} is "line N" of the change


X1_TEXT = '    text: "The dominant sequence transduction models are based on simple recurrent networks"\n'
X1_NOTE = "    note: simple instead of complex\n"
X1_ID = "  - id: x1\n"
X1_LABEL = "    label: fabricated\n"
X1_TAGS = "    tags: [word-swap]\n"
COERCED = "(YAML 1.1 reads unquoted yes/no/on/off/true/false as booleans; quote the value)"
NUMBER = "(YAML reads unquoted numbers as numbers; quote the value)"
DATE = "(YAML reads unquoted dates as dates; quote the value)"


def _laughs(levels: int) -> str:
    rows = ['  l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    rows += [f"  l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "laughs:\n" + "\n".join(rows) + "\nformat: 1\n"


def _nested(depth: int) -> str:
    return "description: " + "[" * depth + "x" + "]" * depth + "\n"


HOSTILE = [
    # code execution through tags, anywhere in the tree
    Hostile("python-name", X1_NOTE, "    note: !!python/name:os.system\n", ("{line}", "'x1'", "'note'", "YAML tags (!!python/name:os.system)")),
    Hostile("python-object", X1_TEXT, "    text: !!python/object:quotelocate.data.quoteset.Quote {id: z}\n", ("{line}", "'text'", "!!python/object:quotelocate.data.quoteset.Quote")),
    Hostile("python-object-new", X1_NOTE, "    note: !!python/object/new:os.system [echo]\n", ("{line}", "!!python/object/new:os.system")),
    Hostile("python-object-apply-list", X1_TAGS, "    tags: [!!python/object/apply:os.system [echo]]\n", ("{line}", "'tags[0]'", "!!python/object/apply:os.system")),
    Hostile("python-tag-on-a-key", X1_NOTE, "    !!python/name:os.system : x\n", ("{line}", "YAML tags (!!python/name:os.system)")),
    Hostile("python-tag-on-the-root", "format: 1\n", "--- !!python/object/apply:os.system\nformat: 1\n", ("{line}", "YAML tags (!!python/object/apply:os.system)")),
    Hostile("binary-tag", X1_NOTE, "    note: !!binary aGVsbG8=\n", ("{line}", "YAML tags (!!binary)")),
    Hostile("tag-directive", "format: 1\n", "%TAG !p! tag:yaml.org,2002:python/\n---\nformat: !p!name:os.system 1\n", ("YAML tags (!!python/name:os.system)",)),
    # expansion: anchors and aliases, at any depth; deep nesting
    Hostile("billion-laughs", "format: 1\n", _laughs(12), ("line 2", "field 'laughs.l0'", "anchors (&l0)")),
    Hostile("anchor-on-a-quote", X1_ID, "  - &q\n    id: x1\n", ("{line}", "anchors (&q)")),
    Hostile("alias-as-a-quote", X1_NOTE, X1_NOTE + "  - *q\n", ("{line}", "aliases (*q)")),
    Hostile("deep-nesting", "description: a tiny set for tests\n", _nested(5000), ("line 3", "nested more than 16 levels")),
    # YAML 1.1 coercions where a string is expected
    *[
        Hostile(f"id-{value}", X1_ID, f"  - id: {value}\n", ("{line}", "quotes[2]", "'id'", hint))
        for value, hint in [("no", COERCED), ("on", COERCED), ("yes", COERCED), ("off", COERCED),
                            ("1.0", NUMBER), ("0x1F", NUMBER), ("1_000", NUMBER), ("1:30", NUMBER), (".inf", NUMBER),
                            ("2024-01-01", DATE), ("~", "nothing (null)")]
    ],
    *[
        Hostile(f"text-{value}", X1_TEXT, f"    text: {value}\n", ("{line}", "'x1'", "'text'", hint))
        for value, hint in [("yes", COERCED), ("off", COERCED), ("1.0", NUMBER), ("1:30", NUMBER), ("2024-01-01", DATE),
                            ("2024-01-01 12:30:00", DATE), (".NaN", NUMBER)]
    ],
    Hostile("label-on", X1_LABEL, "    label: on\n", ("{line}", "'x1'", "'label'", COERCED)),
    Hostile("tag-yes", X1_TAGS, "    tags: [yes]\n", ("{line}", "'x1'", "'tags[0]'", COERCED)),
    Hostile("note-off", X1_NOTE, "    note: off\n", ("{line}", "'x1'", "'note'", COERCED)),
    Hostile("note-date", X1_NOTE, "    note: 2017-12-06\n", ("{line}", "'x1'", "'note'", DATE)),
    Hostile("description-no", "description: a tiny set for tests\n", "description: no\n", ("{line}", "'description'", COERCED)),
    Hostile("name-number", "name: tiny\n", "name: 2024\n", ("{line}", "'name'", NUMBER)),
    Hostile("paper-file-number", "  file: paper.txt\n", "  file: 1.0\n", ("{line}", "'paper.file'", NUMBER)),
    Hostile("url-yes", "  url: https://example.org/paper.txt\n", "  url: yes\n", ("{line}", "'paper.url'", COERCED)),
    *[
        Hostile(f"key-{key}", X1_NOTE, f"    {key}: x\n", ("{line}", "'x1'", f"key {key!r} is not read as a string", "quote it"))
        for key in ("on", "no", "1", "2024-01-01", "~", "1.5")
    ],
    # broken text: lone surrogates, NUL, control characters
    Hostile("surrogate-high", X1_TEXT, '    text: "based on \\ud800 networks"\n', ("'x1'", "'text'", "lone surrogate U+D800 at index 9")),
    Hostile("surrogate-low", X1_NOTE, '    note: "\\udc00"\n', ("'x1'", "'note'", "lone surrogate U+DC00")),
    Hostile("surrogate-pair-reversed", X1_NOTE, '    note: "\\ude00\\ud83d"\n', ("'note'", "lone surrogate U+DE00")),
    Hostile("surrogate-in-id", X1_ID, '  - id: "x\\ud800"\n', ("quotes[2]", "'id'", "lone surrogate U+D800")),
    Hostile("surrogate-in-a-key", X1_NOTE, '    "\\udfff": x\n', ("lone surrogate U+DFFF",)),
    Hostile("surrogate-in-paper-file", "  file: paper.txt\n", '  file: "paper\\ud800.txt"\n', ("'paper.file'", "lone surrogate U+D800")),
    Hostile("nul-escape", X1_TEXT, '    text: "based on\\0 networks"\n', ("'x1'", "'text'", "NUL character")),
    Hostile("raw-escape-character", X1_NOTE, "    note: simple \x1b complex\n", ("{line}, column 18:", "U+001B is not allowed")),
    Hostile("raw-nonchar-fffe", X1_NOTE, "    note: simple \ufffe complex\n", ("{line}, column 18:", "U+FFFE is not allowed")),
    # invalid UTF-8, named by line, column and byte offset
    Hostile("utf8-stray-byte", X1_NOTE.encode(), b"    note: simple \xff complex\n", ("{line}, column 18:", "not valid UTF-8", "byte 0xff")),
    Hostile("utf8-overlong-slash", X1_NOTE.encode(), b"    note: \xc0\xaf\n", ("{line}, column 11:", "byte 0xc0")),
    Hostile("utf8-encoded-surrogate", X1_NOTE.encode(), b"    note: \xed\xa0\x80\n", ("{line}, column 11:", "byte 0xed")),
    Hostile("utf8-truncated-at-eof", X1_NOTE.encode(), b"    note: caf\xc3", ("{line}, column 14:", "byte 0xc3", "unexpected end of data")),
    Hostile("latin-1", X1_NOTE.encode(), b"    note: caf\xe9 au lait\n", ("{line}, column 14:", "byte 0xe9")),
    Hostile("utf16-file", b"format: 1\n", "format: 1\n".encode("utf-16"), ("line 1, column 1:", "byte 0xff", "offset 0")),
    # ids that would be Markdown or HTML, and duplicate ids
    *[
        Hostile(f"id-{name}", X1_ID, f"  - id: {json.dumps(value)}\n", ("{line}", "'id'", "is not an id ([A-Za-z0-9._-]+)"))
        for name, value in [("html", "<img src=x onerror=alert(1)>"), ("markdown", "**bold**"), ("latex", "$x$"),
                            ("link", "[a](javascript:alert(1))"), ("space", "x 1"), ("newline", "x\n1")]
    ],
    Hostile("id-duplicate-of-f2", X1_ID, "  - id: f2\n", ("{line}", "quote 'f2' (quotes[2])", "duplicate id (first used on line 29)")),
    # paths out of their folder
    *[
        Hostile(f"paper-file-{name}", "  file: paper.txt\n", f"  file: {json.dumps(value)}\n", ("{line}", "'paper.file'", "bare file name"))
        for name, value in [("parent", "../../etc/passwd"), ("absolute", "/etc/passwd"), ("dotdot", ".."), ("dot", "."),
                            ("home", "~/.ssh/id_rsa"), ("backslash", "..\\..\\paper.txt"), ("subfolder", "papers/paper.txt")]
    ],
    Hostile("paper-file-nul", "  file: paper.txt\n", '  file: "paper.txt\\0.pdf"\n', ("{line}", "'paper.file'", "NUL character")),
    Hostile("chunk-file-climbs", "  size: 64\n  overlap: 16\n", "  file: sub/../../../outside.jsonl\n", ("'chunking.file'", "leaves the set's folder")),
    Hostile("chunk-file-home", "  size: 64\n  overlap: 16\n", "  file: /root/chunks.jsonl\n", ("'chunking.file'", "relative")),
]


def _change(case: Hostile, path: Path) -> int:
    """Make the change in the set at ``path``; the 1-based line of the first changed byte."""
    data = path.read_bytes()
    old = case.old if isinstance(case.old, bytes) else case.old.encode()
    new = case.new if isinstance(case.new, bytes) else case.new.encode("utf-8", "surrogatepass")
    assert old in data, case.id
    changed = data.replace(old, new, 1)
    path.write_bytes(changed)
    first = next((i for i, (a, b) in enumerate(zip(data, changed)) if a != b), len(data))
    return data[:first].count(b"\n") + 1


@pytest.mark.parametrize("case", HOSTILE, ids=[c.id for c in HOSTILE])
def test_hostile_set_is_refused_naming_file_and_line(case, tmp_path):
    path, papers = write_tiny_set(tmp_path)
    line = _change(case, path)
    t0 = time.perf_counter()
    with pytest.raises(DatasetError) as info:
        load_quote_set(path, papers_path=papers)
    assert time.perf_counter() - t0 < 2.0, "must fail fast, before anything is expanded or opened"
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    for word in case.words:
        word = word.replace("{line}", f"line {line}")
        assert word in message, f"{word!r} not in {message!r}"
    assert "\n" not in message
    message.encode("utf-8")  # printable as it is: no lone surrogate leaks into the message


def test_a_billion_laughs_at_thirty_levels_fails_at_its_first_anchor(tmp_path):
    path, papers = write_tiny_set(tmp_path)
    path.write_text(_laughs(30) + path.read_text(encoding="utf-8").replace("format: 1\n", "", 1), encoding="utf-8")
    t0 = time.perf_counter()
    with pytest.raises(DatasetError, match=r"line 2: field 'laughs.l0': YAML anchors \(&l0\)"):
        load_quote_set(path, papers_path=papers)
    assert time.perf_counter() - t0 < 0.5


def test_a_duplicate_id_names_the_lines_of_both(tmp_path):
    path, papers = write_tiny_set(tmp_path)
    text = path.read_text(encoding="utf-8")
    first = text.splitlines().index("  - id: f1") + 1
    path.write_text(text.replace(X1_ID, "  - id: f1\n", 1), encoding="utf-8")
    second = path.read_text(encoding="utf-8").splitlines().index("  - id: f1", first) + 1
    with pytest.raises(DatasetError) as info:
        load_quote_set(path, papers_path=papers)
    assert str(info.value) == (
        f"{path}: line {second}: quote 'f1' (quotes[2]): field 'id': duplicate id (first used on line {first})"
    )


def test_an_escaped_surrogate_pair_is_the_character_it_encodes(tmp_path):
    path, papers = write_tiny_set(tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(X1_NOTE, '    note: "math \\ud835\\udc65 and \\U0001F600"\n'), encoding="utf-8")
    qs = load_quote_set(path, papers_path=papers)
    assert qs.by_id("x1").note == "math \U0001d465 and \U0001f600"


def test_a_chunk_file_symlinked_out_of_the_set_folder_is_refused(tmp_path):
    path, papers = write_tiny_set(tmp_path)
    outside = tmp_path / "outside.jsonl"
    outside.write_text('{"text": "Attention Is All You Need"}\n', encoding="utf-8")
    (path.parent / "chunks.jsonl").symlink_to(outside)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  size: 64\n  overlap: 16\n", "  file: chunks.jsonl\n"), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"field 'chunking.file': 'chunks.jsonl' leaves the set's folder"):
        load_quote_set(path, papers_path=papers)


def test_a_bundled_set_folder_symlinked_out_of_the_datasets_folder_is_refused(tmp_path, monkeypatch):
    from quotelocate.data import papers as paths

    datasets = tmp_path / "datasets"
    datasets.mkdir()
    monkeypatch.setattr(paths, "DATASETS_DIR", datasets)
    path, papers = write_tiny_set(tmp_path)
    (path.parent / "synthetic.yaml").write_bytes(path.read_bytes())
    (datasets / "synthetic").symlink_to(path.parent, target_is_directory=True)  # a bundled name's folder
    with pytest.raises(DatasetError, match="outside the datasets folder"):
        load_quote_set("synthetic", papers_path=papers)


# ---------------------------------------------------------------------------------------
# Uploads


def test_the_server_upload_limit_matches_the_streamlit_config():
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] * 1024 * 1024 == workbench.MAX_UPLOAD_BYTES


@pytest.mark.parametrize(
    "set_size, pdf_size, refused",
    [(1000, None, None), (1001, None, "quote set"), (0, None, "quote set"), (10, 1000, None), (10, 1001, "paper"),
     (10, 0, "paper")],
    ids=["set-at-limit", "set-over", "set-empty", "pdf-at-limit", "pdf-over", "pdf-empty"],
)
def test_upload_size_is_checked_on_the_bytes_received(tmp_path, set_size, pdf_size, refused):
    set_bytes = b"#" * set_size
    pdf_bytes = None if pdf_size is None else (b"%PDF-1.7\n" + b"0" * pdf_size)[:pdf_size]
    if refused is None:
        set_path, _ = workbench.stage_upload(tmp_path, set_bytes, pdf_bytes, max_bytes=1000)
        assert set_path.read_bytes() == set_bytes
        return
    with pytest.raises((DatasetError, DocumentError)) as info:
        workbench.stage_upload(tmp_path, set_bytes, pdf_bytes, max_bytes=1000)
    assert str(info.value).startswith(refused)
    assert "empty" in str(info.value) or "exceeds the upload limit of" in str(info.value)
    assert list(tmp_path.iterdir()) == []  # nothing staged


def test_the_default_limit_applies_without_an_argument(tmp_path, monkeypatch):
    monkeypatch.setattr(workbench, "MAX_UPLOAD_BYTES", 100)
    with pytest.raises(DatasetError, match="exceeds the upload limit"):
        workbench.load_upload(tmp_path, b"#" * 101)
    assert list(tmp_path.iterdir()) == []


def test_staging_never_overwrites_another_upload_or_a_file_in_the_folder(tmp_path):
    (tmp_path / "quotes.yaml").write_bytes(b"the user's own file")
    a, _ = workbench.stage_upload(tmp_path, b"first")
    b, _ = workbench.stage_upload(tmp_path, b"second")
    assert a != b and a.read_bytes() == b"first" and b.read_bytes() == b"second"
    assert (tmp_path / "quotes.yaml").read_bytes() == b"the user's own file"


def test_a_hostile_upload_runs_nothing(tmp_path):
    data = b"format: 1\nname: x\npaper: !!python/object/apply:os.system ['touch " + str(tmp_path / "pwned").encode() + b"']\n"
    with pytest.raises(DatasetError, match="YAML tags"):
        workbench.load_upload(tmp_path / "up", data)
    assert not (tmp_path / "pwned").exists()


# ---------------------------------------------------------------------------------------
# Markdown and HTML are shown literally: the app

INJECTED_DOC_LINE = "<img src=x onerror=alert(1)> **b** $x$ [a](javascript:x)"
PDF_LINES = [
    "The dominant sequence transduction models are based on complex recurrent or",
    "convolutional neural networks that include an encoder and a decoder.",
    "We propose a new simple network architecture, the Transformer, based",
]
INJECTED_TEXT = "<script>alert(2)</script> and **bold** $y$ [link](javascript:alert(3)) ![i](http://e.x/a.png)"
INJECTED_NOTE = "<b onmouseover=alert(4)>note</b> __under__ $$z$$ [n](javascript:alert(5))"
MARKERS = ("<img", "<script", "<b ", "onerror", "onmouseover", "javascript:", "$x$", "$y$", "$$z$$", "**b**",
           "**bold**", "__under__", "![i]")
EVIL_NAME = "<img src=x onerror=alert(9)> **evil** $q$.yaml"


@pytest.fixture(scope="module")
def hostile_upload(tmp_path_factory) -> tuple[bytes, bytes]:
    """A PDF whose text carries Markdown and HTML, and a valid set over it whose quotes
    and notes do too."""
    tmp = tmp_path_factory.mktemp("hostile")
    pdf = make_pdf(tmp / "p.pdf", [INJECTED_DOC_LINE, *PDF_LINES], title="hostile")
    doc = Document.from_pdf_bytes(pdf)
    assert INJECTED_DOC_LINE in doc.text
    fp = doc.text_fingerprint
    text = set_yaml(paper_file="p.pdf", paper_sha=doc.sha256, text_sha=fp["sha256"], extractor=fp["extractor"],
                    extractor_version=fp["extractor_version"], flags=fp["flags"], text=doc.text)
    text = text.replace("name: tiny\n", "name: hostile\n")
    text += (
        f"  - id: inj-doc\n    text: {json.dumps(INJECTED_DOC_LINE)}\n    label: fabricated\n"
        f"    tags: [outside-material]\n    cited_chunk: 0\n    note: {json.dumps(INJECTED_NOTE)}\n"
        f"  - id: inj-text\n    text: {json.dumps(INJECTED_TEXT)}\n    label: fabricated\n"
        f"    tags: [invented-tail]\n    cited_chunk: 0\n    note: {json.dumps(INJECTED_NOTE)}\n"
    )
    return text.encode("utf-8"), pdf


def _markdown_rendered(at) -> list[str]:
    """The text of every element Streamlit renders as Markdown, and every widget label."""
    out = []
    for kind in ("markdown", "caption", "title", "header", "subheader", "success", "info", "warning", "error",
                 "exception", "toast"):
        out += [str(e.value) for e in at.get(kind)]
    for kind in ("selectbox", "radio", "checkbox", "button", "number_input", "file_uploader", "metric",
                 "download_button", "toggle", "tabs"):
        out += [str(getattr(e, "label", "")) for e in at.get(kind)]
    out += [img.caption for e in at.get("image") for img in e.proto.imgs]
    return out


def _literal(at) -> str:
    return "\n".join([str(c.value) for c in at.code] + [str(t.value) for t in at.text])


def test_markdown_and_html_in_quotes_notes_document_text_and_file_names_are_shown_literally(
        hostile_upload, tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("QUOTELOCATE_RUNS", str(tmp_path / "runs.sqlite3"))
    monkeypatch.chdir(REPO)
    set_bytes, pdf = hostile_upload
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    at.selectbox(key="set").select("upload").run()
    at.get("file_uploader")[0].set_value((EVIL_NAME, set_bytes, "application/yaml"))
    at.get("file_uploader")[1].set_value((EVIL_NAME.replace(".yaml", ".pdf"), pdf, "application/pdf"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error] + _literal(at).splitlines()
    at.session_state["view"] = "Inspect"
    at.run()
    seen_context = False
    for qid in ("inj-doc", "inj-text", "x1"):
        at.selectbox(key="quote").select(qid).run()
        assert not at.exception, [e.value for e in at.exception]
        for shown in _markdown_rendered(at):
            assert not any(m in shown for m in MARKERS), shown
            assert "onerror=alert(9)" not in shown  # the uploaded file's name is never shown or used
        literal = _literal(at)
        assert f"{qid} · labelled fabricated · verdict" in literal  # the header line is plain text
        assert qid == "x1" or INJECTED_NOTE in literal
        assert "<img src=x onerror=alert(1)>" in literal, "the cited chunk, as extracted, verbatim"
        seen_context |= f"⟦{INJECTED_DOC_LINE}⟧" in literal
    assert seen_context, "the accepted quote's document context is shown verbatim"
    assert INJECTED_TEXT in _literal(at) or INJECTED_TEXT in set(at.dataframe[0].value["text"])
    assert "onerror=alert(9)" not in _literal(at)


# ---------------------------------------------------------------------------------------
# ... and the offline report


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_a_hostile_run_file_is_escaped_in_the_report(tmp_path):
    doc = Document.from_text(PAPER_TEXT, name="paper.txt")
    quotes = [Quote(id=f"x{i}", text=t, label="fabricated", tags=("invented-tail",))
              for i, t in enumerate((INJECTED_DOC_LINE, INJECTED_TEXT, "a </script><script>alert(6)</script> quote"))]
    ev = evaluate(QuoteSet.from_quotes(quotes, document=doc, name="plain"), ["exact"], repeats=1)
    # a run file is anyone's: ids, tags, set name, config and metadata are not checked by a loader
    payload = ev.to_json()
    evil_id = '<img src=x onerror=alert(7)></script>"><script>alert(8)</script>'
    for rec in payload["verdicts"]:
        rec["id"] = evil_id + rec["id"]
        rec["tags"] = ["<script>alert(10)</script>"]
    payload["meta"]["set"] = "<script>alert(11)</script>"
    payload["meta"]["note"] = {"x": "</script><img src=x onerror=alert(12)>"}
    run = tmp_path / "run.json"
    run.write_text(json.dumps(payload), encoding="utf-8")
    out = tmp_path / "r.html"
    assert cli_main(["report", str(run), "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page.lower() and "</script" not in page.lower()
    assert "<img" not in page and "<b " not in page
    parsed = _Tags()
    parsed.feed(page)
    assert not {t for t, _ in parsed.tags} & {"script", "img", "iframe"}
    for tag, attrs in parsed.tags:
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    text = "".join(parsed.text)
    for literal in (evil_id + "x0", "<script>alert(11)</script>", INJECTED_DOC_LINE, "a </script><script>alert(6)</script> quote"):
        assert literal in text


# ---------------------------------------------------------------------------------------
# The run store: a SIGKILL in the middle of a save


@pytest.fixture(scope="module")
def small_run() -> Evaluation:
    doc = Document.from_text(PAPER_TEXT, name="paper.txt")
    quotes = [Quote(id=f"x{i}", text=f"nothing like this {i} is in the paper", label="fabricated",
                    tags=("invented-tail",)) for i in range(40)]
    return evaluate(QuoteSet.from_quotes(quotes, document=doc, name="small"), ["exact", "recommended"], repeats=1)


def _save_until_killed(path: str, payload: dict, ready) -> None:
    original = runstore._verdict_rows

    def stalling(run_id, evaluation):
        rows = original(run_id, evaluation)
        for _ in range(5):
            yield next(rows)
        ready.send("inside the transaction")
        time.sleep(60)  # killed here
        yield from rows

    runstore._verdict_rows = stalling
    RunStore(path).save(Evaluation.from_json(payload))
    os._exit(0)


def test_sigkill_in_the_middle_of_a_save_loses_no_earlier_run(tmp_path, small_run):
    path = tmp_path / "runs.sqlite3"
    store = RunStore(path)
    first, second = store.save(small_run), store.save(small_run)
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    p = ctx.Process(target=_save_until_killed, args=(str(path), small_run.to_json(), child))
    p.start()
    assert parent.poll(30) and parent.recv() == "inside the transaction"
    os.kill(p.pid, signal.SIGKILL)
    p.join(timeout=30)
    assert p.exitcode == -signal.SIGKILL
    store = RunStore(path)
    store.check()
    assert list(store.list_runs().id) == [first, second]
    for rid in (first, second):
        pd.testing.assert_frame_equal(store.load(rid).verdicts, small_run.verdicts)
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM verdicts").fetchone()[0] == 2 * len(small_run.verdicts)
    assert store.save(small_run) == second + 1


# ---------------------------------------------------------------------------------------
# The run store: corrupt, truncated and foreign files are named and left untouched


@pytest.fixture(scope="module")
def real_store(tmp_path_factory, small_run) -> bytes:
    path = tmp_path_factory.mktemp("real") / "runs.sqlite3"
    for _ in range(3):
        RunStore(path).save(small_run)
    data = path.read_bytes()
    assert len(data) >= 8 * 4096 and not Path(f"{path}-wal").exists()
    return data


def _page(data: bytes) -> int:
    return int.from_bytes(data[16:18], "big")


CORRUPT = {
    "text-file": lambda real: b"id,created\n1,2024-01-01\n" * 50,
    "png": lambda real: b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8,
    "json-run": lambda real: json.dumps({"verdicts": []}).encode(),
    "sqlite-header-then-garbage": lambda real: runstore.SQLITE_HEADER + (bytes(range(256)) * 16)[:4080],
    "plausible-header-then-garbage": lambda real: real[:100] + (b"\x0d\x00\x00\x00\x01\x0f\xf0" * 600)[: _page(real) - 100],
    "header-only": lambda real: real[:100],
    "half-a-header": lambda real: real[:50],
    "first-page-only": lambda real: real[: _page(real)],
    "cut-in-half": lambda real: real[: len(real) // 2],
    "last-page-missing": lambda real: real[: -_page(real)],
    "last-byte-missing": lambda real: real[:-1],
    "pages-wrecked": lambda real: real[: _page(real)] + b"\xa5" * (len(real) - _page(real)),
    "schema-page-wrecked": lambda real: real[:100] + b"\x00" * (_page(real) - 100) + real[_page(real):],
}


def _files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def _untouched(folder: Path, name: str, digest: str) -> None:
    """The file has the same bytes; at most SQLite's empty lock files appeared beside it
    (nothing was written into a write-ahead log)."""
    files = _files(folder)
    assert files.pop(name) == digest
    assert set(files) <= {f"{name}-wal", f"{name}-shm"}, files
    wal = folder / f"{name}-wal"
    assert not wal.exists() or wal.stat().st_size == 0


@pytest.mark.parametrize("kind", CORRUPT)
def test_a_corrupt_store_is_named_and_left_untouched(kind, tmp_path, real_store, small_run):
    path = tmp_path / "runs.sqlite3"
    content = CORRUPT[kind](real_store)
    path.write_bytes(content)
    digest = hashlib.sha256(content).hexdigest()
    actions = {"open": lambda s: None, "list": RunStore.list_runs, "load": lambda s: s.load(1),
               "save": lambda s: s.save(small_run), "check": RunStore.check, "compare": lambda s: s.compare(1, 2)}
    for action, call in actions.items():
        with pytest.raises(RunStoreError) as info:
            call(RunStore(path))
        message = str(info.value)
        assert message.startswith(f"{path}: ") and "\n" not in message, (action, message)
        assert "untouched" in message, (action, message)
    _untouched(tmp_path, path.name, digest)


@pytest.mark.parametrize(
    "argv",
    [["runs", "--store", "{db}"], ["runs", "--json", "--store", "{db}"], ["compare", "1", "2", "--store", "{db}"],
     ["eval", "{set}", "--papers", "{papers}", "--repeats", "1", "--store", "{db}"],
     ["report", "1", "--store", "{db}", "--out", "{out}"]],
    ids=["runs", "runs-json", "compare", "eval", "report"],
)
@pytest.mark.parametrize("kind", ["png", "last-byte-missing", "pages-wrecked"])
def test_the_command_line_names_a_corrupt_store_and_leaves_it_untouched(argv, kind, tmp_path, real_store):
    set_path, papers = write_tiny_set(tmp_path)
    folder = tmp_path / "store"
    folder.mkdir()
    db = folder / "runs.sqlite3"
    content = CORRUPT[kind](real_store)
    db.write_bytes(content)
    fill = {"db": str(db), "set": str(set_path), "papers": str(papers), "out": str(tmp_path / "r.html")}
    out, err = io.StringIO(), io.StringIO()
    code = cli_main([a.format(**fill) for a in argv], out=out, err=err)
    assert code == 2, (out.getvalue(), err.getvalue())
    assert str(db) in err.getvalue() and len(err.getvalue().strip().splitlines()) == 1, err.getvalue()
    assert out.getvalue() == ""
    assert not (tmp_path / "r.html").exists()
    _untouched(folder, db.name, hashlib.sha256(content).hexdigest())


def test_the_app_names_a_corrupt_store_and_leaves_it_untouched(tmp_path, monkeypatch, real_store):
    from streamlit.testing.v1 import AppTest

    db = tmp_path / "runs.sqlite3"
    content = CORRUPT["last-byte-missing"](real_store)
    db.write_bytes(content)
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(db))
    monkeypatch.chdir(REPO)
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    at.button(key="save_eval").click().run()
    assert not at.exception
    assert "The run could not be saved." in [e.value for e in at.error]
    assert any(str(db) in c.value and "untouched" in c.value for c in at.code)
    at.session_state["view"] = "Runs"
    at.run()
    assert not at.exception
    assert "The run store cannot be read." in [e.value for e in at.error]
    _untouched(tmp_path, db.name, hashlib.sha256(content).hexdigest())


def test_an_empty_file_is_a_new_store_and_reading_it_writes_nothing(tmp_path, small_run):
    """A zero-byte file holds nothing to lose: SQLite (and `touch runs.sqlite3`) treat it
    as a new database. Listing it writes nothing; saving makes it a run store."""
    path = tmp_path / "runs.sqlite3"
    path.write_bytes(b"")
    store = RunStore(path)
    assert store.list_runs().empty
    assert path.read_bytes() == b""
    assert store.save(small_run) == 1
    assert list(RunStore(path).list_runs().id) == [1]


def test_a_directory_in_place_of_the_store_is_named(tmp_path):
    (tmp_path / "runs.sqlite3").mkdir()
    with pytest.raises(RunStoreError, match="is a directory"):
        RunStore(tmp_path / "runs.sqlite3")


# ---------------------------------------------------------------------------------------
# Nothing a user gave us is overwritten


def test_fetch_never_replaces_someone_elses_file_under_the_papers_name(tmp_path):
    from test_dataset import FakeOpener

    from quotelocate.data.quoteset import fetch
    from quotelocate.errors import FetchError

    path, _ = write_tiny_set(tmp_path)
    dest = tmp_path / "mine"
    dest.mkdir()
    (dest / "paper.txt").write_bytes(b"my annotated copy")
    opener = FakeOpener(PAPER_TEXT.encode())  # the download itself would be good
    with pytest.raises(FetchError, match=r"paper.txt: already exists and does not match the pin .* not overwritten"):
        fetch(path, dest=dest, opener=opener)
    assert (dest / "paper.txt").read_bytes() == b"my annotated copy"
    assert opener.calls == [] and sorted(p.name for p in dest.iterdir()) == ["paper.txt"]
    # a copy whose text satisfies the pin is used as it is
    (dest / "paper.txt").write_bytes(PAPER_TEXT.encode())
    assert not fetch(path, dest=dest, opener=opener).downloaded


def test_eval_refuses_a_corrupt_store_before_it_evaluates(tmp_path, monkeypatch):
    import quotelocate.evaluation

    def no_evaluation(*_, **__):
        raise AssertionError("evaluated before checking the run store")

    monkeypatch.setattr(quotelocate.evaluation, "evaluate", no_evaluation)
    set_path, papers = write_tiny_set(tmp_path)
    db = tmp_path / "runs.sqlite3"
    db.write_bytes(runstore.SQLITE_HEADER + b"\x10\x00" + b"\x00" * 4078)  # 4096-byte pages, no tables
    err = io.StringIO()
    assert cli_main(["eval", str(set_path), "--papers", str(papers), "--store", str(db)], out=io.StringIO(), err=err) == 2
    assert str(db) in err.getvalue()
