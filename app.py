"""quotelocate workbench: evaluate, compare, inspect and share rule configurations.

Run with ``make run`` (``streamlit run app.py``). Opens on the embedded ``synthetic``
quote set; nothing is downloaded unless you ask for it.

The script is thin: sidebar widgets -> a :class:`~quotelocate.normalize.Rules` config
-> cached library calls (:mod:`quotelocate.data.quoteset`, :mod:`quotelocate.evaluation`,
:mod:`quotelocate.evaluation.runstore`) -> one ``render_*`` function per view, each taking data
that is already computed. Every widget that defines the view is bound to the URL
(``bind="query-params"``), so a copied URL reopens the same set, rules and view.
Document and quote text is only ever shown with ``st.text``, ``st.code`` or
``st.dataframe``, never as Markdown or HTML.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from dataclasses import asdict, fields
from typing import Any

import pandas as pd
import streamlit as st

from quotelocate.evaluation import change_report, report
from quotelocate.evaluation.formatting import format_rate, paper_table
from quotelocate.interface import workbench
from quotelocate.chunks import Chunking
from quotelocate.data import editing
from quotelocate.data.quoteset import BUNDLED_SETS, FABRICATED_TAGS, FAITHFUL_TAGS, Quote, QuoteSet, fetch_all, load_quote_set
from quotelocate.document import render_page_png
from quotelocate.interface import overlay
from quotelocate.errors import PaperNotFoundError, QuotelocateError
from quotelocate.evaluation import Evaluation, SavingsAssumptions, cause_table, evaluate, grid_configs
from quotelocate.evaluation.savings import MIN_TIMED_DECISIONS, measured_review
from quotelocate.locate import Locator, Verdict
from quotelocate.normalize import ELLIPSIS_MODES, HYPHENATION_MODES, PRESETS, UNICODE_MODES, Rules
from quotelocate.evaluation.runstore import RunStore
from quotelocate.evaluation.triage import KINDS as TRIAGE_KINDS, Triage, TriageItem, triage
from quotelocate.trace import RuleTrace, rule_trace
from quotelocate.interface.eval_worker import WorkerRequest

VIEWS = ("Evaluate", "Compare", "Inspect", "Playground", "Savings", "Share", "Runs", "Triage")
LABEL_VIEW = "Label"  # works on its own draft set, not the sidebar's (label_view)
VIEWS = (*VIEWS, LABEL_VIEW)
UPLOAD = "upload"
SETS = (*BUNDLED_SETS, UPLOAD)
DEFAULT_RULES = PRESETS["recommended"]
RULE_FIELDS = tuple(f.name for f in fields(Rules))
SCOPES = ("group", "chunk", "document")
ALL_PAPERS = "all papers"
ONE_PAPER_VIEWS = ("Inspect", "Playground")  # views that show one paper's pages
OVERLAY_HELP = {"help": "Outline every text line in the colour of its flow (body, footnote, caption, float, "
                        "furniture, hidden) and number it in the order the layout reader reads it."}
COMPARE_MODES = ("every preset", "presets and recommended minus one rule", "one rule varied")
DEFAULT_SAVINGS = SavingsAssumptions()
SAVINGS_KEYS = ("rerun_s", "review_anchor_s", "review_no_anchor_s", "baseline", "target_pct", "fab_share_pct")
BOUND_KEYS = ("view", "set", "paper", "preset", *RULE_FIELDS, "scope", "chunk_size", "chunk_overlap", "group_size",
              "repeats", "cmp_mode", "cmp_rule", "flip_a", "flip_b", "quote", "only", *SAVINGS_KEYS)
DEFAULTS = {  # what each URL-bound widget shows when its parameter is absent
    "view": VIEWS[0], "set": SETS[0], "paper": ALL_PAPERS, "preset": "recommended", **DEFAULT_RULES.to_dict(), "scope": SCOPES[0],
    "repeats": 1, "cmp_mode": COMPARE_MODES[0], "cmp_rule": "quotes", "only": "all",
    "rerun_s": DEFAULT_SAVINGS.rerun_seconds, "review_anchor_s": DEFAULT_SAVINGS.review_seconds_with_anchor,
    "review_no_anchor_s": DEFAULT_SAVINGS.review_seconds_without_anchor, "baseline": DEFAULT_SAVINGS.baseline,
    "target_pct": 100 * DEFAULT_SAVINGS.target,
}
BOOL_RULES = {
    "quotes": "Curly quotes → straight",
    "whitespace": "Collapse whitespace",
    "invisible": "Drop soft hyphens / zero-width",
    "furniture": "Drop page furniture",
    "layout": "Layout reading order",
    "word_boundaries": "Whole words only",
    "accents": "Compose spacing accents (c¸ → ç)",
    "markers": "Raised markers may be left out or kept",
    "suspended_hyphens": "Suspended hyphens (pre- and post-)",
    "math_spacing": "Ignore spaces next to math symbols",
    "word_gaps": "Word gaps the text lost may be spaces",
    "slash_spacing": "Ignore a space after a slash (URLs, paths)",
    "url_spacing": "Ignore a space inside a URL (broken after a dot)",
}


# ---------------------------------------------------------------------------------------
# Cached library calls


@st.cache_resource(show_spinner="Opening the quote set and its paper…", max_entries=8)
def load_bundled(name: str, papers: str) -> QuoteSet:
    return load_quote_set(name, papers_path=papers or None)


@st.cache_resource(show_spinner="Checking the uploaded files…", max_entries=8)
def load_uploaded(digest: str, _folder: str, _set_bytes: bytes, _pdf_bytes: bytes | None) -> QuoteSet:
    return workbench.load_upload(_folder, _set_bytes, _pdf_bytes)


@st.cache_resource(max_entries=8)
def rechunked(set_hash: str, chunking: tuple[int, int, int], _quote_set: QuoteSet) -> QuoteSet:
    return workbench.with_chunking(_quote_set, Chunking(*chunking))


@st.cache_data(show_spinner="Evaluating…", max_entries=64)
def run_evaluation(set_hash: str, configs: tuple[tuple[str, str], ...], scope: str, repeats: int,
                   savings: tuple, ablation: bool, _quote_set: QuoteSet, _rules: tuple[Rules, ...]) -> Evaluation:
    named = {name: rules for (name, _), rules in zip(configs, _rules)}
    return evaluate(_quote_set, named, scope=scope, repeats=repeats,
                    savings=SavingsAssumptions(**dict(savings)), ablation=ablation)


@st.cache_resource(max_entries=16)
def locator_for(set_hash: str, paper_sha256: str, fingerprint: str, _quote_set: QuoteSet, _rules: Rules) -> Locator:
    return Locator(_quote_set.document(), _rules, chunking=_quote_set.chunking, chunks=_quote_set.explicit_chunks)


@st.cache_resource(max_entries=8)
def overlay_lines(paper_sha256: str, _quote_set: QuoteSet) -> tuple[overlay.OverlayLine, ...]:
    return overlay.overlay_lines(_quote_set.document())


@st.cache_data(max_entries=64)
def page_png(paper_sha256: str, page: int, boxes: tuple, with_overlay: bool, _quote_set: QuoteSet) -> bytes:
    doc = _quote_set.document()
    path = str(_quote_set.paper_path or doc.name)
    if with_overlay:
        return overlay.render_overlay_png(doc, page, lines=overlay_lines(doc.sha256, _quote_set), pdf_path=path,
                                          boxes=boxes)
    return render_page_png(doc, page, boxes=boxes, pdf_path=path)


def highlight_images(quote_set: QuoteSet, verdict: Verdict, with_overlay: bool) -> tuple[list[tuple[int, bytes]], str]:
    """Rendered pages of a verdict's match (or closest passage), up to three, and what is highlighted."""
    doc = quote_set.document()
    boxes: tuple = verdict.boxes
    pages: tuple[int, ...] = verdict.pages
    highlight = "match" if verdict.accepted else "found text"
    if verdict.near_miss is not None:
        nm = verdict.near_miss
        boxes = doc.boxes([(nm.start, nm.end)])
        pages = doc.pages_for(nm.start, nm.end)
        highlight = "closest passage"
    images = []
    if doc.kind == "pdf":
        for page in pages[:3]:
            images.append((page, page_png(doc.sha256, page, tuple(b for b in boxes if b.page == page), with_overlay,
                                          quote_set)))
    return images, highlight


@st.cache_data(show_spinner="Writing the report…", max_entries=8)
def report_html(key: str, _evaluation: Evaluation) -> str:
    return report.render_html(_evaluation)


@st.cache_data(show_spinner="Writing the report…", max_entries=8)
def change_html(key: str, _before: Evaluation, _after: Evaluation, before_title: str, after_title: str) -> str:
    return change_report.render_change_html(_before, _after, a_title=before_title, b_title=after_title)


@st.cache_data(show_spinner="Evaluating the upload in a worker process…", max_entries=64)
def run_isolated(request_json: str, _request: WorkerRequest) -> Evaluation:
    return workbench.evaluate_upload(_request)


