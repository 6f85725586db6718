"""Log an evaluation as an MLflow run (``quotelocate eval --mlflow [URI]``; extra ``mlflow``).

One run per evaluation, in the experiment ``quotelocate`` unless told otherwise:

- **params**: the quote set (name, sha256, counts), the paper (name, sha256, text
  sha256), scope, repeats, the package and pymupdf versions, and every config's
  fingerprint and rule summary (``<config>/fingerprint``, ``<config>/rules``);
- **metrics**, per config: ``<config>/false_reject`` with ``…_low``/``…_high`` (the
  95% Wilson interval), the same for ``false_accept`` and ``anchor_accuracy``,
  ``p50_ms``, ``p95_ms``, ``p99_ms``, ``throughput_qps`` and ``build_ms``. A rate
  with no quote to measure it on (NaN) is left out rather than logged as NaN;
- **artifacts**: ``config.json`` (every config's rules and the savings assumptions),
  ``verdicts.json`` (the verdict table, as MLflow's ``log_table`` writes it, so the UI
  shows it), ``verdicts.csv``, ``evaluation.json`` (what ``quotelocate report``
  reads back) and ``report.html`` (the offline HTML report).

MLflow refuses a plain folder (its file store) unless ``MLFLOW_ALLOW_FILE_STORE`` is
set; a folder or ``file:`` URI named here is an explicit choice of that store, so it is
allowed for the duration of the call.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import IntegrationError

if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation.result import Evaluation

EXPERIMENT = "quotelocate"
RATES = (("false_reject", "fr"), ("false_accept", "fa"), ("anchor_accuracy", "aa"))
TIMES = ("p50_ms", "p95_ms", "p99_ms", "throughput_qps", "build_ms")
_PARAM_KEYS = (
    "set", "set_hash", "n_quotes", "n_faithful", "n_fabricated", "paper", "paper_sha256", "text_sha256",
    "scope", "repeats", "package_version", "pymupdf_version", "python",
)  # fmt: skip
_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_\-. /]")


@dataclass(frozen=True)
class LoggedRun:
    """Where an evaluation was logged: MLflow's run id, its experiment and tracking URI."""

    run_id: str
    experiment_id: str
    tracking_uri: str


def metric_key(config: str, name: str) -> str:
    """``<config>/<name>``, with characters MLflow does not accept in a key replaced by ``_``.

    >>> metric_key("recommended -layout", "false_reject")
    'recommended -layout/false_reject'
    >>> metric_key("mine+strict", "p50_ms")
    'mine_strict/p50_ms'
    """
    return f"{_KEY_UNSAFE.sub('_', config)}/{name}"


def evaluation_metrics(ev: Evaluation) -> dict[str, float]:
    """Every rate with its interval, latency, throughput and build time, keyed per config."""
    out: dict[str, float] = {}
    for row in ev.metrics.to_dict("records"):
        config = str(row["config"])
        for name, short in RATES:
            for key, column in ((name, name), (f"{name}_low", f"{short}_low"), (f"{name}_high", f"{short}_high")):
                _put(out, metric_key(config, key), row[column])
        for name in TIMES:
            _put(out, metric_key(config, name), row[name])
        for name in ("n_faithful", "n_fabricated", "n_accepted_faithful"):
            _put(out, metric_key(config, name), row[name])
    return out


def evaluation_params(ev: Evaluation) -> dict[str, str]:
    """The run's provenance and each config's fingerprint and rules, as MLflow params."""
    meta = ev.meta
    params = {key: _param(meta.get(key)) for key in _PARAM_KEYS if meta.get(key) is not None}
    for row in ev.metrics.to_dict("records"):
        params[metric_key(str(row["config"]), "fingerprint")] = str(row["fingerprint"])
        params[metric_key(str(row["config"]), "rules")] = _param(row["rules"])
    return params


def log_evaluation(
    ev: Evaluation,
    *,
    tracking_uri: str | None = None,
    experiment: str = EXPERIMENT,
    run_name: str | None = None,
    report_html: str | None = None,
) -> LoggedRun:
    """Log ``ev`` as one MLflow run and return where.

    ``tracking_uri`` is any URI MLflow takes, or a folder (its file store); ``None`` uses
    MLflow's own default (``$MLFLOW_TRACKING_URI``). ``report_html`` is the HTML report
    to attach; by default it is rendered from ``ev``. Any failure of MLflow (a store it
    cannot open, a server that refuses) is an :class:`IntegrationError` naming the URI.
    """
    if report_html is None:
        from ..evaluation.report import render_html

        report_html = render_html(ev)
    from ..evaluation.frames import records

    with _mlflow_session(tracking_uri) as client:
        experiment_id = _experiment_id(client, experiment)
        name = run_name or f"{ev.meta.get('set', 'evaluation')} ({len(ev.metrics)} configs)"
        run = client.create_run(experiment_id, run_name=name, tags={"quotelocate.set": str(ev.meta.get("set", ""))})
        run_id = run.info.run_id
        try:
            _log_run(client, run_id, ev, report_html, records)
        except BaseException:
            client.set_terminated(run_id, status="FAILED")
            raise
        client.set_terminated(run_id, status="FINISHED")
        return LoggedRun(run_id=run_id, experiment_id=experiment_id, tracking_uri=client.tracking_uri)


