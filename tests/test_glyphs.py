"""Glyphs whose Unicode mapping contradicts what they draw, and raised marker lists.

Some typesetting systems put each special glyph in a one-glyph ("pi") font under an
arbitrary character code: the BMJ paper's en dashes extract as the letter "e"
(``80e120``). The document records what such a glyph draws, decided from its rendered
ink (a flat, wide bar above the baseline is a dash), never from the word around it; the
quote that copies the page (``80\u201374``) and the quote that copies the extraction
(``80e120``) are both found, a changed number or a different dash is not.

A PDF built here with Type 3 one-glyph fonts checks the decision on both sides (a bar
drawn as "e" is a dash, a box drawn as "e" stays "e"); the corpus papers check it on
real typesetting, including that no other paper gets a correction.
"""

from __future__ import annotations

import pymupdf
import pytest

from quotelocate import Document, Locator, preset
from quotelocate.locate import marker_key
from test_paper_rules import CORPUS, corpus_document, corpus_locator

REC = preset("recommended")
PMJ = "pmj2010_iron_deficiency_hpylori.pdf"
CORPUS.setdefault(PMJ, "19d45f9b1da55343c4a736b278d8696b046735dd853cb3569bfb9a0e9222c5b6")

BAR = "60 230 m 690 230 l 690 280 l 60 280 l f"  # 0.63 em wide, 0.05 em high: an en dash
LONG_BAR = "20 230 m 980 230 l 980 280 l 20 280 l f"  # 0.96 em: an em dash
BOX = "60 0 m 690 0 l 690 500 l 60 500 l f"  # as high as a lower-case letter: not a dash
UNDERSCORE = "60 -120 m 690 -120 l 690 -70 l 60 -70 l f"  # a bar on the baseline's far side


def _pi_pdf(pieces: list[tuple[str, str | None]]) -> Document:
    """One line of 10 pt text: body pieces in Helvetica, and each ``(\"e\", path)`` piece
    in a one-glyph Type 3 font whose only glyph, code 101 ("e"), draws ``path``."""
    pdf = pymupdf.open()
    page = pdf.new_page(width=400, height=200)
    page.insert_text((30, 40), "Body", fontname="helv", fontsize=10)  # puts Helvetica in the resources
    resources = int(pdf.xref_get_key(page.xref, "Resources")[1].split()[0])
    kind, value = pdf.xref_get_key(resources, "Font")
    font_dict, prefix = (int(value.split()[0]), "") if kind == "xref" else (resources, "Font/")
    fonts: dict[str, str] = {}
    ops = ["BT", "1 0 0 1 30 80 Tm"]
    for text, glyph in pieces:
        if glyph is None:
            ops.append(f"/helv 10 Tf ({text}) Tj")
            continue
        if glyph not in fonts:
            proc = pdf.get_new_xref()
            pdf.update_object(proc, "<<>>")
            pdf.update_stream(proc, f"1000 0 0 -200 1000 750 d1 {glyph}".encode())
            font = pdf.get_new_xref()
            name = fonts[glyph] = f"Pi{len(fonts)}"
            pdf.update_object(font, f"<</Type/Font/Subtype/Type3/Name/{name}/BaseFont/{name}"
                                    "/FontBBox[0 -200 1000 750]/FontMatrix[0.001 0 0 0.001 0 0]"
                                    f"/CharProcs<</e {proc} 0 R>>/Encoding<</Type/Encoding/Differences[101/e]>>"
                                    "/FirstChar 101/LastChar 101/Widths[1000]/Resources<<>>>>")
            pdf.xref_set_key(font_dict, prefix + name, f"{font} 0 R")
        ops.append(f"/{fonts[glyph]} 10 Tf ({text}) Tj")
    ops.append("ET")
    contents = page.get_contents()[0]
    pdf.update_stream(contents, pdf.xref_stream(contents) + b"\n" + " ".join(ops).encode())
    return Document.from_pdf_bytes(pdf.tobytes(), name="pi.pdf", isolate=False)


