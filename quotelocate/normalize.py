"""Normalization: pure text in, normalized text plus an offset map out.

Every rule is one small function registered in :data:`RULES` under the name of its
:class:`Rules` field. A rule looks at the current text and returns *edits*
(``start, end, replacement, flag``); :func:`normalize` applies them and keeps, for every
normalized character, the ``[start, end)`` span of the original text it came from and
the rules that touched it. The same rule functions normalize the document and the
quote, so the check at publish time and the audit later share one normalizer.

Rules, in the order they run:

``furniture``   standalone page-number lines, running headers/footers repeated across
                pages and margin stamps (arXiv identifier) are removed (needs page
                starts; only the document side has them).
``markers``     raised footnote and citation markers glued to a word (found by the
                document's geometry, :attr:`Document.markers`) are removed; the locator
                also accepts a quote that keeps them (document side only).
``invisible``   soft hyphen U+00AD and zero-width characters are removed.
``accents``     a spacing accent next to a letter (``Franc\u00b8ois``, ``na\u00a8\u0131ve``) is
                composed with it into the precomposed letter (``François``, ``naïve``).
``unicode``     on the document side first puts back the character a mis-mapped glyph
                draws (:attr:`Document.glyphs`: a pi-font "e" drawn as an en dash);
                then ``off`` | ``ligatures`` (U+FB00-FB06 spelled out) | ``nfkc`` (NFKC per
                grapheme, except super-/subscripts and vulgar fractions, so "10²" never
                becomes "102", and spacing accents such as "´", which NFKC would split
                into a space and a combining mark).
``quotes``      curly single and double quote marks become straight ones.
``hyphenation`` at an end-of-line hyphen between two letters: ``off`` (a line break
                like any other), ``keep`` (``English-\\nto`` -> ``English-to``), ``drop``
                (``transduc-\\ntion`` -> ``transduction``) or ``both`` (decided per break
                by the quote). Never joins across digits: a line-end hyphen with a digit
                on either side is kept and its break removed (``IEEE-\\n754`` ->
                ``IEEE-754``) unless the mode is ``drop``. With ``suspended_hyphens``, a
                break followed by "and"/"or"/"to"/"," and a later hyphenated word
                (``pre-\nand post-training``) keeps its hyphen and becomes a space.
``whitespace``  any run of whitespace becomes one space (the quote is also stripped).
``math_spacing`` a space between a math symbol (Unicode category Sm) and a letter, a
                digit or another math symbol is removed, on both sides (``x \u2192\u221eas`` and ``x \u2192\u221e as``
                both read ``x\u2192\u221eas``).
``slash_spacing`` a space right after a slash between two other characters is removed,
                on both sides: a URL or path broken after its slash at a line end
                (``github.com/\ntensorflow``) reads with or without the break's space.
``url_spacing`` inside a URL (from its ``scheme://`` or ``www.`` on), a space right
                after a character a URL is broken after (``. / - _ ? & = # ~ % :``), where
                the URL goes on in lower case or digits, is removed, on both sides:
                ``meshhome.\nhtml`` and ``j.\nmeasurement`` read as the URL is written.
``word_gaps``   where the page sets a word gap that the text has no space for
                (``demonstratedtoimprove``, :attr:`Document.word_gaps`), a quote may
                have the space or not: the document is searched as extracted, then,
                for a quote not found, with a space at each such gap.

Case, digits, words, other punctuation and citation markers are never touched.

>>> n = normalize("state-\\nof-the-art trans-\\nduction", Rules(whitespace=True, hyphenation="keep"))
>>> n.text
'state-of-the-art trans-duction'
>>> n.span(0, 16)
(0, 17)
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
import sys
import unicodedata
from array import array
from bisect import bisect_left
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Callable, Sequence

from .errors import ConfigError
from .furniture import text_furniture as find_furniture  # noqa: F401  (part of this module's API)

SEMANTICS_VERSION = 2
"""Bumped whenever a rule's behaviour changes; part of every fingerprint (2: dashes drawn
by one-glyph fonts, digit line-end hyphens, suspended hyphens read from the document's
evidence, quotes within a furniture line, and the reading-order changes of layout 4)."""

# Flags recorded per normalized character: which rule produced or touched it.
QUOTES = 1
WHITESPACE = 2
INVISIBLE = 4
UNICODE = 8
HYPHEN_KEEP = 16
HYPHEN_DROP = 32
FURNITURE = 64
LAYOUT = 128
OPTIONAL = 256  # an end-of-line hyphen that ``hyphenation="both"`` may keep or drop
ELLIPSIS = 512  # the quote matched as fragments around an ellipsis (``ellipsis="fragments"``)
ACCENT = 1024  # a spacing accent and its letter composed into one letter
MATH_SPACE = 2048  # a space next to a math symbol removed
MARKER_OMITTED = 4096  # a raised footnote or citation marker the quote leaves out
MARKER_KEPT = 8192  # a raised marker the quote includes (as digits, superscripts or in brackets)
SUSPENDED = 16384  # a line-end hyphen read as a suspended hyphen ("pre- and post-training")
WORD_GAP = 32768  # a space written where the page sets a word gap the text has no space for

FLAG_NAMES = {
    QUOTES: "quotes",
    WHITESPACE: "whitespace",
    INVISIBLE: "invisible",
    UNICODE: "unicode",
    HYPHEN_KEEP: "hyphenation:keep",
    HYPHEN_DROP: "hyphenation:drop",
    FURNITURE: "furniture",
    LAYOUT: "layout",
    ELLIPSIS: "ellipsis",
    ACCENT: "accents",
    MATH_SPACE: "math-spacing",
    MARKER_OMITTED: "markers:omitted",
    MARKER_KEPT: "markers:kept",
    SUSPENDED: "suspended-hyphens",
    WORD_GAP: "word-gaps",
}

UNICODE_MODES = ("off", "ligatures", "nfkc")
HYPHENATION_MODES = ("off", "keep", "drop", "both")
ELLIPSIS_MODES = ("verbatim", "fragments")
BARRIER = "\x00"
"""Separates independent text flows; no quote can match across it."""


@dataclass(frozen=True)
class Rules:
    """Which normalization rules are on. Every field has a default; vary with
    :meth:`replace`. Two equal configs have equal :attr:`fingerprint`.

    quotes: bool = False
        Curly quote marks (U+2018/2019/201A/201B, U+201C/201D/201E/201F) become ``'``/``"``.
    whitespace: bool = False
        Any run of whitespace (line breaks, tabs, no-break and thin spaces, page
        separators) becomes one space.
    invisible: bool = False
        Remove soft hyphens U+00AD and zero-width characters (U+200B/C/D, U+2060, U+FEFF).
    unicode: str = "off"
        ``off`` | ``ligatures`` (U+FB00-FB06 only) | ``nfkc`` (never folds super- or
        subscript digits or vulgar fractions).
    hyphenation: str = "off"
        End-of-line hyphen between letters: ``off`` | ``keep`` | ``drop`` | ``both``.
    furniture: bool = False
        Remove page-number lines at page boundaries, running headers and footers, and
        margin stamps such as the arXiv identifier.
    layout: bool = False
        Read each PDF page as flows (body, footnotes, floats, furniture) using the
        page geometry, and stitch the body across pages. Only PDFs have geometry.
    word_boundaries: bool = True
        A match that starts or ends with a letter or digit must not start or end
        inside a word of the document ("significant" never matches "insignificant").
    min_chars: int = 12
        A quote with fewer non-space characters once normalized is ``invalid``.
    min_words: int = 3
        A quote with fewer words once normalized is ``invalid``.
    ellipsis: str = "verbatim"
        How a quote with an ellipsis (``...``, ``…``, ``[...]``) is read: ``verbatim``
        (the dots are text like any other) or ``fragments`` (when the quote is not found
        verbatim, the pieces between ellipses must each be found, in order, each one a
        valid quote by itself, no more than ``ellipsis_gap`` normalized characters after
        the previous piece, within one text flow).
    ellipsis_gap: int = 300
        Longest omission an ellipsis may stand for, in normalized characters.
    accents: bool = False
        A spacing accent (``\u00a8 \u00b4 ` \u02c6 \u02dc \u00b8 \u02c7 \u02da \u02d8 \u00af \u02d9 \u02dd \u02db`` and
        the modifier letters ``\u02ca \u02cb \u02c9``) right before or after a letter, dotless
        ``\u0131``/``\u0237`` included, is composed with it into the precomposed letter. A lone
        accent, or one whose letter has no precomposed form, stays.
    markers: bool = False
        Raised, smaller footnote and citation markers glued to a word (``models\u00b3``,
        ``brain\u00b9\u207b\u00b3``), found by font size and baseline, may be left out of a quote
        or kept (as digits, superscripts or in brackets); the verdict records which. A
        raised exponent in math (after a digit, a bracket, a math symbol, a one-letter
        word or in a math font) is not a marker.
    suspended_hyphens: bool = False
        With ``hyphenation`` on: a line-end hyphen followed by "and", "or", "to" or ","
        and, within three words, another hyphenated word is a suspended hyphen
        (``pre-\nand post-training`` reads ``pre- and post-training``, never ``preand``).
    math_spacing: bool = False
        A space between a math symbol (Unicode category Sm) and a letter, a digit or
        another math symbol is ignored on both sides; never a space between two letters
        or two digits. Fonts play no part: a quote has none, and both sides must be
        normalized alike.
    word_gaps: bool = False
        A word gap the page sets between two words whose text has no space between
        them (a tightly justified line: ``demonstratedtoimprove``), found from the
        glyphs' positions at extraction (:attr:`~quotelocate.document.Document.word_gaps`),
        may be matched by a space in the quote or by none. Words, letters and every
        other space are compared as ever.
    slash_spacing: bool = False
        A space right after a slash between two other characters is ignored on both
        sides: a line that ends in a URL's or a path's slash (``github.com/`` then
        ``tensorflow/tensor2tensor``) has no space there for a writer, while the text
        has the line break's. Recorded in a verdict as ``whitespace``.
    url_spacing: bool = False
        Inside a URL (from its ``scheme://`` or ``www.`` on), a space right after one of
        ``. - _ ? & = # ~ % :`` and before a lower-case letter or a digit, or right
        after a slash, is ignored on both sides: a URL or DOI a line broke after a dot
        (``https://doi.org/10.1016/j.`` then ``measurement.2013.03.018``) has no space
        for a writer. A capital or a bracket after the space starts the next sentence
        or reference and ends the URL; outside a URL a space after a dot is a
        sentence's and is kept. Recorded in a verdict as ``whitespace``.
    max_chars: int = 5000
        A quote longer than this many characters, as given, is ``invalid`` (cause
        ``too-long``) before any search; ``0`` means no limit. A model quoting a
        paper does not copy pages, and the limit keeps each verdict cheap.
    """

    quotes: bool = False
    whitespace: bool = False
    invisible: bool = False
    unicode: str = "off"
    hyphenation: str = "off"
    furniture: bool = False
    layout: bool = False
    word_boundaries: bool = True
    min_chars: int = 12
    min_words: int = 3
    ellipsis: str = "verbatim"
    ellipsis_gap: int = 300
    accents: bool = False
    markers: bool = False
    suspended_hyphens: bool = False
    math_spacing: bool = False
    max_chars: int = 5000
    word_gaps: bool = False
    slash_spacing: bool = False
    url_spacing: bool = False

    def __post_init__(self) -> None:
        if self.unicode not in UNICODE_MODES:
            raise ConfigError(f"rules.unicode: {self.unicode!r} is not one of {', '.join(UNICODE_MODES)}")
        if self.hyphenation not in HYPHENATION_MODES:
            raise ConfigError(
                f"rules.hyphenation: {self.hyphenation!r} is not one of {', '.join(HYPHENATION_MODES)}"
            )
        if self.ellipsis not in ELLIPSIS_MODES:
            raise ConfigError(f"rules.ellipsis: {self.ellipsis!r} is not one of {', '.join(ELLIPSIS_MODES)}")
        for name in ("quotes", "whitespace", "invisible", "furniture", "layout", "word_boundaries", "accents",
                     "markers", "suspended_hyphens", "math_spacing", "word_gaps", "slash_spacing", "url_spacing"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"rules.{name}: expected true or false, got {getattr(self, name)!r}")
        for name in ("min_chars", "min_words", "ellipsis_gap", "max_chars"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"rules.{name}: expected a whole number >= 0, got {value!r}")

    def replace(self, **changes) -> "Rules":
        """A copy with some fields changed (``dataclasses.replace``)."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Rules":
        """Inverse of :meth:`to_dict`; unknown keys are an error."""
        if not isinstance(data, dict):
            raise ConfigError(f"rules: expected a mapping, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(key) for key in set(data) - known)
        if unknown:
            raise ConfigError(f"rules: unknown field {', '.join(unknown)}")
        return cls(**data)

    @functools.cached_property
    def fingerprint(self) -> str:
        """Stable id of these semantics: ``ql<version>-<16 hex>``.

        Fields added after semantics version 1 (:data:`_LATER_FIELDS`) enter the hash
        only when they differ from their default, so a fingerprint recorded before
        they existed still names the same semantics. Computed once per (frozen) Rules:
        hashing costs more than a locate, and callers read it for every item.
        """
        data = self.to_dict()
        for name, default in _LATER_FIELDS.items():
            if data[name] == default:
                del data[name]
        payload = json.dumps({"semantics": SEMANTICS_VERSION, "rules": data}, sort_keys=True, separators=(",", ":"))
        return f"ql{SEMANTICS_VERSION}-" + hashlib.sha256(payload.encode()).hexdigest()[:16]

    def active(self) -> tuple[str, ...]:
        """Names of the rules that are on, e.g. ``('quotes', 'hyphenation=both')``."""
        out = []
        for name in ("furniture", "layout", "markers", "invisible", "accents", "quotes", "whitespace"):
            if getattr(self, name):
                out.append(name)
        if self.unicode != "off":
            out.append(f"unicode={self.unicode}")
        if self.hyphenation != "off":
            out.append(f"hyphenation={self.hyphenation}")
        if self.suspended_hyphens:
            out.append("suspended_hyphens")
        if self.math_spacing:
            out.append("math_spacing")
        if self.word_gaps:
            out.append("word_gaps")
        if self.slash_spacing:
            out.append("slash_spacing")
        if self.url_spacing:
            out.append("url_spacing")
        if self.ellipsis != "verbatim":
            out.append(f"ellipsis={self.ellipsis}")
        return tuple(out)

    def describe(self) -> str:
        return ", ".join(self.active()) or "exact substring"


_LATER_FIELDS = {
    "ellipsis": "verbatim",
    "ellipsis_gap": 300,
    "max_chars": 5000,
    "accents": False,
    "markers": False,
    "suspended_hyphens": False,
    "math_spacing": False,
    "word_gaps": False,
    "slash_spacing": False,
    "url_spacing": False,
}
"""Fields added after semantics version 1, with the defaults that reproduce it."""


PRESETS: dict[str, Rules] = {
    "exact": Rules(word_boundaries=False),
    "whitespace": Rules(whitespace=True),
    "two-transform": Rules(quotes=True, whitespace=True),
    "recommended": Rules(
        quotes=True,
        whitespace=True,
        invisible=True,
        unicode="nfkc",
        hyphenation="both",
        furniture=True,
        layout=True,
        accents=True,
        markers=True,
        suspended_hyphens=True,
        math_spacing=True,
        word_gaps=True,
        slash_spacing=True,
        url_spacing=True,
    ),
}
"""Named rule sets. ``recommended`` is the setting the bundled evaluation supports
(see README, "Choosing the recommended preset")."""


def preset(name: str) -> Rules:
    """The :class:`Rules` of a named preset; :class:`ConfigError` for unknown names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ConfigError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None


# ---------------------------------------------------------------------------------------
# Edits and their application


@dataclass(frozen=True)
class Context:
    """What a document-side rule may know besides the text."""

    page_starts: tuple[int, ...] = ()
    furniture_spans: tuple[tuple[int, int], ...] = ()
    marker_spans: tuple[tuple[int, int], ...] = ()  # raised markers, in document text offsets
    glyphs: tuple[tuple[int, str], ...] = ()  # (document offset, the character its glyph draws)
    word_gaps: tuple[int, ...] = ()  # document offsets a word gap without a space precedes
    is_quote: bool = False
    # read every line-end hyphen before a connector as suspended, evidence or not: the
    # evidence may lie past the end of a quote cut from the middle of the passage
    assume_suspended: bool = False


Edit = tuple[int, int, str, int]  # start, end, replacement, flag


@dataclass
class Normalized:
    """Normalized text with a map back to the original.

    ``starts[i]``/``ends[i]`` is the original span character ``i`` came from; ``flags[i]``
    the rules that produced it; ``gaps[i]`` the rules that removed text just before it.

    A map built by the vectorized rules (:meth:`NormalizedArrays.normalized`) keeps
    its offsets as arrays of machine integers, 8 bytes a character where a list holds
    an int object per character (about 40 bytes, and most of the cost of making it);
    ``starts`` and ``ends`` are made lists on first access, and :attr:`offsets` gives
    whichever is there without making anything.
    """

    text: str
    starts: list[int]
    ends: list[int]
    flags: array
    gaps: array
    _optional: list[int] | None = field(default=None, repr=False)
    _jumps: list[int] | None = field(default=None, repr=False)
    _bits: list | None = field(default=None, repr=False)

    @classmethod
    def of_arrays(cls, text: str, starts: array, ends: array, flags: array, gaps: array) -> "Normalized":
        """A map whose offsets are arrays of machine integers, kept as they are (see
        the class): ``starts`` and ``ends`` become lists only when asked for."""
        out = object.__new__(cls)
        out.__dict__.update(text=text, flags=flags, gaps=gaps, _optional=None, _jumps=None, _bits=None,
                            _offsets=(starts, ends))
        return out

    def __getattr__(self, name: str):
        # only called for an attribute that is not set: the offset lists of a map made
        # by of_arrays, on first access
        offsets = self.__dict__.get("_offsets") if name in ("starts", "ends") else None
        if offsets is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.__dict__["starts"], self.__dict__["ends"] = offsets[0].tolist(), offsets[1].tolist()
        return self.__dict__[name]

    @property
    def offsets(self) -> tuple[Sequence[int], Sequence[int]]:
        """``(starts, ends)``: the lists once made, else the arrays they are made from
        (indexing either gives the same ints); never makes the lists."""
        d = self.__dict__
        if "starts" in d:
            return d["starts"], d["ends"]
        return d["_offsets"]

    def span(self, a: int, b: int) -> tuple[int, int]:
        """Original ``[start, end)`` of normalized ``[a, b)`` (``a < b``)."""
        starts, ends = self.offsets
        return starts[a], ends[b - 1]

    def segments(self, a: int, b: int) -> tuple[tuple[int, int], ...]:
        """Original spans of normalized ``[a, b)``: one span, split only where the
        layout reading order jumps (a ``LAYOUT`` gap), e.g. over an interleaved footnote."""
        jumps = self.jumps
        starts, ends = self.offsets
        i, j = bisect_left(jumps, a + 1), bisect_left(jumps, b)
        if i == j:
            return ((starts[a], ends[b - 1]),)
        out = []
        prev = a
        for pos in jumps[i:j]:
            out.append((starts[prev], ends[pos - 1]))
            prev = pos
        out.append((starts[prev], ends[b - 1]))
        return tuple(out)

    @property
    def jumps(self) -> list[int]:
        """Positions where the reading order jumps (layout); sorted."""
        if self._jumps is None:
            self._jumps = _positions_with(self.gaps, LAYOUT)
        return self._jumps

    def rule_flags(self, a: int, b: int) -> int:
        """OR of the flags of ``[a, b)`` and of removals strictly inside it.

        Answered in constant time from a sparse table over ``flags[i] | gaps[i]``:
        level ``k`` holds the OR of every window of ``2**k`` positions.
        """
        table = self._bits
        if table is None:
            table = self._bits = _or_table(self.flags, self.gaps)
        acc = self.flags[a] if a < len(self.flags) else 0
        n = b - a - 1  # positions a+1 .. b-1 count with their gaps
        if n > 0:
            k = n.bit_length() - 1
            level = table[k]
            if level is None:
                level = _or_level(table, k)
            acc |= level[a + 1] | level[b - (1 << k)]
        return acc & ~OPTIONAL

    @property
    def optional_positions(self) -> list[int]:
        if self._optional is None:
            self._optional = _positions_with(self.flags, OPTIONAL)
        return self._optional


def _positions_with(values: array, bit: int) -> list[int]:
    """Sorted positions whose value has ``bit`` set."""
    import numpy as np  # loaded on first index build, not on import

    return np.flatnonzero(np.frombuffer(values, dtype=np.uint16) & bit).tolist()


def _or_table(flags: array, gaps: array) -> list:
    """Sparse table for range-OR queries over ``flags[i] | gaps[i]`` (numpy builds
    it; the levels are plain lists because indexing them is the hot path).

    Level ``k`` is ``None`` until a query first needs it (:func:`_or_level`): turning
    every level into a list cost more than building the table, and the wide levels
    serve only quotes thousands of characters long. The numpy levels follow the list
    slots, so the table has ``2 * levels`` entries."""
    n = len(flags)
    import numpy as np

    level = np.frombuffer(flags, dtype=np.uint16) | np.frombuffer(gaps, dtype=np.uint16)[:n]
    arrays = [level]
    width = 1
    while width * 2 <= n:
        level = level[:-width] | level[width:]
        arrays.append(level)
        width *= 2
    return [None] * len(arrays) + arrays


def _or_level(table: list, k: int) -> list[int]:
    """Level ``k`` of an :func:`_or_table` as a list, made on first use."""
    level = table[k] = table[len(table) // 2 + k].tolist()
    return level


def flag_names(flags: int) -> tuple[str, ...]:
    return tuple(name for bit, name in FLAG_NAMES.items() if flags & bit)


def identity(text: str, *, starts: Sequence[int] | None = None, ends: Sequence[int] | None = None) -> Normalized:
    n = len(text)
    return Normalized(
        text=text,
        starts=list(range(n)) if starts is None else list(starts),
        ends=list(range(1, n + 1)) if ends is None else list(ends),
        flags=array("H", bytes(2 * n)),
        gaps=array("H", bytes(2 * (n + 1))),
    )


def apply_edits(state: Normalized, edits: Sequence[Edit]) -> Normalized:
    """Apply sorted, non-overlapping, non-empty edits, composing the offset map.

    A replaced region's characters all map to the union of the original spans they
    replace; a removed region leaves its flag in ``gaps`` of the next character.
    """
    if not edits:
        return state
    text, starts, ends, flags, gaps = state.text, state.starts, state.ends, state.flags, state.gaps
    pieces: list[str] = []
    ns: list[int] = []
    ne: list[int] = []
    nf = array("H")
    ng = array("H")
    prev = 0
    pending = 0
    for s, e, rep, flag in edits:
        if s > prev:
            pieces.append(text[prev:s])
            ns.extend(starts[prev:s])
            ne.extend(ends[prev:s])
            nf.extend(flags[prev:s])
            g = gaps[prev:s]
            g[0] |= pending
            ng.extend(g)
            pending = 0
        touched = 0
        for v in set(flags[s:e]):
            touched |= v
        for v in set(gaps[s + 1 : e]):
            touched |= v
        touched &= ~OPTIONAL
        if rep:
            pieces.append(rep)
            ns.extend([starts[s]] * len(rep))
            ne.extend([ends[e - 1]] * len(rep))
            nf.extend([touched | flag] * len(rep))
            ng.append(pending | gaps[s])
            ng.extend([0] * (len(rep) - 1))
            pending = 0
        else:
            pending |= flag | touched | gaps[s]
        prev = e
    n = len(text)
    if prev < n:
        pieces.append(text[prev:])
        ns.extend(starts[prev:])
        ne.extend(ends[prev:])
        nf.extend(flags[prev:])
        g = gaps[prev:n]
        g[0] |= pending
        ng.extend(g)
        pending = 0
    ng.append(gaps[n] | pending)
    return Normalized(
        text="".join(pieces),
        starts=ns,
        ends=ne,
        flags=nf,
        gaps=ng,
    )


_ARRAY_MIN_CHARS = 4096
"""From this many characters on, :func:`normalize` composes the offset map with numpy
(:class:`NormalizedArrays`): a document's text takes thousands of edits per rule, which
:func:`apply_edits` composes one Python slice at a time. Shorter texts (a furniture
line, a quote) keep the list path, whose set-up costs nothing."""


_FEW_EDITS = 24
"""Up to this many edits, :meth:`NormalizedArrays.apply` copies the kept runs as slices:
two dozen edits (a few small arrays each) cost less than gathering every output
character by its index; past that the gathering costs less."""


class NormalizedArrays:
    """A :class:`Normalized` with its offset map in numpy arrays (``starts`` and
    ``ends`` int64, ``flags`` and ``gaps`` uint16): the form :func:`normalize` works in
    on a long text, and the layout reading order is built in, so that it reaches the
    rules without a round trip through lists. :meth:`apply` gives what
    :func:`apply_edits` gives on the :class:`Normalized` (the tests compare the two);
    no method changes an array in place, so one instance may be shared."""

    __slots__ = ("ends", "flags", "gaps", "starts", "text")

    def __init__(self, text: str, starts, ends, flags, gaps) -> None:
        self.text, self.starts, self.ends, self.flags, self.gaps = text, starts, ends, flags, gaps

    @property
    def offsets(self) -> tuple[Sequence[int], Sequence[int]]:
        """``(starts, ends)``, as :attr:`Normalized.offsets` gives them."""
        return self.starts, self.ends

    @classmethod
    def identity(cls, text: str) -> "NormalizedArrays":
        import numpy as np

        n = len(text)
        starts = np.arange(n + 1, dtype=np.int64)
        return cls(text, starts[:n], starts[1:], np.zeros(n, dtype=np.uint16), np.zeros(n + 1, dtype=np.uint16))

    @classmethod
    def of(cls, state: Normalized) -> "NormalizedArrays":
        import numpy as np

        return cls(
            state.text,
            np.array(state.starts, dtype=np.int64),
            np.array(state.ends, dtype=np.int64),
            np.frombuffer(state.flags, dtype=np.uint16).copy(),
            np.frombuffer(state.gaps, dtype=np.uint16).copy(),
        )

    def normalized(self) -> Normalized:
        import numpy as np

        # array("q")/("H") hold native-order 64/16-bit numbers: the arrays' bytes as they are
        return Normalized.of_arrays(
            self.text,
            array("q", self.starts.astype(np.int64, copy=False).tobytes()),
            array("q", self.ends.astype(np.int64, copy=False).tobytes()),
            array("H", self.flags.astype(np.uint16, copy=False).tobytes()),
            array("H", self.gaps.astype(np.uint16, copy=False).tobytes()),
        )

    def apply(self, edits: Sequence[Edit]) -> "NormalizedArrays":
        """:func:`apply_edits` in a few vectorized passes: the output is laid out as
        segments (kept text before edit ``k``, then its replacement, ..., then the tail),
        each output character gathers its span from an input position (a replacement's
        from the first and last position it replaces), and every removal's flags go to
        the gap of the first character after it. Up to :data:`_FEW_EDITS` edits, the
        same arrays are laid out by copying the kept runs whole (:meth:`_apply_few`)."""
        if not edits:
            return self
        if len(edits) <= _FEW_EDITS:
            return self._apply_few(edits)
        return self._apply_gathered(edits)

    def _touched(self, S, E):
        """What each edit ``[S, E)`` touched: the flags it replaces and the removals
        strictly inside it, without :data:`OPTIONAL`."""
        import numpy as np

        m, n = len(S), len(self.text)
        ext = np.zeros(n + 1, dtype=np.uint16)
        ext[:n] = self.flags
        bounds = np.empty(2 * m, dtype=np.int64)
        bounds[0::2], bounds[1::2] = S, E
        touched = np.bitwise_or.reduceat(ext, bounds)[0::2]
        bounds[0::2] = S + 1
        inner = np.bitwise_or.reduceat(self.gaps, bounds)[0::2]
        inner[E - S <= 1] = 0
        return (touched | inner) & np.uint16(~OPTIONAL & 0xFFFF)

    def _apply_few(self, edits: Sequence[Edit]) -> "NormalizedArrays":
        """:meth:`apply` for a few edits: each array is the kept runs (slices of the
        input) and the replacements (a replacement's characters all map to the span it
        replaces) joined in one copy, instead of one gather per output character."""
        import numpy as np

        S = np.array([e[0] for e in edits], dtype=np.int64)
        E = np.array([e[1] for e in edits], dtype=np.int64)
        touched = self._touched(S, E).tolist()
        starts, ends, flags, gaps = self.starts, self.ends, self.flags, self.gaps
        ps: list = []
        pe: list = []
        pf: list = []
        pg: list = []
        removals: list[tuple[int, int]] = []  # (output position, flags) of each removal
        out = prev = 0
        for k, (s, e, rep, f) in enumerate(edits):
            ps.append(starts[prev:s])
            pe.append(ends[prev:s])
            pf.append(flags[prev:s])
            pg.append(gaps[prev:s])
            out += s - prev
            r = len(rep)
            if r:
                ps.append(np.full(r, starts[s], dtype=np.int64))
                pe.append(np.full(r, ends[e - 1], dtype=np.int64))
                pf.append(np.full(r, touched[k] | f, dtype=np.uint16))
                g = np.zeros(r, dtype=np.uint16)
                g[0] = gaps[s]
                pg.append(g)
                out += r
            else:
                removals.append((out, f | touched[k] | int(gaps[s])))
            prev = e
        n = len(self.text)
        ps.append(starts[prev:n])
        pe.append(ends[prev:n])
        pf.append(flags[prev:n])
        pg.append(gaps[prev:])  # the tail's gaps and the one after the text's end
        new_gaps = np.concatenate(pg)
        for at, bits in removals:
            new_gaps[at] |= bits
        return NormalizedArrays(_apply_text(self.text, edits), np.concatenate(ps), np.concatenate(pe),
                                np.concatenate(pf), new_gaps)

    def _apply_gathered(self, edits: Sequence[Edit]) -> "NormalizedArrays":
        """:meth:`apply` by one gather per output character (any number of edits)."""
        import numpy as np

        s_, e_, reps, f_ = zip(*edits)
        m, n = len(edits), len(self.text)
        S = np.array(s_, dtype=np.int64)
        E = np.array(e_, dtype=np.int64)
        R = np.fromiter(map(len, reps), dtype=np.int64, count=m)
        F = np.array(f_, dtype=np.uint16)
        flags, gaps = self.flags, self.gaps
        prev_end = np.empty(m, dtype=np.int64)
        prev_end[0] = 0
        prev_end[1:] = E[:-1]
        kept = S - prev_end  # characters kept before edit k
        before = np.cumsum(R) - R  # replacement characters before edit k
        rep_out = np.cumsum(kept) + before  # where edit k's replacement starts in the output
        tail_out = int(rep_out[-1] + R[-1])
        total = tail_out + n - int(E[-1])
        # every output character gathers from an input position: a kept one from its own
        # (position + shift, one shift per run of kept text and the replacement after it),
        # a replaced one from the first position it replaces, set below
        shift = np.empty(m + 1, dtype=np.int64)
        shift[:m] = S - rep_out
        shift[m] = E[-1] - tail_out
        run = np.empty(m + 1, dtype=np.int64)
        run[:m] = kept + R
        run[m] = n - E[-1]
        gs = np.arange(total, dtype=np.int64)
        gs += np.repeat(shift, run)
        rep_edit = np.repeat(np.arange(m), R)
        rep_pos = rep_out[rep_edit] + (np.arange(len(rep_edit)) - before[rep_edit])
        gs[rep_pos] = S[rep_edit]
        touched = self._touched(S, E)
        new_starts = self.starts[gs]
        new_ends = self.ends[gs]
        new_ends[rep_pos] = self.ends[E[rep_edit] - 1]
        new_flags = flags[gs]
        new_flags[rep_pos] = touched[rep_edit] | F[rep_edit]
        new_gaps = np.empty(total + 1, dtype=np.uint16)
        np.take(gaps, gs, out=new_gaps[:total])
        new_gaps[rep_pos] = 0
        replaced = R > 0
        new_gaps[rep_out[replaced]] = gaps[S[replaced]]
        new_gaps[total] = gaps[n]
        removed = ~replaced
        if removed.any():
            np.bitwise_or.at(new_gaps, rep_out[removed], (F | touched | gaps[S])[removed])
        return NormalizedArrays(_apply_text(self.text, edits), new_starts, new_ends, new_flags, new_gaps)


def _apply_text(text: str, edits: Sequence[Edit]) -> str:
    pieces = []
    prev = 0
    for s, e, rep, _ in edits:
        pieces.append(text[prev:s])
        pieces.append(rep)
        prev = e
    pieces.append(text[prev:])
    return "".join(pieces)


# ---------------------------------------------------------------------------------------
# Scanning a document's text

_SCAN_MIN_CHARS = _ARRAY_MIN_CHARS
"""From this many characters on, a rule finds the characters it acts on from the text's
code points in numpy (:class:`_Scan`) rather than with a pattern: ``re`` steps through
a pattern that opens with a character class one character at a time (about 10 ns a
character, half a millisecond on a paper, per rule), where numpy compares every code
point at once. Shorter texts (quotes) keep the patterns, whose set-up costs nothing."""


class _Scan:
    """A text's code points as a numpy array, and where the characters with a property
    are: a table lookup for the ASCII ones, the property itself asked once per distinct
    non-ASCII character (a paper has a few dozen), then those found among the few
    positions that hold one."""

    __slots__ = ("_hyphens", "_high", "_high_at", "codes", "text")

    def __init__(self, text: str) -> None:
        import numpy as np

        self.text = text
        self.codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        self._high_at = None
        self._high: list[int] | None = None
        self._hyphens: list[int] | None = None

    def high_at(self):
        """Positions of the characters above ASCII (a numpy array, ascending)."""
        if self._high_at is None:
            import numpy as np

            self._high_at = np.flatnonzero(self.codes > 0x7F)
        return self._high_at

    def high(self) -> list[int]:
        """The distinct code points above ASCII, ascending."""
        if self._high is None:
            import numpy as np

            self._high = np.unique(self.codes[self.high_at()]).tolist()
        return self._high

    def _high_hits(self, has: Callable[[str], bool]):
        """Positions of the non-ASCII characters ``has`` (a numpy array), or None."""
        extra = [c for c in self.high() if has(chr(c))]
        if not extra:
            return None
        at = self.high_at()
        values = self.codes[at]
        hit = values == extra[0]
        for c in extra[1:]:  # a few; np.isin costs more over any length
            hit |= values == c
        return at[hit]

    def mask(self, has: Callable[[str], bool]):
        """A boolean array: which characters ``has`` (a function of one character)."""
        import numpy as np

        # np.take: a fancy index of the table costs three times as much
        mask = np.take(_ascii_table(has), np.minimum(self.codes, 0x80))
        hits = self._high_hits(has)
        if hits is not None:
            mask[hits] = True
        return mask

    def positions(self, has: Callable[[str], bool]):
        """Where the characters ``has`` are: a numpy array of positions, ascending."""
        import numpy as np

        if _ascii_table(has).any():
            return np.flatnonzero(self.mask(has))
        hits = self._high_hits(has)  # none in ASCII: only the few other positions to look at
        return hits if hits is not None else np.zeros(0, dtype=np.intp)

    def line_end_hyphens(self) -> list[int]:
        """Ascending positions of every hyphen (``-``, U+2010, soft hyphen) followed by
        nothing but spaces, tabs and carriage returns up to a newline: where a pattern
        for a line-end hyphen (``[-...][ \\t\\r]*\\n...``) can match. Found once per
        text: each break pattern of the hyphenation rule asks (a new list each time)."""
        if self._hyphens is None:
            self._hyphens = self._line_end_hyphens()
        return list(self._hyphens)

    def _line_end_hyphens(self) -> list[int]:
        import numpy as np

        codes = self.codes
        at = np.flatnonzero(codes == 0x0A) - 1
        at = at[at >= 0]
        done = []
        for _ in range(4):  # back over the blanks before each newline: most lines end in none
            c = codes[at]
            blank = (c == 0x20) | (c == 0x09) | (c == 0x0D)
            done.append(at[~blank])
            at = at[blank] - 1
            at = at[at >= 0]
            if not len(at):
                break
        else:  # lines ending in longer runs of blanks: the last other character, for all at once
            last = np.where((codes != 0x20) & (codes != 0x09) & (codes != 0x0D), np.arange(len(codes)), -1)
            np.maximum.accumulate(last, out=last)
            at = last[at]
            done.append(at[at >= 0])
        at = np.sort(np.concatenate(done))
        c = codes[at]
        return at[(c == 0x2D) | (c == 0x2010) | (c == 0xAD)].tolist()


@functools.cache
def _ascii_table(has: Callable[[str], bool]):
    """``has`` of each ASCII character, and False at index 128 (where
    :meth:`_Scan.positions` puts every other character before asking about it)."""
    import numpy as np

    return np.array([bool(has(chr(c))) for c in range(0x80)] + [False], dtype=bool)


_last_scan: _Scan | None = None


def _scan(text: str) -> _Scan:
    """The scan of ``text``, kept for the last text asked: the rules of one
    :func:`normalize` see the same text until one of them edits it (and the line-end
    hyphen rule scans it three times). One scan is kept at most, and :func:`normalize`
    lets it go when it is done."""
    global _last_scan
    last = _last_scan
    if last is not None and last.text is text:
        return last
    last = _last_scan = _Scan(text)
    return last


def _matches_at(pattern: re.Pattern[str], text: str, starts: Sequence[int]) -> list[re.Match[str]]:
    """What ``pattern.finditer(text)`` finds, for a pattern that can match only at
    ``starts`` (ascending) and whose matches never hold another of them: each is tried
    there (a lookbehind still sees the text before it)."""
    found = []
    end = 0
    for at in starts:
        if at < end:
            continue
        m = pattern.match(text, at)
        if m is not None:
            found.append(m)
            end = m.end()
    return found


def _break_matches(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern that opens with a line-end hyphen."""
    if len(text) < _SCAN_MIN_CHARS:
        return list(pattern.finditer(text))
    return _matches_at(pattern, text, _scan(text).line_end_hyphens())


# ---------------------------------------------------------------------------------------
# The rules

_LETTER = r"[^\W\d_]"
# The break patterns start with the hyphen and check the letter or digit before it with
# a lookbehind over both: a pattern that opens with a lookbehind is tried at every
# position of the text, one that opens with a character class only where that occurs.
_HYPHEN_BREAK = re.compile(rf"([-\u2010\u00AD])(?<={_LETTER}[-\u2010\u00AD])[ \t\r]*\n\s*(?={_LETTER})")
# a line-end hyphen with a digit on one side ("IEEE-\n754", "pages 12-\n15"): only ever kept
_DIGIT_HYPHEN_BREAK = re.compile(
    r"([-\u2010])(?:(?<=\d[-\u2010])|(?<=[^\W_][-\u2010])(?=[ \t\r]*\n\s*\d))[ \t\r]*\n\s*(?=[^\W_])"
)
# a space followed by more whitespace, or any other whitespace with what follows it;
# opened by the one class so the scan skips ahead to whitespace, where two alternatives
# cost a try of each at every character (the lookbehind asks whether it took a space)
_WS_DOC = re.compile(r"\s(?:(?<! )\s*|\s+)")
_WS_ANY = re.compile(r"\s+")
_WS_ODD = re.compile(r"[^\S ]|  ")
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]|\u00ad(?![ \t\r]*\n)")
_INVISIBLE_ALL = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
"""What the ``ligatures`` mode spells out (U+FB00-FB06; NFKC folds them the same way)."""
_LIGATURE_RE = re.compile("[\ufb00-\ufb06]")
_SINGLE_QUOTES = "\u2018\u2019\u201a\u201b"
_DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f"
_QUOTE_RE = re.compile(f"[{_SINGLE_QUOTES}{_DOUBLE_QUOTES}]")


def _is_mark(ch: str) -> bool:
    """A combining mark (Unicode categories Mn, Mc, Me)."""
    return unicodedata.category(ch)[0] == "M"


@functools.cache
def _nfkc_cluster_re() -> re.Pattern[str]:
    """A cluster NFKC may change: a non-ASCII base with its marks, or any base with marks.

    Built on first use: listing every mark of the Unicode database takes a third of a
    second, which ``import quotelocate`` and ``quotelocate --version`` should not pay."""
    ranges: list[tuple[int, int]] = []
    for cp in range(0x300, sys.maxunicode + 1):
        if _is_mark(chr(cp)):
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    marks = "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(f"[^\\x00-\\x7f][{marks}\\uff9e\\uff9f]*|[\\x00-\\x7f][{marks}]+")


# (halfwidth voiced marks U+FF9E/FF9F extend a cluster: NFKC makes them combining marks,
# which must compose with their base in the same pass, or normalizing twice would differ)
_KEEP_TAGS = ("<super>", "<sub>", "<fraction>")


@functools.lru_cache(maxsize=4096)
def _nfkc_cluster(cluster: str) -> str:
    """NFKC of one grapheme-ish cluster, left alone when it holds a super- or
    subscript or a vulgar fraction, or is a spacing accent that NFKC would spell as a
    space and a combining mark ("\u00b4" -> " \u0301": a new word boundary inside the
    text, which no model writes). Papers repeat few distinct clusters: cached."""
    for ch in cluster:
        if unicodedata.decomposition(ch).startswith(_KEEP_TAGS):
            return cluster
    folded = unicodedata.normalize("NFKC", cluster)
    if folded[:1] == " " and not cluster[:1].isspace():
        return cluster
    return folded


# Spacing accents as old LaTeX output extracts them, with the combining mark each stands
# for. ASCII "^" and "~" are left out (they are operators in formulas); the grave "`"
# only composes between two letters (elsewhere it is a Markdown code fence or a quote).
SPACING_ACCENTS = {
    "\u00a8": "\u0308",  # diaeresis
    "\u00b4": "\u0301",  # acute
    "\u0060": "\u0300",  # grave
    "\u02cb": "\u0300",  # modifier grave
    "\u02ca": "\u0301",  # modifier acute
    "\u02c6": "\u0302",  # modifier circumflex
    "\u02dc": "\u0303",  # small tilde
    "\u00af": "\u0304",  # macron
    "\u02c9": "\u0304",  # modifier macron
    "\u02d8": "\u0306",  # breve
    "\u02d9": "\u0307",  # dot above
    "\u02da": "\u030a",  # ring above
    "\u02dd": "\u030b",  # double acute
    "\u02c7": "\u030c",  # caron
    "\u00b8": "\u0327",  # cedilla
    "\u02db": "\u0328",  # ogonek
}
_BELOW_ACCENTS = "\u00b8\u02db"  # set under the letter: LaTeX emits them after it
_DOTLESS = {"\u0131": "i", "\u0237": "j"}
_ACCENT_RE = re.compile("[" + "".join(SPACING_ACCENTS) + "]")


@functools.lru_cache(maxsize=1024)
def _compose(letter: str, accent: str) -> str | None:
    """The precomposed letter for ``letter`` under ``accent``, or None."""
    if not letter.isalpha():
        return None
    base = _DOTLESS.get(letter, letter)
    composed = unicodedata.normalize("NFC", base + SPACING_ACCENTS[accent])
    return composed if len(composed) == 1 else None


def compose_accents(text: str) -> list[Edit]:
    """Edits composing each spacing accent with the letter next to it.

    An accent set above a letter binds to the letter after it (LaTeX writes the accent
    first: ``na\u00a8\u0131ve``, ``\u02c7Reh\u02dau\u02c7rek``), then to the one before it (``Abbe\u00b4 KA``); a
    cedilla or ogonek the other way round (``Franc\u00b8ois``). Only a pair that has a
    precomposed letter is composed, so a lone accent stays as it is.
    """
    edits: list[Edit] = []
    used = -1  # last text position consumed by an edit
    n = len(text)
    for i in _accent_positions(text):
        if i <= used:
            continue
        accent = text[i]
        prev = text[i - 1] if i > 0 and i - 1 > used else ""
        nxt = text[i + 1] if i + 1 < n else ""
        if accent == "`" and not (prev.isalpha() and nxt.isalpha()):
            continue
        order = ((i - 1, prev), (i + 1, nxt)) if accent in _BELOW_ACCENTS else ((i + 1, nxt), (i - 1, prev))
        for j, letter in order:
            if not letter:
                continue
            composed = _compose(letter, accent)
            if composed is None:
                continue
            s, e = (j, i + 1) if j < i else (i, j + 1)
            edits.append((s, e, composed, ACCENT))
            used = e - 1
            break
    return edits


def rule_markers(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    """Remove raised markers; ``ctx.marker_spans`` are positions in ``text`` here
    (:func:`normalize` maps the document offsets it is given)."""
    if ctx.is_quote:
        return []
    n = len(text)
    # a marker set between a sentence's punctuation and the next word, glued to both
    # ("habits.2 4In the past"), stands where the space between them is: it leaves one
    return [(s, e, " " if 0 < s and e < n and text[s - 1] in _SENTENCE_PUNCT and text[e].isalpha() else "",
             MARKER_OMITTED) for s, e in ctx.marker_spans if 0 <= s < e <= n]


_SENTENCE_PUNCT = ".,;:!?"


def _positions_of(state: Normalized | NormalizedArrays, spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Document spans in the coordinates of ``state``, whose map may reorder the text
    (the layout reading order) or hold a piece twice; every copy kept whole and in
    order counts, a span split or dropped is left out."""
    import numpy as np  # only documents with raised markers need it

    if not len(spans):
        return ()
    # ``offsets``, not ``starts``: a map made from arrays gives them as they are, where
    # its ``starts`` would first make a list of an int object per character
    starts, ends = state.offsets
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    wanted = np.fromiter((s for s, _ in spans), dtype=np.int64, count=len(spans))
    # the characters that come from one original character where a span starts, in order;
    # a span start is looked up in a table over the original offsets (np.isin sorts)
    if not len(starts):
        return ()
    wanted = wanted[(wanted >= 0) & (wanted <= starts.max())]  # no other start can be found
    table = np.zeros(int(wanted.max()) + 2 if len(wanted) else 1, dtype=bool)  # the last: none
    table[wanted] = True
    found = np.flatnonzero((ends - starts == 1) & (starts >= 0)
                           & np.take(table, np.clip(starts, 0, len(table) - 1)))
    at: dict[int, list[int]] = {}
    for i, s in zip(found.tolist(), starts[found].tolist()):
        at.setdefault(s, []).append(i)
    out = []
    for s, e in spans:
        for i in at.get(s, ()):
            if i + (e - s) <= len(starts) and (starts[i : i + e - s] == np.arange(s, e)).all() and (
                ends[i : i + e - s] == np.arange(s + 1, e + 1)
            ).all():
                out.append((i, i + e - s))
    return tuple(sorted(out))


def _glyph_edits(state: Normalized | NormalizedArrays, glyphs: Sequence[tuple[int, str]]) -> list[Edit]:
    """Edits that put the drawn character in place of each mis-mapped one that ``state``
    still holds as it was extracted."""
    drawn = dict(glyphs)
    spans = _positions_of(state, [(s, s + 1) for s in sorted(drawn)])
    return [(i, e, drawn[int(state.starts[i])], UNICODE) for i, e in spans]


def _accent_positions(text: str) -> list[int]:
    if len(text) < _SCAN_MIN_CHARS:
        return [m.start() for m in _ACCENT_RE.finditer(text)]
    return _scan(text).positions(_is_spacing_accent).tolist()


def _is_spacing_accent(ch: str) -> bool:
    return ch in SPACING_ACCENTS


def rule_accents(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    return compose_accents(text)  # it finds the accents; none found, no edit


_MATH_CANDIDATE = re.compile("[+<=>|~\x80-\U0010ffff]")
"""Where a math symbol (Unicode category Sm) can be: an ASCII operator or any non-ASCII
character (a cheap scan before the category check)."""


def _is_math(ch: str) -> bool:
    return ch in "+<=>|~" or (ch > "\x7f" and unicodedata.category(ch) == "Sm")


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def rule_math_spacing(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    """Remove one space between a math symbol and a letter, a digit or another math
    symbol (either order); a space between two letters or two digits stays."""
    if " " not in text:
        return []
    n = len(text)
    spaces: set[int] = set()
    if n < _SCAN_MIN_CHARS:
        symbols = [m.start() for m in _MATH_CANDIDATE.finditer(text) if _is_math(m.group())]
    else:
        symbols = _scan(text).positions(_is_math).tolist()
    for i in symbols:
        if i >= 2 and text[i - 1] == " " and (_is_word(text[i - 2]) or _is_math(text[i - 2])):
            spaces.add(i - 1)
        if i + 2 < n and text[i + 1] == " " and _is_word(text[i + 2]):
            spaces.add(i + 1)
    return [(i, i + 1, "", MATH_SPACE) for i in sorted(spaces)]


def rule_slash_spacing(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    """Remove the one space right after a slash that follows a character other than a
    space and precedes one: a URL or path the line broke after its slash
    (``github.com/\ntensorflow``, whitespace already made one space) reads as the
    writer sets it, ``github.com/tensorflow``, on both sides; ``A / B`` keeps its
    spaces. The edit carries the whitespace flag: it is a space the quote may leave out."""
    edits: list[Edit] = []
    n = len(text)
    at = text.find("/ ")
    while at >= 0:
        if at > 0 and not text[at - 1].isspace() and at + 2 < n and not text[at + 2].isspace():
            edits.append((at + 1, at + 2, "", WHITESPACE))
        at = text.find("/ ", at + 2)
    return edits


_SCHEME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+.-")


def _joins_word(ch: str) -> bool:
    """Would ``ch``, before a URL's start, make the start part of a longer word (a
    word character, a dot, a plus or a hyphen)?"""
    return ch.isalnum() or ch in "_.+-"


def _url_starts(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each URL start in ``text``, in order: a scheme (an ASCII
    letter, then ASCII letters, digits, ``+``, ``.`` or ``-``) and ``://``, or ``www.``,
    neither inside a longer word (:func:`_joins_word`); a start inside the one before
    it is skipped, and at one place the scheme is taken. Each ``://`` and ``www.`` is
    found by a literal search and a scheme is read back from its ``://``: the pattern
    that says the same, tried at every letter of a text, cost a few milliseconds on a
    paper (the tests compare the two)."""
    found: list[tuple[int, int]] = []
    at = text.find("://")
    while at >= 0:
        start = at
        while start > 0 and text[start - 1] in _SCHEME_CHARS:
            start -= 1
        if start < at and text[start].isascii() and text[start].isalpha() and (
                start == 0 or not _joins_word(text[start - 1])):
            found.append((start, at + 3))
        at = text.find("://", at + 3)
    at = text.find("www.")
    while at >= 0:
        if at == 0 or not _joins_word(text[at - 1]):
            found.append((at, at + 4))
        at = text.find("www.", at + 4)
    found.sort(key=lambda m: (m[0], -m[1]))  # at one start, the scheme (the pattern's first choice)
    out: list[tuple[int, int]] = []
    for start, end in found:  # finditer goes on after a match's end
        if not out or start >= out[-1][1]:
            out.append((start, end))
    return out


URL_BREAKS = "./-_?&=#~%:"
"""What a line may break a URL after, the space of the break then being no part of it."""
_URL_RUN = re.compile(r"\S+")


def _url_goes_on(before: str, after: str) -> bool:
    """Does a URL broken after ``before`` go on with ``after`` beyond the break's space?
    After a slash, with anything but a space (as :func:`rule_slash_spacing` reads it).
    After another break character, only with a lower-case letter or a digit: a capital
    starts the next sentence or reference ("msn.com. Their", "004. URL"), as a
    bracket or the flows' separator does; a URL goes on in lower case ("j. measurement",
    "meshhome. html") or in digits ("2018.07. 006")."""
    if before == "/":
        return not after.isspace()
    return after.isdigit() or after.islower()


def url_breaks(text: str) -> list[int]:
    """Offsets of the spaces inside the URLs of ``text``: a URL runs from its start
    (:func:`_url_starts`) over characters other than whitespace and over each single
    space that follows one of :data:`URL_BREAKS` where the URL goes on after it
    (:func:`_url_goes_on`: ``https://doi.org/10.1016/j. measurement.2013.03.018``)."""
    out: list[int] = []
    end = 0
    n = len(text)
    for start, after in _url_starts(text):
        if start < end:
            continue  # a URL inside the one before it ("?u=http://...")
        run = _URL_RUN.match(text, after)
        if run is None:
            continue  # "www." alone, a word, not a URL
        at = run.end()
        while at + 1 < n and text[at] == " " and text[at - 1] in URL_BREAKS and _url_goes_on(text[at - 1], text[at + 1]):
            out.append(at)
            at = _URL_RUN.match(text, at + 1).end()  # what goes on is no space: a run starts there
        end = at
    return out


def rule_url_spacing(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    """Remove the spaces inside URLs (:func:`url_breaks`): a URL the line broke after a
    dot (``meshhome.\nhtml``, whitespace already made one space) reads as written,
    ``meshhome.html``, on both sides; a space after a dot outside a URL is a sentence's
    and stays. The edit carries the whitespace flag: it is a space the quote may
    leave out."""
    return [(at, at + 1, "", WHITESPACE) for at in url_breaks(text)]


def rule_word_gaps(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    """A space before each character a word gap precedes (``ctx.word_gaps``, already in
    the coordinates of ``text``): the character becomes the space and itself, both
    mapped to it. A gap at the text's start, or next to whitespace, takes nothing."""
    edits: list[Edit] = []
    for i in ctx.word_gaps:
        if 0 < i < len(text) and not text[i - 1].isspace() and not text[i].isspace():
            edits.append((i, i + 1, " " + text[i], WORD_GAP))
    return edits


def rule_furniture(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    if ctx.is_quote:
        return []
    spans = set(find_furniture(text, ctx.page_starts))
    spans.update(ctx.furniture_spans)
    edits: list[Edit] = []
    for s, e in sorted(spans):
        if edits and s < edits[-1][1]:
            continue
        # remove the line together with its newline; the previous newline still
        # separates the words around it
        end = e + 1 if e < len(text) and text[e] == "\n" else e
        edits.append((s, end, "", FURNITURE))
    return edits


_INVISIBLE_CHARS = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
"""Every character :data:`_INVISIBLE_ALL` (and so :data:`_INVISIBLE`) can match."""


def rule_invisible(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    # most texts hold none of them: a substring scan per character costs a fraction of
    # the pattern tried at every position
    if not any(ch in text for ch in _INVISIBLE_CHARS):
        return []
    pattern = _INVISIBLE if rules.hyphenation != "off" else _INVISIBLE_ALL
    return [(m.start(), m.end(), "", INVISIBLE) for m in pattern.finditer(text)]


_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def _non_ascii_runs(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every run of non-ASCII characters, in order."""
    if len(text) < _SCAN_MIN_CHARS:
        return [m.span() for m in _NON_ASCII_RUN.finditer(text)]
    import numpy as np

    at = _scan(text).high_at()
    if not len(at):
        return []
    cut = np.flatnonzero(np.diff(at) > 1)
    starts = np.concatenate((at[:1], at[cut + 1]))
    ends = np.concatenate((at[cut], at[-1:])) + 1
    return list(zip(starts.tolist(), ends.tolist()))


def rule_unicode(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    if rules.unicode == "ligatures":
        return [(m.start(), m.end(), LIGATURES[m.group()], UNICODE) for m in _LIGATURE_RE.finditer(text)]
    if rules.unicode == "nfkc":
        if text.isascii() or unicodedata.is_normalized("NFKC", text):
            return []
        edits = []
        clusters = _nfkc_cluster_re()
        # Every cluster holds a non-ASCII character and lies within a run of them plus
        # the one character before (its base): searching only there finds the same
        # clusters without trying the pattern at every ASCII position of the text.
        # The base takes part only when the run opens with a combining mark; any other
        # run's edits depend on its own characters alone, and a paper repeats few
        # distinct runs (a curly quote, a dash, a ligature): each is searched once.
        known: dict[str, list[tuple[int, int, str]]] = {}
        opens: dict[str, bool] = {}  # does a run opening with this character take its base
        for start, end in _non_ascii_runs(text):
            run = text[start:end]
            first = run[0]
            mark = opens.get(first)
            if mark is None:
                mark = opens[first] = _is_mark(first)
            if start and mark:
                for m in clusters.finditer(text, start - 1, end):
                    cluster = m.group()
                    folded = _nfkc_cluster(cluster)
                    if folded != cluster:
                        edits.append((m.start(), m.end(), folded, UNICODE))
                continue
            found = known.get(run)
            if found is None:
                found = known[run] = []
                for m in clusters.finditer(run):
                    cluster = m.group()
                    folded = _nfkc_cluster(cluster)
                    if folded != cluster:
                        found.append((m.start(), m.end(), folded))
            for s, e, folded in found:
                edits.append((start + s, start + e, folded, UNICODE))
        return edits
    return []


def rule_quotes(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    if len(text) < _SCAN_MIN_CHARS:
        return [
            (m.start(), m.end(), "'" if m.group() in _SINGLE_QUOTES else '"', QUOTES)
            for m in _QUOTE_RE.finditer(text)
        ]
    return [(i, i + 1, "'" if text[i] in _SINGLE_QUOTES else '"', QUOTES) for i in _scan(text).positions(_is_curly_quote).tolist()]


def _is_curly_quote(ch: str) -> bool:
    return ch in _SINGLE_QUOTES or ch in _DOUBLE_QUOTES


# A line-end hyphen before a connector: "pre-\nand post-", "first-\n, second-"
_SUSPENDED_BREAK = re.compile(rf"([-\u2010])(?<={_LETTER}[-\u2010])([ \t\r]*\n\s*)(?:(?:and|or|to|nor)(?=\s|\Z)|(?=,))")
# ... and the hyphenated word that must follow within three words: "post-training", "mid-,"
_LATER_COMPOUND = re.compile(rf",?(?:\s+[^\s,.;:]+,?){{0,2}}?\s+[^\s,.;:]*{_LETTER}[-\u2010](?:{_LETTER}|[\s,])")


def suspended_breaks(text: str, *, evidence: bool = True) -> list[tuple[int, int]]:
    """``(hyphen, break end)`` of every line-end hyphen in ``text`` read as a suspended
    hyphen: the next line starts with "and", "or", "to", "nor" or "," and a hyphenated
    word follows within three words ("pre-\\nand post-training", "first-\\n, second-").
    The evidence must lie in ``text``: a quote that stops before it reads the break as
    an ordinary line-end hyphen, unless ``evidence=False`` (every such break)."""
    return [(m.start(), m.end(2)) for m in _break_matches(_SUSPENDED_BREAK, text)
            if not evidence or _LATER_COMPOUND.match(text, m.end(), m.end() + 80)]


def suspended_quote_reading(quote: str, rules: Rules) -> tuple[str, int] | None:
    """The quote normalized with every line-end hyphen before a connector read as
    suspended, or None when that is no other reading than :func:`normalize_quote`'s.

    A quote that copies ``pre-\\nand`` and stops before "post-training" has no evidence
    of its own, while the document, which has it, reads the break as ``pre- and``. The
    locator tries this reading when the ordinary one is not found; it matches only where
    the document read the same break the same way, so it accepts nothing the paper does
    not say."""
    if not rules.suspended_hyphens or not _enabled(rules, "hyphenation") or "\n" not in quote:
        return None
    if "-" not in quote and "\u2010" not in quote:
        return None
    text, used = quote, 0
    for fn in _quote_rules(rules):
        edits = fn(text, rules, _QUOTE_SUSPENDED_CTX)
        if edits:
            text = _apply_text(text, edits)
            for edit in edits:
                used |= edit[3]
    if not used & SUSPENDED or text == normalize_quote(quote, rules)[0]:
        return None
    return text, used & ~OPTIONAL


def rule_hyphenation(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    if "\n" not in text:
        return []
    mode = rules.hyphenation
    edits = []
    suspended: set[int] = set()
    if rules.suspended_hyphens:
        # A suspended hyphen ("pre-\nand post-training"): the hyphen stays, the break
        # becomes one space (nothing before a comma). "cost-\nto-benefit" is not one.
        for at, brk in suspended_breaks(text, evidence=not ctx.assume_suspended):
            suspended.add(at)
            edits.append((at, at + 1, text[at], SUSPENDED))
            edits.append((at + 1, brk, "" if text[brk : brk + 1] == "," else " ", SUSPENDED))
    for m in _break_matches(_HYPHEN_BREAK, text):
        if m.start() in suspended:
            continue
        hyphen = m.group(1)
        if hyphen == "\u00ad" or mode == "drop":
            edits.append((m.start(), m.end(), "", HYPHEN_DROP))
            continue
        # keep: the hyphen stays itself (a match may end on it without taking in the
        # line break), the break after it goes; both: the hyphen is marked optional
        flag = HYPHEN_KEEP if mode == "keep" or ctx.is_quote else HYPHEN_KEEP | OPTIONAL
        edits.append((m.start(), m.start() + 1, hyphen, flag))
        edits.append((m.start() + 1, m.end(), "", HYPHEN_KEEP))
    digit_breaks: list[re.Match[str]] = []
    if mode != "drop":
        # A break after a hyphen next to a digit: the hyphen is printed and the line
        # break is no space ("IEEE-\n754" reads "IEEE-754"); dropping it would join numbers.
        digit_breaks = [m for m in _break_matches(_DIGIT_HYPHEN_BREAK, text) if m.start() not in suspended]
        for m in digit_breaks:
            edits.append((m.start(), m.start() + 1, m.group(1), HYPHEN_KEEP))
            edits.append((m.start() + 1, m.end(), "", HYPHEN_KEEP))
    if suspended or digit_breaks:
        edits.sort()  # the scans interleave
    return edits


def _whitespace_runs(text: str) -> list[Edit]:
    """What :data:`_WS_DOC` finds in a long text: every run of whitespace (``\\s``:
    the characters ``str.isspace`` accepts) except a lone space, each to become one."""
    import numpy as np

    scan = _scan(text)
    at = scan.positions(str.isspace)
    if not len(at):
        return []
    # runs of consecutive positions: one starts where the one before is not a space
    cut = np.flatnonzero(np.diff(at) > 1)
    starts = np.concatenate((at[:1], at[cut + 1]))
    ends = np.concatenate((at[cut], at[-1:])) + 1
    keep = (ends - starts > 1) | (scan.codes[starts] != 0x20)
    return list(zip(starts[keep].tolist(), ends[keep].tolist(), itertools.repeat(" "), itertools.repeat(WHITESPACE)))


def rule_whitespace(text: str, rules: Rules, ctx: Context) -> list[Edit]:
    if not ctx.is_quote:
        if len(text) < _SCAN_MIN_CHARS:
            return [(m.start(), m.end(), " ", WHITESPACE) for m in _WS_DOC.finditer(text)]
        return _whitespace_runs(text)
    if not _WS_ODD.search(text) and text[:1] != " " and text[-1:] != " ":
        return []  # only single spaces between words: nothing to do (the common case)
    n = len(text)
    edits = []
    for m in _WS_ANY.finditer(text):
        s, e = m.span()
        if s == 0 or e == n:
            edits.append((s, e, "", WHITESPACE))
        elif m.group() != " ":
            edits.append((s, e, " ", WHITESPACE))
    return edits


RULES: dict[str, Callable[[str, Rules, Context], list[Edit]]] = {
    "furniture": rule_furniture,
    "markers": rule_markers,
    "invisible": rule_invisible,
    "word_gaps": rule_word_gaps,
    "accents": rule_accents,
    "unicode": rule_unicode,
    "quotes": rule_quotes,
    "hyphenation": rule_hyphenation,
    "whitespace": rule_whitespace,
    "math_spacing": rule_math_spacing,
    "slash_spacing": rule_slash_spacing,
    "url_spacing": rule_url_spacing,
}
"""Rule functions in the order they run, each under its :class:`Rules` field name."""


def _enabled(rules: Rules, name: str) -> bool:
    value = getattr(rules, name)
    return value not in (False, "off")


def normalize(
    text: str, rules: Rules, *, context: Context | None = None, base: Normalized | NormalizedArrays | None = None
) -> Normalized:
    """Normalize document text, keeping the map to original offsets.

    ``base`` lets a caller start from an already mapped text (the layout reader's
    reading order); otherwise the map starts as the identity on ``text``.
    """
    ctx = context or Context()
    length = len(base.text) if base is not None else len(text)
    state: Normalized | NormalizedArrays
    if isinstance(base, NormalizedArrays) and length < _ARRAY_MIN_CHARS:
        base = base.normalized()
    if length < _ARRAY_MIN_CHARS:
        state = base if base is not None else identity(text)
        apply: Callable[[Sequence[Edit]], Normalized | NormalizedArrays] = lambda edits: apply_edits(state, edits)  # noqa: E731
    else:
        if base is None:
            state = NormalizedArrays.identity(text)
        else:
            state = base if isinstance(base, NormalizedArrays) else NormalizedArrays.of(base)
        apply = lambda edits: state.apply(edits)  # noqa: E731
    global _last_scan
    try:
        for name, fn in RULES.items():
            if _enabled(rules, name):
                if name == "markers":
                    if not ctx.marker_spans:
                        continue
                    fn_ctx = replace(ctx, marker_spans=_positions_of(state, ctx.marker_spans))
                    state = apply(fn(state.text, rules, fn_ctx))
                    continue
                if name == "word_gaps":
                    if not ctx.word_gaps:
                        continue
                    at = _positions_of(state, [(g, g + 1) for g in ctx.word_gaps])
                    state = apply(fn(state.text, rules, replace(ctx, word_gaps=tuple(a for a, _ in at))))
                    continue
                if name == "unicode" and ctx.glyphs:
                    state = apply(_glyph_edits(state, ctx.glyphs))
                state = apply(fn(state.text, rules, ctx))
    finally:
        _last_scan = None  # let go of the last scan: it holds four bytes per character of the text
    return state.normalized() if isinstance(state, NormalizedArrays) else state


_QUOTE_CTX = Context(is_quote=True)
_QUOTE_SUSPENDED_CTX = Context(is_quote=True, assume_suspended=True)


@functools.lru_cache(maxsize=64)
def _quote_rules(rules: Rules) -> tuple[Callable[[str, Rules, Context], list[Edit]], ...]:
    return tuple(fn for name, fn in RULES.items() if name not in _DOCUMENT_ONLY and _enabled(rules, name))


_DOCUMENT_ONLY = ("markers", "furniture", "word_gaps")  # rules that need the document's geometry or pages


def normalize_quote(quote: str, rules: Rules) -> tuple[str, int]:
    """Normalize a quote with the same rule functions; returns (text, flags used).

    No offset map is built, which keeps this on the fast path of :meth:`Locator.locate`.
    """
    if quote.isascii() and quote.isprintable() and "  " not in quote and quote[:1] != " " and quote[-1:] != " ":
        # No rule changes clean printable ASCII (single spaces; every other ASCII space
        # is unprintable): NFKC is the identity on ASCII, and curly quotes, ligatures
        # and invisible characters are not ASCII. Only math spacing and the grave
        # accent look at a few ASCII characters.
        math = rules.math_spacing and ("=" in quote or "+" in quote or "<" in quote or ">" in quote
                                       or "|" in quote or "~" in quote)
        grave = rules.accents and "`" in quote
        slash = rules.slash_spacing and "/ " in quote
        url = rules.url_spacing and " " in quote and ("://" in quote or "www." in quote)
        if not (math or grave or slash or url):
            return quote, 0
        # only these four rules change clean ASCII: run just them, in their order
        text, used = quote, 0
        for needed, fn in ((grave, rule_accents), (math, rule_math_spacing), (slash, rule_slash_spacing),
                           (url, rule_url_spacing)):
            if needed:
                edits = fn(text, rules, _QUOTE_CTX)
                if edits:
                    text = _apply_text(text, edits)
                    used |= edits[0][3]
        return text, used
    text = quote
    used = 0
    for fn in _quote_rules(rules):
        edits = fn(text, rules, _QUOTE_CTX)
        if edits:
            text = _apply_text(text, edits)
            for edit in edits:
                used |= edit[3]
    return text, used & ~OPTIONAL


def normalize_text(text: str, rules: Rules) -> str:
    """Normalize a string without page context (what a quote goes through)."""
    return normalize_quote(text, rules)[0]


# ---------------------------------------------------------------------------------------
# Helpers shared by the locator and the diagnostics

_WORD = re.compile(r"\w+")


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_" or _is_mark(ch)


_SAFE_PAIR = re.compile(r"[\x00-\u02ff](?=[\x00-\u02ff])")
"""A character before U+0300 followed by another: always a grapheme boundary between
them (no Prepend, ZWJ, regional indicator, Extend or SpacingMark lies below U+0300),
except CR LF, which the scan steps over."""


@functools.cache
def _cluster_re():
    """UAX #29 extended grapheme clusters (``regex``'s ``\\X``, current Unicode),
    compiled on first use so ``import quotelocate`` does not pay for it."""
    import regex

    return regex.compile(r"\X")


def _safe_start(text: str, pos: int) -> int:
    """The last grapheme boundary at or before ``pos`` that can be found by looking at two
    characters (see :data:`_SAFE_PAIR`): searched in growing windows, so the cost is the
    distance back to it (a few characters in any text with spaces or ASCII)."""
    width = 64
    while True:
        lo = max(0, pos - width)
        last = -1
        for m in _SAFE_PAIR.finditer(text, lo, pos):
            if not (text[m.start()] == "\r" and text[m.start() + 1] == "\n"):
                last = m.start() + 1
        if last > 0:
            return last
        if lo == 0:
            return 0
        width *= 16


def cluster_boundary(text: str, pos: int) -> bool:
    """True when ``pos`` is an extended grapheme cluster boundary of ``text`` (UAX #29,
    as implemented by the ``regex`` module's ``\\X``): a match never starts or ends
    inside a cluster (a base and its marks, a Thai SARA AM, a Devanagari conjunct, a
    Hangul syllable in jamo, an emoji ZWJ sequence, a flag, a Prepend and its base).

    Two characters both below U+0300 decide at once (the only cluster among them is CR
    LF); otherwise clusters are matched from the nearest earlier boundary that two
    characters prove, so only a small window around ``pos`` is segmented."""
    if pos <= 0 or pos >= len(text):
        return True
    nxt, prev = text[pos], text[pos - 1]
    if nxt < "\u0300" and prev < "\u0300":
        return not (prev == "\r" and nxt == "\n")
    start = _safe_start(text, pos)
    for m in _cluster_re().finditer(text, start):
        end = m.end()
        if end >= pos:
            return end == pos
    return True
