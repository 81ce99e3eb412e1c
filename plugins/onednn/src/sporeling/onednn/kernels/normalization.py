"""``normalize`` (``y = (x - mean) / sqrt(var + eps)``, biased statistics kept as size-1
axes): oneDNN batch normalisation when the statistics are per channel (every axis but 1:
``(N, C)``, ``(N, C, L)``, ``(N, C, H, W)``, ``(N, C, D, H, W)``), layer normalisation when
they are per row (the trailing axes, seen as a 2-D ``rows x features``). Both run forward
training with no scale or shift and no flags, so they compute the statistics and hand them
back. Any other set of axes is not served: NumPy's kernel runs.

oneDNN's statistics are ``(C,)`` and ``(rows,)``; ours keep the reduced axes as 1s, which is
the same contiguous memory, so they are written in place.
"""
from __future__ import annotations

import numpy as np

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from .. import constants as C
from ..memory import Desc
from ..plan import PrimitiveDesc, cached_plan
from ._serve import NotServed, contiguous, onednn_kernel, output

_PLAIN = Desc.plain


def _batch_plan(shape, dtype, eps, block=None):
    c = shape[1]

    def build(b):
        data = Desc.activation(shape, dtype, block) if len(shape) == 4 else _PLAIN(shape, dtype)
        pd = PrimitiveDesc("batch_normalization_forward", C.dnnl_forward_training,
                           data, data, eps, C.dnnl_normalization_flags_none)
        b.execute(pd, {C.DNNL_ARG_SRC: b.user(data),
                       C.DNNL_ARG_DST: b.user(data),
                       C.DNNL_ARG_MEAN: b.user(_PLAIN((c,), dtype)),
                       C.DNNL_ARG_VARIANCE: b.user(_PLAIN((c,), dtype))})

    return cached_plan(("normalize/batch", shape, dtype, eps, block), build)


def _layer_plan(rows, features, dtype, eps):
    def build(b):
        shape = (rows, features)
        pd = PrimitiveDesc("layer_normalization_forward", C.dnnl_forward_training,
                           _PLAIN(shape, dtype), _PLAIN(shape, dtype),
                           _PLAIN((rows,), dtype), eps, C.dnnl_normalization_flags_none)
        b.execute(pd, {C.DNNL_ARG_SRC: b.user(_PLAIN(shape, dtype)),
                       C.DNNL_ARG_DST: b.user(_PLAIN(shape, dtype)),
                       C.DNNL_ARG_MEAN: b.user(_PLAIN((rows,), dtype)),
                       C.DNNL_ARG_VARIANCE: b.user(_PLAIN((rows,), dtype))})

    return cached_plan(("normalize/layer", rows, features, dtype, eps), build)


def _plan(shape, dtype, axis, eps):
    ndim = len(shape)
    if 0 in shape:
        raise NotServed("normalize", "an empty input")
    if 2 <= ndim <= 5 and axis == (0,) + tuple(range(2, ndim)):
        return _batch_plan(shape, dtype, eps)
    if axis and axis == tuple(range(ndim - len(axis), ndim)):
        features = int(np.prod(shape[ndim - len(axis):]))
        return _layer_plan(int(np.prod(shape[:ndim - len(axis)])), features, dtype, eps)
    raise NotServed("normalize", f"axis {axis} of a {ndim}-d input is neither every axis "
                                 "but 1 (batch norm) nor the trailing axes (layer norm)")


def batch_norm_blocked(backend, x, *, eps, block):
    """``normalize`` over ``(0, 2, 3)`` of a channel-blocked activation ``(N, C/b, H, W,
    b)``: ``(y, mean, var)``, ``y`` blocked as ``x``, the statistics ``(1, C, 1, 1)``."""
    x = contiguous(x)
    n, cb, h, w, b = x.shape
    shape, stats = (n, cb * b, h, w), (1, cb * b, 1, 1)
    y, mean, var = (backend.allocate(s, x.dtype) for s in (x.shape, stats, stats))
    _batch_plan(shape, x.dtype, float(eps), block).run(x, y, mean, var)
    if RECORDING:
        capture.pure()
    return y, mean, var


@onednn_kernel("normalize")
def normalize(backend, x, out=None, *, axis, eps):
    """``(y, mean, var)`` as NumPy's ``normalize``; other axes: NumPy's kernel."""
    axis = tuple(sorted(a % max(x.ndim, 1) for a in axis))
    plan = _plan(x.shape, x.dtype, axis, float(eps))
    x = contiguous(x)
    stats = tuple(1 if i in axis else n for i, n in enumerate(x.shape))
    given = out if out is not None else (None, None, None)
    results = [output(backend, o, s, x.dtype) for o, s in zip(given, (x.shape, stats, stats))]
    # a given buffer that is not contiguous: oneDNN writes a fresh one, copied in after
    direct = [r if r.flags.c_contiguous else np.empty(r.shape, r.dtype) for r in results]
    plan.run(x, *direct)
    for r, d in zip(results, direct):
        if d is not r:
            np.copyto(r, d)
    return tuple(results)
