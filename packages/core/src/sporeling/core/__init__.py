"""sporeling.core: the hook manager, dtypes, errors, context and CLI host.

    >>> import sporeling.core as sc
    >>> sc.set_context(mode=sc.GRAPH_MODE); sc.get_context("mode")
    0
    >>> sc.reset_context()
"""
from importlib.metadata import PackageNotFoundError, version as _version

from . import dtypes
from .context import (GRAPH_MODE, PYNATIVE_MODE, ContextOption, ContextOptions, context,
                      context_version, get_context, reset_context, set_context)
from .errors import (ArgumentError, ContextError, DTypeError, DuplicateNameError, OutOfMemoryError,
                     PluginError, ShapeError, SizeError, SporelingError)
from .hooks import (PluginFailure, PluginHost, PluginInfo, PluginWarning, declare_registry,
                    get_plugin_host, hookspec, impl, set_plugin_host)
from .random import generator, get_rng_state, get_seed, set_rng_state, set_seed
from .registry import Registry
from .units import format_size, parse_size

try:
    __version__ = _version("sporeling-core")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "dtypes", "context_version", "GRAPH_MODE", "PYNATIVE_MODE", "ContextOption", "ContextOptions", "context",
    "get_context", "reset_context", "set_context", "ArgumentError", "ContextError", "DTypeError",
    "OutOfMemoryError", "PluginError", "DuplicateNameError", "ShapeError", "SizeError",
    "SporelingError", "declare_registry",
    "PluginFailure", "PluginHost", "PluginInfo", "PluginWarning", "get_plugin_host",
    "hookspec", "impl", "generator", "get_seed", "set_seed", "get_rng_state", "set_rng_state", "set_plugin_host", "Registry", "format_size", "parse_size",
    "__version__",
]
