"""Load test of ``quotelocate serve`` on loopback, against in-process ``Locator.locate``.

Starts the service on a free 127.0.0.1 port, uploads the paper once (so it is cached and
indexed), then runs ``--clients`` concurrent clients for ``--seconds`` seconds, each
sending ``POST /v1/verify`` by sha256 with one quote of about ``--words`` words over a
kept-alive connection. Reports requests/s, p50/p99 latency as the clients see it,
p50/p99 of the time the service spent on a request (its ``Server-Timing`` header,
without queueing), errors (any answer other than 200 with the quote accepted), and the
same quote through in-process
``Locator.locate`` (with and without ``Verdict.to_dict()``, which the service also
does) for the ratio.

Loopback only and bounded: at most 64 clients and 120 seconds. The clients are threads
of this process (two client processes with half the threads each when there are 8 or
more clients), so on a small machine they compete with the server for the CPU; the
figures are an upper bound on the service's own latency.

Target: p99 under 20 ms for a 30-word quote on a cached paper with 16 clients, 0 errors.

    python benchmarks/serve_bench.py [--clients 16] [--seconds 10] [--words 30] [--paper PATH] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from quotelocate import Document, Locator  # noqa: E402
from quotelocate.data.papers import find_paper  # noqa: E402

MAX_CLIENTS, MAX_SECONDS = 64, 120


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def pick_quote(locator: Locator, words: int) -> str:
    """A faithful quote from the bundled attention-v7 set with the word count closest to
    ``words`` (the set's quotes are written the way a model copies them)."""
    import yaml

    data = yaml.safe_load((REPO / "datasets" / "attention-v7.yaml").read_text(encoding="utf-8"))
    faithful = [q["text"] for q in data["quotes"] if q["label"] == "faithful"]
    faithful.sort(key=lambda t: (abs(len(t.split()) - words), t))
    for text in faithful:
        if locator.locate(text).accepted:
            return text
    raise SystemExit("no accepted quote found in the attention-v7 set")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "quotelocate", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(f"server exited: {proc.stderr.read().decode()}") from None
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not start in 60 s")


def upload(port: int, pdf: bytes, quote: str) -> str:
    boundary = uuid.uuid4().hex
    request = json.dumps({"quotes": [quote]}).encode()
    body = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"document\"; filename=\"paper.pdf\"\r\n"
        "Content-Type: application/pdf\r\n\r\n"
    ).encode() + pdf + (
        f"\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"request\"\r\n\r\n"
    ).encode() + request + f"\r\n--{boundary}--\r\n".encode()  # fmt: skip
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/verify", data=body, method="POST",
                                 headers={"content-type": f"multipart/form-data; boundary={boundary}"})  # fmt: skip
    with urllib.request.urlopen(req, timeout=300) as r:
        answer = json.loads(r.read())
    if not answer["verdicts"][0]["accepted"]:
        raise SystemExit(f"the benchmark quote was rejected by the service: {answer['verdicts'][0]['reason']}")
    return answer["sha256"]


def client_threads(port: int, body: bytes, threads: int, until: float, out) -> None:
    """Run ``threads`` clients until ``until`` (time.time()); put (latencies, errors)."""
    lat: list[float] = []
    server: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def one() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        spent: list[float] = []
        bad = 0
        while time.time() < until:
            t = time.perf_counter()
            try:
                conn.request("POST", "/v1/verify", body, {"content-type": "application/json"})
                r = conn.getresponse()
                data = r.read()
                ok = r.status == 200 and json.loads(data)["verdicts"][0]["accepted"]
                timing = r.getheader("server-timing", "")
                if ok and "dur=" in timing:
                    spent.append(float(timing.rsplit("dur=", 1)[1]) / 1e3)
            except (OSError, http.client.HTTPException, ValueError, KeyError):
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine.append(time.perf_counter() - t)
            bad += not ok
        conn.close()
        with lock:
            lat.extend(mine)
            server.extend(spent)
            errors[0] += bad

    workers = [threading.Thread(target=one) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    out.put((lat, errors[0], server))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--words", type=int, default=30)
    ap.add_argument("--paper", help="PDF (default: 1706.03762v7.pdf on the papers search path)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not 1 <= args.clients <= MAX_CLIENTS or not 0 < args.seconds <= MAX_SECONDS:
        ap.error(f"--clients must be 1..{MAX_CLIENTS} and --seconds 0..{MAX_SECONDS}")
    paper = Path(args.paper) if args.paper else find_paper("1706.03762v7.pdf")
    if paper is None:
        ap.error("1706.03762v7.pdf is not on the papers search path; set QUOTELOCATE_PAPERS or pass --paper")

    locator = Locator(Document.open(paper))
    quote = pick_quote(locator, args.words)
    for _ in range(50):
        locator.locate(quote).to_dict()  # warm, as the service is after the upload
    inproc, inproc_dict = [], []
    for _ in range(2000):
        t = time.perf_counter()
        locator.locate(quote)
        inproc.append(time.perf_counter() - t)
        t = time.perf_counter()
        locator.locate(quote).to_dict()
        inproc_dict.append(time.perf_counter() - t)

    port = free_port()
    server = start_server(port)
    try:
        sha = upload(port, paper.read_bytes(), quote)
        body = json.dumps({"sha256": sha, "quotes": [{"id": "q", "quote": quote}]}).encode()
        procs = 2 if args.clients >= 8 else 1
        until = time.time() + args.seconds
        queue: multiprocessing.Queue = multiprocessing.Queue()
        shares = [args.clients // procs + (i < args.clients % procs) for i in range(procs)]
        workers = [multiprocessing.Process(target=client_threads, args=(port, body, n, until, queue)) for n in shares]
        t0 = time.time()
        for w in workers:
            w.start()
        results = [queue.get(timeout=args.seconds + 120) for _ in workers]
        for w in workers:
            w.join()
        elapsed = time.time() - t0
    finally:
        server.terminate()
        server.wait(timeout=10)
    lat = [x for r in results for x in r[0]]
    errors = sum(r[1] for r in results)
    spent = [x for r in results for x in r[2]]
    p50, p99 = percentile(lat, 50), percentile(lat, 99)
    in50 = statistics.median(inproc)
    ind50 = statistics.median(inproc_dict)
    report = {
        "paper": paper.name,
        "quote_words": len(quote.split()),
        "clients": args.clients,
        "seconds": round(elapsed, 1),
        "requests": len(lat),
        "requests_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(p50 * 1e3, 2),
        "p99_ms": round(p99 * 1e3, 2),
        "errors": errors,
        "server_p50_ms": round(percentile(spent, 50) * 1e3, 2),
        "server_p99_ms": round(percentile(spent, 99) * 1e3, 2),
        "inprocess_locate_p50_ms": round(in50 * 1e3, 3),
        "inprocess_locate_to_dict_p50_ms": round(ind50 * 1e3, 3),
        "inprocess_locate_per_s": round(1 / in50, 1),
        "service_p50_over_locate_p50": round(p50 / in50, 1),
        "service_rps_over_locate_per_s": round((len(lat) / elapsed) * in50, 3),
        "target_p99_under_20ms": p99 < 0.020 and errors == 0,
    }
    if args.json:
        print(json.dumps(report))
    else:
        for k, v in report.items():
            print(f"{k:32s} {v}")
    return 0 if report["target_p99_under_20ms"] else 1


if __name__ == "__main__":
    sys.exit(main())
