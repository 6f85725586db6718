"""The synthetic paper: a generated PDF with known extraction artifacts, and its quote set.

This module owns the embedded default dataset ``synthetic``: a five-page fictional
paper ("Sparse Lattice Attention for Tide Forecasting") laid out line by line, so every
artifact is placed on purpose and the ground truth is exact, plus the quote set that
labels quotes against it. Besides :mod:`quotelocate.document` it is the only module that
imports pymupdf (to draw the PDF).

What the paper contains (the layout is fixed; a test pins it):

* ligature glyphs U+FB00 ff, U+FB01 fi, U+FB02 fl and U+FB03 ffi inside words, drawn
  with an embedded Times font, so pymupdf extracts the ligature code points;
* end-of-line hyphens of both kinds at explicit line ends: discretionary ones that
  must be dropped when the lines are joined (``computa-`` / ``tion``) and real ones
  in compounds that must be kept (``state-`` / ``of-the-art``);
* a running header on every page, a page number at the bottom of every page and a
  rotated arXiv-style stamp in the left margin of page 1 that interrupts a sentence
  in the extracted text;
* sentences that cross page breaks, one interrupted only by the page number and the
  header, one also by a footnote;
* a table with its caption between the two halves of a body sentence;
* a two-column page whose sentences wrap from the bottom of the left column to the
  top of the right one;
* smart quotes, ``10²``, ``½``, citation markers like ``[12]`` and a ``[^3]`` marker.

The paper's content and the quote specs are data in this module; the quote set's
anchors are computed from the text that :class:`~quotelocate.document.Document`
extracts from the generated PDF, so neither file is edited by hand. Generation is
byte-for-byte deterministic for a given pymupdf/MuPDF version: no dates, no random
document id, fonts subset the same way every time.

Every faithful quote is checked while the set is built: the quote, as a model would
write it (single spaces, ligatures spelled out, hyphen breaks joined the right way,
straight quotes where it says so, page furniture left out), must occur exactly once
in the paper's reading flows, and its tags must equal the artifacts its raw span
actually crosses. Every fabricated quote is checked not to occur in the paper under a
generous normalization (NFKC, straight quotes, whitespace collapsed).

>>> spec = FaithfulSpec("x-1", "Sparse Lattice Attention for Tide Forecasting", ("plain",))
>>> spec.label
'faithful'
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence, Union

import pymupdf

from .quoteset import FABRICATED_TAGS, FAITHFUL_TAGS
from ..document import PAGE_SEPARATOR, Document
from ..errors import ConfigError
from ..normalize import LIGATURES

# -- constants ----------------------------------------------------------------------

SET_NAME = "synthetic"
PDF_NAME = "synthetic.pdf"
YAML_NAME = "synthetic.yaml"
PAPER_URL = "file:datasets/synthetic/synthetic.pdf"
PAPER_VERSION = "1"
CHUNK_SIZE = 512
CHUNK_OVERLAP = 64
GROUP_SIZE = 3

HEADER_TEXT = "Synthetic Test Paper \u2014 Draft"
STAMP_TEXT = "arXiv:2601.00001v1 [cs.CL] 1 Jan 2026"

PAGE_WIDTH = 432.0  # 6 x 9 inches
PAGE_HEIGHT = 648.0
MARGIN_X = 54.0
BODY_TOP = 66.0  # top of the first body line box
BODY_BOTTOM = 596.0  # no body baseline below this (less the footnote area)
HEADER_BASELINE = 40.0
PAGE_NUMBER_BASELINE = 622.0
COLUMN_GAP = 14.0

BODY_SIZE = 10.5
BODY_LEADING = 13.0
COLUMN_SIZE = 10.0
COLUMN_LEADING = 12.2
FOOTNOTE_SIZE = 8.0
FOOTNOTE_LEADING = 9.6
SUP_SCALE = 0.68
SUP_RISE = 3.6

SMART_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}

CHUNK_TAGS = frozenset({"chunk-boundary", "neighbour-chunk"})

# Fonts: pymupdf's built-in Nimbus (Times) faces, embedded and subset so the
# ligature glyphs get a ToUnicode entry of their own.
FONTS = {"F0": "tiro", "F1": "tibo", "F2": "tiit"}
_FONT_CACHE: dict[str, pymupdf.Font] = {}


def _font(key: str) -> pymupdf.Font:
    if key not in _FONT_CACHE:
        _FONT_CACHE[key] = pymupdf.Font(FONTS[key])
    return _FONT_CACHE[key]


def _width(text: str, font: str, size: float) -> float:
    return _font(font).text_length(text, fontsize=size)


# -- content specs ------------------------------------------------------------------


@dataclass(frozen=True)
class Title:
    """A centred line of the title block (its own reading flow, ``title``)."""

    text: str
    size: float = 15.0
    font: str = "F1"
    space_before: float = 0.0
    space_after: float = 4.0


@dataclass(frozen=True)
class Heading:
    """A section heading, bold, left aligned in the current column."""

    text: str
    size: float = 11.5
    space_before: float = 8.0
    space_after: float = 3.0


@dataclass(frozen=True)
class Para:
    """A body paragraph in a small markup.

    ``~|`` breaks a word with a discretionary hyphen (``computa~|tion``: the hyphen is
    drawn, a reader drops it); ``-|`` breaks after a real hyphen (``state-|of-the-art``);
    a lone ``|`` ends the line after the previous word; ``^1`` after a word draws a
    raised footnote marker; ``{{name}}`` emits the insert ``name`` (stamp, table,
    footnote) right after the line that holds the previous word, and ``{{break}}``
    moves on to the next column or page after that line.
    """

    text: str
    indent: bool = True
    size: float | None = None
    inset: float = 0.0
    space_after: float = 2.0


@dataclass(frozen=True)
class Stamp:
    """The rotated margin stamp (takes no room in the flow)."""

    text: str = STAMP_TEXT
    size: float = 13.0
    x: float = 34.0
    y: float = 470.0


@dataclass(frozen=True)
class Footnote:
    """A footnote drawn at the bottom of the page on which it is referenced."""

    marker: str
    text: str


@dataclass(frozen=True)
class Table:
    """A ruled table with a caption above it, drawn across the current column."""

    caption: str
    rows: tuple[tuple[str, ...], ...]
    columns: tuple[float, ...]  # x offsets of the cells from the column's left edge


@dataclass(frozen=True)
class Columns:
    """Switch the layout to ``count`` columns, starting at the top of a new page."""

    count: int


Element = Union[Title, Heading, Para, Columns]
Insert = Union[Stamp, Footnote, Table]


@dataclass(frozen=True)
class FaithfulSpec:
    """A quote that is in the paper, written the way a model writes it.

    ``text`` is searched in the paper's reading flows (ligatures spelled out, hyphen
    breaks joined, furniture left out; straight quotes match curly ones). ``tags``
    must equal the artifacts the matched span crosses plus any chunk tag.
    ``cite``: 0 cites the first chunk holding the whole span (for ``chunk-boundary``
    the chunk where the span starts); +1/-1 cite that chunk's neighbour
    (``neighbour-chunk``).
    """

    id: str
    text: str
    tags: tuple[str, ...]
    cite: int = 0
    note: str = ""

    @property
    def label(self) -> str:
        return "faithful"


@dataclass(frozen=True)
class FabricatedSpec:
    """A near-miss that is not in the paper; ``near`` is the faithful text it is made
    from (located to choose the chunk the model cited), ``None`` for no citation."""

    id: str
    text: str
    tags: tuple[str, ...]
    near: str | None = None
    note: str = ""

    @property
    def label(self) -> str:
        return "fabricated"


QuoteSpec = Union[FaithfulSpec, FabricatedSpec]


# -- the paper ----------------------------------------------------------------------

FOOTNOTE_RADIUS = Footnote(
    "1",
    "The radius was tuned on the validation gauges; any value between 80 km and "
    "160 km gave almost the same error.",
)

TABLE_HARBOURS = Table(
    caption="Table 1: Ablation harbours with their mean tidal range and the largest "
    "residual in the test years (both in metres).",
    rows=(
        ("Harbour", "Range", "Max. residual"),
        ("Port Allard", "4.2", "1.31"),
        ("Keswick Sound", "2.7", "0.88"),
        ("Marrow Bay", "5.9", "1.74"),
        ("Lindqvist Pier", "1.1", "0.52"),
    ),
    columns=(14.0, 150.0, 222.0),
)

INSERTS: dict[str, Insert] = {
    "stamp": Stamp(),
    "fn1": FOOTNOTE_RADIUS,
    "table1": TABLE_HARBOURS,
}

ABSTRACT = (
    "Harmonic analysis has predicted the astronomical tide for more than a century, "
    "but the residual driven by wind, air pressure and river discharge still limits "
    "forecasts at many harbours. We present Sparse Lattice Attention (SLA), a model "
    "that restricts every attention head to a \ufb01xed lattice of tidal phases and lets "
    "each gauge attend only to neighbours that share its constituents. On a benchmark "
    "of 41 gauges, SLA reduces the root mean square error of the 48-hour residual "
    "forecast by 18% relative to a state-|of-the-art recurrent baseline while using "
    "a third of its computa~|tion. The lattice also makes the model\u2019s attention maps "
    "easy to read: a harbour engineer can see which gauges a forecast relied on. We "
    "release the code and a reproducible data pipeline."
)

CONTENT: tuple[Element, ...] = (
    Title("Sparse Lattice Attention for Tide Forecasting", space_before=6.0, space_after=8.0),
    Title("Ada Merrow, Kofi Thistlewood and Jun Okabe-Reyes", size=10.5, font="F0"),
    Title("Institute for Coastal Computation, Port Allard", size=9.5, font="F2", space_after=12.0),
    Title("Abstract", size=10.0, font="F1", space_after=3.0),
    Para(ABSTRACT, indent=False, size=9.5, inset=18.0, space_after=6.0),
    Heading("1  Introduction"),
    Para(
        "Coastal \ufb02ood warnings depend on forecasts of the sea level a few hours to a "
        "few days ahead. The astronomical part of the tide is known years in advance; "
        "what remains di\ufb03cult is the residual, the di\ufb00erence between the observed "
        "level and the harmonic prediction. Storm surges, seiches and river in\ufb02ow all "
        "contribute to it, and at some harbours the residual exceeds the tidal range "
        "itself during winter storms.",
        indent=False,
    ),
    Para(
        "Operational centres have long used numerical surge models for this task. "
        "They are accurate but expensive, and a harbour o\ufb03ce that needs a new "
        "forecast every ten minutes rarely has the budget to run one. Statistical "
        "models are cheap, {{stamp}} yet most of them treat each gauge in isolation and ignore "
        "what the neighbouring gauges already recorded an hour earlier. Pilots "
        "call the short pause between \ufb02ood and ebb \u201cslack water\u201d, and the "
        "timing of slack water is what a harbour master\u2019s schedule is built around."
    ),
    Para(
        "This paper asks whether attention across gauges can be made cheap enough for "
        "such an o\ufb03ce while keeping what makes it useful. Our answer is a lattice: "
        "instead of letting every gauge look at every other gauge at every hour, we "
        "group the hours by tidal phase and let attention run only along the lattice. "
        "The resulting model is small, it trains in under an hour on a single "
        "workstation, and its forecasts for the harbours we tested are better than "
        "those of the recurrent and convolutional baselines that we compare it with "
        "in Section 4. {{break}} "
        "We also show that the sparsity pattern, far from being a mere "
        "approximation, acts as a useful prior when only a few years of gauge records "
        "are available for training."
    ),
    Heading("2  Related Work"),
    Para(
        "Harmonic prediction goes back to the nineteenth century and the brass tide-|"
        "predicting machines of that time, and its modern form \ufb01ts a few dozen "
        "constituents by least squares [3]. Surge models solve the shallow water "
        "equations on a grid [7, 9]; they are still the reference for the rare "
        "extreme events that matter most for warnings. Learned, fully data-driven "
        "fore~|casters "
        "arrived later: recurrent networks [12] and temporal convolutions [5] now match "
        "surge models at many gauges for lead times of up to a day.[^3] Attention across "
        "gauges was \ufb01rst tried by Ostrander and Lim [14], who reported that a dense "
        "model over\ufb01ts when fewer than 30 gauges are available for training.",
        indent=False,
    ),
    Para(
        "Sparse attention itself is not new: windowed, strided and block patterns "
        "have all been used to cut the quadratic cost of attention on long sequences "
        "[2, 11]. What is new here is that the sparsity pattern is not a "
        "hyper-|parameter chosen for speed but a physical prior, taken from the phase "
        "of the dominant tidal constituent."
    ),
    Heading("3  Sparse Lattice Attention"),
    Para(
        "Each gauge contributes one token per hour, made of the observed residual, "
        "the harmonic prediction and the local wind. A lattice is a set of tidal "
        "phases, and the model assigns every token to the lattice node whose phase is "
        "closest to the phase of the M2 constituent at that hour. Attention is then "
        "restricted in two ways: a token may attend only to tokens on the same node or "
        "on the two adjacent nodes, and only to gauges within a radius of "
        "120 km.^1 {{fn1}} Both restrictions are applied before the softmax, so masked "
        "pairs cost nothing.",
        indent=False,
    ),
    Para(
        "Inside the window every head computes ordinary scaled dot-product weights, but "
        "the keys carry a learned embedding of their lattice node and of the distance "
        "between the two gauges, so that the model can still prefer a close neighbour "
        "over a distant one. A forecast reads the tokens of the last 72 hours and writes "
        "one value per gauge and lead time; all lead times share the same weights, which "
        "keeps the model below 400 thousand parameters. We found no bene\ufb01t in deeper "
        "stacks: three layers of four heads each are enough for every harbour we tried."
    ),
    Para(
        "The second restriction matters more than the \ufb01rst for large networks. A "
        "gauge at the mouth of an estuary and a gauge {{break}} "
        "forty kilometres upstream see the same surge, but hours apart, and the lattice "
        "lets the model line up those two records without comparing every pair of "
        "hours. In practice each head keeps ½ of the lattice nodes in its window, and "
        "the number of comparisons per forecast falls by a factor of about 10\u00b2 "
        "compared with dense attention across the full benchmark."
    ),
    Para(
        "The e\ufb00ect of the lattice is easiest to see on a few well-known harbours. "
        "Table 1 lists the six harbours that we use for every ablation, {{table1}} "
        "together with their mean tidal range and the largest residual observed in "
        "the test years. Four of them are shown; the other two are private gauges "
        "whose owners asked us not to publish their \ufb01gures."
    ),
    Para(
        "Training uses the Adam optimiser with a learning rate of 0.0003 and a batch "
        "of 64 forecasts. The loss is the mean squared error of the residual at every "
        "lead time from one to 48 hours, with no weighting by lead time."
    ),
    Para(
        "The lattice mask is built once per batch from the phase of the M2 constituent, "
        "which the harmonic analysis already provides, so the model needs no extra "
        "input. We use eight nodes per tidal cycle. With fewer nodes the mask is too "
        "coarse to tell the \ufb02ood from the ebb; with more nodes each window holds too "
        "few tokens to be useful. A \ufb01xed lattice has one further advantage that we "
        "did not plan for: forecasts from di\ufb00erent training runs agree closely, "
        "because every run compares the same pairs of tokens. Ensembles of \ufb01ve runs "
        "therefore gain less than they do for the dense model, and we report single "
        "runs throughout."
    ),
    Para(
        "Two details of the implementation are easy to get wrong. First, the phase must "
        "be computed from the harmonic prediction and not from the observed level, "
        "otherwise a large surge shifts the apparent phase and moves tokens to the wrong "
        "node. Second, the radius is measured along the coast rather than in a straight "
        "line, so that two gauges on opposite shores of a narrow headland are not "
        "treated as neighbours. Both choices are switched on in every experiment below."
    ),
    Columns(2),
    Heading("4  Experiments", space_before=0.0),
    Para(
        "We evaluate on records from 41 tide gauges along three coastlines, from "
        "2009 to 2024. The years up to 2019 are used for training, 2020 and 2021 "
        "for validation and the remaining three years for testing. Every gauge "
        "reports the water level every six minutes; we average the readings to "
        "hourly values and remove the harmonic prediction computed from the "
        "training years only.",
        indent=False,
    ),
    Para(
        "We compare SLA with three baselines: a persistence forecast that repeats the "
        "last observed residual, a recurrent network trained per gauge [12], and a "
        "dense attention model over all gauges [14]. All learned models see the same "
        "inputs and are tuned with the same budget of 40 trials. On calm days the "
        "recurrent network is the strongest of the three."
    ),
    Para(
        "At a lead time of 24 hours SLA reaches a root mean square error of 9.1 cm, "
        "against 11.3 cm for the recurrent network and 10.4 cm for the dense model. "
        "The persistence forecast is, as expected, competitive only at the shortest "
        "lead times. The gain of SLA is largest at harbours on a wide "
        "con~|tinental shelf, where surges travel slowly along the coast and a gauge "
        "upstream sees them \ufb01rst. At Marrow Bay the error falls from 14.8 cm to "
        "10.9 cm, the biggest improvement in the benchmark."
    ),
    Para(
        "Removing the lattice, so that each head attends to every node within the "
        "radius, raises the error by 0.6 cm on average and doubles the training time. "
        "Removing the radius instead hurts more at small harbours {{break}} "
        "than at large ones, because a small harbour has few neighbours and the "
        "extra distant gauges mostly add noise to its forecast."
    ),
    Para(
        "We also checked whether the model simply memorises storm dates. When the "
        "test years are shifted by one year, so that no test storm was seen in "
        "training, the error rises by only 0.2 cm, which suggests that the model has "
        "learned how surges propagate rather than when they happened. The e\ufb03ciency "
        "of SLA also holds up: a forecast for all 41 gauges takes 35 ms on a laptop "
        "processor, fast enough for the ten-minute update cycle of a harbour o\ufb03ce."
    ),
    Para(
        "Finally, the attention maps are easy to read. For a storm in January 2023, "
        "the heads at Keswick Sound attend almost entirely to two gauges on the open "
        "coast, which is where the surge arrived about three hours earlier; an "
        "engineer on duty would have drawn the same conclusion from the raw records."
    ),
    Columns(1),
    Heading("5  Conclusion", space_before=0.0),
    Para(
        "Sparse Lattice Attention turns a physical fact, that tides repeat with a "
        "known phase, into a sparsity pattern for attention. The pattern makes the "
        "model cheaper than dense attention and, on our benchmark, more accurate "
        "as well. We see two limits. The lattice assumes one dominant constituent, "
        "which fails at harbours with a mixed diurnal tide, and the radius ignores "
        "the shape of the coastline. Both are worth a closer look in future work.",
        indent=False,
    ),
    Para(
        "[^3] Lead times beyond a day are where surge models still lead; we do not "
        "claim any gain there.",
        indent=False,
        size=9.0,
        space_after=6.0,
    ),
    Heading("References"),
    Para("[2] R. Halvorsen and T. Pike. Strided patterns for long inputs. 2021.", indent=False, size=9.0),
    Para("[3] M. Cardew. Least squares tidal analysis revisited. 2008.", indent=False, size=9.0),
    Para("[5] L. Anand and P. Rusk. Temporal convolutions for coastal levels. 2020.", indent=False, size=9.0),
    Para("[7] H. Verloop. A shallow water model for the northern shelf. 2012.", indent=False, size=9.0),
    Para("[9] S. Tamura. Ensemble surge forecasting at scale. 2016.", indent=False, size=9.0),
    Para("[11] Q. Ibarra. Block sparse attention without tears. 2022.", indent=False, size=9.0),
    Para("[12] E. Nordahl and F. Quist. Recurrent residual forecasters. 2018.", indent=False, size=9.0),
    Para("[14] B. Ostrander and W. Lim. Attention across tide gauges. 2023.", indent=False, size=9.0),
)


# -- layout -------------------------------------------------------------------------


@dataclass(frozen=True)
class LineRecord:
    """One line as drawn: ``kind`` is its reading flow, ``element`` the element it
    belongs to, ``frame`` the (page, column) it sits in, ``end`` how it joins the next
    line of the same element (``space``, ``soft`` hyphen, ``hard`` hyphen, ``end``)."""

    page: int
    frame: tuple[int, int]
    kind: str
    element: int
    text: str
    end: str
    markers: tuple[int, ...] = ()  # positions in ``text`` of raised footnote markers


@dataclass
class _Token:
    text: str
    brk: str = ""  # "", "space", "soft", "hard"
    sup: str = ""
    inserts: list[str] = field(default_factory=list)


_INSERT_RE = re.compile(r"^\{\{(\w+)\}\}$")
_SUP_RE = re.compile(r"^(.*\S)\^(\d)$")


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    for piece in text.split():
        if piece == "|":
            out[-1].brk = "space"
            continue
        m = _INSERT_RE.match(piece)
        if m:
            out[-1].inserts.append(m.group(1))
            continue
        parts = re.split(r"(~\||-\|)", piece)
        for i in range(0, len(parts), 2):
            word = parts[i]
            tok = _Token(word)
            if i + 1 < len(parts):
                tok.text = word + "-"
                tok.brk = "soft" if parts[i + 1] == "~|" else "hard"
            sm = _SUP_RE.match(tok.text)
            if sm:
                tok.text, tok.sup = sm.group(1), sm.group(2)
            out.append(tok)
    return out


class _Layout:
    """Draws the content page by page and records every line in reading order."""

    def __init__(self) -> None:
        self.doc = pymupdf.open()
        self.lines: list[LineRecord] = []
        self.page: pymupdf.Page | None = None
        self.page_no = 0
        self.columns = 1
        self.column = 0
        self.y = BODY_TOP
        self.bottom = BODY_BOTTOM
        self.footnotes: list[Footnote] = []
        self.element = 0
        self.floats = 0
        self.column_top = BODY_TOP

    # geometry
    def _frame_x(self) -> tuple[float, float]:
        if self.columns == 1:
            return MARGIN_X, PAGE_WIDTH - MARGIN_X
        width = (PAGE_WIDTH - 2 * MARGIN_X - COLUMN_GAP) / 2
        x0 = MARGIN_X + self.column * (width + COLUMN_GAP)
        return x0, x0 + width

    def _draw(self, x: float, y: float, text: str, font: str, size: float, *, rotate: int = 0,
              color: tuple[float, float, float] | None = None) -> None:
        assert self.page is not None
        self.page.insert_text((x, y), text, fontname=font, fontsize=size, rotate=rotate, color=color)

    def _record(self, kind: str, text: str, end: str = "end", element: int | None = None,
                markers: tuple[int, ...] = ()) -> None:
        self.lines.append(
            LineRecord(
                page=self.page_no,
                frame=(self.page_no, self.column),
                kind=kind,
                element=self.element if element is None else element,
                text=text,
                end=end,
                markers=markers,
            )
        )

    # pages and frames
    def new_page(self) -> None:
        if self.page is not None:
            self.finish_page()
        self.page = self.doc.new_page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
        for name in FONTS:
            self.page.insert_font(fontname=name, fontbuffer=_font(name).buffer)
        self.page_no += 1
        self.column = 0
        self.y = BODY_TOP
        self.bottom = BODY_BOTTOM
        self.footnotes = []
        w = _width(HEADER_TEXT, "F2", 8.5)
        self._draw((PAGE_WIDTH - w) / 2, HEADER_BASELINE, HEADER_TEXT, "F2", 8.5)
        self.page.draw_line((MARGIN_X, HEADER_BASELINE + 5), (PAGE_WIDTH - MARGIN_X, HEADER_BASELINE + 5),
                            width=0.4)
        self._record("running-header", HEADER_TEXT, element=-1)

    def finish_page(self) -> None:
        assert self.page is not None
        if self.footnotes:
            x0, x1 = MARGIN_X, PAGE_WIDTH - MARGIN_X
            lines: list[tuple[str, str]] = []
            for note in self.footnotes:
                for i, line in enumerate(self._wrap_plain(note.text, "F0", FOOTNOTE_SIZE, x1 - x0 - 6)):
                    lines.append((note.marker if i == 0 else "", line))
            y = PAGE_NUMBER_BASELINE - 16 - FOOTNOTE_LEADING * (len(lines) - 1)
            rule_y = y - FOOTNOTE_LEADING - 1
            self.page.draw_line((x0, rule_y), (x0 + 90, rule_y), width=0.4)
            sup_size = FOOTNOTE_SIZE * SUP_SCALE
            for marker, line in lines:
                if marker:  # raised, and flush with the text so it extracts as "1The ..."
                    sup_x = x0 + 6 - _width(marker, "F0", sup_size) - 0.4
                    self._draw(sup_x, y - SUP_RISE * 0.8, marker, "F0", sup_size)
                self._draw(x0 + 6, y, line, "F0", FOOTNOTE_SIZE)
                self._record("footnote", marker + line, end="space", element=100_000 + self.page_no,
                             markers=(0,) if marker else ())
                y += FOOTNOTE_LEADING
            self._fix_last_end()
        number = str(self.page_no)
        w = _width(number, "F0", 9.0)
        self._draw((PAGE_WIDTH - w) / 2, PAGE_NUMBER_BASELINE, number, "F0", 9.0)
        self._record("page-number", number, element=-2)

    def _fix_last_end(self) -> None:
        self.lines[-1] = replace(self.lines[-1], end="end")

    def next_frame(self) -> None:
        if self.columns == 2 and self.column == 0:
            self.column = 1
            self.y = self.column_top
        else:
            self.new_page()
            self.column_top = BODY_TOP

    # elements
    def title(self, el: Title) -> None:
        self.element += 1
        self.y += el.space_before
        w = _width(el.text, el.font, el.size)
        self.y += el.size
        self._draw((PAGE_WIDTH - w) / 2, self.y, el.text, el.font, el.size)
        self._record("title", el.text)
        self.y += el.space_after

    def heading(self, el: Heading) -> None:
        self.element += 1
        if self.y + el.space_before + el.size + 2 * BODY_LEADING > self.bottom:
            self.next_frame()
        elif self.y > BODY_TOP:
            self.y += el.space_before
        self.y += el.size
        x0, _ = self._frame_x()
        self._draw(x0, self.y, el.text, "F1", el.size)
        self._record("heading", el.text)
        self.y += el.space_after

    def columns_(self, el: Columns) -> None:
        if self.y > BODY_TOP:
            self.new_page()
        self.columns = el.count
        self.column = 0
        self.column_top = self.y

    def para(self, el: Para) -> None:
        self.element += 1
        size = el.size or (COLUMN_SIZE if self.columns == 2 else BODY_SIZE)
        leading = size * (COLUMN_LEADING / COLUMN_SIZE if self.columns == 2 else BODY_LEADING / BODY_SIZE)
        tokens = _tokens(el.text)
        space = _width(" ", "F0", size)
        first = True
        i = 0
        while i < len(tokens):
            x0, x1 = self._frame_x()
            x0 += el.inset
            x1 -= el.inset
            indent = 12.0 if first and el.indent else 0.0
            line: list[_Token] = []
            width = indent
            while i < len(tokens):
                tok = tokens[i]
                w = _width(tok.text, "F0", size) + (_width(tok.sup, "F0", size * SUP_SCALE) if tok.sup else 0)
                add = w + (space if line else 0)
                if line and width + add > x1 - x0:
                    break
                line.append(tok)
                width += add
                i += 1
                if tok.brk:
                    break
            if self.y + leading > self.bottom:
                self.next_frame()
            self.y += leading
            last = line[-1]
            end = last.brk if last.brk in ("soft", "hard") else ("end" if i == len(tokens) else "space")
            self._line(line, x0 + indent, self.y, size, end)
            first = False
            for tok in line:
                for name in tok.inserts:
                    if name == "break":
                        if self.bottom - self.y > 2 * leading:
                            raise RuntimeError(f"break on page {self.page_no} leaves the frame half empty")
                        self.next_frame()
                    else:
                        self._insert(INSERTS[name])
        self.y += el.space_after

    def _line(self, toks: Sequence[_Token], x: float, y: float, size: float, end: str) -> None:
        text = ""
        markers: list[int] = []
        pending = ""
        for j, tok in enumerate(toks):
            pending += ("" if j == 0 else " ") + tok.text
            if tok.sup:
                self._draw(x, y, pending, "F0", size)
                x += _width(pending, "F0", size)
                text += pending
                markers.append(len(text))
                sup_size = size * SUP_SCALE
                self._draw(x, y - SUP_RISE, tok.sup, "F0", sup_size)
                x += _width(tok.sup, "F0", sup_size)
                text += tok.sup
                pending = ""
        if pending:
            self._draw(x, y, pending, "F0", size)
            text += pending
        self._record("body", text, end=end, markers=tuple(markers))

    def _insert(self, ins: Insert) -> None:
        if isinstance(ins, Stamp):
            self._draw(ins.x, ins.y, ins.text, "F0", ins.size, rotate=90, color=(0.45, 0.45, 0.45))
            self._record("margin-stamp", ins.text, element=-3)
        elif isinstance(ins, Footnote):
            self.footnotes.append(ins)
            n = len(self._wrap_plain(ins.text, "F0", FOOTNOTE_SIZE, PAGE_WIDTH - 2 * MARGIN_X - 6))
            self.bottom -= FOOTNOTE_LEADING * n + 8
            if self.y > self.bottom:
                raise RuntimeError(f"footnote {ins.marker} does not fit on page {self.page_no}")
        else:
            self._table(ins)

    def _table(self, table: Table) -> None:
        assert self.page is not None
        x0, x1 = self._frame_x()
        self.floats += 1
        caption = self._wrap_plain(table.caption, "F0", 9.0, x1 - x0)
        height = 9.0 + 11 * len(caption) + 6 + 12.5 * len(table.rows) + 8
        if self.y + height > self.bottom:
            raise RuntimeError(f"table does not fit on page {self.page_no}")
        self.y += 6
        for j, line in enumerate(caption):
            self.y += 11
            self._draw(x0, self.y, line, "F0", 9.0)
            self._record("caption", line, end="space" if j < len(caption) - 1 else "end",
                         element=200_000 + self.floats)
        self.y += 4
        self.page.draw_line((x0, self.y), (x1, self.y), width=0.8)
        for r, row in enumerate(table.rows):
            self.y += 12.5
            for c, cell in enumerate(row):
                self._draw(x0 + table.columns[c], self.y, cell, "F1" if r == 0 else "F0", 9.0)
                self._record("table", cell, element=300_000 + self.floats)
            if r == 0:
                self.page.draw_line((x0, self.y + 3.5), (x1, self.y + 3.5), width=0.4)
        self.y += 4
        self.page.draw_line((x0, self.y), (x1, self.y), width=0.8)
        self.y += 8

    @staticmethod
    def _wrap_plain(text: str, font: str, size: float, width: float) -> list[str]:
        lines: list[str] = []
        cur = ""
        for word in text.split():
            cand = f"{cur} {word}" if cur else word
            if cur and _width(cand, font, size) > width:
                lines.append(cur)
                cur = word
            else:
                cur = cand
        if cur:
            lines.append(cur)
        return lines

    def build(self, content: Sequence[Element]) -> bytes:
        self.column_top = BODY_TOP
        self.new_page()
        for el in content:
            if isinstance(el, Title):
                self.title(el)
            elif isinstance(el, Heading):
                self.heading(el)
            elif isinstance(el, Para):
                self.para(el)
            elif isinstance(el, Columns):
                self.columns_(el)
            else:  # pragma: no cover - the content table is fixed
                raise TypeError(f"unknown element {el!r}")
        self.finish_page()
        self.doc.set_metadata(
            {
                "title": "Sparse Lattice Attention for Tide Forecasting (synthetic test paper)",
                "author": "quotelocate",
                "subject": "",
                "keywords": "",
                "creator": "quotelocate.synth",
                "producer": "quotelocate.synth",
                "creationDate": "",
                "modDate": "",
            }
        )
        for page in self.doc:
            page.clean_contents()  # one content stream per page instead of one per line
        self.doc.subset_fonts()
        data = self.doc.tobytes(garbage=4, deflate=True, no_new_id=True)
        self.doc.close()
        return data


def expected_text(lines: Sequence[LineRecord]) -> str:
    """The text pymupdf must extract: lines in drawing order, pages joined by ``\\f``."""
    pages: dict[int, list[str]] = {}
    for ln in lines:
        pages.setdefault(ln.page, []).append(ln.text + "\n")
    return PAGE_SEPARATOR.join("".join(pages[p]) for p in sorted(pages))


# -- reading flows ------------------------------------------------------------------


@dataclass(frozen=True)
class Flow:
    """One reading flow (body, footnotes, captions, ...) as a model would read it.

    ``text`` has ligatures spelled out and hyphen breaks joined; ``raw[i]`` is the
    offset in :attr:`Document.text` of the character ``text[i]`` came from.
    ``text`` uses ``\\x00`` between elements and ``\\x01`` for raised markers, so no
    quote can silently span them.
    """

    kind: str
    text: str
    raw: tuple[int, ...]


def _line_offsets(lines: Sequence[LineRecord]) -> list[int]:
    out: list[int] = []
    offset = 0
    page = lines[0].page if lines else 1
    for ln in lines:
        if ln.page != page:
            offset += len(PAGE_SEPARATOR)
            page = ln.page
        out.append(offset)
        offset += len(ln.text) + 1
    return out


def reading_flows(lines: Sequence[LineRecord]) -> dict[str, Flow]:
    """Join each kind's lines into its reading flow with a raw-offset map."""
    offsets = _line_offsets(lines)
    texts: dict[str, list[str]] = {}
    maps: dict[str, list[int]] = {}
    prev: dict[str, LineRecord] = {}
    for ln, start in zip(lines, offsets):
        t, m = texts.setdefault(ln.kind, []), maps.setdefault(ln.kind, [])
        before = prev.get(ln.kind)
        if before is not None:
            if before.element != ln.element or before.end == "end":
                t.append("\x00")
                m.append(start - 1)
            elif before.end == "space":
                t.append(" ")
                m.append(start - 1)  # the newline (or page furniture) stands for the space
            elif before.end == "soft":
                t.pop()  # the drawn hyphen goes
                m.pop()
        for j, ch in enumerate(ln.text):
            if j in ln.markers:
                ch = "\x01"
            for out_ch in LIGATURES.get(ch, ch):
                t.append(out_ch)
                m.append(start + j)
        prev[ln.kind] = ln
    return {kind: Flow(kind, "".join(texts[kind]), tuple(maps[kind])) for kind in texts}


