"""Time saved: the review-time model and its table.

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

``saving = 1 - cost(config) / cost(baseline)``. Its 95% interval is a **paired
bootstrap over quotes** (:func:`~quotelocate.evaluation.stats.paired_bootstrap`,
2000 resamples, fixed seed): the quotes are drawn with replacement, faithful and
fabricated ones separately so the share ``s`` stays what it is, the same draw for the
config and the baseline (both were measured on the same quotes, so their errors are
correlated and must be resampled together), and the saving is recomputed on each draw;
the interval is the 2.5th to 97.5th percentile. Without per-quote verdicts (only rates)
the interval falls back to the worst and best case over the Wilson bounds of both
configs' rates, which treats them as independent and is wider. ``interval_method`` says
which one a row has. The baseline's own row is 0 with no interval. ``holds`` is
``saving_low >= target``. The model counts review time only: correctness is reported by
``false_accept`` and its interval, and no saving makes an accepted fabrication acceptable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import pandas as pd

from ..errors import ConfigError
from .frames import SAVINGS_COLUMNS, frame
from .stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, paired_bootstrap

BOOTSTRAP_METHOD = f"paired bootstrap over quotes ({BOOTSTRAP_RESAMPLES} resamples, seed {BOOTSTRAP_SEED})"
CORNERS_METHOD = "Wilson corners (rates only; treated as independent)"


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


def savings_table(metrics: pd.DataFrame, a: SavingsAssumptions, *, fabricated_share: float,
                  verdicts: pd.DataFrame | None = None, review_source: str = "assumed") -> pd.DataFrame:
    """The review-time model (module docstring) for every row of a metrics frame,
    against ``a.baseline``; ``fabricated_share`` is the share of fabricated quotes.
    ``verdicts`` (columns config, id, label, accepted) gives the paired-bootstrap
    interval; without it the interval is the Wilson corners. ``review_source`` says
    where the review seconds came from (``assumed``, or a description of measurements)."""
    share = fabricated_share
    by_name = {row["config"]: row for row in metrics.to_dict("records")}
    base = by_name[a.baseline]
    paired = verdicts is not None and len(verdicts) > 0
    # the baseline's own row has no interval: with nothing else to compare, nothing to resample
    boot = _bootstrap(list(by_name), a, share, verdicts) if paired and len(by_name) > 1 else None

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
            elif paired:
                low, high = boot[name]  # type: ignore[index]
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
                "interval_method": BOOTSTRAP_METHOD if paired else CORNERS_METHOD,
                "review_times": review_source,
            }
        )
    return frame(rows, SAVINGS_COLUMNS)


def _bootstrap(names: list[str], a: SavingsAssumptions, share: float,
               verdicts: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """Paired-bootstrap 95% interval of each config's saving against the baseline."""
    import numpy as np

    table = verdicts.set_index(["label", "id", "config"])["accepted"].unstack("config").reindex(columns=names)
    if table.isna().any().any():
        raise ConfigError("savings: every config needs a verdict for every quote to pair them")
    faithful = table.loc["faithful"].to_numpy(dtype=float) if "faithful" in table.index else np.zeros((0, len(names)))
    fabricated = table.loc["fabricated"].to_numpy(dtype=float) if "fabricated" in table.index else np.zeros((0, len(names)))
    base = names.index(a.baseline)

    def statistic(f, x):
        r = 1 - f.mean(axis=1) if f.shape[1] else np.zeros((f.shape[0], len(names)))
        acc = x.mean(axis=1) if x.shape[1] else np.zeros((x.shape[0], len(names)))
        cost = (1 - share) * a.cost_faithful(r) + share * a.cost_fabricated(acc)  # (resamples, configs)
        with np.errstate(divide="ignore", invalid="ignore"):
            return 1 - cost / cost[:, [base]]

    low, high = paired_bootstrap(statistic, faithful, fabricated)
    return {name: (float(low[i]), float(high[i])) for i, name in enumerate(names)}


MIN_TIMED_DECISIONS = 5
"""Timed review decisions needed in each condition (with and without the anchor)
before measured medians replace the assumed review seconds."""


@dataclass(frozen=True)
class MeasuredReview:
    """Median review seconds with and without the anchor, from timed decisions, each
    with its 95% interval (seeded bootstrap of the median) and count."""

    with_anchor: float
    with_anchor_low: float
    with_anchor_high: float
    n_with_anchor: int
    without_anchor: float
    without_anchor_low: float
    without_anchor_high: float
    n_without_anchor: int

    def describe(self) -> str:
        """One line naming the numbers, for tables and reports."""
        return (f"measured: median {self.with_anchor:.1f} s [{self.with_anchor_low:.1f}, {self.with_anchor_high:.1f}] "
                f"with the anchor (n = {self.n_with_anchor}), {self.without_anchor:.1f} s "
                f"[{self.without_anchor_low:.1f}, {self.without_anchor_high:.1f}] without (n = {self.n_without_anchor})")

    def assumptions(self, base: SavingsAssumptions) -> SavingsAssumptions:
        """``base`` with its review seconds replaced by these medians."""
        from dataclasses import replace

        return replace(base, review_seconds_with_anchor=self.with_anchor,
                       review_seconds_without_anchor=self.without_anchor)


def measured_review(times: pd.DataFrame, *, paper_sha256: str | None = None,
                    min_decisions: int = MIN_TIMED_DECISIONS) -> MeasuredReview | None:
    """Medians of timed review decisions (the run store's ``review_times``: columns
    anchor_shown, seconds, paper_sha256), optionally only those on one paper; None when
    either condition has fewer than ``min_decisions`` decisions.

    >>> t = pd.DataFrame({"anchor_shown": [True] * 5 + [False] * 5,
    ...                   "seconds": [10, 12, 11, 30, 9, 60, 80, 70, 65, 75], "paper_sha256": ["p"] * 10})
    >>> m = measured_review(t)
    >>> m.with_anchor, m.without_anchor, m.n_with_anchor
    (11.0, 70.0, 5)
    """
    import numpy as np

    from .stats import paired_bootstrap

    if times is None or not len(times):
        return None
    if paper_sha256 is not None:
        times = times.loc[times["paper_sha256"] == paper_sha256]
    shown = times.loc[times["anchor_shown"].astype(bool), "seconds"].to_numpy(dtype=float)
    hidden = times.loc[~times["anchor_shown"].astype(bool), "seconds"].to_numpy(dtype=float)
    if len(shown) < min_decisions or len(hidden) < min_decisions:
        return None

    def interval(values: np.ndarray) -> tuple[float, float]:
        low, high = paired_bootstrap(lambda s: np.median(s[..., 0], axis=1), values[:, None])
        return float(low), float(high)

    wl, wh = interval(shown)
    nl, nh = interval(hidden)
    return MeasuredReview(float(np.median(shown)), wl, wh, len(shown), float(np.median(hidden)), nl, nh, len(hidden))
