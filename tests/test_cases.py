"""Data-driven locator cases from tests/cases/*.yaml (see tests/cases/README.md):
``locate_*.yaml`` over the pinned papers, ``text_*.yaml`` over documents given inline."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from quotelocate import PRESETS, Document, Locator, preset
from quotelocate.locate import ACCEPTED_STATUSES, STATUSES

from conftest import locator

CASES = Path(__file__).parent / "cases"


def _load():
    for path in sorted(CASES.glob("locate_*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            yield pytest.param(data["paper"], case, id=f"{path.stem}:{case['id']}")
    for path in sorted(CASES.glob("text_*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            yield pytest.param(("inline", path.stem, case["doc"], data["documents"][case["doc"]]), case,
                               id=f"{path.stem}:{case['id']}")


_INLINE: dict[tuple, Locator] = {}


def _locator(paper, config: str) -> Locator:
    """The locator for a case's document under ``preset[+field=value...]``."""
    name, *overrides = config.split("+")
    rules = preset(name)
    for item in overrides:
        field_name, value = item.split("=", 1)
        current = getattr(rules, field_name)
        rules = rules.replace(**{field_name: type(current)(value) if not isinstance(current, bool) else value == "true"})
    if isinstance(paper, str):
        return locator(paper, rules)
    key = (paper, rules)
    if key not in _INLINE:
        _INLINE[key] = Locator(Document.from_text(paper[3], name=f"{paper[1]}:{paper[2]}"), rules)
    return _INLINE[key]


def _check(verdict, outcome: str, label: str) -> None:
    if outcome == "accept":
        assert verdict.accepted, f"{label}: expected accept, got {verdict.status} ({verdict.reason})"
    elif outcome == "reject":
        assert not verdict.accepted, f"{label}: expected reject, got {verdict.status} at {verdict.start}"
    elif outcome.startswith("reject:"):
        assert not verdict.accepted, f"{label}: expected reject, got {verdict.status}"
        assert verdict.cause == outcome.split(":", 1)[1], f"{label}: cause {verdict.cause} ({verdict.reason})"
    else:
        assert outcome in STATUSES, f"bad outcome {outcome!r} in case file"
        assert verdict.status == outcome, f"{label}: expected {outcome}, got {verdict.status} ({verdict.reason})"
        assert verdict.accepted == (outcome in ACCEPTED_STATUSES)


@pytest.mark.parametrize("paper,case", list(_load()))
def test_case(paper, case):
    quote, cited = case["quote"], case.get("cited_chunk")
    checked = 0
    if "all_presets" in case:
        for name in PRESETS:
            _check(_locator(paper, name).locate(quote, cited_chunk=cited), case["all_presets"], name)
            checked += 1
    for name, outcome in case.get("expect", {}).items():
        verdict = _locator(paper, name).locate(quote, cited_chunk=cited)
        _check(verdict, outcome, name)
        checked += 1
        if name.startswith("recommended") and verdict.accepted:
            if "page" in case:
                assert verdict.page == case["page"]
            for rule in case.get("rules", ()):
                assert any(r == rule or r.startswith(rule + ":") for r in verdict.rules), verdict.rules
            # the reported span really holds the quote's words
            doc = _locator(paper, name).document
            assert doc.text[verdict.start : verdict.end].split()[0].strip("“‘\"'")[:3] in quote
    assert checked, "a case must check something"
