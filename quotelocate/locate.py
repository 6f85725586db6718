"""The locator: is a quote verbatim in the document (up to the rules), and where?

:class:`Locator` normalizes the document once and indexes it; :meth:`Locator.locate`
normalizes the quote with the same rule functions, finds every occurrence, checks each
one (word and grapheme boundaries, unverifiable pages), filters by the material the
model saw (chunk, group or document scope) and returns a :class:`Verdict`.

Acceptance is exact string equality of normalized text, never a similarity score. A
rejection carries a near miss from :mod:`quotelocate.diagnose` that explains it.

>>> from quotelocate.document import Document
>>> doc = Document.from_text("The model uses trans-\\nduction and the \\u2018making\\u2019 step.")
>>> v = Locator(doc, preset("recommended")).locate("uses transduction and the 'making' step")
>>> v.accepted, v.status, v.start, v.end, v.rules
(True, 'normalized', 10, 51, ('quotes', 'hyphenation:drop'))
>>> Locator(doc, preset("recommended")).locate("uses transduction and the 'baking' step").cause
'word-changed'
"""

from __future__ import annotations

import dataclasses
import functools
import re
import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Sequence, get_args

from . import prepared_cache
from .collector import collector_paused
from .chunks import Chunk, Chunking, group_of, group_span, make_chunks
from .diagnose import DIAGNOSE_CHARS, Cause, Diagnoser, NearMiss
from .document import Box, Document
from .errors import ChunkError, ConfigError
from .kgrams import K, kgram_index, skeleton, skeleton_with_map
from .normalize import (
    BARRIER,
    ELLIPSIS,
    FURNITURE,
    HYPHEN_DROP,
    HYPHEN_KEEP,
    LAYOUT,
    MARKER_KEPT,
    MARKER_OMITTED,
    OPTIONAL,
    WORD_GAP,
    Context,
    Normalized,
    Rules,
    _positions_of,
    _positions_with,
    cluster_boundary,
    flag_names,
    is_word_char,
    normalize,
    normalize_quote,
    preset,
    suspended_quote_reading,
    word_count,
)
from .prepare import marker_spans, prepare

Status = Literal["exact", "normalized", "group-fallback", "outside-material", "not-found", "invalid"]
"""What became of a quote; the first three are acceptances."""
STATUSES: tuple[Status, ...] = get_args(Status)
VerdictCause = Cause | Literal["outside-material", "nul-character", "too-short", "too-long", "empty", "page-furniture"]
"""The cause a rejected verdict carries: a diagnosis, or why the quote was not looked at."""
VERDICT_CAUSES: tuple[str, ...] = tuple(c for part in get_args(VerdictCause) for c in get_args(part))
"""Every cause a verdict can carry (what the published verdict schema lists)."""
ACCEPTED_STATUSES = frozenset({"exact", "normalized", "group-fallback"})
SCOPES = ("chunk", "group", "document")
_FEW_CANDIDATES = 12
"""Up to this many positions of a quote's first k-gram are checked one by one: a
``startswith`` per position costs less than looking up another k-gram."""
_HYPHENS = ("-", "\u2010")
_ELLIPSIS_RE = re.compile(r"\s*(?:\[\s*(?:\.\s?\.\s?\.|\u2026)\s*\]|\.\s?\.\s?\.|\u2026)\s*")
"""An ellipsis in a quote: ``...``, ``. . .``, ``…`` or any of them in brackets."""


