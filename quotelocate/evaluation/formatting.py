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
