"""Hostile and broken PDFs, built in memory: the catalog :mod:`test_bad_pdfs` runs.

Each builder returns the file's bytes (pymupdf-made or hand-written PDF syntax); no
binary file is committed. :data:`CASES` pairs every input with what
:meth:`quotelocate.Document.open` must do with it: raise a given error whose message
names the file (and the page, where there is one), or load with given warnings,
unverifiable pages and invisible-text pages.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field

import pymupdf

from quotelocate.document import Limits
from quotelocate.errors import DocumentError, EmptyDocumentError, EncryptedDocumentError, ExtractionLimitError

PASSWORD = "user"
REAL_WORDS = "the quote lies here among real words"
"""Real text on the page of U+FFFD (:func:`replacement_chars_pdf`)."""
HIDDEN = {
    "render-mode-3": "This sentence is drawn in invisible render mode three.",
    "white-on-white": "This sentence is white text on a white page background.",
    "tiny-font": "This sentence is set in a font smaller than one point.",
}
VISIBLE = "This sentence is plain black text that anyone can read."
WHITE_ON_BLACK = "This sentence is white text on a black filled box."


# -- hand-written PDF syntax -------------------------------------------------------------


def raw_pdf(objects: list[bytes], *, root: int = 1) -> bytes:
    """A PDF with a correct xref table from numbered object bodies (1-based)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<</Size %d/Root %d 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref)
    return bytes(out)


def stream(body: bytes, extra: bytes = b"") -> bytes:
    return b"<</Length %d%s>>stream\n" % (len(body), extra) + body + b"\nendstream"


HELVETICA = b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>"
GOOD_PAGE = stream(b"BT /F1 12 Tf 72 720 Td (The first page has a real text layer on it.) Tj ET")


def page_obj(contents: bytes, font: bytes = b"3 0 R") -> bytes:
    return (
        b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 %s>>>>/Contents %s>>"
        % (font, contents)
    )


def two_pages(kids: bytes, count: int, second: list[bytes]) -> bytes:
    """Catalog, page tree, Helvetica, a good page 1 (objects 4, 5), then ``second``."""
    return raw_pdf(
        [
            b"<</Type/Catalog/Pages 2 0 R>>",
            b"<</Type/Pages/Kids[%s]/Count %d>>" % (kids, count),
            HELVETICA,
            page_obj(b"5 0 R"),
            GOOD_PAGE,
            *second,
        ]
    )


def flate_bomb(megabytes: int, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """zlib data inflating to ``prefix`` + ``megabytes`` MiB of NUL bytes + ``suffix``,
    built without compressing the NULs: with full flushes every MiB compresses to the
    same bytes, and the Adler-32 of NULs has a closed form."""
    chunk = b"\0" * (1 << 20)
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = co.compress(prefix) + co.flush(zlib.Z_FULL_FLUSH)
    first = co.compress(chunk) + co.flush(zlib.Z_FULL_FLUSH)
    steady = co.compress(chunk) + co.flush(zlib.Z_FULL_FLUSH)
    tail = co.compress(suffix) + co.flush()
    adler = zlib.adler32(prefix)
    a, b = adler & 0xFFFF, adler >> 16
    b = (b + a * (megabytes << 20)) % 65521
    adler = zlib.adler32(suffix, (b << 16) | a)
    return b"\x78\xda" + head + first + steady * (megabytes - 1) + tail + adler.to_bytes(4, "big")


def bomb_page(megabytes: int, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """Two pages; page 2's content stream is doubly deflated and inflates to
    ``megabytes`` MiB (the file stays a few KB)."""
    inner = flate_bomb(megabytes, prefix, suffix)
    return two_pages(
        b"4 0 R 6 0 R", 2, [page_obj(b"7 0 R"), stream(zlib.compress(inner, 9), b"/Filter[/FlateDecode/FlateDecode]")]
    )


# -- pymupdf-made PDFs -------------------------------------------------------------------


def text_pdf(*pages: str) -> bytes:
    doc = pymupdf.open()
    for text in pages:
        doc.new_page().insert_text((72, 72), text)
    return doc.tobytes()


def encrypted_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "A secret sentence that nobody may read.")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=PASSWORD, owner_pw="owner")


def scanned_pdf() -> bytes:
    """Page 1 has text; page 2 is only an image (a scan without OCR)."""
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 64), False)
    pix.set_rect(pix.irect, (120, 120, 120))
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "The first page has a real text layer on it.")
    doc.new_page().insert_image(pymupdf.Rect(72, 72, 400, 400), pixmap=pix)
    return doc.tobytes()


