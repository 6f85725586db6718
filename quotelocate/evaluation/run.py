"""Evaluation: run rule configurations over a labelled quote set and measure them.

:func:`evaluate` parses the paper once (the :class:`~quotelocate.data.quoteset.QuoteSet`
holds it), builds one :class:`~quotelocate.locate.Locator` per configuration, locates
every quote, and returns an :class:`Evaluation` of tidy pandas frames:

``verdicts``  one row per quote x config (accepted, status, cause, span, latency, ...);
``metrics``   one row per config: false-reject and false-accept rates with 95% Wilson
              intervals, anchor accuracy, build time, throughput and latency percentiles;
``by_paper``  the ``metrics`` of each config on each paper of the set (one row per
              config and paper; a one-paper set has one paper);
``by_tag``    reject rate per faithful tag and accept rate per fabricated tag;
``savings``   the review-time model below, per config against a baseline;
``ablation``  (optional) every rule toggled per config, with paired exact McNemar tests;
``meta``      provenance: set and paper hashes, versions, machine, time, scope, repeats.

A set that spans several papers is evaluated paper by paper: each paper gets its own
Locator per config (its own text, chunks and index), and the overall rates count every
quote of every paper once; ``build_ms`` overall is the sum over the papers.

Rates. A *false reject* is a faithful quote that is not accepted; a *false accept* is a
fabricated quote that is accepted. An accepted faithful quote is *anchored correctly*
(``anchor_ok``) when its span overlaps the labelled anchor span and its pages include
the anchor's page. Intervals are 95% Wilson score intervals
(``statsmodels.stats.proportion.proportion_confint(method="wilson")``).

Latency. Each quote is located ``repeats`` times per config; its latency is the median
of those runs. ``p50/p95/p99_ms`` are percentiles of the per-quote medians;
``throughput_qps`` is the number of quotes divided by the sum of the per-quote medians.
The Locator is warmed up (one rejected probe) before timing, so lazy diagnostics setup
is not charged to the first quote; ``build_ms`` is the Locator's own build time.

The review-time model is in :mod:`quotelocate.evaluation.savings`.

>>> from quotelocate.document import Document
>>> from quotelocate.data.quoteset import Anchor, Quote, QuoteSet
>>> doc = Document.from_text("Attention is all you\\nneed, the authors wrote in their paper.")
>>> qs = QuoteSet.from_quotes([
...     Quote(id="f1", text="Attention is all you need", label="faithful", tags=("linebreak",),
...           anchor=Anchor(page=1, start=0, end=25, text="Attention is all you\\nneed")),
...     Quote(id="x1", text="Attention is all you want", label="fabricated", tags=("word-swap",)),
... ], document=doc)
>>> ev = evaluate(qs, ["exact", "whitespace"], repeats=1)
>>> ev.metrics[["config", "false_reject", "false_accept"]].to_dict("records")
[{'config': 'exact', 'false_reject': 1.0, 'false_accept': 0.0}, {'config': 'whitespace', 'false_reject': 0.0, 'false_accept': 0.0}]
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from ..data.quoteset import FABRICATED_TAGS, FAITHFUL_TAGS, QuoteSet
from ..errors import ConfigError
from ..locate import SCOPES
from ..normalize import PRESETS, Rules
from .ablation import add_ablation
from .configs import ConfigsArg, resolve_configs
from .frames import BY_PAPER_COLUMNS, BY_TAG_COLUMNS, METRIC_COLUMNS, VERDICT_COLUMNS, frame
from .locating import Progress, _check_workers, _pool, _run_config, _worker_run
from .provenance import provenance
from .result import Evaluation
from .savings import SavingsAssumptions, savings_table
from .stats import wilson


def evaluate(
    quote_set: QuoteSet,
    configs: ConfigsArg = None,
    *,
    scope: str | None = None,
    repeats: int = 3,
    progress: Progress | None = None,
    savings: SavingsAssumptions = SavingsAssumptions(),
    ablation: bool = False,
    workers: int = 1,
) -> Evaluation:
    """Locate every quote of ``quote_set`` under every config and measure the results.

    ``configs``: name -> Rules (or preset name), a sequence of preset names / Rules,
    or None for every preset. ``scope``: for quotes with a cited chunk, ``chunk``,
    ``group`` (the default) or ``document``; quotes without one are always located in
    the whole document. ``repeats``: timed runs per quote (latency is their median).
    ``progress(done, total)`` is called as quotes are located. ``ablation=True`` also
    computes :attr:`Evaluation.ablation` (slow: one extra run per rule per config).
    ``workers``: processes that locate (paper, config) pairs in parallel (1: in this
    process, the default; 0: one per CPU). Workers inherit the parsed papers by fork;
    progress then advances one pair at a time. Do not use workers > 1 from a
    multi-threaded host such as a Streamlit app.
    """
    if scope is not None and scope not in SCOPES:
        raise ConfigError(f"scope: {scope!r} is not one of {', '.join(SCOPES)}")
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ConfigError(f"repeats: expected a whole number >= 1, got {repeats!r}")
    if not isinstance(savings, SavingsAssumptions):
        raise ConfigError(f"savings: expected SavingsAssumptions, got {type(savings).__name__}")
    named = resolve_configs(configs)
    if savings.baseline not in named:
        if savings.baseline not in PRESETS:
            raise ConfigError(
                f"savings.baseline: {savings.baseline!r} is neither an evaluated config ({', '.join(named)}) nor a preset"
            )
        named[savings.baseline] = PRESETS[savings.baseline]
    unreviewed = len(quote_set.unreviewed)
    quote_set = quote_set.labelled_only()  # only labelled quotes have a right answer to count
    parts = quote_set.parts
    for part in parts:
        part.document()  # parse every paper once, before any timing
    n = len(quote_set.quotes)
    total = n * len(named)
    done = 0

    def make_tick(offset: int, size: int) -> Callable[[int], None]:
        step = max(1, size // 50)

        def tick(i: int) -> None:
            if progress is not None and (i % step == 0 or i == size):
                progress(offset + i, total)

        return tick

    pairs = [(part, name, rules) for name, rules in named.items() for part in parts]
    workers = min(_check_workers(workers), len(pairs))
    results: dict[tuple[str, str], list[tuple]] = {}
    build: dict[tuple[str, str], float] = {}
    totals: dict[tuple[str, str], list[float]] = {}
    if workers <= 1:
        for part, name, rules in pairs:
            key = (part.paper_id, name)
            results[key], build[key], totals[key] = _run_config(
                part, name, rules, scope=scope, repeats=repeats, tick=make_tick(done, len(part.quotes))
            )
            done += len(part.quotes)
    else:
        # longest first: configs without whitespace folding reject (and diagnose) most, big papers take longest
        order = sorted(pairs, key=lambda t: (t[2].whitespace, -len(t[0].quotes)))
        tasks = [(part.paper_id, name, rules, scope, repeats) for part, name, rules in order]
        with _pool(quote_set, workers) as pool:
            for paper_id, name, config_rows, build_s, repeat_s in pool.map(_worker_run, tasks):
                key = (paper_id, name)
                results[key], build[key], totals[key] = config_rows, build_s, repeat_s
                done += len(config_rows)
                if progress is not None:
                    progress(done, total)
    order_in_set = {q.id: i for i, q in enumerate(quote_set.quotes)}
    rows = []
    for name in named:
        config_rows = [row for part in parts for row in results[(part.paper_id, name)]]
        rows.extend(sorted(config_rows, key=lambda row: order_in_set[row[2]]))
    verdicts = frame(rows, VERDICT_COLUMNS)
    build_total = {name: sum(build[(part.paper_id, name)] for part in parts) for name in named}
    # each timing repeat's total over all papers
    totals_all = {name: [sum(ts) for ts in zip(*(totals[(part.paper_id, name)] for part in parts))] for name in named}
    metrics = _metrics(verdicts, named, build_total, totals_all)
    by_paper = _by_paper(verdicts, named, build, [part.paper_id for part in parts], totals)
    by_tag = _by_tag(verdicts, named)
    share = savings.fabricated_share
    if share is None:
        share = len(quote_set.fabricated) / n if n else 0.0
    saving_frame = savings_table(metrics, savings, fabricated_share=share, verdicts=verdicts)
    meta = provenance(quote_set, named, scope=scope, repeats=repeats, savings=savings, share=share)
    meta["unreviewed"] = unreviewed
    ev = Evaluation(verdicts=verdicts, metrics=metrics, by_tag=by_tag, savings=saving_frame, meta=meta, by_paper=by_paper)
    if ablation:
        ev = add_ablation(ev, quote_set, workers=workers)
    return ev


def combine(
    parts: Sequence[Evaluation],
    *,
    named: Mapping[str, Rules],
    savings: SavingsAssumptions,
    quote_order: Sequence[str],
    set_meta: Mapping[str, Any],
) -> Evaluation:
    """One evaluation of a whole set from evaluations of its papers, each made by
    :func:`evaluate` on one paper with the same configs (in another process, or on
    another machine): the verdicts in the set's quote order, every rate recomputed over
    all of them, ``by_paper`` from each part, ``build_ms`` summed over the papers.
    ``set_meta`` overrides the set-level provenance (name, hash, counts)."""
    if not parts:
        raise ConfigError("combine: no evaluations to combine")
    verdicts = pd.concat([p.verdicts for p in parts], ignore_index=True)
    order = {qid: i for i, qid in enumerate(quote_order)}
    config_order = {name: i for i, name in enumerate(named)}
    verdicts = (
        verdicts.assign(_c=verdicts["config"].map(config_order), _q=verdicts["id"].map(order))
        .sort_values(["_c", "_q"], kind="stable")
        .drop(columns=["_c", "_q"])
        .reset_index(drop=True)
    )
    verdicts = frame(verdicts.to_dict("records"), VERDICT_COLUMNS)
    by_paper = pd.concat([p.by_paper for p in parts], ignore_index=True)
    by_paper = by_paper.assign(_c=by_paper["config"].map(config_order)).sort_values("_c", kind="stable").drop(columns="_c")
    by_paper = frame(by_paper.to_dict("records"), BY_PAPER_COLUMNS)
    build = {name: float(by_paper.loc[by_paper["config"] == name, "build_ms"].sum()) / 1000.0 for name in named}
    # the parts' per-repeat timings are not kept, so qps_min/qps_max bound the set's: every
    # paper at its slowest repeat, every paper at its fastest
    slow_fast: dict[str, list[float]] = {}
    for name in named:
        rows_c = by_paper[by_paper["config"] == name]
        counts = [len(verdicts[(verdicts["config"] == name) & (verdicts["paper"] == p)]) for p in rows_c["paper"]]
        slow = [c / q for c, q in zip(counts, rows_c["qps_min"]) if q == q and q > 0]
        fast = [c / q for c, q in zip(counts, rows_c["qps_max"]) if q == q and q > 0]
        slow_fast[name] = [sum(slow), sum(fast)] if slow and len(slow) == len(fast) == len(counts) else []
    metrics = _metrics(verdicts, named, build, slow_fast)
    by_tag = _by_tag(verdicts, named)
    n = len(quote_order)
    n_fabricated = int((verdicts[verdicts["config"] == next(iter(named))]["label"] == "fabricated").sum())
    share = savings.fabricated_share if savings.fabricated_share is not None else (n_fabricated / n if n else 0.0)
    meta = dict(parts[0].meta)
    papers = [p for part in parts for p in part.meta.get("papers", [])]
    meta.update(
        {
            "paper": papers[0]["file"] if len(papers) == 1 else f"{len(papers)} papers",
            "paper_sha256": papers[0]["paper_sha256"] if len(papers) == 1 else "",
            "text_sha256": papers[0]["text_sha256"] if len(papers) == 1 else "",
            "text_fingerprint": parts[0].meta.get("text_fingerprint", {}) if len(papers) == 1 else {},
            "papers": papers,
            "set_warnings": [w for part in parts for w in part.meta.get("set_warnings", [])],
            "n_quotes": n,
            "n_fabricated": n_fabricated,
            "n_faithful": n - n_fabricated,
        }
    )
    meta.update(set_meta)
    meta["savings_assumptions"] = {**meta.get("savings_assumptions", {}), "fabricated_share_used": share}
    return Evaluation(
        verdicts=verdicts,
        metrics=metrics,
        by_tag=by_tag,
        savings=savings_table(metrics, savings, fabricated_share=share, verdicts=verdicts),
        meta=meta,
        by_paper=by_paper,
    )


def _metrics(verdicts: pd.DataFrame, named: Mapping[str, Rules], build: Mapping[str, float],
             totals: Mapping[str, list[float]] | None = None) -> pd.DataFrame:
    rows = []
    for name, rules in named.items():
        v = verdicts[verdicts["config"] == name]
        faithful = v[v["label"] == "faithful"]
        fabricated = v[v["label"] == "fabricated"]
        nf, nx = len(faithful), len(fabricated)
        fr = wilson(int((~faithful["accepted"]).sum()), nf)
        fa = wilson(int(fabricated["accepted"].sum()), nx)
        acc = faithful[faithful["accepted"]]
        anchored = acc["anchor_ok"].dropna()
        aa = wilson(int(anchored.sum()), len(anchored))
        lat = v["latency_ms"].to_numpy(dtype=float)
        if len(lat):
            p50, p95, p99 = (float(x) for x in np.percentile(lat, [50, 95, 99]))
            total_s = float(lat.sum()) / 1000.0
            qps = len(lat) / total_s if total_s > 0 else math.inf
        else:
            p50 = p95 = p99 = qps = math.nan
        per_repeat = [len(v) / t for t in (totals or {}).get(name, []) if t > 0]
        qps_min, qps_max = (min(per_repeat), max(per_repeat)) if per_repeat else (math.nan, math.nan)
        rows.append(
            {
                "config": name,
                "fingerprint": rules.fingerprint,
                "rules": rules.describe(),
                "n_faithful": nf,
                "n_fabricated": nx,
                "false_reject": fr[0],
                "fr_low": fr[1],
                "fr_high": fr[2],
                "false_accept": fa[0],
                "fa_low": fa[1],
                "fa_high": fa[2],
                "n_accepted_faithful": len(acc),
                "anchor_accuracy": aa[0],
                "aa_low": aa[1],
                "aa_high": aa[2],
                "build_ms": 1000.0 * build.get(name, math.nan),
                "throughput_qps": qps,
                "qps_min": qps_min,
                "qps_max": qps_max,
                "p50_ms": p50,
                "p95_ms": p95,
                "p99_ms": p99,
            }
        )
    return frame(rows, METRIC_COLUMNS)


def _by_paper(
    verdicts: pd.DataFrame, named: Mapping[str, Rules], build: Mapping[tuple[str, str], float], papers: list[str],
    totals: Mapping[tuple[str, str], list[float]] | None = None,
) -> pd.DataFrame:
    """The metrics of every config on each paper, papers in set order within each config."""
    rows = []
    for paper in papers:
        v = verdicts[verdicts["paper"] == paper]
        m = _metrics(v, named, {name: build.get((paper, name), math.nan) for name in named},
                     {name: (totals or {}).get((paper, name), []) for name in named})
        m.insert(1, "paper", paper)
        rows.append(m)
    out = pd.concat(rows, ignore_index=True) if rows else frame([], BY_PAPER_COLUMNS)
    order = {name: i for i, name in enumerate(named)}
    out = out.sort_values("config", key=lambda s: s.map(order), kind="stable").reset_index(drop=True)
    return frame(out.to_dict("records"), BY_PAPER_COLUMNS)


def _by_tag(verdicts: pd.DataFrame, named: Mapping[str, Rules]) -> pd.DataFrame:
    order = {("faithful", t): i for i, t in enumerate(FAITHFUL_TAGS)}
    order.update({("fabricated", t): 100 + i for i, t in enumerate(FABRICATED_TAGS)})
    rows = []
    for name in named:
        counts: dict[tuple[str, str], list[int]] = {}
        v = verdicts[verdicts["config"] == name]
        for label, tags, accepted in zip(v["label"], v["tags"], v["accepted"]):
            hit = (not accepted) if label == "faithful" else bool(accepted)
            for tag in tags.split(","):
                if tag:
                    c = counts.setdefault((label, tag), [0, 0])
                    c[0] += 1
                    c[1] += hit
        for (label, tag), (n, k) in sorted(counts.items(), key=lambda kv: (order.get(kv[0], 999), kv[0])):
            rate, low, high = wilson(k, n)
            rows.append({"config": name, "label": label, "tag": tag, "n": n, "rate": rate, "low": low, "high": high})
    return frame(rows, BY_TAG_COLUMNS)


def cause_table(verdicts: pd.DataFrame, config: str) -> pd.DataFrame:
    """How one config explained its rejections: one row per (label, tag, cause) with
    the number of rejected quotes, for rule tuners checking that a changed number is
    called ``number-changed`` and a dropped marker ``marker-missing``.

    Rejected faithful quotes appear too (their cause says why they were missed).

    >>> frame = pd.DataFrame({"config": ["c", "c", "c"], "label": ["fabricated"] * 3,
    ...     "tags": ["number", "number,case", "case"], "accepted": [False, False, True],
    ...     "cause": ["number-changed", "case-differs", ""]})
    >>> cause_table(frame, "c").to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'label': 'fabricated', 'tag': 'case', 'cause': 'case-differs', 'n': 1},
     {'label': 'fabricated', 'tag': 'number', 'cause': 'case-differs', 'n': 1},
     {'label': 'fabricated', 'tag': 'number', 'cause': 'number-changed', 'n': 1}]
    """
    rows = verdicts.loc[(verdicts["config"] == config) & ~verdicts["accepted"].astype(bool)]
    counts: dict[tuple[str, str, str], int] = {}
    for label, tags, cause in zip(rows["label"], rows["tags"], rows["cause"]):
        for tag in str(tags).split(",") if tags else [""]:
            key = (str(label), tag, str(cause) if cause else "")
            counts[key] = counts.get(key, 0) + 1
    out = [{"label": k[0], "tag": k[1], "cause": k[2], "n": n} for k, n in sorted(counts.items())]
    return pd.DataFrame(out, columns=["label", "tag", "cause", "n"])
