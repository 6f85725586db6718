"""Locator behaviour on small text documents: boundaries, markers, statuses."""

from __future__ import annotations

from quotelocate import Document, Locator


def test_glued_footnote_marker_is_a_boundary_but_ordinals_are_not():
    doc = Document.from_text("Body text ends here.\n4To illustrate the point we add a note.\n2nd place winners were announced later.")
    loc = Locator(doc, "recommended")
    assert loc.locate("To illustrate the point we add a note.").accepted
    assert not loc.locate("nd place winners were announced later.").accepted
    assert loc.locate("2nd place winners were announced later.").accepted


def test_word_and_expansion_boundaries():
    doc = Document.from_text("The results were insignificant overall.\nWe found the oﬃce closed on Sundays.")
    loc = Locator(doc, "recommended")
    assert not loc.locate("significant overall. We found").accepted  # inside "insignificant"
    assert loc.locate("insignificant overall. We found").accepted
    assert not loc.locate("fice closed on Sundays.").accepted  # inside the ligature's expansion
    assert loc.locate("office closed on Sundays.").accepted
    exact = Locator(doc, "exact")
    assert exact.locate("significant overall. We").accepted is False  # a line break: exact needs it verbatim
    assert exact.locate("significant overall.\nWe found").accepted  # a plain substring test accepts it


def test_ambiguity_and_occurrences():
    doc = Document.from_text("The same sentence appears twice here.\nThe same sentence appears twice here.")
    v = Locator(doc).locate("The same sentence appears twice here.")
    assert v.accepted and v.ambiguous and v.occurrences == 2 and v.start == 0