def _straight(text: str) -> str:
    return "".join(SMART_QUOTES.get(c, c) for c in text)


def _fold(text: str) -> str:
    """The generous comparison form fabricated quotes are checked against."""
    text = unicodedata.normalize("NFKC", _straight(text)).replace("\x01", "")
    return re.sub(r"\s+", " ", text.replace("\x00", " ")).strip()


# -- quote set ----------------------------------------------------------------------


@dataclass(frozen=True)
class Anchor:
    page: int
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Quote:
    """One labelled quote of the set, ready to be written out."""

    id: str
    text: str
    label: str
    tags: tuple[str, ...]
    cited_chunk: int | None
    anchor: Anchor | None
    note: str = ""


def chunk_span(index: int, text_len: int) -> tuple[int, int]:
    stride = CHUNK_SIZE - CHUNK_OVERLAP
    return index * stride, min(index * stride + CHUNK_SIZE, text_len)


def chunk_count(text_len: int) -> int:
    stride = CHUNK_SIZE - CHUNK_OVERLAP
    n = 1
    while n * stride + CHUNK_OVERLAP < text_len:
        n += 1
    return n


def _containing_chunks(start: int, end: int, text_len: int) -> list[int]:
    return [i for i in range(chunk_count(text_len)) if chunk_span(i, text_len)[0] <= start
            and end <= chunk_span(i, text_len)[1]]


