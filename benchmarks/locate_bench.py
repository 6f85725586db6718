"""Locator speed on arXiv 1706.03762v7, all figures measured in one run.

Reports, as medians over --repeats runs:
* pymupdf's own plain-text extraction time, Document.open time, Locator build time;
* locate throughput and p50/p99 latency for accepted and for rejected quotes;
* the naive approach (normalize the whole document on every call, then search);
* plain ``str.find``: the pre-normalized document text searched with
  ``text.find(normalize_text(quote))``, i.e. the same normalizer without offset map,
  occurrence checks or verdict; and, for reference, a bare ``find`` of a quote that
  was normalized in advance ("bare_find").

Verdict boxes are computed on first access (``Verdict.boxes``), so they are not part
of the locate timings.

Targets: locate >= 100x the naive approach, and >= 50% of plain str.find throughput
for accepted quotes. The str.find comparison is interleaved quote by quote (locate, then
find, then find, then locate, ...) so that both see the same machine state, and is
reported as the median of the per-quote ratios with its interquartile range: timing the
two in separate blocks let a noisy moment land on one side only.

    python benchmarks/locate_bench.py [--paper PATH] [--quotes N] [--repeats R] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from quotelocate import Document, Locator, preset  # noqa: E402
from quotelocate.document import plain_text  # noqa: E402
from quotelocate.normalize import Context, normalize, normalize_text  # noqa: E402
from quotelocate.prepare import forget  # noqa: E402
from quotelocate.data.papers import find_paper  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import timed  # noqa: E402



def latencies(fn, quotes, repeats):
    """Per-quote median latency over repeats (seconds)."""
    per = [[] for _ in quotes]
    for _ in range(repeats):
        for i, q in enumerate(quotes):
            t = time.perf_counter()
            fn(q)
            per[i].append(time.perf_counter() - t)
    return [statistics.median(p) for p in per]


def interleaved_ratios(fast, slow, quotes, repeats):
    """Per quote, median(fast) / median(slow) over ``repeats`` runs timed alternately."""
    ratios = []
    perf = time.perf_counter
    for q in quotes:
        tf, ts = [], []
        for r in range(repeats):
            order = ((fast, tf), (slow, ts)) if r % 2 == 0 else ((slow, ts), (fast, tf))
            for fn, into in order:
                t = perf()
                fn(q)
                into.append(perf() - t)
        ratios.append(statistics.median(tf) / statistics.median(ts))
    return ratios


def summary(lat):
    lat = sorted(lat)
    pct = lambda p: lat[min(len(lat) - 1, int(p / 100 * len(lat)))]  # noqa: E731
    return {"qps": len(lat) / sum(lat), "p50_us": pct(50) * 1e6, "p99_us": pct(99) * 1e6}


def make_quotes(doc, loc, n, seed=7):
    """Accepted quotes: model-style renderings of random 8-30 word spans of the text;
    rejected ones: the same with one digit or one word changed."""
    rng = random.Random(seed)
    norm = loc.norm.text
    words = [m.span() for m in re.finditer(r"\S+", norm)]
    accepted, rejected = [], []
    while len(accepted) < n:
        i = rng.randrange(len(words) - 31)
        j = i + rng.randint(8, 30)
        q = norm[words[i][0] : words[j][1]]
        if "\x00" in q:
            continue
        v = loc.locate(q)
        if not v.accepted:
            continue
        accepted.append(q)
        parts = q.split(" ")
        k = rng.randrange(len(parts))
        parts[k] = parts[k] + "x"
        rejected.append(" ".join(parts))
    return accepted, rejected


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default=None)
    ap.add_argument("--quotes", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--naive-quotes", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    path = args.paper or find_paper("1706.03762v7.pdf")
    if path is None:
        sys.exit("1706.03762v7.pdf not found: set QUOTELOCATE_PAPERS or pass --paper")
    rules = preset("recommended")
    doc = Document.open(path)

    res = {"paper": str(path), "rules": rules.fingerprint, "repeats": args.repeats, "quotes": args.quotes}
    res["pymupdf_extract_ms"] = timed(lambda: plain_text(path), args.repeats) * 1e3
    res["document_open_ms"] = timed(lambda: Document.open(path), args.repeats) * 1e3
    def cold_build():  # the layout reading order is cached per document: time a first build
        forget(doc)
        return Locator(doc, rules)

    res["index_build_ms"] = timed(cold_build, args.repeats) * 1e3
    loc = Locator(doc, rules)
    accepted, rejected = make_quotes(doc, loc, args.quotes)
    assert all(loc.locate(q).accepted for q in accepted)
    assert not any(loc.locate(q).accepted for q in rejected)

    res["locate_accepted"] = summary(latencies(loc.locate, accepted, args.repeats))
    res["locate_rejected"] = summary(latencies(loc.locate, rejected, args.repeats))

    ctx = Context(page_starts=doc.page_starts)

    def naive(q):
        text = normalize(doc.text, rules, context=ctx).text
        return text.find(normalize_text(q, rules))

    sub = accepted[: args.naive_quotes]
    res["naive_accepted"] = summary(latencies(naive, sub, max(1, args.repeats // 2)))

    pre = loc.norm.text

    def plain_find(q):
        return pre.find(normalize_text(q, rules))

    res["str_find_accepted"] = summary(latencies(plain_find, accepted, args.repeats))
    res["str_find_rejected"] = summary(latencies(plain_find, rejected, args.repeats))
    pre_quotes = [normalize_text(q, rules) for q in accepted]
    res["bare_find_accepted"] = summary(latencies(pre.find, pre_quotes, args.repeats))

    acc = res["locate_accepted"]["qps"]
    res["speedup_vs_naive"] = acc / res["naive_accepted"]["qps"]
    ratios = sorted(interleaved_ratios(plain_find, loc.locate, accepted, max(args.repeats, 5)))
    quart = statistics.quantiles(ratios, n=4)
    res["fraction_of_str_find"] = statistics.median(ratios)
    res["fraction_of_str_find_iqr"] = [quart[0], quart[2]]
    res["fraction_of_bare_find"] = acc / res["bare_find_accepted"]["qps"]
    res["build_vs_extract"] = res["index_build_ms"] / res["pymupdf_extract_ms"]

    if args.json:
        print(json.dumps(res, indent=2))
        return
    print(f"paper {path}  rules {rules.fingerprint}  {args.quotes} quotes x {args.repeats} repeats (medians)")
    print(f"pymupdf plain-text extraction   {res['pymupdf_extract_ms']:8.1f} ms")
    print(f"Document.open (text + boxes)    {res['document_open_ms']:8.1f} ms")
    print(f"Locator index build             {res['index_build_ms']:8.1f} ms  ({res['build_vs_extract']:.2f}x extraction)")
    for name in ("locate_accepted", "locate_rejected", "naive_accepted", "str_find_accepted", "str_find_rejected", "bare_find_accepted"):
        s = res[name]
        print(f"{name:30s} {s['qps']:10.0f} quotes/s   p50 {s['p50_us']:9.1f} us   p99 {s['p99_us']:9.1f} us")
    print(f"locate vs naive (accepted)      {res['speedup_vs_naive']:8.0f}x   (target >= 100x)")
    lo, hi = res["fraction_of_str_find_iqr"]
    print(f"locate vs str.find (accepted)   {res['fraction_of_str_find']:8.0%}   IQR [{lo:.0%}, {hi:.0%}] "
          "(target >= 50%; per-quote ratio, interleaved; str.find of the normalized quote)")
    print(f"locate vs bare find (accepted)  {res['fraction_of_bare_find']:8.0%}   (quote normalized in advance, no verdict)")


if __name__ == "__main__":
    main()
