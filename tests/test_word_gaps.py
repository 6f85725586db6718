"""Word gaps: a tightly justified line whose word gaps are narrower than what pymupdf
takes for a space is extracted without its word spaces (``demonstratedtoimprove``).
Extraction finds the gaps from the glyphs' positions (a line with a run of 17 letters or
more is read), the document keeps the text as extracted, and with ``word_gaps`` on a
quote may write the gaps as spaces or copy the text as it stands. Words, letters and
every other space are still compared verbatim: a changed word or a space where the page
sets none is rejected, with the closest passage read with the gaps as spaces."""

from __future__ import annotations

import pymupdf
import pytest

from quotelocate import Document, Locator, preset
from quotelocate.document import WORD_GAP_EM, _line_word_gaps

from test_paper_rules import CORPUS, corpus_document, corpus_locator

REC = preset("recommended")
OFF = REC.replace(word_gaps=False)
PMJ = "pmj2010_iron_deficiency_hpylori.pdf"
CORPUS.setdefault(PMJ, "19d45f9b1da55343c4a736b278d8696b046735dd853cb3569bfb9a0e9222c5b6")
_FONT = pymupdf.Font("helv")


def _tight_line(page, y: float, words: list[str], gap_em: float, size: float = 10.0) -> None:
    """``words`` on one baseline, each a text object of its own, ``gap_em`` of the size
    apart and no space character between them (how a tightly justified line is drawn)."""
    x = 40.0
    for word in words:
        page.insert_text((x, y), word, fontsize=size, fontname="helv")
        x += _FONT.text_length(word, fontsize=size) + gap_em * size


def _pdf(gap_em: float = 0.12) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=300)
    page.insert_text((40, 60), "In the trial the new treatment", fontsize=10, fontname="helv")
    _tight_line(page, 80, ["was", "demonstrated", "to", "improve", "the", "outcome", "of", "care"], gap_em)
    page.insert_text((40, 100), "in most patients, and internationalization is one word.", fontsize=10, fontname="helv")
    # letter-spaced capitals: every glyph stands apart, so no gap is a word gap
    _tight_line(page, 120, list("CHARACTERIZATIONS"), 0.2)
    return doc.tobytes()


@pytest.fixture(scope="module")
def tight() -> Document:
    return Document.from_pdf_bytes(_pdf(), name="tight.pdf")


def test_the_gaps_of_a_tight_line_are_found_and_the_text_is_kept(tight):
    line = "wasdemonstratedtoimprovetheoutcomeofcare"
    assert line in tight.text  # what pymupdf extracts, kept as it is
    at = tight.text.index(line)
    # a long word set as one, and letter-spaced capitals, have none
    assert all(at < g < at + len(line) for g in tight.word_gaps)
    cuts = [0, *(g - at for g in tight.word_gaps), len(line)]
    assert [line[a:b] for a, b in zip(cuts, cuts[1:])] == ["was", "demonstrated", "to", "improve", "the", "outcome",
                                                          "of", "care"]


def test_the_workers_and_the_caller_find_the_same_gaps(tight):
    assert Document.from_pdf_bytes(_pdf(), name="tight.pdf", isolate=False).word_gaps == tight.word_gaps


def test_a_gap_as_wide_as_kerning_is_no_word_gap():
    assert Document.from_pdf_bytes(_pdf(gap_em=0.03), name="kerned.pdf").word_gaps == ()


def test_the_gap_test_itself():
    def glyphs(gaps: list[float]) -> list[tuple[int, float, float, float]]:
        out, x = [], 0.0
        for g in [0.0, *gaps]:
            x += g * 10
            out.append((ord("a"), x, x + 5, 10.0))
            x += 5
        return out

    assert _line_word_gaps(glyphs([0.0, 0.01, WORD_GAP_EM, -0.02, 0.0, 0.14, 0.0])) == [3, 6]
    assert _line_word_gaps(glyphs([0.0, 0.01, WORD_GAP_EM - 0.001, 0.0])) == []
    assert _line_word_gaps(glyphs([0.2] * 8)) == []  # letter-spaced: every pair is apart
    assert _line_word_gaps(glyphs([0.06, 0.06, 0.06, 0.2, 0.06])) == []  # not set tight


