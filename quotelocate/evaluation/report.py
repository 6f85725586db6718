"""Charts and the offline HTML report of an evaluation.

The altair charts here are shared by the workbench (``app.py``), the notebooks and the
report, so all three draw the same figures from the same frames of an
:class:`~quotelocate.evaluation.result.Evaluation`:

* :func:`rates_chart`: false-reject rate against false-accept rate per config, with
  95% intervals on both axes;
* :func:`tag_heatmap`: the error rate of every config on every tag;
* :func:`savings_chart`: the measured time saving per config, its interval and the
  claimed target;
* :func:`latency_chart`: the distribution of per-quote latency per config (ECDF, log
  axis) with p50, p95 and p99 marked;
* :func:`throughput_chart`: quotes per second per config with its spread over the
  timing repeats;
* :func:`paper_latency_chart` and :func:`paper_throughput_chart`: the same two on each
  paper of a multi-paper evaluation (small multiples, and bars grouped by paper).

:func:`render_html` writes one self-contained HTML file: charts are inlined as SVG
(drawn by ``vl-convert``, no JavaScript and no network), tables are plain HTML, and
every piece of user or document text goes through :func:`html.escape`.

>>> import pandas as pd
>>> verdicts = pd.DataFrame({"config": ["a", "b"], "id": ["q1", "q1"], "label": ["faithful"] * 2,
...                          "accepted": [True, False], "status": ["exact", "not-found"],
...                          "cause": [None, "word-changed"], "text": ["x", "x"]})
>>> verdict_flips(verdicts, "a", "b")[["id", "accepted_a", "accepted_b"]].to_dict("records")
[{'id': 'q1', 'accepted_a': True, 'accepted_b': False}]
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import math
import platform
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import altair as alt
import pandas as pd

from .formatting import format_rate, paper_table

if TYPE_CHECKING:  # pragma: no cover
    from .result import Evaluation

HOW_MEASURED = (
    "False-reject rate is the share of faithful quotes a config does not accept and "
    "false-accept rate the share of fabricated quotes it accepts, each with a 95% Wilson "
    "score interval over the quotes of the set. Anchor accuracy is the share of accepted "
    "faithful quotes whose span overlaps the labelled anchor on the labelled page. Each "
    "quote is located 'repeats' times on one core after a warm-up and its latency is the "
    "median of those runs; p50/p95/p99 are percentiles of these per-quote latencies and "
    "throughput is the number of quotes divided by their sum. Index build time is the time "
    "to normalize and index the paper once for a config. Time savings apply the stated "
    "review and re-run costs to the measured rates."
)

_RATE_COLUMNS = ("false_reject", "fr_low", "fr_high", "false_accept", "fa_low", "fa_high")


# ---------------------------------------------------------------------------------------
# Frames


def verdict_flips(verdicts: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Quotes whose acceptance differs between configs ``a`` and ``b``: one row per
    quote with ``id``, ``label``, ``text`` and ``accepted``/``status``/``cause`` of each
    side suffixed ``_a`` and ``_b``."""
    keep = [c for c in ("id", "label", "text", "accepted", "status", "cause") if c in verdicts.columns]
    left = verdicts.loc[verdicts["config"] == a, keep]
    right = verdicts.loc[verdicts["config"] == b, [c for c in keep if c not in ("label", "text")]]
    both = left.merge(right, on="id", suffixes=("_a", "_b"))
    return both.loc[both["accepted_a"] != both["accepted_b"]].reset_index(drop=True)


