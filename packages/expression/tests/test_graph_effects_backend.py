"""Which Parameter inputs a compiled graph feeds as copies follows the memory facts of the
backend it was lowered for, not NumPy's (issue 23 §9)."""
import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph
from sporeling.runtime import KernelMemory, get_backend

from sporeling.expression.graph.effects import aliased_param_inputs


class _Opaque:
    """A backend whose kernels promise nothing: any output may alias any input."""

    def kernel_memory(self, primitive):
        return KernelMemory.OPAQUE


def test_the_lowering_backends_facts_decide():
    graph = make_graph(lambda w: ops.add(w, 1.0), np.ones(3, np.float32))
    args = (graph, 1, range(0, 1), {0})
    assert aliased_param_inputs(*args, get_backend("numpy")) == []   # add writes fresh
    assert aliased_param_inputs(*args, _Opaque()) == [0]           # may return w itself
