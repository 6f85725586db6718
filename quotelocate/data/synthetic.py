"""The synthetic paper: a generated PDF with known extraction artifacts, and its quote set.

This module owns the embedded default dataset ``synthetic``: a five-page fictional
paper ("Sparse Lattice Attention for Tide Forecasting") laid out line by line, so every
artifact is placed on purpose and the ground truth is exact, plus the quote set that
labels quotes against it. Besides :mod:`quotelocate.document` it is the only module that
imports pymupdf (to draw the PDF).

What the paper contains (the layout is fixed; a test pins it):

* ligature glyphs U+FB00 ff, U+FB01 fi, U+FB02 fl and U+FB03 ffi inside words, drawn
  with an embedded Times font, so pymupdf extracts the ligature code points;
* end-of-line hyphens of both kinds at explicit line ends: discretionary ones that
  must be dropped when the lines are joined (``computa-`` / ``tion``) and real ones
  in compounds that must be kept (``state-`` / ``of-the-art``);
* a running header on every page, a page number at the bottom of every page and a
  rotated arXiv-style stamp in the left margin of page 1 that interrupts a sentence
  in the extracted text;
* sentences that cross page breaks, one interrupted only by the page number and the
  header, one also by a footnote;
* a table with its caption between the two halves of a body sentence;
* a two-column page whose sentences wrap from the bottom of the left column to the
  top of the right one;
* smart quotes, ``10²``, ``½``, citation markers like ``[12]`` and a ``[^3]`` marker.

The paper's content and the quote specs are data in this module; the quote set's
anchors are computed from the text that :class:`~quotelocate.document.Document`
extracts from the generated PDF, so neither file is edited by hand. Generation is
byte-for-byte deterministic for a given pymupdf/MuPDF version: no dates, no random
document id, fonts subset the same way every time.

Every faithful quote is checked while the set is built: the quote, as a model would
write it (single spaces, ligatures spelled out, hyphen breaks joined the right way,
straight quotes where it says so, page furniture left out), must occur exactly once
in the paper's reading flows, and its tags must equal the artifacts its raw span
actually crosses. Every fabricated quote is checked not to occur in the paper under a
generous normalization (NFKC, straight quotes, whitespace collapsed).

>>> spec = FaithfulSpec("x-1", "Sparse Lattice Attention for Tide Forecasting", ("plain",))
>>> spec.label
'faithful'
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

import pymupdf

from .quoteset import FABRICATED_TAGS, FAITHFUL_TAGS, Anchor, Paper, Quote, TextPin, quote_set_yaml
from .synthetic_content import (
    CONTENT,
    HEADER_TEXT,
    INSERTS,
    Columns,
    Element,
    FaithfulSpec,
    Footnote,
    Heading,
    Insert,
    Para,
    QuoteSpec,
    Stamp,
    Table,
    Title,
    all_specs,
)
from ..chunks import Chunking, group_of, group_span, make_chunks
from ..document import PAGE_SEPARATOR, Document
from ..errors import ConfigError
from ..normalize import LIGATURES

# -- constants ----------------------------------------------------------------------

SET_NAME = "synthetic"
PDF_NAME = "synthetic.pdf"
YAML_NAME = "synthetic.yaml"
PAPER_URL = "file:datasets/synthetic/synthetic.pdf"
PAPER_VERSION = "1"
CHUNKING = Chunking(size=512, overlap=64, group_size=3)


PAGE_WIDTH = 432.0  # 6 x 9 inches
PAGE_HEIGHT = 648.0
MARGIN_X = 54.0
BODY_TOP = 66.0  # top of the first body line box
BODY_BOTTOM = 596.0  # no body baseline below this (less the footnote area)
HEADER_BASELINE = 40.0
PAGE_NUMBER_BASELINE = 622.0
COLUMN_GAP = 14.0

BODY_SIZE = 10.5
BODY_LEADING = 13.0
COLUMN_SIZE = 10.0
COLUMN_LEADING = 12.2
FOOTNOTE_SIZE = 8.0
FOOTNOTE_LEADING = 9.6
SUP_SCALE = 0.68
SUP_RISE = 3.6

SMART_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}

CHUNK_TAGS = frozenset({"chunk-boundary", "neighbour-chunk"})

# Fonts: pymupdf's built-in Nimbus (Times) faces, embedded and subset so the
# ligature glyphs get a ToUnicode entry of their own.
FONTS = {"F0": "tiro", "F1": "tibo", "F2": "tiit"}
_FONT_CACHE: dict[str, pymupdf.Font] = {}


def _font(key: str) -> pymupdf.Font:
    if key not in _FONT_CACHE:
        _FONT_CACHE[key] = pymupdf.Font(FONTS[key])
    return _FONT_CACHE[key]


def _width(text: str, font: str, size: float) -> float:
    return _font(font).text_length(text, fontsize=size)


# -- layout -------------------------------------------------------------------------


@dataclass(frozen=True)
class LineRecord:
    """One line as drawn: ``kind`` is its reading flow, ``element`` the element it
    belongs to, ``frame`` the (page, column) it sits in, ``end`` how it joins the next
    line of the same element (``space``, ``soft`` hyphen, ``hard`` hyphen, ``end``)."""

    page: int
    frame: tuple[int, int]
    kind: str
    element: int
    text: str
    end: str
    markers: tuple[int, ...] = ()  # positions in ``text`` of raised footnote markers


@dataclass
class _Token:
    text: str
    brk: str = ""  # "", "space", "soft", "hard"
    sup: str = ""
    inserts: list[str] = field(default_factory=list)


_INSERT_RE = re.compile(r"^\{\{(\w+)\}\}$")
_SUP_RE = re.compile(r"^(.*\S)\^(\d)$")


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    for piece in text.split():
        if piece == "|":
            out[-1].brk = "space"
            continue
        m = _INSERT_RE.match(piece)
        if m:
            out[-1].inserts.append(m.group(1))
            continue
        parts = re.split(r"(~\||-\|)", piece)
        for i in range(0, len(parts), 2):
            word = parts[i]
            tok = _Token(word)
            if i + 1 < len(parts):
                tok.text = word + "-"
                tok.brk = "soft" if parts[i + 1] == "~|" else "hard"
            sm = _SUP_RE.match(tok.text)
            if sm:
                tok.text, tok.sup = sm.group(1), sm.group(2)
            out.append(tok)
    return out


class _Layout:
    """Draws the content page by page and records every line in reading order."""

    def __init__(self) -> None:
        self.doc = pymupdf.open()
        self.lines: list[LineRecord] = []
        self.page: pymupdf.Page | None = None
        self.page_no = 0
        self.columns = 1
        self.column = 0
        self.y = BODY_TOP
        self.bottom = BODY_BOTTOM
        self.footnotes: list[Footnote] = []
        self.element = 0
        self.floats = 0
        self.column_top = BODY_TOP

    # geometry
    def _frame_x(self) -> tuple[float, float]:
        if self.columns == 1:
            return MARGIN_X, PAGE_WIDTH - MARGIN_X
        width = (PAGE_WIDTH - 2 * MARGIN_X - COLUMN_GAP) / 2
        x0 = MARGIN_X + self.column * (width + COLUMN_GAP)
        return x0, x0 + width

    def _draw(self, x: float, y: float, text: str, font: str, size: float, *, rotate: int = 0,
              color: tuple[float, float, float] | None = None) -> None:
        assert self.page is not None
        self.page.insert_text((x, y), text, fontname=font, fontsize=size, rotate=rotate, color=color)

    def _record(self, kind: str, text: str, end: str = "end", element: int | None = None,
                markers: tuple[int, ...] = ()) -> None:
        self.lines.append(
            LineRecord(
                page=self.page_no,
                frame=(self.page_no, self.column),
                kind=kind,
                element=self.element if element is None else element,
                text=text,
                end=end,
                markers=markers,
            )
        )

    # pages and frames
    def new_page(self) -> None:
        if self.page is not None:
            self.finish_page()
        self.page = self.doc.new_page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
        for name in FONTS:
            self.page.insert_font(fontname=name, fontbuffer=_font(name).buffer)
        self.page_no += 1
        self.column = 0
        self.y = BODY_TOP
        self.bottom = BODY_BOTTOM
        self.footnotes = []
        w = _width(HEADER_TEXT, "F2", 8.5)
        self._draw((PAGE_WIDTH - w) / 2, HEADER_BASELINE, HEADER_TEXT, "F2", 8.5)
        self.page.draw_line((MARGIN_X, HEADER_BASELINE + 5), (PAGE_WIDTH - MARGIN_X, HEADER_BASELINE + 5),
                            width=0.4)
        self._record("running-header", HEADER_TEXT, element=-1)

    def finish_page(self) -> None:
        assert self.page is not None
        if self.footnotes:
            x0, x1 = MARGIN_X, PAGE_WIDTH - MARGIN_X
            lines: list[tuple[str, str]] = []
            for note in self.footnotes:
                for i, line in enumerate(self._wrap_plain(note.text, "F0", FOOTNOTE_SIZE, x1 - x0 - 6)):
                    lines.append((note.marker if i == 0 else "", line))
            y = PAGE_NUMBER_BASELINE - 16 - FOOTNOTE_LEADING * (len(lines) - 1)
            rule_y = y - FOOTNOTE_LEADING - 1
            self.page.draw_line((x0, rule_y), (x0 + 90, rule_y), width=0.4)
            sup_size = FOOTNOTE_SIZE * SUP_SCALE
            for marker, line in lines:
                if marker:  # raised, and flush with the text so it extracts as "1The ..."
                    sup_x = x0 + 6 - _width(marker, "F0", sup_size) - 0.4
                    self._draw(sup_x, y - SUP_RISE * 0.8, marker, "F0", sup_size)
                self._draw(x0 + 6, y, line, "F0", FOOTNOTE_SIZE)
                self._record("footnote", marker + line, end="space", element=100_000 + self.page_no,
                             markers=(0,) if marker else ())
                y += FOOTNOTE_LEADING
            self._fix_last_end()
        number = str(self.page_no)
        w = _width(number, "F0", 9.0)
        self._draw((PAGE_WIDTH - w) / 2, PAGE_NUMBER_BASELINE, number, "F0", 9.0)
        self._record("page-number", number, element=-2)

    def _fix_last_end(self) -> None:
        self.lines[-1] = replace(self.lines[-1], end="end")

    def next_frame(self) -> None:
        if self.columns == 2 and self.column == 0:
            self.column = 1
            self.y = self.column_top
        else:
            self.new_page()
            self.column_top = BODY_TOP

    # elements
    def title(self, el: Title) -> None:
        self.element += 1
        self.y += el.space_before
        w = _width(el.text, el.font, el.size)
        self.y += el.size
        self._draw((PAGE_WIDTH - w) / 2, self.y, el.text, el.font, el.size)
        self._record("title", el.text)
        self.y += el.space_after

    def heading(self, el: Heading) -> None:
        self.element += 1
        if self.y + el.space_before + el.size + 2 * BODY_LEADING > self.bottom:
            self.next_frame()
        elif self.y > BODY_TOP:
            self.y += el.space_before
        self.y += el.size
        x0, _ = self._frame_x()
        self._draw(x0, self.y, el.text, "F1", el.size)
        self._record("heading", el.text)
        self.y += el.space_after

    def columns_(self, el: Columns) -> None:
        if self.y > BODY_TOP:
            self.new_page()
        self.columns = el.count
        self.column = 0
        self.column_top = self.y

    def para(self, el: Para) -> None:
        self.element += 1
        size = el.size or (COLUMN_SIZE if self.columns == 2 else BODY_SIZE)
        leading = size * (COLUMN_LEADING / COLUMN_SIZE if self.columns == 2 else BODY_LEADING / BODY_SIZE)
        tokens = _tokens(el.text)
        space = _width(" ", "F0", size)
        first = True
        i = 0
        while i < len(tokens):
            x0, x1 = self._frame_x()
            x0 += el.inset
            x1 -= el.inset
            indent = 12.0 if first and el.indent else 0.0
            line: list[_Token] = []
            width = indent
            while i < len(tokens):
                tok = tokens[i]
                w = _width(tok.text, "F0", size) + (_width(tok.sup, "F0", size * SUP_SCALE) if tok.sup else 0)
                add = w + (space if line else 0)
                if line and width + add > x1 - x0:
                    break
                line.append(tok)
                width += add
                i += 1
                if tok.brk:
                    break
            if self.y + leading > self.bottom:
                self.next_frame()
            self.y += leading
            last = line[-1]
            end = last.brk if last.brk in ("soft", "hard") else ("end" if i == len(tokens) else "space")
            self._line(line, x0 + indent, self.y, size, end)
            first = False
            for tok in line:
                for name in tok.inserts:
                    if name == "break":
                        if self.bottom - self.y > 2 * leading:
                            raise RuntimeError(f"break on page {self.page_no} leaves the frame half empty")
                        self.next_frame()
                    else:
                        self._insert(INSERTS[name])
        self.y += el.space_after

    def _line(self, toks: Sequence[_Token], x: float, y: float, size: float, end: str) -> None:
        text = ""
        markers: list[int] = []
        pending = ""
        for j, tok in enumerate(toks):
            pending += ("" if j == 0 else " ") + tok.text
            if tok.sup:
                self._draw(x, y, pending, "F0", size)
                x += _width(pending, "F0", size)
                text += pending
                markers.append(len(text))
                sup_size = size * SUP_SCALE
                self._draw(x, y - SUP_RISE, tok.sup, "F0", sup_size)
                x += _width(tok.sup, "F0", sup_size)
                text += tok.sup
                pending = ""
        if pending:
            self._draw(x, y, pending, "F0", size)
            text += pending
        self._record("body", text, end=end, markers=tuple(markers))

    def _insert(self, ins: Insert) -> None:
        if isinstance(ins, Stamp):
            self._draw(ins.x, ins.y, ins.text, "F0", ins.size, rotate=90, color=(0.45, 0.45, 0.45))
            self._record("margin-stamp", ins.text, element=-3)
        elif isinstance(ins, Footnote):
            self.footnotes.append(ins)
            n = len(self._wrap_plain(ins.text, "F0", FOOTNOTE_SIZE, PAGE_WIDTH - 2 * MARGIN_X - 6))
            self.bottom -= FOOTNOTE_LEADING * n + 8
            if self.y > self.bottom:
                raise RuntimeError(f"footnote {ins.marker} does not fit on page {self.page_no}")
        else:
            self._table(ins)

    def _table(self, table: Table) -> None:
        assert self.page is not None
        x0, x1 = self._frame_x()
        self.floats += 1
        caption = self._wrap_plain(table.caption, "F0", 9.0, x1 - x0)
        height = 9.0 + 11 * len(caption) + 6 + 12.5 * len(table.rows) + 8
        if self.y + height > self.bottom:
            raise RuntimeError(f"table does not fit on page {self.page_no}")
        self.y += 6
        for j, line in enumerate(caption):
            self.y += 11
            self._draw(x0, self.y, line, "F0", 9.0)
            self._record("caption", line, end="space" if j < len(caption) - 1 else "end",
                         element=200_000 + self.floats)
        self.y += 4
        self.page.draw_line((x0, self.y), (x1, self.y), width=0.8)
        for r, row in enumerate(table.rows):
            self.y += 12.5
            for c, cell in enumerate(row):
                self._draw(x0 + table.columns[c], self.y, cell, "F1" if r == 0 else "F0", 9.0)
                self._record("table", cell, element=300_000 + self.floats)
            if r == 0:
                self.page.draw_line((x0, self.y + 3.5), (x1, self.y + 3.5), width=0.4)
        self.y += 4
        self.page.draw_line((x0, self.y), (x1, self.y), width=0.8)
        self.y += 8

    @staticmethod
    def _wrap_plain(text: str, font: str, size: float, width: float) -> list[str]:
        lines: list[str] = []
        cur = ""
        for word in text.split():
            cand = f"{cur} {word}" if cur else word
            if cur and _width(cand, font, size) > width:
                lines.append(cur)
                cur = word
            else:
                cur = cand
        if cur:
            lines.append(cur)
        return lines

    def build(self, content: Sequence[Element]) -> bytes:
        self.column_top = BODY_TOP
        self.new_page()
        for el in content:
            if isinstance(el, Title):
                self.title(el)
            elif isinstance(el, Heading):
                self.heading(el)
            elif isinstance(el, Para):
                self.para(el)
            elif isinstance(el, Columns):
                self.columns_(el)
            else:  # pragma: no cover - the content table is fixed
                raise TypeError(f"unknown element {el!r}")
        self.finish_page()
        self.doc.set_metadata(
            {
                "title": "Sparse Lattice Attention for Tide Forecasting (synthetic test paper)",
                "author": "quotelocate",
                "subject": "",
                "keywords": "",
                "creator": "quotelocate.synth",
                "producer": "quotelocate.synth",
                "creationDate": "",
                "modDate": "",
            }
        )
        for page in self.doc:
            page.clean_contents()  # one content stream per page instead of one per line
        self.doc.subset_fonts()
        data = self.doc.tobytes(garbage=4, deflate=True, no_new_id=True)
        self.doc.close()
        return data


def expected_text(lines: Sequence[LineRecord]) -> str:
    """The text pymupdf must extract: lines in drawing order, pages joined by ``\\f``."""
    pages: dict[int, list[str]] = {}
    for ln in lines:
        pages.setdefault(ln.page, []).append(ln.text + "\n")
    return PAGE_SEPARATOR.join("".join(pages[p]) for p in sorted(pages))


# -- reading flows ------------------------------------------------------------------


@dataclass(frozen=True)
class Flow:
    """One reading flow (body, footnotes, captions, ...) as a model would read it.

    ``text`` has ligatures spelled out and hyphen breaks joined; ``raw[i]`` is the
    offset in :attr:`Document.text` of the character ``text[i]`` came from.
    ``text`` uses ``\\x00`` between elements and ``\\x01`` for raised markers, so no
    quote can silently span them.
    """

    kind: str
    text: str
    raw: tuple[int, ...]


def _line_offsets(lines: Sequence[LineRecord]) -> list[int]:
    out: list[int] = []
    offset = 0
    page = lines[0].page if lines else 1
    for ln in lines:
        if ln.page != page:
            offset += len(PAGE_SEPARATOR)
            page = ln.page
        out.append(offset)
        offset += len(ln.text) + 1
    return out


def reading_flows(lines: Sequence[LineRecord]) -> dict[str, Flow]:
    """Join each kind's lines into its reading flow with a raw-offset map."""
    offsets = _line_offsets(lines)
    texts: dict[str, list[str]] = {}
    maps: dict[str, list[int]] = {}
    prev: dict[str, LineRecord] = {}
    for ln, start in zip(lines, offsets):
        t, m = texts.setdefault(ln.kind, []), maps.setdefault(ln.kind, [])
        before = prev.get(ln.kind)
        if before is not None:
            if before.element != ln.element or before.end == "end":
                t.append("\x00")
                m.append(start - 1)
            elif before.end == "space":
                t.append(" ")
                m.append(start - 1)  # the newline (or page furniture) stands for the space
            elif before.end == "soft":
                t.pop()  # the drawn hyphen goes
                m.pop()
        for j, ch in enumerate(ln.text):
            if j in ln.markers:
                ch = "\x01"
            for out_ch in LIGATURES.get(ch, ch):
                t.append(out_ch)
                m.append(start + j)
        prev[ln.kind] = ln
    return {kind: Flow(kind, "".join(texts[kind]), tuple(maps[kind])) for kind in texts}


