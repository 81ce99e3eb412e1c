"""A dynamic batch axis from two traces: the same network traced at batch sizes ``B`` and
``B + 1`` gives graphs of the same equations whose batch-dependent numbers differ. An
integer parameter that is ``k*B`` in one and ``k*(B+1)`` in the other becomes
:class:`~.builder.Batch` ``(k)``; a constant whose first axis is the batch (LSTM's zero
state) must repeat one row and becomes an Expand at run time."""
from __future__ import annotations

import numpy as np

from ...ir import Const, Graph
from ..errors import ONNXExportError
from .builder import Batch

__all__ = ["batch_params", "batch_consts"]


def _diff(a, b, batch: int, where: str):
    if isinstance(a, bool) or a is None or isinstance(a, (str, float, np.dtype)):
        return a
    if isinstance(a, (int, np.integer)) and isinstance(b, (int, np.integer)):
        if a == b:
            return a
        k = int(b) - int(a)
        if k > 0 and int(a) == k * batch:
            return Batch(k)
        raise ONNXExportError("a parameter changes with the batch size but is not a multiple "
                              "of it", op=where, got=f"{a} at batch {batch}, {b} at "
                              f"batch {batch + 1}", hint="export with dynamic_batch=False")
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b):
        return type(a)(_diff(x, y, batch, where) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return {k: _diff(a[k], b[k], batch, where) for k in a}
    return a


def _mismatch(what: str, got) -> ONNXExportError:
    return ONNXExportError(f"the graph's {what} changes with the batch size", op="to_onnx",
                           got=got, hint="export with dynamic_batch=False")


def batch_params(graph: Graph, other: Graph, batch: int) -> list[dict]:
    """Per equation of ``graph``, its parameters with batch-dependent ints as ``Batch``."""
    if len(graph.equations) != len(other.equations):
        raise _mismatch("number of equations", f"{len(graph.equations)} and "
                                               f"{len(other.equations)}")
    out = []
    for e1, e2 in zip(graph.equations, other.equations):
        if e1.prim is not e2.prim or e1.params.keys() != e2.params.keys():
            raise _mismatch("structure", f"{e1.prim.name} and {e2.prim.name}")
        out.append({k: _diff(v, e2.params[k], batch, e1.prim.name)
                    for k, v in e1.params.items()})
    return out


def batch_consts(graph: Graph, other: Graph, batch: int) -> dict[int, np.ndarray]:
    """``id(const) -> one row`` for the constants of ``graph`` whose first axis is the batch."""
    found = {}
    for e1, e2 in zip(graph.equations, other.equations):
        for c1, c2 in zip(e1.inputs, e2.inputs):
            if not (isinstance(c1, Const) and isinstance(c2, Const)):
                continue
            if c1.value.shape == c2.value.shape:
                continue
            v1, v2 = c1.value, c2.value
            if (v1.ndim == 0 or v1.shape[0] != batch or v2.shape != (batch + 1, *v1.shape[1:])
                    or not (v1 == v1[:1]).all() or not (v2 == v1[:1]).all()):
                raise _mismatch(f"constant operand of {e1.prim.name}",
                                f"{v1.shape} and {v2.shape}")
            found[id(c1)] = v1[:1]
    return found
