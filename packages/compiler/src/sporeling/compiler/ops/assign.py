"""assign: a Parameter's new value, written into it -- the one side effect of a graph.

``assign(ref, value)`` writes ``value`` into the buffer of ``ref`` (same shape and dtype)
and returns ``ref``. Eagerly the kernel writes at once (MindSpore's ``ops.assign``). In a
compiled graph Sporeling's Graph-mode front end emits the ``assign`` equations of a step at
the **end** of the graph, one per Parameter written (an optimiser's update, BatchNorm's
moving statistics): every read of the old value comes before them, as MindSpore orders side
effects with ``UpdateState``; reads after the update see the value operand (functional SSA).
Their results are graph outputs, so dead-code elimination keeps them.

    >>> import numpy as np
    >>> w = np.zeros(2, np.float32)
    >>> assign(w, np.array([1.0, 2.0], np.float32)) is w, w
    (True, array([1., 2.], dtype=float32))
"""
from __future__ import annotations

from sporeling.core import DTypeError, ShapeError

from ..core import Aval, Primitive, bind, def_nondifferentiable
from ..core.batching import def_batching
from ._util import as_operand

__all__ = ["assign", "assign_p"]

assign_p = Primitive("assign", core=True)
def_nondifferentiable(assign_p)  # an update, not a function of the parameter's value


@assign_p.def_abstract_eval
def _assign_aval(ref, value):
    if tuple(value.shape) != tuple(ref.shape):
        raise ShapeError("assign: the value must have the shape of what it is written into",
                         op="assign", expected=f"shape {tuple(ref.shape)}",
                         got=f"{tuple(value.shape)}")
    if value.dtype != ref.dtype:
        raise DTypeError("assign: the value must have the dtype of what it is written into",
                         op="assign", expected=str(ref.dtype), got=str(value.dtype))
    return Aval(tuple(ref.shape), ref.dtype)


@def_batching(assign_p)
def _assign_rule(args, dims):
    (ref, value), (dr, dv) = args, dims
    if dr != dv:  # a batch of values cannot go into one unbatched buffer (or vice versa)
        raise ShapeError("vmap of assign needs the target and the value batched alike",
                         op="assign", expected=f"batch axis {dr}", got=f"batch axis {dv}")
    return bind(assign_p, ref, value), dr


def assign(ref, value):
    """Write ``value`` into ``ref`` (same shape and dtype); returns ``ref``."""
    ref, value = as_operand(ref), as_operand(value)
    _assign_aval(ref, value)  # eager kernels skip abstract rules
    return bind(assign_p, ref, value)