def _straight(text: str) -> str:
    return "".join(SMART_QUOTES.get(c, c) for c in text)


def _fold(text: str) -> str:
    """The generous comparison form fabricated quotes are checked against."""
    text = unicodedata.normalize("NFKC", _straight(text)).replace("\x01", "")
    return re.sub(r"\s+", " ", text.replace("\x00", " ")).strip()


# -- quote set ----------------------------------------------------------------------


class SpecError(ValueError):
    """A quote spec does not fit the generated paper (a bug in this module's data)."""


def _locate(spec_text: str, flows: dict[str, Flow]) -> tuple[Flow, int, int]:
    """Find ``spec_text`` exactly once across the flows; return flow and flow span."""
    needle = _straight(spec_text)
    hits: list[tuple[Flow, int]] = []
    for flow in flows.values():
        hay = _straight(flow.text)
        pos = hay.find(needle)
        while pos >= 0:
            hits.append((flow, pos))
            pos = hay.find(needle, pos + 1)
    if len(hits) != 1:
        raise SpecError(f"{spec_text[:60]!r}: found {len(hits)} times in the paper's reading flows")
    flow, pos = hits[0]
    return flow, pos, pos + len(needle)


def _artifact_tags(flow: Flow, fstart: int, fend: int, quote: str, doc_text: str,
                   lines: Sequence[LineRecord]) -> set[str]:
    raw_start, raw_end = flow.raw[fstart], flow.raw[fend - 1] + 1
    raw = doc_text[raw_start:raw_end]
    tags: set[str] = set()
    if "\x01" in flow.text[fstart:fend]:
        raise SpecError(f"{quote[:60]!r}: spans a raised footnote marker")
    if any(c in LIGATURES for c in raw):
        tags.add("ligature")
    if any(c in SMART_QUOTES for c in raw) and not any(c in SMART_QUOTES for c in quote):
        tags.add("smart-quote")
    if any(unicodedata.normalize("NFKC", c) != c for c in raw if c not in LIGATURES):
        tags.add("nfkc")
    if PAGE_SEPARATOR in raw:
        tags.add("page-break")
    offsets = _line_offsets(lines)
    inside = [i for i, off in enumerate(offsets) if raw_start <= off + len(lines[i].text) and off < raw_end]
    main = [i for i in inside if lines[i].kind == flow.kind]
    for i in inside:
        kind = lines[i].kind
        if kind != flow.kind:
            tags.add(kind)
            if kind in ("table", "caption"):
                tags.add("float-interleave")
        elif kind in ("footnote", "caption"):
            tags.add(kind)
    for i, j in zip(main, main[1:]):
        a, b = lines[i], lines[j]
        if a.end == "soft":
            tags.add("hyphen-drop")
        elif a.end == "hard":
            tags.add("hyphen-keep")
        elif a.frame == b.frame and j == i + 1:
            tags.add("linebreak")
        if a.frame[0] == b.frame[0] and a.frame[1] != b.frame[1]:
            tags.add("two-column")
    tags.discard("body")
    if not tags:
        tags.add("plain")
    return tags


