"""The synthetic paper's text: its elements, in the small markup the generator draws,
and the labelled quotes written against it.

Data only; :mod:`quotelocate.data.synthetic` lays it out, draws the PDF and checks every
quote against what it drew. Changing a sentence here changes the committed
``datasets/synthetic`` files (``quotelocate synth --force`` rewrites them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

HEADER_TEXT = "Synthetic Test Paper \u2014 Draft"
STAMP_TEXT = "arXiv:2601.00001v1 [cs.CL] 1 Jan 2026"


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