def _group_span(chunk: int, text_len: int) -> tuple[int, int]:
    g = chunk // GROUP_SIZE
    first = g * GROUP_SIZE
    last = min(first + GROUP_SIZE, chunk_count(text_len)) - 1
    return chunk_span(first, text_len)[0], chunk_span(last, text_len)[1]


class SpecError(ValueError):
    """A quote spec does not fit the generated paper (a bug in this module's data)."""


def _locate(spec_text: str, flows: dict[str, Flow]) -> tuple[Flow, int, int]:
    """Find ``spec_text`` exactly once across the flows; return flow and flow span."""
    needle = _straight(spec_text)
    hits: list[tuple[Flow, int]] = []
    for flow in flows.values():
        hay = _straight(flow.text)
        pos = hay.find(needle)
        while pos >= 0:
            hits.append((flow, pos))
            pos = hay.find(needle, pos + 1)
    if len(hits) != 1:
        raise SpecError(f"{spec_text[:60]!r}: found {len(hits)} times in the paper's reading flows")
    flow, pos = hits[0]
    return flow, pos, pos + len(needle)


def _artifact_tags(flow: Flow, fstart: int, fend: int, quote: str, doc_text: str,
                   lines: Sequence[LineRecord]) -> set[str]:
    raw_start, raw_end = flow.raw[fstart], flow.raw[fend - 1] + 1
    raw = doc_text[raw_start:raw_end]
    tags: set[str] = set()
    if "\x01" in flow.text[fstart:fend]:
        raise SpecError(f"{quote[:60]!r}: spans a raised footnote marker")
    if any(c in LIGATURES for c in raw):
        tags.add("ligature")
    if any(c in SMART_QUOTES for c in raw) and not any(c in SMART_QUOTES for c in quote):
        tags.add("smart-quote")
    if any(unicodedata.normalize("NFKC", c) != c for c in raw if c not in LIGATURES):
        tags.add("nfkc")
    if PAGE_SEPARATOR in raw:
        tags.add("page-break")
    offsets = _line_offsets(lines)
    inside = [i for i, off in enumerate(offsets) if raw_start <= off + len(lines[i].text) and off < raw_end]
    main = [i for i in inside if lines[i].kind == flow.kind]
    for i in inside:
        kind = lines[i].kind
        if kind != flow.kind:
            tags.add(kind)
            if kind in ("table", "caption"):
                tags.add("float-interleave")
        elif kind in ("footnote", "caption"):
            tags.add(kind)
    for i, j in zip(main, main[1:]):
        a, b = lines[i], lines[j]
        if a.end == "soft":
            tags.add("hyphen-drop")
        elif a.end == "hard":
            tags.add("hyphen-keep")
        elif a.frame == b.frame and j == i + 1:
            tags.add("linebreak")
        if a.frame[0] == b.frame[0] and a.frame[1] != b.frame[1]:
            tags.add("two-column")
    tags.discard("body")
    if not tags:
        tags.add("plain")
    return tags


