"""Quote set loading: a catalog of broken sets, pinning, name resolution, fetch, and the
bundled sets.

Every broken set starts from the valid tiny set of ``_quote_sets.py`` and changes one
thing; each case says which error type it raises and which words the message must
contain (the file, the quote id, the field). No test touches the network.
"""

from __future__ import annotations

import hashlib
import io
import os
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from quotelocate.data import papers as paths
from quotelocate.data.papers import resolve_paper
from quotelocate.data.quoteset import (
    BUNDLED_SETS,
    Anchor,
    Quote,
    QuoteSet,
    fetch,
    load_quote_set,
)
from quotelocate.document import Document
from quotelocate.errors import DatasetError, FetchError, PaperNotFoundError

from _quote_sets import PAPER_TEXT, make_pdf, set_yaml, write_tiny_set


# ---------------------------------------------------------------------------------------
# The valid set


def test_tiny_set_loads(tmp_path):
    path, papers = write_tiny_set(tmp_path)
    qs = load_quote_set(path, papers_path=papers)
    assert qs.name == "tiny"
    assert [q.id for q in qs] == ["f1", "f2", "x1"]
    assert qs.quotes[0].anchor.text.startswith("The dominant") and "\n" in qs.quotes[0].anchor.text
    assert qs.quotes[1].anchor.page == 2
    assert qs.quotes[2].anchor is None and qs.quotes[2].cited_chunk == 0
    assert qs.set_hash == hashlib.sha256(path.read_bytes()).hexdigest()
    assert qs.warnings == ()
    assert qs.document() is qs.document()  # opened once
    assert qs.paper_path == papers / "paper.txt"
    assert qs.chunking.size == 64 and len(qs.chunks) >= 4


# ---------------------------------------------------------------------------------------
# The catalog of broken sets


@dataclass(frozen=True)
class Bad:
    id: str
    old: str | bytes  # text of the valid set to replace (must occur)
    new: str | bytes
    words: tuple[str, ...]  # the message must contain each (the file name is always checked)
    error: type = DatasetError


BOMB = """bomb:
  a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
  g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
  h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
  i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
format: 1
"""