def replacement_chars_pdf() -> bytes:
    """Page 2's font has a broken ToUnicode map: capitals map to a lone surrogate,
    which mupdf extracts as U+FFFD (a map to U+FFFD itself is ignored in favour of the
    font's encoding); lower case maps to itself. Most of the page is capitals, so it
    has no usable text; :data:`REAL_WORDS` are on it too."""
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CMapName /Replacement def /CMapType 2 def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        b"26 beginbfchar\n" + b"".join(b"<%02X> <D800>\n" % c for c in range(0x41, 0x5B)) + b"endbfchar\n"
        b"2 beginbfrange\n<61> <7A> <0061>\n<20> <20> <0020>\nendbfrange\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    text = b"BT /F1 10 Tf 72 720 Td (" + b"GLYPHS WITHOUT NAMES " * 6 + b") Tj 0 -14 Td (" + REAL_WORDS.encode() + b") Tj ET"
    return two_pages(
        b"4 0 R 6 0 R",
        2,
        [
            page_obj(b"8 0 R", b"7 0 R"),
            b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica/ToUnicode 9 0 R>>",
            stream(text),
            stream(cmap),
        ],
    )


def unnamed_glyphs_pdf() -> bytes:
    """Page 2's font has no ToUnicode map and names its glyphs /g1, /g2: nothing says
    which characters they are."""
    text = b"BT /F1 10 Tf 72 720 Td (" + b"ABBA BAAB " * 12 + b") Tj ET"
    return two_pages(
        b"4 0 R 6 0 R",
        2,
        [
            page_obj(b"8 0 R", b"7 0 R"),
            b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding<</Type/Encoding/Differences[65/g1/g2]>>>>",
            stream(text),
        ],
    )