def errors(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Verdicts that are wrong: faithful quotes rejected and fabricated ones accepted."""
    wrong = ((verdicts["label"] == "faithful") & ~verdicts["accepted"].astype(bool)) | (
        (verdicts["label"] == "fabricated") & verdicts["accepted"].astype(bool)
    )
    return verdicts.loc[wrong].reset_index(drop=True)


def verdict_matrix(verdicts: pd.DataFrame) -> pd.DataFrame:
    """One row per quote (id, label, tags, text) and one column per config holding its
    status and cause; a misjudged verdict is marked with a leading cross.

    >>> v = pd.DataFrame({"config": ["a"], "id": ["q1"], "label": ["fabricated"], "tags": ["number"],
    ...                   "accepted": [True], "status": ["exact"], "cause": [""], "text": ["x"]})
    >>> verdict_matrix(v).to_dict("records")
    [{'id': 'q1', 'label': 'fabricated', 'tags': 'number', 'text': 'x', 'a': '\u2717 exact'}]
    """
    configs = list(dict.fromkeys(verdicts["config"]))
    first = verdicts.loc[verdicts["config"] == configs[0]] if configs else verdicts
    several = "paper" in verdicts.columns and verdicts["paper"].nunique() > 1
    keep = ("id", "paper", "label", "tags", "text") if several else ("id", "label", "tags", "text")
    out = first[[c for c in keep if c in verdicts.columns]].reset_index(drop=True)
    for config in configs:
        v = verdicts.loc[verdicts["config"] == config]
        wrong = (v["label"] == "faithful") != v["accepted"].astype(bool)
        cells = []
        for status, cause, bad in zip(v["status"], v["cause"].fillna(""), wrong):
            cell = f"{status} ({cause})" if cause and cause != status else str(status)
            cells.append(("\u2717 " if bad else "") + cell)
        out[config] = out["id"].map(dict(zip(v["id"], cells)))
    return out


def metrics_table(metrics: pd.DataFrame) -> pd.DataFrame:
    """The metrics frame as display strings, one row per config."""
    rows = []
    for r in metrics.to_dict("records"):
        row = {
            "config": r.get("config"),
            "false reject": format_rate(r.get("false_reject"), r.get("fr_low"), r.get("fr_high")),
            "false accept": format_rate(r.get("false_accept"), r.get("fa_low"), r.get("fa_high")),
        }
        if "anchor_accuracy" in r:
            row["anchor accuracy"] = format_rate(r.get("anchor_accuracy"), r.get("aa_low"), r.get("aa_high"))
        if "throughput_qps" in r:
            row["quotes/s"] = _num(r.get("throughput_qps"), "{:,.0f}")
        for key, label in (("p50_ms", "p50 ms"), ("p95_ms", "p95 ms"), ("p99_ms", "p99 ms"), ("build_ms", "index build ms")):
            if key in r:
                row[label] = _num(r.get(key), "{:.2f}" if key != "build_ms" else "{:.0f}")
        row["rules"] = r.get("rules", "")
        row["fingerprint"] = r.get("fingerprint", "")
        rows.append(row)
    return pd.DataFrame(rows)


def paper_timing_table(by_paper: pd.DataFrame) -> pd.DataFrame:
    """The timing of each config on each paper as display strings (papers in the set's
    order): quotes per second with its slowest-to-fastest repeat, and p50/p95/p99.

    >>> bp = pd.DataFrame({"config": ["c"], "paper": ["p1"], "throughput_qps": [1234.4], "qps_min": [1000.0],
    ...     "qps_max": [1300.0], "p50_ms": [0.5], "p95_ms": [1.25], "p99_ms": [2.0]})
    >>> paper_timing_table(bp).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'paper': 'p1', 'config': 'c', 'quotes/s': '1,234', 'slowest-fastest repeat': '1,000-1,300',
      'p50 ms': '0.50', 'p95 ms': '1.25', 'p99 ms': '2.00'}]
    """
    data = paper_throughput(by_paper)
    rows = []
    for r, (p50, p95, p99) in zip(data.to_dict("records"), _percentiles_in_order(by_paper, data)):
        rows.append({
            "paper": r["paper"],
            "config": r["config"],
            "quotes/s": _num(r["throughput_qps"], "{:,.0f}"),
            "slowest-fastest repeat": f"{_num(r['qps_min'], '{:,.0f}')}-{_num(r['qps_max'], '{:,.0f}')}",
            "p50 ms": _num(p50, "{:.2f}"),
            "p95 ms": _num(p95, "{:.2f}"),
            "p99 ms": _num(p99, "{:.2f}"),
        })
    return pd.DataFrame(rows, columns=["paper", "config", "quotes/s", "slowest-fastest repeat", "p50 ms", "p95 ms",
                                       "p99 ms"])


def _percentiles_in_order(by_paper: pd.DataFrame, ordered: pd.DataFrame) -> list[tuple[Any, Any, Any]]:
    """p50/p95/p99 of ``by_paper`` for each (paper, config) row of ``ordered``."""
    cols = ("p50_ms", "p95_ms", "p99_ms")
    found = {(r["paper"], r["config"]): tuple(r.get(c, math.nan) for c in cols) for r in by_paper.to_dict("records")}
    return [found.get((p, c), (math.nan,) * 3) for p, c in zip(ordered["paper"], ordered["config"])]


def _num(value: Any, fmt: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return fmt.format(value)


# ---------------------------------------------------------------------------------------
# Charts


def rates_chart(metrics: pd.DataFrame, *, width: int = 420, height: int = 300) -> alt.Chart:
    """False-reject rate (y) against false-accept rate (x) per config, 95% intervals on
    both axes; the ideal point is the bottom-left corner."""
    data = metrics.loc[:, [c for c in ("config", "rules", *_RATE_COLUMNS) if c in metrics.columns]].copy()
    for c in _RATE_COLUMNS:
        data[c] = data[c].astype(float)
    base = alt.Chart(data)
    x = alt.X("false_accept:Q", title="false-accept rate (fabricated accepted)", axis=alt.Axis(format="%"),
              scale=alt.Scale(domainMin=0))
    y = alt.Y("false_reject:Q", title="false-reject rate (faithful rejected)", axis=alt.Axis(format="%"),
              scale=alt.Scale(domainMin=0))
    color = alt.Color("config:N", title="config", scale=alt.Scale(scheme="tableau10"))
    tooltip = [alt.Tooltip("config:N"), alt.Tooltip("false_reject:Q", format=".1%"),
               alt.Tooltip("false_accept:Q", format=".1%")]
    points = base.mark_point(filled=True, size=80).encode(x=x, y=y, color=color, tooltip=tooltip)
    fr_bars = base.mark_rule().encode(x="false_accept:Q", y="fr_low:Q", y2="fr_high:Q", color=color)
    fa_bars = base.mark_rule().encode(y="false_reject:Q", x="fa_low:Q", x2="fa_high:Q", color=color)
    labels = base.mark_text(align="left", dx=7, dy=-7, fontSize=11).encode(x=x, y=y, text="config:N")
    return (fr_bars + fa_bars + points + labels).properties(
        width=width, height=height, title="False reject vs false accept (95% intervals)"
    )


def rates_bars(metrics: pd.DataFrame, *, width: int = 380) -> alt.Chart:
    """Both rates per config side by side as bars with 95% interval whiskers."""
    rows = []
    for r in metrics.to_dict("records"):
        rows.append({"config": r["config"], "rate": "false reject", "value": r["false_reject"],
                     "low": r["fr_low"], "high": r["fr_high"]})
        rows.append({"config": r["config"], "rate": "false accept", "value": r["false_accept"],
                     "low": r["fa_low"], "high": r["fa_high"]})
    data = pd.DataFrame(rows)
    order = list(dict.fromkeys(metrics["config"]))
    base = alt.Chart(data).encode(y=alt.Y("config:N", sort=order, title=None))
    bars = base.mark_bar(opacity=0.7).encode(x=alt.X("value:Q", title="rate", axis=alt.Axis(format="%")),
                                             color=alt.Color("rate:N", legend=None))
    whiskers = base.mark_rule().encode(x="low:Q", x2="high:Q")
    return (bars + whiskers).properties(width=width / 2, height=alt.Step(22)).facet(
        column=alt.Column("rate:N", title=None)
    ).properties(title="Both rates with 95% intervals")


def tag_heatmap(by_tag: pd.DataFrame, *, cell: int = 22) -> alt.Chart:
    """Error rate of each config (rows) on each tag (columns): the false-reject rate
    on faithful tags and the false-accept rate on fabricated tags."""
    data = by_tag.copy()
    data["rate"] = data["rate"].astype(float)
    data["cell"] = ["" if math.isnan(r) else f"{100 * r:.0f}%" for r in data["rate"]]
    configs = list(dict.fromkeys(data["config"]))
    base = alt.Chart(data).encode(
        x=alt.X("tag:N", title=None, axis=alt.Axis(labelAngle=-45, labelOverlap=False)),
        y=alt.Y("config:N", sort=configs, title=None),
        tooltip=["config:N", "label:N", "tag:N", "n:Q", alt.Tooltip("rate:Q", format=".1%"),
                 alt.Tooltip("low:Q", format=".1%"), alt.Tooltip("high:Q", format=".1%")],
    )
    rect = base.mark_rect().encode(
        color=alt.Color("rate:Q", title="error rate", scale=alt.Scale(domain=[0, 1], scheme="orangered"))
    )
    text = base.mark_text(fontSize=9).encode(
        text="cell:N", color=alt.condition(alt.datum.rate > 0.5, alt.value("white"), alt.value("black"))
    )
    charts = []
    for label in ("faithful", "fabricated"):
        part = data.loc[data["label"] == label]
        if part.empty:
            continue
        title = "faithful: false-reject rate" if label == "faithful" else "fabricated: false-accept rate"
        charts.append(
            (rect + text).transform_filter(alt.datum.label == label).properties(
                width=alt.Step(cell * 2), height=alt.Step(cell), title=title
            )
        )
    if not charts:
        return alt.Chart(pd.DataFrame({"x": []})).mark_text()
    return alt.vconcat(*charts).resolve_scale(color="shared")


def savings_chart(savings: pd.DataFrame, *, width: int = 380) -> alt.Chart:
    """Measured saving per config with its interval and the claimed target (dashed)."""
    data = savings[["config", "baseline", "saving", "saving_low", "saving_high", "target", "holds"]].copy()
    for c in ("saving", "saving_low", "saving_high", "target"):
        data[c] = data[c].astype(float)
    data["verdict"] = ["meets target" if h else "misses target" for h in data["holds"]]
    order = list(dict.fromkeys(data["config"]))
    base = alt.Chart(data)
    y = alt.Y("config:N", sort=order, title=None)
    bars = base.mark_bar(opacity=0.75).encode(
        y=y,
        x=alt.X("saving:Q", title="time saved vs baseline", axis=alt.Axis(format="%")),
        color=alt.Color("verdict:N", title=None, scale=alt.Scale(domain=["meets target", "misses target"],
                                                                 range=["#2a9d8f", "#e76f51"])),
        tooltip=["config:N", "baseline:N", alt.Tooltip("saving:Q", format=".1%"),
                 alt.Tooltip("saving_low:Q", format=".1%"), alt.Tooltip("saving_high:Q", format=".1%"),
                 alt.Tooltip("target:Q", format=".1%")],
    )
    whiskers = base.mark_rule(color="black").encode(y=y, x="saving_low:Q", x2="saving_high:Q")
    target = base.mark_rule(color="black", strokeDash=[4, 3]).encode(x="target:Q")
    return alt.layer(bars, whiskers, target).properties(
        width=width, height=alt.Step(30), title="Time saved (interval) vs claimed target (dashed)"
    )


LATENCY_PERCENTILES = (50, 95, 99)


def several_papers(verdicts: pd.DataFrame) -> bool:
    """True when ``verdicts`` cover more than one paper (a multi-paper set evaluated as a
    whole); the latency and throughput charts are then drawn once per paper as well.

    >>> several_papers(pd.DataFrame({"paper": ["p1", "p2"]})), several_papers(pd.DataFrame({"paper": ["p1"]}))
    (True, False)
    """
    return "paper" in verdicts.columns and verdicts["paper"].nunique() > 1


def latency_ecdf(verdicts: pd.DataFrame, *, per_paper: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(ECDF points, percentile marks) of the per-quote latencies of each config, or of
    each paper and config with ``per_paper``.

    ECDF: config, latency_ms, share (of that config's quotes located at most that fast).
    Marks: config, percentile (``p50`` ...), latency_ms, share. Percentiles are numpy's
    linear ones, the same as the metrics table's p50/p95/p99 (and, per paper, the same
    as :attr:`Evaluation.by_paper`'s). With ``per_paper`` both frames start with a
    ``paper`` column and every share and percentile is taken over that paper's quotes.

    >>> v = pd.DataFrame({"config": ["a"] * 4, "latency_ms": [1.0, 2.0, 3.0, 4.0]})
    >>> ecdf, marks = latency_ecdf(v)
    >>> ecdf["share"].tolist(), marks["latency_ms"].round(2).tolist()
    ([0.25, 0.5, 0.75, 1.0], [2.5, 3.85, 3.97])
    >>> v = v.assign(paper=["p1", "p1", "p2", "p2"])
    >>> ecdf, marks = latency_ecdf(v, per_paper=True)
    >>> ecdf["share"].tolist(), marks.loc[marks["percentile"] == "p50", ["paper", "latency_ms"]].values.tolist()
    ([0.5, 1.0, 0.5, 1.0], [['p1', 1.5], ['p2', 3.5]])
    """
    import numpy as np

    keys = ["paper", "config"] if per_paper else ["config"]
    points, marks = [], []
    for key, group in verdicts.groupby(keys, sort=False):
        ids = dict(zip(keys, key if isinstance(key, tuple) else (key,)))
        lat = np.sort(group["latency_ms"].dropna().to_numpy(dtype=float))
        if not len(lat):
            continue
        n = len(lat)
        points += [{**ids, "latency_ms": float(x), "share": (i + 1) / n} for i, x in enumerate(lat)]
        for q in LATENCY_PERCENTILES:
            marks.append({**ids, "percentile": f"p{q}", "latency_ms": float(np.percentile(lat, q)), "share": q / 100})
    return (pd.DataFrame(points, columns=[*keys, "latency_ms", "share"]),
            pd.DataFrame(marks, columns=[*keys, "percentile", "latency_ms", "share"]))


