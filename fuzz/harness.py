"""Per-input checks of the fuzz targets, importable without atheris.

:func:`check_document` feeds bytes to :meth:`Document.from_pdf_bytes` and, when they
load, locates windows of the extracted text; :func:`check_locate` builds a small
:meth:`Document.from_text` and random :class:`Rules` from the bytes and locates quotes
cut from the text, mutated, or given literally. Both return ``None`` on a good input
and raise on a finding:

* any exception that is not a :class:`~quotelocate.errors.QuotelocateError` escapes
  as it is (a crash);
* :class:`InvariantViolation` when a verdict breaks a promise:

  - shape: ``accepted`` agrees with ``status``; an accepted verdict's ``start``/``end``
    and every span lie inside :attr:`Document.text`, its pages exist, none of them is
    unverifiable and no span touches invisible text (:attr:`Document.hidden`);
  - soundness (as ``tests/test_properties.py`` states it): the raw span of an accepted
    verdict, normalized with the same rules, equals the normalized quote (compared
    without optional hyphens when the match needed ``hyphenation:drop``; a line-end
    hyphen before a connector whose evidence lies past the span or the quote is read
    as suspended on the quote side as the locator's second reading does, on the span
    side only where the document reads it so);
  - completeness: a verbatim window of the document on clean word boundaries (an
    alphanumeric character just inside each end, whitespace or the text's edge just
    outside, no end-of-line hyphen break touching either end, no NUL, verifiable
    pages, no invisible text) is accepted, unless it is ``invalid`` (too short); under the ``exact``
    preset it is accepted as ``exact``, at the window itself when unambiguous.

``fuzz_document.py`` and ``fuzz_locate.py`` are thin atheris wrappers around these
functions; ``tests/test_fuzz_corpus.py`` replays the committed corpus through them.
"""

from __future__ import annotations

import inspect
import json
import random
import re
import zlib
from pathlib import Path
from typing import Iterator

import pymupdf

from quotelocate import Document, Locator, Rules
from quotelocate.errors import EncryptedDocumentError, QuotelocateError
from quotelocate.kgrams import skeleton as _skeleton
from quotelocate.locate import ACCEPTED_STATUSES, STATUSES, Verdict
from quotelocate.normalize import (
    _HYPHEN_BREAK,
    FLAG_NAMES,
    HYPHENATION_MODES,
    PRESETS,
    SUSPENDED,
    UNICODE_MODES,
    Context,
    normalize,
    normalize_text,
    rule_furniture,
    suspended_breaks,
    suspended_quote_reading,
)

pymupdf.TOOLS.mupdf_display_errors(False)  # mutated PDFs make mupdf chatty on stderr
pymupdf.TOOLS.mupdf_display_warnings(False)

EXACT = PRESETS["exact"]
RECOMMENDED = PRESETS["recommended"]
PLAIN = RECOMMENDED.replace(layout=False, furniture=False)
"""The recommended rules without the page-geometry rules, so that soundness and
completeness can be stated on :attr:`Document.text` directly."""
PRESET_NAMES = tuple(PRESETS)
RULE_NAMES = frozenset(FLAG_NAMES.values())
MAX_WINDOW_WORDS = 14

ESCAPES = {
    0x02: "\ufb01",  # fi ligature
    0x03: "\u00ad",  # soft hyphen
    0x04: "-\n",  # end-of-line hyphen
    0x05: "\u200b",  # zero-width space
    0x06: "\u2019",  # right single quote
    0x07: "\u201c",  # left double quote
    0x0E: "\u0301",  # combining acute accent
    0x0F: "\u00b2",  # superscript two
    0x10: "\ufb03",  # ffi ligature
    0x11: "\u00a0",  # no-break space
    0x12: "\uff21",  # fullwidth A
    0x13: "\u200d",  # zero-width joiner
    0x14: "\U0001f1fa\U0001f1f8",  # a flag (two regional indicators)
    0x15: "\u00bd",  # vulgar fraction one half
    0x16: "\u2010\n",  # hyphen U+2010 at a line end
    0x17: "\u00ad\n",  # soft hyphen at a line end
    0x18: "\ufe0f",  # variation selector
    0x19: "e\u0301",  # decomposed e acute
    0x1A: " \n ",  # a line break with spaces
    0x1B: "\u3000",  # ideographic space
}
"""Bytes of a locate input that stand for a PDF text artifact (the rest is UTF-8)."""
_ESCAPE_TABLE = str.maketrans({chr(k): v for k, v in ESCAPES.items()})  # str.translate looks up ordinals
QUOTE_SEPARATOR = b"\x01"
HEADER = 8


