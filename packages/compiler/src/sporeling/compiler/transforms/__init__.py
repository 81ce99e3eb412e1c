"""Transformations of functions and graphs: ``vmap``, forward-mode ``jvp`` and the graph
(IR -> IR) versions of ``vjp``, ``grad`` and ``jvp``.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.transforms import jvp, vmap
    >>> jvp(ops.sin, (np.array(0.0),), (np.array(2.0),))
    (array(0.), array(2.))
    >>> vmap(lambda a, b: ops.sum(ops.mul(a, b)))(np.ones((2, 3)), np.ones((2, 3)))
    array([3., 3.])
"""
from .graph_autodiff import grad_graph, value_and_grad_graph, vjp_graph
from .jvp import jvp, jvp_graph
from .vmap import BatchInterpreter, BatchTracer, vmap

__all__ = ["grad_graph", "value_and_grad_graph", "vjp_graph", "jvp", "jvp_graph", "vmap",
           "BatchInterpreter", "BatchTracer"]
