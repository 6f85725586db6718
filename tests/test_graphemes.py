"""Grapheme cluster boundaries are UAX #29's: ``cluster_boundary`` agrees with the
``regex`` module's ``\\X`` at every position of arbitrary text, including the scripts
and sequences hand-written rules get wrong."""

from __future__ import annotations

import regex
from hypothesis import example, given, settings
from hypothesis import strategies as st

from quotelocate.normalize import cluster_boundary

# characters whose cluster rules are special (UAX #29 GB3-GB13 and Unicode 15.1 GB9c)
SPECIAL = (
    "\r\n a-.1\u0301\u0323\u200d\u200c\ufe0f"  # CR LF, ASCII, Extend, ZWJ, ZWNJ, VS16
    "\u0e01\u0e33\u0e31\u0e40"  # Thai: SARA AM is SpacingMark, SARA E is not Prepend
    "\u0915\u0937\u092e\u094d\u093e\u093f"  # Devanagari consonants, virama (linker), vowel signs
    "\u1100\u1161\u11a8\uac00\uac01"  # Hangul L, V, T, LV, LVT
    "\U0001f1e9\U0001f1ea\U0001f1eb\U0001f1f7"  # regional indicators
    "\U0001f468\U0001f469\U0001f467\U0001f3fb\u2764"  # pictographs, skin tone modifier
    "\u0600\u0605\u06dd\U000110bd"  # Prepend
    "\U000e0067\U000e007f"  # tags
)
TEXTS = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.sampled_from(SPECIAL), max_size=60),
    st.text(alphabet=st.one_of(st.sampled_from(SPECIAL), st.characters()), max_size=200),
)


def _by_regex(text: str) -> list[bool]:
    ends = {0} | {m.end() for m in regex.finditer(r"\X", text)}
    return [i in ends for i in range(len(text) + 1)]


@settings(max_examples=400, deadline=None)
@given(TEXTS)
@example("\u0915\u094d\u0937\u092e\u0924\u093e")  # conjunct: no break after the virama
@example("\u0e01\u0e33\u0e25\u0e31\u0e07")  # Thai SARA AM
@example("\u1100\u1161\u11a8 \uac00\u11a8")  # Hangul jamo and syllables
@example("\U0001f468\u200d\U0001f469\u200d\U0001f467 x")  # emoji ZWJ sequence
@example("\U0001f1e9\U0001f1ea\U0001f1eb\U0001f1f7\U0001f1e9")  # flags: pairs, odd one out
@example("\u0600\u0661\u0662 a")  # Prepend joins what follows
@example("a\r\nb")
@example("\u0e01" * 3000 + "\u0e33")  # no ASCII for thousands of characters
def test_cluster_boundary_agrees_with_uax29(text):
    assert [cluster_boundary(text, i) for i in range(len(text) + 1)] == _by_regex(text)


def test_the_cases_hand_written_rules_missed():
    conjunct = "\u0915\u094d\u0937\u092e\u0924\u093e"
    assert not cluster_boundary(conjunct, 2)  # after the virama, before the second consonant
    assert not cluster_boundary("\u0e01\u0e33", 1)  # before SARA AM (a SpacingMark, category Lo)
    assert not cluster_boundary("\u0600\u0661", 1)  # after a Prepend character
    assert cluster_boundary("ab", 1) and not cluster_boundary("\r\n", 1)


def test_a_quote_never_ends_between_cr_and_lf():
    """CR LF is one grapheme cluster even though both halves are ASCII: a quote that
    stops after the CR ends inside it, so it is not accepted, while the same quote
    without the dangling CR is."""
    from quotelocate import Document, locate, preset

    doc = Document.from_text("the model reached 28.4 on the test\r\nthe next line")
    exact = preset("exact")
    assert not locate(doc, "the model reached 28.4 on the test\r", exact).accepted
    assert locate(doc, "the model reached 28.4 on the test", exact).status == "exact"
