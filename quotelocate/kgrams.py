"""The k-gram index and search keys shared by the locator and the diagnosis.

Both must cut the document the same way: the locator to find candidates fast, the
diagnosis to find the region a rejected quote came closest to.
"""

from __future__ import annotations

import re

K = 8
"""k-gram length of the index: long enough to be selective, short enough that a quote
shorter than a sentence still has several."""

def kgram_index(text: str) -> dict[str, list[int]]:
    index: dict[str, list[int]] = {}
    setdefault = index.setdefault
    for i in range(len(text) - K + 1):
        setdefault(text[i : i + K], []).append(i)
    return index


# starts with the hyphen class so the scan is fast; the lookbehind re-checks the letter
_INNER_HYPHEN = re.compile(r"[-\u2010](?<=[^\W\d_][-\u2010])(?=[^\W\d_])")


def skeleton(text: str) -> str:
    """Text without hyphens between letters: the search key when hyphens are optional."""
    if "-" not in text and "\u2010" not in text:
        return text
    return _INNER_HYPHEN.sub("", text)


def skeleton_with_map(text: str) -> tuple[str, list[int]]:
    pieces: list[str] = []
    mapping: list[int] = []
    prev = 0
    for m in _INNER_HYPHEN.finditer(text):
        pieces.append(text[prev : m.start()])
        mapping.extend(range(prev, m.start()))
        prev = m.end()
    pieces.append(text[prev:])
    mapping.extend(range(prev, len(text)))
    return "".join(pieces), mapping
