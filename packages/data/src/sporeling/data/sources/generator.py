"""``GeneratorDataset``: rows from user Python code (random-access or iterable)."""
from __future__ import annotations

import numpy as np

from ..columns import as_column
from ..errors import DataError
from ..samplers import SequentialSampler
from .base import SourceDataset

__all__ = ["GeneratorDataset"]


def as_row(value, ncols: int, where: str) -> tuple:
    """A user's item as a row tuple of column values (arrays, or dicts of them), checked
    against the column count."""
    row = value if isinstance(value, (tuple, list)) else (value,)
    if len(row) != ncols:
        raise DataError("an item has the wrong number of columns", op="GeneratorDataset",
                        expected=f"{ncols} (one per column name)", got=len(row), where=where)
    return tuple(c if type(c) is np.ndarray else as_column(c) for c in row)


class GeneratorDataset(SourceDataset):
    """Rows from ``source``: random access (``__getitem__`` + ``__len__``, read through a
    sampler like any source), an iterable (re-iterated each epoch), or a callable returning
    a fresh iterator (a generator function). Each item is a tuple with one value per name
    in ``column_names``::

        >>> def gen():
        ...     for i in range(3):
        ...         yield i, i * i
        >>> ds = GeneratorDataset(gen, column_names=["i", "sq"])
        >>> [int(r[1]) for r in ds]
        [0, 1, 4]
        >>> class Squares:
        ...     def __len__(self): return 4
        ...     def __getitem__(self, i): return i * i
        >>> [int(r[0]) for r in GeneratorDataset(Squares(), ["sq"], shuffle=False)]
        [0, 1, 4, 9]
    """

    def __init__(self, source, column_names, num_samples=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None):
        names = [column_names] if isinstance(column_names, str) else list(column_names or [])
        if not names:
            raise DataError("column_names is required", op="GeneratorDataset",
                            expected="one name per item field")
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not self.random_access:
            if not (hasattr(source, "__iter__") or callable(source)):
                raise DataError("bad source", op="GeneratorDataset",
                                expected="an object with __getitem__ and __len__, an "
                                "iterable, or a callable returning an iterator",
                                got=type(source).__name__)
            if sampler is not None or shuffle or num_shards is not None:
                raise DataError("an iterable source cannot be sampled, shuffled or sharded",
                                op="GeneratorDataset",
                                expected="a random-access source (__getitem__, __len__)",
                                got=type(source).__name__, hint="use .shuffle(buffer_size) "
                                "after the source, or give the source __getitem__/__len__")
            sampler = SequentialSampler(num_samples=num_samples)
            shuffle = None
        super().__init__(names, num_samples=num_samples, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)
        self.source = source
        self.fork_safe = self.random_access

    def _len(self):
        return len(self.source)

    def _read(self, index):
        return as_row(self.source[index], len(self.column_names), f"item {index}")

    def _rows(self, run, epoch):
        if self.random_access:
            yield from super()._rows(run, epoch)
            return
        for _, row in self._indexed_rows(run, epoch):
            yield row

    def _indexed_rows(self, run, epoch):
        if self.random_access:
            yield from super()._indexed_rows(run, epoch)
            return
        items = self.source() if callable(self.source) and not hasattr(self.source, "__iter__") \
            else self.source
        limit = self.sampler._num
        for n, item in enumerate(items):
            if limit is not None and n >= limit:
                return
            yield n, as_row(item, len(self.column_names), f"item {n}")

    def _size(self):
        if self.random_access:
            return super()._size()
        if self.sampler._num is not None and hasattr(self.source, "__len__"):
            return min(len(self.source), self.sampler._num)
        return len(self.source) if hasattr(self.source, "__len__") else None
