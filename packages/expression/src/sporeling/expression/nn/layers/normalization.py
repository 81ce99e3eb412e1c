"""Normalisation layers: ``BatchNorm1d``, ``BatchNorm2d``, ``LayerNorm``, ``GroupNorm``.

Parameter names are MindSpore's: ``gamma`` (scale) and ``beta`` (shift); BatchNorm keeps
its running statistics as non-trainable Parameters ``moving_mean`` and ``moving_variance``.

**Momentum is MindSpore's, the opposite of PyTorch's**: ``moving = momentum * moving +
(1 - momentum) * batch`` with ``momentum=0.9`` (PyTorch writes the same update as
``momentum=0.1``). The running variance is updated with the unbiased batch variance.
``LayerNorm``'s default ``epsilon`` is 1e-7 (PyTorch 1e-5).

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> bn = nn.BatchNorm1d(2).set_train()
    >>> y = bn(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32))
    >>> bn.moving_mean.asnumpy()                 # 0.9 * 0 + 0.1 * [2, 4]
    array([0.2, 0.4], dtype=float32)
"""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.core import SporelingError

from ..cell import Cell
from ._check import shape_error
from ._params import make_param

__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm"]


class _BatchNorm(Cell):
    _ndims: tuple = ()
    _layout = ""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype="float32"):
        super().__init__()
        if not 0 <= momentum <= 1:
            raise SporelingError("bad momentum", op=type(self).__name__,
                                 expected="0 <= momentum <= 1 (MindSpore's convention: the "
                                          "weight of the old moving statistics)", got=momentum)
        if data_format != "NCHW":
            raise SporelingError("only NCHW is supported", op=type(self).__name__,
                                 expected="NCHW", got=repr(data_format))
        self.num_features, self.eps, self.momentum = int(num_features), float(eps), momentum
        self.affine, self.use_batch_statistics = bool(affine), use_batch_statistics
        c = (self.num_features,)
        self.gamma = make_param(gamma_init, c, "gamma", dtype, requires_grad=self.affine)
        self.beta = make_param(beta_init, c, "beta", dtype, requires_grad=self.affine)
        self.moving_mean = make_param(moving_mean_init, c, "moving_mean", dtype,
                                      requires_grad=False)
        self.moving_variance = make_param(moving_var_init, c, "moving_variance", dtype,
                                          requires_grad=False)

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) not in self._ndims or shape[1] != self.num_features:
            raise shape_error(self, "wrong input shape",
                              self._layout.replace("C", f"C={self.num_features}"), shape)
        batch_stats = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        mean, var = self._params["moving_mean"], self._params["moving_variance"]
        if not batch_stats:
            return ops.batch_norm(x, mean, var, self.gamma, self.beta, training=False,
                                  eps=self.eps)
        y, new_mean, new_var = ops.batch_norm(x, mean, var, self.gamma, self.beta,
                                              training=True, momentum=1.0 - self.momentum,
                                              eps=self.eps)
        mean.set_data(new_mean)
        var.set_data(new_var)
        return y

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, "
                f"momentum={self.momentum}, gamma={self.gamma}, beta={self.beta}, "
                f"moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) over all axes but C. In training mode
    (``set_train()``) batch statistics are used and the moving ones updated; in inference
    mode the moving statistics are used. ``use_batch_statistics`` True/False forces one."""

    _ndims, _layout = (2, 3), "(N, C) or (N, C, L)"


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) over N, H and W (see :class:`BatchNorm1d`)."""

    _ndims, _layout = (4,), "(N, C, H, W)"


class LayerNorm(Cell):
    """Normalise over trailing axes, then ``* gamma + beta``.

    With the default axes (``begin_norm_axis=begin_params_axis=-1``) the normalised axes
    are the trailing ``len(normalized_shape)`` ones, as in PyTorch; otherwise MindSpore's
    rule: normalise from ``begin_norm_axis``, apply ``gamma``/``beta`` (shaped
    ``normalized_shape``) from ``begin_params_axis``.
    """

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init="ones", beta_init="zeros", epsilon=1e-7, dtype="float32"):
        super().__init__()
        self.normalized_shape = (int(normalized_shape),) if isinstance(normalized_shape, int) \
            else tuple(int(n) for n in normalized_shape)
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = float(epsilon)
        self.gamma = make_param(gamma_init, self.normalized_shape, "gamma", dtype)
        self.beta = make_param(beta_init, self.normalized_shape, "beta", dtype)
        self._default_axes = begin_norm_axis == -1 and begin_params_axis == -1

    def construct(self, x):
        shape, k = tuple(x.shape), len(self.normalized_shape)
        if self._default_axes:
            if shape[len(shape) - k:] != self.normalized_shape or len(shape) < k:
                raise shape_error(self, "wrong input shape",
                                  f"(..., {', '.join(map(str, self.normalized_shape))})", shape)
            return ops.layer_norm(x, self.normalized_shape, self.gamma, self.beta, self.epsilon)
        norm_axis = self.begin_norm_axis % len(shape)
        params_axis = self.begin_params_axis % len(shape)
        if shape[params_axis:] != self.normalized_shape:
            raise shape_error(self, "gamma/beta do not fit the input",
                              f"shape[{self.begin_params_axis}:] == {self.normalized_shape}",
                              shape)
        y = ops.layer_norm(x, shape[norm_axis:], eps=self.epsilon)
        return ops.add(ops.mul(y, self.gamma), self.beta)

    def extend_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis="
                f"{self.begin_norm_axis}, begin_params_axis={self.begin_params_axis}, "
                f"gamma={self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    """Normalise each sample of (N, C, ...) over groups of ``C / num_groups`` channels, then
    a per-channel ``* gamma + beta`` (trainable when ``affine``)."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype="float32"):
        super().__init__()
        self.num_groups, self.num_channels = int(num_groups), int(num_channels)
        if self.num_groups < 1 or self.num_channels % self.num_groups:
            raise SporelingError("num_groups must divide num_channels", op="GroupNorm",
                                 expected=f"a divisor of {self.num_channels}",
                                 got=self.num_groups)
        self.eps, self.affine = float(eps), bool(affine)
        c = (self.num_channels,)
        self.gamma = make_param(gamma_init, c, "gamma", dtype, requires_grad=self.affine)
        self.beta = make_param(beta_init, c, "beta", dtype, requires_grad=self.affine)

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) < 2 or shape[1] != self.num_channels:
            raise shape_error(self, "wrong input shape", f"(N, C={self.num_channels}, ...)",
                              shape)
        return ops.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self) -> str:
        return (f"num_groups={self.num_groups}, num_channels={self.num_channels}, "
                f"eps={self.eps}, affine={self.affine}")