def hidden_text_pdf() -> bytes:
    """Page 1: visible text, render mode 3, white on white, under 1 pt, and white on a
    black box (visible); page 2: ordinary text."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), VISIBLE)
    page.insert_text((72, 110), HIDDEN["render-mode-3"], render_mode=3)
    page.insert_text((72, 150), HIDDEN["white-on-white"], color=(1, 1, 1))
    page.insert_text((72, 190), HIDDEN["tiny-font"], fontsize=0.5)
    page.draw_rect(pymupdf.Rect(60, 215, 500, 245), fill=(0, 0, 0), color=None)
    page.insert_text((72, 235), WHITE_ON_BLACK, color=(1, 1, 1))
    doc.new_page().insert_text((72, 72), "The second page is ordinary text from start to end.")
    return doc.tobytes()


ROTATIONS = (0, 90, 180, 270)


def rotated_pdf() -> bytes:
    """One page per rotation; page n holds the word ``marker{rotation}``."""
    doc = pymupdf.open()
    for rotation in ROTATIONS:
        page = doc.new_page(width=400, height=600)
        page.insert_text((50, 100), f"This page is rotated by {rotation} degrees and holds marker{rotation} here.")
        page.insert_text((50, 300), "A second line keeps the marker line from being the only one.")
        page.set_rotation(rotation)
    return doc.tobytes()


def many_pages_pdf(count: int) -> bytes:
    """``count`` distinct page objects sharing one content stream (mupdf checks
    ``/Count`` against the file, so the pages must really be there)."""
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(count))
    page = b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 3 0 R>>>>/Contents 4 0 R>>"
    return raw_pdf([b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[%s]/Count %d>>" % (kids, count),
                    HELVETICA, GOOD_PAGE] + [page] * count)


def truncated(data: bytes, keep: int) -> bytes:
    """The first ``keep`` bytes (negative: all but the last ``-keep``)."""
    return data[:keep]


def zero_pages_pdf() -> bytes:
    return (
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
    )


THREE_PAGES = ("Page one has some words on it for testing.", "Page two has some words on it for testing.",
               "Page three has some words on it for testing.")


# -- the catalog ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Raises:
    """Opening raises ``error`` (exactly that class) with every part in the message."""

    error: type
    parts: tuple[str, ...]


@dataclass(frozen=True)
class Loads:
    """Opening succeeds; warnings contain ``warnings``; these pages are unverifiable
    and these pages have invisible text."""

    warnings: tuple[str, ...] = ()
    unverifiable: tuple[int, ...] = ()
    hidden_pages: tuple[int, ...] = ()


@dataclass(frozen=True)
class Case:
    id: str
    file: str  # file name in tmp_path; "" for the directory itself
    build: object  # () -> bytes, or None when the file must not exist
    expect: Raises | Loads
    options: dict = field(default_factory=dict)  # passed to Document.open
    xfail: str = ""


def _garbage() -> bytes:
    return random.Random(6).randbytes(4096)


CASES: tuple[Case, ...] = (
    # 1. not PDFs
    Case("missing", "missing.pdf", None, Raises(DocumentError, ("no such file",))),
    Case("directory", "", None, Raises(DocumentError, ("is a directory",))),
    Case("empty", "empty.pdf", lambda: b"", Raises(DocumentError, ("empty (0 bytes)",))),
    Case("garbage", "garbage.pdf", _garbage, Raises(DocumentError, ("not a PDF",))),
    Case("garbage-no-suffix", "garbage.bin", _garbage, Raises(DocumentError, ("not valid UTF-8", "not a PDF"))),
    Case("png-renamed", "image.pdf", lambda: b"\x89PNG\r\n\x1a\n" + b"\0" * 64, Raises(DocumentError, ("not a PDF",))),
    Case("header-then-garbage", "header.pdf", lambda: b"%PDF-1.7\n" + b"garbage " * 64,
         Raises(DocumentError, ("cannot be opened as a PDF",))),
    # 2. broken PDFs
    Case("truncated-xref", "truncated.pdf", lambda: truncated(text_pdf(*THREE_PAGES), -30),
         Loads(warnings=("damaged and has been repaired",))),
    Case("truncated-half", "half.pdf", lambda: truncated(text_pdf(*THREE_PAGES), len(text_pdf(*THREE_PAGES)) // 2),
         Raises(EmptyDocumentError, ("page 2, 3 has no usable text layer",))),
    Case("repaired-zero-pages", "nopages.pdf", lambda: b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n",
         Raises(EmptyDocumentError, ("PDF has no pages",))),
    Case("zero-pages", "zero.pdf", zero_pages_pdf, Raises(EmptyDocumentError, ("PDF has no pages",))),
    # 3. encrypted
    Case("encrypted-no-password", "locked.pdf", encrypted_pdf, Raises(EncryptedDocumentError, ("a password is needed",))),
    Case("encrypted-wrong-password", "locked.pdf", encrypted_pdf,
         Raises(EncryptedDocumentError, ("password given for this PDF is wrong",)), {"password": "nope"}),
    Case("encrypted-right-password", "locked.pdf", encrypted_pdf, Loads(), {"password": PASSWORD}),
    # 4. page failures and pages without usable text
    Case("page-tree-cycle", "cycle.pdf", lambda: two_pages(b"4 0 R 2 0 R", 2, []),
         Raises(DocumentError, ("page 2: text extraction failed", "cycle in page tree"))),
    Case("page-count-lies", "count.pdf", lambda: two_pages(b"4 0 R", 2, []),
         Raises(DocumentError, ("page 2: text extraction failed",))),
    Case("scanned-page", "scan.pdf", scanned_pdf, Raises(EmptyDocumentError, ("page 2 has no usable text layer",))),
    Case("scanned-page-allowed", "scan.pdf", scanned_pdf,
         Loads(warnings=("page 2 has no usable text layer",), unverifiable=(2,)), {"allow_textless_pages": True}),
    Case("replacement-chars", "fffd.pdf", replacement_chars_pdf,
         Raises(EmptyDocumentError, ("page 2 has no usable text layer", "ToUnicode"))),
    Case("replacement-chars-allowed", "fffd.pdf", replacement_chars_pdf,
         Loads(warnings=("page 2 has no usable text layer",), unverifiable=(2,)), {"allow_textless_pages": True}),
    Case("unnamed-glyphs", "glyphs.pdf", unnamed_glyphs_pdf,
         Raises(EmptyDocumentError, ("page 2 has no usable text layer",))),
    Case("unnamed-glyphs-allowed", "glyphs.pdf", unnamed_glyphs_pdf,
         Loads(warnings=("page 2 has no usable text layer",), unverifiable=(2,)), {"allow_textless_pages": True}),
    # 5. limits
    Case("page-count-huge", "huge.pdf", lambda: many_pages_pdf(6000),
         Raises(ExtractionLimitError, ("6000 pages exceeds the page limit of 5000",))),
    Case("page-count-invalid", "count.pdf", lambda: two_pages(b"4 0 R", 100000, []),
         Raises(DocumentError, ("cannot count the pages", "Invalid number of pages"))),
    Case("page-limit", "three.pdf", lambda: text_pdf(*THREE_PAGES),
         Raises(ExtractionLimitError, ("3 pages exceeds the page limit of 2",)), {"limits": Limits(max_pages=2)}),
    Case("page-limit-in-process", "three.pdf", lambda: text_pdf(*THREE_PAGES),
         Raises(ExtractionLimitError, ("3 pages exceeds the page limit of 2",)), {"max_pages": 2, "isolate": False}),
    Case("file-size-limit", "big.pdf", lambda: text_pdf(*THREE_PAGES),
         Raises(ExtractionLimitError, ("exceeds the file size limit of 1000",)), {"limits": Limits(max_file_bytes=1000)}),
    Case("memory-bomb", "membomb.pdf", lambda: bomb_page(256, b"BT /F1 12 Tf 72 720 Td (", b") Tj ET"),
         Raises(ExtractionLimitError, ("memory limit of 256 MB",)), {"limits": Limits(memory_mb=256)}),
    Case("time-bomb", "timebomb.pdf", lambda: bomb_page(2048),
         Raises(ExtractionLimitError, ("time limit of 0.5 s",)), {"limits": Limits(seconds=0.5)}),
    # 6. invisible text (loads; see test_bad_pdfs for the quotes)
    Case("hidden-text", "hidden.pdf", hidden_text_pdf, Loads(warnings=("page 1 has invisible text",), hidden_pages=(1,))),
    # 7. rotated pages (loads; see test_bad_pdfs for the boxes)
    Case("rotated", "rotated.pdf", rotated_pdf, Loads()),
)
