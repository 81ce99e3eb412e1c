"""The quantisation primitives: ``quantize`` / ``dequantize`` (ONNX's QuantizeLinear and
DequantizeLinear) and the integer compute ``qconv2d`` / ``qmatmul`` (int8 operands, int32
accumulation).

Unlike most primitives, ``quantize`` and ``dequantize`` take operands of several dtypes, as
ONNX's do: the value, a float32 ``scale`` and a ``zero_point`` of the quantised dtype, both
scalars (per tensor) or vectors along ``axis`` (per channel). Integer results carry no
gradient (see :mod:`.straight_through` for ``fake_quant``, whose gradient passes straight
through, for training).

    >>> import numpy as np
    >>> q = quantize(np.float32([-1.0, 0.0, 0.5, 9.0]), np.float32(0.05), np.int8(0))
    >>> q
    array([-20,   0,  10, 127], dtype=int8)
    >>> dequantize(q, np.float32(0.05), np.int8(0))
    array([-1.  ,  0.  ,  0.5 ,  6.35], dtype=float32)
"""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, ShapeError

from ..core import Aval, Primitive, bind, def_nondifferentiable
from ..core.batching import def_batching

__all__ = ["quantize", "dequantize", "qconv2d", "qmatmul", "QUANT_DTYPES",
           "quantize_p", "dequantize_p", "qconv2d_p", "qmatmul_p"]

QUANT_DTYPES = (np.dtype(np.int8), np.dtype(np.uint8))

quantize_p = Primitive("quantize")
dequantize_p = Primitive("dequantize")
qconv2d_p = Primitive("qconv2d")
qmatmul_p = Primitive("qmatmul")
def_nondifferentiable(quantize_p, dequantize_p, qconv2d_p, qmatmul_p)


def _check_qparams(op, x, scale, zero_point, axis, zp_dtypes):
    if np.dtype(scale.dtype) != np.float32:
        raise DTypeError("the scale must be float32", op=op, got=str(scale.dtype))
    if np.dtype(zero_point.dtype) not in zp_dtypes:
        raise DTypeError("unsupported zero point dtype", op=op,
                         expected=" or ".join(map(str, zp_dtypes)), got=str(zero_point.dtype))
    if tuple(scale.shape) != tuple(zero_point.shape):
        raise ShapeError("scale and zero point differ in shape", op=op,
                         got=f"{tuple(scale.shape)} and {tuple(zero_point.shape)}")
    if axis is None:
        if tuple(scale.shape) != ():
            raise ShapeError("a per-tensor scale is a scalar (pass axis= for per-channel)",
                             op=op, expected="shape ()", got=tuple(scale.shape))
        return
    if not -len(x.shape) <= axis < len(x.shape):
        raise ShapeError("axis out of range", op=op, expected=f"an axis of {x.shape}", got=axis)
    if tuple(scale.shape) != (x.shape[axis],):
        raise ShapeError("a per-channel scale has one entry per channel of the axis", op=op,
                         expected=f"shape ({x.shape[axis]},) for axis {axis} of {x.shape}",
                         got=tuple(scale.shape))


@quantize_p.def_abstract_eval
def _quantize_aval(x, scale, zero_point, *, axis):
    if not np.issubdtype(np.dtype(x.dtype), np.floating):
        raise DTypeError("quantize takes a float value", op="quantize", got=str(x.dtype))
    _check_qparams("quantize", x, scale, zero_point, axis, QUANT_DTYPES)
    return Aval(tuple(x.shape), np.dtype(zero_point.dtype))


@dequantize_p.def_abstract_eval
def _dequantize_aval(q, scale, zero_point, *, axis):
    allowed = QUANT_DTYPES + (np.dtype(np.int32),)
    if np.dtype(q.dtype) not in allowed:
        raise DTypeError("dequantize takes an int8, uint8 or int32 value", op="dequantize",
                         got=str(q.dtype))
    if np.dtype(zero_point.dtype) != np.dtype(q.dtype):
        raise DTypeError("the zero point has the quantised value's dtype", op="dequantize",
                         expected=str(q.dtype), got=str(zero_point.dtype))
    _check_qparams("dequantize", q, scale, zero_point, axis, allowed)
    return Aval(tuple(q.shape), np.dtype(np.float32))


def _check_int8(op, **operands):
    for name, v in operands.items():
        if np.dtype(v.dtype) != np.int8:
            raise DTypeError(f"{name} must be int8", op=op, got=str(v.dtype))


