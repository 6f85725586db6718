"""The before/after report of two runs: what a change did, for a stakeholder.

:func:`change_tables` pairs two evaluations (configs by name, quotes by id) and builds
every table the report shows; :func:`render_change_html` writes them as one offline HTML
file (the same style as :func:`~quotelocate.evaluation.report.render_html`: inline SVG,
no script, every text escaped, the viewer's light or dark theme, A4 print layout):

* rate deltas per config with exact McNemar tests on the paired decisions, and the same
  p-values after Holm's correction for the number of tests in the table;
* per-tag and per-paper deltas;
* every quote whose verdict flipped, with the character diff each run stored for it;
* both runs' configs: rules and fingerprints;
* both runs' latency distributions and throughput (also on each paper of a
  multi-paper set).
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd

from .ablation import compare_evaluations
from .formatting import format_rate
from .stats import holm

if TYPE_CHECKING:  # pragma: no cover
    from .result import Evaluation


@dataclass(frozen=True)
class ChangeTables:
    """The tables of a before/after report (see the module docstring)."""

    deltas: pd.DataFrame
    by_tag: pd.DataFrame
    by_paper: pd.DataFrame
    flips: pd.DataFrame
    configs: pd.DataFrame
    pairing: str = ""


def _renamed(ev: "Evaluation", old: str, new: str) -> "Evaluation":
    """``ev`` with its config ``old`` called ``new`` (frames and meta)."""
    from dataclasses import replace

    def ren(df):
        return None if df is None else df.assign(config=df["config"].replace({old: new})) if "config" in df else df

    meta = dict(ev.meta)
    for key in ("fingerprints", "configs"):
        if isinstance(meta.get(key), dict):
            meta[key] = {new if k == old else k: v for k, v in meta[key].items()}
    return replace(ev, verdicts=ren(ev.verdicts), metrics=ren(ev.metrics), by_tag=ren(ev.by_tag),
                   savings=ren(ev.savings), ablation=ren(ev.ablation), meta=meta)


def change_tables(a: "Evaluation", b: "Evaluation", *, a_title: str = "A", b_title: str = "B") -> ChangeTables:
    """Everything that changed from run ``a`` (before) to run ``b`` (after).

    Configs are paired by name; two runs of one config each under different names (the
    workbench saves ``recommended``, then ``current`` after a rule toggle) are paired
    with each other, under the first run's name, and :attr:`ChangeTables.pairing` says so.
    """
    pairing = ""
    names_a, names_b = list(a.metrics["config"]), list(b.metrics["config"])
    if len(names_a) == len(names_b) == 1 and names_a != names_b:
        pairing = f"The runs have one config each, paired: {names_a[0]} ({a_title}) with {names_b[0]} ({b_title})."
        b = _renamed(b, names_b[0], names_a[0])
    changed, deltas = compare_evaluations(a, b)
    deltas = deltas.copy()
    for side in ("faithful", "fabricated"):
        deltas[f"holm_p_{side}"] = holm(deltas[f"mcnemar_p_{side}"].tolist())

    tags = a.by_tag.merge(b.by_tag, on=["config", "label", "tag"], how="outer", suffixes=("_a", "_b"))
    by_tag = pd.DataFrame({
        "config": tags["config"], "label": tags["label"], "tag": tags["tag"],
        "n_a": tags["n_a"], "n_b": tags["n_b"], "rate_a": tags["rate_a"], "rate_b": tags["rate_b"],
        "d_rate": tags["rate_b"] - tags["rate_a"],
    })  # fmt: skip
    by_tag = by_tag.loc[by_tag["d_rate"].fillna(1) != 0].reset_index(drop=True)

    papers = []
    for title, ev in ((a_title, a), (b_title, b)):
        meta = ev.meta
        for r in ev.metrics.to_dict("records"):
            papers.append({"run": title, "paper": meta.get("paper", ""), "paper_sha256": str(meta.get("paper_sha256", ""))[:16],
                           "config": r["config"], "false_reject": r["false_reject"], "false_accept": r["false_accept"]})
    by_paper = pd.DataFrame(papers, columns=["run", "paper", "paper_sha256", "config", "false_reject", "false_accept"])

    diffs_a = a.verdicts[["config", "id", "diff"]].rename(columns={"diff": "diff_a"})
    diffs_b = b.verdicts[["config", "id", "diff"]].rename(columns={"diff": "diff_b"})
    flips = changed.merge(diffs_a, on=["config", "id"], how="left").merge(diffs_b, on=["config", "id"], how="left")
    flips = flips.fillna({"diff_a": "", "diff_b": ""})

    configs = []
    for title, ev in ((a_title, a), (b_title, b)):
        rules = ev.meta.get("configs", {}) or {}
        for r in ev.metrics.to_dict("records"):
            configs.append({"run": title, "config": r["config"], "fingerprint": r["fingerprint"],
                            "rules": r.get("rules", ""),
                            "settings": json.dumps(rules.get(r["config"], {}), sort_keys=True)})
    return ChangeTables(deltas, by_tag, by_paper, flips, pd.DataFrame(configs), pairing)


def change_sentences(deltas: pd.DataFrame) -> list[str]:
    """One sentence per config: how both rates moved and whether the change is significant
    after Holm's correction at 5%."""
    out = []
    for r in deltas.to_dict("records"):
        parts = []
        for rate, side in (("false_reject", "faithful"), ("false_accept", "fabricated")):
            p = r.get(f"holm_p_{side}")
            shown = "< 0.001" if p is not None and p < 0.001 else "= %.3g" % p if p is not None else ""
            sig = "" if p is None or p != p else (f" (significant, Holm p {shown})" if p < 0.05 else f" (Holm p {shown})")
            parts.append(f"{rate.replace('_', '-')} {format_rate(r[f'{rate}_a'])} → {format_rate(r[f'{rate}_b'])}{sig}")
        note = "" if r["same_rules"] else " The rules differ between the runs."
        out.append(f"{r['config']}: " + "; ".join(parts) + f"; {r['n_changed']} of {r['n_paired']} verdicts changed.{note}")
    return out


