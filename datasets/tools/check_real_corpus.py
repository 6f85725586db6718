r"""Check the labels of the real-paper quote sets without the locator.

Usage: ``python datasets/tools/check_real_corpus.py [SET.yaml ...]`` (default: every
``datasets/real-corpus/*.yaml``); exit status 1 when any label is wrong.

The check reads the YAML with ``yaml.safe_load`` and the PDF with pymupdf directly; it
imports nothing of quotelocate (not the loader, the normalizer, the layout code or the
locator), so a bug there cannot hide a bad label here.

The text. A page's text is its lines from ``page.get_text("dict", flags=67)``, each
followed by a newline (this is ``get_text("text")`` except that a line without text is
kept as an empty line); the document text is the pages joined by a form feed, which is
what the sets' offsets index (``Document.text``). The file's
sha256 and the text's sha256 must equal the set's pins.

A faithful quote is right when its anchor is ``text[start:end]``, starts on the
labelled page, and the quote is a *reading* of the anchor that differs from it only by

* whitespace: every whitespace run of the anchor is one or more whitespace characters
  in the quote (a line break, a tab, a form feed, a run of spaces all read as a space);
* line-end hyphens: a hyphen followed by a line break is either kept (``self-⏎attention``
  read as "self-attention") or dropped with the break (``trans-⏎lation`` as
  "translation"); a soft hyphen (U+00AD) is dropped, and with it the line break after
  it when it follows a letter (``gene­⏎ration`` as "generation"; one that starts a word,
  ``the ⏎­synapses``, is just dropped);
* ligature glyphs (U+FB00..U+FB06) read as their letters;
* curly and straight quote marks read as each other;
* the quote's listed allowances (``allow``), and nothing else:

  - ``spans`` of kind ``float``, ``furniture``, ``footnote``, ``marker`` or ``body``:
    document text inside the anchor that the quote leaves out (a figure or table the
    sentence flows around, a running header and page number at a page break, a footnote,
    a superscript marker glued to a word, the main text between the two halves of a
    footnote that continues in the next column). A left-out span reads as nothing.
  - ``spans`` of kind ``dash``: one character the extraction wrote for a printed dash
    (the letter ``e`` in one paper's encoding); the quote has any dash there.
  - ``spans`` of kind ``equals``: one character the extraction wrote for a printed
    equals sign (``\u00bc`` in the same paper); the quote has ``=`` there.
  - ``spans`` of kind ``drop-cap``: a drop-cap capital, the line break after it and the
    rest of its word in capitals (``I⏎N``); the quote has the word with the capital and
    the rest in any case ("In").
  - ``readings``: ``spacing-accent`` (a spacing diacritic next to a letter, before or
    after it, dotless i included, read as the precomposed letter), ``suspended-hyphen``
    (a line-end hyphen kept *with* a space: "pre-⏎and post-" as "pre- and post-"),
    ``math-spacing`` (a space in the quote where the anchor has none, between a math
    symbol, Unicode category Sm, and a letter or digit), ``word-gap`` (a space in the
    quote where the anchor has none, between two glyphs the page sets at least a tenth
    of their font size apart: measured here from each glyph's box in pymupdf's
    ``rawdict``, a tightly justified line whose word spaces the text lost),
    ``url-break`` (no space in the quote where the anchor has a line break inside a
    URL: right after one of ``. / - _ ? & = # ~ % :``, in a run of text that starts
    with ``scheme://`` or ``www.`` and crosses only such breaks, before a lower-case
    letter or a digit).

A fabricated quote is right when it is *not* a reading of the paper anywhere: the
document text with every left-out span of the set's faithful quotes removed, each dash
span read as a dash and each drop cap joined to its word (each
left-out float, footnote, furniture or body span is a separate text of its own, so body
text joined to the float that interrupts it is not a reading; removing a span can join
text that a reader would not join, which only makes this check stricter), ligatures and quote marks
folded, spacing accents composed everywhere, whitespace collapsed, and at every line
end a hyphen kept, dropped or kept before a space (only kept before a space where a
faithful quote reads that hyphen as suspended). The quote is searched in that text
with all those readings and math spacing allowed at once (more than any one faithful
quote may use), and the URL breaks' spaces optional wherever they follow one of those
characters, so a fabrication that is a reading under any combination is reported;
in a set with word-gap readings, also in that text with a space at every word gap.

Tags must agree with the allowances: a marker span needs ``glued-marker``, a float
span ``float``, a dash span ``dash-glyph``, an equals span ``equals-glyph``, a reading
its tag of the same name.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import unicodedata
from pathlib import Path

import pymupdf
import yaml

FLAGS = 67  # TEXT_PRESERVE_LIGATURES | TEXT_PRESERVE_WHITESPACE | TEXT_MEDIABOX_CLIP
SETS_DIR = Path(__file__).resolve().parents[1] / "real-corpus"

LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"}
SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b\u2032"
DOUBLE_QUOTES = '"\u201c\u201d\u201e\u201f\u2033'
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
SOFT_HYPHEN = "\u00ad"
# spacing diacritics (and their modifier-letter forms) -> the combining mark they stand for
SPACING = {
    "\u00a8": "\u0308", "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "^": "\u0302",
    "\u02dc": "\u0303", "~": "\u0303", "\u00b8": "\u0327", "\u02c7": "\u030c", "\u02da": "\u030a",
    "\u02d8": "\u0306", "\u00af": "\u0304", "\u02c9": "\u0304", "\u02d9": "\u0307", "\u02dd": "\u030b",
    "\u02ca": "\u0301", "\u02cb": "\u0300", "\u02db": "\u0328",
}
SKIP_KINDS = {"float", "furniture", "footnote", "marker", "body"}
KIND_TAG = {"marker": "glued-marker", "float": "float", "dash": "dash-glyph", "equals": "equals-glyph",
            "drop-cap": "drop-cap"}
DROP_OPEN, DROP_CLOSE = "\x04", "\x05"  # a drop-cap span in the anchor
DASH_SLOT = "\x02"  # a dash span in the anchor: any dash in the quote
GAP_SLOT = "\x06"  # a word gap in the anchor: a space in the quote, or none
GAP_EM = 0.1  # two glyphs at least this share of their size apart, nothing between: a word gap
SEPARATOR = "\x03"  # between separate texts: nothing matches it
LINE_HYPHEN = "\x01"  # a hyphen at a line end, in the fabricated-check text
URL_BREAK_AFTER = "./-_?&=#~%:"  # what a line may break a URL after
URL_OPENING = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)\S")


MARKER = re.compile(r"[0-9a-z*\u2217\u2020\u2021\u00a7\u00b6#$+](?:[0-9a-z,\- \u2013\u2212*\u2217\u2020\u2021]{0,10}[0-9a-z*\u2217\u2020\u2021])?")
"""What a glued superscript marker can read: digits, letters, symbols, commas, ranges."""
SUSPENDED = re.compile(r"(?<=\w-)([ \t]*[\n\f]\s*)(?=(?:and|or|to)\b)")


class CheckError(Exception):
    pass


# ---------------------------------------------------------------------------------------
# The text


def page_text(page) -> str:
    """A page's text lines in pymupdf's order, each followed by a newline (empty lines too)."""
    out = []
    for block in page.get_text("dict", flags=FLAGS).get("blocks", ()):
        if block.get("type") != 0:
            continue
        for line in block.get("lines", ()):
            out.append("".join(span.get("text", "") for span in line.get("spans", ())) + "\n")
    return "".join(out)


def paper_text(pdf: Path) -> str:
    with pymupdf.open(pdf) as doc:
        return "\f".join(page_text(page) for page in doc)


def paper_gaps(pdf: Path, text: str, pages: set[int] | None = None) -> set[int]:
    """Offsets in ``text`` of the characters a word gap precedes (:data:`GAP_EM`, on a
    left-to-right line, no space between the two glyphs), on ``pages`` (1-based; all by
    default), measured from the glyph boxes of pymupdf's ``rawdict``, whose characters
    must spell each page's text."""
    out: set[int] = set()
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\f"]
    with pymupdf.open(pdf) as doc:
        for number, page in enumerate(doc, 1):
            if pages is not None and number not in pages:
                continue
            at = starts[number - 1]
            spelled = []
            for block in page.get_text("rawdict", flags=FLAGS).get("blocks", ()):
                if block.get("type") != 0:
                    continue
                for line in block.get("lines", ()):
                    chars = [(c["c"], c["bbox"], span["size"]) for span in line.get("spans", ()) for c in span["chars"]]
                    if tuple(line.get("dir", (1.0, 0.0))) == (1.0, 0.0):
                        for k in range(1, len(chars)):
                            (a, box_a, size_a), (b, box_b, size_b) = chars[k - 1], chars[k]
                            em = max(size_a, size_b)
                            if not a.isspace() and not b.isspace() and em > 0 and box_b[0] - box_a[2] >= GAP_EM * em:
                                out.add(at + len("".join(spelled)) + k)
                    spelled.append("".join(c for c, _, _ in chars) + "\n")
            if "".join(spelled) != text[at : at + len("".join(spelled))]:
                raise CheckError(f"{pdf}: page {number}: the rawdict characters do not spell the page's text")
    return out


