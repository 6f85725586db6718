"""`quotelocate eval --mlflow` against a real MLflow file store, read back with MLflow's client."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys

import mlflow  # the test extra installs mlflow-skinny
import pytest

from quotelocate.errors import IntegrationError
from quotelocate.integrations.mlflow import evaluation_metrics, log_evaluation
from quotelocate.interface.cli import main

from conftest import REPO


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """One real `quotelocate eval synthetic --mlflow DIR` run, shared by the checks below."""
    store = tmp_path_factory.mktemp("mlruns")
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["eval", "synthetic", "--preset", "exact", "recommended", "--repeats", "1", "--no-store", "--json", "--mlflow", str(store)],
        out=out,
        err=err,
    )
    assert code == 0, err.getvalue()
    evaluation = json.loads(out.getvalue())
    line = [l for l in err.getvalue().splitlines() if "logged to MLflow" in l]
    assert len(line) == 1, err.getvalue()
    run_id = line[0].split(" as run ", 1)[1].split()[0]
    client = mlflow.MlflowClient(tracking_uri=store.as_uri())
    return store, client, client.get_run(run_id), evaluation


def test_cli_logs_rates_with_intervals_latency_and_throughput(logged):
    _, _, run, evaluation = logged
    metrics = run.data.metrics
    assert run.info.status == "FINISHED"
    for row in evaluation["metrics"]:
        c = row["config"]
        for name, short in (("false_reject", "fr"), ("false_accept", "fa"), ("anchor_accuracy", "aa")):
            assert metrics[f"{c}/{name}"] == pytest.approx(row[name])
            assert metrics[f"{c}/{name}_low"] == pytest.approx(row[f"{short}_low"])
            assert metrics[f"{c}/{name}_high"] == pytest.approx(row[f"{short}_high"])
            assert metrics[f"{c}/{name}_low"] <= metrics[f"{c}/{name}"] <= metrics[f"{c}/{name}_high"]
        for name in ("p50_ms", "p95_ms", "p99_ms", "throughput_qps", "build_ms"):
            assert metrics[f"{c}/{name}"] == pytest.approx(row[name]) and metrics[f"{c}/{name}"] > 0
    # the recommended preset rejects fewer faithful quotes than a plain substring check
    assert metrics["recommended/false_reject"] < metrics["exact/false_reject"]


def test_cli_logs_the_config_as_params_and_artifact(logged, tmp_path):
    _, client, run, evaluation = logged
    params = run.data.params
    meta = evaluation["meta"]
    assert params["set"] == "synthetic" and params["paper_sha256"] == meta["paper_sha256"]
    assert params["n_quotes"] == str(meta["n_quotes"]) and params["repeats"] == "1"
    assert params["recommended/fingerprint"] == meta["fingerprints"]["recommended"]
    path = client.download_artifacts(run.info.run_id, "config.json", str(tmp_path))
    config = json.loads(open(path, encoding="utf-8").read())
    assert config["configs"] == meta["configs"] and config["fingerprints"] == meta["fingerprints"]


def test_cli_logs_the_verdict_table_and_the_html_report(logged, tmp_path):
    _, client, run, evaluation = logged
    names = {a.path for a in client.list_artifacts(run.info.run_id)}
    assert {"config.json", "verdicts.json", "verdicts.csv", "evaluation.json", "report.html"} <= names
    table = json.loads(open(client.download_artifacts(run.info.run_id, "verdicts.json", str(tmp_path)), encoding="utf-8").read())
    assert table["columns"][:3] == ["config", "fingerprint", "id"]
    assert len(table["data"]) == len(evaluation["verdicts"])
    ids = [row[2] for row in table["data"]]
    assert ids == [v["id"] for v in evaluation["verdicts"]]
    html = open(client.download_artifacts(run.info.run_id, "report.html", str(tmp_path)), encoding="utf-8").read()
    assert html.startswith("<!DOCTYPE html>") and "synthetic" in html and "<script" not in html.lower()
    stored = json.loads(open(client.download_artifacts(run.info.run_id, "evaluation.json", str(tmp_path)), encoding="utf-8").read())
    assert stored["metrics"] == evaluation["metrics"]


def test_the_file_store_opt_in_is_not_left_behind(logged):
    assert "MLFLOW_ALLOW_FILE_STORE" not in os.environ


def test_a_rate_without_quotes_is_left_out_not_logged_as_nan():
    from quotelocate.evaluation.result import Evaluation

    ev = Evaluation.from_json(
        {
            "format": 1,
            "meta": {},
            "metrics": [
                {"config": "recommended", "fingerprint": "ql1-x", "rules": "r", "n_faithful": 0, "n_fabricated": 3,
                 "false_reject": float("nan"), "fr_low": float("nan"), "fr_high": float("nan"),
                 "false_accept": 0.0, "fa_low": 0.0, "fa_high": 0.56, "n_accepted_faithful": 0,
                 "anchor_accuracy": float("nan"), "aa_low": float("nan"), "aa_high": float("nan"),
                 "build_ms": 1.0, "throughput_qps": 10.0, "p50_ms": 1.0, "p95_ms": 2.0, "p99_ms": 3.0}
            ],
        }
    )  # fmt: skip
    metrics = evaluation_metrics(ev)
    assert "recommended/false_reject" not in metrics and metrics["recommended/false_accept_high"] == 0.56
    assert not any(math.isnan(v) for v in metrics.values())


def test_an_unusable_tracking_uri_is_one_error_naming_it(tmp_path):
    from quotelocate.evaluation.result import Evaluation

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the store should be")
    with pytest.raises(IntegrationError, match=r"^mlflow file://.*not-a-folder"):
        log_evaluation(Evaluation(meta={"set": "x"}), tracking_uri=str(blocker), report_html="<html></html>")


def test_subprocess_prints_one_line_on_a_bad_store_before_the_run(tmp_path):
    blocker = tmp_path / "store"
    blocker.write_text("occupied")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    # the set does not exist either: the store is checked first, before any evaluation
    proc = subprocess.run(
        [sys.executable, "-m", "quotelocate", "eval", str(tmp_path / "no-such-set.yaml"), "--no-store", "--mlflow", str(blocker)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "mlflow file://" in proc.stderr and "no-such-set" not in proc.stderr


def test_without_a_uri_mlflow_tracking_uri_is_used(tmp_path, monkeypatch):
    from quotelocate.evaluation.result import Evaluation

    store = tmp_path / "env-store"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", store.as_uri())
    logged = log_evaluation(Evaluation(meta={"set": "empty"}), report_html="<html></html>", experiment="from-env")
    assert logged.tracking_uri == store.as_uri()
    run = mlflow.MlflowClient(tracking_uri=store.as_uri()).get_run(logged.run_id)
    assert run.data.params == {"set": "empty"} and run.info.status == "FINISHED"
