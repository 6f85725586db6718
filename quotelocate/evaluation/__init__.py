"""Evaluation: rule configurations run over labelled quote sets, measured and kept.

``run``         :func:`evaluate`: every quote under every config, rates and latency;
``stats``       Wilson intervals and exact McNemar tests;
``configs``     presets, the grid and one-rule toggles;
``savings``     the review-time model;
``ablation``    every rule toggled, and comparing two runs;
``provenance``  what a run used; ``result``/``frames``: the record and its frames;
``formatting``  one way to write a rate; ``runstore``: runs in SQLite;
``report``      the offline HTML report; ``audit``: re-checking stored verdicts.

Needs the ``[eval]`` extra (pandas, statsmodels), except ``audit``, which uses only the
core. Nothing here is imported by ``import quotelocate``.
"""

from importlib import import_module
from typing import Any

_HOMES = {
    "Evaluation": "result",
    "SavingsAssumptions": "savings",
    "savings_table": "savings",
    "evaluate": "run",
    "cause_table": "run",
    "ablation": "ablation",
    "add_ablation": "ablation",
    "compare_evaluations": "ablation",
    "grid_configs": "configs",
    "resolve_configs": "configs",
    "rule_toggles": "configs",
    "wilson": "stats",
    "mcnemar_exact": "stats",
    "format_rate": "formatting",
    "format_metrics": "formatting",
    "provenance": "provenance",
    "set_provenance": "provenance",
    "RunStore": "runstore",
    "render_html": "report",
    "audit_records": "audit",
}


def __getattr__(name: str) -> Any:  # the public names, each imported from its home on first use
    if name in _HOMES:
        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(_HOMES)
