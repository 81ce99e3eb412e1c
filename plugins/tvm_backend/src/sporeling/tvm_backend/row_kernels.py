"""Kernels of the ``tvm`` backend over rows: ``softmax_cross_entropy`` and its gradient
(:mod:`.softmax_ce`) and ``normalize`` (:mod:`.normalize`), one generated function per row
length, dtypes and parameters (the rows are symbolic), compiled with the program's chains or
alone on a first call; what is not generated, and a cross entropy with a label out of range
(NumPy's kernel names it), runs the provider below."""
from __future__ import annotations

import math

import numpy as np

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from .kernels import below_call, compact, generated, invoke, made_call, out_target, written
from .normalize import NORM_WORK as _NORM_WORK, norm_spec, norm_unsupported
from .softmax_ce import CE_WORK, ce_spec, ce_unsupported

__all__ = ["softmax_cross_entropy", "softmax_cross_entropy_grad", "normalize"]

def softmax_cross_entropy(backend, x, labels, out=None, *, reduction, ignore_index):
    """The losses (``reduction="none"``) or their mean or sum, as NumPy's kernel."""
    params = {"reduction": reduction, "ignore_index": ignore_index}
    return _call("softmax_cross_entropy", (x, labels), params)(backend, (x, labels), out)


def softmax_cross_entropy_grad(backend, x, labels, ct, out=None, *, reduction,
                               ignore_index):
    """``(softmax(x) - onehot(label)) * ct`` (``/ n`` for the mean), 0 where ignored."""
    params = {"reduction": reduction, "ignore_index": ignore_index}
    return _call("softmax_cross_entropy_grad", (x, labels, ct), params)(
        backend, (x, labels, ct), out)


def normalize(backend, x, out=None, *, axis, eps):
    """``(y, mean, var)`` over the trailing ``axis``, as NumPy's kernel gives them."""
    params = {"axis": axis, "eps": eps}
    return _call("normalize", (x,), params)(backend, (x,), out)


def _call(kind, inputs, params):
    specs = tuple([(a.shape, a.dtype) for a in inputs])
    make = _make_norm if kind == "normalize" else _make_ce
    return made_call((kind, specs, tuple(params.values())), lambda: make(kind, specs, params))


def _make_norm(kind, specs, params):
    spec, fn = generated(kind, norm_unsupported(specs, params), lambda: norm_spec(specs, params))
    if fn is None:
        return below_call(kind, params)
    (shape, dtype), axis = specs[0], tuple(params["axis"])
    stats = tuple(1 if i in axis else n for i, n in enumerate(shape))
    rows = math.prod(stats)

    def run(backend, inputs, out):
        outs = out if out is not None else (None, None, None)
        targets = [out_target(backend, o, s, dtype) for o, s in zip(outs, (shape, stats, stats))]
        invoke(fn, compact(inputs[0], (rows, spec.features)),
               targets[0].reshape(rows, spec.features), targets[1].reshape(rows),
               targets[2].reshape(rows), np.empty(_NORM_WORK))
        return tuple(written(o, t) for o, t in zip(outs, targets))
    return run


def _make_ce(kind, specs, params):
    spec, fn = generated(kind, ce_unsupported(kind, specs), lambda: ce_spec(kind, specs, params))
    below = below_call(kind, params)
    if fn is None:
        return below
    (x_shape, dtype), rows = specs[0], specs[0][0][0]
    loss_shape = (rows,) if spec.reduction == "none" else ()
    shape = x_shape if kind != "softmax_cross_entropy" else loss_shape
    flat = shape or (1,)

    def run(backend, inputs, out):
        target = out_target(backend, out, shape, dtype)
        bad = np.empty(1, np.int32)
        operands = [compact(inputs[0], x_shape), compact(inputs[1], (rows,))]
        if len(inputs) == 3:  # the cotangent: (1,) for a reduced loss
            operands.append(compact(inputs[2], loss_shape or (1,)))
        invoke(fn, *operands, target.reshape(flat), np.empty(CE_WORK), bad)
        if RECORDING:  # a native step goes on only while the labels are in range
            capture.check(bad)
        if bad[0]:  # a label out of range: NumPy's kernel raises naming it
            return below(backend, inputs, out)
        return written(out, target)
    return run