def evaluation_of(quote_set: QuoteSet, named: dict[str, Rules], *, scope: str, repeats: int = 1,
                  savings: SavingsAssumptions | None = None, ablation: bool = False) -> Evaluation:
    """Cached :func:`evaluate`, keyed by (set hash, rules fingerprints, options). An
    uploaded set is evaluated in a worker process with a time limit (see
    :mod:`quotelocate.interface.eval_worker`), never in the server's own process."""
    if savings is None:  # no savings asked for: measure against the first config, evaluate nothing extra
        savings = SavingsAssumptions(baseline=next(iter(named)))
    source = st.session_state.get("_upload_source")
    if source is not None and source["set_hash"] == quote_set.set_hash:
        request = WorkerRequest(
            set_path=source["set_path"], paper_path=source["paper_path"], chunking=source["chunking"],
            configs={name: rules.to_dict() for name, rules in named.items()}, scope=scope, repeats=repeats,
            savings=asdict(savings), ablation=ablation,
        )
        return run_isolated(request.to_json(), request)
    configs = tuple((name, rules.fingerprint) for name, rules in named.items())
    return run_evaluation(quote_set.set_hash, configs, scope, repeats, tuple(sorted(asdict(savings).items())),
                          ablation, quote_set, tuple(named.values()))


def run_store() -> RunStore:
    return RunStore()


# ---------------------------------------------------------------------------------------
# Widgets -> config


def _init_state() -> None:
    """Before any widget exists: apply a shared ``?preset=`` that came without rules."""
    if st.session_state.get("_init"):
        return
    st.session_state["_init"] = True
    params = st.query_params
    name = params.get("preset")
    if name in PRESETS and not any(k in params for k in RULE_FIELDS):
        for key, value in PRESETS[name].to_dict().items():
            st.session_state[key] = value


def _apply_preset() -> None:
    name = st.session_state.get("preset")
    if name in PRESETS:
        for key, value in PRESETS[name].to_dict().items():
            st.session_state[key] = value


def _rule_changed() -> None:
    st.session_state["preset"] = workbench.matching_preset(current_rules())


def current_rules() -> Rules:
    state = st.session_state
    return Rules(**{key: state.get(key, getattr(DEFAULT_RULES, key)) for key in RULE_FIELDS})


def config_name(rules: Rules) -> str:
    name = workbench.matching_preset(rules)
    return name if name != "custom" else "current"


def sidebar() -> dict[str, Any]:
    """The shared controls: quote set, rules, scope, chunking. Returns the choices."""
    sb = st.sidebar
    sb.header("Quote set")
    choice = sb.selectbox("Quote set", SETS, key="set", bind="query-params",
                          help="A bundled set, or `upload` to check your own quote set and paper.")
    uploads = None
    if choice == UPLOAD:
        set_file = sb.file_uploader("Quote set (YAML)", type=["yaml", "yml"], key="upload_set")
        pdf_file = sb.file_uploader("Paper (PDF, optional if it is on the papers path)", type=["pdf"],
                                    key="upload_pdf")
        uploads = (set_file, pdf_file)

    sb.header("Rules")
    sb.selectbox("Preset", (*PRESETS, "custom"), key="preset", bind="query-params",
                 index=tuple(PRESETS).index("recommended"),
                 on_change=_apply_preset, help="Pick a preset, then change single rules below.")
    for key, label in BOOL_RULES.items():
        sb.checkbox(label, value=getattr(DEFAULT_RULES, key), key=key, bind="query-params",
                    on_change=_rule_changed)
    sb.selectbox("Unicode", UNICODE_MODES, index=UNICODE_MODES.index(DEFAULT_RULES.unicode), key="unicode",
                 bind="query-params", on_change=_rule_changed)
    sb.selectbox("End-of-line hyphens", HYPHENATION_MODES, index=HYPHENATION_MODES.index(DEFAULT_RULES.hyphenation),
                 key="hyphenation", bind="query-params", on_change=_rule_changed)
    c1, c2 = sb.columns(2)
    c1.selectbox("Ellipsis in a quote", ELLIPSIS_MODES, index=ELLIPSIS_MODES.index(DEFAULT_RULES.ellipsis),
                 key="ellipsis", bind="query-params", on_change=_rule_changed,
                 help="verbatim: '...' is text. fragments: the pieces around it must each match, in order.")
    c2.number_input("Longest omission", min_value=0, max_value=100_000, value=DEFAULT_RULES.ellipsis_gap,
                    key="ellipsis_gap", bind="query-params", on_change=_rule_changed,
                    help="How many characters one ellipsis may stand for (fragments mode).")
    c1, c2 = sb.columns(2)
    c1.number_input("Min chars", min_value=0, max_value=1000, value=DEFAULT_RULES.min_chars, key="min_chars",
                    bind="query-params", on_change=_rule_changed)
    c2.number_input("Min words", min_value=0, max_value=100, value=DEFAULT_RULES.min_words, key="min_words",
                    bind="query-params", on_change=_rule_changed)

    sb.header("Material")
    scope = sb.selectbox("Scope for quotes with a cited chunk", SCOPES, key="scope", bind="query-params")
    c1, c2, c3 = sb.columns(3)
    size = c1.number_input("Chunk", min_value=16, max_value=100_000, value=None, key="chunk_size",
                           bind="query-params", placeholder="set")
    overlap = c2.number_input("Overlap", min_value=0, max_value=100_000, value=None, key="chunk_overlap",
                              bind="query-params", placeholder="set")
    group = c3.number_input("Group", min_value=1, max_value=100, value=None, key="group_size",
                            bind="query-params", placeholder="set")
    repeats = sb.number_input("Timing repeats per quote", min_value=1, max_value=20, value=1, key="repeats",
                              bind="query-params")
    return {"set": choice, "uploads": uploads, "scope": scope, "chunking": (size, overlap, group),
            "repeats": int(repeats), "rules": current_rules()}


def show_error(title: str, detail: str) -> None:
    """A fixed message, with the library's one-line explanation shown as plain text."""
    st.error(title, icon="⚠️")
    st.code(detail, language=None, wrap_lines=True)


def session_folder() -> str:
    folder = st.session_state.get("_upload_dir")
    if not folder or not os.path.isdir(folder):
        workbench.prune_upload_folders(tempfile.gettempdir())
        folder = tempfile.mkdtemp(prefix=workbench.UPLOAD_PREFIX)
        st.session_state["_upload_dir"] = folder
    return folder


def resolve_quote_set(choices: dict[str, Any]) -> QuoteSet | None:
    """The quote set the sidebar asks for, or None after explaining why not."""
    name = choices["set"]
    try:
        if name == UPLOAD:
            set_file, pdf_file = choices["uploads"]
            if set_file is None:
                st.info("Upload a quote set (YAML, format in datasets/README.md) and its paper (PDF) in the sidebar.")
                return None
            workbench.check_upload_object(set_file, "quote set")  # before a byte is copied or written
            if pdf_file is not None:
                workbench.check_upload_object(pdf_file, "paper")
            set_bytes = set_file.getvalue()
            pdf_bytes = pdf_file.getvalue() if pdf_file is not None else None
            digest = workbench.upload_digest(set_bytes, pdf_bytes)
            quote_set = load_uploaded(digest, session_folder(), set_bytes, pdf_bytes)
            paper = quote_set.paper_path if pdf_bytes is not None else None
            st.session_state["_upload_source"] = {
                "set_hash": quote_set.set_hash, "set_path": str(quote_set.path),
                "paper_path": None if paper is None else str(paper), "chunking": None,
            }
        else:
            st.session_state["_upload_source"] = None
            quote_set = load_bundled(name, os.environ.get("QUOTELOCATE_PAPERS", ""))
    except PaperNotFoundError as exc:
        render_missing_paper(name, str(exc))
        return None
    except QuotelocateError as exc:
        show_error("The quote set could not be loaded.", str(exc))
        return None
    size, overlap, group = choices["chunking"]
    if any(v is not None for v in (size, overlap, group)):
        base = quote_set.chunking
        wanted = (int(size or base.size), int(base.overlap if overlap is None else overlap), int(group or base.group_size))
        try:
            quote_set = rechunked(quote_set.set_hash, wanted, quote_set)
            source = st.session_state.get("_upload_source")
            if source is not None:
                st.session_state["_upload_source"] = {**source, "set_hash": quote_set.set_hash,
                                                      "chunking": wanted}
        except QuotelocateError as exc:
            show_error("That chunking does not fit this quote set; using the set's own.", str(exc))
    return quote_set


def narrow_to_paper(quote_set: QuoteSet) -> QuoteSet:
    """A set of several papers gets a *Paper* choice in the sidebar (bound to the URL):
    every view then shows the whole set or just the paper picked."""
    if not quote_set.multi_paper:
        return quote_set
    options = (ALL_PAPERS, *quote_set.paper_ids)
    if st.session_state.get("paper") not in options:
        st.session_state["paper"] = ALL_PAPERS  # a shared link to a paper this set does not have
    pick = st.sidebar.selectbox("Paper", options, key="paper", bind="query-params",
                                help="The set spans several papers: evaluate them all, or narrow every view "
                                     "to one (the command line's --paper).")
    return quote_set if pick == ALL_PAPERS else quote_set.for_paper(pick)


