"""Run every atheris target for a bounded time and summarize what it found.

``FUZZ_SECONDS`` (default 300) is split evenly between the targets. Each target runs
with libFuzzer's ``-max_total_time``, ``-timeout=10`` and ``-rss_limit_mb=2048`` on a
scratch corpus under ``.fuzz-work/corpus/<target>/`` (seeded from the committed
``fuzz/corpus/<target>/``, which therefore stays small). libFuzzer stops at the first
crash, so a target is restarted until its time is used up; reproducers go to
``.fuzz-work/crashes/`` and logs to ``.fuzz-work/logs/``.

Every crash is replayed through :mod:`harness` to get its signature (exception type and
the innermost quotelocate frame). A signature that a file in ``fuzz/regressions/``
also produces is *known* (an open bug with an ``xfail(strict=True)`` test in
``tests/test_fuzz_corpus.py``); any other is *new*. Seeds equal to a still-failing
reproducer are left out of the scratch corpus (libFuzzer stops at a crashing seed). The summary (targets, executed runs, crashes, seconds) goes to stdout and
``fuzz/LAST_RUN.md``; the exit status is 1 when there is a new crash.

    FUZZ_SECONDS=120 .venv/bin/python fuzz/run.py
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORK = REPO / ".fuzz-work"
TARGETS = {"document": "fuzz_document.py", "locate": "fuzz_locate.py"}
FLAGS = ["-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1"]
MAX_SEGMENTS = 40
REPLAY = """
import sys, traceback
sys.path.insert(0, {here!r})
import harness
data = open(sys.argv[1], "rb").read()
try:
    harness.check_{target}(data)
except BaseException:
    traceback.print_exc()
    sys.exit(1)
"""


@dataclass
class Crash:
    path: Path
    kind: str  # crash | timeout | oom | leak
    signature: str = ""
    known: bool = False


@dataclass
class Result:
    target: str
    seconds: float = 0.0
    runs: int = 0
    segments: int = 0
    crashes: list[Crash] = field(default_factory=list)


def signature_of(text: str) -> str:
    """``Type in file (function)`` of the innermost quotelocate (else any) frame; no
    line number, so an edit elsewhere in the file does not make a known crash new."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', text)
    ours = [f for f in frames if "/quotelocate/" in f[0]] or frames
    error = ""
    for line in reversed(text.strip().splitlines()):
        if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Violation|Interrupt|Exit)\b", line):
            error = line.split(":", 1)[0]
            break
    if not ours:
        return error or "no traceback"
    path, _, func = ours[-1]
    return f"{error} in {Path(path).name} ({func})"


def replay(target: str, path: Path) -> str:
    """Signature of ``path`` replayed through the harness in a fresh interpreter."""
    code = REPLAY.format(here=str(HERE), target=target)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60, cwd=REPO
        )
    except subprocess.TimeoutExpired:
        return "timeout (replay > 60 s)"
    if proc.returncode == 0:
        return "does not reproduce in replay"
    return signature_of(proc.stderr)


def known_crashes() -> dict[str, tuple[set[str], set[bytes]]]:
    """Per target: the signatures the files in ``fuzz/regressions/`` still produce, and
    the bytes of those that still fail (fixed ones are plain regression tests)."""
    out: dict[str, tuple[set[str], set[bytes]]] = {}
    for target in TARGETS:
        folder = HERE / "regressions" / target
        signatures, failing = set(), set()
        for p in sorted(folder.glob("*")) if folder.is_dir() else ():
            sig = replay(target, p)
            if sig != "does not reproduce in replay":
                signatures.add(sig)
                failing.add(p.read_bytes())
        out[target] = (signatures, failing)
    return out


def seed(target: str, scratch: Path, skip: set[bytes]) -> None:
    """Copy the committed seeds into the scratch corpus, except ``skip``."""
    scratch.mkdir(parents=True, exist_ok=True)
    for p in sorted((HERE / "corpus" / target).glob("*")):
        data = p.read_bytes()
        dest = scratch / f"seed-{p.name}"
        if data in skip:
            dest.unlink(missing_ok=True)
        elif not dest.exists():
            dest.write_bytes(data)