@pytest.fixture(scope="module")
def pi() -> Document:
    return _pi_pdf([
        ("Patients with values of 80", None), ("e", BAR), ("120 g/l were treated for 4", None), ("e", LONG_BAR),
        ("8 weeks and n", None), ("e", BOX), ("ver again", None), ("e", UNDERSCORE), ("x", None),
    ])  # fmt: skip


def test_a_pi_font_glyph_is_read_as_the_dash_it_draws(pi):
    assert "80e120" in pi.text  # the text layer keeps what the PDF maps the glyph to
    drawn = {pi.text[o - 2 : o + 2]: c for o, c in pi.glyphs}
    assert drawn == {"80e1": "\u2013", " 4e8": "\u2014"}  # the box and the underscore stay letters


@pytest.mark.parametrize(
    "quote,accepted",
    [
        ("Patients with values of 80\u2013120 g/l were treated", True),  # as printed
        ("Patients with values of 80e120 g/l were treated", True),  # as extracted
        ("were treated for 4\u20148 weeks and never", True),  # the box stays the letter it maps to
        ("were treated for 4\u20148 weeks and n\u2013ver", False),
        ("Patients with values of 80\u2013125 g/l were treated", False),  # a changed number
        ("Patients with values of 80-120 g/l were treated", False),  # another dash
        ("Patients with values of 80\u2014120 g/l were treated", False),
        ("Patients with values of 80 g/l were treated", False),  # a dropped bound
        ("were treated for 4e8 weeks", True),
        ("were treated for 4\u20138 weeks", False),  # the long bar is an em dash
    ],
)
def test_quotes_over_a_pi_font_dash(pi, quote, accepted):
    v = Locator(pi, REC).locate(quote)
    assert v.accepted is accepted, (quote, v.cause, v.reason)


def test_without_unicode_folding_the_text_layer_is_taken_as_it_is(pi):
    loc = Locator(pi, REC.replace(unicode="off"))
    assert loc.locate("Patients with values of 80e120 g/l were treated").accepted
    assert not loc.locate("Patients with values of 80\u2013120 g/l were treated").accepted


EQUALS = "60 180 m 690 180 l 690 230 l 60 230 l f 60 330 m 690 330 l 690 380 l 60 380 l f"  # two bars
UNEVEN = "60 180 m 690 180 l 690 230 l 60 230 l f 60 330 m 300 330 l 300 380 l 60 380 l f"  # one short


def _fraction_pdf() -> Document:
    """One line of 10 pt Helvetica with glyphs of a two-glyph Type 3 font (so no pi
    font) whose character map says vulgar fractions: code 188 ("\u00bc") draws two even
    bars, code 189 ("\u00bd") a long bar over a short one."""
    pdf = pymupdf.open()
    page = pdf.new_page(width=400, height=200)
    page.insert_text((30, 40), "Body", fontname="helv", fontsize=10)
    resources = int(pdf.xref_get_key(page.xref, "Resources")[1].split()[0])
    kind, value = pdf.xref_get_key(resources, "Font")
    font_dict, prefix = (int(value.split()[0]), "") if kind == "xref" else (resources, "Font/")
    procs = []
    for path in (EQUALS, UNEVEN):
        proc = pdf.get_new_xref()
        pdf.update_object(proc, "<<>>")
        pdf.update_stream(proc, f"1000 0 0 -200 1000 750 d1 {path}".encode())
        procs.append(proc)
    font = pdf.get_new_xref()
    pdf.update_object(font, "<</Type/Font/Subtype/Type3/Name/Fr/BaseFont/Fr/FontBBox[0 -200 1000 750]"
                            "/FontMatrix[0.001 0 0 0.001 0 0]"
                            f"/CharProcs<</onequarter {procs[0]} 0 R/onehalf {procs[1]} 0 R>>"
                            "/Encoding<</Type/Encoding/Differences[188/onequarter/onehalf]>>"
                            "/FirstChar 188/LastChar 189/Widths[1000 1000]/Resources<<>>>>")
    pdf.xref_set_key(font_dict, prefix + "Fr", f"{font} 0 R")
    ops = "BT 1 0 0 1 30 80 Tm /helv 10 Tf (The test gave Q) Tj /Fr 10 Tf (\\274) Tj /helv 10 Tf (23.8 and R) Tj " \
          "/Fr 10 Tf (\\275) Tj /helv 10 Tf (4 in all runs) Tj ET"
    contents = page.get_contents()[0]
    pdf.update_stream(contents, pdf.xref_stream(contents) + b"\n" + ops.encode())
    return Document.from_pdf_bytes(pdf.tobytes(), name="fraction.pdf", isolate=False)


