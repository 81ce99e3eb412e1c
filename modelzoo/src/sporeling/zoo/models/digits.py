"""Small classifiers for 8x8 digit images (1 channel), the main job's models."""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.expression import nn

__all__ = ["LeNet5", "DigitsMLP"]


class LeNet5(nn.Cell):
    """LeNet-5 (LeCun, Bottou, Bengio and Haffner, "Gradient-Based Learning Applied to
    Document Recognition", Proc. IEEE 1998), its shape sized for 8x8 inputs: two
    conv+ReLU+max-pool stages (8x8 -> 4x4 -> 2x2), then three dense layers. Input
    (N, 1, 8, 8), output logits (N, num_classes).

        >>> import numpy as np
        >>> LeNet5()(sx.Tensor(np.zeros((2, 1, 8, 8), np.float32))).shape
        (2, 10)
    """

    def __init__(self, num_classes: int = 10, channels: tuple[int, int] = (32, 64)):
        super().__init__()
        c1, c2 = channels
        self.features = nn.SequentialCell(
            nn.Conv2d(1, c1, 3, pad_mode="same", has_bias=True), nn.ReLU(),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(c1, c2, 3, pad_mode="same", has_bias=True), nn.ReLU(),
            nn.MaxPool2d(2, 2),
            nn.Flatten())
        self.classifier = nn.SequentialCell(
            nn.Dense(c2 * 4, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(),
            nn.Dense(84, num_classes))

    def construct(self, x):
        return self.classifier(self.features(x))


class DigitsMLP(nn.Cell):
    """A 64-256-128-10 multilayer perceptron over flattened 8x8 images (Rumelhart, Hinton
    and Williams, "Learning representations by back-propagating errors", Nature 1986)."""

    def __init__(self, num_classes: int = 10, hidden: tuple[int, int] = (256, 128)):
        super().__init__()
        h1, h2 = hidden
        self.body = nn.SequentialCell(nn.Flatten(), nn.Dense(64, h1), nn.ReLU(),
                                      nn.Dense(h1, h2), nn.ReLU(), nn.Dense(h2, num_classes))

    def construct(self, x):
        return self.body(x)
