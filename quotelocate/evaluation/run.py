"""Evaluation: run rule configurations over a labelled quote set and measure them.

:func:`evaluate` parses the paper once (the :class:`~quotelocate.data.quoteset.QuoteSet`
holds it), builds one :class:`~quotelocate.locate.Locator` per configuration, locates
every quote, and returns an :class:`Evaluation` of tidy pandas frames:

``verdicts``  one row per quote x config (accepted, status, cause, span, latency, ...);
``metrics``   one row per config: false-reject and false-accept rates with 95% Wilson
              intervals, anchor accuracy, build time, throughput and latency percentiles;
``by_tag``    reject rate per faithful tag and accept rate per fabricated tag;
``savings``   the review-time model below, per config against a baseline;
``ablation``  (optional) every rule toggled per config, with paired exact McNemar tests;
``meta``      provenance: set and paper hashes, versions, machine, time, scope, repeats.

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
from typing import Callable, Mapping

import numpy as np
import pandas as pd

from ..data.quoteset import FABRICATED_TAGS, FAITHFUL_TAGS, QuoteSet
from ..errors import ConfigError
from ..locate import SCOPES
from ..normalize import PRESETS, Rules
from .ablation import add_ablation
from .configs import ConfigsArg, resolve_configs
from .frames import BY_TAG_COLUMNS, METRIC_COLUMNS, VERDICT_COLUMNS, frame
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
    ``workers``: processes that locate configs in parallel (1: in this process, the
    default; 0: one per CPU). Workers inherit the parsed paper by fork; progress then
    advances one config at a time. Do not use workers > 1 from a multi-threaded host
    such as a Streamlit app.
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
    quote_set.document()  # parse the paper once, before any timing
    n = len(quote_set.quotes)
    total = n * len(named)
    done = 0
    step = max(1, n // 50)

    def make_tick(offset: int) -> Callable[[int], None]:
        def tick(i: int) -> None:
            if progress is not None and (i % step == 0 or i == n):
                progress(offset + i, total)

        return tick

    workers = min(_check_workers(workers), len(named))
    results: dict[str, list[tuple]] = {}
    build: dict[str, float] = {}
    if workers <= 1:
        for name, rules in named.items():
            results[name], build[name] = _run_config(
                quote_set, name, rules, scope=scope, repeats=repeats, tick=make_tick(done)
            )
            done += n
    else:
        # longest first: configs without whitespace folding reject (and diagnose) most
        order = sorted(named.items(), key=lambda kv: kv[1].whitespace)
        with _pool(quote_set, workers) as pool:
            for name, config_rows, build_s in pool.map(_worker_run, [(k, r, scope, repeats) for k, r in order]):
                results[name], build[name] = config_rows, build_s
                done += n
                if progress is not None:
                    progress(done, total)
    rows = [row for name in named for row in results[name]]
    verdicts = frame(rows, VERDICT_COLUMNS)
    metrics = _metrics(verdicts, named, build)
    by_tag = _by_tag(verdicts, named)
    share = savings.fabricated_share
    if share is None:
        share = len(quote_set.fabricated) / n if n else 0.0
    saving_frame = savings_table(metrics, savings, fabricated_share=share)
    meta = provenance(quote_set, named, scope=scope, repeats=repeats, savings=savings, share=share)
    ev = Evaluation(verdicts=verdicts, metrics=metrics, by_tag=by_tag, savings=saving_frame, meta=meta)
    if ablation:
        ev = add_ablation(ev, quote_set, workers=workers)
    return ev


def _metrics(verdicts: pd.DataFrame, named: Mapping[str, Rules], build: Mapping[str, float]) -> pd.DataFrame:
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
                "p50_ms": p50,
                "p95_ms": p95,
                "p99_ms": p99,
            }
        )
    return frame(rows, METRIC_COLUMNS)


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
