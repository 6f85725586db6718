"""Layout-aware reading order (quotelocate.layout) and the locator with ``layout=True``.

Papers come from ``$QUOTELOCATE_PAPERS`` (default ``../shared/papers``). A small
two-column PDF with a footnote, a figure, running headers and page numbers is drawn
with pymupdf into ``tmp_path`` so the two-column checks never depend on other files;
the committed synthetic paper is checked too when it is there.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pymupdf
import pytest

from quotelocate import Document, Locator, preset
from quotelocate.layout import BLANK, BODY, CAPTION, FLOAT, FOOTNOTE, FURNITURE, classify, flows, reading_order
from quotelocate.normalize import BARRIER, LAYOUT

from conftest import document, locator

ROOT = Path(__file__).resolve().parents[1]
SYNTHETIC = ROOT / "datasets" / "synthetic" / "synthetic.pdf"
V5, V7 = "1706.03762v5.pdf", "1706.03762v7.pdf"
LAYOUT_ON = preset("recommended")  # layout is part of the recommended preset
LAYOUT_OFF = preset("recommended").replace(layout=False)


def on(name: str) -> Locator:
    return locator(name, LAYOUT_ON)


def off(name: str) -> Locator:
    return locator(name, LAYOUT_OFF)


# ---------------------------------------------------------------------------------------
# Cases as data

# Body sentences that cross a page break with a float or footnote in between: accepted
# with layout on (as two spans, one per page), rejected with layout off.
CROSS_PAGE = [
    pytest.param(
        V7,
        "An attention function can be described as mapping a query and a set of key-value pairs "
        "to an output, where the query, keys, values, and output are all vectors. The output is "
        "computed as a weighted sum of the values, where the weight assigned to each value is "
        "computed by a compatibility function of the query with the corresponding key.",
        (3, 4),
        id="v7-p3-4-over-figure-2",
    ),
    pytest.param(
        V7,
        "On each of these projected versions of queries, keys and values we then perform the "
        "attention function in parallel, yielding dv-dimensional output values.",
        (4, 5),
        id="v7-p4-5-over-footnote-4",
    ),
    pytest.param(
        V7,
        "To evaluate the importance of different components of the Transformer, we varied our base "
        "model in different ways, measuring the change in performance on English-to-German "
        "translation on the development set, newstest2013.",
        (8, 9),
        id="v7-p8-9-over-footnote-5-and-table-3",
    ),
    pytest.param(
        V5,
        "Since our model contains no recurrence and no convolution, in order for the model to make "
        "use of the order of the sequence, we must inject some information about the relative or "
        "absolute position of the tokens in the sequence.",
        (5, 6),
        id="v5-p5-6-over-table-1",
    ),
]

# Sentences over a page break with only the page number between: accepted either way.
PAGE_NUMBER_ONLY = [
    pytest.param(
        V7,
        "In terms of computational complexity, self-attention layers are faster than recurrent layers "
        "when the sequence length n is smaller than the representation dimensionality d",
        (6, 7),
        id="v7-p6-7",
    ),
    pytest.param(
        V5,
        "To improve computational performance for tasks involving very long sequences, self-attention "
        "could be restricted to considering only a neighborhood of size r in the input sequence "
        "centered around the respective output position.",
        (6, 7),
        id="v5-p6-7",
    ),
    pytest.param(
        V5,
        "This task presents specific challenges: the output is subject to strong structural constraints "
        "and is significantly longer than the input.",
        (9, 10),
        id="v5-p9-10-ligatures",
    ),
]

# Body text joined to the footnote, caption or table that interrupts it.
CROSS_FLOW = [
    pytest.param(V7, "computed as a weighted sum Scaled Dot-Product Attention", id="v7-body-to-figure-label"),
    pytest.param(V7, "on English-to-German translation on the 5We used values", id="v7-body-to-footnote-5"),
    pytest.param(V7, "yielding dv-dimensional 4To illustrate why the dot products get large", id="v7-body-to-footnote-4"),
    pytest.param(V7, "attention layers running in parallel. of the values, where the weight", id="v7-caption-to-body"),
    pytest.param(V7, "and should not be compared to per-word perplexities. N dmodel dff", id="v7-caption-to-table"),
    pytest.param(V5, "absolute position of the Table 1: Maximum path lengths", id="v5-body-to-caption"),
    pytest.param(V5, "minimum number of sequential operations for different layer types. n is the sequence length, "
                 "d is the representation dimension, k is the kernel size of convolutions and r the size of "
                 "the neighborhood in restricted self-attention. Layer Type", id="v5-caption-to-table"),
]

# Text of one footnote, caption or table alone: still found with layout on.
INSIDE_FLOW = [
    pytest.param(V7, "assume that the components of q and k are independent random variables with mean 0 and variance 1.", id="v7-footnote-4-middle"),
    pytest.param(V7, "To illustrate why the dot products get large, assume that the components of q and k are independent random variables", id="v7-footnote-4-start-after-raised-marker"),
    pytest.param(V7, "We used values of 2.8, 3.7, 6.0 and 9.5 TFLOPS for K80, K40, M40 and P100, respectively.", id="v7-footnote-5"),
    pytest.param(V7, "Equal contribution. Listing order is random.", id="v7-footnote-star"),
    pytest.param(V7, "Figure 2: (left) Scaled Dot-Product Attention. (right) Multi-Head Attention consists of several attention layers running in parallel.", id="v7-figure-2-caption"),
    pytest.param(V7, "Variations on the Transformer architecture. Unlisted values are identical to those of the base model.", id="v7-table-3-caption"),
    pytest.param(V7, "positional embedding instead of sinusoids", id="v7-table-3-cell"),
    pytest.param(V5, "Maximum path lengths, per-layer complexity and minimum number of sequential operations for different layer types.", id="v5-table-1-caption"),
]

# (paper, page, line text, kind): what the classifier must call some lines.
ROLES = [
    (V7, 1, "arXiv:1706.03762v7  [cs.CL]  2 Aug 2023", FURNITURE),
    (V7, 3, "3", FURNITURE),
    (V7, 4, "Scaled Dot-Product Attention", FLOAT),
    (V7, 4, "Multi-Head Attention", FLOAT),
    (V7, 4, "attention layers running in parallel.", CAPTION),
    (V7, 4, "i=1 qiki, has mean 0 and variance dk.", FOOTNOTE),
    (V7, 4, "3.2.1", BODY),
    (V7, 4, "1", BODY),  # the superscript of 1/sqrt(dk) sits inside running text
    (V7, 8, "5We used values of 2.8, 3.7, 6.0 and 9.5 TFLOPS for K80, K40, M40 and P100, respectively.", FOOTNOTE),
    (V7, 9, "positional embedding instead of sinusoids", FLOAT),
    (V7, 9, "development set, newstest2013. We used beam search as described in the previous section, but no", BODY),
    (V7, 2, "1", BODY),  # section number "1 Introduction" at the top of a page is no page number
    (V5, 1, "arXiv:1706.03762v5  [cs.CL]  6 Dec 2017", FURNITURE),
    (V5, 6, "O(n/r)", FLOAT),
]


# ---------------------------------------------------------------------------------------
# The offset map


def _check_map(doc: Document) -> None:
    n = reading_order(doc)
    text, starts, ends, flags, gaps = n.text, n.starts, n.ends, n.flags, n.gaps
    assert len(starts) == len(ends) == len(flags) == len(text) and len(gaps) == len(text) + 1
    seen: Counter = Counter()
    for i, ch in enumerate(text):
        if flags[i] & LAYOUT:  # an inserted separator: empty span, no original text
            assert starts[i] == ends[i], i
            assert ch.isspace() or ch == BARRIER
            continue
        assert flags[i] == 0
        assert doc.text[starts[i] : ends[i]] == ch, (i, ch)
        seen[starts[i]] += 1
    assert not [k for k, v in seen.items() if v > 1], "an original character is read twice"
    # a LAYOUT gap exactly where the next piece does not continue the previous one
    prev_end = None
    for i in range(len(text)):
        if text[i] == BARRIER:
            prev_end = None  # a new flow starts: its first character may carry a gap
        if flags[i] & LAYOUT:
            continue
        continues = prev_end is not None and (
            starts[i] == prev_end or (starts[i] > prev_end and doc.text[prev_end : starts[i]].isspace())
        )
        if prev_end is not None:
            assert bool(gaps[i] & LAYOUT) != continues, (i, text[max(0, i - 20) : i + 20])
        prev_end = ends[i]
    # every line that is not furniture is read, in full, exactly once
    roles = classify(doc)
    for line, role in zip(doc.lines, roles):
        if role.kind == BLANK:
            continue
        for k in range(line.start, line.end):
            expected = 0 if role.kind == FURNITURE else 1
            assert seen[k] == expected, (role, doc.text[line.start : line.end])
    # flows are fenced by barriers
    assert text.count(BARRIER) == len(flows(doc)) - 1


@pytest.mark.parametrize("name", [V7, V5])
def test_offset_map_of_paper(name: str) -> None:
    _check_map(document(name))


def test_offset_map_of_drawn_paper(drawn: Document) -> None:
    _check_map(drawn)


def test_text_documents_are_unchanged() -> None:
    doc = Document.from_text("One line.\nTwo lines.")
    n = reading_order(doc)
    assert n.text == doc.text and n.starts == list(range(len(doc.text)))


# ---------------------------------------------------------------------------------------
# The papers


@pytest.mark.parametrize("name,quote,pages", CROSS_PAGE)
def test_sentence_over_page_break_and_float(name: str, quote: str, pages: tuple[int, int]) -> None:
    v = on(name).locate(quote)
    assert v.accepted, v.reason
    assert v.pages == pages
    assert len(v.spans) >= 2
    assert {b.page for b in v.boxes} == set(pages)
    assert "layout" in v.rules
    # every span is real text of the paper, in order of reading
    text = document(name).text
    pieces = " ".join(" ".join(text[s:e].split()) for s, e in v.spans)
    assert pieces.replace("- ", "-").startswith(quote.split()[0])
    assert not off(name).locate(quote).accepted


@pytest.mark.parametrize("name,quote,pages", PAGE_NUMBER_ONLY)
def test_sentence_over_page_number(name: str, quote: str, pages: tuple[int, int]) -> None:
    v = on(name).locate(quote)
    assert v.accepted, v.reason
    assert v.pages == pages and {b.page for b in v.boxes} == set(pages)
    assert off(name).locate(quote).accepted


@pytest.mark.parametrize("name,quote", CROSS_FLOW)
def test_body_joined_to_interrupting_flow_is_rejected_with_layout_on(name: str, quote: str) -> None:
    assert not on(name).locate(quote).accepted


@pytest.mark.parametrize(
    "name,quote",
    [
        pytest.param(
            *p.values,
            id=p.id,
            marks=pytest.mark.xfail(
                strict=True,
                reason="layout off reads pymupdf's order, where the interrupting flow follows the body line",
            ),
        )
        for p in CROSS_FLOW
    ],
)
def test_body_joined_to_interrupting_flow_with_layout_off(name: str, quote: str) -> None:
    assert not off(name).locate(quote).accepted


@pytest.mark.parametrize("name,quote", INSIDE_FLOW)
def test_quote_inside_one_footnote_or_float_is_accepted(name: str, quote: str) -> None:
    v = on(name).locate(quote)
    assert v.accepted, v.reason
    assert len(v.spans) == 1


@pytest.mark.parametrize("name,page,text,kind", ROLES, ids=[f"{r[0][10:12]}-p{r[1]}-{r[2][:20]}" for r in ROLES])
def test_roles(name: str, page: int, text: str, kind: str) -> None:
    doc = document(name)
    roles = classify(doc)
    found = [roles[i].kind for i, ln in enumerate(doc.lines) if ln.page == page and doc.text[ln.start : ln.end] == text]
    assert found, f"no line {text!r} on page {page}"
    assert kind in found


@pytest.mark.parametrize("name", [V7, V5])
def test_page_numbers_and_stamp_are_not_read(name: str) -> None:
    doc = document(name)
    n = reading_order(doc)
    assert "arXiv:1706.03762" not in n.text
    read = set(n.starts)
    heights = {p.number: p.height for p in doc.pages}
    numbers = [
        ln for ln in doc.lines
        if doc.text[ln.start : ln.end] == str(ln.page) and ln.bbox[1] > 0.9 * heights[ln.page]
    ]
    assert len(numbers) >= len(doc.pages) - 1
    assert not [ln for ln in numbers if ln.start in read]


def _model_quote(raw: str, words: set[str]) -> str:
    """How a model writes a passage it copied: hyphens at line ends joined (dropped when
    the joined word occurs elsewhere), ligatures and curly quotes folded, one space."""

    def join(m: re.Match) -> str:
        a, b = m.group(1), m.group(2)
        return a + b if (a + b).lower() in words else a + "-" + b

    text = re.sub(r"(\w+)-\n(\w+)", join, raw)
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u2018", "'").replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.split())


def _body_sentences(doc: Document, count: int, seed: int) -> list[str]:
    """Random sentences of running text, found without quotelocate.layout: lines in the
    dominant font size, read in extraction order within one page, broken at any other
    line; sentences that start with a capital, end with a full stop, have 8-60 words
    that are mostly words, and are no caption."""
    weight: Counter = Counter()
    for ln in doc.lines:
        weight[round(ln.size, 1)] += ln.end - ln.start
    size = weight.most_common(1)[0][0]
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", doc.text)}
    runs: list[str] = []
    current: list[str] = []
    prev_page = None
    for ln in doc.lines:
        text = doc.text[ln.start : ln.end]
        body = ln.direction[0] > 0.99 and abs(ln.size - size) <= 0.05 * size and not text.strip().isdigit()
        if not body or ln.page != prev_page:
            if current:
                runs.append("\n".join(current))
            current = []
        if body:
            current.append(text)
        prev_page = ln.page
    if current:
        runs.append("\n".join(current))
    sentences = []
    for run in runs:
        for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", _model_quote(run, words)):
            tokens = s.split()
            wordy = sum(1 for t in tokens if re.fullmatch(r"[^\W\d_]+[,.;:]?", t))
            if (
                8 <= len(tokens) <= 60
                and s[0].isupper()
                and s.endswith(".")
                and wordy >= 0.8 * len(tokens)
                and not re.match(r"(Figure|Table)\s+\d+:", s)
            ):
                sentences.append(s)
    return random.Random(seed).sample(sentences, min(count, len(sentences)))


@pytest.mark.parametrize("name", [V7, V5])
def test_layout_loses_no_ordinary_body_sentence(name: str) -> None:
    sample = _body_sentences(document(name), 50, seed=1706)
    assert len(sample) == 50
    accepted_on = [s for s in sample if on(name).locate(s).accepted]
    accepted_off = [s for s in sample if off(name).locate(s).accepted]
    assert len(accepted_off) >= 45, "the sample is not ordinary body text"
    assert len(accepted_on) >= len(accepted_off), sorted(set(accepted_off) - set(accepted_on))


# ---------------------------------------------------------------------------------------
# A drawn two-column paper

PAGE_W, PAGE_H = 612.0, 792.0
HEADER = "Layout Test Paper (draft)"
LEFT = (72.0, 294.0)
RIGHT = (318.0, 540.0)
SINGLE = (72.0, 540.0)
LEADING = 13.0

COLUMN_TEXT = (
    "Harbour pilots keep a logbook of every crossing they make in fog. The logbook records the "
    "hour of departure, the visibility at the outer buoy and the time the pilot boat returned. "
    "Over twelve winters these records show that crossings after midnight took longer than those "
    "before it, even when the visibility was the same. We think the reason is fatigue rather than "
    "weather, because the delay grows with the number of crossings already made that night. "
    "A second logbook kept by the tug crews points the same way. When the tug masters changed "
    "shifts at midnight, the delay vanished for the first two crossings and then slowly returned. "
    "The pattern held in every harbour we looked at, from the narrow inlets of the north coast to "
    "the wide estuaries in the south, and it held for small boats as well as for large ones. "
    "Shorter shifts would therefore shorten crossings, which matters most on the busiest nights "
    "of the year. Harbour offices could test this cheaply by moving the change of shift to an "
    "earlier hour for one winter and comparing the logbooks afterwards. "
    "Such a trial needs no new equipment and no new staff, only a change in the rota that the "
    "office already publishes every month, and the pilots we asked were glad to take part in it. "
    "The last winter of records ends with a storm that closed the harbour for three whole days."
)
PAGE2_TEXT = (
    "Fog is not the only cause of delay. Strong ebb currents at the harbour mouth slow a boat "
    "that leaves against them, and the tide tables printed for the pilots give the strength of "
    "the current for every hour of the day. We matched each crossing to the current at its hour "
    "of departure and found that the ebb explains about a third of the delay on nights with a "
    "spring tide. The rest remains with fatigue, as the first part of this note argued. A table "
    "of the current strength for the four harbours is given in the appendix, and the method for "
    "matching crossings to the tide is the one used by the port authority itself. The tide tables "
    "for the winter months are printed in a separate booklet that every pilot carries aboard. "
    "Crossings made against a strong ebb current also used more fuel, and the engine logs of the "
    "pilot boats recorded the extra fuel burned on those nights with great care. The fuel records "
    "agree with the logbooks of the pilots on almost every night of the twelve winters, which "
    "gives us some confidence that the logbooks were kept honestly and without much guesswork "
    "about the hour, although the crews were often tired and the cabins of the pilot boats were "
    "cold and badly lit. The duty officers at the harbour office checked each logbook entry "
    "against the radio log every morning, and corrected the few entries that were out of "
    "order. The logbooks of the largest harbour were kept on paper until the ninth winter, when "
    "the office replaced them with a simple terminal in the watch room. Pilots who crossed "
    "against the ebb on a foggy night near the end of a long shift took the longest time of all, "
    "and these crossings account for almost every delay of more than an hour in the records."
)
FOOTNOTE_TEXT = (
    "The port authority publishes its method in the yearly handbook for harbour masters, "
    "chapter four."
)
CAPTION_TEXT = "Figure 1: Crossing time against the hour of departure, one point per crossing."
PAGE3_TEXT = "The figure shows every crossing of the last four winters. Later departures sit higher."


def _wrap(text: str, width: float, size: float = 10.0) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and pymupdf.get_text_length(trial, fontname="helv", fontsize=size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def _furniture(page: pymupdf.Page, number: int) -> None:
    page.insert_text((72, 40), HEADER, fontsize=8, fontname="helv")
    page.insert_text((PAGE_W / 2 - 3, 760), str(number), fontsize=9, fontname="helv")


def _draw(path: Path) -> dict:
    """Draw the test paper; return the body lines of page 1 per column and page 2's last
    body line, for the tests to build quotes from."""
    pdf = pymupdf.open()
    # page 1: two columns, drawn row by row so pymupdf's order interleaves them
    page = pdf.new_page(width=PAGE_W, height=PAGE_H)
    _furniture(page, 1)
    page.insert_text((72, 80), "Fatigue and Fog in Harbour Pilotage", fontsize=16, fontname="helv")
    lines = _wrap(COLUMN_TEXT, LEFT[1] - LEFT[0])
    half = (len(lines) + 1) // 2
    left, right = lines[:half], lines[half:]
    for k in range(half):
        y = 120 + k * LEADING
        page.insert_text((LEFT[0], y), left[k], fontsize=10, fontname="helv")
        if k < len(right):
            page.insert_text((RIGHT[0], y), right[k], fontsize=10, fontname="helv")
    # page 2: one column, a sentence running onto page 3, a footnote with a raised marker
    page = pdf.new_page(width=PAGE_W, height=PAGE_H)
    _furniture(page, 2)
    body2 = _wrap(PAGE2_TEXT, SINGLE[1] - SINGLE[0])
    cut = len(body2) - 2  # the last two lines go to page 3, after the figure
    for k, line in enumerate(body2[:cut]):
        page.insert_text((72, 80 + k * LEADING), line, fontsize=10, fontname="helv")
    page.insert_text((72, 690), "1", fontsize=6, fontname="helv")  # raised marker
    for k, line in enumerate(_wrap(FOOTNOTE_TEXT, 460, size=8)):
        page.insert_text((75.5 if k == 0 else 72, 694 + k * 10), line, fontsize=8, fontname="helv")
    # page 3: a figure with labels and a caption first, then the rest of the sentence
    page = pdf.new_page(width=PAGE_W, height=PAGE_H)
    _furniture(page, 3)
    page.insert_text((120, 80), "Crossing time", fontsize=10, fontname="helv")
    page.insert_text((380, 80), "Hour of departure", fontsize=10, fontname="helv")
    page.draw_rect(pymupdf.Rect(110, 90, 500, 220), color=(0, 0, 0))
    page.insert_text((72, 240), CAPTION_TEXT, fontsize=10, fontname="helv")
    for k, line in enumerate(body2[cut:] + _wrap(PAGE3_TEXT, SINGLE[1] - SINGLE[0])):
        page.insert_text((72, 270 + k * LEADING), line, fontsize=10, fontname="helv")
    pdf.save(path)
    return {"left": left, "right": right, "page2": body2[:cut], "page3": body2[cut:]}


@pytest.fixture(scope="module")
def drawn_paper(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, dict]:
    path = tmp_path_factory.mktemp("layout") / "two-column.pdf"
    info = _draw(path)
    return Document.open(path), info


@pytest.fixture(scope="module")
def drawn(drawn_paper: tuple[Document, dict]) -> Document:
    return drawn_paper[0]


def _sentence_across(lines_a: list[str], lines_b: list[str]) -> str:
    """The last sentence that starts in ``lines_a`` and ends in ``lines_b``."""
    a, b = " ".join(lines_a), " ".join(lines_b)
    stop = a.rfind(". ")
    start = stop + 2 if stop >= 0 else 0
    end = b.find(". ") + 1 or len(b)
    return a[start:] + " " + b[:end]


def test_drawn_paper_is_read_in_column_order(drawn_paper: tuple[Document, dict]) -> None:
    doc, info = drawn_paper
    left, right = info["left"], info["right"]
    quote = _sentence_across(left, right)  # runs from the left column into the right one
    assert len(quote.split()) >= 8
    v = Locator(doc, LAYOUT_ON).locate(quote)
    assert v.accepted, v.reason
    assert v.pages == (1,)
    assert {b.x0 < PAGE_W / 2 for b in v.boxes} == {True, False}, "boxes in both columns"
    # pymupdf's own order interleaves the columns line by line
    assert not Locator(doc, LAYOUT_OFF).locate(quote).accepted


def test_drawn_paper_same_row_of_both_columns_is_rejected(drawn_paper: tuple[Document, dict]) -> None:
    doc, info = drawn_paper
    for k in (0, 3, 6):
        quote = info["left"][k] + " " + info["right"][k]
        assert not Locator(doc, LAYOUT_ON).locate(quote).accepted, quote
        # in pymupdf's order the two halves of a row are neighbours
        assert Locator(doc, LAYOUT_OFF).locate(quote).accepted, quote


def test_drawn_paper_sentence_over_footnote_figure_and_page_break(drawn_paper: tuple[Document, dict]) -> None:
    doc, info = drawn_paper
    quote = _sentence_across(info["page2"], info["page3"])
    v = Locator(doc, LAYOUT_ON).locate(quote)
    assert v.accepted, v.reason
    assert v.pages == (2, 3) and len(v.spans) == 2
    assert {b.page for b in v.boxes} == {2, 3}
    assert not Locator(doc, LAYOUT_OFF).locate(quote).accepted


def test_drawn_paper_flows(drawn: Document) -> None:
    loc = Locator(drawn, LAYOUT_ON)
    footnote = " ".join(FOOTNOTE_TEXT.split()[:8])
    assert loc.locate(footnote).accepted  # the raised marker "1" is not glued to "The"
    assert loc.locate(CAPTION_TEXT).accepted
    assert not loc.locate("the pilots Crossing time Hour of departure").accepted
    roles = classify(drawn)
    kinds = {drawn.text[ln.start : ln.end]: r.kind for ln, r in zip(drawn.lines, roles)}
    assert kinds[HEADER] == FURNITURE
    assert kinds["2"] == FURNITURE
    assert kinds["Crossing time"] == FLOAT and kinds["Hour of departure"] == FLOAT
    assert kinds[CAPTION_TEXT] == CAPTION
    assert FOOTNOTE in {r.kind for r in roles}
    assert HEADER not in reading_order(drawn).text


def test_synthetic_paper_two_column_page() -> None:
    doc = Document.open(SYNTHETIC)
    roles = classify(doc)
    body = [(ln, doc.text[ln.start : ln.end]) for ln, r in zip(doc.lines, roles) if r.kind == BODY]
    mid = {p.number: p.width / 2 for p in doc.pages}
    left = [(ln, t) for ln, t in body if ln.bbox[2] < mid[ln.page]]
    right = [(ln, t) for ln, t in body if ln.bbox[0] > mid[ln.page]]
    count = Counter(ln.page for ln, _ in left)
    pages = sorted(p for p in {ln.page for ln, _ in right} if count[p] >= 5)
    assert pages, "no two-column page found"
    page = pages[0]
    left_text = [t for ln, t in left if ln.page == page]
    right_text = [t for ln, t in right if ln.page == page]
    assert len(left_text) >= 5 and len(right_text) >= 2
    on_loc = Locator(doc, LAYOUT_ON)
    across = " ".join(" ".join(left_text[-2:] + right_text[:2]).split())  # over the gutter
    v = on_loc.locate(across)
    assert v.accepted, v.reason
    assert {b.x0 < mid[page] for b in v.boxes} == {True, False}
    rows = [
        (lt, rt)
        for ll, lt in left
        for rl, rt in right
        if ll.page == rl.page == page and abs(ll.bbox[3] - rl.bbox[3]) < 3
    ]
    assert rows
    for lt, rt in rows[:5]:
        assert not on_loc.locate(f"{lt} {rt}").accepted, (lt, rt)
