"""Documents: the extracted text that every offset refers to, plus its geometry.

This is the only module that imports pymupdf. A :class:`Document` holds

* ``text``: the whole-document text, the pages' texts joined by a form feed;
* ``pages``: where each page starts and ends in ``text``;
* ``lines``: every text line with its bounding box, font size and writing direction;
* the bounding box of every character, so a match can be highlighted;
* the file's ``sha256`` and the extractor settings (pymupdf version and flags), which
  are part of what a verdict is checked against later;
* ``hidden``: the spans of text a reader cannot see (invisible render mode, white on a
  blank background, under 1 pt), which never verify a quote;
* ``markers``: the spans of raised, smaller footnote and citation markers glued to a
  word (``models\u00b3``), told apart from exponents by font size, baseline and context;
* ``glyphs``: characters whose drawn glyph contradicts their Unicode mapping: a letter
  or digit from a one-glyph ("pi") font that is drawn as a horizontal bar is a dash
  (``80e120`` as printed ``80\u2013120``), decided from the rendered ink of the glyph;
* ``word_gaps``: where the page sets two words apart but the text has no space between
  them (``demonstratedtoimprove``): tightly justified lines whose word gaps are narrower
  than what pymupdf takes for a space, found from the glyphs' positions.

PDFs are untrusted input. By default extraction runs in forked worker processes (two
on a multi-core machine, each taking the next free page whenever it is through with one) under
:class:`Limits` (time, memory, pages, file size); a worker that exceeds one is killed and
:class:`~quotelocate.errors.ExtractionLimitError` names the file and the limit.

PDF text is built from pymupdf's ``dict`` output with the flags in
:data:`EXTRACT_FLAGS`; it is identical to ``page.get_text("text", flags=EXTRACT_FLAGS)``
(a test checks this), so offsets agree with what pipelines usually extract.
"""

from __future__ import annotations

import atexit
import bisect
import gc
import hashlib
import json
import itertools
import math
import os
import re
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import unicodedata
from array import array
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

import pymupdf

if TYPE_CHECKING:  # pragma: no cover
    from .extraction_cache import ExtractionCache

from .collector import collector_paused
from .errors import (
    DocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    ExtractionLimitError,
    QuotelocateError,
)
from .limits import DEFAULT_LIMITS, Limits

PAGE_SEPARATOR = "\f"
"""Joins page texts in :attr:`Document.text`; whitespace to every rule that folds it."""

EXTRACT_FLAGS = pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
"""pymupdf text flags in use: keep ligature glyphs and whitespace as they are (the
normalizer decides what to fold) and clip to the media box. A glyph without a Unicode
mapping comes out as U+FFFD, never as its raw character code (``TEXT_CID_FOR_UNKNOWN_UNICODE``
is off: with it, the summation sign of 1706.03762 reads "P"), so a page of unmapped
glyphs is found unverifiable. Recorded in :attr:`Document.extractor`."""

NO_TEXT_FRACTION = 0.5  # share of U+FFFD at which a page counts as having no usable text
GLYPH_GEOMETRY = {"skip_quad_corrections": True, "small_glyph_heights": False}
"""pymupdf's process-wide switches for glyph boxes, pinned while this module extracts:
every glyph box spans an ascender of 0.8 and a descender of 0.2 of the font size,
whatever metrics the embedded font declares, and is not shrunk to the font size. These
are the values every dataset, label and test here was made under. pymupdf leaves the
switches to whoever set them last: importing pymupdf4llm (installed with pymupdf's
layout model) sets the first for the whole process, so without the pin line boxes, and
the reading order drawn from them, would depend on what else is installed or imported.
Recorded in :attr:`Document.extractor`."""


@contextmanager
def _glyph_geometry():
    """:data:`GLYPH_GEOMETRY` for the block, the caller's switches back afterwards."""
    tools = pymupdf.TOOLS
    before = (tools.unset_quad_corrections(), tools.set_small_glyph_heights())
    tools.unset_quad_corrections(GLYPH_GEOMETRY["skip_quad_corrections"])
    tools.set_small_glyph_heights(GLYPH_GEOMETRY["small_glyph_heights"])
    try:
        yield
    finally:
        tools.unset_quad_corrections(before[0])
        tools.set_small_glyph_heights(before[1])


MIN_VISIBLE_SIZE = 1.0  # text smaller than this (in points) counts as invisible
_WHITE = 0xF0  # a colour whose red, green and blue are all at least this is "white"




@dataclass(frozen=True)
class Page:
    """One page: 1-based ``number``, its ``[start, end)`` in the document text, size."""

    number: int
    start: int
    end: int
    width: float = 0.0
    height: float = 0.0
    rotation: int = 0
    verifiable: bool = True


@dataclass(frozen=True, slots=True)
class _LineFields:
    """The fields of a :class:`Line`, each in a slot."""

    page: int
    start: int
    end: int
    bbox: tuple[float, float, float, float]
    size: float
    font: str
    direction: tuple[float, float]
    block: int
    spans: tuple[tuple[int, float, float], ...] = field(default_factory=tuple)
    """Where each font span of the line starts: ``(offset in the text, font size,
    baseline y)``; a span runs to the next one or to the line's end. A raised, smaller
    span is a superscript (a footnote marker, an exponent). Few lines are ever asked
    for their spans, so an extracted line makes them on first access from its page's
    numbers (:func:`_assemble`)."""


class Line(_LineFields):
    """One extracted text line: ``[start, end)`` in the text (without its newline).

    Slotted: a paper has thousands of lines and the reading order reads their fields
    many times over; a slot takes a third of the memory of an attribute dictionary and
    is read about three times as fast. An extracted line keeps, in one more slot that
    is not a field (``dataclasses.asdict`` and ``fields`` see the fields alone), what
    its spans are made from: the page's span numbers, the line's first span, how many,
    and the line's start."""

    __slots__ = ("_span_source",)

    def __getattr__(self, name: str):
        # only called for an attribute that is not set: the spans of an extracted line
        # (its ``spans`` slot left empty), made on first access
        source = getattr(self, "_span_source", None) if name == "spans" else None
        if source is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        numbers, first, count, start = source
        at = SPAN_FIELDS * first
        spans = tuple(zip(
            [start + int(v) for v in numbers[at : at + SPAN_FIELDS * count : SPAN_FIELDS]],
            numbers[at + 1 : at + SPAN_FIELDS * count : SPAN_FIELDS],
            numbers[at + 2 : at + SPAN_FIELDS * count : SPAN_FIELDS],
        ))
        _SET_SPANS(self, spans)
        return spans


_SET_SPANS = Line.spans.__set__
_LINE_SETTERS = tuple(getattr(Line, name).__set__ for name in (
    "page", "start", "end", "bbox", "size", "font", "direction", "block", "_span_source"))
"""Each slot's own setter: what a frozen ``Line(...)`` sets through ``object.__setattr__``,
called directly (an extracted line is made without ``__init__``, its spans left to
make on first access)."""


def turned_line(line: Line, bbox: tuple[float, float, float, float], direction: tuple[float, float]) -> Line:
    """``line`` with another box and direction (a page turned to read left to right),
    its spans as they are: made already, or still to make from the same numbers."""
    turned = object.__new__(Line)
    values = (line.page, line.start, line.end, bbox, line.size, line.font, direction, line.block,
              getattr(line, "_span_source", None))
    for set_slot, value in zip(_LINE_SETTERS, values):
        set_slot(turned, value)
    try:
        _SET_SPANS(turned, object.__getattribute__(line, "spans"))
    except AttributeError:  # not made yet: the turned line makes them when asked
        pass
    return turned