def build_quotes(doc: Document, lines: Sequence[LineRecord],
                 specs: Sequence[QuoteSpec]) -> list[Quote]:
    """Anchor, tag-check and cite every spec against the generated paper."""
    flows = reading_flows(lines)
    chunks = make_chunks(doc.text, CHUNKING)

    def holding(start: int, end: int) -> list[int]:
        return [c.index for c in chunks if c.start <= start and end <= c.end]

    folded_flows = [_fold(f.text) for f in flows.values()]
    folded_raw = _fold(doc.text)
    seen: set[str] = set()
    out: list[Quote] = []
    for spec in specs:
        if spec.id in seen:
            raise SpecError(f"{spec.id}: duplicate id")
        seen.add(spec.id)
        allowed = FAITHFUL_TAGS if isinstance(spec, FaithfulSpec) else FABRICATED_TAGS
        bad = set(spec.tags) - set(allowed)
        if bad or not spec.tags:
            raise SpecError(f"{spec.id}: tags {sorted(bad) or '[]'} not allowed for {spec.label}")
        if isinstance(spec, FaithfulSpec):
            flow, fs, fe = _locate(spec.text, flows)
            start, end = flow.raw[fs], flow.raw[fe - 1] + 1
            tags = _artifact_tags(flow, fs, fe, spec.text, doc.text, lines)
            chunk_tags = set(spec.tags) & CHUNK_TAGS
            if tags | chunk_tags != set(spec.tags):
                raise SpecError(
                    f"{spec.id}: tags {sorted(spec.tags)} but the span has {sorted(tags | chunk_tags)}"
                )
            holders = holding(start, end)
            if "chunk-boundary" in chunk_tags:
                if holders:
                    raise SpecError(f"{spec.id}: tagged chunk-boundary but chunk {holders[0]} holds it")
                cited = max(c.index for c in chunks if c.start <= start)
            elif not holders:
                raise SpecError(f"{spec.id}: no single chunk holds [{start}, {end}); tag it chunk-boundary")
            else:
                cited = holders[0] + spec.cite
                if ("neighbour-chunk" in chunk_tags) != (spec.cite != 0) or (spec.cite and cited in holders):
                    raise SpecError(f"{spec.id}: cite {spec.cite} does not match its neighbour-chunk tag")
            g0, g1 = group_span(chunks, group_of(cited, CHUNKING.group_size), CHUNKING.group_size)
            if not (g0 <= start and end <= g1):
                raise SpecError(f"{spec.id}: [{start}, {end}) is outside the group of chunk {cited}")
            anchor = Anchor(doc.page_at(start), start, end, doc.text[start:end])
            out.append(Quote(spec.id, spec.text, "faithful", tuple(spec.tags), cited, anchor, spec.note))
        else:
            folded = _fold(spec.text)
            if "trivial" not in spec.tags and (
                any(folded in f for f in folded_flows) or folded in folded_raw
            ):
                raise SpecError(f"{spec.id}: fabricated quote occurs in the paper")
            cited = None
            if spec.near is not None:
                flow, fs, fe = _locate(spec.near, flows)
                cited = holding(flow.raw[fs], flow.raw[fs] + 1)[0]
            out.append(Quote(spec.id, spec.text, "fabricated", tuple(spec.tags), cited, None, spec.note))
    return out


