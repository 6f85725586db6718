"""The layout overlay: a picture of what :mod:`quotelocate.layout` decided about a page.

Every extracted line gets an outline in the colour of its flow (:data:`FLOW_COLOURS`)
and, when the layout reading order reads it, its number in that order: body lines of
all pages first, then each footnote, caption and float, exactly as
:func:`~quotelocate.layout.reading_order` emits them (the order comes from
:func:`~quotelocate.layout.flows`, the kinds from :func:`~quotelocate.layout.classify`).
Furniture and blank lines are outlined but not numbered: the reading order leaves them
out. A line over text a reader cannot see (:attr:`Document.hidden`) is drawn as
``hidden`` whatever its flow, since no quote over it is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..document import Document, Mark, render_page_png
from ..layout import BLANK, BODY, CAPTION, FLOAT, FOOTNOTE, FURNITURE, classify, flows

HIDDEN = "hidden"
FLOW_COLOURS: dict[str, tuple[float, float, float]] = {
    BODY: (0.12, 0.47, 0.71),  # blue
    FOOTNOTE: (1.0, 0.50, 0.05),  # orange
    CAPTION: (0.17, 0.63, 0.17),  # green
    FLOAT: (0.58, 0.40, 0.74),  # purple
    FURNITURE: (0.50, 0.50, 0.50),  # grey
    HIDDEN: (0.84, 0.15, 0.16),  # red
    BLANK: (0.80, 0.80, 0.80),  # light grey
}
"""One colour per flow kind (a colour-blind-safe palette, tab10)."""


@dataclass(frozen=True)
class OverlayLine:
    """One line as the layout reader sees it: ``index`` into :attr:`Document.lines`,
    its ``kind`` (a layout kind or ``hidden``) and its 1-based ``order`` in the reading
    order (None when the reading order leaves it out)."""

    index: int
    page: int
    bbox: tuple[float, float, float, float]
    kind: str
    order: int | None


def overlay_lines(document: Document) -> tuple[OverlayLine, ...]:
    """Every line of ``document`` with its flow kind and reading-order number."""
    roles = classify(document)
    order: dict[int, int] = {}
    for flow in flows(document):
        for i in flow.lines:
            order.setdefault(i, len(order) + 1)
    hidden = sorted(document.hidden)
    out = []
    for i, (line, role) in enumerate(zip(document.lines, roles)):
        kind = role.kind
        if hidden and any(s < line.end and line.start < e for s, e in hidden):
            kind = HIDDEN
        out.append(OverlayLine(i, line.page, line.bbox, kind, order.get(i)))
    return tuple(out)


def overlay_marks(lines: tuple[OverlayLine, ...], page: int) -> tuple[Mark, ...]:
    """The :class:`~quotelocate.document.Mark` s that draw ``page``'s lines."""
    return tuple(
        Mark(ln.page, *ln.bbox, color=FLOW_COLOURS[ln.kind], label="" if ln.order is None else str(ln.order))
        for ln in lines
        if ln.page == page
    )


def legend(lines: tuple[OverlayLine, ...], page: int) -> list[dict]:
    """Rows for the legend of ``page``: kind, colour (hex), number of lines, the first
    and last reading-order number among them."""
    rows = []
    for kind, rgb in FLOW_COLOURS.items():
        here = [ln for ln in lines if ln.page == page and ln.kind == kind]
        if not here:
            continue
        numbers = [ln.order for ln in here if ln.order is not None]
        rows.append({
            "flow": kind,
            "colour": "#" + "".join(f"{round(255 * c):02x}" for c in rgb),
            "lines": len(here),
            "order": f"{min(numbers)}–{max(numbers)}" if numbers else "not read",
        })  # fmt: skip
    return rows


def render_overlay_png(document: Document, page: int, *, lines: tuple[OverlayLine, ...] | None = None,
                       zoom: float = 1.5, pdf_path: str | None = None, boxes=()) -> bytes:
    """A PNG of ``page`` with the layout overlay drawn (and ``boxes`` highlighted)."""
    lines = overlay_lines(document) if lines is None else lines
    return render_page_png(document, page, zoom=zoom, pdf_path=pdf_path, boxes=boxes,
                           marks=overlay_marks(lines, page))
