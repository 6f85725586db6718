"""Statistics for evaluation: Wilson score intervals and exact McNemar tests.

Both come from statsmodels, so the intervals and p-values are the textbook ones.
"""

from __future__ import annotations

import math
from typing import Sequence

from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from ..errors import ConfigError


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