def page_of(text: str, offset: int) -> int:
    return text.count("\f", 0, offset) + 1


def _compose(base: str, spacing: str) -> str | None:
    if base == "\u0131":
        base = "i"
    elif base == "\u0237":
        base = "j"
    if not base.isalpha():
        return None
    out = unicodedata.normalize("NFC", base + SPACING[spacing])
    return out if len(out) == 1 else None


def compose_accents(s: str) -> str:
    """Spacing diacritics next to a letter as the precomposed letter; a cedilla or ogonek
    joins the letter before it, any other mark the letter after it, else the one before."""
    out: list[str] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c in SPACING and c not in "`^~":
            before = c in "\u00b8\u02db"
            order = ((-1, i + 1), (1, i + 2)) if before else ((1, i + 2), (-1, i + 1))
            done = False
            for side, nxt in order:
                if side == 1 and i + 1 < len(s):
                    m = _compose(s[i + 1], c)
                    if m:
                        out.append(m)
                        i = nxt
                        done = True
                        break
                if side == -1 and out:
                    m = _compose(out[-1], c)
                    if m:
                        out[-1] = m
                        i = nxt
                        done = True
                        break
            if done:
                continue
        out.append(c)
        i += 1
    return "".join(out)


# ---------------------------------------------------------------------------------------
# Faithful quotes: the anchor's readings as one pattern


