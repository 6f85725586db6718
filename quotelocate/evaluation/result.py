"""What an evaluation measured: the :class:`Evaluation` record and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import pandas as pd

from ..errors import ConfigError
from ..normalize import Rules
from .frames import (
    ABLATION_COLUMNS,
    BY_PAPER_COLUMNS,
    BY_TAG_COLUMNS,
    METRIC_COLUMNS,
    SAVINGS_COLUMNS,
    VERDICT_COLUMNS,
    frame,
    records,
)

JSON_FORMAT = 1
"""Version of :meth:`Evaluation.to_json`'s layout."""


@dataclass(frozen=True, eq=False)
class Evaluation:
    """What :func:`~quotelocate.evaluation.run.evaluate` measured (frames described there);
    ``meta`` holds provenance and the configs (name -> rules dict)."""

    verdicts: pd.DataFrame = field(default_factory=lambda: frame([], VERDICT_COLUMNS))
    metrics: pd.DataFrame = field(default_factory=lambda: frame([], METRIC_COLUMNS))
    by_tag: pd.DataFrame = field(default_factory=lambda: frame([], BY_TAG_COLUMNS))
    savings: pd.DataFrame = field(default_factory=lambda: frame([], SAVINGS_COLUMNS))
    meta: dict = field(default_factory=dict)
    ablation: pd.DataFrame | None = None
    by_paper: pd.DataFrame = field(default_factory=lambda: frame([], BY_PAPER_COLUMNS))

    @property
    def configs(self) -> dict[str, Rules]:
        """The evaluated configs, name -> :class:`Rules`."""
        return {name: Rules.from_dict(d) for name, d in self.meta.get("configs", {}).items()}

    def to_json(self) -> dict:
        """A JSON-serializable dict (NaN becomes null); :meth:`from_json` reverses it."""
        return {
            "format": JSON_FORMAT,
            "meta": self.meta,
            "verdicts": records(self.verdicts),
            "metrics": records(self.metrics),
            "by_tag": records(self.by_tag),
            "savings": records(self.savings),
            "ablation": records(self.ablation),
            "by_paper": records(self.by_paper),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Evaluation":
        if not isinstance(data, Mapping) or data.get("format") != JSON_FORMAT:
            raise ConfigError(f"evaluation: expected a mapping with format {JSON_FORMAT}")
        ablation_rows = data.get("ablation")
        return cls(
            verdicts=frame(data.get("verdicts") or [], VERDICT_COLUMNS),
            metrics=frame(data.get("metrics") or [], METRIC_COLUMNS),
            by_tag=frame(data.get("by_tag") or [], BY_TAG_COLUMNS),
            savings=frame(data.get("savings") or [], SAVINGS_COLUMNS),
            meta=dict(data.get("meta") or {}),
            ablation=None if ablation_rows is None else frame(ablation_rows, ABLATION_COLUMNS),
            by_paper=frame(data.get("by_paper") or [], BY_PAPER_COLUMNS),
        )