def build_quotes(doc: Document, lines: Sequence[LineRecord],
                 specs: Sequence[QuoteSpec]) -> list[Quote]:
    """Anchor, tag-check and cite every spec against the generated paper."""
    flows = reading_flows(lines)
    n = len(doc.text)
    folded_flows = [_fold(f.text) for f in flows.values()]
    folded_raw = _fold(doc.text)
    seen: set[str] = set()
    out: list[Quote] = []
    for spec in specs:
        if spec.id in seen:
            raise SpecError(f"{spec.id}: duplicate id")
        seen.add(spec.id)
        allowed = FAITHFUL_TAGS if isinstance(spec, FaithfulSpec) else FABRICATED_TAGS
        bad = set(spec.tags) - set(allowed)
        if bad or not spec.tags:
            raise SpecError(f"{spec.id}: tags {sorted(bad) or '[]'} not allowed for {spec.label}")
        if isinstance(spec, FaithfulSpec):
            flow, fs, fe = _locate(spec.text, flows)
            start, end = flow.raw[fs], flow.raw[fe - 1] + 1
            tags = _artifact_tags(flow, fs, fe, spec.text, doc.text, lines)
            chunk_tags = set(spec.tags) & CHUNK_TAGS
            if tags | chunk_tags != set(spec.tags):
                raise SpecError(
                    f"{spec.id}: tags {sorted(spec.tags)} but the span has {sorted(tags | chunk_tags)}"
                )
            holders = _containing_chunks(start, end, n)
            if "chunk-boundary" in chunk_tags:
                if holders:
                    raise SpecError(f"{spec.id}: tagged chunk-boundary but chunk {holders[0]} holds it")
                cited = max(i for i in range(chunk_count(n)) if chunk_span(i, n)[0] <= start)
            elif not holders:
                raise SpecError(f"{spec.id}: no single chunk holds [{start}, {end}); tag it chunk-boundary")
            else:
                cited = holders[0] + spec.cite
                if ("neighbour-chunk" in chunk_tags) != (spec.cite != 0) or (spec.cite and cited in holders):
                    raise SpecError(f"{spec.id}: cite {spec.cite} does not match its neighbour-chunk tag")
            g0, g1 = _group_span(cited, n)
            if not (g0 <= start and end <= g1):
                raise SpecError(f"{spec.id}: [{start}, {end}) is outside the group of chunk {cited}")
            anchor = Anchor(doc.page_at(start), start, end, doc.text[start:end])
            out.append(Quote(spec.id, spec.text, "faithful", tuple(spec.tags), cited, anchor, spec.note))
        else:
            folded = _fold(spec.text)
            if "trivial" not in spec.tags and (
                any(folded in f for f in folded_flows) or folded in folded_raw
            ):
                raise SpecError(f"{spec.id}: fabricated quote occurs in the paper")
            cited = None
            if spec.near is not None:
                flow, fs, fe = _locate(spec.near, flows)
                cited = _containing_chunks(flow.raw[fs], flow.raw[fs] + 1, n)[0]
            out.append(Quote(spec.id, spec.text, "fabricated", tuple(spec.tags), cited, None, spec.note))
    return out