def _is_math(c: str) -> bool:
    return unicodedata.category(c) == "Sm"


def in_url(s: str, i: int) -> bool:
    """Is the whitespace run of ``s`` that starts at ``i`` a line break inside a URL:
    right after a URL break character, before a lower-case letter or a digit, in a run
    of non-space text (joined across such breaks) that starts with a scheme or www.?"""
    j = i
    while j < len(s) and s[j].isspace():
        j += 1
    if "\n" not in s[i:j] or i == 0 or j == len(s) or s[i - 1] not in URL_BREAK_AFTER:
        return False
    if not (s[j].islower() or s[j].isdigit()) and s[i - 1] != "/":
        return False
    k = i  # back over the text before the break, and over earlier breaks of the same kind
    while True:
        while k > 0 and not s[k - 1].isspace():
            k -= 1
        if URL_OPENING.search(s, k, i):
            return True
        w = k
        while w > 0 and s[w - 1].isspace():
            w -= 1
        if w == 0 or w == k or s[w - 1] not in URL_BREAK_AFTER or "\n" not in s[w:k]:
            return False
        k = w


def anchor_pattern(anchor: str, readings: set[str]) -> str:
    """A regular expression whose full matches are the readings of ``anchor`` (spans
    already applied) that the rules above allow."""
    s = anchor
    if "spacing-accent" in readings:
        s = compose_accents(s)
    parts: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c.isspace():
            j = i
            while j < n and s[j].isspace():
                j += 1
            parts.append(r"\s*" if "url-break" in readings and in_url(s, i) else r"\s+")
            i = j
            continue
        if c == SOFT_HYPHEN:
            j = i + 1
            if not (parts and parts[-1] == r"\s+"):  # after a letter: the soft hyphen and the line break after it
                while j < n and s[j].isspace():
                    j += 1
            i = j  # after whitespace (a soft hyphen that starts a word): just the soft hyphen
            continue
        if c in DASHES[:2] and i > 0 and s[i - 1].isalpha():
            j = i + 1
            while j < n and s[j] in " \t":
                j += 1
            if j < n and s[j] in "\n\f":
                while j < n and s[j].isspace():
                    j += 1
                options = ["", re.escape(c)] + ([re.escape(c) + " "] if "suspended-hyphen" in readings else [])
                parts.append("(?:" + "|".join(options) + ")")
                i = j
                continue
        if c == DROP_OPEN:  # a drop cap and the rest of its word: the letters, case aside after the first
            j = s.index(DROP_CLOSE, i)
            word = s[i + 1 : j]
            parts.append(re.escape(word[0]) + "(?i:" + re.escape(word[1:]) + ")")
            i = j + 1
            continue
        if c in LIGATURES:
            parts.append(re.escape(LIGATURES[c]))
        elif c in SINGLE_QUOTES:
            parts.append("[" + re.escape(SINGLE_QUOTES) + "]")
        elif c in DOUBLE_QUOTES:
            parts.append("[" + re.escape(DOUBLE_QUOTES) + "]")
        elif c == DASH_SLOT:
            parts.append("[" + re.escape(DASHES) + "]")
        elif c == GAP_SLOT:
            parts.append(" ?")
            i += 1
            continue
        else:
            parts.append(re.escape(c))
        if "math-spacing" in readings and i + 1 < n:
            d = s[i + 1]
            if (_is_math(c) and d.isalnum()) or (c.isalnum() and _is_math(d)):
                parts.append(" ?")
        i += 1
    return "".join(parts)