class InvariantViolation(AssertionError):
    """A verdict broke a promise of the locator (shape, soundness or completeness)."""


# ---------------------------------------------------------------------------------------
# Warm-up


def warm_up(target: str) -> None:
    """Replay the committed seeds of ``target`` once, before libFuzzer times any input.

    The first inputs of a process pay for work done once per process: the table of
    combining marks NFKC clusters need (every code point's category, about a second,
    several times that when atheris instruments the loop), lazy imports, compiled
    patterns. That is no input's cost; on a loaded machine it ran past libFuzzer's
    per-input timeout. A seed that fails is left for libFuzzer to report."""
    check = {"document": check_document, "locate": check_locate}[target]
    for path in sorted((Path(__file__).resolve().parent / "corpus" / target).glob("*")):
        try:
            check(path.read_bytes())
        except Exception:  # noqa: BLE001  (reported by libFuzzer when it runs the seed)
            pass


# ---------------------------------------------------------------------------------------
# Shared checks


def check_verdict(doc: Document, rules: Rules, quote: str, verdict: Verdict) -> None:
    """Shape of any verdict, and soundness of an accepted one (not stated for the page
    geometry rules on a PDF: layout reorders the text, margin stamps are geometry)."""
    where = f"quote {quote!r} under {rules.describe()}"
    if verdict.status not in STATUSES:
        raise InvariantViolation(f"{where}: unknown status {verdict.status!r}")
    if verdict.accepted != (verdict.status in ACCEPTED_STATUSES):
        raise InvariantViolation(f"{where}: accepted={verdict.accepted} with status {verdict.status!r}")
    unknown = set(verdict.rules) - RULE_NAMES
    if unknown:
        raise InvariantViolation(f"{where}: unknown rules {sorted(unknown)}")
    json.dumps(verdict.to_dict())  # every verdict serializes
    if not verdict.accepted:
        return
    n = len(doc.text)
    start, end, spans = verdict.start, verdict.end, verdict.spans
    if start is None or end is None or not 0 <= start < end <= n:
        raise InvariantViolation(f"{where}: accepted span {start}..{end} is not inside the text (0..{n})")
    if not spans or any(not (0 <= s < e <= n) for s, e in spans):
        raise InvariantViolation(f"{where}: accepted spans {spans} are not inside the text (0..{n})")
    if min(s for s, _ in spans) != start or max(e for _, e in spans) != end:
        raise InvariantViolation(f"{where}: spans {spans} do not cover {start}..{end}")
    pages = {p.number: p for p in doc.pages}
    touched = {p for s, e in spans for p in doc.pages_for(s, e)}
    if not verdict.pages or any(p not in pages for p in verdict.pages):
        raise InvariantViolation(f"{where}: pages {verdict.pages} are not pages of the document")
    bad = sorted(p for p in touched | set(verdict.pages) if not pages[p].verifiable)
    if bad:
        raise InvariantViolation(f"{where}: accepted on unverifiable page {bad}")
    hidden = [(s, e) for s, e in getattr(doc, "hidden", ()) if any(s < b and a < e for a, b in spans)]
    if hidden:
        raise InvariantViolation(f"{where}: accepted over invisible text {hidden}")
    for box in verdict.boxes:
        if box.page not in pages:
            raise InvariantViolation(f"{where}: highlight box on page {box.page}, not a page of the document")
    if doc.kind == "pdf" and (rules.layout or rules.furniture):
        return
    if len(spans) != 1:
        raise InvariantViolation(f"{where}: {len(spans)} spans without the layout rule")
    raw, origin = _without_furniture(doc, rules, start, end)
    span_norm, quote_norm = normalize_text(raw, rules), normalize_text(quote, rules)
    if "hyphenation:drop" in verdict.rules:
        span_norm, quote_norm = _skeleton(span_norm), _skeleton(quote_norm)
    if span_norm != quote_norm and not _same_suspended_reading(doc, rules, verdict, quote, raw, origin):
        raise InvariantViolation(
            f"{where}: unsound: span {start}..{end} {doc.text[start:end]!r} normalizes to "
            f"{span_norm!r}, the quote to {quote_norm!r}"
        )


