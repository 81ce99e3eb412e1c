"""Iterators over a dataset: tuples or dicts of NumPy arrays, for ``num_epochs`` epochs.

Iterating the iterator runs one epoch; iterating it again runs the next, until
``num_epochs`` (``-1``: no limit) have run. Worker pools live for all epochs of an
iterator and stop when it is exhausted, closed, raises or is garbage-collected::

    >>> import numpy as np
    >>> from sporeling.data import NumpySlicesDataset
    >>> ds = NumpySlicesDataset({"x": np.arange(4)}, shuffle=False).batch(2)
    >>> it = ds.create_dict_iterator(num_epochs=2)
    >>> [[int(b["x"].sum()) for b in it] for _ in range(2)]
    [[1, 5], [1, 5]]
"""
from __future__ import annotations

from .engine import Run
from .errors import DataError

__all__ = ["TupleIterator", "DictIterator"]


class TupleIterator:
    """Rows as tuples of NumPy arrays (``columns`` selects and orders them)."""

    def __init__(self, dataset, columns=None, num_epochs: int = -1):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or \
                (num_epochs < 1 and num_epochs != -1):
            raise DataError("bad num_epochs", op="create_iterator",
                            expected="an int >= 1 or -1 (no limit)", got=repr(num_epochs))
        names = dataset.get_col_names()
        if columns is None:
            self._pick = None
            self._names = names
        else:
            columns = [columns] if isinstance(columns, str) else list(columns)
            missing = [c for c in columns if c not in names]
            if missing:
                raise DataError(f"unknown column(s) {missing}", op="create_iterator",
                                expected=f"names among {names}", got=columns)
            self._pick = [names.index(c) for c in columns]
            self._names = columns
        self._dataset, self._left = dataset, num_epochs
        self._run = Run(dataset)
        self._epoch_rows = None

    def __iter__(self):
        return self

    def _format(self, row):
        return tuple(row) if self._pick is None else tuple(row[i] for i in self._pick)

    def __next__(self):
        if self._epoch_rows is None:
            if self._left == 0 or self._run.closed:
                self.close()
                raise StopIteration
            self._epoch_rows = self._run.rows(self._dataset, self._dataset._next_epoch())
        try:
            row = next(self._epoch_rows)
        except StopIteration:
            self._epoch_rows = None
            if self._left > 0:
                self._left -= 1
                if self._left == 0:
                    self.close()
            raise
        except BaseException:
            self.close()
            raise
        return self._format(row)

    def profile_report(self):
        """The per-operation report of this iterator's epochs so far."""
        return self._run.report()

    def close(self) -> None:
        """Stop every worker of this iterator now."""
        self._epoch_rows = None
        self._left = 0
        self._run.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class DictIterator(TupleIterator):
    """Rows as ``{column name: NumPy array}`` dicts."""

    def _format(self, row):
        if self._pick is None:
            return dict(zip(self._names, row))
        return {name: row[i] for name, i in zip(self._names, self._pick)}
