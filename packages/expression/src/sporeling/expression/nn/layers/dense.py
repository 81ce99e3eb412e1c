"""``Dense``: the fully connected layer (PyTorch's ``Linear``)."""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.core.arguments import check_int

from ..cell import Cell
from ._check import check_last_dim
from ._params import default_bias_init, default_weight_init, make_param
from .activation import get_activation

__all__ = ["Dense"]


class Dense(Cell):
    """``y = activation(x @ weight.T + bias)`` over the last axis of ``x`` (..., in_channels).

    ``weight`` is (out_channels, in_channels). Defaults as in MindSpore 2.x: weight
    ``HeUniform(sqrt(5))``, bias ``U(+-1/sqrt(in_channels))`` (PyTorch's ``Linear`` init).
    ``activation`` is a name (``"relu"``) or a Cell, applied after the bias.

        >>> import numpy as np
        >>> from sporeling.expression import nn
        >>> layer = nn.Dense(3, 2, weight_init="ones", bias_init="zeros", activation="relu")
        >>> layer(np.array([[1.0, -2.0, 0.5]], np.float32)).asnumpy()
        array([[0., 0.]], dtype=float32)
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init=None, bias_init=None,
                 has_bias: bool = True, activation=None, dtype="float32"):
        super().__init__()
        self.in_channels = check_int(in_channels, "in_channels", op="Dense", min=1)
        self.out_channels = check_int(out_channels, "out_channels", op="Dense", min=1)
        self.has_bias = bool(has_bias)
        shape = (self.out_channels, self.in_channels)
        self.weight = make_param(default_weight_init(weight_init), shape, "weight", dtype)
        self.bias = make_param(default_bias_init(bias_init, shape), (self.out_channels,),
                               "bias", dtype) if self.has_bias else None
        self.activation = get_activation(activation) if isinstance(activation, str) \
            else activation
        self.activation_flag = self.activation is not None

    def construct(self, x):
        check_last_dim(self, x, self.in_channels)
        y = ops.matmul(x, ops.swap_last_axes(self.weight))
        if self.bias is not None:
            y = ops.add(y, self.bias)
        if self.activation_flag:
            y = self.activation(y)
        return y

    def extend_repr(self) -> str:
        text = (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"has_bias={self.has_bias}")
        if self.activation_flag:
            text += f", activation={self.activation}"
        return text
