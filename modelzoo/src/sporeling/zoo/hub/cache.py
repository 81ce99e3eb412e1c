"""Where pulled weights live, and whether the network may be used.

* ``SPORELING_HOME`` (if set) is the root; otherwise platformdirs' per-user cache folder
  (``~/.cache/sporeling`` on Linux, ``~/Library/Caches/sporeling`` on macOS,
  ``%LOCALAPPDATA%\\sporeling\\Cache`` on Windows).
* Weights go to ``<root>/weights/<model>/<file>``.
* ``SPORELING_OFFLINE=1`` (or true/yes/on) forbids downloads: only the cache and local
  sources (``package://``, ``file://``) are used.
"""
from __future__ import annotations

import os
from pathlib import Path

from sporeling.core import ContextError

__all__ = ["home", "weights_dir", "cached_path", "offline"]

_ON, _OFF = {"1", "true", "yes", "on"}, {"", "0", "false", "no", "off"}


def home() -> Path:
    """The root of Sporeling's per-user files (``SPORELING_HOME`` overrides)."""
    override = os.environ.get("SPORELING_HOME")
    if override:
        return Path(override).expanduser().resolve()
    import platformdirs
    return Path(platformdirs.user_cache_dir("sporeling", appauthor=False))


def weights_dir() -> Path:
    return home() / "weights"


def cached_path(model: str, file: str) -> Path:
    """Where ``model``'s weights file is (or will be) in the cache."""
    return weights_dir() / model / file


def offline() -> bool:
    """True when ``SPORELING_OFFLINE`` asks for no downloads."""
    value = os.environ.get("SPORELING_OFFLINE", "").strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    raise ContextError("SPORELING_OFFLINE has a value that is neither on nor off",
                       expected="1/true/yes/on or 0/false/no/off (or unset)",
                       got=repr(os.environ["SPORELING_OFFLINE"]))
