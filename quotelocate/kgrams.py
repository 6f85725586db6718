"""The k-gram index and search keys shared by the locator and the diagnosis.

Both must cut the document the same way: the locator to find candidates fast, the
diagnosis to find the region a rejected quote came closest to.
"""

from __future__ import annotations

import re
import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

K = 8
"""k-gram length of the index: long enough to be selective, short enough that a quote
shorter than a sentence still has several."""

_PRIME = 1_073_741_789
"""Modulus of the k-gram hash: the k-gram's UTF-32 code units (in the machine's byte
order, what ``str.encode("utf-32")`` gives fastest) read as one number in that byte
order, modulo this prime; the index build reaches the same residue as a sum of code
units times their place's residue (below 2**54 in uint64, see :class:`KgramIndex`).
It is the largest prime under 2**30, one CPython integer digit: a lookup's ``%``
then takes CPython's one-digit division, about half the cost of a lookup's whole hash
otherwise."""
_LITTLE = sys.byteorder == "little"
_BYTEORDER = sys.byteorder
_from_bytes = int.from_bytes


class KgramIndex:
    """Every k-gram of a text and where it starts, answered like a
    ``dict[str, list[int]]``'s ``get``: the ascending start positions of a k-gram.

    Built with numpy in a few vectorized passes instead of one dict entry per
    position (a Python loop that cost as much as the rest of the locator build): each
    position's k-gram gets a hash of its code points (:data:`_PRIME`), positions are
    sorted by hash (stably, so equal hashes keep ascending positions), and a lookup
    bisects the few sorted hashes its bucket holds (see :func:`_buckets`; Python arrays
    of machine integers: bisecting them is faster than a numpy call, and making them
    from numpy copies bytes where a list needs an int object per position).
    The build notes every hash shared by two different k-grams (a collision, rare); a
    lookup of any other hash compares the key with the first position's k-gram only
    (all positions of the hash hold the same k-gram), one of a collided hash compares
    every position, so a collision can never return a wrong position.
    """

    __slots__ = ("_buckets", "_codes", "_collided", "_hashes", "_order", "_positions", "_shift", "_text")

    def __init__(self, text: str) -> None:
        import numpy as np  # loaded on first index build, not on import

        self._text = text
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        m = max(len(text) - K + 1, 0)
        wide = codes.astype(np.uint64)
        # the number int.from_bytes reads in get() is the sum of code unit j times
        # 2**(32 * place(j)) (on a little-endian machine the k-gram's first code unit is
        # the least significant); modulo the prime that is the sum of code unit j times
        # that power's residue. A code unit is below 2**21 and a residue below 2**30, so
        # the K products sum below 2**54: one modulo at the end, not one per code unit
        prime = np.uint64(_PRIME)
        h = np.zeros(m, dtype=np.uint64)
        for j in range(K):
            place = j if _LITTLE else K - 1 - j
            h += wide[j : j + m] * np.uint64(pow(2, 32 * place, _PRIME))
        h %= prime
        order = _hash_order(h)
        ranked = h[order]
        # neighbours in hash order with the same hash but a different k-gram
        pairs = np.flatnonzero(ranked[1:] == ranked[:-1])
        # each position's k-gram as K // 2 eight-byte words read straight from the
        # encoded text (a view, no copy): two k-grams differ when a word does
        differ = np.zeros(len(pairs), dtype=bool)
        if len(pairs):
            # word by word, each a strided column gathered with np.take: a two-dimensional
            # fancy index and any(axis=1) over four words cost two and a half times as much
            windows = np.ndarray((m, K // 2), dtype=np.uint64, buffer=codes, strides=(4, 8))
            first, second = np.take(order, pairs), np.take(order, pairs + 1)
            for word in range(K // 2):
                column = windows[:, word]
                differ |= np.take(column, first) != np.take(column, second)
        self._collided: set[int] = set(ranked[pairs + 1][differ].tolist())
        self._codes = codes
        self._positions = order
        # machine-integer arrays (one copy of the bytes each), not lists: a list holds an
        # int object per position, and making them cost more than the rest of the build
        self._hashes = array("q", ranked.view(np.int64).tobytes())
        self._order = array("q", order.tobytes())
        self._shift, self._buckets = _buckets(ranked, m)

    def get(self, key: str, default: Sequence[int] = ()) -> Sequence[int]:
        """Ascending start positions of ``key`` (a k-gram), or ``default`` when it
        does not occur (a key of another length never does)."""
        if len(key) != K:
            return default
        try:
            units = key.encode("utf-32")  # byte order mark, then native code units
        except UnicodeEncodeError:  # a lone surrogate
            units = key.encode("utf-32", "surrogatepass")
        h = _from_bytes(units[4:], _BYTEORDER) % _PRIME
        hashes = self._hashes
        b = h >> self._shift
        lo, end = self._buckets[b], self._buckets[b + 1]
        lo = bisect_left(hashes, h, lo, end)
        if lo == end or hashes[lo] != h:
            return default
        if h not in self._collided:
            order = self._order
            first = order[lo]
            if self._text[first : first + K] != key:
                return default
            # most k-grams occur once: the next hash differs, no second bisect needed
            if lo + 1 == end or hashes[lo + 1] != h:
                return [first]
            return order[lo : bisect_right(hashes, h, lo, end)].tolist()
        hi = bisect_right(hashes, h, lo, end)
        if hi - lo <= 64:
            text = self._text
            found = [p for p in self._order[lo:hi] if text[p : p + K] == key]
        else:
            candidates = self._positions[lo:hi]
            codes = self._codes
            keep = codes[candidates] == ord(key[0])
            for j in range(1, K):
                keep &= codes[candidates + j] == ord(key[j])
            found = candidates[keep].tolist()
        return found if found else default

    def __len__(self) -> int:
        """How many positions are indexed (one per k-gram of the text)."""
        return len(self._order)


def _hash_order(h: np.ndarray) -> np.ndarray:
    """The positions ``0 .. len(h) - 1`` in ascending order of their hash ``h`` (each
    below 2**30), equal hashes in ascending position: a stable sort, made as two
    passes of numpy's radix sort over 15 bits each (a stable sort of 16-bit keys
    is a counting sort, linear in the length). A plain sort of the hash and
    position packed in one 64-bit number gives the same order at about three times
    the cost on a paper's text."""
    import numpy as np

    low = (h & np.uint64(0x7FFF)).astype(np.uint16)
    high = (h >> np.uint64(15)).astype(np.uint16)
    first = np.argsort(low, kind="stable")
    return first[np.argsort(high[first], kind="stable")].astype(np.int64, copy=False)


def _buckets(ranked: np.ndarray, m: int) -> tuple[int, array]:
    """A lookup table into the sorted hashes: bucket ``h >> shift`` of a hash ``h``
    holds sorted positions ``buckets[h >> shift]`` to ``buckets[(h >> shift) + 1]``.
    About one bucket per indexed position, so a lookup bisects a handful of hashes
    near each other instead of the whole list (whose far-apart probes miss the CPU
    cache when quotes look up unrelated k-grams one after another).

    Entry ``b`` counts the hashes below ``b << shift``, i.e. those whose bucket is below
    ``b``: a running sum of how many hashes each bucket holds (one linear pass, where
    bisecting the sorted hashes for every bucket edge cost several times more)."""
    import numpy as np

    bits = min(max(m, 1).bit_length(), _PRIME.bit_length())
    shift = _PRIME.bit_length() - bits
    size = (_PRIME >> shift) + 2  # every hash is below _PRIME: its bucket is below size - 1
    counts = np.bincount((ranked >> np.uint64(shift)).astype(np.intp), minlength=size - 1)
    edges = np.zeros(size, dtype=np.int64)
    np.cumsum(counts[: size - 1], out=edges[1:])
    return shift, array("q", edges.tobytes())


def kgram_index(text: str) -> KgramIndex:
    """The k-gram index of ``text`` (see :class:`KgramIndex`)."""
    return KgramIndex(text)


# starts with the hyphen class so the scan is fast; the lookbehind re-checks the letter
_INNER_HYPHEN = re.compile(r"[-\u2010](?<=[^\W\d_][-\u2010])(?=[^\W\d_])")


def skeleton(text: str) -> str:
    """Text without hyphens between letters: the search key when hyphens are optional."""
    if "-" not in text and "\u2010" not in text:
        return text
    return _INNER_HYPHEN.sub("", text)


_LETTER = re.compile(r"[^\W\d_]")


def _is_letter(ch: str) -> bool:
    """What the letter class of :data:`_INNER_HYPHEN` matches."""
    return _LETTER.fullmatch(ch) is not None


def _inner_hyphens(text: str) -> list[int]:
    """Where :data:`_INNER_HYPHEN` matches (one hyphen each). In a long text, from its
    code points: a hyphen with a letter on either side (the pattern opens with a
    character class, which ``re`` tries at every character)."""
    from .normalize import _SCAN_MIN_CHARS, _Scan

    if len(text) < _SCAN_MIN_CHARS:
        return [m.start() for m in _INNER_HYPHEN.finditer(text)]
    import numpy as np

    scan = _Scan(text)  # its own: the normalizer's kept scan would hold on to this text
    codes = scan.codes
    at = np.flatnonzero((codes == 0x2D) | (codes == 0x2010))
    at = at[(at > 0) & (at < len(codes) - 1)]
    if not len(at):
        return []
    letter = scan.mask(_is_letter)
    return at[letter[at - 1] & letter[at + 1]].tolist()


def skeleton_with_map(text: str) -> tuple[str, Sequence[int]]:
    """:func:`skeleton` and, for each of its characters, its position in ``text`` (a
    ``range`` when nothing was removed, else an array of machine integers: no int
    object per character)."""
    removed = _inner_hyphens(text)
    if not removed:
        return text, range(len(text))
    import numpy as np

    keep = np.ones(len(text), dtype=bool)
    keep[removed] = False
    pieces = [text[a + 1 : b] for a, b in zip([-1, *removed], [*removed, len(text)])]
    return "".join(pieces), array("q", np.flatnonzero(keep).astype(np.int64).tobytes())