def test_a_vulgar_fraction_that_draws_two_even_bars_is_read_as_equals():
    doc = _fraction_pdf()
    assert "Q\u00bc23.8 and R\u00bd4" in doc.text  # the text layer keeps the mapped codes
    assert [(doc.text[o], c) for o, c in doc.glyphs] == [("\u00bc", "=")]  # not the uneven bars
    loc = Locator(doc, REC)
    for quote in ("The test gave Q=23.8 and", "The test gave Q = 23.8 and", "The test gave Q\u00bc23.8 and"):
        assert loc.locate(quote).accepted, quote
    for quote in ("The test gave Q=23.9 and", "The test gave Q-23.8 and", "The test gave Q<23.8 and",
                  "and R=4 in all runs"):
        assert not loc.locate(quote).accepted, quote


# ---------------------------------------------------------------------------------------
# Real papers


def test_the_bmj_dashes_are_found_and_no_other_paper_gets_a_correction():
    pmj = corpus_document(PMJ)
    assert len(pmj.glyphs) >= 60 and {c for _, c in pmj.glyphs} == {"\u2013", "="}
    # a pi-font "e" draws a dash; a vulgar fraction of a font with a broken map, "="
    assert all(pmj.text[o] == ("e" if c == "\u2013" else "\u00bc") for o, c in pmj.glyphs)
    for name in CORPUS:
        if name != PMJ:
            assert corpus_document(name).glyphs == (), name


@pytest.mark.parametrize(
    "quote,page",
    [
        ("we defined those with Hb value of 80\u2013120 g/l as the mild to moderate anaemia group", 2),
        ("Our meta-analysis involved 450 participants, ranging in age from 2\u201376 years old.", 3),
        ("Measuring inconsistency in meta-analyses. BMJ 2003;327:557\u201360.", 7),
        ("ranging in age from 2e76 years old", 3),  # copied from the extracted text
        # a raised citation range whose dash is a pi-font glyph is one marker
        # ("controversial.5e7"), and a raised marker list whose items a raised space
        # separates is one marker ("habits.2 4In the past")
        ("In the past decades, the association between Helicobacter pylori (H pylori) infection and IDA has "
         "been controversial.", 1),
    ],
)
def test_bmj_dash_ranges_and_markers(quote, page):
    v = corpus_locator(PMJ).locate(quote)
    assert v.accepted and v.page == page, (v.cause, v.reason)


@pytest.mark.parametrize(
    "quote,page",
    [
        ("The results show that most of the heterogeneity was caused by the study of Sarker et al (Q=23.8) in Hb "
         "changes, and Huang et al (Q=55.32) in SF changes.", 5),
        ("which was lower than the result for adults of 15.08 mg/l (95% CI 11.49 to 18.67 mg/l, p = 0.04)", 4),
        ("The bias coefficient of the SF studies was 1.32 (p=0.586)", 5),
    ],
)
def test_bmj_equals_signs(quote, page):
    v = corpus_locator(PMJ).locate(quote)
    assert v.accepted and v.page == page, (v.cause, v.reason)