@dataclass(frozen=True)
class Box:
    """A highlight rectangle on a 1-based page, in PDF points (top-left origin).

    Coordinates are those of pymupdf's ``get_text`` and ``search_for``: the unrotated
    page. On a page with ``/Rotate``, ``pymupdf.Rect(...) * page.rotation_matrix``
    gives the rectangle on the page as rendered.
    """

    page: int
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True, eq=False)
class Document:
    """Extracted text of one paper with page offsets, line geometry and char boxes.

    Build one with :meth:`Document.open`, :meth:`Document.from_pdf_bytes` or
    :meth:`Document.from_text`.

    >>> doc = Document.from_text("Hello world.\\nSecond line.", name="note.txt")
    >>> doc.page_at(14), doc.pages[0].end
    (1, 25)
    """

    name: str
    kind: str
    sha256: str
    text: str
    pages: tuple[Page, ...]
    lines: tuple[Line, ...] = ()
    extractor: dict = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    hidden: tuple[tuple[int, int], ...] = ()
    markers: tuple[tuple[int, int], ...] = ()
    glyphs: tuple[tuple[int, str], ...] = ()
    """``(offset, character)``: the character a mis-mapped glyph at ``offset`` really
    draws (see :func:`drawn_dash`); the text keeps what the PDF maps it to."""
    word_gaps: tuple[int, ...] = ()
    """Offsets in ``text`` of characters the page sets a word gap before, with no space
    in the text between them and the character before (see :func:`word_gaps`); the
    text keeps what pymupdf extracts."""
    word_gap_markers: tuple[tuple[int, int], ...] = ()
    """The ``markers`` as read with the word gaps for spaces, when that reads them
    otherwise (``RCT28providedonly``: the ``28`` glued to a word that a gap follows is a
    marker); empty when they are ``markers``. The ``word_gaps`` rule reads these."""
    _pdf: bytes | None = field(default=None, repr=False)
    _password: str | None = field(default=None, repr=False)  # to reopen an encrypted PDF for boxes

    # -- construction -------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | os.PathLike,
        *,
        password: str | None = None,
        allow_textless_pages: bool = False,
        max_pages: int | None = None,
        limits: Limits = DEFAULT_LIMITS,
        isolate: bool = True,
        cache: "ExtractionCache | None" = None,
    ) -> "Document":
        """Load a PDF, Markdown (``.md``) or plain-text file.

        PDF is recognised by its ``%PDF-`` header, whatever the file is called, and is
        extracted under ``limits`` in a worker process (``isolate=False``: in this
        process, without the time and memory limits). ``max_pages`` overrides
        ``limits.max_pages``. ``cache``: an
        :class:`~quotelocate.extraction_cache.ExtractionCache` that keeps the extracted
        pages (and later the layout reading order) of an unencrypted PDF by its sha256.
        Raises :class:`DocumentError` (or a subclass) naming the file on any problem.
        """
        if max_pages is not None:
            limits = replace(limits, max_pages=max_pages)
        p = Path(path)
        if not p.exists():
            raise DocumentError(f"{p}: no such file")
        if p.is_dir():
            raise DocumentError(f"{p}: is a directory, not a document")
        size = p.stat().st_size
        if size == 0:
            raise DocumentError(f"{p}: file is empty (0 bytes)")
        if size > limits.max_file_bytes:
            raise ExtractionLimitError(f"{p}: {size} bytes exceeds the file size limit of {limits.max_file_bytes}")
        data = p.read_bytes()
        if _looks_like_pdf(data):
            return cls.from_pdf_bytes(
                data,
                name=str(p),
                password=password,
                allow_textless_pages=allow_textless_pages,
                limits=limits,
                isolate=isolate,
                cache=cache,
            )
        if p.suffix.lower() == ".pdf":
            raise DocumentError(f"{p}: not a PDF (no %PDF- header; starts with {data[:8]!r})")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise DocumentError(
                f"{p}: line {line}: not valid UTF-8 at byte {exc.start} and not a PDF"
            ) from None
        kind = "markdown" if p.suffix.lower() in {".md", ".markdown"} else "text"
        return cls.from_text(text, name=str(p), kind=kind, sha256=hashlib.sha256(data).hexdigest())

    @classmethod
    def from_text(
        cls, text: str, *, name: str = "<text>", kind: str = "text", sha256: str | None = None
    ) -> "Document":
        """A one-page document from a string; form feeds split it into pages."""
        if not text.strip():
            raise EmptyDocumentError(f"{name}: document has no text")
        digest = sha256 or hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        pages = []
        start = 0
        for number, chunk in enumerate(text.split(PAGE_SEPARATOR), start=1):
            pages.append(Page(number=number, start=start, end=start + len(chunk)))
            start += len(chunk) + len(PAGE_SEPARATOR)
        return cls(
            name=name,
            kind=kind,
            sha256=digest,
            text=text,
            pages=tuple(pages),
            extractor={"name": "text", "version": "1", "flags": 0, "page_separator": PAGE_SEPARATOR},
        )

    @classmethod
    def from_pdf_bytes(
        cls,
        data: bytes,
        *,
        name: str = "<pdf>",
        password: str | None = None,
        allow_textless_pages: bool = False,
        max_pages: int | None = None,
        limits: Limits = DEFAULT_LIMITS,
        isolate: bool = True,
        cache: "ExtractionCache | None" = None,
    ) -> "Document":
        """Extract a PDF given as bytes (see :meth:`open`)."""
        if max_pages is not None:
            limits = replace(limits, max_pages=max_pages)
        if not _looks_like_pdf(data):
            raise DocumentError(f"{name}: not a PDF (no %PDF- header)")
        if len(data) > limits.max_file_bytes:
            raise ExtractionLimitError(f"{name}: {len(data)} bytes exceeds the file size limit of {limits.max_file_bytes}")
        key = pages_cache_key(data) if cache is not None and password is None else None
        if key is not None:
            hit = cache.get(key)
            if isinstance(hit, dict) and isinstance(hit.get("pages"), list) and len(hit["pages"]) <= limits.max_pages:
                warnings = [str(w).replace(_NAME_MARK, name) for w in hit.get("warnings") or []]
                try:
                    doc = _assemble(name, data, hit["pages"], warnings, allow_textless_pages, password)
                except (TypeError, ValueError, KeyError, IndexError, AttributeError):
                    cache.dropped += 1  # intact JSON that is not a page list: extract again
                else:
                    object.__setattr__(doc, "_extraction_cache", cache)
                    return doc
        if not isolate or not hasattr(os, "fork"):
            with collector_paused():  # many objects, no cycles
                records, warnings = _extract_here(data, name, password, limits, isolated=False)
                if isolate:  # Windows: no fork, so no killable child; say so
                    warnings.append(f"{name}: extracted in-process (no os.fork here): the time and memory limits were not enforced")
                doc = _assemble(name, data, records, warnings, allow_textless_pages, password)
        else:
            request = {
                "name": name,
                "password": password,
                "allow_textless_pages": allow_textless_pages,
                "limits": [limits.seconds, limits.memory_mb, limits.max_pages, limits.max_file_bytes],
            }
            digest: list[str] = []

            def early(blob: bytes) -> tuple[list[list], list[str]] | None:
                # a worker is through while another is still at work: a core is free
                if not digest:
                    digest.append(hashlib.sha256(data).hexdigest())
                return _decode_early(blob)

            reply = _POOL.run(request, data, name, limits, early)
            with collector_paused():  # many objects, no cycles
                records, warnings = _decode_replies(reply["replies"], name, reply.get("early", ()))
                try:
                    doc = _assemble(name, data, records, warnings, allow_textless_pages, password,
                                    digest[0] if digest else None)
                except (TypeError, ValueError, KeyError, IndexError, AttributeError):
                    raise DocumentError(f"{name}: the extraction worker sent a malformed reply") from None
        if key is not None:
            pages = [[list(v) if isinstance(v, array) else v for v in record] for record in records]
            cache.put(key, {"pages": pages, "warnings": [w.replace(name, _NAME_MARK) for w in warnings]})
            object.__setattr__(doc, "_extraction_cache", cache)
        return doc

    # -- queries --------------------------------------------------------------------
    @property
    def text_sha256(self) -> str:
        """sha256 of :attr:`text` (UTF-8)."""
        return hashlib.sha256(self.text.encode("utf-8", "surrogatepass")).hexdigest()

    @property
    def text_fingerprint(self) -> dict:
        """What a quote set pins besides the file hash: extractor, its version, text hash."""
        return {
            "extractor": self.extractor.get("name"),
            "extractor_version": self.extractor.get("version"),
            "flags": self.extractor.get("flags"),
            "sha256": self.text_sha256,
        }

    @property
    def page_starts(self) -> tuple[int, ...]:
        return tuple(p.start for p in self.pages)

    def page_at(self, offset: int) -> int:
        """1-based page number holding text offset ``offset``."""
        i = bisect.bisect_right(self._starts, offset) - 1
        return self.pages[max(i, 0)].number

    def pages_for(self, start: int, end: int) -> tuple[int, ...]:
        """Page numbers touched by ``[start, end)``."""
        starts = self._starts
        i = max(bisect.bisect_right(starts, start) - 1, 0)
        page = self.pages[i]
        if end <= page.end + 1:
            return (page.number,)
        j = bisect.bisect_right(starts, max(start, end - 1), i) - 1
        return tuple(range(page.number, self.pages[max(j, 0)].number + 1))

    def unverifiable_pages(self) -> tuple[int, ...]:
        return tuple(p.number for p in self.pages if not p.verifiable)

    def boxes(self, spans: Iterable[tuple[int, int]]) -> tuple[Box, ...]:
        """Highlight rectangles for text spans, one per line fragment, in text order.

        A whole line uses its line box; a partial line unites its characters' boxes.
        """
        if self._pdf is None:
            return ()
        out: list[Box] = []
        lines = self.lines
        line_starts = self._line_starts
        for start, end in spans:
            i = max(bisect.bisect_right(line_starts, start) - 1, 0)
            while i < len(lines) and lines[i].start < end:
                line = lines[i]
                i += 1
                s, e = max(start, line.start), min(end, line.end)
                if s >= e:
                    continue
                if s == line.start and e == line.end:
                    out.append(Box(line.page, *line.bbox))
                    continue
                seg = self._char_boxes(line.page)[4 * s : 4 * e]
                out.append(Box(line.page, min(seg[0::4]), min(seg[1::4]), max(seg[2::4]), max(seg[3::4])))
        return tuple(out)

    def char_box(self, offset: int) -> tuple[float, float, float, float] | None:
        """The box of one character, or None for separators and text-only documents."""
        if self._pdf is None or not 0 <= offset < len(self.text):
            return None
        b = self._char_boxes(self.page_at(offset))
        if math.isnan(b[4 * offset]):
            return None
        return tuple(b[4 * offset : 4 * offset + 4])  # type: ignore[return-value]

    def _char_boxes(self, page: int) -> array:
        """Character boxes (4 floats per text offset), filled page by page on first use
        from pymupdf's ``rawdict`` (opening the document stays as cheap as plain text)."""
        cache = self.__dict__.get("_box_cache")
        if cache is None:
            nan = float("nan")
            cache = (array("f", [nan]) * (4 * len(self.text)), set[int]())
            object.__setattr__(self, "_box_cache", cache)
        boxes, filled = cache
        if page not in filled:
            _fill_page_boxes(self, page, boxes)
            filled.add(page)
        return boxes

    @property
    def _starts(self) -> list[int]:
        cached = self.__dict__.get("_starts_cache")
        if cached is None:
            cached = [p.start for p in self.pages]
            object.__setattr__(self, "_starts_cache", cached)
        return cached

    @property
    def _line_starts(self) -> list[int]:
        cached = self.__dict__.get("_line_starts_cache")
        if cached is None:
            cached = [ln.start for ln in self.lines]
            object.__setattr__(self, "_line_starts_cache", cached)
        return cached


def _looks_like_pdf(data: bytes) -> bool:
    return b"%PDF-" in data[:1024]


def _short(exc: BaseException) -> str:
    msg = str(exc).strip().splitlines()
    return msg[0] if msg else type(exc).__name__


_NO_MEMORY = re.compile(r"\b(?:m|re|c)alloc\b.*\bfailed|out of memory", re.IGNORECASE)


def _open_checked(data: bytes, name: str, password: str | None, limits: Limits):
    """The PDF opened, authenticated and checked (pages, limits); with its warnings."""
    warnings: list[str] = []
    try:
        pdf = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # pymupdf raises several unrelated types here
        raise DocumentError(f"{name}: cannot be opened as a PDF ({_short(exc)})") from None
    try:
        if not pdf.is_pdf:
            raise DocumentError(f"{name}: not a PDF (pymupdf reads it as {pdf.metadata.get('format')!r})")
        if pdf.needs_pass:
            if password is None:
                raise EncryptedDocumentError(f"{name}: PDF is encrypted; a password is needed")
            if not pdf.authenticate(password):
                raise EncryptedDocumentError(f"{name}: the password given for this PDF is wrong")
        if getattr(pdf, "is_repaired", False):
            warnings.append(f"{name}: PDF was damaged and has been repaired by pymupdf")
        try:
            count = pdf.page_count
        except Exception as exc:  # a page tree mupdf refuses
            raise DocumentError(f"{name}: cannot count the pages ({_short(exc)})") from None
        if count == 0:
            raise EmptyDocumentError(f"{name}: PDF has no pages")
        if count > limits.max_pages:
            raise ExtractionLimitError(f"{name}: {count} pages exceeds the page limit of {limits.max_pages}")
    except BaseException:
        pdf.close()
        raise
    return pdf, warnings


def _extract_here(data: bytes, name: str, password: str | None, limits: Limits, *, isolated: bool) -> tuple[list, list[str]]:
    """Open, authenticate, check and extract a PDF in this process: (page records, warnings)."""
    pdf, warnings = _open_checked(data, name, password, limits)
    with pdf:
        memory = f"the memory limit of {limits.memory_mb} MB" if isolated else "the memory available"
        records = _extract_pages(pdf, name, range(pdf.page_count), memory)
    return records, list(warnings)


_WHITE_BITS = _WHITE * 0x010101
"""Red, green and blue each at least :data:`_WHITE` (0xF0: its top four bits set) is
the colour having all of these bits; one mask test per span instead of three shifts."""


def _display_list(page, rendered: dict | None):
    """The page's display list, made once per page and kept in ``rendered`` (which then
    records that a check used it)."""
    if rendered is None:
        return page.get_displaylist()
    rendered["used"] = True
    display = rendered.get("list")
    if display is None:
        display = rendered["list"] = page.get_displaylist()
    return display


def _blank_under(page, bbox, rendered: dict | None = None) -> bool:
    """Does the page render as (near) white inside ``bbox``? Used for white text.
    ``rendered`` keeps the page's display list between calls for the same page (what
    ``page.get_pixmap`` would build again for every span: the costly part)."""
    rect = pymupdf.Rect(bbox) & page.rect
    if rect.is_empty:
        return True
    display = _display_list(page, rendered)
    # what page.get_pixmap(clip=rect, alpha=False, colorspace=csGRAY) renders
    pix = display.get_pixmap(matrix=pymupdf.Identity, colorspace=pymupdf.csGRAY, alpha=False, clip=rect)
    return min(pix.samples, default=255) >= _WHITE


LINE_FIELDS = 12
"""Numbers per line in a page record: start, end, x0, y0, x1, y1, size, font (index
into the page's font names), direction x, direction y, block, span count."""
SPAN_FIELDS = 3
"""Numbers per span in a page record: offset in the line, font size, baseline y."""


class _Lazy:
    """``in`` on a set that is built on first use (a page's footnote labels, needed
    only when a raised marker follows a one-letter word)."""

    __slots__ = ("_build", "_value")

    def __init__(self, build) -> None:
        self._build, self._value = build, None

    def __contains__(self, item) -> bool:
        if self._value is None:
            self._value = self._build()
        return item in self._value


def _page_failure(name: str, number: int, exc: Exception, memory: str) -> QuotelocateError:
    """The error for a pymupdf failure on a page: a limit when mupdf ran out of memory."""
    if isinstance(exc, MemoryError) or _NO_MEMORY.search(str(exc)):
        return ExtractionLimitError(f"{name}: page {number}: text extraction exceeded {memory}")
    return DocumentError(f"{name}: page {number}: text extraction failed ({_short(exc)})")


def _page_dict(page, rendered: dict | None = None) -> dict:
    """``page.get_text("dict")`` with :data:`EXTRACT_FLAGS`. With ``rendered`` (and an
    unrotated page) the page is run once into a display list, kept in ``rendered`` for
    the white-text and glyph checks, and the text comes from that list: the same dict
    (a test checks it), without running the page a second time for a check. A rotated
    page's text from a display list is not in unrotated coordinates, so it is always
    extracted from the page."""
    if rendered is None or page.rotation:
        return page.get_text("dict", flags=EXTRACT_FLAGS)
    return page.get_text("dict", flags=EXTRACT_FLAGS, textpage=_list_textpage(page, rendered))


def _list_textpage(page, rendered: dict) -> "pymupdf.TextPage":
    """The text page of ``page`` (unrotated) made from its display list, which is made
    first when ``rendered`` holds none yet."""
    display = rendered.get("list")
    if display is None:
        display = rendered["list"] = page.get_displaylist()
    textpage = display.get_textpage(flags=EXTRACT_FLAGS)
    if not isinstance(textpage, pymupdf.TextPage):
        textpage = pymupdf.TextPage(textpage)
    textpage.parent = page
    return textpage