@pytest.mark.parametrize("quote, gaps_as_spaces", [
    ("the new treatment was demonstrated to improve the outcome of care in most patients", True),
    ("the new treatment wasdemonstratedtoimprovetheoutcomeofcare in most patients", False),  # as extracted
    ("demonstrated to improve the outcome", True),
])
def test_a_faithful_quote_is_accepted_with_the_gaps_as_spaces_or_as_extracted(tight, quote, gaps_as_spaces):
    v = Locator(tight, REC).locate(quote)
    assert v.accepted, (quote, v.cause, v.reason)
    assert tight.text[v.start : v.end].replace("\n", "").replace(" ", "") == quote.replace(" ", "")
    assert ("word-gaps" in v.rules) == gaps_as_spaces, v.rules


def test_a_quote_that_mixes_the_two_is_rejected_and_told_why(tight):
    """A passage's gaps are written all as spaces or all as extracted."""
    v = Locator(tight, REC).locate("treatment wasdemonstratedtoimprovetheoutcome of care in most")
    assert not v.accepted and v.cause == "spacing-differs", (v.cause, v.reason)
    assert "a quote may write a passage's gaps all as spaces or all as the text has them" in v.reason


def test_a_quote_that_starts_or_ends_at_a_gap_keeps_its_word_boundaries(tight):
    # copied from the text as extracted, starting at a word the page sets apart
    quote = "demonstratedtoimprovetheoutcomeofcare in most patients"
    assert Locator(tight, REC).locate(quote).accepted
    # the word boundary holds with the rule off
    v = Locator(tight, OFF).locate(quote)
    assert not v.accepted and v.cause == "partial-word", (v.cause, v.reason)


@pytest.mark.parametrize("quote, cause", [
    ("the new treatment was demonstrated to worsen the outcome of care", "word-changed"),
    ("the new treatment was not demonstrated to improve the outcome", "word-added"),
    ("the new treatment was demon strated to improve the outcome of care", "spacing-differs"),  # no gap in a word
])
def test_a_fabrication_is_rejected_and_explained_on_the_spaced_text(tight, quote, cause):
    v = Locator(tight, REC).locate(quote)
    assert not v.accepted and v.cause == cause, (v.cause, v.reason)
    if cause == "word-changed":
        assert "'improve' in the document, 'worsen' in the quote" in v.reason


def test_with_the_rule_off_the_spaced_quote_is_rejected_and_the_rule_named(tight):
    v = Locator(tight, OFF).locate("the new treatment was demonstrated to improve the outcome of care")
    assert not v.accepted and v.cause == "spacing-differs", (v.cause, v.reason)
    assert "the page sets a word gap there that the text has no space for; the word_gaps rule accepts it" in v.reason
    assert Locator(tight, OFF).locate("the new treatment wasdemonstratedtoimprovetheoutcomeofcare in most").accepted


def test_a_locator_with_other_chunks_searches_the_gaps_with_its_own_chunks(tight):
    locator = Locator(tight, REC)
    quote = "the new treatment was demonstrated to improve the outcome of care"
    assert locator.locate(quote).accepted
    from quotelocate.chunks import Chunk

    whole = Chunk(0, 0, len(tight.text))
    other = locator.with_chunks([whole])
    v = other.locate(quote, cited_chunk=0, scope="chunk")
    assert v.accepted and v.chunks == (0,), (v.status, v.reason, v.chunks)


def test_a_document_without_gaps_builds_no_second_search():
    doc = Document.from_text("Nothing here is set tight, every word has its space.")
    locator = Locator(doc, REC)
    assert locator.locate("every word has its own space").accepted is False
    assert locator._spaced is False