def paper_throughput(by_paper: pd.DataFrame) -> pd.DataFrame:
    """Throughput of each config on each paper with its spread over the timing repeats:
    paper, config, throughput_qps, qps_min, qps_max, papers in the set's order.

    Taken from :attr:`Evaluation.by_paper`, which measures it on each paper exactly as
    the overall figure is measured on the set: that paper's quotes divided by the sum of
    their per-quote median latencies, and for the spread, that paper's quotes divided by
    the time each timing repeat spent on them (slowest and fastest repeat).

    >>> bp = pd.DataFrame({"config": ["c", "c"], "paper": ["p2", "p1"], "throughput_qps": [10.0, 20.0],
    ...                    "qps_min": [8.0, 15.0], "qps_max": [12.0, 22.0]})
    >>> paper_throughput(bp).values.tolist()
    [['p2', 'c', 10.0, 8.0, 12.0], ['p1', 'c', 20.0, 15.0, 22.0]]
    """
    columns = ["paper", "config", "throughput_qps", "qps_min", "qps_max"]
    data = by_paper.reindex(columns=columns).copy()
    order = {p: i for i, p in enumerate(dict.fromkeys(data["paper"]))}
    data = data.sort_values("paper", key=lambda s: s.map(order), kind="stable").reset_index(drop=True)
    for c in columns[2:]:
        data[c] = data[c].astype(float)
    return data


