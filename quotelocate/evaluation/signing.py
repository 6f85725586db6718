"""Signed verdict files: an HMAC over each JSON record, so a record changed by anyone
without the key is detected.

A fingerprint proves which rules a verdict was made with, not who made it: anyone can
write a weaker config into a record, recompute its fingerprint and re-run the quote,
and the audit will agree with the weakened verdict. A key held by the pipeline closes
that gap: ``locate --json --sign-key-file F`` adds ``"signature"`` to every record,
``audit --verify-key-file F`` refuses any record whose signature is missing or does
not match.

The signature is ``hmac-sha256:<hex>`` over the record without its ``signature`` field,
serialized canonically (sorted keys, no spaces, UTF-8).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

from ..errors import QuoteInputError

SCHEME = "hmac-sha256:"


def read_key(path: str) -> bytes:
    """The key in ``path`` (trailing newlines dropped); an error naming the file when it
    is missing, unreadable or empty."""
    try:
        key = Path(path).read_bytes().rstrip(b"\r\n")
    except FileNotFoundError:
        raise QuoteInputError(f"{path}: no such key file") from None
    except OSError as exc:
        raise QuoteInputError(f"{path}: cannot read the key file ({exc.strerror or exc})") from None
    if not key:
        raise QuoteInputError(f"{path}: the key file is empty")
    return key


def _payload(record: dict[str, Any]) -> bytes:
    body = {k: v for k, v in record.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sign(record: dict[str, Any], key: bytes) -> str:
    """The signature of ``record`` under ``key``."""
    return SCHEME + hmac.new(key, _payload(record), hashlib.sha256).hexdigest()


def verify(record: dict[str, Any], key: bytes) -> bool:
    """True when ``record`` carries a signature that ``key`` made for exactly its content."""
    stored = record.get("signature")
    return isinstance(stored, str) and hmac.compare_digest(stored, sign(record, key))