def _gap_textpage(page, rendered: dict):
    """The page's text page again, for the glyph positions :func:`word_gaps` reads: from
    its display list when the page has one (no second run of the page), else from the
    page. The dict's own text page is not kept for it: held while the page's spans are
    read, it made every page slower, for the few pages that need it."""
    if rendered.get("list") is not None and not page.rotation:
        return _list_textpage(page, rendered)
    return page.get_textpage(flags=EXTRACT_FLAGS)


def _extract_pages(pdf, name: str, indices: Iterable[int], memory: str = "the memory available",
                   spent: list | None = None) -> list[list]:
    """:func:`_page_records` under :data:`GLYPH_GEOMETRY`."""
    with _glyph_geometry():
        return _page_records(pdf, name, indices, memory, spent)


SPENT_PAGES = 32
"""How many pages' pymupdf objects (the page, its text dict, its display list) an
extraction worker keeps once it is through with them, to free them after its reply is
out (:func:`_release`) rather than as the next page starts: freeing a page's dict of
spans is nearly a tenth of the extraction on a paper set a span per word, and after the reply
the worker has nothing else to do. A longer file frees its earlier pages as it goes,
so a worker holds at most this many pages' objects at once."""


def _release(spent: list) -> None:
    """Free what an extraction worker kept past its use (:data:`SPENT_PAGES`): the pages'
    objects first, then close the documents they belong to."""
    documents = [item for item in spent if isinstance(item, pymupdf.Document)]
    spent.clear()
    for document in documents:
        document.close()


def _page_records(pdf, name: str, indices: Iterable[int], memory: str, spent: list | None = None) -> list[list]:
    """One record per page (0-based ``indices``), JSON-ready, offsets relative to the
    page: ``[number, text, width, height, rotation, lines, fonts, spans, hidden,
    markers, glyphs, gaps, gap_markers]`` where ``lines`` holds :data:`LINE_FIELDS` numbers
    per line (its font an index into ``fonts``), ``spans`` :data:`SPAN_FIELDS` numbers per
    span, the spans of each line in turn; hidden and markers are ``[[start, end]]``,
    glyphs ``[[offset, character]]``, gaps the offsets :func:`word_gaps` finds, and
    gap_markers the markers read with the word gaps for spaces (``RCT28providedonly``:
    ``28`` is a marker then, not without them), or None when they are the markers. A
    page's text is its lines, each followed by a newline.
    Flat lists of numbers rather than one list per line: they travel from the
    extraction worker as packed doubles (:func:`_encode_reply`). ``spent``: where an
    extraction worker keeps each page's pymupdf objects to free them later
    (:data:`SPENT_PAGES`)."""
    records = []
    one_glyph: dict[int, str | None] = {}  # font xref -> its name when it encodes one character code
    drawn: dict[tuple[str, str], str | None] = {}  # (font, character) -> what its glyph draws
    white = _WHITE_BITS
    # the first page's text comes from its display list: with nothing to go on, running
    # the page once into a list costs a little more than extracting its text directly
    # (under a millisecond a page here), while a check that then needs the list runs
    # the whole page a second time (13 ms on a figure page)
    rendered: dict = {"used": True}
    for index in indices:
        number = index + 1
        # a page that needed its display list (white text, a glyph drawn on the page)
        # suggests the next one will too: then its text comes from that list
        with_list = rendered.get("used", False)
        rendered = {}  # the page's display list, once a white span or a glyph needs it
        try:
            page = pdf[index]
            raw = _page_dict(page, rendered if with_list else None)
            cropbox_height = float(page.cropbox.height)  # the unrotated page, as the text
            rect = page.rect
        except Exception as exc:  # mupdf errors surface as RuntimeError/ValueError/MemoryError/...
            raise _page_failure(name, number, exc, memory) from None
        if spent is not None:
            spent.append((page, raw, rendered))
            if len(spent) > SPENT_PAGES:
                del spent[0]
        labels = _Lazy(lambda raw=raw, h=cropbox_height: footnote_labels(raw, h))
        pi_fonts: dict[str, int] | None = None  # the page's one-glyph fonts, once a one-character span asks
        parts: list[str] = []
        lines: list = []
        spans_out: list = []
        fonts: dict[str, int] = {}
        hidden: list[list[int]] = []
        markers: list[list[int]] = []
        glyphs: list[list] = []
        offset = 0
        block_no = 0
        smaller: list[tuple[int, Sequence[dict], str]] = []  # lines with a smaller span, for the gaps' markers
        loose: dict[tuple[int, int], tuple[int, str]] = {}  # lines that may have lost their word spaces
        for block in raw["blocks"]:
            if block.get("type") != 0:
                continue
            for line_no, line in enumerate(block["lines"]):
                spans = line["spans"]
                at = offset
                sizes: list[float] = []
                texts: list[str] = []
                count = 0
                line_glyphs: dict[int, str] | None = None
                for span in spans:
                    text = span["text"]
                    size = float(span["size"])
                    sizes.append(size)
                    texts.append(text)
                    n = len(text)
                    if not n:
                        continue
                    spans_out += (at - offset, size, float(span["origin"][1]))
                    count += 1
                    if n == 1 and text.isalnum():  # a vulgar fraction is numeric
                        if pi_fonts is None:
                            try:
                                pi_fonts = _one_glyph_fonts(pdf, page, one_glyph)
                            except Exception as exc:
                                raise _page_failure(name, number, exc, memory) from None
                        font = span["font"]
                        # a letter of a one-glyph font, or a vulgar fraction set alone
                        # ("Q\u00bc23.8", where the page prints "Q=23.8"): what the glyph
                        # draws is measured
                        if font in pi_fonts or (text > "\x7f" and _symbol_sign(text)):
                            key = (font, text)
                            if key not in drawn:
                                buffer = _font_buffer(pdf, pi_fonts[font]) if font in pi_fonts else b""
                                drawn[key] = drawn_dash(page, span, buffer, rendered)
                            if drawn[key]:
                                glyphs.append([at, drawn[key]])
                                if line_glyphs is None:
                                    line_glyphs = {}
                                line_glyphs[at - offset] = drawn[key]
                    if (
                        span.get("alpha", 255) == 0
                        or size < MIN_VISIBLE_SIZE
                        or (int(span["color"]) & white == white and _blank_under(page, span["bbox"], rendered))
                    ):
                        if hidden and hidden[-1][1] >= at - 1:
                            hidden[-1][1] = at + n
                        else:
                            hidden.append([at, at + n])
                    at += n
                line_text = "".join(texts)
                biggest = max(sizes, default=0.0)
                if len(spans) > 1 and min(sizes) <= MARKER_SIZE_RATIO * biggest:  # else no span is set smaller
                    if line_glyphs:
                        drawn_line = _as_drawn(spans, line_glyphs)
                        shown = "".join(span.get("text", "") for span in drawn_line)
                    else:  # read as mapped: the spans and the line's text as they are
                        drawn_line, shown = spans, line_text
                    markers.extend([offset + a, offset + b] for a, b in raised_markers(drawn_line, shown, labels))
                    smaller.append((offset, drawn_line, shown))
                parts.append(line_text)
                parts.append("\n")
                font = spans[0]["font"] if spans else ""
                font_index = fonts.get(font)
                if font_index is None:
                    font_index = fonts[font] = len(fonts)
                x0, y0, x1, y1 = line["bbox"]
                dx, dy = line["dir"]
                end = offset + len(line_text)
                # few spaces (one C count), then a long run of letters: rare
                if line_text.count(" ") * _SPACED_CHARS < end - offset and dx == 1.0 and dy == 0.0 and (
                        _LONG_RUN.search(line_text)):
                    loose[(block.get("number", -1), line_no)] = (offset, line_text)
                # "+ 0.0" makes a negative zero zero: pymupdf gives -0.0 or 0.0 for the same
                # line as its text comes from the page or from a display list, and which one
                # a page takes depends on the page the worker took before it
                lines += (offset, end, float(x0) + 0.0, float(y0) + 0.0, float(x1) + 0.0, float(y1) + 0.0, biggest,
                          font_index, float(dx) + 0.0, float(dy) + 0.0, block_no, count)
                offset = end + 1
            block_no += 1
        gaps: list[int] = []
        if loose:
            try:
                gaps = word_gaps(_gap_textpage(page, rendered), loose)
            except Exception as exc:
                raise _page_failure(name, number, exc, memory) from None
        gap_markers = None  # the page's markers read with its word gaps for spaces, when they differ
        if gaps:
            spaced: list[list[int]] = []
            for at, drawn_line, shown in smaller:
                inside = frozenset(g - at for g in gaps if at < g < at + len(shown))
                spaced.extend([at + a, at + b] for a, b in raised_markers(drawn_line, shown, labels, inside))
            if spaced != markers:
                gap_markers = spaced
        records.append(
            [number, "".join(parts), float(rect.width), float(rect.height), int(page.rotation), lines, list(fonts),
             spans_out, hidden, markers, glyphs, gaps, gap_markers]
        )
    return records


WORD_GAP_EM = 0.1
"""Two glyphs of a line set at least this share of their font size apart, with no space
between them in the text, have a word gap between them. pymupdf writes a space only for
a wider gap, so a tightly justified line loses its word spaces (``demonstratedtoimprove``
for "demonstrated to improve", whose gaps measure 0.13-0.15 em); inside a word, glyphs
stand a kerning's few hundredths of an em closer or further apart."""
WORD_GAP_TIGHT_EM = 0.05
"""... on a line set tight: the median gap between its glyphs is at most this share of
the size. Letter-spaced type, whose every gap is wide, has no word gaps."""
WORD_GAP_MAX_SHARE = 1 / 3
"""... and at most this share of the line's pairs of glyphs are that far apart."""
_LONG_RUN = re.compile(r"(?<![^\W\d_])[^\W\d_]{17,}")
"""Seventeen letters or more without a break (tried only where a word starts): a word
that long is rare, so a line that holds one, and has fewer than one space in
:data:`_SPACED_CHARS` characters, may have lost its word spaces, and its glyphs'
positions are read (:func:`word_gaps`). The count of spaces is the cheap part, in C;
few lines are searched for the run."""
_SPACED_CHARS = 12
"""A line of running text has a space every five to eight characters; the two lines of
the BMJ paper that lost theirs have one in 22 and none. A long word in a line spaced as
usual ("Verteidigungsminister" in a German sentence) is not read."""


def word_gaps(textpage, lines: dict[tuple[int, int], tuple[int, str]]) -> list[int]:
    """Offsets (of the page's text) of the characters that a word gap precedes in
    ``lines``: ``(block number, line index in the block) -> (offset of the line, its
    text)``, left to right lines of ``textpage``. A gap is :data:`WORD_GAP_EM` wide or
    wider between two glyphs with no space between them, on a line set tight
    (:data:`WORD_GAP_TIGHT_EM`, :data:`WORD_GAP_MAX_SHARE`). A line whose glyphs do not
    spell its text (one pymupdf cut at the page's edge) is left out."""
    if not lines:
        return []
    mupdf = pymupdf.mupdf
    out: list[int] = []
    blocks = {b for b, _ in lines}
    last = max(blocks)
    for block_no, block in enumerate(textpage.this):
        if block_no > last:
            break
        if block_no not in blocks or block.m_internal.type != mupdf.FZ_STEXT_BLOCK_TEXT:
            continue
        for line_no, line in enumerate(block):
            wanted = lines.get((block_no, line_no))
            if wanted is None:
                continue
            at, text = wanted
            glyphs = []
            for char in line:
                c = char.m_internal
                quad = c.quad
                glyphs.append((c.c, quad.ul.x, quad.ur.x, c.size))
            if "".join(chr(g[0]) for g in glyphs) == text:
                out.extend(at + k for k in _line_word_gaps(glyphs))
    return sorted(out)


