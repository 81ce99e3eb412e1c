"""``NumpySlicesDataset``: rows sliced from in-memory arrays along their first axis."""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .base import SourceDataset

__all__ = ["NumpySlicesDataset"]


class NumpySlicesDataset(SourceDataset):
    """Columns from ``data``: a tuple of arrays (one column each), a dict (name -> array)
    or one array-like (one column). All columns need the same first dimension::

        >>> import numpy as np
        >>> ds = NumpySlicesDataset((np.zeros((3, 2)), np.arange(3)), ["x", "y"],
        ...                         shuffle=False)
        >>> [row[1].item() for row in ds], ds.output_shapes()
        ([0, 1, 2], [[2], []])
    """

    def __init__(self, data, column_names=None, num_samples=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):
        if isinstance(data, dict):
            names, arrays = list(data), [np.asarray(v) for v in data.values()]
        elif isinstance(data, tuple):
            names, arrays = None, [np.asarray(v) for v in data]
        else:
            names, arrays = None, [np.asarray(data)]
        if column_names is not None:
            names = [column_names] if isinstance(column_names, str) else list(column_names)
        names = names or [f"column_{i}" for i in range(len(arrays))]
        if len(names) != len(arrays) or not arrays:
            raise DataError("column names do not match the data", op="NumpySlicesDataset",
                            expected=f"{len(arrays)} names", got=names)
        lengths = {a.shape[0] if a.ndim else None for a in arrays}
        if len(lengths) != 1 or None in lengths:
            raise DataError("columns differ in length", op="NumpySlicesDataset",
                            expected="arrays with the same first dimension",
                            got=[a.shape for a in arrays])
        if any(a.dtype == object for a in arrays):
            raise DataError("object arrays are not supported", op="NumpySlicesDataset",
                            expected="numeric, bool, bytes or str arrays",
                            got=[str(a.dtype) for a in arrays])
        super().__init__(names, num_samples=num_samples, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)
        self._arrays = arrays
        self._n = lengths.pop()

    def _len(self):
        return self._n

    def _read(self, index):
        return tuple(a[index] for a in self._arrays)

    def _gatherer(self):
        if any(a.dtype.kind in "SUV" for a in self._arrays):
            return None  # rows stacked one by one narrow strings to the batch's longest
        return lambda indices: tuple(a[indices] for a in self._arrays)

    def _row_indices(self, run, epoch):
        return self._indices(epoch).tolist()