def latency_spec(verdicts: pd.DataFrame, *, width: int = 460, height: int = 240) -> dict:
    """Vega-Lite spec of :func:`latency_chart`, written out as a dict: the workbench draws
    it on every re-render, where building it through altair would cost more than the
    evaluation it shows."""
    ecdf, marks = latency_ecdf(verdicts)
    title = "Latency per quote (ECDF; p50, p95, p99 marked in ms)"
    if ecdf.empty:
        return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "title": title,
                "data": {"values": []}, "mark": "point"}
    floor = _floor(ecdf["latency_ms"])
    points = ecdf.assign(latency_ms=ecdf["latency_ms"].clip(lower=floor)).to_dict("records")
    marked = marks.assign(latency_ms=marks["latency_ms"].clip(lower=floor)).to_dict("records")
    order = list(dict.fromkeys(ecdf["config"]))
    x = {"field": "latency_ms", "type": "quantitative", "scale": {"type": "log"},
         "title": "latency per quote (ms, log scale)"}
    y = {"field": "share", "type": "quantitative", "title": "share of quotes at most this fast",
         "axis": {"format": "%"}, "scale": {"domain": [0, 1]}}
    color = {"field": "config", "type": "nominal", "sort": order, "title": "config"}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": title,
        "width": width,
        "height": height,
        "layer": [
            {"data": {"values": points}, "mark": {"type": "line", "interpolate": "step-after"},
             "encoding": {"x": x, "y": y, "color": color}},
            {"data": {"values": marked}, "mark": {"type": "point", "filled": True, "size": 45},
             "encoding": {"x": x, "y": y, "color": color,
                          "shape": {"field": "percentile", "type": "nominal", "title": "marked"},
                          "tooltip": [{"field": "config", "type": "nominal"},
                                      {"field": "percentile", "type": "nominal"},
                                      {"field": "latency_ms", "type": "quantitative", "format": ".3f"}]}},
            {"data": {"values": marked}, "mark": {"type": "text", "align": "left", "dx": 5, "dy": -6, "fontSize": 9},
             "encoding": {"x": x, "y": y, "color": color,
                          "text": {"field": "latency_ms", "type": "quantitative", "format": ".2f"}}},
        ],
    }


def latency_chart(verdicts: pd.DataFrame, *, width: int = 460, height: int = 240) -> alt.TopLevelMixin:
    """Latency distribution per config: the ECDF of per-quote latency on a log axis,
    with p50, p95 and p99 marked and labelled on each curve."""
    return alt.LayerChart.from_dict(latency_spec(verdicts, width=width, height=height), validate=False)