# -- the quotes ---------------------------------------------------------------------

F = FaithfulSpec
X = FabricatedSpec

QUOTES: tuple[FaithfulSpec, ...] = (
    # page 1: title block and abstract
    F("syn-title", "Sparse Lattice Attention for Tide Forecasting", ("plain",)),
    F("syn-abstract-first",
      "Harmonic analysis has predicted the astronomical tide for more than a century, but the "
      "residual driven by wind, air pressure and river discharge still limits forecasts at many "
      "harbours.", ("linebreak",)),
    F("syn-abstract-fixed",
      "a model that restricts every attention head to a fixed lattice of tidal phases",
      ("ligature", "linebreak"), note="fixed is drawn with the U+FB01 glyph"),
    F("syn-abstract-hyphen-keep",
      "SLA reduces the root mean square error of the 48-hour residual forecast by 18% relative "
      "to a state-of-the-art recurrent baseline", ("linebreak", "hyphen-keep"),
      note="state- / of-the-art at a line end: the hyphen stays"),
    F("syn-abstract-hyphen-drop", "while using a third of its computation.", ("hyphen-drop",),
      note="computa- / tion at a line end: the hyphen goes"),
    F("syn-abstract-smart",
      "The lattice also makes the model's attention maps easy to read: a harbour engineer can "
      "see which gauges a forecast relied on.", ("smart-quote", "linebreak"),
      note="the paper has U+2019; the model typed an ASCII apostrophe"),
    # page 1: introduction
    F("syn-intro-flood", "Coastal flood warnings depend on forecasts of the sea level",
      ("ligature",)),
    F("syn-intro-residual",
      "what remains difficult is the residual, the difference between the observed level and "
      "the harmonic prediction.", ("ligature", "linebreak")),
    F("syn-intro-inflow",
      "Storm surges, seiches and river inflow all contribute to it, and at some harbours the "
      "residual exceeds the tidal range itself during winter storms.",
      ("ligature", "linebreak")),
    F("syn-stamp",
      "Statistical models are cheap, yet most of them treat each gauge in isolation and ignore "
      "what the neighbouring gauges already recorded an hour earlier.",
      ("linebreak", "margin-stamp"), note="the rotated arXiv stamp is extracted mid-sentence"),
    F("syn-stamp-short", "treat each gauge in isolation and ignore what the neighbouring gauges",
      ("margin-stamp",)),
    F("syn-slack-smart",
      "Pilots call the short pause between flood and ebb \"slack water\", and the timing of "
      "slack water is what a harbour master's schedule is built around.",
      ("ligature", "smart-quote", "linebreak", "chunk-boundary"),
      note="starts in chunk 3 and ends after it; chunk 4 starts after the quote does"),
    F("syn-slack-curly", "the short pause between flood and ebb \u201cslack water\u201d",
      ("ligature",), note="curly quotes copied as they are"),
    F("syn-pagebreak",
      "its forecasts for the harbours we tested are better than those of the recurrent and "
      "convolutional baselines that we compare it with in Section 4. We also show that the "
      "sparsity pattern, far from being a mere approximation, acts as a useful prior",
      ("linebreak", "page-break", "page-number", "running-header"),
      note="crosses from page 1 to page 2 over the page number and the running header"),
    F("syn-pagebreak-short", "far from being a mere approximation, acts as a useful prior",
      ("page-break", "page-number", "running-header")),
    # page 2: related work
    F("syn-hyphen-keep-tide",
      "the nineteenth century and the brass tide-predicting machines of that time",
      ("hyphen-keep",)),
    F("syn-citation", "its modern form fits a few dozen constituents by least squares [3].",
      ("ligature", "linebreak")),
    F("syn-hyphen-drop-forecasters",
      "Learned, fully data-driven forecasters arrived later: recurrent networks [12] and "
      "temporal convolutions [5] now match surge models at many gauges for lead times of up "
      "to a day.[^3]", ("hyphen-drop", "linebreak"),
      note="fore- / casters; citation and footnote markers kept"),
    F("syn-ostrander",
      "Attention across gauges was first tried by Ostrander and Lim [14], who reported that a "
      "dense model overfits when fewer than 30 gauges are available for training.",
      ("ligature", "linebreak")),
    F("syn-hyperparameter",
      "What is new here is that the sparsity pattern is not a hyper-parameter chosen for speed "
      "but a physical prior", ("hyphen-keep",)),
    F("syn-plain-quadratic", "to cut the quadratic cost of attention on long sequences",
      ("plain",)),
    # page 2-3: method
    F("syn-token",
      "Each gauge contributes one token per hour, made of the observed residual, the harmonic "
      "prediction and the local wind.", ("linebreak",)),
    F("syn-window", "Inside the window every head computes ordinary scaled dot-product weights",
      ("linebreak",)),
    F("syn-benefit",
      "We found no benefit in deeper stacks: three layers of four heads each are enough for "
      "every harbour we tried.", ("ligature", "linebreak")),
    F("syn-footnote-text",
      "The radius was tuned on the validation gauges; any value between 80 km and 160 km gave "
      "almost the same error.", ("footnote", "linebreak", "chunk-boundary"),
      note="quotes the footnote itself; it straddles the end of the cited chunk"),
    F("syn-footnote-cross",
      "A gauge at the mouth of an estuary and a gauge forty kilometres upstream see the same "
      "surge, but hours apart", ("linebreak", "footnote", "page-break", "page-number",
                                 "running-header", "chunk-boundary"),
      note="the footnote, the page number and the header sit between the two halves"),
    F("syn-footnote-cross-short", "forty kilometres upstream see the same surge",
      ("footnote", "page-break", "page-number", "running-header", "chunk-boundary")),
    F("syn-half", "In practice each head keeps \u00bd of the lattice nodes in its window",
      ("nfkc", "linebreak"), note="the vulgar fraction is copied as it is"),
    F("syn-squared",
      "the number of comparisons per forecast falls by a factor of about 10\u00b2 compared with "
      "dense attention across the full benchmark.", ("nfkc", "linebreak"),
      note="the superscript two is copied as it is"),
    F("syn-effect", "The effect of the lattice is easiest to see on a few well-known harbours.",
      ("ligature",)),
    F("syn-table-cross",
      "Table 1 lists the six harbours that we use for every ablation, together with their mean "
      "tidal range and the largest residual observed in the test years.",
      ("table", "caption", "float-interleave"),
      note="the caption and the table cells are extracted between the halves"),
    F("syn-table-cross-short", "for every ablation, together with their mean tidal range",
      ("table", "caption", "float-interleave")),
    F("syn-caption",
      "Table 1: Ablation harbours with their mean tidal range and the largest residual in the "
      "test years (both in metres).", ("caption", "linebreak"), note="quotes the caption itself"),
    F("syn-figures",
      "the other two are private gauges whose owners asked us not to publish their figures.",
      ("ligature", "linebreak")),
    F("syn-adam",
      "Training uses the Adam optimiser with a learning rate of 0.0003 and a batch of 64 "
      "forecasts.", ("linebreak",)),
    F("syn-neighbour-loss",
      "The loss is the mean squared error of the residual at every lead time from one to 48 "
      "hours, with no weighting by lead time.", ("linebreak", "neighbour-chunk"), cite=1,
      note="cites the next chunk of the same group, which does not hold the quote"),
    F("syn-nodes", "With fewer nodes the mask is too coarse to tell the flood from the ebb",
      ("ligature", "linebreak")),
    F("syn-runs",
      "forecasts from different training runs agree closely, because every run compares the "
      "same pairs of tokens.", ("ligature", "linebreak")),
    F("syn-radius-coast",
      "Second, the radius is measured along the coast rather than in a straight line",
      ("linebreak",)),
    # page 4: two columns
    F("syn-col-data",
      "We evaluate on records from 41 tide gauges along three coastlines, from 2009 to 2024.",
      ("linebreak",)),
    F("syn-neighbour-readings",
      "we average the readings to hourly values and remove the harmonic prediction computed "
      "from the training years only.", ("linebreak", "neighbour-chunk"), cite=-1,
      note="cites the previous chunk of the same group, which does not hold the quote"),
    F("syn-col-calm", "On calm days the recurrent network is the strongest of the three.",
      ("linebreak",)),
    F("syn-col-shelf",
      "The gain of SLA is largest at harbours on a wide continental shelf, where surges travel "
      "slowly along the coast", ("linebreak", "hyphen-drop"), note="con- / tinental in a column"),
    F("syn-two-column",
      "Removing the radius instead hurts more at small harbours than at large ones, because a "
      "small harbour has few neighbours", ("linebreak", "two-column"),
      note="wraps from the bottom of the left column to the top of the right one"),
    F("syn-two-column-short", "hurts more at small harbours than at large ones",
      ("linebreak", "two-column")),
    F("syn-col-efficiency",
      "The efficiency of SLA also holds up: a forecast for all 41 gauges takes 35 ms on a "
      "laptop processor", ("ligature", "linebreak")),
    F("syn-col-keswick",
      "the heads at Keswick Sound attend almost entirely to two gauges on the open coast",
      ("linebreak",)),
    # page 5
    F("syn-conclusion",
      "Sparse Lattice Attention turns a physical fact, that tides repeat with a known phase, into "
      "a sparsity pattern for attention.", ("linebreak",)),
    F("syn-limits",
      "The lattice assumes one dominant constituent, which fails at harbours with a mixed "
      "diurnal tide", ("linebreak",)),
    F("syn-note-3",
      "[^3] Lead times beyond a day are where surge models still lead; we do not claim any gain "
      "there.", ("linebreak",)),
    F("syn-reference-12", "[12] E. Nordahl and F. Quist. Recurrent residual forecasters. 2018.",
      ("plain",)),
    F("syn-plain-coastline", "Both are worth a closer look in future work.", ("plain",)),
)

