"""Audit: re-check stored verdicts with exactly the semantics that produced them.

Each record written by ``quotelocate locate --json`` carries the full rules config, its
fingerprint, the chunking, the cited chunk, the scope and the paper's sha256. The audit
rebuilds the same :class:`~quotelocate.normalize.Rules`, refuses a record whose
fingerprint no longer matches (the normalizer's semantics changed since), re-locates
the quote with the same :class:`~quotelocate.locate.Locator` code the pipeline used, and
lists every verdict that would now differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..chunks import Chunking
from ..data.papers import find_paper, papers_search_path
from ..document import Document
from ..errors import ConfigError, QuoteInputError
from ..locate import Locator
from ..normalize import Rules

_REQUIRED = ("quote", "accepted", "status", "config", "fingerprint", "sha256", "paper")


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
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "changed": len({(c.line, c.id) for c in self.changes}),
            "changes": [c.__dict__ for c in self.changes],
            "notes": list(self.notes),
        }


def audit_records(
    records: Sequence[tuple[int, dict[str, Any]]], *, paper: str | None = None, source: str = "<verdicts>"
) -> AuditReport:
    """Re-check ``(line number, record)`` pairs; see the module docstring."""
    report = AuditReport()
    documents: dict[str, Document] = {}
    locators: dict[tuple, Locator] = {}
    for line, rec in records:
        missing = [k for k in _REQUIRED if k not in rec]
        if missing:
            raise QuoteInputError(f"{source}: line {line}: missing field {', '.join(missing)}")
        try:
            rules = Rules.from_dict(rec["config"])
        except (ConfigError, TypeError) as exc:
            raise QuoteInputError(f"{source}: line {line}: config: {exc}") from None
        qid = rec.get("id", line)
        report.checked += 1
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
        key = (path, rules.fingerprint, chunking)
        if key not in locators:
            locators[key] = Locator(doc, rules, chunking=chunking)
        try:
            now = locators[key].locate(rec["quote"], cited_chunk=rec.get("cited_chunk"), scope=rec.get("scope"))
        except ConfigError as exc:
            raise QuoteInputError(f"{source}: line {line}: {exc}") from None
        for name in ("accepted", "status", "start", "end"):
            stored = rec.get(name)
            current = getattr(now, name)
            if stored != current:
                report.changes.append(AuditChange(line, qid, name, stored, current))
    return report


def _locate_paper(name: str, source: str, line: int) -> str:
    found = find_paper(str(name))
    if found is None:
        where = ", ".join(str(p) for p in papers_search_path())
        raise QuoteInputError(f"{source}: line {line}: paper {name!r} not found on the papers search path ({where}); pass --paper")
    return str(found)