def throughput_chart(metrics: pd.DataFrame, *, width: int = 380) -> alt.Chart:
    """Throughput per config (quotes per second, from the per-quote median latencies),
    with a whisker from the slowest to the fastest timing repeat."""
    data = metrics[["config", "throughput_qps", "qps_min", "qps_max"]].copy()
    order = list(dict.fromkeys(data["config"]))
    base = alt.Chart(data)
    y = alt.Y("config:N", sort=order, title=None)
    bars = base.mark_bar(opacity=0.75).encode(
        y=y, x=alt.X("throughput_qps:Q", title="quotes per second"),
        tooltip=["config:N", alt.Tooltip("throughput_qps:Q", format=",.0f"), alt.Tooltip("qps_min:Q", format=",.0f"),
                 alt.Tooltip("qps_max:Q", format=",.0f")],
    )
    spread = base.mark_rule(color="black").encode(y=y, x="qps_min:Q", x2="qps_max:Q")
    ends = base.mark_tick(color="black", thickness=1, size=12).encode(y=y, x="qps_min:Q") + base.mark_tick(
        color="black", thickness=1, size=12).encode(y=y, x="qps_max:Q")
    return alt.layer(bars, spread, ends).properties(
        width=width, height=alt.Step(30), title="Throughput (whisker: slowest to fastest timing repeat)"
    )


PAPER_COLUMNS = 3
"""Small multiples per row in the per-paper charts (ten papers make four rows)."""

PAPER_LATENCY_TEXT = (
    "Share of quotes located within a given time on each paper, per config (log axis, the "
    "same on every panel); the marked points are each paper's p50, p95 and p99."
)
PAPER_THROUGHPUT_TEXT = (
    "Quotes per second on each paper: that paper's quotes divided by the sum of their "
    "per-quote median latencies, as the overall figure is computed for the whole set. The "
    "whisker runs from the slowest to the fastest timing repeat: that paper's quotes divided "
    "by the time each repeat spent locating them. A bar can reach past its whisker: a "
    "quote's median drops a stall that hit one of its repeats, while every repeat's total "
    "keeps the stalls that hit it."
)


def _floor(latencies: pd.Series) -> float:
    """The smallest positive latency: zero cannot be drawn on a log axis."""
    positive = latencies[latencies > 0]
    return max(float(positive.min()) if len(positive) else 1e-3, 1e-4)


def paper_latency_spec(verdicts: pd.DataFrame, *, columns: int = PAPER_COLUMNS, width: int = 200,
                       height: int = 120) -> dict:
    """Vega-Lite spec of :func:`paper_latency_chart`, written out as a dict for the same
    reason as :func:`latency_spec`: one small ECDF panel per paper (``columns`` to a
    row, in the set's order), a colour per config, p50/p95/p99 of each paper and config
    marked (and labelled in ms when one config is drawn: labels of several configs
    would overlap on a small panel, so there the tooltip and :func:`paper_timing_table`
    give the figures)."""
    ecdf, marks = latency_ecdf(verdicts, per_paper=True)
    title = "Latency per quote on each paper (ECDF; p50, p95, p99 marked in ms)"
    if ecdf.empty:
        return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "title": title,
                "data": {"values": []}, "mark": "point"}
    floor = _floor(ecdf["latency_ms"])
    rows = [{"kind": "ecdf", **r} for r in ecdf.assign(latency_ms=ecdf["latency_ms"].clip(lower=floor)).to_dict("records")]
    rows += [{"kind": "mark", **r} for r in marks.assign(latency_ms=marks["latency_ms"].clip(lower=floor)).to_dict("records")]
    papers = list(dict.fromkeys(ecdf["paper"]))
    configs = list(dict.fromkeys(ecdf["config"]))
    x = {"field": "latency_ms", "type": "quantitative", "scale": {"type": "log"}, "title": "ms per quote (log)",
         "axis": {"labelOverlap": "greedy", "labelSeparation": 4}}  # a narrow panel: drop a tick label rather than overprint it
    y = {"field": "share", "type": "quantitative", "title": "share of quotes", "axis": {"format": "%"},
         "scale": {"domain": [0, 1]}}
    color = {"field": "config", "type": "nominal", "sort": configs, "title": "config"}
    layers = [
        {"transform": [{"filter": {"field": "kind", "equal": "ecdf"}}],
         "mark": {"type": "line", "interpolate": "step-after"}, "encoding": {"x": x, "y": y, "color": color}},
        {"transform": [{"filter": {"field": "kind", "equal": "mark"}}],
         "mark": {"type": "point", "filled": True, "size": 35},
         "encoding": {"x": x, "y": y, "color": color,
                      "shape": {"field": "percentile", "type": "nominal", "title": "marked"},
                      "tooltip": [{"field": "paper", "type": "nominal"}, {"field": "config", "type": "nominal"},
                                  {"field": "percentile", "type": "nominal"},
                                  {"field": "latency_ms", "type": "quantitative", "format": ".3f"}]}},
    ]
    if len(configs) == 1:
        layers.append(
            {"transform": [{"filter": {"field": "kind", "equal": "mark"}}],
             "mark": {"type": "text", "align": "left", "dx": 4, "dy": -5, "fontSize": 8},
             "encoding": {"x": x, "y": y, "color": color,
                          "text": {"field": "latency_ms", "type": "quantitative", "format": ".2f"}}})
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": title,
        "data": {"values": rows},
        "facet": {"field": "paper", "type": "nominal", "sort": papers, "title": None,
                  "header": {"labelFontSize": 11, "labelLimit": width}},
        "columns": max(1, min(columns, len(papers))),
        "spec": {"width": width, "height": height, "layer": layers},
    }


