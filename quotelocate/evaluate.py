"""Evaluation: run rule configurations over a labelled quote set and measure them.

:func:`evaluate` parses the paper once (the :class:`~quotelocate.dataset.QuoteSet`
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

The review-time model (:class:`SavingsAssumptions`, every number visible). A model
writes a quote; the checker accepts or rejects it; a person reviews. With ``R`` =
``rerun_seconds``, ``Wa`` = ``review_seconds_with_anchor``, ``Wn`` =
``review_seconds_without_anchor``, a config's false-reject rate ``r``, false-accept rate
``a`` and the share ``s`` of fabricated quotes, the expected seconds per quote are::

    faithful   : r * (R + Wn) + (1 - r) * Wa
                 (a rejected faithful quote costs a model re-run plus a person looking
                  for it without an anchor; an accepted one is checked with its anchor)
    fabricated : a * Wn + (1 - a) * R
                 (a rejected fabrication costs a re-run; an accepted one reaches the
                  reviewer, who must catch it by reading the paper without help)
    cost       = (1 - s) * faithful + s * fabricated

``saving = 1 - cost(config) / cost(baseline)``. Its interval is the worst and best case
over the Wilson bounds of ``r`` and ``a`` of both configs (every corner; conservative,
since it ignores that the two configs are measured on the same quotes); the baseline's
own row is 0 with no interval. ``holds`` is ``saving_low >= target``. The model counts
review time only: correctness is reported by ``false_accept`` and its interval, and no
saving makes an accepted fabrication acceptable.

>>> from quotelocate.document import Document
>>> from quotelocate.dataset import Anchor, Quote, QuoteSet
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

import datetime as _dt
import importlib.metadata
import importlib.util
import math
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from statistics import median
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from .dataset import FABRICATED_TAGS, FAITHFUL_TAGS, Quote, QuoteSet
from .errors import ConfigError
from .locate import SCOPES, Locator
from .normalize import PRESETS, Rules, preset

JSON_FORMAT = 1
"""Version of :meth:`Evaluation.to_json`'s layout."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as quotes x configs are located."""


# ---------------------------------------------------------------------------------------
# Assumptions


