"""``Flatten``: merge a range of axes into one."""
from __future__ import annotations

from sporeling.compiler import ops

from ..cell import Cell
from ._check import shape_error

__all__ = ["Flatten"]


class Flatten(Cell):
    """Axes ``start_dim..end_dim`` (inclusive) merged into one; by default all but the batch
    axis, (N, C, H, W) -> (N, C*H*W).

        >>> import numpy as np
        >>> from sporeling.expression import nn
        >>> nn.Flatten()(np.zeros((2, 3, 4), np.float32)).shape
        (2, 12)
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        self.start_dim, self.end_dim = int(start_dim), int(end_dim)

    def construct(self, x):
        shape = tuple(x.shape)
        n = max(len(shape), 1)
        start, end = self.start_dim % n, self.end_dim % n
        if not (-n <= self.start_dim < n and -n <= self.end_dim < n) or start > end:
            raise shape_error(self, "start_dim/end_dim do not fit the input",
                              f"-{n} <= start_dim <= end_dim < {n}", shape)
        merged = 1
        for size in shape[start:end + 1]:
            merged *= size
        return ops.reshape(x, shape[:start] + (merged,) + shape[end + 1:])

    def extend_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