FABRICATED: tuple[FabricatedSpec, ...] = (
    X("syn-fab-number-gauges",
      "On a benchmark of 44 gauges, SLA reduces the root mean square error", ("number",),
      near="On a benchmark of 41 gauges"),
    X("syn-fab-number-percent", "by 21% relative to a state-of-the-art recurrent baseline",
      ("number",), near="by 18% relative"),
    X("syn-fab-number-squared", "falls by a factor of about 10\u00b3 compared with dense attention",
      ("number",), near="falls by a factor of about"),
    X("syn-fab-number-rmse",
      "At a lead time of 24 hours SLA reaches a root mean square error of 8.1 cm", ("number",),
      near="At a lead time of 24 hours"),
    X("syn-fab-case",
      "Sparse lattice attention turns a physical fact, that tides repeat with a known phase",
      ("case",), near="Sparse Lattice Attention turns"),
    X("syn-fab-case-acronym",
      "We present Sparse Lattice Attention (Sla), a model that restricts every attention head",
      ("case",), near="We present Sparse Lattice Attention"),
    X("syn-fab-negation-claim",
      "Lead times beyond a day are where surge models still lead; we claim a gain there.",
      ("negation",), near="[^3] Lead times beyond a day"),
    X("syn-fab-negation-not",
      "They are not accurate but expensive, and a harbour office that needs a new forecast",
      ("negation",), near="They are accurate but expensive"),
    X("syn-fab-marker-12",
      "recurrent networks and temporal convolutions [5] now match surge models at many gauges",
      ("marker-dropped",), near="recurrent networks [12]"),
    X("syn-fab-marker-3",
      "now match surge models at many gauges for lead times of up to a day. Attention across "
      "gauges was first tried", ("marker-dropped",), near="for lead times of up to a day"),
    X("syn-fab-splice",
      "Sparse attention itself is not new: the lattice assumes one dominant constituent.",
      ("splice",), near="Sparse attention itself is not new"),
    X("syn-fab-splice-storms",
      "At Marrow Bay the error falls from 14.8 cm to 10.9 cm, which suggests that the model has "
      "learned how surges propagate", ("splice",), near="At Marrow Bay the error falls"),
    X("syn-fab-paraphrase",
      "Tides have been predicted by harmonic analysis for over a hundred years.",
      ("paraphrase",), near="Harmonic analysis has predicted"),
    X("syn-fab-paraphrase-laptop",
      "A forecast for every one of the 41 gauges takes 35 ms on a laptop CPU", ("paraphrase",),
      near="takes 35 ms on a laptop"),
    X("syn-fab-word-swap",
      "Statistical models are cheap, yet most of them treat each harbour in isolation",
      ("word-swap",), near="Statistical models are cheap"),
    X("syn-fab-word-swap-softmax",
      "Both restrictions are applied after the softmax, so masked pairs cost nothing.",
      ("word-swap",), near="Both restrictions are applied"),
    X("syn-fab-word-order",
      "the difference between the harmonic prediction and the observed level", ("word-swap",),
      near="the difference between the observed level"),
    X("syn-fab-word-missing",
      "Each gauge contributes one token per hour, made of the observed residual and the local "
      "wind.", ("word-missing",), near="Each gauge contributes one token"),
    X("syn-fab-word-added",
      "Coastal flood warnings depend critically on forecasts of the sea level", ("word-added",),
      near="Coastal flood warnings depend"),
    X("syn-fab-trivial", "the", ("trivial",), near=None,
      note="occurs everywhere; too short to show anything"),
    X("syn-fab-trivial-ellipsis", "...", ("trivial",), near=None, note="punctuation only"),
    X("syn-fab-lookalike", "Sparse Lattice \u0410ttention for Tide Forecasting", ("lookalike",),
      near="Sparse Lattice Attention for Tide Forecasting",
      note="the A of Attention is U+0410 CYRILLIC CAPITAL LETTER A"),
    X("syn-fab-lookalike-digit", "a learning rate of 0.OOO3 and a batch of 64 forecasts",
      ("lookalike",), near="a learning rate of 0.0003",
      note="capital letter O where the paper has the digit zero"),
    X("syn-fab-invented-tail",
      "Removing the lattice, so that each head attends to every node within the radius, raises "
      "the error by 0.6 cm on average and triples the memory footprint.", ("invented-tail",),
      near="Removing the lattice, so that each head"),
    X("syn-fab-invented-tail-persistence",
      "The persistence forecast is, as expected, competitive only at the shortest lead times "
      "and at sheltered harbours.", ("invented-tail",), near="The persistence forecast is"),
    X("syn-fab-punctuation",
      "The astronomical part of the tide is known years in advance, what remains difficult is "
      "the residual", ("punctuation",), near="The astronomical part of the tide"),
    X("syn-fab-punctuation-decimal",
      "raises the error by 0,6 cm on average and doubles the training time", ("punctuation",),
      near="raises the error by 0.6 cm"),
    X("syn-fab-cross-flow-footnote",
      "A gauge at the mouth of an estuary and a gauge forty kilometres upstream see The radius "
      "was tuned on the validation gauges", ("cross-flow",),
      near="A gauge at the mouth of an estuary",
      note="the body half runs straight into the footnote printed below it"),
    X("syn-fab-cross-flow-reference",
      "and only to gauges within a radius of 120 km. The radius was tuned on the validation "
      "gauges", ("cross-flow",), near="and only to gauges within a radius",
      note="the sentence joined to the footnote it refers to"),
    X("syn-fab-cross-flow-table",
      "Table 1 lists the six harbours that we use for every ablation, together with Harbour "
      "Range Max. residual", ("cross-flow",), near="Table 1 lists the six harbours",
      note="the body half runs into the table's header row"),
    X("syn-fab-cross-flow-continuation",
      "any value between 80 km and 160 km gave almost the same error. the same surge, but hours "
      "apart", ("cross-flow",), near="any value between 80 km and 160 km",
      note="the footnote runs into the body text that continues on the next page; contiguous "
      "once the page number and header are skipped, but two different flows"),
    X("syn-fab-cross-column-office",
      "recurrent network trained per gauge the ten-minute update cycle of a",
      ("cross-column",), near="recurrent network trained per gauge",
      note="left and right column lines at the same height, read across"),
    X("syn-fab-cross-column-training",
      "average the readings to hourly values training, the error rises by only 0.2",
      ("cross-column",), near="average the readings to hourly values",
      note="left and right column lines at the same height, read across"),
    X("syn-fab-cross-column-neighbours",
      "We evaluate on records from 41 tide neighbours and the extra distant",
      ("cross-column",), near="We evaluate on records from 41 tide",
      note="left and right column lines at the same height, read across"),
)