@dataclass(frozen=True)
class Verdict:
    """The answer for one quote.

    ``start``/``end`` index :attr:`Document.text`; ``spans`` lists the original pieces
    when the match skips interleaved material (layout); ``pages`` are 1-based. For
    ``outside-material`` they say where the quote was found although it is rejected.
    ``rules`` are the rules the match needed (empty for ``exact``).
    """

    quote: str
    accepted: bool
    status: Status
    start: int | None = None
    end: int | None = None
    pages: tuple[int, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    rules: tuple[str, ...] = ()
    occurrences: int = 0
    ambiguous: bool = False
    scope: str = "document"
    cited_chunk: int | None = None
    chunks: tuple[int, ...] = ()
    cause: VerdictCause | None = None
    near_miss: NearMiss | None = None
    reason: str = ""
    fingerprint: str = ""
    paper_sha256: str = ""
    document: Document | None = field(default=None, repr=False, compare=False)

    @property
    def page(self) -> int | None:
        return self.pages[0] if self.pages else None

    @property
    def boxes(self) -> tuple[Box, ...]:
        """Highlight rectangles of the match on each page (computed on first use)."""
        cached = self.__dict__.get("_boxes")
        if cached is None:
            cached = self.document.boxes(self.spans) if self.document is not None and self.spans else ()
            object.__setattr__(self, "_boxes", cached)
        return cached

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; enough for :func:`quotelocate.evaluation.audit.audit_records` to re-check."""
        return {
            "accepted": self.accepted,
            "status": self.status,
            "page": self.page,
            "pages": list(self.pages),
            "start": self.start,
            "end": self.end,
            "spans": [list(s) for s in self.spans],
            "boxes": [[b.page, round(b.x0, 2), round(b.y0, 2), round(b.x1, 2), round(b.y1, 2)] for b in self.boxes],
            "rules": list(self.rules),
            "occurrences": self.occurrences,
            "ambiguous": self.ambiguous,
            "scope": self.scope,
            "cited_chunk": self.cited_chunk,
            "chunks": list(self.chunks),
            "cause": self.cause,
            "reason": self.reason,
            "near_miss": self.near_miss.to_dict() if self.near_miss else None,
            "fingerprint": self.fingerprint,
            "sha256": self.paper_sha256,
        }


class _Occurrence(NamedTuple):
    a: int  # normalized start
    b: int  # normalized end
    start: int  # original start
    end: int  # original end
    flags: int
    segments: tuple[tuple[int, int], ...] | None = None  # when the reading order jumps inside


class Locator:
    """Index a document once under some rules, then locate quotes in it.

    ``chunking`` cuts character chunks (default 512/64, groups of 3); ``chunks`` gives
    explicit ones instead (see :func:`quotelocate.chunks.load_chunks_file`).
    """

    _SPACED = False
    """This locator searches the document with a space at each word gap (see
    :meth:`_spaced_locator`)."""
    _MARKERS_AS_EXTRACTED = False
    """This locator searches the document with its raised markers as the text layer has
    them (see :meth:`_markers_locator`)."""

    def __init__(
        self,
        document: Document,
        rules: Rules | str = "recommended",
        *,
        chunking: Chunking | None = None,
        chunks: Sequence[Chunk] | None = None,
    ) -> None:
        if isinstance(rules, str):
            rules = preset(rules)
        if not isinstance(rules, Rules):
            raise ConfigError(f"rules: expected Rules or a preset name, got {type(rules).__name__}")
        t0 = time.perf_counter()
        with collector_paused():  # the build's many objects make no cycles
            self.document = document
            self.rules = rules
            self.fingerprint = rules.fingerprint
            self.chunking = chunking or Chunking()
            self.chunks: tuple[Chunk, ...] = tuple(chunks) if chunks is not None else make_chunks(document.text, self.chunking)
            self._group_size = self.chunking.group_size
            # a document opened through an extraction cache keeps its prepared text and index there
            # the rules the text is prepared with: the caller's, or without the markers
            # rule for the search of markers as extracted (the verdicts keep the caller's)
            prepared = rules.replace(markers=False) if self._MARKERS_AS_EXTRACTED else rules
            own = not (self._SPACED or self._MARKERS_AS_EXTRACTED)  # kept in an extraction cache
            cached = prepared_cache.load(document, rules) if own else None
            self.norm = prepare(document, prepared, word_gaps=self._SPACED) if cached is None else cached
            self._text = self.norm.text
            (self._starts, self._ends), self._original = self.norm.offsets, document.text
            self._both = rules.hyphenation == "both"
            if self._both:
                self._skel, skel_map = skeleton_with_map(self._text)
                self._skel_map: Sequence[int] | None = skel_map
            else:
                self._skel, self._skel_map = self._text, None
            self._index = kgram_index(self._skel)
            if cached is None and own:
                prepared_cache.store(document, rules, self.norm)
            _ = self.norm.optional_positions  # build the lazy list now, not on a hot path
            self._jumps = self.norm.jumps
            self._markers = self._marker_gaps() if prepared.markers else {}
            # what the markers read as extracted: a quote holding none of them is found with
            # its markers as extracted only where it is found here, so it is not searched there
            self._marker_texts = frozenset(
                document.text[s:e] for s, e in marker_spans(document, rules)) if self._markers else frozenset()
            self._as_extracted: Locator | None = None  # with the markers as extracted, built on first need
            glyphs = document.glyphs if rules.unicode != "off" else ()
            self._glyph_chars = frozenset(document.text[o] for o, _ in glyphs)
            self._extracted: Locator | bool | None = None  # False: its map differs from this one's
            # with ``rules.word_gaps`` on, a document with word gaps is also searched with a
            # space at each gap, by a second locator built on first need (False: none)
            self._spaced: Locator | bool | None = (
                None if rules.word_gaps and document.word_gaps and not self._SPACED else False
            )
            # where a word gap starts a word in this text: a word boundary to a match
            self._gap_starts = self._word_gap_starts() if self._spaced is None else frozenset()
            self._marker_positions = sorted(self._markers)
            self._unverifiable = sorted([(p.start, p.end) for p in document.pages if not p.verifiable] + list(document.hidden))
            self._diag: Any = None
            self._furniture: list[tuple[int, int, Normalized]] | None = None
            self._template: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Verdict)}
            self._template.update(fingerprint=self.fingerprint, paper_sha256=document.sha256, document=document)
            self._accepted = dict(self._template, accepted=True)  # what every acceptance shares
            self._chunk_starts = [c.start for c in self.chunks]
            self._chunk_ends = [c.end for c in self.chunks]
            self._page_starts = [p.start for p in document.pages]
            self._page_ends = [p.end for p in document.pages]
            self._one_page = [(p.number,) for p in document.pages]
            self._enough_words = re.compile(r"\w+(?:\W+\w+){%d}" % max(rules.min_words - 1, 0)) if rules.min_words else re.compile("")
            self.norm.rule_flags(0, 0)  # build the flag index now
        self.build_seconds = time.perf_counter() - t0

    # -- index -------------------------------------------------------------------------
    # -- public API ---------------------------------------------------------------------
    def locate(self, quote: str, *, cited_chunk: int | None = None, scope: str | None = None) -> Verdict:
        """Decide whether ``quote`` is in the material and where.

        ``scope`` is ``chunk``, ``group`` or ``document``; by default ``group`` when
        ``cited_chunk`` is given, else ``document``.
        """
        return self._locate(quote, cited_chunk, scope, reject=True)  # type: ignore[return-value]

    def _locate(self, quote: str, cited_chunk: int | None, scope: str | None, *, reject: bool) -> Verdict | None:
        """:meth:`locate`; with ``reject`` False, None where it would reject a quote
        not found (no diagnosis is made)."""
        if not isinstance(quote, str):
            raise ConfigError(f"quote: expected a string, got {type(quote).__name__}")
        if scope is None:
            scope = "document" if cited_chunk is None else "group"
        elif scope not in SCOPES:
            raise ConfigError(f"scope: {scope!r} is not one of {', '.join(SCOPES)}")
        if cited_chunk is not None:
            if isinstance(cited_chunk, bool) or not isinstance(cited_chunk, int) or not 0 <= cited_chunk < len(self.chunks):
                raise ConfigError(f"cited_chunk: {cited_chunk!r} is not a chunk index (0..{len(self.chunks) - 1})")
        elif scope != "document":
            raise ConfigError(f"scope {scope!r} needs a cited chunk")
        limit = self.rules.max_chars
        if limit and len(quote) > limit:
            # checked on the quote as given, before any work that grows with its length
            return self._verdict(
                quote, scope, cited_chunk, accepted=False, status="invalid", cause="too-long",
                reason=f"quote is too long: {len(quote)} characters (> {limit})",
            )  # fmt: skip
        q, qflags = normalize_quote(quote, self.rules)
        reason = self._invalid_reason(q)
        if reason:
            return self._verdict(
                quote, scope, cited_chunk, accepted=False, status="invalid",
                cause="nul-character" if BARRIER in q else "too-short" if q.strip() else "empty", reason=reason,
            )  # fmt: skip

        occurrences = self._find(q)
        if not occurrences and self.rules.suspended_hyphens:
            other = suspended_quote_reading(quote, self.rules)
            if other is not None:
                found = self._find(other[0])
                if found:
                    (q, qflags), occurrences = other, found
        if not occurrences and self._markers:
            tight = [m.span() for m in _QUOTE_MARKER.finditer(q)]
            if tight:
                occurrences = self._find_marked(q, _QUOTE_MARKER)
            # a list of markers written with spaces between its items, as a page sets
            # them ("RCTs26 27 32"): tried only after the tighter reading, which keeps
            # "models3 4 layers" a marker and a number, and only when it reads other pieces
            if not occurrences and [m.span() for m in _QUOTE_MARKER_LIST.finditer(q)] not in ([], tight):
                occurrences = self._find_marked(q, _QUOTE_MARKER_LIST)
        if not occurrences and self._glyph_chars and not self._glyph_chars.isdisjoint(q):
            occurrences = self._find_as_extracted(q)
        if not occurrences and self.rules.ellipsis == "fragments" and _ELLIPSIS_RE.search(q):
            occurrences = self._find_fragments(q)
        if not occurrences:
            # a running header, page number or margin stamp is text of the paper too: the
            # rules take it out of the body's flow, so a quote of it is looked for in it
            occurrences = self._find_in_furniture(q)
        if not occurrences and self._markers and any(m in quote or m in q for m in self._marker_texts):
            # a quote that copies raised markers as the text layer has them, glued to
            # the next word or beside another rule's reading ("habits.2 4In the past",
            # "WHO,33 ... 80e120 g/l"): the text with its markers as extracted
            verdict = self._markers_locator()._locate(quote, cited_chunk, scope, reject=False)
            if verdict is not None:
                return verdict
        if not occurrences:
            spaced = self._spaced_locator()
            if spaced is None:
                return self._reject(q, quote, scope, cited_chunk) if reject else None
            verdict = spaced.locate(quote, cited_chunk=cited_chunk, scope=scope)
            if verdict.accepted or verdict.status == "outside-material":
                return verdict
            # rejected both ways: the closer passage explains it (the gaps as spaces
            # show "to improve" against a quote's "to worsen"), unless the text as
            # extracted differs from the quote in spacing alone (it says where)
            if not reject:
                return None
            rejected = self._reject(q, quote, scope, cited_chunk)
            ours, theirs = rejected.near_miss, verdict.near_miss
            if theirs is not None and rejected.cause != "spacing-differs" and (
                    ours is None or theirs.similarity > ours.similarity):
                return verdict
            return rejected
        if scope == "document":
            inside = occurrences
        else:
            lo, hi = self._material(scope, cited_chunk)
            inside = [o for o in occurrences if lo <= o.start and o.end <= hi]
        if not inside:
            o = occurrences[0]
            return self._verdict(
                quote, scope, cited_chunk, accepted=False, status="outside-material", cause="outside-material",
                reason=f"in the paper at {self._describe_place(o)}, outside the {scope} the model cited (chunk {cited_chunk})",
                occurrences=len(occurrences), ambiguous=len(occurrences) > 1, **self._place(o, qflags, quote),
            )  # fmt: skip
        status = None
        chosen = inside[0]
        if scope == "group":
            chunk = self.chunks[cited_chunk]  # type: ignore[index]
            in_chunk = [o for o in inside if chunk.start <= o.start and o.end <= chunk.end]
            if in_chunk:
                chosen = in_chunk[0]
            else:
                status = "group-fallback"
        start, end, segments, pages, names = self._where(chosen, qflags, quote)
        if status is None:
            status, reason = _accepted_reason(names)
        else:
            reason = f"crosses or lies outside chunk {cited_chunk} but inside its group"
        distinct = len(inside)
        # a copy of a same-sized dict, then stores, is several times faster than a dict
        # display of all the fields (which grows its table key by key)
        values = self._accepted.copy()
        values["quote"] = quote
        values["status"] = status
        values["start"] = start
        values["end"] = end
        values["pages"] = pages
        values["spans"] = segments
        values["rules"] = names
        values["occurrences"] = distinct
        values["ambiguous"] = distinct > 1
        values["scope"] = scope
        values["cited_chunk"] = cited_chunk
        values["chunks"] = self.chunks_containing(start, end)
        values["reason"] = reason
        verdict = object.__new__(Verdict)
        object.__setattr__(verdict, "__dict__", values)
        return verdict

    def _verdict(self, quote: str, scope: str, cited_chunk: int | None, **fields: Any) -> Verdict:
        """A Verdict of this locator, built without the per-field cost of a frozen
        dataclass ``__init__`` (this is the hot path); equal to ``Verdict(**values)``."""
        values = self._template.copy()
        values["quote"] = quote
        values["scope"] = scope
        values["cited_chunk"] = cited_chunk
        values.update(fields)
        verdict = object.__new__(Verdict)
        object.__setattr__(verdict, "__dict__", values)
        return verdict

    def locate_many(
        self, quotes: Sequence[str], *, cited_chunk: int | None = None, scope: str | None = None
    ) -> list[Verdict]:
        """:meth:`locate` for each quote, in order, with the same citation and scope."""
        return [self.locate(q, cited_chunk=cited_chunk, scope=scope) for q in quotes]

    def with_chunks(self, chunks: Sequence[Chunk], *, group_size: int = 1) -> "Locator":
        """This locator with other chunks (what another retrieval showed the model),
        sharing its normalized text and index instead of building them again.

        ``chunks`` are spans of :attr:`Document.text`, numbered from 0 in order of start.
        """
        chunks = tuple(chunks)
        n = len(self.document.text)
        for i, c in enumerate(chunks):
            if c.index != i or not 0 <= c.start <= c.end <= n or (i and c.start < chunks[i - 1].start):
                raise ChunkError(f"chunk {i}: chunks must be numbered from 0 in order of start, within 0..{n}; got {c}")
        other = object.__new__(Locator)
        other.__dict__.update(self.__dict__)
        other.chunking = dataclasses.replace(self.chunking, group_size=group_size)
        other.chunks = chunks
        other._group_size = group_size
        other._chunk_starts = [c.start for c in chunks]
        other._chunk_ends = [c.end for c in chunks]
        if other._spaced:  # the document with spaces at its word gaps: built again for these chunks
            other._spaced = None
        other._as_extracted = None  # its verdicts name chunks: built again for these
        return other

    # -- internals ------------------------------------------------------------------------
    def _invalid_reason(self, q: str) -> str:
        if BARRIER in q:
            return "quote contains a NUL character"
        chars = len(q) - q.count(" ") if self.rules.whitespace else len("".join(q.split()))
        if chars == 0:
            return "quote is empty once normalized"
        if chars < self.rules.min_chars:
            return f"quote is too short to mean anything: {chars} characters (< {self.rules.min_chars})"
        if self._enough_words.search(q) is None:
            words = word_count(q)
            return f"quote is too short to mean anything: {words} words (< {self.rules.min_words})"
        return ""

    def _marker_gaps(self) -> dict[int, tuple[str, ...]]:
        """Normalized position -> the keys of the raised marker removed just before it
        (``markers``): as extracted, and as drawn when the marker holds a mis-mapped
        glyph the ``unicode`` rule reads as the character it draws ("25 28e31", which
        the page prints "25 28–31")."""
        norm, original, starts, ends = self.norm, self.document.text, self._starts, self._ends
        drawn = dict(self.document.glyphs) if self.rules.unicode != "off" else {}
        out = {}
        for p in _positions_with(norm.gaps, MARKER_OMITTED):
            if 0 < p < len(norm.text):
                a, b = ends[p - 1], starts[p]
                extracted = marker_key(original[a:b])
                keys = (extracted,)
                if drawn and any(o in drawn for o in range(a, b)):
                    shown = marker_key("".join(drawn.get(o, original[o]) for o in range(a, b)))
                    keys = (shown, extracted)
                out[p] = keys
        return out

    def _find_marked(self, q: str, pattern: re.Pattern[str]) -> list[_Occurrence]:
        """Occurrences of a quote that keeps some raised markers of the document, as
        digits, superscripts or in brackets ("models3", "models\u00b3", "models [3]").

        Marker-like pieces of the quote are taken out (every subset, all of them first,
        for up to four pieces) and the rest is searched; each piece taken out must stand
        where the document has a removed marker with the same content. Anything else,
        a bracketed citation included, stays verbatim.
        """
        pieces = list(pattern.finditer(q))[:8]
        if not pieces:
            return []
        k = len(pieces)
        full = (1 << k) - 1
        masks = [full] + ([m for m in range(full - 1, 0, -1)] if k <= 4 else [])
        positions, text = self._marker_positions, self._text
        for mask in masks:
            parts, removed, prev, cut = [], [], 0, 0
            for i, m in enumerate(pieces):
                if not mask >> i & 1:
                    continue
                parts.append(q[prev : m.start()])
                cut += m.start() - prev
                removed.append((cut, marker_key(m.group())))
                prev = m.end()
            parts.append(q[prev:])
            q2 = "".join(parts)
            if not q2.strip() or self._invalid_reason(q2.strip()):
                continue
            out = []
            for o in self._find(q2):
                lo, hi = bisect_left(positions, o.a + 1), bisect_right(positions, o.b)
                inside = positions[lo:hi]
                claimed: set[int] = set()
                for r, key in removed:
                    want = skeleton(q2[:r])
                    for p in inside:
                        if p not in claimed and key in self._markers[p] and skeleton(text[o.a : p]) == want:
                            claimed.add(p)
                            break
                    else:
                        break
                if len(claimed) == len(removed):
                    flags = (o.flags & ~MARKER_OMITTED) | MARKER_KEPT
                    if any(p not in claimed for p in inside):
                        flags |= MARKER_OMITTED  # others left out
                    out.append(o._replace(flags=flags))
            if out:
                return out
        return []

    def _material(self, scope: str, cited_chunk: int | None) -> tuple[int, int]:
        if scope == "document":
            return 0, len(self.document.text)
        assert cited_chunk is not None
        if scope == "chunk":
            c = self.chunks[cited_chunk]
            return c.start, c.end
        return group_span(self.chunks, group_of(cited_chunk, self._group_size), self._group_size)

    def _candidates(self, key: str) -> Sequence[int] | None:
        """Start positions in the (skeleton) index where ``key`` may start, or None
        when the key is shorter than the k-gram and the caller must scan."""
        n = len(key)
        if n < K:
            return None
        index = self._index
        best = index.get(key[:K], ())
        if len(best) <= _FEW_CANDIDATES:  # the common case: a rare first k-gram
            return best
        best_off = 0
        for off in ((n - K) // 2, n - K):
            positions = index.get(key[off : off + K], ())
            if len(positions) < len(best):
                best, best_off = positions, off
                if len(best) <= _FEW_CANDIDATES:
                    break
        return [p - best_off for p in best if p >= best_off] if best_off else best

    def _find(self, q: str) -> list[_Occurrence]:
        found = self._find_key(q, skeleton(q) if self._both else q)
        if self._both and (q[0] in _HYPHENS or q[-1] in _HYPHENS):
            # A hyphen at the quote's edge whose other letter lies outside the quote: the
            # document's skeleton dropped it (a letter on each side there), the quote's
            # kept it. Search without it, then take it back from the text.
            found = self._find_edge_hyphens(q, found)
        return found

    def _find_as_extracted(self, q: str) -> list[_Occurrence]:
        """Occurrences of a quote that copies mis-mapped glyphs the way the text layer has
        them ("80e120" where the page prints "80\u2013120"): the text a pipeline extracts
        and shows a model. Searched in the document normalized without the glyph
        corrections, built on first need; its positions are this locator's, because a
        correction replaces one character by one (checked: if the two maps differ,
        nothing is found this way)."""
        if self._extracted is None:
            plain = dataclasses.replace(self.document, glyphs=())
            other = type(self)(plain, self.rules, chunking=self.chunking, chunks=self.chunks)
            # the maps may be lists or arrays of machine integers: compare the numbers
            same = list(other._starts) == list(self._starts) and list(other._ends) == list(self._ends)
            self._extracted = other if same else False
        if self._extracted is False:
            return []
        return self._extracted._find(q)

    def _markers_locator(self) -> "Locator":
        """The locator of this document with its raised markers as the text layer has
        them (the ``markers`` rule left out of the text, its verdicts this locator's
        rules and fingerprint), built on first need. A quote found there copies the
        extraction as it stands; its verdict records ``markers:kept`` when the match
        holds a marker."""
        if self._as_extracted is None:
            self._as_extracted = _MarkersAsExtractedLocator(self.document, self.rules, chunking=self.chunking,
                                                            chunks=self.chunks)
        return self._as_extracted

    def _spaced_locator(self) -> "Locator | None":
        """The locator of this document with a space at each word gap the page sets and
        the text has none for (``rules.word_gaps``), built on first need; None when the
        document has no word gaps or the rule is off. A quote that writes the gaps as
        spaces ("demonstrated to improve") is found there; one that copies the text as
        extracted ("demonstratedtoimprove") is found here. Its verdicts name the rule
        when a match takes a space at a gap."""
        if self._spaced is None:
            self._spaced = _SpacedLocator(self.document, self.rules, chunking=self.chunking, chunks=self.chunks)
        return self._spaced or None

    def _word_gap_starts(self) -> frozenset[int]:
        """Positions in this text of the characters a word gap precedes."""
        return frozenset(a for a, _ in _positions_of(self.norm, [(g, g + 1) for g in self.document.word_gaps]))

    def _find_edge_hyphens(self, q: str, found: list[_Occurrence]) -> list[_Occurrence]:
        lead = int(len(q) > 1 and q[0] in _HYPHENS and q[1].isalpha())
        trail = int(len(q) > 1 and q[-1] in _HYPHENS and q[-2].isalpha())
        if not (lead or trail) or len(q) <= lead + trail:
            return found
        seen = {o.a for o in found}
        out = list(found)
        inner = q[lead : len(q) - trail]
        for o in self._find_key(q, skeleton(inner), lead=lead, trail=trail):
            if o.a not in seen:
                out.append(o)
                seen.add(o.a)
        return sorted(out) if len(out) > len(found) else found

    def _find_key(self, q: str, key: str, *, lead: int = 0, trail: int = 0) -> list[_Occurrence]:
        """Occurrences of ``q`` found through ``key`` (``q`` itself, or its skeleton
        with ``hyphenation="both"``); ``lead``/``trail`` hyphens of ``q`` are not in
        ``key`` and must stand right before/after the key's match in the text."""
        both = self._both
        hay = self._skel
        if len(key) >= K:
            cands = self._index.get(key[:K], ())
            if len(cands) > _FEW_CANDIDATES:
                cands = self._candidates(key)
        else:
            cands = None
        if cands is None:
            cands = []
            i = hay.find(key)
            while i >= 0:
                cands.append(i)
                i = hay.find(key, i + 1)
        out: list[_Occurrence] = []
        if not cands:
            return out
        startswith = hay.startswith
        norm = self.norm
        starts, ends, jumps, skel_map = self._starts, self._ends, self._jumps, self._skel_map
        unverifiable, markers, rule_flags = self._unverifiable, self._markers, norm.rule_flags
        n = len(key)
        for p in cands:
            if not startswith(key, p):
                continue
            if both:
                a = skel_map[p]  # type: ignore[index]
                b = skel_map[p + n - 1] + 1  # type: ignore[index]
                if lead or trail:
                    a, b = a - lead, b + trail
                    if a < 0 or b > len(self._text) or self._text[a:a + lead] != q[:lead] or (
                        trail and self._text[b - 1] != q[-1]
                    ):
                        continue
                decided: int | None
                if key is q and b - a == n:
                    decided = 0  # no hyphen on either side: the text is the quote
                else:
                    decided = self._verify_hyphens(q, a, b)
                    if decided is None:
                        continue
            else:
                a, b, decided = p, p + n, None
            if not self._boundaries_ok(q, a, b):
                continue
            start, end = starts[a], ends[b - 1]
            segments = None
            if jumps:
                i = bisect_left(jumps, a + 1)
                if i < len(jumps) and jumps[i] < b:
                    # the layout reading order jumps inside the match: cover every piece
                    segments = norm.segments(a, b)
                    start, end = min(s for s, _ in segments), max(e for _, e in segments)
            if unverifiable and any(s < end and start < e for s, e in unverifiable):
                continue
            flags = rule_flags(a, b)
            if b in markers:
                flags |= MARKER_OMITTED  # the match ends right before a removed marker
            if decided:
                flags = (flags & ~HYPHEN_KEEP) | decided
            out.append(_Occurrence(a, b, start, end, flags, segments))
        return out

    def _find_fragments(self, q: str) -> list[_Occurrence]:
        """Occurrences of a quote with ellipses, read as fragments: each piece a valid
        quote found by :meth:`_find`, in order, each starting at most
        ``rules.ellipsis_gap`` normalized characters after the previous one ends, with no
        flow barrier in between. One occurrence per start of the first piece."""
        pieces = [p for p in (p.strip() for p in _ELLIPSIS_RE.split(q)) if p]
        if not pieces or any(self._invalid_reason(p) for p in pieces):
            return []
        found = [sorted(self._find(p)) for p in pieces]
        if not all(found):
            return []
        gap, text = self.rules.ellipsis_gap, self._text
        starts_of = [[o.a for o in occ] for occ in found]
        dead: set[tuple[int, int]] = set()  # (piece, occurrence) that cannot continue

        def chain_from(k: int, i: int) -> list[_Occurrence] | None:
            here = found[k][i]
            if k + 1 == len(found):
                return [here]
            if (k, i) in dead:
                return None
            j = bisect_left(starts_of[k + 1], here.b)
            for o_index in range(j, len(found[k + 1])):
                nxt = found[k + 1][o_index]
                if nxt.a - here.b > gap or BARRIER in text[here.b : nxt.a]:
                    break
                rest = chain_from(k + 1, o_index)
                if rest is not None:
                    return [here, *rest]
            dead.add((k, i))
            return None

        out = []
        for i in range(len(found[0])):
            chain = chain_from(0, i)
            if chain is None:
                continue
            segments = tuple(seg for o in chain for seg in (o.segments or ((o.start, o.end),)))
            flags = ELLIPSIS
            for o in chain:
                flags |= o.flags
            out.append(
                _Occurrence(chain[0].a, chain[-1].b, min(s for s, _ in segments), max(e for _, e in segments), flags, segments)
            )
        return out

    def _verify_hyphens(self, q: str, a: int, b: int) -> int | None:
        """With ``hyphenation="both"``: decide keep/drop per optional hyphen in
        ``[a, b)`` so that the text equals ``q``. Returns 0 when nothing had to be
        decided, the keep/drop flags that were used, or None when it does not match."""
        text = self._text
        segment = text[a:b]
        if segment == q:
            return 0
        optional = self.norm.optional_positions
        i, j = bisect_left(optional, a), bisect_left(optional, b)
        if i == j:
            return None
        pieces = []
        prev = a
        dropped = kept = 0
        for pos in optional[i:j]:
            r = pos - a - dropped  # where this hyphen would sit in q
            pieces.append(text[prev:pos])
            if r < len(q) and q[r] == text[pos]:
                pieces.append(text[pos])
                kept += 1
            else:
                dropped += 1
            prev = pos + 1
        pieces.append(text[prev:b])
        if "".join(pieces) != q:
            return None
        return (HYPHEN_KEEP if kept else 0) | (HYPHEN_DROP if dropped else 0)

    def _boundaries_ok(self, q: str, a: int, b: int) -> bool:
        text, starts, ends = self._text, self._starts, self._ends
        s, e = starts[a], ends[b - 1]
        if a > 0 and s == starts[a - 1] and ends[a] == ends[a - 1] and not (
            self._SPACED and text[a - 1] == " " and self.norm.flags[a - 1] & WORD_GAP
        ):
            return False  # inside one expansion (ligature, NFKC), not after the space written at a word gap
        if b < len(text) and starts[b] == starts[b - 1] and ends[b] == e:
            return False
        original = self._original
        # a position between two ASCII characters other than CR LF is always a cluster
        # boundary: only other positions need the full check
        if s > 0:
            pair = original[s - 1 : s + 1]
            if (not pair.isascii() or pair == "\r\n") and not cluster_boundary(original, s):
                return False
        pair = original[e - 1 : e + 1]
        if (not pair.isascii() or pair == "\r\n") and not cluster_boundary(original, e):
            return False
        if self.rules.word_boundaries:
            # a character up to U+0020 (a space, a control) is never a word character
            if (a > 0 and text[a - 1] > " " and _word_char(text[a - 1]) and _word_char(q[0]) and not self._after_marker(a, q)
                    and a not in self._gap_starts):
                return False
            if b < len(text) and text[b] > " " and _word_char(text[b]) and _word_char(q[-1]) and b not in self._gap_starts:
                return False
        return True

    def _after_marker(self, a: int, q: str) -> bool:
        """True when ``a`` follows a footnote marker glued to the text at the start of a
        line ("\\n4To illustrate"): one or two digits at a line start, then a capital
        letter and a small one. Ordinals and units ("2nd", "3D") do not qualify, so
        "nd place" is never accepted inside "2nd place"."""
        text = self._text
        if not (q[0].isupper() and len(q) > 1 and q[1].islower()):
            return False
        p = a
        while p > 0 and text[p - 1].isdigit() and a - p < 2:
            p -= 1
        if p == a or (p > 0 and text[p - 1].isdigit()):
            return False
        o = self._starts[p]
        original = self.document.text
        return o == 0 or original[o - 1] in "\n\f"

    def _where(
        self, o: _Occurrence, qflags: int, quote: str
    ) -> tuple[int, int, tuple[tuple[int, int], ...], tuple[int, ...], tuple[str, ...]]:
        """Where an occurrence is: (start, end, spans, pages, the rules it needed)."""
        doc = self.document
        flags = o.flags | qflags
        segments = o.segments
        if not segments:
            start, end = o.start, o.end
            segments = ((start, end),)
            exact = end - start == len(quote) and doc.text.startswith(quote, start)
            i = max(bisect_right(self._page_starts, start) - 1, 0)
            # most quotes lie on one page: its tuple is made once per locator
            pages = self._one_page[i] if end <= self._page_ends[i] + 1 else doc.pages_for(start, end)
        elif len(segments) == 1:
            start, end = segments[0]
            exact = end - start == len(quote) and doc.text.startswith(quote, start)
            pages = doc.pages_for(start, end)
        else:
            if not flags & ELLIPSIS:
                flags |= LAYOUT
            start, end = min(s for s, _ in segments), max(e for _, e in segments)
            exact = False
            pages = tuple(sorted({p for s, e in segments for p in doc.pages_for(s, e)}))
        return start, end, segments, pages, () if exact else _rule_names(flags)

    def _place(self, o: _Occurrence, qflags: int, quote: str) -> dict[str, Any]:
        """Where an occurrence is, as a verdict's values: offsets, spans, pages, chunks
        and the rules it needed."""
        start, end, segments, pages, names = self._where(o, qflags, quote)
        return {"start": start, "end": end, "spans": segments, "pages": pages, "rules": names,
                "chunks": self.chunks_containing(start, end)}  # fmt: skip

    def _describe_place(self, o: _Occurrence) -> str:
        pages = self.document.pages_for(o.start, o.end)
        page = f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}-{pages[-1]}"
        return f"{page}, offset {o.start}-{o.end}"

    def _reject(self, q: str, quote: str, scope: str, cited_chunk: int | None) -> Verdict:
        if len(q) > DIAGNOSE_CHARS:
            return self._verdict(
                quote, scope, cited_chunk, accepted=False, status="not-found", cause="too-long-to-diagnose",
                reason=f"not in the document as quoted; at {len(q)} characters (> {DIAGNOSE_CHARS}) "
                "the quote is too long to look for a near miss",
            )  # fmt: skip
        dropped = self._in_furniture(q)
        if dropped is not None:
            return self._verdict(
                quote, scope, cited_chunk, accepted=False, status="not-found", cause="page-furniture",
                reason=f"the text is page furniture on page {dropped} (a running header or footer, a page number "
                "or a margin stamp), which the rules leave out of the text quotes are checked against",
            )  # fmt: skip
        if self._diag is None:
            self._diag = Diagnoser(self)
        miss = self._diag.near_miss(q)
        if miss is None:
            return self._verdict(
                quote, scope, cited_chunk, accepted=False, status="not-found", cause="not-in-document",
                reason="no similar passage in the document",
            )  # fmt: skip
        return self._verdict(
            quote, scope, cited_chunk, accepted=False, status="not-found", cause=miss.cause, near_miss=miss,
            reason=f"closest passage on page {miss.page} ({miss.similarity:.0f}% similar): {miss.detail}",
        )  # fmt: skip

    def _furniture_lines(self) -> list[tuple[int, int, Normalized]]:
        """(page, start, normalized line) of every furniture line, when the rules take
        furniture out of the text (built on first use: only rejections need it)."""
        if not (self.rules.layout or self.rules.furniture) or self.document.kind != "pdf":
            return []
        if self._furniture is None:
            text, glyphs = self.document.text, self.document.glyphs if self.rules.unicode != "off" else ()
            plain = self.rules.replace(furniture=False, layout=False, markers=False)

            def line_context(start: int, end: int) -> Context:  # its mis-mapped glyphs, in line offsets
                return Context(glyphs=tuple((at - start, ch) for at, ch in glyphs if start <= at < end))

            self._furniture = [(page, start, normalize(text[start:end], plain, context=line_context(start, end)))
                               for page, start, end in prepared_cache.furniture_lines(self.document)]
        return self._furniture

    def _find_in_furniture(self, q: str) -> list[_Occurrence]:
        """Where the normalized quote lies wholly inside one furniture line, as whole
        words: the line's text under the same rules, offsets mapped back. A quote that
        runs from a furniture line into anything else is not found here."""
        needle = q.strip()
        if not needle or BARRIER in needle:
            return []
        found = []
        for _, start, line in self._furniture_lines():
            t = line.text
            i = t.find(needle)
            while i >= 0:
                j = i + len(needle)
                inside_word = self.rules.word_boundaries and (
                    (i > 0 and _word_char(t[i - 1]) and _word_char(needle[0]))
                    or (j < len(t) and _word_char(t[j]) and _word_char(needle[-1]))
                )
                if not inside_word:
                    a, b = start + line.starts[i], start + line.ends[j - 1]
                    found.append(_Occurrence(-1, -1, a, b, FURNITURE | line.rule_flags(i, j)))
                i = t.find(needle, i + 1)
        return found

    def _in_furniture(self, q: str) -> int | None:
        """The first page whose furniture (as layout classifies it) holds the normalized
        quote, when the rules drop furniture; else None."""
        needle = q.strip()
        if not needle:
            return None
        for page, _, line in self._furniture_lines():
            if needle in line.text:
                return page
        return None

    # -- helpers for views -----------------------------------------------------------------
    def chunks_containing(self, start: int, end: int) -> tuple[int, ...]:
        """Indices of the chunks that contain ``[start, end)`` entirely."""
        ends = self._chunk_ends
        i = bisect_right(self._chunk_starts, start) - 1
        if i < 0 or ends[i] < end:
            return ()
        if i == 0 or ends[i - 1] < end:  # the common case: one chunk
            return (self.chunks[i].index,)
        out = []
        while i >= 0 and ends[i] >= end:
            out.append(self.chunks[i].index)
            i -= 1
        return tuple(reversed(out))

    def chunk_text(self, index: int) -> str:
        c = self.chunks[index]
        return self.document.text[c.start : c.end]

    def context(self, verdict: Verdict, *, width: int = 80) -> tuple[str, str, str]:
        """(before, match, after) original text around an accepted or found verdict."""
        if verdict.start is None or verdict.end is None:
            return "", "", ""
        text = self.document.text
        return (
            text[max(0, verdict.start - width) : verdict.start],
            text[verdict.start : verdict.end],
            text[verdict.end : verdict.end + width],
        )


