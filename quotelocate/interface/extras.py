"""Optional extras: a command that needs one says which to install, instead of a traceback."""

from __future__ import annotations

import importlib.util

from ..errors import ConfigError

EXTRAS = {
    "eval": ("pandas", "statsmodels", "yaml", "tqdm", "altair", "vl_convert"),
    "app": ("streamlit",),
    "mlflow": ("mlflow",),
    "llamaindex": ("llama_index",),
}
"""The modules each extra brings, as ``pyproject.toml`` lists them."""


def require(extra: str, command: str) -> None:
    """Raise :class:`ConfigError` naming ``extra`` when a module it brings is missing."""
    missing = [m for m in EXTRAS[extra] if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigError(
            f"{command}: needs the '{extra}' extra ({', '.join(missing)} not installed); "
            f"install it with: pip install 'quotelocate[{extra}]'"
        )