def _same_suspended_reading(doc: Document, rules: Rules, verdict: Verdict, quote: str, raw: str, origin: list[int]) -> bool:
    """Whether the span and the quote agree once a line-end hyphen before a connector
    ("pre-\nand") is read as suspended where the evidence lies outside the text read.

    A suspended hyphen needs a hyphenated word after the connector. The span on its
    own may stop before that word while the document, which has it, reads the break as
    suspended: the span is then read that way only if the document reads every such
    break in it so. A quote that stops before the evidence has the locator's second
    reading (:func:`suspended_quote_reading`), which matches only the same reading of
    the document."""
    if not rules.suspended_hyphens:
        return False
    quotes = {normalize_text(quote, rules)}
    other = suspended_quote_reading(quote, rules)
    if other is not None:
        quotes.add(other[0])
    spans = {normalize_text(raw, rules)}
    breaks = [origin[at] for at, _ in suspended_breaks(raw, evidence=False)]
    if breaks and set(breaks) <= _document_suspended(doc, rules):
        other = suspended_quote_reading(raw, rules)
        if other is not None:
            spans.add(other[0])
    if "hyphenation:drop" in verdict.rules:
        quotes, spans = {_skeleton(q) for q in quotes}, {_skeleton(s) for s in spans}
    return bool(quotes & spans)


def _document_suspended(doc: Document, rules: Rules) -> set[int]:
    """Offsets in :attr:`Document.text` of the hyphens the document side reads as suspended."""
    n = normalize(doc.text, rules, context=Context(page_starts=doc.page_starts))
    return {n.starts[i] for i, ch in enumerate(n.text) if n.flags[i] & SUSPENDED and ch in "-\u2010"}


def _without_furniture(doc: Document, rules: Rules, start: int, end: int) -> tuple[str, list[int]]:
    """The raw span with the furniture lines the document side removed cut out (those
    the match skipped over; the span itself when the furniture rule is off), and the
    offset in :attr:`Document.text` of each of its characters."""
    if not rules.furniture:
        return doc.text[start:end], list(range(start, end))
    pieces, origin, prev = [], [], start
    for s, e, _, _ in rule_furniture(doc.text, rules, Context(page_starts=doc.page_starts)):
        if e <= prev or s >= end:
            continue
        pieces.append(doc.text[prev:s])
        origin.extend(range(prev, s))
        prev = e
    pieces.append(doc.text[prev:end])
    origin.extend(range(prev, end))
    return "".join(pieces), origin


def clean_windows(doc: Document, rng: random.Random, count: int) -> Iterator[tuple[int, int]]:
    """Up to ``count`` windows of whole whitespace-separated words of the text."""
    bounds = [m.span() for m in re.finditer(r"\S+", doc.text)]
    if not bounds:
        return
    for _ in range(count):
        i = rng.randrange(len(bounds))
        j = min(len(bounds) - 1, i + rng.randrange(MAX_WINDOW_WORDS))
        yield bounds[i][0], bounds[j][1]


def is_clean(doc: Document, start: int, end: int) -> bool:
    """Whether ``[start, end)`` is a window completeness is promised for (module doc)."""
    text = doc.text
    if start >= end or not (text[start].isalnum() and text[end - 1].isalnum()):
        return False
    if (start > 0 and not text[start - 1].isspace()) or (end < len(text) and not text[end].isspace()):
        return False
    if "\x00" in text[start:end]:
        return False
    for m in _HYPHEN_BREAK.finditer(text, max(start - 4, 0), min(end + 4, len(text))):
        if m.start() < start <= m.end() or m.start() <= end < m.end():
            return False
    # NFKC may fold a character into several, starting or ending with a non-word
    # character; the window's edges then move and nothing is promised.
    for ch in (text[start], text[end - 1]):
        if normalize_text(ch, RECOMMENDED) != ch and not normalize_text(ch, RECOMMENDED).isalnum():
            return False
    if any(s < end and start < e for s, e in getattr(doc, "hidden", ())):
        return False  # invisible text is never accepted
    pages = {p.number: p for p in doc.pages}
    return all(pages[p].verifiable for p in doc.pages_for(start, end))


