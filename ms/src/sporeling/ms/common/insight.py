"""sporeling.insight's MindSpore-named tools (``Profiler``, ``SummaryRecord``,
``SummaryCollector``) in a facade module, when that plugin is installed: listed in the
module's ``__all__`` and imported on first use (tensorboardX loads only then)."""
from __future__ import annotations

from importlib.util import find_spec

__all__ = ["insight_names"]


def insight_names(module: str, names: tuple, namespace: dict):
    """Add ``names`` to ``namespace['__all__']`` where the plugin is installed; return the
    module ``__getattr__`` that imports them on first use."""
    installed = find_spec("sporeling.insight") is not None
    if installed:
        namespace["__all__"] += list(names)

    def __getattr__(name):
        if installed and name in names:
            import sporeling.insight as insight
            value = namespace[name] = getattr(insight, name)
            return value
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
