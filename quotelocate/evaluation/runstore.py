"""The run store: every :class:`~quotelocate.evaluation.result.Evaluation` kept in one SQLite file.

Default file: ``$QUOTELOCATE_RUNS``, else ``$XDG_DATA_HOME/quotelocate/runs.sqlite3``
(``~/.local/share/quotelocate/runs.sqlite3``). Two tables:

``runs``      id, created (UTC ISO), set_name, set_hash, paper_sha256, text_sha256,
              fingerprints (JSON config -> fingerprint), package_version,
              pymupdf_version, machine, metrics (JSON records), frames (JSON: by_tag,
              savings, ablation, by_paper), meta (JSON);
``verdicts``  run_id, config, fingerprint, quote_id, label, tags, accepted, status,
              cause, rules, scope, start, end, page, anchor_ok, latency_ms, text,
              paper (the quote's paper id; schema 2 added it, and a store written by
              schema 1 gains it, empty for the runs already there, when next written).

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
from typing import Any, Iterator

import pandas as pd

from ..errors import RunStoreBusyError, RunStoreError
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

SCHEMA_VERSION = 2
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
    paper TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, config, quote_id)
);
CREATE INDEX IF NOT EXISTS runs_by_set ON runs (set_name, created);
"""

_RUN_COLUMNS = {
    "id", "created", "set_name", "set_hash", "paper_sha256", "text_sha256", "fingerprints",
    "package_version", "pymupdf_version", "machine", "metrics", "frames", "meta",
}  # fmt: skip

# verdict frame column -> SQL column (in VERDICT_COLUMNS order)
_VERDICT_SQL = {"id": "quote_id", "end": '"end"'}


def default_path() -> Path:
    """``$QUOTELOCATE_RUNS``, else ``$XDG_DATA_HOME/quotelocate/runs.sqlite3``."""
    env = os.environ.get("QUOTELOCATE_RUNS")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "quotelocate" / "runs.sqlite3"


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
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            con.execute(statement)
                    if "paper" not in {r[1] for r in con.execute("PRAGMA table_info(verdicts)")}:
                        con.execute("ALTER TABLE verdicts ADD COLUMN paper TEXT NOT NULL DEFAULT ''")  # schema 1 -> 2
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
    def save(self, evaluation: Evaluation) -> int:
        """Store ``evaluation`` in one transaction and return its run id."""
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

    def list_runs(self) -> pd.DataFrame:
        """One row per stored run, oldest first: id, created, set_name, set_hash,
        paper_sha256, configs (comma-joined names), n_quotes, package_version,
        pymupdf_version, machine."""
        rows = self._read(
            "SELECT id, created, set_name, set_hash, paper_sha256, fingerprints, meta, package_version, "
            "pymupdf_version, machine FROM runs ORDER BY id"
        )
        out = []
        for rid, created, set_name, set_hash, paper, fps, meta, pkg, mu, machine in rows:
            m = _loads(meta, self.path, rid)
            out.append(
                {
                    "id": rid,
                    "created": created,
                    "set_name": set_name,
                    "set_hash": set_hash,
                    "paper_sha256": paper,
                    "configs": ",".join(_loads(fps, self.path, rid)),
                    "n_quotes": int(m.get("n_quotes", 0) or 0),
                    "package_version": pkg,
                    "pymupdf_version": mu,
                    "machine": machine,
                }
            )
        cols = ["id", "created", "set_name", "set_hash", "paper_sha256", "configs", "n_quotes",
                "package_version", "pymupdf_version", "machine"]  # fmt: skip
        return pd.DataFrame(out, columns=cols).astype({"id": "int64", "n_quotes": "int64"})

    def load(self, run_id: int) -> Evaluation:
        """The stored evaluation of ``run_id``; :class:`RunStoreError` if there is none."""
        rid = _run_id(run_id, self.path)
        rows = self._read("SELECT metrics, frames, meta FROM runs WHERE id = ?", (rid,))
        if not rows:
            raise RunStoreError(f"{self.path}: no run {rid} (see `quotelocate runs`)")
        metrics, frames, meta = rows[0]
        present = {r[0] for r in self._read("SELECT name FROM pragma_table_info('verdicts')")}
        # a schema 1 store read before anything was written to it has no paper column yet
        columns = ", ".join(
            _VERDICT_SQL.get(c, c) if c in present or c in _VERDICT_SQL else f"'' AS {c}" for c in VERDICT_COLUMNS
        )
        vrows = self._read(f"SELECT {columns} FROM verdicts WHERE run_id = ? ORDER BY rowid", (rid,))
        records = []
        names = list(VERDICT_COLUMNS)
        for r in vrows:
            rec = dict(zip(names, r))
            rec["accepted"] = bool(rec["accepted"])
            rec["anchor_ok"] = None if rec["anchor_ok"] is None else bool(rec["anchor_ok"])
            records.append(rec)
        fr = _loads(frames, self.path, rid)
        ablation = fr.get("ablation")
        return Evaluation(
            verdicts=frame(records, VERDICT_COLUMNS),
            metrics=frame(_loads(metrics, self.path, rid), METRIC_COLUMNS),
            by_tag=frame(fr.get("by_tag") or [], BY_TAG_COLUMNS),
            savings=frame(fr.get("savings") or [], SAVINGS_COLUMNS),
            meta=_loads(meta, self.path, rid),
            ablation=None if ablation is None else frame(ablation, ABLATION_COLUMNS),
            by_paper=frame(fr.get("by_paper") or [], BY_PAPER_COLUMNS),
        )

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


def _loads(text: str, path: Path, rid: int) -> Any:
    try:
        return json.loads(text)
    except (TypeError, json.JSONDecodeError) as exc:
        raise RunStoreError(f"{path}: run {rid}: stored JSON is corrupt ({exc})") from None
