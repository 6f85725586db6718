"""A rejection is explained at a cost bounded in the quote's length: long quotes are
invalid past ``Rules.max_chars``, a long rejected quote is diagnosed on an excerpt
around its first difference, and past ``DIAGNOSE_CHARS`` it is rejected without a
search (``too-long-to-diagnose``)."""

from __future__ import annotations

import time

import pytest

from quotelocate import Document, Locator, Rules, preset
from quotelocate.diagnose import ALIGN_CHARS, CAUSES, DIAGNOSE_CHARS
from quotelocate.errors import ConfigError

from conftest import locator

UNLIMITED = preset("recommended").replace(max_chars=0)


def test_a_quote_past_the_length_limit_is_invalid_before_any_search():
    doc = Document.from_text("The encoder maps an input sequence of symbol representations to a sequence.")
    loc = Locator(doc, preset("recommended"))
    v = loc.locate("x" * 5001)
    assert (v.accepted, v.status, v.cause) == (False, "invalid", "too-long")
    assert "5001 characters (> 5000)" in v.reason
    assert loc.locate("word " * 1000).cause != "too-long"  # exactly 5000 characters (stripped: 4999)
    assert Locator(doc, preset("recommended").replace(max_chars=20)).locate("maps an input sequence of").cause == "too-long"
    assert Locator(doc, preset("recommended").replace(max_chars=0)).locate("y " * 6000).cause != "too-long"


def test_the_length_limit_enters_the_fingerprint_only_when_changed():
    assert Rules().max_chars == 5000
    base = preset("recommended")
    assert base.replace(max_chars=5000).fingerprint == base.fingerprint
    assert base.replace(max_chars=4000).fingerprint != base.fingerprint
    assert base.replace(max_chars=0).fingerprint != base.fingerprint
    for bad in (-1, True, "5000"):
        with pytest.raises(ConfigError, match="max_chars"):
            base.replace(max_chars=bad)


def test_a_16k_character_quote_is_diagnosed_quickly(v7):
    """The repeated phrase that took minutes with a whole-quote alignment."""
    loc = locator("1706.03762v7.pdf", UNLIMITED)
    quote = ("attention is all you need " * 700)[:16000]
    t = time.perf_counter()
    v = loc.locate(quote)
    elapsed = time.perf_counter() - t
    assert (v.accepted, v.status) == (False, "not-found")
    assert v.cause in CAUSES
    assert elapsed < 3.0, elapsed


def test_a_long_quote_with_one_changed_word_names_that_word(v7):
    loc = locator("1706.03762v7.pdf", UNLIMITED)
    text = loc.norm.text
    start = text.index("Self-attention, sometimes called intra-attention")
    passage = text[start : start + 3000]
    assert "\x00" not in passage and len(passage) > ALIGN_CHARS
    word = "relating"
    assert passage.count(word) == 1
    quote = passage.replace(word, "connecting")
    v = loc.locate(quote)
    assert (v.accepted, v.cause) == (False, "word-changed")
    assert "'relating' in the document, 'connecting' in the quote" in v.reason
    assert "excerpt from character" in v.reason
    assert v.near_miss is not None and word in v.near_miss.passage
    assert loc.locate(passage).accepted  # the unchanged passage is found


def test_past_the_diagnosis_bound_a_rejection_is_not_searched(v7):
    loc = locator("1706.03762v7.pdf", UNLIMITED)
    quote = ("attention is all you need " * 1200)[: DIAGNOSE_CHARS + 1]
    t = time.perf_counter()
    v = loc.locate(quote)
    assert time.perf_counter() - t < 3.0
    assert (v.accepted, v.status, v.cause, v.near_miss) == (False, "not-found", "too-long-to-diagnose", None)
    assert "too long to look for a near miss" in v.reason
    assert "too-long-to-diagnose" in CAUSES


def test_a_long_digit_run_glued_to_a_word_is_diagnosed_quickly():
    """The glued-marker probe reads a digit run after a word as a possible marker; a run
    of digits that does not end like a marker ("sha" + 30 digits + "x") once made it try
    every split of the run into 1-3 digit pieces, exponential in the run's length."""
    doc = Document.from_text("The checksum of the release is sha" + "0" * 30 + "x and it does not change.")
    t = time.perf_counter()
    v = Locator(doc, preset("recommended")).locate("The checksum of the release is stable")
    elapsed = time.perf_counter() - t
    assert (v.accepted, v.status) == (False, "not-found")
    assert v.cause in CAUSES
    assert elapsed < 1.0, elapsed


def test_a_line_end_hyphen_the_rules_read_is_not_named_as_the_difference():
    # the text reads "refrac-\ntory" as "refrac-tory" (hyphenation=both keeps the
    # hyphen optional); the quote's "refractory" is that word, and the word the quote
    # really adds is named
    from quotelocate.diagnose import _word_cause

    passage = "terms: 'sideropenic refrac-tory anemia', 'ferritin', 'iron' and 'hemoglobin'."
    quote = "terms: 'sideropenic refractory anemia', 'ferritin', 'serum iron' and 'hemoglobin'."
    assert _word_cause(quote, passage, 95.0) == ("word-added", "not in the document: 'serum'")
    # a compound's changed part is named with its whole word
    assert _word_cause("a pre-trained model of text", "a post-trained model of text", 90.0) == (
        "word-changed", "'post-trained' in the document, 'pre-trained' in the quote")
    # only a hyphen differs: punctuation, not a word
    assert _word_cause("a cost benefit costbenefit view", "a cost benefit cost-benefit view", 95.0)[0] == "punctuation-differs"
