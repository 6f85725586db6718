"""Evaluating an uploaded quote set in a worker process the workbench can stop.

A shared Streamlit server runs every session in one Python process: one slow
evaluation of someone's upload (a huge set, a pathological paper, a quote that defeats a
bound we did not foresee) would hold the interpreter for everyone. The workbench
therefore evaluates uploads in a child process, ``python -m
quotelocate.interface.eval_worker``, and kills it when it runs past a time limit.

Nothing the user uploaded is pickled: the parent sends a JSON request naming the staged
set and paper files, the rules (``Rules.to_dict``) and the options; the child runs the
same checked loader the parent uses (:func:`~quotelocate.data.quoteset.load_quote_set`,
the paper opened with the workbench's extraction limits) and answers with
:meth:`Evaluation.to_json` as JSON on stdout, or ``{"error": ..., "kind": ...}`` with
exit code 2 for an input the library refuses.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import errors
from ..errors import QuotelocateError

WORKER_TIMEOUT_S = 120.0
"""Default time an uploaded set's evaluation may take before its worker is killed
(``$QUOTELOCATE_WORKER_TIMEOUT`` in seconds overrides it for the workbench)."""

WORKER_MEMORY_MB = 2048
"""Address-space limit of a worker (Linux), so one upload cannot exhaust the server."""


class EvaluationTimeoutError(QuotelocateError):
    """An evaluation in a worker process ran past its time limit and was stopped."""


@dataclass(frozen=True)
class WorkerRequest:
    """What a worker evaluates, all JSON-serializable.

    set_path: the staged quote set file; paper_path: the staged paper (None: the pinned
    paper on the papers search path); configs: name -> ``Rules.to_dict()``; scope,
    repeats, savings (``SavingsAssumptions`` fields), ablation: as for
    :func:`~quotelocate.evaluation.evaluate`; chunking: ``(size, overlap, group_size)``
    to re-cut the set's chunks, or None for the set's own.
    """

    set_path: str
    paper_path: str | None = None
    configs: dict[str, dict] = field(default_factory=dict)
    scope: str | None = None
    repeats: int = 1
    savings: dict[str, Any] = field(default_factory=dict)
    ablation: bool = False
    chunking: tuple[int, int, int] | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)


def configured_timeout() -> float:
    """``$QUOTELOCATE_WORKER_TIMEOUT`` (seconds) when set to a positive number, else the default."""
    raw = os.environ.get("QUOTELOCATE_WORKER_TIMEOUT", "")
    try:
        value = float(raw)
    except ValueError:
        return WORKER_TIMEOUT_S
    return value if value > 0 else WORKER_TIMEOUT_S


def _limit_memory() -> None:  # the worker limits itself, first thing
    try:
        import resource

        limit = WORKER_MEMORY_MB * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


def evaluate_in_worker(request: WorkerRequest, *, timeout_s: float | None = None):
    """Run ``request`` in a child process and return its
    :class:`~quotelocate.evaluation.Evaluation`.

    Raises :class:`EvaluationTimeoutError` after ``timeout_s`` seconds (the child and
    anything it started are killed), or the library's error (``DatasetError``,
    ``DocumentError``, ...) with the child's one-line message.
    """
    from ..evaluation.result import Evaluation

    timeout_s = configured_timeout() if timeout_s is None else timeout_s
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "quotelocate.interface.eval_worker"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(request.to_json().encode("utf-8"), timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _kill(proc)
        raise EvaluationTimeoutError(
            f"the evaluation took longer than {timeout_s:g} s and was stopped; try fewer or shorter quotes"
        ) from None
    except BaseException:
        _kill(proc)
        raise
    if proc.returncode == 0:
        try:
            return Evaluation.from_json(json.loads(out))
        except (ValueError, QuotelocateError) as exc:
            raise QuotelocateError(f"the evaluation worker answered something unreadable ({exc})") from None
    try:
        answer = json.loads(out)
    except ValueError:
        answer = None
    if isinstance(answer, dict) and isinstance(answer.get("error"), str):
        kind = getattr(errors, str(answer.get("kind")), None)
        if not (isinstance(kind, type) and issubclass(kind, QuotelocateError)):
            kind = QuotelocateError
        raise kind(answer["error"])
    last = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
    raise QuotelocateError(f"the evaluation worker stopped with exit code {proc.returncode} ({last[0][:200]})")


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the worker's own session: it and its children only
    except (ProcessLookupError, PermissionError, AttributeError):
        proc.kill()
    proc.wait()


def run_request(request: WorkerRequest):
    """Load and evaluate ``request`` in this process (what the worker does)."""
    from ..chunks import Chunking
    from ..data.quoteset import load_quote_set
    from ..document import Document
    from ..evaluation import SavingsAssumptions, evaluate
    from ..normalize import Rules
    from .workbench import UPLOAD_LIMITS, with_chunking

    document = Document.open(request.paper_path, limits=UPLOAD_LIMITS) if request.paper_path else None
    quote_set = load_quote_set(request.set_path, document=document)
    if request.chunking is not None:
        quote_set = with_chunking(quote_set, Chunking(*request.chunking))
    configs = {name: Rules.from_dict(d) for name, d in request.configs.items()}
    return evaluate(quote_set, configs, scope=request.scope, repeats=request.repeats,
                    savings=SavingsAssumptions(**request.savings), ablation=request.ablation)


def main() -> int:
    _limit_memory()
    try:
        try:
            data = json.loads(sys.stdin.buffer.read())
            if isinstance(data.get("chunking"), list):
                data["chunking"] = tuple(data["chunking"])
            request = WorkerRequest(**data)
        except (ValueError, TypeError, AttributeError) as exc:
            raise errors.ConfigError(f"evaluation worker: not a JSON request ({type(exc).__name__})") from None
        evaluation = run_request(request)
    except QuotelocateError as exc:
        sys.stdout.write(json.dumps({"error": str(exc), "kind": type(exc).__name__}))
        return 2
    except MemoryError:
        sys.stdout.write(json.dumps({"error": f"the evaluation needed more than {WORKER_MEMORY_MB} MB",
                                     "kind": "QuotelocateError"}))
        return 2
    sys.stdout.write(json.dumps(evaluation.to_json(), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
