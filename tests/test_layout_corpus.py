"""Reading order on the ten real papers of the corpus (``corpus/`` on the papers search
path): the layouts a two-column journal or conference paper brings.

Each case is a passage as a reader sees it on the rendered page, crossing the place
where the extraction order puts something else in between: a float or a table title at
the top of the next column, an unnumbered note (received date, permission block) at
the foot of a column, an affiliation sidebar beside the first column, a drop cap, a
footnote continued in the next column or on the next page. Every one of them was
rejected before the reading order handled its layout. The papers are found by file
name; a missing paper fails the test with the path to set, it is never skipped.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pymupdf
import pytest
from conftest import document, locator, paper_path

from quotelocate import Locator, preset
from quotelocate.layout import BODY, CAPTION, FLOAT, FOOTNOTE, FURNITURE, classify, reading_order

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from _corpus import CORPUS  # noqa: E402

ACL = "acl2020_specter.pdf"
IEEE = "ieee_tcsvt1997_disk_storage_scalable_video.pdf"
PLDI = "pldi2009_tracemonkey.pdf"
PMJ = "pmj2010_iron_deficiency_hpylori.pdf"
EMNLP = "emnlp2004_monolingual_mt_paraphrase_msword.pdf"
ROTATED = "arxiv2015_influential_nodes_rotated.pdf"
NATURE = "natneuro2011_ephaptic_coupling.pdf"
JCAP = "jcap2008_apparent_accelerations.pdf"


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_paper_is_on_the_search_path(name):
    assert paper_path(name).is_file()


CROSSINGS = [
    # (paper, quote, what lies between its halves in the extraction order)
    (IEEE, "frames of each layer, as shown in Fig. 1. This strategy allows optimal disk operation",
     "a table's number and title at the top of the next column"),
    (IEEE, "users request video from a server, the storage of scalable video permits the server to gracefully degrade",
     "an unnumbered note (received date, affiliations) at the foot of the first column"),
    (PLDI, "example, is the de facto standard for client-side web programming and is used for the application logic",
     "the permission and copyright block at the foot of the first column"),
    (PMJ, "especially unexplained IDA. We performed a meta-analysis of randomised",
     "an affiliation sidebar left of the first column, in smaller type"),
    (ACL, "compared with the SciBERT baseline for a random set of papers.",
     "a page break; the next page has a figure at the top of a column"),
    (ACL, "we would expect venues to have high correlation with paper topics). The fact that SPECTER does not",
     "a column break under a table across both columns"),
    (IEEE, "IN this paper, we consider storage and retrieval of scalable video data.",
     "a drop cap: the first letter set large on its own line"),
    (EMNLP, "Because the AER is asymmetric (though each direction differs by less than 5%), we have presented "
            "the average of the directional AERs.",
     "a footnote continued at the foot of the next column"),
    (EMNLP, "we found such mappings to be both unwieldy in practice and very often indicative of poor a word alignment.",
     "a footnote continued on the next page, after that page's body"),
]


@pytest.mark.parametrize("name, quote, between", CROSSINGS, ids=[c[2][:40] for c in CROSSINGS])
def test_passage_across_a_layout_break_is_accepted(name, quote, between):
    v = locator(name).locate(quote)
    assert v.accepted, f"{name}: {between}: {v.status} {v.cause}"


def test_table_title_at_a_column_top_is_not_read_into_the_sentence():
    doc = document(IEEE)
    text = reading_order(doc).text
    before = text.index("frames of each layer,")
    after = text.index("as shown in Fig. 1. This strategy", before)
    assert after - before < 40, "the two halves are adjacent in the body flow"
    title = text.index("COST PER FULL-RATE STREAM")
    assert not before < title < after
    roles = classify(doc)
    line = next(i for i, ln in enumerate(doc.lines) if doc.text[ln.start : ln.end].startswith("COST PER FULL-RATE"))
    assert roles[line].kind == CAPTION


def test_drop_cap_is_glued_to_its_word_with_two_spans():
    v = locator(IEEE).locate("IN this paper, we consider storage")
    assert v.accepted and len(v.spans) == 2
    doc = document(IEEE)
    assert doc.text[v.spans[0][0] : v.spans[0][1]] == "I"


def test_a_splice_across_a_note_stays_rejected():
    # the body and the note that sits between its halves are different flows
    v = locator(PLDI).locate("example, is the de facto standard for client-side web programming Permission to make digital")
    assert not v.accepted


def test_notes_at_a_column_foot_are_footnotes():
    doc = document(PLDI)
    roles = classify(doc)
    kinds = {doc.text[ln.start : ln.end][:20]: roles[i].kind for i, ln in enumerate(doc.lines) if ln.page == 1}
    assert kinds["Permission to make d"] == FOOTNOTE
    assert kinds["Copyright c⃝2009 ACM"] == FOOTNOTE


def test_rotated_table_page_reads_its_caption_as_a_caption():
    doc = document(ROTATED)
    assert doc.pages[7].rotation == 90
    roles = classify(doc)
    on_page = {doc.text[ln.start : ln.end]: roles[i].kind for i, ln in enumerate(doc.lines) if ln.page == 8}
    caption = next(t for t in on_page if t.startswith("Table 2. The rate of"))
    head = next(t for t in on_page if t.startswith("A. SHEIKHAHMADI"))
    assert on_page[caption] == CAPTION
    assert on_page[head] == FURNITURE


@pytest.mark.parametrize("name, stamp", [(NATURE, "Nature America"), (JCAP, "JCAP10(2008)003")])
def test_vertical_margin_text_is_furniture_on_every_page(name, stamp):
    doc = document(name)
    roles = classify(doc)
    pages = {ln.page for i, ln in enumerate(doc.lines)
             if stamp in doc.text[ln.start : ln.end] and roles[i].kind == FURNITURE}
    assert pages == {p.number for p in doc.pages}
    assert stamp not in reading_order(doc).text


# ---------------------------------------------------------------------------------------
# Short balanced columns over a reference list: drawn, since no corpus paper has one

BODY_WORDS = ("the model reads each column of running text from top to bottom before it "
              "turns to the next one and a sentence may run on ").split()


def _balanced_last_page(path: Path) -> None:
    pdf = pymupdf.open()
    page = pdf.new_page(width=612, height=792)
    left, right = 54, 318
    words = iter(BODY_WORDS * 20)

    def column(x: float, y: float, rows: int, size: float, lead: float, prefix: str = "") -> None:
        for r in range(rows):
            line = " ".join(next(words) for _ in range(8))
            page.insert_text((x, y + r * lead), (prefix if r == 0 else "") + line, fontsize=size)

    column(left, 80, 6, 10, 12, "Left body starts here. ")
    page.insert_text((left, 80 + 6 * 12), "and the last left words", fontsize=10)
    page.insert_text((right, 80), "continue on the right column top", fontsize=10)
    column(right, 92, 6, 10, 12)
    page.draw_line((left, 190), (558, 190))
    page.insert_text((left, 210), "[1] First reference, in a smaller size", fontsize=8)
    column(left, 220, 8, 8, 9.5)
    page.insert_text((right, 210), "[9] Ninth reference, in a smaller size", fontsize=8)
    column(right, 220, 8, 8, 9.5)
    pdf.save(path)


def test_short_balanced_columns_are_read_before_the_reference_list(tmp_path):
    from quotelocate import Document

    path = tmp_path / "balanced.pdf"
    _balanced_last_page(path)
    doc = Document.open(path)
    text = reading_order(doc).text
    assert text.index("and the last left words") < text.index("continue on the right column top")
    assert text.index("continue on the right column top") < text.index("[1] First reference")
    v = Locator(doc, preset("recommended")).locate("and the last left words continue on the right column top")
    assert v.accepted


def test_papers_search_path_looks_in_each_folders_corpus(tmp_path, monkeypatch):
    from quotelocate.data.papers import find_paper, papers_search_path

    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "real.pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "other").mkdir()
    monkeypatch.setenv("QUOTELOCATE_PAPERS", f"{tmp_path / 'other'}:{tmp_path}")
    path = papers_search_path()
    assert path[:3] == [tmp_path / "other", tmp_path, tmp_path / "corpus"]
    assert find_paper("real.pdf") == tmp_path / "corpus" / "real.pdf"


# ---------------------------------------------------------------------------------------
# Figures set into the columns (Nature layout), reference lists and algorithm listings


NATURE_CROSSINGS = [
    # (quote, what lies between its halves in the extraction order)
    ("We injected a constant current for 9 s at the cell body that induced spiking (typically 2–4 Hz; "
     "Fig. 3a and Supplementary Fig. 3).",
     "a page break, then a figure's panel letters and axis numbers set larger or smaller than the text"),
    ("For extracellular stimulation at 1 Hz with I0 = 25, 50, 100 and 200 nA, we measured fields",
     "a column break, with a caption 'Figure 1<en space>Title' in smaller type at the top of the column"),
    ("Although the average STP of all neurons indicated the strong presence of oscillations",
     "a column break, with the last line of a caption set beside a figure"),
    ("a field oscillating at 1 Hz synchronized spikes in all four cells such that a preferred spiking-phase "
     "close to 270° emerged with increasing field strength (Fig. 4c–e).",
     "a page break, then a figure's significance marks and a short label in smaller type"),
]


@pytest.mark.parametrize("quote, between", NATURE_CROSSINGS, ids=[c[1][:40] for c in NATURE_CROSSINGS])
def test_passage_across_a_figure_set_into_the_columns_is_accepted(quote, between):
    v = locator(NATURE).locate(quote)
    assert v.accepted, f"{between}: {v.status} {v.cause}"


@pytest.mark.parametrize("quote", [
    "at the cell body that 0.8 a b c induced spiking",  # the figure's marks read into the text
    "the average STP of all neurons indicated the Figures 5, 7 and 9.",  # the caption's last line
    "with I0 = 25, 50, 100 and Figure 1 Simultaneous recordings",  # the caption at the column top
])
def test_a_splice_of_text_and_figure_stays_rejected(quote):
    assert not locator(NATURE).locate(quote).accepted


def test_titled_caption_in_smaller_type_and_panel_letters_are_not_body():
    doc = document(NATURE)
    roles = classify(doc)
    kinds = {}
    for i, ln in enumerate(doc.lines):
        kinds.setdefault((ln.page, doc.text[ln.start : ln.end].strip()), roles[i].kind)
    assert kinds[(2, "Figure 1\u2002 Simultaneous recordings from up to 12 electrodes inside")] == CAPTION
    assert kinds[(4, "Figures 5, 7 and 9.")] == CAPTION  # the caption runs on beside the figure
    for letter in "abc":  # panel letters set larger than the text, above the figure
        assert kinds[(2, letter)] == FLOAT
    assert kinds[(5, "f = 8 Hz *")] == FLOAT


def test_a_figure_number_and_title_without_punctuation_is_a_caption_only_in_its_own_size(tmp_path):
    # "Figure 2 Shows ..." opening a paragraph in the text's size is a sentence; a
    # number and title set smaller than the text (over the page's text here) are a caption
    from quotelocate import Document

    pdf = pymupdf.open()
    page = pdf.new_page(width=612, height=792)
    words = iter(BODY_WORDS * 20)
    page.insert_text((72, 80), "Figure 3 Columns of running text read in turn by the model", fontsize=8)
    y = 110
    for r in range(12):
        page.insert_text((72, y), " ".join(next(words) for _ in range(12)), fontsize=10)
        y += 12
    page.insert_text((72, y + 8), "Figure 2 Shows how the model reads each column of text in turn", fontsize=10)
    for r in range(4):
        page.insert_text((72, y + 20 + 12 * r), " ".join(next(words) for _ in range(12)), fontsize=10)
    path = tmp_path / "captions.pdf"
    pdf.save(path)
    doc = Document.open(path)
    roles = classify(doc)
    kinds = {doc.text[ln.start : ln.end][:8]: roles[i].kind for i, ln in enumerate(doc.lines)}
    assert kinds["Figure 2"] == BODY
    assert kinds["Figure 3"] == CAPTION


def test_reference_list_in_smaller_type_is_body_not_footnotes():
    # a reference list set smaller than the text at the foot of a page: an entry's
    # second line that starts with a number ("9–38.") is not a footnote marker
    doc = document(ROTATED)
    roles = classify(doc)
    on_16 = {doc.text[ln.start : ln.end].strip(): roles[i].kind for i, ln in enumerate(doc.lines) if ln.page == 16}
    assert on_16["9–38."] == BODY
    assert on_16["56 (18) (2012) 3866–3878."] == BODY
    # raised markers at a page foot still start notes under unmarked lines in the same size
    on_1 = {doc.text[ln.start : ln.end][:12]: roles[i].kind for i, ln in enumerate(doc.lines) if ln.page == 1}
    assert on_1["1Department "] == FOOTNOTE
    v = locator(ROTATED).locate(
        "[15] J. A. Chevalier, D. Mayzlin, The effect of word of mouth on sales: Online book reviews, Journal of "
        "marketing research 43 (3) (2006) 345–354. [16] N. S. Koh, N. Hu, E. K. Clemons")
    assert v.accepted, f"{v.status} {v.cause}"
    assert not locator(ROTATED).locate(
        "International Journal of Electronic Commerce 13 (4) (2009) [15] J. A. Chevalier").accepted


def test_algorithm_listing_is_a_float_read_after_the_body():
    # "Algorithm 2 Name" set larger than the text at the top of a page: the listing is a
    # float, and the paragraph runs on over it (and over two rotated table pages)
    doc = document(ROTATED)
    roles = classify(doc)
    heads = [roles[i].kind for i, ln in enumerate(doc.lines) if doc.text[ln.start : ln.end].startswith("Algorithm 2 ")]
    assert heads == [CAPTION]
    v = locator(ROTATED).locate("Now, it is time to show the results from Subsection 3.2. To clarify how to get "
                                "the values of COV in Table 2")
    assert v.accepted, f"{v.status} {v.cause}"
    assert not locator(ROTATED).locate("the results from Subsection 3.2. Algorithm 2 DegreeDistance").accepted


# ---------------------------------------------------------------------------------------
# A first page's foot: its page number set above a publication line in small type

ACL_ACROSS_THE_FOOT = ("In experiments, we show that SPECTER's representations substantially outperform the "
                       "state-of-the-art on a variety of document-level tasks, including topic classification, "
                       "citation prediction, and recommendation.")


def test_first_page_number_above_a_publication_line_is_furniture():
    # the number is not on the page's outermost row, and neither line recurs; the number
    # agrees with the other pages' numbers and only small type lies below it
    doc = document(ACL)
    roles = classify(doc)
    foot = [(doc.text[ln.start : ln.end], roles[i].kind) for i, ln in enumerate(doc.lines)
            if ln.page == 1 and ln.bbox[1] > 0.9 * doc.pages[0].height]
    assert len(foot) == 3 and all(kind == FURNITURE for _, kind in foot), foot
    body = [roles[i].kind for i, ln in enumerate(doc.lines)
            if ln.page == 1 and doc.text[ln.start : ln.end].startswith("representations substantially")]
    assert body == [BODY]


def test_sentence_across_the_first_page_foot_is_accepted_and_a_splice_into_it_is_not():
    assert locator(ACL).locate(ACL_ACROSS_THE_FOOT).accepted
    for splice in ("representations substantially outperform the state-2270",
                   "representations substantially outperform the state- Proceedings of the 58th Annual Meeting",
                   "2270 of-the-art on a variety of document-level tasks"):
        assert not locator(ACL).locate(splice).accepted, splice
