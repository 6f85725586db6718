"""NFKC folding looks for its clusters only around non-ASCII characters; that must find
exactly the clusters a search of the whole text finds (a base with its marks, a mark
right after ASCII, halfwidth voiced marks, runs that touch)."""

from __future__ import annotations

import importlib
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

normalize = importlib.import_module("quotelocate.normalize")

PIECES = st.sampled_from(["a", " ", "\n", "e\u0301", "\u0301", "\u00e9", "\ufb01", "\u00b2", "\uff76\uff9e",
                          "x\u0308\u0301", "\u2212", "\U0001d465", "\u00b4", "1\u20442", "\u0300\u0301"])


def whole_text_edits(text: str) -> list:
    edits = []
    for m in normalize._nfkc_cluster_re().finditer(text):
        folded = normalize._nfkc_cluster(m.group())
        if folded != m.group():
            edits.append((m.start(), m.end(), folded, normalize.UNICODE))
    return edits


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_clusters_found_around_non_ascii_runs_equal_a_whole_text_search(text: str) -> None:
    rules = normalize.preset("recommended").replace(unicode="nfkc")
    got = normalize.rule_unicode(text, rules, normalize.Context())
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        assert got == []
    else:
        assert got == whole_text_edits(text)
