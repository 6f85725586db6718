"""Uploaded sets are evaluated in a worker process the workbench can stop: the worker
gives the same verdicts as evaluating in-process, a run past its time limit is killed
with a clear error, a refused input keeps its error type and message, and the worker
reads only a JSON request (nothing the user sent is unpickled)."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from quotelocate.data.quoteset import load_quote_set
from quotelocate.errors import DatasetError
from quotelocate.evaluation import SavingsAssumptions, evaluate
from quotelocate.interface import eval_worker, workbench
from quotelocate.interface.eval_worker import EvaluationTimeoutError, WorkerRequest
from quotelocate.normalize import PRESETS

REPO = Path(__file__).resolve().parent.parent
SYNTH_YAML = REPO / "datasets" / "synthetic" / "synthetic.yaml"
SYNTH_PDF = REPO / "datasets" / "synthetic" / "synthetic.pdf"
COLUMNS = ["config", "id", "accepted", "status", "cause", "page", "start", "end", "scope"]


def request(**changes) -> WorkerRequest:
    base = dict(set_path=str(SYNTH_YAML), paper_path=str(SYNTH_PDF),
                configs={"recommended": PRESETS["recommended"].to_dict()},
                savings={"baseline": "recommended"}, scope="group")
    return WorkerRequest(**{**base, **changes})


def test_the_worker_gives_the_verdicts_of_an_in_process_evaluation():
    isolated = eval_worker.evaluate_in_worker(request(), timeout_s=300)
    here = evaluate(load_quote_set(SYNTH_YAML), {"recommended": PRESETS["recommended"]}, scope="group", repeats=1,
                    savings=SavingsAssumptions(baseline="recommended"))
    a = isolated.verdicts[COLUMNS].astype(str).reset_index(drop=True)
    b = here.verdicts[COLUMNS].astype(str).reset_index(drop=True)
    assert len(a) == len(load_quote_set(SYNTH_YAML).quotes) and a.equals(b)
    assert isolated.configs == {"recommended": PRESETS["recommended"]}


def test_a_worker_past_its_time_limit_is_killed(monkeypatch):
    started = []
    real = subprocess.Popen

    def recording(*args, **kwargs):
        proc = real(*args, **kwargs)
        started.append(proc)
        return proc

    monkeypatch.setattr(eval_worker.subprocess, "Popen", recording)
    with pytest.raises(EvaluationTimeoutError, match=r"longer than 0.2 s and was stopped"):
        eval_worker.evaluate_in_worker(request(), timeout_s=0.2)
    assert len(started) == 1 and started[0].poll() is not None, "the worker is gone"


def test_a_refused_input_keeps_its_type_and_names_no_server_path(tmp_path):
    staging = tmp_path / "quotelocate-upload-x" / "0123456789abcdef"
    staging.mkdir(parents=True)
    (staging / workbench.SET_FILE).write_bytes(b"format: 1\nname: x\nquotes: [\n")
    with pytest.raises(DatasetError) as info:
        workbench.evaluate_upload(request(set_path=str(staging / workbench.SET_FILE), paper_path=None), timeout_s=120)
    message = str(info.value)
    assert message.startswith("uploaded quote set") and str(tmp_path) not in message


def test_the_worker_reads_json_only():
    payload = pickle.dumps(request())
    result = subprocess.run([sys.executable, "-m", "quotelocate.interface.eval_worker"], input=payload,
                            capture_output=True, timeout=120, cwd=REPO)
    assert result.returncode == 2, result.stderr[-500:]
    assert b"not a JSON request" in result.stdout and b"Traceback" not in result.stderr


def test_the_timeout_is_configurable_and_sane(monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_WORKER_TIMEOUT", "7.5")
    assert eval_worker.configured_timeout() == 7.5
    for bad in ("", "-1", "soon", "0"):
        monkeypatch.setenv("QUOTELOCATE_WORKER_TIMEOUT", bad)
        assert eval_worker.configured_timeout() == eval_worker.WORKER_TIMEOUT_S