_MARKER_ITEM = r"(?:\d{1,3}|[*\u2217\u2020\u2021\u00a7\u00b6#$+\u22c6])"
_SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2074-\u2079"


def _quote_marker_pattern(separator: str, superscript_separator: str) -> re.Pattern[str]:
    """Pieces of a quote that may stand for a raised marker of the document, its items
    joined by ``separator`` (superscript digits by ``superscript_separator``)."""
    items = rf"{_MARKER_ITEM}(?:{separator}{_MARKER_ITEM})*"
    return re.compile(
        rf"(?<=[^\W\d_]){items}(?=[\s,.;:)\]]|$)"  # glued to a word: models3, brain1-3
        rf"|(?<=[,.;:]){items}(?=[\s)\]]|$)"  # after punctuation: text,2 and
        rf"|(?<=\S)[{_SUPERSCRIPTS}]+(?:{superscript_separator}[{_SUPERSCRIPTS}]+)*"  # superscript digits
        rf"|\s?\[{items}\]"  # in brackets: models [3]
    )


_QUOTE_MARKER = _quote_marker_pattern("[,\u2010\u2013\u2014-]", "[,\u2013\u207b-]")
"""Pieces of a quote that may stand for a raised marker of the document."""
_QUOTE_MARKER_LIST = _quote_marker_pattern(
    r"(?:\s?[,\u2010\u2013\u2014-]\s?|\s|(?<=\d)[^\W\d_](?=\d))", r"(?:\s?[,\u2013\u207b-]\s?|\s)"
)
"""Pieces of a quote that may stand for a raised list of markers whose items a space
separates, or a comma or dash with a space ("RCTs26 27 32", "[26, 27, 32]"), or a letter
the page draws as a dash between two numbers ("28e31": the marker's key must then be
the one the text layer has)."""
_KEY_SEPARATOR = re.compile(r"\s*([,-])\s*")
_MARKER_FOLD = str.maketrans(
    "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u2217\u2010\u2013\u2014\u2212\u207b\u22c6",
    "0123456789*-----*",
)