def check_destination(tracking_uri: str | None = None, *, experiment: str = EXPERIMENT) -> str:
    """Open the tracking store and the experiment (creating it) without logging a run,
    so a store that cannot be used fails before a long evaluation; returns the experiment id."""
    with _mlflow_session(tracking_uri) as client:
        return _experiment_id(client, experiment)


def _experiment_id(client: Any, experiment: str) -> str:
    exp = client.get_experiment_by_name(experiment)
    return exp.experiment_id if exp is not None else client.create_experiment(experiment)


@contextlib.contextmanager
def _mlflow_session(tracking_uri: str | None) -> Iterator[Any]:
    """An MLflow client for ``tracking_uri``; MLflow's failures become one IntegrationError naming it."""
    try:
        import mlflow
        from mlflow.exceptions import MlflowException
    except ImportError as exc:
        raise IntegrationError(f"--mlflow: needs the 'mlflow' extra ({exc.name} not installed); pip install 'quotelocate[mlflow]'") from None
    uri = _normalize_uri(tracking_uri or os.environ.get("MLFLOW_TRACKING_URI"))
    where = uri or "(MLflow's default tracking URI)"
    try:
        with _file_store_allowed(uri):
            yield mlflow.MlflowClient(tracking_uri=uri)
    except MlflowException as exc:
        first = str(getattr(exc, "message", exc)).strip().splitlines()[0]
        raise IntegrationError(f"mlflow {where}: {first}") from None
    except ImportError as exc:  # a database store needs modules that mlflow-skinny leaves out
        raise IntegrationError(f"mlflow {where}: this store needs the module {exc.name!r}; install the full 'mlflow' package") from None
    except OSError as exc:
        raise IntegrationError(f"mlflow {where}: {exc.strerror or exc}") from None


def _log_run(client: Any, run_id: str, ev: Evaluation, report_html: str, records: Any) -> None:
    import time

    from mlflow.entities import Metric, Param

    now = int(time.time() * 1000)
    params = [Param(k, v) for k, v in evaluation_params(ev).items()]
    metrics = [Metric(k, v, now, 0) for k, v in evaluation_metrics(ev).items()]
    for i in range(0, max(len(params), len(metrics)), 100):  # MLflow's batch limit is 100 params
        client.log_batch(run_id, metrics=metrics[i : i + 100], params=params[i : i + 100])
    config = {
        "configs": ev.meta.get("configs", {}),
        "fingerprints": ev.meta.get("fingerprints", {}),
        "savings_assumptions": ev.meta.get("savings_assumptions", {}),
    }
    client.log_dict(run_id, config, "config.json")
    client.log_table(run_id, data=ev.verdicts, artifact_file="verdicts.json")
    client.log_text(run_id, ev.verdicts.to_csv(index=False), "verdicts.csv")
    client.log_text(run_id, json.dumps(ev.to_json(), ensure_ascii=False, allow_nan=False), "evaluation.json")
    client.log_text(run_id, report_html, "report.html")


def _normalize_uri(uri: str | None) -> str | None:
    if uri is None or uri == "":
        return None
    if "://" in uri or re.match(r"^[a-z][a-z0-9+.-]*:", uri) and not re.match(r"^[A-Za-z]:[\\/]", uri):
        return uri
    return Path(uri).expanduser().resolve().as_uri()  # a folder: MLflow's file store


@contextlib.contextmanager
def _file_store_allowed(uri: str | None) -> Iterator[None]:
    if uri is None or not uri.startswith("file:") or "MLFLOW_ALLOW_FILE_STORE" in os.environ:
        yield
        return
    os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"
    try:
        yield
    finally:
        os.environ.pop("MLFLOW_ALLOW_FILE_STORE", None)


def _put(out: dict[str, float], key: str, value: Any) -> None:
    if value is None:
        return
    try:
        number = float(value)
    except (TypeError, ValueError):
        return
    if not math.isnan(number):
        out[key] = number


def _param(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text[:6000]