def run_target(target: str, budget: float, known: set[str], skip: set[bytes]) -> Result:
    scratch, crashes, logs = WORK / "corpus" / target, WORK / "crashes", WORK / "logs"
    crashes.mkdir(parents=True, exist_ok=True)
    logs.mkdir(parents=True, exist_ok=True)
    seed(target, scratch, skip)
    result = Result(target)
    t0 = time.monotonic()
    while result.segments < MAX_SEGMENTS:
        remaining = int(budget - (time.monotonic() - t0))
        if remaining < 2:
            break
        result.segments += 1
        log = logs / f"{target}-{result.segments}.log"
        cmd = [
            sys.executable,
            str(HERE / TARGETS[target]),
            f"-max_total_time={remaining}",
            *FLAGS,
            f"-artifact_prefix={crashes}/{target}-",
            str(scratch),
        ]
        with log.open("w") as out:
            try:
                proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=REPO, timeout=remaining + 120)
                out.write(f"\nrun.py: exit status {proc.returncode}\n")
            except subprocess.TimeoutExpired:
                out.write("\nrun.py: segment overran its time and was stopped\n")
        text = log.read_text(errors="replace")
        result.runs += executed_units(text)
        artifacts = [a for a in re.findall(r"Test unit written to (\S+)", text) if "/slow-unit-" not in a]
        for artifact in artifacts:
            path = (REPO / artifact).resolve()
            kind = path.name.removeprefix(f"{target}-").split("-", 1)[0]
            forget(scratch, path)
            sig = "timeout" if kind == "timeout" else "out of memory" if kind == "oom" else replay(target, path)
            result.crashes.append(Crash(path, kind, sig, sig in known))
        if not artifacts and re.search(r"Uncaught Python exception|ERROR: libFuzzer|deadly signal", text):
            # libFuzzer died before naming its reproducer: keep what the log says
            sig = signature_of(text.split("Uncaught Python exception", 1)[-1])
            result.crashes.append(Crash(log, "crash (no reproducer written; see the log)", sig, sig in known))
        elif not artifacts:
            break  # the time is up (or libFuzzer stopped for another reason, see the log)
    result.seconds = time.monotonic() - t0
    return result


def forget(scratch: Path, artifact: Path) -> None:
    """Remove the scratch-corpus copies of a reproducer, so a restart does not stop on
    it again while loading the corpus."""
    if not artifact.is_file():
        return
    data = artifact.read_bytes()
    for p in scratch.iterdir():
        if p.is_file() and p.stat().st_size == len(data) and p.read_bytes() == data:
            p.unlink()


def executed_units(log: str) -> int:
    """Runs libFuzzer executed: its final stat, else the last ``#N`` status line."""
    stats = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
    if stats:
        return int(stats[-1])
    status = re.findall(r"^#(\d+)\s", log, re.M)
    return int(status[-1]) if status else 0


def summarize(results: list[Result], total: int) -> str:
    lines = [
        "# Last fuzz run",
        "",
        f"- date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- command: `FUZZ_SECONDS={total} .venv/bin/python fuzz/run.py` (`make fuzz`)",
        f"- python {platform.python_version()}, atheris {_version('atheris')}, pymupdf {_version('pymupdf')}",
        "",
        "| target | seconds | runs executed | restarts | crashes | new | known |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        new = sum(not c.known for c in r.crashes)
        lines.append(
            f"| {r.target} | {r.seconds:.0f} | {r.runs} | {r.segments - 1} | {len(r.crashes)} | {new} | {len(r.crashes) - new} |"
        )
    runs = sum(r.runs for r in results)
    crashes = [c for r in results for c in r.crashes]
    lines.append(f"| **total** | {sum(r.seconds for r in results):.0f} | {runs} | | {len(crashes)} | "
                 f"{sum(not c.known for c in crashes)} | {sum(c.known for c in crashes)} |")
    lines.append("")
    if crashes:
        lines.append("## Distinct crash signatures")
        lines.append("")
        seen: dict[tuple[str, str], list[Crash]] = {}
        for r in results:
            for c in r.crashes:
                seen.setdefault((r.target, c.signature), []).append(c)
        for (target, sig), group in seen.items():
            status = "known (fuzz/regressions/)" if group[0].known else "NEW"
            example = group[0].path.relative_to(REPO) if group[0].path.is_relative_to(REPO) else group[0].path
            lines.append(f"- {target}: `{sig}`: {len(group)}x, {status}, e.g. `{example}`")
        lines.append("")
    else:
        lines.append("No crashes.")
        lines.append("")
    return "\n".join(lines)


def _version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def main() -> int:
    try:
        import atheris  # noqa: F401
    except ImportError:
        print("atheris is not installed: pip install -e '.[fuzz]' (or make fuzz)", file=sys.stderr)
        return 2
    total = int(os.environ.get("FUZZ_SECONDS", "300"))
    if total < 2 * len(TARGETS):
        print(f"FUZZ_SECONDS={total} is too short", file=sys.stderr)
        return 2
    shutil.rmtree(WORK / "logs", ignore_errors=True)
    known = known_crashes()
    results = []
    for target in TARGETS:
        budget = total / len(TARGETS)
        print(f"fuzzing {target} for {budget:.0f} s ...", flush=True)
        results.append(run_target(target, budget, *known[target]))
    summary = summarize(results, total)
    (HERE / "LAST_RUN.md").write_text(summary)
    print(summary)
    return 1 if any(not c.known for r in results for c in r.crashes) else 0


if __name__ == "__main__":
    sys.exit(main())