def check_completeness(doc: Document, loc: Locator, start: int, end: int) -> None:
    """A verbatim clean window is accepted unless invalid (``exact``: as ``exact``)."""
    quote = doc.text[start:end]
    v = loc.locate(quote)
    check_verdict(doc, loc.rules, quote, v)
    if v.status == "invalid":
        return
    where = f"window {start}..{end} {quote!r} under {loc.rules.describe()}"
    if not v.accepted:
        raise InvariantViolation(f"{where}: incomplete: rejected as {v.status} ({v.reason})")
    if loc.rules == EXACT:
        if v.status != "exact":
            raise InvariantViolation(f"{where}: verbatim window accepted as {v.status}")
        if not v.ambiguous and (v.start, v.end) != (start, end):
            raise InvariantViolation(f"{where}: unambiguous match reported at {v.start}..{v.end}")


def model_writes(raw: str) -> str:
    """How a model re-renders a raw span: joined end-of-line hyphens, straight quotes,
    spelled ligatures, no soft hyphens, single spaces."""
    text = re.sub(r"(?<=[^\W\d_])[-\u2010]\n\s*(?=[^\W\d_])", "-", raw)
    text = text.replace("\u00ad\n", "").replace("\u00ad", "")
    text = text.translate(str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'}))
    for lig, spelled in (("\ufb01", "fi"), ("\ufb02", "fl"), ("\ufb03", "ffi"), ("\ufb00", "ff")):
        text = text.replace(lig, spelled)
    return " ".join(text.split())


def mutate(quote: str, rng: random.Random) -> str:
    """One small edit a careless model makes: a digit, a letter's case, a dropped word."""
    if not quote:
        return quote
    k = rng.randrange(len(quote))
    ch = quote[k]
    choice = rng.randrange(3)
    if choice == 0 and ch.isdigit() and ch in "0123456789":
        return quote[:k] + str((int(ch) + 1) % 10) + quote[k + 1 :]
    if choice == 1 and ch.swapcase() != ch:
        return quote[:k] + ch.swapcase() + quote[k + 1 :]
    words = quote.split(" ")
    if len(words) > 1:
        del words[rng.randrange(len(words))]
        return " ".join(words)
    return quote[:k] + quote[k + 1 :]


# ---------------------------------------------------------------------------------------
# Document target

_ISOLATE = "isolate" in inspect.signature(Document.from_pdf_bytes).parameters


def load_pdf(data: bytes, *, password: str | None = None) -> Document:
    """:meth:`Document.from_pdf_bytes` in process (``isolate=False`` when the option
    exists), with textless pages allowed so unverifiable pages are reached."""
    options: dict = {"name": "<fuzz>", "password": password, "allow_textless_pages": True}
    if _ISOLATE:
        options["isolate"] = False
    return Document.from_pdf_bytes(data, **options)


def check_document_shape(doc: Document) -> None:
    text, pages = doc.text, doc.pages
    if not pages or pages[0].start != 0 or pages[-1].end != len(text):
        raise InvariantViolation(f"pages {[(p.start, p.end) for p in pages]} do not tile a text of {len(text)}")
    for a, b in zip(pages, pages[1:]):
        if b.start != a.end + 1 or text[a.end] != "\f" or b.number != a.number + 1:
            raise InvariantViolation(f"pages {a} and {b} are not separated by one form feed")
    for line in doc.lines:
        page = pages[line.page - 1]
        if not page.start <= line.start <= line.end <= page.end:
            raise InvariantViolation(f"line {line} lies outside its page {page}")


def check_document(data: bytes) -> None:
    """Load ``data`` as a PDF; if it loads, locate windows of its text (module doc).
    A :class:`QuotelocateError` anywhere is an answer and ends the check."""
    try:
        _check_document(data)
    except QuotelocateError:
        return


def _check_document(data: bytes) -> None:
    try:
        doc = load_pdf(data)
    except EncryptedDocumentError:
        doc = load_pdf(data, password="user")  # the password of the seed corpus
    check_document_shape(doc)
    rng = random.Random(zlib.crc32(data))
    windows = list(clean_windows(doc, rng, 4))
    for rules in (RECOMMENDED, PLAIN):
        loc = Locator(doc, rules)
        for start, end in windows:
            raw = doc.text[start:end]
            for quote in (raw, model_writes(raw), mutate(model_writes(raw), rng)):
                verdict = loc.locate(quote)
                check_verdict(doc, rules, quote, verdict)
            if not rules.layout and is_clean(doc, start, end):
                check_completeness(doc, loc, start, end)
        if loc.chunks:
            quote = model_writes(doc.text[windows[0][0] : windows[0][1]]) if windows else "x"
            verdict = loc.locate(quote, cited_chunk=rng.randrange(len(loc.chunks)))
            check_verdict(doc, rules, quote, verdict)


# ---------------------------------------------------------------------------------------
# Locate target


def decode(data: bytes) -> str:
    """UTF-8 text of a locate input, artifact bytes (:data:`ESCAPES`) expanded."""
    return data.decode("utf-8", "replace").translate(_ESCAPE_TABLE)


def rules_from(header: bytes) -> Rules:
    """A preset (``header[0] < 0x80``) or random :class:`Rules` from the header bits."""
    if header[0] < 0x80:
        return PRESETS[PRESET_NAMES[header[0] % len(PRESET_NAMES)]]
    bits, more = header[1], header[2]
    return Rules(
        quotes=bool(bits & 1),
        whitespace=bool(bits & 2),
        invisible=bool(bits & 4),
        furniture=bool(bits & 8),
        layout=bool(bits & 16),
        word_boundaries=bool(bits & 32),
        unicode=UNICODE_MODES[(bits >> 6) % len(UNICODE_MODES)],
        hyphenation=HYPHENATION_MODES[more & 3],
        min_chars=(more >> 2) % 16,
        min_words=(more >> 6) % 4,
    )


def check_locate(data: bytes) -> None:
    """Build a document and rules from ``data`` and check every verdict (module doc).
    A :class:`QuotelocateError` anywhere is an answer and ends the check.

    Format: 8 header bytes (``[0]`` a preset index, or random rules from ``[1:3]`` when
    ``[0] >= 0x80``; ``[3:]`` seeds the windows and mutations; ``[6]``/``[7]`` pick a
    scope and a cited chunk), then the document text, then literal quotes, each after
    a ``\\x01`` byte.
    """
    try:
        _check_locate(data)
    except QuotelocateError:
        return


def _check_locate(data: bytes) -> None:
    header = data[:HEADER].ljust(HEADER, b"\x00")
    body, *literal = data[HEADER:].split(QUOTE_SEPARATOR)
    rules = rules_from(header)
    doc = Document.from_text(decode(body), name="<fuzz>")
    rng = random.Random(int.from_bytes(header[3:], "big"))
    loc = Locator(doc, rules)
    exact = Locator(doc, EXACT) if rules != EXACT else loc
    quotes = [decode(q) for q in literal[:4]]
    for start, end in clean_windows(doc, rng, 3):
        raw = doc.text[start:end]
        quotes += [raw, model_writes(raw), mutate(raw, rng)]
        if is_clean(doc, start, end):
            check_completeness(doc, exact, start, end)
            if not rules.furniture:
                check_completeness(doc, loc, start, end)
    for quote in quotes:
        check_verdict(doc, rules, quote, loc.locate(quote))
    if quotes and loc.chunks:
        chunk = header[7] % len(loc.chunks)
        scope = ("chunk", "group", "document")[header[6] % 3]
        verdict = loc.locate(quotes[0], cited_chunk=chunk, scope=scope)
        check_verdict(doc, rules, quotes[0], verdict)
