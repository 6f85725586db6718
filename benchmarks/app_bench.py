"""Workbench re-render time after a rule toggle, and the playground's answer time for a
pasted quote, on a 200-quote set with the paper cached.

Drives ``app.py`` with ``streamlit.testing.v1.AppTest`` on ``attention-v7`` (200 quotes;
its paper must be on ``QUOTELOCATE_PAPERS``). The first run opens the paper and is not
counted. Then each of five toggles switches one more rule, so every run evaluates a
config that is not cached yet (the realistic case), and each toggle is undone once the
five are measured, which re-renders from the evaluation cache. Prints the median (and
all five) of both; the target is a median below 1 s for the uncached toggle.

Playground: with the paper and its index cached, twelve quotes of the set (faithful and
fabricated, every sixteenth) are pasted one after the other. Measured: the answer (the
verdict and its per-rule trace, the time the view shows), and the whole re-render of the
page (the answer, the page image with its highlight, the widgets). The target is an
answer below 200 ms for every quote; the re-render is reported beside it.

    QUOTELOCATE_PAPERS=../shared/papers .venv/bin/python benchmarks/app_bench.py [--set NAME] [--view Evaluate]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_S = 1.0
PLAYGROUND_TARGET_MS = 200.0
# (widget kind, key, value after the toggle): each one changes the rules fingerprint again
TOGGLES = (
    ("checkbox", "quotes", False),
    ("checkbox", "invisible", False),
    ("selectbox", "unicode", "ligatures"),
    ("checkbox", "furniture", False),
    ("selectbox", "hyphenation", "keep"),
)


def _set(at, kind: str, key: str, value) -> None:
    widget = getattr(at, kind)(key=key)
    if kind == "checkbox":
        widget.check() if value else widget.uncheck()
    else:
        widget.select(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="attention-v7", help="quote set (default attention-v7, 200 quotes)")
    parser.add_argument("--view", default="Evaluate", help="view open while toggling (default Evaluate)")
    args = parser.parse_args(argv)

    os.environ.setdefault("QUOTELOCATE_RUNS", str(Path(tempfile.mkdtemp()) / "runs.sqlite3"))
    os.chdir(REPO)
    from streamlit.testing.v1 import AppTest

    from quotelocate.data.quoteset import load_quote_set
    from quotelocate.errors import QuotelocateError

    try:
        n = len(load_quote_set(args.set))
    except QuotelocateError as exc:
        print(f"app_bench: {exc}", file=sys.stderr)
        return 2

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
    at.query_params.update({"set": args.set, "view": args.view})
    t0 = time.perf_counter()
    at.run()
    first = time.perf_counter() - t0
    if at.exception or at.error:
        print("app_bench: the app failed:", [e.value for e in at.exception] + [e.value for e in at.error], file=sys.stderr)
        return 1
    original = {key: getattr(at, kind)(key=key).value for kind, key, _ in TOGGLES}

    uncached = []
    for kind, key, value in TOGGLES:
        _set(at, kind, key, value)
        t0 = time.perf_counter()
        at.run()
        uncached.append(time.perf_counter() - t0)
        assert not at.exception, [e.value for e in at.exception]
    cached = []
    for kind, key, _ in reversed(TOGGLES):
        _set(at, kind, key, original[key])
        t0 = time.perf_counter()
        at.run()
        cached.append(time.perf_counter() - t0)

    answers, renders = playground(at, load_quote_set(args.set))

    med = statistics.median(uncached)
    print(f"set {args.set}: {n} quotes, view {args.view}; first run (opens the paper) {first:.2f} s")
    print(f"re-render after a toggle, new config (median of 5): {med:.3f} s  "
          f"[{', '.join(f'{x:.3f}' for x in uncached)}]")
    print(f"re-render after a toggle, cached config (median of 5): {statistics.median(cached):.3f} s  "
          f"[{', '.join(f'{x:.3f}' for x in cached)}]")
    print(f"target < {TARGET_S:.1f} s: {'met' if med < TARGET_S else 'NOT met'}")
    worst = max(answers)
    print(f"playground answer (verdict + per-rule trace), {len(answers)} pasted quotes: median "
          f"{statistics.median(answers):.1f} ms, max {worst:.1f} ms; whole re-render median "
          f"{1000 * statistics.median(renders):.0f} ms, max {1000 * max(renders):.0f} ms")
    print(f"target answer < {PLAYGROUND_TARGET_MS:.0f} ms: {'met' if worst < PLAYGROUND_TARGET_MS else 'NOT met'}")
    return 0 if med < TARGET_S and worst < PLAYGROUND_TARGET_MS else 1


def playground(at, quote_set) -> tuple[list[float], list[float]]:
    """Paste quotes into the Playground view: (answer ms as the view reports it, re-render seconds)."""
    import re

    at.session_state["view"] = "Playground"
    at.run()  # opens the view; the locator for these rules is cached from here on
    answers, renders = [], []
    for quote in quote_set.quotes[::16][:12]:
        at.text_area(key="pg_quote").input(quote.text)
        t0 = time.perf_counter()
        at.run()
        renders.append(time.perf_counter() - t0)
        assert not at.exception, [e.value for e in at.exception]
        shown = " ".join(e.value for e in [*at.success, *at.error])
        m = re.search(r"answered in (\d+) ms", shown)
        if m is None:  # an invalid quote is answered too; its message has the time as well
            raise AssertionError(f"no answer time shown for {quote.id}: {shown!r}")
        answers.append(float(m.group(1)))
    return answers, renders


if __name__ == "__main__":
    sys.exit(main())
