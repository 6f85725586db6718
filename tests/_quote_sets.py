"""Tiny quote sets written to a temporary folder, for the dataset, evaluation and run
store tests: a two-page plain-text paper and a valid YAML set over it that each test
case then breaks in one place."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

PAPER_TEXT = (
    "Attention Is All You Need\n"
    "The dominant sequence transduction models are based on complex recurrent or\n"
    "convolutional neural networks that include an encoder and a decoder.\n"
    "\f"
    "We propose a new simple network architecture, the Transformer, based\n"
    "solely on attention mechanisms.\n"
)

F1_RAW = "The dominant sequence transduction models are based on complex recurrent or\nconvolutional neural networks"
F2_RAW = "We propose a new simple network architecture, the Transformer"


def q(s: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(s, ensure_ascii=False)


def set_yaml(
    *,
    paper_file: str = "paper.txt",
    paper_sha: str,
    text_sha: str,
    extractor: str = "text",
    extractor_version: str = "1",
    flags: int = 0,
    url: str = "https://example.org/paper.txt",
    text: str = PAPER_TEXT,
) -> str:
    f1 = text.index(F1_RAW)
    f2 = text.index(F2_RAW)
    page2 = 2 if "\f" in text[:f2] else 1
    return f"""format: 1
name: tiny
description: a tiny set for tests
paper:
  file: {paper_file}
  sha256: {paper_sha}
  url: {url}
  version: "1"
  text:
    extractor: {extractor}
    extractor_version: "{extractor_version}"
    flags: {flags}
    sha256: {text_sha}
chunking:
  size: 64
  overlap: 16
  group_size: 2
quotes:
  - id: f1
    text: "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks"
    label: faithful
    tags: [linebreak]
    anchor:
      page: 1
      start: {f1}
      end: {f1 + len(F1_RAW)}
      text: {q(F1_RAW)}
    note: crosses a line break
  - id: f2
    text: "We propose a new simple network architecture, the Transformer"
    label: faithful
    tags: [plain]
    anchor:
      page: {page2}
      start: {f2}
      end: {f2 + len(F2_RAW)}
      text: {q(F2_RAW)}
  - id: x1
    text: "The dominant sequence transduction models are based on simple recurrent networks"
    label: fabricated
    tags: [word-swap]
    cited_chunk: 0
    note: simple instead of complex
"""


def write_tiny_set(folder: Path, *, text: str = PAPER_TEXT) -> tuple[Path, Path]:
    """Write ``papers/paper.txt`` and ``sets/tiny.yaml`` under ``folder``; returns (set, papers folder)."""
    papers = folder / "papers"
    papers.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    (papers / "paper.txt").write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    sets = folder / "sets"
    sets.mkdir(parents=True, exist_ok=True)
    path = sets / "tiny.yaml"
    path.write_text(set_yaml(paper_sha=digest, text_sha=digest), encoding="utf-8")
    return path, papers


def make_pdf(path: Path, lines: list[str], *, title: str) -> bytes:
    """A one-page PDF with ``lines``; ``title`` only changes the bytes, not the text."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for line in lines:
        page.insert_text((72, y), line, fontsize=11)
        y += 14
    doc.set_metadata({"title": title, "creationDate": "D:20200101000000", "modDate": "D:20200101000000"})
    data = doc.tobytes(garbage=0, deflate=True)
    doc.close()
    path.write_bytes(data)
    return data
