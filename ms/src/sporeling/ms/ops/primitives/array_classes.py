"""Array, parameter, debugging and graph-control primitive classes (MindSpore r2.3): thin
adapters over the facade's functions and sx ops."""
from __future__ import annotations

import numpy as np

from sporeling.ms.common.dtype import to_numpy

from ..functional_array import array as farr
from ..functional_array import distance as fdist
from ..functional_array import indexing as findex
from ..functional_array import parameter as fparam
from ..functional_array._common import tensor
from ._args import axes, check, ops
from .base import primitive

__all__ = ["BroadcastTo", "Cast", "Concat", "CumSum", "ExpandDims", "Gather", "Reshape",
           "Select", "Shape", "Slice", "Sort", "Split", "Squeeze", "Stack", "StridedSlice",
           "Tile", "TopK", "Transpose", "Unstack", "Assign", "AssignAdd", "Print", "Depend"]


def _no_attrs():
    pass


def _axis_init(axis=0):
    check(isinstance(axis, int), "Concat", "axis", "an int", axis)


BroadcastTo = primitive("BroadcastTo", lambda shape: None,
                        lambda self, x: farr.broadcast_to(x, self.shape),
                        "``ops.BroadcastTo(shape)(x)``; -1 keeps an axis.")
Cast = primitive("Cast", _no_attrs,
                 lambda self, x, dtype: ops.cast(tensor(x), to_numpy(dtype)),
                 "``ops.Cast()(x, ms.float16)``.")
Concat = primitive("Concat", _axis_init, lambda self, x: farr.concat(x, self.axis),
                   "Join a tuple of tensors: ``ops.Concat(axis=0)((x, y))``.")
Stack = primitive("Stack", _axis_init, lambda self, x: farr.stack(x, self.axis),
                  "Stack a tuple of tensors on a new axis: ``ops.Stack(axis=0)((x, y))``.")


def _unstack_init(axis=0, num=None):
    _axis_init(axis)


Unstack = primitive("Unstack", _unstack_init, lambda self, x: farr.unstack(x, self.axis),
                    "Slices along ``axis``: ``ops.Unstack(axis=0)(x)``.")


def _cumsum_init(exclusive=False, reverse=False):
    check(isinstance(exclusive, bool) and isinstance(reverse, bool), "CumSum", "flags", "bools",
          (exclusive, reverse))


def _cumsum(self, x, axis):
    x = tensor(x)
    axis = axes(axis, x.ndim, "CumSum")
    check(isinstance(axis, int), "CumSum", "axis", "one int", axis)
    out = ops.cumsum(x, axis, reverse=self.reverse)
    return out - x if self.exclusive else out


CumSum = primitive("CumSum", _cumsum_init, _cumsum,
                   "Running sum: ``ops.CumSum(exclusive=False, reverse=False)(x, axis)``.")
ExpandDims = primitive("ExpandDims", _no_attrs,
                       lambda self, x, axis: farr.expand_dims(x, axis),
                       "``ops.ExpandDims()(x, axis)``.")


def _gather_init(batch_dims=0):
    check(isinstance(batch_dims, int), "Gather", "batch_dims", "an int", batch_dims)


Gather = primitive("Gather", _gather_init,
                   lambda self, params, indices, axis: findex.gather(params, indices, axis,
                                                                     self.batch_dims),
                   "``ops.Gather(batch_dims=0)(params, indices, axis)``.")
Reshape = primitive("Reshape", _no_attrs, lambda self, x, shape: farr.reshape(x, shape),
                    "``ops.Reshape()(x, shape)``.")
Select = primitive("Select", _no_attrs, lambda self, cond, x, y: farr.where(cond, x, y),
                   "x where ``cond``, else y: ``ops.Select()(cond, x, y)``.")
Shape = primitive("Shape", _no_attrs, lambda self, x: farr.shape(x),
                  "The shape as a tuple: ``ops.Shape()(x)``.")
