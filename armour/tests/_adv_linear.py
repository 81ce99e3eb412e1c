"""A linear classifier ``x @ W + b`` whose attacks have closed-form answers (test helper)."""
import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn


class Linear(nn.Cell):
    def __init__(self, w, b):
        super().__init__()
        self.w = sx.Parameter(np.asarray(w, np.float64), name="w")
        self.b = sx.Parameter(np.asarray(b, np.float64), name="b")

    def construct(self, x):
        return sx.ops.matmul(x, self.w) + self.b


def softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def linear_problem(n=6, d=5, c=3, seed=0):
    rng = np.random.default_rng(seed)
    w, b = rng.standard_normal((d, c)), rng.standard_normal(c) * 0.1
    x = rng.uniform(-1, 1, (n, d))
    y = rng.integers(0, c, n).astype(np.int32)
    return Linear(w, b), w, b, x, y
