"""The fully connected network PINNs use: tanh layers, Xavier-normal weights, inputs
rescaled from the domain's bounding box to [-1, 1] (Raissi et al.'s set-up)."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression import ops

from .errors import GeometryError

__all__ = ["MLP"]

_ACTIVATIONS = {"tanh": ops.tanh, "sin": ops.sin, "sigmoid": ops.sigmoid}


class MLP:
    """``u = MLP(layers)(X)``: ``layers = [inputs, hidden..., outputs]``.

    ``lower``/``upper`` (the domain's bounding box) rescale each input column to [-1, 1].
    Parameters are float64 by default (L-BFGS needs the precision to reach 1e-3 errors).
    """

    def __init__(self, layers, activation: str = "tanh", lower=None, upper=None,
                 dtype=np.float64, seed: int = 0):
        layers = [int(n) for n in layers]
        if len(layers) < 2 or min(layers) < 1:
            raise GeometryError("a network needs input and output sizes", op="MLP",
                                expected="layers = [inputs, hidden..., outputs], each >= 1",
                                got=layers)
        if activation not in _ACTIVATIONS:
            raise GeometryError("unknown activation", op="MLP",
                                expected=" | ".join(_ACTIVATIONS), got=repr(activation))
        self.layers, self.activation, self.dtype = layers, activation, np.dtype(dtype)
        rng = np.random.default_rng(seed)
        self.params = []
        for k, (n_in, n_out) in enumerate(zip(layers[:-1], layers[1:])):
            std = np.sqrt(2.0 / (n_in + n_out))
            self.params.append(sx.Parameter((rng.standard_normal((n_in, n_out)) * std)
                                            .astype(dtype), name=f"pinn.w{k}"))
            self.params.append(sx.Parameter(np.zeros(n_out, dtype), name=f"pinn.b{k}"))
        if lower is None:
            self._shift = self._scale = None
        else:
            lo, hi = np.asarray(lower, np.float64), np.asarray(upper, np.float64)
            self._scale = sx.Tensor((2.0 / (hi - lo)).astype(dtype))
            self._shift = sx.Tensor((-(hi + lo) / (hi - lo)).astype(dtype))

    def __call__(self, X):
        act = _ACTIVATIONS[self.activation]
        h = X if self._scale is None else X * self._scale + self._shift
        n = len(self.params) // 2
        for k in range(n):
            h = ops.matmul(h, self.params[2 * k]) + self.params[2 * k + 1]
            if k < n - 1:
                h = act(h)
        return h

    # flat float64 views for scipy's L-BFGS
    def get_flat(self) -> np.ndarray:
        return np.concatenate([p.asnumpy().ravel() for p in self.params]).astype(np.float64)

    def set_flat(self, vector) -> None:
        offset = 0
        for p in self.params:
            size = int(np.prod(p.shape))
            p.asnumpy()[...] = np.asarray(vector[offset:offset + size]).reshape(p.shape)
            offset += size
