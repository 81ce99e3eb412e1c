"""Activation functions (MindSpore r2.3 ``mindspore.ops``), composed from sx ops: they run in
PyNative and Graph mode and keep gradients."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx

from ._common import (SporelingError, canonical_axis, float_like, full_like, ops, tensor,
                      to_numpy)

__all__ = ["celu", "elu", "fast_gelu", "gelu", "glu", "gumbel_softmax", "hardshrink",
           "hardsigmoid", "hardswish", "hardtanh", "leaky_relu", "log_softmax", "logsigmoid",
           "mish", "prelu", "relu", "relu6", "rrelu", "selu", "sigmoid", "silu", "softmax",
           "softmin", "softshrink", "softsign", "tanh", "threshold"]

_SELU_ALPHA = 1.6732632423543772
_SELU_SCALE = 1.0507009873554805


def relu(input):  # noqa: A002  (MindSpore's parameter names)
    """max(input, 0)."""
    return ops.relu(tensor(input))


def relu6(x):
    """min(max(x, 0), 6)."""
    return ops.clip(tensor(x), 0.0, 6.0)


def sigmoid(input):  # noqa: A002
    """1 / (1 + exp(-input))."""
    return ops.sigmoid(float_like(input))


def tanh(input):  # noqa: A002
    return ops.tanh(float_like(input))


def silu(x):
    """x * sigmoid(x)."""
    return ops.silu(float_like(x))


def softsign(x):
    """x / (1 + |x|)."""
    x = float_like(x)
    return x / (ops.abs(x) + 1.0)


def logsigmoid(x):
    """log(sigmoid(x)) = -softplus(-x), finite for large |x|."""
    return ops.neg(ops.softplus(ops.neg(float_like(x))))


def mish(x):
    """x * tanh(softplus(x))."""
    x = float_like(x)
    return x * ops.tanh(ops.softplus(x))


def elu(input_x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    x = float_like(input_x)
    return ops.where(x > 0, x, ops.expm1(ops.minimum(x, 0.0)) * float(alpha))


def celu(x, alpha=1.0):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    if float(alpha) == 0.0:
        raise SporelingError("alpha must not be 0", op="ops.celu", expected="alpha != 0",
                             got=alpha)
    x = float_like(x)
    a = float(alpha)
    return ops.relu(x) + ops.minimum(ops.expm1(ops.minimum(x, 0.0) / a) * a, 0.0)


def selu(input_x):
    """scale * elu(x, alpha) with the self-normalising constants."""
    return elu(input_x, _SELU_ALPHA) * _SELU_SCALE


def gelu(input_x, approximate="none"):
    """Gaussian error linear unit; ``approximate='tanh'`` uses the tanh formula."""
    if approximate not in ("none", "tanh"):
        raise SporelingError("unknown approximate", op="ops.gelu",
                             expected="'none' or 'tanh'", got=repr(approximate))
    return ops.gelu(float_like(input_x), approximate=approximate)


def fast_gelu(x):
    """MindSpore's FastGeLU: x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))."""
    x = float_like(x)
    ax = ops.abs(x)
    return x / (ops.exp(ax * -1.702) + 1.0) * ops.exp((x - ax) * 0.851)


def glu(x, axis=-1):
    """a * sigmoid(b), ``x`` split in halves a, b along ``axis``."""
    x = float_like(x)
    axis = canonical_axis(axis, x.ndim, "ops.glu")
    if x.shape[axis] % 2:
        raise SporelingError("the split axis must have an even size", op="ops.glu",
                             expected="an even size", got=f"shape {list(x.shape)}, axis {axis}")
    a, b = ops.split(x, 2, axis=axis)
    return a * ops.sigmoid(b)


def hardshrink(x, lambd=0.5):
    """x where |x| > lambd, else 0."""
    x = float_like(x)
    return ops.where(ops.abs(x) > float(lambd), x, full_like(x, 0))