def _line_word_gaps(glyphs: Sequence[tuple[int, float, float, float]]) -> list[int]:
    """Indexes of the glyphs a word gap precedes, in one line's ``(code, left, right,
    size)`` glyphs (see :func:`word_gaps`)."""
    pairs: list[tuple[int, float]] = []  # (right glyph, gap in ems) of two glyphs side by side
    for k in range(1, len(glyphs)):
        (a, _, a_right, a_size), (b, b_left, _, b_size) = glyphs[k - 1], glyphs[k]
        em = max(a_size, b_size)
        if em > 0 and not chr(a).isspace() and not chr(b).isspace():
            pairs.append((k, (b_left - a_right) / em))
    gaps = [k for k, gap in pairs if gap >= WORD_GAP_EM]
    if not gaps or len(gaps) > WORD_GAP_MAX_SHARE * len(pairs):
        return []
    if sorted(gap for _, gap in pairs)[len(pairs) // 2] > WORD_GAP_TIGHT_EM:
        return []
    return gaps


def _as_drawn(spans: Sequence[dict], drawn: dict[int, str]) -> list[dict]:
    """A line's spans with each mis-mapped glyph (``drawn``: offset in the line ->
    character) read as drawn and joined to the spans beside it that share its size and
    baseline, so a raised range such as ``5``, pi-font ``e``, ``7`` is one marker ``5\u20137``."""
    if not drawn:
        return list(spans)
    out: list[dict] = []
    at = 0
    glued = False  # the last span in ``out`` holds a mis-mapped glyph
    for span in spans:
        text = span.get("text", "")
        fixed = at in drawn and len(text) == 1
        if fixed:
            span = {**span, "text": drawn[at]}
        at += len(text)
        if out and text.strip() and (fixed or glued) and out[-1].get("text", "").strip() and _same_run(out[-1], span):
            out[-1] = {**out[-1], "text": out[-1]["text"] + span["text"]}
        else:
            out.append(span)
        glued = fixed or (glued and out[-1] is not span)
    return out


def _same_run(a: dict, b: dict) -> bool:
    try:
        return abs(float(a["size"]) - float(b["size"])) < 0.01 and abs(float(a["origin"][1]) - float(b["origin"][1])) < 0.01
    except (KeyError, IndexError, TypeError, ValueError):
        return False


_FIRST_CHAR = re.compile(r"/FirstChar\s+(\d+)")
_LAST_CHAR = re.compile(r"/LastChar\s+(\d+)")


def _one_code(pdf, xref: int) -> bool:
    """Does font ``xref`` encode a single character code (``/FirstChar`` equal to
    ``/LastChar``)? A broken font object does not (its glyphs are read as mapped)."""
    try:
        obj = pdf.xref_object(xref, compressed=True)
    except Exception:
        return False
    first, last = _FIRST_CHAR.search(obj), _LAST_CHAR.search(obj)
    return bool(first and last and first.group(1) == last.group(1))


def _scan_font_xrefs(mupdf, resources, out: list[int], seen: set[int]) -> None:
    """:func:`_page_font_xrefs` for one resource dictionary, then the form XObjects it
    names, depth first: the walk pymupdf's ``get_fonts`` makes (a dictionary already
    being walked is passed over; a form met a second time ends this dictionary's walk)."""
    if mupdf.pdf_mark_obj(resources):
        return
    try:
        fonts = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_Font)
        for i in range(mupdf.pdf_dict_len(fonts)):
            font = mupdf.pdf_dict_get_val(fonts, i)
            if mupdf.pdf_is_dict(font):
                out.append(mupdf.pdf_to_num(font))
        forms = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_XObject)
        for i in range(mupdf.pdf_dict_len(forms)):
            form = mupdf.pdf_dict_get_val(forms, i)
            xref = mupdf.pdf_to_num(form) if mupdf.pdf_is_stream(form) else 0
            inner = mupdf.pdf_dict_get(form, mupdf.PDF_ENUM_NAME_Resources)
            if inner.m_internal:
                if xref in seen:
                    return
                seen.add(xref)
                _scan_font_xrefs(mupdf, inner, out, seen)
    finally:
        mupdf.pdf_unmark_obj(resources)


def _page_font_xrefs(pdf, index: int) -> list[int]:
    """The xrefs of the fonts ``page.get_fonts()`` lists for page ``index`` (0-based), in
    its order, without what it works out for each font that the one-glyph check has no
    use for (type, encoding, file extension: most of its cost)."""
    mupdf = pymupdf.mupdf
    doc = mupdf.pdf_document_from_fz_document(pdf.this)
    resources = mupdf.pdf_dict_get_inheritable(mupdf.pdf_lookup_page_obj(doc, index), mupdf.PDF_ENUM_NAME_Resources)
    out: list[int] = []
    if resources.m_internal:
        _scan_font_xrefs(mupdf, resources, out, set())
    return out


_UNNAMED = "\x00"
"""In ``known`` of :func:`_one_glyph_fonts`: a one-glyph font whose name is not read yet
(no font name holds a NUL: a PDF name cannot)."""


def _font_name(pdf, xref: int) -> str:
    """The name ``page.get_fonts()`` gives font ``xref``: its ``/BaseFont``, else its
    ``/Name``, decoded and escaped as pymupdf does; read from the font's dictionary
    alone, without the rest of what get_fonts works out for every font of a page."""
    mupdf = pymupdf.mupdf
    font = mupdf.pdf_load_object(mupdf.pdf_document_from_fz_document(pdf.this), xref)
    name = mupdf.pdf_dict_get(font, mupdf.PDF_ENUM_NAME_BaseFont)
    if not name.m_internal or mupdf.pdf_is_null(name):
        name = mupdf.pdf_dict_get(font, mupdf.PDF_ENUM_NAME_Name)
    return str(pymupdf.JM_EscapeStrFromStr(mupdf.pdf_to_name(name)))


def _one_glyph_fonts(pdf, page, known: dict[int, str | None]) -> dict[str, int]:
    """Names (as spans give them, without the subset tag) of the page's fonts that encode
    a single character code (``/FirstChar`` equal to ``/LastChar``): the "pi" fonts a
    typesetting system makes for one special glyph, whose code says nothing of its shape;
    each with its xref. ``known``: font xref -> its name when it is such a font, else
    None, for the fonts of the pages before.

    The page's font xrefs come from a lean walk of its resources, and a one-glyph font
    met for the first time is named from its own dictionary (:func:`_font_name`);
    ``page.get_fonts()``, which works out the type, encoding and file extension of every
    font of the page, is asked only when the walk or a name cannot be read."""
    try:
        xrefs: list[int] | None = _page_font_xrefs(pdf, page.number)
    except Exception:  # what the walk cannot read, get_fonts reads or reports
        xrefs = None
    if xrefs is not None:
        for xref in xrefs:
            if xref not in known:
                known[xref] = _UNNAMED if _one_code(pdf, xref) else None
            if known[xref] == _UNNAMED:
                try:
                    known[xref] = _font_name(pdf, xref).split("+", 1)[-1]
                except Exception:  # left for get_fonts to name, or to report
                    pass
        if all(known[xref] != _UNNAMED for xref in xrefs):
            return {known[xref]: xref for xref in xrefs if known[xref]}  # type: ignore[misc]
    names: dict[str, int] = {}
    for entry in page.get_fonts():
        xref = entry[0]
        if xref not in known or known[xref] == _UNNAMED:
            known[xref] = str(entry[3]).split("+", 1)[-1] if _one_code(pdf, xref) else None
        if known[xref]:
            names[known[xref]] = xref  # type: ignore[index]
    return names


DASH_MAX_HEIGHT = 0.12
"""A glyph whose ink is at most this share of the font size high ..."""
DASH_MIN_WIDTH = 0.2
"""... and at least this share wide, above the baseline, is a horizontal bar: a dash."""
_DASH_WIDTHS = ((0.4, "-"), (0.75, "\u2013"), (math.inf, "\u2014"))
"""By its ink width in ems: a hyphen (about 1/3 em), an en dash (1/2 em), an em dash."""
_INK = 160  # a grey level at or below this is ink
_ZOOM = 8


def _font_buffer(pdf, xref: int) -> bytes:
    try:
        return pdf.extract_font(xref)[3] or b""
    except Exception:  # a font that cannot be extracted is rendered on its page
        return b""


_ISOLATED_SIZE = 50.0


def _isolated_glyph(buffer: bytes, ch: str):
    """(pixmap, its rect, size, baseline) of ``ch`` set alone in the embedded font
    ``buffer`` on a scratch page (cheap, unlike rendering a page full of images), or
    None when the font cannot be loaded or lacks the character.

    The glyph is written with a ``TextWriter`` rather than ``insert_text``: both embed
    the font the same way and render the same pixels, but ``insert_text`` first builds
    a width table of every character code up to the one it sets (tens of thousands
    for a ligature such as U+FB00)."""
    try:
        font = pymupdf.Font(fontbuffer=buffer)
        if not font.has_glyph(ord(ch)):
            return None
        scratch = pymupdf.open()
        page = scratch.new_page(width=200, height=100)
        writer = pymupdf.TextWriter(page.rect)
        writer.append((20, 70), ch, font=font, fontsize=_ISOLATED_SIZE)
        writer.write_text(page)
        pix = page.get_pixmap(matrix=pymupdf.Matrix(2, 2), colorspace=pymupdf.csGRAY, alpha=False)
    except Exception:  # an embedded font MuPDF cannot load alone: render it on its page
        return None
    return pix, pymupdf.Rect(0, 0, 200, 100), _ISOLATED_SIZE, 70.0


_INK_MASK = bytes(1 if v <= _INK else 0 for v in range(256))
"""Maps a grey level to 1 when it is ink, else 0 (for ``bytes.translate``)."""


def _ink_extent(pix) -> tuple[int, int, int, int] | None:
    """(first row, last row, first column, last column) holding ink in a grey pixmap,
    or None when it holds none. The rows come from the first and last ink byte, the
    columns from the ink rows only, each searched in C (``find``/``rfind``)."""
    width = pix.width
    mask = pix.samples.translate(_INK_MASK)
    first, last = mask.find(1), mask.rfind(1)
    if first < 0 or not width:
        return None
    top, bottom = first // width, last // width
    left, right = width, -1
    for y in range(top, bottom + 1):
        row = mask[y * width : (y + 1) * width]
        a = row.find(1)
        if a >= 0:
            left = min(left, a)
            right = max(right, row.rfind(1))
    return top, bottom, left, right


def drawn_dash(page, span: dict, font_buffer: bytes = b"", rendered: dict | None = None) -> str | None:
    """The dash (or equals sign) a one-character span draws, or None when its glyph is
    no horizontal bar (nor two).

    The span's box is rendered and its ink measured: a bar is flat
    (:data:`DASH_MAX_HEIGHT`), wide (:data:`DASH_MIN_WIDTH`) and clear of the baseline;
    its width picks hyphen, en dash or em dash. Two such bars of one length, one above
    the other (:data:`EQUALS_MAX_HEIGHT`), are "=". Ink of a neighbour reaching into the box
    makes the glyph look taller, so it is then left as mapped. With the font's
    embedded program (``font_buffer``) the glyph is rendered alone instead.
    ``rendered``: the page's display list kept between calls (see :func:`_blank_under`)."""
    size = float(span.get("size", 0.0))
    if size <= 0 or tuple(span.get("dir", (1.0, 0.0))) != (1.0, 0.0):
        return None
    alone = _isolated_glyph(font_buffer, span.get("text", "")) if font_buffer else None
    if alone is not None:
        pix, rect, size, baseline = alone
    else:
        rect = pymupdf.Rect(span["bbox"]) & page.rect
        if rect.is_empty:
            return None
        try:
            # what page.get_pixmap(clip=rect, ...) renders, from the page's display list
            display = _display_list(page, rendered)
            pix = display.get_pixmap(matrix=pymupdf.Matrix(_ZOOM, _ZOOM), colorspace=pymupdf.csGRAY, alpha=False,
                                     clip=rect)
        except Exception:  # a page that cannot be rendered keeps its mapping
            return None
        baseline = float(span.get("origin", (0.0, rect.y1))[1])
    extent = _ink_extent(pix)
    if extent is None:
        return None
    top, last_row, left, right = extent
    scale = pix.height / rect.height if rect.height else _ZOOM
    ink_height = (last_row - top + 1) / scale / size
    ink_width = (right - left + 1) / scale / size
    bottom = rect.y0 + (last_row + 1) / scale
    if ink_width < DASH_MIN_WIDTH or baseline - bottom < 0.1 * size:
        return None
    if ink_height <= DASH_MAX_HEIGHT:
        return next(dash for limit, dash in _DASH_WIDTHS if ink_width < limit)
    bars = _ink_bars(pix, top, last_row)
    if len(bars) == 2 and ink_height <= EQUALS_MAX_HEIGHT:
        (t0, b0, l0, r0), (t1, b1, l1, r1) = bars
        flat = max(b0 - t0, b1 - t1) + 1 <= DASH_MAX_HEIGHT * size * scale
        even = max(abs(l0 - l1), abs(r0 - r1)) <= 0.1 * (right - left + 1)
        if flat and even:
            return "="  # two flat bars of one length, one above the other
    return None


