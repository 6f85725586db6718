"""Large quote sets load in bounded time: the YAML is parsed once (by libyaml's parser
when PyYAML has it) and the values are built from the checked event stream exactly as
``yaml.safe_load`` builds them. ``benchmarks/large_set_bench.py`` measures 100,000 quotes."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
import yaml

from quotelocate.data.yaml_reader import read_yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

import large_set_bench  # noqa: E402

SETS = sorted(str(p.relative_to(REPO)) for p in [*REPO.glob("datasets/**/*.yaml"), *REPO.glob("tests/cases/*.yaml")])
SCALARS = """\
plain: text
number: 12
negative: -3
float: 1.5
exp: 1e3
octal: 0o17
old_octal: 017
hex: 0x1F
sexagesimal: 1:30
bool_yes: yes
bool_off: off
null_tilde: ~
empty:
date: 2017-12-06
stamp: 2001-12-14t21:59:43.10-05:00
inf: .inf
nan_is_str: "nan"
quoted: "12"
single: 'no'
block: |
  two
  lines
folded: >
  one
  line
nested: {a: [1, "2", three, {b: null}]}
unicode: "\\u00e9\\U0001F600 \\ud83d\\ude00"
"""


@pytest.mark.parametrize("path", SETS)
def test_values_equal_safe_load_on_every_bundled_set(path):
    text = (REPO / path).read_text(encoding="utf-8")
    assert read_yaml(text, path)[0] == yaml.safe_load(text)


def test_values_equal_safe_load_for_every_scalar_kind():
    ours, theirs = read_yaml(SCALARS, "s.yaml")[0], yaml.safe_load(SCALARS)
    assert {k: type(v) for k, v in ours.items()} == {k: type(v) for k, v in theirs.items()}
    assert repr(ours) == repr(theirs)


def test_a_large_set_loads_within_a_cpu_budget(tmp_path, monkeypatch):
    from quotelocate.data.quoteset import load_quote_set

    path = large_set_bench.write_set(tmp_path, 20_000)
    monkeypatch.setenv("QUOTELOCATE_PAPERS", str(tmp_path))
    t = time.process_time()
    quote_set = load_quote_set(path)
    cpu = time.process_time() - t
    assert len(quote_set.quotes) == 20_000
    # about 4 s of CPU here; parsing twice in pure Python took over 50 s
    assert cpu < 15, f"{cpu:.1f} s of CPU for 20,000 quotes"
