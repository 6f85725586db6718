"""A pipeline's own chunks, placed on the document by aligning their text.

A retrieval pipeline cuts its chunks from its own text (another extractor, one
document per page, a splitter that strips or joins whitespace), so its chunks are
rarely exact substrings of :attr:`Document.text`. :func:`place_chunks` finds where each
chunk lies by comparing *skeletons*: both sides are normalized by
:data:`PLACEMENT_RULES` (whitespace, curly quotes, invisible characters, NFKC,
end-of-line hyphens dropped) and then every remaining space is removed, so a chunk and
the document agree wherever the two extractions differ only in what a normalizer folds.

Each chunk's start is the first 48-character run of its skeleton that occurs in the
document (on the page it names, else after the previous chunk, else on the pages
around the named one, else anywhere), widened back over the characters before it that
still agree; its end is the last run of the chunk that occurs after that start,
widened forward the same way. Text at the chunk's edges that matches nothing
(another extractor's page header, a dropped line) is left out: a placed chunk never
holds more than its own text, so a misplaced edge can make a quote fall outside the
material (a reject) but never brings unseen text into it. Placement never accepts a
quote; the Locator still compares the quote with the placed material under its rules.

Chunk ``i`` keeps index ``i`` (the order of the file), so the chunk ids a pipeline
cited and its ``group_size`` mean what they meant there. A chunk that cannot be placed
gets a :class:`PlacementError` and an empty span where it would be; the other chunks
are still placed.

Inputs (:func:`read_pipeline_chunks`; JSON lines or one JSON list):

* ``{"text", "page"?, "start"?, "end"?, "id"?}``: a text with an optional 1-based
  page and offsets into the pipeline's own text;
* llama-index nodes (``TextNode.to_dict()``): ``text``, ``start_char_idx``,
  ``end_char_idx``, ``metadata.page_label`` (1-based) or ``metadata.page``, ``id_``;
* LangChain ``Document``s: ``page_content``, ``metadata.start_index``,
  ``metadata.page`` (0-based, as LangChain's PDF loaders write it) or
  ``metadata.page_label``; also the ``dumpd`` form (``{"lc": 1, "kwargs": {...}}``).

Offsets are used only when they read the chunk's exact text from the document (the
pipeline cut its chunks from quotelocate's own text, or from a page of it); a chunk
without offsets that occurs verbatim after the previous chunk is placed there.

>>> from quotelocate.document import Document
>>> doc = Document.from_text("Attention is all you\\nneed. The Trans-\\nformer uses\\u00a0attention only.")
>>> placed = place_chunks([PipelineChunk(0, "Attention is all you need."),
...                        PipelineChunk(1, "The Transformer uses attention only."),
...                        PipelineChunk(2, "A sentence from another paper entirely, not this one.")], doc, min_run=12)
>>> [(c.index, doc.text[c.start:c.end]) for c in placed.chunks[:2]]
[(0, 'Attention is all you\\nneed.'), (1, 'The Trans-\\nformer uses\\xa0attention only.')]
>>> placed.errors[0].index, placed.chunks[2].start == placed.chunks[2].end
(2, True)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from .chunks import Chunk
from .errors import ChunkError
from .jsonl import read_utf8
from .normalize import Normalized, Rules, normalize, normalize_text

if TYPE_CHECKING:  # pragma: no cover
    from .document import Document

PLACEMENT_RULES = Rules(quotes=True, whitespace=True, invisible=True, unicode="nfkc", hyphenation="drop")
"""What two extractions of one page may differ in and still be the same text for placement."""

MIN_RUN = 48
"""Skeleton characters a run must have to place a chunk edge (shorter chunks are placed whole)."""

MAX_CHUNK_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class PipelineChunk:
    """One chunk as the pipeline made it: its position ``index`` in the file, its text,
    the 1-based ``page`` it names, offsets into the pipeline's own text, its ``id``
    (a node or document id, when it has one) and the file ``line`` it came from."""

    index: int
    text: str
    page: int | None = None
    start: int | None = None
    end: int | None = None
    id: str = ""
    line: int = 0


@dataclass(frozen=True)
class PlacementError:
    """Why chunk ``index`` (from file ``line``) has no place on the document."""

    index: int
    message: str
    line: int = 0

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}chunk {self.index}: {self.message}"


@dataclass(frozen=True)
class PlacedChunks:
    """Chunks in file order, each a span of :attr:`Document.text` (empty for a chunk in
    ``errors``); ``ids`` are the pipeline's own chunk ids (``""`` when it gave none);
    ``exact`` counts the chunks whose offsets read their text verbatim."""

    chunks: tuple[Chunk, ...]
    errors: tuple[PlacementError, ...] = ()
    ids: tuple[str, ...] = ()
    exact: int = 0

    def index_of(self, chunk_id: str) -> int:
        """The chunk index of a pipeline chunk id; :class:`ChunkError` if there is none."""
        try:
            return self.ids.index(chunk_id)
        except ValueError:
            raise ChunkError(f"no chunk has id {chunk_id!r}") from None


# ---------------------------------------------------------------------------------------
# Reading


def read_pipeline_chunks(path: str | os.PathLike) -> tuple[tuple[PipelineChunk, ...], tuple[PlacementError, ...]]:
    """The chunks of a JSON-lines file (or a file holding one JSON list), in order.

    A file that cannot be read, or is not JSON, raises :class:`ChunkError` naming it and
    the line. A record that is not a chunk in any of the accepted shapes keeps its
    index and gets a :class:`PlacementError` instead (the rest are still read).
    """
    p = Path(path)
    text = read_utf8(p, error=ChunkError, what="chunk file", limit=MAX_CHUNK_BYTES)
    records: list[tuple[int, Any]] = []
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ChunkError(f"{p}: line {exc.lineno}: invalid JSON ({exc.msg})") from None
        records = [(0, item) for item in items]
    else:
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append((lineno, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise ChunkError(f"{p}: line {lineno}: invalid JSON ({exc.msg})") from None
    if not records:
        raise ChunkError(f"{p}: no chunks")
    chunks: list[PipelineChunk] = []
    errors: list[PlacementError] = []
    for i, (lineno, obj) in enumerate(records):
        try:
            chunks.append(_chunk_from_record(i, obj, lineno))
        except ValueError as exc:
            errors.append(PlacementError(i, str(exc), lineno))
            chunks.append(PipelineChunk(i, "", line=lineno))
    return tuple(chunks), tuple(errors)


def _chunk_from_record(index: int, obj: Any, line: int) -> PipelineChunk:
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    if obj.get("lc") == 1 and isinstance(obj.get("kwargs"), dict):  # langchain_core.load.dumpd
        obj = obj["kwargs"]
    meta = obj.get("metadata") or {}
    if not isinstance(meta, dict):
        raise ValueError("'metadata' must be an object")
    if "page_content" in obj:  # a LangChain Document
        text = obj["page_content"]
        start, end = meta.get("start_index"), None
        page = _page(meta.get("page_label"), one_based=True)
        if page is None:
            page = _page(meta.get("page"), one_based=False)
        cid = obj.get("id")
    elif "start_char_idx" in obj or "end_char_idx" in obj or "id_" in obj:  # a llama-index node
        text = obj.get("text")
        start, end = obj.get("start_char_idx"), obj.get("end_char_idx")
        page = _page(meta.get("page_label"), one_based=True)
        if page is None:
            page = _page(meta.get("page"), one_based=True)
        cid = obj.get("id_")
    else:
        text = obj.get("text")
        start, end = obj.get("start"), obj.get("end")
        page = _page(obj.get("page"), one_based=True)
        cid = obj.get("id")
        if "index" in obj and obj["index"] != index:
            raise ValueError(f"'index' is {obj['index']!r} but the chunk is number {index} in the file (chunks in order from 0)")
    if not isinstance(text, str):
        raise ValueError("no chunk text ('text', or 'page_content' for a LangChain Document)")
    if not text.strip():
        raise ValueError("the chunk text is empty")
    for name, value in (("start", start), ("end", end)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"offset {name} must be a whole number >= 0, got {value!r}")
    if start is not None and end is None:
        end = start + len(text)
    return PipelineChunk(index, text, page, start, end, str(cid) if cid is not None else "", line)


def _page(value: Any, *, one_based: bool) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int):
        return None  # a roman page label or the like names no page we can use
    page = value if one_based else value + 1
    return page if page >= 1 else None


# ---------------------------------------------------------------------------------------
# Placing


@dataclass(frozen=True)
class _Skeleton:
    text: str
    pos: list[int]  # skeleton index -> normalized index
    norm: Normalized


def _skeleton(document: "Document") -> _Skeleton:
    norm = normalize(document.text, PLACEMENT_RULES)
    chars, pos = [], []
    for i, ch in enumerate(norm.text):
        if not ch.isspace():
            chars.append(ch)
            pos.append(i)
    return _Skeleton("".join(chars), pos, norm)


def _squeeze(text: str) -> str:
    return "".join(normalize_text(text, PLACEMENT_RULES).split())


def place_chunks(
    chunks: Sequence[PipelineChunk],
    document: "Document",
    *,
    errors: Sequence[PlacementError] = (),
    min_run: int = MIN_RUN,
) -> PlacedChunks:
    """Place ``chunks`` on ``document`` (see the module docstring); ``errors`` are the
    reader's per-chunk errors, kept for those chunks."""
    text = document.text
    page_starts = list(document.page_starts)
    failed = {e.index: e for e in errors}
    skel: _Skeleton | None = None
    skel_page_starts: list[int] = []
    out: list[Chunk] = []
    errs: list[PlacementError] = []
    exact = 0
    prev_start = 0  # skeleton position the next chunk is searched from
    prev_end_raw = 0
    for i, c in enumerate(chunks):
        if c.index != i:
            raise ChunkError(f"chunk {c.index} is at position {i}; chunks must be numbered 0, 1, ... in order")
        if i in failed:
            errs.append(failed[i])
            out.append(Chunk(i, prev_end_raw, prev_end_raw))
            continue
        span = _exact_span(c, text, page_starts, prev_end_raw if out else 0)
        if span is not None:
            exact += 1
            out.append(Chunk(i, *span))
            prev_end_raw = span[1]
            if skel is not None:
                prev_start = _skel_at(skel, span[0])
            continue
        if skel is None:
            skel = _skeleton(document)
            skel_page_starts = [_skel_at(skel, s) for s in page_starts]
            if out:
                prev_start = _skel_at(skel, out[-1].start)
        placed = _align(c, skel, skel_page_starts, prev_start, min_run)
        if isinstance(placed, str):
            errs.append(PlacementError(i, placed, c.line))
            out.append(Chunk(i, prev_end_raw, prev_end_raw))
            continue
        a, b = placed
        starts, ends = skel.norm.offsets
        start, end = starts[skel.pos[a]], ends[skel.pos[b - 1]]
        out.append(Chunk(i, start, end))
        prev_start, prev_end_raw = a, end
    return PlacedChunks(tuple(out), tuple(errs), tuple(c.id for c in chunks), exact)