def all_specs() -> tuple[QuoteSpec, ...]:
    """Every quote spec of the set, faithful first."""
    return QUOTES + FABRICATED


# -- output -------------------------------------------------------------------------


@dataclass(frozen=True)
class SyntheticPaper:
    """The generated paper: PDF bytes, line records, extracted document and quotes."""

    pdf: bytes
    lines: tuple[LineRecord, ...]
    document: Document
    quotes: tuple[Quote, ...]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.pdf).hexdigest()

    def yaml_text(self) -> str:
        return quote_set_yaml(self)


def build_pdf() -> tuple[bytes, tuple[LineRecord, ...]]:
    """Draw the paper; return the PDF bytes and every line in drawing order."""
    layout = _Layout()
    data = layout.build(CONTENT)
    return data, tuple(layout.lines)


def build_synthetic(*, specs: Sequence[QuoteSpec] | None = None) -> SyntheticPaper:
    """Generate the paper in memory and build its quote set (nothing is written)."""
    data, lines = build_pdf()
    doc = Document.from_pdf_bytes(data, name=PDF_NAME)
    want = expected_text(lines)
    if doc.text != want:
        at = next((i for i, (a, b) in enumerate(zip(doc.text, want)) if a != b),
                  min(len(doc.text), len(want)))
        raise SpecError(
            f"extracted text differs from the drawn lines at offset {at}: "
            f"{doc.text[max(0, at - 40):at + 40]!r} vs {want[max(0, at - 40):at + 40]!r}"
        )
    quotes = build_quotes(doc, lines, all_specs() if specs is None else specs)
    return SyntheticPaper(data, lines, doc, tuple(quotes))


