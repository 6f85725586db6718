"""The accents, markers, suspended-hyphen and math-spacing rules on real papers and on a
PDF built here with raised markers and exponents: each rule accepts the faithful
quote and rejects the fabrication, and a rejection names its real cause.

Corpus papers are found by file name on the papers search path (also in its ``corpus``
folder) and checked against their sha256; they are never copied into the repository.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quotelocate import Document, Locator, preset
from quotelocate.diagnose import CAUSES
from quotelocate.document import raised_markers
from quotelocate.data.papers import find_paper, papers_search_path

REC = preset("recommended")

CORPUS = {
    "acl2020_specter.pdf": "f4b6d4e5d82f64e1e37ec5e8341dfe55f26c89dc49ab781555b95fe0c8b608b2",
    "pldi2009_tracemonkey.pdf": "3662ff519e485810520552bf301d8c3b2b917fd2f83303f4965d7abed367e113",
    "arxiv2022_strain_sensor_elsarticle.pdf": "dca92565ad765111eb3b0690a6fc652a0391ef53e646206c9db47c37ce0f5028",
    "natneuro2011_ephaptic_coupling.pdf": "0bf46a61e60279c6f80bc8bf7213188a2a53688cb92f13498350c6da3e4d0432",
    "emnlp2004_monolingual_mt_paraphrase_msword.pdf": "3d468138133c4074d8b90cb2db2e6157fe872af4031a7834fdcb6c7f480c8c49",
    "jcap2008_apparent_accelerations.pdf": "8959058df3c87c577599b6ebf686c2b49e77edbac36c3c86b9a20e6a9879017a",
    "arxiv2015_influential_nodes_rotated.pdf": "db7647572b4e5463d5a6c3f7fe76a66e3a1abd8a7d3689851a8e886a2b3bb094",
    "pmj2010_iron_deficiency_hpylori.pdf": "19d45f9b1da55343c4a736b278d8696b046735dd853cb3569bfb9a0e9222c5b6",
    "clef2008_ave_answer_validation_msword.pdf": "c02abe5da7005d7618e630e6116fe152746dc55edcd02a6be5c9cf575c6477b3",
    "ieee_tcsvt1997_disk_storage_scalable_video.pdf": "adf84a934d658312d784115ca34f26dc30f8ea834004c7e93c2cdd5df5d382dd",
}

_DOCS: dict[str, Document] = {}
_LOCATORS: dict[tuple[str, str], Locator] = {}


def corpus_document(name: str) -> Document:
    if name not in _DOCS:
        found = find_paper(name)
        if found is None:
            found = next((f / "corpus" / name for f in papers_search_path() if (f / "corpus" / name).is_file()), None)
        if found is None:
            pytest.fail(f"{name} is not on the papers search path (nor in its corpus folder); set QUOTELOCATE_PAPERS")
        digest = hashlib.sha256(Path(found).read_bytes()).hexdigest()
        assert digest == CORPUS[name], f"{found}: sha256 {digest} is not the pinned corpus paper"
        _DOCS[name] = Document.open(found)
    return _DOCS[name]


def corpus_locator(name: str, rules=REC) -> Locator:
    key = (name, rules.fingerprint)
    if key not in _LOCATORS:
        _LOCATORS[key] = Locator(corpus_document(name), rules)
    return _LOCATORS[key]


# ---------------------------------------------------------------------------------------
# A PDF with raised markers and raised exponents, built with pymupdf


def _pdf(lines: list[list[tuple[str, bool]]]) -> Document:
    """One page; each line a list of (text, raised) pieces set side by side, the raised
    ones at 7 pt with a baseline 3.5 pt higher than the 10 pt body text."""
    pdf = pymupdf.open()
    page = pdf.new_page(width=420, height=300)
    y = 40.0
    for pieces in lines:
        x = 30.0
        for text, raised in pieces:
            size = 7 if raised else 10
            page.insert_text((x, y - (3.5 if raised else 0.0)), text, fontsize=size, fontname="helv")
            x += pymupdf.get_text_length(text, fontname="helv", fontsize=size)
        y += 14
    return Document.from_pdf_bytes(pdf.tobytes(), name="raised.pdf", isolate=False)


@pytest.fixture(scope="module")
def raised() -> Document:
    return _pdf([
        [("Large language models", False), ("3", True), (" are trained on raw web text,", False), ("2", True),
         (" and then", False)],
        [("tuned on curated data. The error falls as 10", False), ("3", True), (" steps pass", False)],
        [("and a search takes O(n", False), ("2", True), (") time on every input we tried.", False)],
        [("The energy E = mc", False), ("2", True), (" holds and the plate covers 5 cm", False), ("2", True),
         (" of the", False)],
        [("surface, as reported by the Nature-style studies", False), ("14-20", True), (" of the field.", False)],
    ])  # fmt: skip


def test_raised_markers_are_found_by_geometry_and_exponents_are_not(raised):
    found = [raised.text[s:e] for s, e in raised.markers]
    assert found == ["3", "2", "14-20"]  # models3, text,2, studies14-20; not 10^3, n^2, mc^2, cm^2
    i = raised.text.index("models3")
    assert (i + 6, i + 7) in raised.markers


@pytest.mark.parametrize(
    "quote,kept",
    [
        ("Large language models are trained on raw web text, and then tuned", "markers:omitted"),
        ("Large language models3 are trained on raw web text,2 and then tuned", "markers:kept"),  # verbatim
        ("Large language models\u00b3 are trained on raw web text,\u00b2 and then tuned", "markers:kept"),
        ("Large language models [3] are trained on raw web text, [2] and then tuned", "markers:kept"),
        ("as reported by the Nature-style studies14-20 of the field", "markers:kept"),
        ("as reported by the Nature-style studies of the field", "markers:omitted"),
        ("as reported by the Nature-style studies", "markers:omitted"),  # ends in front of the marker
    ],
)
def test_a_quote_may_keep_or_leave_out_a_raised_marker(raised, quote, kept):
    v = Locator(raised, REC).locate(quote)
    assert v.accepted, v.reason
    assert kept in v.rules or v.status == "exact", v.rules  # a verbatim quote needs no rule


@pytest.mark.parametrize(
    "quote",
    [
        "Large language models4 are trained on raw web text",  # another marker
        "Large language models [12] are trained on raw web text",  # another citation
        "Large language models are trained on raw web text,3 and then tuned",  # the marker moved
        "The error falls as 10 steps pass and a search takes",  # dropped exponent after a digit
        "and a search takes O(n) time on every input we tried",  # dropped exponent, one-letter word
        "The energy E = mc holds and the plate covers",  # dropped exponent after a math symbol
        "holds and the plate covers 5 cm of the surface",  # dropped exponent of a unit after a number
    ],
)
def test_a_changed_marker_or_a_dropped_exponent_is_rejected(raised, quote):
    v = Locator(raised, REC).locate(quote)
    assert not v.accepted, (quote, v.rules)


def test_without_the_markers_rule_the_cause_names_the_marker(raised):
    v = Locator(raised, REC.replace(markers=False)).locate("Large language models are trained on raw web text")
    assert not v.accepted and v.cause == "marker-glued"
    assert "'3'" in v.reason and "'models'" in v.reason


def test_raised_markers_ignore_spans_without_geometry():
    spans = [{"text": "models", "size": 10.0, "origin": (0, 100), "font": "Times"}, {"text": "3", "size": 7.0}]
    assert raised_markers(spans, "models3") == []


# ---------------------------------------------------------------------------------------
# Real papers


def test_nature_citation_ranges():
    loc = corpus_locator("natneuro2011_ephaptic_coupling.pdf")
    base = "is important for information processing in the brain{}. However, such integrative processes"
    for marker, rule in (("", "markers:omitted"), ("1\u20133", None), ("1-3", "markers:kept"), (" [1\u20133]", "markers:kept")):
        v = loc.locate(base.format(marker))
        assert v.accepted and v.page == 1, (marker, v.reason)
        assert rule is None or rule in v.rules
    for marker in ("1\u20134", "2", " [4]"):
        assert not loc.locate(base.format(marker)).accepted, marker


@pytest.mark.parametrize(
    "paper,quote,page",
    [
        ("acl2020_specter.pdf", "Our system, SPECTER, incorporates inter-document context into the Transformer", 1),
        ("emnlp2004_monolingual_mt_paraphrase_msword.pdf",
         "we show that SMT techniques can be extended to paraphrase given sufficient monolingual parallel data. "
         "We show that a huge corpus of comparable and alignable sentence pairs", 1),
        ("pldi2009_tracemonkey.pdf", "and then convert any integer result back to a double. Clearly, a JavaScript VM", 5),
        ("jcap2008_apparent_accelerations.pdf",
         "if the Ehlers–Geren–Sachs theorem [3] and ‘almost EGS theorem’ [4] are invoked, then it seems", 2),
        ("jcap2008_apparent_accelerations.pdf", "Ehlers–Geren–Sachs theorem [3] and ‘almost EGS theorem’ [4] are invoked", 2),
    ],
)
def test_footnote_markers_left_out_on_real_papers(paper, quote, page):
    v = corpus_locator(paper).locate(quote)
    assert v.accepted and v.page == page, v.reason
    assert "markers:omitted" in v.rules or v.status == "exact"  # verbatim when it ends in front of the marker
    off = corpus_locator(paper, REC.replace(markers=False)).locate(quote)
    assert not off.accepted and off.cause == "marker-glued", (off.cause, off.reason)


@pytest.mark.parametrize(
    "paper,quote,cause",
    [
        # a bracketed citation stays verbatim
        ("jcap2008_apparent_accelerations.pdf", "if the Ehlers–Geren–Sachs theorem and ‘almost EGS theorem’ are invoked, then it seems",
         "marker-missing"),
        ("acl2020_specter.pdf", "Our system, SPECTER,3 incorporates inter-document context", None),
        # raised exponents are not markers: dropping one is a fabrication
        ("emnlp2004_monolingual_mt_paraphrase_msword.pdf", "hence populating the lattice takes worst case O(n) time", None),
        ("arxiv2022_strain_sensor_elsarticle.pdf", "are 1131 cmV−1s−1 and 191 cmV−1s−1 for the NMOS and PMOS transistors", None),
    ],
)
def test_marker_and_exponent_fabrications_on_real_papers(paper, quote, cause):
    v = corpus_locator(paper).locate(quote)
    assert not v.accepted, v.rules
    assert cause is None or v.cause == cause, (v.cause, v.reason)


@pytest.mark.parametrize(
    "paper,quote,page",
    [
        ("jcap2008_apparent_accelerations.pdf", "We have calculated qvol in some Lemaître–Tolman models. For those models", 1),
        ("pldi2009_tracemonkey.pdf", "In a naïve implementation, inner loops would become hot first", 2),
        ("acl2020_specter.pdf", "Radim Řehůřek and Petr Sojka. 2010. Software Framework for Topic Modelling", 11),
        ("arxiv2022_strain_sensor_elsarticle.pdf", "Université Catholique de Louvain (UCL), Louvain-la-Neuve", 11),
    ],
)
def test_spacing_accents_on_real_papers(paper, quote, page):
    v = corpus_locator(paper).locate(quote)
    assert v.accepted and v.page == page and "accents" in v.rules, v.reason
    off = corpus_locator(paper, REC.replace(accents=False)).locate(quote)
    assert not off.accepted and off.cause == "accent-split", (off.cause, off.reason)
    unaccented = quote.replace("î", "i").replace("ï", "i").replace("Ř", "R").replace("ů", "u").replace("ř", "r")
    unaccented = unaccented.replace("é", "e")
    assert not corpus_locator(paper).locate(unaccented).accepted


def test_suspended_hyphen_on_a_real_paper():
    loc = corpus_locator("acl2020_specter.pdf")
    faithful = "While successful at many sentence- and token-level tasks, our focus is on using the models"
    v = loc.locate(faithful)
    assert v.accepted and v.page == 8 and "suspended-hyphens" in v.rules, v.reason
    for joined in ("sentenceand token-level tasks", "sentence-and token-level tasks"):
        assert not loc.locate("While successful at many " + joined + ", our focus").accepted
    before = corpus_locator("acl2020_specter.pdf", REC.replace(suspended_hyphens=False))
    assert before.locate("While successful at many sentenceand token-level tasks, our focus").accepted
    assert not before.locate(faithful).accepted


@pytest.mark.parametrize(
    "paper,faithful,fabricated",
    [
        ("arxiv2015_influential_nodes_rotated.pdf", "is an i-th neighbor (i ∈ Z+) of nodes v1, v2, . . . , vr, r ≥ 1, if",
         "is an i-th neighbor (i ∈ Z+) of nodes v1, v2, . . . , vr, r ≥ 2, if"),
        ("jcap2008_apparent_accelerations.pdf", "even if δρ/ρ ≫ 0. In such a case the back-reaction is negligible",
         "even if δρ/ρ ≪ 0. In such a case the back-reaction is negligible"),
    ],
)
def test_math_spacing_on_real_papers(paper, faithful, fabricated):
    loc = corpus_locator(paper)
    v = loc.locate(faithful)
    assert v.accepted and "math-spacing" in v.rules, v.reason
    assert not loc.locate(fabricated).accepted
    assert not corpus_locator(paper, REC.replace(math_spacing=False)).locate(faithful).accepted


def test_cross_flow_cause(v7):
    # the body sentence runs, as extracted, into the footnote that interrupts it
    loc = Locator(v7, REC)
    v = loc.locate("yielding dv-dimensional 4To illustrate why the dot products get large")
    assert not v.accepted and v.cause == "cross-flow", (v.cause, v.reason)


def test_new_causes_are_listed():
    assert {"marker-glued", "accent-split", "cross-flow"} <= set(CAUSES)


# ---------------------------------------------------------------------------------------
# A URL or path broken after its slash at a line end


def test_slash_spacing_removes_only_a_space_right_after_a_slash_inside_a_token():
    from quotelocate.normalize import normalize_text

    on, off = REC.replace(url_spacing=False), REC.replace(slash_spacing=False, url_spacing=False)
    assert normalize_text("see https://github.com/\ntensorflow/tensor2tensor", on) == "see https://github.com/tensorflow/tensor2tensor"
    assert normalize_text("see https://github.com/\ntensorflow/tensor2tensor", off) == "see https://github.com/ tensorflow/tensor2tensor"
    assert normalize_text("a path src/\nmain.c", on) == "a path src/main.c"  # not only in a URL
    for kept in ("either A / B here", "an input/output pair", "/ at the start", "ends with a slash /"):
        assert normalize_text(kept, on) == kept


@pytest.mark.parametrize(
    "paper,quote,page",
    [
        ("1706.03762v7.pdf", "The code we used to train and evaluate our models is available at "
                             "https://github.com/tensorflow/tensor2tensor.", 10),
        ("1706.03762v7.pdf", "The code we used to train and evaluate our models is available at "
                             "https://github.com/ tensorflow/tensor2tensor.", 10),  # the break's space kept
        ("acl2020_specter.pdf", "model released by the authors: https://github.com/UKPLab/sentence-transformers", 13),
        ("natneuro2011_ephaptic_coupling.pdf", "Reprints and permissions information is available online at "
                                               "http://www.nature.com/reprintsandpermissions/.", 6),
    ],
)
def test_a_url_broken_after_its_slash_reads_as_written(paper, quote, page, v7):
    doc = v7 if paper == "1706.03762v7.pdf" else corpus_document(paper)
    v = Locator(doc, REC).locate(quote)
    assert v.accepted and v.page == page, (v.cause, v.reason)
    if " tensorflow" not in quote:
        off = Locator(doc, REC.replace(slash_spacing=False, url_spacing=False)).locate(quote)
        assert not off.accepted and off.cause == "punctuation-differs" and "slash_spacing" in off.reason, off.reason
        # inside a URL, the URL rule alone reads a break after a slash too
        assert Locator(doc, REC.replace(slash_spacing=False)).locate(quote).accepted


@pytest.mark.parametrize(
    "quote",
    [
        "is available at https://github.com/tensorflow/tensor3tensor.",  # another path
        "is available at https://github.com/tensorflowtensor2tensor.",  # the slash left out
        "is available at https://gitlab.com/tensorflow/tensor2tensor.",
    ],
)
def test_a_changed_url_is_rejected(quote, v7):
    assert not Locator(v7, REC).locate(quote).accepted


# ---------------------------------------------------------------------------------------
# A URL broken after a dot (or another character URLs break at) at a line end


def test_url_spacing_removes_only_spaces_inside_urls():
    from quotelocate.normalize import normalize_text

    on, off = REC, REC.replace(url_spacing=False)
    broken = "doi:https://doi.org/10.1016/j.\nmeasurement.2013.03.018.\nURL https://www.sciencedirect.com/"
    assert normalize_text(broken, on) == "doi:https://doi.org/10.1016/j.measurement.2013.03.018. URL https://www.sciencedirect.com/"
    assert normalize_text(broken, off) == "doi:https://doi.org/10.1016/j. measurement.2013.03.018. URL https://www.sciencedirect.com/"
    for kept in (
        "the end of a sentence. The next one",  # no URL: a sentence's space
        "see www. and more",  # "www." alone is a word
        "at example.org. The next",  # no scheme, no www: not known for a URL
        "e.g. https://a.org and then. More",  # the URL ends at a space that follows no break character
        "news at http://uk.newsbot.msn.com. Their clustering",  # a capital starts the next sentence
        "see http://www.mozilla.com. [3] SPECJVM98",  # a bracket, the next reference
    ):
        assert normalize_text(kept, on) == kept, kept
    # a quote and the text agree whether the quote keeps the break's space or not
    assert normalize_text("https://www.nlm.nih.gov/mesh/meshhome. html", on) == normalize_text(
        "https://www.nlm.nih.gov/mesh/meshhome.html", on)


_URL_START = re.compile(r"(?<![\w.+-])(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)")
"""What a URL start is, said as a pattern: the literal searches must find its matches."""
_URL_ALPHABET = ["h", "t", "p", "s", "w", "a", "X", "1", "_", ".", "+", "-", ":", "/", " ", "\n", "\u00e9",
                 "://", "www.", "http", "ftp"]


@given(st.lists(st.sampled_from(_URL_ALPHABET), max_size=12).map("".join))
@settings(max_examples=3000, deadline=None)
def test_url_starts_are_the_patterns_matches(text):
    """The literal searches find the URL starts the pattern defines, match for match:
    a scheme read back from its "://", "www.", neither inside a longer word, and a
    start inside the match before it skipped."""
    from quotelocate.normalize import _url_starts

    assert _url_starts(text) == [(m.start(), m.end()) for m in _URL_START.finditer(text)]


@pytest.mark.parametrize("text", [
    "www.http://a",  # one start, the scheme the pattern tries first
    "xhttp://a _http://b \u00e9http://c 1http://d .http://e",  # inside a word: none
    "http://a?u=https://b www.c",  # inside the URL before it, and after it
    "://a www. https:// ftp+x.y-z://q",
])
def test_url_starts_on_edge_cases(text):
    from quotelocate.normalize import _url_starts

    assert _url_starts(text) == [(m.start(), m.end()) for m in _URL_START.finditer(text)]


@pytest.mark.parametrize(
    "paper,quote,page",
    [
        ("arxiv2022_strain_sensor_elsarticle.pdf",
         "(2013) 2223\u20132231. doi:https://doi.org/10.1016/j.measurement.2013.03.018.", 10),
        ("arxiv2022_strain_sensor_elsarticle.pdf",
         "Sensors and Actuators A: Physical 281 (2018) 156\u2013175. doi:https://doi.org/10.1016/j.sna.2018.07.006.", 10),
        ("pmj2010_iron_deficiency_hpylori.pdf",
         "Vitamin and mineral requirements in human nutrition. "
         "http://whqlibdoc.who.int/publications/2004/9241546123.pdf (accessed 2004).", 7),
        ("pmj2010_iron_deficiency_hpylori.pdf",
         "A guide for programme managers. http://whqlibdoc.who.int/hq/2001/WHO_NHD_01.3.pdf (accessed 2001).", 7),
        ("acl2020_specter.pdf", "https://www.nlm.nih.gov/mesh/meshhome.html", 4),
    ],
)
def test_a_url_broken_after_a_dot_reads_as_written(paper, quote, page):
    doc = corpus_document(paper)
    v = Locator(doc, REC).locate(quote)
    assert v.accepted and v.page == page, (v.cause, v.reason)
    off = Locator(doc, REC.replace(url_spacing=False)).locate(quote)
    assert not off.accepted and off.cause == "punctuation-differs" and "url_spacing" in off.reason, off.reason


@pytest.mark.parametrize(
    "quote",
    [
        "doi:https://doi.org/10.1016/j.measurement.2013.03.019.",  # another number
        "doi:https://doi.org/10.1016/measurement.2013.03.018.",  # the "j." left out
        "doi:https://doi.org/10.1016/j-measurement.2013.03.018.",  # a hyphen for the dot
        "doi:https://doi.org/10.1016/j.sna.2018.07.060.",  # digits swapped
    ],
)
def test_a_changed_url_broken_after_a_dot_is_rejected(quote):
    assert not Locator(corpus_document("arxiv2022_strain_sensor_elsarticle.pdf"), REC).locate(quote).accepted


# ---------------------------------------------------------------------------------------
# A rejection's closest passage that crosses a jump of the reading order


def _real_sets() -> list[dict]:
    """The real-paper quote sets (``datasets/real-corpus``), as parsed YAML."""
    import yaml

    folder = Path(__file__).resolve().parent.parent / "datasets" / "real-corpus"
    return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.yaml"))]


def test_a_near_miss_across_flows_covers_its_pieces_in_text_order():
    """The cross-flow fabrications join body text to a float or another column; the
    closest passage then crosses a jump of the reading order, and its offsets must cover
    every piece (start before end), as an accepted quote's do."""
    checked = 0
    for data in _real_sets():
        doc = corpus_document(data["paper"]["file"])
        locator = Locator(doc, REC)
        for q in data["quotes"]:
            if q["label"] != "fabricated" or "cross-flow" not in q["tags"]:
                continue
            v = locator.locate(q["text"])
            assert not v.accepted, q["id"]
            near = v.near_miss
            if near is None:
                continue
            assert near.start <= near.end, (q["id"], near.start, near.end)
            assert doc.page_at(near.start) == near.page, q["id"]
            checked += 1
    assert checked >= 5


