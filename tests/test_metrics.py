"""The statistics behind `quotelocate eval`, checked on tiny hand-computed cases:
Wilson intervals, exact McNemar p-values, the review-time savings model, rule toggles."""

from __future__ import annotations

import math
from math import comb

import pandas as pd
import pytest

from quotelocate.errors import ConfigError
from quotelocate.evaluation.configs import layout_available
from quotelocate.evaluation.frames import METRIC_COLUMNS
from quotelocate.evaluation.frames import frame as _frame
from quotelocate.evaluation import (
    SavingsAssumptions,
    grid_configs,
    mcnemar_exact,
    resolve_configs,
    rule_toggles,
    savings_table,
    wilson,
)
from quotelocate.normalize import PRESETS, Rules, preset

Z = 1.959963984540054  # two-sided 95% normal quantile


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    p = k / n
    denom = 1 + Z * Z / n
    center = (p + Z * Z / (2 * n)) / denom
    half = Z / denom * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return center - half, center + half


@pytest.mark.parametrize(
    "k, n, low, high",
    [
        (0, 10, 0.0, 0.277533),  # z^2 / (n + z^2)
        (5, 10, 0.236593, 0.763407),
        (10, 10, 0.722467, 1.0),  # n / (n + z^2)
        (1, 3, 0.061492, 0.792340),
        (2, 3, 0.207660, 0.938508),
    ],
    ids=["0-of-10", "5-of-10", "10-of-10", "1-of-3", "2-of-3"],
)
def test_wilson(k, n, low, high):
    rate, lo, hi = wilson(k, n)
    assert rate == k / n
    assert lo == pytest.approx(low, abs=1e-6) and hi == pytest.approx(high, abs=1e-6)
    by_hand = wilson_by_hand(k, n)
    assert lo == pytest.approx(max(by_hand[0], 0.0), abs=1e-12)
    assert hi == pytest.approx(min(by_hand[1], 1.0), abs=1e-12)


def test_wilson_edges_are_exact_and_empty_is_nan():
    assert wilson(0, 7)[1] == 0.0  # no 1e-17 noise
    assert wilson(7, 7)[2] == 1.0
    assert all(math.isnan(x) for x in wilson(0, 0))


def _pairs(both: int, only_base: int, only_variant: int, neither: int) -> tuple[list[bool], list[bool]]:
    base = [True] * both + [True] * only_base + [False] * only_variant + [False] * neither
    variant = [True] * both + [False] * only_base + [True] * only_variant + [False] * neither
    return base, variant


def binomial_two_sided(b: int, c: int) -> float:
    n = b + c
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(comb(n, i) for i in range(min(b, c) + 1)) / 2**n)


@pytest.mark.parametrize(
    "b, c, p",
    [
        (5, 0, 0.0625),  # 2 * 0.5^5
        (1, 9, 0.021484375),  # 2 * (1 + 10) / 1024
        (2, 6, 0.2890625),  # 2 * (1 + 8 + 28) / 256
        (3, 3, 1.0),
        (0, 0, 1.0),
    ],
    ids=["5-0", "1-9", "2-6", "3-3", "no-discordant"],
)
def test_mcnemar_exact(b, c, p):
    base, variant = _pairs(4, b, c, 2)
    assert mcnemar_exact(base, variant) == pytest.approx(p, abs=1e-12)
    assert mcnemar_exact(base, variant) == pytest.approx(binomial_two_sided(b, c), abs=1e-12)
    assert mcnemar_exact(variant, base) == pytest.approx(p, abs=1e-12)  # symmetric


def test_mcnemar_needs_pairs():
    assert math.isnan(mcnemar_exact([], []))
    with pytest.raises(ConfigError, match="differ in length"):
        mcnemar_exact([True], [True, False])


# ---------------------------------------------------------------------------------------
# The savings model, on a hand-computed example
#
#   R = 40 s re-run, Wa = 15 s review with anchor, Wn = 90 s without; half fabricated.
#   faithful cost   15 + 115 r        fabricated cost   40 + 50 a
#   cost(r, a) = 27.5 + 57.5 r + 25 a
#   baseline r=0.8, a=0: 73.5 s     config r=0.1, a=0: 33.25 s   saving 1 - 33.25/73.5
#   bounds: config r in [0.05, 0.2], a in [0, 0.1] -> [30.375, 41.5]
#           baseline r in [0.6, 0.9], a in [0, 0.1] -> [62.0, 81.75]
#   saving_low = 1 - 41.5/62.0, saving_high = 1 - 30.375/81.75


def _metrics(rows: list[dict]) -> pd.DataFrame:
    full = []
    for r in rows:
        base = {c: (0 if t in ("int64",) else ("" if t == "str" else math.nan)) for c, t in METRIC_COLUMNS.items()}
        base.update(r)
        full.append(base)
    return _frame(full, METRIC_COLUMNS)


