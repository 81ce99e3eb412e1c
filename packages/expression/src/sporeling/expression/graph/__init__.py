"""Graph mode: compile Cells and functions to graphs (MindSpore's ``GRAPH_MODE`` and ``jit``).

One line switches a model from op-by-op execution to compiled graphs giving the same numbers:

    >>> import numpy as np
    >>> import sporeling.expression as sx
    >>> net = sx.nn.SequentialCell(sx.nn.Dense(3, 4), sx.nn.ReLU(), sx.nn.Dense(4, 2))
    >>> x = np.ones((5, 3), np.float32)
    >>> eager = net(x)
    >>> with sx.context(mode=sx.GRAPH_MODE):
    ...     compiled = net(x)                     # traced, compiled, run
    >>> bool(np.allclose(eager.asnumpy(), compiled.asnumpy(), rtol=1e-6))
    True
    >>> net.compile_cache_info()["compile_count"]
    1

``jit`` compiles one function or method whatever the mode (:mod:`.jit`); in Graph mode
every Cell call at the top level is compiled (:mod:`.cell_call`); :mod:`.tracing` says how
Tensors, Parameters and side effects become graph inputs and outputs, :mod:`.cache` when a
graph is reused or recompiled.
"""
from .cache import CompiledFunction
from .jit import JitFunction, jit
from .tracing import is_tracing

__all__ = ["jit", "JitFunction", "CompiledFunction", "is_tracing"]
