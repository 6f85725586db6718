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

``saving = 1 - cost(config) / cost(baseline)``. Its interval is the worst and best case
over the Wilson bounds of ``r`` and ``a`` of both configs (every corner; conservative,
since it ignores that the two configs are measured on the same quotes); the baseline's
own row is 0 with no interval. ``holds`` is ``saving_low >= target``. The model counts
review time only: correctness is reported by ``false_accept`` and its interval, and no
saving makes an accepted fabrication acceptable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import pandas as pd

from ..errors import ConfigError
from .frames import SAVINGS_COLUMNS, frame


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
    return frame(rows, SAVINGS_COLUMNS)
