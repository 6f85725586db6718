"""The layout overlay draws what quotelocate.layout decided: each line outlined in its
flow's colour and numbered in reading order (checked on the rendered pixels)."""

from __future__ import annotations

import pymupdf
import pytest

from quotelocate.data.quoteset import load_quote_set
from quotelocate.document import Document
from quotelocate.interface.overlay import FLOW_COLOURS, legend, overlay_lines, overlay_marks, render_overlay_png
from quotelocate.layout import classify, flows, reading_order

ZOOM = 2.0


@pytest.fixture(scope="module")
def synthetic():
    qs = load_quote_set("synthetic")
    return qs.document(), str(qs.paper_path)


def _close(pixel, rgb, tol=40):
    return all(abs(p - round(255 * c)) <= tol for p, c in zip(pixel, rgb))


def _edge_colour_found(pix: pymupdf.Pixmap, bbox, rgb) -> bool:
    """Whether the outline colour is drawn on the left edge of ``bbox`` (a few pixels'
    slack for anti-aliasing)."""
    x = round(bbox[0] * ZOOM)
    y = round((bbox[1] + bbox[3]) / 2 * ZOOM)
    return any(_close(pix.pixel(x + dx, y), rgb) for dx in range(-2, 3))


def test_every_line_has_its_layout_kind_and_reading_order(synthetic):
    doc, _ = synthetic
    lines = overlay_lines(doc)
    roles = classify(doc)
    assert [ln.kind for ln in lines] == [r.kind for r in roles]  # the synthetic paper hides nothing
    order = [i for f in flows(doc) for i in f.lines]
    numbered = sorted((ln for ln in lines if ln.order is not None), key=lambda ln: ln.order)
    assert [ln.index for ln in numbered] == order
    assert [ln.order for ln in numbered] == list(range(1, len(order) + 1))
    assert all(ln.order is None for ln in lines if ln.kind in ("furniture", "blank"))
    # the numbered lines are the text the locator reads, in the order it reads them
    ro = reading_order(doc)
    first_body = doc.lines[numbered[0].index]
    assert ro.text.startswith(doc.text[first_body.start : first_body.end])


def test_the_rendered_page_shows_each_flow_in_its_colour(synthetic):
    doc, path = synthetic
    lines = overlay_lines(doc)
    page = next(p for p in range(1, len(doc.pages) + 1)
                if {"body", "footnote", "furniture"} <= {ln.kind for ln in lines if ln.page == p})
    pix = pymupdf.Pixmap(render_overlay_png(doc, page, lines=lines, zoom=ZOOM, pdf_path=path))
    plain = pymupdf.Pixmap(render_overlay_png(doc, page, lines=(), zoom=ZOOM, pdf_path=path))
    for kind in ("body", "footnote", "furniture"):
        line = next(ln for ln in lines if ln.page == page and ln.kind == kind)
        assert _edge_colour_found(pix, line.bbox, FLOW_COLOURS[kind]), kind
        assert not _edge_colour_found(plain, line.bbox, FLOW_COLOURS[kind]), kind
    assert pix.samples != plain.samples


def test_marks_and_legend_follow_the_lines(synthetic):
    doc, _ = synthetic
    lines = overlay_lines(doc)
    marks = overlay_marks(lines, 2)
    here = [ln for ln in lines if ln.page == 2]
    assert len(marks) == len(here)
    assert {m.color for m in marks} == {FLOW_COLOURS[ln.kind] for ln in here}
    assert [m.label for m in marks] == ["" if ln.order is None else str(ln.order) for ln in here]
    rows = {r["flow"]: r for r in legend(lines, 2)}
    assert rows["body"]["lines"] == sum(1 for ln in here if ln.kind == "body")
    assert rows["furniture"]["order"] == "not read"


def test_hidden_text_is_drawn_as_hidden():
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Visible running text of the page body goes here.", fontsize=11)
    page.insert_text((72, 130), "Invisible words that a reader cannot see at all.", fontsize=11, render_mode=3)
    data = doc.tobytes()
    document = Document.from_pdf_bytes(data, name="hidden.pdf")
    assert document.hidden
    lines = overlay_lines(document)
    hidden = [ln for ln in lines if ln.kind == "hidden"]
    assert len(hidden) == 1
    line = document.lines[hidden[0].index]
    assert document.text[line.start : line.end].startswith("Invisible words")
    assert overlay_marks(lines, 1)[hidden[0].index].color == FLOW_COLOURS["hidden"]
