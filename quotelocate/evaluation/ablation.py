"""Ablation (every rule toggled, with paired McNemar tests) and comparing two runs."""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd

from ..data.quoteset import QuoteSet
from ..normalize import Rules
from .configs import ConfigsArg, resolve_configs, rule_toggles
from .frames import ABLATION_COLUMNS, frame
from .locating import Progress, _accepts, _check_workers, _pool, _worker_accepts
from .result import Evaluation
from .stats import holm, mcnemar_exact


def add_ablation(
    evaluation: Evaluation, quote_set: QuoteSet, *, progress: Progress | None = None, workers: int = 1
) -> Evaluation:
    """A copy of ``evaluation`` with :attr:`~Evaluation.ablation` computed (see :func:`ablation`)."""
    return replace(evaluation, ablation=ablation(quote_set, evaluation, progress=progress, workers=workers))


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
    quotes, and each adjusted for the number of tests by Holm's step-down method
    (``holm_p_*``: the family is every row of the table, faithful and fabricated tests
    corrected separately). Variants shared by several configs are run once. Unreviewed
    quotes are left out, as :func:`evaluate` leaves them out.
    """
    quote_set = quote_set.labelled_only()
    if isinstance(base, Evaluation):
        named = base.configs
        scope = base.meta.get("scope", scope)
        v = base.verdicts
        by_config = {name: dict(zip(g["id"], g["accepted"])) for name, g in v.groupby("config", sort=False)}
        base_accepts = {name: [bool(by_config[name][q.id]) for q in quote_set.quotes] for name in named}
    else:
        named = resolve_configs(base)
        base_accepts = {}
    pdf = any(part.document().kind == "pdf" for part in quote_set.parts)
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
    for side in ("faithful", "fabricated"):  # one family of tests per side, the whole table
        adjusted = holm([row[f"mcnemar_p_{side}"] for row in rows])
        for row, p in zip(rows, adjusted):
            row[f"holm_p_{side}"] = p
    return frame(rows, ABLATION_COLUMNS)


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
    changed = frame(merged[changed_mask][list(CHANGED_COLUMNS)].to_dict("records"), CHANGED_COLUMNS)
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
    return changed, frame(rows, DELTA_COLUMNS)
