"""``split``: a dataset into parts that never share a sample."""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from ..randomness import draw_seed, keyed_rng
from ..samplers import RandomSampler, SubsetRandomSampler, SubsetSampler
from .base import UnaryOp

__all__ = ["split"]


def _part_sizes(sizes, total: int) -> list[int]:
    sizes = list(sizes)
    if not sizes:
        raise DataError("no sizes", op="split", expected="a list of sizes")
    if all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        if any(s < 1 for s in sizes) or sum(sizes) != total:
            raise DataError("sizes do not add up to the dataset size", op="split",
                            expected=f"ints >= 1 summing to {total}", got=sizes)
        return sizes
    if any(not 0 < s < 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
        raise DataError("bad split fractions", op="split",
                        expected="fractions in (0, 1) summing to 1", got=sizes)
    counts = [int(np.floor(s * total)) for s in sizes]
    for i in range(total - sum(counts)):  # hand out the rounding remainder
        counts[i % len(counts)] += 1
    if any(c == 0 for c in counts):
        raise DataError("a split part would be empty", op="split",
                        expected="fractions large enough for one sample each", got=sizes)
    return counts


class _Positions(UnaryOp):
    """Rows ``start <= position < stop`` of the child's epoch."""

    def __init__(self, child, start, stop):
        super().__init__(child)
        self.start, self.stop = start, stop

    def _rows(self, run, epoch):
        for n, row in enumerate(run.rows(self.child, epoch)):
            if n >= self.stop:
                return
            if n >= self.start:
                yield row

    def _size(self):
        return self.stop - self.start


def split(dataset, sizes, randomize: bool):
    from ..sources.base import SourceDataset
    total = dataset.get_dataset_size()
    counts = _part_sizes(sizes, total)
    bounds = np.cumsum([0] + counts)
    if isinstance(dataset, SourceDataset):
        order = dataset._indices(0)
        if randomize:
            order = keyed_rng(draw_seed(), 0).permutation(order)
        shuffled = isinstance(dataset.sampler, RandomSampler) or randomize
        parts = []
        for a, b in zip(bounds[:-1], bounds[1:]):
            subset = np.sort(order[a:b])
            sampler = SubsetRandomSampler(subset) if shuffled else SubsetSampler(subset)
            parts.append(dataset._with_sampler(sampler))
        return parts
    if randomize:
        raise DataError("only a source can be split at random", op="split",
                        expected="randomize=False for a pipeline of operations",
                        got=type(dataset).__name__,
                        hint="split the source first, then apply the operations to each part")
    return [_Positions(dataset, int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]
