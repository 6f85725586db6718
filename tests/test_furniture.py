"""Page furniture has one home (quotelocate.furniture): the text-only detector, the
margin stamps the locator drops with layout off, and the layout classifier use the same
thresholds and agree on what a margin stamp is."""

from __future__ import annotations

from quotelocate import furniture, preset
from quotelocate.layout import FURNITURE, classify
from quotelocate.normalize import find_furniture

from conftest import document, locator

NATURE = "natneuro2011_ephaptic_coupling.pdf"


def test_the_normalizer_uses_the_shared_detector():
    assert find_furniture is furniture.text_furniture


def test_recurrence_threshold():
    assert furniture.recurs(3, 12)
    assert not furniture.recurs(2, 4)  # too few pages
    assert not furniture.recurs(3, 13)  # under a quarter of the pages


def test_line_numbering_counts_up_by_one():
    assert furniture.is_line_numbering([12, 13, 14, 15, 16])
    assert not furniture.is_line_numbering([2, 3, 3, 4, 4, 4])  # a table of contents
    assert not furniture.is_line_numbering([0, 5, 10, 15, 20])  # a chart axis
    assert not furniture.is_line_numbering([1, 2, 3, 4])  # too few


def test_margin_stamps_are_the_same_lines_with_and_without_layout():
    doc = document(NATURE)
    roles = classify(doc)
    stamps = set(furniture.margin_stamps(doc))
    assert len(stamps) >= len(doc.pages)  # the copyright line on every page
    for i, line in enumerate(doc.lines):
        if (line.start, line.end) in stamps:
            assert roles[i].kind == FURNITURE
    stamp = "© 2011 Nature America, Inc. All rights reserved."
    kept = locator(NATURE, preset("recommended").replace(layout=False, furniture=False))
    dropped = locator(NATURE, preset("recommended").replace(layout=False))
    assert kept.locate(stamp).accepted and "furniture" not in kept.locate(stamp).rules
    # taken out of the body's flow, the stamp is still text of the paper: found in its
    # own line, with the furniture rule named
    found = dropped.locate(stamp)
    assert found.accepted and "furniture" in found.rules