def _symbol_sign(ch: str) -> bool:
    """A vulgar fraction (``\u00bc``): a sign running text rarely sets alone, and the code a
    font with a broken character map gives its "=" (BMJ: ``Q\u00bc23.8`` where the page
    prints "Q=23.8")."""
    return unicodedata.category(ch) == "No" and "FRACTION" in unicodedata.name(ch, "")


EQUALS_MAX_HEIGHT = 0.4
"""Two flat bars of one length within this share of the font size, one above the other,
clear of the baseline, are an equals sign (BMJ's pi font draws "=" for the code of "\u00bc")."""


def _ink_bars(pix, top: int, bottom: int) -> list[tuple[int, int, int, int]]:
    """The runs of rows holding ink between ``top`` and ``bottom`` of a grey pixmap, each
    as (first row, last row, first column, last column)."""
    width = pix.width
    mask = pix.samples.translate(_INK_MASK)
    bars: list[list[int]] = []
    for y in range(top, bottom + 1):
        row = mask[y * width : (y + 1) * width]
        a = row.find(1)
        if a < 0:
            continue
        b = row.rfind(1)
        if bars and bars[-1][1] == y - 1:
            bar = bars[-1]
            bar[1], bar[2], bar[3] = y, min(bar[2], a), max(bar[3], b)
        else:
            bars.append([y, y, a, b])
    return [tuple(bar) for bar in bars]  # type: ignore[misc]


MARKER_SIZE_RATIO = 0.85
"""A marker is set at most this share of the size of the text it is glued to ..."""
MARKER_RISE = 0.15
"""... and its baseline is at least this share of that size higher."""
_MARKER_TEXT = re.compile(
    r"(?:\d{1,3}|[a-z]|[*\u2217\u2020\u2021\u00a7\u00b6#$+\u22c6\u2016]{1,3})"
    r"(?:\s?[,\u2013\u2014-]\s?(?:\d{1,3}|[a-z]|[*\u2217\u2020\u2021\u00a7\u00b6#$+\u22c6\u2016]{1,3}))*"
)
_MATH_FONT = re.compile(r"cmmi|cmsy|cmex|msam|msbm|txmi|txsy|txex|math|stix|mtmi|mtsy|symbol|euler|eufm|rsfs", re.I)
_AFTER_PUNCT = ",.;:\u2019\u201d'\""
_BEFORE_OK = ",.;:)]\u2019\u201d"
_NUMBER_TOKEN = re.compile(r"[\d.,\u2212-]+")


def _latin_letter(ch: str) -> bool:
    return ch.isalpha() and (ord(ch) < 0x250 or 0x1E00 <= ord(ch) <= 0x1EFF)


def _has_math_symbol(text: str) -> bool:
    return any(ch in "+<=>|~" or (ord(ch) > 0x7F and unicodedata.category(ch) == "Sm") for ch in text)


def _word_size(spans: Sequence[dict], i: int) -> float:
    """The largest font size of the word that span ``i`` is glued to: the spans before
    it back to a space (small capitals set the rest of a word smaller: "S", "CI", "D")."""
    best = 0.0
    for j in range(i - 1, -1, -1):
        text = spans[j].get("text", "")
        if text.strip():
            best = max(best, float(spans[j].get("size", 0.0)))
        if not text or text[-1].isspace() or " " in text.strip():
            break
    return best


def raised_markers(spans: Sequence[dict], line_text: str, labels: frozenset[str] = frozenset(),
                   gaps: frozenset[int] = frozenset()) -> list[tuple[int, int]]:
    """``[start, end)`` within ``line_text`` of the footnote and citation markers among
    a line's pymupdf spans.

    A marker is a span set smaller (:data:`MARKER_SIZE_RATIO`) and raised
    (:data:`MARKER_RISE`) against the span it is glued to, holding digits, a letter,
    footnote symbols or a list or range of them (``1``, ``a``, ``\u2217``, ``14\u201320``,
    ``1,2,5``). It is an exponent, not a marker, when what it is glued to is a digit, a
    bracket or a math symbol, a one-letter word, a word in a math font or with non-Latin
    letters (``x\u00b2``, ``O(n\u00b2)``, ``d\u03a9\u00b2``), a unit after a number (``5 cm\u00b2``), when a
    math symbol stands in the two words before it (``E = mc\u00b2``), when it starts with a
    minus, or when a letter or digit follows it directly (``cm\u00b2V``). After a
    one-letter word it is a marker all the same when the letter is upright (not italic,
    not a math font) and ``labels`` (:func:`footnote_labels` of the page) holds its text:
    the page has a footnote it refers to ("the tree skeleton of T\u00b9"). ``gaps``: offsets
    in ``line_text`` of the characters a word gap precedes (:func:`word_gaps`), which
    part words as a space does ("RCT28providedonly" as printed "RCT\u00b2\u2078 provided only").
    """
    out: list[tuple[int, int]] = []
    at = 0
    prev = None
    raised_space = -1  # where a space set raised and small like the marker before it ends
    # a word is set no larger than the line's largest span: a span above this share of
    # that is no marker, and is passed before its word is measured (the walk back
    # through the word's spans was most of the cost, on lines of math set in pieces)
    most = MARKER_SIZE_RATIO * max([float(span.get("size", 0.0)) for span in spans], default=0.0)
    for i, span in enumerate(spans):
        text = span.get("text", "")
        start = at
        at += len(text)
        if prev is None or not text.strip():
            if text and not text.strip() and out and out[-1][1] == start and _same_line_run(spans, i, out[-1][0], line_text):
                raised_space = at
            prev = span if text.strip() else prev
            continue
        ref = prev
        prev = span  # until it turns out to be a marker: a marker is measured against the word
        if out and raised_space == start and _same_line_run(spans, i, out[-1][0], line_text):
            content = text.rstrip()
            if _MARKER_TEXT.fullmatch(content):
                # the next item of a marker list whose separator is a raised space ("2 4")
                out[-1] = (out[-1][0], start + len(content))
                prev = ref
                continue
        size = float(span.get("size", 0.0))
        if not 0 < size <= most:
            continue
        # what the span holds and where it stands first (a few C calls), then its size
        # and rise against the word it is glued to
        content = text.rstrip()
        if not content or content[0].isspace() or not _MARKER_TEXT.fullmatch(content):
            continue
        if not start or line_text[start - 1].isspace() or start in gaps:
            continue  # not glued
        after = line_text[start + len(content) : start + len(content) + 1]
        if after and not after.isspace() and after not in _BEFORE_OK and start + len(content) not in gaps:
            continue
        ref_size = _word_size(spans, i)
        if size > MARKER_SIZE_RATIO * ref_size:
            continue
        try:
            rise = float(ref["origin"][1]) - float(span["origin"][1])
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        if rise < MARKER_RISE * ref_size:
            continue
        before = line_text[:start]
        if out and out[-1][1] == start:  # a second marker right after the first ("\u2217,\u2020")
            out[-1] = (out[-1][0], start + len(content))
            prev = ref
            continue
        last = before[-1]
        words = before.split()
        if last.isalpha():
            k = len(before)
            while k > 0 and (before[k - 1].isalpha() or unicodedata.category(before[k - 1]) == "Sk") and k not in gaps:
                k -= 1  # a spacing accent is part of the word: "Andr\u00b4e"
            word = [ch for ch in before[k:] if ch.isalpha()]
            if not all(_latin_letter(ch) for ch in word) or _MATH_FONT.search(ref.get("font", "")):
                continue
            if len(word) < 2 and not (content in labels and not int(ref.get("flags", 0)) & _ITALIC):
                continue  # an exponent of a variable, unless an upright letter carries a footnote's label
            if len(words) >= 2 and _NUMBER_TOKEN.fullmatch(words[-2]):
                continue  # a unit after a number: "5 cm2"
        elif last not in _AFTER_PUNCT:
            continue
        if _has_math_symbol(" ".join(words[-2:])):
            continue
        out.append((start, start + len(content)))
        prev = ref
    return out


_ITALIC = 2  # pymupdf span flag


def footnote_labels(raw: dict, height: float) -> frozenset[str]:
    """The labels of a page's footnotes: lines in the lower half of the page whose first
    span is marker text set smaller and raised against the text that follows it
    (``\u00b9 The Root Node of ...``)."""
    out = set()
    for block in raw.get("blocks", ()):
        for line in block.get("lines", ()):
            spans = [sp for sp in line.get("spans", ()) if sp.get("text", "").strip()]
            if len(spans) < 2 or float(line.get("bbox", (0, 0, 0, 0))[1]) < height / 2:
                continue
            label, body = spans[0], spans[1]
            try:
                size, ref = float(label["size"]), float(body["size"])
                rise = float(body["origin"][1]) - float(label["origin"][1])
            except (KeyError, IndexError, TypeError, ValueError):
                continue
            text = label["text"].strip()
            if 0 < size <= MARKER_SIZE_RATIO * ref and rise >= MARKER_RISE * ref and _MARKER_TEXT.fullmatch(text):
                out.add(text)
    return frozenset(out)


def _same_line_run(spans: Sequence[dict], i: int, marker_start: int, line_text: str) -> bool:
    """Is whitespace span ``i`` set at the size and baseline of the marker that ends
    where it starts (the span holding offset ``marker_start``)?"""
    at = 0
    for span in spans:
        n = len(span.get("text", ""))
        if at <= marker_start < at + n:
            return _same_run(span, spans[i])
        at += n
    return False


def _whole_and_not_negative(numbers: array) -> bool:
    """Every number (an ``array('d')``) is a whole number, zero or more: one numpy pass
    where ``float.is_integer`` of each took a tenth of the assembly."""
    import numpy as np

    values = np.frombuffer(numbers, dtype=np.float64)
    return bool(np.isfinite(values).all() and (values == np.trunc(values)).all() and not (values < 0).any())


