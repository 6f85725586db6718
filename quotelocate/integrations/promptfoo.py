"""promptfoo's python assertion: every quote in a model's output must be in the paper.

``integrations/promptfoo/quotelocate_assert.py`` (shipped beside a sample
``promptfooconfig.yaml``) calls :func:`get_assert`, which promptfoo runs as::

    assert:
      - type: python
        value: file://quotelocate_assert.py
        config: {paper: 1706.03762v7.pdf, rules: recommended}

Options, from the assertion's ``config`` or else the test's ``vars``:

``paper``        a path, or a bare file name on the papers search path (required);
``rules``        a preset name (default ``recommended``);
``quotes``       ``quoted`` (default): check each passage in double quotation marks;
                 ``whole``: the whole output is one quote;
``min_quotes``   fewer quoted passages than this fails (default 1);
``cited_chunk``  the chunk the model cited (a whole number); ``scope`` as in ``Locator.locate``;
``chunking``     ``{size, overlap, group_size}`` of the chunks the model was shown.

The result is promptfoo's grading result ``{pass, score, reason, componentResults,
metadata}``: ``score`` is the share of quotes accepted, ``pass`` needs all of them (and
at least ``min_quotes``), and ``reason`` names each rejected quote with its cause and
the character diff against the closest passage. ``componentResults`` has one
``{pass, score, reason, metadata: {verdict}}`` per quote, which promptfoo lists beside
the assertion, and ``metadata`` is ``{paper, verdicts}``: every quote's verdict in the
published verdict schema (``quotelocate schema verdict``), in the order of the output.
The verdicts are :func:`quotelocate.verify.verify`'s for the items ``{doc, quote,
cited_chunk, scope, rules, chunking}``, checked through the Verifier the process shares
(:func:`quotelocate.testing.shared_verifier`), so a paper is opened and indexed once
however many outputs are graded. A bad option or an unreadable paper fails with a
reason naming it (and no verdicts).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..chunks import Chunking
from ..errors import ConfigError, QuotelocateError

OPTIONS = ("paper", "rules", "quotes", "min_quotes", "cited_chunk", "scope", "chunking")


def get_assert(output: Any, context: Mapping[str, Any] | None) -> dict[str, Any]:
    """Check the quotes in ``output`` against the paper; ``{pass, score, reason}`` for promptfoo."""
    try:
        return _check(output, context or {})
    except QuotelocateError as exc:
        return {"pass": False, "score": 0.0, "reason": f"quotelocate: {exc}"}


def _check(output: Any, context: Mapping[str, Any]) -> dict[str, Any]:
    from ..testing import failure_message, shared_verifier, source_id
    from ..verify import verdict_record
    from .documents import find_document
    from .quotes import quoted_passages

    opts = _options(context)
    if not isinstance(output, str):
        raise ConfigError(f"output: expected text, got {type(output).__name__}")
    paper = opts.get("paper")
    if not isinstance(paper, str) or not paper:
        raise ConfigError("paper: name the paper in the assertion's config or the test's vars")
    mode = opts.get("quotes", "quoted")
    if mode not in ("quoted", "whole"):
        raise ConfigError(f"quotes: {mode!r} is not 'quoted' or 'whole'")
    min_quotes = _whole_number(opts.get("min_quotes", 1), "min_quotes")
    cited = opts.get("cited_chunk")
    cited_chunk = None if cited in (None, "") else _whole_number(cited, "cited_chunk")
    chunking = opts.get("chunking")
    if chunking is not None:
        if not isinstance(chunking, Mapping) or set(chunking) - {"size", "overlap", "group_size"}:
            raise ConfigError("chunking: expected a mapping with size, overlap and group_size")
        chunking = Chunking(**{k: _whole_number(v, f"chunking.{k}") for k, v in chunking.items()})
    rules = opts.get("rules", "recommended")
    verifier = shared_verifier()
    doc_id = source_id(find_document(paper), verifier=verifier)
    name = verifier.locator(doc_id, rules, chunking=chunking).document.name  # the paper is read, rules checked, before any quote
    quotes = [output.strip()] if mode == "whole" else [q.text for q in quoted_passages(output)]
    if len(quotes) < min_quotes:
        return {
            "pass": False,
            "score": 0.0,
            "reason": f"{len(quotes)} quoted passage(s) in the output; at least {min_quotes} expected",
            "metadata": {"paper": name, "verdicts": []},
        }
    if not quotes:
        return {"pass": True, "score": 1.0, "reason": "no quoted passage to check", "metadata": {"paper": name, "verdicts": []}}
    item = {"doc": doc_id, "cited_chunk": cited_chunk, "scope": opts.get("scope"), "rules": rules, "chunking": chunking}
    verdicts = verifier.verify([{**item, "quote": q} for q in quotes])
    accepted = [v for v in verdicts if v.accepted]
    if len(accepted) == len(verdicts):
        where = "; ".join(_where(v) for v in verdicts)
        reason = f"{len(verdicts)} of {len(verdicts)} quote(s) found in {name}: {where}"
    else:
        rejected = [failure_message(v, name) for v in verdicts if not v.accepted]
        reason = f"{len(rejected)} of {len(verdicts)} quote(s) rejected\n" + "\n".join(rejected)
    records = [verdict_record(v) for v in verdicts]
    components = [
        {
            "pass": v.accepted,
            "score": 1.0 if v.accepted else 0.0,
            "reason": f"{v.quote!r} found in {name}: {_where(v)}" if v.accepted else failure_message(v, name),
            "metadata": {"verdict": record},
        }
        for v, record in zip(verdicts, records)
    ]
    return {
        "pass": len(accepted) == len(verdicts),
        "score": len(accepted) / len(verdicts),
        "reason": reason,
        "componentResults": components,
        "metadata": {"paper": name, "verdicts": records},
    }


def _where(verdict: Any) -> str:
    return f"page {'-'.join(map(str, verdict.pages))} ({verdict.status})"


def _options(context: Mapping[str, Any]) -> dict[str, Any]:
    config = context.get("config") or {}
    variables = context.get("vars") or {}
    if not isinstance(config, Mapping) or not isinstance(variables, Mapping):
        raise ConfigError("context: expected 'config' and 'vars' to be mappings")
    unknown = sorted(set(config) - set(OPTIONS))
    if unknown:
        raise ConfigError(f"config: unknown option(s) {', '.join(unknown)} (known: {', '.join(OPTIONS)})")
    opts = {k: variables[k] for k in OPTIONS if k in variables}
    opts.update(config)
    return opts


def _whole_number(value: Any, name: str) -> int:
    if isinstance(value, bool):
        raise ConfigError(f"{name}: expected a whole number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise ConfigError(f"{name}: expected a whole number, got {value!r}")