def marker_key(text: str) -> str:
    """A marker's content compared between quote and document: superscript digits as
    digits, any dash as "-", no brackets, no spaces around a comma or dash, and a comma
    for the spaces between two items ("[1\u20133]", "\u00b9-\u00b3" and "1-3" agree; so do
    "26 27 32", "26, 27, 32" and "[26,27,32]", while "2627" is another marker)."""
    folded = text.translate(_MARKER_FOLD).replace("[", "").replace("]", "").strip()
    return ",".join(_KEY_SEPARATOR.sub(r"\1", folded).split())


def _word_char(ch: str) -> bool:
    """:func:`~quotelocate.normalize.is_word_char` with an inline fast path."""
    return ch.isalnum() or ch == "_" or (not ch.isascii() and is_word_char(ch))


@functools.lru_cache(maxsize=512)
def _rule_names(flags: int) -> tuple[str, ...]:
    return flag_names(flags & ~OPTIONAL)


@functools.lru_cache(maxsize=512)
def _accepted_reason(names: tuple[str, ...]) -> tuple[Status, str]:
    """Status and reason of a match in the cited material that needed rules ``names``."""
    if not names:
        return "exact", "verbatim in the text"
    return "normalized", "verbatim after " + ", ".join(names)


def locate(
    document: Document,
    quote: str,
    rules: Rules | str = "recommended",
    *,
    cited_chunk: int | None = None,
    scope: str | None = None,
) -> Verdict:
    """One-off convenience: ``Locator(document, rules).locate(quote, ...)``; build a
    :class:`Locator` once when checking many quotes against one paper."""
    return Locator(document, rules).locate(quote, cited_chunk=cited_chunk, scope=scope)