def render_missing_paper(name: str, detail: str) -> None:
    show_error("The pinned paper of this quote set is not on the papers search path.", detail)
    if name == UPLOAD:
        st.info("Upload the paper as well, or put it in a folder on QUOTELOCATE_PAPERS.")
        return
    if st.button("Fetch the paper", key="fetch", help="Downloads it from the URL in the quote set and checks its sha256."):
        try:
            with st.spinner("Downloading…"):
                fetched = fetch_all(name)  # every paper of the set, each checked against its pin
        except QuotelocateError as exc:
            show_error("The download failed.", str(exc))
            return
        load_bundled.clear()
        st.success("Downloaded and checked against the pin.")
        for w in (w for f in fetched for w in f.warnings):
            st.code(w, language=None, wrap_lines=True)
        st.rerun()


# ---------------------------------------------------------------------------------------
# Views (each takes data that is already computed)


def render_set_header(quote_set: QuoteSet, rules: Rules) -> None:
    counts = f"{len(quote_set.faithful)} faithful + {len(quote_set.fabricated)} fabricated quotes"
    if quote_set.multi_paper:
        pages = sum(len(part.document().pages) for part in quote_set.parts)
        st.caption(f"Set **{quote_set.name}** · {counts} · {len(quote_set.parts)} papers · {pages} pages · "
                   f"rules `{rules.fingerprint}`")
    else:
        doc = quote_set.document()
        st.caption(f"Set **{quote_set.name}** · {counts} · paper sha256 `{doc.sha256[:16]}…` · "
                   f"{len(doc.pages)} pages · rules `{rules.fingerprint}`")
    for warning in quote_set.warnings:
        st.warning("The quote set loaded with a warning:")
        st.code(warning, language=None, wrap_lines=True)


def render_evaluate(metrics: pd.Series, by_tag: pd.DataFrame, rules: Rules, causes: pd.DataFrame,
                    verdicts: pd.DataFrame) -> None:
    st.subheader("Evaluate")
    st.text(f"Rules: {rules.describe()}")
    c = st.columns(3)
    c[0].metric("False-reject rate", format_rate(metrics["false_reject"]),
                help="Faithful quotes rejected (lower is better).")
    c[0].caption(f"95% interval {format_rate(metrics['fr_low'])} – {format_rate(metrics['fr_high'])}"
                 f" · n = {metrics['n_faithful']}")
    c[1].metric("False-accept rate", format_rate(metrics["false_accept"]),
                help="Fabricated quotes accepted (must stay at zero).")
    c[1].caption(f"95% interval {format_rate(metrics['fa_low'])} – {format_rate(metrics['fa_high'])}"
                 f" · n = {metrics['n_fabricated']}")
    c[2].metric("Anchor accuracy", format_rate(metrics["anchor_accuracy"]),
                help="Accepted faithful quotes placed on their labelled span.")
    c[2].caption(f"95% interval {format_rate(metrics['aa_low'])} – {format_rate(metrics['aa_high'])}")
    c = st.columns(5)
    c[0].metric("Throughput", f"{metrics['throughput_qps']:,.0f} q/s")
    c[1].metric("Latency p50", f"{metrics['p50_ms']:.2f} ms")
    c[2].metric("Latency p95", f"{metrics['p95_ms']:.2f} ms")
    c[3].metric("Latency p99", f"{metrics['p99_ms']:.2f} ms")
    c[4].metric("Index build", f"{metrics['build_ms']:.0f} ms")
    st.caption(report.HOW_MEASURED)
    st.vega_lite_chart(report.latency_spec(verdicts), width="content")
    st.markdown("**Error rate per tag** (faithful: rejected; fabricated: accepted)")
    table = by_tag.assign(rate=[format_rate(r, lo, hi) for r, lo, hi in zip(by_tag["rate"], by_tag["low"], by_tag["high"])])
    st.dataframe(table[["label", "tag", "n", "rate"]], hide_index=True, width="stretch")
    st.markdown("**How rejections were explained** (suspected cause per class; fuzzy similarity explains, never accepts)")
    st.dataframe(causes, hide_index=True, width="stretch")


def render_compare(evaluation: Evaluation, ablation: pd.DataFrame | None, flips: pd.DataFrame,
                   pair: tuple[str, str]) -> None:
    st.dataframe(report.metrics_table(evaluation.metrics), hide_index=True, width="stretch")
    st.altair_chart(report.rates_chart(evaluation.metrics), width="content")
    st.markdown("**Latency per config**")
    st.vega_lite_chart(report.latency_spec(evaluation.verdicts), width="content")
    st.altair_chart(report.throughput_chart(evaluation.metrics), width="content")
    if report.several_papers(evaluation.verdicts):
        render_paper_timing(evaluation.verdicts, evaluation.by_paper)
    st.markdown("**Per-tag error rate**")
    st.altair_chart(report.tag_heatmap(evaluation.by_tag), width="content")
    if ablation is not None:
        st.markdown("**Ablation of the current config** (one rule changed; exact McNemar p-values, and the same "
                    "after Holm's correction for the number of tests in the table: `holm_p_*`)")
        st.dataframe(ablation.round(4), hide_index=True, width="stretch")
    st.markdown(f"**Quotes whose verdict flips** between `{pair[0]}` and `{pair[1]}`: {len(flips)}")
    st.dataframe(flips, hide_index=True, width="stretch")


def render_paper_timing(verdicts: pd.DataFrame, by_paper: pd.DataFrame) -> None:
    """Latency and throughput on each paper of a multi-paper evaluation; the paper ids
    reach Vega-Lite as data (panel headers and axis labels), never as markup."""
    st.markdown("**Latency on each paper**")
    st.caption(report.PAPER_LATENCY_TEXT)
    st.vega_lite_chart(report.paper_latency_spec(verdicts), width="content")
    st.markdown("**Throughput on each paper**")
    st.caption(report.PAPER_THROUGHPUT_TEXT)
    st.vega_lite_chart(report.paper_throughput_spec(by_paper), width="content")


def render_near_miss(nm: Any, heading: str) -> None:
    """A near miss as text: ``heading``, the closest passage and the character diff."""
    st.text(heading)
    st.code(nm.passage, language=None, wrap_lines=True)
    st.text("Character diff, [-passage-]{+quote+}:")
    st.code(nm.diff_text(), language=None, wrap_lines=True)


def render_inspect_table(verdicts: pd.DataFrame) -> None:
    cols = ["id", "text", "label", "accepted", "status", "cause", "rules", "page", "tags"]
    ids = tuple(verdicts["id"])

    def pick() -> None:  # a clicked row selects that quote below
        rows = st.session_state["inspect_table"].selection.rows
        if rows and rows[0] < len(ids):
            st.session_state["quote"] = ids[rows[0]]

    st.dataframe(verdicts[cols], hide_index=True, width="stretch", height=260, key="inspect_table",
                 on_select=pick, selection_mode="single-row",
                 column_config={"text": st.column_config.TextColumn("quote", width="large")})


def render_quote_detail(quote: Quote, verdict: Verdict, locator: Locator, images: list[tuple[int, bytes]],
                        highlight: str) -> None:
    # plain text: the id comes from the user's file (never Markdown, whatever its pattern allows)
    st.text(f"{quote.id} · labelled {quote.label} · verdict {verdict.status}"
            + (f" · cause {verdict.cause}" if verdict.cause else "")
            + (f" · rules {', '.join(verdict.rules)}" if verdict.rules else ""))
    st.text("Quote as the model wrote it:")
    st.code(quote.text, language=None, wrap_lines=True)
    st.text(f"Reason: {verdict.reason}")
    left, right = st.columns([2, 3])
    with left:
        if verdict.near_miss is not None:
            nm = verdict.near_miss
            render_near_miss(nm, f"Closest passage, page {nm.page}, {nm.similarity:.0f}% similar ({nm.cause}):")
        elif verdict.start is not None:
            before, match, after = locator.context(verdict, width=120)
            st.text("Matched text in the paper (as extracted):")
            st.code(match, language=None, wrap_lines=True)
            st.text("Context:")
            st.code(f"…{before}⟦{match}⟧{after}…", language=None, wrap_lines=True)
        if quote.cited_chunk is not None and 0 <= quote.cited_chunk < len(locator.chunks):
            st.text(f"Cited chunk {quote.cited_chunk}:")
            st.code(locator.chunk_text(quote.cited_chunk), language=None, wrap_lines=True)
        if quote.note:
            st.text("Note in the quote set:")
            st.code(quote.note, language=None, wrap_lines=True)
    with right:
        if not images:
            st.text("Nothing to highlight (no match and no near miss on a PDF page).")
        for column, (page, png) in zip(st.columns(len(images)) if images else (), images):
            column.image(png, caption=f"page {page}: {highlight} highlighted", width="stretch")


def render_overlay_legend(quote_set: QuoteSet, images: list[tuple[int, bytes]]) -> None:
    lines = overlay_lines(quote_set.document().sha256, quote_set)
    rows = [dict(page=page, **row) for page, _ in images for row in overlay.legend(lines, page)]
    st.caption("Layout overlay: what the layout reader decided for each line (colour = flow; the number is the "
               "line's place in the reading order the locator searches; furniture and blank lines are not read).")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="content",
                 column_config={"colour": st.column_config.TextColumn("colour (hex)")})