CASES = [
    Bad("duplicate-id", "  - id: x1\n", "  - id: f1\n", ("'f1'", "'id'", "duplicate id", "line")),
    Bad("missing-label", "    label: fabricated\n", "", ("'x1'", "'label'", "missing")),
    Bad("misspelt-field", "    anchor:\n      page: {page2}", "    anchorx:\n      page: {page2}", ("'f2'", "anchorx", "unknown field")),
    Bad(
        "faithful-without-anchor",
        "    label: fabricated\n    tags: [word-swap]\n",
        "    label: faithful\n    tags: [plain]\n",
        ("'x1'", "'anchor'", "missing required field"),
    ),
    Bad("label-no-yaml11-bool", "    label: fabricated\n", "    label: no\n", ("'x1'", "'label'", "boolean false", "quote the value")),
    Bad("label-unknown", "    label: fabricated\n", "    label: invented\n", ("'x1'", "'label'", "'invented'")),
    Bad(
        "python-object-tag",
        '    text: "The dominant sequence transduction models are based on simple recurrent networks"\n',
        '    text: !!python/object/apply:os.system ["touch {tmp}/pwned"]\n',
        ("{line}", "quote 'x1' (quotes[2])", "field 'text'", "YAML tags (!!python/object/apply:os.system)"),
    ),
    Bad("local-tag", "    label: fabricated\n", "    label: !custom fabricated\n", ("{line}", "'x1'", "'label'", "tags (!custom)")),
    Bad("alias-bomb", "format: 1\n", BOMB, ("line 2", "field 'bomb.a'", "anchors (&a)")),
    Bad("alias", "    tags: [plain]\n", "    tags: [plain]\n    note: *n\n", ("{line}", "'f2'", "'note'", "aliases (*n)")),
    Bad("merge-key", "  - id: x1\n", "  - <<: {{note: merged}}\n    id: x1\n", ("{line}", "merge keys",)),
    Bad("duplicate-key", "    label: fabricated\n", "    label: fabricated\n    label: faithful\n", ("'x1'", "'label'", "duplicate key 'label'")),
    Bad(
        "lone-surrogate",
        '    text: "The dominant sequence transduction models are based on simple recurrent networks"\n',
        '    text: "The dominant sequence \\ud800 models are based on simple recurrent networks"\n',
        ("'x1'", "'text'", "lone surrogate U+D800"),
    ),
    Bad("invalid-utf8", b"    note: simple instead of complex\n", b"    note: simple \xff complex\n", ("{line} column 18:", "not valid UTF-8")),
    Bad("chunk-file-escapes", "  size: 64\n  overlap: 16\n", "  file: ../../outside.jsonl\n", ("'chunking.file'", "leaves the set's folder")),
    Bad("chunk-file-absolute", "  size: 64\n  overlap: 16\n", "  file: /etc/passwd\n", ("'chunking.file'", "relative")),
    Bad("drifted-anchor", "      start: {f1}\n", "      start: {f1_plus}\n", ("'f1'", "anchor drifted", "now reads", "'he dominant")),
    Bad("anchor-page", "      page: {page2}\n", "      page: 1\n", ("'f2'", "'anchor.page'", "page 2")),
    Bad("unknown-tag", "    tags: [linebreak]\n", "    tags: [linebreak, flying]\n", ("'f1'", "'tags[1]'", "unknown tag 'flying'")),
    Bad("faithful-tag-on-fabricated", "    tags: [word-swap]\n", "    tags: [plain]\n", ("'x1'", "unknown tag 'plain'", "fabricated")),
    Bad("no-tags", "    tags: [word-swap]\n", "    tags: []\n", ("'x1'", "'tags'", "at least one tag")),
    Bad("fabricated-with-anchor", "    cited_chunk: 0\n", "    cited_chunk: 0\n    anchor: {{page: 1, start: 0, end: 5, text: Atten}}\n", ("'x1'", "'anchor'", "no anchor")),
    Bad("cited-chunk-out-of-range", "    cited_chunk: 0\n", "    cited_chunk: 99\n", ("'x1'", "'cited_chunk'", "does not exist")),
    Bad("cited-chunk-string", "    cited_chunk: 0\n", "    cited_chunk: 'zero'\n", ("'x1'", "'cited_chunk'", "whole number")),
    Bad("unknown-quote-field", "    note: crosses a line break\n", "    note: crosses a line break\n    score: 3\n", ("'f1'", "'score'", "unknown field")),
    Bad("bad-id", "  - id: x1\n", "  - id: x 1\n", ("'id'", "'x 1'")),
    Bad("bad-name", "name: tiny\n", "name: Tiny Set\n", ("'name'", "set name")),
    Bad("format-3", "format: 1\n", "format: 3\n", ("'format'", "unsupported format 3")),
    Bad("format-2-with-one-paper", "format: 1\n", "format: 2\n", ("line 5", "field 'paper'", "under 'papers'")),
    Bad("version-date", '  version: "1"\n', "  version: 2017-12-06\n", ("'paper.version'", "date", "quote the value")),
    Bad("extractor-version-float", '    extractor_version: "1"\n', "    extractor_version: 1.0\n", ("'paper.text.extractor_version'", "number")),
    Bad("sha-not-hex", "  sha256: {sha}\n", "  sha256: abc\n", ("'paper.sha256'", "64 hex")),
    Bad("paper-file-with-folder", "  file: paper.txt\n", "  file: ../papers/paper.txt\n", ("'paper.file'", "bare file name")),
    Bad("empty-quotes", None, None, ("'quotes'", "empty")),  # whole quotes list replaced below
    Bad("two-documents", "    note: simple instead of complex\n", "    note: simple instead of complex\n---\nformat: 1\n", ("{line}", "more than one YAML document")),
    Bad("syntax-error", "  group_size: 2\n", "  group_size: [2\n", ("not valid YAML",)),
    Bad("missing-paper", "  file: paper.txt\n", "  file: other.txt\n", ("'other.txt'", "search path", "quotelocate fetch"), PaperNotFoundError),
]


