"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv2dTranspose`` (NCL / NCHW).

MindSpore's defaults, which differ from PyTorch's: ``pad_mode="same"`` (the output is
``ceil(H / stride)`` high, the odd padding row going to the bottom/right) and
``has_bias=False``. ``pad_mode="valid"`` is no padding; ``pad_mode="pad"`` uses ``padding``:
an int, or ``(top, bottom, left, right)`` (``(left, right)`` for Conv1d). The group count is
``group`` (PyTorch ``groups``).

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> conv = nn.Conv2d(3, 8, 3, stride=2)             # pad_mode="same"
    >>> conv(np.zeros((1, 3, 7, 7), np.float32)).shape
    (1, 8, 4, 4)
"""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.core import SporelingError
from sporeling.core.arguments import check_int, check_ints

from ..cell import Cell
from ._check import shape_error
from ._params import default_bias_init, default_weight_init, make_param

__all__ = ["Conv1d", "Conv2d", "Conv2dTranspose"]


def _ints(name: str, value, n: int, owner: str, minimum: int = 1) -> tuple:
    return check_ints(value, name, op=owner, n=n, min=minimum)


def _same(size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """TensorFlow/MindSpore "same": output ``ceil(size / stride)``, extra row at the end."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


class _Conv(Cell):
    """What the convolutions share: arguments, parameters, padding, ``extend_repr``."""

    _spatial = 2
    _layout = "(N, C, H, W)"

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 dilation, group, has_bias, weight_init, bias_init, dtype, transposed=False):
        super().__init__()
        name, n = type(self).__name__, self._spatial
        self.in_channels = check_int(in_channels, "in_channels", op=name, min=1)
        self.out_channels = check_int(out_channels, "out_channels", op=name, min=1)
        self.kernel_size = _ints("kernel_size", kernel_size, n, name)
        self.stride = _ints("stride", stride, n, name)
        self.dilation = _ints("dilation", dilation, n, name)
        self.group = check_int(group, "group", op=name, min=1)
        self.has_bias = bool(has_bias)
        if pad_mode not in ("same", "valid", "pad"):
            raise SporelingError("bad pad_mode", op=name, expected='"same", "valid" or "pad"',
                                 got=repr(pad_mode))
        if pad_mode != "pad" and padding not in (0, (0,) * n, (0,) * 2 * n):
            raise SporelingError("padding needs pad_mode='pad'", op=name,
                                 expected="padding=0", got=f"padding={padding!r} with "
                                 f"pad_mode={pad_mode!r}")
        self.pad_mode = pad_mode
        pads = _ints("padding", padding, 2 * n, name, 0)
        self.padding = padding
        self._pads = tuple(pads[2 * i:2 * i + 2] for i in range(n))
        if self.in_channels % self.group or self.out_channels % self.group:
            raise SporelingError("channels not divisible by group", op=name,
                                 expected=f"in/out channels multiples of group={self.group}",
                                 got=(self.in_channels, self.out_channels))
        if transposed:
            shape = (self.in_channels, self.out_channels // self.group) + self.kernel_size
        else:
            shape = (self.out_channels, self.in_channels // self.group) + self.kernel_size
        self.weight = make_param(default_weight_init(weight_init), shape, "weight", dtype)
        self.bias = make_param(default_bias_init(bias_init, shape), (self.out_channels,),
                               "bias", dtype) if self.has_bias else None

    def _check(self, x) -> None:
        shape = tuple(x.shape)
        if len(shape) != self._spatial + 2 or shape[1] != self.in_channels:
            raise shape_error(self, "wrong input shape",
                              self._layout.replace("C", f"C={self.in_channels}"), shape)

    def _padding(self, spatial) -> tuple:
        if self.pad_mode == "valid":
            return ((0, 0),) * self._spatial
        if self.pad_mode == "pad":
            return self._pads
        return tuple(_same(s, k, st, d) for s, k, st, d in
                     zip(spatial, self.kernel_size, self.stride, self.dilation))

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, "
                f"dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}")


def _symmetric_or_pad(x, pads):
    """``pads`` as one int per axis for the op, pre-padding ``x`` when a side differs."""
    if all(a == b for a, b in pads):
        return x, tuple(a for a, _ in pads)
    x = ops.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    return x, (0,) * len(pads)


class Conv2d(_Conv):
    """2-d convolution over (N, C_in, H, W); weight (C_out, C_in/group, KH, KW)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype="float32"):
        if data_format != "NCHW":
            raise SporelingError("only NCHW is supported", op="Conv2d", expected="NCHW",
                                 got=repr(data_format))
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)

    def construct(self, x):
        self._check(x)
        x, pads = _symmetric_or_pad(x, self._padding(tuple(x.shape[2:])))
        return ops.conv2d(x, self.weight, self.bias, self.stride, pads, self.dilation,
                          self.group)


class Conv1d(_Conv):
    """1-d convolution over (N, C_in, L); weight (C_out, C_in/group, K)."""

    _spatial = 1
    _layout = "(N, C, L)"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype="float32"):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)

    def construct(self, x):
        self._check(x)
        x, (pad,) = _symmetric_or_pad(x, self._padding(tuple(x.shape[2:])))
        return ops.conv1d(x, self.weight, self.bias, self.stride[0], pad, self.dilation[0],
                          self.group)


class Conv2dTranspose(_Conv):
    """Transposed 2-d convolution (N, C_in, H, W) -> (N, C_out, H', W'); weight
    (C_in, C_out/group, KH, KW). ``H'`` is ``H * stride`` for ``"same"``,
    ``(H - 1) * stride + dilation * (KH - 1) + 1`` for ``"valid"``, and that minus
    top and bottom padding plus ``output_padding`` for ``"pad"``."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype="float32"):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype,
                         transposed=True)
        self.output_padding = _ints("output_padding", output_padding, 2, "Conv2dTranspose", 0)

    def _crops(self, spatial):
        if self.pad_mode == "same":  # crop what forward "same" padding would have added
            crops = []
            for k, s, d in zip(self.kernel_size, self.stride, self.dilation):
                total = d * (k - 1) + 1 - s
                crops.append((total // 2, total - total // 2) if total >= 0 else (0, total))
            return tuple(crops)
        return self._padding(spatial)

    def construct(self, x):
        self._check(x)
        crops = self._crops(tuple(x.shape[2:]))
        extra = self.output_padding if self.pad_mode == "pad" else (0, 0)
        if all(a == b >= 0 for a, b in crops):
            return ops.conv_transpose2d(x, self.weight, self.bias, self.stride,
                                        tuple(a for a, _ in crops), extra, self.group,
                                        self.dilation)
        y = ops.conv_transpose2d(x, self.weight, None, self.stride, 0, extra,
                                 self.group, self.dilation)
        grow = tuple((0, -b) if b < 0 else (0, 0) for _, b in crops)
        if any(g for _, g in grow):  # stride wider than the kernel: zero rows at the end
            y = ops.pad(y, ((0, 0), (0, 0)) + grow)
        h, w = y.shape[2], y.shape[3]
        (t, b), (l, r) = ((a, max(c, 0)) for a, c in crops)
        y = ops.getitem(y, (slice(None), slice(None), slice(t, h - b), slice(l, w - r)))
        if self.bias is not None:
            y = ops.add(y, ops.reshape(self.bias, (-1, 1, 1)))
        return y

    def extend_repr(self) -> str:
        return super().extend_repr() + f", output_padding={self.output_padding}"