def render_trace(trace: RuleTrace) -> None:
    passage = trace.passage_kind or "passage"
    st.markdown(f"**Per-rule trace**: the quote and the {passage} after each rule, in the order the rules run")
    st.caption("Read off the offset map of one normalization (no rule is re-run). [-old-]{+new+} marks what the "
               "rule changed (↵ line break, · space, ⟨U+…⟩ other invisible characters); «…» marks text the rule "
               "touched that a later rule finishes changing.")
    for i, row in enumerate(trace.rows()):
        changed = "" if i == 0 else f" · quote: {row['quote_changed']} changed · {passage}: {row['passage_changed']} changed"
        st.text(f"{i}. {row['rule']}{changed}")
        c1, c2 = st.columns(2)
        c1.code(row["quote_marked"], language=None, wrap_lines=True)
        if trace.passage is not None:
            c2.code(row["passage_marked"], language=None, wrap_lines=True)
    if trace.passage is None:
        st.text("No passage to trace: the quote is invalid or nothing in the paper resembles it.")


def render_playground(verdict: Verdict, trace: RuleTrace, images: list[tuple[int, bytes]], highlight: str,
                      elapsed_ms: float) -> None:
    (st.success if verdict.accepted else st.error)(
        f"{'Accepted' if verdict.accepted else 'Rejected'}: {verdict.status}"
        + (f" · cause {verdict.cause}" if verdict.cause else "")
        + (f" · pages {', '.join(map(str, verdict.pages))}" if verdict.pages else "")
        + f" · answered in {elapsed_ms:.0f} ms"
    )
    st.text(f"Reason: {verdict.reason}")
    if verdict.rules:
        st.text(f"Rules the match needed: {', '.join(verdict.rules)}")
    render_trace(trace)
    if verdict.near_miss is not None:
        st.text("Character diff, [-passage-]{+quote+}:")
        st.code(verdict.near_miss.diff_text(), language=None, wrap_lines=True)
    if not images:
        st.text("Nothing to highlight (no match and no near miss on a PDF page).")
    for column, (page, png) in zip(st.columns(len(images)) if images else (), images):
        column.image(png, caption=f"page {page}: {highlight} highlighted", width="stretch")


def render_savings(savings: pd.DataFrame, name: str) -> None:
    row = savings.loc[savings["config"] == name].iloc[0]
    st.metric("Measured saving", format_rate(row["saving"]),
              help="1 − cost(config) / cost(baseline), expected review seconds per quote.")
    st.caption(f"interval {format_rate(row['saving_low'])} – {format_rate(row['saving_high'])}"
               f" · claimed target {format_rate(row['target'])}"
               f" · {row['cost_s_per_quote']:.1f} s vs {row['baseline_cost_s']:.1f} s per quote")
    sentence = report.savings_sentences(savings.loc[savings["config"] == name])[0]
    (st.success if bool(row["holds"]) else st.error)(sentence)
    st.altair_chart(report.savings_chart(savings), width="content")
    st.dataframe(savings, hide_index=True, width="stretch")


def render_share(url: str, uploaded: bool, stem: str, make_report, make_json, make_csv) -> None:
    st.text("This link reopens the same quote set, rules and view:")
    st.code(url, language=None, wrap_lines=True)
    if uploaded:
        st.warning("Uploaded files are not part of the link; share them alongside it.")
    st.text("Every preset and the current rules, measured on this set (computed when you click):")
    c = st.columns(3)
    c[0].download_button("Download report (HTML)", data=make_report, file_name=f"{stem}-report.html",
                         mime="text/html", key="dl_report")
    c[1].download_button("Download run (JSON)", data=make_json, file_name=f"{stem}-run.json",
                         mime="application/json", key="dl_json")
    c[2].download_button("Download verdicts (CSV)", data=make_csv, file_name=f"{stem}-verdicts.csv",
                         mime="text/csv", key="dl_csv")
    st.caption("The report is one offline HTML file: charts are inline SVG, tables are plain HTML, and it "
               "loads nothing from the network. `quotelocate report RUN` writes the same file from a stored run.")


RUN_LIST_COLUMNS = ["title", "tags", "notes", "created", "set_name", "configs", "n_quotes", "id"]


def render_runs(runs: pd.DataFrame, store_path: str) -> None:
    st.text(f"Run store: {store_path}")
    if runs.empty:
        st.info("No stored runs yet. Save the current evaluation below, or use `quotelocate eval --save`.")
        return
    st.dataframe(runs[RUN_LIST_COLUMNS], hide_index=True, width="stretch",
                 column_config={"title": st.column_config.TextColumn("run", width="medium")})


def render_run(evaluation: Evaluation) -> None:
    st.dataframe(report.metrics_table(evaluation.metrics), hide_index=True, width="stretch")
    st.altair_chart(report.rates_chart(evaluation.metrics), width="content")


def render_change(tables, sentences: list[str]) -> None:
    if tables.pairing:
        st.text(tables.pairing)
    if tables.deltas.empty:
        st.warning("The runs share no config name, so no rate or verdict is paired.")
    for line in sentences:
        st.text(line)
    st.caption("Configs are paired by name and quotes by id; p-values are exact McNemar tests on the paired "
               "decisions, then Holm-corrected for the number of tests in the table.")
    st.markdown("**Rate changes per config**")
    st.dataframe(tables.deltas.round(4), hide_index=True, width="stretch")
    st.markdown("**Per tag** (tags whose error rate changed)")
    st.dataframe(tables.by_tag.round(4), hide_index=True, width="stretch")
    st.markdown("**Per paper**")
    st.dataframe(tables.by_paper.round(4), hide_index=True, width="stretch")
    st.markdown(f"**Verdicts that flipped**: {len(tables.flips)} (diffs are [-passage-]{{+quote+}})")
    st.dataframe(tables.flips, hide_index=True, width="stretch")
    st.markdown("**Configs** (rules and fingerprints of both runs)")
    st.dataframe(tables.configs, hide_index=True, width="stretch")


# ---------------------------------------------------------------------------------------
# View controllers: widgets of one view -> library calls -> render_*


def evaluate_view(quote_set: QuoteSet, choices: dict[str, Any]) -> None:
    rules = choices["rules"]
    name = config_name(rules)
    ev = evaluation_of(quote_set, {name: rules}, scope=choices["scope"], repeats=choices["repeats"])
    metrics = ev.metrics.loc[ev.metrics["config"] == name].iloc[0]
    render_evaluate(metrics, ev.by_tag.loc[ev.by_tag["config"] == name], rules, cause_table(ev.verdicts, name),
                    ev.verdicts.loc[ev.verdicts["config"] == name])
    if quote_set.multi_paper:
        st.markdown("**Per paper** (pick one under *Paper* in the sidebar to narrow every view to it)")
        st.dataframe(paper_table(ev.by_paper.loc[ev.by_paper["config"] == name]), hide_index=True, width="stretch")
        mine = ev.verdicts.loc[ev.verdicts["config"] == name]
        if report.several_papers(mine):
            render_paper_timing(mine, ev.by_paper.loc[ev.by_paper["config"] == name])
    if st.button("Save this evaluation to the run store", key="save_eval"):
        save_run(ev)


def save_run(evaluation: Evaluation, *, name: str = "", notes: str = "", tags: list[str] | None = None) -> None:
    try:
        run_id = run_store().save(evaluation, name=name, notes=notes, tags=tags or [])
    except QuotelocateError as exc:
        show_error("The run could not be saved.", str(exc))
        return
    st.success(f"Saved as run {run_id}.")


def compare_grid(rules: Rules, mode: str, rule: str) -> dict[str, Rules]:
    if mode == COMPARE_MODES[2]:
        grid = workbench.vary_rule(rules, rule)
    elif mode == COMPARE_MODES[1]:
        grid = grid_configs()
    else:
        grid = dict(PRESETS)
    if rules not in grid.values():
        grid = {config_name(rules): rules, **grid}
    return grid


def compare_view(quote_set: QuoteSet, choices: dict[str, Any]) -> None:
    rules = choices["rules"]
    c1, c2 = st.columns(2)
    mode = c1.radio("Configs", COMPARE_MODES, key="cmp_mode", bind="query-params")
    rule = c2.selectbox("Rule to vary", workbench.VARIABLE_RULES, key="cmp_rule", bind="query-params",
                        disabled=mode != COMPARE_MODES[2])
    grid = compare_grid(rules, mode, rule)
    ev = evaluation_of(quote_set, grid, scope=choices["scope"])
    names = list(grid)
    c1, c2, c3 = st.columns([2, 2, 1])
    a = c1.selectbox("Flips from", names, index=0, key="flip_a", bind="query-params")
    b = c2.selectbox("to", names, index=min(1, len(names) - 1), key="flip_b", bind="query-params")
    with_ablation = c3.toggle("Ablation", value=True, key="cmp_ablation")
    ablation = None
    if with_ablation:
        current = {config_name(rules): rules}
        ablation = evaluation_of(quote_set, current, scope=choices["scope"], ablation=True).ablation
    render_compare(ev, ablation, report.verdict_flips(ev.verdicts, a, b), (a, b))


