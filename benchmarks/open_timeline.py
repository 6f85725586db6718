"""Where the time of one default ``Document.open`` goes: a timeline per open, in
milliseconds from the start of the open, of the caller's steps and each extraction
worker's.

For each worker: when it had opened the file, was through with its pages, had encoded
its reply and had freed its pages' objects; for the caller: when the file was sent,
each read of a reply's bytes (with how many), the early decode, the decode of the rest,
the assembly and the end of the open. The last line sums up the opens: the median time
from a worker's reply being encoded to the caller's first read of more than its length
line from that worker (a worker that holds its reply back, or a caller that gets no
core, shows here), and from the last reply being encoded to the end of the open.

It patches the module's functions for the run (timestamps are written, with the
process id, to a temporary file that the workers open by name): a diagnostic, not a
benchmark, and it slows each step a little.

    python benchmarks/open_timeline.py [PAPER] [--opens N]

PAPER is a corpus file name or a path (default: the ACL paper of the corpus).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import quotelocate.document as D  # noqa: E402
from quotelocate import Document  # noqa: E402
from quotelocate.data.papers import find_paper  # noqa: E402

_LOG = Path(tempfile.gettempdir()) / f"quotelocate-open-timeline-{os.getpid()}.log"


def _mark(what: str) -> None:
    fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, f"{what}:{os.getpid()}:{time.perf_counter()}\n".encode())
    finally:
        os.close(fd)


def _after(name: str, label: str | None = None) -> None:
    real = getattr(D, name)

    def patched(*args, **kwargs):
        result = real(*args, **kwargs)
        _mark(label or name.strip("_"))
        return result

    setattr(D, name, patched)


def _patch() -> None:
    for name in ("_open_checked", "_extract_pages", "_encode_reply", "_release", "_decode_replies", "_assemble"):
        _after(name)
    read, early, collect = os.read, D._decode_early, D._Pool._collect

    def reading(fd, n):
        data = read(fd, n)
        if n == 1 << 20:  # the caller's reads of a worker's pipe: which worker, how many bytes
            pid = next((proc.pid for proc in D._POOL._procs if proc.recv == fd), 0)
            _mark(f"read {len(data)} from {pid}")
        return data

    def decoding_early(blob):
        _mark("early decode from")
        result = early(blob)
        _mark("early decode to")
        return result

    def collecting(self, *args, **kwargs):
        _mark("sent")
        return collect(self, *args, **kwargs)

    D.os.read = reading  # the module's os is this os: the caller's reads and the workers'
    D._decode_early = decoding_early
    D._Pool._collect = collecting


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paper", nargs="?", default="acl2020_specter.pdf")
    parser.add_argument("--opens", type=int, default=3)
    args = parser.parse_args(argv)
    paper = find_paper(args.paper) if not Path(args.paper).exists() else Path(args.paper)
    if paper is None:
        print(f"{args.paper} is not on the papers search path; set QUOTELOCATE_PAPERS", file=sys.stderr)
        return 2
    _patch()  # before the workers start: they are forks of this process
    Document.open(paper)  # start the workers, outside the timelines
    waits, tails = [], []
    try:
        for _ in range(args.opens):
            _LOG.write_text("")
            start = time.perf_counter()
            _mark("start")
            Document.open(paper)
            _mark("end")
            time.sleep(0.2)  # the workers free their pages after the open returns
            events = []
            for line in _LOG.read_text().split("\n"):
                if line:
                    what, pid, at = line.rsplit(":", 2)
                    who = "caller" if int(pid) == os.getpid() else f"worker {pid}"
                    events.append((float(at) - start, who, what))
            events.sort()
            print("  ".join(f"{who} {what} {at * 1000:.1f}" for at, who, what in events))
            encoded = [(at, who) for at, who, what in events if what == "encode_reply"]
            for at, who in encoded:  # the first read of more than the length line from that worker
                pid = who.split()[-1]
                got = [t for t, by, what in events if by == "caller" and what.startswith("read ")
                       and what.endswith(f" from {pid}") and int(what.split()[1]) > 64 and t >= at]
                if got:
                    waits.append(got[0] - at)
            end = max(at for at, who, what in events if what == "end")
            tails.append(end - max(at for at, _ in encoded))
    finally:
        _LOG.unlink(missing_ok=True)
    print(f"median over {args.opens} opens: a reply encoded to the caller reading it "
          f"{statistics.median(waits) * 1000:.1f} ms; the last reply encoded to the end of the open "
          f"{statistics.median(tails) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