def _with_gaps(text: str, a: int, b: int, gaps: set[int]) -> str:
    """``text[a:b]`` with :data:`GAP_SLOT` before each character a word gap precedes."""
    return "".join(GAP_SLOT + text[i] if i in gaps else text[i] for i in range(a, b)) if gaps else text[a:b]


def apply_spans(text: str, start: int, end: int, spans: list[dict], gaps: set[int] = frozenset()) -> str:
    out, at = [], start
    for sp in spans:
        out.append(_with_gaps(text, at, sp["start"], gaps))
        if sp["kind"] == "dash":
            out.append(DASH_SLOT)
        elif sp["kind"] == "equals":
            out.append("=")
        elif sp["kind"] == "drop-cap":
            out.append(DROP_OPEN + "".join(text[sp["start"] : sp["end"]].split()) + DROP_CLOSE)
        at = sp["end"]
    out.append(_with_gaps(text, at, end, gaps))
    return "".join(out)


def check_faithful(q: dict, text: str, gaps: set[int] = frozenset()) -> list[str]:
    qid = q.get("id")
    a = q.get("anchor") or {}
    problems = []
    start, end, page = a.get("start"), a.get("end"), a.get("page")
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
        return [f"{qid}: anchor offsets [{start}, {end}) are not a span of the text"]
    if text[start:end] != a.get("text"):
        problems.append(f"{qid}: anchor text is not text[{start}:{end}] (which reads {text[start:end][:80]!r})")
    if page_of(text, start) != page:
        problems.append(f"{qid}: anchor starts on page {page_of(text, start)}, the label says page {page}")
    allow = q.get("allow") or {}
    spans = allow.get("spans") or []
    readings = set(allow.get("readings") or [])
    tags = set(q.get("tags") or [])
    last = start
    for sp in spans:
        if not (last <= sp["start"] < sp["end"] <= end):
            problems.append(f"{qid}: span [{sp['start']}, {sp['end']}) is outside the anchor or out of order")
            return problems
        last = sp["end"]
        tag = KIND_TAG.get(sp["kind"])
        if tag and tag not in tags:
            problems.append(f"{qid}: a {sp['kind']} span needs the tag {tag!r}")
        if sp["kind"] in ("dash", "equals") and (sp["end"] - sp["start"] != 1 or text[sp["start"]].isspace()):
            problems.append(f"{qid}: a {sp['kind']} span is one non-space character")
        if sp["kind"] == "drop-cap" and not re.fullmatch(r"[A-Z]\s*\n\s*[A-Z]+", text[sp["start"] : sp["end"]]):
            problems.append(f"{qid}: a drop-cap span is a capital, a line break and the capitals that follow it")
        if sp["kind"] == "marker" and not re.fullmatch(MARKER, text[sp["start"] : sp["end"]]):
            problems.append(f"{qid}: marker span reads {text[sp['start']:sp['end']]!r}, not a superscript marker")
    for r in readings:
        if r not in tags:
            problems.append(f"{qid}: the reading {r!r} needs the tag of the same name")
    reading = apply_spans(text, start, end, spans, gaps if "word-gap" in readings else frozenset())
    quote = unicodedata.normalize("NFC", q.get("text", ""))
    if not re.fullmatch(anchor_pattern(reading, readings), quote):
        problems.append(f"{qid}: the quote is not a reading of its anchor {reading[:100]!r}")
    return problems


