"""Residual networks (He, Zhang, Ren and Sun, "Deep Residual Learning for Image
Recognition", CVPR 2016): the CIFAR-style ResNet-20 and the ImageNet-style ResNet-18.

Both take ``in_channels`` and ``num_classes``; the zoo registers them for the 1-channel 8x8
digits. Shortcuts that change shape are 1x1 convolutions with BatchNorm (the paper's
option B).
"""
from __future__ import annotations

from sporeling.expression import nn, ops

__all__ = ["BasicBlock", "ResNet20", "ResNet18"]


def _conv_bn(cin: int, cout: int, kernel: int, stride: int) -> nn.SequentialCell:
    return nn.SequentialCell(nn.Conv2d(cin, cout, kernel, stride=stride, pad_mode="same"),
                             nn.BatchNorm2d(cout))


class BasicBlock(nn.Cell):
    """Two 3x3 conv+BN layers and a shortcut: ``relu(F(x) + shortcut(x))``."""

    def __init__(self, cin: int, cout: int, stride: int = 1):
        super().__init__()
        self.body = nn.SequentialCell(_conv_bn(cin, cout, 3, stride), nn.ReLU(),
                                      _conv_bn(cout, cout, 3, 1))
        self.shortcut = _conv_bn(cin, cout, 1, stride) if stride != 1 or cin != cout \
            else None
        self.relu = nn.ReLU()

    def construct(self, x):
        skip = x if self.shortcut is None else self.shortcut(x)
        return self.relu(ops.add(self.body(x), skip))


class _ResNet(nn.Cell):
    def __init__(self, stem, widths, blocks, strides, num_classes):
        super().__init__()
        layers, cin = [], widths[0]
        for width, count, stride in zip(widths, blocks, strides):
            for i in range(count):
                layers.append(BasicBlock(cin, width, stride if i == 0 else 1))
                cin = width
        self.stem = stem
        self.stages = nn.SequentialCell(layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.head = nn.Dense(cin, num_classes)

    def construct(self, x):
        return self.head(self.flatten(self.pool(self.stages(self.stem(x)))))


class ResNet20(_ResNet):
    """ResNet-20 for small images (He et al. 2016, section 4.2): a 3x3 stem, three stages of
    three basic blocks (16, 32, 64 channels; the last two halve the resolution), global
    average pooling, a dense head. Input (N, in_channels, H, W), output (N, num_classes).

        >>> import numpy as np, sporeling.expression as sx
        >>> ResNet20()(sx.Tensor(np.zeros((2, 1, 8, 8), np.float32))).shape
        (2, 10)
    """

    def __init__(self, num_classes: int = 10, in_channels: int = 1,
                 widths: tuple[int, int, int] = (16, 32, 64), blocks_per_stage: int = 3):
        stem = nn.SequentialCell(_conv_bn(in_channels, widths[0], 3, 1), nn.ReLU())
        super().__init__(stem, widths, (blocks_per_stage,) * 3, (1, 2, 2), num_classes)


class ResNet18(_ResNet):
    """ResNet-18 (He et al. 2016, table 1): four stages of two basic blocks.

    ``base_width=64`` is the paper's width (11 M parameters); the zoo's digits model uses
    ``base_width=16`` (0.7 M). ``small_input=True`` (the default, for 8x8 digits) replaces
    the 7x7 stride-2 stem and its max-pool by one 3x3 stride-1 convolution, so the four
    stages see 8x8, 4x4, 2x2 and 1x1 maps; ``small_input=False`` is the paper's stem.
    """

    def __init__(self, num_classes: int = 10, in_channels: int = 1, base_width: int = 16,
                 small_input: bool = True):
        w = base_width
        if small_input:
            stem = nn.SequentialCell(_conv_bn(in_channels, w, 3, 1), nn.ReLU())
        else:
            stem = nn.SequentialCell(_conv_bn(in_channels, w, 7, 2), nn.ReLU(),
                                     nn.MaxPool2d(3, 2, pad_mode="same"))
        super().__init__(stem, (w, 2 * w, 4 * w, 8 * w), (2, 2, 2, 2), (1, 2, 2, 2),
                         num_classes)
