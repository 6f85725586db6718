"""Named rule configurations for evaluation: presets, the grid, one-rule toggles."""

from __future__ import annotations

import importlib.util
from typing import Any, Mapping, Sequence

from ..errors import ConfigError
from ..normalize import PRESETS, Rules, preset

ConfigsArg = Mapping[str, "Rules | str"] | Sequence["Rules | str"] | Rules | str | None


def resolve_configs(configs: ConfigsArg) -> dict[str, Rules]:
    """Name -> Rules from a mapping, a sequence of preset names / Rules, or one of them.

    None means every preset. A Rules equal to a preset takes the preset's name; any
    other takes its :meth:`Rules.describe` text.
    """
    if configs is None:
        return dict(PRESETS)
    if isinstance(configs, (str, Rules)):
        configs = [configs]
    out: dict[str, Rules] = {}
    if isinstance(configs, Mapping):
        for name, rules in configs.items():
            if not isinstance(name, str) or not name:
                raise ConfigError(f"configs: a config name must be a non-empty string, got {name!r}")
            out[name] = _as_rules(rules, name)
    else:
        for item in configs:
            rules = _as_rules(item, str(item))
            name = item if isinstance(item, str) else _name_for(rules)
            if name in out:
                if out[name] == rules:
                    continue
                name = f"{name} [{rules.fingerprint}]"
            out[name] = rules
    if not out:
        raise ConfigError("configs: no configuration to evaluate")
    return out


def _as_rules(value: Any, name: str) -> Rules:
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        return preset(value)
    raise ConfigError(f"configs: {name!r} must be Rules or a preset name, got {type(value).__name__}")


def _name_for(rules: Rules) -> str:
    for name, p in PRESETS.items():
        if p == rules:
            return name
    return rules.describe()


def rule_toggles(rules: Rules, *, pdf: bool = True) -> list[tuple[str, Rules]]:
    """Every one-rule change of ``rules``: each rule that is on switched off, each that
    is off switched on (``unicode`` off<->nfkc, ``hyphenation`` off<->both). ``+layout``
    only for PDFs, and only when the layout reader is installed.

    >>> [c for c, _ in rule_toggles(Rules(quotes=True, whitespace=True), pdf=False)]
    ['+furniture', '+markers', '+invisible', '+accents', '+unicode=nfkc', '-quotes', '+hyphenation=both', '+suspended_hyphens', '-whitespace', '+math_spacing', '+word_gaps', '+slash_spacing', '+url_spacing', '-word_boundaries', '+ellipsis=fragments']
    """
    out: list[tuple[str, Rules]] = []
    for name in ("furniture", "layout", "markers", "invisible", "accents", "unicode", "quotes", "hyphenation",
                 "suspended_hyphens", "whitespace", "math_spacing", "word_gaps", "slash_spacing", "url_spacing",
                 "word_boundaries"):
        if name == "layout" and not rules.layout and not (pdf and layout_available()):
            continue
        value = getattr(rules, name)
        if name == "unicode":
            change = ("-unicode", rules.replace(unicode="off")) if value != "off" else ("+unicode=nfkc", rules.replace(unicode="nfkc"))
        elif name == "hyphenation":
            change = (
                ("-hyphenation", rules.replace(hyphenation="off"))
                if value != "off"
                else ("+hyphenation=both", rules.replace(hyphenation="both"))
            )
        else:
            change = (("-" if value else "+") + name, rules.replace(**{name: not value}))
        out.append(change)
    if rules.ellipsis == "verbatim":
        out.append(("+ellipsis=fragments", rules.replace(ellipsis="fragments")))
    else:
        out.append(("-ellipsis", rules.replace(ellipsis="verbatim")))
    return out


def layout_available() -> bool:
    """Whether the geometry-based reading order (``quotelocate.layout``) is installed."""
    return importlib.util.find_spec("quotelocate.layout") is not None


def grid_configs() -> dict[str, Rules]:
    """Every preset, plus ``recommended`` with each of its rules switched off in turn
    (named like ``recommended -whitespace``), and with each opt-in rule it leaves off
    switched on (``recommended +markers``), so the grid shows what that rule trades."""
    out = dict(PRESETS)
    base = PRESETS["recommended"]
    for change, rules in rule_toggles(base):
        if change.startswith("-") or change[1:] in OPT_IN_RULES:
            out[f"recommended {change}"] = rules
    return out


OPT_IN_RULES = ("accents", "markers", "suspended_hyphens", "math_spacing", "word_gaps", "slash_spacing", "url_spacing")
"""Rules the grid also shows switched on when ``recommended`` leaves them off."""
