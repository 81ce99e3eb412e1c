"""Decompositions of the built-in primitives outside the core set, each attached to its
primitive's record (``prim.def_decomposition``) and written with the core primitives'
ops. Each computes the same function as the primitive's NumPy kernel -- the same formula,
stable where the kernel is -- so a backend with only the core kernels gives the same
numbers up to rounding (``tests/test_decompositions.py`` checks each against the kernel).

Lowering uses them where a backend has no kernel (see :mod:`..core.core_set`); the eager
interpreter does not (it runs kernels).
"""
from __future__ import annotations

import math

import numpy as np

from . import activation as act, elementwise as ew, reduction as red
from .activation import erf
from .clip import clip_p, clip_scalar_p
from .comparison import equal, greater, greater_equal, isfinite, not_equal, where
from .dtype import cast
from .elementwise import abs, add, div, exp, log, log1p, maximum, minimum, mul, neg, sqrt, sub
from .nn.normalization import normalize_p, rsqrt_eps_p
from .nn.softmax import log_softmax, log_softmax_p, softmax, softmax_p
from .nn.softmax_cross_entropy import softmax_cross_entropy_grad_p, softmax_cross_entropy_p
from .reduction import max, sum
from .shape import reshape

_INV_SQRT_2 = 1.0 / math.sqrt(2.0)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _const(value, like):
    """``value`` as a 0-d constant of ``like``'s dtype (never widening it)."""
    return np.asarray(value, dtype=like.dtype)


# ---- elementwise --------------------------------------------------------------------------

ew.square_p.def_decomposition(lambda x: mul(x, x))
ew.reciprocal_p.def_decomposition(lambda x: div(_const(1, x), x))
ew.rsqrt_p.def_decomposition(lambda x: div(_const(1, x), sqrt(x)))


@ew.pow_scalar_p.def_decomposition
def _pow_scalar(x, *, exponent):
    return mul(x, x) if exponent == 2 else ew.pow(x, _const(exponent, x))


@clip_scalar_p.def_decomposition
def _clip_scalar(x, *, min, max):  # NaN stays NaN; min > max gives max, as np.clip
    if min is not None:
        x = maximum(x, _const(min, x))
    return x if max is None else minimum(x, _const(max, x))


@clip_p.def_decomposition
def _clip(x, *bounds, has_min, has_max):
    out = x if not has_min else maximum(x, bounds[0])
    return out if not has_max else minimum(out, bounds[-1])


# ---- activations and their gradient kernels ---------------------------------------------

act.relu_p.def_decomposition(lambda x: maximum(x, _const(0, x)))


@act.leaky_relu_p.def_decomposition
def _leaky_relu(x, *, alpha):
    return where(greater(x, _const(0, x)), x, mul(x, _const(alpha, x)))


@act.sigmoid_p.def_decomposition
def _sigmoid(x):  # through exp(-|x|), which never overflows (as the kernel)
    e = exp(neg(abs(x)))
    return div(where(greater_equal(x, _const(0, x)), _const(1, x), e), add(e, _const(1, x)))


act.silu_p.def_decomposition(lambda x: mul(x, act.sigmoid(x)))


@act.softplus_p.def_decomposition
def _softplus(x, *, beta, threshold):
    z = x if beta == 1 else mul(x, _const(beta, x))
    # log(1 + exp(z)) = max(z, 0) + log1p(exp(-|z|)): no overflow for large |z|
    out = add(maximum(z, _const(0, z)), log1p(exp(neg(abs(z)))))
    if beta != 1:
        out = div(out, _const(beta, x))
    return where(greater(z, _const(threshold, z)), x, out)


@act.gelu_p.def_decomposition
def _gelu(x, *, approximate):
    if approximate == "tanh":
        cubic = mul(mul(mul(x, _const(0.044715, x)), x), x)
        inner = act.tanh(mul(add(x, cubic), _const(_SQRT_2_OVER_PI, x)))
    else:
        inner = erf(mul(x, _const(_INV_SQRT_2, x)))
    return mul(mul(x, _const(0.5, x)), add(inner, _const(1, x)))


@act.relu_grad_p.def_decomposition
def _relu_grad(y, g):  # the 0/1 mask times g, as the kernel (a NaN g stays NaN)
    return mul(cast(greater(y, _const(0, y)), y.dtype), g)