@dataclass(frozen=True)
class SavingsAssumptions:
    """The numbers behind the review-time model (see the module docstring).

    rerun_seconds: float = 40.0
        Wall time of re-running the model after a rejected quote.
    review_seconds_with_anchor: float = 15.0
        A person checks one accepted quote, shown its page and highlighted box.
    review_seconds_without_anchor: float = 90.0
        A person checks one quote with no anchor: finding it (or not) in the paper.
    baseline: str = "exact"
        The config savings are measured against; evaluated too when it is a preset
        that was not asked for.
    target: float = 0.60
        The claimed relative saving: 0.60 means "60% less review time than baseline".
        ``holds`` is true when the lower bound of the saving reaches it.
    fabricated_share: float | None = None
        Share of fabricated quotes among the quotes a model writes; None uses the
        quote set's own mix (fabricated / all).
    """

    rerun_seconds: float = 40.0
    review_seconds_with_anchor: float = 15.0
    review_seconds_without_anchor: float = 90.0
    baseline: str = "exact"
    target: float = 0.60
    fabricated_share: float | None = None

    def __post_init__(self) -> None:
        for name in ("rerun_seconds", "review_seconds_with_anchor", "review_seconds_without_anchor"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ConfigError(f"savings.{name}: expected seconds >= 0, got {value!r}")
        if not isinstance(self.baseline, str) or not self.baseline:
            raise ConfigError(f"savings.baseline: expected a config name, got {self.baseline!r}")
        if isinstance(self.target, bool) or not isinstance(self.target, (int, float)) or not -1 <= self.target <= 1:
            raise ConfigError(f"savings.target: expected a fraction in [-1, 1], got {self.target!r}")
        share = self.fabricated_share
        if share is not None and (isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1):
            raise ConfigError(f"savings.fabricated_share: expected a fraction in [0, 1] or None, got {share!r}")

    def cost_faithful(self, reject_rate: float) -> float:
        """Expected seconds for one faithful quote at this false-reject rate."""
        r = reject_rate
        return r * (self.rerun_seconds + self.review_seconds_without_anchor) + (1 - r) * self.review_seconds_with_anchor

    def cost_fabricated(self, accept_rate: float) -> float:
        """Expected seconds for one fabricated quote at this false-accept rate."""
        a = accept_rate
        return a * self.review_seconds_without_anchor + (1 - a) * self.rerun_seconds

    def cost(self, reject_rate: float, accept_rate: float, share: float) -> float:
        """Expected seconds per quote when a share ``share`` of quotes is fabricated."""
        fr = 0.0 if math.isnan(reject_rate) else reject_rate
        fa = 0.0 if math.isnan(accept_rate) else accept_rate
        return (1 - share) * self.cost_faithful(fr) + share * self.cost_fabricated(fa)


# ---------------------------------------------------------------------------------------
# Statistics helpers


def wilson(count: int, n: int, *, alpha: float = 0.05) -> tuple[float, float, float]:
    """(rate, low, high): the proportion with its Wilson score interval; NaNs when n == 0.

    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.0, 0.2775]
    """
    if n == 0:
        return (math.nan, math.nan, math.nan)
    low, high = proportion_confint(count, n, alpha=alpha, method="wilson")
    low = 0.0 if count == 0 else float(min(max(low, 0.0), 1.0))  # exact at the edges, no 1e-17 noise
    high = 1.0 if count == n else float(min(max(high, 0.0), 1.0))
    return (count / n, low, high)


def mcnemar_exact(base: Sequence[bool], variant: Sequence[bool]) -> float:
    """Two-sided exact McNemar p-value for paired accept (True) / reject (False) outcomes.

    >>> mcnemar_exact([True] * 5 + [False] * 5, [False] * 5 + [False] * 5)
    0.0625
    """
    if len(base) != len(variant):
        raise ConfigError(f"mcnemar: paired outcomes differ in length ({len(base)} vs {len(variant)})")
    if not base:
        return math.nan
    b = sum(1 for x, y in zip(base, variant) if x and not y)
    c = sum(1 for x, y in zip(base, variant) if not x and y)
    a = sum(1 for x, y in zip(base, variant) if x and y)
    d = len(base) - a - b - c
    return float(mcnemar([[a, b], [c, d]], exact=True).pvalue)


# ---------------------------------------------------------------------------------------
# Configurations

ConfigsArg = Mapping[str, "Rules | str"] | Sequence["Rules | str"] | Rules | str | None


def resolve_configs(configs: ConfigsArg) -> dict[str, Rules]:
    """Name -> Rules from a mapping, a sequence of preset names / Rules, or one of them.

    None means every preset. A Rules equal to a preset takes the preset's name; any
    other takes its :meth:`Rules.describe` text.
    """
    if configs is None:
        return dict(PRESETS)
    if isinstance(configs, (str, Rules)):
        configs = [configs]
    out: dict[str, Rules] = {}
    if isinstance(configs, Mapping):
        for name, rules in configs.items():
            if not isinstance(name, str) or not name:
                raise ConfigError(f"configs: a config name must be a non-empty string, got {name!r}")
            out[name] = _as_rules(rules, name)
    else:
        for item in configs:
            rules = _as_rules(item, str(item))
            name = item if isinstance(item, str) else _name_for(rules)
            if name in out:
                if out[name] == rules:
                    continue
                name = f"{name} [{rules.fingerprint}]"
            out[name] = rules
    if not out:
        raise ConfigError("configs: no configuration to evaluate")
    return out


def _as_rules(value: Any, name: str) -> Rules:
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        return preset(value)
    raise ConfigError(f"configs: {name!r} must be Rules or a preset name, got {type(value).__name__}")


def _name_for(rules: Rules) -> str:
    for name, p in PRESETS.items():
        if p == rules:
            return name
    return rules.describe()


def rule_toggles(rules: Rules, *, pdf: bool = True) -> list[tuple[str, Rules]]:
    """Every one-rule change of ``rules``: each rule that is on switched off, each that
    is off switched on (``unicode`` off<->nfkc, ``hyphenation`` off<->both). ``+layout``
    only for PDFs, and only when the layout reader is installed.

    >>> [c for c, _ in rule_toggles(Rules(quotes=True, whitespace=True), pdf=False)]
    ['+furniture', '+markers', '+invisible', '+accents', '+unicode=nfkc', '-quotes', '+hyphenation=both', '+suspended_hyphens', '-whitespace', '+math_spacing', '-word_boundaries', '+ellipsis=fragments']
    """
    out: list[tuple[str, Rules]] = []
    for name in ("furniture", "layout", "markers", "invisible", "accents", "unicode", "quotes", "hyphenation",
                 "suspended_hyphens", "whitespace", "math_spacing", "word_boundaries"):
        if name == "layout" and not rules.layout and not (pdf and layout_available()):
            continue
        value = getattr(rules, name)
        if name == "unicode":
            change = ("-unicode", rules.replace(unicode="off")) if value != "off" else ("+unicode=nfkc", rules.replace(unicode="nfkc"))
        elif name == "hyphenation":
            change = (
                ("-hyphenation", rules.replace(hyphenation="off"))
                if value != "off"
                else ("+hyphenation=both", rules.replace(hyphenation="both"))
            )
        else:
            change = (("-" if value else "+") + name, rules.replace(**{name: not value}))
        out.append(change)
    if rules.ellipsis == "verbatim":
        out.append(("+ellipsis=fragments", rules.replace(ellipsis="fragments")))
    else:
        out.append(("-ellipsis", rules.replace(ellipsis="verbatim")))
    return out


def layout_available() -> bool:
    """Whether the geometry-based reading order (``quotelocate.layout``) is installed."""
    return importlib.util.find_spec(f"{__package__}.layout") is not None


def grid_configs() -> dict[str, Rules]:
    """Every preset, plus ``recommended`` with each of its rules switched off in turn
    (named like ``recommended -whitespace``), and with each opt-in rule it leaves off
    switched on (``recommended +markers``), so the grid shows what that rule trades."""
    out = dict(PRESETS)
    base = PRESETS["recommended"]
    for change, rules in rule_toggles(base):
        if change.startswith("-") or change[1:] in OPT_IN_RULES:
            out[f"recommended {change}"] = rules
    return out


OPT_IN_RULES = ("accents", "markers", "suspended_hyphens", "math_spacing")
"""Rules the grid also shows switched on when ``recommended`` leaves them off."""


# ---------------------------------------------------------------------------------------
# The result


VERDICT_COLUMNS: dict[str, str] = {
    "config": "str",
    "fingerprint": "str",
    "id": "str",
    "label": "str",
    "tags": "str",
    "accepted": "bool",
    "status": "str",
    "cause": "str",
    "rules": "str",
    "scope": "str",
    "start": "Int64",
    "end": "Int64",
    "page": "Int64",
    "anchor_ok": "boolean",
    "latency_ms": "float64",
    "text": "str",
}
"""Columns and dtypes of :attr:`Evaluation.verdicts` (``cause`` is empty when accepted)."""

METRIC_COLUMNS: dict[str, str] = {
    "config": "str",
    "fingerprint": "str",
    "rules": "str",
    "n_faithful": "int64",
    "n_fabricated": "int64",
    "false_reject": "float64",
    "fr_low": "float64",
    "fr_high": "float64",
    "false_accept": "float64",
    "fa_low": "float64",
    "fa_high": "float64",
    "n_accepted_faithful": "int64",
    "anchor_accuracy": "float64",
    "aa_low": "float64",
    "aa_high": "float64",
    "build_ms": "float64",
    "throughput_qps": "float64",
    "p50_ms": "float64",
    "p95_ms": "float64",
    "p99_ms": "float64",
}

BY_TAG_COLUMNS: dict[str, str] = {
    "config": "str",
    "label": "str",
    "tag": "str",
    "n": "int64",
    "rate": "float64",
    "low": "float64",
    "high": "float64",
}

SAVINGS_COLUMNS: dict[str, str] = {
    "config": "str",
    "baseline": "str",
    "cost_s_per_quote": "float64",
    "baseline_cost_s": "float64",
    "saving": "float64",
    "saving_low": "float64",
    "saving_high": "float64",
    "target": "float64",
    "holds": "bool",
    "rerun_seconds": "float64",
    "review_seconds_with_anchor": "float64",
    "review_seconds_without_anchor": "float64",
    "fabricated_share": "float64",
}

ABLATION_COLUMNS: dict[str, str] = {
    "config": "str",
    "change": "str",
    "variant_fingerprint": "str",
    "false_reject": "float64",
    "false_accept": "float64",
    "d_false_reject": "float64",
    "d_false_accept": "float64",
    "mcnemar_p_faithful": "float64",
    "mcnemar_p_fabricated": "float64",
}


def _frame(rows: Iterable[Mapping[str, Any]] | Iterable[Sequence[Any]], schema: Mapping[str, str]) -> pd.DataFrame:
    """A frame with exactly ``schema``'s columns and dtypes (the JSON round trip relies on it)."""
    rows = list(rows)
    df = pd.DataFrame.from_records(rows, columns=list(schema)) if rows else pd.DataFrame(columns=list(schema))
    out = {}
    for col, dtype in schema.items():
        s = df[col]
        if dtype == "str":
            s = s.map(lambda x: "" if x is None or (isinstance(x, float) and math.isnan(x)) else str(x))
        elif dtype == "float64":
            s = s.map(lambda x: math.nan if x is None else x)
        elif dtype in ("bool",):
            s = s.map(bool)
        out[col] = s.astype(dtype) if len(s) else pd.Series([], dtype=dtype)
    return pd.DataFrame(out, columns=list(schema))


def _json_value(x: Any) -> Any:
    if x is None or x is pd.NA:
        return None
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return None if math.isnan(x) else float(x)
    return x


def _records(df: pd.DataFrame | None) -> list[dict] | None:
    if df is None:
        return None
    cols = list(df.columns)
    return [{c: _json_value(v) for c, v in zip(cols, row)} for row in df.itertuples(index=False, name=None)]


@dataclass(frozen=True, eq=False)
class Evaluation:
    """What :func:`evaluate` measured. Frames are described in the module docstring;
    ``meta`` holds provenance and the configs (name -> rules dict)."""

    verdicts: pd.DataFrame = field(default_factory=lambda: _frame([], VERDICT_COLUMNS))
    metrics: pd.DataFrame = field(default_factory=lambda: _frame([], METRIC_COLUMNS))
    by_tag: pd.DataFrame = field(default_factory=lambda: _frame([], BY_TAG_COLUMNS))
    savings: pd.DataFrame = field(default_factory=lambda: _frame([], SAVINGS_COLUMNS))
    meta: dict = field(default_factory=dict)
    ablation: pd.DataFrame | None = None

    @property
    def configs(self) -> dict[str, Rules]:
        """The evaluated configs, name -> :class:`Rules`."""
        return {name: Rules.from_dict(d) for name, d in self.meta.get("configs", {}).items()}

    def with_ablation(self, quote_set: QuoteSet, *, progress: Progress | None = None, workers: int = 1) -> "Evaluation":
        """A copy with :attr:`ablation` computed (see :func:`ablation`)."""
        frame = ablation(quote_set, self, progress=progress, workers=workers)
        return Evaluation(
            verdicts=self.verdicts, metrics=self.metrics, by_tag=self.by_tag, savings=self.savings, meta=self.meta, ablation=frame
        )

    def to_json(self) -> dict:
        """A JSON-serializable dict (NaN becomes null); :meth:`from_json` reverses it."""
        return {
            "format": JSON_FORMAT,
            "meta": self.meta,
            "verdicts": _records(self.verdicts),
            "metrics": _records(self.metrics),
            "by_tag": _records(self.by_tag),
            "savings": _records(self.savings),
            "ablation": _records(self.ablation),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Evaluation":
        if not isinstance(data, Mapping) or data.get("format") != JSON_FORMAT:
            raise ConfigError(f"evaluation: expected a mapping with format {JSON_FORMAT}")
        ablation_rows = data.get("ablation")
        return cls(
            verdicts=_frame(data.get("verdicts") or [], VERDICT_COLUMNS),
            metrics=_frame(data.get("metrics") or [], METRIC_COLUMNS),
            by_tag=_frame(data.get("by_tag") or [], BY_TAG_COLUMNS),
            savings=_frame(data.get("savings") or [], SAVINGS_COLUMNS),
            meta=dict(data.get("meta") or {}),
            ablation=None if ablation_rows is None else _frame(ablation_rows, ABLATION_COLUMNS),
        )


# ---------------------------------------------------------------------------------------
# Running


def _scope_for(q: Quote, scope: str | None) -> str:
    if q.cited_chunk is None:
        return "document"
    return scope or "group"


def _locator(quote_set: QuoteSet, rules: Rules) -> Locator:
    return Locator(quote_set.document(), rules, chunking=quote_set.chunking, chunks=quote_set.explicit_chunks)


_WARMUP = "quotelocate warm-up probe: this sentence is not in any paper at all"


def _run_config(
    quote_set: QuoteSet,
    name: str,
    rules: Rules,
    *,
    scope: str | None,
    repeats: int,
    tick: Callable[[int], None],
) -> tuple[list[tuple], float]:
    loc = _locator(quote_set, rules)
    build_s = loc.build_seconds
    loc.locate(_WARMUP)
    fp = rules.fingerprint
    rows: list[tuple] = []
    perf = time.perf_counter
    for i, q in enumerate(quote_set.quotes):
        qscope = _scope_for(q, scope)
        cited = q.cited_chunk if qscope != "document" else None
        times = []
        v = None
        for _ in range(repeats):
            t0 = perf()
            v = loc.locate(q.text, cited_chunk=cited, scope=qscope)
            times.append(perf() - t0)
        assert v is not None
        anchor_ok = None
        a = q.anchor
        if q.faithful and v.accepted and a is not None:
            anchor_ok = bool(v.start is not None and v.start < a.end and a.start < v.end and a.page in v.pages)
        rows.append(
            (
                name,
                fp,
                q.id,
                q.label,
                ",".join(q.tags),
                v.accepted,
                v.status,
                v.cause or "",
                ",".join(v.rules),
                qscope,
                v.start,
                v.end,
                v.page,
                anchor_ok,
                1000.0 * (times[0] if repeats == 1 else median(times)),
                q.text,
            )
        )
        tick(i + 1)
    return rows, build_s


# -- optional process parallelism (one config per task) ----------------------------------

_WORKER_SET: QuoteSet | None = None


def _worker_init(quote_set: QuoteSet) -> None:
    global _WORKER_SET
    _WORKER_SET = quote_set


def _worker_run(task: tuple[str, Rules, str | None, int]) -> tuple[str, list[tuple], float]:
    name, rules, scope, repeats = task
    assert _WORKER_SET is not None
    rows, build_s = _run_config(_WORKER_SET, name, rules, scope=scope, repeats=repeats, tick=lambda i: None)
    return name, rows, build_s


def _worker_accepts(task: tuple[Rules, str | None]) -> list[bool]:
    assert _WORKER_SET is not None
    return _accepts(_WORKER_SET, task[0], task[1])


def _pool(quote_set: QuoteSet, workers: int):  # -> concurrent.futures.ProcessPoolExecutor
    """A process pool whose workers inherit the parsed paper (fork), or receive it once
    pickled where fork is unavailable."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init, initargs=(quote_set,))


def _check_workers(workers: int) -> int:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise ConfigError(f"workers: expected a whole number >= 0 (0: one per CPU), got {workers!r}")
    return workers or (os.cpu_count() or 1)


def _accepts(quote_set: QuoteSet, rules: Rules, scope: str | None) -> list[bool]:
    loc = _locator(quote_set, rules)
    out = []
    for q in quote_set.quotes:
        qscope = _scope_for(q, scope)
        cited = q.cited_chunk if qscope != "document" else None
        out.append(loc.locate(q.text, cited_chunk=cited, scope=qscope).accepted)
    return out


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
    verdicts = _frame(rows, VERDICT_COLUMNS)
    metrics = _metrics(verdicts, named, build)
    by_tag = _by_tag(verdicts, named)
    share = savings.fabricated_share
    if share is None:
        share = len(quote_set.fabricated) / n if n else 0.0
    saving_frame = savings_table(metrics, savings, fabricated_share=share)
    meta = _meta(quote_set, named, scope=scope, repeats=repeats, savings=savings, share=share)
    ev = Evaluation(verdicts=verdicts, metrics=metrics, by_tag=by_tag, savings=saving_frame, meta=meta)
    if ablation:
        ev = ev.with_ablation(quote_set, workers=workers)
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
    return _frame(rows, METRIC_COLUMNS)


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
    return _frame(rows, BY_TAG_COLUMNS)


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


def savings_table(metrics: pd.DataFrame, a: SavingsAssumptions, *, fabricated_share: float) -> pd.DataFrame:
    """The review-time model (module docstring) for every row of a metrics frame,
    against ``a.baseline``; ``fabricated_share`` is the share of fabricated quotes."""
    share = fabricated_share
    by_name = {row["config"]: row for row in metrics.to_dict("records")}
    base = by_name[a.baseline]

    def corners(row: Mapping[str, Any]) -> list[float]:
        frs = [row["fr_low"], row["fr_high"]]
        fas = [row["fa_low"], row["fa_high"]]
        return [a.cost(fr, fa, share) for fr in frs for fa in fas]

    base_cost = a.cost(base["false_reject"], base["false_accept"], share)
    base_corners = corners(base)
    rows = []
    for name, row in by_name.items():
        cost = a.cost(row["false_reject"], row["false_accept"], share)
        if base_cost > 0:
            saving = 1 - cost / base_cost
            if name == a.baseline:
                low = high = saving
            else:
                mine = corners(row)
                low = 1 - max(mine) / min(base_corners) if min(base_corners) > 0 else -math.inf
                high = 1 - min(mine) / max(base_corners)
        else:
            saving = low = high = math.nan
        rows.append(
            {
                "config": name,
                "baseline": a.baseline,
                "cost_s_per_quote": cost,
                "baseline_cost_s": base_cost,
                "saving": saving,
                "saving_low": low,
                "saving_high": high,
                "target": float(a.target),
                "holds": bool(not math.isnan(low) and low >= a.target),
                "rerun_seconds": float(a.rerun_seconds),
                "review_seconds_with_anchor": float(a.review_seconds_with_anchor),
                "review_seconds_without_anchor": float(a.review_seconds_without_anchor),
                "fabricated_share": float(share),
            }
        )
    return _frame(rows, SAVINGS_COLUMNS)


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return ""


def _meta(
    quote_set: QuoteSet,
    named: Mapping[str, Rules],
    *,
    scope: str | None,
    repeats: int,
    savings: SavingsAssumptions,
    share: float,
) -> dict:
    from . import __version__

    doc = quote_set.document()
    return {
        "set": quote_set.name,
        "set_path": str(quote_set.path) if quote_set.path else None,
        "set_hash": quote_set.set_hash,
        "n_quotes": len(quote_set.quotes),
        "n_faithful": len(quote_set.faithful),
        "n_fabricated": len(quote_set.fabricated),
        "paper": quote_set.paper.file,
        "paper_sha256": doc.sha256,
        "text_sha256": doc.text_sha256,
        "text_fingerprint": doc.text_fingerprint,
        "set_warnings": list(quote_set.warnings),
        "package_version": __version__,
        "pymupdf_version": _version("pymupdf"),
        "python": platform.python_version(),
        "machine": f"{platform.platform()} {platform.machine()} ({os.cpu_count()} CPUs)",
        "timestamp": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "scope": scope,
        "repeats": repeats,
        "configs": {name: rules.to_dict() for name, rules in named.items()},
        "fingerprints": {name: rules.fingerprint for name, rules in named.items()},
        "savings_assumptions": {**asdict(savings), "fabricated_share_used": share},
    }


# ---------------------------------------------------------------------------------------
# Ablation


def ablation(
    quote_set: QuoteSet,
    base: Evaluation | ConfigsArg = None,
    *,
    scope: str | None = None,
    progress: Progress | None = None,
    workers: int = 1,
) -> pd.DataFrame:
    """Each rule of each config toggled (:func:`rule_toggles`), re-run once per quote.

    ``base``: an :class:`Evaluation` of ``quote_set`` (its configs, scope and verdicts
    are reused) or configs as :func:`evaluate` takes them. Columns: config, change
    (``-whitespace``, ``+layout``, ...), the variant's fingerprint, its false-reject and
    false-accept rates, their differences from the base config, and the two-sided exact
    McNemar p-value of the paired accept/reject outcomes on faithful and on fabricated
    quotes. Variants shared by several configs are run once.
    """
    if isinstance(base, Evaluation):
        named = base.configs
        scope = base.meta.get("scope", scope)
        v = base.verdicts
        by_config = {name: dict(zip(g["id"], g["accepted"])) for name, g in v.groupby("config", sort=False)}
        base_accepts = {name: [bool(by_config[name][q.id]) for q in quote_set.quotes] for name in named}
    else:
        named = resolve_configs(base)
        base_accepts = {}
    pdf = quote_set.document().kind == "pdf"
    cache: dict[str, list[bool]] = {}
    plan: list[tuple[str, str, Rules]] = []
    for name, rules in named.items():
        for change, variant in rule_toggles(rules, pdf=pdf):
            plan.append((name, change, variant))
    needed = {rules.fingerprint: rules for name, rules in named.items() if name not in base_accepts}
    needed.update({v.fingerprint: v for _, _, v in plan})
    total = len(needed)
    workers = min(_check_workers(workers), max(total, 1))
    if workers <= 1:
        for i, (fp, rules) in enumerate(needed.items(), start=1):
            cache[fp] = _accepts(quote_set, rules, scope)
            if progress is not None:
                progress(i, total)
    else:
        with _pool(quote_set, workers) as pool:
            tasks = [(rules, scope) for rules in needed.values()]
            for i, (fp, accepts) in enumerate(zip(needed, pool.map(_worker_accepts, tasks)), start=1):
                cache[fp] = accepts
                if progress is not None:
                    progress(i, total)
    for name, rules in named.items():
        if name not in base_accepts:
            base_accepts[name] = cache[rules.fingerprint]
    labels = [q.faithful for q in quote_set.quotes]

    def rates(acc: list[bool]) -> tuple[float, float]:
        f = [a for a, lab in zip(acc, labels) if lab]
        x = [a for a, lab in zip(acc, labels) if not lab]
        fr = (len(f) - sum(f)) / len(f) if f else math.nan
        fa = sum(x) / len(x) if x else math.nan
        return fr, fa

    rows = []
    for name, change, variant in plan:
        b = base_accepts[name]
        w = cache[variant.fingerprint]
        bfr, bfa = rates(b)
        vfr, vfa = rates(w)
        bf = [a for a, lab in zip(b, labels) if lab]
        wf = [a for a, lab in zip(w, labels) if lab]
        bx = [a for a, lab in zip(b, labels) if not lab]
        wx = [a for a, lab in zip(w, labels) if not lab]
        rows.append(
            {
                "config": name,
                "change": change,
                "variant_fingerprint": variant.fingerprint,
                "false_reject": vfr,
                "false_accept": vfa,
                "d_false_reject": vfr - bfr,
                "d_false_accept": vfa - bfa,
                "mcnemar_p_faithful": mcnemar_exact(bf, wf),
                "mcnemar_p_fabricated": mcnemar_exact(bx, wx),
            }
        )
    return _frame(rows, ABLATION_COLUMNS)


# ---------------------------------------------------------------------------------------
# Comparing two evaluations

CHANGED_COLUMNS: dict[str, str] = {
    "config": "str",
    "id": "str",
    "label": "str",
    "tags": "str",
    "accepted_a": "bool",
    "accepted_b": "bool",
    "status_a": "str",
    "status_b": "str",
    "cause_a": "str",
    "cause_b": "str",
    "text": "str",
}

DELTA_COLUMNS: dict[str, str] = {
    "config": "str",
    "same_rules": "bool",
    "same_set": "bool",
    "n_paired": "int64",
    "n_changed": "int64",
    "false_reject_a": "float64",
    "false_reject_b": "float64",
    "d_false_reject": "float64",
    "false_accept_a": "float64",
    "false_accept_b": "float64",
    "d_false_accept": "float64",
    "anchor_accuracy_a": "float64",
    "anchor_accuracy_b": "float64",
    "d_anchor_accuracy": "float64",
    "p50_ms_a": "float64",
    "p50_ms_b": "float64",
    "mcnemar_p_faithful": "float64",
    "mcnemar_p_fabricated": "float64",
}


def compare_evaluations(a: Evaluation, b: Evaluation) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What changed from ``a`` to ``b``: (changed verdicts, rate deltas).

    Configs are paired by name and quotes by id (only those in both runs). A verdict
    has changed when its accept/reject decision or its status differs. The deltas
    frame has one row per shared config: both runs' rates, their differences, whether
    the rules and the quote set are the same, and the exact McNemar p-value of the
    paired decisions on faithful and on fabricated quotes.
    """
    same_set = a.meta.get("set_hash") == b.meta.get("set_hash")
    fa, fb = a.meta.get("fingerprints", {}), b.meta.get("fingerprints", {})
    ma = {r["config"]: r for r in a.metrics.to_dict("records")}
    mb = {r["config"]: r for r in b.metrics.to_dict("records")}
    cols = ["config", "id", "label", "tags", "accepted", "status", "cause", "text"]
    merged = a.verdicts[cols].merge(
        b.verdicts[["config", "id", "accepted", "status", "cause"]], on=["config", "id"], suffixes=("_a", "_b")
    )
    changed_mask = (merged["accepted_a"] != merged["accepted_b"]) | (merged["status_a"] != merged["status_b"])
    changed = _frame(merged[changed_mask][list(CHANGED_COLUMNS)].to_dict("records"), CHANGED_COLUMNS)
    rows = []
    for name in [c for c in ma if c in mb]:
        pair = merged[merged["config"] == name]
        faithful = pair[pair["label"] == "faithful"]
        fabricated = pair[pair["label"] == "fabricated"]
        ra, rb = ma[name], mb[name]
        rows.append(
            {
                "config": name,
                "same_rules": fa.get(name) == fb.get(name),
                "same_set": same_set,
                "n_paired": len(pair),
                "n_changed": int(changed_mask[pair.index].sum()),
                "false_reject_a": ra["false_reject"],
                "false_reject_b": rb["false_reject"],
                "d_false_reject": rb["false_reject"] - ra["false_reject"],
                "false_accept_a": ra["false_accept"],
                "false_accept_b": rb["false_accept"],
                "d_false_accept": rb["false_accept"] - ra["false_accept"],
                "anchor_accuracy_a": ra["anchor_accuracy"],
                "anchor_accuracy_b": rb["anchor_accuracy"],
                "d_anchor_accuracy": rb["anchor_accuracy"] - ra["anchor_accuracy"],
                "p50_ms_a": ra["p50_ms"],
                "p50_ms_b": rb["p50_ms"],
                "mcnemar_p_faithful": mcnemar_exact(list(faithful["accepted_a"]), list(faithful["accepted_b"])),
                "mcnemar_p_fabricated": mcnemar_exact(list(fabricated["accepted_a"]), list(fabricated["accepted_b"])),
            }
        )
    return changed, _frame(rows, DELTA_COLUMNS)


# ---------------------------------------------------------------------------------------
# Display helpers (used by the CLI and reports; no printing here)


def format_metrics(metrics: pd.DataFrame) -> pd.DataFrame:
    """A display frame: rates as percentages with their intervals, times rounded."""

    def pct(rate: float, low: float, high: float) -> str:
        if math.isnan(rate):
            return "n/a"
        return f"{100 * rate:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]"

    out = pd.DataFrame(
        {
            "config": metrics["config"],
            "false reject": [pct(r, lo, hi) for r, lo, hi in zip(metrics["false_reject"], metrics["fr_low"], metrics["fr_high"])],
            "false accept": [pct(r, lo, hi) for r, lo, hi in zip(metrics["false_accept"], metrics["fa_low"], metrics["fa_high"])],
            "anchor ok": [pct(r, lo, hi) for r, lo, hi in zip(metrics["anchor_accuracy"], metrics["aa_low"], metrics["aa_high"])],
            "p50 ms": metrics["p50_ms"].round(3),
            "p95 ms": metrics["p95_ms"].round(3),
            "q/s": metrics["throughput_qps"].round(0),
            "build ms": metrics["build_ms"].round(1),
        }
    )
    return out


__all__ = [
    "Evaluation",
    "SavingsAssumptions",
    "ablation",
    "compare_evaluations",
    "evaluate",
    "grid_configs",
    "mcnemar_exact",
    "resolve_configs",
    "rule_toggles",
    "savings_table",
    "wilson",
    "VERDICT_COLUMNS",
    "METRIC_COLUMNS",
    "BY_TAG_COLUMNS",
    "SAVINGS_COLUMNS",
    "ABLATION_COLUMNS",
]

