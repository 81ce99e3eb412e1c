"""Where Sporeling keeps files it can rebuild: ``cache_dir("tvm")``, ``cache_dir("frontend")``.

``$SPORELING_HOME/cache/<name>`` when ``SPORELING_HOME`` is set, else ``<name>`` under the
user's cache folder (platformdirs: ``~/.cache/sporeling`` on Linux). Nothing is created
here; a writer makes the folder (and copes when it cannot).
"""
from __future__ import annotations

import os

__all__ = ["HOME_ENV", "cache_dir"]

HOME_ENV = "SPORELING_HOME"


def cache_dir(name: str) -> str:
    """The folder for the cache called ``name`` (read ``SPORELING_HOME`` on every call:
    tests and tools point it elsewhere)."""
    home = os.environ.get(HOME_ENV)
    if home:
        return os.path.join(home, "cache", name)
    import platformdirs  # only when no home is set: an import costs start-up time
    return os.path.join(platformdirs.user_cache_dir("sporeling", appauthor=False), name)