@pytest.mark.parametrize(
    "quote",
    [
        "we defined those with Hb value of 80\u2013125 g/l as the mild to moderate anaemia group",
        "we defined those with Hb value of 80-120 g/l as the mild to moderate anaemia group",
        "ranging in age from 2\u201367 years old",
        "Measuring inconsistency in meta-analyses. BMJ 2003;327:557\u201366.",
        "infection and IDA has been controversial.5\u20138",  # a changed marker
        "infection and IDA has been controversial.5",  # part of the marker
        "related to dietary habits.2\u20134In the past decades",  # a dash the page does not print
        "related to dietary habits.2In the past decades",
        # raised marker lists
        "Three RCTs26 27 33 involved patients",  # a changed item
        "Three RCTs26 27 involved patients",  # an item left out
        "Three RCTs2627 32 involved patients",  # two items run together: another number
        "and another five RCTs25 28\u201332 involved patients",  # a changed range
        "Three RCTs26 27 32 involved patients who had severe to moderate anaemia",
        # markers copied as extracted
        "which are related to dietary habits.2 5In the past",  # another marker
        "in the meta-analysis.25e27 29 31 33 Six RCTs",
        "Six RCTs25e33 provided Hb and SF",
        "constituted by WHO,34 we de\ufb01ned",
        "Six RCTs25 provided Hb and SF",  # part of the marker, with the rest left out
        "has been controversial.5e",  # a match that ends inside a marker
        # equals signs
        "caused by the study of Sarker et al (Q=28.3) in Hb changes",
        "The bias coefficient of the SF studies was 1.32 (p<0.586)",
        "The bias coefficient of the SF studies was 1.32 (p=0.568)",
    ],
)
def test_bmj_fabrications_are_rejected(quote):
    v = corpus_locator(PMJ).locate(quote)
    assert not v.accepted, v.reason


@pytest.mark.parametrize(
    "quote,kept",
    [
        # the raised list as the text layer has it: items a space apart, a range whose
        # dash is a pi-font "e"
        ("Three RCTs26 27 32 involved patients who had mild to moderate anaemia, and another five RCTs25 28e31 "
         "involved patients who had marked anaemia.", True),
        ("and another five RCTs25 28\u201331 involved patients", True),  # the dash the page prints
        ("Three RCTs26,27,32 involved patients", True),
        ("Three RCTs [26, 27, 32] involved patients", True),
        ("Three RCTs\u00b2\u2076 \u00b2\u2077 \u00b3\u00b2 involved patients", True),
        ("Three RCTs involved patients who had mild to moderate anaemia, and another five RCTs involved", False),
    ],
)
def test_a_raised_marker_list_may_be_kept_as_the_page_sets_it_or_left_out(quote, kept):
    v = corpus_locator(PMJ).locate(quote)
    assert v.accepted and v.page == 3, (v.cause, v.reason)
    assert v.status == "exact" or ("markers:kept" if kept else "markers:omitted") in v.rules, v.rules


@pytest.mark.parametrize(
    "quote,page",
    [
        # copied from the text layer as it stands: markers glued to the next word, beside
        # a mis-mapped dash, and on a line whose word spaces the extraction lost
        ("which are related to dietary habits.2 4In the past\ndecades, the association between Helicobacter pylori", 1),
        ("diagnosis standard for IDA constituted by WHO,33 we de\ufb01ned\nthose with Hb value of 80e120 g/l", 2),
        ("in the meta-analysis.25e27 29 31 32 Six RCTs25e32 provided Hb and SF", 3),
        ("data,oneRCT28providedonlyHbchanges,andoneRCT30provided\nonly SF changes", 3),
        # the marker left out where it stood between two sentences: the space it took
        ("which are related to dietary habits. In the past decades", 1),
    ],
)
def test_a_quote_copying_markers_as_extracted_is_accepted(quote, page):
    v = corpus_locator(PMJ).locate(quote)
    assert v.accepted and v.page == page, (v.cause, v.reason)
    assert v.status == "exact" or "markers:kept" in v.rules or "markers:omitted" in v.rules, v.rules


def test_marker_keys_keep_the_items_apart():
    assert marker_key("26 27 32") == marker_key("[26, 27, 32]") == marker_key("\u00b2\u2076,\u00b2\u2077,\u00b3\u00b2") == "26,27,32"
    assert marker_key("1\u20133") == marker_key(" [1 - 3]") == "1-3"
    assert marker_key("2627 32") != marker_key("26 27 32")


# ---------------------------------------------------------------------------------------
# Markers after an accented word and after a one-letter word that carries a footnote