METRICS = _metrics(
    [
        {"config": "exact", "false_reject": 0.8, "fr_low": 0.6, "fr_high": 0.9, "false_accept": 0.0, "fa_low": 0.0, "fa_high": 0.1},
        {"config": "rec", "false_reject": 0.1, "fr_low": 0.05, "fr_high": 0.2, "false_accept": 0.0, "fa_low": 0.0, "fa_high": 0.1},
    ]
)


def test_savings_hand_example():
    a = SavingsAssumptions(target=0.3)
    assert a.cost_faithful(0.8) == pytest.approx(107.0)
    assert a.cost_fabricated(0.1) == pytest.approx(45.0)
    t = savings_table(METRICS, a, fabricated_share=0.5).set_index("config")
    assert t.loc["exact", "cost_s_per_quote"] == pytest.approx(73.5)
    assert t.loc["rec", "cost_s_per_quote"] == pytest.approx(33.25)
    assert t.loc["rec", "baseline_cost_s"] == pytest.approx(73.5)
    assert t.loc["rec", "saving"] == pytest.approx(1 - 33.25 / 73.5)
    assert t.loc["rec", "saving_low"] == pytest.approx(1 - 41.5 / 62.0)
    assert t.loc["rec", "saving_high"] == pytest.approx(1 - 30.375 / 81.75)
    assert bool(t.loc["rec", "holds"]) is True  # 0.33 >= 0.3
    assert (t.loc["exact", ["saving", "saving_low", "saving_high"]] == 0).all()
    assert bool(t.loc["exact", "holds"]) is False
    assert t.loc["rec", "rerun_seconds"] == 40 and t.loc["rec", "fabricated_share"] == 0.5
    assert list(t.reset_index().columns[:9]) == [
        "config", "baseline", "cost_s_per_quote", "baseline_cost_s", "saving", "saving_low", "saving_high", "target", "holds",
    ]  # fmt: skip


def _paired_verdicts(base: list[bool], config: list[bool], fab_base: list[bool], fab_config: list[bool]) -> pd.DataFrame:
    rows = []
    for label, pairs in (("faithful", zip(base, config)), ("fabricated", zip(fab_base, fab_config))):
        for i, (b, c) in enumerate(pairs):
            rows += [{"config": "exact", "id": f"{label}-{i:03d}", "label": label, "accepted": b},
                     {"config": "rec", "id": f"{label}-{i:03d}", "label": label, "accepted": c}]
    return pd.DataFrame(rows)


def test_savings_interval_is_a_seeded_paired_bootstrap_over_quotes():
    # 100 faithful quotes: exact rejects 80, rec rejects 10 of those same 80 (paired);
    # 100 fabricated, none accepted by either. Point estimate as in the hand example.
    base = [False] * 80 + [True] * 20
    config = [False] * 10 + [True] * 90
    verdicts = _paired_verdicts(base, config, [False] * 100, [False] * 100)
    metrics = _metrics([
        {"config": "exact", "false_reject": 0.8, "fr_low": 0.71, "fr_high": 0.87, "false_accept": 0.0, "fa_low": 0.0, "fa_high": 0.037},
        {"config": "rec", "false_reject": 0.1, "fr_low": 0.055, "fr_high": 0.174, "false_accept": 0.0, "fa_low": 0.0, "fa_high": 0.037},
    ])  # fmt: skip
    a = SavingsAssumptions(target=0.3)
    boot = savings_table(metrics, a, fabricated_share=0.5, verdicts=verdicts).set_index("config")
    corners = savings_table(metrics, a, fabricated_share=0.5).set_index("config")
    assert boot.loc["rec", "interval_method"].startswith("paired bootstrap over quotes (2000 resamples, seed")
    assert corners.loc["rec", "interval_method"].startswith("Wilson corners")
    assert boot.loc["rec", "saving_low"] < boot.loc["rec", "saving"] < boot.loc["rec", "saving_high"]
    assert boot.loc["rec", "saving"] == corners.loc["rec", "saving"]
    # pairing removes the shared noise: narrower than corners that treat the configs as independent
    width = boot.loc["rec", "saving_high"] - boot.loc["rec", "saving_low"]
    assert width < corners.loc["rec", "saving_high"] - corners.loc["rec", "saving_low"]
    # by hand, for the seeded draw: rebuild the same resamples with numpy
    import numpy as np

    rng = np.random.default_rng(20240607)
    fi = rng.integers(0, 100, size=(2000, 100))
    rng.integers(0, 100, size=(2000, 100))  # the fabricated stratum's draw (all zeros: no effect)
    f = np.array([base, config], dtype=float).T[fi]
    r = 1 - f.mean(axis=1)
    cost = 0.5 * (15 + 115 * r) + 0.5 * 40
    savings = 1 - cost[:, 1] / cost[:, 0]
    low, high = np.percentile(savings, [2.5, 97.5])
    assert boot.loc["rec", "saving_low"] == pytest.approx(low) and boot.loc["rec", "saving_high"] == pytest.approx(high)
    again = savings_table(metrics, a, fabricated_share=0.5, verdicts=verdicts)
    assert again.equals(boot.reset_index()[again.columns])
    assert (boot.loc["exact", ["saving", "saving_low", "saving_high"]] == 0).all()


