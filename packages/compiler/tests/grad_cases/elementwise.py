"""Gradient cases of the elementwise, comparison-family and activation primitives."""
import numpy as np

from sporeling.compiler import bind, ops
from sporeling.compiler.ops import activation

rng = np.random.default_rng(1)
r = rng.standard_normal
u = rng.uniform


def away_from_zero(shape, low=0.3, high=2.0):
    return u(low, high, shape) * rng.choice([-1.0, 1.0], shape)


def between_integers(shape, low=0.2, high=0.8):
    """Values whose fractional part lies in [low, high] (away from floor/ceil jumps)."""
    return rng.integers(-3, 3, shape) + u(low, high, shape)


COND = rng.random((3, 1)) > 0.5

CASES = {
    "minimum": [(ops.minimum, [r((3, 4)), r((4,))])],
    "floordiv": [(ops.floordiv, [between_integers((3, 4)) * 2.0, np.array([2.0])])],
    "mod": [(ops.mod, [r((3, 4)) * 3, u(0.5, 2.0, (4,))]),
            (ops.mod, [r((3, 4)) * 3, -u(0.5, 2.0, (3, 1))])],
    "pow": [(ops.pow, [u(0.5, 2.0, (3, 4)), r((4,))]),
            (ops.pow, [u(0.5, 2.0, (2, 3)), np.array([1.7])])],
    "pow_scalar": [(lambda x: ops.pow(x, 3), [r((3, 4))]),
                   (lambda x: ops.pow(x, 2), [r((3,))]),
                   (lambda x: ops.pow(x, -1.5), [u(0.5, 2.0, (3, 4))])],
    "atan2": [(ops.atan2, [r((3, 4)), away_from_zero((4,))])],
    "abs": [(ops.abs, [away_from_zero((3, 4))])],
    "sign": [(ops.sign, [away_from_zero((3, 4))])],
    "expm1": [(ops.expm1, [r((3, 4))])],
    "log1p": [(ops.log1p, [u(-0.5, 2.0, (3, 4))])],
    "sqrt": [(ops.sqrt, [u(0.5, 2.0, (3, 4))])],
    "rsqrt": [(ops.rsqrt, [u(0.5, 2.0, (3, 4))])],
    "square": [(ops.square, [r((3, 4))])],
    "reciprocal": [(ops.reciprocal, [away_from_zero((3, 4))])],
    "sin": [(ops.sin, [r((3, 4))])],
    "cos": [(ops.cos, [r((3, 4))])],
    "floor": [(ops.floor, [between_integers((3, 4))])],
    "ceil": [(ops.ceil, [between_integers((3, 4))])],
    "round": [(ops.round, [between_integers((3, 4), 0.1, 0.4)])],
    "clip": [(ops.clip, [u(-3, 3, (3, 4)), u(-1.2, -0.8, (4,)), u(0.8, 1.2, (3, 1))]),
             (lambda x, lo: ops.clip(x, min=lo), [u(-3, 3, (3, 4)), u(-1.2, -0.8, (4,))]),
             (lambda x, hi: ops.clip(x, max=hi), [u(-3, 3, (3, 4)), u(0.8, 1.2, (3, 1))])],
    "clip_scalar": [(lambda x: ops.clip(x, -0.5, 0.5), [away_from_zero((3, 4), 0.1, 1.0) + 0.05]),
                    (lambda x: ops.clip(x, max=0.3), [r((3, 4))])],
    "where": [(lambda x, y: ops.where(COND, x, y), [r((3, 4)), r((4,))])],
    "tanh": [(ops.tanh, [r((3, 4))])],
    "sigmoid": [(ops.sigmoid, [r((3, 4)) * 3])],
    "silu": [(ops.silu, [r((3, 4)) * 2])],
    "leaky_relu": [(ops.leaky_relu, [away_from_zero((3, 4))]),
                   (lambda x: ops.leaky_relu(x, 0.2), [away_from_zero((3, 4))])],
    "gelu": [(ops.gelu, [r((3, 4)) * 2]),
             (lambda x: ops.gelu(x, approximate="tanh"), [r((3, 4)) * 2])],
    "softplus": [(ops.softplus, [r((3, 4)) * 3]),
                 (lambda x: ops.softplus(x, beta=2.0, threshold=1.0),
                  [away_from_zero((3, 4), 0.7, 2.0)])],
    "erf": [(ops.erf, [r((3, 4)) * 1.5])],
    # the fused backward primitives: (forward output, cotangent)
    "relu_grad": [(lambda y, g: bind(activation.relu_grad_p, y, g),
                   [away_from_zero((3, 4)), r((3, 4))])],
    "tanh_grad": [(lambda y, g: bind(activation.tanh_grad_p, y, g),
                   [u(-0.9, 0.9, (3, 4)), r((3, 4))])],
    "sigmoid_grad": [(lambda y, g: bind(activation.sigmoid_grad_p, y, g),
                      [u(0.1, 0.9, (3, 4)), r((3, 4))])],
}
