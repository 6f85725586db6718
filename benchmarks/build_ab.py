"""The cold layout build of an older checkout against this one, interleaved in one process.

A change to the layout reader, the normalizer or the index that should make the build
faster is measured against the code before it: the older checkout's package is loaded
beside this one under another name, and per paper the two builds (``Locator`` with
``recommended``, layout on, reading order forgotten first) alternate, one round after
another, so a slow spell of a shared machine slows both. Per paper: the median build
of each, and the median of the rounds' new/old ratios; then the median of those
ratios over the papers. Both open the paper in-process; only the build is timed.
With ``--open``, each round opens the paper the default way (in each package's own
extraction workers) and builds the index of the document it opened, timed together:
what a change to extraction costs or saves the caller. With ``--extract``, each round
opens the paper in-process (``isolate=False``: the whole extraction on one core, the
steadier figure) and nothing else.

    git worktree add /tmp/before <commit>
    python benchmarks/build_ab.py /tmp/before [--paper NAME ...] [--repeats R] [--open | --extract]
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import CORPUS  # noqa: E402

OLD_NAME = "quotelocate_before"


def _packages(old_checkout: Path, scratch: Path) -> dict[str, object]:
    """This checkout's package and the older one's, importable side by side (the
    package imports itself relatively, so a copy under another name is that code)."""
    source = old_checkout / "quotelocate"
    if not (source / "__init__.py").is_file():
        raise SystemExit(f"{old_checkout}: no quotelocate package there (give the older checkout's top folder)")
    shutil.copytree(source, scratch / OLD_NAME, ignore=shutil.ignore_patterns("__pycache__"))
    sys.path.insert(0, str(scratch))
    return {"old": importlib.import_module(OLD_NAME), "new": importlib.import_module("quotelocate")}


def _builder(package, name: str, mode: str = "build"):
    """A function that builds the paper's layout index cold with ``package`` (``open``:
    that opens the paper and builds the index of what it opened; ``extract``: that opens
    it in-process)."""
    papers = importlib.import_module(package.__name__ + ".data.papers")
    forget = importlib.import_module(package.__name__ + ".prepare").forget
    path = papers.find_paper(name)
    if path is None:
        raise SystemExit(f"{name} is not on the papers search path; set QUOTELOCATE_PAPERS")
    doc = package.Document.open(path, isolate=False)
    rules = package.preset("recommended").replace(layout=True)
    package.Locator(doc, rules)  # once untimed: imports and compiled rules

    def build() -> None:
        forget(doc)
        package.Locator(doc, rules)

    def open_and_build() -> None:
        package.Locator(package.Document.open(path), rules)

    def extract() -> None:
        package.Document.open(path, isolate=False)

    if mode == "open":
        open_and_build()  # once untimed: the package's extraction workers start
        return open_and_build
    return extract if mode == "extract" else build


def run(old_checkout: Path, names: list[str], repeats: int, mode: str = "build") -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        packages = _packages(old_checkout, Path(scratch))
        rows = []
        for name in names:
            builds = {side: _builder(package, name, mode) for side, package in packages.items()}
            times: dict[str, list[float]] = {"old": [], "new": []}
            for k in range(repeats):
                for side in ("old", "new") if k % 2 == 0 else ("new", "old"):
                    t = time.perf_counter()
                    builds[side]()
                    times[side].append(time.perf_counter() - t)
            ratio = statistics.median(n / o for n, o in zip(times["new"], times["old"]))
            rows.append({"paper": name, "old_s": statistics.median(times["old"]),
                         "new_s": statistics.median(times["new"]), "ratio": ratio})
    return {"repeats": repeats, "mode": mode, "papers": rows,
            "median_ratio": statistics.median(r["ratio"] for r in rows),
            "total_ratio": sum(r["new_s"] for r in rows) / sum(r["old_s"] for r in rows)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="the older checkout's top folder (a git worktree)")
    parser.add_argument("--paper", action="append", help="a paper on the papers search path (default: the corpus)")
    parser.add_argument("--repeats", type=int, default=11, help="rounds per paper (default 11)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--open", action="store_true", help="time the default open and the build of what it opened")
    what.add_argument("--extract", action="store_true", help="time the open in-process alone")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats: at least 1")
    mode = "open" if args.open else "extract" if args.extract else "build"
    result = run(args.old, args.paper or list(CORPUS), args.repeats, mode)
    what = {"open": "default open + layout build", "extract": "in-process open", "build": "cold layout build"}[mode]
    print(f"{what}, median of {result['repeats']} interleaved rounds per paper")
    print(f"  {'paper':48} {'old ms':>8} {'new ms':>8} {'new/old':>8}")
    for r in result["papers"]:
        print(f"  {r['paper']:48} {r['old_s'] * 1000:8.1f} {r['new_s'] * 1000:8.1f} {r['ratio']:8.3f}")
    print(f"  median new/old over the papers: {result['median_ratio']:.3f}; "
          f"sum of the new medians / sum of the old: {result['total_ratio']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