act.tanh_grad_p.def_decomposition(lambda y, g: mul(sub(_const(1, y), mul(y, y)), g))
act.sigmoid_grad_p.def_decomposition(lambda y, g: mul(mul(sub(_const(1, y), y), y), g))


# ---- reductions ---------------------------------------------------------------------------

def _count(x, axis) -> int:
    return int(np.prod([x.shape[a] for a in axis], dtype=np.int64))


@red.mean_p.def_decomposition
def _mean(x, *, axis, keepdims):
    return div(sum(x, axis, keepdims), _const(_count(x, axis), x))


@red.var_p.def_decomposition
def _var(x, *, axis, keepdims, ddof):
    centred = sub(x, red.mean(x, axis, keepdims=True))
    return div(sum(mul(centred, centred), axis, keepdims), _const(_count(x, axis) - ddof, x))


red.std_p.def_decomposition(lambda x, **params: sqrt(red.var_p.bind(x, **params)))


@red.logsumexp_p.def_decomposition
def _logsumexp(x, *, axis, keepdims):
    m = max(x, axis, keepdims=True)
    m = where(isfinite(m), m, _const(0, m))  # an inf or NaN slice is shifted by 0 instead
    out = log(sum(exp(sub(x, m)), axis, keepdims))
    return add(out, m if keepdims else reshape(m, out.shape))


# ---- softmax, normalisation, cross entropy ----------------------------------------------

@softmax_p.def_decomposition
def _softmax(x, *, axis):
    e = exp(sub(x, max(x, axis, keepdims=True)))
    return div(e, sum(e, axis, keepdims=True))


@log_softmax_p.def_decomposition
def _log_softmax(x, *, axis):
    shifted = sub(x, max(x, axis, keepdims=True))
    return sub(shifted, log(sum(exp(shifted), axis, keepdims=True)))


rsqrt_eps_p.def_decomposition(
    lambda v, *, eps: div(_const(1, v), sqrt(add(v, _const(eps, v)))))


@normalize_p.def_decomposition
def _normalize(x, *, axis, eps):
    mean = red.mean(x, axis, keepdims=True)
    centred = sub(x, mean)
    var = red.mean(mul(centred, centred), axis, keepdims=True)
    return mul(centred, rsqrt_eps_p.bind(var, eps=eps)), mean, var


def _targets(x, labels, ignore_index):
    """The class axis, the one-hot of the labels along it (bool) and the counted targets
    (bool, labels-shaped)."""
    axis = 1 if len(x.shape) > 1 else 0
    classes = np.arange(x.shape[axis], dtype=labels.dtype)
    hot = equal(reshape(labels, _with_axis(labels.shape, axis)),
                classes.reshape(_with_axis((1,) * (len(x.shape) - 1), axis, x.shape[axis])))
    return axis, hot, not_equal(labels, np.asarray(ignore_index, labels.dtype))


def _with_axis(shape, axis, size=1):
    return tuple(shape[:axis]) + (size,) + tuple(shape[axis:])


def _counted(valid, dtype):
    """How many targets count, as ``dtype`` (none: a mean of 0/0, NaN, as the kernel's)."""
    return sum(cast(valid, dtype))


@softmax_cross_entropy_p.def_decomposition
def _softmax_cross_entropy(x, labels, *, reduction, ignore_index):
    axis, hot, valid = _targets(x, labels, ignore_index)
    picked = sum(where(hot, log_softmax(x, axis), _const(0, x)), (axis,))
    losses = where(valid, neg(picked), _const(0, x))
    if reduction == "none":
        return losses
    total = sum(losses)
    return div(total, _counted(valid, x.dtype)) if reduction == "mean" else total


@softmax_cross_entropy_grad_p.def_decomposition
def _softmax_cross_entropy_grad(x, labels, ct, *, reduction, ignore_index):
    axis, hot, valid = _targets(x, labels, ignore_index)
    diff = sub(softmax(x, axis), cast(hot, x.dtype))
    weight = cast(valid, x.dtype)
    if reduction == "none":
        return mul(diff, reshape(mul(ct, weight), _with_axis(labels.shape, axis)))
    scale = div(ct, _counted(valid, x.dtype)) if reduction == "mean" else ct
    return mul(mul(diff, scale), reshape(weight, _with_axis(labels.shape, axis)))
