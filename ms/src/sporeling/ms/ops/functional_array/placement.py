"""Device, layout and debugging functions of 2.10's ``mindspore.ops``: ``move_to`` and
``reshard`` (one device, one layout: a copy), ``tensordump`` (a ``.npy`` file),
``stop_gradient_`` (detach in place) and ``coalesce`` (merge repeated COO indices)."""
from __future__ import annotations

import os

import numpy as np

import sporeling.expression as sx
from sporeling.ms.common import eager_only
from sporeling.ms.common.tensor_method_adapters import _write

from ._common import SporelingError, Tensor, ops, tensor, value_of

__all__ = ["move_to", "reshard", "tensordump", "stop_gradient_", "coalesce"]

_DEVICES = ("CPU", "Ascend", "GPU")
_dump_count = 0


def move_to(input, to="CPU", blocking=True):  # noqa: A002
    """A copy of ``input`` (a Tensor, or a list/tuple of ints) on device ``to``; Sporeling
    has one device, so it is the same data."""
    if to not in _DEVICES:
        raise SporelingError("unknown device", op="ops.move_to", expected=" / ".join(_DEVICES),
                             got=repr(to))
    return ops.add(tensor(input), 0)


def reshard(tensor_, layout):
    """``tensor_`` laid out as ``layout`` across devices: one device, so a copy (a
    ``Layout`` or a tuple of strategies is accepted and changes nothing)."""
    if layout is None:
        raise SporelingError("needs a layout", op="ops.reshard", expected="a Layout",
                             got="None")
    return ops.add(tensor(tensor_), 0)


@eager_only("ops.tensordump")
def tensordump(file_name, tensor, mode="out"):  # noqa: F811 - MindSpore's argument name
    """Saves ``tensor`` as ``<file_name>_<dtype>_<id>.npy`` (``mode='in'``:
    ``<file_name>_in_<dtype>_<id>.npy``), ``id`` counting the dumps of this process;
    bfloat16 is saved as float32."""
    global _dump_count
    if mode not in ("out", "in"):
        raise SporelingError("unknown mode", op="ops.tensordump", expected="'out' or 'in'",
                             got=repr(mode))
    if not isinstance(file_name, str):
        raise SporelingError("file_name must be a str", op="ops.tensordump",
                             expected="a path", got=type(file_name).__name__)
    value = value_of(tensor)
    dtype = str(value.dtype)
    if dtype == "bfloat16":
        value = value.astype(np.float32)
    stem = file_name[:-4] if file_name.endswith(".npy") else file_name
    parts = [stem] + (["in"] if mode == "in" else []) + [dtype, str(_dump_count)]
    _dump_count += 1
    path = "_".join(parts) + ".npy"
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    np.save(path, value)


def stop_gradient_(input):  # noqa: A002
    """Detaches ``input`` in place (no gradient flows back through it); returns it."""
    if not isinstance(input, Tensor):
        raise SporelingError("writes into a Tensor", op="ops.stop_gradient_",
                             expected="a Tensor", got=type(input).__name__)
    return _write(input, sx.stop_gradient(input))


@eager_only("ops.coalesce")
def coalesce(x_indices, x_values, x_shape):
    """Sorted unique COO indices with the values of repeats summed:
    ``(indices (ndim, nnz'), values, shape)``."""
    idx = value_of(tensor(x_indices))
    if idx.dtype.kind not in "iu":
        raise SporelingError("x_indices must be integers", op="ops.coalesce",
                             expected="an int tensor", got=str(idx.dtype))
    vals = value_of(tensor(x_values))
    keys, inverse = np.unique(idx.T, axis=0, return_inverse=True)
    summed = np.zeros(len(keys), vals.dtype)
    np.add.at(summed, inverse.reshape(-1), vals)
    return tensor(keys.T.copy()), tensor(summed), tensor(x_shape)
