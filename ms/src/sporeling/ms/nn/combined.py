"""MindSpore's combined layers: ``Conv2dBnAct`` and ``DenseBnAct`` (a convolution or dense
layer, an optional batch norm, an optional activation), as sub-cells ``conv``/``dense``,
``batchnorm`` and ``activation`` so checkpoints keep MindSpore's names."""
from __future__ import annotations

from sporeling.core.errors import ArgumentError

from .activation import LeakyReLU, get_activation
from .cell import Cell
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d
from sporeling.expression.nn import Dense

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _activation(owner, activation, alpha):
    """A cell from ``activation`` (a name, a cell/callable, or None); ``"leakyrelu"`` takes
    the slope ``alpha``."""
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    if isinstance(activation, str):
        return get_activation(activation)
    if activation is not None and not callable(activation):
        raise ArgumentError("activation must be a name, a Cell or a callable", op=owner,
                            expected="str, Cell or Primitive", got=type(activation).__name__)
    return activation


def _check_bool(owner, name, value):
    if not isinstance(value, bool):
        raise ArgumentError(f"{name} must be a bool", op=owner, expected="bool",
                            got=type(value).__name__)
    return value


class _BnAct(Cell):
    """``layer`` -> batch norm (``has_bn``) -> activation (when given)."""

    def _finish(self, norm, out_channels, has_bn, momentum, eps, activation, alpha,
                after_fake):
        owner = type(self).__name__
        self.has_bn = _check_bool(owner, "has_bn", has_bn)
        self.after_fake = _check_bool(owner, "after_fake", after_fake)
        if has_bn:
            self.batchnorm = norm(out_channels, eps, momentum)
        self.activation = _activation(owner, activation, alpha)
        self.has_act = self.activation is not None

    def _tail(self, x):
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class Conv2dBnAct(_BnAct):
    """``Conv2d`` (MindSpore's arguments; weight drawn from N(0, 0.01) by default) followed
    by ``BatchNorm2d(out_channels, eps, momentum)`` when ``has_bn`` and ``activation``."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init="normal",
                 bias_init="zeros", has_bn=False, momentum=0.997, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size, stride=stride,
                           pad_mode=pad_mode, padding=padding, dilation=dilation, group=group,
                           has_bias=has_bias, weight_init=weight_init, bias_init=bias_init)
        self._finish(BatchNorm2d, out_channels, has_bn, momentum, eps, activation, alpha,
                     after_fake)

    def construct(self, x):
        return self._tail(self.conv(x))


class DenseBnAct(_BnAct):
    """``Dense`` (weight drawn from N(0, 0.01) by default) followed by
    ``BatchNorm1d(out_channels, eps, momentum)`` when ``has_bn`` and ``activation``."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros",
                 has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self._finish(BatchNorm1d, out_channels, has_bn, momentum, eps, activation, alpha,
                     after_fake)

    def construct(self, x):
        return self._tail(self.dense(x))