def _q(value: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax is a subset of it)."""
    return json.dumps(value, ensure_ascii=False)


def quote_set_yaml(paper: SyntheticPaper) -> str:
    """The quote set file (format 1) for ``paper``, as text."""
    fp = paper.document.text_fingerprint
    out = [
        "# Generated by quotelocate.data.synthetic (quotelocate synth); do not edit by hand.",
        "format: 1",
        f"name: {SET_NAME}",
        "description: " + _q(
            "Synthetic five-page paper with every PDF extraction artifact placed on purpose "
            "and exact ground truth. Generated with pymupdf "
            f"{pymupdf.VersionBind} (MuPDF {pymupdf.VersionFitz})."
        ),
        "paper:",
        f"  file: {PDF_NAME}",
        f"  sha256: {_q(paper.sha256)}",
        f"  url: {_q(PAPER_URL)}",
        f"  version: {_q(PAPER_VERSION)}",
        "  text:",
        f"    extractor: {fp['extractor']}",
        f"    extractor_version: {_q(str(fp['extractor_version']))}",
        f"    flags: {fp['flags']}",
        f"    sha256: {_q(fp['sha256'])}",
        "chunking:",
        f"  size: {CHUNK_SIZE}",
        f"  overlap: {CHUNK_OVERLAP}",
        f"  group_size: {GROUP_SIZE}",
        "quotes:",
    ]
    for q in paper.quotes:
        out.append(f"  - id: {q.id}")
        out.append(f"    text: {_q(q.text)}")
        out.append(f"    label: {q.label}")
        out.append(f"    tags: [{', '.join(q.tags)}]")
        if q.cited_chunk is not None:
            out.append(f"    cited_chunk: {q.cited_chunk}")
        if q.anchor is not None:
            out.append("    anchor:")
            out.append(f"      page: {q.anchor.page}")
            out.append(f"      start: {q.anchor.start}")
            out.append(f"      end: {q.anchor.end}")
            out.append(f"      text: {_q(q.anchor.text)}")
        if q.note:
            out.append(f"    note: {_q(q.note)}")
    return "\n".join(out) + "\n"


def write_synthetic(out_dir: Path, *, force: bool = False) -> list[Path]:
    """Write ``synthetic.pdf`` and ``synthetic.yaml`` into ``out_dir``; return both paths.

    The output is the same bytes on every run with the same pymupdf/MuPDF version.
    An existing file with other content is never overwritten unless ``force`` is set
    (:class:`~quotelocate.errors.ConfigError` names it); identical files are left alone.
    """
    paper = build_synthetic()
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"{out}: exists and is not a folder")
    files = {out / PDF_NAME: paper.pdf, out / YAML_NAME: paper.yaml_text().encode("utf-8")}
    differing = [p for p, data in files.items() if p.exists() and p.read_bytes() != data]
    if differing and not force:
        names = ", ".join(str(p) for p in differing)
        raise ConfigError(f"{names}: exists with other content; not overwritten (use --force to replace it)")
    out.mkdir(parents=True, exist_ok=True)
    for path, data in files.items():
        if not path.exists() or path.read_bytes() != data:
            tmp = path.with_name(f".{path.name}.part")
            tmp.write_bytes(data)
            os.replace(tmp, path)
    return list(files)

