"""Page furniture: page numbers, running heads and feet, margin stamps.

One home for what counts as furniture, used by the three readers of a paper:

* :func:`text_furniture` for text without geometry (``Rules(furniture=True)`` with
  layout off, and plain-text documents): lines only;
* :func:`margin_stamps` for the vertical stamps of a PDF read with layout off;
* :mod:`quotelocate.layout`, which reads the same geometry line by line (page-number
  votes, recurring edge lines, margin stamps and margin line numbers) with the
  thresholds below.

The thresholds are geometry and repetition only, never a paper's words; the arXiv stamp
pattern is the one exception, for text that has no geometry left to tell a stamp by.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover  (normalize imports this module; pymupdf stays unloaded)
    from .document import Document, Line

EDGE_BAND = 0.15
"""Share of the page height at top and bottom where page numbers and running heads sit."""
MARGIN_BAND = 0.12
"""Share of the page width at either side where a vertical line is a margin stamp, and a
column of bare numbers is line numbering."""
EDGE_ROWS = 2
"""How many rows (geometry) or lines (text) at the top and at the bottom of a page are
looked at for running heads and feet."""
RECUR_MIN_PAGES = 3
"""A running head or foot recurs on at least this many pages ..."""
RECUR_MIN_SHARE = 0.25
"""... and on at least this share of the pages."""
RECUR_Y_TOLERANCE = 6.0
"""Points a recurring head may move up or down from its usual height (geometry)."""
RECUR_SIZE_TOLERANCE = 1.0
"""Points a recurring head's font size may differ from its usual size (geometry)."""
PAGE_NUMBER_MIN_VOTES = 2
"""Page numbers count only when at least this many agree on the offset between the
printed number and the page's index."""
LINE_NUMBERS_MIN = 5
"""A margin column of bare numbers is line numbering from this many numbers on."""
MIN_KEY_CHARS = 4
"""A running head or foot has at least this many characters (digits folded)."""


def recurs(pages_hit: int, pages: int) -> bool:
    """A line seen on ``pages_hit`` of ``pages`` pages is a running head or foot."""
    return pages_hit >= RECUR_MIN_PAGES and pages_hit >= RECUR_MIN_SHARE * pages


def is_vertical(line: Line) -> bool:
    dx, dy = line.direction
    return abs(dy) > 0.9 and abs(dx) < 0.2


def in_side_margin(bbox: Sequence[float], width: float) -> bool:
    """The box lies within :data:`MARGIN_BAND` of the left or right page edge."""
    return bool(width) and (bbox[2] <= MARGIN_BAND * width or bbox[0] >= (1 - MARGIN_BAND) * width)


def is_margin_stamp(line: Line, width: float) -> bool:
    """Text set vertically in a side margin (an arXiv stamp, a journal's copyright or
    citation line)."""
    return is_vertical(line) and in_side_margin(line.bbox, width)


def margin_stamps(document: Document) -> tuple[tuple[int, int], ...]:
    """The ``(start, end)`` of every margin stamp line of a PDF document."""
    widths = {p.number: p.width for p in document.pages}
    return tuple((ln.start, ln.end) for ln in document.lines if is_margin_stamp(ln, widths.get(ln.page, 0.0)))


def is_line_numbering(values: Sequence[int]) -> bool:
    """Bare numbers down a margin, top to bottom, are line numbers when there are
    enough of them and they count up by one (a table of contents' page numbers and a
    chart's axis ticks do not)."""
    return len(values) >= LINE_NUMBERS_MIN and all(b == a + 1 for a, b in zip(values, values[1:]))


# ---------------------------------------------------------------------------------------
# Text only

_PAGE_NUMBER = re.compile(
    r"^\s*(?:page\s+)?[-\u2013\u2014]?\s*(\d{1,4})\s*[-\u2013\u2014]?(?:\s*(?:of|/)\s*\d{1,4})?\s*$", re.I
)
_ARXIV_STAMP = re.compile(r"^\s*arXiv:\d{4}\.\d{4,5}(?:v\d+)?\s+\[[\w.\-]+\]\s+\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4}\s*$")
_EDGE_NUMBER = re.compile(r"^\s*\d{1,4}\s+|\s+\d{1,4}\s*$")


def _page_lines(text: str, page_starts: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Non-blank lines of each page as (start, end) spans, end excluding the newline."""
    bounds = list(page_starts) or [0]
    out = []
    for i, start in enumerate(bounds):
        end = bounds[i + 1] - 1 if i + 1 < len(bounds) else len(text)
        lines = []
        pos = start
        for line in text[start:end].split("\n"):
            s, e = pos, pos + len(line)
            if line.strip() and line != "\f":
                ls = s + (len(line) - len(line.lstrip("\f")))
                lines.append((ls, e))
            pos = e + 1
        out.append(lines)
    return out


def text_furniture(text: str, page_starts: Sequence[int]) -> list[tuple[int, int]]:
    """Spans of page-number lines, running headers/footers and margin stamps in text
    without geometry.

    * page numbers: a number-only line that is the first or last line of its page, and
      whose value minus the page index agrees with most such lines (so a section number
      "1" at the top of page 2 is not mistaken for a page number);
    * running headers/footers: among the first and last :data:`EDGE_ROWS` lines of each
      page, a line that recurs (a leading or trailing page number ignored) on enough
      pages (:func:`recurs`);
    * margin stamps: the arXiv identifier line.
    """
    if len(page_starts) < 2 and "arXiv:" not in text:
        return []  # one page has no running heads to recur, and no line can be a stamp
    pages = _page_lines(text, page_starts)
    found: list[tuple[int, int]] = []
    for lines in pages:
        for s, e in lines:
            if _ARXIV_STAMP.match(text[s:e]):
                found.append((s, e))
    if found:  # stamps do not count as a page's first or last line
        stamps = set(found)
        pages = [[ln for ln in lines if ln not in stamps] for lines in pages]
    if len(pages) >= 2:
        candidates: list[tuple[int, int, int]] = []  # delta, start, end
        for index, lines in enumerate(pages):
            edge = lines[:1] + lines[-1:] if lines else []
            for s, e in dict.fromkeys(edge):
                m = _PAGE_NUMBER.match(text[s:e])
                if m:
                    candidates.append((int(m.group(1)) - index, s, e))
        if candidates:
            counts: dict[int, int] = {}
            for delta, _, _ in candidates:
                counts[delta] = counts.get(delta, 0) + 1
            best, votes = max(counts.items(), key=lambda kv: (kv[1], -abs(kv[0])))
            if votes >= PAGE_NUMBER_MIN_VOTES:
                found.extend((s, e) for delta, s, e in candidates if delta == best)
        keyed: dict[str, list[tuple[int, int, int]]] = {}
        for index, lines in enumerate(pages):
            edge = lines[:EDGE_ROWS] + lines[-EDGE_ROWS:]
            for s, e in dict.fromkeys(edge):
                key = " ".join(_EDGE_NUMBER.sub(" #", text[s:e]).split())
                if len(key) >= MIN_KEY_CHARS and not _PAGE_NUMBER.match(text[s:e]):
                    keyed.setdefault(key, []).append((index, s, e))
        for hits in keyed.values():
            if recurs(len({i for i, _, _ in hits}), len(pages)):
                found.extend((s, e) for _, s, e in hits)
    return sorted(set(found))
