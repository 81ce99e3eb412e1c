"""MobileNetV2 (Sandler, Howard, Zhu, Zhmoginov and Chen, "MobileNetV2: Inverted Residuals
and Linear Bottlenecks", CVPR 2018), with the paper's width multiplier."""
from __future__ import annotations

from sporeling.expression import nn, ops

__all__ = ["InvertedResidual", "MobileNetV2"]

# the paper's table 2: expansion t, channels c, repeats n, first stride s
_SETTINGS = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
             (6, 160, 3, 2), (6, 320, 1, 1))


def _divisible(value: float, divisor: int = 8) -> int:
    """Channels rounded to a multiple of 8, never below 90% of ``value`` (the reference
    implementation's rule)."""
    rounded = max(divisor, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


def _conv_bn_relu6(cin, cout, kernel, stride, group=1):
    return nn.SequentialCell(
        nn.Conv2d(cin, cout, kernel, stride=stride, pad_mode="same", group=group),
        nn.BatchNorm2d(cout), nn.ReLU6())


class InvertedResidual(nn.Cell):
    """1x1 expansion, 3x3 depthwise convolution, linear 1x1 projection; a residual when the
    shape is kept."""

    def __init__(self, cin: int, cout: int, stride: int, expand: int):
        super().__init__()
        hidden = cin * expand
        layers = [] if expand == 1 else [_conv_bn_relu6(cin, hidden, 1, 1)]
        layers += [_conv_bn_relu6(hidden, hidden, 3, stride, group=hidden),
                   nn.Conv2d(hidden, cout, 1, pad_mode="same"), nn.BatchNorm2d(cout)]
        self.body = nn.SequentialCell(layers)
        self.residual = stride == 1 and cin == cout

    def construct(self, x):
        y = self.body(x)
        return ops.add(x, y) if self.residual else y


class MobileNetV2(nn.Cell):
    """MobileNetV2: a conv stem, 17 inverted-residual blocks, a 1x1 conv to 1280 channels
    (scaled when ``width_mult > 1``), global pooling, dropout and a dense head.

    ``width_mult`` scales every layer's channels (the paper's 0.35--1.4). The zoo's digits
    model uses ``width_mult=0.5``. ``small_input=True`` (the default, for 8x8 digits) makes
    the stem stride 1, so the maps go 8 -> 4 -> 2 -> 1 over the stride-2 stages; False is
    the paper's stride-2 stem for 224x224 images.

        >>> import numpy as np, sporeling.expression as sx
        >>> MobileNetV2(width_mult=0.35)(sx.Tensor(np.zeros((2, 1, 8, 8), np.float32))).shape
        (2, 10)
    """

    def __init__(self, num_classes: int = 10, in_channels: int = 1, width_mult: float = 0.5,
                 small_input: bool = True, dropout: float = 0.2):
        super().__init__()
        cin = _divisible(32 * width_mult)
        last = _divisible(1280 * max(1.0, width_mult))
        layers = [_conv_bn_relu6(in_channels, cin, 3, 1 if small_input else 2)]
        for t, c, n, s in _SETTINGS:
            cout = _divisible(c * width_mult)
            for i in range(n):
                layers.append(InvertedResidual(cin, cout, s if i == 0 else 1, t))
                cin = cout
        layers.append(_conv_bn_relu6(cin, last, 1, 1))
        self.features = nn.SequentialCell(layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.dropout = nn.Dropout(p=dropout)
        self.head = nn.Dense(last, num_classes)

    def construct(self, x):
        return self.head(self.dropout(self.flatten(self.pool(self.features(x)))))
