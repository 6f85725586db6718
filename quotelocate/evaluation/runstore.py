"""The run store: every :class:`~quotelocate.evaluation.result.Evaluation` kept in one SQLite file.

Default file: ``$QUOTELOCATE_RUNS``, else ``$XDG_DATA_HOME/quotelocate/runs.sqlite3``
(``~/.local/share/quotelocate/runs.sqlite3``). Two tables:

``runs``      id, created (UTC ISO), set_name, set_hash, paper_sha256, text_sha256,
              fingerprints (JSON config -> fingerprint), package_version,
              pymupdf_version, machine, metrics (JSON records), frames (JSON: by_tag,
              savings, ablation, by_paper), meta (JSON);
``verdicts``  run_id, config, fingerprint, quote_id, label, tags, accepted, status,
              cause, rules, scope, start, end, page, anchor_ok, latency_ms, text, diff,
              paper (the quote's paper id; the file name without extension in a one-paper set);
``run_info``  run_id, name, notes, tags (JSON list): what a team calls a run;
``review_times`` one timed review decision each: recorded (UTC ISO), set_name,
              paper_sha256, quote_id, anchor_shown, seconds, decision.

Schema 2 was two different schemas on two lines of development: one added ``run_info``,
``review_times`` and ``verdicts.diff``, the other ``verdicts.paper``. Schema 3 is both.
An older store (schema 1, or either schema 2) is migrated the first time it is written
to, in one transaction that only creates the tables and adds the columns it lacks
(``ALTER TABLE ... ADD COLUMN`` with a default: SQLite changes the table definition and
rewrites no row); until then it is read as it is, a missing column read as empty.

A run is saved in one ``BEGIN IMMEDIATE`` transaction (WAL journal, busy timeout):
either all of it is there or none of it. A writer that cannot get the lock within the
timeout gets :class:`~quotelocate.errors.RunStoreBusyError`. An existing file is first
opened read-only and checked; a file that is not a quotelocate run store raises
:class:`~quotelocate.errors.RunStoreError` naming it, and is never modified or
recreated.

>>> import tempfile, os
>>> store = RunStore(os.path.join(tempfile.mkdtemp(), "runs.sqlite3"))
>>> len(store.list_runs())
0
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any, Iterator, Sequence

import pandas as pd

from ..errors import RunStoreBusyError, RunStoreError
from ..userdirs import data_path
from .ablation import compare_evaluations
from .frames import (
    ABLATION_COLUMNS,
    BY_PAPER_COLUMNS,
    BY_TAG_COLUMNS,
    METRIC_COLUMNS,
    SAVINGS_COLUMNS,
    VERDICT_COLUMNS,
    frame,
    json_value,
    records,
)
from .result import Evaluation

SCHEMA_VERSION = 3
SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    set_name TEXT NOT NULL,
    set_hash TEXT NOT NULL,
    paper_sha256 TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    fingerprints TEXT NOT NULL,
    package_version TEXT NOT NULL,
    pymupdf_version TEXT NOT NULL,
    machine TEXT NOT NULL,
    metrics TEXT NOT NULL,
    frames TEXT NOT NULL,
    meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS verdicts (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    config TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    quote_id TEXT NOT NULL,
    label TEXT NOT NULL,
    tags TEXT NOT NULL,
    accepted INTEGER NOT NULL,
    status TEXT NOT NULL,
    cause TEXT NOT NULL,
    rules TEXT NOT NULL,
    scope TEXT NOT NULL,
    start INTEGER,
    "end" INTEGER,
    page INTEGER,
    anchor_ok INTEGER,
    latency_ms REAL,
    text TEXT NOT NULL,
    diff TEXT NOT NULL DEFAULT '',
    paper TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, config, quote_id)
);
CREATE INDEX IF NOT EXISTS runs_by_set ON runs (set_name, created);
CREATE TABLE IF NOT EXISTS run_info (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    name TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS review_times (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    recorded TEXT NOT NULL,
    set_name TEXT NOT NULL,
    paper_sha256 TEXT NOT NULL,
    quote_id TEXT NOT NULL,
    anchor_shown INTEGER NOT NULL,
    seconds REAL NOT NULL,
    decision TEXT NOT NULL
);
"""
_ADDED_COLUMNS = (
    ("verdicts", "diff", "ALTER TABLE verdicts ADD COLUMN diff TEXT NOT NULL DEFAULT ''"),
    ("verdicts", "paper", "ALTER TABLE verdicts ADD COLUMN paper TEXT NOT NULL DEFAULT ''"),
)
"""(table, column, statement): the columns added since schema 1, each added to an older
store that lacks it (after the ``CREATE ... IF NOT EXISTS`` of :data:`_SCHEMA`, which adds
the tables); each only adds, and whichever schema 2 a store has, it ends as schema 3."""
REVIEW_DECISIONS = ("accept", "reject")

