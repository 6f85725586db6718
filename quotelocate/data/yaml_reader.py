"""The hardened YAML reader: strict UTF-8, an event scan before anything is built, and
a validator whose every error names the file, line, column, quote id and field.

The event stream is scanned before anything is constructed, and tags
(``!!python/object``, any ``!tag``), anchors, aliases, merge keys, duplicate keys and deep
nesting are refused, so a YAML bomb fails at its first alias; only then is the file read
with ``yaml.safe_load``. Values that YAML 1.1 coerces (``no``, ``on``, ``2017-12-06``,
``1.0``) are refused where a string is expected and as keys, and lone surrogates are
refused everywhere.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any, Iterator, Mapping, Sequence

import yaml

from ..errors import DatasetError

MAX_DEPTH = 16
"""Deepest nesting of mappings and lists a file may have."""

NAMED_LISTS = {"quotes": "quote", "papers": "paper"}
"""Top-level lists whose items have an ``id``: errors inside them name the item by its id."""

SURROGATE = re.compile("[\ud800-\udfff]")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def line_of(data: bytes, pos: int) -> int:
    return data[:pos].count(b"\n") + 1


_RESOLVER = yaml.resolver.Resolver()


_STR_TAG = "tag:yaml.org,2002:str"


FAST_LOADER = getattr(yaml, "CSafeLoader", None)
"""PyYAML's loader on libyaml's C parser when PyYAML was built with it (else None); only
its event stream is used, which is what lets a set of 100,000 quotes load in seconds."""

_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def read_yaml(text: str, source: str) -> tuple[Any, dict[tuple, int]]:
    """The one YAML document in ``text`` as ``yaml.safe_load`` reads it, and the 1-based
    line of every node keyed by its path; refuses tags, anchors, aliases, merge keys,
    duplicate and complex keys and deep nesting first (see :func:`scan_events`).

    The values are built from the checked event stream in one pass (plain scalars
    resolved by YAML 1.1's implicit rules with the safe constructor, quoted and block
    scalars as strings), so the file is parsed once, by libyaml's parser when there is
    one; a file it cannot parse is read again with PyYAML's own parser, whose errors
    name the offending character."""
    if FAST_LOADER is not None:
        try:
            return _scan_events(text, source, FAST_LOADER)
        except yaml.YAMLError:
            pass  # read again below, for PyYAML's message
    return _scan_events(text, source, yaml.SafeLoader)


def scan_events(text: str, source: str) -> dict[tuple, int]:
    """Refuse tags, anchors, aliases, merge keys, duplicate and complex keys and deep
    nesting by scanning the event stream; return the 1-based line of every node, keyed
    by its path. Errors name the line, the quote and the field."""
    return read_yaml(text, source)[1]


def _scalar(ev: yaml.ScalarEvent) -> Any:
    if ev.style or not ev.implicit[0]:  # quoted or block (libyaml marks plain with "", PyYAML with None)
        return ev.value
    tag = _RESOLVER.resolve(yaml.ScalarNode, ev.value, (True, False))
    if tag == _STR_TAG:
        return ev.value
    return _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, ev.value))


def _scan_events(text: str, source: str, loader: type) -> tuple[Any, dict[tuple, int]]:
    lines: dict[tuple, int] = {}
    ids: dict[tuple[str, int], str] = {}  # quotes[i] / papers[i] -> its id, once seen
    # frames: [kind, path, keys, current key, next index, the dict or list being built]
    stack: list[list[Any]] = []
    documents = 0
    root: list[Any] = [None]

    def put(value: Any) -> None:
        if not stack:
            root[0] = value
        elif stack[-1][0] == "map":
            stack[-1][5][stack[-1][3]] = value
        else:
            stack[-1][5].append(value)

    def fail(path: tuple, line: int, message: str) -> DatasetError:
        qid = ids.get((path[0], path[1])) if len(path) >= 2 and path[0] in NAMED_LISTS and isinstance(path[1], int) else None
        return Validator(source, {path: line}).fail(path, message, quote_id=qid)

    def advance() -> None:
        if stack:
            top = stack[-1]
            if top[0] == "map":
                top[3] = None
            else:
                top[4] += 1

    try:
        for ev in yaml.parse(text, Loader=loader):
            line = ev.start_mark.line + 1 if ev.start_mark is not None else 0
            if isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise DatasetError(f"{source}: line {line}: more than one YAML document in the file")
                continue
            if isinstance(ev, yaml.CollectionEndEvent):
                stack.pop()
                advance()
                continue
            if not isinstance(ev, yaml.NodeEvent):
                continue
            top = stack[-1] if stack else None
            is_key = top is not None and top[0] == "map" and top[3] is None
            if top is None:
                path: tuple = ()
            elif is_key:
                path = top[1] + (ev.value if isinstance(ev, yaml.ScalarEvent) else "?",)
            elif top[0] == "map":
                path = top[1] + (top[3],)
            else:
                path = top[1] + (top[4],)
            if isinstance(ev, yaml.AliasEvent):
                raise fail(path, line, f"YAML aliases (*{ev.anchor}) are not allowed in a quote set")
            if ev.anchor is not None:
                raise fail(path, line, f"YAML anchors (&{ev.anchor}) are not allowed in a quote set")
            tag = getattr(ev, "tag", None)
            if tag is not None:
                shown = tag.replace("tag:yaml.org,2002:", "!!")
                raise fail(path, line, f"YAML tags ({shown}) are not allowed in a quote set")
            if is_key:
                assert top is not None
                if not isinstance(ev, yaml.ScalarEvent):
                    raise fail(top[1], line, "a mapping key must be a plain string")
                if ev.value == "<<" and not ev.style:
                    raise fail(top[1], line, "YAML merge keys (<<) are not allowed")
                if not ev.style and _RESOLVER.resolve(yaml.ScalarNode, ev.value, (True, False)) != _STR_TAG:
                    raise fail(
                        top[1], line,
                        f"key {ev.value!r} is not read as a string by YAML 1.1 (yes/no/on/off, numbers and "
                        "dates are coerced); quote it",
                    )
                if ev.value in top[2]:
                    raise fail(path, line, f"duplicate key {ev.value!r}")
                top[2].add(ev.value)
                top[3] = ev.value
                lines[path + ("__key__",)] = line
                continue
            lines[path] = line
            if isinstance(ev, yaml.ScalarEvent):
                if len(path) == 3 and path[0] in NAMED_LISTS and path[2] == "id" and isinstance(path[1], int):
                    ids[(path[0], path[1])] = ev.value
                try:
                    put(_scalar(ev))
                except yaml.constructor.ConstructorError as exc:  # e.g. a date that does not exist
                    raise fail(path, line, f"not a valid value ({exc.problem})") from None
                advance()
            else:
                if len(stack) >= MAX_DEPTH:
                    raise fail(path, line, f"nested more than {MAX_DEPTH} levels deep")
                kind = "map" if isinstance(ev, yaml.MappingStartEvent) else "seq"
                container: Any = {} if kind == "map" else []
                put(container)
                stack.append([kind, path, set(), None, 0, container])
    except yaml.YAMLError as exc:
        if loader is not yaml.SafeLoader:
            raise
        raise _explain(exc, text, source) from None
    return root[0], lines


def _explain(exc: yaml.YAMLError, text: str, source: str) -> DatasetError:
    """A :class:`DatasetError` for a YAML error, naming the line (and column)."""
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML forbids (control characters, U+FFFE…)
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        return DatasetError(
            f"{source}: line {line}, column {column}: not valid YAML (character U+{exc.character:04X} is not allowed)"
            if isinstance(exc.character, int)
            else f"{source}: line {line}, column {column}: not valid YAML ({exc.reason})"
        )
    mark = getattr(exc, "problem_mark", None)
    where = f"line {mark.line + 1}: " if mark is not None else ""
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return DatasetError(f"{source}: {where}not valid YAML ({problem})")


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class Validator:
    """Builds the typed objects from the loaded YAML, failing with file, line, quote and field."""

    def __init__(self, source: str, lines: Mapping[tuple, int]) -> None:
        self.source = source
        self.lines = lines

    def fail(self, path: tuple, message: str, *, quote_id: str | None = None) -> DatasetError:
        """The error for ``path``; ``quote_id`` names the item of ``quotes`` or ``papers`` it is in."""
        line = None
        p = path
        while True:  # the line of the field, else of the nearest enclosing node (the root too)
            if p in self.lines:
                line = self.lines[p]
                break
            if not p:
                break
            p = p[:-1]
        head = f"{self.source}: line {line}" if line else self.source
        parts = [head]
        if len(path) >= 2 and path[0] in NAMED_LISTS and isinstance(path[1], int):
            noun = NAMED_LISTS[path[0]]
            label = f"{noun} {quote_id!r}" if quote_id else noun
            parts.append(f"{label} ({path[0]}[{path[1]}])")
            rest = path[2:]
            if rest:
                parts.append(f"field {_dotted(rest)!r}")
        elif path:
            parts.append(f"field {_dotted(path)!r}")
        return DatasetError(": ".join(parts + [message]))

    # -- typed getters -------------------------------------------------------------------
    def mapping(self, value: Any, path: tuple, keys: set[str], *, required: Sequence[str], quote_id: str | None = None) -> dict:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a mapping, got {kind(value)}", quote_id=quote_id)
        for key in value:
            if not isinstance(key, str):
                raise self.fail(path, f"key {key!r} is not a string (YAML 1.1 coerced it; quote it)", quote_id=quote_id)
        unknown = sorted(set(value) - keys)
        if unknown:
            raise self.fail(
                path + (unknown[0],),
                f"unknown field (allowed: {', '.join(sorted(keys))})",
                quote_id=quote_id,
            )
        for key in required:
            if key not in value:
                raise self.fail(path + (key,), "missing required field", quote_id=quote_id)
        return value

    def string(
        self,
        value: Any,
        path: tuple,
        *,
        quote_id: str | None = None,
        pattern: re.Pattern | None = None,
        allow_empty: bool = False,
        what: str = "",
    ) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string, got {kind(value)}{_coercion_hint(value)}", quote_id=quote_id)
        if not allow_empty and not value.strip():
            raise self.fail(path, "must not be empty", quote_id=quote_id)
        m = SURROGATE.search(value)
        if m:
            raise self.fail(
                path, f"contains a lone surrogate U+{ord(m.group()):04X} at index {m.start()}", quote_id=quote_id
            )
        if "\x00" in value:
            raise self.fail(path, "contains a NUL character", quote_id=quote_id)
        if pattern is not None and not pattern.match(value):
            raise self.fail(path, f"{value!r} is not {what or 'valid'}", quote_id=quote_id)
        return value

    def integer(self, value: Any, path: tuple, *, minimum: int = 0, quote_id: str | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected a whole number, got {kind(value)}", quote_id=quote_id)
        if value < minimum:
            raise self.fail(path, f"must be >= {minimum}, got {value}", quote_id=quote_id)
        return value


def kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return f"a date ({value.isoformat()})"
    if isinstance(value, (int, float)):
        return f"number {value!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"string {value!r}"
    return type(value).__name__


def _coercion_hint(value: Any) -> str:
    if isinstance(value, bool):
        return " (YAML 1.1 reads unquoted yes/no/on/off/true/false as booleans; quote the value)"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return " (YAML reads unquoted dates as dates; quote the value)"
    if isinstance(value, (int, float)):
        return " (YAML reads unquoted numbers as numbers; quote the value)"
    return ""


def walk_strings(value: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                yield path + (k, "__key__"), k
            yield from walk_strings(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_strings(v, path + (i,))


def join_surrogate_pairs(value: Any) -> Any:
    """JSON-style escapes of a character outside the BMP (``"\\ud83d\\ude00"``) as the
    one character they encode; a surrogate without its partner stays, to be refused."""
    if isinstance(value, str):
        if not SURROGATE.search(value):
            return value
        return _PAIR.sub(lambda m: m.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le"), value)
    if isinstance(value, dict):
        return {join_surrogate_pairs(k): join_surrogate_pairs(v) for k, v in value.items()}
    if isinstance(value, list):
        return [join_surrogate_pairs(v) for v in value]
    return value
