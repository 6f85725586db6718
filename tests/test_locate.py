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


def test_a_punctuation_rejection_names_the_look_alike_characters():
    doc = Document.from_text("A score of \u22120.5 was reached on the test set.\nThe self\u2010attention layer is here, we claim.")
    loc = Locator(doc, "recommended")
    minus = loc.locate("A score of -0.5 was reached on the test set.")
    assert minus.cause == "punctuation-differs" and "'\u2212' (U+2212 MINUS SIGN) in the document, '-' in the quote" in minus.reason
    hyphen = loc.locate("The self-attention layer is here, we claim.")
    assert hyphen.cause == "punctuation-differs" and "U+2010 HYPHEN" in hyphen.reason
    comma = loc.locate("The self\u2010attention layer is here we claim.")
    assert comma.cause == "punctuation-differs" and "',' in the document, nothing in the quote" in comma.reason


def test_with_chunks_shares_the_index_and_checks_the_chunks():
    import pytest

    from quotelocate.chunks import Chunk
    from quotelocate.errors import ChunkError

    text = "".join(f"Sentence number {i} says something about topic {i * 7}. " for i in range(100))
    base = Locator(Document.from_text(text), "recommended")
    quote = "Sentence number 50 says something about topic 350."
    at = text.find(quote)
    other = base.with_chunks([Chunk(0, 0, 100), Chunk(1, at - 10, at + len(quote) + 10)])
    assert other.norm is base.norm and len(base.chunks) > 2  # the original keeps its own chunks
    assert other.locate(quote, cited_chunk=1, scope="chunk").accepted
    assert other.locate(quote, cited_chunk=0, scope="chunk").status == "outside-material"
    assert base.locate(quote, cited_chunk=0, scope="chunk").status == "outside-material"
    with pytest.raises(ChunkError, match="chunk 1"):
        base.with_chunks([Chunk(0, 50, 60), Chunk(1, 10, 20)])
    with pytest.raises(ChunkError, match="chunk 0"):
        base.with_chunks([Chunk(0, 0, len(text) + 1)])
