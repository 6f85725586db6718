"""A long text's rules find what they act on from its code points in numpy; a short
one's, with patterns. Both ways must give the same edits: every rule that scans is run
both ways on generated texts (forced down the numpy path with a threshold of 0) and on
real papers' reading orders, and the scan's pieces are checked against the patterns
they stand for; raised markers and mis-mapped glyphs are found in the mapped text
where trying every start finds them."""

from __future__ import annotations

import importlib
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quotelocate.layout import reading_order

from conftest import document

normalize = importlib.import_module("quotelocate.normalize")

# what the scanning rules look at: line-end hyphens of every kind before letters,
# digits, connectors and commas; every kind of whitespace; curly quotes; spacing
# accents; math symbols; ligatures and marks for NFKC
PIECES = st.sampled_from([
    "a", "Z", "7", "_", " ", "  ", "\n", "\t", "\r", "\x0b", "\x1c", "\u00a0", "\u2009", "\u3000", "\u0085",
    "-", "\u2010", "\u00ad", "-\n", "- \n", "-\t\r\n", "-      \n", "\u00ad \t \r  \n", "       ", "\u2010\n", "\u00ad\n", "-\n\n", "pre-\nand post-training",
    "first-\n, second-", "IEEE-\n754", "12-\n15", "and", "or", ",", ".",
    "\u2018", "\u2019", "\u201c", "\u201d", "\u201e", "'", '"',
    "\u00a8", "\u00b4", "`", "\u02c7", "\u00b8", "\u0131",
    "+", "=", "<", "|", "~", "\u2212", "\u00b1", "\u2264", "x = y", "a + 1",
    "\ufb01", "e\u0301", "\u0301", "\u00e9", "\u00b2", "\uff76\uff9e", "\U0001d465", "\u200b",
])
TEXTS = st.lists(PIECES, max_size=60).map("".join)

RULES = ["whitespace", "hyphenation", "unicode", "accents", "math_spacing", "quotes"]
SETTINGS = [
    normalize.preset("recommended"),
    normalize.preset("recommended").replace(hyphenation="keep", suspended_hyphens=False),
    normalize.preset("recommended").replace(hyphenation="drop"),
]


def _both_ways(text: str, rules, rule: str, ctx=None) -> tuple[list, list]:
    ctx = ctx or normalize.Context()
    fn = normalize.RULES[rule]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(normalize, "_SCAN_MIN_CHARS", sys.maxsize)
        by_patterns = fn(text, rules, ctx)
        mp.setattr(normalize, "_SCAN_MIN_CHARS", 0)
        by_scan = fn(text, rules, ctx)
    return by_patterns, by_scan


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_each_rule_gives_the_same_edits_by_scan_and_by_pattern(text: str) -> None:
    for rules in SETTINGS:
        for rule in RULES:
            by_patterns, by_scan = _both_ways(text, rules, rule)
            assert by_scan == by_patterns, rule


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_the_line_end_hyphen_patterns_match_only_where_the_scan_looks(text: str) -> None:
    scan = normalize._Scan(text)
    first = scan.line_end_hyphens()
    first.append(-1)  # the scan keeps its own list: a caller's change does not reach the next
    assert scan.line_end_hyphens() == first[:-1]
    starts = set(first[:-1])
    for pattern in (normalize._HYPHEN_BREAK, normalize._DIGIT_HYPHEN_BREAK, normalize._SUSPENDED_BREAK):
        found = list(pattern.finditer(text))
        assert {m.start() for m in found} <= starts
        assert [m.span() for m in normalize._matches_at(pattern, text, sorted(starts))] == [m.span() for m in found]


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_runs_and_positions_equal_the_patterns(text: str) -> None:
    scan = normalize._Scan(text)
    assert scan.positions(str.isspace).tolist() == [m.start() for m in re.finditer(r"\s", text)]
    assert scan.positions(normalize._is_curly_quote).tolist() == [m.start() for m in normalize._QUOTE_RE.finditer(text)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(normalize, "_SCAN_MIN_CHARS", 0)
        assert normalize._non_ascii_runs(text) == [m.span() for m in normalize._NON_ASCII_RUN.finditer(text)]


def test_whitespace_is_what_the_pattern_calls_whitespace_at_every_code_point() -> None:
    # the scan asks str.isspace; the document pattern's \s must mean the same characters
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    scan = normalize._Scan(every)
    assert scan.positions(str.isspace).tolist() == [m.start() for m in re.finditer(r"\s", every)]
    assert len(scan.positions(str.isspace)) > 20  # ASCII and beyond: tab, NBSP, ideographic space...


def test_a_rule_asks_a_fresh_scan_of_an_edited_text() -> None:
    first = "a\u2019b " * 1200
    assert normalize._scan(first) is normalize._scan(first)
    edited = first.replace("\u2019", "'")
    assert normalize._scan(edited).text is edited
    assert normalize.rule_quotes(edited, normalize.preset("recommended"), normalize.Context()) == []


PAPERS = ["arxiv2022_strain_sensor_elsarticle.pdf", "jcap2008_apparent_accelerations.pdf",
          "pmj2010_iron_deficiency_hpylori.pdf", "1706.03762v7.pdf"]


def test_papers_reading_orders_get_the_same_edits_both_ways() -> None:
    acted = set()
    for name in PAPERS:
        text = reading_order(document(name)).text
        assert len(text) >= normalize._SCAN_MIN_CHARS  # a paper takes the numpy path
        for rules in SETTINGS:
            for rule in RULES:
                by_patterns, by_scan = _both_ways(text, rules, rule)
                assert by_scan == by_patterns, (name, rule)
                if by_scan:
                    acted.add(rule)
    assert acted == set(RULES)  # the papers exercise every scanning rule


def _positions_by_scan(starts, ends, spans):
    """Where each span's characters stand one to one and in order in a mapped text,
    every start position tried in turn."""
    out = []
    for s, e in spans:
        k = e - s
        for i in range(len(starts) - k + 1):
            if starts[i : i + k] == list(range(s, e)) and ends[i : i + k] == list(range(s + 1, e + 1)):
                out.append((i, i + k))
    return tuple(sorted(out))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 6), st.integers(0, 2)), max_size=20),
       st.lists(st.tuples(st.integers(-3, 50), st.integers(1, 4)), min_size=1, max_size=8))
