"""Gradient cases of the reductions (inputs without ties, zeros or kinks)."""
import numpy as np

from sporeling.compiler import ops

rng = np.random.default_rng(2)
r = rng.standard_normal


def away_from_zero(shape):
    return rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)


CASES = {
    "mean": [(lambda x: ops.mean(x, axis=1), [r((3, 4))]),
             (lambda x: ops.mean(x, axis=(0, 2), keepdims=True), [r((2, 3, 4))]),
             (ops.mean, [r((3, 4))])],
    "prod": [(lambda x: ops.prod(x, axis=1), [away_from_zero((3, 4))]),
             (lambda x: ops.prod(x, axis=(0, 2), keepdims=True), [away_from_zero((2, 3, 2))])],
    "max": [(lambda x: ops.max(x, axis=0), [r((3, 4))]),
            (lambda x: ops.max(x, axis=(0, 1), keepdims=True), [r((2, 3, 2))])],
    "min": [(lambda x: ops.min(x, axis=-1), [r((3, 4))]), (ops.min, [r((3, 4))])],
    "logsumexp": [(lambda x: ops.logsumexp(x, axis=1), [r((3, 4))]),
                  (lambda x: ops.logsumexp(x, keepdims=True), [r((2, 3))])],
    "var": [(lambda x: ops.var(x, axis=1), [r((3, 4))]),
            (lambda x: ops.var(x, axis=(0, 2), ddof=1, keepdims=True), [r((2, 3, 4))])],
    "std": [(lambda x: ops.std(x, axis=0), [r((3, 4))]),
            (lambda x: ops.std(x, ddof=True), [r((3, 4))])],
    "norm": [(lambda x: ops.norm(x, axis=1), [r((3, 4))]),
             (lambda x: ops.norm(x, ord=1, axis=0, keepdims=True), [away_from_zero((3, 4))]),
             (lambda x: ops.norm(x, ord=np.inf, axis=1), [r((3, 4))]),
             (ops.norm, [r((2, 3))])],
    "cumsum": [(lambda x: ops.cumsum(x, 1), [r((3, 4))]),
               (lambda x: ops.cumsum(x, 0, reverse=True), [r((3, 4))])],
}