def load_pipeline_chunks(path: str | os.PathLike, document: "Document", *, min_run: int = MIN_RUN) -> PlacedChunks:
    """:func:`read_pipeline_chunks` then :func:`place_chunks`; per-chunk errors name the file."""
    chunks, errors = read_pipeline_chunks(path)
    placed = place_chunks(chunks, document, errors=errors, min_run=min_run)
    named = tuple(PlacementError(e.index, f"{path}: {e.message}" if not e.line else e.message, e.line) for e in placed.errors)
    return PlacedChunks(placed.chunks, named, placed.ids, placed.exact)


def _exact_span(c: PipelineChunk, text: str, page_starts: Sequence[int], after: int) -> tuple[int, int] | None:
    """The chunk's span when its offsets read its exact text (whole text, or its page's),
    or, without offsets, its first verbatim occurrence in the text near ``after``."""
    if c.start is None:
        # overlapping chunks start before the previous one ends: look back by its length
        found = text.find(c.text, max(0, after - len(c.text)))
        return (found, found + len(c.text)) if found >= 0 else None
    end = c.end if c.end is not None else c.start + len(c.text)
    if text[c.start : end] == c.text:
        return c.start, end
    if c.page is not None and 1 <= c.page <= len(page_starts):
        base = page_starts[c.page - 1]
        if text[base + c.start : base + end] == c.text:
            return base + c.start, base + end
    return None