def _diff_html(diff: str) -> str:
    """A stored ``[-passage-]{+quote+}`` diff as escaped HTML with ``<del>``/``<ins>``."""
    import re

    from .report import _e

    out, pos = [], 0
    for m in re.finditer(r"\[-(.*?)-\]|\{\+(.*?)\+\}", diff, flags=re.S):
        out.append(_e(diff[pos : m.start()]))
        out.append(f"<del>{_e(m.group(1))}</del>" if m.group(1) is not None else f"<ins>{_e(m.group(2))}</ins>")
        pos = m.end()
    out.append(_e(diff[pos:]))
    return "".join(out)


def render_change_html(a: "Evaluation", b: "Evaluation", *, a_title: str = "A", b_title: str = "B",
                       title: str | None = None, generated: _dt.datetime | None = None) -> str:
    """One self-contained HTML file: the before/after report of runs ``a`` and ``b``."""
    from .report import (_e, chart_svg, html_head, html_table, latency_chart, paper_timing_html, run_sentence,
                         throughput_chart)

    t = change_tables(a, b, a_title=a_title, b_title=b_title)
    generated = generated or _dt.datetime.now(_dt.timezone.utc)
    title = title or f"quotelocate: {a_title} → {b_title}"
    parts: list[str] = html_head(title, generated)
    add = parts.append
    add(f'<p class="muted">Before ({_e(a_title)}): {_e(run_sentence(a.meta))}<br>'
        f"After ({_e(b_title)}): {_e(run_sentence(b.meta))}</p>")
    if a.meta.get("set_hash") != b.meta.get("set_hash"):
        add('<p class="bad">The two runs used different quote sets: only quotes with the same id are paired.</p>')

    add("<h2>Rates</h2>")
    if t.pairing:
        add(f"<p>{_e(t.pairing)}</p>")
    if t.deltas.empty:
        add('<p class="bad">The runs share no config name, so no rate or verdict is paired.</p>')
    for line in change_sentences(t.deltas):
        add(f"<p>{_e(line)}</p>")
    add('<p class="muted">Configs are paired by name and quotes by id. p-values are exact McNemar tests on the '
        "paired accept/reject decisions (faithful and fabricated quotes separately), then corrected with Holm's "
        "method for the number of tests in this table.</p>")
    add(html_table(t.deltas.round(4), text_columns=()))

    add("<h2>Per tag</h2>")
    if t.by_tag.empty:
        add("<p>No tag's error rate changed.</p>")
    else:
        add('<p class="muted">Tags whose error rate changed (faithful: false reject; fabricated: false accept).</p>')
        add(html_table(t.by_tag.round(4), text_columns=()))

    add("<h2>Per paper</h2>")
    add(html_table(t.by_paper.round(4), text_columns=()))

    add(f"<h2>Verdicts that flipped ({len(t.flips)})</h2>")
    if t.flips.empty:
        add("<p>No verdict changed.</p>")
    else:
        add('<p class="muted">Each quote whose accept/reject decision or status changed, with the character diff '
            "against the closest passage each run stored (<del>passage</del> <ins>quote</ins>).</p>")
        rows = []
        for r in t.flips.to_dict("records"):
            rows.append(
                "<tr>" + "".join(f"<td>{_e(r[c])}</td>" for c in ("config", "id", "label", "tags"))
                + f"<td>{_e(r['status_a'])} {_e(r['cause_a'])}</td><td>{_e(r['status_b'])} {_e(r['cause_b'])}</td>"
                + f'<td class="q">{_e(r["text"])}</td><td class="q">{_diff_html(r["diff_a"])}</td>'
                + f'<td class="q">{_diff_html(r["diff_b"])}</td></tr>'
            )
        head = "".join(f"<th>{_e(h)}</th>" for h in ("config", "id", "label", "tags", f"{a_title}", f"{b_title}",
                                                     "quote", f"diff {a_title}", f"diff {b_title}"))
        add(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")

    add("<h2>Latency</h2>")
    for name, ev in ((a_title, a), (b_title, b)):
        if ev.verdicts["latency_ms"].notna().any():
            add(f"<p>{_e(name)}</p>")
            add(f'<div class="chart">{chart_svg(latency_chart(ev.verdicts))}</div>')
            if ev.metrics["qps_min"].notna().any():
                add(f'<div class="chart">{chart_svg(throughput_chart(ev.metrics))}</div>')
            parts.extend(paper_timing_html(ev.verdicts, ev.by_paper))

    add("<h2>Configs</h2>")
    add('<p class="muted">Each run\'s rules and their fingerprints (equal fingerprints mean equal semantics).</p>')
    add(html_table(t.configs, text_columns=("settings",)))
    add("</body></html>")
    return "\n".join(parts)