def test_the_rule_is_recorded_and_old_configs_keep_their_fingerprint():
    assert "word_gaps" in REC.active() and "word_gaps" not in OFF.active()
    assert OFF.fingerprint != REC.fingerprint
    assert REC.replace(word_gaps=False).to_dict()["word_gaps"] is False


# ---------------------------------------------------------------------------------------
# The BMJ paper: two lines of its first and third pages are set without word spaces


def test_the_bmj_papers_lines_without_word_spaces_are_found_and_no_other_line():
    doc = corpus_document(PMJ)
    pieces = [doc.text[g - 3 : g] + "|" + doc.text[g : g + 3] for g in doc.word_gaps]
    assert pieces[:4] == ["ted|toi", "dto|imp", "DA.|The", "can|Col"]
    assert len(doc.word_gaps) == 14
    assert {doc.page_at(g) for g in doc.word_gaps} == {1, 3}


@pytest.mark.parametrize("quote, rules", [
    ("eradication of H pylori has not been clearly demonstrated to improve IDA. The American College of "
     "Gastroenterology suggests", ("word-gaps",)),
    ("eradication of H pylori has not been clearly demonstratedtoimprove IDA.The AmericanCollege of "
     "Gastroenterology suggests", ()),
    # a glued citation marker that a word gap follows is a marker: left out, or kept
    ("Six RCTs provided Hb and SF data, one RCT provided only Hb changes, and one RCT provided only SF changes",
     ("markers:omitted", "word-gaps")),
    ("data, one RCT28 provided only Hb changes", ("markers:kept", "word-gaps")),
])
def test_faithful_quotes_of_the_bmj_lines_are_accepted(quote, rules):
    v = corpus_locator(PMJ).locate(quote)
    assert v.accepted, (v.cause, v.reason)
    assert set(rules) <= set(v.rules), v.rules


def test_with_the_rule_off_the_bmj_markers_are_read_as_before():
    """The markers read with the word gaps for spaces are the rule's: with it off, the
    document's markers (and every verdict under a config without the rule) are what they
    were before word gaps were found."""
    doc = corpus_document(PMJ)
    at = doc.text.index("oneRCT28")
    assert not any(at < a < at + 60 for a, _ in doc.markers)
    assert [doc.text[a:b] for a, _b in doc.word_gap_markers for b in [_b] if at < a < at + 60] == ["28", "30"]
    v = corpus_locator(PMJ, OFF).locate("data, one RCT provided only Hb changes")
    assert not v.accepted


@pytest.mark.parametrize("quote", [
    "has not been clearly demonstrated to worsen IDA. The American College",
    "data, one RCT28 provided only SF changes, and one RCT30 provided",
])
def test_fabrications_on_the_bmj_lines_are_rejected(quote):
    v = corpus_locator(PMJ).locate(quote)
    assert not v.accepted, v.reason
    assert v.near_miss is not None and v.near_miss.page in (1, 3)


def test_no_other_real_paper_has_word_gaps():
    """The gap test reads the lines with a long run of letters on every paper; on the
    other nine corpus papers and both copies of 1706.03762 it finds no word gap."""
    from conftest import document

    for name in CORPUS:
        if name != PMJ:
            assert corpus_document(name).word_gaps == (), name
    for name in ("1706.03762v7.pdf", "1706.03762v5.pdf"):
        assert document(name).word_gaps == (), name


def test_the_rule_trace_shows_the_spaces_written_at_the_gaps(tight):
    from quotelocate.trace import rule_trace

    locator = Locator(tight, REC)
    verdict = locator.locate("the new treatment was demonstrated to improve the outcome of care")
    steps = {s.rule: s for s in rule_trace(locator, verdict).passage.steps}
    assert "wasdemonstratedtoimprove" in steps["as extracted"].text
    assert "was demonstrated to improve the outcome of care" in steps["word_gaps"].text
    assert steps["word_gaps"].changed > 0