def _assemble(name: str, data: bytes, records: Sequence[list], warnings: Sequence[str], allow_textless: bool,
              password: str | None = None, sha256: str | None = None) -> Document:
    """The document from its page records (:func:`_extract_pages`), in page order;
    ``sha256``: the hex digest of ``data`` when it is known already."""
    warnings = list(warnings)
    parts: list[str] = []
    pages: list[Page] = []
    lines: list[Line] = []
    textless: list[int] = []
    hidden: list[tuple[int, int]] = []
    hidden_pages: list[int] = []
    offset = 0
    markers: list[tuple[int, int]] = []
    glyphs: list[tuple[int, str]] = []
    gaps: list[int] = []
    gap_markers: list[tuple[int, int]] | None = None  # the markers read with the word gaps, once a page has such
    new_line = object.__new__
    set_page, set_start, set_end, set_bbox, set_size, set_font, set_direction, set_block, set_source = _LINE_SETTERS
    span_offsets = array("d")  # every page's span offsets, checked once the pages are read
    for record in sorted(records, key=lambda r: r[0]):
        (number, page_text, width, height, rotation, flat, fonts, flat_spans, page_hidden, page_markers, page_glyphs,
         page_gaps, page_gap_markers) = record
        number, rotation = int(number), int(rotation)
        if not isinstance(page_text, str):
            raise TypeError("page text is not a string")
        if len(flat) % LINE_FIELDS or len(flat_spans) % SPAN_FIELDS:
            raise ValueError("line or span numbers are not whole records")
        if parts:
            parts.append(PAGE_SEPARATOR)
            offset += 1
        parts.append(page_text)
        before = len(markers)
        markers.extend((offset + int(a), offset + int(b)) for a, b in page_markers)
        if page_gap_markers is not None:
            if gap_markers is None:
                gap_markers = markers[:before]  # the pages before read alike either way
            gap_markers.extend((offset + int(a), offset + int(b)) for a, b in page_gap_markers)
        elif gap_markers is not None:
            gap_markers.extend(markers[before:])
        glyphs.extend((offset + int(a), str(c)) for a, c in page_glyphs)
        if page_gaps:
            at = [int(g) for g in page_gaps]
            if min(at) < 1 or max(at) >= len(page_text):
                raise ValueError("a word gap lies outside its page")
            gaps.extend(offset + g for g in at)
        # the lines' fields, each read from the flat numbers with one slice (a loop over
        # lines slicing twelve numbers out of the list each cost most of the assembly)
        F = LINE_FIELDS
        counts = list(map(int, flat[11::F]))
        if min(counts, default=0) < 0 or SPAN_FIELDS * sum(counts) != len(flat_spans):
            raise ValueError("the lines' span counts do not match the spans")
        starts = [offset + a for a in map(int, flat[0::F])]
        ends = [offset + b for b in map(int, flat[1::F])]
        line_fonts = [fonts[f] for f in map(int, flat[7::F])]
        # a span's offset is a whole number within its line (the spans themselves are
        # made only for the few lines asked for them: Line.spans); checked for every
        # page at once below, one numpy pass instead of one per page
        span_offsets += array("d", flat_spans[0::SPAN_FIELDS])  # TypeError unless numbers
        sources = zip(itertools.repeat(flat_spans), itertools.accumulate(counts, initial=0), counts, starts)
        fields = zip(starts, ends, zip(flat[2::F], flat[3::F], flat[4::F], flat[5::F]), flat[6::F], line_fonts,
                     zip(flat[8::F], flat[9::F]), map(int, flat[10::F]), sources)
        for start, end, bbox, size, font, direction, block, source in fields:
            line = new_line(Line)  # what Line(...) builds, its spans left to make when asked
            set_page(line, number)
            set_start(line, start)
            set_end(line, end)
            set_bbox(line, bbox)
            set_size(line, size)
            set_font(line, font)
            set_direction(line, direction)
            set_block(line, block)
            set_source(line, source)
            lines.append(line)
        if page_hidden:
            hidden.extend((offset + int(a), offset + int(b)) for a, b in page_hidden)
            hidden_pages.append(number)
        bad = page_text.count("\ufffd")
        if bad:
            visible = len("".join(page_text.split()))
            verifiable = visible > 0 and bad < NO_TEXT_FRACTION * visible
        else:  # the usual page: usable when anything but whitespace is on it (one C scan)
            verifiable = bool(page_text) and not page_text.isspace()
        if not verifiable:
            textless.append(number)
        pages.append(Page(number, offset, offset + len(page_text), width, height, rotation, verifiable))
        offset += len(page_text)
    if not _whole_and_not_negative(span_offsets):
        raise ValueError("a span offset is not a whole number")
    text = "".join(parts)
    if not text.strip():
        raise EmptyDocumentError(f"{name}: no page has a text layer (scanned images?)")
    if textless:
        listed = ", ".join(map(str, textless))
        if not allow_textless:
            raise EmptyDocumentError(
                f"{name}: page {listed} has no usable text layer (scanned image or missing "
                "ToUnicode map); pass allow_textless_pages=True to load it with "
                "those pages marked unverifiable"
            )
        warnings.append(f"{name}: page {listed} has no usable text layer; quotes there are never accepted")
    if hidden_pages:
        listed = ", ".join(map(str, hidden_pages))
        warnings.append(f"{name}: page {listed} has invisible text; quotes there are never accepted")
    return Document(
        name=name,
        kind="pdf",
        sha256=sha256 or hashlib.sha256(data).hexdigest(),
        text=text,
        pages=tuple(pages),
        lines=tuple(lines),
        extractor={
            "name": "pymupdf",
            "version": pymupdf.VersionBind,
            "flags": EXTRACT_FLAGS,
            "page_separator": PAGE_SEPARATOR,
            "glyph_geometry": dict(GLYPH_GEOMETRY),
        },
        warnings=tuple(warnings),
        hidden=tuple(hidden),
        markers=tuple(markers),
        glyphs=tuple(glyphs),
        word_gaps=tuple(gaps),
        word_gap_markers=tuple(gap_markers or ()),
        _pdf=data,
        _password=password,
    )


_NAME_MARK = "\x00name\x00"
"""Stands for the file name in cached warnings (the same bytes may be opened under another name)."""


def pages_cache_key(data: bytes) -> dict:
    """What extracted pages depend on: the bytes, the extractor, its version and flags."""
    return {
        "kind": "pages",
        "sha256": hashlib.sha256(data).hexdigest(),
        "extractor": "pymupdf",
        "extractor_version": pymupdf.VersionBind,
        "flags": EXTRACT_FLAGS,
        "glyph_geometry": GLYPH_GEOMETRY,
        "drawn_glyphs": "-\u2013\u2014=",  # what a mis-mapped glyph may be read as
        "records": 4,  # page records: flat line and span numbers, a font table, the mis-mapped glyphs, word gaps
    }


def _reopen(document: Document, path: str | None = None):
    """The document's PDF opened again (from ``path`` when given), authenticated with
    the password it was loaded with."""
    pdf = pymupdf.open(path) if path else pymupdf.open(stream=document._pdf, filetype="pdf")
    if pdf.needs_pass and not pdf.authenticate(document._password or ""):
        pdf.close()
        raise EncryptedDocumentError(f"{path or document.name}: PDF is encrypted; a password is needed")
    return pdf


def _fill_page_boxes(document: Document, page: int, boxes: array) -> None:
    """Fill the character boxes of one page from ``rawdict``; its characters must be
    the page text the document holds (same flags, same pymupdf)."""
    info = document.pages[page - 1]
    with _reopen(document) as pdf, _glyph_geometry():
        raw = pdf[page - 1].get_text("rawdict", flags=EXTRACT_FLAGS)
    offset = info.start
    for block in raw.get("blocks", ()):
        if block.get("type") != 0:
            continue
        for line in block.get("lines", ()):
            for span in line.get("spans", ()):
                for ch in span.get("chars", ()):
                    c = ch["c"]
                    if document.text[offset : offset + len(c)] != c:
                        raise DocumentError(f"{document.name}: page {page}: character boxes do not match the text")
                    x0, y0, x1, y1 = ch["bbox"]
                    for k in range(len(c)):
                        boxes[4 * (offset + k) : 4 * (offset + k) + 4] = array("f", (x0, y0, x1, y1))
                    offset += len(c)
            offset += 1  # the line's newline


def plain_text(pdf_path: str | os.PathLike, *, flags: int = EXTRACT_FLAGS) -> str:
    """pymupdf's own plain-text extraction, joined like :attr:`Document.text`.

    Used as the reference the document text must equal, and as the baseline extraction
    time in benchmarks.
    """
    with pymupdf.open(pdf_path) as pdf:
        return PAGE_SEPARATOR.join(page.get_text("text", flags=flags) for page in pdf)


@dataclass(frozen=True)
class Mark:
    """An outlined rectangle with a label, drawn over a rendered page: 1-based ``page``,
    PDF points (top-left origin, unrotated page), ``color`` as RGB in 0..1."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    color: tuple[float, float, float] = (0.0, 0.0, 0.0)
    label: str = ""


def render_page_png(document: Document, page: int, *, zoom: float = 1.5, pdf_path: str | None = None,
                    boxes: Sequence[Box] = (), marks: Sequence[Mark] = ()) -> bytes:
    """A PNG of one page with ``boxes`` highlighted on it (for the workbench's Inspect
    view) and ``marks`` outlined in their colours, each label written in the left margin
    of its rectangle (the layout overlay)."""
    if pdf_path is None and document._pdf is None:
        raise DocumentError(f"{document.name}: not a PDF; there is no page to render")
    with _reopen(document, pdf_path) as pdf:
        pg = pdf[page - 1]
        for mark in marks:
            if mark.page != page:
                continue
            shape = pg.new_shape()
            shape.draw_rect(pymupdf.Rect(mark.x0, mark.y0, mark.x1, mark.y1))
            shape.finish(color=mark.color, fill=mark.color, fill_opacity=0.12, width=1.0)
            if mark.label:
                size = 5.0
                shape.insert_text(pymupdf.Point(max(mark.x0 - 1 - 0.55 * size * len(mark.label), 0), mark.y0 + size),
                                  mark.label, fontsize=size, color=mark.color)
            shape.commit()
        shape = pg.new_shape()
        for box in boxes:
            if box.page == page:
                # boxes and shapes are both in unrotated page space; rendering rotates them
                shape.draw_rect(pymupdf.Rect(box.x0, box.y0, box.x1, box.y1))
        shape.finish(color=(0.9, 0.1, 0.1), fill=(1.0, 0.85, 0.0), fill_opacity=0.35, width=0.8)
        shape.commit()
        return pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom)).tobytes("png")


# -- isolated extraction ------------------------------------------------------------------
#
# The caller keeps up to two extraction workers (:class:`_Pool`): forked when it runs no
# other thread, new interpreters otherwise; each reads one request at a time (a JSON
# line, then the PDF bytes), lowers its address-space limit for that file and extracts
# every n-th page; all are killed at the time limit. A worker's reply is its length, a
# newline, then a JSON line (status, warnings, the small per-page fields) followed by its
# pages' texts as UTF-8 and their line and span numbers as packed doubles
# (:func:`_encode_reply`); never a pickle, so a worker that a hostile PDF took over still
# cannot run code in the caller, which checks the reply's sizes, decodes it
# (:func:`_decode_replies`) and assembles the pages (:func:`_assemble`). Packed numbers
# instead of JSON: the caller reads a page's geometry with one copy instead of parsing
# a list per line and per span.

_ERRORS = {cls.__name__: cls for cls in (DocumentError, EncryptedDocumentError, EmptyDocumentError, ExtractionLimitError)}


def _limit_message(name: str, limits: Limits, reply: dict) -> str:
    status = reply.get("status")
    if status == "timeout":
        return f"{name}: text extraction exceeded the time limit of {limits.seconds:g} s and was stopped"
    if status == "memory":
        return f"{name}: text extraction exceeded the memory limit of {limits.memory_mb} MB"
    try:
        sig = signal.Signals(reply.get("signal", 0)).name
    except ValueError:
        sig = f"signal {reply.get('signal')}"
    return (f"{name}: text extraction was killed by {sig} (limits: {limits.seconds:g} s, "
            f"{limits.memory_mb} MB); the PDF may be hostile or broken")


def _encode_reply(reply: dict) -> bytes:
    """A child's reply as bytes: one JSON line, then (when it holds pages) the payload
    the line's ``sizes`` describe: the texts (UTF-8), the line numbers and the span
    numbers (native doubles)."""
    if reply.get("status") != "ok":
        return json.dumps(reply).encode() + b"\n"
    heads, texts = [], []
    lines: list = []
    spans: list = []
    for number, text, width, height, rotation, flat, fonts, flat_spans, hidden, markers, glyphs, *gaps in reply["pages"]:
        texts.append(text)
        heads.append([number, len(text), width, height, rotation, len(flat), fonts, len(flat_spans), hidden, markers,
                      glyphs, *gaps])
        lines += flat
        spans += flat_spans
    body = "".join(texts).encode("utf-8", "surrogatepass")
    header = {"status": "ok", "warnings": reply["warnings"], "pages": heads,
              "sizes": [len(body), 8 * len(lines), 8 * len(spans)]}
    # struct packs a list of numbers, ints among them, as native doubles in one C loop,
    # two to three times as fast as array.extend (the same bytes): the encoding is the
    # last step of a worker's extraction, on the way of every open
    return b"".join((json.dumps(header).encode(), b"\n", body, _doubles(lines), _doubles(spans)))


def _doubles(numbers: Sequence[float]) -> bytes:
    """``numbers`` as native doubles (what ``array("d", numbers).tobytes()`` gives)."""
    return struct.pack(f"{len(numbers)}d", *numbers)


def _reply_header(blob: bytes) -> dict:
    """The JSON line that starts a child's reply (ValueError when there is none)."""
    head = blob.partition(b"\n")[0]
    header = json.loads(head)
    if not isinstance(header, dict):
        raise ValueError("the reply header is not an object")
    return header


_MALFORMED = (ValueError, TypeError, KeyError, UnicodeDecodeError)
"""What decoding a malformed reply raises (:func:`_decode_reply`)."""