def _apply(case: Bad, path: Path, tmp: Path) -> int:
    """Make the change; return the 1-based line where it starts."""
    data = path.read_bytes()
    text = data.decode("utf-8")
    f1 = PAPER_TEXT.index("The dominant")
    f2 = PAPER_TEXT.index("We propose")
    fmt = {
        "f1": f1,
        "f1_plus": f1 + 1,
        "page2": 2,
        "sha": hashlib.sha256(PAPER_TEXT.encode()).hexdigest(),
        "tmp": tmp.as_posix(),
        "f2": f2,
    }
    if case.id == "empty-quotes":
        head = text[: text.index("quotes:\n")]
        path.write_text(head + "quotes: []\n", encoding="utf-8")
        return head.count("\n") + 1
    if isinstance(case.old, bytes):
        assert case.old in data, case.id
        path.write_bytes(data.replace(case.old, case.new, 1))  # type: ignore[arg-type]
        return data[: data.index(case.old)].count(b"\n") + 1
    old = case.old.format(**fmt)
    new = case.new.format(**fmt)  # type: ignore[union-attr]
    assert old in text, f"{case.id}: {old!r} not in the template"
    path.write_text(text.replace(old, new, 1), encoding="utf-8", errors="surrogatepass")
    line = text[: text.index(old)].count("\n") + 1
    # the changed line itself, when the replacement keeps the old text as its prefix
    return line + old.count("\n") if new.startswith(old) else line


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_set(case, tmp_path):
    path, papers = write_tiny_set(tmp_path)
    line = _apply(case, path, tmp_path)
    t0 = time.perf_counter()
    with pytest.raises(case.error) as info:
        load_quote_set(path, papers_path=papers)
    assert time.perf_counter() - t0 < 2.0  # a YAML bomb fails fast
    message = str(info.value)
    assert str(path) in message, message
    for word in case.words:
        word = word.replace("{line} ", f"line {line}, ").replace("{line}", f"line {line}:")
        assert word in message, f"{word!r} not in {message!r}"
    assert "\n" not in message  # one line for the command line
    assert not (tmp_path / "pwned").exists()


def test_missing_paper_names_search_path_and_fetch(tmp_path, monkeypatch):
    path, papers = write_tiny_set(tmp_path)
    (papers / "paper.txt").unlink()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(PaperNotFoundError) as info:
        load_quote_set(path, papers_path=papers)
    msg = str(info.value)
    assert str(papers) in msg and str(tmp_path / "cache" / "quotelocate" / "papers") in msg
    assert f"quotelocate fetch {path}" in msg


# ---------------------------------------------------------------------------------------
# Pinning


def _pdf_set(tmp_path: Path, *, pinned: bytes, found: bytes | None = None) -> tuple[Path, Path]:
    """A set pinned to the PDF ``pinned``; the papers folder holds ``found`` (default: the same)."""
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "paper.pdf").write_bytes(found if found is not None else pinned)
    doc = Document.from_pdf_bytes(pinned)
    fp = doc.text_fingerprint
    text = doc.text
    sets = tmp_path / "sets"
    sets.mkdir()
    path = sets / "pdf.yaml"
    yaml_text = set_yaml(
        paper_file="paper.pdf",
        paper_sha=doc.sha256,
        text_sha=fp["sha256"],
        extractor=fp["extractor"],
        extractor_version=fp["extractor_version"],
        flags=fp["flags"],
        text=text,
    )
    path.write_text(yaml_text, encoding="utf-8")
    return path, papers


PDF_LINES = [
    "The dominant sequence transduction models are based on complex recurrent or",
    "convolutional neural networks that include an encoder and a decoder.",
    "We propose a new simple network architecture, the Transformer, based",
]


def test_same_bytes_no_warning(tmp_path):
    pinned = make_pdf(tmp_path / "a.pdf", PDF_LINES, title="one")
    path, papers = _pdf_set(tmp_path, pinned=pinned)
    qs = load_quote_set(path, papers_path=papers)
    assert qs.warnings == ()
    assert qs.document().kind == "pdf"


def test_other_bytes_same_text_is_accepted_with_warning(tmp_path):
    pinned = make_pdf(tmp_path / "a.pdf", PDF_LINES, title="one")
    resaved = make_pdf(tmp_path / "b.pdf", PDF_LINES, title="two, re-saved")
    assert pinned != resaved
    assert Document.from_pdf_bytes(pinned).text == Document.from_pdf_bytes(resaved).text
    path, papers = _pdf_set(tmp_path, pinned=pinned, found=resaved)
    qs = load_quote_set(path, papers_path=papers)
    assert len(qs.warnings) == 1
    w = qs.warnings[0]
    assert hashlib.sha256(resaved).hexdigest() in w and hashlib.sha256(pinned).hexdigest() in w
    assert "text is identical" in w
    assert resolve_paper(qs.paper, papers_path=papers) == papers / "paper.pdf"


def test_other_text_is_refused_with_both_hashes(tmp_path):
    pinned = make_pdf(tmp_path / "a.pdf", PDF_LINES, title="one")
    other = make_pdf(tmp_path / "b.pdf", PDF_LINES[:2] + ["We propose a new simple network architecture, the Transformer, based!"], title="one")
    path, papers = _pdf_set(tmp_path, pinned=pinned, found=other)
    with pytest.raises(DatasetError) as info:
        load_quote_set(path, papers_path=papers)
    msg = str(info.value)
    assert "does not match its pin" in msg
    assert f"expected sha256 {hashlib.sha256(pinned).hexdigest()}" in msg
    assert f"found {hashlib.sha256(other).hexdigest()}" in msg
    assert "expected text sha256" in msg
    assert not isinstance(info.value, PaperNotFoundError)