# ---------------------------------------------------------------------------------------
# A rejection whose words all match names the character that differs


@pytest.mark.parametrize(
    "quote,detail",
    [
        # a space added after "doi:"; the quote also joins the line-end hyphen of "Measure-ment"
        ("Measurement 46 (7) (2013) 2223\u20132231. doi: https://doi.org/10.1016/j.measurement.2013.03.018.",
         "nothing in the document, ' ' in the quote"),
        ("Measurement 46 (7) (2013) 2223\u20132231 doi:https://doi.org/10.1016/j.measurement.2013.03.018.",
         "'.' in the document, nothing in the quote"),
    ],
)
def test_a_rejection_whose_words_all_match_names_the_character(quote, detail):
    """The closest passage is read with a few words of context on each side; words of that
    context are not missing from the quote, and a line-end hyphen the text may be read
    without is no difference."""
    v = Locator(corpus_document("arxiv2022_strain_sensor_elsarticle.pdf"), REC).locate(quote)
    assert not v.accepted and v.cause == "punctuation-differs", (v.cause, v.reason)
    assert detail in v.reason and "'-'" not in v.reason and "structures" not in v.reason, v.reason


def test_word_cause_of_a_shorter_window_is_no_missing_word():
    from quotelocate.diagnose import _PUNCT_DETAIL, _word_cause

    assert _word_cause("the quick brown fox", "see the quick brown fox jumps", 95.0) == ("punctuation-differs", _PUNCT_DETAIL)
    assert _word_cause("the quick brown fox", "see the quick, brown fox jumps", 95.0) == (
        "punctuation-differs", "',' in the document, nothing in the quote")
    assert _word_cause("the quick fox", "see the quick brown fox jumps", 95.0)[0] == "word-missing"
    assert _word_cause("the quick red fox", "see the quick brown fox jumps", 95.0)[0] == "word-changed"


