"""Layout-aware reading order: split each PDF page into flows by its geometry.

:func:`reading_order` is what ``Rules(layout=True)`` starts from. It uses only the line
geometry in :attr:`Document.lines` (font size against the document's body size,
position on the page, writing direction, repetition across pages, blocks) to give every
line a :class:`Role`:

``body``       the running text, read column by column and stitched across all pages;
``footnote``   small-font notes at the bottom of a column, each starting with a marker;
``caption``    a "Figure N:" / "Table N:" paragraph;
``float``      text inside a figure or table next to a caption, rotated text inside the
               page, small short labels and runs of tabular rows;
``furniture``  page numbers, running headers and footers, margin stamps (dropped; the
               rules and thresholds are in :mod:`quotelocate.furniture`);
``blank``      lines with no visible text.

A page whose text mostly runs up or down (a landscape table page) is turned before it is
classified; a text in smaller type beside a column (a sidebar) is a float; notes at a
column's foot without a marker are footnotes when a gap sets them apart, and a note that
continues in the next column or on the next page joins its flow; a drop cap is read
glued to the word it starts; a two-column page whose columns both stop and resume in
smaller type (short columns over a reference list) is read band by band.

The result is a :class:`~quotelocate.normalize.Normalized` whose text is the body flow
followed by every other flow, each fenced by :data:`~quotelocate.normalize.BARRIER` so
no quote can run from one flow into another. Every character maps back to its offset in
:attr:`Document.text`; separators this module inserts map to an empty span at the end of
the piece before them and carry the ``LAYOUT`` flag, and the first character after every
jump in the original text carries a ``LAYOUT`` gap so a match over it is reported as
several spans.

Documents without geometry (plain text, Markdown) are read as they are:

>>> from quotelocate.document import Document
>>> reading_order(Document.from_text("No geometry here.")).text
'No geometry here.'
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass
from operator import attrgetter
from typing import Iterable, Sequence

from .document import Document, Line, turned_line
from .furniture import (
    EDGE_BAND,
    EDGE_ROWS,
    MIN_KEY_CHARS,
    PAGE_NUMBER_MIN_VOTES,
    RECUR_MIN_PAGES,
    RECUR_SIZE_TOLERANCE,
    RECUR_Y_TOLERANCE,
    in_side_margin,
    is_line_numbering,
    is_vertical,
    recurs,
)
from .normalize import BARRIER, LAYOUT, Normalized, NormalizedArrays, _Scan

LAYOUT_VERSION = 5
"""Bumped whenever the reading order this module builds changes; part of its cache key."""

BODY = "body"
FOOTNOTE = "footnote"
CAPTION = "caption"
FLOAT = "float"
FURNITURE = "furniture"
BLANK = "blank"
KINDS = (BODY, FOOTNOTE, CAPTION, FLOAT, FURNITURE, BLANK)

SMALL_RATIO = 0.93
"""A line whose size is at most this share of the body size is in a smaller font."""
LABEL_RATIO = 0.8
"""Short lines at most this share of the body size, not next to running text, are labels."""
PARA_WIDTH = 0.7
"""A line at least this share of its column wide, with words, is running text."""

FLOW_SEPARATOR = "\n"
"""Inserted where the body flow jumps over other material."""
FLOW_BARRIER = "\n" + BARRIER + "\n"
"""Inserted between two flows; the newlines keep the whitespace rule from merging."""


@dataclass(frozen=True)
class Role:
    """What one line is: its ``kind`` (see :data:`KINDS`) and, for footnotes, captions
    and floats, the ``flow`` it belongs to (-1 for body, furniture and blank lines)."""

    kind: str
    flow: int = -1


@dataclass(frozen=True)
class Flow:
    """One stretch of reading order: its ``kind`` and the indices into
    :attr:`Document.lines` of its lines, in reading order."""

    kind: str
    lines: tuple[int, ...]


# ---------------------------------------------------------------------------------------
# Patterns (generic typography, nothing about a particular paper)

_CAPTION_KIND = r"^\s*(?P<kind>fig(?:ure)?|tab(?:le)?|algorithm|listing|chart|scheme|exhibit|plate)"
_CAPTION = re.compile(
    _CAPTION_KIND + r"s?\.?\s*"
    r"(?:(?:[A-Z]\.?)?\d+(?:[.\-]\d+)*[a-z]?|[IVXLC]{1,6})(?:\s*[:.|\u2014\u2013]|\s*$)",
    re.I,
)
_TITLED_CAPTION = re.compile(
    _CAPTION_KIND + r"s?\.?\s*"
    r"(?:(?:[A-Z]\.?)?\d+(?:[.\-]\d+)*[a-z]?|[IVXLC]{1,6})\s+[A-Z]",
    re.I,
)
"""A caption label followed by its title with no punctuation between ("Figure 1  Title"):
a caption only when set in a size of its own (see :meth:`_Layout._caption_match`)."""
_CAPTION_START = re.compile(_CAPTION_KIND, re.I)
"""The kind word both caption patterns open with: a line it does not open matches
neither, so a column with no such line holds no caption (and is not searched for one)."""
_FIGURE_KINDS = ("fig", "cha", "sch", "exh", "pla")  # content above the caption
_FOOTNOTE_MARKER = re.compile(
    r"^\s*(?:\d{1,3}(?![\d.,)])|[*\u2217\u2020\u2021\u00a7\u00b6\u2016#\u22c6\u2051]"
    r"|[\u00b9\u00b2\u00b3\u2070-\u2079])"
)
_PAGE_NUMBER = re.compile(
    r"^\s*(?:page\s+)?[-\u2013\u2014]?\s*(?P<n>\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014]?"
    r"(?:\s*(?:of|/)\s*\d{1,4})?\s*$",
    re.I,
)
_SECTION_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.(?:\d+\.?)*)\s*$")
_SECTION_HEADING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.(?:\d+\.?)*)\s+[A-Z][a-z]")
_WORD = re.compile(r"[^\W\d_]{2,}")
_TICK = re.compile(r"^\s*[-\u2212+]?\d+(?:[.,]\d+)?\s*%?\s*$")
_DIGITS = re.compile(r"\d+")


# ---------------------------------------------------------------------------------------
# Geometry helpers


# a line's fields, for map() (the boxes' four coordinate lists come from one zip)
_START, _END = attrgetter("start"), attrgetter("end")
_BBOX, _SIZE, _DIRECTION = attrgetter("bbox"), attrgetter("size"), attrgetter("direction")


def _horizontal(line: Line) -> bool:
    dx, dy = line.direction
    return dx > 0.98 and abs(dy) < 0.2


def _width(line: Line) -> float:
    return line.bbox[2] - line.bbox[0]


class _Boxes:
    """The line boxes as four lists of coordinates (and one of ``(y0, y1)`` pairs to
    sort by): the classification reads them thousands of times per page, and an index
    into a list costs a fraction of ``lines[i].bbox[k]``."""

    __slots__ = ("_arrays", "finite", "rows", "x0", "x1", "y0", "y1", "ys")

    def __init__(self, lines: Sequence[Line]) -> None:
        columns = list(zip(*map(_BBOX, lines))) or [(), (), (), ()]
        self.x0, self.y0, self.x1, self.y1 = map(list, columns)
        self.ys = list(zip(self.y0, self.y1))
        self._arrays = None
        self.finite = True
        self.rows: dict[tuple[int, ...], Rows] = {}  # what _rows found, by its input

    def arrays(self):
        """The four coordinates as numpy arrays (made on first use); sets :attr:`finite`."""
        if self._arrays is None:
            import numpy as np

            self._arrays = tuple(np.array(v, dtype=np.float64) for v in (self.x0, self.y0, self.x1, self.y1))
            self.finite = all(bool(np.isfinite(a).all()) for a in self._arrays)
        return self._arrays


Rows = tuple[tuple[int, ...], ...]
"""Lines grouped into rows (see :func:`_rows`): immutable, so one grouping is shared."""


def _rows(indices: Sequence[int], boxes: _Boxes) -> Rows:
    """Group lines into rows, top to bottom: a line joins the current row when it
    overlaps the row vertically by at least half the smaller height. Each row is sorted
    by x.

    The grouping depends only on the boxes and the input (in its order: ties keep it),
    and a page asks for the same lines' rows several times (furniture, footnotes,
    captions, orphans often see the same free lines): it is found once per input and
    handed out as it is, tuples that no caller can change (a copy for each caller cost
    a twentieth of the reading order)."""
    key = tuple(indices)
    known = boxes.rows.get(key)
    if known is None:
        known = boxes.rows[key] = _group_rows(indices, boxes)
    return known


def _group_rows(indices: Sequence[int], boxes: _Boxes) -> Rows:
    order = sorted(indices, key=boxes.ys.__getitem__)
    Y0, Y1 = boxes.y0, boxes.y1
    rows: list[list[int]] = []
    top = bottom = 0.0
    # min(a, b) is "b if b < a else a" and max(a, b) "b if b > a else a", written out
    for i in order:
        y0, y1 = Y0[i], Y1[i]
        if rows and ((bottom if bottom < y1 else y1) - (top if top > y0 else y0)
                     >= 0.5 * ((bottom - top) if (bottom - top) < (y1 - y0) else (y1 - y0))):
            rows[-1].append(i)
            top, bottom = (y0 if y0 < top else top), (y1 if y1 > bottom else bottom)
        else:
            rows.append([i])
            top, bottom = y0, y1
    key = boxes.x0.__getitem__
    return tuple(tuple(sorted(row, key=key)) if len(row) > 1 else tuple(row) for row in rows)


def _row_box(row: Sequence[int], boxes: _Boxes) -> tuple[float, float, float, float]:
    if len(row) == 1:
        i = row[0]
        return boxes.x0[i], boxes.y0[i], boxes.x1[i], boxes.y1[i]
    X0, Y0, X1, Y1 = boxes.x0, boxes.y0, boxes.x1, boxes.y1
    return (
        min([X0[i] for i in row]),
        min([Y0[i] for i in row]),
        max([X1[i] for i in row]),
        max([Y1[i] for i in row]),
    )


def _caption_label(text: str) -> bool:
    """A line that is only a caption's label ("Figure 2", "Table 3:"): it recurs at the
    same place on page after page when every figure is set at the top of its page, but
    its number changes with the figure, so it is a caption, not a running head."""
    match = _CAPTION.match(text)
    return match is not None and not text[match.end():].strip()


def _is_word_letter(ch: str) -> bool:
    """A character that :data:`_WORD` counts as a letter."""
    return _WORD.fullmatch(ch + ch) is not None


def _word_counts(text: str, lines: Sequence[Line]) -> tuple[list[int], list[int]]:
    """For each line, how many of its tokens (runs of non-space, as ``str.split`` cuts
    them) hold a word (two letters in a row, :data:`_WORD`), and how many tokens it has.

    Counted over the whole text at once: every character is classed as space or
    letter (a table for ASCII, the same tests per distinct other character), a token
    starts at a non-space after a space, and a token is a word from its first pair of
    letters on; a line's counts are differences of running sums at its ends. That holds
    for a line with space (or the text's edge) on both sides, which no token crosses;
    any other line is counted from its own text."""
    import numpy as np

    n, count = len(text), len(lines)
    if not count:
        return [], []
    scan = _Scan(text)
    space = np.ones(n + 1, dtype=bool)  # one more: the text's end counts as space
    space[:n] = scan.mask(str.isspace)
    letter = np.zeros(n + 1, dtype=bool)
    letter[:n] = scan.mask(_is_word_letter)
    before = np.empty(n + 1, dtype=bool)  # the character before is a space (or the text's start)
    before[0] = True
    before[1:] = space[:n]
    starts_token = ~space[:n] & before[:n]
    pairs = np.flatnonzero(letter[:n - 1] & letter[1:n]) if n > 1 else np.zeros(0, dtype=np.int64)
    token_of = np.cumsum(starts_token)
    first_pair = np.zeros(n, dtype=bool)
    if len(pairs):
        ids = token_of[pairs]
        keep = np.ones(len(pairs), dtype=bool)
        keep[1:] = ids[1:] != ids[:-1]
        first_pair[pairs[keep]] = True
    token_sum = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(starts_token, out=token_sum[1:])
    word_sum = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(first_pair, out=word_sum[1:])
    s = np.fromiter(map(_START, lines), dtype=np.int64, count=count)
    e = np.fromiter(map(_END, lines), dtype=np.int64, count=count)
    bounded = (s >= 0) & (s <= e) & (e <= n)
    s, e = np.where(bounded, s, 0), np.where(bounded, e, 0)
    bounded &= (before[s] & space[e]) | (s == e)
    tokens = (token_sum[e] - token_sum[s]).tolist()
    words = (word_sum[e] - word_sum[s]).tolist()
    for i in np.flatnonzero(~bounded).tolist():
        parts = text[lines[i].start : lines[i].end].split()
        words[i], tokens[i] = sum(map(bool, map(_WORD.search, parts))), len(parts)
    return words, tokens


def _percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(q * (len(values) - 1) + 0.5)))]


def _body_size(sizes: Sequence[float], horizontal: Sequence[bool], lengths: Sequence[int]) -> float:
    """The font size most characters of horizontal text are set in (``lengths``: each
    line's characters without the spaces around them): the sizes are binned to half
    points, the bin holding the most characters wins (the first to appear on a tie),
    and its median size is the answer.

    Counted with numpy; a size that is not a finite number takes the loop below, which
    fails on it as it always did."""
    import numpy as np

    size_arr = np.array(sizes, dtype=np.float64)
    count = np.array(lengths, dtype=np.int64)
    use = np.flatnonzero(np.array(horizontal, dtype=bool) & ~(size_arr <= 0) & (count != 0))  # NaN stays in
    if not len(use):
        return 10.0
    if np.isfinite(size_arr[use]).all():
        keys = np.round(size_arr[use] * 2) / 2  # Python's round: half to even, as rint
        _, first, bin_of = np.unique(keys, return_index=True, return_inverse=True)
        weight = np.bincount(bin_of, weights=count[use])  # whole numbers, exact in float
        tied = np.flatnonzero(weight == weight.max())
        best = tied[np.argmin(first[tied])]
        members = use[bin_of == best]
        members = members[np.argsort(size_arr[members], kind="stable")]
        return sizes[int(members[len(members) // 2])]
    return _body_size_loop(sizes, horizontal, lengths)


def _body_size_loop(sizes: Sequence[float], horizontal: Sequence[bool], lengths: Sequence[int]) -> float:
    weight: Counter = Counter()
    exact: dict[float, list[float]] = defaultdict(list)
    for size, across, n in zip(sizes, horizontal, lengths):
        if not across or size <= 0 or not n:
            continue
        key = round(size * 2) / 2
        weight[key] += n
        exact[key].append(size)
    if not weight:
        return 10.0
    key = weight.most_common(1)[0][0]
    sizes = sorted(exact[key])
    return sizes[len(sizes) // 2]


def _upright(document: Document, lengths: Sequence[int]) -> tuple[list[Line], dict[int, tuple[float, float]]]:
    """Lines and page sizes in the frame where each page's text reads left to right.

    Most of a page's characters set in one direction make that direction the page's
    reading direction: on a landscape table page (``/Rotate 90``, or a table set
    sideways in a portrait page) the text runs up the unrotated page. Such a page is
    turned so that it runs left to right; its running head then stands vertically in
    the margin, as a reader of the turned page sees it. ``lengths``: each line's
    characters without the spaces around them."""
    lines = list(document.lines)
    size: dict[int, tuple[float, float]] = {}
    chars: dict[int, Counter] = defaultdict(Counter)
    ways: dict[tuple[float, float], tuple[int, int]] = {}  # a paper has few directions
    directions = list(map(_DIRECTION, lines))
    for dx, dy in set(directions):
        ways[(dx, dy)] = (round(dx), round(dy)) if abs(abs(dx) - abs(dy)) > 0.5 else (1, 0)
    odd = {direction for direction, way in ways.items() if way != (1, 0)}
    if odd:  # else every page reads left to right
        # only a page with a line in another direction may read otherwise (most have none:
        # a paper's vertical margin stamp stands on one page); the others are not counted
        pages = {line.page for line, direction in zip(lines, directions) if direction in odd}
        for line, n, direction in zip(lines, lengths, directions):
            if line.page in pages:
                chars[line.page][ways[direction]] += n
    turns: dict[int, tuple[int, int]] = {}
    for page in document.pages:
        width, height = page.width, page.height
        if page.rotation in (90, 270):  # line boxes are in the unrotated page
            width, height = height, width
        way = chars[page.number].most_common(1)[0][0] if chars[page.number] else (1, 0)
        if way != (1, 0):
            turns[page.number] = way
            width, height = (height, width) if way[0] == 0 else (width, height)
        size[page.number] = (width, height)
    if not turns:
        return lines, size
    for k, line in enumerate(lines):
        way = turns.get(line.page)
        if way is None:
            continue
        w, h = size[line.page]  # the turned page
        x0, y0, x1, y1 = line.bbox
        dx, dy = line.direction
        if way == (0, -1):  # runs up: turn a quarter clockwise
            box, direction = (w - y1, x0, w - y0, x1), (-dy, dx)
        elif way == (0, 1):  # runs down
            box, direction = (y0, h - x1, y1, h - x0), (dy, -dx)
        else:  # upside down
            box, direction = (w - x1, h - y1, w - x0, h - y0), (-dx, -dy)
        lines[k] = turned_line(line, box, direction)
    return lines, size


# ---------------------------------------------------------------------------------------
# Classification


class _Layout:
    """Roles of every line plus what the reading order needs (columns per page)."""

    def __init__(self, document: Document) -> None:
        self.document = document
        text = document.text
        self.texts = [text[ln.start : ln.end] for ln in document.lines]
        self.lengths = lengths = [len(t.strip()) for t in self.texts]
        opens = _CAPTION_START.match
        self._kind_word = [opens(t) is not None for t in self.texts]  # may open a caption
        lines, self.page_size = _upright(document, lengths)
        self.lines = lines
        self.boxes = _Boxes(lines)
        self.sizes = list(map(_SIZE, lines))
        directions = list(map(_DIRECTION, lines))
        # a paper has few directions: each asked once, of one of its lines
        across = {way: _horizontal(ln) for way, ln in dict(zip(directions, lines)).items()}
        self.horizontal = list(map(across.__getitem__, directions))
        self.body_size = _body_size(self.sizes, self.horizontal, lengths)
        words, tokens = _word_counts(text, document.lines)
        # wordy lines: at least 3, 4 or 5 words, and words are at least half the tokens
        half = [2 * w >= t for w, t in zip(words, tokens)]
        self._wordy3, self._wordy4, self._wordy5 = ([h and w >= n for w, h in zip(words, half)] for n in (3, 4, 5))
        self.kinds = [BODY] * len(lines)
        self.flows = [-1] * len(lines)
        self.column = ["A"] * len(lines)  # A: single column; L, R: columns; S: spans both
        self.text_width = [0.0] * len(lines)  # width of the column (or page text) a line is in
        self.two_column: set[int] = set()
        self._next_flow = 0
        self._last_note: tuple[int, int] | None = None  # (flow, line) of the last note read so far
        self.by_page: dict[int, list[int]] = defaultdict(list)
        for i, ln in enumerate(lines):
            self.by_page[ln.page].append(i)
        for i, n in enumerate(lengths):
            if not n:
                self.kinds[i] = BLANK
        self._furniture()
        for page in document.pages:
            self._page(page.number)
        self.drop_caps = self._drop_caps()

    # -- shared -----------------------------------------------------------------------
    def _new_flow(self) -> int:
        self._next_flow += 1
        return self._next_flow - 1

    def _set(self, indices: Sequence[int], kind: str, flow: int = -1) -> None:
        for i in indices:
            self.kinds[i] = kind
            self.flows[i] = flow

    def _free(self, indices: Sequence[int]) -> list[int]:
        """Horizontal lines not classified yet."""
        kinds, horizontal = self.kinds, self.horizontal
        return [i for i in indices if kinds[i] == BODY and horizontal[i]]

    def _is_para(self, i: int) -> bool:
        """Running text: body-like size, most of its column wide, made of words."""
        line = self.lines[i]
        if line.size < 0.85 * self.body_size or _width(line) < PARA_WIDTH * self.text_width[i]:
            return False
        return self._wordy4[i]

    # -- furniture ------------------------------------------------------------------------
    def _furniture(self) -> None:
        lines, texts = self.lines, self.texts
        edge_keys: dict[tuple[str, str], set[int]] = defaultdict(set)
        edge_lines: list[tuple[str, str, int]] = []
        numbers_found: list[tuple[int, int, int | None, list[int]]] = []
        inner_numbers: list[tuple[int, int, int, list[int]]] = []
        vertical: dict[tuple[float, float], bool] = {}
        for number, indices in self.by_page.items():
            width, height = self.page_size.get(number, (0.0, 0.0))
            if not width or not height:
                continue
            visible = [i for i in indices if self.kinds[i] != BLANK]
            across = self.horizontal
            for i in visible:  # margin stamps: vertical text in a side margin
                if across[i]:
                    continue  # a horizontal line is not vertical
                line = lines[i]
                up = vertical.get(line.direction)
                if up is None:  # is_margin_stamp, its direction test made once per direction
                    up = vertical[line.direction] = is_vertical(line)
                if up and in_side_margin(line.bbox, width):
                    self.kinds[i] = FURNITURE
            horizontal = [i for i in visible if across[i]]
            if not horizontal:
                continue
            # line numbers of review copies: a column of bare numbers in a side margin
            numbers = [i for i in horizontal if texts[i].strip().isdigit() and in_side_margin(lines[i].bbox, width)]
            numbers.sort(key=lambda i: lines[i].bbox[1])
            if is_line_numbering([int(texts[i].strip()) for i in numbers]):
                for i in numbers:
                    self.kinds[i] = FURNITURE
            rows = _rows(horizontal, self.boxes)
            top_rows = [r for r in rows[:EDGE_ROWS] if _row_box(r, self.boxes)[3] <= EDGE_BAND * height]
            bottom_rows = [r for r in rows[-EDGE_ROWS:] if _row_box(r, self.boxes)[1] >= (1 - EDGE_BAND) * height]
            inner_numbers.extend(self._set_apart_numbers(number, rows, height))
            for where, edge in (("top", top_rows), ("bottom", bottom_rows)):
                for r, row in enumerate(edge):
                    extreme = (r == 0) if where == "top" else (r == len(edge) - 1)
                    for i in row:
                        t = texts[i]
                        m = _PAGE_NUMBER.match(t) if extreme else None
                        if m:
                            value = int(m.group("n")) if m.group("n").isdigit() else None
                            numbers_found.append((i, number, value, row))
                            continue
                        key = " ".join(_DIGITS.sub("#", t).lower().split())
                        if len(key) >= MIN_KEY_CHARS and not _caption_label(t):
                            edge_keys[(where, key)].add(number)
                            edge_lines.append((where, key, i))
        # page numbers: a bare number alone on the outermost row, or one whose value
        # minus the page's index agrees with most such numbers (then the rest of its row
        # is the running head or foot it is printed in)
        votes = Counter(value - number for _, number, value, _ in numbers_found if value is not None)
        best = votes.most_common(1)[0] if votes else (None, 0)
        for i, number, value, row in numbers_found:
            agrees = value is not None and best[1] >= PAGE_NUMBER_MIN_VOTES and value - number == best[0]
            if len(row) == 1 or agrees:
                self.kinds[i] = FURNITURE
            if agrees and len(row) <= 3:
                for j in row:
                    self.kinds[j] = FURNITURE
        # a page number set apart inside the edge band, with only small type between it
        # and the page edge (a first page's publication line under its page number): it
        # counts when it agrees with the page numbers of the other pages, and the small
        # lines beyond it are the page's foot (or head) too
        for i, number, value, beyond in inner_numbers:
            if best[1] >= PAGE_NUMBER_MIN_VOTES and value - number == best[0]:
                for j in (i, *beyond):
                    self.kinds[j] = FURNITURE
        pages = len(self.page_size)
        if pages < RECUR_MIN_PAGES:
            return
        # a running head recurs on enough pages at the same height in the same size
        places: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
        for where, key, i in edge_lines:
            places[(where, key)].append((lines[i].bbox[1], lines[i].size))
        for where, key, i in edge_lines:
            if not recurs(len(edge_keys[(where, key)]), pages):
                continue
            ys = sorted(y for y, _ in places[(where, key)])
            sizes = sorted(sz for _, sz in places[(where, key)])
            y, size = ys[len(ys) // 2], sizes[len(sizes) // 2]
            if abs(lines[i].bbox[1] - y) <= RECUR_Y_TOLERANCE and abs(lines[i].size - size) <= RECUR_SIZE_TOLERANCE:
                self.kinds[i] = FURNITURE

    def _set_apart_numbers(self, number: int, rows: Rows, height: float) -> list[tuple[int, int, int, list[int]]]:
        """Bare numbers in the edge band that are not on the outermost row but have only
        small type (below :data:`SMALL_RATIO` of the body size) between them and the page
        edge: ``(line, page, value, lines beyond it)``. They do not vote on the page
        numbers' offset; :meth:`_furniture` keeps those that agree with it."""
        lines, texts, small = self.lines, self.texts, SMALL_RATIO * self.body_size
        found = []
        for where in ("top", "bottom"):
            ordered = rows if where == "top" else rows[::-1]  # outermost row first
            for r in range(1, len(ordered)):
                box = _row_box(ordered[r], self.boxes)
                inside = box[3] <= EDGE_BAND * height if where == "top" else box[1] >= (1 - EDGE_BAND) * height
                beyond = [j for row in ordered[:r] for j in row]
                if not inside or any(lines[j].size >= small for j in beyond):
                    break
                row = ordered[r]
                m = _PAGE_NUMBER.match(texts[row[0]]) if len(row) == 1 else None
                if m and m.group("n").isdigit():
                    found.append((row[0], number, int(m.group("n")), beyond))
                    break
        return found

    # -- one page -----------------------------------------------------------------------
    def _page(self, number: int) -> None:
        indices = self.by_page.get(number, [])
        width, height = self.page_size.get(number, (0.0, 0.0))
        if not indices or not width or not height:
            return
        for i in indices:  # text set at an angle inside the page: figure content
            if self.kinds[i] == BODY and not self.horizontal[i]:
                self.kinds[i] = FLOAT
        free = self._free(indices)
        scopes = self._columns(number, free)
        for scope in scopes:
            self._sidebar(scope)
        for scope in scopes:
            self._footnotes(scope, height)
        for members, _ in scopes:
            if members and self.column[members[0]] == "S":
                # a caption across both columns: its figure may span the gutter too
                self._captions(free, starts_in=set(members))
            else:
                self._captions(members)
        for scope in scopes:
            self._orphans(scope)
        for scope in scopes:
            self._panels(scope)
        self._figure_marks(indices)
        self._group_orphans(indices)

    def _columns(self, number: int, free: list[int]) -> list[tuple[list[int], float]]:
        """Split the page's lines into scopes (one, or left/right/spanning) with their
        text widths. Two columns: most body-size lines fall on either side of a vertical
        gutter that few of them cross."""
        size, sizes, wordy3 = self.body_size, self.sizes, self._wordy3
        X0, X1 = self.boxes.x0, self.boxes.x1
        near = 0.15 * size
        cands = [i for i in free if abs(sizes[i] - size) <= near and wordy3[i]]
        if len(cands) < 8:  # a page set in smaller type (a reference list): use its text
            least = 0.6 * size
            cands = [i for i in free if sizes[i] >= least and wordy3[i]]
        cand_set, free_set = set(cands), set(free)
        if not cands:
            return [(free, 0.0)]
        # the text extent comes from lines of every size: a column of smaller type (a
        # reference list) still reaches the page's right edge
        lengths = self.lengths
        extent = [i for i in free if lengths[i] >= 3] or cands
        left = _percentile([X0[i] for i in extent], 0.02)
        right = _percentile([X1[i] for i in extent], 0.98)
        span = right - left
        if span <= 0:
            return [(free, 0.0)]
        for i in free:
            self.text_width[i] = span
        wide = sum(1 for i in cands if X1[i] - X0[i] >= 0.6 * span)
        gutter = None
        if len(cands) >= 8 and wide * 2 < len(cands):
            best = None
            starts = sorted([X0[i] for i in cands])
            ends = sorted([X1[i] for i in cands])
            x = left + 0.3 * span
            while x <= left + 0.7 * span:
                # lines that start left of x and end right of it
                crossing = bisect_left(starts, x) - bisect_right(ends, x)
                if best is None or crossing < best[0]:
                    best = (crossing, x, x)
                elif crossing == best[0] and best[2] >= x - 2.5:
                    best = (crossing, best[1], x)
                x += 2.0
            assert best is not None
            crossing, g0, g1 = best
            gx = (g0 + g1) / 2
            # running text on both sides; a column of smaller type (references) counts
            sides = [i for i in free if sizes[i] >= 0.7 * size and X1[i] - X0[i] >= 0.3 * span and wordy3[i]]
            on_left = sum(1 for i in sides if X1[i] <= gx)
            on_right = sum(1 for i in sides if X0[i] >= gx)
            if on_left >= 3 and on_right >= 3 and crossing * 10 <= 4 * len(cands):
                gutter = gx
        if gutter is None:
            return [(free, span)]
        self.two_column.add(number)
        parts: dict[str, list[int]] = {"L": [], "R": [], "S": []}
        for i in self.by_page[number]:
            x0, x1 = X0[i], X1[i]
            col = "L" if x1 <= gutter + 2 else "R" if x0 >= gutter - 2 else "S"
            self.column[i] = col
            if i in free_set:
                parts[col].append(i)
        widths = {}
        for col, members in parts.items():
            body = [i for i in members if i in cand_set] or members
            if body:
                widths[col] = _percentile([X1[i] for i in body], 0.95) - _percentile([X0[i] for i in body], 0.05)
        widths["S"] = span
        for col, members in parts.items():
            for i in members:
                self.text_width[i] = widths.get(col, span)
        return [(parts[c], widths.get(c, span)) for c in ("L", "R", "S") if parts[c]]

    def _sidebar(self, scope: tuple[list[int], float]) -> None:
        """Text in smaller type beside a column's running text, not under it (an
        affiliation or correspondence sidebar left of the first column): a float, so
        it is not read between the columns."""
        lines, size = self.lines, self.body_size
        members = self._free(scope[0])
        wordy3 = self._wordy3
        body = [i for i in members if SMALL_RATIO * size < lines[i].size <= 1.15 * size and wordy3[i]]
        if len(body) < 5:
            return
        lo = _percentile([lines[i].bbox[0] for i in body], 0.05)
        hi = _percentile([lines[i].bbox[2] for i in body], 0.95)
        for i in members:
            x0, _, x1, _ = lines[i].bbox
            if lines[i].size <= SMALL_RATIO * size and (x1 < lo - size or x0 > hi + size):
                self.kinds[i] = FLOAT

    def _panels(self, scope: tuple[list[int], float]) -> None:
        """A boxed panel at the top or bottom of a column ("Key messages" on a shaded
        background): the column's first or last run of text, set apart from the rest by
        a gap of two body sizes or more, at least three lines, every line inset from both
        edges of the column's running text (the box's padding), in a size other than the
        body's. It is read as a float, so the column does not run through it."""
        lines, size = self.lines, self.body_size
        members = [i for i in self._free(scope[0]) if self.column[i] != "S"]
        wordy3 = self._wordy3
        body = [i for i in members if abs(lines[i].size - size) <= 0.15 * size and wordy3[i]]
        if len(body) < 8:
            return
        lo = _percentile([lines[i].bbox[0] for i in body], 0.05)
        hi = _percentile([lines[i].bbox[2] for i in body], 0.95)
        members.sort(key=lambda i: lines[i].bbox[1])
        runs: list[list[int]] = []
        bottom = None
        for i in members:
            if bottom is None or lines[i].bbox[1] - bottom >= 2 * size:
                runs.append([])
            runs[-1].append(i)
            bottom = lines[i].bbox[3] if bottom is None else max(bottom, lines[i].bbox[3])
        if len(runs) < 2:
            return
        inset = 0.4 * size
        for run in (runs[0], runs[-1]):
            sizes = sorted(lines[i].size for i in run)
            if (len(run) >= 3
                    and all(lines[i].bbox[0] >= lo + inset and lines[i].bbox[2] <= hi - inset for i in run)
                    and abs(sizes[len(sizes) // 2] - size) >= 0.04 * size
                    and sum(1 for i in run if self._wordy3[i]) * 2 >= len(run)):
                self._set(run, FLOAT, self._new_flow())

    def _footnotes(self, scope: tuple[list[int], float], height: float) -> None:
        """Footnotes: the rows at the bottom of a column set in a smaller font, below
        some body-size text, in the lower half of the page; a new note starts at a
        marker (digit or symbol) at the start of a row. Rows before the first marker
        are a note too when a gap of a body line or more parts them from the running
        text above and they take at most a fifth of the page (an unnumbered note: a
        received date, a copyright block), or when they continue
        the last note of the column or page before, which stopped without closing its
        sentence, in the same size (they join that note)."""
        lines, texts = self.lines, self.texts
        members = self._free(scope[0])
        rows = _rows(members, self.boxes)
        small = SMALL_RATIO * self.body_size
        zone: list[tuple[int, ...]] = []
        bounded = False
        above = None
        for row in reversed(rows):
            if _CAPTION.match(texts[row[0]]):  # a float sits above the notes
                bounded = True
                zone = self._below_caption(zone, row)
                break
            if all(lines[i].size <= small for i in row) and _row_box(row, self.boxes)[1] >= 0.45 * height:
                zone.append(row)
            else:
                bounded = any(lines[i].size > small for i in row)
                above = row
                break
        if not zone or not bounded or any(self._cells(row) >= 3 for row in zone):
            return
        zone.reverse()
        unmarked: list[tuple[int, ...]] = []
        while zone and not _FOOTNOTE_MARKER.match(texts[zone[0][0]]):
            unmarked.append(zone.pop(0))
        flow = -1
        if unmarked:
            page = lines[unmarked[0][0]].page
            last = self._last_note if self._last_note and lines[self._last_note[1]].page in (page - 1, page) else None
            gap = _row_box(unmarked[0], self.boxes)[1] - _row_box(above, self.boxes)[3] if above else 0.0
            if (last is not None and not texts[last[1]].rstrip().endswith((".", "!", "?", ")"))
                    and abs(lines[last[1]].size - lines[unmarked[0][0]].size) <= 0.05 * self.body_size):
                flow = last[0]
            elif (gap >= self.body_size and above is not None and any(self._wordy4[i] for i in above)
                  and _row_box(unmarked[-1], self.boxes)[3] - _row_box(unmarked[0], self.boxes)[1] <= 0.2 * height):
                # under running text (not under a heading: a list in small type), short
                flow = self._new_flow()
            else:
                if zone and not self._set_apart(unmarked[-1], zone[0]):
                    return  # a list in small type going on: its numbers are not markers
                unmarked = []
            for row in unmarked:
                self._set(row, FOOTNOTE, flow)
        if not zone and not unmarked:
            return
        left = min(lines[i].bbox[0] for row in unmarked + zone for i in row)
        prev_block = lines[unmarked[-1][-1]].block if unmarked else None
        for k, row in enumerate(zone):
            first = row[0]
            line = lines[first]
            starts_note = _FOOTNOTE_MARKER.match(texts[first]) and (
                k == 0 or line.bbox[0] > left + 1.5 or line.block != prev_block
            )
            if starts_note:
                flow = self._new_flow()
            self._set(row, FOOTNOTE, flow)
            prev_block = lines[row[-1]].block
        self._last_note = (flow, (unmarked + zone)[-1][-1])

    def _below_caption(self, zone: list[tuple[int, ...]], caption: Sequence[int]) -> list[tuple[int, ...]]:
        """``zone`` (rows from the bottom up) without the rows that go on with the
        caption paragraph above them: the rows right under it in its block and size, at
        line spacing (a caption at a column's foot is not a footnote)."""
        lines, size = self.lines, self.body_size
        block, font = lines[caption[0]].block, lines[caption[0]].size
        prev = _row_box(caption, self.boxes)
        while zone:
            row = zone[-1]
            box = _row_box(row, self.boxes)
            if (box[1] - prev[3] > 0.35 * size or any(lines[i].block != block for i in row)
                    or any(abs(lines[i].size - font) > 0.05 * size for i in row)):
                break
            zone.pop()
            prev = box
        return zone

    def _set_apart(self, upper: Sequence[int], lower: Sequence[int]) -> bool:
        """The row ``lower`` starts something new under ``upper``: a gap of half a body
        line or more between them, a different type size, or a raised marker glued to its
        first word ("¹Department"). A row that goes on at the same size and leading (the
        next entry of a reference list in small type) does not, even when it starts with
        a number."""
        lines, size = self.lines, self.body_size
        gap = _row_box(lower, self.boxes)[1] - _row_box(upper, self.boxes)[3]
        return (gap >= 0.5 * size or abs(lines[lower[0]].size - lines[upper[-1]].size) > 0.05 * size
                or _raised_marker(self.document, self.document.lines[lower[0]]) is not None)

    def _captions(self, members: list[int], starts_in: set[int] | None = None) -> None:
        """Captions and the figure or table they belong to: the caption paragraph, then
        the rows on the content side (above for figures, below for tables, the other
        side when that one is empty) up to running text, a heading or other material.
        ``starts_in`` limits where a caption may start (default: anywhere in ``members``)."""
        lines, texts, kind_word = self.lines, self.texts, self._kind_word
        if not any([kind_word[i] for i in (members if starts_in is None else starts_in)]):
            return  # no line that may start a caption
        free = self._free(members)
        rows = _rows(free, self.boxes)
        row_of = {i: r for r, row in enumerate(rows) for i in row}
        starts = [
            row[0] for row in rows
            if kind_word[row[0]] and self._caption_match(row[0]) and (starts_in is None or row[0] in starts_in)
            and self._starts_paragraph(row[0])
        ]
        if not starts:
            return
        caption_blocks = {lines[i].block for i in starts}
        para_blocks = {lines[i].block for i in free if lines[i].block not in caption_blocks and self._is_para(i)}
        for start in starts:
            if self.kinds[start] != BODY:
                continue
            r0 = row_of[start]
            size = lines[start].size
            caption = [start]  # up to a line of another size or far off: a figure beside it
            for i in rows[r0][rows[r0].index(start) + 1:]:
                if (lines[i].bbox[0] - lines[caption[-1]].bbox[2] >= 3 * self.body_size
                        or abs(lines[i].size - size) > 0.15 * size):
                    break
                caption.append(i)
            r1 = r0
            prev = list(caption)
            r = r0 + 1
            while r < len(rows):
                nxt = self._under(rows[r], caption)
                if not nxt:  # only material beside the caption (a figure's labels)
                    r += 1
                    continue
                prev_box, box = _row_box(prev, self.boxes), _row_box(nxt, self.boxes)
                same_block = any(lines[i].block == lines[start].block for i in nxt)
                if (
                    _CAPTION.match(texts[nxt[0]])
                    or box[1] - prev_box[3] > 0.8 * size
                    or not (same_block or box[1] - prev_box[3] <= 0.35 * size)
                    or any(abs(lines[i].size - size) > 0.15 * size for i in nxt)
                    or self._cells(nxt) >= 3
                ):
                    break
                caption.extend(nxt)
                prev = nxt
                r1 = r
                r += 1
            self._set(caption, CAPTION, self._new_flow())
            # lines of the caption's block above it belong to the figure
            before = [i for i in free if lines[i].block == lines[start].block and self.kinds[i] == BODY
                      and lines[i].bbox[3] <= lines[start].bbox[1] + 1]
            match = self._caption_match(start)
            up = match is not None and match.group("kind")[:3].lower() in _FIGURE_KINDS
            if not up and self._tabular_near(rows, r0 - 1, -1) and not self._tabular_near(rows, r1 + 1, 1):
                up = True  # a table captioned below it
            region = self._grow(rows, r0 - 1, -1, para_blocks) if up else self._grow(rows, r1 + 1, 1, para_blocks)
            if not region and not before:
                # nothing on the content side: the content is on the other side, or
                # beside the caption; running text there is not part of it
                region = (self._grow(rows, r1 + 1, 1, para_blocks, stop_at_text=True) if up
                          else self._grow(rows, r0 - 1, -1, para_blocks, stop_at_text=True))
            region = before + [i for i in region if i not in before]
            if region:
                self._set(region, FLOAT, self._new_flow())

    def _caption_match(self, i: int) -> re.Match | None:
        """The caption label that opens line ``i``: "Figure 1:" (or "." and dashes), or
        a label followed straight by its title ("Figure 1  Title", "Algorithm 2 Name")
        when the line is set smaller or larger than the running text; in body size that
        is a sentence that starts with a reference ("Table 2 Shows")."""
        text = self.texts[i]
        match = _CAPTION.match(text)
        if match is not None:
            return match
        size = self.lines[i].size
        if size <= SMALL_RATIO * self.body_size or size >= 1.05 * self.body_size:
            return _TITLED_CAPTION.match(text)
        return None

    def _under(self, row: Sequence[int], caption: Sequence[int]) -> list[int]:
        """The lines of ``row`` within the caption's left and right edges so far: a
        figure's labels beside a caption set in a narrow column share its rows."""
        lines = self.lines
        x0 = min(lines[i].bbox[0] for i in caption)
        x1 = max(lines[i].bbox[2] for i in caption)
        return [i for i in row if min(x1, lines[i].bbox[2]) > max(x0, lines[i].bbox[0])]

    def _starts_paragraph(self, i: int) -> bool:
        """The line opens a paragraph: it is the first of its block, or the line before
        it in the block ends above it by more than half a line (a sentence that only
        happens to start a line with "Fig. 2." is not a caption)."""
        lines, line = self.lines, self.lines[i]
        j = i - 1
        while j >= 0 and lines[j].page == line.page and lines[j].block == line.block and not self.texts[j].strip():
            j -= 1  # blank lines (a lone space) say nothing
        if j < 0 or lines[j].page != line.page or lines[j].block != line.block:
            return True
        above = lines[j].bbox
        if min(above[2], line.bbox[2]) <= max(above[0], line.bbox[0]):
            return True  # not above it: elsewhere in the block
        return line.bbox[1] - above[3] > 0.5 * line.size

    def _cells(self, row: Sequence[int]) -> int:
        """How many cells a row has: lines separated by gaps wider than the body size."""
        lines = self.lines
        cells = 1
        for a, b in zip(row, row[1:]):
            if lines[b].bbox[0] - lines[a].bbox[2] >= self.body_size:
                cells += 1
        return cells

    def _table_row(self, row: Sequence[int]) -> bool:
        """Three or more cells and no line of running text: a row of a table (some
        producers put a table and the paragraph after it in one block)."""
        return self._cells(row) >= 3 and not any(self._is_para(i) for i in row)

    def _tabular_near(self, rows: Rows, r: int, step: int) -> bool:
        """One of the two rows from ``r`` in direction ``step`` has three or more cells."""
        return any(0 <= k < len(rows) and self._cells(rows[k]) >= 3 for k in (r, r + step))

    def _cell_edges(self, row: Sequence[int]) -> list[tuple[float, float]]:
        """The (left, right) edges of a row's cells (see :meth:`_cells`)."""
        lines = self.lines
        out = [[lines[row[0]].bbox[0], lines[row[0]].bbox[2]]]
        for a, b in zip(row, row[1:]):
            if lines[b].bbox[0] - lines[a].bbox[2] >= self.body_size:
                out.append([lines[b].bbox[0], lines[b].bbox[2]])
            else:
                out[-1][1] = lines[b].bbox[2]
        return [(x0, x1) for x0, x1 in out]

    def _aligned(self, upper: Sequence[int], lower: Sequence[int]) -> bool:
        """Two rows of a table: at least two of the lower row's cells line up with cells
        of the upper one (left edges, right edges or centres within 3 pt). Running text
        broken into pieces around inline math has gaps, but not in the same places."""
        top = self._cell_edges(upper)
        shared = 0
        for x0, x1 in self._cell_edges(lower):
            if any(abs(x0 - a0) <= 3 or abs(x1 - a1) <= 3 or abs((x0 + x1) - (a0 + a1)) <= 6 for a0, a1 in top):
                shared += 1
        return shared >= 2

    def _grow(self, rows: Rows, r: int, step: int, para_blocks: set[int], *,
              stop_at_text: bool = False) -> list[int]:
        """Rows from ``r`` in direction ``step`` that belong to a float, up to running
        text, a heading or other material; ``stop_at_text`` also stops at a row with a
        line of body-size words."""
        lines, texts = self.lines, self.texts
        out: list[int] = []
        while 0 <= r < len(rows):
            row = rows[r]
            if any(self.kinds[i] != BODY for i in row):
                break
            if stop_at_text and any(
                abs(lines[i].size - self.body_size) <= 0.1 * self.body_size and self._wordy4[i] for i in row
            ):
                break
            if any(lines[i].block in para_blocks for i in row) and not self._table_row(row):
                break  # running text; a table row is not, even in a paragraph's block
            if max(lines[i].size for i in row) >= 1.15 * self.body_size and len(row) <= 2:
                break
            head = texts[row[0]]
            if _SECTION_HEADING.match(head) and len(row) == 1:
                break
            if _SECTION_NUMBER.match(head) and len(row) == 2 and texts[row[1]][:1].isupper():
                break
            out.extend(row)
            r += step
        return out

    def _orphans(self, scope: tuple[list[int], float]) -> None:
        """Floats without a caption: small short labels that are not a superscript or
        subscript next to running text, and runs of two or more rows with three or more
        cells (tables, author grids)."""
        lines = self.lines
        members, width = scope
        free = self._free(members)
        if not free:
            return
        rows = _rows(free, self.boxes)
        label = LABEL_RATIO * self.body_size
        # running text a superscript can sit beside: not a lone letter (a panel letter)
        normal = [lines[i].bbox for i in free if self.sizes[i] >= 0.9 * self.body_size and self.lengths[i] >= 2]
        near = self.body_size
        stacks: dict[float, tuple[list[int], dict[int, int]]] = {}  # lines of one size, for _in_list
        for i in free:
            line = lines[i]
            if line.size > label or (width and _width(line) >= 0.5 * width) or self._wordy5[i]:
                continue  # a label is short; a run of words in small type is text
            x0, y0, x1, y1 = line.bbox
            attached = any(  # a superscript or subscript next to running text
                min(y1, n3) > max(y0, n1) and n0 - x1 <= near and x0 - n2 <= near for n0, n1, n2, n3 in normal
            )
            if not attached and not self._in_list(i, free, width, stacks):
                self.kinds[i] = FLOAT
        self._axis_ticks(free)
        tabular = [self._cells(row) >= 3 and not any(self._is_para(i) for i in row) for row in rows]
        r = 0
        while r < len(rows):
            if not tabular[r]:
                r += 1
                continue
            end = r
            while end + 1 < len(rows) and tabular[end + 1] and self._aligned(rows[end], rows[end + 1]):
                end += 1
            if end > r:
                for row in rows[r : end + 1]:
                    self._set(row, FLOAT)
            r = end + 1

    def _in_list(self, i: int, free: list[int], width: float,
                 stacks: dict[float, tuple[list[int], dict[int, int]]] | None = None) -> bool:
        """The line is one of a stack of three or more lines in its size, each right
        under the one before (at most half a line apart, overlapping it), and one of
        them is running text (five words, or half the column wide): a short entry of a
        reference list or the last line of a paragraph in small type, not a label.
        ``stacks`` keeps, per size, the lines of ``free`` in that size top to bottom (and
        where each stands among them) for the next line of the same ``free``."""
        lines, size = self.lines, self.lines[i].size
        kept = stacks.get(size) if stacks is not None else None
        if kept is None:
            sizes, near = self.sizes, 0.05 * self.body_size
            same = sorted([j for j in free if abs(sizes[j] - size) <= near], key=self.boxes.y0.__getitem__)
            kept = (same, {j: k for k, j in enumerate(same)})
            if stacks is not None:
                stacks[size] = kept
        same, place = kept

        def next_to(a: int, step: int) -> int | None:
            k = place[a] + step
            while 0 <= k < len(same):
                b = same[k]
                upper, lower = (lines[a].bbox, lines[b].bbox) if step > 0 else (lines[b].bbox, lines[a].bbox)
                gap = lower[1] - upper[3]
                if gap > 0.5 * size:
                    return None
                if gap >= -0.3 * size and min(upper[2], lower[2]) > max(upper[0], lower[0]):
                    return b
                k += step
            return None

        stack = [i]
        for step in (-1, 1):
            j = next_to(i, step)
            while j is not None and len(stack) < 50:
                stack.append(j)
                j = next_to(j, step)
        return len(stack) >= 3 and any(
            self._wordy5[j] or (width and _width(lines[j]) >= 0.5 * width) for j in stack
        )

    def _axis_ticks(self, free: list[int]) -> None:
        """Numbers of a chart axis at any size: short lines of digits and signs lined
        up with another such line (same left or right edge, or same height) nearby, with
        no running text beside them."""
        lines, texts, size = self.lines, self.texts, self.body_size
        ticks = [i for i in free if self.kinds[i] == BODY and len(texts[i].strip()) <= 8 and _TICK.match(texts[i])]
        if len(ticks) < 3:
            return
        para = [lines[i].bbox for i in free if self.kinds[i] == BODY and self._wordy4[i]]
        for i in ticks:
            x0, y0, x1, y1 = lines[i].bbox
            if any(min(y1, b[3]) > max(y0, b[1]) for b in para):
                continue  # beside running text: an equation number, a value in a line
            lined_up = sum(
                1 for j in ticks if j != i and (
                    (abs(lines[j].bbox[0] - x0) <= 2 or abs(lines[j].bbox[2] - x1) <= 2)
                    and abs(lines[j].bbox[1] - y0) <= 4 * size
                    or abs(lines[j].bbox[1] - y0) <= 2 and abs(lines[j].bbox[0] - x1) <= 6 * size
                )
            )
            if lined_up >= 2:
                self.kinds[i] = FLOAT

    def _figure_marks(self, indices: list[int]) -> None:
        """Panel letters and significance marks of a figure ("a", "b", "*", "**"): a
        line of at most three characters and no word (or a short line in smaller type
        with fewer than three words, "f = 8 Hz *"), whose nearest other line is part
        of a float or caption, is part of it too, whatever its size. Such marks are
        often set larger than the running text, so the label size rule misses them; a
        mark in a paragraph has the paragraph's lines nearest, and a glyph of a formula
        set piece by piece has another piece beside it."""
        texts, lengths, sizes, kinds, horizontal = self.texts, self.lengths, self.sizes, self.kinds, self.horizontal
        small, wordy3 = SMALL_RATIO * self.body_size, self._wordy3
        marks = [i for i in indices if kinds[i] == BODY and horizontal[i] and (
            0 < lengths[i] <= 3 and not _WORD.search(texts[i])
            or sizes[i] <= small and lengths[i] <= 20 and not wordy3[i])]
        if not marks:
            return
        mark_set = set(marks)
        others = [i for i in indices if i not in mark_set and kinds[i] != BLANK and kinds[i] != FURNITURE]
        if not any(kinds[i] == FLOAT or kinds[i] == CAPTION for i in others):
            return  # no float or caption on the page for a mark to be nearest to
        body = [i for i in indices if kinds[i] == BODY]  # the marks among them
        X0, Y0, X1, Y1 = self.boxes.arrays()
        if not self.boxes.finite:
            self._figure_marks_one_by_one(marks, others, body)
            return
        import numpy as np

        m, b = np.array(marks), np.array(body)
        mx0, my0, mx1, my1 = X0[m][:, None], Y0[m][:, None], X1[m][:, None], Y1[m][:, None]
        # a glyph of a longer run on its row (a formula set piece by piece)
        beside = ((np.minimum(my1, Y1[b]) > np.maximum(my0, Y0[b]))
                  & (np.maximum(X0[b] - mx1, mx0 - X1[b]) < 0.5 * self.body_size)
                  & (m[:, None] != b)).any(axis=1)
        if not others:
            return
        o = np.array(others)
        dx = np.maximum(np.maximum(0.0, X0[o] - mx1), mx0 - X1[o])
        dy = np.maximum(np.maximum(0.0, Y0[o] - my1), my0 - Y1[o])
        nearest = (dx * dx + dy * dy).argmin(axis=1)  # the first of equals, as a scan keeps
        for k, i in enumerate(marks):
            if not beside[k] and self.kinds[others[nearest[k]]] in (FLOAT, CAPTION):
                self.kinds[i] = FLOAT

    def _figure_marks_one_by_one(self, marks: list[int], others: list[int], body: list[int]) -> None:
        """:meth:`_figure_marks` line by line, for boxes with a coordinate that is not a
        finite number (numpy's minimum and maximum treat NaN otherwise than Python's)."""
        lines = self.lines
        for i in marks:
            x0, y0, x1, y1 = lines[i].bbox
            if any(j != i and min(y1, lines[j].bbox[3]) > max(y0, lines[j].bbox[1])
                   and max(lines[j].bbox[0] - x1, x0 - lines[j].bbox[2]) < 0.5 * self.body_size for j in body):
                continue  # a glyph of a longer run on its row (a formula set piece by piece)
            best, nearest = None, -1
            for j in others:
                b = lines[j].bbox
                dx, dy = max(0.0, b[0] - x1, x0 - b[2]), max(0.0, b[1] - y1, y0 - b[3])
                d = dx * dx + dy * dy
                if best is None or d < best:
                    best, nearest = d, j
            if nearest >= 0 and self.kinds[nearest] in (FLOAT, CAPTION):
                self.kinds[i] = FLOAT

    def _group_orphans(self, indices: list[int]) -> None:
        """Give orphan floats a flow: one per run of consecutive lines in text order."""
        flow = -1
        prev_float = False
        for i in indices:
            if self.kinds[i] == BLANK:
                continue
            is_orphan = self.kinds[i] == FLOAT and self.flows[i] < 0
            if is_orphan:
                if not prev_float:
                    flow = self._new_flow()
                self.flows[i] = flow
            prev_float = is_orphan

    def _drop_caps(self) -> dict[int, int]:
        """Drop caps: a body line of one or two letters set at least twice the body
        size and at least two body lines tall, with a body line starting within a body
        size to its right, beside its top half. Maps the drop cap's line to that line,
        which continues the same word ("I" + "N this paper")."""
        lines, texts, size = self.lines, self.texts, self.body_size
        out: dict[int, int] = {}
        kinds, horizontal, sizes = self.kinds, self.horizontal, self.sizes
        for i, line in enumerate(lines):
            if kinds[i] != BODY or not horizontal[i] or sizes[i] < 2 * size:
                continue  # the cheap tests first: most lines fail them
            text = texts[i].strip()
            if not (1 <= len(text) <= 2 and text.isalpha()) or line.bbox[3] - line.bbox[1] < 2 * size:
                continue
            x1, y0, y1 = line.bbox[2], line.bbox[1], line.bbox[3]
            best = None
            for j in self.by_page[line.page]:
                other = lines[j]
                if j == i or self.kinds[j] != BODY or not texts[j][:1].isalpha():
                    continue
                if 0 <= other.bbox[0] - x1 <= size and y0 - size <= other.bbox[1] <= (y0 + y1) / 2:
                    if best is None or other.bbox[1] < lines[best].bbox[1]:
                        best = j
            if best is not None:
                out[i] = best
        return out

    # -- results --------------------------------------------------------------------------
    def roles(self) -> tuple[Role, ...]:
        return tuple(Role(k, f) for k, f in zip(self.kinds, self.flows))

    def body_order(self) -> list[int]:
        """Body lines of all pages in reading order: pages in turn; on a two-column page
        the bands between spanning lines, each left column then right column."""
        out: list[int] = []
        kinds, column, Y0, Y1 = self.kinds, self.column, self.boxes.y0, self.boxes.y1  # a line's centre: (y0 + y1) / 2
        for page in self.document.pages:
            indices = self.by_page.get(page.number, [])
            body = [i for i in indices if kinds[i] == BODY]
            if page.number not in self.two_column:
                out.extend(body)
                continue
            spans = sorted(
                [(Y0[i] + Y1[i]) / 2 for i in indices if column[i] == "S" and kinds[i] != FURNITURE and kinds[i] != BLANK]
                + self._cuts(indices)
            )
            if not spans:  # one band (no body line spans both columns): the left column, then the right
                out.extend([i for i in body if column[i] == "L"] + [i for i in body if column[i] != "L"])
                continue
            keyed = []
            for i in body:
                c = (Y0[i] + Y1[i]) / 2
                col = column[i]
                if col == "S":
                    keyed.append(((bisect_left(spans, c), 3), i))
                else:
                    keyed.append(((bisect_right(spans, c), 1 if col == "L" else 2), i))
            keyed.sort()
            out.extend(i for _, i in keyed)
        return out

    def _cuts(self, indices: list[int]) -> list[float]:
        """Heights where a two-column page breaks across both columns without a line
        spanning them: both columns stop at the same height (within 1.5 body sizes),
        leave a gap of two body sizes or more, start again at the same height, and in
        both the text below is set smaller than the text above (short balanced columns
        above a reference list). The columns are read band by band."""
        lines, size = self.lines, self.body_size
        ys, column, kinds = self.boxes.ys, self.column, self.kinds  # ys: each line's (y0, y1)
        gaps: dict[str, list[tuple[float, float]]] = {"L": [], "R": []}
        for col in gaps:
            spans = sorted([ys[i] for i in indices if column[i] == col and kinds[i] != FURNITURE and kinds[i] != BLANK])
            bottom = None
            for y0, y1 in spans:
                if bottom is not None and y0 - bottom >= 2 * size:
                    gaps[col].append((bottom, y0))
                bottom = y1 if bottom is None else max(bottom, y1)
        if not gaps["L"] or not gaps["R"]:
            return []  # a cut needs a gap in both columns
        body = {col: [(lines[i].bbox[1], lines[i].size) for i in indices
                      if self.column[i] == col and self.kinds[i] == BODY and self._wordy3[i]] for col in gaps}
        cuts = []
        for a0, b0 in gaps["L"]:
            for a1, b1 in gaps["R"]:
                if abs(a0 - a1) <= 1.5 * size and abs(b0 - b1) <= 1.5 * size and min(b0, b1) - max(a0, a1) >= size:
                    cut = (max(a0, a1) + min(b0, b1)) / 2
                    if all(self._smaller_below(ys, cut) for ys in body.values()):
                        cuts.append(cut)
        return cuts

    @staticmethod
    def _smaller_below(lines: list[tuple[float, float]], cut: float) -> bool:
        """Running text above ``cut`` and running text in smaller type below it."""
        above = sorted(z for y, z in lines if y < cut)
        below = sorted(z for y, z in lines if y > cut)
        return bool(above and below) and below[len(below) // 2] <= SMALL_RATIO * above[len(above) // 2]

    def other_flows(self) -> list[Flow]:
        members: dict[int, list[int]] = defaultdict(list)
        kinds: dict[int, str] = {}
        for i, (kind, flow) in enumerate(zip(self.kinds, self.flows)):
            if flow >= 0 and kind in (FOOTNOTE, CAPTION, FLOAT):
                members[flow].append(i)
                kinds[flow] = kind
        return [Flow(kinds[f], tuple(members[f])) for f in sorted(members)]


def classify(document: Document) -> tuple[Role, ...]:
    """The :class:`Role` of every line of ``document`` (aligned with ``document.lines``)."""
    return _Layout(document).roles()


def flows(document: Document) -> list[Flow]:
    """The flows of ``document`` in the order :func:`reading_order` emits them: the body
    of all pages first, then every footnote, caption and float."""
    layout = _Layout(document)
    return [Flow(BODY, tuple(layout.body_order()))] + layout.other_flows()


# ---------------------------------------------------------------------------------------
# The reading-order text


class _Builder:
    """The reading-order text piece by piece: a piece is a span of the original text
    or an inserted separator. The offset map is laid out from the pieces in one
    vectorized pass at the end (:meth:`arrays`)."""

    def __init__(self, original: str) -> None:
        self.original = original
        self.bases: list[int] = []  # where each piece starts in the original (a separator: where it maps)
        self.ends: list[int] = []  # where a span ends in the original (a separator: its base)
        self.separators: list[str | None] = []  # a separator's text; None for a span
        self.jumps: list[int] = []
        self.length = 0
        self.prev_end: int | None = None  # original offset where the last piece ended

    def span(self, s: int, e: int) -> None:
        if e <= s:
            return
        if self.separators and self.separators[-1] is None and self.ends[-1] == s:
            self.ends[-1] = e  # the text goes on: one piece
        else:
            self.bases.append(s)
            self.ends.append(e)
            self.separators.append(None)
        self.length += e - s
        self.prev_end = e

    def separator(self, text: str) -> None:
        pos = self.prev_end if self.prev_end is not None else 0
        self.bases.append(pos)
        self.ends.append(pos)
        self.separators.append(text)
        self.length += len(text)

    def line(self, s: int, e: int) -> None:
        """Continue the current flow with original ``[s, e)``."""
        self.lines(((s, e),))

    def lines(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Continue the current flow with each original ``[s, e)`` of ``pairs`` in turn:
        the text goes on over whitespace (blank lines, a page break); anything else
        is a jump, with a separator. The builder's fields are held in local names
        meanwhile (the body's thousands of lines come in one call)."""
        original, bases, ends, separators, jumps = self.original, self.bases, self.ends, self.separators, self.jumps
        length, prev = self.length, self.prev_end
        for s, e in pairs:
            if prev is not None and prev <= s and (prev == s or original[prev:s].isspace()):
                s = prev  # continues the text, maybe over blank lines and page breaks
            elif prev is not None:
                bases.append(prev)
                ends.append(prev)
                separators.append(FLOW_SEPARATOR)
                length += len(FLOW_SEPARATOR)
                jumps.append(length)
            if e <= s:
                continue
            if separators and separators[-1] is None and ends[-1] == s:
                ends[-1] = e  # the text goes on: one piece
            else:
                bases.append(s)
                ends.append(e)
                separators.append(None)
            length += e - s
            prev = e
        self.length, self.prev_end = length, prev

    def glue(self, s: int, e: int) -> None:
        """Continue the current word with original ``[s, e)``, leaving out what lies
        between (the line break after a drop cap); a match over it has two spans."""
        self.jumps.append(self.length)
        self.span(s, e)

    def barrier(self) -> None:
        self.separator(FLOW_BARRIER)
        self.prev_end = None
        self.jumps.append(self.length)

    def arrays(self) -> NormalizedArrays:
        """A span's characters map one to one onto the original, with no flag; a
        separator's all map to the empty span where the piece before it ended and
        carry ``LAYOUT``; every jump is a ``LAYOUT`` gap."""
        import numpy as np

        count, total = len(self.bases), self.length
        original, separators = self.original, self.separators
        parts = [original[b:e] if t is None else t for b, e, t in zip(self.bases, self.ends, separators)]
        lengths = np.fromiter(map(len, parts), dtype=np.int64, count=count)
        bases = np.array(self.bases, dtype=np.int64)
        step = np.fromiter((t is None for t in separators), dtype=np.int64, count=count)  # 1 in a span, 0 in a separator
        first = np.zeros(count, dtype=np.int64)
        np.cumsum(lengths[:-1], out=first[1:])
        piece = np.repeat(np.arange(count), lengths)
        within = (np.arange(total, dtype=np.int64) - first[piece]) * step[piece]
        starts = bases[piece] + within
        flags = ((1 - step[piece]) * LAYOUT).astype(np.uint16)
        gaps = np.zeros(total + 1, dtype=np.uint16)
        gaps[np.array(self.jumps, dtype=np.int64)] |= np.uint16(LAYOUT)
        return NormalizedArrays("".join(parts), starts, starts + step[piece], flags, gaps)


def furniture_lines(document: Document) -> tuple[tuple[int, int, int], ...]:
    """``(page, start, end)`` in ``document.text`` of every line classified as page
    furniture (page numbers, running headers and footers, margin stamps), which the
    reading order leaves out; a rejection can then say where such text is."""
    if not document.lines:
        return ()
    layout = _Layout(document)
    return tuple((ln.page, ln.start, ln.end) for ln, kind in zip(document.lines, layout.kinds) if kind == FURNITURE)


def reading_order(document: Document) -> Normalized:
    """The document text in reading order, with an offset map back to ``document.text``.

    The body flow of every page comes first (pages joined by their original whitespace
    when nothing lies between, by a newline otherwise), then each footnote, caption and
    float as its own flow. Flows are separated by ``"\\n\\x00\\n"``; furniture is left
    out. Documents without line geometry (plain text, Markdown) come back unchanged.

    Each call computes it anew, unless the document was opened with an extraction cache
    that holds it (it is stored there once computed); :func:`quotelocate.prepare.prepare`
    keeps one per document.
    """
    return reading_order_arrays(document).normalized()


def reading_order_arrays(document: Document) -> NormalizedArrays:
    """:func:`reading_order` with its offset map in numpy arrays, the form
    :func:`~quotelocate.normalize.normalize` works in (no round trip through lists)."""
    disk = document.__dict__.get("_extraction_cache")
    if disk is None:
        return _reading_order(document)
    from .extraction_cache import document_key

    key = document_key(document, "reading-order", layout_version=LAYOUT_VERSION)
    cached = _from_json(disk.get(key), len(document.text))
    if cached is not None:
        return NormalizedArrays.of(cached)
    built = _reading_order(document)
    disk.put(key, _to_json(built.normalized()))
    return built


def _to_json(n: Normalized) -> dict:
    return {"text": n.text, "starts": n.starts, "ends": n.ends, "flags": list(n.flags), "gaps": list(n.gaps)}


def _from_json(payload: object, text_length: int) -> Normalized | None:
    """A stored reading order, or None when it is not one of this text (then it is rebuilt)."""
    if not isinstance(payload, dict):
        return None
    try:
        text, starts, ends = payload["text"], payload["starts"], payload["ends"]
        flags, gaps = array("H", payload["flags"]), array("H", payload["gaps"])
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    n = len(text) if isinstance(text, str) else -1
    if not (isinstance(starts, list) and isinstance(ends, list) and len(starts) == len(ends) == len(flags) == n
            and len(gaps) == n + 1):
        return None
    if not all(isinstance(a, int) and isinstance(b, int) and 0 <= a <= b <= text_length for a, b in zip(starts, ends)):
        return None
    return Normalized(text=text, starts=starts, ends=ends, flags=flags, gaps=gaps)


def _reading_order(document: Document) -> NormalizedArrays:
    if not document.lines:
        return NormalizedArrays.identity(document.text)
    layout = _Layout(document)
    lines = document.lines
    out = _Builder(document.text)
    glued: dict[int, int] = {}  # line -> the drop cap it continues
    for cap, rest in layout.drop_caps.items():
        glued[rest] = cap
    run: list[tuple[int, int]] = []  # body lines to read in turn
    for i in layout.body_order():
        if i in layout.drop_caps:
            continue  # read with the line it starts
        if i in glued:
            out.lines(run)
            run = []
            cap = lines[glued[i]]
            out.line(cap.start, cap.end)
            out.glue(lines[i].start, lines[i].end)  # "I" + "N this paper": one word
            continue
        line = lines[i]
        run.append((line.start, line.end))
    out.lines(run)
    for flow in layout.other_flows():
        out.barrier()
        members = flow.lines
        if not members:
            continue
        first = lines[members[0]]
        start = first.start
        if flow.kind == FOOTNOTE:
            cut = _raised_marker(document, first)
            if cut is not None:  # "⁴To illustrate" reads "4 To illustrate"
                out.line(start, cut)
                out.separator(" ")
                start = cut
        out.line(start, first.end)
        out.lines([(lines[i].start, lines[i].end) for i in members[1:]])
    return out.arrays()


def _raised_marker(document: Document, line: Line) -> int | None:
    """Where the text of a footnote starts when its marker is set raised and glued to
    the first word (``4To``): the offset after the marker, else None. Raised means the
    marker's font span sits on a baseline at least 15% of the next span's size higher."""
    start, end = line.start, line.end
    text = document.text[start:end]
    m = _FOOTNOTE_MARKER.match(text)
    # only a marker that is a word character can glue to the word after it
    if m is None or m.end() >= len(text) or not m.group().strip().isalnum() or not text[m.end()].isalnum():
        return None
    cut = start + m.end()
    before = after = None
    for span in line.spans:
        if span[0] < cut:
            before = span
        else:
            after = span
            break
    if before is None or after is None or after[0] != cut or after[1] <= 0:
        return None  # the marker and the word share one span: not raised
    if before[2] > after[2] - 0.15 * after[1]:
        return None
    return cut