Slice = primitive("Slice", _no_attrs,
                  lambda self, x, begin, size: findex.slice(x, begin, size),
                  "``ops.Slice()(x, begin, size)``.")


def _sort_init(axis=-1, descending=False):
    check(isinstance(axis, int), "Sort", "axis", "an int", axis)


def _sort(self, x):
    values, indices = ops.sort(tensor(x), axis=self.axis, descending=self.descending)
    return values, ops.cast(indices, np.int32)


Sort = primitive("Sort", _sort_init, _sort,
                 "``(values, indices)`` sorted along ``axis``: "
                 "``ops.Sort(axis=-1, descending=False)(x)``; indices are int32.")


def _topk_init(sorted=True):  # noqa: A002
    check(isinstance(sorted, bool), "TopK", "sorted", "a bool", sorted)


def _topk(self, input_x, k):
    values, indices = ops.topk(tensor(input_x), int(k), axis=-1)
    return values, ops.cast(indices, np.int32)


TopK = primitive("TopK", _topk_init, _topk,
                 "The ``k`` largest entries of the last axis and their int32 indices: "
                 "``ops.TopK(sorted=True)(x, k)``.")


def _split_init(axis=0, output_num=1):
    check(isinstance(output_num, int) and output_num > 0, "Split", "output_num",
          "a positive int", output_num)


def _split(self, x):
    x = tensor(x)
    axis = axes(self.axis, x.ndim, "Split")
    check(x.shape[axis] % self.output_num == 0, "Split", "output_num",
          f"a divisor of {x.shape[axis]}", self.output_num)
    return tuple(ops.split(x, self.output_num, axis=axis))


Split = primitive("Split", _split_init, _split,
                  "``output_num`` equal pieces along ``axis``: "
                  "``ops.Split(axis=0, output_num=1)(x)``. Note: a number of pieces, unlike "
                  "the functional ``ops.split`` (a piece size).")


def _squeeze_init(axis=()):
    check(isinstance(axis, (int, tuple, list)), "Squeeze", "axis", "an int or a tuple", axis)


Squeeze = primitive("Squeeze", _squeeze_init, lambda self, x: farr.squeeze(x, self.axis),
                    "Remove axes of size 1: ``ops.Squeeze(axis=())(x)``.")


def _strided_init(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    pass


StridedSlice = primitive(
    "StridedSlice", _strided_init,
    lambda self, x, begin, end, strides: findex.strided_slice(
        x, begin, end, strides, self.begin_mask, self.end_mask, self.ellipsis_mask,
        self.new_axis_mask, self.shrink_axis_mask),
    "``ops.StridedSlice(begin_mask=0, ...)(x, begin, end, strides)``.")
Tile = primitive("Tile", _no_attrs, lambda self, x, multiples: farr.tile(x, multiples),
                 "``ops.Tile()(x, multiples)``.")
Transpose = primitive("Transpose", _no_attrs, lambda self, x, perm: farr.transpose(x, perm),
                      "``ops.Transpose()(x, perm)``.")
Assign = primitive("Assign", _no_attrs, lambda self, variable, value: fparam.assign(variable,
                                                                                    value),
                   "variable = value, in place: ``ops.Assign()(param, value)``.")
AssignAdd = primitive("AssignAdd", _no_attrs,
                      lambda self, variable, value: fparam.assign_add(variable, value),
                      "variable += value, in place: ``ops.AssignAdd()(param, value)``.")
Print = primitive("Print", _no_attrs, lambda self, *inputs: fdist.print_(*inputs),
                  "Print tensors and strings: ``ops.Print()('x:', x)``.")
Depend = primitive("Depend", _no_attrs, lambda self, value, expr: value,
                   "``value``, ordered after ``expr``: ``ops.Depend()(value, expr)``. Sporeling "
                   "runs statements in program order, so this only returns ``value``.")