def _decode_reply(blob: bytes) -> tuple[list[list], list[str]]:
    """The page records and warnings of one child's ``ok`` reply; one of
    :data:`_MALFORMED` when it is malformed."""
    head, _, payload = blob.partition(b"\n")
    header = json.loads(head)
    n_text, n_lines, n_spans = (int(v) for v in header["sizes"])
    if min(n_text, n_lines, n_spans) < 0 or n_lines % 8 or n_spans % 8 or n_text + n_lines + n_spans != len(payload):
        raise ValueError("sizes do not match the payload")
    text = payload[:n_text].decode("utf-8", "surrogatepass")
    # the numbers stay packed doubles (no float object each): a page's slice of them is
    # a copy of its bytes, and a line's spans are made from them only when asked for
    flat, flat_spans = array("d"), array("d")
    view = memoryview(payload)
    flat.frombytes(view[n_text : n_text + n_lines])
    flat_spans.frombytes(view[n_text + n_lines :])
    records: list[list] = []
    t = l = s = 0
    for number, chars, width, height, rotation, n_line, fonts, n_span, hidden, markers, glyphs, *gaps in header["pages"]:
        records.append([number, text[t : t + chars], width, height, rotation, flat[l : l + n_line], fonts,
                        flat_spans[s : s + n_span], hidden, markers, glyphs, *gaps])
        t, l, s = t + chars, l + n_line, s + n_span
    if (t, l, s) != (len(text), len(flat), len(flat_spans)):
        raise ValueError("page sizes do not add up to the payload")
    return records, [str(w) for w in header["warnings"]]


def _decode_early(blob: bytes) -> tuple[list[list], list[str]] | None:
    """:func:`_decode_reply` of a reply that came in while another worker is still at
    work (the caller has nothing else to do then), or None when it is malformed (then
    :func:`_decode_replies` decodes it again, and says so)."""
    try:
        return _decode_reply(blob)
    except _MALFORMED:
        return None


def _decode_replies(blobs: Sequence[bytes], name: str,
                    decoded: Sequence[tuple[list[list], list[str]] | None] = ()) -> tuple[list[list], list[str]]:
    """The page records (as :func:`_extract_pages` makes them) and warnings of the
    children's ``ok`` replies; :class:`DocumentError` when one is malformed (sizes that
    do not add up, numbers where text belongs): the child may have been taken over.
    ``decoded``: what :func:`_decode_early` already made of some of them, by position."""
    records: list[list] = []
    warnings: list[str] = []
    try:
        for i, blob in enumerate(blobs):
            early = decoded[i] if i < len(decoded) else None
            page_records, page_warnings = early if early is not None else _decode_reply(blob)
            records.extend(page_records)
            if i == 0:
                warnings = page_warnings
        # in page order: which worker took which page changes from run to run, and what
        # is kept of an extraction (a cache entry) must not
        records.sort(key=lambda record: int(record[0]))
    except _MALFORMED:
        raise DocumentError(f"{name}: the extraction worker sent a malformed reply") from None
    return records, warnings


_CHILDREN_OVERRIDE: int | None = None


def set_extraction_children(n: int | None) -> None:
    """How many extraction workers share each file's pages in this process (None:
    :func:`_children` decides). A pool of task processes, each extracting its own papers,
    sets 1 so that each does not keep one extraction worker per core and crowd the cores."""
    global _CHILDREN_OVERRIDE
    _CHILDREN_OVERRIDE = n


def _children() -> int:
    """How many workers extract one PDF: two on a machine with two or more cores (they
    share its pages out through the pool's page queue), else one.

    Not fewer when the machine is busy: the load average counts this process's own
    workers (two busy workers push a quiet 2-core machine's one-minute load towards 2),
    so a rule on it switched the second worker off under the load it made itself, and a
    kept worker costs no fork. On a machine busy with other work, two workers still get
    their share of it. A pool of task processes, which does load every core, asks for
    one worker each (:func:`set_extraction_children`)."""
    if _CHILDREN_OVERRIDE:
        return _CHILDREN_OVERRIDE
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return 2 if cores >= 2 else 1


_TOKEN = struct.Struct("=II")
"""The page token the workers sharing a file pass round through the pool's queue pipe:
the file's number and the next page nobody has taken yet."""


def _taken_pages(queue: tuple[int, int], file: int, count: int) -> Iterator[int]:
    """The pages of a ``count``-page file that this worker takes, one at a time, in
    turn with the other workers of the file: read the token (whoever holds it is the
    only one to take a page), put it back with the next page, then extract the page
    taken. A worker that is through with a page takes the next free one, so a page that
    costs as much as ten others (a full-page figure) no longer leaves one worker with
    half of the rest to do while the other waits; the token is always back in the pipe
    before a page is extracted, so a page that fails leaves the others to go on.
    ``file`` tells a token of this file from one left over from another (the caller
    empties the pipe between files, so that is a safeguard)."""
    take, give = queue
    while True:
        token = os.read(take, _TOKEN.size)
        if len(token) != _TOKEN.size:  # the caller closed the pipe: it has gone
            raise DocumentError("the extraction worker lost its page queue")
        number, page = _TOKEN.unpack(token)
        if number != file:
            continue
        _write_all(give, _TOKEN.pack(file, min(page + 1, count)))
        if page >= count:
            return
        yield page


def _child_reply(data: bytes, request: dict, queue: tuple[int, int] | None = None,
                 spent: list | None = None) -> dict:
    """Extract, in an extraction worker and under the memory limit, its pages of a file:
    those it takes from ``queue`` when ``request`` names a ``file`` number (the workers of
    a file share its pages out as each gets free, :func:`_taken_pages`), else every page.
    Never raises. The limit caps the worker's address space at what it uses now plus
    ``memory_mb`` for this file, and is lifted again afterwards (the worker serves the
    next file under a cap of its own)."""
    seconds, memory_mb, max_pages, max_file_bytes = request["limits"]
    limits = Limits(seconds, memory_mb, max_pages, max_file_bytes)
    name = request["name"]
    file = request.get("file")
    restore = None
    try:
        import resource

        before = resource.getrlimit(resource.RLIMIT_AS)
        in_use = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = in_use + memory_mb * 1024 * 1024
        if before[1] != resource.RLIM_INFINITY:
            cap = min(cap, before[1])
        resource.setrlimit(resource.RLIMIT_AS, (cap, before[1]))

        def restore() -> None:
            resource.setrlimit(resource.RLIMIT_AS, before)
    except (ImportError, OSError, ValueError):
        pass  # no /proc or no rlimits: the time limit still holds
    try:
        pdf, warnings = _open_checked(data, name, request["password"], limits)
        try:
            memory = f"the memory limit of {limits.memory_mb} MB"
            if file is None:
                indices: Iterable[int] = range(pdf.page_count)
            elif queue is None:  # it would take every page, as the other workers do
                raise DocumentError(f"{name}: the extraction worker has no page queue to share the pages by")
            else:
                indices = _taken_pages(queue, int(file), pdf.page_count)
            pages = _extract_pages(pdf, name, indices, memory, spent)
        finally:
            if spent is None:
                pdf.close()
            else:  # closed with its pages' objects once the reply is out
                spent.append(pdf)
        return {"status": "ok", "warnings": warnings, "pages": pages}
    except QuotelocateError as exc:
        return {"status": "error", "error": type(exc).__name__, "message": str(exc)}
    except MemoryError:
        return {"status": "memory"}
    except Exception as exc:  # a bug or an unexpected mupdf failure: report, don't hang
        return {"status": "error", "error": "DocumentError", "message": f"{name}: extraction failed ({_short(exc)})"}
    finally:
        if restore is not None:
            try:
                restore()
            except (OSError, ValueError):
                pass


_PAGE_IN_MESSAGE = re.compile(r": page (\d+)")

WORKER_IDLE_SECONDS = 60.0
"""An extraction worker with no file to extract for this long exits; the next open
starts a new one. A worker forked from the caller shares the caller's memory as it was
at the fork, so it should not outlive a batch of work by much."""
WORKER_RECYCLE_MB = 1024
"""A worker whose resident memory has grown by more than this since it started exits
after its reply (freed memory that the allocator keeps is not given back otherwise)."""


def _resident_bytes() -> int:
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


PIPE_BYTES = 1 << 20
"""What a worker's request and reply pipes are widened to hold where the system allows
it (Linux, up to ``/proc/sys/fs/pipe-max-size``, 1 MiB by default), rather than 64 KiB:
a file or a reply of that size goes in with one write, so the writer does not wait on
the reader in 64 KiB steps (a second worker then starts on a 1 MB file while the first
is still reading it, rather than after)."""


def _widen(*fds: int) -> None:
    """Widen pipes to :data:`PIPE_BYTES` where the system allows it; else leave them."""
    try:
        import fcntl

        setting = fcntl.F_SETPIPE_SZ  # Linux only
    except (ImportError, AttributeError):
        return
    for fd in fds:
        try:
            fcntl.fcntl(fd, setting, PIPE_BYTES)
        except OSError:  # above the system's limit, or not a pipe: keep its size
            pass


def _send_all(fds: Sequence[int], parts: Sequence[bytes], deadline: float) -> None:
    """Write ``parts`` to every one of ``fds`` at once: whichever pipe has room takes its
    next piece, so each worker reads its copy of a file as fast as it can rather than
    after the workers before it have read theirs. A pipe whose worker has gone is
    dropped (its missing reply says so); one that takes nothing until ``deadline`` is
    left (its worker is stuck: the reply's time limit catches it)."""
    left = {fd: [memoryview(part) for part in parts if part] for fd in fds}
    blocking = {fd: os.get_blocking(fd) for fd in fds}
    try:
        for fd in fds:
            os.set_blocking(fd, False)
        while left:
            wait = deadline - time.monotonic()
            ready = select.select([], list(left), [], wait)[1] if wait > 0 else []
            if not ready:
                return
            for fd in ready:
                pending = left[fd]
                try:
                    pending[0] = pending[0][os.write(fd, pending[0]):]
                except BlockingIOError:
                    continue
                except OSError:  # it has gone
                    del left[fd]
                    continue
                if not pending[0]:
                    pending.pop(0)
                    if not pending:
                        del left[fd]
    finally:
        for fd, was in blocking.items():
            try:
                os.set_blocking(fd, was)
            except OSError:
                pass


def _serve_extraction(rfd: int, wfd: int, queue: tuple[int, int] | None = None) -> None:
    """An extraction worker's loop: a JSON request line and ``size`` bytes of PDF in;
    ``+`` out once they are read, then the reply: its length in decimal (followed by
    `` last`` when the worker exits after it), a newline, and :func:`_encode_reply` of
    :func:`_child_reply`. ``queue``: the read and write ends of the pool's page queue.
    Returns
    when the caller closes the request pipe, when no request comes for
    :data:`WORKER_IDLE_SECONDS`, after a file that hit a limit (the worker's heap is then
    suspect), or when the worker has grown too large."""
    inp = os.fdopen(rfd, "rb")
    start = _resident_bytes()
    while True:
        # one request at a time: nothing is buffered past a request while waiting
        if not select.select([rfd], [], [], WORKER_IDLE_SECONDS)[0]:
            return  # idle
        head = inp.readline()
        if not head:
            return  # closed by the caller
        try:
            request = json.loads(head)
            size = int(request["size"])
            data = inp.read(size)
        except (ValueError, TypeError, KeyError):
            return  # not our caller speaking
        if len(data) != size:
            return
        _write_all(wfd, b"+")  # the file is in: from here on, a death is the file's doing
        spent: list = []  # the pages' pymupdf objects, freed once the reply is out
        # the collector stays paused until those objects are freed: the extraction makes
        # many objects and no cycles, and a collection as it ends would walk every span
        # dict of every page still kept, 3-5 ms on a 14-page paper before the reply went out
        with collector_paused():
            try:
                reply = _child_reply(data, request, queue, spent)
                blob = _encode_reply(reply)
            except MemoryError:
                reply, blob = {"status": "memory"}, b'{"status": "memory"}\n'
            del data
            # a file that hit a limit may leave the heap large or suspect: then this is the
            # worker's last reply, and it says so (the caller must not send it another file)
            last = (reply.get("status") == "memory" or reply.get("error") == "ExtractionLimitError"
                    or _resident_bytes() - start > WORKER_RECYCLE_MB * 1024 * 1024)
            # the length line and the reply in one write: written apart, the caller woke
            # for the line alone, and a worker that lost its core between the two writes
            # (the other worker and the caller at work on two cores) kept the reply back
            # for a scheduler slice, two or three milliseconds
            _write_all(wfd, b"%d%s\n%s" % (len(blob), b" last" if last else b"", blob))
            # the pages' objects are freed now, after the reply went out and while the caller
            # reads it, not when the next file's reply takes the name (on that file's time)
            del blob, reply
            _release(spent)
        if last:
            return


def _serve_stdio(queue: tuple[int, int] | None = None) -> None:
    """The loop of a worker started as a new interpreter: requests on stdin, replies on
    a copy of stdout, and stdout itself pointed at stderr so that nothing printed in the
    worker can enter a reply. ``queue``: the page queue's ends, passed down open."""
    reply_fd = os.dup(1)
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
    _serve_extraction(0, reply_fd, queue)


