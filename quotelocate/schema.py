"""The published JSON Schemas (draft 2020-12) of what quotelocate writes and reads.

* ``verdict``: one verdict (``Verdict.to_dict()``; what the HTTP service returns per
  quote, optionally with LangExtract's ``char_interval`` and ``alignment_status``);
* ``batch-line``: one line of ``quotelocate locate --quotes FILE --json``;
* ``quote-set``: a quote set file (``datasets/*.yaml``, read with ``yaml.safe_load``).

The files live in ``quotelocate/schemas/``. :func:`load_schema` returns one with every
schema it refers to embedded under ``$defs``, so a validator needs no registry.

>>> load_schema("batch-line")["$defs"]["verdict"]["$id"]
'urn:quotelocate:schema:verdict'
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .errors import ConfigError

SCHEMA_NAMES = ("verdict", "batch-line", "quote-set")
"""Names :func:`load_schema` and ``quotelocate schema NAME`` take."""

_URN = "urn:quotelocate:schema:"


def _read(name: str) -> dict[str, Any]:
    if name not in SCHEMA_NAMES:
        raise ConfigError(f"schema: {name!r} is not one of {', '.join(SCHEMA_NAMES)}")
    text = resources.files(__package__).joinpath("schemas", f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)


def _external_refs(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_URN):
            found.add(ref[len(_URN) :].split("#", 1)[0])
        for value in node.values():
            found |= _external_refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _external_refs(value)
    return found


def load_schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (one of :data:`SCHEMA_NAMES`), self-contained."""
    schema = _read(name)
    pending = sorted(_external_refs(schema))
    embedded: dict[str, Any] = {}
    while pending:
        other = pending.pop()
        if other in embedded or other == name:
            continue
        embedded[other] = _read(other)
        pending.extend(sorted(_external_refs(embedded[other])))
    if embedded:
        schema.setdefault("$defs", {}).update(embedded)
    return schema


def schema_text(name: str) -> str:
    """:func:`load_schema` as indented JSON, as ``quotelocate schema NAME`` prints it."""
    return json.dumps(load_schema(name), indent=2, ensure_ascii=False)
