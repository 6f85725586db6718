"""Reading order where a page puts something beside the running text that is not part of
it, on real papers of the corpus (``corpus/`` on the papers search path):

- a caption set beside its figure at the top of the page, whose label ("Figure 2") sits
  at the same place on every page that has a top figure;
- a shaded panel ("Main messages") at the foot of one column and another at the top of
  the next;
- a table whose rows the producer put in one block with the paragraph after it;
- a caption at the foot of a column, under a page whose last footnote did not end a
  sentence;
- a reference list whose short entries are stacked with long ones, across a page break.

For each: the sentence that runs across the float reads as one (accepted), and a splice
of the running text with the float's text, which the extraction order used to make
contiguous, stays rejected. The papers are found by file name; a missing paper fails the
test with the path to set, it is never skipped.
"""

from __future__ import annotations

import pytest
from conftest import document, locator

from quotelocate.layout import BODY, CAPTION, FLOAT, FURNITURE, classify

PMJ = "pmj2010_iron_deficiency_hpylori.pdf"
CLEF = "clef2008_ave_answer_validation_msword.pdf"
STRAIN = "arxiv2022_strain_sensor_elsarticle.pdf"
JCAP = "jcap2008_apparent_accelerations.pdf"

ACROSS = [
    # (paper, passage as a reader reads it, what the extraction order puts in between)
    (PMJ, "Seven of the eight RCTs provided data on changes in Hb, showing these changes to be higher in the "
          "intervention groups than in the control groups. The WMD of Hb concentrations from these seven studies "
          "was 12.88 g/l (95% CI 6.03 to 19.74 g/l, p<0.00001).",
     "a caption beside a top figure, its label alone on a line that recurs at the page top"),
    (PMJ, "It turned out that the 8 week iron supplement group had a much better response than the 4 week group.",
     "a shaded panel at the foot of the first column and one at the top of the second"),
    (CLEF, "In the following, we will first show the table of the results and then present an error analysis. "
           "In the table, we notice that both for English and German, our validation system outperforms the best "
           "QA systems, which suggests the necessity of the validation step.",
     "a table whose rows share a block with the paragraph after it"),
    (STRAIN, "Figure 1: Illustration of the transistors orientations along <110> directions on a (100) silicon wafer.",
     "nothing: a caption's last line at a column foot, under a page whose footnote did not end a sentence"),
    (JCAP, "[24] Räsänen S, 2004 J. Cosmol. Astropart. Phys. JCAP11(2004)010 [SPIRES] "
           "[25] Wiltshire D L, 2007 New J. Phys. 9 377",
     "a page break in a reference list whose short entries are stacked with long ones"),
]

SPLICES = [
    # (paper, running text joined to the float's text, which float)
    (PMJ, "than in the control groups. The WMD of Hb concentrations Treatment effect and underlying connection "
          "between H pylori and IDA.",
     "the column's last line joined to the side caption"),
    (PMJ, "had a much better response than Main messages",
     "the column's last line joined to the panel under it"),
    (PMJ, "inhibitor based triple therapy Current research questions",
     "one panel joined to the other"),
    (CLEF, "then present an error analysis. Submission Recall Precision F-measure",
     "the paragraph joined to the table's header row"),
    (STRAIN, "Preprint submitted to Sensors and Actuators A: Physical February 1, 2022 a (100) silicon wafer.",
     "the previous page's footnote joined to the caption's last line"),
    (JCAP, "[24] Räsänen S, 2004 J. Cosmol. Astropart. Phys. JCAP11(2004)010 [SPIRES] "
           "Wiltshire D L, 2007 Phys. Rev. Lett. 99 251101",
     "a reference entry skipped across the page break"),
]


@pytest.mark.parametrize("name, quote, between", ACROSS, ids=[c[2][:40] for c in ACROSS])
def test_passage_across_the_float_is_accepted(name, quote, between):
    v = locator(name).locate(quote)
    assert v.accepted, f"{name}: {between}: {v.status} {v.cause}"


@pytest.mark.parametrize("name, quote, what", SPLICES, ids=[c[2][:40] for c in SPLICES])
def test_splice_with_the_float_stays_rejected(name, quote, what):
    v = locator(name).locate(quote)
    assert not v.accepted, f"{name}: {what} was accepted: {v.status}"


def _roles_of(name: str, page: int, starts: str) -> list:
    doc = document(name)
    roles = classify(doc)
    found = [roles[k] for k, ln in enumerate(doc.lines)
             if ln.page == page and doc.text[ln.start : ln.end].strip().startswith(starts)]
    assert found, f"{name}: no line on page {page} starts with {starts!r}"
    return found


@pytest.mark.parametrize("page, label", [(3, "Figure 2"), (4, "Figure 3"), (5, "Figure 4")])
def test_recurring_caption_label_is_a_caption_not_a_running_head(page, label):
    (role,) = _roles_of(PMJ, page, label)
    assert role.kind == CAPTION
    assert role.kind != FURNITURE


def test_panels_are_floats_each_in_its_own_flow():
    (main,) = _roles_of(PMJ, 6, "Main messages")
    (questions,) = _roles_of(PMJ, 6, "Current research questions")
    assert main.kind == FLOAT and questions.kind == FLOAT
    assert main.flow != questions.flow
    # the reference list at the foot of the second column is set apart by a gap and in
    # another size too, but flush with the column's right edge: it stays body text
    (references,) = _roles_of(PMJ, 6, "REFERENCES")
    assert references.kind == BODY


def test_table_header_rows_are_part_of_the_table():
    for cell in ("Submission", "Recall", "F-measure", "Estimated QA"):
        (role,) = _roles_of(CLEF, 4, cell)
        assert role.kind == FLOAT, cell


def test_short_reference_entries_are_body_text():
    for entry in ("[25] Wiltshire D L", "Cambridge University Press)"):
        (role,) = _roles_of(JCAP, 15, entry)
        assert role.kind == BODY, entry