def _footnoted_pdf(footnote: bool) -> Document:
    """Body lines at 10 pt with raised 6 pt pieces; with ``footnote``, a footnote at the
    foot of the page labelled with a raised "1"."""
    pdf = pymupdf.open()
    page = pdf.new_page(width=420, height=600)
    lines = [
        [("We mark the root node of the tree skeleton of T", "tiro"), ("1", None), (". The cost grows as", "tiro")],
        [("the square of x", "tiro"), ("2", None), (" and the paper by Nicolas Andr\u00b4e", "tiro"), ("a", None),
         (" agrees.", "tiro")],
    ]  # fmt: skip
    y = 60.0
    for pieces in lines:
        x = 30.0
        for text, font in pieces:
            size, rise = (10, 0.0) if font else (6, 3.5)
            page.insert_text((x, y - rise), text, fontsize=size, fontname=font or "tiro")
            x += pymupdf.get_text_length(text, fontname=font or "tiro", fontsize=size)
        y += 14
    if footnote:
        page.insert_text((30, 556.5), "1", fontsize=6, fontname="tiro")
        page.insert_text((34, 560), "The root node need not be a verb.", fontsize=9, fontname="tiro")
    return Document.from_pdf_bytes(pdf.tobytes(), name="footnoted.pdf", isolate=False)


def test_a_one_letter_word_takes_a_marker_only_when_the_page_has_its_footnote():
    with_note, without = _footnoted_pdf(True), _footnoted_pdf(False)
    quote = "the root node of the tree skeleton of T. The cost grows as"
    assert Locator(with_note, REC).locate(quote).accepted
    assert Locator(with_note, REC).locate(quote.replace("of T.", "of T1.")).accepted  # kept as printed
    assert not Locator(with_note, REC).locate(quote.replace("of T.", "of T2.")).accepted
    assert not Locator(without, REC).locate(quote).accepted  # no footnote 1: T\u00b9 may be a power
    for doc in (with_note, without):
        assert not Locator(doc, REC).locate("grows as the square of x and the paper").accepted  # x\u00b2


def test_a_marker_after_a_word_with_a_spacing_accent():
    doc = _footnoted_pdf(False)
    v = Locator(doc, REC).locate("the square of x2 and the paper by Nicolas Andr\u00e9 agrees.")
    assert v.accepted and "markers:omitted" in v.rules, v.reason
    assert not Locator(doc, REC).locate("the square of x2 and the paper by Nicolas Andr\u00e9e agrees.").accepted


@pytest.mark.parametrize(
    "paper,quote,accepted",
    [
        ("arxiv2022_strain_sensor_elsarticle.pdf",
         "Nicolas Roisin, Thibault P. Delhaye, Nicolas Andr\u00e9, Jean-Pierre Raskin, Denis Flandre", True),
        ("arxiv2022_strain_sensor_elsarticle.pdf",
         "Nicolas Roisin, Thibault P. Delhaye, Nicolas Andr\u00e9b, Jean-Pierre Raskin, Denis Flandre", False),
        ("clef2008_ave_answer_validation_msword.pdf",
         "which will be marked as the root node of the tree skeleton of T.", True),
        ("clef2008_ave_answer_validation_msword.pdf",
         "which will be marked as the root node of the tree skeleton of T2.", False),
    ],
)
def test_markers_after_accents_and_one_letter_words_on_real_papers(paper, quote, accepted):
    CORPUS.setdefault("clef2008_ave_answer_validation_msword.pdf",
                      "c02abe5da7005d7618e630e6116fe152746dc55edcd02a6be5c9cf575c6477b3")
    v = corpus_locator(paper).locate(quote)
    assert v.accepted is accepted, (v.cause, v.reason)


# ---------------------------------------------------------------------------------------
# A line-end hyphen next to a digit


@pytest.mark.parametrize(
    "text,read",
    [
        ("the IEEE-\n754 standard", "the IEEE-754 standard"),
        ("on pages 12-\n15 of", "on pages 12-15 of"),
        ("from 1990-\nonwards", "from 1990-onwards"),
        ("state-\nof-the-art", "state-of-the-art"),  # letters on both sides: as before
        ("a sum -\n5 more", "a sum - 5 more"),  # a spaced minus is no line-end hyphen
    ],
)
def test_a_line_end_hyphen_next_to_a_digit_is_kept_without_a_space(text, read):
    from quotelocate.normalize import normalize

    assert normalize(text, REC).text == read
    assert normalize(text, REC.replace(hyphenation="drop")).text == read.replace("IEEE-754", "IEEE- 754").replace(
        "12-15", "12- 15").replace("1990-onwards", "1990- onwards").replace("state-of", "stateof")