def softshrink(x, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""
    x = float_like(x)
    lam = float(lambd)
    return ops.relu(x - lam) - ops.relu(ops.neg(x) - lam)


def hardsigmoid(input):  # noqa: A002
    """relu6(x + 3) / 6 (ops, not operators: vmap's batched values take only ops)."""
    return ops.div(ops.clip(ops.add(float_like(input), 3.0), 0.0, 6.0), 6.0)


def hardswish(x):
    """x * relu6(x + 3) / 6 (ops, not operators: vmap's batched values take only ops)."""
    x = float_like(x)
    return ops.mul(x, ops.div(ops.clip(ops.add(x, 3.0), 0.0, 6.0), 6.0))


def hardtanh(input, min_val=-1.0, max_val=1.0):  # noqa: A002
    """clip(input, min_val, max_val)."""
    return ops.clip(float_like(input), float(min_val), float(max_val))


def leaky_relu(input, alpha=0.2):  # noqa: A002
    """x for x >= 0, alpha * x otherwise. Note: MindSpore's default slope is 0.2 (PyTorch's
    is 0.01)."""
    x = float_like(input)
    return ops.where(x >= 0, x, x * float(alpha))


def prelu(x, weight):
    """leaky ReLU with a learnt slope ``weight`` per channel (axis 1), or one shared slope."""
    x, weight = float_like(x), float_like(weight)
    if weight.ndim != 1 or weight.shape[0] not in (1, x.shape[1] if x.ndim > 1 else 1):
        raise SporelingError("weight must have one slope per channel (or one)", op="ops.prelu",
                             expected=f"shape [{x.shape[1] if x.ndim > 1 else 1}] or [1]",
                             got=f"shape {list(weight.shape)}")
    if x.ndim > 1:
        weight = ops.reshape(weight, (-1,) + (1,) * (x.ndim - 2))
    return ops.where(x >= 0, x, x * weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):  # noqa: A002
    """Leaky ReLU whose negative slope is drawn per element from U(lower, upper)."""
    x = float_like(input)
    if not lower <= upper:
        raise SporelingError("lower must not exceed upper", op="ops.rrelu",
                             expected="lower <= upper", got=f"lower={lower}, upper={upper}")
    slope = ops.uniform(tuple(x.shape), float(lower), float(upper), dtype=x.dtype)
    return ops.where(x >= 0, x, x * slope)


def threshold(input, thr, value):  # noqa: A002
    """input where input > thr, else value."""
    x = tensor(input)
    return ops.where(x > thr, x, full_like(x, value))


def _cast(x, dtype):
    return x if dtype is None else ops.cast(x, to_numpy(dtype))


def softmax(input, axis=-1, *, dtype=None):  # noqa: A002
    """exp(x) / sum(exp(x)) along ``axis``."""
    x = _cast(float_like(input), dtype)
    return ops.softmax(x, axis=canonical_axis(axis, x.ndim, "ops.softmax"))


def softmin(x, axis=-1, *, dtype=None):
    """softmax(-x)."""
    x = _cast(float_like(x), dtype)
    return ops.softmax(ops.neg(x), axis=canonical_axis(axis, x.ndim, "ops.softmin"))


def log_softmax(logits, axis=-1):
    """log(softmax(logits)), computed stably."""
    x = float_like(logits)
    return ops.log_softmax(x, axis=canonical_axis(axis, x.ndim, "ops.log_softmax"))


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """softmax((logits + Gumbel noise) / tau); ``hard`` returns one-hot samples whose
    gradient is the soft sample's (straight-through)."""
    if tau <= 0:
        raise SporelingError("tau must be positive", op="ops.gumbel_softmax",
                             expected="tau > 0", got=tau)
    x = float_like(logits)
    dim = canonical_axis(dim, x.ndim, "ops.gumbel_softmax")
    u = ops.uniform(tuple(x.shape), 1e-10, 1.0, dtype=x.dtype)
    gumbel = ops.neg(ops.log(ops.neg(ops.log(u))))
    soft = ops.softmax((x + gumbel) / float(tau), axis=dim)
    if not hard:
        return soft
    index = ops.argmax(soft, axis=dim, keepdims=True)
    positions = ops.reshape(ops.cast(_arange(x.shape[dim]), np.int64),
                            tuple(-1 if i == dim else 1 for i in range(x.ndim)))
    one_hot = ops.cast(ops.equal(positions, index), x.dtype)
    return one_hot - sx.stop_gradient(soft) + soft


def _arange(n: int):
    return tensor(np.arange(n))
