"""The extraction cache: a paper's extracted pages and layout reading order kept on disk,
so a second run over the same papers skips both.

An entry is one JSON file named by the sha256 of its key. The key holds everything the
stored value depends on: the file's sha256, the extractor and its version, the
extraction flags, and for the reading order the layout version and the text's sha256.
Change any of them and the entry is simply not found. Entries are JSON, never pickle:
reading a cache someone else can write must not run code.

An entry file is one line of JSON (the format, the key, the payload's length and
sha256) followed by the payload, compact JSON. The sha256 is checked over the payload's
bytes as read, before they are parsed, so reading an entry costs one hash and one parse
(no second serialization to compare).

An entry is trusted only whole: it is written to a temporary file in the cache folder,
and renamed into place (so readers never see half of one, and local worker
processes can share the folder), and on reading its key must equal the one asked for
and the sha256 of its payload must equal the one it records. Anything else (a file cut
short, edited, or left by another version) is deleted and the value built again.

The folder is bounded: after a write, the least recently used entries are deleted until
the total is under ``max_bytes``. :meth:`ExtractionCache.clear` empties it (the
``quotelocate cache clear`` command).

>>> import tempfile
>>> cache = ExtractionCache(tempfile.mkdtemp(), max_bytes=1 << 20)
>>> key = {"kind": "pages", "sha256": "ab" * 32}
>>> cache.get(key) is None
True
>>> cache.put(key, {"pages": [[1, "text"]]})
>>> cache.get(key)
{'pages': [[1, 'text']]}
>>> cache.stats().entries, cache.clear().entries
(1, 1)
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .errors import CacheError
from .userdirs import cache_path

FORMAT = 2
"""Version of the entry layout; part of every key (format 1 stored header and payload as
one JSON object and its entries are simply not found)."""

DEFAULT_MAX_BYTES = 2 * 1024 * 1024 * 1024


def document_key(document: Any, kind: str, **more: Any) -> dict:
    """The key of something derived from an open document (``kind`` names what): the
    file, its extracted text and the extractor that made it, plus ``more``. Every entry
    derived from a document is keyed this way, so they all miss together when the
    document or its extraction changes."""
    return {
        "kind": kind,
        "sha256": document.sha256,
        "text_sha256": document.text_sha256,
        "extractor": document.extractor.get("name"),
        "extractor_version": document.extractor.get("version"),
        "flags": document.extractor.get("flags"),
        "glyph_geometry": document.extractor.get("glyph_geometry"),
        **more,
    }


def default_dir() -> Path:
    """``$QUOTELOCATE_CACHE``, else ``$XDG_CACHE_HOME/quotelocate/extractions``."""
    return cache_path("extractions", override="QUOTELOCATE_CACHE")


@dataclass(frozen=True)
class CacheStats:
    """What a cache folder holds (or what :meth:`ExtractionCache.clear` removed)."""

    entries: int = 0
    bytes: int = 0


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


class ExtractionCache:
    """A folder of JSON entries (see the module docstring).

    path: the folder (default :func:`default_dir`); max_bytes: the bound on its total
    size (default 2 GiB). ``hits``, ``misses`` and ``dropped`` (corrupt entries deleted)
    count this object's reads.
    """

    def __init__(self, path: str | os.PathLike | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise CacheError(f"cache max_bytes: expected a whole number >= 1, got {max_bytes!r}")
        self.path = Path(path) if path is not None else default_dir()
        self.max_bytes = max_bytes
        self.hits = self.misses = self.dropped = 0
        if self.path.exists() and not self.path.is_dir():
            raise CacheError(f"{self.path}: the extraction cache must be a folder, and this is a file")

    def _file(self, key: Mapping[str, Any]) -> Path:
        return self.path / (hashlib.sha256(_canonical({"format": FORMAT, **key})).hexdigest() + ".json")

    def get(self, key: Mapping[str, Any]) -> Any | None:
        """The payload stored under ``key``, or None (absent, or corrupt and now deleted)."""
        f = self._file(key)
        try:
            raw = f.read_bytes()
        except FileNotFoundError:
            self.misses += 1
            return None
        except OSError:
            self.misses += 1
            return None
        payload: Any = None
        try:
            head, sep, body = raw.partition(b"\n")
            header = json.loads(head.decode("utf-8")) if sep else None
            ok = (
                isinstance(header, dict)
                and header.get("format") == FORMAT
                and header.get("key") == json.loads(_canonical(dict(key)))
                and header.get("payload_bytes") == len(body)
                and hashlib.sha256(body).hexdigest() == header.get("payload_sha256")
            )
            if ok:
                payload = json.loads(body.decode("utf-8", "surrogatepass"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            ok = False
        if not ok:
            self.dropped += 1
            self.misses += 1
            try:
                f.unlink()
            except OSError:
                pass
            return None
        self.hits += 1
        try:
            os.utime(f)  # recently used: evicted last
        except OSError:
            pass
        return payload

    def put(self, key: Mapping[str, Any], payload: Any) -> None:
        """Store ``payload`` (JSON-serializable) under ``key``, atomically, then keep the bound.

        A cache that cannot be written is not an error: the value was built anyway.
        """
        body = _canonical(payload)
        header = {
            "format": FORMAT,
            "key": json.loads(_canonical(dict(key))),
            "payload_bytes": len(body),
            "payload_sha256": hashlib.sha256(body).hexdigest(),
        }
        data = _canonical(header) + b"\n" + body
        if len(data) > self.max_bytes:
            return
        f = self._file(key)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".entry.", suffix=".part", dir=self.path)
        except OSError:
            return
        try:
            # no fsync: the rename keeps readers from seeing half an entry, and an entry
            # torn by a crash fails its sha256 on reading and is rebuilt
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, f)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return
        self._bound()

    def _entries(self) -> list[tuple[float, int, Path]]:
        out = []
        try:
            names = list(self.path.iterdir())
        except OSError:
            return out
        for f in names:
            if f.suffix == ".json" and f.is_file():
                try:
                    st = f.stat()
                except OSError:
                    continue
                out.append((st.st_mtime, st.st_size, f))
        return out

    def _bound(self) -> None:
        entries = sorted(self._entries())
        total = sum(size for _, size, _ in entries)
        for _, size, f in entries:
            if total <= self.max_bytes:
                break
            try:
                f.unlink()
                total -= size
            except OSError:
                pass

    def stats(self) -> CacheStats:
        """How many entries the folder holds and their total size."""
        entries = self._entries()
        return CacheStats(len(entries), sum(size for _, size, _ in entries))

    def clear(self) -> CacheStats:
        """Delete every entry (and any temporary file a killed writer left); returns what went."""
        removed = CacheStats()
        if not self.path.is_dir():
            return removed
        n = size = 0
        for f in list(self.path.iterdir()):
            if f.is_file() and (f.suffix == ".json" or (f.name.startswith(".entry.") and f.suffix == ".part")):
                try:
                    s = f.stat().st_size
                    f.unlink()
                    n += f.suffix == ".json"
                    size += s
                except OSError:
                    pass
        return CacheStats(n, size)
