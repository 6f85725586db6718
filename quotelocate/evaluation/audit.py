"""Audit: re-check stored verdicts with exactly the semantics that produced them.

Each record written by ``quotelocate locate --json`` carries the full rules config, its
fingerprint, the chunking, the cited chunk, the scope and the paper's sha256. The audit
rebuilds the same :class:`~quotelocate.normalize.Rules`, refuses a record whose
fingerprint no longer matches (the normalizer's semantics changed since), re-locates
the quote with the same :class:`~quotelocate.locate.Locator` code the pipeline used, and
lists every verdict that would now differ, naming each field that differs among
:data:`COMPARED` (everything the rules determine; ``boxes`` follow from ``spans``).

A fingerprint proves which rules were used, not who used them: a record whose config
was weakened and whose fingerprint was recomputed to match re-checks cleanly under the
weakened rules. Likewise the quote, ``cited_chunk`` and ``scope`` are what is
re-checked: changing them asks a different question rather than changing an answer.
Verdict files signed with a key (:mod:`quotelocate.evaluation.signing`) close that gap:
with ``verify_key`` every record must carry a valid signature.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..chunks import Chunking
from ..data.papers import find_paper, papers_search_path
from ..document import Document
from ..errors import ConfigError, QuoteInputError
from ..locate import SCOPES, Locator, Verdict
from ..normalize import Rules
from .signing import verify

_REQUIRED = ("quote", "accepted", "status", "config", "fingerprint", "sha256", "paper")
COMPARED = ("accepted", "status", "cause", "page", "pages", "start", "end", "spans", "rules", "occurrences", "scope")
"""The fields of a stored verdict the rules determine, compared one by one."""
_MISSING = "(missing)"


def comparable(verdict: Verdict) -> dict[str, Any]:
    """``verdict``'s :data:`COMPARED` fields in the form ``Verdict.to_dict`` stores them."""
    return {
        "accepted": verdict.accepted,
        "status": verdict.status,
        "cause": verdict.cause,
        "page": verdict.page,
        "pages": list(verdict.pages),
        "start": verdict.start,
        "end": verdict.end,
        "spans": [list(s) for s in verdict.spans],
        "rules": list(verdict.rules),
        "occurrences": verdict.occurrences,
        "scope": verdict.scope,
    }


@dataclass(frozen=True)
class AuditChange:
    """One stored verdict that would now differ, and how."""

    line: int
    id: Any
    field: str
    stored: Any
    now: Any


@dataclass
class AuditReport:
    checked: int = 0
    changes: list[AuditChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    def lines(self) -> list[str]:
        out = list(self.notes)
        out += [f"[line {c.line}, id {c.id}] {c.field}: stored {c.stored!r}, now {c.now!r}" for c in self.changes]
        ids = {(c.line, c.id) for c in self.changes}
        out.append(f"audited {self.checked} verdicts: {len(ids)} differ, {self.checked - len(ids)} unchanged")
        if self.changes:
            counts: dict[str, int] = {}
            for c in self.changes:
                counts[c.field] = counts.get(c.field, 0) + 1
            out.append("fields that differ: " + ", ".join(f"{name} ({n})" for name, n in counts.items()))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "changed": len({(c.line, c.id) for c in self.changes}),
            "changes": [c.__dict__ for c in self.changes],
            "fields": sorted({c.field for c in self.changes}),
            "notes": list(self.notes),
        }


def audit_records(
    records: Sequence[tuple[int, dict[str, Any]]],
    *,
    paper: str | None = None,
    source: str = "<verdicts>",
    verify_key: bytes | None = None,
) -> AuditReport:
    """Re-check ``(line number, record)`` pairs; see the module docstring. With
    ``verify_key``, a record without a valid signature under that key is a change
    (field ``signature``) and is not re-checked further."""
    report = AuditReport()
    documents: dict[str, Document] = {}
    locators: dict[tuple, Locator] = {}
    for line, rec in records:
        if set(rec) == {"id", "error"}:
            report.notes.append(f"note: line {line} is an input error record ({rec['error']!s:.80}), not a verdict")
            continue
        missing = [k for k in _REQUIRED if k not in rec]
        if missing:
            raise QuoteInputError(f"{source}: line {line}: missing field {', '.join(missing)}")
        try:
            rules = Rules.from_dict(rec["config"])
        except (ConfigError, TypeError) as exc:
            raise QuoteInputError(f"{source}: line {line}: config: {exc}") from None
        qid = rec.get("id", line)
        report.checked += 1
        if verify_key is not None and not verify(rec, verify_key):
            stored_sig = rec.get("signature")
            report.changes.append(AuditChange(line, qid, "signature", stored_sig, "no valid signature under this key"))
            continue
        if rules.fingerprint != rec["fingerprint"]:
            report.changes.append(AuditChange(line, qid, "fingerprint", rec["fingerprint"], rules.fingerprint))
            continue
        path = paper or _locate_paper(rec["paper"], source, line)
        if path not in documents:
            documents[path] = Document.open(path)
        doc = documents[path]
        if doc.sha256 != rec["sha256"]:
            report.changes.append(AuditChange(line, qid, "paper sha256", rec["sha256"], doc.sha256))
            continue
        stored_text = rec.get("text_sha256")
        if stored_text and stored_text != doc.text_sha256:
            note = (
                f"note: the extracted text differs from the one the verdicts were made on "
                f"(extractor then {rec.get('extractor')}, now {doc.extractor.get('name')} "
                f"{doc.extractor.get('version')}); offsets may move"
            )
            if note not in report.notes:
                report.notes.append(note)
        ch = rec.get("chunking") or {}
        try:
            chunking = Chunking(**ch) if ch else Chunking()
        except TypeError:
            raise QuoteInputError(f"{source}: line {line}: chunking: unexpected fields") from None
        except ConfigError as exc:
            raise QuoteInputError(f"{source}: line {line}: {exc}") from None
        scope, cited = rec.get("scope"), rec.get("cited_chunk")
        if scope is not None and (scope not in SCOPES or (scope != "document" and cited is None)):
            # a scope the locator could not have reported for this citation
            report.changes.append(AuditChange(line, qid, "scope", scope, "document" if cited is None else "group"))
            continue
        key = (path, rules.fingerprint, chunking)
        if key not in locators:
            locators[key] = Locator(doc, rules, chunking=chunking)
        try:
            now = locators[key].locate(rec["quote"], cited_chunk=rec.get("cited_chunk"), scope=rec.get("scope"))
        except ConfigError as exc:
            raise QuoteInputError(f"{source}: line {line}: {exc}") from None
        for name, current in comparable(now).items():
            stored = rec.get(name, _MISSING)
            if stored != current:
                report.changes.append(AuditChange(line, qid, name, stored, current))
    return report


def _locate_paper(name: str, source: str, line: int) -> str:
    found = find_paper(str(name))
    if found is None:
        where = ", ".join(str(p) for p in papers_search_path())
        raise QuoteInputError(f"{source}: line {line}: paper {name!r} not found on the papers search path ({where}); pass --paper")
    return str(found)
