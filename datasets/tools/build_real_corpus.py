r"""Build the real-paper quote sets ``datasets/real-corpus/<paper>.yaml``.

Usage: ``python datasets/tools/build_real_corpus.py [--check] [STEM ...]``; the PDFs are
found on ``$QUOTELOCATE_PAPERS`` (and its ``corpus/`` subfolders).

The quotes are written by hand in ``real_corpus_quotes.py`` while reading the rendered
pages, the way a careful model copies them: clean letters, words joined across line-end
hyphens, accents composed, no glued footnote markers. This script only finds where each
faithful quote is in the extracted text and writes the set, pinned by file name, sha256
and text fingerprint. It does not use the locator: a quote is found by a regular
expression that allows whitespace, line-end and soft hyphens, ligature glyphs, quote
marks and split accents, plus what the quote's markup says:

``{^X}``       the document has the glued superscript marker ``X`` here; the quote omits it
``{|kind}``    the document has text of ``kind`` (float, furniture, footnote, body) here that
               the quote leaves out (a figure between the halves of a sentence, the
               running footer and header at a page break)
``{X=Y}``      the document has ``X`` where the page prints the dash ``Y`` (the quote has ``Y``)
``{drop:In}``  the word "In" opens with a drop cap: the document has ``I``, a line break, ``N``

A fabricated quote is written out in full, or derived from a faithful one
(``("edit", faithful_id, old, new)``: ``old`` replaced by ``new`` once) so that the
difference is exactly the one named by its tags. ``datasets/tools/check_real_corpus.py``
then checks every label by a different method.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[2]))
import real_corpus_quotes as Q  # noqa: E402

FLAGS = 67
REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "datasets" / "real-corpus"

LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
SPACING_FOR = {
    "\u0308": "\u00a8", "\u0301": "\u00b4", "\u0300": "`", "\u0302": "\u02c6", "\u0303": "\u02dc",
    "\u0327": "\u00b8", "\u030c": "\u02c7", "\u030a": "\u02da", "\u0306": "\u02d8", "\u0304": "\u00af",
}
SQ = "'\u2018\u2019"
DQ = '"\u201c\u201d'
DASH = "-\u2010\u2013\u2014\u2212"
MARKUP = re.compile(r"\{drop:([^}]+)\}|\{\^([^}]+)\}|\{\|(\|?)(float|furniture|footnote|body)(?:@([^}]+))?\}|\{([^}=|^]+)=([^}]+)\}")


class BuildError(Exception):
    pass


def find_pdf(name: str) -> Path:
    import os

    for folder in [Path(p) for p in os.environ.get("QUOTELOCATE_PAPERS", "").split(os.pathsep) if p]:
        for c in (folder / name, folder / "corpus" / name):
            if c.is_file():
                return c
    raise BuildError(f"{name} is not on $QUOTELOCATE_PAPERS (or its corpus/ subfolders)")


def paper_text(pdf: Path) -> str:
    """``Document.text``: every page's text lines (pymupdf ``dict`` order), each followed by
    a newline, pages joined by a form feed."""
    pages = []
    with pymupdf.open(pdf) as doc:
        for page in doc:
            lines = []
            for block in page.get_text("dict", flags=FLAGS).get("blocks", ()):
                if block.get("type") == 0:
                    for line in block.get("lines", ()):
                        lines.append("".join(span.get("text", "") for span in line.get("spans", ())) + "\n")
            pages.append("".join(lines))
    return "\f".join(pages)


def folded(text: str) -> tuple[str, list[int]]:
    """Ligatures expanded, with each folded character's offset in ``text``."""
    out, where = [], []
    for i, c in enumerate(text):
        for d in LIGATURES.get(c, c):
            out.append(d)
            where.append(i)
    where.append(len(text))
    return "".join(out), where


def letter_pattern(c: str) -> str:
    if c in SQ:
        return "[" + SQ + "]"
    if c in DQ:
        return "[" + DQ + "]"
    if c in DASH:
        return "[" + re.escape(DASH) + "]"
    d = unicodedata.normalize("NFD", c)
    if len(d) == 2 and d[1] in SPACING_FOR:
        base = "[i\u0131]" if d[0] == "i" else re.escape(d[0])
        sp = re.escape(SPACING_FOR[d[1]])
        return f"(?:{re.escape(c)}|{sp}\\s?{base}|{base}{sp})"
    return re.escape(c)