def inspect_view(quote_set: QuoteSet, choices: dict[str, Any]) -> None:
    rules = choices["rules"]
    name = config_name(rules)
    ev = evaluation_of(quote_set, {name: rules}, scope=choices["scope"], repeats=choices["repeats"])
    verdicts = ev.verdicts.loc[ev.verdicts["config"] == name].reset_index(drop=True)
    only = st.radio("Show", ("all", "misjudged", "rejected", "accepted"), horizontal=True, key="only",
                    bind="query-params")
    if only == "misjudged":
        verdicts = report.errors(verdicts)
    elif only != "all":
        verdicts = verdicts.loc[verdicts["accepted"] == (only == "accepted")].reset_index(drop=True)
    timing = st.toggle("Timing mode", key="timing", help=TIMING_HELP)
    if not timing:
        render_inspect_table(verdicts)
    ids = list(verdicts["id"]) or [q.id for q in quote_set.quotes]
    qid = st.selectbox("Quote (or click a row above)", ids, key="quote", bind="query-params")
    if qid is None:
        return
    quote = quote_set.by_id(qid)
    if timing:
        timing_mode(quote_set, choices, ids, qid)
        return
    row = ev.verdicts.loc[(ev.verdicts["config"] == name) & (ev.verdicts["id"] == qid)].iloc[0]
    doc = quote_set.document()
    locator = locator_for(quote_set.set_hash, doc.sha256, rules.fingerprint, quote_set, rules)
    scope = row["scope"] or "document"
    verdict = locator.locate(quote.text, cited_chunk=quote.cited_chunk if scope != "document" else None, scope=scope)
    images, highlight = highlight_images(quote_set, verdict, st.toggle("Layout overlay", key="overlay", **OVERLAY_HELP))
    if images and st.session_state.get("overlay"):
        render_overlay_legend(quote_set, images)
    render_quote_detail(quote, verdict, locator, images, highlight)


TIMING_HELP = ("Review quotes one after the other, timed: each decision is stored in the run store with how "
               "long it took, alternately with the anchor (page and highlight) shown and without it. The "
               "Savings view then uses the medians of these times instead of the typed-in seconds.")


def _record_decision(quote_set: QuoteSet, qid: str, anchor: bool, decision: str, ids: list[str]) -> None:
    """Button callback: store the seconds since the quote was shown, move to the next quote."""
    state = st.session_state
    started = state.pop("_timing_t0", None)
    if started is None or started[0] != qid:
        return
    seconds = time.monotonic() - started[1]
    try:
        run_store().record_review(set_name=quote_set.name, paper_sha256=quote_set.document().sha256, quote_id=qid,
                                  anchor_shown=anchor, seconds=seconds, decision=decision)
    except QuotelocateError as exc:
        state["_timing_msg"] = ("error", str(exc))
        return
    state["_timing_n"] = state.get("_timing_n", 0) + 1
    state["_timing_msg"] = ("ok", f"Recorded {seconds:.1f} s for {qid} ({'with' if anchor else 'without'} anchor, "
                                  f"{decision}).")
    state["quote"] = ids[(ids.index(qid) + 1) % len(ids)] if qid in ids else ids[0]


def timing_mode(quote_set: QuoteSet, choices: dict[str, Any], ids: list[str], qid: str) -> None:
    state = st.session_state
    anchor = state.get("_timing_n", 0) % 2 == 0  # alternate, so both conditions fill up alike
    if state.get("_timing_t0", (None,))[0] != qid:
        state["_timing_t0"] = (qid, time.monotonic())  # the clock starts when the quote is first shown
    kind, message = state.pop("_timing_msg", (None, ""))
    if kind == "ok":
        st.success(message)
    elif kind == "error":
        show_error("The review time was not stored.", message)
    quote = quote_set.by_id(qid)
    st.text(f"Decide: is this quote in the paper, verbatim? ({'anchor shown' if anchor else 'no anchor: find it yourself'})")
    st.code(quote.text, language=None, wrap_lines=True)
    c1, c2 = st.columns(2)
    c1.button("In the paper (accept)", key="time_accept", on_click=_record_decision,
              args=(quote_set, qid, anchor, "accept", ids))
    c2.button("Not in the paper (reject)", key="time_reject", on_click=_record_decision,
              args=(quote_set, qid, anchor, "reject", ids))
    rules = choices["rules"]
    doc = quote_set.document()
    if anchor:
        locator = locator_for(quote_set.set_hash, doc.sha256, rules.fingerprint, quote_set, rules)
        scope = choices["scope"] if quote.cited_chunk is not None else "document"
        verdict = locator.locate(quote.text, cited_chunk=quote.cited_chunk if scope != "document" else None,
                                 scope=scope)
        images, highlight = highlight_images(quote_set, verdict, False)
        st.text(f"The checker says: {verdict.status} ({verdict.reason})")
        for column, (page, png) in zip(st.columns(len(images)) if images else (), images):
            column.image(png, caption=f"page {page}: {highlight} highlighted", width="stretch")
    else:
        st.text("The paper's text (search it with your browser's find):")
        with st.container(height=420):
            st.code(doc.text, language=None, wrap_lines=True)
    try:
        measured = measured_review(run_store().review_times(), paper_sha256=doc.sha256, min_decisions=1)
        counts = run_store().review_times()
    except QuotelocateError as exc:
        show_error("The run store cannot be read.", str(exc))
        return
    mine = counts.loc[counts["paper_sha256"] == doc.sha256] if len(counts) else counts
    st.caption(f"Timed decisions on this paper: {int(mine['anchor_shown'].sum()) if len(mine) else 0} with the anchor, "
               f"{int((~mine['anchor_shown']).sum()) if len(mine) else 0} without"
               + (f" · {measured.describe()}" if measured is not None else "")
               + f" · the Savings view uses them from {MIN_TIMED_DECISIONS} of each.")


def playground_view(quote_set: QuoteSet, choices: dict[str, Any]) -> None:
    rules = choices["rules"]
    doc = quote_set.document()
    locator = locator_for(quote_set.set_hash, doc.sha256, rules.fingerprint, quote_set, rules)
    text = st.text_area("Quote", key="pg_quote", height=110,
                        placeholder="Paste a quote a model says it copied from the loaded paper")
    c1, c2 = st.columns([3, 1])
    cited = c1.text_input("Cited chunk (optional): its number, or its text", key="pg_chunk")
    with_overlay = c2.toggle("Layout overlay", key="pg_overlay", **OVERLAY_HELP)
    if not text.strip():
        st.info(f"Paste a quote to check it against {doc.name} with the rules in the sidebar.")
        return
    chunk = workbench.cited_chunk_of(cited, locator.chunks, doc.text)
    scope = choices["scope"] if chunk is not None else "document"
    t0 = time.perf_counter()
    verdict = locator.locate(text, cited_chunk=chunk, scope=scope)
    trace = rule_trace(locator, verdict)
    elapsed_ms = 1000 * (time.perf_counter() - t0)
    images, highlight = highlight_images(quote_set, verdict, with_overlay)
    render_playground(verdict, trace, images, highlight, elapsed_ms)
    if images and with_overlay:
        render_overlay_legend(quote_set, images)
    save_to_set(quote_set, verdict)