def _skel_at(skel: _Skeleton, raw_offset: int) -> int:
    """The first skeleton position at or after raw ``raw_offset``."""
    starts = skel.norm.offsets[0]
    lo, hi = 0, len(skel.pos)
    while lo < hi:
        mid = (lo + hi) // 2
        if starts[skel.pos[mid]] < raw_offset:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _align(c: PipelineChunk, skel: _Skeleton, page_starts: list[int], prev_start: int, min_run: int) -> tuple[int, int] | str:
    """Skeleton ``[start, end)`` of the chunk, or why it has none."""
    s = _squeeze(c.text)
    doc = skel.text
    if not s:
        return "the chunk has no text once normalized"
    run = min(min_run, len(s))
    step = max(1, run // 2)
    # where to look, nearest first: the page the chunk names, after the previous chunk,
    # the pages around the named one (a page the two extractions split differently),
    # then anywhere (a chunk out of order)
    regions: list[tuple[int, int]] = []
    n_pages = len(page_starts)

    def page_range(first: int, last: int) -> tuple[int, int]:
        first, last = max(first, 1), min(last, n_pages)
        return page_starts[first - 1], page_starts[last] if last < n_pages else len(doc)

    if c.page is not None and 1 <= c.page <= n_pages:
        regions.append(page_range(c.page, c.page))
    regions.append((prev_start, len(doc)))
    if c.page is not None and 1 <= c.page <= n_pages:
        regions.append(page_range(c.page - 1, c.page + 1))
    regions.append((0, len(doc)))
    head = None
    offsets = list(range(0, max(len(s) - run, 0) + 1, step))
    for lo, hi in regions:
        for off in offsets:
            found = doc.find(s[off : off + run], lo, hi)
            if found >= 0:
                head = found
                # the chunk's text before the run, as far as it still reads the same
                while off > 0 and head > 0 and s[off - 1] == doc[head - 1]:
                    off, head = off - 1, head - 1
                break
        if head is not None:
            break
    if head is None:
        return (
            f"none of its text occurs in the document, even normalized ({run}-character runs of "
            f"{_preview(c.text)} were searched): it was cut from other text or another paper"
        )
    # the end: the last run of the chunk found after its start, at its first occurrence
    # there (a later repeat of the same words would stretch the chunk over unseen text)
    limit = min(len(doc), head + 2 * len(s) + 4 * run)
    for off in range(len(s), run - 1, -step):
        found = doc.find(s[off - run : off], head, limit)
        if found >= 0:
            end = found + run
            while off < len(s) and end < len(doc) and s[off] == doc[end]:
                off, end = off + 1, end + 1
            return head, end
    return head, head + run  # pragma: no cover - the head run itself is always found again


def _preview(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[:limit] + "…")

