"""What ``jit_level`` selects for a Graph-mode compile (MindSpore's names for the levels).

==== ==========================================================================================
O0   kernel by kernel, only the passes correctness needs (shape and dtype inference,
     verification): no fusion
O1   also the optimising passes: folding, CSE, elementwise fusion...
O2   (the default) O1's passes, and the fused kernels as native code: lowered on a native backend
     (``Backend.native``) serving the device target (``tvm``, from
     ``sporeling-tvm-backend``; the highest priority when several) -- unless a backend
     was chosen by name (``set_context(backend=...)``), which wins. Without one installed, a
     log line says so (once per device target) and O1 runs.
==== ==========================================================================================

The level is the context's ``jit_level`` (``graph_opt_level`` is its old name), or one
function's own (``jit(fn, jit_level=...)``, ``Cell.set_jit_config`` in ``sporeling.ms``).

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x: ops.exp(ops.mul(x, 2.0)), np.ones(3, np.float32))
    >>> compile_at(g, "O0").graph.primitive_counts()
    {'mul': 1, 'exp': 1}
    >>> compile_at(g, "O1").graph.primitive_counts()
    {'fused_elementwise': 1}
"""
from __future__ import annotations

import logging

from sporeling.core import SporelingError, get_context
from sporeling.runtime import get_backends

from .passes import LEVELS
from .pipeline import Executable, compile_graph

__all__ = ["compile_at", "check_level", "native_backend"]

log = logging.getLogger("sporeling.compiler")
_SAID: set = set()  # device targets whose missing code generator was logged


def check_level(level) -> str:
    """``level`` if it is a jit level, else a :class:`~sporeling.core.SporelingError`."""
    if level not in LEVELS:
        raise SporelingError("unknown jit_level", op="jit", expected=" or ".join(LEVELS),
                             got=repr(level))
    return level


def native_backend(asked: bool = True) -> str | None:
    """The backend O2 lowers on: the explicitly chosen one when there is one (None: the
    context's choice stands), else the installed native backend (``Backend.native``) of
    the device target with the highest priority; None, said once, when there is none (a
    warning when O2 was ``asked`` for one function, else -- the context's level, the
    default -- an info line)."""
    if get_context("backend") is not None:
        return None
    target = get_context("device_target")
    backends = get_backends()
    native = [(getattr(factory, "priority", 0), name) for name, factory in backends.items()
              if getattr(factory, "native", False) and
              backends.target_of(name).upper() == target]
    if native:
        return max(native)[1]
    if target not in _SAID:
        _SAID.add(target)
        log.log(logging.WARNING if asked else logging.INFO,
                'jit_level "O2" needs a native code generator for device target %s '
                "(a backend with native=True, e.g. sporeling-tvm-backend's tvm); "
                "running O1", target)
    return None


def compile_at(graph, level: str | None = None) -> Executable:
    """``graph`` compiled at ``level`` (None: the context's ``jit_level``)."""
    asked = level is not None
    level = check_level(get_context("jit_level") if level is None else level)
    native = native_backend(asked) if level == "O2" else None
    return compile_graph(graph, level=level,
                         backend=None if native is None else get_backends().instance(native))