# ---------------------------------------------------------------------------------------
# Fabricated quotes: searched in every reading of the paper at once


def _fold(s: str) -> str:
    """Ligatures, quote marks, spacing accents, soft hyphens, line-end hyphens and
    whitespace of one text, in the form the fabricated-check pattern searches."""
    s = compose_accents(s)
    s = "".join(LIGATURES.get(c, c) for c in s)
    s = "".join("'" if c in SINGLE_QUOTES else '"' if c in DOUBLE_QUOTES else c for c in s)
    s = re.sub("(?<=\\S)\u00ad\\s*", "", s)  # a soft hyphen after a letter joins the word across the break
    s = s.replace("\u00ad", "")  # one that starts a word is invisible
    s = re.sub(r"(?<=\w)[-\u2010][ \t]*[\n\f]\s*", "-" + LINE_HYPHEN, s)
    return re.sub(r"\s+", " ", s)


def paper_reading(text: str, faithful: list[dict], gaps: set[int] = frozenset()) -> str:
    """The set's document text with every left-out span removed, each removed float,
    footnote or furniture span appended as a text of its own; with a space at each of
    ``gaps`` (word gaps) when given."""
    cut: list[tuple[int, int, str]] = []
    for q in faithful:
        allow = q.get("allow") or {}
        for sp in allow.get("spans") or []:
            cut.append((sp["start"], sp["end"], sp["kind"]))
        if "suspended-hyphen" in (allow.get("readings") or []):
            # where a faithful quote reads a line-end hyphen as suspended, dropping it is no reading
            a = q["anchor"]
            for m in SUSPENDED.finditer(text, a["start"], a["end"]):
                cut.append((m.start(1), m.end(1), "suspended"))
    cut.sort()
    body, pieces, at = [], [], 0
    for s, e, kind in cut:
        s = max(s, at)  # the same span listed by two quotes
        if s >= e:
            continue
        body.append(_spaced(text, at, s, gaps))
        if kind == "dash":
            body.append(DASH_SLOT)
        elif kind == "equals":
            body.append("=")
        elif kind == "suspended":
            body.append(" ")
        elif kind == "drop-cap":
            word = "".join(text[s:e].split())
            body.append(word[0] + word[1:].lower())
        elif kind != "marker":
            pieces.append(_spaced(text, s, e, gaps))
        at = e
    body.append(_spaced(text, at, len(text), gaps))
    return SEPARATOR.join(_fold(t) for t in ["".join(body), *pieces])