_RUN_COLUMNS = {
    "id", "created", "set_name", "set_hash", "paper_sha256", "text_sha256", "fingerprints",
    "package_version", "pymupdf_version", "machine", "metrics", "frames", "meta",
}  # fmt: skip

# verdict frame column -> SQL column (in VERDICT_COLUMNS order)
_VERDICT_SQL = {"id": "quote_id", "end": '"end"'}


def default_path() -> Path:
    """``$QUOTELOCATE_RUNS``, else ``$XDG_DATA_HOME/quotelocate/runs.sqlite3``."""
    return data_path("runs.sqlite3", override="QUOTELOCATE_RUNS")


def _verdict_rows(run_id: int, evaluation: Evaluation) -> Iterator[tuple]:
    """Rows for the ``verdicts`` table, in frame order (a seam the crash tests patch)."""
    for row in evaluation.verdicts.itertuples(index=False, name=None):
        values = [json_value(v) for v in row]
        yield (run_id, *values)


class RunStore:
    """An SQLite file of saved evaluations.

    path: the database file (default :func:`default_path`); busy_timeout: seconds a
    writer waits for another writer's lock before :class:`RunStoreBusyError`.
    """

    def __init__(self, path: str | os.PathLike | None = None, *, busy_timeout: float = 10.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.busy_timeout = float(busy_timeout)
        self._check_existing()

    # -- opening -------------------------------------------------------------------------
    def _fail(self, exc: BaseException, doing: str) -> RunStoreError:
        msg = str(exc).strip() or type(exc).__name__
        if isinstance(exc, sqlite3.OperationalError) and ("locked" in msg or "busy" in msg):
            return RunStoreBusyError(
                f"{self.path}: the run store is locked by another process (waited {self.busy_timeout:g}s "
                f"while {doing}); try again when the other run has been saved"
            )
        return RunStoreError(f"{self.path}: {doing} failed: {msg}")

    def _check_existing(self) -> None:
        """Read-only look at an existing file: it must be an SQLite database that is empty
        or holds our tables. Nothing is written, whatever the outcome."""
        p = self.path
        if not p.exists():
            return
        if p.is_dir():
            raise RunStoreError(f"{p}: is a directory, not a run store file")
        try:
            with open(p, "rb") as fh:
                head = fh.read(len(SQLITE_HEADER))
        except OSError as exc:
            raise RunStoreError(f"{p}: cannot read the run store ({exc.strerror})") from None
        if not head:
            return  # an empty file: SQLite treats it as a new database
        if head != SQLITE_HEADER:
            raise RunStoreError(
                f"{p}: not an SQLite database (the file starts with {head[:8]!r}); it was left untouched. "
                "Move it away or point QUOTELOCATE_RUNS elsewhere"
            )
        self._check_size(p)
        try:
            uri = p.resolve().as_uri() + "?mode=ro"
            with closing(sqlite3.connect(uri, uri=True, timeout=self.busy_timeout)) as con:
                tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if tables and "runs" not in tables:
                    raise RunStoreError(
                        f"{p}: an SQLite database but not a quotelocate run store (tables: "
                        f"{', '.join(sorted(tables))}); it was left untouched"
                    )
                if "runs" in tables:
                    cols = {r[1] for r in con.execute("PRAGMA table_info(runs)")}
                    if not _RUN_COLUMNS <= cols or "verdicts" not in tables:
                        raise RunStoreError(f"{p}: the runs table does not have the run store's columns; left untouched")
                    version = con.execute("PRAGMA user_version").fetchone()[0]
                    if version > SCHEMA_VERSION:
                        raise RunStoreError(
                            f"{p}: run store schema {version} is newer than this quotelocate ({SCHEMA_VERSION})"
                        )
                    con.execute("SELECT count(*) FROM runs").fetchone()
        except sqlite3.DatabaseError as exc:
            raise RunStoreError(f"{p}: the run store is corrupt or unreadable ({exc}); it was left untouched") from None

    @staticmethod
    def _check_size(p: Path) -> None:
        """A database file is whole pages; anything else was cut short (SQLite itself would
        read the missing bytes as zeros and carry on writing). Pages are always written
        whole, so a store that another process is writing never fails this."""
        try:
            with open(p, "rb") as fh:
                header = fh.read(100)
                size = os.fstat(fh.fileno()).st_size
        except OSError as exc:
            raise RunStoreError(f"{p}: cannot read the run store ({exc.strerror})") from None
        raw = int.from_bytes(header[16:18], "big") if len(header) >= 18 else 0
        page_size = 65536 if raw == 1 else raw
        if len(header) < 100 or page_size < 512 or page_size & (page_size - 1) or size % page_size:
            raise RunStoreError(
                f"{p}: the run store is truncated or damaged ({size} bytes is not a whole number of "
                f"{page_size}-byte pages); it was left untouched. Restore it from a backup, or move it "
                "away and point QUOTELOCATE_RUNS elsewhere"
            )

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunStoreError(f"{self.path.parent}: cannot create the run store folder ({exc.strerror})") from None
        try:
            con = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._fail(exc, "opening") from None
        try:
            con.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            con.execute("PRAGMA foreign_keys = ON")
            if con.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                con.execute("PRAGMA journal_mode = WAL")
            if con.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                con.execute("BEGIN IMMEDIATE")
                try:
                    # another writer may have migrated meanwhile: every step below checks before it adds
                    existing = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            con.execute(statement)
                    if "runs" in existing:  # an older store: add the columns the newer schemas add
                        for table, column, statement in _ADDED_COLUMNS:
                            if column not in {r[1] for r in con.execute(f"PRAGMA table_info({table})")}:
                                con.execute(statement)
                    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    con.execute("COMMIT")
                except BaseException:
                    if con.in_transaction:
                        con.execute("ROLLBACK")
                    raise
        except sqlite3.Error as exc:
            con.close()
            raise self._fail(exc, "preparing the schema") from None
        return con

    # -- writing -------------------------------------------------------------------------
    def save(self, evaluation: Evaluation, *, name: str = "", notes: str = "", tags: Sequence[str] = ()) -> int:
        """Store ``evaluation`` (with an optional ``name``, ``notes`` and ``tags``) in one
        transaction and return its run id."""
        info = _info(name, notes, tags, self.path)
        meta = evaluation.meta
        frames = {
            "by_tag": records(evaluation.by_tag),
            "savings": records(evaluation.savings),
            "ablation": records(evaluation.ablation),
            "by_paper": records(evaluation.by_paper),
        }
        run = (
            _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            str(meta.get("set", "")),
            str(meta.get("set_hash", "")),
            str(meta.get("paper_sha256", "")),
            str(meta.get("text_sha256", "")),
            json.dumps(meta.get("fingerprints", {})),  # config order kept
            str(meta.get("package_version", "")),
            str(meta.get("pymupdf_version", "")),
            str(meta.get("machine", "")),
            json.dumps(records(evaluation.metrics), allow_nan=False),
            json.dumps(frames, allow_nan=False),
            json.dumps(meta, allow_nan=False, ensure_ascii=False),
        )
        columns = ", ".join(_VERDICT_SQL.get(c, c) for c in VERDICT_COLUMNS)
        placeholders = ", ".join("?" * (len(VERDICT_COLUMNS) + 1))
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")
            cur = con.execute(
                "INSERT INTO runs (created, set_name, set_hash, paper_sha256, text_sha256, fingerprints, "
                "package_version, pymupdf_version, machine, metrics, frames, meta) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                run,
            )
            run_id = int(cur.lastrowid or 0)
            con.executemany(
                f"INSERT INTO verdicts (run_id, {columns}) VALUES ({placeholders})",
                _verdict_rows(run_id, evaluation),
            )
            con.execute("INSERT INTO run_info (run_id, name, notes, tags) VALUES (?, ?, ?, ?)", (run_id, *info))
            con.execute("COMMIT")
            return run_id
        except sqlite3.Error as exc:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise self._fail(exc, "saving a run") from None
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        finally:
            con.close()

    # -- reading -------------------------------------------------------------------------
    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        if not self.path.exists():
            return []
        try:
            uri = self.path.resolve().as_uri() + "?mode=ro"
            with closing(sqlite3.connect(uri, uri=True, timeout=self.busy_timeout)) as con:
                con.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
                tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if "runs" not in tables:
                    return []
                return con.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._fail(exc, "reading") from None

    def _tables(self) -> set[str]:
        return {r[0] for r in self._read("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _info_of(self) -> dict[int, tuple[str, str, list[str]]]:
        if "run_info" not in self._tables():
            return {}  # a schema-1 store not written to since: no run has a name yet
        return {rid: (name, notes, _tags_of(tags, self.path, rid))
                for rid, name, notes, tags in self._read("SELECT run_id, name, notes, tags FROM run_info")}

    def list_runs(self) -> pd.DataFrame:
        """One row per stored run, oldest first: id, name, title (the name, or ``run N``
        for an unnamed run), tags (comma-joined), notes, created, set_name, set_hash,
        paper_sha256, configs (comma-joined names), n_quotes, package_version,
        pymupdf_version, machine."""
        rows = self._read(
            "SELECT id, created, set_name, set_hash, paper_sha256, fingerprints, meta, package_version, "
            "pymupdf_version, machine FROM runs ORDER BY id"
        )
        info = self._info_of()
        out = []
        for rid, created, set_name, set_hash, paper, fps, meta, pkg, mu, machine in rows:
            m = _loads(meta, self.path, rid, "meta", dict)
            configs = _loads(fps, self.path, rid, "fingerprints", dict)  # config name -> fingerprint
            n_quotes = m.get("n_quotes", 0) or 0
            if isinstance(n_quotes, bool) or not isinstance(n_quotes, int):
                raise RunStoreError(f"{self.path}: run {rid}: 'meta' n_quotes must be a whole number, got {n_quotes!r:.40}")
            name, notes, tags = info.get(rid, ("", "", []))
            out.append(
                {
                    "id": rid,
                    "name": name,
                    "title": name or f"run {rid}",
                    "tags": ",".join(tags),
                    "notes": notes,
                    "created": created,
                    "set_name": set_name,
                    "set_hash": set_hash,
                    "paper_sha256": paper,
                    "configs": ",".join(configs),
                    "n_quotes": n_quotes,
                    "package_version": pkg,
                    "pymupdf_version": mu,
                    "machine": machine,
                }
            )
        cols = ["id", "name", "title", "tags", "notes", "created", "set_name", "set_hash", "paper_sha256", "configs",
                "n_quotes", "package_version", "pymupdf_version", "machine"]  # fmt: skip
        return pd.DataFrame(out, columns=cols).astype({"id": "int64", "n_quotes": "int64"})

    def load(self, run_id: int) -> Evaluation:
        """The stored evaluation of ``run_id``; :class:`RunStoreError` if there is none."""
        rid = _run_id(run_id, self.path)
        rows = self._read("SELECT metrics, frames, meta FROM runs WHERE id = ?", (rid,))
        if not rows:
            raise RunStoreError(f"{self.path}: no run {rid} (see `quotelocate runs`)")
        metrics, frames, meta = rows[0]
        present = {r[1] for r in self._read("PRAGMA table_info(verdicts)")}
        # a store of an older schema read before anything was written to it lacks the newer columns
        columns = ", ".join(_VERDICT_SQL.get(c, c) if _VERDICT_SQL.get(c, c).strip('"') in present else f"'' AS {c}"
                            for c in VERDICT_COLUMNS)
        vrows = self._read(f"SELECT {columns} FROM verdicts WHERE run_id = ? ORDER BY rowid", (rid,))
        records = []
        names = list(VERDICT_COLUMNS)
        for r in vrows:
            rec = dict(zip(names, r))
            rec["accepted"] = bool(rec["accepted"])
            rec["anchor_ok"] = None if rec["anchor_ok"] is None else bool(rec["anchor_ok"])
            records.append(rec)
        fr = _loads(frames, self.path, rid, "frames", dict)
        metric_rows = _rows(_loads(metrics, self.path, rid, "metrics", list), self.path, rid, "metrics")
        by_tag = _rows(fr.get("by_tag") or [], self.path, rid, "frames.by_tag")
        savings = _rows(fr.get("savings") or [], self.path, rid, "frames.savings")
        ablation = fr.get("ablation")
        ablation = None if ablation is None else _rows(ablation, self.path, rid, "frames.ablation")
        by_paper = _rows(fr.get("by_paper") or [], self.path, rid, "frames.by_paper")
        meta_value = _loads(meta, self.path, rid, "meta", dict)
        try:
            return Evaluation(
                verdicts=frame(records, VERDICT_COLUMNS),
                metrics=frame(metric_rows, METRIC_COLUMNS),
                by_tag=frame(by_tag, BY_TAG_COLUMNS),
                savings=frame(savings, SAVINGS_COLUMNS),
                meta=meta_value,
                ablation=None if ablation is None else frame(ablation, ABLATION_COLUMNS),
                by_paper=frame(by_paper, BY_PAPER_COLUMNS),
            )
        except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as exc:
            raise RunStoreError(f"{self.path}: run {rid}: stored values have the wrong type ({type(exc).__name__}: {exc!s:.120})") from None

    def info(self, run_id: int) -> dict[str, Any]:
        """``{"id", "name", "title", "notes", "tags"}`` of a stored run."""
        rid = _run_id(run_id, self.path)
        if not self._read("SELECT id FROM runs WHERE id = ?", (rid,)):
            raise RunStoreError(f"{self.path}: no run {rid} (see `quotelocate runs`)")
        name, notes, tags = self._info_of().get(rid, ("", "", []))
        return {"id": rid, "name": name, "title": name or f"run {rid}", "notes": notes, "tags": tags}

    def label(self, run_id: int, *, name: str | None = None, notes: str | None = None,
              tags: Sequence[str] | None = None) -> None:
        """Set the name, notes or tags of a stored run (None leaves a field as it is)."""
        rid = _run_id(run_id, self.path)
        current = self.info(rid)
        info = _info(current["name"] if name is None else name, current["notes"] if notes is None else notes,
                     current["tags"] if tags is None else tags, self.path)
        self._write(f"labelling run {rid}", [
            ("INSERT INTO run_info (run_id, name, notes, tags) VALUES (?, ?, ?, ?) "
             "ON CONFLICT(run_id) DO UPDATE SET name = excluded.name, notes = excluded.notes, tags = excluded.tags",
             (rid, *info)),
        ])

    def delete(self, run_id: int) -> None:
        """Remove a stored run, its verdicts and its label in one transaction."""
        rid = _run_id(run_id, self.path)
        self.info(rid)  # a clear error for a run that is not there
        self._write(f"deleting run {rid}", [
            ("DELETE FROM verdicts WHERE run_id = ?", (rid,)),
            ("DELETE FROM run_info WHERE run_id = ?", (rid,)),
            ("DELETE FROM runs WHERE id = ?", (rid,)),
        ])

    def _write(self, what: str, statements: Sequence[tuple[str, tuple]]) -> None:
        """Run ``statements`` in one ``BEGIN IMMEDIATE`` transaction: all of them or none;
        a failure is a :class:`RunStoreError` saying ``what`` was being done."""
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                con.execute(sql, params)
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise self._fail(exc, what) from None
        finally:
            con.close()

    # -- measured review times ------------------------------------------------------------
    def record_review(self, *, set_name: str, paper_sha256: str, quote_id: str, anchor_shown: bool,
                      seconds: float, decision: str) -> None:
        """Store one timed review decision (see :func:`quotelocate.evaluation.savings.measured_review`)."""
        if decision not in REVIEW_DECISIONS:
            raise RunStoreError(f"{self.path}: review decision {decision!r} is not one of {', '.join(REVIEW_DECISIONS)}")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds < 24 * 3600:
            raise RunStoreError(f"{self.path}: review time {seconds!r} s is not a duration")
        row = (_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"), str(set_name), str(paper_sha256),
               str(quote_id), int(bool(anchor_shown)), float(seconds), decision)
        self._write("recording a review time", [
            ("INSERT INTO review_times (recorded, set_name, paper_sha256, quote_id, anchor_shown, seconds, decision) "
             "VALUES (?, ?, ?, ?, ?, ?, ?)", row),
        ])

    def review_times(self) -> pd.DataFrame:
        """Every recorded review decision: recorded, set_name, paper_sha256, quote_id,
        anchor_shown, seconds, decision (oldest first)."""
        cols = ["recorded", "set_name", "paper_sha256", "quote_id", "anchor_shown", "seconds", "decision"]
        rows = self._read(f"SELECT {', '.join(cols)} FROM review_times ORDER BY id") if "review_times" in self._tables() else []
        df = pd.DataFrame(rows, columns=cols)
        return df.astype({"anchor_shown": "bool", "seconds": "float64"}) if len(df) else df

    def compare(self, a: int, b: int) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(changed verdicts, rate deltas) from run ``a`` to run ``b``
        (see :func:`quotelocate.evaluation.ablation.compare_evaluations`)."""
        return compare_evaluations(self.load(a), self.load(b))

    def check(self) -> None:
        """Run SQLite's ``quick_check``; :class:`RunStoreError` unless it says ok."""
        rows = self._read("PRAGMA quick_check")
        if rows and rows[0][0] != "ok":
            raise RunStoreError(f"{self.path}: integrity check failed: {rows[0][0]}")


def _run_id(value: Any, path: Path) -> int:
    if isinstance(value, bool):
        raise RunStoreError(f"{path}: run id must be a whole number, got {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RunStoreError(f"{path}: run id must be a whole number, got {value!r}") from None


MAX_NAME = 200
MAX_NOTES = 10_000


def _info(name: str, notes: str, tags: Sequence[str], path: Path) -> tuple[str, str, str]:
    """Checked (name, notes, tags JSON) of a run."""
    if not isinstance(name, str) or len(name) > MAX_NAME or "\n" in name:
        raise RunStoreError(f"{path}: a run name is one line of at most {MAX_NAME} characters")
    if not isinstance(notes, str) or len(notes) > MAX_NOTES:
        raise RunStoreError(f"{path}: run notes are text of at most {MAX_NOTES} characters")
    if isinstance(tags, str) or not all(isinstance(t, str) and t.strip() and "," not in t for t in tags):
        raise RunStoreError(f"{path}: run tags are a list of non-empty words without commas, got {tags!r}")
    return name.strip(), notes, json.dumps(list(dict.fromkeys(t.strip() for t in tags)), ensure_ascii=False)


def _tags_of(text: str, path: Path, rid: int) -> list[str]:
    try:
        tags = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RunStoreError(f"{path}: run {rid}: stored tags are corrupt ({exc!s:.120})") from None
    if not isinstance(tags, list):
        raise RunStoreError(f"{path}: run {rid}: stored tags are not a list")
    return [str(t) for t in tags]


def _loads(text: str, path: Path, rid: int, column: str, kind: type) -> Any:
    """A JSON column of run ``rid``, which must hold a ``kind`` (dict or list)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RunStoreError(f"{path}: run {rid}: stored JSON is corrupt in '{column}' ({exc!s:.120})") from None
    if not isinstance(value, kind):
        expected = "an object" if kind is dict else "a list"
        raise RunStoreError(f"{path}: run {rid}: '{column}' holds {type(value).__name__}, expected {expected}")
    return value


def _rows(value: Any, path: Path, rid: int, column: str) -> list[dict]:
    """A stored frame: a list of objects."""
    if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
        raise RunStoreError(f"{path}: run {rid}: '{column}' must be a list of objects")
    return value
