"""Pooling over NCHW inputs: max, average, adaptive average.

Max pooling is a primitive with two results, the maxima and each window's argmax (the
offset inside the window, int64), so the backward reuses the argmax instead of searching
again. Two linear primitives close it under differentiation: ``max_pool2d_scatter`` (the
gradient: each output gradient goes to its window's argmax) and ``max_pool2d_gather`` (its
adjoint: read each window at its argmax). Average pooling is linear: ``avg_pool2d`` and
``avg_pool2d_transpose`` are each other's backward. Adaptive average pooling is two
matmuls with constant averaging matrices (windows ``floor(i*H/OH) .. ceil((i+1)*H/OH)``).
"""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError

from ...core import Aval, Primitive, bind, def_backward
from .._batching import at_front, batch_size, fold, unfold
from .._util import as_operand, float_operand
from ._params import check_ndim, pair, pool_padding, window_output

__all__ = ["max_pool2d", "avg_pool2d", "adaptive_avg_pool2d"]

max_pool2d_p = Primitive("max_pool2d", core=True, multiple_results=True)
max_pool2d_scatter_p = Primitive("max_pool2d_scatter", core=True)
max_pool2d_gather_p = Primitive("max_pool2d_gather", core=True)
avg_pool2d_p = Primitive("avg_pool2d", core=True)
avg_pool2d_transpose_p = Primitive("avg_pool2d_transpose", core=True)


def _pooled_shape(op, x, kernel_size, stride, padding, dilation=(1, 1)):
    check_ndim(op, "input", x, 4, "N, C, H, W")
    return tuple(x.shape[:2]) + window_output(op, x.shape[2:], kernel_size, stride, padding,
                                              dilation, x.shape)


def _check_window_shape(op, g, x_shape, params):
    want = _pooled_shape(op, Aval(tuple(x_shape), g.dtype), **params)
    if tuple(g.shape) != want:
        raise ShapeError("pooled operand has the wrong shape", op=op, expected=want,
                         got=tuple(g.shape))


@max_pool2d_p.def_abstract_eval
def _max_pool2d_aval(x, *, kernel_size, stride, padding, dilation):
    shape = _pooled_shape("max_pool2d", x, kernel_size, stride, padding, dilation)
    return Aval(shape, x.dtype), Aval(shape, np.dtype(np.int64))


@max_pool2d_scatter_p.def_abstract_eval
def _max_pool2d_scatter_aval(g, index, *, input_size, **params):
    x_shape = tuple(g.shape[:2]) + tuple(input_size)
    _check_window_shape("max_pool2d_scatter", g, x_shape, params)
    return Aval(x_shape, g.dtype)


@max_pool2d_gather_p.def_abstract_eval
def _max_pool2d_gather_aval(v, index, *, input_size, **params):
    shape = _pooled_shape("max_pool2d_gather", v, **params)
    if tuple(index.shape) != shape:
        raise ShapeError("argmax has the wrong shape", op="max_pool2d_gather",
                         expected=shape, got=tuple(index.shape))
    return Aval(shape, v.dtype)


@def_backward(max_pool2d_p, uses=("out",))
def _max_pool2d_bwd(ct, x, *, out, **params):
    return (bind(max_pool2d_scatter_p, ct[0], out[1], input_size=tuple(x.shape[2:]),
                 **params),)


@def_backward(max_pool2d_scatter_p, uses=(1,))
def _max_pool2d_scatter_bwd(ct, g, index, *, out, **params):
    return bind(max_pool2d_gather_p, ct, index, **params), None


@def_backward(max_pool2d_gather_p, uses=(1,))
def _max_pool2d_gather_bwd(ct, v, index, *, out, **params):
    return bind(max_pool2d_scatter_p, ct, index, **params), None


@avg_pool2d_p.def_abstract_eval
def _avg_pool2d_aval(x, *, kernel_size, stride, padding, count_include_pad):
    return Aval(_pooled_shape("avg_pool2d", x, kernel_size, stride, padding), x.dtype)


@avg_pool2d_transpose_p.def_abstract_eval
def _avg_pool2d_transpose_aval(g, *, input_size, count_include_pad, **params):
    x_shape = tuple(g.shape[:2]) + tuple(input_size)
    _check_window_shape("avg_pool2d_transpose", g, x_shape, params)
    return Aval(x_shape, g.dtype)