def save_to_set(quote_set: QuoteSet, verdict: Verdict) -> None:
    st.markdown("**Save to set**: add this quote, labelled, to a quote set you are building")
    default_id = "pg-" + hashlib.sha256(verdict.quote.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    with st.form("pg_save", clear_on_submit=False, border=True):
        c1, c2, c3 = st.columns(3)
        name = c1.text_input("Set name", value=f"{quote_set.name}-edits", key="pg_set",
                             help=f"A file in {editing.sets_folder()} (lower-case letters, digits, '-').")
        qid = c2.text_input("Quote id", value=default_id, key="pg_id")
        label = c3.radio("Label", ("faithful", "fabricated"), key="pg_label", horizontal=True,
                         index=0 if verdict.accepted else 1)
        tags = st.multiselect("Tags", (*FAITHFUL_TAGS, *FABRICATED_TAGS), key="pg_tags",
                              help="Faithful quotes take artifact tags, fabricated ones fabrication tags.")
        note = st.text_input("Note (optional)", key="pg_note")
        submitted = st.form_submit_button("Save to set")
    if not submitted:
        return
    try:
        quote = workbench.labelled_quote(verdict, quote_id=qid.strip(), label=label, tags=tags, note=note)
        saved = editing.add_quote(name.strip(), quote, quote_set=quote_set)
    except QuotelocateError as exc:
        show_error("The quote was not saved.", str(exc))
        return
    st.success(f"Saved as {quote.id} ({label}); the set now has {len(saved)} quotes.")
    st.code(str(saved.path), language=None)


def savings_assumptions() -> SavingsAssumptions:
    d = DEFAULT_SAVINGS
    c = st.columns(3)
    rerun = c[0].number_input("Re-run after a rejection (s)", min_value=0.0, value=float(d.rerun_seconds),
                              step=5.0, key="rerun_s", bind="query-params")
    with_anchor = c[1].number_input("Review with anchor (s)", min_value=0.0,
                                    value=float(d.review_seconds_with_anchor), step=5.0, key="review_anchor_s",
                                    bind="query-params")
    without = c[2].number_input("Review without anchor (s)", min_value=0.0,
                                value=float(d.review_seconds_without_anchor), step=5.0, key="review_no_anchor_s",
                                bind="query-params")
    c = st.columns(3)
    baseline = c[0].selectbox("Baseline", tuple(PRESETS), index=tuple(PRESETS).index(d.baseline), key="baseline",
                              bind="query-params")
    target = c[1].number_input("Claimed saving (%)", min_value=-100.0, max_value=100.0, value=100 * d.target,
                               step=5.0, key="target_pct", bind="query-params")
    share = c[2].number_input("Fabricated share (%)", min_value=0.0, max_value=100.0, value=None,
                              key="fab_share_pct", bind="query-params", placeholder="the set's mix")
    return SavingsAssumptions(
        rerun_seconds=float(rerun), review_seconds_with_anchor=float(with_anchor),
        review_seconds_without_anchor=float(without), baseline=baseline, target=float(target) / 100,
        fabricated_share=None if share is None else float(share) / 100,
    )


def savings_view(quote_set: QuoteSet, choices: dict[str, Any]) -> None:
    rules = choices["rules"]
    try:
        measured = None if quote_set.multi_paper else measured_review(
            run_store().review_times(), paper_sha256=quote_set.document().sha256)
    except QuotelocateError as exc:
        show_error("The run store cannot be read; using the typed-in review times.", str(exc))
        measured = None
    use = st.toggle("Use measured review times", value=measured is not None, key="use_measured",
                    disabled=measured is None,
                    help=f"Medians of the decisions timed in Inspect's timing mode on this paper (at least "
                         f"{MIN_TIMED_DECISIONS} with and {MIN_TIMED_DECISIONS} without the anchor).")
    assumptions = savings_assumptions()
    source = "assumed (typed in)"
    if use and measured is not None:
        assumptions = measured.assumptions(assumptions)
        source = measured.describe()
        st.info(f"Review seconds used: {source}. The typed-in review times are ignored.")
    else:
        st.info("Review seconds used: the typed-in assumptions"
                + ("" if measured is not None else f" (fewer than {MIN_TIMED_DECISIONS} timed decisions in each "
                                                    "condition on this paper; time some in Inspect's timing mode)")
                + ".")
    name = config_name(rules)
    named = {assumptions.baseline: PRESETS[assumptions.baseline]}
    named.setdefault(name, rules)  # the current rules, unless they are the baseline preset itself
    ev = evaluation_of(quote_set, named, scope=choices["scope"], savings=assumptions)
    st.caption("Expected review seconds per quote: a rejected faithful quote costs a re-run plus a search "
               "without an anchor, an accepted one a check with its anchor; a rejected fabrication costs a "
               "re-run, an accepted one a search without an anchor. The claim holds when the lower end of "
               "the saving's 95% interval reaches the target.")
    table = ev.savings.assign(review_times=source)
    st.caption(report.savings_method(table))
    render_savings(table, name)


def share_view(quote_set: QuoteSet, choices: dict[str, Any]) -> None:
    values = {key: st.session_state.get(key) for key in BOUND_KEYS}
    values["view"] = "Share"
    base = getattr(st.context, "url", None) or "http://localhost:8501/"
    url = workbench.share_url(base, workbench.share_query(values, DEFAULTS))
    rules = choices["rules"]
    named = {config_name(rules): rules, **{k: v for k, v in PRESETS.items() if v != rules}}
    scope, repeats = choices["scope"], choices["repeats"]
    key = f"{quote_set.set_hash}:{scope}:{repeats}:{':'.join(r.fingerprint for r in named.values())}"

    def shared() -> Evaluation:
        return evaluation_of(quote_set, named, scope=scope, repeats=repeats,
                             savings=SavingsAssumptions(baseline="exact"), ablation=True)

    render_share(
        url, choices["set"] == UPLOAD, f"quotelocate-{quote_set.name}",
        make_report=lambda: report_html(key, shared()),
        make_json=lambda: json.dumps(shared().to_json(), indent=1, ensure_ascii=False),
        make_csv=lambda: shared().verdicts.to_csv(index=False),
    )


def _tags(text: str) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


def _ask_delete(run_id: int) -> None:
    st.session_state["_delete_run"] = run_id


def _cancel_delete() -> None:
    st.session_state.pop("_delete_run", None)


def runs_view(quote_set: QuoteSet | None, choices: dict[str, Any]) -> None:
    try:
        store = run_store()
        runs = store.list_runs()
    except QuotelocateError as exc:
        show_error("The run store cannot be read.", str(exc))
        return
    if quote_set is not None:
        with st.form("save_run_form", border=True):
            st.markdown("**Save the current evaluation**")
            c1, c2 = st.columns(2)
            name = c1.text_input("Name", key="run_name", placeholder="e.g. before the layout change")
            tags = c2.text_input("Tags (comma-separated)", key="run_tags")
            notes = st.text_area("Notes", key="run_notes", height=68)
            save = st.form_submit_button("Save the current evaluation")
        if save:
            rules = choices["rules"]
            save_run(evaluation_of(quote_set, {config_name(rules): rules}, scope=choices["scope"],
                                   repeats=choices["repeats"]), name=name, notes=notes, tags=_tags(tags))
            runs = store.list_runs()
    render_runs(runs, str(store.path))
    if runs.empty:
        return
    ids = [int(i) for i in runs["id"]]
    titles = {int(r["id"]): f"{r['title']} (#{r['id']}, {r['created']})" for r in runs.to_dict("records")}
    st.markdown("**One run**")
    pick = st.selectbox("Run", ids, index=len(ids) - 1, key="run_pick", format_func=titles.get)
    pending = st.session_state.get("_delete_run")
    if pending is not None and pending in ids:
        st.warning(f"Delete {titles[pending]} and all its verdicts? This cannot be undone.")
        c1, c2 = st.columns(2)
        if c1.button("Yes, delete it", key="run_delete_yes", type="primary"):
            try:
                store.delete(pending)
            except QuotelocateError as exc:
                show_error("The run was not deleted.", str(exc))
            else:
                st.session_state.pop("_delete_run", None)
                st.rerun()
        c2.button("Cancel", key="run_delete_no", on_click=_cancel_delete)
    try:
        stored = store.load(pick)
        info = store.info(pick)
    except QuotelocateError as exc:
        show_error("That run could not be loaded.", str(exc))
    else:
        with st.form(f"label_run_{pick}", border=True):
            c1, c2 = st.columns(2)
            new_name = c1.text_input("Name", value=info["name"], key=f"label_name_{pick}")
            new_tags = c2.text_input("Tags (comma-separated)", value=", ".join(info["tags"]), key=f"label_tags_{pick}")
            new_notes = st.text_area("Notes", value=info["notes"], key=f"label_notes_{pick}", height=68)
            relabel = st.form_submit_button("Save name, tags and notes")
        if relabel:
            try:
                store.label(pick, name=new_name, notes=new_notes, tags=_tags(new_tags))
            except QuotelocateError as exc:
                show_error("The run was not relabelled.", str(exc))
            else:
                st.rerun()
        render_run(stored)
        c1, c2 = st.columns(2)
        c1.download_button("Download this run's report (HTML)", key="dl_run_report",
                           data=lambda: report_html(f"run:{store.path}:{pick}", stored),
                           file_name=f"quotelocate-run-{pick}-report.html", mime="text/html")
        c2.button("Delete this run…", key="run_delete", on_click=_ask_delete, args=(pick,))
    if len(ids) >= 2:
        st.markdown("**Before and after: compare two runs**")
        c1, c2 = st.columns(2)
        a = c1.selectbox("Before", ids, index=len(ids) - 2, key="run_a", format_func=titles.get)
        b = c2.selectbox("After", ids, index=len(ids) - 1, key="run_b", format_func=titles.get)
        try:
            before, after = store.load(a), store.load(b)
            ta, tb = store.info(a)["title"], store.info(b)["title"]
            tables = change_report.change_tables(before, after, a_title=ta, b_title=tb)
        except QuotelocateError as exc:
            show_error("Those runs could not be compared.", str(exc))
            return
        render_change(tables, change_report.change_sentences(tables.deltas))
        st.download_button("Download the before/after report (HTML)", key="dl_change_report",
                           data=lambda: change_html(f"{store.path}:{a}:{b}", before, after, ta, tb),
                           file_name=f"quotelocate-runs-{a}-{b}-change.html", mime="text/html")


# ---------------------------------------------------------------------------------------
# Triage: a pipeline's unlabelled outputs (needs no quote set; the papers come from the search path)

TRIAGE_STATUS_ORDER = ("exact", "normalized", "group-fallback", "outside-material", "not-found", "invalid")


@st.cache_resource(show_spinner="Locating every quote of the outputs file…", max_entries=4)
def triage_of(key: str, preset_name: str, papers: str, _records: tuple) -> Triage:
    return triage(list(_records), rules=preset_name, papers_path=papers or None, source="outputs file")


def triage_records() -> tuple[str, tuple] | None:
    """(cache key, records) of the uploaded outputs file, or None after saying why not.
    Only an upload: a path typed into a shared workbench would let any visitor read
    files on the server."""
    try:
        upload = st.file_uploader("Outputs file (JSON lines or CSV)", type=["jsonl", "csv", "ndjson", "json", "txt"],
                                  key="triage_upload")
        if upload is None:
            st.info("Upload a pipeline's outputs: one record per quote with paper (the PDF's file name, found on the "
                    "server's papers search path), quote, and optionally cited_chunk, id and label "
                    "(faithful/fabricated for a labelled sample).")
            return None
        workbench.check_upload_object(upload, "outputs file")  # before a byte is copied or written
        data = upload.getvalue()
        records = workbench.load_outputs_upload(session_folder(), data, upload.name)
        return hashlib.sha256(data).hexdigest(), tuple(records)
    except QuotelocateError as exc:
        show_error("The outputs file could not be read.", str(exc))
        return None


def render_triage_distributions(result: Triage) -> None:
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Quotes", len(result.records))
    c2.metric("Accepted", len(result.records) - result.rejected)
    c3.metric("Rejected", result.rejected)
    c4.metric("To review", len(result.queue), help="near misses, group-fallback and outside-material quotes")
    statuses = [s for s in TRIAGE_STATUS_ORDER if any(d.statuses.get(s) for d in result.by_paper)]
    by_paper = pd.DataFrame([{"paper": d.paper, "quotes": d.n, "accepted": d.accepted,
                              **{s: d.statuses.get(s, 0) for s in statuses}} for d in result.by_paper])
    st.markdown("**Verdicts per paper**")
    st.dataframe(by_paper, hide_index=True, width="stretch")
    long = pd.DataFrame([{"paper": d.paper, "status": s, "quotes": n} for d in result.by_paper
                         for s, n in d.statuses.items()])
    st.bar_chart(long, x="paper", y="quotes", color="status", horizontal=True, height=120 + 40 * len(result.by_paper))
    causes = pd.DataFrame([{"paper": d.paper, "cause": c, "rejections": n} for d in result.by_paper
                           for c, n in d.causes.items()])
    st.markdown("**Causes of the rejections**")
    if causes.empty:
        st.text("No quote was rejected.")
    else:
        st.dataframe(causes, hide_index=True, width="stretch")
    st.markdown("**Per cited chunk**")
    by_chunk = pd.DataFrame([{
        "paper": d.paper, "cited chunk": "none" if d.cited_chunk is None else str(d.cited_chunk), "quotes": d.n,
        "accepted": d.accepted, "rejected": d.n - d.accepted,
        "statuses": ", ".join(f"{s} {n}" for s, n in d.statuses.items()),
        "causes": ", ".join(f"{c} {n}" for c, n in d.causes.items()),
    } for d in result.by_chunk])  # fmt: skip
    st.dataframe(by_chunk, hide_index=True, width="stretch", height=min(400, 38 + 35 * len(by_chunk)))


def render_triage_estimate(result: Triage) -> None:
    e = result.estimate
    st.markdown("**False rejects, from the labelled records**")
    c1, c2, c3 = st.columns(3)
    c1.metric("Estimated false-reject rate", format_rate(e.rate, e.low, e.high),
              help="rejected faithful / faithful in the labelled sample, Wilson 95% interval")
    c2.metric("Rejections that are false", format_rate(e.share, e.share_low, e.share_high),
              help="faithful among the rejected labelled quotes, Wilson 95% interval")
    c3.metric("Labelled sample", f"{e.sample} ({e.faithful} faithful)")
    for sentence in e.sentences():
        st.text(sentence)


def render_triage_queue(queue: tuple[TriageItem, ...]) -> None:
    rows = pd.DataFrame([{
        "rank": it.rank, "kind": it.kind, "id": it.record.key, "paper": it.record.paper,
        "chunk": "" if it.record.cited_chunk is None else str(it.record.cited_chunk),
        "similarity": None if it.similarity is None else round(it.similarity, 1), "page": it.page,
        "label": it.record.label or "", "quote": it.record.quote, "reason": it.reason,
    } for it in queue], columns=["rank", "kind", "id", "paper", "chunk", "similarity", "page", "label", "quote", "reason"])

    def pick() -> None:  # a clicked row selects that item below
        chosen = st.session_state["triage_table"].selection.rows
        if chosen and chosen[0] < len(queue):
            st.session_state["triage_rank"] = queue[chosen[0]].rank

    st.dataframe(rows, hide_index=True, width="stretch", height=min(420, 38 + 35 * len(rows)), key="triage_table",
                 on_select=pick, selection_mode="single-row",
                 column_config={"quote": st.column_config.TextColumn("quote", width="large"),
                                "similarity": st.column_config.NumberColumn("similarity %", format="%.1f")})


def triage_images(result: Triage, item: TriageItem, with_overlay: bool) -> list[tuple[int, bytes]]:
    """The page(s) of an item's passage, up to two, with the passage highlighted."""
    doc = result.documents[item.record.paper]
    if doc.kind != "pdf" or item.start is None or item.end is None:
        return []
    spans = item.verdict.spans if item.kind != "near-miss" and item.verdict.spans else ((item.start, item.end),)
    boxes = doc.boxes(spans)
    images = []
    for page in doc.pages_for(item.start, item.end)[:2]:
        on_page = tuple(b for b in boxes if b.page == page)
        if with_overlay:
            png = overlay.render_overlay_png(doc, page, lines=triage_overlay_lines(doc.sha256, doc), boxes=on_page,
                                             pdf_path=str(doc.name))
        else:
            png = render_page_png(doc, page, boxes=on_page, pdf_path=str(doc.name))
        images.append((page, png))
    return images


@st.cache_resource(max_entries=4)
def triage_overlay_lines(paper_sha256: str, _doc) -> tuple[overlay.OverlayLine, ...]:
    return overlay.overlay_lines(_doc)


def render_triage_item(item: TriageItem, images: list[tuple[int, bytes]]) -> None:
    r = item.record
    # plain text throughout: ids, quotes and passages come from the user's file and the paper
    st.text(f"#{item.rank} {item.kind} · {r.key} (line {r.line}) · {r.paper}"
            + ("" if r.cited_chunk is None else f" · cited chunk {r.cited_chunk}")
            + ("" if r.label is None else f" · labelled {r.label}")
            + f" · verdict {item.verdict.status}" + (f" · cause {item.verdict.cause}" if item.verdict.cause else ""))
    st.text("Quote as the model wrote it:")
    st.code(r.quote, language=None, wrap_lines=True)
    st.text(f"Reason: {item.reason}")
    left, right = st.columns([2, 3])
    with left:
        what = "Closest passage" if item.kind == "near-miss" else "Passage found"
        sim = "" if item.similarity is None else f", {item.similarity:.0f}% similar"
        st.text(f"{what}{'' if item.page is None else f', page {item.page}'}{sim}:")
        st.code(item.passage, language=None, wrap_lines=True)
        if item.verdict.near_miss is not None and item.kind == "near-miss":
            st.text("Character diff, [-passage-]{+quote+}:")
            st.code(item.verdict.near_miss.diff_text(), language=None, wrap_lines=True)
    with right:
        if not images:
            st.text("No page to show (the paper is not a PDF).")
        for column, (page, png) in zip(st.columns(len(images)) if images else (), images):
            column.image(png, caption=f"page {page}: {'closest passage' if item.kind == 'near-miss' else 'passage'} "
                                      "highlighted", width="stretch")


def triage_view(quote_set: QuoteSet | None, choices: dict[str, Any]) -> None:
    st.caption("Triage of a pipeline's outputs that nobody has labelled: where the verdicts fall, the quotes worth a "
               "look first, and the false-reject rate the labelled records (if any) suggest. It uses the preset "
               "chosen here, not the sidebar's rules or chunking.")
    preset_name = st.selectbox("Preset", tuple(PRESETS), index=tuple(PRESETS).index("recommended"),
                               key="triage_preset")
    got = triage_records()
    if got is None:
        return
    key, records = got
    papers = os.environ.get("QUOTELOCATE_PAPERS", "")
    try:
        result = triage_of(key, preset_name, papers, records)
    except QuotelocateError as exc:
        show_error("The outputs could not be triaged.", str(exc))
        return
    render_triage_distributions(result)
    render_triage_estimate(result)
    st.markdown(f"**Review first** ({len(result.queue)}: near misses by similarity, then "
                f"{', then '.join(TRIAGE_KINDS[1:])})")
    if not result.queue:
        st.text("Nothing to review: no near miss, no group-fallback and no outside-material quote.")
        return
    render_triage_queue(result.queue)
    ranks = [it.rank for it in result.queue]
    if st.session_state.get("triage_rank") not in ranks:
        st.session_state["triage_rank"] = ranks[0]
    by_rank = {it.rank: it for it in result.queue}
    rank = st.selectbox("Item (or click a row above)", ranks, key="triage_rank",
                        format_func=lambda k: f"#{k} {by_rank[k].kind} · {by_rank[k].record.key}")
    item = by_rank[rank]
    images = triage_images(result, item, st.toggle("Layout overlay", key="triage_overlay", **OVERLAY_HELP))
    render_triage_item(item, images)


# ---------------------------------------------------------------------------------------
# Label view: a draft set's unreviewed quotes, one at a time (logic in quotelocate.interface.workbench)

LABEL_HELP = ("Draft sets are quote sets in the sets folder ({folder}); `quotelocate set init OUTPUTS --papers DIR` "
              "writes one from a pipeline's outputs. Each decision is saved to the file at once.")


@st.cache_resource(show_spinner="Opening the draft set and its papers…", max_entries=4)
def load_draft(path: str, file_sha256: str, papers: str) -> QuoteSet:
    return load_quote_set(path, papers_path=papers or None)


@st.cache_resource(max_entries=8)
def label_locator(paper_sha256: str, fingerprint: str, _part: QuoteSet, _rules: Rules) -> Locator:
    return Locator(_part.document(), _rules, chunking=_part.chunking, chunks=_part.explicit_chunks)


def _label_state(name: str) -> dict[str, Any]:
    return st.session_state.setdefault("_label", {}).setdefault(name, {"set": None, "skipped": []})


def _label_save(name: str, quote: Any, *, add: bool = False, message: str = "") -> None:
    """Save one decision to the draft set's file and the open set; report in the next run."""
    state = _label_state(name)
    qs = state["set"]
    part = workbench.paper_of(qs, quote)
    try:
        digest = editing.save_quote(qs.path, quote, expected_sha256=qs.set_hash, document=part.document(), add=add)
    except QuotelocateError as exc:
        st.session_state["_label_msg"] = ("error", str(exc))
        return
    state["set"] = workbench.with_quote(qs, quote, set_hash=digest)
    if quote.id in state["skipped"] and quote.label != "unreviewed":
        state["skipped"].remove(quote.id)
    st.session_state["_label_msg"] = ("ok", message or f"Saved {quote.id} as {quote.label}.")


def _label_decide(name: str, case: Any, label: str, tags_key: str) -> None:
    try:
        quote = workbench.decided_quote(case.quote, label=label, tags=st.session_state.get(tags_key) or (),
                                        anchor=case.anchor)
    except QuotelocateError as exc:
        st.session_state["_label_msg"] = ("error", str(exc))
        return
    _label_save(name, quote)


def _label_skip(name: str, qid: str) -> None:
    skipped = _label_state(name)["skipped"]
    if qid in skipped:
        skipped.remove(qid)
    skipped.append(qid)
    st.session_state["_label_msg"] = ("ok", f"Skipped {qid}; it comes back after the others.")


def _label_fix(name: str, case: Any, anchor: Any) -> None:
    quote = workbench.decided_quote(case.quote, label="unreviewed", tags=case.quote.tags, anchor=anchor)
    _label_save(name, quote, message=f"Anchor of {quote.id} set to page {anchor.page}, characters "
                                     f"{anchor.start}-{anchor.end}; confirm the label next.")


def label_view(quote_set: QuoteSet | None, choices: dict[str, Any]) -> None:
    folder = editing.sets_folder()
    names = workbench.draft_set_names(folder)
    st.caption(LABEL_HELP.format(folder=folder))
    if not names:
        st.info("No quote sets in the sets folder yet.")
        return
    name = st.selectbox("Draft set", names, key="label_set", bind="query-params")
    path = editing.edited_set_path(name, folder=folder)
    state = _label_state(name)
    on_disk = workbench.file_sha256(path)
    if state["set"] is None or state["set"].set_hash != on_disk:  # first opened, or changed by someone else
        try:
            state["set"] = load_draft(str(path), on_disk, os.environ.get("QUOTELOCATE_PAPERS", ""))
        except QuotelocateError as exc:
            show_error("The set could not be opened.", str(exc))
            return
    qs = state["set"]
    kind, message = st.session_state.pop("_label_msg", (None, ""))
    if kind == "ok":
        st.success(message)
    elif kind == "error":
        show_error("Nothing was saved.", message)
    queue = workbench.label_queue(qs, skipped=state["skipped"])
    st.text(f"{len(queue)} unreviewed of {len(qs)} quotes · {len(qs.faithful)} faithful · "
            f"{len(qs.fabricated)} fabricated · {len(state['skipped'])} skipped")
    if not queue:
        st.success("Every quote of this set is labelled.")
        return
    rules = choices["rules"]
    quote = qs.by_id(queue[0])
    part = workbench.paper_of(qs, quote)
    locator = label_locator(part.document().sha256, rules.fingerprint, part, rules)
    case = workbench.label_case(qs, quote.id, locator)
    render_label_case(case)
    label_controls(name, qs, case, locator)


def render_label_case(case: Any) -> None:
    q, v, doc = case.quote, case.verdict, case.paper.document()
    # plain text only: ids, quotes and passages come from the user's files and the paper
    st.text(f"{q.id} · paper {case.paper.paper.file}" + (f" · cited chunk {q.cited_chunk}" if q.cited_chunk is not None else ""))
    st.text("Quote as the model wrote it:")
    st.code(q.text, language=None, wrap_lines=True)
    st.text(f"Verdict: {v.status}" + (f" · cause {v.cause}" if v.cause else "") + f" · {v.reason}")
    if v.near_miss is not None:
        nm = v.near_miss
        render_near_miss(nm, f"Closest passage (near miss), page {nm.page}, {nm.similarity:.0f}% similar:")
    a = case.anchor
    if a is None:
        st.text("No anchor proposed: nothing in the paper resembles the quote.")
        return
    st.text(f"Proposed anchor ({case.anchor_source}), page {a.page}, characters {a.start}-{a.end}:")
    st.code(a.text, language=None, wrap_lines=True)
    if doc.kind != "pdf":
        return
    pages = doc.pages_for(a.start, a.end)[:2]
    boxes = doc.boxes([(a.start, a.end)])
    cols = st.columns(len(pages))
    for column, page in zip(cols, pages):
        png = page_png(doc.sha256, page, tuple(b for b in boxes if b.page == page), False, case.paper)
        column.image(png, caption=f"page {page}: proposed anchor highlighted", width="stretch")


def label_controls(name: str, qs: QuoteSet, case: Any, locator: Locator) -> None:
    from quotelocate.data.drafting import proposed_tags

    q = case.quote
    c1, c2 = st.columns(2)
    faithful_default = [t for t in q.tags if t in FAITHFUL_TAGS] or ["plain"]
    fabricated_default = [t for t in q.tags if t in FABRICATED_TAGS] or list(proposed_tags("fabricated", case.verdict))
    c1.multiselect("Tags if faithful", FAITHFUL_TAGS, default=faithful_default, key=f"label_ftags_{q.id}")
    c2.multiselect("Tags if fabricated", FABRICATED_TAGS, default=fabricated_default, key=f"label_xtags_{q.id}")
    b = st.columns(3)
    b[0].button("Faithful (f)", key="label_faithful", shortcut="f", type="primary", disabled=case.anchor is None,
                on_click=_label_decide, args=(name, case, "faithful", f"label_ftags_{q.id}"),
                help="In the paper: label it faithful, anchored on the proposed anchor.")
    b[1].button("Fabricated (x)", key="label_fabricated", shortcut="x",
                on_click=_label_decide, args=(name, case, "fabricated", f"label_xtags_{q.id}"),
                help="Not in the paper as written: label it fabricated (no anchor).")
    b[2].button("Skip (s)", key="label_skip", shortcut="s", on_click=_label_skip, args=(name, q.id),
                help="Leave it unreviewed and show it again after the others.")
    with st.expander("Fix the anchor"):
        if len(case.occurrences) > 1:
            labels = [f"page {o.page}, characters {o.start}-{o.end}" for o in case.occurrences]
            pick = st.selectbox("The anchor's text occurs more than once; which is the quote's?", range(len(labels)),
                                format_func=labels.__getitem__, key=f"label_occ_{q.id}")
            st.button("Use this occurrence", key="label_use_occ", on_click=_label_fix,
                      args=(name, case, case.occurrences[pick]))
        typed = st.text_area("Or type the passage the quote comes from (checked against the paper under the rules)",
                             key=f"label_anchor_{q.id}", height=80)
        if st.button("Check and use as the anchor", key="label_use_typed"):
            try:
                _label_fix(name, case, workbench.anchor_from_text(locator, typed))
            except QuotelocateError as exc:
                st.session_state["_label_msg"] = ("error", str(exc))
            st.rerun()
    with st.expander("Add a new quote from a passage"):
        passage = st.text_area("Passage of this paper (checked against the paper under the rules)",
                               key="label_new_passage", height=80)
        if st.button("Add as a faithful quote", key="label_add"):
            try:
                anchor = workbench.anchor_from_text(locator, passage)
                new = workbench.added_quote(qs, case.paper, anchor, passage)
            except QuotelocateError as exc:
                st.session_state["_label_msg"] = ("error", str(exc))
            else:
                _label_save(name, new, add=True, message=f"Added {new.id} (faithful, page {anchor.page}).")
            st.rerun()


# ---------------------------------------------------------------------------------------


def main() -> None:
    st.set_page_config(page_title="quotelocate workbench", page_icon="🔎", layout="wide")
    _init_state()
    choices = sidebar()
    st.title("quotelocate workbench")
    quote_set = resolve_quote_set(choices)
    if quote_set is not None:
        quote_set = narrow_to_paper(quote_set)
        render_set_header(quote_set, choices["rules"])
    tabs = st.tabs(VIEWS, key="view", bind="query-params")
    controllers = (evaluate_view, compare_view, inspect_view, playground_view, savings_view, share_view, runs_view,
                   triage_view, label_view)
    for view, tab, controller in zip(VIEWS, tabs, controllers):
        if not tab.open:
            continue
        with tab:
            if quote_set is None and controller not in (runs_view, triage_view, label_view):  # these need no quote set
                st.info("Choose a quote set that loads to see this view.")
                continue
            if quote_set is not None and quote_set.multi_paper and view in ONE_PAPER_VIEWS:
                st.info(f"{view} shows one paper's pages: pick the paper under *Paper* in the sidebar.")
                continue
            try:
                controller(quote_set, choices)
            except QuotelocateError as exc:
                show_error("This view could not be computed.", str(exc))


main()
