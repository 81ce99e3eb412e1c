"""``ops.pyboost_inner_prim``: 2.10's "pyboost" entry points of its C++ kernels, one
``<op>_impl`` object an op, called with every argument positionally in the kernel's order
(``concat_impl(tensors, axis)``, ``smooth_l1_loss_impl(prediction, target, beta,
reduction)``). Here each is the facade's op of the same computation; the ones whose kernel
the facade has no counterpart for (Ascend's flash/paged attention, quantised matmuls, the
backward kernels) are left out."""
from __future__ import annotations

from . import functional as _F
from .arg_handler import (to_dilations, to_kernel_size, to_output_padding,  # noqa: F401
                          to_strides)


class _PyboostImpl:
    """One kernel entry: ``name`` and the facade function it runs."""

    __slots__ = ("name", "_fn")

    def __init__(self, name, fn):
        self.name, self._fn = name, fn

    def __call__(self, *args):
        return self._fn(*args)

    def __repr__(self):
        return f"Prim[{self.name}]"


def _axis(axis):
    return axis[0] if isinstance(axis, (tuple, list)) and len(axis) == 1 else axis


def _reduce(fn):
    # axis () or None: every axis, as MindSpore's Reduce kernels
    return lambda x, axis, keep_dims: fn(x, None if axis in ((), [], None) else
                                         tuple(axis) if isinstance(axis, list) else axis,
                                         keep_dims)


_TABLE = {
    "hshrink": ("HShrink", lambda input, lambd: _F.hardshrink(input, lambd)),
    "smooth_l1_loss": ("SmoothL1Loss", lambda prediction, target, beta, reduction:
                       _F.smooth_l1_loss(prediction, target, beta, reduction)),
    "reduce_any": ("ReduceAny", _reduce(_F.any)),
    "reduce_all": ("ReduceAll", _reduce(_F.all)),
    "reduce_max": ("ReduceMax", _reduce(_F.amax)),
    "reduce_min": ("ReduceMin", _reduce(_F.amin)),
    "concat": ("Concat", lambda tensors, axis: _F.concat(tensors, axis)),
    "meshgrid": ("Meshgrid", lambda inputs, indexing: _F.meshgrid(*inputs,
                                                                   indexing=indexing)),
    "isclose": ("IsClose", lambda input, other, rtol, atol, equal_nan:
                _F.isclose(input, other, rtol, atol, equal_nan)),
    "squeeze": ("Squeeze", lambda input, axis: _F.squeeze(input, axis if axis != () else None)),
    "broadcast_to": ("BroadcastTo", lambda input, shape: _F.broadcast_to(input, shape)),
    "roll": ("Roll", lambda input, shifts, dims: _F.roll(input, shifts, dims)),
    "nan_to_num": ("NanToNum", lambda input, nan, posinf, neginf:
                   _F.nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)),
    "one_hot_ext": ("OneHotExt", lambda tensor, num_classes, on_value, off_value, axis:
                    _F.one_hot(tensor, num_classes, on_value, off_value, axis)),
    "stack_ext": ("StackExt", lambda tensors, dim: _F.stack(tensors, dim)),
    "split": ("Split", lambda input_x, axis, output_num:
              _F.split(input_x, input_x.shape[axis] // output_num, axis)),
    "softmax": ("Softmax", lambda input, axis: _F.softmax(input, _axis(axis))),
    "log_softmax": ("LogSoftmax", lambda logits, axis: _F.log_softmax(logits, _axis(axis))),
    "softshrink": ("SoftShrink", lambda input, lambd: _F.softshrink(input, lambd)),
    "cross": ("Cross", lambda input, other, dim: _F.cross(input, other, dim)),
    "matmul": ("MatMul", lambda input, mat2, transpose_a, transpose_b:
               _F.matmul(_F.swapaxes(input, -1, -2) if transpose_a else input,
                         _F.swapaxes(mat2, -1, -2) if transpose_b else mat2)),
    "batch_mat_mul": ("BatchMatMul", lambda x, y, transpose_a, transpose_b:
                      _F.matmul(_F.swapaxes(x, -1, -2) if transpose_a else x,
                                _F.swapaxes(y, -1, -2) if transpose_b else y)),
    "cummax": ("Cummax", lambda input, axis: _F.cummax(input, axis)),
    "glu": ("GLU", lambda x, axis: _F.glu(x, axis)),
    "triu": ("Triu", lambda input, diagonal: _F.triu(input, diagonal)),
    "reverse_v2": ("ReverseV2", lambda input, axis: _F.flip(input, tuple(axis))),
    "elu_ext": ("EluExt", lambda input, alpha: _F.elu(input, alpha)),
    "diagonal_view": ("DiagonalView", lambda input, offset, dim1, dim2:
                      _F.diagonal(input, offset, dim1, dim2)),
    "binary_cross_entropy": ("BinaryCrossEntropy", lambda input, target, weight, reduction:
                             _F.binary_cross_entropy(input, target, weight, reduction)),
    "binary_cross_entropy_with_logits": (
        "BCEWithLogitsLoss", lambda input, target, weight, posWeight, reduction:
        _F.binary_cross_entropy_with_logits(input, target, weight, posWeight, reduction)),
    "soft_margin_loss": ("SoftMarginLoss", lambda input, target, reduction:
                         _F.soft_margin_loss(input, target, reduction)),
    "rms_norm": ("RmsNorm", lambda x, gamma, epsilon: _F.rms_norm(x, gamma, epsilon)),
}

__all__ = []
for _key, (_name, _fn) in _TABLE.items():
    globals()[f"{_key}_impl"] = _PyboostImpl(_name, _fn)
    __all__.append(f"{_key}_impl")
del _key, _name, _fn
