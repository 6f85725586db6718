"""Retrieval chunks: what a model was shown, as spans of the document text.

Character chunks (``size`` and ``overlap``) are cut from :attr:`Document.text` the way
simple RAG pipelines do; chunk ``i`` is ``text[i*(size-overlap) : i*(size-overlap)+size]``.
Groups are ``group_size`` consecutive chunks; the material of a group is the
overlap-deduplicated concatenation of its chunks, i.e. the span from its first chunk's
start to its last chunk's end. Explicit chunks can be read from a JSON-lines file.

>>> chunks = make_chunks("abcdefghij", Chunking(size=4, overlap=1, group_size=2))
>>> [(c.index, c.start, c.end) for c in chunks]
[(0, 0, 4), (1, 3, 7), (2, 6, 10)]
>>> group_span(chunks, 1, 2)
(6, 10)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .errors import ChunkError, ConfigError
from .jsonl import read_jsonl


@dataclass(frozen=True)
class Chunking:
    """How the document was chunked. size: chars per chunk (default 512); overlap:
    chars shared by neighbours (default 64); group_size: chunks per group (default 3)."""

    size: int = 512
    overlap: int = 64
    group_size: int = 3

    def __post_init__(self) -> None:
        for name in ("size", "overlap", "group_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"chunking.{name}: expected a whole number, got {value!r}")
        if self.size < 1:
            raise ConfigError(f"chunking.size: must be at least 1, got {self.size}")
        if not 0 <= self.overlap < self.size:
            raise ConfigError(f"chunking.overlap: must be in [0, size), got {self.overlap}")
        if self.group_size < 1:
            raise ConfigError(f"chunking.group_size: must be at least 1, got {self.group_size}")


@dataclass(frozen=True)
class Chunk:
    """Chunk ``index`` covers ``[start, end)`` of the document text."""

    index: int
    start: int
    end: int


def make_chunks(text: str, chunking: Chunking) -> tuple[Chunk, ...]:
    step = chunking.size - chunking.overlap
    out = []
    i = 0
    while True:
        start = i * step
        end = min(start + chunking.size, len(text))
        out.append(Chunk(i, start, end))
        if end >= len(text):
            break
        i += 1
    return tuple(out)


def group_of(index: int, group_size: int) -> int:
    return index // group_size


def group_span(chunks: Sequence[Chunk], group: int, group_size: int) -> tuple[int, int]:
    members = chunks[group * group_size : (group + 1) * group_size]
    if not members:
        raise ConfigError(f"group {group} does not exist ({len(chunks)} chunks)")
    return min(c.start for c in members), max(c.end for c in members)


def load_chunks_file(path: str | os.PathLike, text: str) -> tuple[Chunk, ...]:
    """Read explicit chunks from JSON lines: ``{"index": int, "text": str}`` with optional
    ``start``/``end``. Chunks without offsets are found in ``text`` in order."""
    p = Path(path)
    out: list[Chunk] = []
    search_from = 0
    for lineno, obj in read_jsonl(p, error=ChunkError, what="chunks"):
        if not isinstance(obj.get("text"), str):
            raise ChunkError(f"{p}: line {lineno}: expected an object with a string 'text'")
        index = obj.get("index", len(out))
        if isinstance(index, bool) or not isinstance(index, int) or index != len(out):
            raise ChunkError(f"{p}: line {lineno}: 'index' must be {len(out)} (chunks in order from 0)")
        chunk_text = obj["text"]
        if "start" in obj or "end" in obj:
            start, end = obj.get("start"), obj.get("end")
            if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(text)):
                raise ChunkError(f"{p}: line {lineno}: 'start'/'end' must be offsets within the text")
            if text[start:end] != chunk_text:
                raise ChunkError(f"{p}: line {lineno}: chunk text differs from the document at {start}:{end}")
        else:
            start = find_chunk(text, chunk_text, search_from, where=f"{p}: line {lineno}: chunk {index}")
            end = start + len(chunk_text)
        out.append(Chunk(index, start, end))
        search_from = start + 1
    return tuple(out)


def find_chunk(text: str, chunk_text: str, search_from: int, *, where: str) -> int:
    """Where ``chunk_text`` starts in ``text``: the first occurrence at or after
    ``search_from`` (chunks come in order), else the first anywhere."""
    start = text.find(chunk_text, search_from)
    if start < 0:
        start = text.find(chunk_text)
    if start < 0:
        raise ChunkError(
            f"{where} does not occur in the document text "
            "(chunks must be cut from `quotelocate text` output)"
        )
    return start


def chunks_from_texts(texts: Sequence[str], text: str, *, where: str = "chunks") -> tuple[Chunk, ...]:
    """Explicit chunks given as their texts, in order, each found in ``text`` the way
    :func:`load_chunks_file` finds chunks without offsets. ``where`` names the input in errors."""
    out: list[Chunk] = []
    search_from = 0
    for index, chunk_text in enumerate(texts):
        if not isinstance(chunk_text, str):
            raise ChunkError(f"{where}[{index}]: expected a string, got {type(chunk_text).__name__}")
        start = find_chunk(text, chunk_text, search_from, where=f"{where}[{index}]")
        out.append(Chunk(index, start, start + len(chunk_text)))
        search_from = start + 1
    if not out:
        raise ChunkError(f"{where}: expected at least one chunk")
    return tuple(out)