# -- output -------------------------------------------------------------------------


@dataclass(frozen=True)
class SyntheticPaper:
    """The generated paper: PDF bytes, line records, extracted document and quotes."""

    pdf: bytes
    lines: tuple[LineRecord, ...]
    document: Document
    quotes: tuple[Quote, ...]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.pdf).hexdigest()

    def yaml_text(self) -> str:
        return synthetic_yaml(self)


def build_pdf() -> tuple[bytes, tuple[LineRecord, ...]]:
    """Draw the paper; return the PDF bytes and every line in drawing order."""
    layout = _Layout()
    data = layout.build(CONTENT)
    return data, tuple(layout.lines)


def build_synthetic(*, specs: Sequence[QuoteSpec] | None = None) -> SyntheticPaper:
    """Generate the paper in memory and build its quote set (nothing is written)."""
    data, lines = build_pdf()
    doc = Document.from_pdf_bytes(data, name=PDF_NAME)
    want = expected_text(lines)
    if doc.text != want:
        at = next((i for i, (a, b) in enumerate(zip(doc.text, want)) if a != b),
                  min(len(doc.text), len(want)))
        raise SpecError(
            f"extracted text differs from the drawn lines at offset {at}: "
            f"{doc.text[max(0, at - 40):at + 40]!r} vs {want[max(0, at - 40):at + 40]!r}"
        )
    quotes = build_quotes(doc, lines, all_specs() if specs is None else specs)
    return SyntheticPaper(data, lines, doc, tuple(quotes))