def test_spans_are_found_in_a_mapped_text_as_by_trying_every_start(pieces, spans) -> None:
    # a mapped text: runs of original offsets one to one (a piece may repeat or come
    # out of order, as in a reading order), each maybe ending in a character that
    # spans several (a replacement)
    starts, ends = [], []
    for start, run, extra in pieces:
        starts.extend(range(start, start + run))
        ends.extend(range(start + 1, start + run + 1))
        ends[-1] += extra
    state = normalize.Normalized(text="x" * len(starts), starts=starts, ends=ends,
                                 flags=[0] * len(starts), gaps=[0] * (len(starts) + 1))
    spans = [(s, s + k) for s, k in spans]
    found = normalize._positions_of(state, spans)
    assert found == _positions_by_scan(starts, ends, spans)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "\u00e9", "\u00b2", "7", "_", "-", "\u2010", " ", "\n", "x-y", "--", "\u2010\u00b2"]),
                max_size=60).map("".join))
def test_inner_hyphens_by_scan_are_the_patterns_matches(text: str) -> None:
    kgrams = importlib.import_module("quotelocate.kgrams")
    expected = [m.start() for m in kgrams._INNER_HYPHEN.finditer(text)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(normalize, "_SCAN_MIN_CHARS", 0)
        assert kgrams._inner_hyphens(text) == expected


def test_a_papers_inner_hyphens_are_found_the_same_both_ways() -> None:
    kgrams = importlib.import_module("quotelocate.kgrams")
    text = reading_order(document("1706.03762v7.pdf")).text
    expected = [m.start() for m in kgrams._INNER_HYPHEN.finditer(text)]
    assert len(text) >= normalize._SCAN_MIN_CHARS and len(expected) > 20
    assert kgrams._inner_hyphens(text) == expected


def test_normalize_lets_its_last_scan_go() -> None:
    # a kept scan holds four bytes per character of a document's text: none outlives
    # the normalization that made it, nor the skeleton's hyphen search
    text = "\u201cA well-\nknown result\u201d holds: x = y + 1.  " * 200
    assert len(text) >= normalize._SCAN_MIN_CHARS
    result = normalize.normalize(text, normalize.preset("recommended"))
    assert "\u201c" not in result.text and "well-known" in result.text  # the scanning rules ran
    assert normalize._last_scan is None
    kgrams = importlib.import_module("quotelocate.kgrams")
    assert kgrams._inner_hyphens(result.text) and normalize._last_scan is None
