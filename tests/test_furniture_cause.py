"""Text that layout sets aside as page furniture (a running header, a margin stamp) is
still text of the paper: a quote lying within one furniture line is accepted there, with
the furniture rule recorded; a quote that starts or ends inside a word of it is rejected
as ``page-furniture`` with its page, not as having no similar passage; invented text is
unaffected. Checked on two papers whose furniture is of different kinds (a vertical
arXiv stamp; a journal's running header)."""

from __future__ import annotations


import pytest

from quotelocate import Document, Locator, preset
from quotelocate.data.papers import papers_search_path

PAPERS = {"v7": "1706.03762v7.pdf", "jcap": "jcap2008_apparent_accelerations.pdf",
          "pmj": "pmj2010_iron_deficiency_hpylori.pdf"}


def paper(name: str) -> Document:
    for folder in papers_search_path(None):
        for path in (folder / PAPERS[name], folder / "corpus" / PAPERS[name]):
            if path.is_file():
                return Document.open(path)
    pytest.fail(f"{PAPERS[name]} is not on the papers search path (QUOTELOCATE_PAPERS)")


@pytest.fixture(scope="module")
def docs():
    return {name: paper(name) for name in PAPERS}


@pytest.mark.parametrize("name, quote, page", [
    ("v7", "arXiv:1706.03762v7 [cs.CL] 2 Aug 2023", 1),
    ("jcap", "Journal of Cosmology and Astroparticle Physics 10 (2008) 003", 2),
])
def test_a_quote_of_one_furniture_line_is_accepted_there(docs, name, quote, page):
    verdict = Locator(docs[name], preset("recommended")).locate(quote)
    assert verdict.accepted, (verdict.cause, verdict.reason)
    assert verdict.pages[0] == page and verdict.status in ("exact", "normalized")
    assert verdict.status == "exact" or "furniture" in verdict.rules
    found = docs[name].text[verdict.start : verdict.end]
    assert " ".join(found.split()) == quote  # the line itself, up to its spacing


@pytest.mark.parametrize("name, quote, page", [
    ("v7", "rXiv:1706.03762v7 [cs.CL] 2 Aug 2023", 1),
    ("jcap", "Physics 10 (2008) 003 (stacks.iop.org/JCAP/2008/i=10/a=00", 2),
])
def test_part_of_a_word_of_furniture_is_reported_with_its_page(docs, name, quote, page):
    verdict = Locator(docs[name], preset("recommended")).locate(quote)
    assert not verdict.accepted
    assert verdict.cause == "page-furniture", (verdict.cause, verdict.reason)
    assert f"page {page}" in verdict.reason and "no similar passage" not in verdict.reason


def test_a_quote_running_from_body_text_into_furniture_is_rejected(docs):
    v7 = docs["v7"]
    loc = Locator(v7, preset("recommended"))
    stamp = loc.locate("arXiv:1706.03762v7 [cs.CL] 2 Aug 2023")
    before = " ".join(v7.text[max(0, stamp.start - 40) : stamp.start].split()[-3:])  # what extraction puts first
    assert not loc.locate(f"{before} arXiv:1706.03762v7").accepted


def test_under_exact_the_same_text_is_accepted_and_invented_text_is_not_furniture(docs):
    v7 = docs["v7"]
    assert Locator(v7, preset("exact")).locate("arXiv:1706.03762v7  [cs.CL]  2 Aug 2023").accepted  # as extracted
    invented = Locator(v7, preset("recommended")).locate("arXiv:1706.03762v9 [cs.CL] 2 Aug 2023")
    assert not invented.accepted and invented.cause != "page-furniture"


def test_a_furniture_line_is_read_with_the_glyphs_its_font_draws(docs):
    """The BMJ running footer's page range is set with a one-glyph font whose dash
    extracts as the letter "e": the line is read as printed, so the footer quoted with
    its en dash is accepted and a changed page number is not."""
    loc = Locator(docs["pmj"], preset("recommended"))
    v = loc.locate("Postgrad Med J 2010;86:272\u2013278.")
    assert v.accepted and {"furniture", "unicode"} <= set(v.rules), (v.cause, v.reason)
    assert not loc.locate("Postgrad Med J 2010;86:272\u2013279.").accepted