def _spaced(text: str, a: int, b: int, gaps: set[int]) -> str:
    """``text[a:b]`` with a space before each character a word gap precedes."""
    return _with_gaps(text, a, b, gaps).replace(GAP_SLOT, " ")


def quote_pattern(quote: str) -> str:
    q = _fold(unicodedata.normalize("NFC", quote)).strip()
    optional_break = "(?:-" + LINE_HYPHEN + ")?"
    parts: list[str] = []
    for i, c in enumerate(q):
        prev = q[i - 1] if i else ""
        nxt = q[i + 1] if i + 1 < len(q) else ""
        if c == " ":
            near_math = (prev and _is_math(prev)) or (nxt and _is_math(nxt))
            parts.append("[ " + LINE_HYPHEN + "]" + ("?" if near_math else ""))
            continue
        if prev and prev != " " and prev not in DASHES:
            parts.append(optional_break)
            if _is_math(prev) != _is_math(c) or prev in URL_BREAK_AFTER:
                parts.append(" ?")
        if c in DASHES:
            parts.append("(?:[" + re.escape(DASHES) + DASH_SLOT + "]" + LINE_HYPHEN + "?)")
        else:
            parts.append(re.escape(c))
    return "".join(parts)


def check_fabricated(q: dict, *readings: str) -> list[str]:
    if not q.get("text", "").strip():
        return []
    for reading in readings:
        m = re.search(quote_pattern(q["text"]), reading)
        if m:
            return [f"{q.get('id')}: labelled fabricated, but the paper reads it: {m.group()[:100]!r}"]
    return []


# ---------------------------------------------------------------------------------------
# A set


def find_pdf(name: str, folders: list[Path]) -> Path | None:
    for folder in folders:
        for candidate in (folder / name, folder / "corpus" / name):
            if candidate.is_file():
                return candidate
    return None


def check_set(path: Path, folders: list[Path]) -> list[str]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    paper = data["paper"]
    pdf = find_pdf(paper["file"], folders)
    if pdf is None:
        raise CheckError(f"{path}: {paper['file']} is not in {', '.join(map(str, folders))}")
    if hashlib.sha256(pdf.read_bytes()).hexdigest() != paper["sha256"]:
        raise CheckError(f"{path}: {pdf} does not have the pinned sha256 {paper['sha256']}")
    text = paper_text(pdf)
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != paper["text"]["sha256"]:
        raise CheckError(f"{path}: the text of {pdf} does not have the pinned text sha256")
    quotes = data["quotes"]
    faithful = [q for q in quotes if q["label"] == "faithful"]
    problems: list[str] = []
    gapped = [q for q in faithful if "word-gap" in ((q.get("allow") or {}).get("readings") or [])]
    gaps = paper_gaps(pdf, text) if gapped else set()
    for q in faithful:
        problems += check_faithful(q, text, gaps)
    readings = [paper_reading(text, faithful)]
    if gaps:  # the paper read with a space at every word gap too
        readings.append(paper_reading(text, faithful, gaps))
    for q in quotes:
        if q["label"] == "fabricated":
            problems += check_fabricated(q, *readings)
    return [f"{path.name}: {p}" for p in problems]


def default_folders() -> list[Path]:
    import os

    env = [Path(p) for p in os.environ.get("QUOTELOCATE_PAPERS", "").split(os.pathsep) if p]
    return env or [Path(__file__).resolve().parents[3] / "shared" / "papers"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="*", type=Path, help="set files (default: datasets/real-corpus/*.yaml)")
    args = ap.parse_args(argv)
    sets = args.sets or sorted(SETS_DIR.glob("*.yaml"))
    if not sets:
        print(f"error: no sets in {SETS_DIR}", file=sys.stderr)
        return 1
    bad = 0
    for path in sets:
        try:
            problems = check_set(path, default_folders())
        except CheckError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        for p in problems:
            print(p)
        bad += len(problems)
        print(f"{path.name}: {'OK' if not problems else f'{len(problems)} problem(s)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
