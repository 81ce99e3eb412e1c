"""The ``max_pool2d`` and ``max_pool2d_scatter`` kernels of the ``tvm`` backend: one
generated function per image and window geometry (:mod:`.pooling`), compiled with the
program's fused chains (or alone on a first call), called on the arrays as planes
``(N*C, H, W)``; what is not generated runs the provider below."""
from __future__ import annotations

import numpy as np

from .kernels import below_call, compact, generated, invoke, made_call, out_target, written
from .pooling import pool_spec, pool_unsupported

__all__ = ["max_pool2d", "max_pool2d_scatter"]

def max_pool2d(backend, x, out=None, *, kernel_size, stride, padding, dilation):
    """``(maxima, argmax)`` as NumPy's kernel (``kernels/nn/pooling.py``) gives them."""
    params = {"kernel_size": kernel_size, "stride": stride, "padding": padding,
              "dilation": dilation}
    return _call("max_pool2d", x, params)(backend, (x,), out)


def max_pool2d_scatter(backend, g, index, out=None, *, input_size, kernel_size, stride,
                       padding, dilation):
    """Each of ``g``'s values added at its window's argmax."""
    params = {"input_size": input_size, "kernel_size": kernel_size, "stride": stride,
              "padding": padding, "dilation": dilation}
    return _call("max_pool2d_scatter", g, params)(backend, (g, index), out)


def _call(kind, x, params):
    return made_call((kind, x.shape, x.dtype, tuple(params.values())),
                     lambda: _make(kind, x, params))


def _make(kind, x, params):
    spec, fn = generated(kind, pool_unsupported(kind, x.shape, x.dtype),
                         lambda: pool_spec(kind, x.shape, x.dtype, params))
    if fn is None:
        return below_call(kind, params)
    n, c = x.shape[:2]
    image, pooled = (n * c,) + spec.size, (n * c,) + spec.pooled
    x_shape, y_shape = (n, c) + spec.size, (n, c) + spec.pooled

    if kind == "max_pool2d":
        def run(backend, inputs, out):
            y, index = out if out is not None else (None, None)
            y_to, index_to = out_target(backend, y, y_shape, x.dtype), \
                out_target(backend, index, y_shape, np.int64)
            invoke(fn, compact(inputs[0], image), y_to.reshape(pooled),
                   index_to.reshape(pooled))
            return written(y, y_to), written(index, index_to)
        return run

    def scatter(backend, inputs, out):
        dx = out_target(backend, out, x_shape, x.dtype)
        invoke(fn, compact(inputs[0], pooled), compact(inputs[1], pooled), dx.reshape(image))
        return written(out, dx)
    return scatter

