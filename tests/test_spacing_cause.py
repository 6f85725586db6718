"""A quote that is in the document but for spaces the document lacks is rejected (a
space between words is compared verbatim), and the rejection says so: cause
``spacing-differs``, with both sides' words at the first place they differ and why a
document can lack them (extraction drops the space of words set close together, and
the space next to a math symbol). It is never claimed for a space the quote lacks, nor
for a match that starts or ends inside a word."""

from __future__ import annotations

import pytest

from quotelocate import Document, Locator, preset
from quotelocate.diagnose import CAUSES

from conftest import paper_path

REC = preset("recommended")


def _verdict(text: str, quote: str, rules=REC):
    return Locator(Document.from_text(text), rules).locate(quote)


def test_words_run_together_by_the_extraction_are_named():
    text = "Six trials provided Hb and SF data,oneRCT28provided only Hb changes, and the rest followed later."
    v = _verdict(text, "provided Hb and SF data, one RCT28 provided only Hb changes, and the rest followed")
    assert not v.accepted and v.cause == "spacing-differs", (v.cause, v.reason)
    assert "'data,oneRCT28provided' in the document, 'data, one RCT28 provided' in the quote" in v.reason
    assert "extraction can lose the space between words set close together" in v.reason
    # the text as extracted, copied as it stands, is accepted
    assert _verdict(text, "SF data,oneRCT28provided only Hb changes, and the rest followed").accepted


def test_a_space_dropped_next_to_a_math_symbol_names_the_math_spacing_rule():
    text = "Each connection will be penalized where 0 \u2264\u03b2 \u22641 holds for the graph."
    quote = "Each connection will be penalized where 0 \u2264 \u03b2 \u2264 1 holds"
    off = _verdict(text, quote, REC.replace(math_spacing=False))
    assert not off.accepted and off.cause == "spacing-differs", (off.cause, off.reason)
    assert "'\u2264\u03b2' in the document, '\u2264 \u03b2' in the quote" in off.reason
    assert "math_spacing rule ignores it" in off.reason
    assert _verdict(text, quote).accepted  # with the rule on


@pytest.mark.parametrize(
    "text,quote",
    [
        # the quote lacks a space the document has: another cause explains it
        ("We found that the data set was large and clean in every run.", "that the dataset was large and clean"),
        # the spaceless match starts inside a word ("rain"): not the document's words
        ("The rain forest grows back slowly after a fire.", "a in forest grows back slowly after"),
        # a space the document lacks, and another the quote lacks
        ("The modelruns fast and the out put is kept in full.", "The model runs fast and the output is kept"),
    ],
)
def test_spacing_differs_is_not_claimed(text, quote):
    v = _verdict(text, quote)
    assert not v.accepted and v.cause != "spacing-differs", (v.cause, v.reason)


def test_the_real_paper_lines_extracted_without_word_spaces():
    """The BMJ paper's tightly justified line that pymupdf extracts as
    ``demonstratedtoimprove IDA.The AmericanCollege``: with the word_gaps rule off, the
    quote that writes its word gaps is rejected and the rule named (with it on, the
    quote is accepted: tests/test_word_gaps.py)."""
    loc = Locator(Document.open(paper_path("pmj2010_iron_deficiency_hpylori.pdf")), REC.replace(word_gaps=False))
    v = loc.locate("However, eradication of H pylori has not been clearly demonstrated to improve IDA.")
    assert not v.accepted and v.cause == "spacing-differs" and v.near_miss.page == 1, (v.cause, v.reason)
    assert "'demonstratedtoimprove' in the document, 'demonstrated to improve' in the quote" in v.reason
    assert "the word_gaps rule accepts it" in v.reason


def test_the_cause_is_published():
    assert "spacing-differs" in CAUSES
