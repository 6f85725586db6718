"""The tidy frames an evaluation produces: their column schemas and JSON round trip."""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

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
    "diff": "str",
    "paper": "str",
}
"""Columns and dtypes of :attr:`Evaluation.verdicts` (``cause`` is empty when accepted;
``diff`` is the character diff against the closest passage of a rejection that has one,
``[-passage-]{+quote+}``, else empty; ``paper`` is the quote's paper id, the file name
without extension in a one-paper set)."""

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
    "qps_min": "float64",
    "qps_max": "float64",
    "p50_ms": "float64",
    "p95_ms": "float64",
    "p99_ms": "float64",
}

BY_PAPER_COLUMNS: dict[str, str] = {"config": "str", "paper": "str", **{k: t for k, t in METRIC_COLUMNS.items() if k != "config"}}
"""Columns of :attr:`Evaluation.by_paper`: the metrics of each config on each paper."""

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
    "interval_method": "str",
    "review_times": "str",
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
    "holm_p_faithful": "float64",
    "holm_p_fabricated": "float64",
}


def frame(rows: Iterable[Mapping[str, Any]] | Iterable[Sequence[Any]], schema: Mapping[str, str]) -> pd.DataFrame:
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


def json_value(x: Any) -> Any:
    if x is None or x is pd.NA:
        return None
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return None if math.isnan(x) else float(x)
    return x


def records(df: pd.DataFrame | None) -> list[dict] | None:
    if df is None:
        return None
    cols = list(df.columns)
    return [{c: json_value(v) for c, v in zip(cols, row)} for row in df.itertuples(index=False, name=None)]
