"""Parameter operation functions of MindSpore r2.3 ``mindspore.ops``: they update a
``Parameter`` in place (``set_data``; under Graph mode the new value is written back after
each run) and return it. A plain Tensor input gets a new Tensor back instead."""
from __future__ import annotations

import sporeling.expression as sx

from ._common import SporelingError, ops, tensor
from .indexing import _ints, _tensor_scatter, _write_back

__all__ = ["assign", "assign_add", "assign_sub", "scatter_add", "scatter_sub", "scatter_mul",
           "scatter_div", "scatter_max", "scatter_min", "scatter_update", "scatter_nd_add",
           "scatter_nd_sub", "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max",
           "scatter_nd_min", "scatter_nd_update"]


def _check_param(op, variable):
    if not isinstance(variable, sx.Tensor):
        raise SporelingError("the variable must be a Parameter (or a Tensor)", op=op,
                             expected="Parameter", got=type(variable).__name__)


def assign(variable, value):
    """variable = value."""
    _check_param("ops.assign", variable)
    v = ops.broadcast_to(ops.cast(tensor(value), variable.dtype), tuple(variable.shape))
    return _write_back(variable, v)


def assign_add(variable, value):
    """variable += value."""
    _check_param("ops.assign_add", variable)
    return _write_back(variable, variable + ops.cast(tensor(value), variable.dtype))


def assign_sub(variable, value):
    """variable -= value."""
    _check_param("ops.assign_sub", variable)
    return _write_back(variable, variable - ops.cast(tensor(value), variable.dtype))


def _rows_as_nd(indices):
    """Row indices (any shape) as index tuples (..., 1) for the nd scatters."""
    return ops.expand_dims(_ints(indices), -1)


def _scatter(op, input_x, indices, updates, kind, nd):
    _check_param(op, input_x)
    idx = _ints(indices) if nd else _rows_as_nd(indices)
    out = _tensor_scatter(op, input_x, idx, ops.cast(tensor(updates), input_x.dtype), kind)
    return _write_back(input_x, out)


def scatter_add(input_x, indices, updates):
    """input_x[indices] += updates (rows along axis 0; repeats accumulate)."""
    return _scatter("ops.scatter_add", input_x, indices, updates, "add", False)


def scatter_sub(input_x, indices, updates):
    return _scatter("ops.scatter_sub", input_x, indices, updates, "sub", False)


def scatter_mul(input_x, indices, updates):
    """input_x[indices] *= updates (one update per row)."""
    return _scatter("ops.scatter_mul", input_x, indices, updates, "mul", False)


def scatter_div(input_x, indices, updates):
    return _scatter("ops.scatter_div", input_x, indices, updates, "div", False)


def scatter_max(input_x, indices, updates):
    return _scatter("ops.scatter_max", input_x, indices, updates, "max", False)


def scatter_min(input_x, indices, updates):
    return _scatter("ops.scatter_min", input_x, indices, updates, "min", False)


def scatter_update(input_x, indices, updates):
    """input_x[indices] = updates (rows along axis 0)."""
    return _scatter("ops.scatter_update", input_x, indices, updates, "update", False)


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """input_x[index tuple] += updates for the index tuples in ``indices``' last axis."""
    return _scatter("ops.scatter_nd_add", input_x, indices, updates, "add", True)


def scatter_nd_sub(input_x, indices, updates, use_locking=False):
    return _scatter("ops.scatter_nd_sub", input_x, indices, updates, "sub", True)


def scatter_nd_mul(input_x, indices, updates, use_locking=False):
    return _scatter("ops.scatter_nd_mul", input_x, indices, updates, "mul", True)


def scatter_nd_div(input_x, indices, updates, use_locking=False):
    return _scatter("ops.scatter_nd_div", input_x, indices, updates, "div", True)


def scatter_nd_max(input_x, indices, updates, use_locking=False):
    return _scatter("ops.scatter_nd_max", input_x, indices, updates, "max", True)


def scatter_nd_min(input_x, indices, updates, use_locking=False):
    return _scatter("ops.scatter_nd_min", input_x, indices, updates, "min", True)


def scatter_nd_update(input_x, indices, updates, use_locking=True):
    return _scatter("ops.scatter_nd_update", input_x, indices, updates, "update", True)
