"""Evaluate every real-paper set and report false rejects and false accepts, per paper and overall.

    python benchmarks/real_corpus_eval.py [--config recommended] [--out FILE.md] [SET.yaml ...]

Each ``datasets/real-corpus/<paper>.yaml`` is one paper's labelled quotes; this runs
:func:`quotelocate.evaluation.evaluate` on each under one rule configuration and adds the
counts up. The rates carry 95% Wilson intervals from :func:`quotelocate.evaluation.wilson`
(the evaluation module's own statistics). The per-paper rows are printed as a Markdown
table (and written to ``--out``); the overall row pools every quote of every paper.

Exit status: 0 when no fabricated quote is accepted, 1 when one is (the accepted ids are
listed), 2 when a set cannot be loaded (a missing paper names the search path).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from quotelocate.data.quoteset import QuoteSet, load_quote_set  # noqa: E402
from quotelocate.errors import QuotelocateError  # noqa: E402
from quotelocate.evaluation.run import evaluate  # noqa: E402
from quotelocate.evaluation.stats import wilson  # noqa: E402

SETS_DIR = REPO / "datasets" / "real-corpus"


@dataclass(frozen=True)
class PaperResult:
    """One paper's counts under one config, with the ids behind them."""

    set_name: str
    paper: str
    n_faithful: int
    n_fabricated: int
    false_rejects: tuple[str, ...]
    false_accepts: tuple[str, ...]
    off_anchor: tuple[str, ...]  # accepted faithful quotes whose span misses the labelled anchor


@dataclass(frozen=True)
class CorpusResult:
    config: str
    papers: tuple[PaperResult, ...]

    @property
    def n_faithful(self) -> int:
        return sum(p.n_faithful for p in self.papers)

    @property
    def n_fabricated(self) -> int:
        return sum(p.n_fabricated for p in self.papers)

    @property
    def false_rejects(self) -> tuple[str, ...]:
        return tuple(i for p in self.papers for i in p.false_rejects)

    @property
    def false_accepts(self) -> tuple[str, ...]:
        return tuple(i for p in self.papers for i in p.false_accepts)


def set_paths() -> list[Path]:
    return sorted(SETS_DIR.glob("*.yaml"))


def evaluate_paper(path: Path, config: str = "recommended") -> PaperResult:
    return evaluate_set(load_quote_set(path), config)


def evaluate_set(qs: QuoteSet, config: str = "recommended") -> PaperResult:
    """One loaded set under ``config``, through :func:`quotelocate.evaluation.evaluate`."""
    ev = evaluate(qs, [config], repeats=1)
    v = ev.verdicts[ev.verdicts["config"] == config]
    faithful = v[v["label"] == "faithful"]
    fabricated = v[v["label"] == "fabricated"]
    accepted = faithful[faithful["accepted"]]
    return PaperResult(
        set_name=qs.name,
        paper=qs.paper.file,
        n_faithful=len(faithful),
        n_fabricated=len(fabricated),
        false_rejects=tuple(faithful.loc[~faithful["accepted"], "id"]),
        false_accepts=tuple(fabricated.loc[fabricated["accepted"], "id"]),
        off_anchor=tuple(accepted.loc[accepted["anchor_ok"].fillna(True) == False, "id"]),  # noqa: E712
    )


def evaluate_corpus(paths: list[Path] | None = None, config: str = "recommended") -> CorpusResult:
    """Every per-paper set under ``config``."""
    return CorpusResult(config=config, papers=tuple(evaluate_paper(p, config) for p in (paths or set_paths())))


def _rate(count: int, n: int) -> str:
    rate, low, high = wilson(count, n)
    if n == 0:
        return "n/a"
    return f"{count}/{n} = {100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def table(result: CorpusResult) -> str:
    """The per-paper and overall figures as a Markdown table (95% Wilson intervals)."""
    lines = [
        f"Real-paper sets under `{result.config}` (rates with 95% Wilson intervals)",
        "",
        "| paper | faithful | fabricated | false reject | false accept | accepted off the anchor |",
        "| --- | ---: | ---: | --- | --- | ---: |",
    ]
    for p in result.papers:
        lines.append(
            f"| {p.paper} | {p.n_faithful} | {p.n_fabricated} | {_rate(len(p.false_rejects), p.n_faithful)} | "
            f"{_rate(len(p.false_accepts), p.n_fabricated)} | {len(p.off_anchor)} |"
        )
    lines.append(
        f"| **all {len(result.papers)} papers** | {result.n_faithful} | {result.n_fabricated} | "
        f"{_rate(len(result.false_rejects), result.n_faithful)} | "
        f"{_rate(len(result.false_accepts), result.n_fabricated)} | "
        f"{sum(len(p.off_anchor) for p in result.papers)} |"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="*", type=Path, help="set files (default: datasets/real-corpus/*.yaml)")
    ap.add_argument("--config", default="recommended", help="rule preset (default: %(default)s)")
    ap.add_argument("--out", type=Path, help="also write the Markdown table here")
    ap.add_argument("--ids", action="store_true", help="list the falsely rejected quote ids per paper")
    args = ap.parse_args(argv)
    paths = args.sets or set_paths()
    if not paths:
        print(f"error: no sets in {SETS_DIR}", file=sys.stderr)
        return 2
    try:
        result = evaluate_corpus(paths, args.config)
    except QuotelocateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = table(result)
    if args.ids:
        text += "\n" + "\n".join(f"- {p.paper}: {', '.join(p.false_rejects) or 'none'}" for p in result.papers) + "\n"
    print(text, end="")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    if result.false_accepts:
        print(f"FALSE ACCEPTS: {', '.join(result.false_accepts)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