def test_holm_adjusts_one_family_of_p_values():
    from quotelocate.evaluation.stats import holm

    # sorted 0.01, 0.02, 0.04 of 3 tests: 3*0.01, max(0.03, 2*0.02), max(0.04, 1*0.04)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert math.isnan(holm([math.nan])[0]) and holm([]) == []


def test_savings_target_not_shown_when_lower_bound_misses():
    t = savings_table(METRICS, SavingsAssumptions(), fabricated_share=0.5).set_index("config")
    assert t.loc["rec", "saving"] < 0.6 and not bool(t.loc["rec", "holds"])


def test_savings_assumptions_are_validated():
    with pytest.raises(ConfigError, match="rerun_seconds"):
        SavingsAssumptions(rerun_seconds=-1)
    with pytest.raises(ConfigError, match="fabricated_share"):
        SavingsAssumptions(fabricated_share=1.5)
    with pytest.raises(ConfigError, match="target"):
        SavingsAssumptions(target=True)
    assert SavingsAssumptions().target == 0.60 and SavingsAssumptions().baseline == "exact"


# ---------------------------------------------------------------------------------------
# Configs and toggles


def test_rule_toggles():
    # explicit rules, so the test does not depend on what the presets hold today
    full = Rules(quotes=True, whitespace=True, invisible=True, unicode="nfkc", hyphenation="both", furniture=True)
    changes = dict(rule_toggles(full, pdf=False))
    assert list(changes) == [
        "-furniture", "+markers", "-invisible", "+accents", "-unicode", "-quotes", "-hyphenation",
        "+suspended_hyphens", "-whitespace", "+math_spacing", "+word_gaps", "+slash_spacing", "+url_spacing",
        "-word_boundaries", "+ellipsis=fragments",
    ]  # fmt: skip
    assert changes["+markers"] == full.replace(markers=True)
    assert changes["+ellipsis=fragments"] == full.replace(ellipsis="fragments")
    assert "-ellipsis" in dict(rule_toggles(full.replace(ellipsis="fragments"), pdf=False))
    assert changes["-unicode"] == full.replace(unicode="off")
    assert changes["-hyphenation"] == full.replace(hyphenation="off")
    bare = dict(rule_toggles(Rules(word_boundaries=False), pdf=False))
    assert bare["+unicode=nfkc"].unicode == "nfkc" and bare["+hyphenation=both"].hyphenation == "both"
    assert bare["+word_boundaries"].word_boundaries is True
    with_pdf = [c for c, _ in rule_toggles(full, pdf=True)]
    assert ("+layout" in with_pdf) == layout_available()
    # a rule that is on can always be switched off
    assert "-layout" in dict(rule_toggles(full.replace(layout=True), pdf=False))


def test_grid_and_config_resolution():
    grid = grid_configs()
    assert set(PRESETS) <= set(grid)
    assert grid["recommended -whitespace"] == preset("recommended").replace(whitespace=False)
    rec = preset("recommended")
    on = [n for n in ("furniture", "layout", "invisible", "quotes", "whitespace", "word_boundaries", "accents",
                      "markers", "suspended_hyphens", "math_spacing", "word_gaps", "slash_spacing", "url_spacing")
          if getattr(rec, n)]
    on += [n for n in ("unicode", "hyphenation") if getattr(rec, n) != "off"]
    opt_in = [n for n in ("accents", "markers", "suspended_hyphens", "math_spacing", "word_gaps", "slash_spacing",
                          "url_spacing")
              if not getattr(rec, n)]
    assert len(grid) == len(PRESETS) + len(on) + len(opt_in)
    assert all(f"recommended -{n}" in grid for n in on)
    assert all(f"recommended +{n}" in grid for n in opt_in)
    assert list(resolve_configs(None)) == list(PRESETS)
    assert list(resolve_configs(["exact", Rules(whitespace=True)])) == ["exact", "whitespace"]
    custom = Rules(quotes=True)
    assert resolve_configs([custom]) == {"quotes": custom}
    assert resolve_configs({"mine": "recommended"}) == {"mine": preset("recommended")}
    with pytest.raises(ConfigError, match="unknown preset"):
        resolve_configs(["nope"])
    with pytest.raises(ConfigError, match="must be Rules"):
        resolve_configs({"x": 3})
