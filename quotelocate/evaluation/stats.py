"""Statistics for evaluation: Wilson score intervals, exact McNemar tests, the Holm
correction and a seeded paired bootstrap.

The first three come from statsmodels, so the intervals and p-values are the textbook
ones; the bootstrap is numpy with a fixed seed.
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


def holm(pvalues: Sequence[float], *, alpha: float = 0.05) -> list[float]:
    """Holm–Bonferroni adjusted p-values (statsmodels ``multipletests(method="holm")``)
    for one family of tests; NaN p-values (no test) stay NaN and do not count.

    >>> holm([0.01, 0.04, float("nan"), 0.03])
    [0.03, 0.06, nan, 0.06]
    """
    from statsmodels.stats.multitest import multipletests

    values = [float(p) for p in pvalues]
    present = [i for i, p in enumerate(values) if not math.isnan(p)]
    out = [math.nan] * len(values)
    if present:
        adjusted = multipletests([values[i] for i in present], alpha=alpha, method="holm")[1]
        for i, p in zip(present, adjusted):
            out[i] = round(float(p), 12)
    return out


BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20240607
"""Resamples and seed of the paired bootstrap (fixed, so a run reproduces its intervals)."""


def paired_bootstrap(statistic, *samples, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED,
                     alpha: float = 0.05):
    """Percentile interval of ``statistic(*resampled)`` over a paired bootstrap.

    Each sample is a 2-D array with one row per unit (a quote) and one column per
    paired measurement (a config); rows are drawn with replacement, the same rows for
    every column, independently per sample (a stratum: faithful and fabricated quotes
    are resampled separately so their share stays fixed). ``statistic`` maps the
    resampled arrays, each with a leading resample axis, to an array of values per
    resample. Returns (low, high) arrays.

    >>> import numpy as np
    >>> x = np.array([[1.0, 2.0]] * 5 + [[3.0, 4.0]] * 5)
    >>> low, high = paired_bootstrap(lambda s: s[..., 1].mean(axis=-1) - s[..., 0].mean(axis=-1), x)
    >>> round(float(low), 9), round(float(high), 9)   # every pair differs by exactly 1, so does every resample
    (1.0, 1.0)
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    drawn = []
    for sample in samples:
        sample = np.asarray(sample, dtype=float)
        n = sample.shape[0]
        index = rng.integers(0, n, size=(resamples, n)) if n else np.zeros((resamples, 0), dtype=int)
        drawn.append(sample[index])  # (resamples, n, columns)
    values = np.asarray(statistic(*drawn), dtype=float)
    low, high = np.nanpercentile(values, [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=0)
    return low, high