@def_backward(avg_pool2d_p, uses=())
def _avg_pool2d_bwd(ct, x, *, out, **params):
    return (bind(avg_pool2d_transpose_p, ct, input_size=tuple(x.shape[2:]), **params),)


@def_backward(avg_pool2d_transpose_p, uses=())
def _avg_pool2d_transpose_bwd(ct, g, *, out, input_size, **params):
    return (bind(avg_pool2d_p, ct, **params),)


def _pool_params(op, kernel_size, stride, padding):
    kernel = pair(op, "kernel_size", kernel_size, 1)
    stride = kernel if stride is None else pair(op, "stride", stride, 1)
    return kernel, stride, pool_padding(op, padding, kernel)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1):
    """Maximum over each ``kernel_size`` window of NCHW ``input`` (``stride`` defaults to
    the kernel; padding, at most half the kernel, never wins). The gradient goes to the
    first maximum of each window.

        >>> import numpy as np
        >>> max_pool2d(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4), 2)
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)
    """
    x = as_operand(input)
    kernel, stride, padding = _pool_params("max_pool2d", kernel_size, stride, padding)
    params = dict(kernel_size=kernel, stride=stride, padding=padding,
                  dilation=pair("max_pool2d", "dilation", dilation, 1))
    _max_pool2d_aval(x, **params)
    return bind(max_pool2d_p, x, **params)[0]


def avg_pool2d(input, kernel_size, stride=None, padding=0, count_include_pad=True):
    """Mean over each window of NCHW ``input``. With ``count_include_pad`` (the default, as
    in PyTorch) padded zeros count in the divisor; without, only the input's elements.

        >>> import numpy as np
        >>> avg_pool2d(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4), 2)
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)
    """
    x = float_operand(input)
    kernel, stride, padding = _pool_params("avg_pool2d", kernel_size, stride, padding)
    params = dict(kernel_size=kernel, stride=stride, padding=padding,
                  count_include_pad=bool(count_include_pad))
    _avg_pool2d_aval(x, **params)
    return bind(avg_pool2d_p, x, **params)


def _averaging_matrix(size: int, out: int, dtype) -> np.ndarray:
    """(out, size): row ``i`` averages ``floor(i*size/out) .. ceil((i+1)*size/out)``."""
    m = np.zeros((out, size), dtype)
    for i in range(out):
        lo, hi = (i * size) // out, -((-(i + 1) * size) // out)
        m[i, lo:hi] = 1.0 / (hi - lo)
    return m


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to ``output_size`` (an int, or a pair where None keeps the input's
    size), with PyTorch's windows.

        >>> import numpy as np
        >>> adaptive_avg_pool2d(np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3), (1, 2))
        array([[[[2., 3.]]]], dtype=float32)
    """
    from ..linalg import matmul
    x = float_operand(input)
    if len(x.shape) not in (3, 4):
        raise ShapeError("input must be 3-d or 4-d", op="adaptive_avg_pool2d",
                         expected="(N, C, H, W) or (C, H, W)", got=tuple(x.shape))
    h, w = x.shape[-2:]
    size = (output_size, output_size) if not isinstance(output_size, (tuple, list)) \
        else tuple(output_size)
    oh, ow = (h if size[0] is None else size[0]), (w if size[1] is None else size[1])
    oh, ow = pair("adaptive_avg_pool2d", "output_size", (oh, ow), 1)
    if (oh, ow) != (h, w):
        x = matmul(_averaging_matrix(h, oh, x.dtype), x) if oh != h else x
        x = matmul(x, _averaging_matrix(w, ow, x.dtype).T) if ow != w else x
    return x


# ---- vmap: every operand's batch joins its N axis (the examples are independent samples)

def _folding_batching(prim):
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        out = bind(prim, *[fold(at_front(a, d, size)) for a, d in zip(args, dims)], **params)
        if prim.multiple_results:
            return tuple(unfold(o, size) for o in out), (0,) * len(out)
        return unfold(out, size), 0
    return rule


for _prim in (max_pool2d_p, max_pool2d_scatter_p, max_pool2d_gather_p, avg_pool2d_p,
              avg_pool2d_transpose_p):
    _prim.def_batching(_folding_batching(_prim))