@pytest.mark.parametrize(
    "paper,quote,page,detail",
    [
        ("pmj2010_iron_deficiency_hpylori.pdf", "Postgrad Med J 2010;86:272\u2013279.", 1,
         "'278' in the document, '279' in the quote"),
        ("arxiv2015_influential_nodes_rotated.pdf", "arXiv:1504.06263v2 [cs.SI] 24 Apr 2015", 1,
         "'06236v2' in the document, '06263v2' in the quote"),
    ],
)
def test_a_changed_running_header_or_stamp_is_named_on_its_page(paper, quote, page, detail):
    """Furniture is out of the text the quote is searched in; a quote of it with one
    number changed is compared with the furniture lines, and the cause says so."""
    v = Locator(corpus_document(paper), REC).locate(quote)
    assert not v.accepted and v.cause == "number-changed" and v.near_miss.page == page, (v.cause, v.reason)
    assert detail in v.reason and "page furniture" in v.reason, v.reason


# ---------------------------------------------------------------------------------------
# The cause of a rejection names the change a quote made


def _one_change_each():
    """For every faithful quote of the real-paper sets: the quote with its middle
    lower-case word of five letters or more written with a capital, and with it
    replaced by another word; (set file, quote id, kind, changed quote, word, the
    quote as labelled)."""
    out = []
    for data in _real_sets():
        for q in data["quotes"]:
            if q["label"] != "faithful":
                continue
            words = q["text"].split(" ")
            eligible = [k for k, w in enumerate(words) if w.isalpha() and w.islower() and len(w) >= 5]
            if not eligible:
                continue
            k = eligible[len(eligible) // 2]
            for kind, word in (("case-differs", words[k].capitalize()), ("word-changed", "banana")):
                out.append((data["paper"]["file"], q["id"], kind, " ".join(words[:k] + [word] + words[k + 1:]), word,
                            q["text"]))
    return out


def test_a_changed_word_or_case_is_named_as_such():
    changes = _one_change_each()
    wrong, rejected_as_labelled = [], set()
    for paper, qid, kind, quote, word, labelled in changes:
        locator = corpus_locator(paper)
        if not locator.locate(labelled).accepted:  # a false reject already: its own difference comes first
            rejected_as_labelled.add(qid)
            continue
        v = locator.locate(quote)
        if v.accepted or v.cause != kind or f"'{word}' in the quote" not in v.reason:
            wrong.append((qid, kind, v.cause, v.reason[:120]))
    assert len(changes) >= 400 and len(rejected_as_labelled) <= 2, rejected_as_labelled
    assert not wrong, wrong