def paper_latency_chart(verdicts: pd.DataFrame, *, columns: int = PAPER_COLUMNS, width: int = 200,
                        height: int = 120) -> alt.TopLevelMixin:
    """Latency distribution on each paper: small multiples of :func:`latency_chart`,
    one panel per paper on a shared log axis."""
    return alt.FacetChart.from_dict(paper_latency_spec(verdicts, columns=columns, width=width, height=height),
                                    validate=False)


def paper_throughput_spec(by_paper: pd.DataFrame, *, width: int = 380) -> dict:
    """Vega-Lite spec of :func:`paper_throughput_chart`, written out as a dict (the
    workbench draws it on every re-render): one group of bars per paper, a bar per
    config, each with a whisker from the slowest to the fastest timing repeat."""
    data = paper_throughput(by_paper)
    papers = list(dict.fromkeys(data["paper"]))
    configs = list(dict.fromkeys(data["config"]))
    rows = [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
            for r in data.to_dict("records")]
    y = {"field": "paper", "type": "nominal", "sort": papers, "title": None, "axis": {"labelLimit": 220}}
    offset = {"field": "config", "type": "nominal", "sort": configs}
    color = {"field": "config", "type": "nominal", "sort": configs, "title": "config"}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": "Throughput on each paper (whisker: slowest to fastest timing repeat)",
        "data": {"values": rows},
        # width is the plot's own: long paper ids and the legend come on top of it (a
        # fitted chart would squeeze the bars to make room for them)
        "autosize": {"type": "pad", "contains": "padding"},
        "width": width,
        "height": {"step": 8 * len(configs) + 8},
        "encoding": {"y": y, "yOffset": offset},
        "layer": [
            {"mark": {"type": "bar", "opacity": 0.75},
             "encoding": {"x": {"field": "throughput_qps", "type": "quantitative", "title": "quotes per second"},
                          "color": color,
                          "tooltip": [{"field": "paper", "type": "nominal"}, {"field": "config", "type": "nominal"},
                                      {"field": "throughput_qps", "type": "quantitative", "format": ",.0f"},
                                      {"field": "qps_min", "type": "quantitative", "format": ",.0f"},
                                      {"field": "qps_max", "type": "quantitative", "format": ",.0f"}]}},
            {"mark": {"type": "rule", "color": "black"},
             "encoding": {"x": {"field": "qps_min", "type": "quantitative"}, "x2": {"field": "qps_max"}}},
            {"mark": {"type": "tick", "color": "black", "thickness": 1, "size": 9},
             "encoding": {"x": {"field": "qps_min", "type": "quantitative"}}},
            {"mark": {"type": "tick", "color": "black", "thickness": 1, "size": 9},
             "encoding": {"x": {"field": "qps_max", "type": "quantitative"}}},
        ],
    }


def paper_throughput_chart(by_paper: pd.DataFrame, *, width: int = 380) -> alt.TopLevelMixin:
    """Throughput per config on each paper with its spread over the timing repeats
    (see :func:`paper_throughput` for how it is measured)."""
    return alt.LayerChart.from_dict(paper_throughput_spec(by_paper, width=width), validate=False)


def chart_svg(chart: alt.TopLevelMixin) -> str:
    """An altair chart as standalone SVG markup (no JavaScript, no network)."""
    import vl_convert as vlc

    svg = vlc.vegalite_to_svg(chart.to_dict())
    return svg[svg.index("<svg"):] if "<svg" in svg else svg


# ---------------------------------------------------------------------------------------
# HTML


_CSS = """
:root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--muted:#666;--line:#ddd;--head:#f4f4f4;--ok:#1d7a5f;
--bad:#b3361b;--del:#fde2dd;--ins:#d9f2e6}
@media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--bg:#16181c;--muted:#a0a0a0;--line:#3a3d44;--head:#23262c;
--ok:#5fd0a8;--bad:#ff8a70;--del:#5a2a22;--ins:#1f4a37}}
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1100px;
color:var(--fg);background:var(--bg);line-height:1.45;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid var(--line)}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0;display:block;overflow-x:auto;max-width:100%}
th,td{border:1px solid var(--line);padding:.25rem .45rem;text-align:left;vertical-align:top}
th{background:var(--head)}td.q{font-family:ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;
word-break:break-word}.muted{color:var(--muted);font-size:.85rem}.chart{overflow-x:auto;margin:.5rem 0}
.chart svg{background:#fff;border-radius:4px;max-width:100%;height:auto}
.ok{color:var(--ok);font-weight:600}.bad{color:var(--bad);font-weight:600}
del{background:var(--del);text-decoration:line-through}ins{background:var(--ins);text-decoration:none}
@page{size:A4;margin:14mm 12mm}
@media print{:root{--fg:#000;--bg:#fff;--muted:#444;--line:#999;--head:#eee;--del:#fde2dd;--ins:#d9f2e6}
body{max-width:none;margin:0;padding:0;font-size:9.5pt}h2{break-after:avoid;page-break-after:avoid}
table{font-size:7.5pt;display:table;width:100%;table-layout:auto}th,td{overflow-wrap:anywhere}
thead{display:table-header-group}tr,.chart,svg{break-inside:avoid;page-break-inside:avoid}
.chart{overflow:visible}a{color:inherit;text-decoration:none}}
"""
"""Follows the viewer's light or dark theme (``prefers-color-scheme``) and prints on A4
(``@page``, no clipped tables, headers repeated on every page)."""