class _MarkersAsExtractedLocator(Locator):
    """A document searched with its raised markers as the text layer has them (see
    :meth:`Locator._markers_locator`): not kept in an extraction cache; its word gaps
    as spaces and its furniture lines are searched by the locator that asked."""

    _MARKERS_AS_EXTRACTED = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._raised = sorted(marker_spans(self.document, self.rules))
        self._raised_starts = [s for s, _ in self._raised]

    def _spaced_locator(self) -> "Locator | None":
        return None

    def _find_in_furniture(self, q: str) -> list[_Occurrence]:
        return []  # the locator that asked has searched the furniture lines

    def _find(self, q: str) -> list[_Occurrence]:
        # a match that starts or ends inside a marker takes part of it ("controversial.5"
        # of "controversial.5\u20137"): another citation than the page's, never found here
        return [o for o in super()._find(q) if not any(self._cuts_marker(x) for x in (o.start, o.end))]

    def _cuts_marker(self, at: int) -> bool:
        i = bisect_right(self._raised_starts, at) - 1
        return i >= 0 and self._raised[i][0] < at < self._raised[i][1]

    def _where(self, o: _Occurrence, qflags: int, quote: str):
        segments = o.segments or ((o.start, o.end),)
        raised, starts = self._raised, self._raised_starts
        for a, b in segments:
            i = bisect_left(starts, a)
            if i < len(raised) and raised[i][1] <= b:
                o = o._replace(flags=o.flags | MARKER_KEPT)
                break
        return super()._where(o, qflags, quote)


class _SpacedLocator(Locator):
    """A document searched with a space written at each of its word gaps (see
    :meth:`Locator._spaced_locator`): not kept in an extraction cache, and never
    searched with spaces once more."""

    _SPACED = True