def synthetic_yaml(paper: SyntheticPaper) -> str:
    """The quote set file (format 1) for ``paper``, as text."""
    fp = paper.document.text_fingerprint
    pin = Paper(
        file=PDF_NAME,
        sha256=paper.sha256,
        url=PAPER_URL,
        version=PAPER_VERSION,
        text=TextPin(str(fp["extractor"]), str(fp["extractor_version"]), int(fp["flags"]), str(fp["sha256"])),
    )
    return quote_set_yaml(
        name=SET_NAME,
        description=(
            "Synthetic five-page paper with every PDF extraction artifact placed on purpose "
            "and exact ground truth. Generated with pymupdf "
            f"{pymupdf.VersionBind} (MuPDF {pymupdf.VersionFitz})."
        ),
        paper=pin,
        chunking=CHUNKING,
        quotes=paper.quotes,
        header="Generated by quotelocate.data.synthetic (quotelocate synth); do not edit by hand.",
    )


def write_synthetic(out_dir: Path, *, force: bool = False) -> list[Path]:
    """Write ``synthetic.pdf`` and ``synthetic.yaml`` into ``out_dir``; return both paths.

    The output is the same bytes on every run with the same pymupdf/MuPDF version.
    An existing file with other content is never overwritten unless ``force`` is set
    (:class:`~quotelocate.errors.ConfigError` names it); identical files are left alone.
    """
    paper = build_synthetic()
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"{out}: exists and is not a folder")
    files = {out / PDF_NAME: paper.pdf, out / YAML_NAME: paper.yaml_text().encode("utf-8")}
    differing = [p for p, data in files.items() if p.exists() and p.read_bytes() != data]
    if differing and not force:
        names = ", ".join(str(p) for p in differing)
        raise ConfigError(f"{names}: exists with other content; not overwritten (use --force to replace it)")
    out.mkdir(parents=True, exist_ok=True)
    for path, data in files.items():
        if not path.exists() or path.read_bytes() != data:
            tmp = path.with_name(f".{path.name}.part")
            tmp.write_bytes(data)
            os.replace(tmp, path)
    return list(files)