def _e(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value)
    return html.escape(str(value), quote=True)


def html_table(frame: pd.DataFrame, *, text_columns: Iterable[str] = ("text",), max_rows: int | None = None) -> str:
    """A frame as an HTML table; every cell is escaped."""
    text_columns = set(text_columns)
    if max_rows is not None:
        frame = frame.head(max_rows)
    head = "".join(f"<th>{_e(c)}</th>" for c in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for col, value in zip(frame.columns, row):
            cls = ' class="q"' if col in text_columns else ""
            cells.append(f"<td{cls}>{_e(value)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _meta_rows(meta: Mapping[str, Any]) -> list[tuple[str, str]]:
    rows = []
    for key, value in meta.items():
        if isinstance(value, (dict, list, tuple)):
            value = json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
        rows.append((str(key), str(value)))
    return rows


def _versions() -> dict[str, str]:
    from .. import __version__

    out = {"quotelocate": __version__, "python": platform.python_version(), "pandas": pd.__version__,
           "altair": alt.__version__}
    try:
        import pymupdf

        out["pymupdf"] = pymupdf.VersionBind
    except Exception:  # pragma: no cover - pymupdf is a dependency
        pass
    return out


def html_head(title: str, generated: _dt.datetime) -> list[str]:
    """The opening of a self-contained report: doctype, a policy that loads nothing,
    the styles, the title and when it was generated."""
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">",
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="muted">Generated {_e(generated.strftime("%Y-%m-%d %H:%M:%S %Z"))} by quotelocate. '
        "This file is self-contained: it loads nothing from the network.</p>",
    ]


def render_html(
    evaluation: "Evaluation",
    *,
    title: str | None = None,
    max_rows: int = 1000,
    generated: _dt.datetime | None = None,
) -> str:
    """One self-contained, offline HTML report of ``evaluation``.

    Holds the run metadata (quote set, paper hash, rules fingerprints, versions, date),
    a sentence on how the figures were measured, the metrics table, the rates chart, the
    per-tag heatmap, the ablation table, the time-savings verdict when present, and
    every quote with each config's verdict (up to ``max_rows``). Charts are inline SVG; the file
    loads no script and nothing from the network. All text is HTML-escaped.
    """
    meta = dict(getattr(evaluation, "meta", {}) or {})
    generated = generated or _dt.datetime.now(_dt.timezone.utc)
    set_name = meta.get("set") or meta.get("quote_set") or meta.get("name") or "quote set"
    if isinstance(set_name, Mapping):
        set_name = set_name.get("name", "quote set")
    title = title or f"quotelocate evaluation: {set_name}"
    parts: list[str] = html_head(title, generated)
    add = parts.append

    metrics = evaluation.metrics
    verdicts = evaluation.verdicts

    # headline
    add("<h2>Summary</h2>")
    add(f"<p>{_e(HOW_MEASURED)}</p>")
    add(f'<p class="muted">{_e(run_sentence(meta))}</p>')
    add(html_table(metrics_table(metrics), text_columns=()))

    add("<h2>False reject vs false accept</h2>")
    add(f'<div class="chart">{chart_svg(rates_chart(metrics))}</div>')

    if verdicts["latency_ms"].notna().any():
        add("<h2>Latency</h2>")
        add('<p class="muted">Share of quotes located within a given time, per config (log axis); the '
            "marked points are p50, p95 and p99, labelled in milliseconds.</p>")
        add(f'<div class="chart">{chart_svg(latency_chart(verdicts))}</div>')
        if "qps_min" in metrics and metrics["qps_min"].notna().any():
            add(f'<div class="chart">{chart_svg(throughput_chart(metrics))}</div>')
        parts.extend(paper_timing_html(verdicts, getattr(evaluation, "by_paper", None)))

    by_paper = getattr(evaluation, "by_paper", None)
    if by_paper is not None and by_paper["paper"].nunique() > 1:
        add("<h2>Per paper</h2>")
        add('<p class="muted">Each rate on each paper of the set, with its 95% Wilson interval; '
            "quotes are faithful + fabricated.</p>")
        add(html_table(paper_table(by_paper), text_columns=()))

    by_tag = getattr(evaluation, "by_tag", None)
    if by_tag is not None and len(by_tag):
        add("<h2>Error rate per tag</h2>")
        add('<p class="muted">Faithful tags show the false-reject rate, fabricated tags the false-accept rate.</p>')
        add(f'<div class="chart">{chart_svg(tag_heatmap(by_tag))}</div>')

    ablation = getattr(evaluation, "ablation", None)
    if ablation is not None and len(ablation):
        add("<h2>Ablation</h2>")
        add('<p class="muted">Change in each rate when one rule is changed, with the exact McNemar p-value '
            "over the paired verdicts and the same p-value after Holm's correction for the number of tests in "
            "this table (holm_p_*; faithful and fabricated tests are corrected as two families).</p>")
        add(html_table(_round_frame(ablation), text_columns=()))

    savings = getattr(evaluation, "savings", None)
    if savings is not None and len(savings):
        add("<h2>Time savings</h2>")
        for line in savings_sentences(savings):
            add(f"<p>{_e(line)}</p>")
        add(f'<p class="muted">{_e(savings_method(savings))}</p>')
        add(f'<div class="chart">{chart_svg(savings_chart(savings))}</div>')
        add(html_table(_round_frame(savings), text_columns=()))

    wrong = errors(verdicts)
    add("<h2>Every quote</h2>")
    if wrong.empty:
        add("<p>No faithful quote was rejected and no fabricated quote was accepted.</p>")
    else:
        add(f"<p>{len(wrong)} misjudged verdicts over all configs, marked \u2717 below.</p>")
    more = f" (first {max_rows} of {verdicts['id'].nunique()})" if verdicts["id"].nunique() > max_rows else ""
    add(f'<p class="muted">One row per quote{_e(more)}; each config column shows its verdict status and, '
        "for a rejection, the suspected cause.</p>")
    add(html_table(verdict_matrix(verdicts), max_rows=max_rows))

    add("<h2>Run metadata</h2>")
    rows = _meta_rows(meta)
    fps = metrics[[c for c in ("config", "fingerprint", "rules") if c in metrics.columns]]
    rows += [(f"rules fingerprint: {r['config']}", f"{r.get('fingerprint', '')}  {r.get('rules', '')}")
             for r in fps.to_dict("records")]
    rows += [(f"version: {k}", v) for k, v in _versions().items()]
    add("<table><tbody>" + "".join(f"<tr><th>{_e(k)}</th><td class=\"q\">{_e(v)}</td></tr>" for k, v in rows)
        + "</tbody></table>")
    add("</body></html>")
    return "\n".join(parts)


def paper_timing_html(verdicts: pd.DataFrame, by_paper: pd.DataFrame | None) -> list[str]:
    """The per-paper timing of a multi-paper evaluation as report HTML: the latency
    small multiples, the throughput per paper and the table of both (each chart inline
    SVG, each text escaped); nothing for a one-paper evaluation."""
    if not several_papers(verdicts):
        return []
    out = ["<h3>Latency on each paper</h3>", f'<p class="muted">{_e(PAPER_LATENCY_TEXT)}</p>',
           f'<div class="chart">{chart_svg(paper_latency_chart(verdicts))}</div>']
    if by_paper is not None and len(by_paper) and by_paper["throughput_qps"].notna().any():
        out += ["<h3>Throughput on each paper</h3>", f'<p class="muted">{_e(PAPER_THROUGHPUT_TEXT)}</p>',
                f'<div class="chart">{chart_svg(paper_throughput_chart(by_paper))}</div>',
                html_table(paper_timing_table(by_paper), text_columns=())]
    return out


def run_sentence(meta: Mapping[str, Any]) -> str:
    """How this run was made, from :attr:`Evaluation.meta`."""
    scope = meta.get("scope") or "group"
    parts = [
        f"This run: {meta.get('n_quotes', '?')} quotes ({meta.get('n_faithful', '?')} faithful, "
        f"{meta.get('n_fabricated', '?')} fabricated) of set {meta.get('set', '?')}",
        f"scope {scope} for quotes with a cited chunk",
        f"{meta.get('repeats', '?')} timed repeat(s) per quote",
    ]
    if meta.get("machine"):
        parts.append(f"on {meta['machine']}")
    if meta.get("timestamp"):
        parts.append(f"at {meta['timestamp']}")
    return ", ".join(parts) + "."


def savings_sentences(savings: pd.DataFrame) -> list[str]:
    """One sentence per config: the measured saving, its interval, and whether it
    meets the claimed target."""
    out = []
    for r in savings.to_dict("records"):
        if r["config"] == r.get("baseline"):
            out.append(f"{r['config']} is the baseline the savings are measured against.")
            continue
        verdict = "meets" if bool(r.get("holds")) else "does not meet"
        out.append(
            f"{r['config']} saves {format_rate(r['saving'], r.get('saving_low'), r.get('saving_high'))} of the "
            f"time spent with {r.get('baseline', 'the baseline')}; this {verdict} the claimed "
            f"{format_rate(r.get('target'))} (it holds when the lower end of the interval reaches the target)."
        )
    return out


def savings_method(savings: pd.DataFrame) -> str:
    """How the savings interval and the review seconds were obtained, in one sentence."""
    methods = sorted({str(m) for m in savings.get("interval_method", pd.Series(dtype=str)).dropna() if m})
    sources = sorted({str(m) for m in savings.get("review_times", pd.Series(dtype=str)).dropna() if m})
    interval = "; ".join(methods) or "not recorded (a run saved before the method was stored)"
    review = "; ".join(sources) or "assumed"
    how = ""
    if any(m.startswith("paired bootstrap") for m in methods):
        how = (" The quotes are resampled with replacement, faithful and fabricated separately, the same draw "
               "for the config and its baseline; the interval is the 2.5th to 97.5th percentile of the saving.")
    return f"95% interval of the saving: {interval}.{how} Review seconds: {review}."


def _round_frame(frame: pd.DataFrame, digits: int = 4) -> pd.DataFrame:
    out = frame.copy()
    for c in out.columns:
        if pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].round(digits)
    return out


__all__ = [
    "HOW_MEASURED",
    "chart_svg",
    "errors",
    "html_table",
    "metrics_table",
    "paper_latency_chart",
    "paper_latency_spec",
    "paper_table",
    "paper_throughput",
    "paper_throughput_chart",
    "paper_throughput_spec",
    "paper_timing_html",
    "paper_timing_table",
    "rates_bars",
    "latency_chart",
    "throughput_chart",
    "latency_ecdf",
    "latency_spec",
    "rates_chart",
    "render_html",
    "run_sentence",
    "savings_chart",
    "savings_method",
    "savings_sentences",
    "several_papers",
    "tag_heatmap",
    "verdict_flips",
    "verdict_matrix",
]