class _Proc:
    """The caller's side of one extraction worker: its pid, the pipe its requests go
    into and the pipe its replies come out of (``popen`` when it was started as a new
    interpreter rather than forked)."""

    __slots__ = ("pid", "popen", "recv", "send")

    def __init__(self, pid: int, send: int, recv: int, popen: subprocess.Popen | None = None) -> None:
        self.pid, self.send, self.recv, self.popen = pid, send, recv, popen

    def close(self) -> None:
        """Close the pipes (once: a closed descriptor's number may belong to a new pipe)."""
        if self.popen is not None:
            streams = [self.popen.stdin, self.popen.stdout]
        else:
            streams = [fd for fd in (self.send, self.recv) if fd >= 0]
        self.send = self.recv = -1
        for stream in streams:
            try:
                if isinstance(stream, int):
                    os.close(stream)
                else:
                    stream.close()  # type: ignore[union-attr]
            except OSError:
                pass

    def exited(self) -> int | None:
        """The wait status once the worker has exited (it is reaped then), else None."""
        if self.popen is not None:
            code = self.popen.poll()
            if code is None:
                return None
            return (-code) & 0x7F if code < 0 else code << 8
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # reaped by someone else
            return 0
        return status if pid else None

    def stop(self) -> int:
        """Kill the worker, reap it and close its pipes: its wait status."""
        self.close()
        status = self.exited()
        if status is not None:
            return status
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self.popen is not None:
            code = self.popen.wait()
            return (-code) & 0x7F if code < 0 else code << 8
        try:
            return os.waitpid(self.pid, 0)[1]
        except ChildProcessError:
            return 0

    def wait(self, timeout: float) -> int:
        """The wait status of a worker whose reply pipe closed: it is exiting or has
        exited; killed when it has not done so within ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.exited()
            if status is not None:
                self.close()
                return status
            time.sleep(0.005)
        return self.stop()


class _Pool:
    """The extraction workers of this process: started on first use, kept between files
    (a worker that has extracted a file extracts the next one faster than a fresh
    fork, whose first touches of memory are copies), replaced when one dies, stalls past
    the time limit, runs out of memory or stays idle too long. One extraction at a time.

    A single-threaded caller forks its workers; with other threads running (the
    workbench), forking could copy a lock another thread holds, so the workers are
    started as new interpreters that import only this module instead.

    The workers of a file share its pages out through a queue pipe that every worker
    holds both ends of (:func:`_taken_pages`): each takes the next free page when it is
    through with one, rather than a fixed half, so one costly page does not leave a
    worker idle while the other works through the rest."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._procs: list[_Proc] = []
        self._owner = os.getpid()
        self._queue: tuple[int, int] | None = None  # the page queue's read and write ends
        self._files = 0  # files handed out through the queue, to number them
        self._forking = False  # a worker being forked keeps the queue _forget closes otherwise
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        """In a forked copy of this process: the workers are the original's; close this
        copy's ends of their pipes (so that they see the original go) and start afresh."""
        for proc in self._procs:
            proc.close()
        self._procs = []
        if self._forking:  # a worker of ours: it takes its pages from the queue
            self._queue = None
        else:
            self._close_queue()
        self._owner = os.getpid()
        self._lock = threading.Lock()

    def _close_queue(self) -> None:
        queue, self._queue = self._queue, None
        for fd in queue or ():
            try:
                os.close(fd)
            except OSError:
                pass

    def _queue_fds(self) -> tuple[int, int]:
        """The page queue, made before the first worker that inherits it."""
        if self._queue is None:
            self._queue = os.pipe()
        return self._queue

    def _drain(self) -> None:
        """Empty the page queue (no worker reads it between files): a token left over
        from the last file, or from one whose workers were stopped, must not reach the next."""
        if self._queue is None:
            return
        take = self._queue[0]
        while select.select([take], [], [], 0)[0]:
            if not os.read(take, 4096):
                break

    def stop(self) -> None:
        """Stop every worker (at exit, or to start new ones)."""
        if self._owner != os.getpid():
            self._forget()
            return
        procs, self._procs = self._procs, []
        for proc in procs:
            proc.stop()
        self._close_queue()

    def _start(self) -> _Proc:
        if threading.active_count() == 1:
            return self._fork()
        # import only this module and errors.py, not the package's __init__, and not
        # pymupdf's optional layout model or its LLM helpers (a faster start)
        package = str(Path(__file__).resolve().parent)
        queue = self._queue_fds()
        code = (
            "import sys, types; sys.modules.setdefault('pymupdf.layout', None); "
            "sys.modules.setdefault('pymupdf4llm', None); pkg = types.ModuleType('quotelocate'); "
            f"pkg.__path__ = [{package!r}]; sys.modules['quotelocate'] = pkg; "
            f"from quotelocate.document import _serve_stdio; _serve_stdio({queue!r})"
        )
        popen = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 pass_fds=queue)
        _widen(popen.stdin.fileno(), popen.stdout.fileno())  # type: ignore[union-attr]
        return _Proc(popen.pid, popen.stdin.fileno(), popen.stdout.fileno(), popen)  # type: ignore[union-attr]

    def _fork(self) -> _Proc:
        queue = self._queue_fds()
        to_child, from_parent = os.pipe()[::-1]
        from_child, to_parent = os.pipe()
        _widen(to_child, to_parent)
        self._forking = True
        try:
            pid = os.fork()
        except OSError:
            for fd in (to_child, from_parent, from_child, to_parent):
                os.close(fd)
            raise
        finally:
            self._forking = False
        if pid == 0:  # the worker
            code = 1  # a failure of the loop itself: the caller must not take it for an idle exit
            try:
                gc.freeze()  # a collection would touch (and so copy) every object of the caller
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
                os.close(to_child)
                os.close(from_child)
                # hold none of the caller's files (sockets, other workers' pipes) open
                keep = sorted({0, 1, 2, from_parent, to_parent, *queue})
                for a, b in zip(keep, keep[1:] + [1 << 20]):
                    os.closerange(a + 1, b)
                _serve_extraction(from_parent, to_parent, queue)
                code = 0
            finally:
                os._exit(code)
        os.close(from_parent)
        os.close(to_parent)
        return _Proc(pid, to_child, from_child)

    def _ready(self, n: int, name: str) -> list[_Proc]:
        """``n`` live workers, starting the missing ones."""
        procs = self._procs
        try:
            for i in range(n):
                if i == len(procs):
                    procs.append(self._start())
                elif procs[i].exited() is not None:  # went idle, was recycled or was killed
                    procs[i].close()
                    procs[i] = self._start()
        except OSError as exc:  # out of processes or file descriptors
            raise DocumentError(f"{name}: cannot start an extraction worker ({exc.strerror or exc})") from None
        return procs[:n]

    def run(self, request: dict, data: bytes, name: str, limits: Limits,
            early: Callable[[bytes], object] | None = None) -> dict:
        """Extract in the workers; their combined reply (``replies``: one blob each, as
        :func:`_decode_replies` reads them) or the error raised. ``early`` is called
        with each reply that is in while another worker is still at work, on time the
        caller would otherwise spend waiting; what it returns is in ``early``, by the
        replies' positions (None for a reply that came in last)."""
        with self._lock:
            if self._owner != os.getpid():
                self._forget()
            n = max(1, int(request.get("children") or _children()))
            for attempt in (1, 2):
                procs = self._ready(n, name)
                self._drain()  # before any worker of this file can read it
                part = {}  # one worker: every page
                if n > 1:
                    self._files = (self._files + 1) & 0xFFFFFFFF
                    part = {"file": self._files}
                    # the first page is free: a worker reads the token once it has the
                    # file, so the first to have it starts while the next is still sent
                    _write_all(self._queue_fds()[1], _TOKEN.pack(self._files, 0))
                header = json.dumps({**request, **part, "size": len(data)}).encode() + b"\n"
                # a worker that has gone leaves its reply pipe unacknowledged, as below
                deadline = time.monotonic() + float(limits.seconds)
                _send_all([proc.send for proc in procs], [header, data], deadline)
                reply = self._collect(procs, max(0.0, deadline - time.monotonic()), early)
                # a worker that went (idle, or killed from outside) before it had read the
                # file, whether or not it was sent in full: once more, with a new one
                if reply.get("status") != "retry" or attempt == 2:
                    break
        if reply.get("status") == "retry":
            reply = {"status": "signal", "signal": 0}
        return _check_reply(reply, name, limits)

    def _drop(self, proc: _Proc) -> None:
        proc.stop()
        if proc in self._procs:
            self._procs.remove(proc)

    def _collect(self, procs: list[_Proc], seconds: float, early: Callable[[bytes], object] | None = None) -> dict:
        """Read every worker's reply until the time limit: the combined reply, or the
        first failure (a limit, or the error of the lowest page). ``early``: see
        :meth:`run`."""
        deadline = time.monotonic() + seconds
        fds = [proc.recv for proc in procs]  # the keys: a worker's pipes are closed once it is reaped
        bufs = {fd: bytearray() for fd in fds}
        want: dict[int, int] = {}  # fd -> bytes in the whole reply, once its length is read
        last: set[int] = set()  # fds of workers that exit after this reply
        acked: set[int] = set()  # fds of workers that have read the file
        done: dict[int, bytes] = {}
        ahead: dict[int, object] = {}  # fd -> what ``early`` made of its reply
        dead: dict[int, int] = {}  # fd -> wait status of a worker that died
        waiting = {proc.recv: proc for proc in procs}
        while waiting:
            left = deadline - time.monotonic()
            ready = select.select(list(waiting), [], [], left)[0] if left > 0 else []
            if not ready:
                for proc in waiting.values():
                    self._drop(proc)
                return {"status": "timeout"}
            for fd in ready:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    proc = waiting.pop(fd)
                    dead[fd] = proc.wait(1.0)
                    if proc in self._procs:
                        self._procs.remove(proc)
                    continue
                buf = bufs[fd]
                if fd not in acked:
                    acked.add(fd)
                    if chunk[:1] != b"+":  # out of step: not a worker of ours
                        self._drop(waiting.pop(fd))
                        done[fd] = b"not a reply\n"
                        continue
                    chunk = chunk[1:]
                buf += chunk
                if fd not in want and b"\n" in buf:
                    head, _, _ = bytes(buf[:32]).partition(b"\n")
                    size, _, flag = head.partition(b" ")
                    try:
                        want[fd] = len(head) + 1 + int(size) if flag in (b"", b"last") else -1
                    except ValueError:
                        want[fd] = -1
                    if flag == b"last":
                        last.add(fd)
                if fd in want and (want[fd] < 0 or len(buf) >= want[fd]):
                    if want[fd] < 0 or len(buf) != want[fd]:
                        self._drop(waiting.pop(fd))  # out of step: not a reply of ours
                        done[fd] = b"not a reply\n"
                        continue
                    done[fd] = bytes(buf[buf.index(b"\n") + 1 :])
                    proc = waiting.pop(fd)
                    if fd in last:
                        proc.wait(5.0)
                        if proc in self._procs:
                            self._procs.remove(proc)
                    if early is not None and waiting:
                        ahead[fd] = early(done[fd])
        for fd in fds:
            if fd in dead and fd not in acked:
                # it went (idle, or killed from outside) before it had read the file
                return {"status": "retry"}
        replies, blobs = [], []
        for fd in fds:
            if fd in dead:
                status = dead[fd]
                sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
                return {"status": "signal", "signal": sig}  # died before it could answer
            blob = done[fd]
            try:
                replies.append(_reply_header(blob))
            except ValueError:
                return {"status": "signal", "signal": 0}
            blobs.append(blob)
        failed = [r for r in replies if r.get("status") != "ok"]
        if failed:
            errors = [r for r in failed if r.get("status") == "error"]
            if not errors:
                return failed[0]

            def page(reply: dict) -> int:
                m = _PAGE_IN_MESSAGE.search(str(reply.get("message", "")))
                return int(m.group(1)) if m else 0

            return min(errors, key=page)
        return {"status": "ok", "replies": blobs, "early": [ahead.get(fd) for fd in fds]}


def _check_reply(reply: dict, name: str, limits: Limits) -> dict:
    status = reply.get("status")
    if status == "ok":
        return reply
    if status == "error":
        raise _ERRORS.get(reply.get("error"), DocumentError)(str(reply.get("message")))
    raise ExtractionLimitError(_limit_message(name, limits, reply))


_POOL = _Pool()
atexit.register(_POOL.stop)
