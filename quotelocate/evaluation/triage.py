"""Triage of a pipeline's unlabelled outputs: where the verdicts fall, which quotes a
person should look at first, and how many rejections a labelled sample says are wrong.

:func:`triage` locates every record of an outputs file (:mod:`quotelocate.data.outputs`)
under one rule set, opening each paper once, and returns a :class:`Triage`:

* the status and cause counts per paper and per cited chunk (:class:`Distribution`);
* the review queue (:class:`TriageItem`), in this order: *near misses* (rejected, but
  a close passage exists; highest similarity first, since the closer the passage the
  likelier the model copied it and the extraction or a rule is at fault), then
  *group-fallback* quotes (accepted outside the cited chunk: the citation may be off by
  one), then *outside-material* quotes (in the paper, but not in what the model was
  shown: rejected, and the model may have quoted from memory or from another chunk);
* an estimate of the false-reject rate from the records that carry a ``label``
  (:class:`RejectEstimate`).

The estimate assumes the labelled records are a random sample of the outputs: a sample
picked because its quotes looked suspicious (or were rejected) gives a biased rate, and
the report says which assumption it rests on.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from ..chunks import Chunking
from ..errors import PaperNotFoundError, QuoteInputError
from ..normalize import Rules, preset
from .formatting import format_rate
from .stats import wilson

if TYPE_CHECKING:  # pragma: no cover
    from ..data.outputs import OutputRecord
    from ..data.papers import PathsArg
    from ..document import Document
    from ..extraction_cache import ExtractionCache
    from ..locate import Verdict

NEAR_MISS, GROUP_FALLBACK, OUTSIDE_MATERIAL = "near-miss", "group-fallback", "outside-material"
KINDS = (NEAR_MISS, GROUP_FALLBACK, OUTSIDE_MATERIAL)
"""The kinds of review item, in the order the queue lists them."""

ASSUMPTION = ("the labelled records are a random sample of the outputs; a sample chosen because the "
              "quotes looked doubtful, or because they were rejected, biases the estimate")


@dataclass(frozen=True)
class Distribution:
    """Verdict counts for one ``paper`` (``cited_chunk`` None and ``per_chunk`` False),
    or for one cited chunk of it (``cited_chunk`` None then means no chunk was cited):
    ``n`` records, ``accepted`` of them, counts by ``statuses`` and, for the rejected
    ones, by ``causes``."""

    paper: str
    cited_chunk: int | None
    per_chunk: bool
    n: int
    accepted: int
    statuses: Mapping[str, int]
    causes: Mapping[str, int]

    def to_dict(self) -> dict:
        out: dict = {"paper": self.paper}
        if self.per_chunk:
            out["cited_chunk"] = self.cited_chunk
        out.update(n=self.n, accepted=self.accepted, statuses=dict(self.statuses), causes=dict(self.causes))
        return out


@dataclass(frozen=True)
class TriageItem:
    """One quote worth a look: its ``rank`` (1 first), ``kind`` (:data:`KINDS`), the
    ``record``, its ``verdict``, the verdict's ``reason``, the ``similarity`` of the
    closest passage (0-100; None for a quote that was found), the ``passage`` (the closest
    one for a near miss, the one found otherwise), its ``page`` and its ``start``/``end``
    in the document text (what a page image highlights)."""

    rank: int
    kind: str
    record: OutputRecord
    verdict: Verdict
    reason: str
    similarity: float | None
    passage: str
    page: int | None
    start: int | None
    end: int | None

    def to_dict(self) -> dict:
        r = self.record
        return {
            "rank": self.rank, "kind": self.kind, "id": r.id, "line": r.line, "paper": r.paper,
            "cited_chunk": r.cited_chunk, "label": r.label, "quote": r.quote,
            "status": self.verdict.status, "cause": self.verdict.cause, "reason": self.reason,
            "similarity": None if self.similarity is None else round(self.similarity, 2),
            "passage": self.passage, "page": self.page, "start": self.start, "end": self.end,
        }  # fmt: skip


@dataclass(frozen=True)
class RejectEstimate:
    """What the labelled sample says about rejections.

    ``sample``: records with a label; ``faithful``/``fabricated``: how they split;
    ``false_rejects``: faithful ones rejected; ``rate`` (``low``, ``high``): false
    rejects / faithful with its Wilson 95% interval; ``sample_rejected``: labelled
    records rejected; ``share`` (``share_low``, ``share_high``): the part of them that is
    faithful, the estimate of how many of all ``rejected`` records are false rejections;
    ``false_accepts``: fabricated ones accepted. Rates are NaN when their sample is empty."""

    sample: int
    faithful: int
    fabricated: int
    false_rejects: int
    rate: float
    low: float
    high: float
    rejected: int
    sample_rejected: int
    share: float
    share_low: float
    share_high: float
    false_accepts: int
    assumption: str = ASSUMPTION

    def sentences(self) -> list[str]:
        """The estimate in words, as the command line and the workbench state it."""
        if self.sample == 0:
            return ["No record carries a label (faithful or fabricated), so the false-reject rate cannot be "
                    "estimated: label a random sample of the outputs to get one."]
        out = [
            (f"False-reject rate: {format_rate(self.rate, self.low, self.high)} (Wilson 95%): "
             f"{self.false_rejects} of {self.faithful} faithful quotes in a labelled sample of {self.sample} "
             f"({self.fabricated} fabricated) were rejected."),
            (f"Rejections that are false: {format_rate(self.share, self.share_low, self.share_high)}: "
             f"{self.false_rejects} of the {self.sample_rejected} rejected labelled quotes are faithful; of all "
             f"{self.rejected} rejections that suggests "
             + (f"{_count(self.share_low, self.rejected)} to {_count(self.share_high, self.rejected)} are false."
                if self.sample_rejected else "nothing (no labelled quote was rejected).")),
        ]
        if self.false_accepts:
            out.append(f"{self.false_accepts} fabricated quote(s) in the sample were accepted: look at them first.")
        out.append(f"Assumes {self.assumption}.")
        return out

    def to_dict(self) -> dict:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 6)

        return {
            "sample": self.sample, "faithful": self.faithful, "fabricated": self.fabricated,
            "false_rejects": self.false_rejects, "rate": num(self.rate), "low": num(self.low), "high": num(self.high),
            "rejected": self.rejected, "sample_rejected": self.sample_rejected, "share": num(self.share),
            "share_low": num(self.share_low), "share_high": num(self.share_high),
            "false_accepts": self.false_accepts, "assumption": self.assumption,
        }  # fmt: skip


def _count(share: float, total: int) -> str:
    return "n/a" if math.isnan(share) else str(round(share * total))


@dataclass(frozen=True)
class Triage:
    """The result of :func:`triage`: the ``config`` name and ``rules``, the ``records``
    and their ``verdicts`` (same order), the ``documents`` by paper file name, the
    distributions ``by_paper`` and ``by_chunk``, the review ``queue`` and the
    ``estimate``."""

    config: str
    rules: Rules
    records: tuple[OutputRecord, ...]
    verdicts: tuple[Verdict, ...]
    by_paper: tuple[Distribution, ...]
    by_chunk: tuple[Distribution, ...]
    queue: tuple[TriageItem, ...]
    estimate: RejectEstimate
    documents: Mapping[str, Document] = field(default_factory=dict, repr=False, compare=False)

    @property
    def rejected(self) -> int:
        return sum(1 for v in self.verdicts if not v.accepted)

    def to_dict(self, *, top: int | None = None) -> dict:
        """JSON-ready form; ``top`` keeps the first ``top`` items of the queue."""
        queue = self.queue if top is None else self.queue[:top]
        statuses = Counter(v.status for v in self.verdicts)
        return {
            "config": self.config,
            "rules": self.rules.to_dict(),
            "records": len(self.records),
            "accepted": len(self.records) - self.rejected,
            "rejected": self.rejected,
            "statuses": dict(statuses),
            "by_paper": [d.to_dict() for d in self.by_paper],
            "by_chunk": [d.to_dict() for d in self.by_chunk],
            "queue_size": len(self.queue),
            "queue": [item.to_dict() for item in queue],
            "estimate": self.estimate.to_dict(),
        }


def _distribution(paper: str, chunk: int | None, per_chunk: bool, verdicts: Sequence[Verdict]) -> Distribution:
    return Distribution(
        paper=paper, cited_chunk=chunk, per_chunk=per_chunk, n=len(verdicts),
        accepted=sum(1 for v in verdicts if v.accepted),
        statuses=dict(Counter(v.status for v in verdicts).most_common()),
        causes=dict(Counter(v.cause or "none" for v in verdicts if not v.accepted).most_common()),
    )  # fmt: skip


def _item(record: OutputRecord, verdict: Verdict, document: Document) -> tuple[str, TriageItem] | None:
    nm = verdict.near_miss
    if verdict.status == GROUP_FALLBACK or verdict.status == OUTSIDE_MATERIAL:
        kind = verdict.status
        passage = document.text[verdict.start:verdict.end] if verdict.start is not None else ""
        sim, page, start, end = None, verdict.page, verdict.start, verdict.end
    elif not verdict.accepted and nm is not None:
        kind, passage, sim, page, start, end = NEAR_MISS, nm.passage, nm.similarity, nm.page, nm.start, nm.end
    else:
        return None
    return kind, TriageItem(0, kind, record, verdict, verdict.reason, sim, passage, page, start, end)


def _estimate(records: Sequence[OutputRecord], verdicts: Sequence[Verdict]) -> RejectEstimate:
    labelled = [(r.label, v.accepted) for r, v in zip(records, verdicts) if r.label is not None]
    faithful = sum(1 for label, _ in labelled if label == "faithful")
    false_rejects = sum(1 for label, ok in labelled if label == "faithful" and not ok)
    sample_rejected = sum(1 for _, ok in labelled if not ok)
    rate, low, high = wilson(false_rejects, faithful)
    share, share_low, share_high = wilson(false_rejects, sample_rejected)
    return RejectEstimate(
        sample=len(labelled), faithful=faithful, fabricated=len(labelled) - faithful, false_rejects=false_rejects,
        rate=rate, low=low, high=high, rejected=sum(1 for v in verdicts if not v.accepted),
        sample_rejected=sample_rejected, share=share, share_low=share_low, share_high=share_high,
        false_accepts=sum(1 for label, ok in labelled if label == "fabricated" and ok),
    )  # fmt: skip


def triage(
    records: Sequence[OutputRecord],
    *,
    rules: Rules | str = "recommended",
    papers_path: PathsArg = None,
    paper: str | None = None,
    source: str = "outputs",
    chunking: Chunking | None = None,
    cache: ExtractionCache | None = None,
    documents: Mapping[str, Document] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Triage:
    """Locate every record under ``rules`` (a preset name or :class:`Rules`) and triage.

    Papers are found by file name on ``papers_path`` (default ``$QUOTELOCATE_PAPERS``,
    see :func:`quotelocate.data.papers.papers_search_path`) unless ``documents`` already
    holds them; ``paper`` keeps only that paper's records (no other paper is opened).
    ``source`` names the outputs file in errors: a paper that is not found, or a cited
    chunk the paper does not have, raises naming ``source`` and the record's line.
    ``progress(done, total)`` is called after each paper.
    """
    from ..data.papers import find_paper, papers_search_path
    from ..document import Document
    from ..errors import DocumentError
    from ..locate import Locator

    config = rules if isinstance(rules, str) else "custom"
    rules_obj = preset(rules) if isinstance(rules, str) else rules
    chosen = [r for r in records if paper is None or r.paper == paper]
    if not chosen:
        raise QuoteInputError(f"{source}: no record names the paper {paper!r}" if paper else f"{source}: no records")
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(chosen):
        groups.setdefault(r.paper, []).append(i)
    docs: dict[str, Document] = {}
    verdicts: list[Verdict | None] = [None] * len(chosen)
    for done, (name, idx) in enumerate(groups.items(), start=1):
        first = chosen[idx[0]]
        doc = (documents or {}).get(name)
        if doc is None:
            path = find_paper(name, papers_path)
            if path is None:
                folders = ":".join(str(f) for f in papers_search_path(papers_path))
                raise PaperNotFoundError(
                    f"{source}: line {first.line}: paper {name!r} is not on the papers search path ({folders}); "
                    f"give the folder that holds it with --papers"
                )
            try:
                doc = Document.open(path, cache=cache)
            except DocumentError as exc:
                raise type(exc)(f"{source}: line {first.line}: paper {name!r}: {exc}") from None
        docs[name] = doc
        locator = Locator(doc, rules_obj, chunking=chunking or Chunking())
        n_chunks = len(locator.chunks)
        for i in idx:
            r = chosen[i]
            if r.cited_chunk is not None and r.cited_chunk >= n_chunks:
                raise QuoteInputError(
                    f"{source}: line {r.line}: cited_chunk {r.cited_chunk} is not a chunk of {name} "
                    f"(0..{n_chunks - 1} with {locator.chunking.size}-character chunks)"
                )
            verdicts[i] = locator.locate(r.quote, cited_chunk=r.cited_chunk)
        if progress is not None:
            progress(done, len(groups))
    final = tuple(v for v in verdicts if v is not None)
    assert len(final) == len(chosen)

    by_paper, by_chunk = [], []
    for name, idx in groups.items():
        by_paper.append(_distribution(name, None, False, [final[i] for i in idx]))
        chunks: dict[int | None, list[Verdict]] = {}
        for i in idx:
            chunks.setdefault(chosen[i].cited_chunk, []).append(final[i])
        for chunk in sorted(chunks, key=lambda c: (c is None, c or 0)):
            by_chunk.append(_distribution(name, chunk, True, chunks[chunk]))

    found: dict[str, list[TriageItem]] = {k: [] for k in KINDS}
    for r, v in zip(chosen, final):
        hit = _item(r, v, docs[r.paper])
        if hit is not None:
            found[hit[0]].append(hit[1])
    found[NEAR_MISS].sort(key=lambda it: (-(it.similarity or 0.0), it.record.line))
    ordered = [it for k in KINDS for it in found[k]]
    queue = tuple(
        TriageItem(rank, it.kind, it.record, it.verdict, it.reason, it.similarity, it.passage, it.page, it.start, it.end)
        for rank, it in enumerate(ordered, start=1)
    )
    return Triage(
        config=config, rules=rules_obj, records=tuple(chosen), verdicts=final, by_paper=tuple(by_paper),
        by_chunk=tuple(by_chunk), queue=queue, estimate=_estimate(chosen, final), documents=docs,
    )  # fmt: skip
