"""Hypothesis suite over arbitrary Unicode documents, quotes and rules.

``test_properties.py`` checks the locator on PDF-like text over a small alphabet and on
real-paper windows; this file throws everything else at it: every plane, lone
surrogates, combining marks, ZWJ sequences and flags, right-to-left text, the ligature
block U+FB00-FB06, fullwidth forms, super- and subscripts, every kind of space, soft
and zero-width characters, the hyphen look-alikes U+2010/2011/2212, control characters
including NUL (the normalizer's internal BARRIER), form feeds (page separators) and
CRLF, under every combination of :class:`Rules` fields.

Invariants (each test's docstring states its own precisely):

* only :class:`QuotelocateError` subclasses ever escape;
* soundness: an accepted verdict's span is exactly the quote once normalized, starts
  and ends on grapheme boundaries and outside any expansion, and lies on verifiable
  pages of the document;
* completeness: a verbatim substring on word and grapheme boundaries is accepted
  under ``exact`` and under ``recommended``;
* determinism of verdicts and of :attr:`Rules.fingerprint`;
* a changed letter case, a deleted punctuation mark or an invented trailing word gets
  an accepted quote rejected, unless the mutant itself occurs in the document.

Every character class above also runs as an explicit ``@example``.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

from quotelocate import Chunking, Document, Locator, QuotelocateError, Rules
from quotelocate.errors import ConfigError, EmptyDocumentError
from quotelocate.locate import _ELLIPSIS_RE
from quotelocate.normalize import (
    BARRIER,
    ELLIPSIS_MODES,
    HYPHEN_DROP,
    HYPHEN_KEEP,
    HYPHENATION_MODES,
    PRESETS,
    UNICODE_MODES,
    WHITESPACE,
    Context,
    Normalized,
    cluster_boundary,
    find_furniture,
    suspended_breaks,
    suspended_quote_reading,
    is_word_char,
    normalize,
    normalize_quote,
    normalize_text,
    word_count,
)

EXACT = PRESETS["exact"]
REC = PRESETS["recommended"]

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# ---------------------------------------------------------------------------------------
# Strategies

RULE_FIELDS = {
    "quotes": st.booleans(),
    "whitespace": st.booleans(),
    "invisible": st.booleans(),
    "unicode": st.sampled_from(UNICODE_MODES),
    "hyphenation": st.sampled_from(HYPHENATION_MODES),
    "furniture": st.booleans(),
    "layout": st.booleans(),
    "word_boundaries": st.booleans(),
    "min_chars": st.integers(0, 16),
    "min_words": st.integers(0, 4),
    "ellipsis": st.sampled_from(ELLIPSIS_MODES),
    "ellipsis_gap": st.integers(0, 400),
    "accents": st.booleans(),
    "markers": st.booleans(),
    "suspended_hyphens": st.booleans(),
    "math_spacing": st.booleans(),
    "max_chars": st.sampled_from((0, 40, 5000)),
    "word_gaps": st.booleans(),
    "slash_spacing": st.booleans(),
    "url_spacing": st.booleans(),
}
RULES = st.builds(Rules, **RULE_FIELDS)
"""Every combination of every :class:`Rules` field (``layout`` is inert on text
documents, which have no geometry, but must still be harmless)."""
SOME_RULES = st.one_of(st.sampled_from(list(PRESETS.values())), RULES)

# One sample string per tricky character class; each also runs as an @example.
TRICKY = {
    "combining": "e\u0301\u0323",
    "lone-mark": "\u0308",
    "zwj-sequence": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "flags": "\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea",
    "tag-flag": "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "emoji-modifier": "\U0001f44d\U0001f3fd",
    "variation-selector": "\u2764\ufe0f",
    "rtl": "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627\u200f\u202e",
    "ligatures": "\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06",
    "fullwidth": "\uff21\uff22\uff43\uff11\uff12\uff01",
    "superscripts": "10\u00b2 H\u2082O \u00bd x\u2071",
    "spaces": "\u00a0\u2009\u202f\u3000\u2028\u0085",
    "zero-width": "\u200b\u200c\u200d\u2060\ufeff",
    "soft-hyphen": "\u00ad",
    "hyphens": "\u2010\u2011\u2212",
    "nul": "\x00",
    "controls": "\x01\x1b\x7f\x0b\x1c",
    "form-feed": "\f",
    "crlf": "\r\n",
    "curly-quotes": "\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f",
    "case-oddities": "\u00df\u0130\u0131\u01c5\ufb00",
    "nfkc-oddities": "\u00a8\u1fed\u338f\u2026\u216b\u2460",
    "spacing-accents": "c\u00b8a\u00a8\u0131\u02c7R\u02da`\u00b4 \u02c6\u0237",
    "math-symbols": "x \u2192\u221e \u2264\u03b1 + =1",
    "halfwidth-kana": "\uff76\uff9e",
    "hangul-jamo": "\u1100\u1161\u11a8",
    "astral": "\U0001d400\U0001d7ce\U00020000\U0010fffd",
    "surrogates": "\ud800\udfff",
}
TRICKY_CHARS = sorted({c for s in TRICKY.values() for c in s})

WORDS = ["the", "model", "attention", "layer", "of", "art", "state", "trans", "duction", "Encoder", "10", "28.4", "[12]",
         "and", "post-training"]
SEPARATORS = [
    " ", " ", " ", "\n", "  ", ", ", ". ", "-\n", "\u00ad\n", "\u2010\n", "-\r\n", "\f", "\r\n", "\t",
    "\u00a0", "\u2009", "\u200b", " \n ", "", "-", "\u2019", " \u201c",
]
any_char = st.one_of(
    st.characters(exclude_categories=()),  # every plane, every category but surrogates
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, exclude_categories=()),  # lone surrogates
)
piece = st.one_of(
    st.sampled_from(WORDS),
    st.sampled_from(WORDS),
    st.text(st.characters(categories=("L", "M", "N")), min_size=1, max_size=6),
    st.sampled_from(list(TRICKY.values())),
    st.sampled_from(TRICKY_CHARS),
    st.builds(lambda w, c, v: w + c + v, st.sampled_from(WORDS), st.sampled_from(TRICKY_CHARS), st.sampled_from(WORDS)),
    st.text(any_char, min_size=1, max_size=3),
)


@st.composite
def flat_text(draw) -> tuple[str, list[int]]:
    """Pieces joined by separators; also returns the offsets where pieces start/end."""
    pieces = draw(st.lists(piece, min_size=draw(st.sampled_from([1, 6, 10])), max_size=30))
    out, cuts, pos = [], [0], 0
    for k, p in enumerate(pieces):
        if k:
            sep = draw(st.sampled_from(SEPARATORS))
            out.append(sep)
            pos += len(sep)
            cuts.append(pos)
        out.append(p)
        pos += len(p)
        cuts.append(pos)
    return "".join(out), cuts


@st.composite
def paged_text(draw) -> tuple[str, list[int]]:
    """Pages joined by form feeds, with a running header and a page-number line on
    some of them, so that ``furniture`` has something to remove."""
    n = draw(st.integers(2, 5))
    header = draw(st.sampled_from(["Journal of Tests 2024", "Preprint. Under review.", "\u00c9tudes \ufb01nales"]))
    first = draw(st.integers(1, 9))
    parts, cuts, pos = [], [0], 0
    for i in range(n):
        body, body_cuts = draw(flat_text())
        page = ""
        if draw(st.booleans()):
            page += header + "\n"
        offset = pos + len(page)
        page += body
        if draw(st.booleans()):
            page += f"\n{first + i}"
        if i:
            parts.append("\f")
            pos += 1
            offset += 1
        parts.append(page)
        cuts.extend(offset + c for c in body_cuts)
        pos += len(page)
    return "".join(parts), cuts


documents = st.one_of(flat_text(), flat_text(), paged_text())


@st.composite
def doc_with_span(draw) -> tuple[str, int, int]:
    """A document and a ``[start, end)`` inside it, mostly on piece boundaries and
    mostly long enough to be a valid quote."""
    text, cuts = draw(documents)
    cuts = sorted(set(cuts))
    if draw(st.integers(0, 4)) == 0:
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, len(text)))
    else:
        i = draw(st.integers(0, max(len(cuts) - 7, 0)))
        j = draw(st.integers(min(i + 6, len(cuts) - 1), min(len(cuts) - 1, i + 30)))
        start, end = cuts[i], cuts[j]
    return text, start, end


def _model_rendering(raw: str) -> str:
    """A quote re-rendered the way a model writes it (collapsed spaces, straight
    quotes, spelled ligatures, no soft hyphens)."""
    text = raw.replace("\u00ad", "").translate(str.maketrans({"\u2019": "'", "\u201c": '"', "\u201d": '"'}))
    for lig, spelled in (("\ufb01", "fi"), ("\ufb02", "fl"), ("\ufb00", "ff")):
        text = text.replace(lig, spelled)
    return " ".join(text.split())


@st.composite
def doc_and_quote(draw) -> tuple[str, str]:
    """A document and a quote: a verbatim substring, a model rendering of one, a
    substring with arbitrary text spliced in, or arbitrary text."""
    text, start, end = draw(doc_with_span())
    raw = text[start:end]
    kind = draw(st.sampled_from(["verbatim", "verbatim", "verbatim", "rendered", "rendered", "spliced", "arbitrary"]))
    if kind == "verbatim":
        return text, raw
    if kind == "rendered":
        return text, _model_rendering(raw)
    if kind == "spliced":
        at = draw(st.integers(0, len(raw)))
        return text, raw[:at] + draw(st.text(any_char, max_size=4)) + raw[at:]
    return text, draw(st.text(st.one_of(any_char, st.sampled_from(TRICKY_CHARS)), max_size=60))


# ---------------------------------------------------------------------------------------
# Oracles


def _doc_side(doc: Document, rules: Rules) -> Normalized:
    """The document side as the locator builds it for a text document (no geometry,
    so no layout; furniture from the form-feed page starts)."""
    return normalize(doc.text, rules, context=Context(page_starts=doc.page_starts))


def _matches(n: Normalized, a: int, b: int, q: str, both: bool) -> bool:
    """``n.text[a:b] == q``, except that with ``hyphenation="both"`` any end-of-line
    hyphen of ``n`` (an OPTIONAL position) may be left out of ``q``. Greedy is exact:
    an optional hyphen is always followed by a letter, never by a hyphen."""
    if not both:
        return n.text[a:b] == q
    optional = set(n.optional_positions)
    r = 0
    for i in range(a, b):
        if r < len(q) and q[r] == n.text[i]:
            r += 1
        elif i not in optional:
            return False
    return r == len(q)


def _occurs(n: Normalized, q: str, both: bool) -> bool:
    """Does the normalized quote occur anywhere in the normalized document (boundaries
    ignored, so this over-approximates what the locator may accept)?"""
    if not q:
        return True
    if not both:
        return q in n.text
    text = n.text
    for a in range(len(text)):
        if text[a] != q[0]:
            continue
        optional = set(n.optional_positions)
        r, i = 0, a
        while i < len(text) and r < len(q):
            if q[r] == text[i]:
                r += 1
            elif i not in optional:
                break
            i += 1
        if r == len(q):
            return True
    return False


def _valid(q: str, rules: Rules) -> bool:
    """The quote passes the ``min_chars``/``min_words`` floor and has no NUL."""
    if BARRIER in q:
        return False
    chars = len("".join(q.split())) if not rules.whitespace else len(q) - q.count(" ")
    if chars == 0 or chars < rules.min_chars:
        return False
    return rules.min_words == 0 or re.search(r"\w+(?:\W+\w+){%d}" % (rules.min_words - 1), q) is not None


def _selected(n: Normalized, start: int, end: int) -> list[int]:
    """Normalized positions whose original span lies inside ``[start, end)``."""
    return [i for i in range(len(n.text)) if start <= n.starts[i] and n.ends[i] <= end]


def _locate(loc: Locator, quote, **kwargs):
    """``loc.locate``; every exception propagates."""
    return loc.locate(quote, **kwargs)


def _assert_piece_sound(doc: Document, rules: Rules, n: Normalized, q: str, start: int, end: int, needed: tuple) -> None:
    """One contiguous matched span ``[start, end)`` against its normalized quote ``q``."""
    text = doc.text
    both = rules.hyphenation == "both"
    assert 0 <= start < end <= len(text), (start, end)
    assert all(doc.pages[p - 1].verifiable for p in doc.pages_for(start, end))
    # grapheme boundaries in the original text (the package's notion of a cluster)
    assert cluster_boundary(text, start) and cluster_boundary(text, end), ("inside a grapheme cluster", start, end)
    # no normalized character straddles either end: the match never starts or ends
    # inside a ligature, NFKC or hyphen-break expansion. The one straddler allowed is a
    # folded whitespace run that swallowed the space NFKC makes of a no-break space
    # carrying a combining mark ("\u00a0\u0300" -> " \u0300"): the quote side strips
    # that space too.
    for i in range(len(n.text)):
        if n.text[i] == " " and n.flags[i] & WHITESPACE:
            continue
        assert not n.starts[i] < start < n.ends[i], ("starts inside an expansion", i)
        assert not n.starts[i] < end < n.ends[i], ("ends inside an expansion", i)
    # (B) the normalized document over exactly the span is the normalized quote
    sel = _selected(n, start, end)
    assert sel and sel == list(range(sel[0], sel[-1] + 1)), sel
    a, b = sel[0], sel[-1] + 1
    assert _matches(n, a, b, q, both), (n.text[a:b], q)
    # (A) as test_properties states it: the span on its own, normalized like a quote,
    # is the normalized quote (up to the end-of-line hyphens "both" dropped). Not when
    # the match needed furniture removal (that needs the pages), nor when it starts or
    # ends on a character whose rule looks outside the span: a hyphen break (its
    # letters) or a soft hyphen (kept only before a line break).
    edge_hyphen = (n.flags[a] | n.flags[b - 1]) & (HYPHEN_KEEP | HYPHEN_DROP) or "\u00ad" in (n.text[a], n.text[b - 1])
    span = text[start:end]
    alt = suspended_quote_reading(span, rules)
    if alt is not None and alt[0] == q:
        pass  # the span's suspended hyphen has its evidence past the span, in the document
    elif "furniture" not in needed and not edge_hyphen:
        if both:
            m = normalize(span, rules.replace(furniture=False))
            ma, mb = 0, len(m.text)
            if rules.whitespace:
                while ma < mb and m.text[ma] == " ":
                    ma += 1
                while mb > ma and m.text[mb - 1] == " ":
                    mb -= 1
            assert _matches(m, ma, mb, q, True), (m.text, q)
        else:
            assert normalize_text(span, rules) == q, (normalize_text(span, rules), q)
    # word boundaries in the normalized document
    if rules.word_boundaries:
        if a > 0 and is_word_char(n.text[a - 1]) and is_word_char(q[0]):
            # the one exception: a footnote marker glued to a capitalised word ("4To")
            assert n.text[a - 1].isdigit() and q[0].isupper(), "starts inside a word"
        if b < len(n.text):
            assert not (is_word_char(n.text[b]) and is_word_char(q[-1])), "ends inside a word"


def assert_sound(doc: Document, rules: Rules, quote: str, v) -> None:
    """Soundness of one accepted verdict; see :func:`test_accepted_verdicts_are_sound`."""
    text = doc.text
    q = normalize_quote(quote, rules)[0]
    assert v.status in ("exact", "normalized", "group-fallback"), v.status
    assert v.spans and v.start == min(s for s, _ in v.spans) and v.end == max(e for _, e in v.spans), v.spans
    assert set(v.pages) == {p for s, e in v.spans for p in doc.pages_for(s, e)}, v.pages
    if v.status == "exact":
        assert v.spans == ((v.start, v.end),) and text[v.start : v.end] == quote
    n = _doc_side(doc, rules)
    if "ellipsis" in v.rules:
        # fragments: one span per piece between ellipses, in order, each sound by
        # itself, each at most ellipsis_gap normalized characters after the previous,
        # with no flow barrier in between
        assert rules.ellipsis == "fragments"
        pieces = [p for p in (p.strip() for p in _ELLIPSIS_RE.split(q)) if p]
        assert len(pieces) == len(v.spans) >= 2, (pieces, v.spans)
        for piece, (s, e) in zip(pieces, v.spans):
            assert _valid(piece, rules), piece
            _assert_piece_sound(doc, rules, n, piece, s, e, v.rules)
        for (s0, e0), (s1, e1) in zip(v.spans, v.spans[1:]):
            assert e0 <= s1, v.spans
            between = _selected(n, e0, s1)
            assert len(between) <= rules.ellipsis_gap and BARRIER not in text[e0:s1], (e0, s1)
    else:
        # a text document has no geometry: one piece, no layout jump
        assert v.spans == ((v.start, v.end),), v.spans
        other = suspended_quote_reading(quote, rules)
        try:
            _assert_piece_sound(doc, rules, n, q, v.start, v.end, v.rules)
        except AssertionError:
            if other is None:
                raise
            # the quote stops before the evidence for a suspended hyphen that the
            # document has: the locator's second reading must then match instead
            _assert_piece_sound(doc, rules, n, other[0], v.start, v.end, v.rules)


def test_rules_strategy_covers_every_field():
    """The Rules strategy draws every field of :class:`Rules`, so a new rule is fuzzed
    (or this fails until it is added to RULE_FIELDS)."""
    assert set(RULE_FIELDS) == set(Rules.__dataclass_fields__)


# ---------------------------------------------------------------------------------------
# Examples: one per tricky character class, so each runs on every CI pass


def _at(text: str, sub: str) -> tuple[str, int, int]:
    """``(text, start, end)`` of the first occurrence of ``sub``."""
    i = text.index(sub)
    return text, i, i + len(sub)


def _example_doc(s: str) -> str:
    return f"The first words {s}and more words\nof the text{s} here, and the end."


def _example_quote(s: str) -> str:
    return f"first words {s}and more words of the text{s} here"


# ---------------------------------------------------------------------------------------
# 1. Only the package's own exceptions escape


def _exercise(text, quote, rules, chunking, cited_chunk, scope) -> None:
    doc = Document.from_text(text)
    for r in (rules, "recommended", "exact"):
        normalize(text, r if isinstance(r, Rules) else PRESETS[r], context=Context(page_starts=doc.page_starts))
    if isinstance(quote, str):
        normalize_quote(quote, rules)
        normalize_text(quote, rules)
        word_count(quote)
        [cluster_boundary(quote, i) for i in range(len(quote) + 1)]
    find_furniture(text, doc.page_starts)
    loc = Locator(doc, rules, chunking=chunking)
    for v in (_locate(loc, quote), _locate(loc, quote, cited_chunk=cited_chunk, scope=scope)):
        v.to_dict()
        loc.context(v)
        if v.near_miss is not None:  # the lazy diagnosis and its diff
            v.near_miss.diff
            v.near_miss.diff_text()
            v.near_miss.to_dict()
    if _locate(loc, quote) is not None:
        loc.locate_many([quote, quote])


def _chunking(size: int, overlap: int, group_size: int) -> Chunking | QuotelocateError:
    """A Chunking, or the error its constructor raised (checked by the test)."""
    try:
        return Chunking(size=size, overlap=overlap, group_size=group_size)
    except QuotelocateError as exc:
        return exc


@given(
    text=st.one_of(documents.map(lambda t: t[0]), st.text(any_char, max_size=80)),
    quote=st.one_of(
        doc_and_quote().map(lambda t: t[1]),
        st.text(any_char, max_size=60),
        st.none(),
        st.integers(),
        st.binary(max_size=8),
    ),
    rules=SOME_RULES,
    chunking=st.builds(_chunking, st.integers(-2, 200), st.integers(-2, 60), st.integers(-1, 4)),
    cited_chunk=st.one_of(st.none(), st.integers(-2, 6), st.booleans()),
    scope=st.one_of(st.none(), st.sampled_from(["chunk", "group", "document", "page", ""])),
)
@settings(FUZZ, max_examples=150)
@example(text=" \n\f\t", quote="anything at all", rules=REC, chunking=Chunking(), cited_chunk=None, scope=None)
@example(text="x" * 20, quote="\ud800 lone \udfff surrogate quote", rules=REC, chunking=Chunking(), cited_chunk=None, scope=None)
@example(text="abc\x00" * 10, quote="\x00abc\x00abc\x00abc", rules=REC, chunking=Chunking(size=4, overlap=1), cited_chunk=3, scope="chunk")
@example(text="The end of it all, here.", quote=b"The end of it all", rules=EXACT, chunking=Chunking(), cited_chunk=None, scope=None)
def test_only_package_errors_escape(text, quote, rules, chunking, cited_chunk, scope):
    """For any text, any quote (also non-strings), any rules, any chunking, cited
    chunk and scope: building the Document, the Locator, locating, the
    ``quotelocate.normalize`` functions, ``to_dict`` and the near miss's lazy diff
    either succeed or raise a :class:`QuotelocateError` subclass; whitespace-only
    documents raise :class:`EmptyDocumentError`."""
    if isinstance(chunking, QuotelocateError):
        assert isinstance(chunking, ConfigError)
        return
    try:
        _exercise(text, quote, rules, chunking, cited_chunk, scope)
    except EmptyDocumentError:
        assert not text.strip()
    except QuotelocateError:
        pass


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_only_package_errors_escape_for_each_character_class(name):
    """The same with each tricky class in the document and the quote, every preset."""
    s = TRICKY[name]
    for rules in PRESETS.values():
        try:
            _exercise(_example_doc(s), _example_quote(s), rules, Chunking(size=16, overlap=4), 1, "group")
            _exercise(_example_doc(s), s * 6, rules, Chunking(), None, None)
        except QuotelocateError:
            pass


@given(
    data=st.dictionaries(
        st.one_of(st.sampled_from([f.name for f in Rules.__dataclass_fields__.values()]), st.text(max_size=8)),
        st.one_of(st.booleans(), st.integers(-3, 20), st.text(max_size=8), st.none(), st.floats(), st.lists(st.integers(), max_size=2)),
        max_size=6,
    )
)
@settings(FUZZ, max_examples=150)
@example(data={"unicode": "NFKC"})
@example(data={"min_chars": True})
@example(data={"hyphenation": ["both"]})
def test_rules_from_any_json_mapping(data):
    """``Rules.from_dict`` on any JSON-like mapping (string keys) gives valid Rules or
    raises :class:`ConfigError`, never anything else."""
    try:
        rules = Rules.from_dict(data)
    except ConfigError:
        return
    assert Rules.from_dict(rules.to_dict()) == rules


# ---------------------------------------------------------------------------------------
# 2. Soundness


@given(case=doc_and_quote(), rules=SOME_RULES)
@settings(FUZZ, max_examples=300)
@example(case=(_example_doc(TRICKY["combining"]), "first words e"), rules=Rules(min_chars=0, min_words=0))
@example(case=("a b e\u0301 c d", "a b e"), rules=EXACT.replace(min_chars=0, min_words=0))
@example(case=("the \ufb01ne model \ufb03ce of art", "ne model o"), rules=REC.replace(min_chars=0, min_words=0))
@example(case=("x \ufb03 and the rest of it", "i and the rest"), rules=Rules(unicode="nfkc", min_chars=0, min_words=0))
@example(case=("sta-\nte of the art, trans-\nduction and", "state of the art, trans-duction"), rules=REC)
@example(case=("page one words\n3\fJust more text and\n4", "one words Just more"), rules=REC.replace(min_chars=0))
@example(case=("abc-\n def ghi jkl mno", "-def ghi jkl mno"), rules=Rules(hyphenation="keep", whitespace=True))
@example(case=("\u00a8abc def ghi jkl", "\u00a8abc def ghi jkl"), rules=REC)
@example(case=("\uff76\uff9e and then some more words", "\uff76\uff9e and then some more"), rules=REC)
@example(case=("flag \U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea and words here", "\U0001f1f7\U0001f1e9\U0001f1ea and words here"), rules=EXACT.replace(min_chars=0))
@example(case=("emoji \U0001f44d\U0001f3fd and words here ok", "\U0001f44d and words here"), rules=REC.replace(min_chars=0))
@example(case=("zwj \U0001f468\u200d\U0001f469 words here ok", "\U0001f469 words here ok"), rules=EXACT.replace(min_chars=0))
@example(case=("nul\x00 words and more words here", "nul\x00 words and more"), rules=REC)
@example(case=("nul\x00 words and more words here", "words and more words"), rules=REC)
@example(case=("a line\r\nbreak and more words there", "line break and more words"), rules=REC)
@example(case=("a\u00a0b\u2009c\u202fd and more words", "a b c d and more words"), rules=REC)
@example(case=("co\u00adop\u200berate zero\u2060width \ufeffwords", "cooperate zerowidth words"), rules=REC)
@example(case=("well\u2010known \u2011 minus \u2212 1 and", "well\u2010known \u2011 minus \u2212 1"), rules=REC)
@example(case=("\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \u200f words", "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \u200f words"), rules=REC)
@example(case=("\uff21\uff22\uff23 \uff11\uff12 and more words", "ABC 12 and more words"), rules=REC)
@example(case=("10\u00b2 is not 102 at all, it is", "10\u00b2 is not 102 at"), rules=REC)
@example(case=("\u2018making\u2019 \u201cit\u201d the \u201equote\u201f", "'making' \"it\" the \"quote\""), rules=REC)
@example(case=("\x01ctl\x1b chars \x7f and \x0b more", "\x01ctl\x1b chars \x7f and"), rules=REC)
@example(case=("stra\u00dfe \u0130stanbul \u01c5 words", "stra\u00dfe \u0130stanbul \u01c5"), rules=REC)
@example(case=("\ud800 lone surrogate \udfff here and", "\ud800 lone surrogate \udfff here"), rules=EXACT)
@example(case=("\u1100\u1161\u11a8 jamo and more words", "\u1100\u1161\u11a8 jamo and more"), rules=REC)
def test_accepted_verdicts_are_sound(case, rules):
    """Whenever a verdict is accepted (any document, quote and rules):

    * ``0 <= start < end <= len(text)``, ``spans == ((start, end),)`` (a text document
      has no layout), its pages are ``pages_for(start, end)`` and all verifiable;
      ``status == "exact"`` only when ``text[start:end] == quote``;
    * ``cluster_boundary`` holds at ``start`` and at ``end`` of the original text, and
      no normalized character's original span straddles either end (no match starts
      or ends inside a ligature, NFKC or hyphen-break expansion);
    * (B) the document normalized as the locator does (``normalize`` with the page
      starts), restricted to the characters whose original span lies in
      ``[start, end)``, equals ``normalize_quote(quote)``, where with
      ``hyphenation="both"`` end-of-line hyphens may be left out;
    * (A) when the match needed no furniture removal, ``text[start:end]`` on its own
      normalized like a quote equals ``normalize_quote(quote)`` (same hyphen proviso);
    * with ``word_boundaries`` the normalized characters just outside the match are
      not word characters when the quote's end characters are (the one documented
      exception: a footnote marker glued to the first word).
    """
    text, quote = case
    try:
        doc = Document.from_text(text)
    except EmptyDocumentError:
        assume(False)
    v = _locate(Locator(doc, rules), quote)
    event(f"status: {v.status}")
    if v.accepted:
        assert_sound(doc, rules, quote, v)


# ---------------------------------------------------------------------------------------
# 3. Completeness


def _verbatim_case(text: str, start: int, end: int) -> tuple[Document, str]:
    assume(text.strip())
    return Document.from_text(text), text[start:end]


@given(case=doc_with_span())
@settings(FUZZ, max_examples=150)
@example(case=_at("one e\u0301 two three four five", "one e\u0301 two three four"))
@example(case=_at("x \U0001f1eb\U0001f1f7 flag words and more", "\U0001f1eb\U0001f1f7 flag words and"))
@example(case=_at("abc\x00def ghi jkl mno pqr", "def ghi jkl mno pqr"))
@example(case=_at("\ud800 surrogates are \udfff fine here", "\ud800 surrogates are \udfff fine"))
@example(case=_at("line one\r\nline two\fpage two", "line one\r\nline two\fpage two"))
@example(case=_at("\ufb01ne \ufb03 words and more", "\ufb01ne \ufb03 words and"))
def test_verbatim_substring_is_accepted_exact(case):
    """Under ``exact``: any substring ``text[start:end]`` with ``cluster_boundary`` at
    both ends, no NUL, at least 12 non-space characters and 3 words is accepted, and
    the verdict's span holds exactly that substring (at ``[start, end)`` when it is
    the only occurrence)."""
    text, start, end = case
    doc, quote = _verbatim_case(text, start, end)
    assume(_valid(quote, EXACT))
    assume(cluster_boundary(text, start) and cluster_boundary(text, end))
    v = _locate(Locator(doc, EXACT), quote)
    assert v.accepted, (quote, v.status, v.reason)
    assert v.status == "exact" and text[v.start : v.end] == quote
    if not v.ambiguous:
        assert (v.start, v.end) == (start, end)
    assert_sound(doc, EXACT, quote, v)


def _recommended_precondition(doc: Document, start: int, end: int) -> tuple[int, int] | None:
    """Where ``text[start:end]`` sits in the normalized document if the recommended
    preset can promise to accept it verbatim, else None. It can't when:

    * the substring holds NUL, or is too short once normalized;
    * it starts or ends inside a grapheme cluster (``cluster_boundary``), also once
      its leading and trailing whitespace is stripped (a space can be the base of a
      combining mark);
    * it overlaps page furniture (a page-number line or running header is removed from
      the document side only, so a quote copying it is rightly rejected);
    * it cuts a normalization edit other than a whitespace run, or its normalized image
      starts or ends on a ``-\\n`` hyphen break (a quote starting or ending on a
      line-break hyphen is not promised, as in test_properties: the quote side cannot
      see the letter on the far side, so "-\\nthe" stays "- the");
    * its normalized image starts or ends inside a word of the normalized document
      (``word_boundaries`` is defined on normalized text: "abc\\u200bdef" is one word
      once ``invisible`` removes the zero-width space, "abc\\u00ad\\ndef" once the soft
      hyphen break is dropped), except after a glued footnote marker;
    * it holds a line-end hyphen that the document reads as suspended ("pre-\\nand
      post-training") because of a hyphenated word past the quote's end, which the quote
      side cannot see (``suspended_breaks`` differs between the two).
    """
    text = doc.text
    sub = text[start:end]
    q = normalize_text(sub, REC)
    if not _valid(q, REC) or not (cluster_boundary(text, start) and cluster_boundary(text, end)):
        return None
    inside = [(h - start, b - start) for h, b in suspended_breaks(text) if start <= h and b <= end]
    if inside != [(h, b) for h, b in suspended_breaks(sub)]:
        return None
    for s, e in find_furniture(text, doc.page_starts):
        if s < end and start < e + 1:
            return None
    n = _doc_side(doc, REC)
    for i in range(len(n.text)):
        for cut in (start, end):
            if n.starts[i] < cut < n.ends[i] and not (n.text[i] == " " and n.flags[i] & WHITESPACE):
                return None
    sel = _selected(n, start, end)
    if not sel:
        return None
    a, b = sel[0], sel[-1] + 1
    while a < b and n.text[a] == " ":
        a += 1
    while b > a and n.text[b - 1] == " ":
        b -= 1
    if a == b or not (cluster_boundary(text, n.starts[a]) and cluster_boundary(text, n.ends[b - 1])):
        return None  # also once stripped: " \u0300x" starts inside the cluster " \u0300"
    if (n.flags[a] | n.flags[b - 1]) & (HYPHEN_KEEP | HYPHEN_DROP):
        return None
    if a > 0 and is_word_char(n.text[a - 1]) and is_word_char(n.text[a]):
        return None
    if b < len(n.text) and is_word_char(n.text[b]) and is_word_char(n.text[b - 1]):
        return None
    return a, b


@given(case=doc_with_span())
@settings(FUZZ, max_examples=200)
@example(case=_at("we use the state-of-the-art models here", "the state-of-the-art models"))
@example(case=_at("we use the state-of-the-art models here", "we use the state"))
@example(case=_at("some words in a ro\u0301w and e\u0301 more", "words in a ro\u0301w and e\u0301"))
@example(case=_at("a \U0001f468\u200d\U0001f469\u200d\U0001f467 family of emoji words", "\U0001f468\u200d\U0001f469\u200d\U0001f467 family of emoji"))
@example(case=_at("\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 and words", "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 and words"))
@example(case=_at("the \ufb01ne \ufb00 \ufb06 ligature words", "the \ufb01ne \ufb00 \ufb06 ligature words"))
@example(case=_at("\uff21\uff22\uff23 \uff11\uff12 fullwidth words", "\uff21\uff22\uff23 \uff11\uff12 fullwidth words"))
@example(case=_at("10\u00b2 H\u2082O \u00bd x\u2071 and words", "10\u00b2 H\u2082O \u00bd x\u2071 and words"))
@example(case=_at("spaces\u00a0every\u2009where\u202fhere\u3000now", "spaces\u00a0every\u2009where\u202fhere\u3000now"))
@example(case=_at("zero\u200bwidth co\u00adop and words", "zero\u200bwidth co\u00adop and words"))
@example(case=_at("well\u2010known \u2011 minus \u2212 words here", "well\u2010known \u2011 minus \u2212 words here"))
@example(case=_at("ctl\x01 chars\x1b and\x7f more", "ctl\x01 chars\x1b and\x7f more"))
@example(case=_at("page one text\fpage two text here", "one text\fpage two text here"))
@example(case=_at("line one\r\nline two\r\nline three", "line one\r\nline two\r\nline three"))
@example(case=_at("\u2018quoted\u2019 \u201cwords\u201d in it", "\u2018quoted\u2019 \u201cwords\u201d in it"))
@example(case=_at("nul \x00 separated words and more words", "separated words and more words"))
@example(case=_at("the trans-\nduction of words here", "trans-\nduction of words here"))
@example(case=_at("we pair the pre-\nand\u200b post-training stages", "we pair the pre-\nand"))
def test_verbatim_substring_is_accepted_recommended(case):
    """Under ``recommended``: every substring meeting the conditions of
    :func:`_recommended_precondition` is accepted, within the original span of its
    normalized image when it is the only occurrence, and the verdict is sound."""
    text, start, end = case
    doc, quote = _verbatim_case(text, start, end)
    where = _recommended_precondition(doc, start, end)
    assume(where is not None)
    v = _locate(Locator(doc, REC), quote)
    assert v.accepted, (quote, v.status, v.cause, v.reason)
    assert_sound(doc, REC, quote, v)
    if not v.ambiguous:
        n = _doc_side(doc, REC)
        a, b = where
        # inside the normalized image's span (the quote side may drop an invisible
        # character at an end that the document keeps, e.g. a soft hyphen before "\n")
        assert n.starts[a] <= v.start < v.end <= n.ends[b - 1], ((v.start, v.end), (n.starts[a], n.ends[b - 1]))


# ---------------------------------------------------------------------------------------
# 4. Determinism


@given(case=doc_and_quote(), rules=RULES)
@settings(FUZZ, max_examples=80)
@example(case=(_example_doc(TRICKY["surrogates"]), _example_quote(TRICKY["surrogates"])), rules=REC)
@example(case=(_example_doc(TRICKY["nul"]), "first words and more"), rules=REC)
def test_determinism(case, rules):
    """Locating a quote twice, and with a second Locator built from equal Rules,
    gives equal ``to_dict()``; equal Rules (rebuilt from ``to_dict``/``from_dict`` or
    ``replace()``) have the same fingerprint ``ql<version>-<16 hex>``, and changing a
    field changes it."""
    text, quote = case
    try:
        doc = Document.from_text(text)
    except EmptyDocumentError:
        assume(False)
    twin = Rules.from_dict(rules.to_dict())
    assert twin == rules and twin.fingerprint == rules.fingerprint == rules.replace().fingerprint
    assert re.fullmatch(r"ql\d+-[0-9a-f]{16}", rules.fingerprint)
    assert rules.replace(min_chars=rules.min_chars + 1).fingerprint != rules.fingerprint
    loc = Locator(doc, rules)
    first = _locate(loc, quote).to_dict()
    assert _locate(loc, quote).to_dict() == first
    assert _locate(Locator(doc, twin), quote).to_dict() == first


# ---------------------------------------------------------------------------------------
# 5. Fabrications: case, punctuation and invented tails are rejected

_QUOTE_MARKS = set("'\"\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a")


@given(case=doc_with_span(), rules=SOME_RULES, kind=st.sampled_from(["case", "punctuation", "tail"]), pick=st.integers(0, 10**6), word=st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8))
@settings(FUZZ, max_examples=150)
@example(case=_at("The Model uses attention and more words", "The Model uses attention and more words"), rules=REC, kind="case", pick=4, word="x")
@example(case=_at("stra\u00dfe and \u01c5 the words here", "stra\u00dfe and \u01c5 the words here"), rules=REC, kind="case", pick=4, word="x")
@example(case=_at("a \ufb00 b \u0130 c words here and there", "a \ufb00 b \u0130 c words here and there"), rules=REC, kind="case", pick=0, word="x")
@example(case=_at("Hello, world; and: more! words here", "Hello, world; and: more! words here"), rules=REC, kind="punctuation", pick=1, word="x")
@example(case=_at("Sta-\nte of the art, the words here", "Sta-\nte of the art, the words here"), rules=REC, kind="punctuation", pick=0, word="x")
@example(case=_at("10\u00b2 units of the words here\u2026", "10\u00b2 units of the words here\u2026"), rules=REC, kind="punctuation", pick=0, word="x")
@example(case=_at("the words of the model end here", "the words of the model end"), rules=REC, kind="tail", pick=0, word="here")
@example(case=_at("the words of the model end here", "the words of the model end"), rules=REC, kind="tail", pick=0, word="hero")
@example(case=_at("the \ufb01rst words of it\u200b end", "the \ufb01rst words of it\u200b end"), rules=REC, kind="tail", pick=0, word="\ufb01")
def test_fabrications_are_rejected(case, rules, kind, pick, word):
    """Take a verbatim substring that is accepted. Then each mutant is rejected unless
    it occurs in the normalized document (:func:`_occurs`, boundaries ignored):

    * ``case``: one cased character ``c`` with ``c.swapcase() != c`` swapped, when the
      normalized mutant differs from the normalized quote;
    * ``punctuation``: one character of a Unicode ``P*`` category that is not a quote
      mark deleted, when the normalized mutant differs;
    * ``tail``: a space and an invented word (letters/digits) appended.
    """
    text, start, end = case
    doc, quote = _verbatim_case(text, start, end)
    loc = Locator(doc, rules)
    assume(_locate(loc, quote).accepted)
    if kind == "case":
        spots = [k for k, c in enumerate(quote) if c.swapcase() != c]
        assume(spots)
        k = spots[pick % len(spots)]
        mutant = quote[:k] + quote[k].swapcase() + quote[k + 1 :]
    elif kind == "punctuation":
        spots = [k for k, c in enumerate(quote) if unicodedata.category(c).startswith("P") and c not in _QUOTE_MARKS]
        assume(spots)
        k = spots[pick % len(spots)]
        mutant = quote[:k] + quote[k + 1 :]
    else:
        mutant = quote + " " + word
    q, mq = normalize_quote(quote, rules)[0], normalize_quote(mutant, rules)[0]
    assume(mq != q)
    n = _doc_side(doc, rules)
    both = rules.hyphenation == "both"
    assume(not _occurs(n, mq, both))
    if rules.ellipsis == "fragments" and _ELLIPSIS_RE.search(mq):
        # read as fragments, each piece may be found on its own
        pieces = [p for p in (p.strip() for p in _ELLIPSIS_RE.split(mq)) if p]
        assume(not all(_occurs(n, p, both) for p in pieces))
    m = _locate(loc, mutant)
    assert not m.accepted, (quote, mutant, m.status, m.start, m.end, text[m.start : m.end])


# ---------------------------------------------------------------------------------------
# Regressions for bugs these properties found (fixed; each case failed before the fix)


@pytest.mark.parametrize(
    "text,quote",
    [
        ("we use the state-of-the-art models here", "-of-the-art models here"),
        ("we use the state-of-the-art models here", "we use the state-"),
        ("we use the well\u2010known models here", "\u2010known models here"),
    ],
)
def test_both_accepts_quote_starting_or_ending_on_inner_hyphen(text, quote):
    """The quote is verbatim in the document, on word boundaries; ``keep`` and
    ``exact`` accept it, but ``both`` (so ``recommended``) rejects it as
    ``partial-word``: the search key drops only hyphens *between* letters of the
    quote, while the document's skeleton also drops the hyphen whose far letter lies
    outside the quote."""
    doc = Document.from_text(text)
    assert Locator(doc, Rules(hyphenation="keep")).locate(quote).accepted
    v = Locator(doc, REC).locate(quote)
    assert v.accepted, (v.status, v.cause)


@pytest.mark.parametrize(
    "text,quote",
    [
        ("(\u00b4accent marks here)", "\u00b4accent marks here"),
        ("x\u00a8umlaut marks here", "\u00a8umlaut marks here"),
        ("x\u1fedabc marks here", "\u1fedabc marks here"),
        ("\u00a8abc def ghi jkl", "\u00a8abc def ghi jkl"),  # the whole document
    ],
)
def test_quote_starting_with_spacing_accent_is_accepted(text, quote):
    """NFKC folds a spacing accent to a space plus a combining mark ("\u00b4" ->
    " \u0301"). The quote side strips that leading space, so the quote starts at the
    combining mark, which in the document shares its original span with the space
    before it: the locator takes it for a match inside one expansion and rejects a
    verbatim quote as ``partial-word`` (``unicode="nfkc"`` alone accepts it; so does
    the document with a space before the accent, which the whitespace rule merges)."""
    doc = Document.from_text(text)
    assert Locator(doc, Rules(unicode="nfkc")).locate(quote).accepted
    v = Locator(doc, Rules(unicode="nfkc", whitespace=True)).locate(quote)
    assert v.accepted, (v.status, v.cause)


@pytest.mark.parametrize("data", [{1: 2}, {"quotes": True, None: 1}, {1: 2, "x": 3}])
def test_rules_from_dict_with_non_string_key_is_a_config_error(data):
    """A mapping with a non-string key (YAML ``1: 2``) should raise ConfigError like
    any unknown field; ``", ".join`` / ``sorted`` over the keys raise TypeError."""
    with pytest.raises(ConfigError):
        Rules.from_dict(data)


@pytest.mark.parametrize(
    "text,quote,rules",
    [
        ("ab ", "x y", Rules(whitespace=True, min_chars=0, min_words=0)),
        ("ab\n", "x y", Rules(whitespace=True, min_chars=0, min_words=0)),
        ("ab ", "x y", Rules(min_chars=0, min_words=0)),
        ("the end  ", "0\r0", Rules(whitespace=True, word_boundaries=False, min_chars=0, min_words=0)),
    ],
)
def test_near_miss_on_trailing_whitespace_is_a_plain_rejection(text, quote, rules):
    """A rejected quote whose closest alignment is only the document's trailing
    whitespace: ``_widen`` moves ``a`` to ``len(text)`` and ``Diagnoser.near_miss``
    reads ``norm.ends[max(a, b - 1)]`` past the end (diagnose.py, ``start, end = ...``).
    Expected: a ``not-found`` verdict."""
    v = Locator(Document.from_text(text), rules).locate(quote)
    assert v.status == "not-found"
