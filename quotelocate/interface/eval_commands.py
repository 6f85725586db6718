"""The evaluation commands of the ``quotelocate`` command line: ``eval``, ``runs``,
``compare``, ``fetch`` and ``cache``. :func:`add_parsers` registers them on ``cli.py``'s
subparsers; each handler parses, calls the library and prints. Errors are raised as
:class:`~quotelocate.errors.QuotelocateError` and printed by ``cli.main`` as one line
with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any, TextIO

from ..errors import ConfigError
from ..evaluation.formatting import format_rate
from ..normalize import PRESETS, Rules
from .extras import require

EXIT_OK = 0


def add_parsers(sub: Any) -> None:
    """Add ``eval``, ``runs``, ``compare`` and ``fetch`` to an argparse subparsers object."""
    p = sub.add_parser("eval", help="evaluate rule presets on a labelled quote set")
    p.add_argument("set", metavar="SET", help="bundled set name (synthetic, attention-v7, attention-v5) or a YAML path")
    p.add_argument(
        "--preset",
        dest="presets",
        action="extend",
        nargs="+",
        choices=sorted(PRESETS),
        metavar="P",
        help=f"preset(s) to evaluate ({', '.join(PRESETS)}); default: all",
    )
    p.add_argument("--grid", action="store_true", help="every preset plus recommended with each rule switched off")
    p.add_argument("--scope", choices=["chunk", "group", "document"], help="scope for quotes with a cited chunk (default group)")
    p.add_argument("--repeats", type=int, default=3, metavar="N", help="timed runs per quote; latency is the median (default 3)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="local processes (0: one per CPU); a set of several papers runs one paper per task, "
                        "one per CPU by default; a one-paper set locates configs in parallel, 1 by default")
    p.add_argument("--cluster", metavar="ADDR",
                   help="run the papers as tasks on a Dask cluster, dask://HOST:PORT (default $DASK_SCHEDULER_ADDRESS; "
                        "needs quotelocate[dask])")
    add_cache_options(p)
    p.add_argument("--ablation", action="store_true", help="also toggle every rule of every config (paired McNemar tests)")
    p.add_argument("--papers", metavar="DIRS", help="folders holding the papers (replaces $QUOTELOCATE_PAPERS)")
    p.add_argument("--paper", metavar="ID", help="evaluate one paper of a set that spans several (only it is opened)")
    p.add_argument("--json", action="store_true", help="print the whole evaluation as JSON")
    p.add_argument("--no-store", dest="save", action="store_false", help="do not save the run in the run store")
    p.add_argument(
        "--mlflow",
        nargs="?",
        const="",
        metavar="URI",
        help="also log the run to MLflow: config, rates with intervals, latency, verdicts, HTML report "
        "(URI or folder; default $MLFLOW_TRACKING_URI; needs the 'mlflow' extra)",
    )
    p.add_argument("--mlflow-experiment", default="quotelocate", metavar="NAME", help="MLflow experiment (default quotelocate)")
    p.add_argument("--name", default="", help="a name for the stored run (shown by `quotelocate runs` and the workbench)")
    p.add_argument("--tag", dest="tags", action="append", default=[], metavar="TAG",
                   help="a tag for the stored run (repeatable)")
    p.add_argument("--notes", default="", help="notes stored with the run")
    add_store_option(p)
    p.set_defaults(handler=cmd_eval)

    p = sub.add_parser("runs", help="list the evaluations in the run store")
    p.add_argument("--json", action="store_true", help="one JSON object per run")
    add_store_option(p)
    p.set_defaults(handler=cmd_runs)

    p = sub.add_parser("compare", help="what changed between two stored evaluations")
    p.add_argument("run_a", metavar="RUN_A", type=int, help="run id (see `quotelocate runs`)")
    p.add_argument("run_b", metavar="RUN_B", type=int, help="run id")
    p.add_argument("--json", action="store_true", help="print {changed, deltas} as JSON")
    add_store_option(p)
    p.set_defaults(handler=cmd_compare)

    p = sub.add_parser("cache", help="the extraction cache: show what it holds, or clear it")
    p.add_argument("action", choices=["info", "clear"], help="info: entries and size; clear: delete every entry")
    p.add_argument("--cache-dir", metavar="DIR", help="cache folder (default $QUOTELOCATE_CACHE or ~/.cache/quotelocate/extractions)")
    p.set_defaults(handler=cmd_cache)

    p = sub.add_parser("fetch", help="download a quote set's pinned paper into the user cache")
    p.add_argument("set", metavar="SET", help="bundled set name or a YAML path")
    p.add_argument("--dest", metavar="DIR", help="download folder (default ~/.cache/quotelocate/papers)")
    p.add_argument("--paper", metavar="ID", help="only this paper of a set that spans several (default: every paper)")
    p.set_defaults(handler=cmd_fetch)


def add_cache_options(p: argparse.ArgumentParser) -> None:
    """``--cache-dir`` and ``--no-cache``: where extracted pages and reading orders are kept."""
    p.add_argument("--cache-dir", metavar="DIR", help="extraction cache folder (default $QUOTELOCATE_CACHE or ~/.cache/quotelocate/extractions)")
    p.add_argument("--no-cache", action="store_true", help="extract every paper afresh and keep nothing")


def open_cache(args: argparse.Namespace) -> Any:
    """The extraction cache the options name, or None with ``--no-cache``."""
    from ..extraction_cache import ExtractionCache

    return None if getattr(args, "no_cache", False) else ExtractionCache(getattr(args, "cache_dir", None))


def add_store_option(p: argparse.ArgumentParser) -> None:
    """``--store FILE``, the run store; ``--db`` is its former name, still accepted."""
    p.add_argument("--store", metavar="FILE", help="run store file (default $QUOTELOCATE_RUNS or ~/.local/share/quotelocate/runs.sqlite3)")
    p.add_argument("--db", dest="store_db", metavar="FILE", help=argparse.SUPPRESS)


def store_path(args: argparse.Namespace, err: TextIO) -> str | None:
    """The run store the user named, warning once when the deprecated ``--db`` was used."""
    if getattr(args, "store_db", None) is not None:
        print("quotelocate: warning: --db is deprecated; use --store", file=err)
        if args.store is not None and args.store != args.store_db:
            raise ConfigError(f"--store {args.store} and --db {args.store_db} name different run stores")
        return args.store_db
    return args.store


# -- eval -----------------------------------------------------------------------------


def eval_configs(presets: list[str] | None, grid: bool) -> dict[str, Rules]:
    """The configs ``eval`` runs: the chosen presets (all by default), plus the grid."""
    from ..evaluation.configs import grid_configs

    out: dict[str, Rules] = {}
    if presets:
        out.update({name: PRESETS[name] for name in presets})
    if grid:
        out.update(grid_configs())
    return out or dict(PRESETS)


def cmd_eval(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    require("eval", "quotelocate eval")
    if args.mlflow is not None:  # a tracking store that cannot be used fails before the long run
        require("mlflow", "quotelocate eval --mlflow")
        from ..integrations.mlflow import check_destination

        check_destination(args.mlflow or None, experiment=args.mlflow_experiment)
    from tqdm import tqdm

    from ..data.quoteset import load_quote_set
    from ..evaluation.ablation import add_ablation
    from ..evaluation.run import evaluate
    from ..evaluation.runstore import RunStore

    from ..data.quoteset import set_outline

    store = RunStore(store_path(args, err)) if args.save else None  # a broken store fails before the long run
    cache = open_cache(args)
    configs = eval_configs(args.presets, args.grid)
    cluster = args.cluster or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    outline = set_outline(args.set)
    as_tasks = (outline.multi_paper and args.paper is None) or cluster is not None
    if as_tasks and args.ablation:
        raise ConfigError("--ablation needs every paper in this process: give --paper ID, and no --cluster")
    if as_tasks:
        if args.paper is not None:
            raise ConfigError("--cluster runs every paper of the set; drop --paper, or run without --cluster")
        from ..evaluation.corpus import evaluate_corpus

        where = f"on {cluster}" if cluster else "locally"
        bar = tqdm(total=len(outline.paper_ids), file=err, unit="paper", desc=f"eval {outline.name} {where}", disable=None, leave=False)

        def paper_progress(done: int, total: int) -> None:
            bar.update(done - bar.n)

        try:
            ev = evaluate_corpus(
                args.set, configs, scope=args.scope, repeats=args.repeats, papers_path=args.papers,
                workers=0 if args.workers is None else args.workers, cluster=cluster, cache=cache, progress=paper_progress,
            )
        finally:
            bar.close()
        for warning in ev.meta.get("set_warnings", []):
            print(f"quotelocate: warning: {warning}", file=err)
        par = ev.meta["parallel"]
        hits = par.get("cache")
        cached = f"; extraction cache: {hits['hits']} hits, {hits['misses']} misses" if hits else ""
        ran = f"Dask scheduler {par['scheduler']}" if par["backend"] == "dask" else f"{par['workers']} local process(es)"
        print(f"quotelocate: {len(outline.labelled_paper_ids)} papers as tasks on {ran} in {par['seconds']:.1f}s{cached}", file=err)
    else:
        qs = load_quote_set(args.set, papers_path=args.papers, paper=args.paper, cache=cache)
        for warning in qs.warnings:
            print(f"quotelocate: warning: {warning}", file=err)
        workers = 1 if args.workers is None else args.workers
        bar = tqdm(total=len(qs) * len(configs), file=err, unit="quote", desc=f"eval {qs.name}", disable=None, leave=False)

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        try:
            ev = evaluate(qs, configs, scope=args.scope, repeats=args.repeats, progress=progress, workers=workers)
            if args.ablation:
                bar.reset(total=1)
                bar.set_description(f"ablation {qs.name}")
                ev = add_ablation(ev, qs, progress=progress, workers=workers)
        finally:
            bar.close()
    run_id = store.save(ev, name=args.name, notes=args.notes, tags=args.tags) if store is not None else None
    if args.mlflow is not None:
        from ..integrations.mlflow import log_evaluation

        logged = log_evaluation(ev, tracking_uri=args.mlflow or None, experiment=args.mlflow_experiment)
        print(f"quotelocate: logged to MLflow as run {logged.run_id} (experiment {logged.experiment_id}) at {logged.tracking_uri}", file=err)
    if args.json:
        payload = ev.to_json()
        payload["run_id"] = run_id
        print(json.dumps(payload, ensure_ascii=False, allow_nan=False), file=out)
    else:
        print_evaluation(ev, out)
    if run_id is not None:
        print(f"quotelocate: saved as run {run_id} in {store.path}", file=err)  # type: ignore[union-attr]
    return EXIT_OK


def print_evaluation(ev: Any, out: TextIO) -> None:
    """The metrics table with 95% Wilson intervals, the savings and the ablation."""
    from ..evaluation.formatting import format_metrics

    meta = ev.meta
    papers = meta.get("papers") or []
    if len(papers) > 1:
        on = f"{len(papers)} papers ({', '.join(str(p.get('id')) for p in papers)})"
    else:
        on = f"{meta.get('paper')} (sha256 {str(meta.get('paper_sha256'))[:12]})"
    print(
        f"{meta.get('set')}: {meta.get('n_quotes')} quotes ({meta.get('n_faithful')} faithful, "
        f"{meta.get('n_fabricated')} fabricated) on {on}; "
        f"scope {meta.get('scope') or 'group/document'}, {meta.get('repeats')} timed runs per quote",
        file=out,
    )
    if meta.get("unreviewed"):
        print(f"{meta['unreviewed']} unreviewed quotes are not counted (label them in the workbench's Label view)",
              file=out)
    print("rates with 95% Wilson intervals", file=out)
    print(format_metrics(ev.metrics).to_string(index=False), file=out)
    by_paper = getattr(ev, "by_paper", None)
    if by_paper is not None and by_paper["paper"].nunique() > 1:
        from ..evaluation.formatting import paper_table

        print("\nper paper (quotes: faithful + fabricated)", file=out)
        print(paper_table(by_paper).to_string(index=False), file=out)
    s = ev.savings
    if len(s):
        row = s.iloc[0]
        print(
            f"\nreview time vs {row['baseline']} (re-run {row['rerun_seconds']:g}s, review {row['review_seconds_with_anchor']:g}s "
            f"with anchor / {row['review_seconds_without_anchor']:g}s without, {format_rate(row['fabricated_share'])} fabricated; "
            f"target {format_rate(row['target'])} saving)",
            file=out,
        )
        for r in s.itertuples(index=False):
            verdict = "baseline" if r.config == r.baseline else ("holds" if r.holds else "not shown")
            print(
                f"  {r.config:28s} {r.cost_s_per_quote:6.1f} s/quote  saving {format_rate(r.saving):>7s} "
                f"[{format_rate(r.saving_low)}, {format_rate(r.saving_high)}]  {verdict}",
                file=out,
            )
    if ev.ablation is not None and len(ev.ablation):
        print("\nablation (one rule changed; exact McNemar p on paired decisions)", file=out)
        a = ev.ablation
        for r in a.itertuples(index=False):
            print(
                f"  {r.config:28s} {r.change:20s} false reject {format_rate(r.false_reject):>6s} ({100 * r.d_false_reject:+.1f}) "
                f"p={r.mcnemar_p_faithful:.3g}  false accept {format_rate(r.false_accept):>6s} ({100 * r.d_false_accept:+.1f}) "
                f"p={r.mcnemar_p_fabricated:.3g}",
                file=out,
            )


# -- runs / compare --------------------------------------------------------------------


def cmd_runs(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    require("eval", "quotelocate runs")
    from ..evaluation.runstore import RunStore

    store = RunStore(store_path(args, err))
    runs = store.list_runs()
    if args.json:
        for rec in runs.to_dict("records"):
            print(json.dumps({k: (int(v) if k in ("id", "n_quotes") else v) for k, v in rec.items()}), file=out)
        return EXIT_OK
    if not len(runs):
        print(f"no runs in {store.path}", file=out)
        return EXIT_OK
    view = runs.assign(
        set_hash=runs["set_hash"].str[:12],
        paper_sha256=runs["paper_sha256"].str[:12],
    )[["id", "title", "tags", "created", "set_name", "set_hash", "paper_sha256", "n_quotes", "configs",
       "package_version"]]
    print(view.to_string(index=False), file=out)
    return EXIT_OK


def cmd_compare(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    require("eval", "quotelocate compare")
    from ..evaluation.frames import records
    from ..evaluation.runstore import RunStore

    store = RunStore(store_path(args, err))
    changed, deltas = store.compare(args.run_a, args.run_b)
    if args.json:
        print(json.dumps({"changed": records(changed), "deltas": records(deltas)}, ensure_ascii=False), file=out)
        return EXIT_OK
    if len(deltas) == 0:
        print(f"runs {args.run_a} and {args.run_b} share no config", file=out)
        return EXIT_OK
    if not deltas["same_set"].all():
        print("note: the two runs used different quote sets; only quotes with the same id are paired", file=out)
    for r in deltas.itertuples(index=False):
        rules = "" if r.same_rules else "  (rules differ)"
        print(
            f"{r.config:28s} false reject {format_rate(r.false_reject_a)} -> {format_rate(r.false_reject_b)} (p={r.mcnemar_p_faithful:.3g})  "
            f"false accept {format_rate(r.false_accept_a)} -> {format_rate(r.false_accept_b)} (p={r.mcnemar_p_fabricated:.3g})  "
            f"{r.n_changed} of {r.n_paired} verdicts changed{rules}",
            file=out,
        )
    for r in changed.itertuples(index=False):
        a = "accepted" if r.accepted_a else f"rejected ({r.cause_a or r.status_a})"
        b = "accepted" if r.accepted_b else f"rejected ({r.cause_b or r.status_b})"
        print(f"  [{r.config}] {r.id} ({r.label}): {a} -> {b}", file=out)
    return EXIT_OK


# -- cache -----------------------------------------------------------------------------


def cmd_cache(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..extraction_cache import ExtractionCache

    cache = ExtractionCache(args.cache_dir)
    if args.action == "clear":
        gone = cache.clear()
        print(f"{cache.path}: removed {gone.entries} entries ({gone.bytes} bytes)", file=out)
    else:
        st = cache.stats()
        print(f"{cache.path}: {st.entries} entries, {st.bytes} bytes (bound {cache.max_bytes} bytes)", file=out)
    return EXIT_OK


# -- fetch -----------------------------------------------------------------------------


def cmd_fetch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    require("eval", "quotelocate fetch")
    from ..data.quoteset import fetch, fetch_all

    fetched = fetch_all(args.set, dest=args.dest) if args.paper is None else (fetch(args.set, dest=args.dest, paper=args.paper),)
    for done in fetched:
        for warning in done.warnings:
            print(f"quotelocate: warning: {warning}", file=err)
        state = "downloaded" if done.downloaded else "already present"
        print(f"{done.path} ({state}, sha256 {done.sha256})", file=out)
    return EXIT_OK