@pytest.mark.parametrize(
    "quote,accepted",
    [
        ("only a Number type that is the set of 64-bit IEEE-754 floating-pointer numbers", True),
        ("only a Number type that is the set of 64-bit IEEE-745 floating-pointer numbers", False),
        ("only a Number type that is the set of 64-bit IEEE754 floating-pointer numbers", False),
        ("only a Number type that is the set of 64-bit IEEE 754 floating-pointer numbers", False),
    ],
)
def test_ieee_754_across_a_line_break_on_a_real_paper(quote, accepted):
    v = corpus_locator("pldi2009_tracemonkey.pdf").locate(quote)
    assert v.accepted is accepted, (v.cause, v.reason)


def test_a_glyph_is_measured_alone_in_its_embedded_font():
    from quotelocate.document import drawn_dash

    buffer = pymupdf.Font("tiro").buffer  # an embeddable font program, as extracted from a PDF
    span = {"size": 10.0, "bbox": (0, 0, 1, 1), "origin": (0, 1)}  # no page: only the font is rendered
    assert drawn_dash(None, {**span, "text": "\u2013"}, buffer) == "\u2013"
    assert drawn_dash(None, {**span, "text": "-"}, buffer) == "-"
    assert drawn_dash(None, {**span, "text": "e"}, buffer) is None
    assert drawn_dash(None, {**span, "text": "_"}, buffer) is None  # a bar below the baseline


def _insert_text_render(buffer: bytes, ch: str):
    """The glyph set with ``insert_text`` on a scratch page: what the TextWriter route
    of ``_isolated_glyph`` must render pixel for pixel."""
    scratch = pymupdf.open()
    page = scratch.new_page(width=200, height=100)
    page.insert_font(fontname="pi", fontbuffer=buffer)
    page.insert_text((20, 70), ch, fontname="pi", fontsize=50)
    return page.get_pixmap(matrix=pymupdf.Matrix(2, 2), colorspace=pymupdf.csGRAY, alpha=False)


@pytest.mark.parametrize("font", ["tiro", "symb"])
def test_an_isolated_glyph_renders_as_insert_text_would(font):
    from quotelocate.document import _isolated_glyph

    buffer = pymupdf.Font(font).buffer
    chars = [ch for ch in "\u2013-_\u2014eRgQ1\u03c0\u00b5\ufb00" if pymupdf.Font(fontbuffer=buffer).has_glyph(ord(ch))]
    assert len(chars) >= 4
    for ch in chars:
        pix = _isolated_glyph(buffer, ch)[0]
        assert pix.samples == _insert_text_render(buffer, ch).samples, ch


def test_ink_extent_is_the_first_and_last_ink_row_and_column():
    from quotelocate.document import _INK, _ink_extent

    def reference(pix):
        w, s = pix.width, pix.samples
        rows = [y for y in range(pix.height) if min(s[y * w : (y + 1) * w]) <= _INK]
        cols = [x for x in range(w) if min(s[x::w]) <= _INK]
        return (rows[0], rows[-1], cols[0], cols[-1]) if rows else None

    buffer = pymupdf.Font("tiro").buffer
    for ch in "\u2013_eQ|.":
        pix = _insert_text_render(buffer, ch)
        assert _ink_extent(pix) == reference(pix) is not None, ch
    blank = _insert_text_render(buffer, " ")
    assert _ink_extent(blank) is None and reference(blank) is None


def _record_list_use(monkeypatch) -> list[bool]:
    """Spy on how each page's text is read: True for a page read from its display list."""
    from quotelocate import document as D

    real, used = D._page_dict, []

    def spy(page, rendered=None):
        used.append(rendered is not None)
        return real(page, rendered)

    monkeypatch.setattr(D, "_page_dict", spy)
    return used


