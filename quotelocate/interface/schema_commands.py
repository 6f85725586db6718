"""``quotelocate schema NAME``: print one of the published JSON Schemas."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

SCHEMA_CHOICES = ("verdict", "batch-line", "quote-set")  # quotelocate.schema.SCHEMA_NAMES; a test keeps them equal


def cmd_schema(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..schema import schema_text

    print(schema_text(args.name), file=out)
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("schema", help="print a published JSON Schema (verdict, batch-line, quote-set)")
    p.add_argument("name", choices=SCHEMA_CHOICES, help="which schema")
    p.set_defaults(handler=cmd_schema)