@qconv2d_p.def_abstract_eval
def _qconv2d_aval(x, w, *, x_zero_point, stride, padding, dilation, groups):
    _check_int8("qconv2d", x=x, w=w)
    if len(x.shape) != 4 or len(w.shape) != 4 or x.shape[1] != w.shape[1] * groups:
        raise ShapeError("qconv2d takes x (N, C, H, W) and w (O, C/groups, KH, KW)",
                         op="qconv2d", got=f"x {tuple(x.shape)}, w {tuple(w.shape)}, "
                                           f"groups {groups}")
    size = [(n + lo + hi - d * (k - 1) - 1) // s + 1 for n, k, s, (lo, hi), d in
            zip(x.shape[2:], w.shape[2:], stride, padding, dilation)]
    return Aval((x.shape[0], w.shape[0], *size), np.dtype(np.int32))


@qmatmul_p.def_abstract_eval
def _qmatmul_aval(a, b, *, a_zero_point):
    _check_int8("qmatmul", a=a, b=b)
    if len(a.shape) != 2 or len(b.shape) != 2 or a.shape[1] != b.shape[0]:
        raise ShapeError("qmatmul takes a (M, K) and b (K, N)", op="qmatmul",
                         got=f"{tuple(a.shape)} and {tuple(b.shape)}")
    return Aval((a.shape[0], b.shape[1]), np.dtype(np.int32))


def _bind_checked(prim, *args, **params):
    # the eager interpreter runs kernels straight away (abstract rules only explain their
    # failures), and NumPy would happily multiply a float "int8" operand: check first
    prim.abstract(*args, **params)
    return bind(prim, *args, **params)


def _qparams(scale, zero_point, dtype):
    scale = scale if hasattr(scale, "dtype") else np.float32(scale)
    zero_point = zero_point if hasattr(zero_point, "dtype") else np.dtype(dtype).type(zero_point)
    return scale, zero_point


def quantize(x, scale, zero_point=0, *, axis: int | None = None, dtype="int8"):
    """``clip(round(x / scale) + zero_point)`` in the zero point's dtype (int8 by default);
    ``scale``/``zero_point`` scalars, or vectors along ``axis`` (per channel)."""
    scale, zero_point = _qparams(scale, zero_point, dtype)
    return _bind_checked(quantize_p, x, scale, zero_point, axis=axis)


def dequantize(q, scale, zero_point=0, *, axis: int | None = None):
    """``(q - zero_point) * scale`` in float32 (``q`` int8, uint8 or an int32 accumulator)."""
    scale, zero_point = _qparams(scale, zero_point, q.dtype)
    return _bind_checked(dequantize_p, q, scale, zero_point, axis=axis)


def qconv2d(x, w, *, x_zero_point: int = 0, stride=(1, 1), padding=((0, 0), (0, 0)),
            dilation=(1, 1), groups: int = 1):
    """``conv2d(x - x_zero_point, w)`` on int8 ``x`` and symmetric int8 ``w``, summed in int32."""
    return _bind_checked(qconv2d_p, x, w, x_zero_point=int(x_zero_point), stride=tuple(stride),
                padding=tuple(tuple(p) for p in padding), dilation=tuple(dilation),
                groups=int(groups))


def qmatmul(a, b, *, a_zero_point: int = 0):
    """``(a - a_zero_point) @ b`` on int8 operands, summed in int32."""
    return _bind_checked(qmatmul_p, a, b, a_zero_point=int(a_zero_point))


def _moved_axis(axis, ndim, dim):
    """``axis`` of an example (rank ``ndim``) in the batched value with its batch at ``dim``."""
    axis = axis % ndim
    return axis if axis < dim else axis + 1


@def_batching(quantize_p, dequantize_p)
def _batch_qdq(args, dims, *, axis):
    # scale and zero point are per model, not per example
    if any(d is not None for d in dims[1:]):
        from ..core import MissingRuleError
        raise MissingRuleError("vmap over a quantisation scale or zero point is not supported",
                               op="vmap", got="a batched scale or zero point")
    x, scale, zero_point = args
    prim = quantize_p if np.dtype(zero_point.dtype) in QUANT_DTYPES and \
        np.issubdtype(np.dtype(x.dtype), np.floating) else dequantize_p
    d = dims[0]
    if d is None:
        return bind(prim, x, scale, zero_point, axis=axis), None
    moved = None if axis is None else _moved_axis(axis, len(x.shape) - 1, d)
    return bind(prim, x, scale, zero_point, axis=moved), d