def test_text_from_the_display_list_is_the_text_from_the_page(monkeypatch):
    """On the BMJ paper every page has white text: the first page's text comes from its
    display list (nothing to go on yet), and so does every later one's, since the page
    before needed its list for the white-text check; the records are the ones extracted
    from the pages directly."""
    from quotelocate import document as D

    pdf = pymupdf.open(stream=corpus_document(PMJ)._pdf, filetype="pdf")
    real = D._page_dict
    used = _record_list_use(monkeypatch)
    via_list = D._extract_pages(pdf, PMJ, range(pdf.page_count))
    assert used == [True] * pdf.page_count
    monkeypatch.setattr(D, "_page_dict", lambda page, rendered=None: real(page))
    assert via_list == D._extract_pages(pdf, PMJ, range(pdf.page_count))


def test_a_page_read_through_its_display_list_gives_the_same_numbers_to_the_sign_of_zero(monkeypatch):
    """pymupdf gives a line of page 3 of the Elsevier paper the direction (1.0, -0.0) read
    from the page and (1.0, 0.0) read from a display list, and which way a page is read
    depends on the page its worker took before it. The records hold one zero, so the
    document (and a cache entry of it) does not depend on how the workers shared the pages."""
    import json

    from quotelocate import document as D

    name = "arxiv2022_strain_sensor_elsarticle.pdf"
    pdf = pymupdf.open(stream=corpus_document(name)._pdf, filetype="pdf")
    real = D._page_dict
    monkeypatch.setattr(D, "_page_dict", lambda page, rendered=None: real(page, {}))
    via_list = D._extract_pages(pdf, name, [2])
    monkeypatch.setattr(D, "_page_dict", lambda page, rendered=None: real(page))
    direct = D._extract_pages(pdf, name, [2])
    assert json.dumps(via_list) == json.dumps(direct)


def test_pages_after_one_that_needed_no_list_are_read_directly(monkeypatch):
    """The ACL paper has no white text and no drawn glyph checks on its first pages: only
    the first page (no evidence yet) goes through a display list, the next ones not."""
    from quotelocate import document as D

    pdf = pymupdf.open(stream=corpus_document("acl2020_specter.pdf")._pdf, filetype="pdf")
    used = _record_list_use(monkeypatch)
    D._extract_pages(pdf, "acl.pdf", range(3))
    assert used == [True, False, False]


def test_a_rotated_page_takes_its_text_from_the_page():
    """A display list holds a rotated page as shown, not in the unrotated coordinates of
    the text: its text comes from the page whatever the page before it needed."""
    from quotelocate.document import _page_dict

    with pymupdf.open(stream=corpus_document("arxiv2015_influential_nodes_rotated.pdf")._pdf, filetype="pdf") as pdf:
        page = pdf[7]  # page 8: /Rotate 90
        assert page.rotation == 90
        assert _page_dict(page, {}) == _page_dict(page)


def test_glyph_boxes_do_not_follow_pymupdfs_switches_and_the_callers_are_kept():
    """Whatever a caller (or a module it imported) set pymupdf's process-wide glyph-box
    switches to, a document is extracted with the pinned ones, in-process and in the
    workers alike, and the caller's switches are as they were afterwards."""
    from quotelocate import document as D

    data = corpus_document(PMJ)._pdf
    reference = Document.from_pdf_bytes(data, name=PMJ, isolate=False)
    ref_chars = [reference.char_box(o) for o in range(0, len(reference.text), 53)]
    tools = pymupdf.TOOLS
    before = (tools.unset_quad_corrections(), tools.set_small_glyph_heights())
    try:
        for skip, small in ((False, True), (True, True), (False, False)):
            tools.unset_quad_corrections(skip)
            tools.set_small_glyph_heights(small)
            D._POOL.stop()  # forked workers start from the caller's switches
            for isolate in (False, True):
                doc = Document.from_pdf_bytes(data, name=PMJ, isolate=isolate)
                assert doc.lines == reference.lines, (skip, small, isolate)
                assert [doc.char_box(o) for o in range(0, len(doc.text), 53)] == ref_chars
                assert (tools.unset_quad_corrections(), tools.set_small_glyph_heights()) == (skip, small)
            assert doc.extractor["glyph_geometry"] == D.GLYPH_GEOMETRY
    finally:
        tools.unset_quad_corrections(before[0])
        tools.set_small_glyph_heights(before[1])
        D._POOL.stop()


