"""Shared fixtures: the pinned papers (found through the papers search path) and
locators over them, built once per session."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from quotelocate import Document, Locator, preset
from quotelocate.data.papers import find_paper

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("QUOTELOCATE_PAPERS", str(REPO.parent / "shared" / "papers"))
# commands that keep an extraction cache keep it in a folder of this test run, not the user's
os.environ.setdefault("QUOTELOCATE_CACHE", tempfile.mkdtemp(prefix="quotelocate-test-cache-"))

# Property tests draw fresh examples on every developer run, which is how they find new
# bugs. A merge gate must give the same answer for the same commit, so CI loads the
# "ci" profile (HYPOTHESIS_PROFILE=ci): the same examples every run. Open-ended search
# is `make fuzz`'s job and a developer's `make test`.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def paper_path(name: str) -> Path:
    found = find_paper(name)
    if found is None:
        pytest.fail(f"{name} is not on the papers search path; set QUOTELOCATE_PAPERS to ../shared/papers")
    return found


_DOCS: dict[str, Document] = {}
_LOCATORS: dict[tuple[str, str], Locator] = {}


def document(name: str) -> Document:
    if name not in _DOCS:
        _DOCS[name] = Document.open(paper_path(name))
    return _DOCS[name]


def locator(name: str, rules="recommended") -> Locator:
    r = preset(rules) if isinstance(rules, str) else rules
    key = (name, r.fingerprint)
    if key not in _LOCATORS:
        _LOCATORS[key] = Locator(document(name), r)
    return _LOCATORS[key]


@pytest.fixture(scope="session")
def v7() -> Document:
    return document("1706.03762v7.pdf")


@pytest.fixture(scope="session")
def v5() -> Document:
    return document("1706.03762v5.pdf")
