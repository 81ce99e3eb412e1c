"""``shuffle(buffer_size)``: a reservoir of rows from which each output is drawn at random."""
from __future__ import annotations

from ..randomness import draw_seed, keyed_rng
from .base import UnaryOp, check_count

__all__ = ["Shuffle"]


class Shuffle(UnaryOp):
    """Rows drawn uniformly from a buffer of ``buffer_size`` (refilled from the child); the
    draws come from (seed, epoch), so the order depends on nothing else."""

    def __init__(self, child, buffer_size, seed=None):
        super().__init__(child)
        self.buffer_size = check_count(buffer_size, "buffer_size", "shuffle", 2)
        self.seed = draw_seed(seed)

    def _rows(self, run, epoch):
        return self._reservoir(run.rows(self.child, epoch), epoch)

    def _gatherer(self):
        return self.child._gatherer()

    def _row_indices(self, run, epoch):  # the same draws, over indices instead of rows
        return list(self._reservoir(run.indices(self.child, epoch), epoch))

    def _reservoir(self, items, epoch):
        rng = keyed_rng(self.seed, epoch)
        buffer = []
        draws = iter(())
        for item in items:
            if len(buffer) < self.buffer_size:
                buffer.append(item)
                continue
            j = next(draws, None)
            if j is None:  # draw indices in blocks: one call per 1024 rows
                draws = iter(rng.integers(0, self.buffer_size, 1024).tolist())
                j = next(draws)
            buffer[j], item = item, buffer[j]
            yield item
        for j in rng.permutation(len(buffer)).tolist():
            yield buffer[j]
