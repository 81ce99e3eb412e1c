"""``bucket_batch_by_length``: batch rows of similar length together."""
from __future__ import annotations

import bisect

from ..errors import DataError
from .base import UnaryOp, column_indices
from .batch_op import check_pad_info, stack_column

__all__ = ["BucketBatch"]


class BucketBatch(UnaryOp):
    """Bucket ``i`` holds rows with ``boundaries[i-1] <= length < boundaries[i]`` and emits
    a batch when it has ``bucket_batch_sizes[i]`` rows; leftovers come out at the end of the
    epoch, bucket by bucket, unless ``drop_remainder``. With ``pad_to_bucket_boundary``,
    padded axes of ``None`` in ``pad_info`` grow to ``boundary - 1``."""

    def __init__(self, child, column_names, boundaries, batch_sizes, length_fn, pad_info,
                 pad_to_boundary, drop_remainder):
        super().__init__(child)
        op = "bucket_batch_by_length"
        bounds = list(boundaries)
        if not bounds or any(not isinstance(b, int) or b < 1 for b in bounds) or \
                any(a >= b for a, b in zip(bounds, bounds[1:])):
            raise DataError("bad bucket_boundaries", op=op,
                            expected="a strictly increasing list of ints >= 1", got=boundaries)
        sizes = list(batch_sizes)
        if len(sizes) != len(bounds) + 1 or any(not isinstance(s, int) or s < 1 for s in sizes):
            raise DataError("bad bucket_batch_sizes", op=op,
                            expected=f"{len(bounds) + 1} ints >= 1 (one per bucket)",
                            got=batch_sizes)
        self.inputs = column_indices(self.column_names, column_names, op)
        if length_fn is None and len(self.inputs) != 1:
            raise DataError("element_length_function is required for several columns", op=op,
                            expected="one column, or a length function", got=column_names)
        self.length_fn = length_fn
        self.bounds, self.sizes = bounds, sizes
        self.pads = check_pad_info(pad_info, self.column_names, op)
        if pad_to_boundary and not pad_info:
            raise DataError("pad_to_bucket_boundary needs pad_info", op=op,
                            expected="pad_info naming the columns to pad")
        self.pad_to_boundary, self.drop_remainder = bool(pad_to_boundary), bool(drop_remainder)

    def _length(self, row, n, epoch) -> int:
        cols = tuple(row[i] for i in self.inputs)
        if self.length_fn is None:
            return len(cols[0])
        from .map_op import call_user
        return int(call_user(self.length_fn, cols, n, epoch, "element_length_function"))

    def _make(self, rows, bucket):
        out = []
        for c, name in enumerate(self.column_names):
            pad = self.pads.get(name)
            if pad is not None and self.pad_to_boundary and bucket < len(self.bounds):
                shape = pad[0] or (None,) * rows[0][c].ndim
                pad = (tuple(self.bounds[bucket] - 1 if s is None else s for s in shape),
                       pad[1])
            out.append(stack_column([r[c] for r in rows], name, pad,
                                    "bucket_batch_by_length"))
        return tuple(out)

    def _rows(self, run, epoch):
        buckets = [[] for _ in self.sizes]
        for n, row in enumerate(run.rows(self.child, epoch)):
            b = bisect.bisect_right(self.bounds, self._length(row, n, epoch))
            buckets[b].append(row)
            if len(buckets[b]) == self.sizes[b]:
                yield self._make(buckets[b], b)
                buckets[b] = []
        if not self.drop_remainder:
            for b, rows in enumerate(buckets):
                if rows:
                    yield self._make(rows, b)

    def _size(self):
        return None
