"""Normalisation cells of ``ms.nn``.

MindSpore's ``momentum`` in the BatchNorm cells is the weight of the *old* moving statistics
(0.9 default; PyTorch's 0.1 means the opposite); InstanceNorm's ``momentum`` 0.1 is accepted
for the signature, instance statistics are always used (as MindSpore does).
"""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.expression.nn import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm
from sporeling.expression.nn.init import initializer

from .cell import Cell

ops = sx.ops

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d", "LayerNorm", "SyncBatchNorm"]


class BatchNorm3d(BatchNorm2d):
    """Batch normalisation of (N, C, D, H, W) over every axis but C."""
    _ndims, _layout = (5,), "(N, C, D, H, W)"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics,
                         dtype=dtype or "float32")


class SyncBatchNorm(BatchNorm2d):
    """Batch normalisation synchronised over ``process_groups``; in one process it is the
    plain batch normalisation of (N, C), (N, C, L) or (N, C, H, W)."""
    _ndims, _layout = (2, 3, 4), "(N, C), (N, C, L) or (N, C, H, W)"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, process_groups=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics,
                         dtype=dtype or "float32")
        self.process_groups = process_groups


class _InstanceNorm(Cell):
    _n = 2
    _layout = "(N, C, H, W)"

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=None):
        super().__init__()
        if not 0 <= momentum <= 1:
            raise ValueError(f"{type(self).__name__}: momentum must be in [0, 1], got "
                             f"{momentum}")
        self.num_features, self.eps = int(num_features), float(eps)
        self.momentum, self.affine = float(momentum), bool(affine)
        c = (self.num_features,)
        self.gamma = sx.Parameter(initializer(gamma_init, c, dtype or "float32"), name="gamma",
                                  requires_grad=self.affine)
        self.beta = sx.Parameter(initializer(beta_init, c, dtype or "float32"), name="beta",
                                 requires_grad=self.affine)

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) != self._n + 2 or shape[1] != self.num_features:
            raise ShapeError("wrong input shape", op=type(self).__name__,
                             expected=self._layout.replace("C", f"C={self.num_features}"),
                             got=shape)
        axes = tuple(range(2, 2 + self._n))
        mean = ops.mean(x, axes, keepdims=True)
        var = ops.var(x, axes, keepdims=True)
        y = ops.div(ops.sub(x, mean), ops.sqrt(ops.add(var, self.eps)))
        scale = (1, self.num_features) + (1,) * self._n
        return ops.add(ops.mul(y, ops.reshape(self.gamma, scale)), ops.reshape(self.beta, scale))


class InstanceNorm1d(_InstanceNorm):
    """Normalise each (sample, channel) of (N, C, L) over L."""
    _n, _layout = 1, "(N, C, L)"


class InstanceNorm2d(_InstanceNorm):
    """Normalise each (sample, channel) of (N, C, H, W) over H and W."""
    _n, _layout = 2, "(N, C, H, W)"


class InstanceNorm3d(_InstanceNorm):
    """Normalise each (sample, channel) of (N, C, D, H, W) over D, H and W."""
    _n, _layout = 3, "(N, C, D, H, W)"
