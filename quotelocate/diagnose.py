"""Near-miss diagnostics: why was a quote rejected?

Similarity here only *explains* a rejection; nothing in this module can accept a
quote. :class:`Diagnoser` finds the closest passage in the normalized document with
rapidfuzz, diffs it against the quote character by character, and names a suspected
cause. Exact probes run first (a case-folded, digit-masked, marker-stripped or
punctuation-stripped copy of the document that contains the quote names the cause with
certainty); the fuzzy alignment decides the rest.

Causes: ``partial-word``, ``marker-glued``, ``accent-split``, ``cross-flow``,
``spacing-differs``, ``unverifiable-page``, ``invisible-text``, ``confusable-character``, ``case-differs``,
``number-changed``, ``marker-missing``, ``punctuation-differs``, ``spliced``,
``word-missing``, ``word-added``, ``word-changed``, ``not-in-document``, and
``too-long-to-diagnose`` for a quote longer than :data:`DIAGNOSE_CHARS` (only reached
when the quote length limit ``Rules.max_chars`` is raised or off), which is rejected
without a search.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from bisect import bisect_left
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

import regex
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from .kgrams import K, skeleton, skeleton_with_map
from .normalize import _apply_text, _is_math, compose_accents, is_word_char, url_breaks
from . import prepared_cache

if TYPE_CHECKING:
    from .locate import Locator

Cause = Literal[
    "partial-word",
    "marker-glued",
    "accent-split",
    "cross-flow",
    "spacing-differs",
    "unverifiable-page",
    "invisible-text",
    "confusable-character",
    "case-differs",
    "number-changed",
    "marker-missing",
    "punctuation-differs",
    "spliced",
    "word-missing",
    "word-added",
    "word-changed",
    "not-in-document",
    "too-long-to-diagnose",
]
"""Why a quote was not found: each rejection names one."""

CAUSES: tuple[Cause, ...] = get_args(Cause)


@dataclass(frozen=True)
class DiffOp:
    """One step of a character diff: ``op`` is equal/replace/delete/insert; ``passage``
    is the document side, ``quote`` the quote side."""

    op: str
    passage: str
    quote: str


@dataclass(frozen=True)
class NearMiss:
    """The closest passage to a rejected quote and what differs."""

    passage: str
    start: int
    end: int
    page: int
    similarity: float
    cause: Cause
    detail: str
    quote: str = ""  # the normalized quote the passage is compared with

    @property
    def diff(self) -> tuple[DiffOp, ...]:
        """Character diff, document side against quote side (computed on first use)."""
        cached = self.__dict__.get("_diff")
        if cached is None:
            cached = char_diff(self.passage, self.quote)
            object.__setattr__(self, "_diff", cached)
        return cached

    def diff_text(self) -> str:
        """The diff as text: ``[-passage-]{+quote+}`` around each change."""
        out = []
        for d in self.diff:
            if d.op == "equal":
                out.append(d.quote)
            else:
                if d.passage:
                    out.append(f"[-{d.passage}-]")
                if d.quote:
                    out.append(f"{{+{d.quote}+}}")
        return "".join(out)

    def to_dict(self) -> dict:
        return {
            "passage": self.passage,
            "start": self.start,
            "end": self.end,
            "page": self.page,
            "similarity": round(self.similarity, 2),
            "cause": self.cause,
            "detail": self.detail,
            "diff": self.diff_text(),
        }


MIN_SIMILARITY = 60.0
"""Below this similarity the closest passage does not explain the quote."""
CLOSE_SIMILARITY = 90.0
"""At or above this similarity a word-level difference explains the quote better than a splice."""
MIN_SHARED_WORDS = 0.7
"""A passage sharing fewer of the quote's words than this is not the quote's source."""

# Cost bounds of the near-miss search (each keeps one diagnosis linear in the quote's
# length; see :meth:`Diagnoser.near_miss`).
MAX_ANCHORS = 512
"""Most k-grams of a quote looked up in the index to find where it probably is."""
ALIGN_CHARS = 400
"""Longest normalized quote aligned whole; a longer one is aligned by an excerpt."""
EXCERPT_HALF = 120
"""An excerpt of a long quote reaches this many characters on each side of its first difference."""
SCAN_CHARS = 64
"""Longest prefix of a quote aligned against the whole text when no k-gram anchors it."""
WINDOWS = 3
"""Most places of the text a short quote is aligned in to find its closest passage."""
FURNITURE_CHARS = 200
"""Longest quote also compared with the page furniture when the text has nothing close:
a running header or footer is one line."""
DIAGNOSE_CHARS = 20_000
"""Past this many normalized characters a rejection is not diagnosed (``too-long-to-diagnose``)."""

_DIGIT = re.compile(r"\d")
_MARKER = re.compile(r" ?\[\^?\d+(?:\s*[,\u2013-]\s*\d+)*\]")
_UNITS = re.compile(r"\w+(?:[-\u2010]\w+)*|[^\w\s]")
"""Words as the word-level diff compares them: a hyphenated compound is one unit, and
two units are the same word when they differ only in its hyphens (``refrac-tory``,
the text's reading of a line-end hyphen under ``hyphenation=both``, and the quote's
``refractory``): a rejection then names the word that really differs."""
_UNIT_HYPHENS = str.maketrans("", "", "-\u2010")


def _unit_keys(units: list[str]) -> list[str]:
    """The units compared: a compound without its hyphens (most units hold none)."""
    return [u.translate(_UNIT_HYPHENS) if len(u) > 1 and ("-" in u or "\u2010" in u) else u for u in units]
# One character class repeated, not "(?:\d{1,3}|...)+": the same strings, but a run of
# n digits splits into 1-3 digit items in exponentially many ways, each tried when what
# follows the run is no marker's end ("sha000...0x"), which hung a diagnosis.
_GLUED_ITEM = r"[\d*\u2217\u2020\u2021\u00a7\u00b6\u00b9\u00b2\u00b3\u2070\u2074-\u2079]"
_GLUED_LIST = rf"{_GLUED_ITEM}+(?:[,\u2013\u2014-]{_GLUED_ITEM}+)*"
_GLUED = re.compile(rf"{_GLUED_LIST}(?=[\s,.;:)\]]|$)")
"""A footnote or citation marker as text: digits, superscripts, symbols, lists and ranges."""
_UNGLUE = re.compile(rf"(?:(?<=[^\W\d_]{{2}})|(?<=[^\W\d_][,.;:])){_GLUED_LIST}(?=[\s,.;:)\]]|$)")
"""A marker glued to a word of two or more letters, or to punctuation after a letter
("models3", "text,2"; not the decimals of "0.5")."""
# Letters of other scripts that look like Latin ones (a small, common subset of
# Unicode's confusables list).
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
        "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w",
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
        "ο": "o", "α": "a", "ν": "v", "ι": "i", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z",
        "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T",
        "Υ": "Y", "Χ": "X",
    }
)


_CONFUSABLE_RE = re.compile("[" + "".join(chr(c) for c in _CONFUSABLES) + "]")
_PUNCT = regex.compile(r"\p{P}")


def _strip_punct(text: str) -> str:
    return " ".join(_PUNCT.sub(" ", text).split())


class Diagnoser:
    """Lazily built probe copies of one locator's normalized document."""

    def __init__(self, locator: "Locator") -> None:
        self.locator = locator
        self.text = locator.norm.text
        self._lower: str | None = None
        self._masked: str | None = None
        self._unmarked: str | None = None
        self._unpunct: str | None = None
        self._unglued: str | None = None
        self._any_glued: bool | None = None
        self._accented: str | None = None
        self._flat: str | None = None
        self._unspaced: str | None = None
        self._kept: list[int] | None = None  # where each character of ``unspaced`` is in the text

    def prepare(self) -> "Diagnoser":
        """Build every probe copy of the document now (otherwise the first rejection
        that needs one pays for it)."""
        _ = self.lower, self.masked, self.unmarked, self.unpunct, self.unglued, self.accented, self.flat
        _ = self.unspaced
        return self

    # probes ---------------------------------------------------------------------------
    @property
    def lower(self) -> str:
        if self._lower is None:
            self._lower = self.text.lower()
        return self._lower

    @property
    def masked(self) -> str:
        if self._masked is None:
            self._masked = _DIGIT.sub("0", self.text)
        return self._masked

    @property
    def unmarked(self) -> str:
        if self._unmarked is None:
            self._unmarked = _MARKER.sub("", self.text)
        return self._unmarked

    @property
    def unpunct(self) -> str:
        if self._unpunct is None:
            self._unpunct = _strip_punct(self.text)
        return self._unpunct

    @property
    def unspaced(self) -> str:
        """The text without its spaces (extraction can lose the space between words set
        close together: "demonstratedtoimprove")."""
        if self._unspaced is None:
            self._unspaced = self.text.replace(" ", "")
        return self._unspaced

    def _spacing_detail(self, q: str) -> str | None:
        """When the quote is in the document but for spaces the document lacks (and no space
        of the document is missing from the quote), nothing stands between the two
        characters in the extracted text either (no rule joined them), and the match
        starts and ends on word boundaries (a word character never against another one):
        the first place they differ ("'oneRCT28' in the document, 'one RCT28' in the
        quote"); else None."""
        squeezed = q.replace(" ", "")
        if squeezed == q or len(squeezed) < 2:
            return None
        text, unspaced = self.text, self.unspaced
        at = unspaced.find(squeezed)
        while at >= 0:
            if self._kept is None:  # made on the first such match only: rejections are rare
                self._kept = [i for i, ch in enumerate(text) if ch != " "]
            a, b = self._kept[at], self._kept[at + len(squeezed) - 1] + 1
            # whole words at either end, by the match's own test of a word character
            if (a == 0 or not (is_word_char(text[a - 1]) and is_word_char(text[a]))) and (
                    b == len(text) or not (is_word_char(text[b]) and is_word_char(text[b - 1]))):
                passage = text[a:b]
                ours, theirs = _space_places(passage), _space_places(q)
                if not ours < theirs:  # the document lacks some of the quote's spaces, and has no other
                    return None
                lost_places = theirs - ours
                kept, (starts, ends) = self._kept, self.locator.norm.offsets
                if any(ends[kept[at + p - 1]] != starts[kept[at + p]] for p in lost_places):
                    return None  # a rule joined the words (a line-end hyphen's break): not a space extraction lost
                lost = min(lost_places)
                pair = squeezed[lost - 1 : lost + 1]
                if any(_is_math(ch) for ch in pair):
                    why = ("a space between a math symbol and a letter or digit, which extraction drops; the "
                           "math_spacing rule ignores it" if not self.locator.rules.math_spacing
                           else "a space next to a math symbol")
                elif all(kept[at + p] in self._gap_starts for p in lost_places):
                    rule_on = self.locator.rules.word_gaps
                    if not rule_on and len(lost_places) == sum(a < g < b for g in self._gap_starts):
                        why = "the page sets a word gap there that the text has no space for; the word_gaps rule accepts it"
                    else:
                        why = ("the page sets word gaps there that the text has no space for; a quote may write a "
                               "passage's gaps all as spaces or all as the text has them"
                               + ("" if rule_on else ", with the word_gaps rule on"))
                else:
                    why = "extraction can lose the space between words set close together"
                return f"{_spacing_difference(passage, q)} ({why})"
            at = unspaced.find(squeezed, at + 1)
        return None

    @functools.cached_property
    def _gap_starts(self) -> frozenset[int]:
        """Positions in the text of the characters a word gap of the page precedes (found
        once per diagnoser: with the rule off, a numpy pass over the whole text)."""
        locator = self.locator  # with the rule off it keeps none: it needs them as word boundaries only with it on
        return locator._gap_starts or (locator._word_gap_starts() if locator.document.word_gaps else frozenset())

    def _key(self, text: str) -> str:
        """``text`` as the locator searches it: without optional hyphens when
        ``hyphenation="both"`` (the probes below compare such keys)."""
        return skeleton(text) if self.locator._skel_map is not None else text

    @property
    def unglued(self) -> str:
        """The search key of the text without markers glued to words ("models3" -> "models")."""
        if self._unglued is None:
            self._unglued = self._key(_UNGLUE.sub("", self.text))
        return self._unglued

    @property
    def any_glued(self) -> bool:
        """Whether the text has any marker glued to a word, found once: the search scans
        the whole text (a lookbehind at every position), milliseconds per rejection."""
        if self._any_glued is None:
            self._any_glued = _UNGLUE.search(self.text) is not None
        return self._any_glued

    @property
    def accented(self) -> str:
        """The search key of the text with spacing accents composed ("Franc\u00b8ois" -> "François")."""
        if self._accented is None:
            self._accented = self._key(_apply_text(self.text, compose_accents(self.text)))
        return self._accented

    @property
    def flat(self) -> str:
        """The text normalized under the same rules but read as extracted, without the
        layout reading order: what runs from one flow into another is contiguous here."""
        if self._flat is None:
            loc = self.locator
            doc, rules = loc.document, loc.rules
            if not rules.layout or doc.kind != "pdf":
                self._flat = ""
            else:
                self._flat = self._key(prepared_cache.prepared_text(doc, rules.replace(layout=False)))
        return self._flat

    def _glued_marker(self, text: str, end: int) -> str | None:
        """What a match ending at ``end`` of ``text`` is glued to, when that is a
        footnote or citation marker ("models|3", "text,|2")."""
        if end < len(text) and end > 0 and (text[end - 1].isalpha() or text[end - 1] in ",.;:"):
            m = _GLUED.match(text, end)
            if m:
                word = text[max(text.rfind(" ", 0, end) + 1, 0) : end]
                return self._marker_detail(m.group(), word)
        return None

    def _marker_detail(self, marker: str, word: str) -> str:
        how = (
            "it is not set smaller and raised in the document, so it reads as part of the word"
            if self.locator.rules.markers
            else "the markers rule reads raised markers apart from the word"
        )
        return f"the document has the marker '{marker}' glued to '{word}' ({how})"

    def _unglued_detail(self, unglued: str, idx: int, n: int) -> str:
        """Name the glued marker inside a quote found at ``idx`` of :attr:`unglued`."""
        text, removed = self._key(self.text), 0
        for m in _UNGLUE.finditer(text):
            at = m.start() - removed
            if at > idx + n:
                break
            if at >= idx:
                word = text[text.rfind(" ", 0, m.start()) + 1 : m.start()]
                return self._marker_detail(m.group(), word)
            removed += len(m.group())
        return self._marker_detail("?", "a word")

    def _probe_cause(self, q: str) -> tuple[str, str] | None:
        at = self.text.find(q)
        if at >= 0:
            starts, ends = self.locator.norm.offsets
            start = starts[at]
            page = self.locator.document.page_at(start)
            if not self.locator.document.pages[page - 1].verifiable:
                return "unverifiable-page", f"page {page} has no usable text layer"
            end = ends[at + len(q) - 1]
            if any(s < end and start < e for s, e in self.locator.document.hidden):
                return "invisible-text", f"the text on page {page} is invisible (hidden, white or tiny)"
            glued = self._glued_marker(self.text, at + len(q))
            if glued:
                return "marker-glued", glued
            return "partial-word", "the text occurs only as part of a longer word, ligature or character"
        key = self._key(q)
        skel = self.locator._skel
        at = skel.find(key)
        if at >= 0:  # found up to hyphens: a marker at its end, or a hyphen that differs
            glued = self._glued_marker(skel, at + len(key))
            if glued:
                return "marker-glued", glued
        elif self.any_glued and (idx := self.unglued.find(key)) >= 0:
            return "marker-glued", self._unglued_detail(self.unglued, idx, len(key))
        elif not self.locator.rules.accents and key in self.accented:
            return "accent-split", (
                "the document spells an accented letter as the letter and a spacing accent "
                "('c\u00b8' for 'ç', 'a\u00a8' for 'ä'); the accents rule composes them"
            )
        flat = self.flat if at < 0 else ""
        if flat and key in flat:
            return "cross-flow", (
                "the text runs from one flow of the page into another (body text into a footnote, "
                "caption, table or another column): contiguous as extracted, not in reading order"
            )
        if (spacing := self._spacing_detail(q)) is not None:
            return "spacing-differs", spacing
        if _CONFUSABLE_RE.search(q) and q.translate(_CONFUSABLES) in self.text:
            odd = sorted({c for c in q if c.translate(_CONFUSABLES) != c})
            names = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in odd)
            return "confusable-character", f"look-alike character {names} instead of a Latin letter"
        if (at := self.lower.find(q.lower())) >= 0:
            same_length = len(self.lower) == len(self.text)  # lower() can lengthen a rare letter
            return "case-differs", (_first_word_difference(self.text[at : at + len(q)], q, _CASE_UNIT) if same_length
                                    else None) or "same text in different letter case"
        if _DIGIT.search(q) and (at := self.masked.find(_DIGIT.sub("0", q))) >= 0:
            return "number-changed", (_first_word_difference(self.text[at : at + len(q)], q, _NUMBER_UNIT)
                                      or "a number differs from the document")
        if _MARKER.sub("", q) in self.unmarked:
            return "marker-missing", "a citation or footnote marker of the document is missing"
        stripped = _strip_punct(q)
        if stripped and stripped in self.unpunct:
            return "punctuation-differs", _PUNCT_DETAIL
        return None

    def _splice(self, q: str) -> str | None:
        """Does the quote join two passages of the document that are not adjacent?

        The longest prefix and the longest suffix of the quote (in whole words) that
        occur verbatim must together cover all but at most one word, each hold at least
        three words, and lie apart in the document.
        """
        bounds = [(m.start(), m.end()) for m in re.finditer(r"\S+", q)]
        n = len(bounds)
        if n < 6:
            return None
        text = self.text

        def longest(found) -> int:
            lo, hi = 0, n
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if found(mid):
                    lo = mid
                else:
                    hi = mid - 1
            return lo

        head_words = longest(lambda k: q[: bounds[k - 1][1]].rstrip(".,;:") in text)
        tail_words = longest(lambda k: q[bounds[n - k][0] :] in text)
        if head_words < 3 or tail_words < 3 or head_words + tail_words < n - 1 or head_words >= n:
            return None
        head = q[: bounds[head_words - 1][1]].rstrip(".,;:")
        tail = q[bounds[n - tail_words][0] :]
        # adjacent somewhere (the tail a few words after an occurrence of the head, not
        # only after its first; compared as the locator searches, line-end hyphens
        # aside): a word was dropped or changed, not a splice
        skel, key_head, key_tail = self.locator._skel, self._key(head), self._key(tail)
        h = skel.find(key_head)
        while h >= 0:
            t = skel.find(key_tail, h)
            if 0 <= t <= h + len(key_head) + 40:
                return None
            h = skel.find(key_head, h + 1)
        return f"'{_clip(head)}' and '{_clip(tail)}' occur in the document, but not together"

    # main -----------------------------------------------------------------------------
    def _shift(self, key: str) -> tuple[int, int, list[int]] | None:
        """Where the quote probably starts in the searched text (the skeleton with
        ``hyphenation="both"``): the offset most of the quote's rare k-grams agree on,
        by vote, the first position of the key whose k-gram sits at that offset, and
        the starts of up to :data:`WINDOWS` - 1 other places with at least half as many
        votes. At most :data:`MAX_ANCHORS` k-grams are looked up, whatever the quote's
        length. None when no rare k-gram of the quote occurs."""
        index, k = self.locator._index, K
        last = max(len(key) - k + 1, 1)
        step = max(3, -(-last // MAX_ANCHORS))
        votes: dict[int, int] = {}
        shifts: dict[int, int] = {}
        first: dict[int, int] = {}
        get, vote = index.get, votes.get
        for i in range(0, last, step):
            positions = get(key[i : i + k], ())
            if 0 < len(positions) <= 20:
                for p in positions:
                    s = p - i
                    bucket = s // 32
                    votes[bucket] = vote(bucket, 0) + 1
                    if s in shifts:
                        shifts[s] += 1
                    else:  # the first k-gram to vote for this shift
                        shifts[s] = 1
                        first[s] = i
        if not votes:
            return None
        best = max(votes, key=lambda b: (votes[b], -b))
        shift = max((s for s in shifts if s // 32 == best), key=lambda s: (shifts[s], -s))
        runners_up = [b * 32 for b in sorted(votes, key=lambda b: (-votes[b], b))
                      if b != best and votes[b] * 2 >= votes[best]][: WINDOWS - 1]
        return shift, first[shift], runners_up

    def _to_text(self, pos: int) -> int:
        """A position of the searched text (the skeleton) as a position of the normalized text."""
        skel_map = self.locator._skel_map
        if skel_map is None:
            return min(max(pos, 0), len(self.text))
        if pos >= len(skel_map):
            return len(self.text)
        return skel_map[max(pos, 0)]

    def _scan(self, q: str) -> tuple[int, int] | None:
        """A window for a quote with no rare k-gram in the document: the place where
        its first :data:`SCAN_CHARS` characters align best (one bit-parallel pass over
        the text, whatever the quote's length)."""
        text = self.text
        if len(q) <= SCAN_CHARS:
            return 0, len(text)
        alignment = fuzz.partial_ratio_alignment(q[:SCAN_CHARS], text)
        if alignment is None or alignment.score <= 0:
            return None
        at = alignment.dest_start
        return max(0, at - len(q)), min(len(text), at + 2 * len(q) + 64)

    def _short_windows(self, q: str) -> list[tuple[int, int]]:
        """Windows of the text to align a short quote in: around the place its rare
        k-grams vote for, then around up to :data:`WINDOWS` - 1 places with at least
        half as many votes (a short quote with a word changed can share as many k-grams
        with another sentence as with its own: the alignment decides)."""
        key = q if self.locator._skel_map is None else skeleton(q)
        anchor = self._shift(key)
        if anchor is None:
            window = self._scan(q)
            return [] if window is None else [window]
        out = []
        for at in ((anchor[0] // 32) * 32, *anchor[2]):
            best = self._to_text(at)
            out.append((max(0, best - len(q)), min(len(self.text), best + 2 * len(q) + 64)))
        return out

    def _excerpt(self, q: str) -> tuple[int, int, tuple[int, int] | None]:
        """For a long quote: the excerpt ``q[qa:qb]`` around its first difference from
        the passage it was anchored to, and the window of the text to align it in.

        From the first k-gram that sits where the anchors say, the agreement with the
        text is extended backwards, and when it reaches the quote's start, forwards; the
        first difference is where it stops (binary searches over slice comparisons, so
        O(n log n) character comparisons done in C)."""
        text = self.text
        both = self.locator._skel_map is not None
        key = skeleton(q) if both else q
        hay = self.locator._skel
        anchor = self._shift(key)
        if anchor is None:
            window = self._scan(q[: 2 * EXCERPT_HALF])
            return 0, min(len(q), 2 * EXCERPT_HALF), window
        shift, i, _ = anchor
        back = _common_suffix(key, i, hay, shift + i)
        if back < i:
            d_key = i - back
        else:
            d_key = min(i + _common_prefix(key, i, hay, shift + i), len(key) - 1)
        if both and key != q:
            _, qmap = skeleton_with_map(q)
            d = qmap[min(d_key, len(qmap) - 1)]
        else:
            d = d_key
        qa = max(0, d - EXCERPT_HALF)
        qb = min(len(q), qa + 2 * EXCERPT_HALF)
        qa = max(0, qb - 2 * EXCERPT_HALF)
        if qa > 0:  # whole words only
            space = q.find(" ", qa, qa + 30)
            qa = space + 1 if space >= 0 else qa
        if qb < len(q):
            space = q.rfind(" ", qb - 30, qb)
            qb = space if space > qa else qb
        at = self._to_text(shift + d_key) - (d - qa)
        return qa, qb, (max(0, at - EXCERPT_HALF), min(len(text), at + (qb - qa) + EXCERPT_HALF))

    def _optional_hyphens(self, a: int, b: int) -> frozenset[int]:
        """Offsets, within normalized ``[a, b)`` and counted from ``a``, of the line-end
        hyphens the text may be read without (``hyphenation=both``)."""
        optional = self.locator.norm.optional_positions
        text = self.text
        return frozenset(i - a for i in optional[bisect_left(optional, a) : bisect_left(optional, b)]
                         if text[i] in "-\u2010")

    def near_miss(self, q: str) -> NearMiss | None:
        """The closest passage to ``q`` and a suspected cause, or None when nothing
        aligns (see :meth:`_near_miss_in_text`). A short quote that the text has nothing
        close to (under :data:`MIN_SIMILARITY`) is also compared with the page furniture
        the rules take out of the text (running headers and footers, margin stamps): a
        changed number in a quoted running header is then named as such, on its page."""
        miss = self._near_miss_in_text(q)
        if len(q) <= FURNITURE_CHARS and (miss is None or miss.similarity < MIN_SIMILARITY):
            furniture = self._near_miss_in_furniture(q)
            if furniture is not None and (miss is None or furniture.similarity > miss.similarity):
                return furniture
        return miss

    def _near_miss_in_furniture(self, q: str) -> NearMiss | None:
        """The furniture line closest to ``q`` (at least :data:`MIN_SIMILARITY` similar),
        with the cause a word-level comparison gives; None when that comparison finds
        the quote's words are not there either."""
        best = None
        for page, start, line in self.locator._furniture_lines():
            alignment = fuzz.partial_ratio_alignment(q, line.text)
            if alignment is None or alignment.score < MIN_SIMILARITY:
                continue
            a, b = _widen(line.text, alignment.dest_start, alignment.dest_end)
            if a >= b:
                continue
            similarity = fuzz.ratio(q, line.text[a:b])
            if best is None or similarity > best[0]:
                best = (similarity, page, start, line, a, b)
        if best is None or best[0] < MIN_SIMILARITY:
            return None
        similarity, page, start, line, a, b = best
        passage = line.text[a:b]
        cause, detail = _word_cause(q, line.text, similarity)
        if cause == "not-in-document":
            return None  # a header sharing some words explains nothing
        if cause == "punctuation-differs" and detail == _PUNCT_DETAIL:
            detail = _describe_edit(passage, q, _first_edit(passage, q)) or detail
        starts, ends = line.offsets
        return NearMiss(passage=passage, start=start + starts[a], end=start + ends[b - 1], page=page,
                        similarity=similarity, quote=q, cause=cause,
                        detail=f"{detail} (in the page furniture: a running header or footer, a page number or a margin stamp)")

    def _near_miss_in_text(self, q: str) -> NearMiss | None:
        """The closest passage to ``q`` in the normalized text and a suspected cause, or
        None when nothing aligns. The cost is bounded: a quote up to :data:`ALIGN_CHARS`
        characters is aligned whole in the windows its k-grams point to; a longer one is diagnosed on an
        excerpt around its first difference, found with O(n log n) character
        comparisons; the exact probes are substring searches, linear. Callers refuse quotes longer than
        :data:`DIAGNOSE_CHARS` before asking (cause ``too-long-to-diagnose``)."""
        text = self.text
        if len(q) > DIAGNOSE_CHARS:
            return None
        if len(q) <= ALIGN_CHARS:
            e, qa, windows = q, 0, self._short_windows(q)
        else:
            qa, qb, window = self._excerpt(q)
            e = q[qa:qb]
            windows = [] if window is None else [window]
        alignment, lo = None, 0
        for w_lo, w_hi in windows:
            found = fuzz.partial_ratio_alignment(e, text[w_lo:w_hi])
            if found is not None and (alignment is None or found.score > alignment.score):
                alignment, lo = found, w_lo
        if alignment is None or alignment.score <= 0:
            return None
        a, b = _widen(text, lo + alignment.dest_start, lo + alignment.dest_end)
        b = min(b, len(text))
        passage = text[a:b]
        if not passage.strip():
            return None  # only whitespace aligned: there is no passage to show
        similarity = fuzz.ratio(e, passage)
        probe = self._probe_cause(q)
        if probe is None and similarity < CLOSE_SIMILARITY:
            spliced = self._splice(q)
            probe = ("spliced", spliced) if spliced else None
        if probe is None:
            ca, cb = _expand_words(text, a, b, 6)
            probe = _word_cause(e, text[ca:cb], similarity)
        cause, detail = probe
        if cause == "punctuation-differs" and detail == _PUNCT_DETAIL:
            # a line-end hyphen the text may be read without is no difference
            op = _first_edit(passage, e, self._optional_hyphens(a, b))
            detail = _describe_edit(passage, e, op) or detail
            rules = self.locator.rules
            if not rules.slash_spacing and _space_left_out(passage, op) and passage[op.src_start - 1] == "/":
                detail += "; a space after a slash (a URL or path broken at a line end): the slash_spacing rule ignores it"
            elif not rules.url_spacing and _space_left_out(passage, op) and op.src_start in url_breaks(passage):
                detail += "; a space inside a URL (a URL broken at a line end): the url_spacing rule ignores it"
        if e is not q:
            detail = f"{detail} (excerpt from character {qa} of the {len(q)}-character quote)"
        # a passage that crosses a jump of the reading order (into a float or another
        # column) covers every piece of it, as an accepted quote's offsets do: its
        # first character need not be the earliest in the text, nor its last the latest
        pieces = self.locator.norm.segments(a, b)
        start, end = min(s for s, _ in pieces), max(e for _, e in pieces)
        page = self.locator.document.page_at(start)
        if cause != "unverifiable-page" and any(s < end and start < e for s, e in self.locator.document.hidden):
            cause, detail = "invisible-text", f"the closest passage, on page {page}, is invisible (hidden, white or tiny)"
        return NearMiss(
            passage=passage,
            start=start,
            end=end,
            page=page,
            similarity=similarity,
            quote=e,
            cause=cause,
            detail=detail,
        )


_CASE_UNIT = re.compile(r"\w+")
_NUMBER_UNIT = re.compile(r"\d+(?:[.,]\d+)*")


def _first_word_difference(passage: str, quote: str, unit: re.Pattern) -> str | None:
    """The first unit (a word, a number) at which ``passage`` and ``quote``, of one
    length and differing only in such units' letters or digits, differ: "'x' in the
    document, 'y' in the quote"; None when there is none."""
    for m in unit.finditer(passage):
        if quote[m.start() : m.end()] != m.group():
            n = unit.match(quote, m.start())
            theirs = n.group() if n else quote[m.start() : m.end()]
            return f"'{m.group()}' in the document, '{theirs}' in the quote"
    return None


def _space_places(text: str) -> set[int]:
    """Where ``text`` has a space, as positions in ``text`` without its spaces."""
    places, at = set(), 0
    for ch in text:
        if ch == " ":
            places.add(at)
        else:
            at += 1
    return places


def _spacing_difference(passage: str, quote: str) -> str:
    """The first words of ``passage`` and ``quote`` (the same characters, spaced
    differently) that do not line up, each side's words over the same characters."""
    def spans(text: str) -> list[tuple[int, int, str]]:
        out, at = [], 0
        for word in text.split(" "):
            if word:
                out.append((at, at + len(word), word))
                at += len(word)
        return out

    ours, theirs = spans(passage), spans(quote)
    doc_cuts = {(a, b) for a, b, _ in ours}
    quote_cuts = {(a, b) for a, b, _ in theirs}
    for a, b, _ in ours + theirs:
        if (a, b) not in doc_cuts or (a, b) not in quote_cuts:
            lo, hi = a, b
            # widen to the words of both sides over these characters
            while True:
                words = [(x, y) for x, y, _ in ours + theirs if x < hi and lo < y]
                new_lo, new_hi = min(x for x, _ in words), max(y for _, y in words)
                if (new_lo, new_hi) == (lo, hi):
                    break
                lo, hi = new_lo, new_hi
            doc = " ".join(w for x, y, w in ours if lo <= x and y <= hi)
            said = " ".join(w for x, y, w in theirs if lo <= x and y <= hi)
            return f"the same characters, spaced differently: '{_clip(doc)}' in the document, '{_clip(said)}' in the quote"
    return "the same characters, spaced differently"


def _common_prefix(a: str, i: int, b: str, j: int) -> int:
    """Length of the longest common prefix of ``a[i:]`` and ``b[j:]`` (binary search)."""
    if j < 0:
        return 0
    lo, hi = 0, min(len(a) - i, len(b) - j)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[i : i + mid] == b[j : j + mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, i: int, b: str, j: int) -> int:
    """Length of the longest common suffix of ``a[:i]`` and ``b[:j]`` (binary search)."""
    if j > len(b):
        return 0
    lo, hi = 0, min(i, max(j, 0))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[i - mid : i] == b[j - mid : j]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _clip(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _expand_words(text: str, a: int, b: int, words: int) -> tuple[int, int]:
    """Grow ``[a, b)`` by up to ``words`` whole words on each side, within one flow."""
    lo = text.rfind("\x00", 0, a) + 1
    hi = text.find("\x00", b)
    hi = len(text) if hi < 0 else hi
    for _ in range(words):
        p = text.rfind(" ", lo, max(a - 1, lo))
        a = lo if p < 0 else p + 1
        q = text.find(" ", min(b + 1, hi), hi)
        b = hi if q < 0 else q
    return a, b


def _widen(text: str, a: int, b: int) -> tuple[int, int]:
    """Extend an alignment to whole words and drop surrounding spaces."""
    while a > 0 and not text[a - 1].isspace() and not text[a].isspace():
        a -= 1
    while b < len(text) and b > 0 and not text[b - 1].isspace() and not text[b].isspace():
        b += 1
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _inside(op: tuple, n_passage: int, n_quote: int) -> tuple:
    """A word edit that replaces the passage's words up to an edge of the quote, with
    the passage side cut to as many words as the quote side, those nearest the rest:
    the passage holds context before and after the quote, which is no part of the edit
    ("INTRODUCTION IN" against the quote's first word "In" is "IN" against "In")."""
    tag, i1, i2, j1, j2 = op
    if tag != "replace" or i2 - i1 <= j2 - j1:
        return op
    if i1 == 0 and j1 == 0 and i2 < n_passage:
        return tag, i2 - (j2 - j1), i2, j1, j2
    if i2 == n_passage and j2 == n_quote and i1 > 0:
        return tag, i1, i1 + (j2 - j1), j1, j2
    return op


def _word_cause(q: str, passage: str, similarity: float) -> tuple[str, str]:
    if similarity < MIN_SIMILARITY:
        return "not-in-document", f"no passage is close (best {similarity:.0f}% similar)"
    qw, pw = _UNITS.findall(q), _UNITS.findall(passage)
    matcher = difflib.SequenceMatcher(None, _unit_keys(pw), _unit_keys(qw), autojunk=False)
    shared = sum(size for _, _, size in matcher.get_matching_blocks())
    if qw and shared / len(qw) < MIN_SHARED_WORDS:
        return "not-in-document", f"no passage has these words (the closest shares {shared} of {len(qw)})"
    ops = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if not ops:
        return "punctuation-differs", "only spacing or punctuation differs"
    kinds = {op[0] for op in ops}
    # A quote that is a shorter or longer window onto the passage differs only at the ends;
    # ignore edits that touch the passage's edges.
    inner = [op for op in ops if not (op[0] == "delete" and (op[1] == 0 or op[2] == len(pw)))]
    if not inner:  # every word of the quote is in the passage, in order: spacing or punctuation differs
        return "punctuation-differs", _PUNCT_DETAIL
    ops = [_inside(op, len(pw), len(qw)) for op in inner]
    kinds = {op[0] for op in ops}
    first = ops[0]
    removed = " ".join(pw[first[1] : first[2]])
    added = " ".join(qw[first[3] : first[4]])
    if all(not any(c.isalnum() for c in "".join(pw[o[1]:o[2]]) + "".join(qw[o[3]:o[4]])) for o in ops):
        return "punctuation-differs", (f"{_show(removed) if removed else 'nothing'} in the document, "
                                       f"{_show(added) if added else 'nothing'} in the quote")
    if kinds == {"delete"}:
        return "word-missing", f"missing from the quote: '{removed}'"
    if kinds == {"insert"}:
        return "word-added", f"not in the document: '{added}'"
    if all(_DIGIT.sub("0", " ".join(pw[o[1]:o[2]])) == _DIGIT.sub("0", " ".join(qw[o[3]:o[4]])) for o in ops if o[0] == "replace") and kinds == {"replace"}:
        return "number-changed", f"'{removed}' in the document, '{added}' in the quote"
    if kinds == {"replace"} and all(" ".join(_unit_keys(pw[o[1]:o[2]])).lower() == " ".join(_unit_keys(qw[o[3]:o[4]])).lower()
                                   for o in ops):  # "ingre-dient", the text's reading of a line-end hyphen, and "Ingredient"
        return "case-differs", f"'{removed}' in the document, '{added}' in the quote"
    return "word-changed", f"'{removed}' in the document, '{added}' in the quote"


_PUNCT_DETAIL = "the words match but punctuation differs"


def _show(text: str) -> str:
    """``text`` quoted, with the Unicode names of its non-ASCII symbols (a U+2010
    HYPHEN and a '-' look alike)."""
    odd = [c for c in dict.fromkeys(text) if not c.isascii() and not c.isalnum()]
    names = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in odd)
    return f"'{text}' ({names})" if names else f"'{text}'"


def _first_edit(passage: str, quote: str, optional: frozenset[int] = frozenset()):
    """The first edit (a rapidfuzz opcode) between the passage and the quote, passing
    over the deletion of passage characters at ``optional`` offsets (line-end hyphens
    the text may be read without); None when there is no other."""
    for op in Levenshtein.opcodes(passage, quote):
        if op.tag == "equal":
            continue
        if op.tag == "delete" and all(i in optional for i in range(op.src_start, op.src_end)):
            continue
        return op
    return None


def _space_left_out(passage: str, op) -> bool:
    """Is the edit ``op`` (:func:`_first_edit`) a space of the passage, after some other
    character, that the quote leaves out?"""
    return op is not None and op.tag == "delete" and passage[op.src_start : op.src_end] == " " and op.src_start > 0


def _describe_edit(passage: str, quote: str, op) -> str:
    """The edit ``op`` (:func:`_first_edit`) as the detail of a rejection; empty for none."""
    if op is None:
        return ""
    removed, added = passage[op.src_start : op.src_end], quote[op.dest_start : op.dest_end]
    return f"{_show(removed) if removed else 'nothing'} in the document, {_show(added) if added else 'nothing'} in the quote"


def char_diff(passage: str, quote: str) -> tuple[DiffOp, ...]:
    """Character diff of the closest passage (document side) against the quote
    (rapidfuzz's Levenshtein opcodes)."""
    return tuple(
        DiffOp(op.tag, passage[op.src_start : op.src_end], quote[op.dest_start : op.dest_end])
        for op in Levenshtein.opcodes(passage, quote)
    )
