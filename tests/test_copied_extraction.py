"""A quote that copies the extracted text as it stands is accepted: whatever the rules
read into the text (markers left out, glyphs read as drawn, reading order, word gaps),
the text layer a pipeline shows a model stays a faithful source.

On every corpus paper and v7, windows of three body lines that follow each other on a
page, in the text as extracted (line breaks, soft hyphens, glued markers, mis-mapped
glyphs and all), starting and ending at a word's edge. A line of one character (a drop
cap, a lone glyph of a formula) is where the reading order rightly joins what
extraction split, so windows touching one are left out.
"""

from __future__ import annotations

import pytest

from quotelocate import Locator, preset
from quotelocate.layout import classify
from test_paper_rules import CORPUS, corpus_document

REC = preset("recommended")
CORPUS.setdefault("pmj2010_iron_deficiency_hpylori.pdf",
                  "19d45f9b1da55343c4a736b278d8696b046735dd853cb3569bfb9a0e9222c5b6")
CORPUS.setdefault("ieee_tcsvt1997_disk_storage_scalable_video.pdf",
                  "adf84a934d658312d784115ca34f26dc30f8ea834004c7e93c2cdd5df5d382dd")
CORPUS.setdefault("clef2008_ave_answer_validation_msword.pdf",
                  "c02abe5da7005d7618e630e6116fe152746dc55edcd02a6be5c9cf575c6477b3")
HYPHENS = "-\u00ad\u2010"


def _windows(doc):
    roles, lines, text = classify(doc), doc.lines, doc.text
    body = ["body" in str(r) for r in roles]
    shown = [text[line.start : line.end].strip() for line in lines]
    out = []
    for i in range(1, len(lines) - 2):
        group = range(i - 1, i + 3)
        if not all(body[j] for j in group) or len({lines[j].page for j in group}) != 1:
            continue
        if any(len(shown[j]) <= 1 for j in group) or shown[i - 1][-1:] in HYPHENS:
            continue
        a, b = lines[i], lines[i + 2]
        if not (a.bbox[1] < lines[i + 1].bbox[1] < b.bbox[1]) or abs(a.bbox[0] - b.bbox[0]) > 40:
            continue  # three lines of one column, top to bottom
        quote = text[a.start : b.end].strip()
        if quote[-1:] in HYPHENS or not (quote[:1].isalnum() or quote[:1] in "([\u201c\"'"):
            continue
        out.append((a.page, quote))
    return out


@pytest.mark.parametrize("name", [*sorted(CORPUS), "1706.03762v7.pdf"])
def test_three_body_lines_copied_as_extracted_are_accepted(name, v7):
    doc = v7 if name == "1706.03762v7.pdf" else corpus_document(name)
    loc = Locator(doc, REC)
    windows = _windows(doc)
    assert len(windows) >= 40, len(windows)  # the paper has running text to copy
    rejected = [(page, quote[:80], v.cause) for page, quote in windows if not (v := loc.locate(quote)).accepted]
    assert rejected == []