def test_matching_copy_later_on_the_path_wins(tmp_path):
    path, papers = write_tiny_set(tmp_path)
    first = tmp_path / "first"
    first.mkdir()
    (first / "paper.txt").write_text(PAPER_TEXT.replace("Need", "Needs"), encoding="utf-8")
    qs = load_quote_set(path, papers_path=[first, papers])
    assert qs.paper_path == papers / "paper.txt"


def test_papers_env_var(tmp_path, monkeypatch):
    path, papers = write_tiny_set(tmp_path)
    monkeypatch.setenv("QUOTELOCATE_PAPERS", os.pathsep.join([str(tmp_path / "nowhere"), str(papers)]))
    assert load_quote_set(path).paper_path == papers / "paper.txt"


def test_given_document_is_pin_checked(tmp_path):
    path, papers = write_tiny_set(tmp_path)
    doc = Document.open(papers / "paper.txt")
    assert load_quote_set(path, document=doc).document() is doc
    other = Document.from_text(PAPER_TEXT + "more\n")
    with pytest.raises(DatasetError, match="does not match its pin"):
        load_quote_set(path, document=other)


# ---------------------------------------------------------------------------------------
# Names


def test_name_resolution(tmp_path, monkeypatch):
    datasets = tmp_path / "datasets"
    datasets.mkdir()
    monkeypatch.setattr(paths, "DATASETS_DIR", datasets)
    path, papers = write_tiny_set(tmp_path)
    (datasets / "tiny.yaml").write_bytes(path.read_bytes())
    assert load_quote_set("tiny", papers_path=papers).path == datasets / "tiny.yaml"
    # a symlink that takes a set *name* outside the datasets folder is refused
    (datasets / "evil.yaml").symlink_to(path)
    with pytest.raises(DatasetError, match="outside the datasets folder"):
        load_quote_set("evil", papers_path=papers)
    # the same file given as a path is fine
    assert load_quote_set(str(datasets / "evil.yaml"), papers_path=papers).name == "tiny"
    with pytest.raises(DatasetError, match="no such quote set"):
        load_quote_set("nonexistent", papers_path=papers)
    with pytest.raises(DatasetError, match="not a bundled quote set name"):
        load_quote_set("Not A Name", papers_path=papers)
    # '..' makes it a path, resolved relative to the working directory, not the datasets folder
    with pytest.raises(DatasetError, match="no such quote set file"):
        load_quote_set("../tiny", papers_path=papers)


def test_bundled_names_map_to_files():
    assert set(BUNDLED_SETS) == {"synthetic", "attention-v7", "attention-v5", "real-corpus"}
    assert BUNDLED_SETS["synthetic"] == "synthetic/synthetic.yaml"
    assert BUNDLED_SETS["real-corpus"] == "real-corpus"  # a folder of one-paper sets


# ---------------------------------------------------------------------------------------
# In-memory sets


def test_from_quotes_validates_like_the_loader():
    doc = Document.from_text(PAPER_TEXT)
    s = PAPER_TEXT.index("We propose")
    good = Quote(id="a", text="We propose a new", label="faithful", tags=("plain",), anchor=Anchor(page=2, start=s, end=s + 16, text="We propose a new"))
    qs = QuoteSet.from_quotes([good], document=doc)
    assert len(qs) == 1 and len(qs.set_hash) == 64
    with pytest.raises(DatasetError, match="quote 'a'.*duplicate id"):
        QuoteSet.from_quotes([good, good], document=doc)
    drift = Quote(id="b", text="x", label="faithful", tags=("plain",), anchor=Anchor(page=2, start=s + 1, end=s + 17, text="We propose a new"))
    with pytest.raises(DatasetError, match="quote 'b'.*anchor drifted.*now reads 'e propose a new '"):
        QuoteSet.from_quotes([drift], document=doc)
    with pytest.raises(DatasetError, match="unknown tag 'zzz'"):
        QuoteSet.from_quotes([Quote(id="c", text="abc def ghi", label="fabricated", tags=("zzz",))], document=doc)


# ---------------------------------------------------------------------------------------
# fetch (a fake opener; never the network)