def literal_pattern(s: str, gaps: bool = False) -> str:
    """``s`` as a regular expression over the folded text; ``gaps``: a space may also
    stand for no whitespace at all (a word gap the text has no space for; the checker
    measures each such gap on the page)."""
    out = []
    for i, c in enumerate(s):
        if c.isspace():
            near_math = any(unicodedata.category(x) == "Sm" for x in s[max(i - 1, 0) : i + 2] if not x.isspace())
            if out and out[-1] in (r"\s+", r"\s*", "\\s+\u00ad?"):
                continue
            out.append(r"\s*" if near_math or gaps else "\\s+\u00ad?")
            continue
        if out and out[-1] not in (r"\s+", r"\s*", "\\s+\u00ad?") and s[i - 1] not in DASH:
            out.append("(?:[-\u2010]?[ \t]*\n\\s*|\u00ad\\s*)?")  # line-end or soft hyphen
        if c in "-\u2010":
            out.append("[-\u2010](?:[ \t]*\n\\s*)?")
        else:
            out.append(letter_pattern(c))
        if unicodedata.category(c) == "Sm":
            out.append(r"\s*")
    return "".join(out)


def parse(markup: str, gaps: bool = False) -> tuple[str, str, list[tuple[int, str]]]:
    """(quote text, regex over the folded text, [(group number, kind)]); ``gaps``: see
    :func:`literal_pattern`."""
    quote, pattern, groups = [], [], []
    at = 0
    for m in MARKUP.finditer(markup):
        lit = markup[at : m.start()]
        quote.append(lit)
        pattern.append(literal_pattern(lit, gaps))
        g = len(groups) + 1
        if m.group(1):
            # a drop cap: its letter, a line break, the rest of the word in capitals
            word = m.group(1)
            pattern.append(f"({re.escape(word[0])}\\s+(?i:{re.escape(word[1:])}))")
            quote.append(word)
            groups.append((g, "drop-cap"))
        elif m.group(2):
            pattern.append(f"({re.escape(m.group(2))})")
            groups.append((g, "marker"))
        elif m.group(4):
            # a gap: after a page break when written {||kind}, starting with START when {|kind@START}
            # (a line-end hyphen right before the gap stays outside it)
            hyphen = r"(?:[-\u2010](?=\s))?" if lit else ""
            head = hyphen + (r"\s*\f\s*" if m.group(3) else r"\s*")
            first = literal_pattern(m.group(5)) if m.group(5) else r"\S"
            pattern.append(head + rf"({first}(?:[\s\S]*?\S)?)\s*")
            groups.append((g, m.group(4)))
        else:
            pattern.append(f"({re.escape(m.group(6))})")
            quote.append(m.group(7))
            groups.append((g, "equals" if m.group(7) == "=" else "dash"))
        at = m.end()
    quote.append(markup[at:])
    pattern.append(literal_pattern(markup[at:], gaps))
    text = re.sub(r"\s+", " ", "".join(quote)).strip()
    return text, "".join(pattern), groups


def page_bounds(text: str, page: int) -> tuple[int, int]:
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\f"]
    if not 1 <= page <= len(starts):
        raise BuildError(f"page {page} does not exist")
    end = starts[page] - 1 if page < len(starts) else len(text)
    return starts[page - 1], end


def build_faithful(spec: dict, text: str, ftext: str, where: list[int]) -> dict:
    qtext, pattern, groups = parse(spec["q"], "word-gap" in spec.get("readings", ()))
    s, e = page_bounds(text, spec["page"])
    fs, fe = where.index(s) if s in where else 0, len(ftext)
    rx = re.compile(pattern)
    hits = [m for m in rx.finditer(ftext, fs, fe) if where[m.start()] < e]
    if not hits:
        raise BuildError(f"{spec['id']}: not found starting on page {spec['page']}: {spec['q'][:80]!r}")
    if len(hits) > 1 and not spec.get("first"):
        raise BuildError(f"{spec['id']}: found {len(hits)} times starting on page {spec['page']}")
    m = hits[0]
    start, end = where[m.start()], where[m.end() - 1] + 1
    spans = []
    for g, kind in groups:
        spans.append({"start": where[m.start(g)], "end": where[m.end(g) - 1] + 1, "kind": kind})
    q = {
        "id": spec["id"],
        "text": qtext,
        "label": "faithful",
        "tags": list(spec["tags"]),
        "anchor": {"page": spec["page"], "start": start, "end": end, "text": text[start:end]},
    }
    allow = {}
    if spans:
        allow["spans"] = spans
    if spec.get("readings"):
        allow["readings"] = list(spec["readings"])
    if allow:
        q["allow"] = allow
    if spec.get("note"):
        q["note"] = spec["note"]
    return q


