"""From a traced graph to something that runs: verify, optimise, lower, execute.

:func:`compile_graph` is the one entry point the front end (``jit``, Graph-mode Cells) uses;
what happens inside -- which passes, how memory is planned -- is the compiler's business.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> exe = compile_graph(make_graph(lambda x: ops.mul(x, 3.0), np.ones(2, np.float32)))
    >>> exe(np.array([1.0, 2.0], np.float32))
    [array([3., 6.], dtype=float32)]
"""
from __future__ import annotations

from sporeling.core import SporelingError, get_context
from sporeling.runtime import get_backend
from sporeling.runtime.executor import run

from .core.location import with_function
from .ir import Graph, verify
from .lowering import lower
from .ops._control_check import raised_by_check
from .passes import optimize

__all__ = ["Executable", "compile_graph"]


class Executable:
    """A compiled graph: call it with flat inputs, get flat outputs."""

    def __init__(self, graph: Graph, source_graph: Graph, backend=None):
        self.graph = graph                # after the passes
        self.source_graph = source_graph  # as traced
        # kernel calls over a statically planned arena
        self.program = lower(graph, backend=backend)

    def __call__(self, *args) -> list:
        try:
            runner = self.program.program._runner  # built on the first call
            return runner(*args) if runner is not None else run(self.program.program, args)
        except SporelingError as exc:
            # a `raise` of the user's code (a `check`): their exception, not the runtime's
            # report of a failed kernel
            user = raised_by_check(exc)
            if user is None:
                with_function(exc)  # the equation's file:line, and its function
                raise
            raise user from None

    @property
    def memory(self) -> dict:
        """The memory plan's statistics: arena bytes, liveness lower bound, their ratio,
        in-place reuses (see :meth:`~sporeling.compiler.lowering.LoweredProgram.memory`)."""
        return self.program.memory

    def __repr__(self) -> str:
        return f"<Executable {self.graph.name}: {len(self.graph.equations)} equations>"


def compile_graph(graph: Graph, *, level: str | None = None, backend=None) -> Executable:
    """Verify ``graph``, optimise it at ``level`` and make it runnable on ``backend``
    (default: the one the context's device target chooses); the passes know it too."""
    verify(graph)
    if backend is None:
        backend = get_backend(get_context("device_target"))
    return Executable(optimize(graph, level, backend=backend), graph, backend)
