"""Tensor layouts: how a tensor is laid out over the devices.

The ``N = 2**k`` devices form a device matrix of ``k`` axes of size 2 (axis 0 is the most
significant bit of the rank). A :class:`Layout` is MindSpore's device matrix + tensor map in
that binary form: ``dims[d]`` lists the device axes that split tensor dimension ``d``, outer
first (so dimension ``d`` is cut into ``2**len(dims[d])`` blocks, the block index being the
bits of those axes read in order); axes used nowhere replicate the tensor. ``partial`` lists
axes over which the tensor is a partial result still to be reduced (a matmul whose
contracted dimension was split), with the reduction (``"sum"``, ``"mean"``, ``"max"``,
``"min"``).

    >>> lay = Layout(2, ((0,), ()))           # 4 devices, rows split in 2, replicated twice
    >>> lay.splits, lay.local_shape((8, 3))
    ((2, 1), (4, 3))
    >>> [lay.block(r, (8, 3)) for r in range(4)]  # doctest: +NORMALIZE_WHITESPACE
    [(slice(0, 4, None), slice(0, 3, None)), (slice(0, 4, None), slice(0, 3, None)),
     (slice(4, 8, None), slice(0, 3, None)), (slice(4, 8, None), slice(0, 3, None))]
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import ShardingError

__all__ = ["Layout", "axes_for", "rank_bit"]


def axes_for(device_num: int, *, op: str = "layout") -> int:
    """``k`` with ``2**k == device_num``; device counts must be powers of two."""
    k = int(device_num).bit_length() - 1
    if device_num < 1 or 2 ** k != device_num:
        raise ShardingError("operator parallel needs a power-of-two device count", op=op,
                            expected="1, 2, 4, 8, ...", got=device_num)
    return k


def rank_bit(rank: int, axis: int, n_axes: int) -> int:
    """The coordinate (0 or 1) of ``rank`` on device axis ``axis``."""
    return (rank >> (n_axes - 1 - axis)) & 1


@dataclass(frozen=True)
class Layout:
    n_axes: int
    dims: tuple[tuple[int, ...], ...]
    partial: tuple[tuple[int, str], ...] = ()

    @staticmethod
    def replicated(n_axes: int, ndim: int) -> "Layout":
        return Layout(n_axes, ((),) * ndim)

    @property
    def device_num(self) -> int:
        return 2 ** self.n_axes

    @property
    def device_matrix(self) -> tuple[int, ...]:
        return (2,) * self.n_axes

    @property
    def tensor_map(self) -> tuple[tuple[int, ...], ...]:
        return self.dims

    @property
    def splits(self) -> tuple[int, ...]:
        """Blocks per tensor dimension (the user's strategy for this tensor)."""
        return tuple(2 ** len(axes) for axes in self.dims)

    @property
    def used_axes(self) -> set[int]:
        return {a for axes in self.dims for a in axes} | {a for a, _ in self.partial}

    def local_shape(self, shape) -> tuple[int, ...]:
        return tuple(int(n) // s for n, s in zip(shape, self.splits))

    def local_size(self, shape) -> int:
        size = 1
        for n in shape:
            size *= int(n)
        return size >> sum(len(axes) for axes in self.dims)  # every split divides

    def block_index(self, rank: int, dim: int) -> int:
        index = 0
        for axis in self.dims[dim]:
            index = index * 2 + rank_bit(rank, axis, self.n_axes)
        return index

    def block(self, rank: int, shape) -> tuple[slice, ...]:
        """The slice of the global tensor that ``rank`` holds."""
        out = []
        for d, n in enumerate(shape):
            size = int(n) // (2 ** len(self.dims[d]))
            start = self.block_index(rank, d) * size
            out.append(slice(start, start + size))
        return tuple(out)

    def without_partial(self) -> "Layout":
        return Layout(self.n_axes, self.dims)

    def __str__(self) -> str:
        text = "[" + ", ".join(str(s) for s in self.splits) + "]"
        maps = ",".join("".join(map(str, axes)) or "-" for axes in self.dims)
        text += f" map({maps})"
        if self.partial:
            text += " partial(" + ",".join(f"{op}@{a}" for a, op in self.partial) + ")"
        return text
