"""One way to write a measured number, shared by the command line, the workbench and the
HTML report, so the same rate reads the same everywhere.

>>> format_rate(0.0525, 0.02, 0.125)
'5.2% [2.0, 12.5]'
>>> format_rate(float("nan"))
'n/a'
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def format_rate(rate: float | None, low: float | None = None, high: float | None = None, *, digits: int = 1) -> str:
    """A rate as a percentage, with its interval in brackets when one is given."""
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return "n/a"
    out = f"{100 * rate:.{digits}f}%"
    if low is not None and high is not None and not (math.isnan(low) or math.isnan(high)):
        out += f" [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"
    return out


def format_metrics(metrics: pd.DataFrame) -> pd.DataFrame:
    """A display frame: rates as percentages with their intervals, times rounded."""
    import pandas as pd


    out = pd.DataFrame(
        {
            "config": metrics["config"],
            "false reject": [format_rate(r, lo, hi) for r, lo, hi in zip(metrics["false_reject"], metrics["fr_low"], metrics["fr_high"])],
            "false accept": [format_rate(r, lo, hi) for r, lo, hi in zip(metrics["false_accept"], metrics["fa_low"], metrics["fa_high"])],
            "anchor ok": [format_rate(r, lo, hi) for r, lo, hi in zip(metrics["anchor_accuracy"], metrics["aa_low"], metrics["aa_high"])],
            "p50 ms": metrics["p50_ms"].round(3),
            "p95 ms": metrics["p95_ms"].round(3),
            "q/s": metrics["throughput_qps"].round(0),
            "build ms": metrics["build_ms"].round(1),
        }
    )
    return out


def paper_table(by_paper: pd.DataFrame) -> pd.DataFrame:
    """:attr:`Evaluation.by_paper` as display strings: one row per paper and config,
    papers in the set's order (the command line and the HTML report both show this).

    >>> import pandas as pd
    >>> bp = pd.DataFrame({"config": ["c"], "paper": ["p1"], "n_faithful": [9], "n_fabricated": [1],
    ...     "false_reject": [0.0], "fr_low": [0.0], "fr_high": [0.3], "false_accept": [0.0],
    ...     "fa_low": [0.0], "fa_high": [0.79], "anchor_accuracy": [1.0], "aa_low": [0.7], "aa_high": [1.0]})
    >>> paper_table(bp).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'paper': 'p1', 'config': 'c', 'quotes': '9 + 1', 'false reject': '0.0% [0.0, 30.0]',
      'false accept': '0.0% [0.0, 79.0]', 'anchor accuracy': '100.0% [70.0, 100.0]'}]
    """
    import pandas as pd

    order = {p: i for i, p in enumerate(dict.fromkeys(by_paper["paper"]))}  # papers in set order
    ordered = by_paper.sort_values("paper", key=lambda s: s.map(order), kind="stable")
    rows = []
    for r in ordered.to_dict("records"):
        rows.append(
            {
                "paper": r["paper"],
                "config": r["config"],
                "quotes": f"{int(r['n_faithful'])} + {int(r['n_fabricated'])}",
                "false reject": format_rate(r.get("false_reject"), r.get("fr_low"), r.get("fr_high")),
                "false accept": format_rate(r.get("false_accept"), r.get("fa_low"), r.get("fa_high")),
                "anchor accuracy": format_rate(r.get("anchor_accuracy"), r.get("aa_low"), r.get("aa_high")),
            }
        )
    return pd.DataFrame(rows, columns=["paper", "config", "quotes", "false reject", "false accept", "anchor accuracy"])