def build_fabricated(spec: dict, faithful: dict[str, dict], others: dict[str, dict]) -> dict:
    src = spec["q"]
    if isinstance(src, tuple) and src[0] == "edit":
        _, fid, old, new = src
        base = faithful[fid]["text"]
        if base.count(old) < 1:
            raise BuildError(f"{spec['id']}: {old!r} is not in {fid}")
        text = base.replace(old, new, 1)
    elif isinstance(src, tuple) and src[0] == "other":
        _, fid = src
        text = others[fid]["text"]
    else:
        text = src
    q = {"id": spec["id"], "text": text, "label": "fabricated", "tags": list(spec["tags"])}
    if spec.get("note"):
        q["note"] = spec["note"]
    return q


def build_faithful_quotes(stem: str) -> tuple[Path, str, list[dict]]:
    paper = Q.PAPERS[stem]
    pdf = find_pdf(paper["file"])
    text = paper_text(pdf)
    ftext, where = folded(text)
    return pdf, text, [build_faithful(spec, text, ftext, where) for spec in paper["faithful"]]


def build(stem: str, pdf: Path, text: str, faithful: list[dict], all_faithful: dict[str, dict]) -> dict:
    paper = Q.PAPERS[stem]
    mine = {q["id"]: q for q in faithful}
    quotes = list(faithful) + [build_fabricated(spec, mine, all_faithful) for spec in paper["fabricated"]]
    ids = [q["id"] for q in quotes]
    if len(set(ids)) != len(ids):
        raise BuildError("duplicate quote ids")
    return {
        "format": 1,
        "name": paper["name"],
        "description": paper["description"],
        "paper": {
            "file": paper["file"],
            "sha256": hashlib.sha256(pdf.read_bytes()).hexdigest(),
            "url": paper["url"],
            "version": paper["version"],
            "text": {
                "extractor": "pymupdf",
                "extractor_version": str(pymupdf.VersionBind),
                "flags": FLAGS,
                "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            },
        },
        "quotes": quotes,
    }


def dump(data: dict) -> str:
    """The set in the package's one quote-set writer (every string double-quoted)."""
    from quotelocate.data.quoteset import dump_quote_set

    header = "Generated by datasets/tools/build_real_corpus.py from real_corpus_quotes.py -- edit those, not this file."
    return dump_quote_set(data, header=header)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stems", nargs="*", help="papers to build (default: all)")
    ap.add_argument("--check", action="store_true", help="fail if a written set is not up to date")
    args = ap.parse_args(argv)
    stems = args.stems or list(Q.PAPERS)
    built, all_faithful = {}, {}
    try:
        for stem in Q.PAPERS:  # every paper's faithful quotes, for "other paper" fabrications
            built[stem] = build_faithful_quotes(stem)
            all_faithful.update({q["id"]: q for q in built[stem][2]})
    except BuildError as exc:
        print(f"error: {stem}: {exc}", file=sys.stderr)
        return 1
    OUT.mkdir(exist_ok=True)
    stale = 0
    for stem in stems:
        try:
            data = build(stem, *built[stem], all_faithful)
        except BuildError as exc:
            print(f"error: {stem}: {exc}", file=sys.stderr)
            return 1
        out = dump(data)
        if yaml.safe_load(out) != data:
            print(f"error: {stem}: the YAML does not load back to the same data", file=sys.stderr)
            return 1
        path = OUT / f"{stem}.yaml"
        n_f = sum(q["label"] == "faithful" for q in data["quotes"])
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != out:
                print(f"{path} is not up to date", file=sys.stderr)
                stale += 1
        else:
            path.write_text(out, encoding="utf-8")
        print(f"{path.name}: {n_f} faithful, {len(data['quotes']) - n_f} fabricated")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