class FakeOpener:
    def __init__(self, data: bytes | None = None, error: Exception | None = None) -> None:
        self.data, self.error, self.calls = data, error, []

    def __call__(self, url: str, timeout: float) -> io.BytesIO:
        self.calls.append(url)
        if self.error is not None:
            raise self.error
        return io.BytesIO(self.data)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_fetch_good_bytes(tmp_path):
    path, _ = write_tiny_set(tmp_path)
    dest = tmp_path / "cache"
    opener = FakeOpener(PAPER_TEXT.encode())
    got = fetch(path, dest=dest, opener=opener)
    assert opener.calls == ["https://example.org/paper.txt"]
    assert got.path == dest / "paper.txt" and got.downloaded and got.warnings == ()
    assert got.path.read_bytes() == PAPER_TEXT.encode()
    assert _leftovers(dest) == []
    again = fetch(path, dest=dest, opener=FakeOpener(error=AssertionError("must not download")))
    assert not again.downloaded
    assert load_quote_set(path, papers_path=dest).paper_path == dest / "paper.txt"


def test_fetch_bad_bytes_leaves_nothing(tmp_path):
    path, _ = write_tiny_set(tmp_path)
    dest = tmp_path / "cache"
    with pytest.raises(FetchError) as info:
        fetch(path, dest=dest, opener=FakeOpener(b"%PDF-1.4 this is not the paper"))
    msg = str(info.value)
    assert "https://example.org/paper.txt" in msg
    assert f"expected sha256 {hashlib.sha256(PAPER_TEXT.encode()).hexdigest()}" in msg
    assert not (dest / "paper.txt").exists() and _leftovers(dest) == []
    with pytest.raises(FetchError, match="not a PDF"):
        fetch(path, dest=dest, opener=FakeOpener(b"plain bytes"))
    assert _leftovers(dest) == []


def test_fetch_bad_bytes_do_not_replace_a_good_file(tmp_path):
    path, _ = write_tiny_set(tmp_path)
    dest = tmp_path / "cache"
    dest.mkdir()
    (dest / "paper.txt").write_bytes(b"stale")
    with pytest.raises(FetchError):
        fetch(path, dest=dest, opener=FakeOpener(b"also wrong"))
    assert (dest / "paper.txt").read_bytes() == b"stale"


def test_fetch_network_error(tmp_path):
    path, _ = write_tiny_set(tmp_path)
    with pytest.raises(FetchError, match="download failed .*connection refused"):
        fetch(path, dest=tmp_path / "cache", opener=FakeOpener(error=OSError("connection refused")))
    assert _leftovers(tmp_path / "cache") == []


def test_fetch_pdf_with_same_text_warns(tmp_path):
    pinned = make_pdf(tmp_path / "a.pdf", PDF_LINES, title="one")
    resaved = make_pdf(tmp_path / "b.pdf", PDF_LINES, title="two")
    path, _ = _pdf_set(tmp_path, pinned=pinned)
    got = fetch(path, dest=tmp_path / "cache", opener=FakeOpener(resaved))
    assert got.downloaded and got.path.read_bytes() == resaved
    assert len(got.warnings) == 1 and "text is identical" in got.warnings[0]


def test_fetch_needs_a_url(tmp_path):
    path, _ = write_tiny_set(tmp_path)
    path.write_text(path.read_text().replace("  url: https://example.org/paper.txt\n", ""))
    with pytest.raises(FetchError, match="paper.url"):
        fetch(path, dest=tmp_path / "cache", opener=FakeOpener(b""))


# ---------------------------------------------------------------------------------------
# The bundled sets (real papers from $QUOTELOCATE_PAPERS; nothing skipped)


@pytest.mark.parametrize("name", sorted(BUNDLED_SETS))
def test_bundled_set_loads_and_anchors_verify(name):
    qs = load_quote_set(name)
    assert qs.name == name
    assert qs.faithful and qs.fabricated
    for part in qs.parts:
        doc = part.document()
        for quote in part.faithful:
            a = quote.anchor
            assert doc.text[a.start : a.end] == a.text, quote.id
            assert doc.page_at(a.start) == a.page, quote.id
        for quote in part.quotes:
            if quote.cited_chunk is not None:
                assert 0 <= quote.cited_chunk < len(part.chunks), quote.id


def test_fetch_finds_a_pinned_copy_on_the_search_path_without_downloading(monkeypatch, tmp_path):
    from quotelocate.data.quoteset import fetch

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    def no_network(*_, **__):
        raise AssertionError("must not download")

    done = fetch("attention-v7", opener=no_network)
    assert not done.downloaded and done.path.name == "1706.03762v7.pdf"