ALL_PAPERS = [
    "1706.03762v7.pdf", "1706.03762v5.pdf", "acl2020_specter.pdf", "arxiv2015_influential_nodes_rotated.pdf",
    "arxiv2022_strain_sensor_elsarticle.pdf", "clef2008_ave_answer_validation_msword.pdf",
    "emnlp2004_monolingual_mt_paraphrase_msword.pdf", "ieee_tcsvt1997_disk_storage_scalable_video.pdf",
    "jcap2008_apparent_accelerations.pdf", "natneuro2011_ephaptic_coupling.pdf", "pldi2009_tracemonkey.pdf",
    PMJ,
]


@pytest.mark.parametrize("name", ALL_PAPERS)
def test_the_lean_font_walk_lists_what_get_fonts_lists(name):
    """The one-glyph check walks a page's resources for its font xrefs itself (get_fonts
    also works out each font's type, encoding and file extension, most of its cost): on
    every page of the twelve papers it lists the same xrefs in the same order."""
    from quotelocate.data.papers import find_paper, papers_search_path
    from quotelocate.document import _page_font_xrefs

    found = find_paper(name) or next(
        (f / "corpus" / name for f in papers_search_path() if (f / "corpus" / name).is_file()), None)
    assert found is not None, f"{name} is not on the papers search path; set QUOTELOCATE_PAPERS"
    with pymupdf.open(found) as pdf:
        for index in range(pdf.page_count):
            assert _page_font_xrefs(pdf, index) == [entry[0] for entry in pdf[index].get_fonts()], (name, index + 1)


def test_a_new_one_glyph_font_is_named_as_get_fonts_names_it(monkeypatch):
    """The walk finds the xrefs and a one-glyph font met for the first time is named
    from its own dictionary, as get_fonts names it, without asking get_fonts; when a
    name cannot be read, get_fonts is asked, once, and names it the same."""
    from quotelocate import document as D

    pdf = pymupdf.open(stream=corpus_document(PMJ)._pdf, filetype="pdf")
    real, asked = pymupdf.Page.get_fonts, []
    monkeypatch.setattr(pymupdf.Page, "get_fonts", lambda self, *a, **k: asked.append(self.number) or real(self, *a, **k))
    expected = {str(e[3]).split("+", 1)[-1]: e[0] for e in real(pdf[0]) if D._one_code(pdf, e[0])}
    known: dict = {}
    first = D._one_glyph_fonts(pdf, pdf[0], known)
    assert first and first == expected and asked == []
    assert D._one_glyph_fonts(pdf, pdf[0], known) == first and asked == []

    def unreadable(pdf, xref):
        raise RuntimeError("a damaged font dictionary")

    monkeypatch.setattr(D, "_font_name", unreadable)
    known = {}
    assert D._one_glyph_fonts(pdf, pdf[0], known) == expected and asked == [0]
    assert D._one_glyph_fonts(pdf, pdf[0], known) == expected and asked == [0]  # every font is known now


@pytest.mark.parametrize("name", ALL_PAPERS)
def test_every_font_is_named_as_get_fonts_names_it(name):
    """The name read from a font's own dictionary is get_fonts's, for every font of every
    page of the twelve papers."""
    from quotelocate.data.papers import find_paper, papers_search_path
    from quotelocate.document import _font_name

    found = find_paper(name) or next(
        (f / "corpus" / name for f in papers_search_path() if (f / "corpus" / name).is_file()), None)
    assert found is not None, f"{name} is not on the papers search path; set QUOTELOCATE_PAPERS"
    with pymupdf.open(found) as pdf:
        entries = [entry for page in pdf for entry in page.get_fonts() if entry[0]]
        assert entries
        for entry in entries:
            assert _font_name(pdf, entry[0]) == entry[3], (name, entry)
